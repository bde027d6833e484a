"""Spells and prayers in a fight, each scripted to the exact change its text describes (issue #13).

Every power here goes through the engine's own actions (``GM.legal_actions`` / ``GM.apply``): the listing
with its targets and reasons, the INT or PRE test (loaded dice), then the effect, its duration, and its end.
"""

from __future__ import annotations

from rules.attributes import ATTRS, Attr
from rules.gm import combat_core as core
from rules.gm import serial
from rules.gm.combat_state import COMBAT, CombatState, Fighter, Foe
from rules.gm.engine import GM
from rules.inventory import Carried
from rules.magic import Prayers, Spellbook
from tests.gm.test_combat import arena, cleric, cs_of, load, put


def wizard(gm: GM, f: Fighter, *spells: str) -> None:
    m = gm.c.member(f.id)
    m.adv.character.traits.append("Magic user")
    m.adv.inventory.add(Carried("Crystal ball", ""))
    m.adv.spellbook = Spellbook(known=list(spells), memorised=list(spells))


def listed(gm: GM) -> dict[str, object]:
    return {a.id: a for a in gm.legal_actions()}


def cast(gm: GM, f: Fighter, spell: str, target: str, *after: int) -> list[object]:
    """Cast with a plain INT success (5, 2: no fatigue, remembered), then ``after`` for the power's own dice."""
    load(gm, 5, 2, *after)
    return gm.apply(f"cast:{f.id}:{spell}:{target}")


def pray(gm: GM, f: Fighter, prayer: str, target: str, *after: int) -> list[object]:
    load(gm, 5, 5, *after)
    return gm.apply(f"pray:{f.id}:{prayer}:{target}")


def end_round(gm: GM, f: Fighter) -> None:
    """End ``f``'s turn and let the enemies act, up to the next time the party must choose."""
    gm.apply(f"end:{f.id}")


def hall(gm: GM) -> CombatState:
    """The fight's floor made a wide hall (x 3..15, y 0..4), room enough to move and to stand apart."""
    cs = cs_of(gm)
    cs.tiles = [(x, y) for y in range(5) for x in range(3, 16)]
    for e in cs.foes:
        e.lost_turn = False  # the arena's surprise would cost the enemies their first turn
    return cs


def one_on_one(monster: str, *, seed: int = 1) -> tuple[GM, CombatState, Fighter, Foe]:
    gm = arena([(monster, 1)], seed=seed)
    cs = hall(gm)
    f, e = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, e, 8, 1)
    return gm, cs, f, e


# --- spells ------------------------------------------------------------------------------------------------------


def test_pain_adds_three_stun_tokens_less_the_enemy_resistance() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")  # resist 1
    wizard(gm, f, "Pain")
    action = listed(gm)[f"cast:{f.id}:Pain:{e.id}"]
    assert action.available and action.cost.actions == 2  # "2 actions during combat"
    events = cast(gm, f, "Pain", e.id)
    assert next(ev.data["stun"] for ev in events if ev.kind == "stun") == 2  # (then its turn spends them)


def test_pain_is_no_use_on_a_voidspawn() -> None:
    gm, _cs, f, e = one_on_one("Lesser Demon")
    wizard(gm, f, "Pain")
    action = listed(gm)[f"cast:{f.id}:Pain:{e.id}"]
    assert not action.available and "living or undead" in action.reason


def test_a_spell_out_of_reach_says_how_far() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Glue")
    put(gm, e, 14, 1)  # 8 tiles: beyond Nearby
    assert listed(gm)[f"cast:{f.id}:Glue:{e.id}"].reason == "Out of reach: 8 tiles away."


def test_glue_holds_an_enemy_until_it_tests_free() -> None:
    gm, cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Glue")
    put(gm, e, 9, 1)
    cast(gm, f, "Glue", e.id)
    assert core.lasting(cs, e, "Glue")
    from rules.gm import combat_foes

    assert combat_foes.moves(gm, cs, e) == {}
    load(gm, 1, 2, 3)  # level 3: three dice, no 4+: still stuck (and its second action is another try)
    load(gm, 6, 1, 1)  # torn free with the second action
    end_round(gm, f)
    assert "Glue" not in e.effects
    assert (e.x, e.y) == (9, 1)  # both actions went on the glue


def test_arcane_prison_locks_an_enemy_out_of_the_fight_for_its_turns() -> None:
    gm, cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Arcane prison")
    put(gm, e, 7, 1)  # Close: it would attack
    cast(gm, f, "Arcane prison", e.id, 2)  # 1d6 = 2 turns
    assert e.effects["Arcane prison"] == cs.round + 1
    attack = next(a for a in gm.legal_actions() if a.kind == "attack" and a.target == e.id)
    assert attack.reason == "Locked in an arcane crystal: nothing touches it."
    hp = sum(gm.c.member(f.id).adv.character.attrs[a].wounds for a in ATTRS)
    end_round(gm, f)
    end_round(gm, f)
    assert sum(gm.c.member(f.id).adv.character.attrs[a].wounds for a in ATTRS) == hp  # two turns in the crystal
    end_round(gm, f)
    assert "Arcane prison" not in e.effects


def test_nightmare_sleeps_until_an_attack_disturbs_it() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Nightmare")
    put(gm, e, 7, 1)
    cast(gm, f, "Nightmare", e.id)
    events = gm.apply(f"end:{f.id}")
    assert any(ev.kind == "foe_idle" for ev in events)
    load(gm, 1, 1, 1)
    gm.apply(f"attack:{f.id}:Falchion:{e.id}")
    assert "Nightmare" not in e.effects


def test_nightmare_needs_a_living_creature() -> None:
    gm, _cs, f, e = one_on_one("Freshly Risen Corpse")
    wizard(gm, f, "Nightmare")
    assert not listed(gm)[f"cast:{f.id}:Nightmare:{e.id}"].available


def test_bonedance_gives_advantage_against_it_and_halves_its_moves() -> None:
    gm, cs, f, e = one_on_one("Hobgoblin")  # movement 2
    wizard(gm, f, "Bonedance")
    from rules.gm import combat_foes

    put(gm, e, 10, 1)
    before = max(combat_foes.moves(gm, cs, e).values())
    cast(gm, f, "Bonedance", e.id)
    assert max(combat_foes.moves(gm, cs, e).values()) == before // 2
    put(gm, e, 7, 1)
    load(gm, 1, 1, 1, 1)
    events = gm.apply(f"attack:{f.id}:Falchion:{e.id}")
    test = next(ev for ev in events if ev.kind == "test")
    assert test.data["dice"] == [1, 1] and test.data["rerolls"]  # the advantage: a reroll (no proficiency here)


def test_phobia_keeps_the_enemy_off_whom_it_fears() -> None:
    gm = arena([("Hobgoblin", 1)], party=2)
    cs = hall(gm)
    fa, fb = cs.fighters
    e = cs.foes[0]
    wizard(gm, fa, "Phobia")
    put(gm, fa, 6, 1)
    put(gm, fb, 13, 1)
    put(gm, e, 7, 1)
    cast(gm, fa, "Phobia", e.id, 3)  # the GM-decides player picks the nearest: the wizard
    assert e.fear == fa.id and e.effects["Phobia"] == cs.round + 2
    from rules.gm import combat_foes

    assert all(not (abs(t[0] - fa.x) + abs(t[1] - fa.y) <= 1) for t in combat_foes.moves(gm, cs, e))


def test_magic_shield_gives_a_shield_token_at_the_start_of_each_turn() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Magic Shield")
    put(gm, e, 14, 1)
    cast(gm, f, "Magic Shield", f.id)
    assert f.effects["Magic Shield"] == COMBAT and f.shield == 0
    end_round(gm, f)
    assert f.shield == 1


def test_haste_doubles_the_moves() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Haste")
    put(gm, e, 14, 1)
    f.actions = 3
    ch = gm.c.member(f.id).adv.character
    ch.attrs[Attr.DEX].wounds = ch.attrs[Attr.DEX].score - 1  # one DEX die: 2 tiles
    before = {a.id for a in gm.legal_actions() if a.kind == "move"}
    cast(gm, f, "Haste", f.id)
    after = {a.id for a in gm.legal_actions() if a.kind == "move"}
    assert before < after


def test_nether_swap_trades_places() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Nether swap")
    put(gm, e, 9, 2)
    cast(gm, f, "Nether swap", e.id)
    assert (f.tile, e.tile) == ((9, 2), (6, 1))


def test_explode_corpse_wounds_everyone_close_to_it() -> None:
    gm = arena([("Plagued Rat", 2)])
    cs = hall(gm)
    f = cs.fighters[0]
    dead, rat = cs.foes
    wizard(gm, f, "Explode corpse")
    put(gm, f, 6, 1)
    put(gm, dead, 9, 1)
    put(gm, rat, 10, 1)
    core.kill_foe(gm, cs, dead, None, "a test")
    key = f"cast:{f.id}:Explode corpse:9,1"
    assert "on the corpse of Plagued Rat (e1) (INT " in listed(gm)[key].label
    cast(gm, f, "Explode corpse", "9,1")
    assert rat.wounds == 2  # no armour, no resistance
    assert (9, 1) not in cs.corpses


def test_arcane_fire_burns_what_stands_on_its_tiles_each_round() -> None:
    gm = arena([("Giant Rat", 2)])
    cs = hall(gm)
    f = cs.fighters[0]
    a, b = cs.foes
    wizard(gm, f, "Arcane fire")
    put(gm, f, 6, 1)
    put(gm, a, 9, 0)
    put(gm, b, 9, 2)
    a.ap = b.ap = 0
    cast(gm, f, "Arcane fire", "9,0;9,2")
    assert set(cs.fire) == {(9, 0), (9, 2)}
    from rules.gm import combat_foes

    assert (9, 1) in combat_foes.moves(gm, cs, a) and (9, 2) not in combat_foes.moves(gm, cs, a)


def test_arcane_fire_burns_what_stands_on_its_tiles_when_it_is_cast() -> None:
    """ "anything standing in that tile takes 2 wounds per turn": the enemies it is cast under burn at once, not only
    at the round's end, by when they have walked off it (seed 127: cast under two corpses, it never touched them;
    RULINGS R239)."""
    gm = arena([("Giant Rat", 3)])
    cs = hall(gm)
    f = cs.fighters[0]
    a, b, c = cs.foes
    wizard(gm, f, "Arcane fire")
    put(gm, f, 6, 1)
    put(gm, a, 9, 0)
    put(gm, b, 9, 2)
    put(gm, c, 8, 1)
    a.ap = b.ap = c.ap = 0
    cast(gm, f, "Arcane fire", "9,0;9,2")
    assert (a.wounds, b.wounds, c.wounds) == (2, 2, 0)


def test_shackles_stun_each_turn_while_the_wizard_channels() -> None:
    gm, cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Shackles")
    put(gm, e, 9, 1)
    cast(gm, f, "Shackles", e.id)
    assert e.stun == 2 and f.channel == f"Shackles:{e.id}" and f.actions == 0
    from rules.gm import combat_foes

    assert combat_foes.moves(gm, cs, e) == {}


def test_telekinesis_lets_the_wizard_swing_with_intelligence() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Telekinesis")
    ch = gm.c.member(f.id).adv.character
    ch.attrs[Attr.STR].wounds = ch.attrs[Attr.STR].score  # no STR left
    put(gm, e, 7, 1)
    f.actions = 2
    cast(gm, f, "Telekinesis", f.id)
    load(gm, 1, 1, 1, 1)
    events = gm.apply(f"attack:{f.id}:Falchion:{e.id}")
    test = next(ev for ev in events if ev.kind == "test")
    assert test.data["attr"] == "INT"


def test_command_undead_makes_it_stand_still_and_refuses_the_strong() -> None:
    gm, _cs, f, e = one_on_one("Freshly Risen Corpse")
    wizard(gm, f, "Command undead")
    put(gm, e, 7, 1)
    cast(gm, f, "Command undead", e.id)  # the GM-decides player: "stand still"
    assert e.effects["Command undead"] == COMBAT
    events = gm.apply(f"end:{f.id}")
    assert any(ev.kind == "foe_idle" for ev in events)
    again = listed(gm)[f"cast:{f.id}:Command undead:{e.id}"]
    assert not again.available and again.reason == "Already commanded for this fight."
    gm2, _cs2, f2, e2 = one_on_one("Rotting Sailor")  # level 5
    wizard(gm2, f2, "Command undead")
    assert "up to level 3" in listed(gm2)[f"cast:{f2.id}:Command undead:{e2.id}"].reason


def test_machine_spirit_mends_metal_armour_only() -> None:
    gm, _cs, f, _e = one_on_one("Hobgoblin")
    wizard(gm, f, "Machine spirit")
    inv = gm.c.member(f.id).adv.inventory
    inv.add(Carried("Chainmail", "", equipped=True, ap=[0]))
    cast(gm, f, "Machine spirit", f.id)
    mail = next(i for i in inv.items if i.name == "Chainmail")
    assert mail.ap and mail.ap[0] > 0


# --- prayers ------------------------------------------------------------------------------------------------------


def priest(gm: GM, f: Fighter, *prayers: str) -> None:
    cleric(gm, gm.c.member(f.id), *prayers)


def test_hold_paralyses_for_its_rolled_turns() -> None:
    gm, cs, f, e = one_on_one("Hobgoblin")
    priest(gm, f, "Hold")
    put(gm, e, 7, 1)
    pray(gm, f, "Hold", e.id, 1)
    assert e.effects["Hold"] == cs.round
    events = gm.apply(f"end:{f.id}")
    assert any(ev.kind == "foe_idle" for ev in events)


def test_mercy_kills_the_nearly_dead_and_names_the_strong() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")  # 6 wounds
    priest(gm, f, "Mercy")
    assert "7 wounds from death" in listed(gm)[f"pray:{f.id}:Mercy:{e.id}"].reason
    e.wounds = 3
    pray(gm, f, "Mercy", e.id)
    assert e.state == "dead"


def test_memento_mori_wounds_the_undead_every_turn() -> None:
    gm, _cs, f, e = one_on_one("Slumbering Corpse")
    priest(gm, f, "Memento mori")
    put(gm, e, 12, 1)
    e.ap = 0
    pray(gm, f, "Memento mori", e.id, 3, 4)  # 2d6 = 7 turns
    gm.apply(f"end:{f.id}")
    assert e.wounds == 1


def test_dirge_heals_the_living_nearby_when_its_bearer_dies() -> None:
    gm, cs, f, e = one_on_one("Plagued Rat")
    priest(gm, f, "Dirge")
    ch = gm.c.member(f.id).adv.character
    ch.attrs[Attr.STR].wounds = 2
    pray(gm, f, "Dirge", e.id, 4)
    core.kill_foe(gm, cs, e, f, "a test")
    assert ch.attrs[Attr.STR].wounds == 0


def test_purge_the_filth_stops_an_ally_two_turns_then_heals_three() -> None:
    gm = arena([("Hobgoblin", 1)], party=2)
    cs = hall(gm)
    fa, fb = cs.fighters
    priest(gm, fa, "Purge the filth")
    put(gm, fa, 6, 1)
    put(gm, fb, 8, 1)
    put(gm, cs.foes[0], 14, 1)
    ally = gm.c.member(fb.id).adv.character
    ally.attrs[Attr.DEX].wounds = 3
    pray(gm, fa, "Purge the filth", fb.id)
    assert fb.actions == 0  # retching: no action, this turn (under way) among the two
    assert fb.effects["Purge the filth"] == cs.round + 1


def test_prayer_of_summer_mends_a_point_of_everyones_armour() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    priest(gm, f, "Prayer of Summer")
    inv = gm.c.member(f.id).adv.inventory
    inv.add(Carried("Leather armor", "", equipped=True, ap=[0]))
    e.ap = 0
    pray(gm, f, "Prayer of Summer", f.id)
    assert next(i for i in inv.items if i.name == "Leather armor").ap == [1]
    assert e.ap == 1  # "including enemies"


def test_apotheosis_lifts_all_fatigue_until_the_next_turn() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    priest(gm, f, "Apotheosis")
    put(gm, e, 14, 1)
    ch = gm.c.member(f.id).adv.character
    ch.attrs[Attr.DEX].fatigue = 2
    pray(gm, f, "Apotheosis", f.id)
    assert ch.attrs[Attr.DEX].fatigue == 0 and f.owed_fatigue == {"DEX": 2}
    end_round(gm, f)
    assert ch.attrs[Attr.DEX].fatigue >= 2 and f.owed_fatigue == {}


def test_apotheosis_is_greyed_with_no_one_tired_and_the_fatigue_comes_back_if_the_fight_ends_first() -> None:
    """Apotheosis lifts fatigue "then next turn get it back": a fight won before that turn kept the fatigue
    lifted for good (RULINGS R240); and with no one Nearby tired it was offered for nothing."""
    from rules.gm import combat_flow

    gm, cs, f, e = one_on_one("Hobgoblin")
    priest(gm, f, "Apotheosis")
    put(gm, e, 14, 1)
    key = f"pray:{f.id}:Apotheosis:{f.id}"
    assert listed(gm)[key].reason == "No use now: no one Nearby is tired."  # type: ignore[attr-defined]
    ch = gm.c.member(f.id).adv.character
    ch.attrs[Attr.DEX].fatigue = 2
    assert listed(gm)[key].available  # type: ignore[attr-defined]
    pray(gm, f, "Apotheosis", f.id)
    assert ch.attrs[Attr.DEX].fatigue == 0 and f.owed_fatigue == {"DEX": 2}
    combat_flow.end(gm, cs, "victory")
    assert ch.attrs[Attr.DEX].fatigue == 2 and f.owed_fatigue == {}


def test_righteous_fury_adds_three_dice_and_a_wound_to_the_next_attack() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    priest(gm, f, "Righteous Fury")
    put(gm, e, 7, 1)
    f.actions = 2
    pray(gm, f, "Righteous Fury", f.id)
    assert "angry" in gm.c.member(f.id).adv.character.afflictions
    load(gm, *([1] * 8))
    events = gm.apply(f"attack:{f.id}:Falchion:{e.id}")
    test = next(ev for ev in events if ev.kind == "test")
    assert len(test.data["dice"]) == 2 + 3
    assert "Righteous Fury" not in f.effects


def test_effects_survive_a_save_and_reload() -> None:
    gm, cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Glue", "Phobia")
    cast(gm, f, "Glue", e.id)
    again = serial.load(CombatState, serial.dump(cs))
    assert again.foes[0].effects == e.effects and again.foes[0].effects["Glue"] == COMBAT


def test_borrowed_time_keeps_the_target_alive_through_a_killing_blow() -> None:
    gm, cs, f, _e = one_on_one("Hobgoblin")
    priest(gm, f, "Borrowed Time")
    pray(gm, f, "Borrowed Time", f.id, 3, 3)
    who = gm.c.member(f.id)
    core.hurt_member(gm, cs, f, who, 30, "a test", armour=False)
    assert who.adv.character.alive


def test_cleansing_flames_cures_an_ally_but_not_a_curse() -> None:
    gm, _cs, f, _e = one_on_one("Hobgoblin")
    priest(gm, f, "Cleansing Flames")
    ch = gm.c.member(f.id).adv.character
    ch.afflictions |= {"bleeding", "terrified", "cursed"}
    pray(gm, f, "Cleansing Flames", f.id)
    assert ch.afflictions == {"cursed"}


def test_cleansing_flames_burns_an_enemy_close_by_with_the_prayers_notation() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    priest(gm, f, "Cleansing Flames")
    put(gm, e, 7, 1)
    e.ap = 0
    events = pray(gm, f, "Cleansing Flames", e.id, 5, 5)  # then the STR test: a success
    assert any(ev.kind == "test" and ev.data["attr"] == "STR" for ev in events)
    assert e.wounds == 1  # "1PR": one wound, unresisted


def test_season_of_changes_moves_wounds_to_an_attribute_with_room() -> None:
    gm, _cs, f, _e = one_on_one("Hobgoblin")
    priest(gm, f, "Season of changes")
    ch = gm.c.member(f.id).adv.character
    for a in ATTRS:
        ch.attrs[a].score, ch.attrs[a].wounds, ch.attrs[a].fatigue = 3, 0, 0
    ch.attrs[Attr.STR].wounds = 2
    pray(gm, f, "Season of changes", f.id)
    assert ch.attrs[Attr.STR].wounds == 0
    assert sum(ch.attrs[a].wounds for a in ATTRS) == 2


def test_hyperfocus_gives_three_actions_of_one_kind() -> None:
    gm, _cs, f, e = one_on_one("Hobgoblin")
    priest(gm, f, "Hyperfocus")
    put(gm, e, 14, 1)
    pray(gm, f, "Hyperfocus", f.id, 3)
    end_round(gm, f)
    assert f.actions == 3
    moves = [a for a in gm.legal_actions() if a.kind == "move" and a.available]
    gm.apply(moves[0])
    others = [a for a in gm.legal_actions() if a.kind == "dodge"]
    assert others and all(a.reason == "Hyperfocus: only the same action (move) this turn." for a in others)


def test_euphoria_counts_every_die_until_the_fight_ends() -> None:
    gm, _cs, f, _e = one_on_one("Hobgoblin")
    priest(gm, f, "Euphoria")
    ch = gm.c.member(f.id).adv.character
    ch.attrs[Attr.STR].wounds = 1
    ch.attrs[Attr.DEX].fatigue = 1
    pray(gm, f, "Euphoria", f.id)
    assert ch.attrs[Attr.DEX].fatigue == 0
    assert ch.available(Attr.STR, in_combat=True) == ch.attrs[Attr.STR].score
    assert ch.available(Attr.STR) == ch.attrs[Attr.STR].score - 1  # out of the fight it counts again


def test_smoke_form_cannot_be_harmed_and_drifts_through_enemies() -> None:
    gm, cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Smoke form")
    put(gm, e, 7, 1)
    cast(gm, f, "Smoke form", f.id)
    who = gm.c.member(f.id)
    assert core.hurt_member(gm, cs, f, who, 3, "a test") == 0
    assert any(a.kind == "move" and a.param("x") == 8 for a in gm.legal_actions())


# --- the last two manoeuvres ---------------------------------------------------------------------------------------


def test_fast_trapping_throws_a_trap_in_the_enemys_path_that_wounds_and_holds_it() -> None:
    gm, cs, f, e = one_on_one("Giant Rat")  # level 3, armour 2
    m = gm.c.member(f.id)
    m.adv.manoeuvres = ["Fast trapping"]
    m.adv.inventory.add(Carried("Trapping kit", "", usage=6))
    put(gm, e, 10, 1)
    e.ap = 0
    key = f"manoeuvre:{f.id}:fast trapping:{e.id}"
    assert listed(gm)[key].available
    load(gm, 6)  # the kit's usage die
    gm.apply(key)
    assert cs.traps == [(9, 1)]
    from rules.gm import combat_foes

    assert (9, 1) in combat_foes.moves(gm, cs, e)
    from rules.gm import combat_grid as grid

    lane = {(x, 0) for x in range(8)}  # a corridor: whoever steps on the trap goes no further
    assert set(grid.reachable((0, 0), 6, lane, blocked=set(), occupied=set(), threat=set(), stops={(2, 0)})) == {
        (1, 0), (2, 0)}
    e.x, e.y = 9, 1
    combat_foes._sprung(gm, cs, e)
    assert e.wounds == 4 and core.lasting(cs, e, "Trapped") and cs.traps == []
    assert combat_foes.moves(gm, cs, e) == {}


def test_fast_trapping_needs_a_kit() -> None:
    gm, _cs, f, e = one_on_one("Giant Rat")
    gm.c.member(f.id).adv.manoeuvres = ["Fast trapping"]
    assert listed(gm)[f"manoeuvre:{f.id}:fast trapping:{e.id}"].reason == "Needs a trapping kit."


def test_going_somewhere_blocks_a_close_enemy_from_moving_for_a_stun_token() -> None:
    gm = arena([("Hobgoblin", 1)], party=2)
    cs = hall(gm)
    fa, fb = cs.fighters
    e = cs.foes[0]
    gm.c.member(fa.id).adv.manoeuvres = ["Going somewhere?"]
    put(gm, fa, 6, 1)
    put(gm, e, 7, 1)
    put(gm, fb, 12, 3)
    from rules.gm import combat_foes

    assert combat_foes._blocked_by_an_adventurer(gm, cs, e)  # the GM-decides player blocks while unstunned
    assert fa.stun == 1
    assert not any("going somewhere" in a.id for a in gm.legal_actions())  # a reaction: no action of its own


# --- silence, darkness, seals ---------------------------------------------------------------------------------


def test_silence_stops_spells_and_the_enemies_cries_nearby() -> None:
    gm, cs, f, e = one_on_one("Rotting Sailor")  # its Cursed Sea shanty is a song
    priest(gm, f, "Silence")
    wizard(gm, f, "Glue")
    pray(gm, f, "Silence", f.id)
    assert listed(gm)[f"cast:{f.id}:Glue:{e.id}"].reason == "Silence: no spell can be cast here."
    from rules.gm import combat_foes

    assert combat_foes.silenced(cs, e.tile)


def test_black_night_blinds_the_enemy_but_not_the_wizard() -> None:
    gm = arena([("Hobgoblin", 1)], party=2)
    cs = hall(gm)
    fa, fb = cs.fighters
    e = cs.foes[0]
    wizard(gm, fa, "Black night")
    put(gm, fa, 6, 1)
    put(gm, fb, 8, 2)
    put(gm, e, 8, 1)
    cast(gm, fa, "Black night", e.id)
    assert e.tile in cs.night and cs.night_by == fa.id
    load(gm, 1, 1, 1, 1)
    fb.actions = 2
    events = gm.apply(f"attack:{fb.id}:Falchion:{e.id}")  # the other one attacks into the dark
    test = next(ev for ev in events if ev.kind == "test")
    assert test.data["dice"] == [1, 1]


def test_arcane_seal_turns_a_mind_attack_aside() -> None:
    gm, cs, f, e = one_on_one("Goblin Matriarch")  # Controlling Gaze: INT 0
    who = gm.c.member(f.id)
    who.warded = gm.c.expedition.turns + 3
    from rules.gm import combat_foes
    from rules.gm.combat_foes import attack_of

    m = core.sheet(gm, e.monster)
    gaze = next(a for a in m.actions if a.name == "Controlling Gaze")
    atk = attack_of(gaze)
    assert atk is not None
    assert combat_foes.strike(gm, cs, e, m, gaze.name, atk, f, who, action=gaze) is False


def test_swarm_joins_the_party_and_drains_the_enemy_it_is_sent_at() -> None:
    gm, cs, f, e = one_on_one("Giant Rat")  # no resistance
    priest(gm, f, "Swarm")
    put(gm, e, 12, 1)
    e.ap = 0
    pray(gm, f, "Swarm", f.id)
    swarm = cs.summoned(f.id)[0]
    assert swarm.monster == "Swarm of Insects" and swarm not in cs.active_foes()
    key = f"swarm:{f.id}:{swarm.id}:{e.id}"
    assert listed(gm)[key].available and listed(gm)[key].cost.actions == 0
    load(gm, 5, 2)  # its two dice: a 5 hits
    gm.apply(key)
    assert e.wounds == 1  # Drain: 1 wound (then the rat, jumpy, leaps away)
    assert listed(gm)[key].reason == "The swarm has had its command this turn."


def test_seal_keeps_the_undead_from_coming_close_to_the_cleric() -> None:
    gm, cs, f, e = one_on_one("Freshly Risen Corpse")
    priest(gm, f, "Seal")
    put(gm, e, 9, 1)
    pray(gm, f, "Seal", f.id)
    from rules.gm import combat_foes

    reach = combat_foes.moves(gm, cs, e)
    assert reach and not any(abs(t[0] - f.x) + abs(t[1] - f.y) <= 1 for t in reach)


def test_mind_fog_keeps_a_close_enemy_from_going_after_anyone() -> None:
    gm, cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Mind fog")
    put(gm, e, 7, 1)
    events = cast(gm, f, "Mind fog", e.id, 2)
    assert "only the GM knows" in next(ev.text for ev in events if ev.kind == "effect")
    from rules.gm import combat_foes

    assert combat_foes.moves(gm, cs, e) == {}


# --- from the wizard's playtest -------------------------------------------------------------------------------


def test_an_ally_locked_in_the_crystal_stops_at_once_and_is_out_of_reach() -> None:
    gm = arena([("Hobgoblin", 1)], party=2)
    cs = hall(gm)
    fa, fb = cs.fighters
    wizard(gm, fa, "Arcane prison")
    put(gm, fa, 6, 1)
    put(gm, fb, 7, 1)
    put(gm, cs.foes[0], 14, 1)
    fb.actions = 2
    cast(gm, fa, "Arcane prison", fb.id, 1)
    assert fb.actions == 0
    assert not any(a.available for a in gm.legal_actions() if a.who == fb.id and a.kind != "end")
    assert not any(a.target == fb.id and a.kind in ("help", "give") for a in gm.legal_actions())


def test_nether_swap_is_not_offered_on_the_caster() -> None:
    gm, _cs, f, _e = one_on_one("Hobgoblin")
    wizard(gm, f, "Nether swap")
    assert f"cast:{f.id}:Nether swap:{f.id}" not in listed(gm)


def test_magic_shield_is_greyed_once_up_and_a_spell_with_no_target_says_so() -> None:
    gm, _cs, f, _e = one_on_one("Hobgoblin")
    wizard(gm, f, "Magic Shield", "Explode corpse")
    assert listed(gm)[f"cast:{f.id}:Explode corpse"].reason == "No target in reach."
    cast(gm, f, "Magic Shield", f.id)
    assert listed(gm)[f"cast:{f.id}:Magic Shield:{f.id}"].reason == "Already in effect for this fight."


def test_the_cast_message_in_a_fight_says_the_spell_not_its_outcome_code() -> None:
    """Wizard playtest: "Delva casts Magic Shield: cast." (the outcome's code name, before the effect and dice)."""
    gm, _cs, f, _e = one_on_one("Hobgoblin")
    wizard(gm, f, "Magic Shield")
    events = cast(gm, f, "Magic Shield", f.id)
    said = next(ev for ev in events if ev.kind == "cast")  # type: ignore[attr-defined]
    assert said.text.endswith("casts Magic Shield.")  # type: ignore[attr-defined]
    assert not any(ev.kind == "spell_test" for ev in events)  # type: ignore[attr-defined]  # it held: nothing to add


def test_prayers_that_act_on_the_caster_are_not_offered_on_allies() -> None:
    """Cleric playtest: "pray for Create food and water on Kaspa" was offered, and the food went to the cleric."""
    gm = arena([("Hobgoblin", 1)], party=2, surprise=None)
    cs = hall(gm)
    f, g = cs.fighters
    put(gm, g, f.x + 1, f.y)
    priest(gm, f, "Create food and water", "Light")
    ids = set(listed(gm))
    for name in ("Create food and water", "Light"):
        assert f"pray:{f.id}:{name}:{f.id}" in ids and f"pray:{f.id}:{name}:{g.id}" not in ids


def _miracle(gm: GM, special: str) -> object:
    return next(r for r in gm.content.magic.miracles.rows if r.special == special)


def test_miracle_six_wounds_every_enemy_in_a_fight_and_shields_the_next_fight_out_of_one() -> None:
    """R207: two miracle rows were printed and did nothing."""
    from rules.gm import powers

    gm = arena([("Hobgoblin", 2)], party=1, surprise=None)
    cs = hall(gm)
    m = gm.c.party[0]
    row = _miracle(gm, "enemies_wound_or_shield_tokens")
    for e in cs.foes:
        e.ap = 0  # bare: the wound lands (armour would take it first)
    powers.miracle(gm, m, "enemies_wound_or_shield_tokens", row)
    resist = gm.content.bestiary.monster("Hobgoblin").resist
    assert [e.wounds for e in cs.foes] == [max(0, 1 - resist)] * 2 or all(e.wounds == 1 for e in cs.foes)
    assert sum("a miracle" in ev.text for ev in gm.events[-8:]) >= 2


def test_miracle_six_out_of_a_fight_gives_the_next_fight_a_shield_token_each() -> None:
    from rules.gm import powers
    from tests.gm.scripted import corridor, game

    gm = game(corridor(3))
    from rules.gm import exploration

    exploration.enter(gm, "test-site")
    powers.miracle(gm, gm.c.party[0], "enemies_wound_or_shield_tokens", _miracle(gm, "enemies_wound_or_shield_tokens"))
    assert gm.c.expedition is not None and gm.c.expedition.blessed
    exploration._enemies_arrive(gm, [("Hobgoblin", 1)], "doom")
    assert gm.c.combat is not None and all(f.shield >= 1 for f in gm.c.combat.fighters)
    assert not gm.c.expedition.blessed


def test_miracle_five_in_a_fight_sends_the_enemies_with_morale_fleeing_on_a_failed_test() -> None:
    from rules.gm import powers

    gm = arena([("Hobgoblin", 2)], party=1, surprise=None)
    cs = hall(gm)
    sheet = gm.content.bestiary.monster("Hobgoblin")
    assert sheet.morale and sheet.level == 3
    load(gm, 1, 2, 3, 6, 1, 1)  # the first fails (no 4+ on its 3 dice), the second holds
    powers.miracle(gm, gm.c.party[0], "monsters_flee_or_doom_down", _miracle(gm, "monsters_flee_or_doom_down"))
    assert [e.state for e in cs.foes] == ["fled", "active"]


def test_after_an_arcane_well_every_spell_shows_it_cannot_fail() -> None:
    """Playtest seed 101, the Ossuary, round 1: Silver cannon's great success opened an arcane well ("Your next
    spell will be an automatic success") and the next Glue still read "INT 88% to keep it"; in and out of a
    fight the label now says 100%."""
    from rules.gm import exploration
    from tests.gm.scripted import corridor, game

    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Glue", "Magic Missile")
    gm.c.member(f.id).adv.spellbook.arcane_well = True
    acts = listed(gm)
    assert "(INT 100% to keep it)" in acts[f"cast:{f.id}:Glue:{e.id}"].label  # type: ignore[attr-defined]
    assert "(INT 100% to keep it)" in acts[f"cast:{f.id}:Magic Missile"].label  # type: ignore[attr-defined]
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    m = gm.c.party[0]
    m.adv.character.traits.append("Magic user")
    m.adv.inventory.add(Carried("Crystal ball", ""))
    m.adv.spellbook = Spellbook(known=["Knock/Lock"], memorised=["Knock/Lock"], arcane_well=True)
    outside = next(a for a in gm.legal_actions() if a.id == f"cast:{m.id}:Knock/Lock")
    assert outside.label.endswith("(INT 100% to keep it)")


def test_martyr_is_greyed_when_no_ally_nearby_has_what_it_cures() -> None:
    """Playtest seed 101, the Ossuary: Martyr was offered with no ally bleeding, terrified, shaken or sleepy: an
    answered prayer would only wound the cleric (and exhaust it).  Greyed with the reason, in and out of a
    fight; an ally out of reach does not count."""
    from rules.gm import exploration
    from tests.gm.scripted import corridor, game
    from tests.gm.test_combat import healer_and_ally

    gm, fa, fb = healer_and_ally(9)  # three tiles: Nearby
    cleric(gm, gm.c.member(fa.id), "Martyr")
    ally = gm.c.member(fb.id).adv.character
    ally.afflictions.clear()
    gm.c.member(fa.id).adv.character.afflictions |= {"terrified"}  # the cleric's own fear is not the allies'
    key = f"pray:{fa.id}:Martyr:{fa.id}"
    assert listed(gm)[key].reason == "No use now: no ally Nearby is bleeding, terrified, shaken or sleepy."  # type: ignore[attr-defined]
    ally.afflictions.add("shaken")
    assert listed(gm)[key].available  # type: ignore[attr-defined]
    put(gm, fb, 13, 1)  # seven tiles: out of the prayer's reach
    assert not listed(gm)[key].available  # type: ignore[attr-defined]

    gm = game(corridor(3), party=2)
    exploration.enter(gm, "test-site")
    priest, other = gm.c.party
    priest.adv.character.traits.append("Divine mandate")
    priest.adv.inventory.add(Carried("Holy symbol", ""))
    priest.adv.prayers = Prayers(memorised=["Martyr"])
    for m in gm.c.party:
        m.adv.character.afflictions.clear()
    out = next(a for a in gm.legal_actions() if a.id == f"pray:{priest.id}:Martyr")
    assert out.reason == "No use now: no ally is bleeding, terrified, shaken or sleepy."
    other.adv.character.afflictions.add("sleepy")
    assert next(a for a in gm.legal_actions() if a.id == f"pray:{priest.id}:Martyr").available


def test_judgment_is_greyed_with_no_undead_nearby() -> None:
    """Playtest seed 102, the Ringing Loft: Judgment ("All undead nearby receive a stun token and a wound") was
    offered against four Plagued Rats, living and across the room: answered, it would do nothing."""
    gm, _cs, f, _e = one_on_one("Hobgoblin")
    cleric(gm, gm.c.member(f.id), "Judgment")
    key = f"pray:{f.id}:Judgment:{f.id}"
    assert listed(gm)[key].reason == "No use now: no undead Nearby."  # type: ignore[attr-defined]
    gm2, _cs2, f2, corpse = one_on_one("Slumbering Corpse")
    cleric(gm2, gm2.c.member(f2.id), "Judgment")
    assert listed(gm2)[f"pray:{f2.id}:Judgment:{f2.id}"].available  # type: ignore[attr-defined]
    put(gm2, corpse, 14, 1)  # eight tiles off: not Nearby
    assert not listed(gm2)[f"pray:{f2.id}:Judgment:{f2.id}"].available  # type: ignore[attr-defined]


def test_a_lasting_spell_is_not_offered_again_on_whom_it_already_holds() -> None:
    """Playtest seed 102, the Ringing Loft: a Plagued Rat asleep under Nightmare was offered Nightmare again (an
    INT test and a spell risked for nothing).  The same for a hasted ally."""
    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Nightmare", "Haste")
    cast(gm, f, "Nightmare", e.id)
    acts = listed(gm)
    assert acts[f"cast:{f.id}:Nightmare:{e.id}"].reason == "Already under Nightmare."  # type: ignore[attr-defined]
    assert acts[f"cast:{f.id}:Haste:{f.id}"].available  # type: ignore[attr-defined]
    cast(gm, f, "Haste", f.id)
    assert listed(gm)[f"cast:{f.id}:Haste:{f.id}"].reason == "Already under Haste."  # type: ignore[attr-defined]


def test_ignorance_takes_the_mind_attack_away_for_its_rolled_rounds_and_is_greyed_on_the_mindless() -> None:
    """Goshkalon's Ignorance: "The target can't use any INT based attacks for 2d6 rounds." (Never prayed in a
    played game: scripted here, seed 128's party met no enemy with a mind attack.)"""
    from rules.gm import combat_foes

    gm, cs, f, e = one_on_one("Goblin Matriarch")  # Controlling Gaze: INT 0
    priest(gm, f, "Ignorance")
    put(gm, e, 7, 1)
    sheet = core.sheet(gm, e.monster)
    before = combat_foes._plan(gm, cs, e, sheet, 3)
    assert before is not None and before.action is not None and before.action.name == "Controlling Gaze"
    events = pray(gm, f, "Ignorance", e.id, 3, 4)  # 2d6 = 7 rounds
    said = next(ev for ev in events if ev.kind == "effect")
    assert said.data["turns"] == 7 and "can use no INT attack for 7 round(s)" in said.text
    assert core.lasting(cs, e, "Ignorance")
    after = combat_foes._plan(gm, cs, e, sheet, 3)
    assert after is None or after.action is None or after.action.name != "Controlling Gaze"
    cs.round = e.effects["Ignorance"] + 1
    core.expire(gm, cs)
    assert "Ignorance" not in e.effects

    gm, _cs, f, e = one_on_one("Hobgoblin")
    priest(gm, f, "Ignorance")
    put(gm, e, 7, 1)
    assert listed(gm)[f"pray:{f.id}:Ignorance:{e.id}"].reason == "It has no INT attack to lose."  # type: ignore[attr-defined]


def test_an_angered_cleric_of_cador_kills_a_captured_undead_in_the_ritual_and_the_god_listens_again() -> None:
    """Cador's sacrifice: "the cleric must capture, then kill an undead during the sacrifice ritual" — the fight kept
    no captive, so an angered cleric of Cador was never heard again (RULINGS R212's defect).  A held undead is a
    captive (R241): the ritual kills it (2 actions) and the god listens."""
    gm, cs, f, e = one_on_one("Slumbering Corpse")
    priest(gm, f, "Hold")
    m = gm.c.member(f.id)
    m.adv.god = "Cador"
    m.adv.prayers.angered = True  # type: ignore[union-attr]
    put(gm, e, 7, 1)
    f.actions = 2
    key = f"sacrifice:{f.id}:{e.id}"
    assert listed(gm)[key].reason == (  # type: ignore[attr-defined]
        "Not captured: it must be held first (Hold, Glue, Shackles, or commanded to stand still).")
    core.put(cs, e, "Hold", 3)  # (held by another's prayer: an angered cleric's own is not answered)
    action = listed(gm)[key]
    assert action.available and action.cost.actions == 2  # type: ignore[attr-defined]
    events = gm.apply(key)
    assert e.state == "dead"
    assert not m.adv.prayers.angered  # type: ignore[union-attr]
    assert any(ev.kind == "sacrifice" and "held by Hold" in ev.text for ev in events)


def test_cadors_ritual_is_not_offered_to_a_cleric_whose_god_is_not_angered_or_not_cador() -> None:
    gm, cs, f, e = one_on_one("Slumbering Corpse")
    priest(gm, f, "Hold")
    m = gm.c.member(f.id)
    m.adv.god = "Cador"
    core.put(cs, e, "Glue")
    assert f"sacrifice:{f.id}:{e.id}" not in listed(gm)
    m.adv.god, m.adv.prayers.angered = "Yulak", True  # type: ignore[union-attr]
    assert f"sacrifice:{f.id}:{e.id}" not in listed(gm)


def test_memento_mori_wounds_an_armoured_undead_even_when_it_loses_its_turn() -> None:
    """Seed 135, the Forsaken Fort: Memento mori on a surprised Reanimated Husk (armour 3) did nothing at its lost
    turn, and its one wound a turn went through the armour roll like a blow (RULINGS R242)."""
    from rules.gm import combat_foes

    gm, cs, f, e = one_on_one("Reanimated Husk")
    priest(gm, f, "Memento mori")
    put(gm, e, 12, 1)
    pray(gm, f, "Memento mori", e.id, 3, 4)  # 2d6 = 7 turns
    ap, wounds = e.ap, e.wounds
    assert ap > 0
    e.lost_turn = True
    load(gm, 6, 6, 6, 6)  # (an armour roll would block)
    combat_foes.enemy_turn(gm, cs, e)
    assert e.wounds == wounds + 1 and e.ap == ap
    assert not e.lost_turn


def test_command_undead_can_send_the_undead_at_another_enemy() -> None:
    """Command undead's "one simple command" offered only "stand still" and "leave the fight"; a necromancer's
    commanded dead never fought for them (RULINGS R243): "attack <enemy>" sends it at another enemy each turn."""
    from rules.gm.engine import AutoDecider

    gm = arena([("Freshly Risen Corpse", 1), ("Giant Rat", 1)])
    cs = hall(gm)
    f = cs.fighters[0]
    corpse, hob = cs.foes
    put(gm, f, 6, 1)
    put(gm, corpse, 8, 1)
    put(gm, hob, 11, 1)
    wizard(gm, f, "Command undead")
    asked: list[list[str]] = []

    class Sender(AutoDecider):
        def choose(self, gm, member, prompt, options):  # type: ignore[no-untyped-def]
            if prompt.startswith("Command undead"):
                asked.append(list(options))
                return next(o for o in options if o.startswith("attack"))
            return super().choose(gm, member, prompt, options)

    gm.decider = Sender()
    cast(gm, f, "Command undead", corpse.id)
    assert asked == [["stand still", "leave the fight", f"attack {core.label(hob)}"]]
    assert corpse.order == hob.id and corpse.effects["Command undead"] == COMBAT
    from rules.gm import combat_foes

    load(gm, 6, 6, 6, 6, 6, 6)
    hob.ap = 0  # (its armour would roll against the bite)
    before = hob.wounds
    combat_foes.enemy_turn(gm, cs, corpse)
    assert corpse.tile == (10, 1) and hob.wounds > before  # it walked up to the rat and bit it
    hob.state = "dead"  # "If unable to follow the command for any reason the undead will just stay in place"
    where = corpse.tile
    combat_foes.enemy_turn(gm, cs, corpse)
    assert corpse.tile == where
    assert serial.load(CombatState, serial.dump(cs)).foes[0].order == hob.id  # survives a reload



def test_a_bleeding_enemy_bleeds_on_a_turn_it_loses_to_surprise() -> None:
    """"A bleeding enemy rolls a d6 at the start of its turn": a turn lost to surprise is still its turn, and
    it skipped the roll (seen on seed 128)."""
    from rules.gm import combat_foes

    gm, cs, _, e = one_on_one("Goblin Scrapper")
    e.bleeding, e.lost_turn = True, True
    wounds = e.wounds
    load(gm, 1)  # the bleed die: 1-3 is a wound
    assert not combat_foes.enemy_turn(gm, cs, e)
    assert e.wounds == wounds + 1 and not e.lost_turn
