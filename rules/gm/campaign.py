"""A new campaign: the party, the island, the first morning in a settlement."""

from __future__ import annotations

from random import Random

from rules.content.registry import Content
from rules.creation import Adventurer, random_adventurer
from rules.gm.site import DungeonMaker
from rules.gm.state import Campaign, Member, Phase, SettlementState, rng_state
from rules.trackers import OmensTracker

#: Silver per adventurer the party must save to buy passage off Blacksalt (RULINGS.md: the campaign goal).
PASSAGE_PER_ADVENTURER = 200
DEFAULT_SETTLEMENT = "Yoros"  # the port where newcomers land (RULINGS.md)


def new_campaign(
    content: Content,
    maker: DungeonMaker,
    seed: int,
    party_size: int = 3,
    *,
    settlement: str | None = None,
    adventurers: list[Adventurer] | None = None,
) -> Campaign:
    """A campaign ready to play: ``party_size`` random adventurers (or the ones given), in a settlement."""
    if not 1 <= party_size <= 4:
        raise ValueError(f"a party has 1 to 4 adventurers, not {party_size}")
    rng = Random(seed)
    names = {s.name: s.size for s in content.blacksalt.settlements}
    where = settlement or DEFAULT_SETTLEMENT
    if where not in names:
        raise ValueError(f"unknown settlement {where!r}; choose one of {', '.join(names)}")
    party_advs = list(adventurers) if adventurers else []
    taken = {a.name for a in party_advs}
    while len(party_advs) < party_size:
        from rules.names import random_name

        adv = random_adventurer(content, rng, name=random_name(content, rng, avoid=taken))
        taken.add(adv.name)
        party_advs.append(adv)
    omens = OmensTracker.new(rng, content.tables.omens_tracker_size)
    c = Campaign(
        seed=seed,
        rng=[],
        phase=Phase.INTERLUDE,
        day=1,
        party=[],
        settlement=where,
        omens=omens,
        goal_silver=PASSAGE_PER_ADVENTURER * len(party_advs),
        settlements={n: SettlementState(name=n, size=size) for n, size in names.items()},
    )
    for adv in party_advs:
        c.party.append(Member(id=c.new_id("a"), adv=adv, joined_day=1))
    c.settings["party_size"] = len(party_advs)
    c.rng = rng_state(rng)
    return c
