"""Does difficulty mean something (issue #15)?

    .venv/bin/python tests/dungeon_gen/measure_difficulty.py [THEME ...] [--seeds N] [--rooms R]

For each theme and difficulty 1-10 (within the theme's range), N one-level dungeons (seeds 1-N) of
R rooms: the mean summed strength of the monsters placed in rooms (bestiary level x count), of the
traps (attack dice + doom), and the treasure's silver; how often the master is the strongest thing
on its level; and whether the last doom step is its hardest fight.  Then three-level dungeons:
the same by depth.  A measuring tool, not a test (tests/dungeon_gen/test_difficulty.py is the test).
"""

from __future__ import annotations

import sys
from statistics import mean

from dungeon_gen.difficulty import LevelReport, level_report
from dungeon_gen.generate import generate
from dungeon_gen.themes import load_themes

args = sys.argv[1:]
n = int(args[args.index("--seeds") + 1]) if "--seeds" in args else 10
rooms = int(args[args.index("--rooms") + 1]) if "--rooms" in args else 20
names = [a for a in args if not a.startswith("--") and not a.isdigit()] or sorted(load_themes())
for theme in names:
    th = load_themes()[theme]
    print(
        f"{theme} ({n} seeds, {rooms} rooms, one level): difficulty: monsters / traps / treasure; "
        "master strongest; final doom hardest"
    )
    for level in range(th.min_level, th.max_level + 1):
        reps = [
            level_report(generate(s, theme=theme, level=level, rooms=rooms, depth=1).levels[0]) for s in range(1, n + 1)
        ]
        print(
            f"  {level:2}: {mean(r.monsters for r in reps):6.1f} / {mean(r.traps for r in reps):5.1f} / "
            f"{mean(r.treasure for r in reps):6.1f}   {sum(r.master_strongest for r in reps)}/{n}   "
            f"{sum(r.final_hardest for r in reps)}/{n}"
        )
    level = th.min_level
    by_depth: dict[int, list[LevelReport]] = {}
    for s in range(1, n + 1):
        d = generate(s, theme=theme, level=level, rooms=rooms, depth=3)
        for lv in d.levels:
            by_depth.setdefault(lv.depth, []).append(level_report(lv))
    print(f"  three levels at difficulty {level}, by depth: monsters / traps / treasure")
    for depth, reps in sorted(by_depth.items()):
        m, t, v = (mean(getattr(r, k) for r in reps) for k in ("monsters", "traps", "treasure"))
        print(f"   depth {depth}: {m:6.1f} / {t:5.1f} / {v:6.1f}")
