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
