"""Combat through ``GM.apply``: a scripted corridor, fixed seeds and loaded dice.

Where a test needs a particular roll the dice are loaded (:class:`Loaded`: the
next ``randint`` results are given, everything after stays seeded), so every
assertion is an exact outcome of the rules.  Adventurers are made plain (score
2 everywhere, no proficiency, no skills or traits) unless a test says otherwise,
so no reroll consumes a die the test did not load.
"""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.attributes import ATTRS, Attr
from rules.autoplay import combat_policy
from rules.character import Condition
from rules.checks import RuleError
from rules.content.registry import load_content
from rules.gm import combat, exploration
from rules.gm import combat_core as core
from rules.gm.combat_state import CombatState, Fighter, Foe
from rules.gm.engine import GM
from rules.gm.site import SiteMonsters
from rules.gm.state import Campaign, Member, Phase
from rules.inventory import Carried, Inventory
from rules.magic import Spellbook
from tests.gm.scripted import Loaded, corridor, game

CONTENT = load_content()


def plain(m: Member, weapon: str | None = "Falchion", shield: str | None = None) -> None:
    """Score 2 everywhere, no proficiency, no skills, traits, afflictions; one weapon (and shield) in hand."""
    ch = m.adv.character
    ch.skills, ch.traits, ch.afflictions, ch.traumas = [], [], set(), set()
    ch.condition = Condition.ACTIVE
    for a in ATTRS:
        st_ = ch.attrs[a]
        st_.score, st_.proficiency, st_.fatigue, st_.wounds = 2, 0, 0, 0
    m.adv.manoeuvres = []
    m.adv.spellbook = None
    m.adv.prayers = None
    inv = Inventory.body()
    inv.add_container("Bag", 4)
    if weapon:
        inv.add(Carried(weapon, "", equipped=True), "Left hand")
    if shield:
        inv.add(Carried(shield, "", equipped=True), "Right hand")
    m.adv.inventory = inv


def arena(
    monsters: list[tuple[str, int]],
    *,
    party: int = 1,
    seed: int = 1,
    surprise: str | None = "party",
    faces: list[int] | None = None,
    weapon: str | None = "Falchion",
    shield: str | None = None,
) -> GM:
    """The party alone in room 1 of a corridor, then a fight with ``monsters`` starts there."""
    gm = game(corridor(3), seed=seed, party=party, light=False)
    for m in gm.c.party:
        plain(m, weapon, shield)
    gm.c.party[0].adv.inventory.add(Carried("Torches", "", count=2))  # no turn in the dark after the fight
    exploration.enter(gm, "test-site")
    gm.rng = Loaded(seed, faces)
    combat.start(gm, monsters, source="a test", surprise=surprise)
    return gm


def cs_of(gm: GM) -> CombatState:
    assert gm.c.combat is not None
    return gm.c.combat


def put(gm: GM, who: Fighter | Foe, x: int, y: int) -> None:
    """Move a creature (freeing the tile first if someone else stands there)."""
    cs = cs_of(gm)
    for other in [*cs.fighters, *cs.foes]:
        if other is not who and other.tile == (x, y):
            free = next(t for t in cs.tiles if t not in {c.tile for c in [*cs.fighters, *cs.foes]})
            other.x, other.y = free
    who.x, who.y = x, y


def available(gm: GM, who: str | None = None) -> set[str]:
    return {a.id for a in gm.legal_actions() if a.available and (who is None or a.who == who)}


def kinds(events: list[object]) -> list[str]:
    return [e.kind for e in events]  # type: ignore[attr-defined]


def load(gm: GM, *faces: int) -> None:
    assert isinstance(gm.rng, Loaded)
    gm.rng.load(*faces)


# --- setup and initiative ---------------------------------------------------------------------------------


def test_initiative_is_a_dex_check_fast_or_slow() -> None:
    # two adventurers, DEX 2 each: the first rolls 5,2 (a success), the second 3,1 (a failure)
    gm = arena([("Goblin Scrapper", 1)], party=2, surprise=None, faces=[5, 2, 3, 1])
    cs = cs_of(gm)
    a1, a2 = cs.fighters
    assert a1.fast and not a2.fast
    # a check: no fatigue even though the failure showed a 1
    assert all(m.adv.character.attrs[Attr.DEX].fatigue == 0 for m in gm.c.party)
    assert gm.c.phase is Phase.COMBAT and cs.phase == "fast" and cs.round == 1
    # only the fast adventurer may act now, with two actions
    assert {a.who for a in gm.legal_actions()} == {a1.id}
    assert a1.actions == 2
    assert gm.c.stats.combats == 1 and gm.c.stats.combat_rounds == 1


def test_unaware_enemies_no_initiative_all_fast_and_they_lose_their_turn() -> None:
    gm = arena([("Goblin Scrapper", 1)], party=2, surprise="party")
    cs = cs_of(gm)
    assert all(f.fast for f in cs.fighters)
    assert "test" not in kinds(gm.events) or all(e.data.get("reason") != "initiative" for e in gm.events)
    events = []
    for f in cs.fighters:
        events += gm.apply(f"end:{f.id}")
    assert "surprised" in kinds(events)
    assert "foe_action" not in kinds(events)  # the enemy's first turn is lost
    assert cs.round == 2


def test_an_ambush_enemies_act_first_and_the_party_is_slow() -> None:
    gm = game(corridor(3), seed=3, party=2, light=False)
    for m in gm.c.party:
        plain(m)
    exploration.enter(gm, "test-site")
    combat.start(gm, [("Goblin Scrapper", 2)], source="an ambush", surprise="enemies")
    cs = cs_of(gm)
    assert not any(f.fast for f in cs.fighters)
    evs = kinds(gm.events)
    enemy = [i for i, k in enumerate(evs) if k in ("foe_action", "foe_move")]
    assert "initiative" in evs and enemy and evs.index("initiative") < enemy[0]
    assert "test" not in evs[: evs.index("initiative")]  # an ambush: no initiative check
    assert cs.phase == "slow"  # the enemies have had their turn; the slow party acts now
    assert {a.who for a in gm.legal_actions()} == {cs.fighters[0].id}  # the GM's order: the party's order


def test_the_room_monsters_stand_where_the_dungeon_put_them_and_the_party_by_the_door() -> None:
    site = corridor(3, r2={"monsters": (SiteMonsters("Goblin Scrapper", 2, ((12, 0), (12, 2))),)})
    gm = game(site, seed=4, party=2, light=False)
    for m in gm.c.party:
        plain(m)
    exploration.enter(gm, "test-site")
    gm.room_state(2).monsters[0].attitude = "hostile"  # they attack on sight (no reaction roll)
    gm.apply("move:2")
    cs = cs_of(gm)
    assert sorted(e.tile for e in cs.foes) == [(12, 0), (12, 2)]
    assert cs.exit == (9, 1) and cs.exit_room == 1  # the doorway towards room 1
    assert {f.tile for f in cs.fighters} <= {(10, 1), (10, 0), (10, 2), (11, 1), (9, 1)}
    assert cs.fighters[0].tile == (10, 1)


# --- actions -------------------------------------------------------------------------------------------


def test_two_actions_each_and_nauseated_has_one() -> None:
    gm = arena([("Goblin Scrapper", 1)], party=2, shield="Wooden shield")
    cs = cs_of(gm)
    a1, a2 = cs.fighters
    put(gm, cs.foes[0], 5, 0)
    gm.apply(f"defend:{a1.id}")
    assert a1.actions == 1 and a1.id in {a.who for a in gm.legal_actions()}
    gm.apply(f"defend:{a1.id}")
    assert a1.actions == 0 and a1.id not in {a.who for a in gm.legal_actions()}
    # next round, a nauseated adventurer has one action
    gm.c.member(a2.id).adv.character.afflictions.add("nauseated")
    gm.apply(f"end:{a2.id}")
    assert cs.round == 2
    assert a1.actions == 2 and a2.actions == 1


def test_dodge_gives_two_tokens_three_on_a_great_success_and_not_with_a_wooden_shield() -> None:
    gm = arena([("Goblin Scrapper", 1)], party=2, faces=[])
    cs = cs_of(gm)
    a1, a2 = cs.fighters
    load(gm, 5, 2)  # DEX 2: a success
    gm.apply(f"dodge:{a1.id}")
    assert a1.dodge == 2 and a1.actions == 0
    load(gm, 6, 6)  # a great success
    events = gm.apply(f"dodge:{a2.id}")
    assert next(e for e in events if e.kind == "dodge").data["dodge"] == 3
    assert a2.dodge == 0 and a1.dodge == 0  # unused dodge tokens are removed at the end of the round
    gm2 = arena([("Goblin Scrapper", 1)], shield="Wooden shield")
    dodge = next(a for a in gm2.legal_actions() if a.kind == "dodge")
    assert not dodge.available and "Wooden shield" in (dodge.reason or "")


def test_defend_places_the_shield_tables_tokens_up_to_five() -> None:
    gm = arena([("Goblin Scrapper", 1)], shield="Metal shield")
    cs = cs_of(gm)
    f = cs.fighters[0]
    put(gm, cs.foes[0], 5, 0)
    gm.apply(f"defend:{f.id}")
    assert f.shield == 2  # Metal shield: 2 tokens (armor.toml)
    gm.apply(f"defend:{f.id}")
    assert f.shield == 4
    # Shield Expert adds one; never more than 5
    gm.c.member(f.id).adv.character.skills.append("Shield Expert")
    gm.apply(f"end:{f.id}")  # the enemy acts, then round 2 (tokens stay)
    f.shield = min(f.shield, 4)
    gm.apply(f"defend:{f.id}")
    assert f.shield == 5
    defend = next(a for a in gm.legal_actions() if a.kind == "defend")
    assert not defend.available and "5" in (defend.reason or "")


def test_moving_removes_shield_tokens_and_stops_after_leaving_an_enemys_side() -> None:
    gm = arena([("Goblin Scrapper", 1)], shield="Buckler")
    cs = cs_of(gm)
    f = cs.fighters[0]
    put(gm, f, 6, 1)
    put(gm, cs.foes[0], 6, 0)
    gm.apply(f"defend:{f.id}")
    assert f.shield == 1
    moves = {a.id for a in gm.legal_actions() if a.kind == "move" and a.available}
    # DEX 2 = 4 tiles, but leaving the square next to the goblin ends the move one tile later
    assert moves == {f"move:{f.id}:{x},{y}" for x, y in ((5, 1), (7, 1), (6, 2))}
    gm.apply(f"move:{f.id}:6,2")
    assert f.tile == (6, 2) and f.shield == 0


def test_a_stunned_adventurer_can_only_recover() -> None:
    gm = arena([("Goblin Scrapper", 1)])
    f = cs_of(gm).fighters[0]
    f.stun = 2
    assert available(gm) == {f"recover:{f.id}:stun", f"end:{f.id}"}
    attack = next(a for a in gm.legal_actions() if a.kind == "attack")
    assert "Stunned" in (attack.reason or "")
    gm.apply(f"recover:{f.id}:stun")
    gm.apply(f"recover:{f.id}:stun")
    assert f.stun == 0


# --- attacks on enemies ------------------------------------------------------------------------------------


def test_an_enemy_dies_when_its_wounds_exceed_its_sheet() -> None:
    gm = arena([("Goblin Scrapper", 1)])  # Wounds 3, Armor 1
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    foe.ap = 0  # no armour left: the wounds land as rolled
    load(gm, 5, 2)  # Falchion STR 3+1B: a plain success, 3 wounds
    gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert foe.wounds == 3 and foe.active  # three wounds on "Wounds: 3": still standing (R11)
    load(gm, 5, 3)
    events = gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert foe.state == "dead" and "kill" in kinds(events)


def test_armour_then_resistance_and_broken_armour() -> None:
    gm = arena([("Hobgoblin", 1)])  # Wounds 6, Armor 2, Resist 1
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    assert foe.ap == 2
    load(gm, 5, 3, 4, 1)  # a hit for 3; armour dice 4 (blocks, breaks) and 1 (breaks)
    gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert foe.ap == 0  # both armour points broken, never repaired
    assert foe.wounds == 1  # 3 - 1 blocked - 1 resisted


def test_a_great_success_is_a_critical_hit_with_its_effects() -> None:
    gm = arena([("Hobgoblin", 1)])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    foe.ap = 0
    load(gm, 6, 6)  # two 6s: 3 + 1 wounds and bleeding (STR 3+1B)
    events = gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert any(e.kind == "hit_foe" and e.data["critical"] for e in events)
    assert foe.wounds == 3  # 4 - 1 resisted
    assert foe.bleeding


def test_dodge_and_shield_tokens_of_an_enemy_force_rerolls() -> None:
    gm = arena([("Bounty Hunter", 1)])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    foe.shield = 1
    load(gm, 5, 2, 1)  # the hit is rerolled by the GM with the shield token: 5 becomes 1
    gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert foe.shield == 0 and foe.wounds == 0
    assert any(e.kind == "miss" for e in gm.events)


def test_bleeding_enemies_roll_a_d6_at_the_start_of_their_turn() -> None:
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5])  # fast
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, foe, 5, 0)
    put(gm, f, 7, 2)
    foe.bleeding = True
    load(gm, 2)  # the bleed die: 1-3 is a wound
    events = gm.apply(f"end:{f.id}")
    bleeds = [e for e in events if e.kind == "foe_bleeds"]
    assert bleeds and bleeds[0].data["face"] == 2
    assert foe.wounds == 1


def test_undead_do_not_bleed() -> None:
    gm = arena([("Freshly Risen Corpse", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    cs.foes[0].bleeding = True
    events = gm.apply(f"end:{cs.fighters[0].id}")
    assert "foe_bleeds" not in kinds(events)


# --- the enemies' turn -----------------------------------------------------------------------------------


def test_enemies_act_in_their_phase_and_are_defended_with_the_notations_attribute() -> None:
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    # Knife in the gut (STR 1B+1): STR 2 dice; 3,2 fails (1 wound, bleeding); then 5,5 holds
    load(gm, 3, 2, 5, 5)
    events = gm.apply(f"end:{f.id}")
    ks = kinds(events)
    assert ks.index("foe_action") < ks.index("round")
    defences = [e for e in events if e.kind == "test" and "defending" in e.data["reason"]]
    assert [e.data["attr"] for e in defences] == ["STR", "STR"]
    ch = gm.c.member(f.id).adv.character
    assert sum(ch.attrs[a].wounds for a in ATTRS) == 1
    assert "bleeding" in ch.afflictions
    assert cs.round == 2 and cs.phase == "fast"


def test_a_critical_failure_takes_the_critical_wounds() -> None:
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    load(gm, 1, 2, 5, 5)  # a failure with a 1: 1 + 1 wounds
    gm.apply(f"end:{f.id}")
    ch = gm.c.member(f.id).adv.character
    assert sum(ch.attrs[a].wounds for a in ATTRS) == 2


def test_dodge_tokens_are_spent_as_rerolls_and_removed_at_cleanup() -> None:
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    f.dodge = 2
    f.shield = 3
    # first bite: 3,2 fails; one token buys a reroll: 6 — saved; second bite: 5,5 holds with no token
    load(gm, 3, 2, 6, 5, 5)
    gm.apply(f"end:{f.id}")
    ch = gm.c.member(f.id).adv.character
    assert sum(ch.attrs[a].wounds for a in ATTRS) == 0
    assert f.dodge == 0  # one spent, the other removed at cleanup
    assert f.shield == 3  # shield tokens stay


def test_morale_half_the_side_down_and_a_failed_level_test_flees() -> None:
    gm = arena([("Goblin Scrapper", 2)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f = cs.fighters[0]
    first, second = cs.foes
    put(gm, f, 5, 2)
    put(gm, first, 6, 2)
    put(gm, second, 7, 0)
    first.ap = 0
    load(gm, 6, 6)  # 4 wounds: the first goblin dies
    gm.apply(f"attack:{f.id}:Falchion:{first.id}")
    assert first.state == "dead"
    load(gm, 2)  # the second goblin's morale test: 1 die (level 1), a 2 — it flees
    events = gm.apply(f"end:{f.id}")
    assert "foe_flees" in kinds(events) and second.state == "fled"
    assert gm.c.combat is None and gm.c.phase is Phase.EXPLORATION


def test_undead_never_flee() -> None:
    gm = arena([("Reanimated Husk", 2)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    cs.foes[0].state = "dead"
    cs.groups[0].killed = 1
    events = gm.apply(f"end:{cs.fighters[0].id}")
    assert "morale" not in kinds(events) and cs.foes[1].active


# --- the bestiary's special rules -----------------------------------------------------------------------------


def enemy_turn(gm: GM, *faces: int) -> list[object]:
    """End the (single, fast) adventurer's turn with the dice loaded: the enemies act."""
    load(gm, *faces)
    return list(gm.apply(f"end:{cs_of(gm).fighters[0].id}"))


def defences(events: list[object]) -> list[str]:
    return [e.data["reason"] for e in events if e.kind == "test" and "defending" in e.data["reason"]]  # type: ignore[attr-defined]


def test_frenzied_enemies_take_three_actions() -> None:
    gm = arena([("Bloodshot Goblin", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    put(gm, cs.fighters[0], 6, 1)
    put(gm, cs.foes[0], 7, 1)
    events = enemy_turn(gm, 5, 5, 5, 5, 5, 5)
    assert len(defences(events)) == 3 and all("Serrated teeth" in r for r in defences(events))


def test_regeneration_when_hurt() -> None:
    gm = arena([("Bloodshot Goblin", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    put(gm, cs.fighters[0], 6, 1)
    put(gm, cs.foes[0], 7, 1)
    cs.foes[0].wounds = 2  # half its 4 wounds
    events = enemy_turn(gm, 5, 5, 5, 5, 5, 5)
    assert "foe_heal" in kinds(events) and cs.foes[0].wounds == 1


def test_damage_caps() -> None:
    gm = arena([("Rat King", 1)])  # "any damage is reduced to 2 wounds"
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    load(gm, 6, 6)  # a critical hit: 4 wounds
    gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert foe.wounds == 2


def test_a_bloated_plague_rat_bursts_on_whoever_stands_next_to_it() -> None:
    gm = arena([("Bloated Plague Rat", 1)], party=2)
    cs = cs_of(gm)
    a1, a2 = cs.fighters
    foe = cs.foes[0]
    put(gm, a1, 6, 1)
    put(gm, foe, 7, 1)
    put(gm, a2, 5, 0)
    foe.wounds = 4
    load(gm, 5, 3, 1, 4)  # the hit; then the burst's 2d!: a 1 — plagued
    events = gm.apply(f"attack:{a1.id}:Falchion:{foe.id}")
    assert "explosion" in kinds(events)
    m1, m2 = gm.c.member(a1.id), gm.c.member(a2.id)
    assert sum(m1.adv.character.attrs[a].wounds for a in ATTRS) == 2 and "plagued" in m1.adv.character.afflictions
    assert sum(m2.adv.character.attrs[a].wounds for a in ATTRS) == 0


def test_the_giant_crab_grabs_then_eats() -> None:
    gm = arena([("Giant Crab", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    # Grab (DEX): 2,3 fails; Eat (-STR 5): 2,3 and the GM's reroll 3 — five wounds
    events = enemy_turn(gm, 2, 3, 2, 3, 3)
    assert [r.split("'s ")[1] for r in defences(events)] == ["Grab", "Eat"]
    assert f.grabbed_by == foe.id
    ch = gm.c.member(f.id).adv.character
    assert sum(ch.attrs[a].wounds for a in ATTRS) == 5
    assert f"break_free:{f.id}" in available(gm)
    assert not any(a.kind == "move" and a.available for a in gm.legal_actions())


def test_lunge_moves_close_and_attacks() -> None:
    gm = arena([("Freshly Risen Corpse", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 5, 0)
    put(gm, foe, 7, 2)
    events = enemy_turn(gm, 5, 5, 5, 5)
    assert any(e.kind == "foe_move" and "lunges" in e.text for e in events)  # type: ignore[attr-defined]
    assert grid_close(f.tile, foe.tile)
    assert "Lunge" in defences(events)[0]


def grid_close(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def test_a_sniper_steps_back_from_melee_before_it_shoots() -> None:
    gm = arena([("Boggart Sniper", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    events = enemy_turn(gm, 5, 5)
    ks = kinds(events)
    assert ks.index("foe_move") < ks.index("foe_action")
    assert not grid_close(f.tile, foe.tile)
    assert "Black Crossbow" in defences(events)[0]
    assert not foe.loaded  # "Requires 2 actions to reload"


def test_a_wooden_shield_may_break_when_its_tokens_are_used() -> None:
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5], shield="Wooden shield")
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    f.shield = 2
    # 2,3 fails; a shield token rerolls the 2: 5 — blocked; the shield's 2d!: 1,6 — it breaks; then 5,5
    events = enemy_turn(gm, 2, 3, 5, 1, 6, 5, 5)
    assert "shield_breaks" in kinds(events)
    assert f.shield == 0 and gm.c.member(f.id).adv.inventory.find("Wooden shield") is None


def test_payback_stuns_the_attacker_after_a_blocked_melee_blow() -> None:
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5], shield="Metal shield")
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    gm.c.member(f.id).adv.manoeuvres = ["Payback"]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    f.shield = 2
    events = enemy_turn(gm, 2, 3, 5)  # blocked with a shield token: the goblin is stunned...
    assert any(e.kind == "stun" and "payback" in e.text for e in events)  # type: ignore[attr-defined]
    assert "foe_recover" in kinds(events)  # ...and spends its second action recovering
    assert len(defences(events)) == 1


def test_ethereal_and_swarm_enemies_shrug_off_weapons() -> None:
    gm = arena([("Shadow", 1)])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    load(gm, 6, 6)
    events = gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert "immune" in kinds(events) and foe.wounds == 0


# --- the end of a fight -----------------------------------------------------------------------------------


def test_the_whole_fight_is_one_exploration_turn_and_the_room_remembers_the_dead() -> None:
    site = corridor(3, r2={"monsters": (SiteMonsters("Goblin Scrapper", 1, ((12, 1),)),)})
    gm = game(site, seed=2, party=1, light=False)
    for m in gm.c.party:
        plain(m)
    exploration.enter(gm, "test-site")
    gm.room_state(2).monsters[0].attitude = "hostile"  # it attacks on sight (no reaction roll)
    gm.apply("move:2")
    exp = gm.c.expedition
    assert exp is not None
    turns = exp.turns
    decay = exp.decay
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    gm.rng = Loaded(2, [])
    rounds = 0
    while gm.c.combat is not None:
        rounds = cs.round
        foe.x, foe.y = 11, 1
        f.x, f.y = 10, 1
        foe.ap = 0
        load(gm, 6, 6)
        gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert gm.c.phase is Phase.EXPLORATION
    assert exp.turns == turns + 1  # "The whole combat only counts as one exploration turn."
    assert exp.decay == (decay + 1) % CONTENT.tables.decay_steps
    assert gm.c.stats.combats == 1 and gm.c.stats.combat_rounds == rounds
    group = gm.room_state(2).monsters[0]
    assert (group.count, group.killed, group.fled) == (0, 1, 0)


def test_fleeing_through_the_door_leaves_the_enemies_in_the_room() -> None:
    site = corridor(3, r2={"monsters": (SiteMonsters("Bugbear", 1, ((12, 2),)),)})
    gm = game(site, seed=6, party=1, light=False)
    for m in gm.c.party:
        plain(m)
    exploration.enter(gm, "test-site")
    gm.room_state(2).monsters[0].attitude = "hostile"  # it attacks on sight (no reaction roll)
    gm.rng = Loaded(6, [5, 5])  # the initiative check: fast
    gm.apply("move:2")
    cs = cs_of(gm)
    f = cs.fighters[0]
    assert cs.phase == "fast" and f.fast
    f.x, f.y = 10, 1
    gm.apply(f"flee:{f.id}")
    assert gm.c.combat is None and gm.c.phase is Phase.EXPLORATION
    assert gm.c.expedition is not None and gm.c.expedition.room == 1
    group = gm.room_state(2).monsters[0]
    assert group.count == 1 and group.killed == 0


def test_defeating_a_challenging_foe_cures_terrified_and_hopeless() -> None:
    gm = arena([("Hobgoblin", 1)])  # level 3 against one adventurer: challenging (2 levels each)
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    ch = gm.c.member(f.id).adv.character
    ch.afflictions |= {"terrified", "hopeless"}
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    foe.ap = 0
    foe.wounds = 6
    load(gm, 5, 5)  # terrified: 5 still hits
    gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert gm.c.combat is None
    assert "terrified" not in ch.afflictions and "hopeless" not in ch.afflictions


def test_an_easy_fight_cures_nothing() -> None:
    gm = arena([("Plagued Rat", 1)], party=2)  # level 1 against two: not challenging
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    ch = gm.c.member(f.id).adv.character
    ch.afflictions.add("terrified")
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    foe.wounds = 2
    load(gm, 5, 5, 5, 5)  # the rat is hard to hit (disadvantage): the GM's reroll shows 5 too
    gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert gm.c.combat is None and "terrified" in ch.afflictions


def test_reinforcements_join_on_the_far_side_and_act_in_the_next_enemy_turn() -> None:
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f = cs.fighters[0]
    put(gm, f, 5, 1)
    put(gm, cs.foes[0], 5, 0)
    combat.reinforce(gm, [("Plagued Rat", 2)], "doom: the rats")
    assert [e.monster for e in cs.foes] == ["Goblin Scrapper", "Plagued Rat", "Plagued Rat"]
    assert all(e.tile[0] == 7 for e in cs.foes[1:])  # the far side of the room
    events = gm.apply(f"end:{f.id}")
    movers = {e.data["foe"] for e in events if e.kind in ("foe_move", "foe_action")}  # type: ignore[attr-defined]
    assert {"e2", "e3"} & movers


def test_bleeding_adventurers_tire_once_for_the_whole_fight() -> None:
    """Ruling: "one fatigue point every turn" is per exploration turn; the fight is one turn."""
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    gm.c.member(f.id).adv.character.afflictions.add("bleeding")
    put(gm, f, 5, 2)
    put(gm, foe, 7, 0)
    foe.stun = 10  # it spends these rounds recovering
    seen: list[object] = []
    for _ in range(3):  # three rounds of waiting: no bleeding fatigue in combat
        seen += gm.apply(f"end:{f.id}")
        if gm.c.combat is None:
            break
    assert not any(e.kind == "fatigue" and "bleeding" in e.text for e in seen)  # type: ignore[attr-defined]
    foe.x, foe.y, f.x, f.y = 6, 2, 5, 2
    foe.ap, foe.wounds = 0, 3
    load(gm, 5, 5)
    events = gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    assert gm.c.combat is None
    assert sum(1 for e in events if e.kind == "fatigue" and "bleeding" in e.text) == 1


# --- manoeuvres, spells, items ------------------------------------------------------------------------------


def test_bash_stuns_on_a_hit() -> None:
    gm = arena([("Hobgoblin", 1)])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    gm.c.member(f.id).adv.manoeuvres = ["Bash"]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    foe.ap = 0
    load(gm, 5, 3)
    gm.apply(f"manoeuvre:{f.id}:bash:{foe.id}")
    assert foe.stun == 1 and foe.wounds == 0  # STR 1: one wound, resisted


def test_a_spell_with_no_use_in_a_fight_is_not_offered_in_one() -> None:
    gm = arena([("Hobgoblin", 1)])
    m = gm.c.party[0]
    m.adv.character.traits.append("Magic user")
    m.adv.spellbook = Spellbook(known=["Light", "Arcane prison"], memorised=["Light", "Arcane prison"])
    casts = {a.id for a in gm.legal_actions() if a.kind == "cast"}
    assert not any(":Light" in c for c in casts)  # "Illuminates nearby room for 1 decay"
    assert f"cast:a1:Arcane prison:{gm.c.combat.foes[0].id}" in casts


def test_magic_missile_becomes_a_ranged_weapon_for_the_fight() -> None:
    gm = arena([("Hobgoblin", 1)], weapon=None)
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    m = gm.c.member(f.id)
    m.adv.character.traits.append("Magic user")
    m.adv.inventory.add(Carried("Crystal ball", ""))
    m.adv.spellbook = Spellbook(known=["Magic Missile"], memorised=["Magic Missile"])
    put(gm, f, 5, 0)
    put(gm, foe, 7, 2)
    assert not any(a.kind == "attack" and a.available for a in gm.legal_actions())
    load(gm, 5, 2)  # the INT test after the spell: a success, nothing more
    gm.apply(f"cast:{f.id}:Magic Missile")
    assert "Magic Missile" in f.spells
    shot = f"attack:{f.id}:Magic Missile:{foe.id}"
    assert shot in available(gm)  # INT 3, Nearby: 4 tiles away
    foe.ap = 0
    load(gm, 5, 3)
    gm.apply(shot)
    assert foe.wounds == 2  # 3 - 1 resisted


def test_bandages_stop_bleeding_and_a_medical_supply_stabilises_the_dying() -> None:
    gm = arena([("Hobgoblin", 1)], party=2)
    cs = cs_of(gm)
    a1, a2 = cs.fighters
    m1, m2 = gm.c.member(a1.id), gm.c.member(a2.id)
    put(gm, cs.foes[0], 5, 0)
    put(gm, a1, 7, 1)
    put(gm, a2, 7, 2)
    m1.adv.inventory.add(Carried("Bandages", "", count=3))
    m1.adv.inventory.add(Carried("Medical supply", "", count=2))
    m1.adv.character.afflictions.add("bleeding")
    gm.apply(f"item:{a1.id}:Bandages:{a1.id}")
    assert "bleeding" not in m1.adv.character.afflictions
    assert m1.adv.inventory.find("Bandages") is not None and m1.adv.inventory.find("Bandages").count == 2  # type: ignore[union-attr]
    m2.adv.character.condition = Condition.MORTALLY_WOUNDED
    m2.adv.character.attrs[Attr.STR].wounds = 1
    assert f"stabilise:{a1.id}:{a2.id}" in available(gm)
    gm.apply(f"stabilise:{a1.id}:{a2.id}")
    assert m2.adv.character.condition is Condition.ACTIVE
    assert m1.adv.inventory.find("Medical supply").count == 1  # type: ignore[union-attr]


def test_help_another_gives_an_extra_die_next_turn() -> None:
    gm = arena([("Hobgoblin", 1)], party=2)
    cs = cs_of(gm)
    a1, a2 = cs.fighters
    put(gm, cs.foes[0], 7, 1)
    put(gm, a1, 6, 1)
    put(gm, a2, 6, 2)
    gm.apply(f"help:{a2.id}:{a1.id}")  # a1 has not acted yet: the help is for this turn
    assert a1.helped_by == a2.id and a1.help_ready
    load(gm, 2, 3, 5)  # two dice of a1's and the helper's die: the 5 hits
    gm.apply(f"attack:{a1.id}:Falchion:{cs.foes[0].id}")
    test = next(e for e in gm.events if e.kind == "test")
    assert test.data["final"] == [2, 3, 5]
    assert any(e.kind == "hit_foe" for e in gm.events)


def test_a_saved_fight_loads_back_identical() -> None:
    gm = arena([("Goblin Scrapper", 2), ("Boggart Sniper", 1)], party=3, surprise=None, seed=9)
    data = gm.c.to_dict()
    again = Campaign.from_dict(data)
    assert again.to_dict() == data
    assert isinstance(again.combat, CombatState) and again.combat.tiles == cs_of(gm).tiles


def test_unknown_combat_actions_are_refused() -> None:
    gm = arena([("Goblin Scrapper", 1)])
    with pytest.raises(RuleError):
        gm.apply("attack:a1:Falchion:e9")


# --- every legal action, many seeds: no exception, invariants hold -------------------------------------------

MONSTERS = [m.name for m in CONTENT.bestiary.monsters]


def check(gm: GM) -> None:
    cs = gm.c.combat
    if cs is None:
        return
    where: dict[tuple[int, int], list[str]] = {}
    grid_tiles = set(cs.tiles)
    for f, m in core.standing(gm, cs):
        where.setdefault(f.tile, []).append("adventurer")
        assert f.tile in grid_tiles
        assert 0 <= f.shield <= core.MAX_SHIELD and f.dodge >= 0 and f.stun >= 0 and f.actions >= 0
        m.adv.character.check_invariants()
    for e in cs.active_foes():
        sheet = core.sheet(gm, e.monster)
        where.setdefault(e.tile, []).append(e.monster)
        assert e.tile in grid_tiles
        assert 0 <= e.wounds <= sheet.wounds, (e, sheet.wounds)
        assert 0 <= e.ap <= sheet.armor and 0 <= e.shield <= core.MAX_SHIELD and e.stun >= 0
    for tile, who in where.items():
        if len(who) > 1:
            assert "adventurer" not in who and len(set(who)) == 1, (tile, who)
            stack = core.special(core.sheet(gm, who[0]), "stack")
            assert stack is not None and stack.value is not None and len(who) <= stack.value, (tile, who)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    party=st.integers(1, 4),
    picks=st.lists(st.sampled_from(MONSTERS), min_size=1, max_size=2),
    counts=st.lists(st.integers(1, 3), min_size=2, max_size=2),
    surprise=st.sampled_from([None, "party", "enemies"]),
)
def test_random_legal_actions_never_break_a_fight(
    seed: int, party: int, picks: list[str], counts: list[int], surprise: str | None
) -> None:
    gm = game(corridor(3), seed=seed, party=party, light=False)
    exploration.enter(gm, "test-site")
    combat.start(gm, [(m, counts[i]) for i, m in enumerate(picks)], source="a test", surprise=surprise)
    chooser = Random(seed)
    for _ in range(250):
        if gm.c.phase is not Phase.COMBAT:
            break
        options = [a for a in gm.legal_actions() if a.available]
        assert options, "a fight with no available action"
        pick = combat_policy.suggest(gm, options) if chooser.random() < 0.5 else chooser.choice(options)
        gm.apply(pick.id)
        check(gm)
    if gm.c.phase is Phase.COMBAT:
        assert gm.c.combat is not None
    else:
        assert gm.c.combat is None
        assert gm.c.phase in (Phase.EXPLORATION, Phase.INTERLUDE, Phase.OVER)  # fled out of the entrance: home


def test_reinforcements_with_no_room_left_wait_outside() -> None:
    """A doom arrival into a room (and corridor) already full: the rest wait outside instead of the GM failing
    ("no room to stand anywhere", seen in a balance run)."""
    gm = arena([("Giant Rat", 1)], party=1)
    cs = cs_of(gm)
    from rules.gm import combat_grid

    free = len(cs.tiles) - len(combat_grid.occupants(cs))
    combat.reinforce(gm, [("Goblin Scrapper", free + 5)], "a test")
    joined = [e for e in cs.foes if e.monster == "Goblin Scrapper"]
    left = [e for e in gm.events if e.kind == "no_room"]
    assert len(left) == 1 and left[0].data["left_out"] == free + 5 - len(joined)
    assert cs.groups[-1].count == len(joined) > 0
    tiles = [e.tile for e in cs.foes] + [f.tile for f in cs.fighters]
    assert len(tiles) == len(set(tiles))  # no two on one tile


def test_thrown_holy_water_rolls_its_usage_die_and_is_not_left_lying_for_another_throw() -> None:
    """Holy water is "Ud6 uses": a throw rolls the die (R: usage dice); the flask does not land by the target to
    be picked up and thrown again (one flask used to kill a level-4 master in two rounds)."""
    from rules.content.schema_creation import StartingItem
    from rules.creation import add_kit_item

    gm = arena([("Freshly Risen Corpse", 1)])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    who = gm.c.member(f.id)
    add_kit_item(who.adv, CONTENT, StartingItem(item="Holy water", book="Holy water"))
    put(gm, f, 6, 1)
    put(gm, foe, 8, 1)
    load(gm, 5, 2, 6)  # DEX 2: a success; the usage die rolls 6 (the flask keeps its Ud6)
    events = gm.apply(f"attack:{f.id}:Holy water:{foe.id}")
    assert "usage" in kinds(events)
    assert not cs.dropped
    flask = who.adv.inventory.find("Holy water")
    assert flask is not None and flask.usage == 6
    assert not any(a.kind == "pickup" for a in gm.legal_actions())


# --- prayers in a fight (#13) ------------------------------------------------------------------------------------


def cleric(gm: GM, m: Member, *prayers: str) -> None:
    from rules.magic import Prayers

    m.adv.character.traits = ["Divine mandate"]
    m.adv.prayers = Prayers(memorised=list(prayers) or ["Cure Light Wounds"])
    m.adv.inventory.add(Carried("Holy symbol", ""), "Bag")


def healer_and_ally(ally_at: int) -> tuple[GM, Fighter, Fighter]:
    """A cleric on tile (6, 1) (or (1, 1) when the ally is far), an ally on (``ally_at``, 1), a Hobgoblin far off."""
    gm = arena([("Hobgoblin", 1)], party=2)
    cs = cs_of(gm)
    fa, fb = cs.fighters
    cleric(gm, gm.c.member(fa.id))
    put(gm, fa, 6 if ally_at < 14 else 1, 1)
    put(gm, fb, ally_at, 1)
    if ally_at < 14:
        put(gm, cs.foes[0], 14, 1)
    return gm, fa, fb


def test_a_cleric_prays_cure_light_wounds_on_a_nearby_ally_in_a_fight() -> None:
    gm, fa, fb = healer_and_ally(9)  # three tiles away: Nearby
    a, b = gm.c.member(fa.id), gm.c.member(fb.id)
    b.adv.character.attrs[Attr.STR].wounds = 2
    b.adv.character.afflictions.add("bleeding")
    listed = {x.id: x for x in gm.legal_actions()}
    key = f"pray:{fa.id}:Cure Light Wounds:{fb.id}"
    assert listed[key].available and listed[key].cost.actions == 1
    assert f"pray:{fa.id}:Cure Light Wounds:{fa.id}" in listed  # or on themself
    before = fa.actions
    load(gm, 5, 5)  # PRE 2: a success, no six pair, no fatigue
    events = gm.apply(key)
    assert b.adv.character.attrs[Attr.STR].wounds == 0 and "bleeding" not in b.adv.character.afflictions
    assert a.adv.prayers is not None and a.adv.prayers.exhausted == ["Cure Light Wounds"]
    assert fa.actions == before - 1 and "heal" in kinds(events)


def test_an_ignored_prayer_heals_nothing_and_is_not_exhausted() -> None:
    gm, fa, fb = healer_and_ally(7)
    a, b = gm.c.member(fa.id), gm.c.member(fb.id)
    b.adv.character.attrs[Attr.DEX].wounds = 1
    load(gm, 3, 2)  # PRE 2: a failure, no one
    gm.apply(f"pray:{fa.id}:Cure Light Wounds:{fb.id}")
    assert b.adv.character.attrs[Attr.DEX].wounds == 1
    assert a.adv.prayers is not None and a.adv.prayers.exhausted == []


def test_an_ally_beyond_the_prayers_reach_is_not_offered() -> None:
    gm, fa, fb = healer_and_ally(14)  # thirteen tiles: farther than Nearby
    assert f"pray:{fa.id}:Cure Light Wounds:{fb.id}" not in {x.id for x in gm.legal_actions()}


def test_the_autoplay_cleric_heals_the_dying_ally() -> None:
    gm, fa, fb = healer_and_ally(7)
    gm.c.member(fb.id).adv.character.attrs[Attr.STR].wounds = 3
    pick = combat_policy.suggest(gm, [x for x in gm.legal_actions() if x.available and x.who == fa.id])
    assert pick.id == f"pray:{fa.id}:Cure Light Wounds:{fb.id}"


def test_shield_tokens_go_when_the_shield_leaves_the_hand() -> None:
    """Playtest (seed 21): after taking a two-handed spear in hand the shield's tokens still blocked blows."""
    gm = arena([("Hobgoblin", 1)], weapon="Falchion", shield="Metal shield")
    cs = cs_of(gm)
    f = cs.fighters[0]
    who = gm.c.member(f.id)
    who.adv.inventory.add(Carried("Long Spear", ""), "Bag")
    put(gm, f, 6, 1)
    put(gm, cs.foes[0], 14, 1)
    f.shield = 2
    gm.apply(f"equip:{f.id}:Long Spear")
    assert f.shield == 0


def answered(gm: GM, fa: Fighter, prayer: str, target: Fighter | None = None) -> list[object]:
    """Pray for ``prayer`` with a plain success (PRE 2: 5, 5)."""
    load(gm, 5, 5)
    return gm.apply(f"pray:{fa.id}:{prayer}:{(target or fa).id}")


def test_prayer_of_spring_heals_a_wound_of_everyone_nearby_enemies_too() -> None:
    gm, fa, fb = healer_and_ally(9)
    cleric(gm, gm.c.member(fa.id), "Prayer of Spring")
    cs = cs_of(gm)
    foe = cs.foes[0]
    put(gm, foe, 8, 2)
    foe.wounds = 2
    for f in (fa, fb):
        gm.c.member(f.id).adv.character.attrs[Attr.DEX].wounds = 2
    listed = {x.id: x for x in gm.legal_actions()}
    assert "on everyone Nearby (PRE " in listed[f"pray:{fa.id}:Prayer of Spring:{fa.id}"].label
    assert f"pray:{fa.id}:Prayer of Spring:{fb.id}" not in listed  # an area: no target to choose
    answered(gm, fa, "Prayer of Spring")
    assert [gm.c.member(f.id).adv.character.attrs[Attr.DEX].wounds for f in (fa, fb)] == [1, 1]
    assert foe.wounds == 1


def test_prayer_of_winter_wounds_the_enemies_twice_and_the_party_once() -> None:
    gm, fa, fb = healer_and_ally(7)
    cleric(gm, gm.c.member(fa.id), "Prayer of Winter")
    cs = cs_of(gm)
    foe = cs.foes[0]
    put(gm, foe, 9, 1)
    foe.ap = 0
    events = answered(gm, fa, "Prayer of Winter")
    hits = [e for e in events if e.kind == "foe_damage" and e.data["foe"] == foe.id]  # type: ignore[attr-defined]
    assert [e.data["incoming"] for e in hits] == [2]  # type: ignore[attr-defined]  # (its resistance may take one)
    assert foe.wounds == hits[0].data["dealt"] >= 1  # type: ignore[attr-defined]
    for f in (fa, fb):
        ch = gm.c.member(f.id).adv.character
        assert sum(ch.attrs[a].wounds for a in ATTRS) == 1


def test_prayer_of_autumn_strips_every_token_nearby() -> None:
    gm, fa, fb = healer_and_ally(7)
    cleric(gm, gm.c.member(fa.id), "Prayer of Autumn")
    cs = cs_of(gm)
    foe = cs.foes[0]
    put(gm, foe, 9, 1)
    fa.shield, fb.dodge, foe.shield, foe.dodge = 2, 2, 1, 1
    answered(gm, fa, "Prayer of Autumn")
    assert (fa.shield, fb.dodge, foe.shield, foe.dodge) == (0, 0, 0, 0)


def test_judgment_stuns_and_wounds_the_undead_nearby() -> None:
    gm = arena([("Freshly Risen Corpse", 1), ("Hobgoblin", 1)], party=1)
    cs = cs_of(gm)
    fa = cs.fighters[0]
    cleric(gm, gm.c.member(fa.id), "Judgment")
    corpse, hob = cs.foes
    put(gm, fa, 6, 1)
    put(gm, corpse, 8, 1)
    put(gm, hob, 9, 1)
    corpse.ap = 0
    answered(gm, fa, "Judgment")
    assert (corpse.stun, corpse.wounds) == (1, 1)
    assert (hob.stun, hob.wounds) == (0, 0)  # not undead


def test_martyr_wounds_the_cleric_and_frees_the_allies_of_their_fears() -> None:
    gm, fa, fb = healer_and_ally(7)
    cleric(gm, gm.c.member(fa.id), "Martyr")
    ally = gm.c.member(fb.id).adv.character
    ally.afflictions |= {"bleeding", "terrified", "shaken", "sleepy"}
    answered(gm, fa, "Martyr")
    assert not ally.afflictions & {"bleeding", "terrified", "shaken", "sleepy"}
    me = gm.c.member(fa.id).adv.character
    assert sum(me.attrs[a].wounds for a in ATTRS) == 1


def test_numbness_heals_every_pre_wound_for_a_strength_and_a_dexterity_fatigue() -> None:
    gm, fa, fb = healer_and_ally(7)
    cleric(gm, gm.c.member(fa.id), "Numbness")
    ally = gm.c.member(fb.id).adv.character
    ally.attrs[Attr.PRE].wounds = 1
    answered(gm, fa, "Numbness", fb)
    assert ally.attrs[Attr.PRE].wounds == 0
    assert (ally.attrs[Attr.STR].fatigue, ally.attrs[Attr.DEX].fatigue) == (1, 1)
