"""Continue puts the player back in front of the same screen: the map of the expedition is drawn where it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, QRectF

from desktop.screens.expedition import ExplorationView
from desktop.settings import ENV_CONFIG_DIR, Settings
from rules.gm.state import Phase


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(ENV_CONFIG_DIR, str(folder))
    return folder


def in_middle(size: tuple[int, int], centre: tuple[float, float]) -> bool:
    """The party's tile in the middle half of the map view (the map fills the view before it centres the tile)."""
    return abs(centre[0] - size[0] / 2) <= size[0] / 4 + 2 and abs(centre[1] - size[1] / 2) <= size[1] / 4 + 2


def make_window(qtbot: Any, saves: Path) -> Any:
    from desktop.app import create_app
    from desktop.main_window import MainWindow

    create_app(["test"], Settings())
    w = MainWindow(Settings(gm_rerolls=True), saves_folder=saves)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: w.start_screen()._loaded, timeout=3000)
    return w


def map_of(w: Any) -> Any:
    view = w.screens["game"].current_view()
    assert isinstance(view, ExplorationView)
    return view.map


def view_state(qtbot: Any, w: Any) -> tuple[Any, ...]:
    """What the player sees of the map: its zoom, where the party's room is drawn, the widget's size."""
    m = map_of(w)
    qtbot.waitUntil(lambda: m.isVisible() and m.width() > 300, timeout=3000)
    qtbot.wait(50)
    centre = m.tile_pos(w.session.gm.room().centre)
    return m.size().toTuple(), round(m.zoom(), 4), (round(centre.x()), round(centre.y()))


def test_continue_shows_the_map_as_it_was_left(qtbot: Any, tmp_path: Path) -> None:
    from desktop.session import Session

    saves = tmp_path / "saves"
    saves.mkdir()
    w = make_window(qtbot, saves)
    w.start_session(Session.new(seed=3, party_size=2, folder=saves))
    s = w.session
    game = w.screens["game"]
    game.play(next(a for a in s.actions() if a.id == "begin"))
    game.play(next(a for a in s.actions() if a.kind == "expedition" and a.available))
    assert s.phase is Phase.EXPLORATION
    before = view_state(qtbot, w)
    size, zoom, centre = before
    # the party's room is in the middle of the map (of its middle half: the sheet is moved to fill the view
    # rather than show a dark band beyond its edge), close enough to read
    assert in_middle(size, centre)
    m = map_of(w)
    assert m.zoom() > 0.3

    w.show_start()  # saves and closes the campaign (every step is committed)
    assert w.session is None
    w.continue_last()
    assert w.session is not None and w.session.phase is Phase.EXPLORATION
    after = view_state(qtbot, w)
    assert after == before
    # the map covers the view: no thumbnail in a corner of a black field
    m = map_of(w)
    lay = m.map_layout()
    drawn = m.view_transform().mapRect(QRectF(0, 0, lay.width, lay.height))
    visible = drawn.intersected(QRectF(m.rect()))
    assert visible.width() >= m.width() * 0.6 and visible.height() >= m.height() * 0.6
    assert QRectF(m.rect()).contains(QPointF(*after[2]))
    # and the picture on screen is the map: mostly not the empty background
    img = m.grab().toImage()
    from PySide6.QtGui import QColor

    from desktop.theme import COLORS

    bg = QColor(COLORS["bg"]).rgb()
    samples = [img.pixel(x, y) for x in range(5, img.width(), 37) for y in range(5, img.height(), 37)]
    assert sum(1 for p in samples if p != bg) > len(samples) * 0.5
    # moving on keeps the scale and centres the party's new room
    game = w.screens["game"]
    s = w.session
    move = next(a for a in s.actions() if a.kind == "move" and a.available)
    game.play(move)
    if s.phase is Phase.EXPLORATION:
        size, zoom, centre = view_state(qtbot, w)
        assert zoom == after[1]
        assert in_middle(size, centre)


def test_the_map_keeps_the_party_in_the_middle_when_the_window_is_resized(qtbot: Any, tmp_path: Path) -> None:
    from desktop.session import Session

    saves = tmp_path / "saves"
    saves.mkdir()
    w = make_window(qtbot, saves)
    w.start_session(Session.new(seed=3, party_size=2, folder=saves))
    s = w.session
    game = w.screens["game"]
    game.play(next(a for a in s.actions() if a.id == "begin"))
    game.play(next(a for a in s.actions() if a.kind == "expedition" and a.available))
    view_state(qtbot, w)
    w.resize(1600, 900)
    qtbot.waitUntil(lambda: map_of(w).width() > 600, timeout=3000)
    size, _zoom, centre = view_state(qtbot, w)
    assert in_middle(size, centre)
    # once the player pans, the view stays where the player put it
    m = map_of(w)
    m.pan(40, 0)
    assert m.following() is None
