"""Settlements: what their doom allows, what the market has, what things cost.

* Shopping availability by size: common items in a Fief roll 4d! and are in
  stock when the risk dice trigger; "always" and "unavailable" need no roll.
* Prices: the rarity's formula (common 1d6, uncommon 2 + 2d6, valuable
  3 × 2d6, rare 5 × 3d6, exotic 10 × 4d6) plus the settlement doom's
  increase; a rolled price holds until the next interlude.
* Settlement doom: the default 7-step track; the state at a step is
  cumulative and stored whole in ``blacksalt.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING

from rules.dice import DiceExpr, roll_risk

if TYPE_CHECKING:
    from rules.content.registry import Content
    from rules.content.schema_blacksalt import DoomStep, Shopping

RARITIES = ("free", "common", "uncommon", "valuable", "rare", "exotic")


def doom_state(content: Content, doom: int) -> DoomStep | None:
    """The settlement doom effects in force at ``doom`` (None below the first step)."""
    steps = [s for s in content.blacksalt.settlement_doom if s.step <= doom]
    return steps[-1] if steps else None


@dataclass(frozen=True)
class Availability:
    rarity: str
    available: bool
    dice: int | None  # risk dice rolled (None: no roll needed)
    faces: tuple[int, ...] = ()
    reason: str = ""


def availability_chance(content: Content, size: int, rarity: str, doom: int = 0) -> float:
    """The exact chance an item of ``rarity`` is in stock (for the UI, before rolling)."""
    if rarity == "free":
        return 1.0
    state = doom_state(content, doom)
    if state is not None and (state.no_shopping or _above(rarity, state.max_rarity)):
        return 0.0
    rule = _shop(content, size).availability(rarity)
    if rule == "always":
        return 1.0
    if rule == "unavailable":
        return 0.0
    return 1.0 - (5 / 6) ** int(rule)


def roll_availability(rng: Random, content: Content, size: int, rarity: str, doom: int = 0) -> Availability:
    if rarity == "free":
        return Availability(rarity, True, None, reason="free")
    state = doom_state(content, doom)
    if state is not None and state.no_shopping:
        return Availability(rarity, False, None, reason=f"doom {state.step}: {state.text}")
    if state is not None and _above(rarity, state.max_rarity):
        return Availability(rarity, False, None, reason=f"doom {state.step}: {state.text}")
    rule = _shop(content, size).availability(rarity)
    if rule == "always":
        return Availability(rarity, True, None, reason="always in stock here")
    if rule == "unavailable":
        return Availability(rarity, False, None, reason=f"no {rarity} items in a settlement of size {size}")
    risk = roll_risk(rng, int(rule))
    return Availability(rarity, risk.triggered, int(rule), risk.faces, f"{int(rule)}d!")


def roll_price(rng: Random, content: Content, rarity: str, doom: int = 0) -> int:
    """A rolled price in silver, with the settlement doom's increase (free stays free)."""
    entry = next(r for r in content.items.rarities if r.name == rarity)
    base = DiceExpr.parse(entry.price).roll(rng) if isinstance(entry.price, str) else int(entry.price)
    if base == 0:
        return 0
    state = doom_state(content, doom)
    return base + (state.price_increase if state else 0)


def _shop(content: Content, size: int) -> Shopping:
    for s in content.blacksalt.shopping:
        if s.size == size:
            return s
    raise ValueError(f"settlement sizes are 1..5, not {size}")


def _above(rarity: str, cap: str | None) -> bool:
    return cap is not None and RARITIES.index(rarity) > RARITIES.index(cap)
