"""Every export format of ``blacksalt dungeon``, opened with a real parser."""

from __future__ import annotations

import base64
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from PIL import Image
from pypdf import PdfReader

from desktop.cli import run
from dungeon_gen.export.json_io import schema_path

UVTT_KEYS = {"format", "resolution", "line_of_sight", "portals", "lights", "image"}


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export")
    code = run(["dungeon", "--seed", "31337", "--rooms", "12", "--depth", "2", "--level", "3", "--format", "all",
                "--out", str(out / "vault")])  # fmt: skip
    assert code == 0
    return out


def test_every_file_is_written(exported: Path) -> None:
    names = sorted(p.name for p in exported.iterdir())
    assert names == sorted(
        ["vault.json", "vault.md", "vault.pdf"]
        + [f"vault-level{d}{v}.{ext}" for d in (1, 2) for v in ("", "-player") for ext in ("svg", "png")]
        + [f"vault-level{d}-{who}.dd2vtt" for d in (1, 2) for who in ("gm", "player")]
    )


def test_json_validates_against_the_shipped_schema(exported: Path) -> None:
    data = json.loads((exported / "vault.json").read_text())
    jsonschema.validate(data, json.loads(schema_path().read_text()))
    assert len(data["deeper_levels"]) == 1


def test_png_decodes(exported: Path) -> None:
    for path in exported.glob("*.png"):
        with Image.open(path) as im:
            im.load()
            assert im.format == "PNG" and im.width > 400 and im.height > 400
    gm = Image.open(exported / "vault-level1.png").convert("RGB")
    player = Image.open(exported / "vault-level1-player.png").convert("RGB")
    assert gm.tobytes() != player.tobytes()  # numbers, traps and secrets only on the GM map


def test_svg_parses(exported: Path) -> None:
    for path in exported.glob("*.svg"):
        root = ET.parse(path).getroot()
        assert root.tag.endswith("svg")
        assert len(list(root.iter())) > 50


def test_pdf_reads(exported: Path) -> None:
    reader = PdfReader(exported / "vault.pdf")
    assert len(reader.pages) >= 4  # title, two maps, the key
    text = " ".join(page.extract_text() or "" for page in reader.pages)
    title = json.loads((exported / "vault.json").read_text())["title"]
    assert title.split()[-1] in text
    assert "Doom" in text


def test_uvtt_fields(exported: Path) -> None:
    for path in exported.glob("*.dd2vtt"):
        data = json.loads(path.read_text())
        assert set(data) >= UVTT_KEYS
        res = data["resolution"]
        assert {"map_origin", "map_size", "pixels_per_grid"} <= set(res)
        w, h = res["map_size"]["x"], res["map_size"]["y"]
        image = Image.open(io.BytesIO(base64.b64decode(data["image"])))
        assert image.size == (round(w * res["pixels_per_grid"]), round(h * res["pixels_per_grid"]))
        assert data["line_of_sight"] and all(len(line) >= 2 for line in data["line_of_sight"])
        for line in data["line_of_sight"]:
            assert all(0 <= pt["x"] <= w and 0 <= pt["y"] <= h for pt in line)
        assert data["portals"]
        for portal in data["portals"]:
            assert {"position", "bounds", "rotation", "closed", "freestanding"} <= set(portal)
            assert len(portal["bounds"]) == 2
            assert portal["closed"] is True  # doors only: an archway is a gap, never a portal


def test_players_vtt_file_hides_the_secret_doors(exported: Path) -> None:
    dungeon = json.loads((exported / "vault.json").read_text())
    for depth, level in enumerate([dungeon, *dungeon["deeper_levels"]], start=1):
        gm = json.loads((exported / f"vault-level{depth}-gm.dd2vtt").read_text())
        player = json.loads((exported / f"vault-level{depth}-player.dd2vtt").read_text())
        kinds = [c["door"]["kind"] for c in level["connections"]]
        doors = sum(1 for k in kinds if k != "archway") + len(level.get("entrance_ways", []))
        assert len(gm["portals"]) == doors - sum(
            1 for w in level.get("entrance_ways", []) if w["door"]["kind"] == "archway"
        )
        assert len(gm["portals"]) - len(player["portals"]) == kinds.count("secret")


def test_markdown_key(exported: Path) -> None:
    md = (exported / "vault.md").read_text()
    assert md.startswith("# ") and "## 1 " in md and "# Level 2" in md


def _hidden_rooms(dungeon: dict, level: dict) -> set[int]:  # type: ignore[type-arg]
    """Rooms of a level that only a secret door leads to, worked out from the JSON."""
    starts = set(dungeon["entrances"]) if level is dungeon else set()
    starts |= {s["room"] for s in level.get("stairs", [])}
    links: dict[int, set[int]] = {r["id"]: set() for r in level["rooms"]}
    for c in level["connections"]:
        if c["door"]["kind"] != "secret":
            links[c["from"]].add(c["to"])
            links[c["to"]].add(c["from"])
    seen, todo = set(starts), list(starts)
    while todo:
        for n in links[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    return set(links) - seen


def test_players_maps_leave_out_the_rooms_behind_secret_doors(exported: Path) -> None:
    """A room only a secret door leads to is rock on the players' PNG, SVG and VTT picture (a box
    with no way in would give the secret away); the GM's maps draw it."""
    from desktop.render.export import map_options, vtt_image_options
    from desktop.render.map_painter import PALETTE, MapLayout
    from dungeon_gen.export import uvtt
    from dungeon_gen.model import Dungeon

    data = json.loads((exported / "vault.json").read_text())
    d = Dungeon.model_validate(data)
    floor_rgb = PALETTE.floor.getRgb()[:3]
    checked = 0
    for depth, (raw, level) in enumerate(zip([data, *data["deeper_levels"]], d.levels, strict=True), start=1):
        hidden = _hidden_rooms(data, raw)
        for who, image in (("gm", f"vault-level{depth}.png"), ("player", f"vault-level{depth}-player.png")):
            layout = MapLayout(level, 32, map_options(player=who == "player", title=d.title))
            png = Image.open(exported / image).convert("RGB")
            for r in level.rooms:
                tiles = r.floor()
                on_floor = sum(png.getpixel((int(p.x()), int(p.y()))) == floor_rgb
                               for p in (layout.centre(t) for t in tiles))  # fmt: skip
                drawn = bool(tiles & layout.geometry.floor)  # the SVG is painted from the same layout
                if who == "player" and r.id in hidden:
                    assert not drawn and on_floor == 0, f"level {depth} room {r.id} is on the players' map"
                    checked += 1
                else:
                    assert drawn and on_floor > len(tiles) // 3, f"level {depth} room {r.id} is missing"
        # The players' SVG, drawn back into pixels by Qt's own SVG renderer, shows the same.
        from PySide6.QtGui import QImage, QPainter
        from PySide6.QtSvg import QSvgRenderer

        layout = MapLayout(level, 32, map_options(player=True, title=d.title))
        w, h = layout.size()
        svg = QImage(w, h, QImage.Format.Format_RGB32)
        painter = QPainter(svg)
        QSvgRenderer(str(exported / f"vault-level{depth}-player.svg")).render(painter)
        painter.end()
        for rid in hidden:
            for t in level.room(rid).floor():
                p = layout.centre(t)
                rgb = svg.pixelColor(int(p.x()), int(p.y())).getRgb()[:3]
                assert rgb != floor_rgb, f"level {depth} room {rid} is on the players' SVG"
        shown = [t for r in level.rooms if r.id not in hidden for t in r.floor()]
        on = sum(svg.pixelColor(int(layout.centre(t).x()), int(layout.centre(t).y())).getRgb()[:3] == floor_rgb
                 for t in shown)  # fmt: skip
        assert on > len(shown) // 3, "the SVG check sees no floor at all"
        vtt = json.loads((exported / f"vault-level{depth}-player.dd2vtt").read_text())
        picture = Image.open(io.BytesIO(base64.b64decode(vtt["image"]))).convert("RGB")
        ppg = vtt["resolution"]["pixels_per_grid"]
        frame = vtt_image_options(level, uvtt.PLAYER).frame
        assert frame is not None
        for rid in hidden:
            for x, y in level.room(rid).floor():
                px = ((x - frame.x + 0.5) * ppg, (y - frame.y + 0.5) * ppg)
                assert picture.getpixel(px) != floor_rgb, f"level {depth} room {rid} is in the players' VTT picture"
    assert checked, "the exported dungeon has no room behind a secret door: choose another seed"
