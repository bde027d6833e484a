"""Thousands of random legal actions: no exception, no broken invariant, saves that round-trip."""

from __future__ import annotations

from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dungeon_gen.site import GeneratedDungeons
from rules.character import Condition
from rules.content.registry import load_content
from rules.gm.campaign import new_campaign
from rules.gm.engine import GM
from rules.gm.state import Campaign, Phase

CONTENT = load_content()
MAKER = GeneratedDungeons()


def check(gm: GM) -> None:
    c = gm.c
    if c.phase is Phase.OVER:
        assert c.outcome
        return
    assert (c.expedition is not None) == (c.phase in (Phase.EXPLORATION, Phase.COMBAT, Phase.CAMP))
    assert (c.combat is not None) == (c.phase is Phase.COMBAT)
    assert (c.camp is not None) == (c.phase is Phase.CAMP)
    assert c.party, "a campaign with no one left is over"
    for m in c.party:
        ch = m.adv.character
        ch.check_invariants()
        assert ch.condition is not Condition.DEAD, f"{m.name} is dead but still in the party"
    for m in c.fallen:
        assert m.adv.character.condition is Condition.DEAD
    actions = gm.legal_actions()
    ids = [a.id for a in actions]
    assert len(ids) == len(set(ids)), "action ids repeat"
    for a in actions:
        assert a.available or a.reason, f"{a.id} is unavailable without a reason"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), picks=st.integers(0, 2**31), party=st.integers(1, 4))
def test_random_legal_actions_keep_every_invariant(seed: int, picks: int, party: int) -> None:
    gm = GM(new_campaign(CONTENT, MAKER, seed, party), CONTENT, MAKER)
    chooser = Random(picks)
    for step in range(250):
        if gm.c.phase is Phase.OVER:
            break
        available = [a for a in gm.legal_actions() if a.available]
        assert available, f"no available action in phase {gm.c.phase.value}"
        gm.apply(chooser.choice(available))
        check(gm)
        if step % 50 == 0:
            assert Campaign.from_dict(gm.c.to_dict()) == gm.c


def test_same_seed_and_choices_same_game() -> None:
    def play(seed: int) -> dict[str, object]:
        gm = GM(new_campaign(CONTENT, MAKER, seed, 3), CONTENT, MAKER)
        chooser = Random(seed)
        for _ in range(200):
            if gm.c.phase is Phase.OVER:
                break
            gm.apply(chooser.choice([a for a in gm.legal_actions() if a.available]))
        return gm.c.to_dict()

    assert play(11) == play(11)
