"""Print the log of an autoplay campaign: ``.venv/bin/python packaging/trace_campaign.py SEED [--expeditions N]``.

Every visible event of :func:`rules.autoplay.simulate.run` as one line, prefixed with the phase it ended in
(``[inte]``, ``[expl]``, ``[comb]``, ``[camp]``, ``[over]``), then each adventurer's sheet (attributes as
score/proficiency, inventory).  ``--quiet`` leaves out tests, moves and round numbers; ``--dungeon`` leaves
out the interlude; ``--limit`` stops after that many lines.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

NOISE = (" tests ", " moves to ", "Round ", " moves.", "usage die")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("--expeditions", type=int, default=1)
    ap.add_argument("--party", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0, help="stop after this many lines (0: all)")
    ap.add_argument("--quiet", action="store_true", help="no tests, moves or round numbers")
    ap.add_argument("--dungeon", action="store_true", help="only what happens outside the settlements")
    ap.add_argument("--hidden", action="store_true", help="show the GM's hidden events too (doom, omens)")
    a = ap.parse_args()

    from dungeon_gen.site import GeneratedDungeons
    from rules.autoplay.simulate import run
    from rules.content.registry import load_content
    from rules.gm.engine import GM
    from rules.gm.events import Event

    lines: list[str] = []

    def on_step(gm: GM, events: list[Event]) -> None:
        for e in events:
            if e.data.get("hidden") and not a.hidden:
                if e.kind == "doom":
                    lines.append(f"[{gm.c.phase.value[:4]}] (doom {e.data.get('doom')})")
                continue
            if a.quiet and any(n in e.text for n in NOISE):
                continue
            phase = gm.c.phase.value[:4]
            if a.dungeon and phase == "inte" and e.kind not in ("exit", "death", "campaign_over"):
                continue
            lines.append(f"[{phase}] {e.text}")

    gm, stats = run(
        load_content(), GeneratedDungeons(), seed=a.seed, expeditions=a.expeditions, party=a.party, on_step=on_step
    )
    shown = lines[: a.limit] if a.limit else lines
    print("\n".join(shown))
    for m in gm.c.party + gm.c.fallen:
        ch = m.adv.character
        attrs = {x.value: f"{s.score}/{s.proficiency}" for x, s in ch.attrs.items()}
        print(f"{m.name} ({m.adv.klass}) {attrs} {[i.name for i in m.adv.inventory.items]} {m.fate}")
    print({k: stats[k] for k in ("expeditions", "turns", "combats", "deaths", "silver_earned", "outcome")})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
