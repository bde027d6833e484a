"""Templates with parts drawn anew (issue #15): ``[a|b|c]`` alternatives and ``{@bank}`` phrases."""

from __future__ import annotations

from random import Random

import pytest
from pydantic import ValidationError

from dungeon_gen.story import PHRASES, fill
from dungeon_gen.themes import FeatureTemplate


def test_alternatives_and_phrases_are_drawn_from_the_rng() -> None:
    values = {"room": "ossuary", PHRASES: {"smell": ("wet ash", "old incense", "lamp oil", "rot")}}
    texts = {fill("The {room} [smells|reeks] of {@smell}.", values, Random(i)) for i in range(60)}
    assert len(texts) == 8
    assert all(t.startswith("The ossuary ") and t.endswith(".") for t in texts)
    # the same RNG state gives the same text
    assert fill("[a|b|c] {@smell}", values, Random(3)) == fill("[a|b|c] {@smell}", values, Random(3))


def test_a_part_that_opens_a_sentence_is_capitalised_and_an_empty_one_leaves_no_gap() -> None:
    for i in range(20):
        text = fill("Dust. [a cold draught|the smell of rot] stirs [|faintly ]here.", {}, Random(i))
        assert text.split(". ")[1][0].isupper(), text
        assert "  " not in text and " ." not in text


def test_malformed_parts_are_refused() -> None:
    for bad in ("a [b|c", "a b|c]", "[a|[b|c]]", "[only one]", "a | b", "{@Bad-name}"):
        with pytest.raises(ValidationError):
            FeatureTemplate(name="Thing", text=bad)
    with pytest.raises(ValidationError):
        FeatureTemplate(name="Thing [a|b]", text="fine")
