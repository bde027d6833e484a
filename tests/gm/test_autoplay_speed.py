"""The autoplay's shortcuts (#14: balance.py must measure 100 campaigns of 25 expeditions in minutes) change its
speed, never its play: the lean listing, the listing a copy takes along, the what-if copies that stop caring once
the party is home.  The same campaign played with and without them is the same game, event for event."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest

from dungeon_gen.site import GeneratedDungeons
from rules.autoplay.simulate import run
from rules.character import Condition
from rules.content.registry import load_content
from rules.gm import engine, interlude
from rules.gm.combat_actions import actors
from rules.gm.events import Action
from rules.gm.services import GM as Services
from rules.gm.state import Campaign
from tests.gm.test_combat import arena, cs_of


def _key(a: Action) -> tuple[Any, ...]:
    return a.id, a.kind, a.cost, a.available, a.who, a.target, a.params


def test_a_lean_listing_is_what_the_first_adventurer_to_act_can_do() -> None:
    gm = arena([("Plagued Rat", 2)], party=3, surprise="party")  # the party surprised them: everyone is fast
    cs = cs_of(gm)
    assert len(actors(gm, cs)) == 3
    full = gm.legal_actions()
    first = full[0].who
    assert {a.who for a in full} == {f.id for f, _ in actors(gm, cs)}  # everyone's actions, not only the first's
    assert any(not a.available for a in full if a.who == first)
    lean = gm.legal_actions(lean=True)
    assert [_key(a) for a in lean] == [_key(a) for a in full if a.available and a.who == first]


def test_a_copy_applies_a_step_listed_before_it_was_made_and_its_dice_stay_its_own() -> None:
    gm = arena([("Plagued Rat", 2)], party=2, surprise="party")
    listed = gm.legal_actions()
    end = next(a for a in listed if a.kind == "end")
    a, b = gm.fork(Random(5), what_if=True), gm.fork(Random(5), what_if=True)
    b._listed = None  # this one lists again
    assert [e.to_dict() for e in a.apply(end.id)] == [e.to_dict() for e in b.apply(end.id)]
    with pytest.raises(Exception, match="not an action here"):
        gm.fork(Random(5), what_if=True).apply("fly:away")
    # outside a what-if copy a name is looked up afresh: the state may have changed since the listing
    second = gm.c.party[1]
    assert f"end:{second.id}" in {a.id for a in gm.legal_actions()}
    second.adv.character.condition = Condition.DEAD
    with pytest.raises(Exception, match="not an action here"):
        gm.apply(f"end:{second.id}")


def _digest(monkeypatch: pytest.MonkeyPatch | None, seed: int, expeditions: int) -> tuple[list[str], dict[str, int]]:
    seen = {"home": 0, "lean_many": 0}
    events: list[str] = []
    start = interlude.start

    def counting_start(gm: engine.GM, *, returning: bool) -> None:
        seen["home"] += gm.what_if
        start(gm, returning=returning)

    if monkeypatch is not None:  # without the shortcuts: full listings, copies that list again and go on at home
        listing = engine.GM.legal_actions

        def full(self: engine.GM, *, lean: bool = False) -> list[Action]:
            return listing(self)

        def forked(self: engine.GM, campaign: Campaign, rng: Random, what_if: bool) -> engine.GM:
            return Services._forked(self, campaign, rng, False)

        monkeypatch.setattr(engine.GM, "legal_actions", full)
        monkeypatch.setattr(engine.GM, "_forked", forked)
    else:
        listing = engine.GM.legal_actions

        def counting(self: engine.GM, *, lean: bool = False) -> list[Action]:
            cs = self.c.combat
            seen["lean_many"] += bool(lean and cs is not None and len(actors(self, cs)) > 1)
            return listing(self, lean=lean)

        mp = pytest.MonkeyPatch()
        mp.setattr(engine.GM, "legal_actions", counting)
        mp.setattr(interlude, "start", counting_start)
    try:
        run(load_content(), GeneratedDungeons(), seed=seed, expeditions=expeditions,
            on_step=lambda gm, evs: events.extend(json.dumps(e.to_dict(), sort_keys=True, default=str)
                                                   for e in evs))  # fmt: skip
    finally:
        if monkeypatch is None:
            mp.undo()
    return events, seen


@pytest.mark.parametrize(("seed", "shortcut"), [(3, "lean_many"), (6, "home")])
def test_the_shortcuts_play_the_same_campaign_event_for_event(
    monkeypatch: pytest.MonkeyPatch, seed: int, shortcut: str
) -> None:
    """Seed 3 lists many fights lean; seed 6's copies flee home (which seeds do moves whenever the autoplay or the
    generator changes: pick others that take the shortcut)."""
    fast, seen = _digest(None, seed=seed, expeditions=2)
    # the shortcut was taken: lean listings in a fight with several adventurers to act, or copies that fled home
    assert seen[shortcut] > (100 if shortcut == "lean_many" else 0)
    slow, _ = _digest(monkeypatch, seed=seed, expeditions=2)
    assert len(fast) > 100
    assert fast == slow


@pytest.mark.parametrize(
    ("monsters", "party", "surprise"),
    [([("Plagued Rat", 2)], 2, None), ([("Freshly Risen Corpse", 4)], 2, "enemies"), ([("Giant Rat", 3)], 1, None),
     ([("Freshly Risen Corpse", 2)], 3, None)],
)
def test_fight_or_leave_stops_early_with_the_choice_all_the_copies_make(
    monsters: list[tuple[str, int]], party: int, surprise: str | None
) -> None:
    from rules.autoplay import lookahead

    gm = arena(monsters, party=party, surprise=surprise)
    stay = lookahead.play_out(gm, None, "fight", lookahead.PLAN_RUNS)
    go = lookahead.play_out(gm, None, "leave", lookahead.PLAN_RUNS)
    worth = lookahead.WIN_WORTH
    full = "fight" if stay.deaths - worth * stay.won <= go.deaths - worth * go.won else "leave"
    assert lookahead.plan(gm, cs_of(gm)) == full
