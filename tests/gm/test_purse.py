"""The party's purse (R183): silver changes hands freely in a settlement, and the autoplay pools it to shop."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.autoplay import interlude_policy
from rules.checks import RuleError
from rules.gm import purse
from rules.gm.engine import GM
from tests.gm.test_interlude import begin, game, give, ids


def silver(gm: GM) -> list[int]:
    return [m.adv.character.silver for m in gm.c.party]


def set_silver(gm: GM, *amounts: int) -> None:
    for m, s in zip(gm.c.party, amounts, strict=True):
        m.adv.character.silver = s


def test_pooling_hands_everyone_s_silver_to_one_adventurer_and_spends_no_day_action() -> None:
    gm = game(party=3)
    begin(gm)
    set_silver(gm, 5, 2, 7)
    b = gm.c.party[1]
    action = ids(gm)[f"pool:{b.id}"]
    assert action.available and action.cost.silver == 0 and "14 in all" in action.label
    events = gm.apply(f"pool:{b.id}")
    assert silver(gm) == [0, 14, 0]
    assert any(e.kind == "purse" and "14 silver" in e.text for e in events)
    st = gm.c.interlude
    assert st is not None and st.step == "actions" and not any(st.plans.values())  # no one's day is spent
    assert ids(gm)[f"shop:{b.id}"].available


def test_sharing_splits_evenly_and_the_odd_coins_stay_with_the_richest() -> None:
    gm = game(party=3)
    begin(gm)
    set_silver(gm, 10, 0, 1)
    gm.apply("share")
    assert silver(gm) == [4, 3, 4] or silver(gm) == [4, 4, 3]
    assert sum(silver(gm)) == 11
    assert silver(gm)[0] == 4  # the richest keeps an odd coin
    share = ids(gm)["share"]
    assert not share.available and share.reason == "The silver is already shared evenly."


def test_nothing_to_hand_over_is_unavailable_with_the_reason() -> None:
    gm = game(party=2)
    begin(gm)
    set_silver(gm, 9, 0)
    a, b = gm.c.party
    assert not ids(gm)[f"pool:{a.id}"].available
    assert ids(gm)[f"pool:{a.id}"].reason == "No one else has any silver to hand over."
    assert ids(gm)[f"pool:{b.id}"].available
    with pytest.raises(RuleError):
        gm.apply(f"pool:{a.id}")


def test_a_lone_adventurer_has_no_purse_to_share() -> None:
    gm = game(party=1)
    begin(gm)
    assert not [a for a in gm.legal_actions() if a.kind == purse.KIND]


def test_the_purse_is_offered_at_the_market_and_at_nightfall_too() -> None:
    gm = game(party=2)
    begin(gm)
    set_silver(gm, 9, 1)
    a = gm.c.party[0]
    gm.apply(f"shop:{a.id}")
    gm.apply("resolve")
    st = gm.c.interlude
    assert st is not None and st.step == "market"
    assert ids(gm)[f"pool:{a.id}"].available
    gm.apply(f"pool:{a.id}")
    assert silver(gm) == [10, 0]
    gm.apply("done")
    assert st.step == "sleep"
    gm.apply("share")
    assert silver(gm) == [5, 5]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=500), min_size=2, max_size=4))
def test_sharing_never_makes_or_loses_a_coin(amounts: list[int]) -> None:
    class M:
        def __init__(self, i: int, s: int) -> None:
            self.id = f"m{i}"
            self.adv = type("A", (), {"character": type("C", (), {"silver": s})()})()

    members = [M(i, s) for i, s in enumerate(amounts)]
    even = purse.shares(sum(amounts), members)  # type: ignore[arg-type]
    assert sum(even.values()) == sum(amounts)
    assert max(even.values()) - min(even.values()) <= 1
    richest = max(range(len(amounts)), key=lambda i: (amounts[i], -i))
    assert even[f"m{richest}"] == max(even.values())


def test_the_autoplay_pools_the_silver_to_buy_a_light_no_one_could_afford_alone() -> None:
    gm = game(party=3)
    begin(gm)
    set_silver(gm, 2, 2, 2)  # alone, each keeps the inn's price and a coin: nothing left for a torch
    for m in gm.c.party:
        give(m, "Ration", 2)
    assert interlude_policy.short_of_essentials(gm)  # no light
    first = interlude_policy.suggest(gm, gm.legal_actions())
    while first.kind == "water":  # canteens are filled first (free, R185)
        gm.apply(first.id)
        first = interlude_policy.suggest(gm, gm.legal_actions())
    assert first.kind == purse.KIND and first.param("how") == "pool"
    gm.apply(first.id)
    assert sorted(silver(gm)) == [0, 0, 6]
    st = gm.c.interlude
    assert st is not None
    while True:  # everyone announces the day's action
        pick = interlude_policy.suggest(gm, gm.legal_actions())
        if pick.id == "resolve":
            break
        assert pick.kind != purse.KIND  # pooled once, not again
        gm.apply(pick.id)
    assert st.plans[first.who or ""] == ["shop"]


def test_the_autoplay_shares_before_bed_so_everyone_can_pay_for_one() -> None:
    gm = game(party=2)
    begin(gm)
    for m in gm.c.party:
        give(m, "Ration", 3)
        give(m, "Torches", 2)
    set_silver(gm, 12, 0)
    gm.apply("resolve")
    st = gm.c.interlude
    assert st is not None and st.step == "sleep"
    gm.c.jobs = []  # no job to set out for this evening (R224): the party stays the night
    pick = interlude_policy.suggest(gm, gm.legal_actions())
    assert pick.id == "share"
