"""An action that cannot be taken now looks it, and says why on the screen (not only in a tooltip)."""

from __future__ import annotations

from typing import Any

from desktop.widgets.action_list import ActionList
from rules.gm.events import Action, Cost


def test_an_unavailable_action_is_greyed_and_says_why_inline(qtbot: Any) -> None:
    lst = ActionList()
    qtbot.addWidget(lst)
    ok = Action("search", "search", "Search for secrets (INT)", Cost(turns=1))
    no = Action("loot", "loot", "Loot the room", Cost(turns=1), False, "Nothing of value in sight.")
    lst.set_actions([no, ok])
    lst.resize(400, 300)
    lst.show()
    qtbot.waitExposed(lst)
    b_no, b_ok = lst.button_for("loot"), lst.button_for("search")
    assert b_no is not None and b_ok is not None
    assert not b_no.isEnabled() and b_ok.isEnabled()
    assert b_no.reason_label.isVisible() and b_no.reason_label.text() == "Not now: Nothing of value in sight."
    assert not b_ok.reason_label.isVisible()
    assert b_no.key_label.text() == "–" and b_ok.key_label.text() == "1"  # the number goes to the available one
    assert b_no.property("unavailable") is True
    # the reason has room: the button is taller than a one-line one
    assert b_no.height() > b_ok.height()
    clicked: list[Action] = []
    lst.chosen.connect(clicked.append)
    b_no.click()
    assert clicked == [] and lst.trigger(1) and clicked == [ok]
