"""The new-campaign screen driven through its real widgets: the life path rolled step by step, insight re-rolls,
class options, leftover insight, random party → Begin → a saved Session, and the seed's reproducibility."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton

from desktop.screens.new_campaign import (
    AdventurerPage,
    NewCampaignScreen,
    SlotPlan,
    StepCard,
    StepPlan,
    build,
    slot_rng,
)
from desktop.session import Session, content
from rules.attributes import ATTRS, Attr
from rules.creation import LIFEPATH_ORDER, new_adventurer, roll_lifepath

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LEFT = Qt.MouseButton.LeftButton


@pytest.fixture()
def screen(qtbot: Any, tmp_path: Path) -> NewCampaignScreen:
    w = NewCampaignScreen(folder=tmp_path, seed=4242)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    return w


def click(qtbot: Any, button: QPushButton) -> None:
    qtbot.waitUntil(button.isVisible, timeout=2000)  # widgets new in a shown layout appear on the next event loop
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, LEFT)


def answer_attribute_questions(qtbot: Any, card: StepCard, chosen: list[str]) -> None:
    """Click the first offered attribute while the card asks for one; remember the choices."""
    while card.view is not None and card.view.status == "attribute":
        offered = [b for b in card.attr_btns.values() if b.isVisible()]
        assert offered, "an attribute question must offer buttons"
        chosen.append(offered[0].text())
        click(qtbot, offered[0])


def choose_class(qtbot: Any, page: AdventurerPage, klass: str) -> None:
    """Pick the class, then the first option(s) of every question the class asks, by clicking."""
    click(qtbot, page.groups["class"].buttons[klass])
    for _ in range(12):
        b = page.result
        assert b is not None
        if b.class_done:
            return
        q = b.pending
        assert q is not None and q.kind == "pick"
        group = page.groups[q.purpose]
        for name in q.options[: q.count]:
            if not group.buttons[name].isChecked():
                click(qtbot, group.buttons[name])
    raise AssertionError("the class never finished")


class Replayed:
    """A chooser giving the answers the test clicked, to replay the engine outside the screen."""

    def __init__(self, attrs: list[str]) -> None:
        self.attrs = list(attrs)

    def lifepath_reroll(self, adv: Any, table: Any, dice: list[int]) -> None:
        return None

    def attribute(self, adv: Any, purpose: str, options: list[Attr]) -> Attr:
        return Attr(self.attrs.pop(0))

    def pick(self, adv: Any, what: str, options: list[str], count: int = 1) -> list[str]:
        raise AssertionError("no picks in the life path")


def test_a_full_adventurer_step_by_step(qtbot: Any, screen: NewCampaignScreen) -> None:
    page = screen.current_page()
    assert not screen.begin_btn.isEnabled()
    chosen_attrs: list[str] = []
    for i, card in enumerate(page.cards):
        assert card.roll_btn.isVisible(), f"step {i + 1} must be ready to roll"
        for later in page.cards[i + 1 :]:
            assert not later.roll_btn.isVisible() and not later.isEnabled()
        click(qtbot, card.roll_btn)
        assert all(d.value in range(1, 7) for d in card.dice), "the rolled dice are shown"
        if card.view is not None and card.view.status == "reroll":
            assert card.keep_btn.isVisible() and card.reroll_btn.isVisible()
            assert page.result is not None
            assert card.insight.text() == f"Insight left: {page.result.adv.character.insight}"
            click(qtbot, card.keep_btn)
        answer_attribute_questions(qtbot, card, chosen_attrs)
        assert card.view is not None and card.view.status == "done"
        assert card.row_name.text() == card.view.row.name  # type: ignore[union-attr]
    b = page.result
    assert b is not None and b.class_open and not b.class_done
    # the sheet is the rolled rows: same dice and rows as the engine's own roll_lifepath with the same RNG
    ref = new_adventurer(content(), page.plan.name)
    rng = slot_rng(screen.seed, page.plan)
    chooser = Replayed(chosen_attrs)
    for tid, card in zip(LIFEPATH_ORDER, page.cards, strict=True):
        rec = roll_lifepath(ref, content(), tid, rng, chooser)  # type: ignore[arg-type]
        assert [d.value for d in card.dice] == rec.dice
        assert card.row_name.text() == rec.row
        assert rec.row in page.sheet.body.text()
    for a in ATTRS:
        assert page.sheet.attrs[a].score == ref.character.attrs[a].score == b.adv.character.attrs[a].score
        assert page.sheet.attrs[a].prof == ref.character.attrs[a].proficiency
    assert b.adv.character.skills == ref.character.skills and b.adv.character.silver == ref.character.silver
    for s in ref.character.skills:
        assert s in page.sheet.body.text()
    # the class, its options and the kit
    choose_class(qtbot, page, "Warrior")
    b = page.result
    assert b is not None and b.class_done and b.adv.klass == "Warrior" and b.adv.background
    assert len(b.adv.manoeuvres) == 1
    assert b.adv.inventory.items, "the kit is placed in the inventory"
    for item in b.adv.inventory.items:
        assert item.name in page.kit.text() and item.name in page.sheet.body.text()
    assert b.adv.background in page.sheet.what.text()
    assert screen.tabs.tabText(0).startswith("✓")


def test_insight_reroll_changes_only_the_marked_die(qtbot: Any, screen: NewCampaignScreen) -> None:
    page = screen.current_page()
    card = page.cards[2]
    for c in page.cards[:2]:
        click(qtbot, c.roll_btn)
        if c.view is not None and c.view.status == "reroll":
            click(qtbot, c.keep_btn)
        answer_attribute_questions(qtbot, c, [])
    click(qtbot, card.roll_btn)
    v = card.view
    assert v is not None
    if v.status != "reroll":
        pytest.skip("this seed spent its insight earlier")
    before = [d.value for d in card.dice]
    assert not card.reroll_btn.isEnabled(), "nothing marked yet"
    qtbot.mouseClick(card.dice[1], LEFT)
    assert card.dice[1].isChecked() and card.reroll_btn.isEnabled()
    insight = v.insight
    click(qtbot, card.reroll_btn)
    after = [d.value for d in card.dice]
    assert after[0] == before[0] and after[2] == before[2]
    assert card.history.isVisible() and "  ".join(map(str, before)) in card.history.text()
    b = page.result
    assert b is not None
    assert b.adv.character.insight == insight - content().lifepath.rules.insight_reroll_cost
    assert page.plan.steps["tragedy"].rerolls == [[1]]


def test_keyboard_rolls_and_keeps(qtbot: Any, screen: NewCampaignScreen) -> None:
    page = screen.current_page()
    qtbot.keyClick(screen, Qt.Key.Key_R)
    assert page.cards[0].view is not None and page.cards[0].view.status != "ready"
    qtbot.keyClick(screen, Qt.Key.Key_R)  # keeps the infancy, rolls the career
    assert page.cards[0].view is not None and page.cards[0].view.status in ("done", "attribute")


def test_random_party_of_four_begins_a_saved_session(qtbot: Any, screen: NewCampaignScreen, tmp_path: Path) -> None:
    click(qtbot, screen.size_btns[3])
    assert screen.tabs.count() == 4
    click(qtbot, screen.random_party_btn)
    assert screen.begin_btn.isEnabled(), screen.status.text()
    assert all(screen.tabs.tabText(i).startswith("✓") for i in range(4))
    names = [p.name for p in screen.plans]
    screen.settlement.setCurrentText("Steinsburg")
    with qtbot.waitSignal(screen.created, timeout=20000) as sig:
        click(qtbot, screen.begin_btn)
    session = sig.args[0]
    assert isinstance(session, Session)
    try:
        assert [m.name for m in session.campaign.party] == names
        assert session.campaign.settlement == "Steinsburg"
        assert session.campaign.seed == screen.seed
        assert session.path.parent == tmp_path and session.path.exists()
        sheet = screen.builds[0].adv.to_dict()
        assert session.campaign.party[0].adv.to_dict() == sheet
    finally:
        session.close()


def test_same_seed_same_adventurers(qtbot: Any, tmp_path: Path) -> None:
    def make() -> list[dict[str, Any]]:
        w = NewCampaignScreen(folder=tmp_path, seed=77)
        qtbot.addWidget(w)
        w.show()
        w.random_party()
        page = w.pages[1]
        page.randomise()  # a second draw for slot 2 is reproducible too
        return [b.to_dict() for b in w.adventurers()]

    first, second = make(), make()
    assert first == second
    assert len({a["name"] for a in first}) == 3


def test_a_new_seed_rolls_everyone_anew(qtbot: Any, screen: NewCampaignScreen) -> None:
    screen.random_party()
    before = [a.to_dict() for a in screen.adventurers()]
    screen.seed_edit.setText("99")
    screen.seed_edit.editingFinished.emit()
    assert screen.seed == 99
    assert not screen.begin_btn.isEnabled(), "the seed change starts the life paths over"
    screen.random_party()
    assert [a.to_dict() for a in screen.adventurers()] != before
    copy = NewCampaignScreen(seed=99)
    qtbot.addWidget(copy)
    copy.random_party()
    assert [a.to_dict() for a in copy.adventurers()] == [a.to_dict() for a in screen.adventurers()]


def test_names_are_editable_and_must_differ(qtbot: Any, screen: NewCampaignScreen) -> None:
    screen.random_party()
    assert screen.begin_btn.isEnabled()
    page = screen.pages[1]
    page.name.clear()
    qtbot.keyClicks(page.name, screen.plans[0].name)
    assert not screen.begin_btn.isEnabled() and "two adventurers" in screen.status.text()
    page.name.clear()
    qtbot.keyClicks(page.name, "Osk the Unburied")
    assert screen.begin_btn.isEnabled()
    assert screen.adventurers()[1].name == "Osk the Unburied"
    old = screen.plans[2].name
    screen.tabs.setCurrentIndex(2)
    click(qtbot, screen.pages[2].name_btn)
    assert screen.plans[2].name != old and screen.pages[2].name.text() == screen.plans[2].name


def test_leftover_insight_is_spent_by_clicking(qtbot: Any, screen: NewCampaignScreen) -> None:
    page = screen.current_page()
    # find a draw that keeps its insight to the end
    for _ in range(30):
        page.plan.restart()
        screen.autofill(page.plan)
        page.plan.spends.clear()
        screen.refresh_page(page)
        b = page.result
        if b is not None and b.adv.character.insight >= 1:
            break
    else:
        pytest.skip("no draw kept its insight")
    insight = b.adv.character.insight
    spend_buttons = [
        w for w in page.insight_card.findChildren(QPushButton) if w.property("rule") == "learn_skill" and w.isEnabled()
    ]
    assert spend_buttons
    click(qtbot, spend_buttons[0])
    b2 = page.result
    assert b2 is not None and b2.adv.character.insight == insight - 1
    assert len(b2.spent) == 1 and page.plan.spends[0][0] == "learn_skill"
    assert any(b2.spent[0] in lab.text() for lab in page.insight_card.findChildren(QLabel))
    learned = page.plan.spends[0][1]
    assert b2.adv.character.has_skill(learned) and learned in page.sheet.body.text()


def test_escape_and_back_cancel(qtbot: Any, screen: NewCampaignScreen) -> None:
    with qtbot.waitSignal(screen.cancelled, timeout=1000):
        qtbot.keyClick(screen, Qt.Key.Key_Escape)
    with qtbot.waitSignal(screen.cancelled, timeout=1000):
        click(qtbot, screen.back_btn)


def test_party_size_tabs(qtbot: Any, screen: NewCampaignScreen) -> None:
    click(qtbot, screen.size_btns[0])
    assert screen.tabs.count() == 1 and screen.party_size == 1
    screen.random_party()
    assert screen.begin_btn.isEnabled()
    click(qtbot, screen.size_btns[1])
    assert screen.tabs.count() == 2 and not screen.begin_btn.isEnabled()


def test_random_choices_never_touch_the_global_random(qtbot: Any) -> None:
    import random

    random.seed(1)
    state = random.getstate()
    w = NewCampaignScreen(seed=5)
    qtbot.addWidget(w)
    w.random_party()
    assert random.getstate() == state
    assert Random(1).random() == random.random()


def _first_row(seed: int, slot: int) -> str:
    plan = SlotPlan(slot, name="X")
    plan.steps["infancy"] = StepPlan(kept=True)
    b = build(plan, content(), seed)
    assert b.steps[0].row is not None
    return b.steps[0].row.name


def test_the_same_life_path_as_an_earlier_member_rerolls_free(qtbot: Any, tmp_path: Path) -> None:
    seed = next(s for s in range(500) if _first_row(s, 0) == _first_row(s, 1))
    w = NewCampaignScreen(folder=tmp_path, seed=seed)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    first = w.pages[0]
    click(qtbot, first.cards[0].roll_btn)
    click(qtbot, first.cards[0].keep_btn)
    answer_attribute_questions(qtbot, first.cards[0], [])
    w.tabs.setCurrentIndex(1)
    page = w.pages[1]
    card = page.cards[0]
    click(qtbot, card.roll_btn)
    assert card.view is not None and card.view.status == "reroll"
    assert "free" in card.reroll_btn.text() and w.plans[0].name.split()[0] in card.reroll_btn.text()
    insight = card.view.insight
    qtbot.mouseClick(card.dice[0], LEFT)
    click(qtbot, card.reroll_btn)
    assert page.result is not None
    v = page.result.steps[0]
    spent = insight - (v.insight if v.status == "reroll" else page.result.adv.character.insight - _row_insight(v))
    assert spent == 0, "the free re-roll costs no insight"
    if v.status == "reroll":
        assert "free" not in card.reroll_btn.text(), "only once"


def _row_insight(v: Any) -> int:
    return int(v.row.insight) if v.row is not None else 0


def test_r_on_the_last_step_keeps_it(qtbot: Any, screen: NewCampaignScreen) -> None:
    page = screen.current_page()
    for _ in range(40):
        b = page.result
        assert b is not None
        if b.class_open:
            break
        q = b.pending
        if q is not None and q.kind == "attribute":
            page._attribute(q.options[0])
        else:
            qtbot.keyClick(screen, Qt.Key.Key_R)
    assert page.result is not None and page.result.class_open, "R rolled and kept every step, the last one too"
