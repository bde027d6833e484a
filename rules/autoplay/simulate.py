"""Headless play: the autoplay policy runs a campaign for N expeditions and reports statistics."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.autoplay import suggest
from rules.content.registry import Content
from rules.gm.campaign import new_campaign
from rules.gm.engine import GM
from rules.gm.events import Event
from rules.gm.site import DungeonMaker
from rules.gm.state import Campaign, Phase

MAX_STEPS_PER_EXPEDITION = 4000  # a safety net: no real expedition comes near it

#: Called after every step with the GM and the step's events (saves hook in here).
OnStep = Callable[[GM, list[Event]], None]


def run(
    content: Content,
    maker: DungeonMaker,
    *,
    seed: int,
    expeditions: int,
    party: int = 3,
    campaign: Campaign | None = None,
    on_step: OnStep | None = None,
) -> tuple[GM, dict[str, Any]]:
    """Play until ``expeditions`` more expeditions have ended (back in a settlement) or the campaign is over."""
    c = campaign or new_campaign(content, maker, seed, party)
    gm = GM(c, content, maker)
    target = c.stats.expeditions + expeditions
    budget = MAX_STEPS_PER_EXPEDITION * max(1, expeditions)
    steps = 0
    while c.phase is not Phase.OVER and steps < budget:
        if c.stats.expeditions >= target and c.phase is Phase.INTERLUDE and c.expedition is None:
            break
        action = suggest(gm, lean=True)
        if action is None:
            break
        events = gm.apply(action)
        steps += 1
        if on_step is not None:
            on_step(gm, events)
    return gm, report(c)


def report(c: Campaign) -> dict[str, Any]:
    s = c.stats
    return {
        "seed": c.seed,
        "expeditions": s.expeditions,
        "turns": s.turns,
        "decay_rolls": s.decay_rolls,
        "doom_events": s.doom_events,
        "doom_maxed": s.doom_maxed,
        "omens_triggered": s.omens_triggered,
        "combats": s.combats,
        "combat_rounds": s.combat_rounds,
        "camps": s.camps,
        "ambushes": s.ambushes,
        "interlude_days": s.interlude_days,
        "deaths": s.deaths,
        "retired": s.retired,
        "recruited": s.recruited,
        "silver_earned": s.silver_earned,
        "silver": c.silver,
        "goal_silver": c.goal_silver,
        "day": c.day,
        "party": [m.name for m in c.party],
        "fallen": [m.name for m in c.fallen],
        "steps": s.steps,
        "outcome": c.outcome or ("in progress" if c.phase is not Phase.OVER else "over"),
    }
