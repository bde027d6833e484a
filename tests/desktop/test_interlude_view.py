"""The interlude view driven through its real widgets: shopping, taking a job, a day's sleep, day actions."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from desktop.screens.interlude import TABS, InterludeView
from desktop.session import Session
from rules.gm.events import Action, Event
from rules.gm.state import Phase

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def session(tmp_path: Path) -> Session:
    s = Session.new(seed=7, party_size=3, folder=tmp_path)
    yield s
    s.close()


@pytest.fixture
def view(qtbot, session: Session) -> InterludeView:  # type: ignore[no-untyped-def]
    v = InterludeView(session)
    qtbot.addWidget(v)
    played: list[Action] = []

    def play(action: Action) -> None:  # what GameScreen does with a phase view's act
        played.append(action)
        events: list[Event] = session.apply(action)
        v.refresh(events)

    v.act.connect(play)
    v.played = played  # type: ignore[attr-defined]
    v.resize(1280, 720)
    v.show()
    return v


def click(qtbot, view: InterludeView, action_id: str) -> None:  # type: ignore[no-untyped-def]
    button = view.buttons[action_id]
    assert button.isEnabled(), f"{action_id} is disabled: {button.toolTip()}"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def begin(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    click(qtbot, view, "begin")
    assert view.session.campaign.interlude is not None
    assert view.session.campaign.interlude.step == "actions"


def test_begin_shows_the_settlement_and_its_event(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    c = view.session.campaign
    assert view.town.text() == c.settlement
    assert "not begun" in view.event_label.text()
    begin(qtbot, view)
    assert c.interlude is not None and c.interlude.event
    assert c.interlude.event in view.event_label.text()
    assert view.doom_label.text().startswith(f"Doom {c.settlements[c.settlement].doom}/")
    for m in c.party:  # a card per adventurer with the day actions
        assert f"rest:{m.id}" in view.buttons and f"shop:{m.id}" in view.buttons


def test_buy_through_the_shop_tab(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    s = view.session
    begin(qtbot, view)
    view.tabs.setCurrentIndex(TABS.index("Shop"))
    shopper = max(s.campaign.party, key=lambda m: m.adv.character.silver)
    click(qtbot, view, f"shop:{shopper.id}")  # announced from the shop tab's "X: Go shopping"
    assert s.campaign.interlude is not None and s.campaign.interlude.plans[shopper.id] == ["shop"]
    view.tabs.setCurrentIndex(TABS.index("Day"))  # "Resolve the day" lives on the Day tab
    click(qtbot, view, "resolve")
    assert s.campaign.interlude.step == "market"
    assert view.tabs.currentIndex() == TABS.index("Shop")
    assert shopper.name in view.shop_title.text()
    buy = next(a for a in s.actions() if a.kind == "buy" and a.available and a.cost.silver > 0)
    name = buy.target or ""
    before_silver = shopper.adv.character.silver
    before_count = sum(i.count for i in shopper.adv.inventory.items if i.name == name)
    click(qtbot, view, buy.id)
    assert shopper.adv.character.silver == before_silver - buy.cost.silver
    assert sum(i.count for i in shopper.adv.inventory.items if i.name == name) > before_count
    # the price holds: the same item costs the same on the next look
    again = next(a for a in s.actions() if a.id == buy.id)
    assert again.cost.silver == buy.cost.silver or not again.available
    # leaving the market: the day goes on to the night
    view.leave_market()
    assert s.campaign.interlude.step == "sleep"
    assert view.tabs.currentIndex() == TABS.index("Day")


def test_unaffordable_items_are_greyed_with_the_reason(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    s = view.session
    begin(qtbot, view)
    poor = min(s.campaign.party, key=lambda m: m.adv.character.silver)
    click(qtbot, view, f"shop:{poor.id}")
    click(qtbot, view, "resolve")
    dear = next(a for a in s.actions() if a.kind == "buy" and not a.available and "Costs" in (a.reason or ""))
    button = view.buttons[dear.id]
    assert not button.isEnabled()
    assert "Not now" in button.toolTip()
    silver = poor.adv.character.silver
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert poor.adv.character.silver == silver
    assert not view.played[-1].id.startswith("buy:")


def test_take_a_job_starts_the_expedition(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    s = view.session
    begin(qtbot, view)
    view.tabs.setCurrentIndex(TABS.index("Jobs"))
    near = min(s.campaign.jobs, key=lambda j: j.days)
    assert view.jobs_inner.findChild(object, f"job:{near.location}") is not None
    click(qtbot, view, f"expedition:{near.location}")
    assert s.phase in (Phase.EXPLORATION, Phase.COMBAT)  # (a dungeon may meet the party with a fight at its door)
    assert s.campaign.expedition is not None and s.campaign.expedition.location == near.location


def test_a_night_of_sleep_advances_the_day(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    s = view.session
    begin(qtbot, view)
    day = s.campaign.day
    click(qtbot, view, "resolve")  # no one announces: hunger bites, night falls
    assert s.campaign.interlude is not None and s.campaign.interlude.step == "sleep"
    assert "Night falls" in " ".join(w.text() for w in view.day_inner.findChildren(type(view.town)))
    first = s.campaign.party[0]
    click(qtbot, view, f"sleep:{first.id}:inn")  # one chooses the inn, then everyone else
    assert s.campaign.interlude.sleep[first.id] == "inn"
    rest = next(a for a in s.actions() if a.id.startswith("sleep:all:") and a.available)
    click(qtbot, view, rest.id)
    assert s.campaign.day == day + 1
    assert s.campaign.interlude.step == "actions"
    assert any(e.startswith(f"Day {day + 1}") for e in view._recent)


def test_day_action_options_from_the_menu(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    s = view.session
    begin(qtbot, view)
    m = max(s.campaign.party, key=lambda x: x.adv.character.silver)
    option = next(a for a in s.actions() if a.who == m.id and a.kind == "rest" and a.cost.silver and a.available)
    silver = m.adv.character.silver
    view.menu_actions[option.id].trigger()
    assert s.campaign.interlude is not None
    assert s.campaign.interlude.plans[m.id] == [f"rest:{option.param('option')}"]
    assert m.adv.character.silver == silver - option.cost.silver
    card = view.day_inner.findChild(type(view.town), f"announced:{m.id}")
    assert card is not None and "Announced" in card.text()
    # the others announce with the plain button; then the day resolves with Ctrl+Enter
    for other in s.campaign.party:
        if other is not m:
            click(qtbot, view, f"rest:{other.id}")
    qtbot.keyClick(view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    if s.campaign.interlude.step != "sleep":  # shortcuts need an active window; the method is the same
        view.resolve_day()
    assert s.campaign.interlude.step == "sleep"


def test_roster_remembers_the_dead_and_the_retired(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    s = view.session
    begin(qtbot, view)
    gone = s.campaign.party.pop()
    gone.fate = "died in the Chapel of Candles on day 1"
    s.campaign.fallen.append(gone)
    view.refresh([])
    view.tabs.setCurrentIndex(TABS.index("Roster"))
    texts = " ".join(w.text() for w in view.roster_inner.findChildren(type(view.town)))
    assert gone.name in texts and "Chapel of Candles" in texts
    assert "recruit" in view.buttons and view.buttons["recruit"].isEnabled()  # a place is free
    click(qtbot, view, "recruit")
    assert len(s.campaign.party) == 3


def test_trappings_tab_follows_the_chosen_member(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    s = view.session
    begin(qtbot, view)
    view.tabs.setCurrentIndex(TABS.index("Trappings"))
    second = s.campaign.party[1]
    view.trap_who.setCurrentIndex(1)
    assert view.inventory.member_id == second.id
    assert view.inventory.title.text() == second.name


def test_the_purse_menu_pools_and_shares_the_silver(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    begin(qtbot, view)
    c = view.session.campaign
    total = c.silver
    a = c.party[0]
    assert view.buttons["purse"].isEnabled()
    view.menu_actions[f"pool:{a.id}"].trigger()  # "Everyone hands their silver to …"
    assert a.adv.character.silver == total and c.silver == total
    assert view.played[-1].id == f"pool:{a.id}"
    view.menu_actions["share"].trigger()
    amounts = [m.adv.character.silver for m in c.party]
    assert sum(amounts) == total and max(amounts) - min(amounts) <= 1
    assert not view.menu_actions["share"].isEnabled()  # already even: greyed with the reason
    assert c.interlude is not None and not any(c.interlude.plans.values())  # no day's action spent


def test_the_town_says_what_it_knows_before_anyone_shops(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    """#16.11: the jobs tab before the day begins, the prices' dice before shopping, the doom line whole."""
    from PySide6.QtWidgets import QLabel

    s = view.session
    view.tabs.setCurrentIndex(TABS.index("Jobs"))
    note = view.jobs_page.findChild(QLabel, "jobs_not_yet")
    assert note is not None and "job board goes up" in note.text()
    view.tabs.setCurrentIndex(TABS.index("Day"))
    begin(qtbot, view)
    view.tabs.setCurrentIndex(TABS.index("Shop"))
    t = view.shop_table
    prices = {t.item(r, 0).text(): t.item(r, 4).text() for r in range(t.rowCount()) if t.item(r, 4) is not None}
    assert prices and "—" not in prices.values()
    assert any("d6 (" in p for p in prices.values())  # "1d6 (1–6)": the dice the price will be rolled with
    place = s.campaign.settlements[s.campaign.settlement]
    from rules.settlement import doom_state

    state = doom_state(s.gm.content, place.doom)
    if state is not None:
        assert state.text in view.doom_label.text() and view.doom_label.wordWrap()


def test_haggling_shows_its_odds(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    from desktop.chances import haggle_odds, price_spread

    content = view.session.gm.content
    spread = price_spread(content, "common")
    assert sorted(spread) == [1, 2, 3, 4, 5, 6] and abs(sum(spread.values()) - 1) < 1e-9
    assert haggle_odds(content, "common", 4) == pytest.approx((0.5, 2 / 6))
    assert haggle_odds(content, "common", 4, keep_either=True) == pytest.approx((0.5, 0.0))
    assert sorted(price_spread(content, "uncommon"))[0] == 4  # 2 + 2d6
    assert max(price_spread(content, "valuable")) == 36  # 3 x 2d6


def test_a_closed_day_action_says_why_on_the_card(qtbot, view: InterludeView, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    from PySide6.QtWidgets import QLabel

    s = view.session
    begin(qtbot, view)
    m = s.campaign.party[0]
    real = s.actions

    def closed() -> list[Action]:
        return [dataclasses.replace(a, available=False, reason="Nothing to sell.") if a.id == f"sell:{m.id}" else a
                for a in real()]  # fmt: skip

    monkeypatch.setattr(s, "actions", closed)
    view.refresh([])
    note = view.findChild(QLabel, f"closed:{m.id}")
    assert note is not None and "Sell: Nothing to sell." in note.text()


def test_the_shop_buys_for_a_companion_from_a_rows_menu(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    """#13: the market asks who buys for whom — a row's "For…" menu lists the companions; a pick pays from the
    shopper's purse and puts the ware in the companion's packs."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QPushButton

    s = view.session
    begin(qtbot, view)
    view.tabs.setCurrentIndex(TABS.index("Shop"))
    shopper = max(s.campaign.party, key=lambda m: m.adv.character.silver)
    click(qtbot, view, f"shop:{shopper.id}")
    view.tabs.setCurrentIndex(TABS.index("Day"))
    click(qtbot, view, "resolve")
    gift = next(a for a in s.actions() if a.kind == "buy_for" and a.available and a.cost.silver > 0)
    other = s.campaign.member(str(gift.param("for")))
    name = gift.target or ""
    row = next(r for r in range(view.shop_table.rowCount()) if view.shop_table.item(r, 0).text() == name)
    holder = view.shop_table.cellWidget(row, 8)
    button = holder.findChild(QPushButton)
    assert button is not None and button.isEnabled() and not view.shop_table.isColumnHidden(8)
    entry = button.menu().findChild(QAction, f"action:{gift.id}")
    assert entry is not None and entry.text() == other.name
    silver, had = shopper.adv.character.silver, sum(i.count for i in other.adv.inventory.items if i.name == name)
    entry.trigger()
    qtbot.waitUntil(lambda: shopper.adv.character.silver == silver - gift.cost.silver, timeout=3000)
    assert sum(i.count for i in other.adv.inventory.items if i.name == name) > had


def test_the_haggle_label_knows_trade_network_through_the_public_accessor(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]
    from rules.gm.interlude import keeps_either_price

    gm = view.session.gm
    m = gm.alive()[0]
    skills = m.adv.character.skills
    before = list(skills)
    try:
        skills[:] = [s for s in before if s.lower() != "trade network"] + ["Haggle"]
        assert keeps_either_price(gm, m) is False and view._keeps_either(m) is False
        skills.append("Trade network")
        assert keeps_either_price(gm, m) is True and view._keeps_either(m) is True
    finally:
        skills[:] = before
