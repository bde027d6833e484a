"""The seed catalogue: each entry must reproduce its dungeon byte for byte.

A change that alters generated dungeons (layout, contents, themes) fails here
on purpose.  When the change is intended, regenerate the catalogue with
``BLACKSALT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/dungeon_gen/test_golden.py``
and say why in the commit: GMs share seeds, and a seed that changes its
dungeon breaks their prep.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from dungeon_gen.generate import generate

CATALOGUE = Path(__file__).with_name("golden_seeds.json")
SEEDS: list[dict[str, object]] = [
    {"seed": 1, "theme": "necromancer_tomb", "rooms": 12, "depth": 1, "level": 1},
    {"seed": 2024, "theme": "necromancer_tomb", "rooms": 30, "depth": 3, "level": 3},
    {"seed": 7, "theme": "goblin_warren", "rooms": 18, "depth": 2, "level": 2},
    {"seed": 42, "theme": "flooded_cellar", "rooms": 10, "depth": 1, "level": 4},
    {"seed": 99, "theme": "plague_chapel", "rooms": 24, "depth": 2, "level": 5},
    {"seed": 31337, "theme": "demon_vault", "rooms": 15, "depth": 1, "level": 6},
    {"seed": 5, "theme": "ruined_watchtower", "rooms": 20, "depth": 2, "level": 2},
    {"seed": 808, "theme": "salt_mine", "rooms": 40, "depth": 1, "level": 7},
    {"seed": 2**62, "theme": None, "rooms": 3, "depth": 1, "level": 1},
    {"seed": 0, "theme": None, "rooms": 60, "depth": 1, "level": 10},
]


def key(entry: dict[str, object]) -> str:
    return json.dumps(entry, sort_keys=True)


def digest(entry: dict[str, object]) -> str:
    d = generate(
        int(entry["seed"]),  # type: ignore[call-overload]
        theme=entry["theme"],  # type: ignore[arg-type]
        rooms=int(entry["rooms"]),  # type: ignore[call-overload]
        depth=int(entry["depth"]),  # type: ignore[call-overload]
        level=int(entry["level"]),  # type: ignore[call-overload]
    )
    return hashlib.sha256(d.to_json().encode()).hexdigest()


def test_catalogue_reproduces() -> None:
    if os.environ.get("BLACKSALT_UPDATE_GOLDEN"):
        CATALOGUE.write_text(json.dumps({key(e): digest(e) for e in SEEDS}, indent=2, sort_keys=True) + "\n")
    recorded = json.loads(CATALOGUE.read_text())
    assert set(recorded) == {key(e) for e in SEEDS}, "the catalogue and SEEDS disagree; regenerate"
    changed = [key(e) for e in SEEDS if digest(e) != recorded[key(e)]]
    assert not changed, f"these seeds no longer give their dungeon: {changed}"


@pytest.mark.parametrize("entry", SEEDS[:3], ids=lambda e: str(e["seed"]))
def test_twice_in_one_process(entry: dict[str, object]) -> None:
    assert digest(entry) == digest(entry)
