"""magic.toml: counts, spot checks against the book, and rejection of broken copies."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from rules.content.base import ContentError, content_dir, load_toml
from rules.content.schema_creation import ClassesFile
from rules.content.schema_magic import FILES, NEW_GODS, OLD_GODS, SCHOOLS, MagicFile, Prayer, Spell

MAGIC = content_dir() / "magic.toml"


@pytest.fixture(scope="module")
def magic() -> MagicFile:
    return load_toml(MAGIC, MagicFile)


def _spell(m: MagicFile, name: str) -> Spell:
    return next(s for s in m.spells if s.name == name)


def _prayer(m: MagicFile, name: str) -> Prayer:
    return next(p for p in m.prayers if p.name == name)


def test_files_registered() -> None:
    assert dict(FILES) == {"magic.toml": MagicFile}


def test_spell_counts(magic: MagicFile) -> None:
    assert Counter(s.school for s in magic.spells) == {
        "Necromancers of Yadar": 7,
        "Alchemists of the Golden Ridge": 5,
        "Thaumaturgists of Ravenhome": 6,
        "Wandering Mystics": 6,
        "The Awakened": 6,
    }
    assert [s.name for s in magic.schools] == list(SCHOOLS)
    assert [s.name for s in magic.spells_of("Wandering Mystics")] == [
        "Magic mouth", "Arcane eye", "Knock/Lock", "Mind fog", "Weave fate", "Mystic ink",
    ]  # fmt: skip


def test_prayer_and_god_counts(magic: MagicFile) -> None:
    assert Counter(p.source for p in magic.prayers) == {
        "basic": 3, "Goshkalon": 6, "Cador": 6, "Yulak": 5, "Akhzu": 6, "Kaal Rafir": 3,
    }  # fmt: skip
    assert [g.name for g in magic.gods if g.kind == "new"] == list(NEW_GODS)
    assert [g.name for g in magic.gods if g.kind == "old"] == list(OLD_GODS)
    assert [p.name for p in magic.prayers_of("basic")] == ["Cure Light Wounds", "Light", "Create food and water"]


def test_casting_numbers(magic: MagicFile) -> None:
    c = magic.casting
    assert (c.spells_known_attr, c.spells_memorised_attr, c.spell_test_attr) == ("INT", "INT", "INT")
    assert (c.prayers_known_attr, c.prayers_memorised_attr, c.prayer_test_attr) == ("PRE", "PRE", "PRE")
    assert c.desperate_pleas_per_expedition == 1 and c.prayer_uses_before_camp_rest == 1
    assert c.no_conductor_failure_is_critical and c.mishap_adds_previous_mishaps and not c.ignored_prayer_exhausts
    assert c.spell_results.critical_failure == "spell_mishap" and c.prayer_results.great_success == "miracle"


def test_spells_spot_checks(magic: MagicFile) -> None:
    assert _spell(magic, "Pain").actions == 2 and _spell(magic, "Pain").range == "Nearby"
    assert _spell(magic, "Transmute").actions == 2
    cannon = _spell(magic, "Silver cannon")
    assert cannon.attack == "INT 3P" and cannon.school == "Alchemists of the Golden Ridge"
    missile = _spell(magic, "Magic Missile")
    assert missile.attack == "INT 3" and missile.combat_only and missile.duration_unit == "combat"
    phobia = _spell(magic, "Phobia")
    assert (phobia.duration, phobia.duration_unit) == ("1d6", "turns")
    assert (_spell(magic, "Arcane Seal").duration, _spell(magic, "Arcane Seal").duration_unit) == (
        "1d6", "exploration_turns",
    )  # fmt: skip
    fog = _spell(magic, "Mind fog")
    assert fog.duration == "1d4" and fog.secret_duration and fog.range == "Close"
    weave = _spell(magic, "Weave fate")
    assert weave.duration == "2d6" and weave.duration_unit == "exploration_turns" and weave.secret_duration
    assert _spell(magic, "Command undead").duration == "2"
    assert _spell(magic, "Light").duration == "1" and _spell(magic, "Light").duration_unit == "decays"
    shackles = _spell(magic, "Shackles")
    assert shackles.channelled and shackles.duration_unit == "channelled"
    assert _spell(magic, "Magic mouth").range == "Far"
    assert _spell(magic, "Pocket reality").duration_unit == "expedition"
    assert {s.name for s in magic.spells if s.combat_only} == {
        "Bonedance", "Silver cannon", "Magic Missile", "Magic Shield", "Arcane fire", "Haste",
    }  # fmt: skip


def test_prayers_spot_checks(magic: MagicFile) -> None:
    flames = _prayer(magic, "Cleansing Flames")
    assert flames.attack == "STR 1PR+6" and flames.range == "Close" and flames.source == "Yulak"
    assert _prayer(magic, "Ignorance").duration == "2d6" and _prayer(magic, "Ignorance").duration_unit == "rounds"
    assert _prayer(magic, "Numbness").range_text == "Nearby ally"
    assert _prayer(magic, "Hyperfocus").duration == "1d6" and _prayer(magic, "Hyperfocus").combat_only
    assert _prayer(magic, "Borrowed Time").duration == "2d6"
    assert _prayer(magic, "Eyes of the forest").range == "Distant"
    assert _prayer(magic, "Hold").duration == "1d6" and _prayer(magic, "Hold").source == "Kaal Rafir"
    assert _prayer(magic, "Swarm").summon == "Swarm of Insects"
    assert _prayer(magic, "Cure Light Wounds").range == "Nearby"


def test_gods(magic: MagicFile) -> None:
    gods = {g.name: g for g in magic.gods}
    gosh = gods["Goshkalon"].sacrifice
    assert gosh is not None and not gosh.from_book and gosh.kind == "camp_prayer"
    assert gods["Cador"].sacrifice is not None and gods["Cador"].sacrifice.kind == "kill_captured_undead"
    yulak = gods["Yulak"].sacrifice
    assert yulak is not None and yulak.cost is not None
    assert yulak.cost.wounds == 2 and yulak.cost.afflictions == ["bleeding"]
    akhzu = gods["Akhzu"].sacrifice
    assert akhzu is not None and akhzu.kind == "bury_rations" and akhzu.rations == 2
    kaal = gods["Kaal Rafir"].sacrifice
    assert kaal is not None and kaal.on_anger is not None
    assert (kaal.on_anger.who, kaal.on_anger.fatigue, kaal.on_anger.fatigue_attr, kaal.on_anger.non_lethal) == (
        "party", 2, "PRE", True,
    )  # fmt: skip
    assert gods["Ulass"].epithet == "The Never-ending" and gods["Ngaazh'theg"].epithet == "The eye of the sea"
    assert all(g.sacrifice is None for g in magic.gods if g.kind == "old")


def test_spell_mishaps(magic: MagicFile) -> None:
    t = magic.spell_mishaps
    assert t.dice == "3d6" and len(t.rows) == 16 and t.modifier_note
    assert [r.min for r in t.rows] == list(range(3, 19))
    assert t.rows[-1].max is None  # open-ended: 3d6 + previous mishaps can exceed 18
    first = t.lookup(3)
    assert first.fatigue == 1 and first.fatigue_attr == "INT" and first.afflictions == ["nauseated"]
    assert t.lookup(4).doom == 1
    assert t.lookup(5).special == "blinded" and t.lookup(5).duration == "6"
    assert t.lookup(7).special == "summon_close:Lesser Demon"
    assert t.lookup(9).who == "nearby" and t.lookup(9).afflictions == ["hopeless"]
    assert t.lookup(12).wounds_each_attr == 1 and t.lookup(12).afflictions == ["bleeding"]
    assert t.lookup(14).afflictions == ["doomed"] and t.lookup(16).afflictions == ["cursed"]
    assert t.lookup(18).special == "summon_nearby:Endless Horror"
    assert t.lookup(23) is t.rows[-1]


def test_miracles(magic: MagicFile) -> None:
    t = magic.miracles
    assert t.dice == "1d6" and len(t.rows) == 6
    assert t.lookup(4).remove_one_of == ["hungry", "parched", "bleeding", "nauseated", "cursed"]
    assert t.lookup(3).special == "unexhaust_prayers"


def test_special_tags_documented(magic: MagicFile) -> None:
    doc = (content_dir() / "docs" / "magic.md").read_text(encoding="utf-8")
    tags = {r.special for r in magic.spell_mishaps.rows + magic.miracles.rows if r.special}
    for tag in tags:
        documented = f"`{tag.split(':')[0]}:<Monster>`" if ":" in tag else f"`{tag}`"
        assert documented in doc, tag


def test_schools_match_classes(magic: MagicFile) -> None:
    classes = load_toml(content_dir() / "classes.toml", ClassesFile)
    assert [s.name for s in classes.schools] == [s.name for s in magic.schools]


def test_summons_in_bestiary(magic: MagicFile) -> None:
    path = content_dir() / "bestiary.toml"
    if not path.exists():
        pytest.skip("bestiary.toml not written yet")
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    names = {m["name"].lower() for m in raw.get("monsters", [])}
    assert "swarm of insects" in names
    assert "lesser demon" in names and "void demon" in names


# --- broken copies ------------------------------------------------------------------------------------------


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = MAGIC.read_text(encoding="utf-8")
    assert old in text, old
    out = tmp_path / MAGIC.name
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


def test_unknown_key_rejected(tmp_path: Path) -> None:
    bad = _broken(tmp_path, 'name = "Phobia"\n', 'name = "Phobia"\nmana = 3\n')
    with pytest.raises(ContentError) as err:
        load_toml(bad, MagicFile)
    msg = str(err.value)
    assert "magic.toml" in msg and "Phobia" in msg and "mana" in msg


def test_missing_field_rejected(tmp_path: Path) -> None:
    bad = _broken(tmp_path, 'name = "Hover"\nschool = "The Awakened"\n', 'name = "Hover"\n')
    with pytest.raises(ContentError) as err:
        load_toml(bad, MagicFile)
    msg = str(err.value)
    assert "magic.toml" in msg and "Hover" in msg and "school" in msg


def test_out_of_range_rejected(tmp_path: Path) -> None:
    bad = _broken(
        tmp_path,
        'name = "Pain"\nschool = "Necromancers of Yadar"\nactions = 2',
        'name = "Pain"\nschool = "Necromancers of Yadar"\nactions = 3',
    )
    with pytest.raises(ContentError) as err:
        load_toml(bad, MagicFile)
    msg = str(err.value)
    assert "magic.toml" in msg and "Pain" in msg and "actions" in msg


def test_bad_notation_rejected(tmp_path: Path) -> None:
    bad = _broken(tmp_path, 'attack = "STR 1PR+6"', 'attack = "STR one"')
    with pytest.raises(ContentError) as err:
        load_toml(bad, MagicFile)
    assert "Cleansing Flames" in str(err.value) and "attack" in str(err.value)


def test_mishap_gap_rejected(tmp_path: Path) -> None:
    bad = _broken(tmp_path, "min = 13\nmax = 13\n", "min = 14\nmax = 14\n")
    with pytest.raises(ContentError, match="spell_mishaps"):
        load_toml(bad, MagicFile)
