"""Names fit for Blacksalt, from ``names.toml`` (given names, surnames, epithets, weighted patterns)."""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.content.registry import Content


def random_name(content: Content, rng: Random, *, avoid: set[str] | None = None) -> str:
    """A name such as "Hedda Crane" or "Osk the Unburied"; ``avoid`` skips names already in the party."""
    names = content.names
    patterns = names.patterns
    taken = {a.casefold() for a in (avoid or set())}
    name = ""
    for _ in range(20):
        pattern = rng.choices([p.pattern for p in patterns], weights=[p.weight for p in patterns])[0]
        name = pattern.format(
            given=rng.choice(names.given_names),
            surname=rng.choice(names.surnames),
            epithet=rng.choice(names.epithets),
        )
        if name.casefold() not in taken:
            break
    return name
