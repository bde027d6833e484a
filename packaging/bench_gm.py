"""The automated GM's speed: ``.venv/bin/python packaging/bench_gm.py [--seeds N]``.

Plays campaigns with the autoplay policy and measures, per step: the autoplay's
choice (which may play a fight out in copies of the campaign), the engine
applying the action, turning the campaign into its save dict,
and committing it to a real SQLite save (one transaction, WAL) — the autosave
the game makes after every step.  Prints medians, the 90th percentile, and
exploration turns per second of the engine alone.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def pct(samples: list[float], p: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(p * len(s)))] * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--expeditions", type=int, default=3)
    args = ap.parse_args()

    from desktop.persistence import SaveFile
    from dungeon_gen.site import GeneratedDungeons
    from rules.autoplay import suggest
    from rules.content.registry import load_content
    from rules.gm.campaign import new_campaign
    from rules.gm.engine import GM
    from rules.gm.state import Phase

    content = load_content()
    maker = GeneratedDungeons()
    engine: list[float] = []
    choices: list[float] = []  # the autoplay's choice (it may look ahead: rules.autoplay.lookahead)
    dumps: list[float] = []
    commits: list[float] = []
    sizes: list[int] = []
    turns = 0
    engine_total = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.seeds):
            c = new_campaign(content, maker, seed, 3)
            gm = GM(c, content, maker)
            with SaveFile.create(Path(tmp) / f"c{seed}.sqlite3", c.to_dict()) as save:
                while c.phase is not Phase.OVER and c.stats.expeditions <= args.expeditions and c.stats.steps < 20000:
                    tc = time.perf_counter()
                    action = suggest(gm)
                    if action is None:
                        break
                    before = c.stats.turns
                    t0 = time.perf_counter()
                    choices.append(t0 - tc)
                    events = gm.apply(action)
                    t1 = time.perf_counter()
                    data = c.to_dict()
                    t2 = time.perf_counter()
                    save.commit_step(c.stats.steps, data, [e.to_dict() for e in events])
                    t3 = time.perf_counter()
                    engine.append(t1 - t0)
                    dumps.append(t2 - t1)
                    commits.append(t3 - t2)
                    engine_total += t1 - t0
                    turns += c.stats.turns - before
                    if c.stats.steps % 50 == 0:
                        import json

                        sizes.append(len(json.dumps(data)))
    print(f"steps measured           {len(engine)} over {args.seeds} campaigns")
    print(f"engine step              median {statistics.median(engine) * 1000:.2f} ms, p90 {pct(engine, 0.9):.2f} ms")
    print(f"autoplay choice          median {statistics.median(choices) * 1000:.2f} ms, p90 {pct(choices, 0.9):.2f} ms,"
          f" p99 {pct(choices, 0.99):.0f} ms, worst {max(choices) * 1000:.0f} ms")  # fmt: skip
    print(f"campaign -> save dict    median {statistics.median(dumps) * 1000:.2f} ms, p90 {pct(dumps, 0.9):.2f} ms")
    print(f"autosave commit          median {statistics.median(commits) * 1000:.2f} ms, p90 {pct(commits, 0.9):.2f} ms")
    both = [a + b for a, b in zip(dumps, commits, strict=True)]
    print(f"autosave (dict + commit) median {statistics.median(both) * 1000:.2f} ms, p90 {pct(both, 0.9):.2f} ms")
    print(f"engine speed             {len(engine) / engine_total:.0f} steps/s, {turns / engine_total:.0f} turns/s")
    if sizes:
        print(
            f"campaign JSON            median {statistics.median(sizes) / 1024:.0f} KB, max {max(sizes) / 1024:.0f} KB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
