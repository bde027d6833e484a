"""Attack notation, parsed from the book's own strings.

``[+|-]ATTR[/ATTR...] [damage][effects] [+ crit[effects]] [, range]``

* the sign before the attribute is advantage (``+``) or disadvantage (``-``)
  on the roll (the attacker's for a weapon, the defender's for an enemy
  attack);
* ``damage`` wounds on a hit, with its effect letters (``1B``: one wound and
  bleeding on any hit);
* ``+ crit`` extra wounds on a critical hit, with their own letters
  (``3+1B``: four wounds and bleeding on a critical);
* an optional range (``DEX 2, Nearby``); weapons usually give it in their
  special rules instead, which :func:`parse_range` reads.

Effect letters (Weapon Effects table): ``B`` bleeding, ``P`` pierces armour,
``R`` can't be reduced except by armour, ``N`` non-lethal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any

from rules.attributes import Attr


class Effect(StrEnum):
    BLEEDING = "B"
    PIERCING = "P"
    UNRESISTABLE = "R"
    NON_LETHAL = "N"

    @property
    def description(self) -> str:
        return _EFFECT_TEXT[self]


_EFFECT_TEXT = {
    Effect.BLEEDING: "Causes the Bleeding affliction.",
    Effect.PIERCING: "Pierces through armour.",
    Effect.UNRESISTABLE: "Can't be reduced, except by armour.",
    Effect.NON_LETHAL: "Non-lethal: ignore any damage that would kill or mortally wound.",
}


class Range(StrEnum):
    """Range bands (Converting distances table); tiles are 1.5 m squares."""

    CLOSE = "Close"
    NEARBY = "Nearby"
    FAR = "Far"
    DISTANT = "Distant"


#: Maximum distance in tiles of each band; Distant is anything beyond Far.
RANGE_TILES: dict[Range, int | None] = {Range.CLOSE: 1, Range.NEARBY: 6, Range.FAR: 12, Range.DISTANT: None}


class Modifier(StrEnum):
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


class NotationError(ValueError):
    """A string that is not valid attack notation."""


@dataclass(frozen=True)
class Attack:
    """A structured attack, from a weapon, a manoeuvre, a spell or a monster."""

    attributes: tuple[Attr, ...]
    modifier: Modifier | None = None
    damage: int = 0
    effects: frozenset[Effect] = field(default_factory=frozenset)
    crit_damage: int = 0
    crit_effects: frozenset[Effect] = field(default_factory=frozenset)
    range: Range = Range.CLOSE
    range_tiles: int | None = None  # an exact range in tiles, when given ("3 tiles")
    source: str = ""

    @property
    def max_tiles(self) -> int | None:
        """Reach in tiles: an exact range if given, else the band's limit (None: unlimited)."""
        return self.range_tiles if self.range_tiles is not None else RANGE_TILES[self.range]

    def wounds(self, critical: bool) -> int:
        return self.damage + (self.crit_damage if critical else 0)

    def effects_on(self, critical: bool) -> frozenset[Effect]:
        return self.effects | self.crit_effects if critical else self.effects

    def with_range(self, band: Range | None = None, tiles: int | None = None) -> Attack:
        from dataclasses import replace

        return replace(self, range=band or self.range, range_tiles=tiles if tiles is not None else self.range_tiles)

    def to_dict(self) -> dict[str, Any]:
        return {
            "notation": self.source,
            "attributes": [a.value for a in self.attributes],
            "modifier": self.modifier.value if self.modifier else None,
            "damage": self.damage,
            "effects": sorted(e.value for e in self.effects),
            "crit_damage": self.crit_damage,
            "crit_effects": sorted(e.value for e in self.crit_effects),
            "range": self.range.value,
            "range_tiles": self.max_tiles,
        }

    def __str__(self) -> str:
        sign = {Modifier.ADVANTAGE: "+", Modifier.DISADVANTAGE: "-", None: ""}[self.modifier]
        out = sign + "/".join(a.value for a in self.attributes)
        eff = "".join(e.value for e in Effect if e in self.effects)
        ceff = "".join(e.value for e in Effect if e in self.crit_effects)
        out += f" {self.damage}{eff}"
        if self.crit_damage or ceff:
            out += f"+{self.crit_damage}{ceff}"
        return out


_ATTR = r"(?:STR|DEX|INT|PRE|PER)"
_NOTATION = re.compile(
    rf"""^\s*
    (?P<sign>[+-])?\s*
    (?P<attrs>{_ATTR}(?:\s*/\s*{_ATTR})*)
    (?:\s+(?P<dmg>\d+)\s*(?P<eff>[BPRN]*))?
    (?:\s*\+\s*(?P<crit>\d+)\s*(?P<ceff>[BPRN]*))?
    (?:\s*,?\s*(?P<range>.+?))?
    \s*$""",
    re.VERBOSE | re.IGNORECASE,
)

_RANGE_WORDS = {r.value.lower(): r for r in Range}
_TILES = re.compile(r"^(\d+)\s*tiles?$", re.IGNORECASE)


def parse_range(text: str) -> tuple[Range, int | None]:
    """``Nearby`` -> (NEARBY, None); ``3 tiles`` -> (band containing 3, 3)."""
    t = text.strip().strip("*").strip().rstrip(".").strip()
    band = _RANGE_WORDS.get(t.lower())
    if band is not None:
        return band, None
    m = _TILES.match(t)
    if m:
        tiles = int(m[1])
        for candidate, limit in RANGE_TILES.items():
            if limit is None or tiles <= limit:
                return candidate, tiles
    raise NotationError(f"not a range: {text!r} (expected Close, Nearby, Far, Distant or 'N tiles')")


def find_range(text: str) -> tuple[Range, int | None] | None:
    """The first range named in a rules sentence (``"Nearby. 2 hands."``), if any."""
    m = re.search(r"\b(\d+)\s*tiles?\b", text, re.IGNORECASE)
    if m:
        return parse_range(m[0])
    for word, band in _RANGE_WORDS.items():
        if word == "close":
            continue  # "close" in prose is too common; Close is the default anyway
        if re.search(rf"\b{word}\b", text, re.IGNORECASE):
            return band, None
    return None


@lru_cache(maxsize=1024)
def parse_attack(text: str) -> Attack:
    """Parse attack notation such as ``-STR 2+2B`` or ``STR/INT/DEX 2P``.

    Raises :class:`NotationError` with the offending string on anything else.  Cached: the same few dozen
    notations are read for every adventurer's every listing in a fight (a fifth of the fight's time), and an
    :class:`Attack` is frozen.
    """
    m = _NOTATION.match(text)
    if not m:
        raise NotationError(f"not attack notation: {text!r} (expected e.g. 'STR 3+1B' or '-DEX 2R+1')")
    attrs = tuple(dict.fromkeys(Attr.parse(a) for a in re.split(r"\s*/\s*", m["attrs"])))
    sign = m["sign"]
    modifier = Modifier.ADVANTAGE if sign == "+" else Modifier.DISADVANTAGE if sign == "-" else None
    if m["dmg"] is None and m["crit"] is not None:
        raise NotationError(f"critical damage without base damage: {text!r}")
    band, tiles = Range.CLOSE, None
    if m["range"]:
        band, tiles = parse_range(m["range"])
    return Attack(
        attributes=attrs,
        modifier=modifier,
        damage=int(m["dmg"] or 0),
        effects=frozenset(Effect(c) for c in (m["eff"] or "").upper()),
        crit_damage=int(m["crit"] or 0),
        crit_effects=frozenset(Effect(c) for c in (m["ceff"] or "").upper()),
        range=band,
        range_tiles=tiles,
        source=text.strip(),
    )
