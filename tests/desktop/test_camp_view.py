"""CampView driven through the real widgets: a whole camp from setup to the ambush roll."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from desktop.screens.camp import CampView
from desktop.session import Session
from rules.gm import camp
from rules.gm.state import Phase
from tests.desktop.harness import Harness, shown

SEED = 7


def _to_camp(s: Session, limit: int = 400) -> None:
    """Explore until making camp is possible, then make camp."""
    for _ in range(limit):
        if s.phase is Phase.EXPLORATION:
            make = next((a for a in s.actions() if a.kind == "camp" and a.available), None)
            if make is not None:
                s.apply(make)
                assert s.phase is Phase.CAMP
                return
        if not s.autoplay():
            break
    pytest.skip("no camp in this seed's first steps")


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = Session.new(seed=SEED, party_size=3, folder=tmp_path)
    _to_camp(s)
    yield s
    s.close()


@pytest.fixture
def view(qtbot, session: Session) -> tuple[CampView, Harness]:  # type: ignore[no-untyped-def]
    return shown(qtbot, CampView(session))


def _click_kind(qtbot, v: CampView, kind: str) -> bool:  # type: ignore[no-untyped-def]
    a = next((a for a in v.list.shown_actions() if a.kind == kind and a.available), None)
    if a is None:
        return False
    btn = v.list.button_for(a.id)
    assert btn is not None and btn.isEnabled()
    qtbot.mouseClick(btn, Qt.MouseButton.LeftButton)
    return True


def test_setup_shows_what_each_choice_adds(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    st = h.session.campaign.camp
    assert st.stage == camp.SETUP
    kinds = {a.kind for a in v.list.shown_actions()}
    assert {"fire", "long_rest"} <= kinds and "settle" not in kinds  # settling is the main button
    for a in v.list.shown_actions():
        btn = v.list.button_for(a.id)
        assert btn.isEnabled() == a.available
        if not a.available:
            assert a.reason in btn.toolTip()
    # the long rest adds its camp actions: the counter follows the engine
    before = camp.setup_total(h.session.gm, st)
    assert _click_kind(qtbot, v, "long_rest")
    st = h.session.campaign.camp
    assert st.long_rest
    after = camp.setup_total(h.session.gm, st)
    assert after > before
    assert v.points.text().startswith(str(after))
    assert "Long rest" in v.breakdown.text()


def test_a_whole_camp_through_the_view(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    _click_kind(qtbot, v, "supply")
    _click_kind(qtbot, v, "fire")
    _click_kind(qtbot, v, "long_rest")
    st = h.session.campaign.camp
    total = camp.setup_total(h.session.gm, st)
    assert str(total) in v.main_button.text()
    qtbot.mouseClick(v.main_button, Qt.MouseButton.LeftButton)  # settle in
    st = h.session.campaign.camp
    assert st.stage == camp.ACTIONS and st.points == total
    assert v.points.text() == f"{st.points} of {st.points} left"
    # spend: a lookout lowers the ambush pool the view shows
    pool = camp.ambush_pool(h.session.gm, st)
    if _click_kind(qtbot, v, "lookout"):
        st = h.session.campaign.camp
        assert st.lookouts == 1 and st.spent == 1
        assert camp.ambush_pool(h.session.gm, st) == max(0, pool - 1)
        assert len(v.dice.faces) == camp.ambush_pool(h.session.gm, st)
        assert v.points.text() == f"{st.left} of {st.points} left"
    if _click_kind(qtbot, v, "rest"):
        assert h.session.campaign.camp.rested
    # break camp with the key: the ambush dice come from the event and are shown
    v.setFocus()
    qtbot.keyClick(v, Qt.Key.Key_B)
    assert h.chosen[-1].kind == "break"
    roll = next(e for e in h.events if e.kind == "ambush_roll")
    assert v.last_roll is not None
    assert v.dice.faces == roll.data["dice"]
    assert h.session.phase is not Phase.CAMP
    assert h.session.campaign.camp is None
    assert v.verdict.text()
    assert any(e["kind"] == "ambush_roll" for e in h.session.log())


def test_number_keys_take_the_numbered_actions(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    numbered = v.list.numbered_actions()
    assert numbered
    v.setFocus()
    qtbot.keyClick(v, Qt.Key.Key_1)
    assert h.chosen and h.chosen[-1].id == numbered[0].id
    qtbot.keyClick(v, Qt.Key.Key_S)
    assert h.chosen[-1].kind == "settle"
    assert h.session.campaign.camp.stage == camp.ACTIONS


def test_unavailable_camp_actions_are_greyed_with_the_engines_reason(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    qtbot.keyClick(v, Qt.Key.Key_S)  # settle with whatever the setup gives
    st = h.session.campaign.camp
    assert st.stage == camp.ACTIONS
    greyed = [a for a in v.list.shown_actions() if not a.available]
    for a in greyed:
        btn = v.list.button_for(a.id)
        assert not btn.isEnabled()
        assert a.reason in btn.toolTip()
    legal = {a.id for a in h.session.actions() if a.kind != "break"}
    assert {a.id for a in v.list.shown_actions()} == legal
