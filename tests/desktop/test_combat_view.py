"""CombatView and CombatGrid driven through the real widgets: clicks and keys change the engine's fight."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from desktop.screens.combat import CombatView, event_dice, short_label
from desktop.session import Session
from desktop.widgets.combat_grid import foe_sheet_html, initials
from rules.gm.events import Action, Event
from rules.gm.state import Phase
from tests.desktop.harness import Harness, shown

SEED = 7


def _to_combat(s: Session, limit: int = 3000) -> None:
    """Play until a fight: the autoplay, steered into the first fight it is offered; if the dungeon offers none
    before the party stands in a room, goblins come out of the dark (the engine's own start of a fight)."""
    from rules.gm import combat

    for _ in range(limit):
        if s.phase is Phase.COMBAT:
            return
        if s.phase is Phase.EXPLORATION and s.campaign.expedition is not None and s.campaign.expedition.turns >= 2:
            fight = next((a for a in s.actions() if a.kind == "fight" and a.available), None)
            if fight is not None:
                s.apply(fight)
            else:
                combat.start(s.gm, [("Goblin Scrapper", 2)], source="a test")
            continue
        if not s.autoplay():
            break
    assert s.phase is Phase.COMBAT, "the session never reached a fight"


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = Session.new(seed=SEED, party_size=3, folder=tmp_path)
    _to_combat(s)
    yield s
    s.close()


@pytest.fixture
def view(qtbot, session: Session) -> tuple[CombatView, Harness]:  # type: ignore[no-untyped-def]
    return shown(qtbot, CombatView(session))


def _click(qtbot, grid, tile: tuple[int, int], button=Qt.MouseButton.LeftButton) -> None:  # type: ignore[no-untyped-def]
    rect = grid.tile_rect(tile)
    assert not rect.isEmpty()
    qtbot.mouseClick(grid, button, pos=rect.center())


def _until(h: Harness, want, limit: int = 200) -> bool:  # type: ignore[no-untyped-def]
    """Autoplay the fight until ``want(view)`` holds (refreshing the view each step)."""
    for _ in range(limit):
        if h.session.phase is not Phase.COMBAT:
            return False
        h.view.refresh([])
        if want(h.view):
            return True
        h.view.refresh(h.session.autoplay())
    return False


def test_the_grid_shows_the_legal_moves_and_a_click_moves_there(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    assert _until(h, lambda v: bool(v.grid.move_tiles)), "no one could move"
    who = v.acting
    cs = h.session.campaign.combat
    legal = {
        (a.param("x"), a.param("y"))
        for a in h.session.actions()
        if a.kind == "move" and a.who == who and a.available and a.param("x") is not None
    }
    assert v.grid.move_tiles == legal
    target = sorted(legal)[-1]
    before = cs.fighter(who).actions
    _click(qtbot, v.grid, target)
    assert h.chosen and h.chosen[-1].kind == "move"
    cs = h.session.campaign.combat
    if cs is not None:  # the move may have ended a phase; the fighter still stands where it went
        f = cs.fighter(who)
        assert f.tile == target
        assert f.actions < before or cs.phase != "fast"
    assert any(e.kind == "move" and e.data["to"] == list(target) for e in h.events)


def test_clicking_an_enemy_attacks_it(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    assert _until(h, lambda v: bool(v.grid.attack_targets)), "no enemy came in reach"
    foe_id = sorted(v.grid.attack_targets)[0]
    foe = h.session.campaign.combat.foe(foe_id)
    _click(qtbot, v.grid, foe.tile)
    assert h.chosen[-1].kind == "attack" and h.chosen[-1].target == foe_id
    kinds = [e.kind for e in h.events]
    assert "test" in kinds and ("hit_foe" in kinds or "miss" in kinds)
    log = h.session.log()
    assert any(e["kind"] in ("hit_foe", "miss") and e["data"].get("foe") == foe_id for e in log)
    shown = [e.text for e in h.events if not e.data.get("hidden") and e.text]
    assert v.feed.lines() and v.feed.lines()[-1] == shown[-1]  # the feed ends with the step's last line …
    assert "attacking" in v.feed.lines()[0]  # … and starts with the attack's roll, even when enemies answered


def test_a_click_on_an_enemy_out_of_reach_does_nothing(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    cs = h.session.campaign.combat
    far = [e for e in cs.active_foes() if e.id not in v.grid.attack_targets]
    if not far:
        pytest.skip("every enemy is in reach")
    _click(qtbot, v.grid, far[0].tile)
    assert h.chosen == []
    # ... but says why, where the player looks (not only in a tooltip that may not show)
    assert far[0].monster in v.hint.text() and "No attack" in v.hint.text()
    assert v.hint.property("role") == "danger"


def test_a_click_on_an_enemy_takes_the_attack_with_the_best_odds(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    from desktop.chances import Chance

    v, h = view
    assert _until(h, lambda v: bool(v.grid.attack_targets)), "no enemy came in reach"
    foe_id = sorted(v.grid.attack_targets)[0]
    first = v.grid._attacks[foe_id][0]
    worse = Chance("a", "A", "STR", 1, 0.3, 0.0, 0.1, 0.5)
    better = Chance("a", "A", "DEX", 3, 0.8, 0.2, 0.0, 0.4)
    second = Action(first.id + ":other", "attack", first.label + " (other)", first.cost, target=foe_id, who=first.who)
    v.grid._attacks[foe_id] = [first, second]
    v.grid._odds = {first.id: worse, second.id: better}
    assert v.grid.default_attack(foe_id) is second  # not the first listed: the better odds
    v.grid._odds = {first.id: better, second.id: worse}
    assert v.grid.default_attack(foe_id) is first


def test_keys_end_the_turn_and_attack_the_nearest(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    who = v.acting
    assert who is not None
    qtbot.keyClick(v, Qt.Key.Key_E)
    assert h.chosen[-1].kind == "end" and h.chosen[-1].who == who
    cs = h.session.campaign.combat
    if cs is not None:
        assert cs.fighter(who).actions == 0 or cs.round > 1
    assert _until(h, lambda v: bool(v.grid.attack_targets))
    expected = v.attack_nearest()
    assert expected is not None
    qtbot.keyClick(v, Qt.Key.Key_A)
    assert h.chosen[-1].id == expected.id


def test_arrow_cursor_and_enter_take_the_tile_under_it(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    assert _until(h, lambda v: bool(v.grid.move_tiles))
    cs = h.session.campaign.combat
    start = cs.fighter(v.acting).tile
    for key, (dx, dy) in ((Qt.Key.Key_Up, (0, -1)), (Qt.Key.Key_Down, (0, 1)), (Qt.Key.Key_Left, (-1, 0)),
                          (Qt.Key.Key_Right, (1, 0))):  # fmt: skip
        if (start[0] + dx, start[1] + dy) in v.grid.move_tiles:
            v.setFocus()
            qtbot.keyClick(v, key)
            assert v.key_cursor == (start[0] + dx, start[1] + dy)
            qtbot.keyClick(v, Qt.Key.Key_Return)
            assert h.chosen[-1].kind == "move"
            assert (h.chosen[-1].param("x"), h.chosen[-1].param("y")) == (start[0] + dx, start[1] + dy)
            return
    pytest.skip("no move to a neighbouring tile")


def test_the_side_panel_lists_the_order_and_the_actions(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    cs = h.session.campaign.combat
    assert v.title.text() == f"Round {cs.round}"
    for f in cs.fighters:
        assert f.id in v.order.rows
    for e in cs.active_foes():
        assert e.id in v.order.rows
    shown = v.list.shown_actions()
    assert shown, "the acting adventurer has actions"
    assert all(a.who == v.acting for a in shown)
    assert not any(a.kind in ("end", "flee") for a in shown)  # those are the bar's buttons
    for a in shown:
        btn = v.list.button_for(a.id)
        assert btn is not None and btn.isEnabled() == a.available
        if not a.available:
            assert a.reason and a.reason in btn.toolTip()
    assert v.end_button.isEnabled()
    # a button of the list takes its action in the engine
    pick = next(a for a in shown if a.available)
    before = h.session.campaign.stats.steps
    qtbot.mouseClick(v.list.button_for(pick.id), Qt.MouseButton.LeftButton)
    assert h.chosen[-1].id == pick.id
    assert h.session.campaign.stats.steps == before + 1


def test_the_enemy_sheet_tooltip_reads_the_bestiary(view) -> None:  # type: ignore[no-untyped-def]
    v, h = view
    cs = h.session.campaign.combat
    foe = cs.active_foes()[0]
    m = h.session.gm.content.bestiary.monster(foe.monster)
    text = v.grid.tooltip_for(foe.tile)
    assert m.name in text
    assert f"{foe.wounds} of {m.wounds}" in text
    for a in m.actions:
        assert a.name in text
    for sp in m.specials:
        assert sp.text.split("'")[0] in text.replace("&#x27;", "'")
    assert foe_sheet_html(h.session.gm, foe) in text or m.name in foe_sheet_html(h.session.gm, foe)


def test_a_whole_fight_through_the_view_ends_it(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    """Play the fight with the view's own keys and buttons only: attack when something is in reach, else
    move towards the enemies, else end the turn — the engine reaches the end of the fight."""
    v, h = view
    for _ in range(400):
        if h.session.phase is not Phase.COMBAT:
            break
        v.refresh([])
        if v.acting is None:  # enemies' turn pending: let the engine go on
            h.view.refresh(h.session.autoplay())
            continue
        if v.grid.attack_targets:
            qtbot.keyClick(v, Qt.Key.Key_A)
        elif v.grid.move_tiles and h.session.campaign.combat.fighter(v.acting).actions > 1:
            cs = h.session.campaign.combat
            foes = [e.tile for e in cs.active_foes()]
            best = min(v.grid.move_tiles, key=lambda t: min(abs(t[0] - x) + abs(t[1] - y) for x, y in foes))
            _click(qtbot, v.grid, best)
        else:
            qtbot.keyClick(v, Qt.Key.Key_E)
    assert h.session.phase is not Phase.COMBAT
    assert any(e["kind"] == "combat_end" for e in h.session.log())


def test_labels_and_dice_helpers() -> None:
    a = Action("attack:a1:Long Spear:e2", "attack", "Noll Ironmonger: attack Reanimated Husk (e2) with the Long Spear "
               "(STR 3+1)", who="a1", target="e2", params=(("arm", "Long Spear"),))  # fmt: skip
    assert short_label(a, {"a1": "Noll Ironmonger"}) == "Reanimated Husk 2 — Long Spear"
    assert initials("Tamsen Fathom") == "TF" and initials("Ghoul") == "GH"
    dice, tone = event_dice(Event("test", "x", {"final": [1, 3], "dice": [2, 3], "outcome": "critical failure"}))
    assert dice == [1, 3] and tone == "critical"
    assert event_dice(Event("foe_damage", "x", {"armour": [5, 2]}))[0] == [5, 2]


def test_right_click_menu_lists_every_action_on_the_enemy(qtbot, view, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from desktop.widgets.combat_grid import CombatGrid

    v, h = view
    assert _until(h, lambda v: bool(v.grid.attack_targets))
    foe_id = sorted(v.grid.attack_targets)[0]
    seen: list[list[str]] = []

    def take_first(grid: CombatGrid, menu, where) -> None:  # type: ignore[no-untyped-def]
        items = menu.actions()
        seen.append([item.text() for item in items])
        next(item for item in items if item.isEnabled()).trigger()

    monkeypatch.setattr(CombatGrid, "open_menu", take_first)
    expected = len([a for a in h.session.actions() if a.who == v.acting and a.target == foe_id])
    _click(qtbot, v.grid, h.session.campaign.combat.foe(foe_id).tile, Qt.MouseButton.RightButton)
    assert seen and len(seen[0]) == expected
    assert h.chosen and h.chosen[-1].target == foe_id


def test_the_feed_keeps_the_players_roll_above_the_enemies_answer(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop.screens.combat import DiceFeed

    feed = DiceFeed(4)
    qtbot.addWidget(feed)
    roll = Event("test", "Ysa tests DEX (attacking Plagued Rat (e1)): success", {"dice": [5, 2], "outcome": "success"})
    answer = [Event("foe_action", f"Plagued Rat (e{i}) uses Small bite.", {}) for i in range(1, 7)]
    feed.set_events([roll, Event("hit_foe", "Ysa hits Plagued Rat (e1).", {}), *answer])
    assert feed.lines() == [roll.text, answer[-2].text, answer[-1].text]
    assert feed._hidden == 5  # shown as "… 5 more lines in the log" between them
    feed.set_events(answer)  # no roll of the player's in the step: the newest three
    assert feed.lines() == [e.text for e in answer[-3:]] and feed._hidden == 3
    feed.set_events(answer[:3])  # everything fits
    assert feed.lines() == [e.text for e in answer[:3]] and feed._hidden == 0


def test_a_powers_row_keeps_its_odds_and_aims_at_the_nearest_enemy(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    """A wizard's spell list (#13): each spell aimed at enemies is one row, at the nearest; the odds of its test
    stay in the row (a long parenthesis used to be cut); every other enemy is in its right-click menu."""
    from rules.inventory import Carried
    from rules.magic import Spellbook

    v, _h = view
    s = v.session
    acting = next(a.who for a in s.actions() if a.available)
    m = s.campaign.member(acting)
    m.adv.character.traits.append("Magic user")
    m.adv.inventory.add(Carried("Crystal ball", ""))
    m.adv.spellbook = Spellbook(known=["Pain", "Glue"], memorised=["Pain", "Glue"])
    v.refresh([])
    assert short_label(Action("cast:a1:Pain:e2", "cast", "Noll: cast Pain on Reanimated Husk (e2) (INT 50% to keep it)",
                              who="a1", target="e2"), {"a1": "Noll"}) == "Cast Pain on Reanimated Husk 2 · INT 50%"
    prayer = Action("pray:a1:Cleansing Flames:e1", "pray", "Noll: pray for Cleansing Flames on Goblin (e1) (PRE 58% "
                    "answered, then STR 1PR+6 42% to hit)", who="a1", target="e1")  # fmt: skip
    assert short_label(prayer, {"a1": "Noll"}) == "Pray for Cleansing Flames on Goblin 1 · PRE 58%, hit 42%"
    rows = v._listed([a for a in s.actions() if a.who == acting and a.available], {acting: m.name},
                     s.campaign.combat)  # fmt: skip
    pain = [a for a in rows if a.kind == "cast" and a.param("spell") == "Pain"]
    in_reach = [a for a in s.actions() if a.available and a.kind == "cast" and a.param("spell") == "Pain"]
    assert len(pain) == 1 and "INT" in pain[0].label and "%" in pain[0].label
    assert len(in_reach) >= 1
    for a in in_reach:
        menu = v.grid.menu_for(a.target)
        assert menu is not None
        assert any(x.text().startswith("Cast Pain") and "% to keep it" in x.text() for x in menu.actions())


def _cleric_beside_allies(v: CombatView) -> tuple[str, str, str]:
    """The acting adventurer made a cleric with Cure Light Wounds, two allies moved Close to them: the first
    wounded in STR, the second unhurt.  Returns (cleric, wounded, unhurt) ids."""
    from rules.attributes import Attr
    from rules.gm import combat_grid as grid
    from rules.inventory import Carried
    from rules.magic import Prayers

    s = v.session
    cs = s.campaign.combat
    acting = next(a.who for a in s.actions() if a.available)
    cleric = s.campaign.member(acting)
    cleric.adv.character.traits.append("Divine mandate")
    cleric.adv.prayers = Prayers(memorised=["Cure Light Wounds"])
    cleric.adv.inventory.add(Carried("Holy symbol", ""))
    f = cs.fighter(acting)
    others = [g for g in cs.fighters if g.id != acting and not g.dead and not g.fled][:2]
    taken = {g.tile for g in cs.fighters if g.id not in {o.id for o in others}} | {e.tile for e in cs.active_foes()}
    free = sorted((t for t in cs.tiles if t not in taken and grid.close(f.tile, t) and t != cs.exit),
                  key=lambda t: (t[1], t[0]))  # fmt: skip
    assert len(others) == 2 and len(free) >= 2
    for g, t in zip(others, free, strict=False):
        g.x, g.y = t
    wounded, unhurt = (s.campaign.member(g.id) for g in others)
    wounded.adv.character.attrs[Attr.STR].wounds = 1
    for a in unhurt.adv.character.attrs.values():
        a.wounds = 0
    unhurt.adv.character.afflictions.discard("bleeding")
    v.refresh([])
    return acting, wounded.id, unhurt.id


def test_right_click_on_an_ally_offers_every_action_aimed_at_them(qtbot, view, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """#13: powers, gifts and help aimed at an ally were rows only; the ally's right-click menu now offers them,
    the prayer with its odds, greyed with the reason where it cannot help; choosing one plays it."""
    from desktop.widgets.combat_grid import CombatGrid

    v, h = view
    acting, wounded, unhurt = _cleric_beside_allies(v)
    cs = h.session.campaign.combat
    # the unhurt ally: the prayer greyed, its reason in the text and the tooltip
    menu = v.grid.menu_for(unhurt)
    assert menu is not None
    entry = next(x for x in menu.actions() if "Cure Light Wounds" in x.text())
    other = h.session.campaign.member(unhurt).name
    assert not entry.isEnabled()
    assert entry.toolTip() == f"No use now: {other} has no wound and is not bleeding."
    assert entry.text().endswith(f"[1 action] — No use now: {other} has no wound and is not bleeding")
    # the cleric's own menu: the prayer on themself (unhurt: greyed too)
    own = v.grid.menu_for(acting)
    assert own is not None and [x.isEnabled() for x in own.actions() if "Cure Light Wounds" in x.text()] == [False]
    assert "Right click: every action aimed at them" in v.grid.tooltip_for(cs.fighter(wounded).tile)
    seen: list[list[tuple[str, bool]]] = []

    def pick_cure(grid: CombatGrid, menu, where) -> None:  # type: ignore[no-untyped-def]
        items = menu.actions()
        seen.append([(item.text(), item.isEnabled()) for item in items])
        next(item for item in items if "Cure Light Wounds" in item.text()).trigger()

    monkeypatch.setattr(CombatGrid, "open_menu", pick_cure)
    aimed = [a for a in h.session.actions() if a.who == acting and a.target == wounded]
    assert {a.kind for a in aimed} >= {"pray", "help"}
    _click(qtbot, v.grid, cs.fighter(wounded).tile, Qt.MouseButton.RightButton)
    assert len(seen) == 1
    texts = [t for t, _ in seen[0]]
    # one entry per action aimed at the wounded ally, gifts folded into one submenu
    gifts = [a for a in aimed if a.kind == "give"]
    assert len(texts) == len(aimed) - len(gifts) + (1 if gifts else 0)
    cure = next((t, on) for t, on in seen[0] if "Cure Light Wounds" in t)
    name = h.session.campaign.member(wounded).name
    assert cure[1] and cure[0].startswith(f"Pray for Cure Light Wounds on {name} (PRE ") and "%)" in cure[0]
    assert h.chosen[-1].kind == "pray" and h.chosen[-1].target == wounded


def test_an_allys_gifts_fold_into_one_submenu(qtbot, view) -> None:  # type: ignore[no-untyped-def]
    from rules.inventory import Carried

    v, h = view
    acting, wounded, _unhurt = _cleric_beside_allies(v)
    m = h.session.campaign.member(acting)
    m.adv.inventory.add(Carried("Rope", ""))
    m.adv.inventory.add(Carried("Torch", ""))
    v.refresh([])
    gifts = [a for a in h.session.actions() if a.who == acting and a.target == wounded and a.kind == "give"]
    assert len(gifts) >= 2
    menu = v.grid.menu_for(wounded)
    assert menu is not None
    subs = [x.menu() for x in menu.actions() if x.menu() is not None]
    assert len(subs) == 1 and subs[0].title() == f"Give to {h.session.campaign.member(wounded).name}…"
    giver = h.session.campaign.member(acting).name
    # "Give the Rope to Noll", without the giver
    want = ["G" + a.label.removeprefix(f"{giver}: g") for a in gifts]
    assert [x.text().split("  [")[0] for x in subs[0].actions()] == want
