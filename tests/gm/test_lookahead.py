"""Looking ahead (rules.autoplay.lookahead): fights judged by playing them out in copies of the campaign.

The copies must never touch the campaign (its state, its dice), must count a won fight as won and a dead
adventurer as dead, and the course decided for a side's turn must be kept (and saved) until the next one."""

from __future__ import annotations

import pytest

from rules.attributes import Attr
from rules.autoplay import combat_policy, lookahead
from rules.autoplay.combat_policy import forecast_groups
from rules.autoplay.player import explore, worth_fighting
from rules.gm.serial import dump
from rules.gm.state import Phase, rng_state
from tests.gm.test_autoplay import _unaware
from tests.gm.test_combat import arena, cs_of


def test_playing_a_fight_out_leaves_the_campaign_and_its_dice_as_they_were() -> None:
    gm = arena([("Plagued Rat", 2)], party=2, surprise=None)
    before, dice = dump(gm.c), rng_state(gm.rng)
    first = lookahead.play_out(gm, None, "fight")
    assert dump(gm.c) == before and rng_state(gm.rng) == dice
    assert lookahead.play_out(gm, None, "fight") == first  # the copies' dice come from the campaign's state
    assert lookahead.course() is None  # the course tested inside the copies is over


def test_a_lone_rat_is_won_every_time_and_a_horde_kills() -> None:
    easy = lookahead.play_out(arena([("Plagued Rat", 1)], party=3, surprise="party"), None, "fight")
    assert easy.runs == lookahead.RUNS and easy.won == 1.0 and easy.deaths == 0.0 and easy.dying == 0.0
    gm = arena([("Freshly Risen Corpse", 4)], party=2, surprise="enemies")
    stay, go = lookahead.play_out(gm, None, "fight"), lookahead.play_out(gm, None, "leave")
    assert stay.won == 0.0 and stay.dying == 1.0 and stay.deaths == 2.0  # both die, each counted once
    assert go.deaths == 1.0  # running, one gets away
    assert lookahead.plan(gm, cs_of(gm)) == "leave"


def test_leaving_at_once_never_wins() -> None:
    out = lookahead.play_out(arena([("Plagued Rat", 1)], party=2, surprise="party"), None, "leave")
    assert out.won == 0.0


def test_the_course_is_kept_until_the_fight_turns_and_saved_with_the_fight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gm = arena([("Plagued Rat", 2)], party=2, surprise=None)
    cs = cs_of(gm)
    calls: list[str] = []
    real = lookahead.play_out

    def counted(gm_: object, first: str | None, c: lookahead.Course, runs: int = lookahead.RUNS,
                **kw: object) -> lookahead.Outlook:  # fmt: skip
        if lookahead.course() is None:
            calls.append(c)
        return real(gm_, first, c, runs, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(lookahead, "play_out", counted)
    first = lookahead.plan(gm, cs)
    # fighting on won every copy with no one dead: leaving cannot do better, and is not played out (#14)
    assert real(gm, None, "fight", lookahead.PLAN_RUNS) == lookahead.Outlook(lookahead.PLAN_RUNS, 1.0, 0.0, 0.0)
    assert calls == ["fight"] and first == "fight"
    assert cs.plan == first
    cs.round += 1
    assert lookahead.plan(gm, cs) == first and len(calls) == 1  # a new round, the same fight: kept
    assert "plan" in dump(cs)  # a resumed save keeps to it
    cs.foes[0].state = "dead"  # an enemy down: the fight has turned, and is judged again
    lookahead.plan(gm, cs)
    assert len(calls) == 2
    gm.c.party[0].adv.character.attrs[Attr.STR].fatigue += 3  # (the dice left fall a fifth or more)
    lookahead.plan(gm, cs)
    assert len(calls) == 3


def test_inside_a_copy_the_policy_keeps_to_the_course_tested() -> None:
    gm = arena([("Plagued Rat", 1)], party=2, surprise="party")
    cs = cs_of(gm)
    with lookahead._testing("leave"):
        assert combat_policy.should_flee(gm, cs)
    with lookahead._testing("fight"):
        assert not combat_policy.should_flee(gm, cs)


def test_a_fight_the_forecast_misreads_is_taken_when_playing_it_out_wins_it() -> None:
    """A lone Giant Rat caught unaware: the expected-value forecast has it outlast the surprise round (the old
    policy sneaked past it); played out, three fresh adventurers beat it and live."""
    gm = _unaware("Giant Rat", 1)
    assert forecast_groups(gm, [("Giant Rat", 1)], surprise=True).rounds > 1
    seen = lookahead.play_out(gm, "fight", "fight")
    assert seen.won >= 0.8 and seen.dying <= 0.1
    assert worth_fighting(gm)
    assert explore(gm, [a for a in gm.legal_actions() if a.available]).id == "fight"
    assert gm.c.phase is Phase.EXPLORATION  # judging it started nothing
