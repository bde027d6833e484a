"""The inventory view: places and tiles from the state, encumbrance, and only the engine's actions on drag,
menu and the detail panel."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from desktop.session import Session
from desktop.widgets.inventory import InventoryView, drop_action, item_actions
from rules.gm.events import Action
from rules.inventory import HANDS, TORSO, Carried


@pytest.fixture
def session(tmp_path: Path) -> Session:
    s = Session.new(seed=7, party_size=3, folder=tmp_path)
    s.apply(s.actions()[0])  # begin the interlude
    yield s
    s.close()


def make(qtbot, session: Session, member_id: str) -> InventoryView:  # type: ignore[no-untyped-def]
    v = InventoryView(session, member_id)
    qtbot.addWidget(v)
    v.resize(1280, 720)
    v.show()
    return v


def test_every_item_sits_in_its_place(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    m = session.campaign.party[0]
    v = make(qtbot, session, m.id)
    inv = m.adv.inventory
    assert {p.name for p in inv.places} <= set(v.boxes)
    assert {TORSO, *HANDS} <= set(v.boxes)
    for i, item in enumerate(inv.items):
        box = v.box(item.place)
        assert any(info.index == i for info in box.items), item.name
        assert box.tile_rect(i) is not None
    slots = m.adv.inventory.carried_slots
    assert v.load_label.text().startswith(f"Carried {slots} / ")


def test_clicking_a_tile_shows_the_item(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    m = session.campaign.party[0]
    v = make(qtbot, session, m.id)
    index, item = next((i, it) for i, it in enumerate(m.adv.inventory.items) if not it.name.startswith("("))
    box = v.box(item.place)
    rect = box.tile_rect(index)
    assert rect is not None
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=rect.center())
    assert v.selected == index
    assert v.detail_title.text().startswith(item.name)
    assert item.place in v.detail_facts.text()


def test_encumbrance_is_warned(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    m = session.campaign.party[0]
    v = make(qtbot, session, m.id)
    assert v.warning.isHidden()
    inv = m.adv.inventory
    bag = next(p for p in inv.places if p.container and not p.liquid_only and p.slots > 2)
    while not inv.encumbered(_str(m)):
        inv.items.append(Carried("Rock", bag.name))
    v.refresh()
    assert not v.warning.isHidden()
    assert "ENCUMBERED" in v.load_label.text()
    assert v.load_label.property("role") == "danger"
    assert v.box(bag.name).items[-1].item.name == "Rock"  # over the bag's slots, still shown


def _str(m) -> int:  # type: ignore[no-untyped-def]
    from rules.attributes import Attr

    return int(m.adv.character.attrs[Attr.STR].score)


def test_no_engine_action_no_move(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    """Where the engine offers no action (nothing goes onto the torso) a drop is refused and nothing is
    emitted."""
    m = session.campaign.party[0]
    v = make(qtbot, session, m.id)
    emitted: list[Action] = []
    v.act.connect(emitted.append)
    index = next(i for i, it in enumerate(m.adv.inventory.items) if it.place != TORSO)
    before = [(it.name, it.place) for it in m.adv.inventory.items]
    assert v.drop(index, TORSO) is False
    assert emitted == []
    assert [(it.name, it.place) for it in m.adv.inventory.items] == before
    assert "rearrange" in v.hint.text()


def test_a_drop_on_a_hand_emits_the_engines_equip_action(qtbot, session: Session, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    m = session.campaign.party[1]
    shield = next(i for i, it in enumerate(m.adv.inventory.items) if it.place not in HANDS and not it.equipped)
    name = m.adv.inventory.items[shield].name
    equip = Action(f"equip:f1:{name}", "equip", f"{m.name}: take the {name} in hand", who=m.id,
                   params=(("item", name),))  # fmt: skip
    monkeypatch.setattr(session, "actions", lambda: [equip])
    v = make(qtbot, session, m.id)
    emitted: list[Action] = []
    v.act.connect(emitted.append)
    assert drop_action([equip], m.id, m.adv.inventory.items[shield], TORSO) is None  # only hands take it
    assert v.drop(shield, HANDS[1]) is True
    assert emitted == [equip]
    assert "Drag" in v.hint.text()


def test_selling_from_the_inventory_detail(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    """At the market, the item's panel offers the engine's sell action; clicking it sells the item."""
    m = session.campaign.party[0]
    session.apply(next(a for a in session.actions() if a.id == f"sell:{m.id}"))
    session.apply(next(a for a in session.actions() if a.id == "resolve"))
    assert session.campaign.interlude is not None and session.campaign.interlude.step == "market"
    v = make(qtbot, session, m.id)
    v.act.connect(lambda a: (session.apply(a), v.refresh()))
    sell = next(a for a in session.actions() if a.kind == "sell_item")
    index = int(sell.param("index"))
    item = m.adv.inventory.items[index]
    assert [a for a in item_actions(session.actions(), m.id, index, item) if a.kind not in ("stow", "give")] == [sell]
    v.select(index)
    buttons = [b for b in v.detail.findChildren(QPushButton) if "sells" in b.text()]
    assert len(buttons) == 1
    units = item.count
    silver = m.adv.character.silver
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)
    assert item not in m.adv.inventory.items or item.count == units - 1
    assert m.adv.character.silver > silver


def test_the_fallen_are_shown_read_only(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    c = session.campaign
    gone = c.party.pop()
    gone.fate = "died on day 1"
    c.fallen.append(gone)
    v = make(qtbot, session, gone.id)
    assert "died on day 1" in v.subtitle.text()
    assert v.legal_actions() == []


def test_dragging_an_item_to_another_place_rearranges_the_trappings(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    """A drop sends the engine's free "stow" action; the item moves and the day stays where it was."""
    m = session.campaign.party[0]
    v = make(qtbot, session, m.id)
    v.act.connect(lambda a: (session.apply(a), v.refresh()))
    inv = m.adv.inventory
    step = session.campaign.interlude.step if session.campaign.interlude else None
    move = next(a for a in session.actions() if a.kind == "stow" and a.who == m.id and a.available)
    index, place = int(move.param("index")), str(move.param("place"))
    name = inv.items[index].name
    assert v.can_drag(next(info for info in v.box(inv.items[index].place).items if info.index == index))
    assert v.drop(index, place)
    assert any(i.name == name and i.place == place for i in inv.items)
    assert session.campaign.interlude is not None and session.campaign.interlude.step == step
    assert not v.drop(index, TORSO)  # nothing onto the torso: refused, nothing sent


def test_giving_an_item_to_a_companion_from_the_inventory_detail(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    """The item's panel offers "give ... to <companion>" (free in a settlement); clicking it hands it over."""
    giver, receiver = session.campaign.party[:2]
    v = make(qtbot, session, giver.id)
    v.act.connect(lambda a: (session.apply(a), v.refresh()))
    give = next(a for a in session.actions() if a.kind == "give" and a.available and a.param("from") == giver.id
                and a.target == receiver.id)  # fmt: skip
    index = int(give.param("index"))
    item = giver.adv.inventory.items[index]
    v.select(index)
    buttons = [b for b in v.detail.findChildren(QPushButton) if b.text() == f"Give to {receiver.name}"]
    assert len(buttons) == 1 and buttons[0].isEnabled()
    before = sum(1 for i in receiver.adv.inventory.items if i.name == item.name)
    units = item.count
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)
    assert sum(1 for i in receiver.adv.inventory.items if i.name == item.name) == before + 1
    assert item.count == units - 1 if units > 1 else all(i is not item for i in giver.adv.inventory.items)
