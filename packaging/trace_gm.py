"""Fingerprint the GM's behaviour, to prove a refactor changes nothing: ``packaging/trace_gm.py OUT SEED...``.

For each seed the autoplay plays ``--expeditions`` expeditions (:func:`rules.autoplay.simulate.run`) and this
writes, in ``OUT``:

* ``SEED.events`` — every event of every step (kind, text, data), and after every step the whole list of
  legal actions (id, availability, reason, label);
* ``SEED.final.json`` — the campaign as saved at the end;
* ``SEED.stats.json`` — the statistics ``blacksalt simulate --json`` prints.

Run it on the tree before a change and on the tree after (pin the tree with ``PYTHONPATH``, or run each
from its own checkout), then compare the folders (``diff -r``): a refactor that changes no behaviour leaves
them byte-identical.  Used for the layering of ``rules/gm`` (#12: 10 seeds x 3 expeditions, 1,495 steps).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.gm.engine import GM
    from rules.gm.events import Event

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _record(lines: list[str], gm: GM, events: list[Event]) -> None:
    lines.extend(json.dumps(e.to_dict(), sort_keys=True, default=str) for e in events)
    listed = [(x.id, x.available, x.reason, x.label) for x in gm.legal_actions()]
    lines.append("ACTIONS " + json.dumps(listed))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("seeds", type=int, nargs="+")
    ap.add_argument("--expeditions", type=int, default=3)
    ap.add_argument("--party", type=int, default=3)
    a = ap.parse_args()

    from dungeon_gen.site import GeneratedDungeons
    from rules.autoplay.simulate import run
    from rules.content.registry import load_content

    content = load_content()
    maker = GeneratedDungeons()
    a.out.mkdir(parents=True, exist_ok=True)
    for seed in a.seeds:
        lines: list[str] = []
        gm, stats = run(content, maker, seed=seed, expeditions=a.expeditions, party=a.party,
                        on_step=lambda g, events, lines=lines: _record(lines, g, events))  # fmt: skip
        text = "\n".join(lines)
        (a.out / f"{seed}.events").write_text(text)
        (a.out / f"{seed}.final.json").write_text(json.dumps(gm.c.to_dict(), sort_keys=True, indent=1, default=str))
        (a.out / f"{seed}.stats.json").write_text(json.dumps(stats, indent=2))
        print(seed, stats["steps"], "steps", hashlib.sha1(text.encode()).hexdigest()[:12], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
