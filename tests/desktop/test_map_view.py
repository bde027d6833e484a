"""desktop.widgets.map_view: the cached, zoomable map of a level."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QPainter

from desktop.render.map_painter import MapLayout, MapOptions
from desktop.widgets.map_view import MapView
from dungeon_gen.export.walls import Seen
from dungeon_gen.generate import generate
from dungeon_gen.model import Dungeon


@cache
def dungeon() -> Dungeon:
    return generate(11, level=2, rooms=14, depth=2)


@pytest.fixture
def view(qtbot: Any) -> MapView:
    v = MapView()
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    qtbot.waitExposed(v)
    return v


def test_the_map_is_painted_once_per_level_and_options(view: MapView) -> None:
    d = dungeon()
    view.set_level(d, MapOptions())
    assert view.renders == 1
    view.set_level(d, MapOptions())  # the expedition calls this after every step: free when unchanged
    view.set_level(d, MapOptions())
    for _ in range(3):
        view.repaint()
    assert view.renders == 1
    view.set_level(d, MapOptions(player=True))
    assert view.renders == 2
    view.set_level(d.deeper_levels[0], MapOptions(player=True))
    assert view.renders == 3


def test_the_map_fills_the_view_with_a_dark_surround(view: MapView) -> None:
    view.set_level(dungeon(), MapOptions())
    image = view.grab().toImage()
    corner = image.pixelColor(1, 1)
    middle = image.pixelColor(400, 300)
    assert corner.lightness() < 40  # the dark surround
    assert middle != corner  # the map is drawn in the middle
    lay = view.map_layout()
    assert lay is not None
    # fitted: the whole sheet is inside the widget
    top_left = view.view_transform().map(QPointF(0, 0))
    bottom_right = view.view_transform().map(QPointF(lay.width, lay.height))
    assert top_left.x() >= 0 and top_left.y() >= 0
    assert bottom_right.x() <= view.width() and bottom_right.y() <= view.height()


def test_clicking_a_tile_reports_it(view: MapView, qtbot: Any) -> None:
    d = dungeon()
    view.set_level(d, MapOptions())
    room = d.rooms[0]
    tile = (room.x + 1, room.y + 1)
    pos = view.tile_pos(tile).toPoint()
    with qtbot.waitSignal(view.tile_clicked, timeout=1000) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=pos)
    assert tuple(blocker.args) == tile
    assert view.tile_at(pos) == tile
    assert view.tile_at(QPoint(0, 0)) is None  # the surround is no tile


def test_drag_pans_without_clicking(view: MapView, qtbot: Any) -> None:
    view.set_level(dungeon(), MapOptions())
    view.set_zoom(1.0)
    before = view.view_transform().map(QPointF(0, 0))
    clicks: list[tuple[int, int]] = []
    view.tile_clicked.connect(lambda x, y: clicks.append((x, y)))
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=QPoint(400, 300))
    qtbot.mouseMove(view, QPoint(420, 310))
    qtbot.mouseMove(view, QPoint(460, 330))
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=QPoint(460, 330))
    after = view.view_transform().map(QPointF(0, 0))
    assert after.x() - before.x() == pytest.approx(60, abs=1)
    assert after.y() - before.y() == pytest.approx(30, abs=1)
    assert clicks == []


def test_keyboard_zoom_and_fit(view: MapView, qtbot: Any) -> None:
    view.set_level(dungeon(), MapOptions())
    fitted = view.zoom()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Plus)
    assert view.zoom() == pytest.approx(fitted * 1.2)
    qtbot.keyClick(view, Qt.Key.Key_Plus)
    qtbot.keyClick(view, Qt.Key.Key_Minus)
    assert view.zoom() == pytest.approx(fitted * 1.2)
    qtbot.keyClick(view, Qt.Key.Key_F)
    assert view.zoom() == pytest.approx(fitted)


def test_wheel_zooms_around_the_cursor(view: MapView) -> None:
    from PySide6.QtCore import QPoint as P
    from PySide6.QtGui import QWheelEvent

    view.set_level(dungeon(), MapOptions())
    at = QPointF(300, 200)
    under = view.view_transform().inverted()[0].map(at)
    event = QWheelEvent(
        at,
        view.mapToGlobal(at),
        P(0, 0),
        P(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    zoom = view.zoom()
    view.wheelEvent(event)
    assert view.zoom() == pytest.approx(zoom * 1.44)
    still = view.view_transform().map(under)
    assert still.x() == pytest.approx(at.x(), abs=0.5) and still.y() == pytest.approx(at.y(), abs=0.5)


def test_double_click_fits_after_zooming(view: MapView, qtbot: Any) -> None:
    view.set_level(dungeon(), MapOptions())
    fitted = view.zoom()
    view.set_zoom(fitted * 3)
    qtbot.mouseDClick(view, Qt.MouseButton.LeftButton, pos=QPoint(400, 300))
    assert view.zoom() == pytest.approx(fitted)


def test_center_on_tile(view: MapView) -> None:
    d = dungeon()
    view.set_level(d, MapOptions())
    view.set_zoom(1.0)
    room = d.rooms[-1]
    tile = (room.x, room.y)
    view.center_on_tile(tile)
    centre = view.tile_pos(tile)
    assert centre.x() == pytest.approx(400, abs=1)
    assert centre.y() == pytest.approx(300, abs=1)


def test_new_options_for_the_same_level_keep_the_view(view: MapView) -> None:
    d = dungeon()
    view.set_level(d, MapOptions(player=True, seen=Seen.of([1])))
    view.set_zoom(1.3)
    view.pan(25, -10)
    t = view.view_transform()
    view.set_level(d, MapOptions(player=True, seen=Seen.of([1, 2])))
    assert view.view_transform() == t
    view.set_level(d.deeper_levels[0], MapOptions(player=True))  # another level: fitted afresh
    assert view.view_transform() != t


def test_the_overlay_is_drawn_every_paint_in_layout_pixels(view: MapView) -> None:
    d = dungeon()
    view.set_level(d, MapOptions())
    room = d.rooms[0]
    tile = (room.x + 1, room.y + 1)
    calls: list[MapLayout] = []

    def marker(p: QPainter, lay: MapLayout) -> None:
        calls.append(lay)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 255, 0))
        p.drawEllipse(lay.centre(tile), lay.t * 0.4, lay.t * 0.4)

    view.set_overlay(marker)
    image = view.grab().toImage()
    pos = view.tile_pos(tile).toPoint()
    assert image.pixelColor(pos.x(), pos.y()) == QColor(0, 255, 0)
    assert calls and calls[-1] is view.map_layout()
    renders = view.renders
    view.repaint()
    assert view.renders == renders  # the overlay never repaints the cached map


def test_no_level_shows_a_message_not_a_crash(view: MapView) -> None:
    view.set_level(None)
    view.repaint()
    assert view.tile_at(QPoint(10, 10)) is None
    view.center_on_tile((3, 3))
    view.fit()


def test_close_up_of_a_big_level_is_sharpened(view: MapView, qtbot: Any) -> None:
    big = generate(5, level=3, rooms=40)
    view.set_level(big, MapOptions())
    view.set_zoom(4.0)  # far beyond what the cached picture of a big level holds
    renders = view.renders
    qtbot.waitUntil(lambda: view._detail is not None, timeout=3000)
    assert view.renders > renders
    sharp = view.grab().toImage()
    view.pan(13, 7)  # panning blits the blurred cache until the view settles again
    assert view._detail_key != view._view_key()
    qtbot.waitUntil(lambda: view._detail_key == view._view_key(), timeout=3000)
    assert not sharp.isNull()


def test_following_a_tile_at_the_edge_leaves_no_dark_band(view: MapView) -> None:
    """#16: a party in a room at the sheet's edge was centred, and the dark surround showed as a band across the
    top of the map; following keeps the sheet over the whole view where it is larger than the view."""
    d = dungeon()
    view.set_level(d, MapOptions())
    lay = view.map_layout()
    assert lay is not None
    view.follow_tile((0, 0), 8.0)
    zoom = view.zoom()
    # a tile a little more than a quarter of the view in from the sheet's corner: centred, it left a dark band
    across, down = (int((room / 4 / zoom + 2 * lay.t) / lay.t) for room in (view.width(), view.height()))
    view.follow_tile((across, down), 8.0)
    assert lay.height * zoom > view.height()  # the sheet is taller than the view: it must cover it
    origin = view.tile_pos((0, 0)) - QPointF(lay.centre((0, 0)).x() * zoom, lay.centre((0, 0)).y() * zoom)
    assert origin.y() <= 0.5 and origin.y() + lay.height * zoom >= view.height() - 0.5
    assert origin.x() <= 0.5 and origin.x() + lay.width * zoom >= view.width() - 0.5
