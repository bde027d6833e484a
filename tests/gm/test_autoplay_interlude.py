"""The autoplay in a settlement (#14): a light before a bed, and a broke party's road."""

from __future__ import annotations

from rules.autoplay import interlude_policy as ip
from rules.gm import interlude
from rules.gm.events import Action
from rules.gm.state import Job, LocationState
from tests.gm.test_interlude import begin, feed, game


def _at_market(silver: int) -> tuple[object, object]:
    gm = game(seed=3, party=2, where="Trinta")
    feed(gm, 2)
    begin(gm)
    m = gm.c.party[0]
    m.adv.character.silver = 10
    gm.apply(f"shop:{m.id}")
    gm.apply("resolve")
    assert gm.c.interlude is not None and gm.c.interlude.step == "market"
    for o in gm.c.party:
        o.adv.character.silver = 0
    m.adv.character.silver = silver
    return gm, m


def test_the_last_silver_buys_a_torch_not_a_bed() -> None:
    """19% of the expeditions set out without a light: the shopper kept the price of a bed (the light budget)."""
    gm, _ = _at_market(1)
    assert interlude.inn_cost(gm) == 1 and not ip._has_light(gm)  # type: ignore[arg-type]
    acts = [a for a in gm.legal_actions() if a.available]  # type: ignore[attr-defined]
    pick = ip.suggest(gm, acts)  # type: ignore[arg-type]
    assert pick.id in ("buy:Torches", "buy_for:Torches:a2") and pick.cost.silver == 1


def test_a_party_without_food_for_the_road_takes_the_nearest_job_and_no_trip_for_food() -> None:
    gm = game(seed=3, party=2, where="Trinta")
    far = Job("far", "The Far Crypt", "necromancer_tomb", 1, 60, 1, "", 3)
    near = Job("near", "The Near Cave", "goblin_warren", 3, 50, 1, "", 1)
    gm.c.jobs = [far, near]
    for j in (far, near):
        gm.c.locations[j.location] = LocationState(id=j.location, title=j.title, theme=j.theme, level=j.level,
                                                   bounty=j.bounty, depths=1, data=j.location)  # fmt: skip
    jobs = [Action(f"expedition:{j.location}", "expedition", j.title, target=j.location) for j in (far, near)]
    feed(gm, 3)  # three rations each: the three days' road to the crypt
    assert ip._best_job(gm, jobs) is jobs[0]  # fed: the job of its level, though further
    for m in gm.c.party:
        m.adv.inventory.items = [i for i in m.adv.inventory.items if i.name != "Ration"]
    assert ip._best_job(gm, jobs) is jobs[1]  # unfed: the nearest
    for m in gm.c.party:
        m.adv.character.afflictions.add("hungry")
        m.adv.character.silver = 1
    assert ip._food_town(gm) is None  # broke: no trip to a better market it cannot pay in
