"""The land before the way in (issue #15, the sample dungeon's "Entrances"): where the dungeon lies, for each
entrance the place outside where it opens and the passage it leads to, as the map has it, and two things a
skill makes out outside; all in the key."""

from __future__ import annotations

import re

import pytest

from dungeon_gen.export.markdown import to_markdown
from dungeon_gen.generate import generate
from dungeon_gen.themes import load_themes
from rules.content.registry import load_content

THEMES = sorted(load_themes())
WAY = re.compile(
    r"^On the (north|south|east|west) side, (.+) A passage of ([\d.]+) metres leads in from it to "
    r"(an open archway|an? [a-z]+ door) and room (\d+) \(([^)]+)\)\.$"
)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("rooms", [6, 20, 40])
def test_every_way_in_is_told_as_the_map_has_it(theme: str, rooms: int) -> None:
    th = load_themes()[theme]
    d = generate(rooms, theme=theme, level=th.min_level, depth=1, rooms=rooms)
    assert d.outside and not re.search(r"[{}\[\]|]", d.outside)
    assert len(d.entrance_ways) == len(d.entrances) == 1 + (rooms >= 12) + (rooms >= 30)
    places = []
    for way in d.entrance_ways:
        m = WAY.match(way.text)
        assert m, way.text
        side, place, metres, door, room, name = m.groups()
        assert side == way.side and int(room) == way.room and name == d.room(way.room).name
        assert float(metres) == len(way.path) * d.grid.tile_m
        word = "an open archway" if way.door.kind == "archway" else f" {way.door.kind} door"
        assert door.endswith(word.strip()), (door, way.door.kind)
        places.append(place)
    assert len(set(places)) == len(places), "two ways in from one place"
    skills = {s.name for s in load_content().character.skills}
    assert len(d.outside_lore) == 2 and {n.skill for n in d.outside_lore} <= skills
    assert len({n.skill for n in d.outside_lore}) == 2
    md = to_markdown(d)
    entrances = md[md.index("### Entrances") :]
    assert d.outside in entrances and all(w.text in entrances for w in d.entrance_ways)
    assert all(f"- **{n.skill}**: {n.text}" in entrances for n in d.outside_lore)


def test_a_known_way_in() -> None:
    """Seed 4's salt mine of 12 rooms: two ways in, from the east and the south."""
    d = generate(4, theme="salt_mine", level=1, depth=1, rooms=12)
    assert [(w.side, w.room, w.door.kind, len(w.path)) for w in d.entrance_ways] == [
        ("east", 1, "wooden", 3),
        ("south", 9, "wooden", 3),
    ]
    assert d.entrance_ways[0].text == (
        "On the east side, the adit, a square tunnel in the hillside with a warning painted over it, cold air "
        "breathing out. A passage of 4.5 metres leads in from it to a wooden door and room 1 (The Cage Shaft)."
    )


@pytest.mark.parametrize("theme", THEMES)
def test_the_job_goes_with_its_hook(theme: str) -> None:
    """Every hook of the themes carries its job: what the adventurers are given when they accept, and what happens
    when they come back; the key prints the two under the bounty, and the one drawn goes with the hook drawn."""
    th = load_themes()[theme]
    for seed in range(1, 9):
        d = generate(seed, theme=theme, level=th.min_level, depth=1, rooms=8)
        offer = next(o for o in th.hooks.offers if o.text.split("{")[0] in d.hook)
        assert d.quest.startswith("When the adventurers accept, ") and d.quest_after
        assert d.quest.split(",")[1].split()[0] == offer.quest.split(",")[1].split()[0]  # the giver of that hook
        assert not re.search(r"[{}\[\]|]", d.quest + d.quest_after)
        md = to_markdown(d)
        hook_at, job_at = md.index("### Hook"), md.index(f"**The job.** {d.quest}")
        assert hook_at < md.index("**Bounty:") < job_at < md.index(f"**When they come back.** {d.quest_after}")
