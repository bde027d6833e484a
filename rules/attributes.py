"""The four attributes of an adventurer."""

from __future__ import annotations

from enum import StrEnum


class Attr(StrEnum):
    """An attribute code as the book writes it."""

    STR = "STR"
    DEX = "DEX"
    INT = "INT"
    PRE = "PRE"

    @property
    def long_name(self) -> str:
        return _LONG[self]

    @classmethod
    def parse(cls, text: str) -> Attr:
        """Parse ``STR``/``strength``/... (case-insensitive; the book's ``PER`` typo is ``PRE``)."""
        key = text.strip().upper()
        key = _ALIASES.get(key, key)
        try:
            return cls(key)
        except ValueError:
            raise ValueError(f"unknown attribute {text!r} (expected STR, DEX, INT or PRE)") from None


_LONG = {Attr.STR: "Strength", Attr.DEX: "Dexterity", Attr.INT: "Intelligence", Attr.PRE: "Presence"}
_ALIASES = {
    "STRENGTH": "STR",
    "DEXTERITY": "DEX",
    "INTELLIGENCE": "INT",
    "PRESENCE": "PRE",
    "PER": "PRE",  # "The cries of many (-PER 1)": a typo for PRE, see RULINGS.md
}

ATTRS: tuple[Attr, ...] = (Attr.STR, Attr.DEX, Attr.INT, Attr.PRE)
