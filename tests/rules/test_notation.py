"""Attack notation and range bands, from the book's own strings."""

from __future__ import annotations

import pytest

from rules.attributes import Attr
from rules.notation import (
    RANGE_TILES,
    Attack,
    Effect,
    Modifier,
    NotationError,
    Range,
    find_range,
    parse_attack,
    parse_range,
)

B, P, R, N = Effect.BLEEDING, Effect.PIERCING, Effect.UNRESISTABLE, Effect.NON_LETHAL
STR, DEX, INT, PRE = Attr.STR, Attr.DEX, Attr.INT, Attr.PRE
ADV, DIS = Modifier.ADVANTAGE, Modifier.DISADVANTAGE

# text -> (attributes, modifier, damage, effects, crit damage, crit effects, range, tiles)
EXAMPLES: dict[str, tuple[tuple[Attr, ...], Modifier | None, int, set[Effect], int, set[Effect], Range, int | None]] = {
    "STR 2": ((STR,), None, 2, set(), 0, set(), Range.CLOSE, 1),
    "STR 3+1B": ((STR,), None, 3, set(), 1, {B}, Range.CLOSE, 1),
    "STR 1 + 3P": ((STR,), None, 1, set(), 3, {P}, Range.CLOSE, 1),
    "DEX 1R + 2B": ((DEX,), None, 1, {R}, 2, {B}, Range.CLOSE, 1),
    "-STR 2+2B": ((STR,), DIS, 2, set(), 2, {B}, Range.CLOSE, 1),
    "STR/DEX 3": ((STR, DEX), None, 3, set(), 0, set(), Range.CLOSE, 1),
    "STR/INT/DEX 2P": ((STR, INT, DEX), None, 2, {P}, 0, set(), Range.CLOSE, 1),
    "-INT": ((INT,), DIS, 0, set(), 0, set(), Range.CLOSE, 1),
    "INT 0": ((INT,), None, 0, set(), 0, set(), Range.CLOSE, 1),
    "PRE 1N": ((PRE,), None, 1, {N}, 0, set(), Range.CLOSE, 1),
    "DEX 2, Nearby": ((DEX,), None, 2, set(), 0, set(), Range.NEARBY, 6),
    "-PER 1": ((PRE,), DIS, 1, set(), 0, set(), Range.CLOSE, 1),
    "STR 2P + 3": ((STR,), None, 2, {P}, 3, set(), Range.CLOSE, 1),
    "DEX 3P+1R": ((DEX,), None, 3, {P}, 1, {R}, Range.CLOSE, 1),
    "DEX 2PR": ((DEX,), None, 2, {P, R}, 0, set(), Range.CLOSE, 1),
    "+DEX 1": ((DEX,), ADV, 1, set(), 0, set(), Range.CLOSE, 1),
    "DEX 1+1, Far": ((DEX,), None, 1, set(), 1, set(), Range.FAR, 12),
    "DEX 1, Distant": ((DEX,), None, 1, set(), 0, set(), Range.DISTANT, None),
    "DEX 1, 3 tiles": ((DEX,), None, 1, set(), 0, set(), Range.NEARBY, 3),
    "str 2b": ((STR,), None, 2, {B}, 0, set(), Range.CLOSE, 1),
}


@pytest.mark.parametrize("text", list(EXAMPLES))
def test_book_examples(text: str) -> None:
    attrs, mod, dmg, eff, crit, ceff, band, tiles = EXAMPLES[text]
    a = parse_attack(text)
    assert a.attributes == attrs
    assert a.modifier == mod
    assert a.damage == dmg
    assert a.effects == frozenset(eff)
    assert a.crit_damage == crit
    assert a.crit_effects == frozenset(ceff)
    assert a.range == band
    assert a.max_tiles == tiles
    assert a.source == text.strip()


def test_wounds_and_effects_on_critical() -> None:
    a = parse_attack("STR 3+1B")
    assert a.wounds(critical=False) == 3
    assert a.wounds(critical=True) == 4
    assert a.effects_on(critical=False) == frozenset()
    assert a.effects_on(critical=True) == {B}
    b = parse_attack("DEX 1R + 2B")
    assert b.wounds(False) == 1 and b.wounds(True) == 3
    assert b.effects_on(False) == {R}
    assert b.effects_on(True) == {R, B}


def test_effects_on_the_base_damage_are_not_critical_only() -> None:
    # "1B": bleeding on any hit; "3+1B": bleeding only on a critical
    assert B in parse_attack("DEX 1B").effects_on(critical=False)
    assert B not in parse_attack("STR 3+1B").effects_on(critical=False)


def test_duplicate_attributes_collapse_in_order() -> None:
    assert parse_attack("DEX/STR/DEX 1").attributes == (DEX, STR)


def test_per_is_presence() -> None:
    assert parse_attack("-PER 1").attributes == (PRE,)
    assert Attr.parse("per") is PRE
    assert Attr.parse("Presence") is PRE


def test_to_dict() -> None:
    d = parse_attack("-STR 2+2B").to_dict()
    assert d == {
        "notation": "-STR 2+2B",
        "attributes": ["STR"],
        "modifier": "disadvantage",
        "damage": 2,
        "effects": [],
        "crit_damage": 2,
        "crit_effects": ["B"],
        "range": "Close",
        "range_tiles": 1,
    }
    assert parse_attack("DEX 2PR, Distant").to_dict()["range_tiles"] is None
    assert parse_attack("DEX 2PR, Distant").to_dict()["effects"] == ["P", "R"]


@pytest.mark.parametrize("text", [t for t in EXAMPLES if "," not in t])
def test_str_round_trips(text: str) -> None:
    a = parse_attack(text)
    b = parse_attack(str(a))
    assert (b.attributes, b.modifier, b.damage, b.effects, b.crit_damage, b.crit_effects) == (
        a.attributes,
        a.modifier,
        a.damage,
        a.effects,
        a.crit_damage,
        a.crit_effects,
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "2",
        "FOO 2",
        "STR 2, Nowhere",
        "STR 2Q",
        "STR2",
        "STR +2",
        "STR 1d6",
        "STR 2 + 3 + 4",
        "STR 2,",
        "*STR 2",
        "STR/ 2",
        "/STR 2",
        "STR 2 + B",
        "STRENGTH 2",
        "--STR 2",
        "+-STR 2",
        "STR -2",
    ],
)
def test_garbage_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_attack(text)


def test_notation_error_is_a_value_error_naming_the_text() -> None:
    with pytest.raises(ValueError, match="FOO 2"):
        parse_attack("FOO 2")


# --- ranges -------------------------------------------------------------------------------------


def test_range_bands_in_tiles() -> None:
    assert RANGE_TILES == {Range.CLOSE: 1, Range.NEARBY: 6, Range.FAR: 12, Range.DISTANT: None}


@pytest.mark.parametrize(
    ("text", "band", "tiles"),
    [
        ("Close", Range.CLOSE, None),
        ("nearby", Range.NEARBY, None),
        (" Far. ", Range.FAR, None),
        ("*Distant*", Range.DISTANT, None),
        ("1 tile", Range.CLOSE, 1),
        ("2 tiles", Range.NEARBY, 2),
        ("6 tiles", Range.NEARBY, 6),
        ("7 tiles", Range.FAR, 7),
        ("12 tiles", Range.FAR, 12),
        ("13 tiles", Range.DISTANT, 13),
        ("40tiles", Range.DISTANT, 40),
    ],
)
def test_parse_range(text: str, band: Range, tiles: int | None) -> None:
    assert parse_range(text) == (band, tiles)


@pytest.mark.parametrize("bad", ["", "here", "two tiles", "3 meters", "Nearby-ish", "tiles"])
def test_parse_range_rejects(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_range(bad)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nearby. 2 hands.", (Range.NEARBY, None)),
        ("Far. Reload 1 action.", (Range.FAR, None)),
        ("Hits anything Distant.", (Range.DISTANT, None)),
        ("Range 3 tiles, 2 hands.", (Range.NEARBY, 3)),
        ("2 hands.", None),
        ("Stay close to the light.", None),  # "close" in prose is not a range
        ("", None),
        ("Nearbyish", None),
    ],
)
def test_find_range(text: str, expected: tuple[Range, int | None] | None) -> None:
    assert find_range(text) == expected


def test_with_range_and_max_tiles() -> None:
    a = parse_attack("DEX 1+1")
    assert a.max_tiles == 1
    b = a.with_range(Range.NEARBY)
    assert (b.range, b.max_tiles) == (Range.NEARBY, 6)
    c = a.with_range(Range.NEARBY, 3)
    assert (c.range, c.max_tiles) == (Range.NEARBY, 3)
    assert c.with_range().max_tiles == 3
    assert a.range == Range.CLOSE  # frozen: with_range copies
    assert Attack(attributes=(DEX,), range=Range.DISTANT).max_tiles is None


def test_effect_descriptions() -> None:
    for e in Effect:
        assert e.description
