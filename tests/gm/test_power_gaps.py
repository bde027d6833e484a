"""Issue #13's last gaps, each scripted to the exact change its text describes: Miracle 2's points of morale
(RULINGS R208), the tormentor demon and the endless horror of the spell mishaps (R209), Living ashes in a fight
(R211), and what the playtests found greyed or unclear."""

from __future__ import annotations

from rules.attributes import Attr
from rules.gm import serial
from rules.gm.combat_state import CombatState
from rules.gm.engine import GM
from tests.gm.test_combat import arena, cs_of, load


def _miracle(gm: GM, special: str) -> object:
    return next(r for r in gm.content.magic.miracles.rows if r.special == special)


def _fatigue(gm: GM, i: int = 0) -> int:
    ch = gm.c.party[i].adv.character
    return sum(ch.attrs[a].fatigue for a in Attr)


def test_miracle_one_heals_the_most_wounded_who_can_heal_not_a_hungry_one() -> None:
    """"You heal 1d6 wounds of you or someone Nearby": the hungry heal nothing, so the miracle goes to the most wounded
    of the others (it used to go to a hungry adventurer and heal 0)."""
    from rules.gm import exploration, powers
    from tests.gm.scripted import Loaded, corridor, game

    gm = game(corridor(3), party=3)
    exploration.enter(gm, "test-site")
    a, b, c = gm.c.party
    for m, wounds in ((a, 0), (b, 1), (c, 2)):
        m.adv.character.attrs[Attr.STR].score = 3
        m.adv.character.attrs[Attr.STR].wounds = wounds
    c.adv.character.afflictions |= {"hungry"}  # the most wounded, but hungry
    gm.rng = Loaded(1, [6])
    powers.miracle(gm, a, "heal_1d6_wounds", _miracle(gm, "heal_1d6_wounds"))
    assert b.adv.character.attrs[Attr.STR].wounds == 0
    assert c.adv.character.attrs[Attr.STR].wounds == 2


# --- Miracle 2: points of morale (R208) ---------------------------------------------------------------------------


def test_miracle_two_in_a_fight_gives_1d6_morale_that_pays_each_tests_fatigue_until_spent() -> None:
    from rules.gm import powers

    gm = arena([("Hobgoblin", 1)], party=1, surprise=None)
    cs = cs_of(gm)
    m = gm.c.party[0]
    load(gm, 2)  # the 1d6: two points
    powers.miracle(gm, m, "morale_1d6", _miracle(gm, "morale_1d6"))
    assert cs.morale == 2
    dice = m.adv.character.test_spec(Attr.STR, in_combat=True).dice
    for left in (1, 0):  # all 1s (a failure that costs fatigue) twice: morale takes both
        load(gm, *[1] * dice)
        roll = gm.test(m, Attr.STR, "a shove", in_combat=True)
        assert roll.verdict.fatigue and not roll.verdict.success
        assert cs.morale == left and _fatigue(gm) == 0
    load(gm, *[1] * dice)  # spent: the third fatigue lands
    gm.test(m, Attr.STR, "a shove", in_combat=True)
    assert cs.morale == 0 and _fatigue(gm) == 1


def test_miracle_two_out_of_a_fight_is_for_the_next_fight_and_survives_a_save() -> None:
    from rules.gm import exploration, powers
    from rules.gm.state import Campaign
    from tests.gm.scripted import Loaded, corridor, game

    gm = game(corridor(3), party=1)
    exploration.enter(gm, "test-site")
    gm.rng = Loaded(1, [5])
    powers.miracle(gm, gm.c.party[0], "morale_1d6", _miracle(gm, "morale_1d6"))
    assert gm.c.expedition is not None and gm.c.expedition.morale == 5
    again = serial.load(Campaign, serial.dump(gm.c))
    assert again.expedition is not None and again.expedition.morale == 5
    exploration._enemies_arrive(gm, [("Hobgoblin", 1)], "doom")
    cs: CombatState = cs_of(gm)
    assert cs.morale == 5 and gm.c.expedition.morale == 0
    assert serial.load(CombatState, serial.dump(cs)).morale == 5


def test_morale_is_not_spent_outside_a_fight() -> None:
    from rules.gm import exploration
    from tests.gm.scripted import Loaded, corridor, game

    gm = game(corridor(3), party=1)
    exploration.enter(gm, "test-site")
    assert gm.c.expedition is not None
    gm.c.expedition.morale = 3
    m = gm.c.party[0]
    dice = m.adv.character.test_spec(Attr.STR).dice
    gm.rng = Loaded(1, [1] * dice)
    gm.test(m, Attr.STR, "a door")
    assert _fatigue(gm) == 1 and gm.c.expedition.morale == 3


# --- Mishaps 15 and 18: the tormentor demon and the endless horror (R209) ----------------------------------------


def _mishap_row(gm: GM, special: str) -> object:
    return next(r for r in gm.content.magic.spell_mishaps.rows if r.special == special)


def test_mishap_fifteen_summons_a_tormentor_demon_next_to_the_caster_in_a_fight() -> None:
    from rules.gm import combat_grid as grid
    from rules.gm import powers
    from tests.gm.test_combat import put
    from tests.gm.test_fight_powers import hall

    gm = arena([("Hobgoblin", 1)], party=2, surprise=None)
    cs = hall(gm)
    f = cs.fighters[0]
    put(gm, f, 6, 2)
    put(gm, cs.foes[0], 14, 2)
    powers.mishap(gm, gm.c.member(f.id), _mishap_row(gm, "summon_close:Tormentor Demon"), cs)
    demon = cs.foes[-1]
    assert demon.monster == "Tormentor Demon" and demon.active and not demon.side
    assert grid.distance(demon.tile, f.tile) == 1  # "Close to you"
    assert demon.ap == 2  # its sheet's armour
    assert [g.monster for g in cs.groups][-1] == "Tormentor Demon"


def test_mishap_eighteen_starts_a_fight_with_an_endless_horror_nearby() -> None:
    from rules.gm import combat_grid as grid
    from rules.gm import exploration, powers
    from rules.gm.state import Phase
    from tests.gm.scripted import corridor, game

    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    m = gm.c.party[0]
    powers.mishap(gm, m, _mishap_row(gm, "summon_nearby:Endless Horror"))
    assert gm.c.phase is Phase.COMBAT
    cs = cs_of(gm)
    assert [e.monster for e in cs.foes] == ["Endless Horror"]
    assert grid.CLOSE < grid.distance(cs.foes[0].tile, cs.fighter(m.id).tile) <= grid.NEARBY  # "Nearby"


def test_validate_names_a_summon_with_no_sheet() -> None:
    from rules.content.registry import load_content
    from rules.gm import powers

    assert not [u for u in powers.unplayed(load_content()) if "mishap" in u]
    content = load_content(cached=False)  # a copy of its own: the cached content stays whole
    content.bestiary.monsters[:] = [m for m in content.bestiary.monsters if m.name != "Endless Horror"]
    assert "spell mishap 18: Endless Horror (no bestiary sheet)" in powers.unplayed(content)


# --- Living ashes in a fight (R211) --------------------------------------------------------------------------------


def test_living_ashes_in_a_fight_are_the_use_item_action_on_a_weapon_in_hand_and_add_their_damage_at_once() -> None:
    from rules.gm.combat_gear import weapon_arms
    from rules.inventory import Carried
    from tests.gm.test_combat import put
    from tests.gm.test_fight_powers import hall

    gm = arena([("Hobgoblin", 1)], party=2, surprise=None)  # everyone holds a Falchion
    cs = hall(gm)
    fa, fb = cs.fighters
    put(gm, fa, 6, 1)
    put(gm, fb, 7, 1)  # Close
    put(gm, cs.foes[0], 14, 1)
    carrier, ally = gm.c.member(fa.id), gm.c.member(fb.id)
    carrier.adv.inventory.add(Carried("Living ashes", "", usage=4, rarity="rare"))
    acts = {a.id: a for a in gm.legal_actions() if a.kind == "living_ashes"}
    assert set(acts) == {f"living_ashes:{fa.id}:{fa.id}:Falchion", f"living_ashes:{fa.id}:{fb.id}:Falchion"}
    rub = acts[f"living_ashes:{fa.id}:{fb.id}:Falchion"]
    assert rub.available and rub.cost.actions == 1 and rub.who == fa.id
    before = next(a for a in weapon_arms(gm, ally) if a.key == "Falchion").attack.damage
    actions = fa.actions
    load(gm, 3)  # the Ud4: 3, kept
    gm.apply(rub.id)
    assert fa.actions == actions - 1
    assert next(a for a in weapon_arms(gm, ally) if a.key == "Falchion").attack.damage == before + 1
    assert gm.c.expedition is not None and gm.c.expedition.ashes == {fb.id: "Falchion"}
    again = next(a for a in gm.legal_actions() if a.id == rub.id)
    assert not again.available and "already burns" in (again.reason or "")
    put(gm, fb, 12, 1)  # no longer Close: not offered on the ally
    assert not any(a.target == fb.id for a in gm.legal_actions() if a.kind == "living_ashes")


# --- what the playtests found ----------------------------------------------------------------------------------


def test_cleansing_flames_on_an_enemy_shows_the_prayers_odds_and_then_the_blows_exact_odds_to_hit() -> None:
    from rules.gm.combat_actions import hit_odds
    from rules.gm.powers import prayer_arm
    from rules.odds import odds
    from tests.gm.test_combat import put
    from tests.gm.test_fight_powers import one_on_one, priest

    gm, cs, f, e = one_on_one("Lesser Demon")  # "Small and fast, add disadvantage to hit"
    priest(gm, f, "Cleansing Flames")
    put(gm, e, 7, 1)
    e.dodge = 1
    who = gm.c.member(f.id)
    ch = who.adv.character
    entry = next(p for p in gm.content.magic.prayers if p.name == "Cleansing Flames")
    spec = ch.test_spec(Attr.STR, in_combat=True, disadvantage=1, opponent_rerolls=1)
    hit = odds(spec).success
    assert hit_odds(gm, cs, f, who, prayer_arm(entry, f), e) == hit
    pre = odds(ch.test_spec(Attr.PRE, in_combat=True)).success
    action = next(a for a in gm.legal_actions() if a.id == f"pray:{f.id}:Cleansing Flames:{e.id}")
    assert action.label.endswith(f"(PRE {pre:.0%} answered, then STR 1PR+6 {hit:.0%} to hit)")
    ally = next(a for a in gm.legal_actions() if a.id == f"pray:{f.id}:Cleansing Flames:{f.id}")
    assert ally.label.endswith(f"(PRE {pre:.0%})")  # on an ally it cures: no blow


def test_silver_cannon_is_greyed_without_silver_with_the_reason() -> None:
    from tests.gm.test_fight_powers import one_on_one, wizard

    gm, _cs, f, _e = one_on_one("Hobgoblin")
    wizard(gm, f, "Silver cannon")
    ch = gm.c.member(f.id).adv.character
    ch.silver = 0
    cast = next(a for a in gm.legal_actions() if a.id == f"cast:{f.id}:Silver cannon")
    assert not cast.available and cast.reason == f"Needs 1 silver per shot: {gm.c.member(f.id).name} has 0."
    ch.silver = 1
    assert next(a for a in gm.legal_actions() if a.id == f"cast:{f.id}:Silver cannon").available


def test_a_healing_tonic_in_a_fight_is_greyed_for_one_with_no_int_or_dex_wound() -> None:
    from rules.inventory import Carried
    from tests.gm.test_fight_powers import one_on_one

    gm, _cs, f, _e = one_on_one("Hobgoblin")
    m = gm.c.member(f.id)
    ch = m.adv.character
    m.adv.inventory.add(Carried("Healing tonic", "", usage=4, rarity="uncommon"))
    for a in Attr:
        ch.attrs[a].wounds = 0
    ch.attrs[Attr.STR].wounds = 1  # "Heals one INT or DEX wound": a STR wound is not its business
    use = next(a for a in gm.legal_actions() if a.id == f"item:{f.id}:Healing tonic:{f.id}")
    assert not use.available
    assert use.reason == f"No use now: it heals INT or DEX wounds: {m.name} has none."
    ch.attrs[Attr.DEX].wounds = 1
    use = next(a for a in gm.legal_actions() if a.id == f"item:{f.id}:Healing tonic:{f.id}")
    assert use.available
    ch.afflictions.add("hungry")  # "Wounds do not heal"
    use = next(a for a in gm.legal_actions() if a.id == f"item:{f.id}:Healing tonic:{f.id}")
    assert use.reason == "No use now: Hungry: wounds do not heal."


def test_cure_light_wounds_is_greyed_for_a_hungry_ally_it_cannot_heal_unless_they_bleed() -> None:
    """Playtest (seed 68): a desperate plea answered on a hungry cleric "heals 0 wound(s)" — spent for nothing."""
    from tests.gm.test_combat import healer_and_ally

    gm, fa, fb = healer_and_ally(9)
    b = gm.c.member(fb.id)
    ch = b.adv.character
    ch.attrs[Attr.DEX].wounds = 1
    ch.afflictions.add("hungry")
    pray = next(a for a in gm.legal_actions() if a.id == f"pray:{fa.id}:Cure Light Wounds:{fb.id}")
    assert pray.reason == "No use now: the wounded are hungry (wounds do not heal) and no one is bleeding."
    me = gm.c.member(fa.id).adv.character
    me.attrs[Attr.STR].wounds = 1  # the cleric is wounded too (and fed): the prayer is said, not on the ally
    pray = next(a for a in gm.legal_actions() if a.id == f"pray:{fa.id}:Cure Light Wounds:{fb.id}")
    assert not pray.available
    assert pray.reason == f"No use now: {b.name} is hungry (wounds do not heal) and not bleeding."
    ch.afflictions.add("bleeding")  # it still stops the bleeding
    assert next(a for a in gm.legal_actions() if a.id == pray.id).available
    ch.afflictions -= {"bleeding", "hungry"}
    ch.attrs[Attr.DEX].wounds = 0
    pray = next(a for a in gm.legal_actions() if a.id == f"pray:{fa.id}:Cure Light Wounds:{fb.id}")
    assert not pray.available and pray.reason == f"No use now: {b.name} has no wound and is not bleeding."
    assert next(a for a in gm.legal_actions() if a.id == f"pray:{fa.id}:Cure Light Wounds:{fa.id}").available


def test_cleansing_flames_is_greyed_on_an_ally_with_nothing_to_burn_away() -> None:
    from tests.gm.test_fight_powers import one_on_one, priest

    gm, _cs, f, _e = one_on_one("Hobgoblin")
    priest(gm, f, "Cleansing Flames")
    m = gm.c.member(f.id)
    m.adv.character.afflictions.clear()
    m.adv.character.afflictions.add("cursed")  # not the flames' to cure
    pray = next(a for a in gm.legal_actions() if a.id == f"pray:{f.id}:Cleansing Flames:{f.id}")
    assert not pray.available
    assert pray.reason == (f"No use now: {m.name} has no affliction the flames burn away (not cursed, doomed or "
                           "plagued).")
    m.adv.character.afflictions.add("terrified")
    assert next(a for a in gm.legal_actions() if a.id == pray.id).available
