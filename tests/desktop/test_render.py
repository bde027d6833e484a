"""The map painter and its exports: PNG, SVG, the PDF booklet and the Universal VTT file.

Renders of the fixture dungeon are kept in ``out/render/`` (gitignored) to be looked at.
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
import struct
import sys
import time
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("PySide6.QtGui")

from pypdf import PdfReader
from PySide6.QtGui import QColor, QImage

from desktop.render import export
from desktop.render.map_painter import MapLayout, MapOptions, initials, label_position
from dungeon_gen.export.markdown import to_markdown
from dungeon_gen.export.walls import Seen, door_edges
from dungeon_gen.model import Dungeon
from tests.dungeon_gen.fixtures import big_level, small_dungeon

OUT = Path(__file__).resolve().parents[2] / "out" / "render"


@pytest.fixture(scope="module", autouse=True)
def app() -> Iterator[None]:
    export.ensure_app()  # an offscreen QGuiApplication (tests/conftest.py sets QT_QPA_PLATFORM)
    yield


@pytest.fixture(scope="module")
def dungeon() -> Dungeon:
    return small_dungeon()


@pytest.fixture(scope="module")
def out() -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    return OUT


def load(path: Path) -> QImage:
    image = QImage(str(path))
    assert not image.isNull(), f"{path} does not decode"
    return image


def test_gm_png_has_the_layout_size(dungeon: Dungeon, out: Path) -> None:
    path = out / "fixture_gm.png"
    size = export.render_png(dungeon, path)
    image = load(path)
    assert (image.width(), image.height()) == size == MapLayout(dungeon, 32, MapOptions()).size()
    # Room tiles are 32 px: the map is at least the level's floor across.
    assert image.width() >= 32 * 30


def test_player_png_differs_from_the_gm_png(dungeon: Dungeon, out: Path) -> None:
    gm, player = out / "fixture_gm.png", out / "fixture_player.png"
    export.render_png(dungeon, gm)
    export.render_png(dungeon, player, player=True)
    a, b = load(gm), load(player)
    assert a.width() == b.width() and a != b
    # The same frame (secret passages count in both), only the legend below differs.
    assert MapLayout(dungeon, 32, MapOptions()).map_rect == MapLayout(dungeon, 32, MapOptions(player=True)).map_rect


def test_player_map_leaves_out_the_gms_marks(dungeon: Dungeon) -> None:
    gm = MapLayout(dungeon, 32, MapOptions(tokens=True))
    player = MapLayout(dungeon, 32, MapOptions(player=True, tokens=True))
    assert {"secret", "trap", "corpse", "monster", "boss"} <= set(gm.legend)
    assert not {"secret", "trap", "corpse", "monster", "boss"} & set(player.legend)
    # The boss's double ring is explained only where a boss's lair is drawn.
    assert "boss" not in MapLayout(dungeon, 32, MapOptions(seen=Seen.of(rooms=[1]))).legend
    assert any(r.boss for r in dungeon.rooms)
    assert not any(d.secret for d in player.geometry.doors)
    assert any(d.secret for d in gm.geometry.doors)


def test_more_renders_of_the_fixture(dungeon: Dungeon, out: Path) -> None:
    """Tokens, a partly explored player map, a deeper level, and a small scale: they must all decode."""
    cases = {
        "fixture_gm_tokens.png": dict(tokens=True),
        "fixture_player_seen.png": dict(player=True, seen=Seen.of(rooms=[1, 2, 3], connections=[1, 2])),
        "fixture_gm_small.png": dict(px_per_tile=12),
    }
    for name, kw in cases.items():
        export.render_png(dungeon, out / name, **kw)  # type: ignore[arg-type]
        load(out / name)
    level2 = dungeon.deeper_levels[0]
    export.render_png(level2, out / "fixture_level2.png", title=dungeon.title)
    assert load(out / "fixture_level2.png") != load(out / "fixture_gm.png")
    seen = load(out / "fixture_player_seen.png")
    full = load(out / "fixture_player.png")
    assert seen != full


def test_svg_is_xml_with_an_svg_root(dungeon: Dungeon, out: Path) -> None:
    path = out / "fixture_gm.svg"
    w, h = export.render_svg(dungeon, path)
    root = ET.parse(path).getroot()
    assert root.tag.rsplit("}", 1)[-1] == "svg"
    assert root.get("viewBox") is not None
    assert root.get("viewBox", "").split()[2:] == [str(w), str(h)]
    assert ET.tostring(root).count(b"<") > 100  # something was drawn
    export.render_svg(dungeon, out / "fixture_player.svg", player=True)
    ET.parse(out / "fixture_player.svg")


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


def test_pdf_booklet_has_title_maps_and_key(dungeon: Dungeon, out: Path) -> None:
    path = out / "booklet.pdf"
    pages = export.render_pdf_booklet(dungeon, to_markdown(dungeon), path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert pdf_pages(data) == pages >= 2 + 2 * len(dungeon.levels)


def test_pdf_booklet_takes_key_sections(dungeon: Dungeon, tmp_path: Path) -> None:
    path = tmp_path / "sections.pdf"
    sections = [(f"{r.id} {r.name}", r.description) for r in dungeon.rooms]
    pages = export.render_pdf_booklet(dungeon, sections, path)
    assert pages == pdf_pages(path.read_bytes()) == 1 + 2 * len(dungeon.levels) + 1
    # No key at all: the title page and the maps, the GM's and the players' for each level.
    assert export.render_pdf_booklet(dungeon, "", tmp_path / "maps.pdf") == 1 + 2 * len(dungeon.levels)


def test_dd2vtt_picture_matches_its_grid(dungeon: Dungeon, out: Path) -> None:
    path = out / "fixture.dd2vtt"
    data = export.render_dd2vtt(dungeon, path, pixels_per_grid=40)
    loaded = json.loads(path.read_text(encoding="utf-8"))
    assert loaded == data
    image = base64.b64decode(loaded["image"])
    assert image.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", image[16:24])
    size = loaded["resolution"]["map_size"]
    assert (width, height) == (size["x"] * 40, size["y"] * 40)
    assert len(loaded["portals"]) == sum(1 for c in dungeon.connections if c.door.kind != "archway")
    assert loaded["resolution"]["map_origin"] == {"x": 0.0, "y": 0.0}
    picture = QImage.fromData(image)
    assert (picture.width(), picture.height()) == (width, height)
    picture.save(str(out / "fixture_vtt.png"))


def test_png_bytes_decode(dungeon: Dungeon) -> None:
    data = export.png_bytes(dungeon, player=True, px_per_tile=16)
    image = QImage.fromData(data)
    assert not image.isNull()
    assert (image.width(), image.height()) == MapLayout(dungeon, 16, MapOptions(player=True)).size()


def test_installed_qt_keeps_nones_references(dungeon: Dungeon) -> None:
    """PySide6 6.12.0 on Python 3.11 drops a reference to None on every void call and, over a
    session, aborts the interpreter (pyproject pins below 6.12): catch a leaky Qt coming back."""
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    # widgets earlier tests left for deleteLater, and garbage the collector has not reached yet, give their
    # references to None back when freed: free them first, and keep the collector out of the measurement
    if QCoreApplication.instance() is not None:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    gc.disable()
    try:
        before = sys.getrefcount(None)
        for _ in range(3):
            export.png_bytes(dungeon, px_per_tile=8)
        after = sys.getrefcount(None)
    finally:
        gc.enable()
    assert after >= before - 50


def test_a_thirty_room_level_renders_quickly(out: Path) -> None:
    level = big_level()
    export.render_png(level, out / "big_gm.png")  # warm up fonts
    times = []
    for _ in range(3):
        start = time.perf_counter()
        export.render_png(level, out / "big_gm.png")
        times.append(time.perf_counter() - start)
    print(f"30-room level to PNG: best {min(times) * 1000:.0f} ms")
    assert min(times) < 2.0  # generous: the target is about 150 ms on a 2-core machine


def test_label_position_avoids_marks() -> None:
    dungeon = small_dungeon()
    room = dungeon.room(1)
    x, y = label_position(room, set())
    assert (x, y) == (room.x + room.w / 2, room.y + room.h / 2)
    busy = {(int(x), int(y)), (int(x - 0.5), int(y)), (int(x), int(y - 0.5)), (int(x - 0.5), int(y - 0.5))}
    x2, y2 = label_position(room, busy)
    assert (int(x2), int(y2)) not in busy and (int(x2), int(y2)) in room.floor()


def test_initials() -> None:
    assert initials("Goblin Scrapper") == "GS"
    assert initials("Hobgoblin") == "Ho"
    assert initials("") == "?"


def test_encode_png_keeps_every_pixel() -> None:
    """The hand-written PNG (deflated in parallel slices when big) decodes to the same picture."""
    for level in (small_dungeon(), big_level()):
        image = export.render_image(level, px_per_tile=32)
        data = export.encode_png(image)
        decoded = QImage.fromData(data)
        assert decoded.convertToFormat(QImage.Format.Format_RGB32) == image.convertToFormat(QImage.Format.Format_RGB32)


def test_encode_png_streams_the_bytes_a_one_shot_deflate_gives() -> None:
    """Fed to zlib a block at a time straight from the image, the PNG is byte for byte the one
    the whole unfiltered stream built first gave (as the encoder did before it streamed), in
    one slice and in parallel ones; an RGB32 image gives the same file as its RGB888 copy."""

    def reference(image: QImage) -> bytes:
        rgb = image.convertToFormat(QImage.Format.Format_RGB888)
        w, h, stride = rgb.width(), rgb.height(), rgb.bytesPerLine()
        bits = bytes(memoryview(rgb.constBits()).cast("B"))
        raw = b"".join(b"\x00" + bits[y * stride : y * stride + 3 * w] for y in range(h))
        slices = max(1, min(os.cpu_count() or 1, 4, len(raw) // (1 << 22)))
        if slices == 1:
            body = zlib.compress(raw, 1)
        else:
            size = -(-len(raw) // slices)
            parts = [raw[i : i + size] for i in range(0, len(raw), size)]
            out = []
            for i, part in enumerate(parts):
                c = zlib.compressobj(1, zlib.DEFLATED, -15)
                out.append(c.compress(part) + c.flush(zlib.Z_FINISH if i == len(parts) - 1 else zlib.Z_SYNC_FLUSH))
            body = b"\x78\x01" + b"".join(out) + struct.pack(">I", zlib.adler32(raw))
        assert zlib.decompress(body) == raw
        return body

    for level, ppt in ((small_dungeon(), 32), (big_level(), 70)):
        image = export.render_image(level, px_per_tile=ppt)
        assert image.format() == QImage.Format.Format_RGB888  # drawn as the file stores it: no copy
        data = export.encode_png(image)
        idat = data.index(b"IDAT")
        (length,) = struct.unpack(">I", data[idat - 4 : idat])
        assert data[idat + 4 : idat + 4 + length] == reference(image)
        assert export.encode_png(image.convertToFormat(QImage.Format.Format_RGB32)) == data
        if ppt == 70:  # large enough to be deflated in parallel slices
            assert (3 * image.width() + 1) * image.height() >= 2 * (1 << 22)


def test_adler32_combine_matches_zlib() -> None:
    rng = random.Random(5)
    for _ in range(50):
        a = rng.randbytes(rng.randrange(0, 300000))
        b = rng.randbytes(rng.randrange(0, 300000))
        assert export.adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def test_players_vtt_picture_shows_wall_where_the_secret_door_is(dungeon: Dungeon, out: Path) -> None:
    ppg = 20
    pictures = {}
    for audience in ("gm", "player"):
        data = export.render_dd2vtt(dungeon, out / f"fixture-{audience}.dd2vtt", pixels_per_grid=ppg, audience=audience)
        pictures[audience] = QImage.fromData(base64.b64decode(str(data["image"])))
    secret = next(c for c in dungeon.connections if c.door.kind == "secret")
    others = {(x, y) for c in dungeon.connections if c.id != secret.id for x, y in c.path}
    floor = QColor("#f6efdc").rgb()
    for x, y in (t for t in map(tuple, secret.path) if t not in others):
        # The JSON's tile (x, y) is the picture's square (x, y): one frame of reference.
        gm_px = pictures["gm"].pixel(x * ppg + ppg // 2, y * ppg + ppg // 2)
        player_px = pictures["player"].pixel(x * ppg + ppg // 2, y * ppg + ppg // 2)
        assert gm_px == floor and player_px != floor, (x, y)
    edge = next(d for d in door_edges(dungeon) if d.secret)
    # On the door's edge, the middle of the wall is wall-black in both pictures.
    mx, my = edge.segment.midpoint
    for picture in pictures.values():
        assert QColor(picture.pixel(round(mx * ppg), round(my * ppg))).lightness() < 60


def test_pdf_booklet_is_the_same_bytes_on_every_export(dungeon: Dungeon, tmp_path: Path) -> None:
    key = to_markdown(dungeon)
    first = tmp_path / "first.pdf"
    export.render_pdf_booklet(dungeon, key, first)
    export.render_png(dungeon, tmp_path / "between.png")  # other drawing in between changes nothing
    time.sleep(1.1)  # and neither does the clock
    second = tmp_path / "second.pdf"
    export.render_pdf_booklet(dungeon, key, second)
    assert first.read_bytes() == second.read_bytes()
    data = first.read_bytes()
    assert b"/CreationDate" not in data and b"/ModDate" not in data
    reader = PdfReader(first, strict=True)  # the rebuilt cross-reference table holds
    assert len(reader.pages) == pdf_pages(data)
    assert reader.metadata is not None and reader.metadata.title == dungeon.title
    # Another dungeon (or key) is another document.
    other = tmp_path / "other.pdf"
    export.render_pdf_booklet(dungeon, key + "\n\nOne more line.\n", other)
    assert re.search(rb"/ID \[ <([0-9a-f]+)>", other.read_bytes()) != re.search(rb"/ID \[ <([0-9a-f]+)>", data)


def test_pdf_booklet_has_a_players_map_for_every_level(dungeon: Dungeon, tmp_path: Path) -> None:
    path = tmp_path / "booklet.pdf"
    export.render_pdf_booklet(dungeon, to_markdown(dungeon), path)
    reader = PdfReader(path)
    texts = [(page.extract_text() or "").replace("\t", " ") for page in reader.pages]
    for i, level in enumerate(dungeon.levels):
        gm, player = texts[1 + 2 * i], texts[2 + 2 * i]
        assert f"Level {level.depth}" in gm and "players" not in gm
        assert f"Level {level.depth}" in player and "players" in player
        # The players' page has no room numbers or GM marks: none of the legend's GM entries.
        assert "trap" not in player and "secret door" not in player
    assert "Players' map of level 2" in texts[0]


def test_pdf_hook_keeps_its_bullet_list(tmp_path: Path) -> None:
    d = small_dungeon().model_copy(
        update={"hook": "Someone is missing.\n\nWays in:\n- A map from a survivor.\n- Hunger.\n- A false accusation."}
    )
    assert export.hook_html(d.hook).count("<li>") == 3
    path = tmp_path / "hook.pdf"
    export.render_pdf_booklet(d, "", path)
    text = (PdfReader(path).pages[0].extract_text() or "").replace("\t", " ")
    lines = [line.strip() for line in text.splitlines()]
    for item in ("A map from a survivor.", "Hunger.", "A false accusation."):
        assert any(line.endswith(item) and len(line) <= len(item) + 2 for line in lines), (item, lines)


def test_key_pages_leave_no_heading_at_a_page_foot(tmp_path: Path) -> None:
    from PySide6.QtGui import QPageLayout, QPdfWriter

    from dungeon_gen.generate import generate

    writer = QPdfWriter(str(tmp_path / "scratch.pdf"))
    writer.setResolution(export.PDF_DPI)
    writer.setPageLayout(export._page_layout(QPageLayout.Orientation.Portrait))
    area = export._body_area(writer.pageLayout())
    found = 0
    for seed in range(6):
        d = generate(seed, rooms=14 + 2 * seed, depth=1 + seed % 3, level=1 + seed)
        doc = export.key_document(writer, to_markdown(d), area.width(), area.height())
        assert export.orphaned_headings(doc) == [], seed
        # Without the fix the same keys do leave headings at the foot of a page.
        plain = export._document(writer, area.width())
        plain.setMarkdown(to_markdown(d))
        export._space_headings(plain)
        plain.setPageSize(area.size())
        plain.pageCount()
        found += len(export.orphaned_headings(plain))
    assert found > 0


def svg_layers(path: Path) -> dict[str, ET.Element]:
    root = ET.parse(path).getroot()
    svg, inkscape = "{http://www.w3.org/2000/svg}", "{http://www.inkscape.org/namespaces/inkscape}"
    groups = [g for g in root if g.tag == f"{svg}g"]
    assert all(g.get(f"{inkscape}groupmode") == "layer" and g.get(f"{inkscape}label") for g in groups)
    return {str(g.get("id")): g for g in groups}


def marks(layer: ET.Element) -> int:
    """Everything a layer draws (its elements that are not groups)."""
    return sum(1 for e in layer.iter() if not e.tag.endswith("}g"))


def drawn(layer: ET.Element, kind: str) -> int:
    return sum(1 for e in layer.iter() if e.tag.endswith("}" + kind))


def test_svg_has_a_layer_for_each_part_of_the_map(dungeon: Dungeon, tmp_path: Path) -> None:
    from desktop.render.map_painter import LAYERS

    export.render_svg(dungeon, tmp_path / "gm.svg", tokens=True)
    export.render_svg(dungeon, tmp_path / "player.svg", player=True)
    gm, player = svg_layers(tmp_path / "gm.svg"), svg_layers(tmp_path / "player.svg")
    assert list(gm) == list(player) == list(LAYERS)  # every layer, bottom to top, both maps
    assert {"grid", "walls", "doors", "labels", "secrets", "monsters"} <= set(gm)
    assert drawn(gm["walls"], "polyline") > 0 and drawn(gm["walls"], "text") == 0
    assert drawn(gm["grid"], "polyline") > 0
    assert drawn(gm["doors"], "rect") + drawn(gm["doors"], "path") + drawn(gm["doors"], "polygon") > 0
    assert any(c.door.kind == "secret" for c in dungeon.connections)
    assert marks(gm["secrets"]) > 0 and marks(player["secrets"]) == 0
    tokens = sum(len(g.positions) for r in dungeon.rooms for g in r.monsters)
    assert drawn(gm["monsters"], "circle") + drawn(gm["monsters"], "path") >= tokens > 0
    assert marks(player["monsters"]) == 0 and marks(player["labels"]) == 0
    numbers = {t.text for t in gm["labels"].iter() if t.tag.endswith("}text")}
    assert {str(r.id) for r in dungeon.rooms} <= numbers
    # No layer draws what belongs to another: the room numbers are only in the labels.
    for name, layer in gm.items():
        if name not in ("labels", "margins"):
            assert not {t.text for t in layer.iter() if t.tag.endswith("}text")} & {str(r.id) for r in dungeon.rooms}, (
                name
            )


def test_map_painter_refuses_an_unknown_layer(dungeon: Dungeon) -> None:
    from desktop.render.map_painter import paint_map

    image = QImage(10, 10, QImage.Format.Format_RGB32)
    from PySide6.QtGui import QPainter

    painter = QPainter(image)
    try:
        with pytest.raises(ValueError, match="unknown map layer"):
            paint_map(painter, MapLayout(dungeon, 4), layers=["furniture"])
    finally:
        painter.end()


def test_svg_layers_are_the_groups_qt_draws(dungeon: Dungeon, tmp_path: Path) -> None:
    """The SVG is Qt's drawing of each layer put into its layer's group as Qt wrote it (issue #15:
    parsed and written again by ElementTree it took most of an SVG export): each layer holds the
    very elements Qt's SVG generator draws for that layer alone, and nothing of an empty layer."""
    from desktop.render.map_painter import LAYERS

    options = export.map_options(tokens=True, title="Title & <co>")
    export.render_svg(dungeon, tmp_path / "gm.svg", options=options)
    root = ET.parse(tmp_path / "gm.svg").getroot()
    assert root.find(f"{{{export.SVG_NS}}}title").text == "Title & <co> — Level 1 — The Mausoleum"  # type: ignore[union-attr]

    def canonical(elements: list[ET.Element]) -> list[bytes]:
        for e in elements:
            for node in e.iter():
                node.text = node.text if node.text and node.text.strip() else None
                node.tail = None
        return [ET.tostring(e) for e in elements]

    layout = MapLayout(dungeon, 32, options)
    groups = {g.get("id"): g for g in root.findall(f"{{{export.SVG_NS}}}g")}
    assert list(groups) == list(LAYERS)
    for layer in LAYERS:
        drawn = ET.fromstring(export._svg_text(layout, layer))
        qt = [e for e in drawn if e.tag == f"{{{export.SVG_NS}}}g"]
        if not any(n.tag != f"{{{export.SVG_NS}}}g" for e in qt for n in e.iter()):
            qt = []  # an empty layer: its group is left empty
        assert canonical(list(groups[layer])) == canonical(qt), layer
    assert len(groups["walls"]) > 0 and len(groups["monsters"]) > 0


def test_a_map_drawn_in_strips_joins_without_seams(dungeon: Dungeon) -> None:
    """layout_png draws the picture a strip of rows at a time (issue #15: the 70 px a square VTT
    picture is never held whole): any strip height gives the picture of one strip, but for a
    shade of antialiasing on a few pixels near the joins; the PNG is the same bytes every time."""
    layout = MapLayout(dungeon, 16, export.map_options(tokens=True))
    whole = QImage.fromData(export.layout_png(layout, strip_rows=100_000)).convertToFormat(QImage.Format.Format_RGB888)
    assert (whole.width(), whole.height()) == layout.size()
    for rows in (1, 37, 256):
        strips = QImage.fromData(export.layout_png(layout, strip_rows=rows)).convertToFormat(
            QImage.Format.Format_RGB888
        )
        a, b = bytes(strips.constBits()), bytes(whole.constBits())
        off = [abs(x - y) for x, y in zip(a, b, strict=True) if x != y]
        assert len(off) < len(a) / 200 and max(off, default=0) <= 32, (rows, len(off), max(off, default=0))
    assert export.layout_png(layout) == export.layout_png(layout)
    # The strips are the map: the paper in the corner, the rock inside the frame.
    assert whole.pixelColor(1, 1) == QColor("#f4eedc")
