"""Combat is readable (#16.7): the initiative list draws each name once (an old row lingering until its
deletion drew "(fled)" over a name), and while the enemies act the header says so and the grid shows them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from desktop.decider import QtDecider
from desktop.screens.combat import CombatView
from desktop.screens.game import GameScreen
from desktop.session import Session
from desktop.settings import Settings
from rules.gm.state import Phase
from tests.desktop.harness import shown
from tests.desktop.test_combat_view import SEED, _to_combat

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_the_order_shows_each_row_once_even_before_the_old_rows_are_deleted(qtbot: Any, tmp_path: Path) -> None:
    s = Session.new(seed=SEED, party_size=3, folder=tmp_path)
    _to_combat(s)
    v, _h = shown(qtbot, CombatView(s))
    cs = s.campaign.combat
    assert cs is not None
    for _ in range(3):  # redrawn three times: the old rows await their deletion on the next turn of the loop
        v.order.show_order(s, cs, None, {})
        QApplication.processEvents()  # (shows the new rows; deletions wait for the loop to come back)
    names = [w.text() for w in v.order.findChildren(QLabel) if w.isVisible()]
    for f in cs.fighters:
        m = s.campaign.member(f.id)
        assert sum(1 for n in names if n.startswith(m.name)) == 1, names
    s.close()


def _answer(kind: str, p: dict[str, Any]) -> Any:
    """The answers the GM would give, for a scripted player."""
    if kind == "wound":
        return p["options"][0]
    if kind == "armour":
        return p["parts"][0] if p["parts"] else None
    if kind == "choose":
        return p["options"][0]
    return None


def test_while_the_enemies_act_the_header_says_so(qtbot: Any, tmp_path: Path) -> None:
    s = Session.new(seed=SEED, party_size=3, folder=tmp_path)
    _to_combat(s)
    seen: list[tuple[str, str]] = []
    holder: dict[str, GameScreen] = {}

    def ask(kind: str, p: dict[str, Any]) -> Any:
        cs = s.campaign.combat
        view = holder["g"].current_view()
        if cs is not None and isinstance(view, CombatView):
            seen.append((cs.phase, view.subtitle.text()))
        return _answer(kind, p)

    settings = Settings()
    g = GameScreen(s, settings, decider=QtDecider(settings, ask=ask))
    holder["g"] = g
    qtbot.addWidget(g)
    g.resize(1280, 720)
    g.show()
    for _ in range(60):  # everyone ends their turn until the enemies have had theirs
        if s.phase is not Phase.COMBAT or any(phase == "enemies" for phase, _ in seen):
            break
        end = next((a for a in s.actions() if a.kind == "end" and a.available), None)
        if end is None:
            break
        g.play(end)
    during = [text for phase, text in seen if phase == "enemies"]
    assert during, f"no question while the enemies acted: {seen}"
    assert all(t.startswith("The enemies act") for t in during), during
    s.close()


def test_the_grid_keeps_its_size_from_turn_to_turn(qtbot: Any, tmp_path: Path) -> None:
    from rules.autoplay import suggest

    s = Session.new(seed=SEED, party_size=3, folder=tmp_path)
    _to_combat(s)
    v, _h = shown(qtbot, CombatView(s))
    v.resize(760, 560)  # the hint wraps onto two lines or three
    sizes = set()
    hints = set()
    for _ in range(12):
        if s.phase is not Phase.COMBAT:
            break
        QApplication.processEvents()
        sizes.add((v.grid.width(), v.grid.height()))
        hints.add(v.hint.text())
        step = suggest(s.gm)
        if step is None:
            break
        v.refresh(s.apply(step))
    assert len(hints) > 1  # the hint changed between the turns...
    assert len(sizes) == 1, sizes  # ...and the grid did not
    s.close()


def test_the_move_range_stands_out_from_the_floor(qtbot: Any, tmp_path: Path) -> None:
    s = Session.new(seed=SEED, party_size=3, folder=tmp_path)
    _to_combat(s)
    v, _h = shown(qtbot, CombatView(s))
    v.resize(1100, 640)
    QApplication.processEvents()
    grid = v.grid
    moves = grid.move_tiles
    assert moves, "someone can move"
    cs = s.campaign.combat
    assert cs is not None
    taken = {(f.x, f.y) for f in cs.fighters} | {(e.x, e.y) for e in cs.active_foes()}
    img = grid.grab().toImage()

    def shade(tile: tuple[int, int]) -> int:
        c = img.pixelColor(grid.tile_rect(tile).center())
        return c.red() + c.green() + c.blue()

    floor = [t for t in ((x, y) for x in range(60) for y in range(60))
             if t not in moves and t not in taken and not grid.tile_rect(t).isEmpty()
             and grid.rect().contains(grid.tile_rect(t)) and s.gm.c.combat is not None]  # fmt: skip
    lit = min(shade(t) for t in moves if t not in taken)
    dark = sorted(shade(t) for t in floor)[len(floor) // 2]  # the floor's usual shade
    assert lit - dark >= 140, (lit, dark)  # the range reads at a glance (it was a faint dashed border: ~117)
    s.close()


def test_beside_the_grid_the_player_reads_what_the_enemies_did(qtbot: Any, tmp_path: Path) -> None:
    """#16.4: the enemies' turn is written in the side panel, kept through the party's next turn, with where a
    move went; the lines are the log's own, from the first enemy's deed to the last one's."""
    from desktop.screens.combat import enemy_lines

    s = Session.new(seed=SEED, party_size=3, folder=tmp_path)
    _to_combat(s)
    v, _h = shown(qtbot, CombatView(s))
    assert not v.foes.isVisible()  # nothing has happened yet
    steps: list[list[Any]] = []
    for _ in range(60):  # everyone ends their turn until the enemies have had theirs
        end = next((a for a in s.actions() if a.kind == "end" and a.available), None)
        if s.phase is not Phase.COMBAT or end is None:
            break
        events = s.apply(end)
        v.refresh(events)
        steps.append(events)
        if any("foe" in e.data for e in events):
            break
    foe_step = steps[-1]
    foe_texts = [e.text for e in foe_step if "foe" in e.data and e.text]
    assert foe_texts, [e.text for e in foe_step]
    assert v.foes.isVisible() and v.foes.lines == enemy_lines(foe_step)
    shown_text = v.foes.text.text()
    for e in foe_step:
        if "foe" in e.data and e.kind != "foe_move" and e.text:
            assert e.text in shown_text
    for e in (e for e in foe_step if e.kind == "foe_move"):
        frm, to = e.data["frm"], e.data["to"]
        tiles = max(abs(to[0] - frm[0]), abs(to[1] - frm[1]))
        assert f"{e.text[:-1]} {tiles} tile" in shown_text
    assert "THE ENEMIES' TURN" in v.foes.title.text()
    v.refresh([])  # a step of the party's (no enemy in it) leaves what the enemies did in sight
    assert v.foes.isVisible() and v.foes.text.text() == shown_text
    s.close()


def test_a_long_why_this_fight_is_read_whole(qtbot: Any, tmp_path: Path) -> None:
    """#16.5: the reason a fight began wraps onto as many lines as it needs (it was cut at the panel's edge)."""
    s = Session.new(seed=SEED, party_size=3, folder=tmp_path)
    _to_combat(s)
    v, _h = shown(qtbot, CombatView(s))
    v.resize(700, 560)
    long = "Why this fight: " + " ".join(["the wandering group heard the door forced open"] * 4) + "."
    v.why.setText(long)
    for _ in range(3):
        QApplication.processEvents()
    assert v.why.wordWrap()
    lines = v.why.height() // v.why.fontMetrics().lineSpacing()
    assert lines >= 2 and v.why.height() >= v.why.heightForWidth(v.why.width()), (v.why.height(), v.why.width())
    s.close()
