"""Write .dd2vtt files to open with a real importer's own code (``packaging/vtt_import_check.js``).

``.venv/bin/python packaging/vtt_import_check.py DIR`` writes, into DIR, the GM's and the players'
VTT files of three dungeons (30 rooms; 60 rooms on two levels; 16 rooms), beside each a
``.facts.json`` with what the dungeon itself says (each room's floor, where the party comes in,
the rooms the players reach without finding a secret door, the floor), and a control file: the
30-room GM file with its archways written back as open portals, as the export did before issue #15.
Then ``node packaging/vtt_import_check.js PATH/TO/ddimport.js DIR`` runs Foundry's Universal
Battlemap Importer (moo-man/FVTT-DD-Import, not part of this project) on each file.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from desktop.dungeon_export import export_dungeon
from dungeon_gen.export.walls import all_connections, floor_tiles, level_geometry, open_part
from dungeon_gen.generate import generate
from dungeon_gen.model import LevelData

DUNGEONS = ((7, 30, None, 1), (3, 60, None, 2), (2024, 16, "necromancer_tomb", 1))


def facts(level: LevelData, starts: list[int]) -> dict[str, object]:
    conns = all_connections(level)
    ways = {(x, y) for w in getattr(level, "entrance_ways", []) for x, y in w.path}
    return {
        "rooms": {r.id: sorted(r.floor()) for r in level.rooms},
        "starts": starts,
        "open_rooms": sorted(open_part(level).rooms),
        "doors": sum(1 for c in conns if c.door.kind != "archway"),
        "archways": sum(1 for c in conns if c.door.kind == "archway"),
        "secret": sum(1 for c in conns if c.door.kind == "secret"),
        "lit": sum(1 for r in level.rooms if r.lit),
        "floor": sorted(floor_tiles(level) | ways),
    }


def main(out: Path) -> None:
    for seed, rooms, theme, depth in DUNGEONS:
        d = generate(seed, rooms=rooms, theme=theme, depth=depth, level=3)
        stem = f"s{seed}-r{rooms}"
        export_dungeon(d, ["uvtt"], out / stem)
        for lv in d.levels:
            starts = (
                sorted(d.entrances) if lv.depth == 1 else sorted({s.room for s in lv.stairs if s.to_depth < lv.depth})
            )
            suffix = "" if len(d.levels) == 1 else f"-level{lv.depth}"
            (out / f"{stem}{suffix}.facts.json").write_text(json.dumps(facts(lv, starts)))
    # The control: archways as open portals (closed: false), as before #15.
    lv = generate(7, rooms=30, level=3).levels[0]
    data = json.loads((out / "s7-r30-gm.dd2vtt").read_text())
    for door in level_geometry(lv).doors:
        if door.kind == "archway":
            s = door.segment
            data["portals"].append(
                {
                    "position": {"x": (s.x1 + s.x2) / 2, "y": (s.y1 + s.y2) / 2},
                    "bounds": [{"x": s.x1, "y": s.y1}, {"x": s.x2, "y": s.y2}],
                    "rotation": 0.0,
                    "closed": False,
                    "freestanding": False,
                }
            )
    (out / "control-archways-as-portals-gm.dd2vtt").write_text(json.dumps(data))
    (out / "control-archways-as-portals.facts.json").write_text((out / "s7-r30.facts.json").read_text())


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    main(target)
