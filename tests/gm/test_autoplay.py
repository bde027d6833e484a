"""The autoplay policy: only legal choices, whole campaigns without exceptions, the same game for the same seed,
and the careful player's habits (no blows at enemies it would not beat, flight from a hopeless fight, no roll
for nothing when no die is left to defend with)."""

from __future__ import annotations

from typing import Any

import pytest

from dungeon_gen.site import GeneratedDungeons
from rules.attributes import ATTRS, Attr
from rules.autoplay import combat_policy, suggest
from rules.autoplay.combat_policy import forecast_groups
from rules.autoplay.combat_policy import suggest as combat_suggest
from rules.autoplay.interlude_policy import barred
from rules.autoplay.player import explore, worth_fighting
from rules.autoplay.simulate import run
from rules.content.registry import load_content
from rules.gm import exploration
from rules.gm.engine import GM
from rules.gm.events import Event
from rules.gm.site import SiteMonsters
from rules.gm.state import Phase
from rules.inventory import Carried
from tests.gm.scripted import corridor, game
from tests.gm.test_combat import Loaded, arena, cs_of, kinds, load, plain, put

CONTENT = load_content()


def test_the_policy_only_ever_picks_available_actions() -> None:
    checked = 0

    def on_step(gm: GM, events: list[Event]) -> None:
        nonlocal checked
        if gm.c.phase is Phase.OVER:
            return
        pick = suggest(gm)
        assert pick is not None
        legal = {a.id: a for a in gm.legal_actions()}
        assert pick.id in legal and legal[pick.id].available, pick
        checked += 1

    for seed in (3, 11):
        run(CONTENT, GeneratedDungeons(), seed=seed, expeditions=2, party=3, on_step=on_step)
    assert checked > 50


@pytest.mark.parametrize("seed", [1, 2, 5, 8, 13])
def test_whole_campaigns_finish_without_exceptions(seed: int) -> None:
    gm, stats = run(CONTENT, GeneratedDungeons(), seed=seed, expeditions=3, party=3)
    assert stats["expeditions"] >= 1
    assert stats["outcome"] in ("in progress", "perished", "escaped")
    if stats["outcome"] == "in progress":
        # played to the end of the third expedition: back in a settlement
        assert stats["expeditions"] == 3 and gm.c.phase is Phase.INTERLUDE and gm.c.expedition is None
    for m in gm.c.party:
        m.adv.character.check_invariants()


def test_the_same_seed_plays_the_same_campaign() -> None:
    def play() -> tuple[dict[str, Any], list[str]]:
        log: list[str] = []
        _, stats = run(CONTENT, GeneratedDungeons(), seed=21, expeditions=2, party=3,
                       on_step=lambda gm, evs: log.extend(e.text for e in evs))  # fmt: skip
        return stats, log

    assert play() == play()


# --- exploration ------------------------------------------------------------------------------------------------


def _unaware(monster: str, count: int) -> GM:
    site = corridor(3, r2={"monsters": (SiteMonsters(monster, count, ((11, 0), (11, 2), (12, 1)), aware=False),)})
    gm = game(site, seed=4, party=2)
    for m in gm.c.party:
        plain(m)
    gm.c.party[0].adv.inventory.add(Carried("Torches", "", count=2))
    exploration.enter(gm, "test-site")
    gm.apply("move:2")
    assert gm.c.phase is Phase.EXPLORATION  # they have not noticed the party
    assert any(m.lit for m in gm.c.party)
    return gm


def test_it_never_attacks_unaware_enemies_it_would_not_beat_and_sneaks_on() -> None:
    gm = _unaware("Freshly Risen Corpse", 3)
    assert not worth_fighting(gm)
    actions = [a for a in gm.legal_actions() if a.available]
    assert "fight" in {a.id for a in actions}
    pick = explore(gm, actions)
    assert pick.kind != "fight" and pick.kind != "parley"
    assert pick.id == "move:3"  # past them, deeper in


def test_it_attacks_a_lone_weak_enemy_caught_unaware() -> None:
    gm = _unaware("Plagued Rat", 1)
    assert worth_fighting(gm)
    assert explore(gm, [a for a in gm.legal_actions() if a.available]).id == "fight"


def test_it_does_not_attack_friendly_creatures_it_would_beat_and_loots_in_peace() -> None:
    """Seed 4: two Giant Frogs let the party be and warned it of a trap; the autoplay attacked them for a rope
    and a bolt of silk it could take in peace."""
    gm = _unaware("Plagued Rat", 1)
    assert worth_fighting(gm)  # hostile (unaware): worth the fight
    for g in gm.room_state().monsters:
        g.aware, g.attitude = True, "friendly"
    assert not worth_fighting(gm)
    assert explore(gm, [a for a in gm.legal_actions() if a.available]).kind != "fight"


def test_the_forecast_grows_darker_with_more_enemies() -> None:
    gm = _unaware("Plagued Rat", 1)
    one = forecast_groups(gm, [("Plagued Rat", 1)])
    many = forecast_groups(gm, [("Freshly Risen Corpse", 4)])
    assert one.win and one.downs == 0
    assert not many.win and many.wounds > one.wounds


# --- combat ----------------------------------------------------------------------------------------------------


def test_a_hopeless_fight_is_fled_at_once() -> None:
    gm = arena([("Freshly Risen Corpse", 4)], party=2, surprise="party")
    cs = cs_of(gm)
    pick = combat_suggest(gm, gm.legal_actions())
    assert pick.kind == "flee"
    for _ in range(20):
        if gm.c.phase is not Phase.COMBAT:
            break
        gm.apply(combat_suggest(gm, gm.legal_actions()))
    # room 1 is the way in from outside: fleeing through it ends the expedition
    assert all(f.fled for f in cs.fighters)
    assert gm.c.phase is Phase.INTERLUDE and gm.c.expedition is None
    assert "exit" in kinds(gm.events)


def test_a_clean_win_is_fought() -> None:
    gm = arena([("Plagued Rat", 1)], party=2, surprise="party")
    pick = combat_suggest(gm, gm.legal_actions())
    assert pick.kind in ("attack", "move")


def test_with_no_die_left_the_defender_takes_the_hit_instead_of_rolling() -> None:
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    ch = gm.c.member(f.id).adv.character
    ch.attrs[Attr.STR].fatigue = 2  # STR 2, both dice tired: nothing left to defend with
    assert isinstance(gm.rng, Loaded)
    load(gm, 5, 5)  # (not used for a defence)
    events = gm.apply(f"end:{f.id}")
    assert not [e for e in events if e.kind == "test" and "defending" in e.data["reason"]]
    hits = [e for e in events if e.kind == "hit"]
    assert hits and all(e.data.get("declined") for e in hits)
    # Knife in the gut (STR 1B+1), no critical: one wound per blow, placed on a tired STR die
    assert sum(ch.attrs[a].wounds for a in ATTRS) == len(hits)
    assert "bleeding" in ch.afflictions


def test_with_tokens_the_defender_rolls_even_with_no_die_left() -> None:
    gm = arena([("Goblin Scrapper", 1)], surprise=None, faces=[5, 5])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    gm.c.member(f.id).adv.character.attrs[Attr.STR].fatigue = 2
    f.dodge = 2
    events = gm.apply(f"end:{f.id}")
    assert [e for e in events if e.kind == "test" and "defending" in e.data["reason"]]


def _dead_in_room_two() -> GM:
    """Two plain adventurers at the way into a corridor whose room 2 holds four Freshly Risen Corpses."""
    site = corridor(
        3, r2={"monsters": (SiteMonsters("Freshly Risen Corpse", 4, ((11, 0), (11, 2), (12, 1), (12, 0))),)}
    )
    gm = game(site, seed=4, party=2)
    for m in gm.c.party:
        plain(m)
    exploration.enter(gm, "test-site")
    return gm


def _fight_out(gm: GM) -> None:
    """The combat policy plays the fight in progress (at most 30 actions)."""
    for _ in range(30):
        if gm.c.phase is not Phase.COMBAT:
            break
        gm.apply(combat_policy.suggest(gm, [a for a in gm.legal_actions() if a.available]))


def test_fleeing_a_fight_further_in_falls_back_to_the_room_it_came_from() -> None:
    gm = _dead_in_room_two()
    gm.apply("move:2")
    assert gm.c.phase is Phase.COMBAT
    _fight_out(gm)
    assert gm.c.phase is Phase.EXPLORATION
    assert gm.c.expedition is not None and gm.c.expedition.room == 1


def test_with_nothing_to_strike_with_next_to_an_enemy_it_gets_out_instead_of_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rules.autoplay import combat_policy

    monkeypatch.setattr(combat_policy, "should_flee", lambda gm, cs: False)  # even where the forecast says stay
    gm = arena([("Goblin Scrapper", 1)], surprise=None)
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    gm.c.member(f.id).adv.character.attrs[Attr.STR].wounds = 2  # the Falchion's STR is gone; DEX, INT, PRE are not
    pick = combat_suggest(gm, gm.legal_actions())
    assert pick.kind in ("flee", "move", "dodge"), pick


def test_a_dungeon_whose_only_way_on_is_held_by_the_mindless_is_barred_for_the_next_job() -> None:
    gm = _dead_in_room_two()
    assert not barred(gm, "test-site")  # room 2 is unexplored and no one is known to wait there
    gm.apply("move:2")
    _fight_out(gm)
    assert gm.c.expedition is not None and gm.c.expedition.room == 1  # fled back: the dead hold room 2
    assert barred(gm, "test-site")  # room 3 lies beyond them, and the dead never change their mind (R171)


def test_cornered_by_wary_enemies_it_does_not_start_a_fight_it_would_flee() -> None:
    """A room with no way on but back out, held by wary enemies the forecast does not beat: the party leaves
    (it used to attack, then flee at once, leaving its slow behind)."""
    frogs = SiteMonsters("Giant Frog", 3, ((6, 0), (6, 2), (7, 1)), aware=False)
    gm = game(corridor(1, r1={"monsters": (frogs,)}), seed=4, party=2)
    for m in gm.c.party:
        plain(m)
    exploration.enter(gm, "test-site")
    for g in gm.room_state().monsters:
        g.aware, g.attitude = True, "unfriendly"  # they have seen the party and keep their distance
    actions = [a for a in gm.legal_actions() if a.available]
    assert gm.c.phase is Phase.EXPLORATION
    assert "fight" in {a.id for a in actions} and not any(a.kind == "move" for a in actions)
    assert not forecast_groups(gm, [("Giant Frog", 3)]).win
    assert explore(gm, actions).kind != "fight"


def test_a_dungeon_whose_only_way_on_needs_work_under_wary_eyes_is_barred() -> None:
    """Seed 77 went back three times to an entrance where wary rats stood by a locked door and a barricade:
    no door is worked on with enemies watching ("Not with enemies here"), so every visit turned back at once."""
    rats = SiteMonsters("Plagued Rat", 3, ((6, 0), (6, 2), (7, 1)), aware=False)
    gm = game(corridor(3, doors={1: "locked"}, r1={"monsters": (rats,)}), seed=4, party=2)
    exploration.enter(gm, "test-site")
    for g in gm.room_state().monsters:
        g.aware, g.attitude = True, "unfriendly"
    gm.room_state().visited = True
    assert barred(gm, "test-site")
    gm.room_state().monsters[0].count = 0  # with the rats gone the lock can be picked: the way is open again
    assert not barred(gm, "test-site")


def test_a_cleric_prays_for_food_and_water_when_the_party_is_hungry_and_heals_the_wounded() -> None:
    from tests.gm.test_outside_powers import caster

    gm = game(corridor(2), seed=4, party=2)
    exploration.enter(gm, "test-site")
    who = caster(gm, prayer="Create food and water")
    gm.c.member(who).adv.prayers.memorised.append("Cure Light Wounds")  # type: ignore[union-attr]
    actions = [a for a in gm.legal_actions() if a.available]
    assert explore(gm, actions).kind != "pray"  # fed and whole: no prayer spent
    gm.c.party[1].adv.character.afflictions.add("hungry")
    assert explore(gm, actions).param("prayer") == "Create food and water"
    gm.c.party[1].adv.character.afflictions.discard("hungry")
    gm.c.party[1].adv.character.attrs[Attr.STR].wounds = 2
    actions = [a for a in gm.legal_actions() if a.available]  # (no one to heal, the prayer was greyed)
    assert explore(gm, actions).param("prayer") == "Cure Light Wounds"


def test_the_lookahead_stops_as_soon_as_the_answer_is_no() -> None:
    """Judging a fight the party loses, the copies stop once too many are lost to reach the share asked for."""
    from rules.autoplay.lookahead import RUNS, play_out

    gm = _unaware("Bugbear", 3)
    full = play_out(gm, "fight", "fight")
    quick = play_out(gm, "fight", "fight", need=(0.8, 0.1))
    assert full.runs == RUNS and full.won < 0.8
    assert quick.runs < RUNS and (quick.won < 0.8 or quick.dying > 0.1)


def test_it_buys_a_lantern_after_a_torch_and_a_ration_each_and_then_oil_not_torches() -> None:
    """A lantern (Ud8, lit whole again each expedition) burns about nine decays where a pack of torches burns
    two; 23% of first expeditions still came home for the dark with torches alone."""
    from rules.autoplay.interlude_policy import _needs

    gm = game(corridor(2), seed=4, party=2, light=False)
    for m in gm.c.party:
        m.adv.inventory.items = [i for i in m.adv.inventory.items if i.name not in ("Ration", "Lantern", "Oil")]
    order = list(_needs(gm))
    assert order[:3] == ["Torches", "Ration", "Lantern"]
    gm.c.party[0].adv.inventory.add(Carried("Lantern", "", rarity="uncommon"))
    later = _needs(gm)
    assert "Torches" not in later and "Lantern" not in later and later.get("Oil") == 1


def test_a_broke_party_explores_on_weaker_and_gropes_a_few_turns_in_the_dark() -> None:
    """Going home empty-handed only means starving there: a party that could not buy a ration each explores
    down to a lower share of its dice, and does not turn round at the door for the lack of a light."""
    from rules.autoplay.player import BROKE_FLOOR, WEAK_FLOOR, leave_below, should_leave

    gm = game(corridor(3), seed=4, party=2, light=False)
    exploration.enter(gm, "test-site")
    exp = gm.c.expedition
    assert exp is not None
    for m in gm.c.party:
        m.adv.character.silver = 20
        m.adv.character.attrs[Attr.STR].wounds = m.adv.character.attrs[Attr.STR].score  # came in weak
    exp.dice_before = 1  # (a fifth of its dice at the door)
    assert leave_below(gm) == WEAK_FLOOR and should_leave(gm)
    for m in gm.c.party:
        m.adv.character.silver = 0
    assert leave_below(gm) == BROKE_FLOOR


def _tired_against(monster: str, seed: int, fatigue: int = 2) -> GM:
    """A level-1 party of three, ``fatigue`` down in every attribute, walks into one aware ``monster``."""
    site = corridor(3, r2={"monsters": (SiteMonsters(monster, 1, ((11, 0),), aware=True),)})
    gm = game(site, seed=seed, party=3)
    exploration.enter(gm, "test-site")
    for m in gm.c.party:
        for a in ATTRS:
            m.adv.character.attrs[a].fatigue = min(fatigue, m.adv.character.attrs[a].score)
    gm.apply("move:2")
    assert gm.c.phase is Phase.COMBAT
    return gm


def test_a_tired_party_fights_a_lone_goblin_scrapper_and_wins_instead_of_fleeing() -> None:
    """#14: a party fled a lone Goblin Scrapper.  Its dice nearly gone made it "losing" (flee at once), and in the
    lookahead's copies every adventurer without a DEX die dodged, collapsed from exhaustion, and the copy was lost:
    played out, fighting on won 5 of 12 copies with a death in 5, fleeing lost 1.33 lives a copy."""
    from rules.autoplay.combat_policy import losing, should_flee
    from rules.autoplay.lookahead import play_out

    gm = _tired_against("Goblin Scrapper", seed=3)
    cs = cs_of(gm)
    assert not losing(gm, cs) and not should_flee(gm, cs)
    seen = play_out(gm, None, "fight")
    assert seen.runs == 12 and seen.won == 1.0 and seen.dying == 0.0
    for _ in range(300):
        if gm.c.phase is not Phase.COMBAT:
            break
        pick = combat_suggest(gm, gm.legal_actions())
        if pick.kind == "dodge":  # a dodge is a DEX test: never without a DEX die
            who = gm.c.member(pick.who or "")
            assert who.adv.character.available(Attr.DEX, in_combat=True) > 0
        assert pick.kind != "flee"
        gm.apply(pick)
    assert gm.events and [e.data.get("outcome") for e in gm.events if e.kind == "combat_end"] == ["victory"]
    assert gm.c.stats.deaths == 0


def test_a_fight_that_drags_on_is_left_and_a_copy_of_it_called_off() -> None:
    """Every fight ends: the autoplay leaves one still going after FIGHT_ROUNDS rounds, and a copy still going after
    MAX_ROUNDS counts as not won (a copy that never ended ran a campaign of balance.py for 37 CPU minutes)."""
    from rules.autoplay.combat_policy import FIGHT_ROUNDS, should_flee
    from rules.autoplay.lookahead import MAX_ROUNDS, play_out

    gm = _tired_against("Goblin Scrapper", seed=3)
    cs = cs_of(gm)
    assert not should_flee(gm, cs)
    cs.round = FIGHT_ROUNDS + 1
    assert should_flee(gm, cs)
    cs.round = MAX_ROUNDS + 1
    seen = play_out(gm, None, "fight", 3)
    assert seen.runs == 3 and seen.won == 0.0 and seen.deaths == 0.0


def test_it_listens_at_a_shut_door_but_not_while_someone_bleeds() -> None:
    """Each turn costs a bleeder a wound: the party goes on (or home) instead of listening at doors."""
    gm = game(corridor(3, doors={1: "stuck"}), seed=4, party=2)
    exploration.enter(gm, "test-site")
    actions = [a for a in gm.legal_actions() if a.available]
    assert any(m.lit for m in gm.c.party) and "listen:1" in {a.id for a in actions}
    assert explore(gm, actions).id == "listen:1"
    gm.c.party[1].adv.character.afflictions.add("bleeding")
    actions = [a for a in gm.legal_actions() if a.available]
    assert explore(gm, actions).kind != "listen"


def test_walking_to_and_fro_for_free_is_broken_by_a_turn_spent() -> None:
    """Walks through mapped rooms cost no turn: a party that has gone FREE_STEPS steps without one spends a turn
    where it stands (a to-and-fro never reached MAX_TURNS, and played fights out in copies at every step)."""
    from rules.autoplay.player import FREE_STEPS

    gm = game(corridor(3), seed=4, party=2)
    exploration.enter(gm, "test-site")
    actions = [a for a in gm.legal_actions() if a.available]
    assert explore(gm, actions).id == "move:2"
    gm.c.stats.steps += FREE_STEPS - 1
    assert explore(gm, actions).id == "move:2"
    gm.c.stats.steps += 1
    pick = explore(gm, actions)
    assert pick.cost.turns > 0 and pick.kind not in ("move", "stairs", "fight")
    gm.apply(pick.id)
    assert explore(gm, [a for a in gm.legal_actions() if a.available]).id == "move:2"  # a turn passed: on again


def test_with_nothing_to_strike_with_it_steps_out_of_reach_rather_than_out_of_the_door(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """#14: whoever flees takes the party along (the others follow), and a fighter with no die for their weapon
    walked out of fights the others were winning.  It steps out of the enemy's reach instead."""
    from rules.gm import combat_grid as grid

    gm = arena([("Goblin Scrapper", 1)], party=2, surprise=None)
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    put(gm, cs.fighters[1], 1, 5)
    gm.c.member(f.id).adv.character.attrs[Attr.STR].wounds = 2  # the Falchion's STR is gone; DEX, INT, PRE are not
    mine = [a for a in gm.legal_actions() if a.who == f.id]
    assert any(a.kind == "flee" and a.available for a in mine) or any(a.kind == "move" for a in mine)
    pick = combat_policy._away([a for a in mine if a.kind == "move" and a.available and a.param("x") is not None],
                               f, [foe.tile])  # fmt: skip
    assert pick is not None and not grid.close((int(pick.param("x")), int(pick.param("y"))), foe.tile)
    monkeypatch.setattr(combat_policy, "should_flee", lambda gm, cs: False)  # the party means to win
    assert combat_suggest(gm, gm.legal_actions()).id == pick.id


def test_seed_33_no_longer_walks_to_and_fro_for_free_without_end() -> None:
    """balance.py --seeds 40 --expeditions 10 stopped seed 33 as a runaway (over 200 CPU seconds): in its ninth
    expedition the party walked between The Root Door and the next room for free, turn 7 for ever, two Gremlins
    played out in copies at every step.  A turn spent after FREE_STEPS free steps ends it (357 steps in all)."""
    _, stats = run(CONTENT, GeneratedDungeons(), seed=33, expeditions=10, party=3)
    assert stats["steps"] < 1000 and (stats["expeditions"] == 10 or stats["outcome"] != "in progress")
