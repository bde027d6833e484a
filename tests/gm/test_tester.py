"""The player may choose who makes a step's test (GM.apply(..., tester=...)); the GM's pick otherwise."""

from __future__ import annotations

from rules.gm import exploration
from rules.gm.engine import GM
from tests.gm.scripted import corridor, game


def who_tested(events: list[object]) -> list[str]:
    return [e.data["who"] for e in events if e.kind == "test"]  # type: ignore[attr-defined]


def entered(seed: int = 1) -> GM:
    gm = game(corridor(), seed=seed, party=3)
    exploration.enter(gm, "test-site")
    return gm


def test_the_chosen_adventurer_searches() -> None:
    for who in ("a1", "a2", "a3"):
        gm = entered()
        assert who_tested(gm.apply("search", tester=who)) == [who]
        assert gm.tester is None  # used for the one step only


def test_without_a_choice_the_gm_picks_the_most_dice() -> None:
    gm = entered()
    picked = who_tested(gm.apply("search"))
    from rules.attributes import Attr
    from rules.gm.services import best

    other = entered()
    assert picked == [best(other, Attr.INT).id]


def test_a_chosen_adventurer_who_cannot_act_is_not_sent() -> None:
    gm = entered()
    from rules.character import Condition

    gm.c.party[2].adv.character.condition = Condition.COLLAPSED
    assert who_tested(gm.apply("search", tester="a3")) != ["a3"]
