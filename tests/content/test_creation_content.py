"""lifepath.toml and classes.toml: counts, spot checks against the book, and rejection of broken copies."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rules.content.base import ContentError, content_dir, load_toml
from rules.content.schema_creation import FILES, ClassesFile, LifepathFile
from rules.dice import DiceExpr

LIFEPATH = content_dir() / "lifepath.toml"
CLASSES = content_dir() / "classes.toml"

#: item names of the book's equipment tables that the starting kits may use (core rules, "Equipment")
BOOK_ITEMS = {
    "backpack", "small bag", "falchion", "wooden shield", "gladiator armor", "cage helmet", "medical supply",
    "lockpicking tools", "throwing hatchet", "trapping kit", "quarterstaff", "dagger", "short sword",
    "leather armor", "battle axe", "metal shield", "padded armor", "soldier helmet", "pack mule", "long spear",
    "climbing gear", "flail", "war hammer", "holy water", "notched whip", "rope", "sacrificial dagger", "cane",
    "alchemic kit", "wine", "healing tonic", "ashes of insight",
}  # fmt: skip


@pytest.fixture(scope="module")
def lifepath() -> LifepathFile:
    return load_toml(LIFEPATH, LifepathFile)


@pytest.fixture(scope="module")
def classes() -> ClassesFile:
    return load_toml(CLASSES, ClassesFile)


def test_files_registered() -> None:
    assert dict(FILES) == {"lifepath.toml": LifepathFile, "classes.toml": ClassesFile}


# --- lifepath ---------------------------------------------------------------------------------------------


def test_lifepath_counts(lifepath: LifepathFile) -> None:
    counts = {t.id: len(t.rows) for t in lifepath.tables}
    assert counts == {"infancy": 16, "career": 16, "tragedy": 16, "burden": 11, "quirks": 22}
    assert [t.dice for t in lifepath.tables] == ["3d6", "3d6", "3d6", "2d6", "4d6"]


def test_every_roll_has_exactly_one_row(lifepath: LifepathFile) -> None:
    for t in lifepath.tables:
        expr = DiceExpr.parse(t.dice)
        rolled = sorted(r.roll for r in t.rows if not r.chosen_only)
        assert rolled == list(range(expr.minimum, expr.maximum + 1)), t.id


def test_creation_rules(lifepath: LifepathFile) -> None:
    r = lifepath.rules
    assert (r.starting_score, r.starting_proficiency, r.starting_insight) == (1, 0, 1)
    assert (r.score_min, r.score_max, r.proficiency_min, r.proficiency_max) == (0, 3, 0, 2)
    assert r.duplicate_skill == "upgrade"
    assert r.burden_uses_per_session == 1 and r.burden_insight == 1
    assert r.quirk_may_be_chosen and not r.may_sell_before_first_expedition


def test_infancy_rows(lifepath: LifepathFile) -> None:
    inf = lifepath.table("infancy")
    pit = inf.lookup(3)
    assert pit.name == "Tossed in the Pit" and pit.traits == ["Rejected by death"] and pit.insight == 1
    occ = inf.lookup(5)
    assert occ.score == {"INT": 2} and occ.silver == "1d6" and occ.skills == ["Occult Studies"]
    assert inf.lookup(8).skills == ["Street Wise"]
    assert inf.lookup(11).score == {"DEX": 1, "PRE": 1} and inf.lookup(11).silver == "1d4"
    assert inf.lookup(11).insight == 1
    assert inf.lookup(12).skills == ["Cooking", "Animal Affinity"]
    assert inf.lookup(13).score == {"INT": 1, "DEX": 1}  # book: "+1 INT, +DEX" (ruling)
    assert inf.lookup(14).silver == "2d4" and inf.lookup(15).silver == "2d6" and inf.lookup(17).silver == "4d6"
    prophecy = inf.lookup(18)
    assert prophecy.proficiency_any == 1 and prophecy.traits == ["Bad omens"] and prophecy.score == {}


def test_career_rows(lifepath: LifepathFile) -> None:
    car = lifepath.table("career")
    knight = car.lookup(3)
    assert knight.name == "Deserter Knight"
    assert knight.score == {"STR": 1} and knight.proficiency == {"STR": 1} and knight.skills == ["Duelist"]
    assert car.lookup(4).skills == ["Shield Master"]
    assert car.lookup(5).skills == ["Surgeon"]  # "surgeon(skill)," trailing comma
    assert car.lookup(10).silver == "3d6"
    assert car.lookup(14).skills == ["Street Wise"]  # book: "streetwise"
    assert car.lookup(14).proficiency == {"PRE": 1}
    assert car.lookup(17).name == "Occultist" and car.lookup(17).proficiency == {"INT": 1}
    assert car.lookup(18).name == "False Prophet"


def test_tragedy_rows(lifepath: LifepathFile) -> None:
    tra = lifepath.table("tragedy")
    assert tra.lookup(3).proficiency == {"DEX": 1} and tra.lookup(3).score == {"INT": -1}
    assert tra.lookup(6).score_any == -1 and tra.lookup(6).score == {}
    lose = tra.lookup(8)
    assert lose.proficiency == {"STR": 1} and lose.score == {"PRE": 1, "INT": -2}
    assert tra.lookup(9).proficiency_of_lowest == 1 and tra.lookup(9).score == {"PRE": -1}
    assert tra.lookup(14).proficiency_any == 1 and tra.lookup(14).score == {"PRE": -2}
    crisis = tra.lookup(16)
    assert crisis.proficiency_any == 1 and crisis.score_highest == -1
    for row in tra.rows:  # every tragedy costs something
        assert any(v < 0 for v in row.score.values()) or row.score_any < 0 or row.score_highest < 0


def test_burden_and_quirks(lifepath: LifepathFile) -> None:
    bur = lifepath.table("burden")
    assert bur.lookup(2).name == "Naive dreams of glory" and bur.lookup(12).name == "A Soul Sold"
    q = lifepath.table("quirks")
    glasses = q.lookup(3)
    assert glasses.chosen_only and glasses.rule == "unusual_glasses"
    assert q.lookup(19).name == "Only whispers" and q.lookup(20).name == "Very short"
    rules = {r.roll: r.rule for r in q.rows if r.rule}
    assert rules == {
        3: "unusual_glasses", 4: "loud_snore", 5: "irritable", 6: "coffee_addict", 21: "huge_scar",
        22: "lost_when_alone", 23: "extremely_patient", 24: "murky_past",
    }  # fmt: skip


def test_names_unique_and_skills_normalised(lifepath: LifepathFile) -> None:
    skills = {s for t in lifepath.tables for r in t.rows for s in r.skills}
    assert "Street Wise" in skills and "Loremaster" in skills
    assert not {s.lower() for s in skills} & {"streetwise", "lore master", "surgeon(skill),"}
    for t in lifepath.tables:
        names = [r.name.lower() for r in t.rows]
        assert len(names) == len(set(names))


# --- classes ------------------------------------------------------------------------------------------------


def test_classes(classes: ClassesFile) -> None:
    assert [c.name for c in classes.classes] == ["Warrior", "Thief", "Wizard", "Cleric"]
    w, t, wiz, cl = classes.classes
    assert w.proficiency == {"STR": 1} and w.arsenal == "Weapon master" and w.manoeuvres_to_choose == 1
    assert t.proficiency == {"DEX": 1} and t.arsenal == "Basic weapon training" and t.armor == ["cloth", "leather"]
    assert wiz.proficiency == {"INT": 1} and wiz.traits == ["Magic user"] and wiz.skills == ["Loremaster"]
    assert wiz.arsenal == "No weapon training" and wiz.armor == ["cloth"] and wiz.spells_known_attr == "INT"
    assert cl.proficiency == {"PRE": 1} and cl.traits == ["Divine mandate"] and cl.skills == ["Ward the dead"]
    assert cl.prayers_known_attr == "PRE" and cl.choices == ["equipment_option", "god", "prayers"]


def test_backgrounds(classes: ClassesFile) -> None:
    by_class = {c: [b.name for b in classes.backgrounds if b.class_name == c] for c in ("Warrior", "Thief")}
    assert by_class == {
        "Warrior": ["Footman", "Gladiator", "Barbarian"],
        "Thief": ["Stalker", "Lone Rogue", "Hoodlum", "Moon-curser"],
    }
    manoeuvres = {b.name: len(b.manoeuvres) for b in classes.backgrounds}
    assert manoeuvres == {
        "Footman": 3, "Gladiator": 3, "Barbarian": 3, "Stalker": 3, "Lone Rogue": 3, "Hoodlum": 3, "Moon-curser": 0,
    }  # fmt: skip
    traits = {b.name: (b.traits, b.skills) for b in classes.backgrounds}
    assert traits["Footman"] == (["Hardened"], [])
    assert traits["Gladiator"] == (["Battle trance"], [])
    assert traits["Barbarian"] == (["Berserker"], [])
    assert traits["Stalker"] == (["Dauntless"], [])
    assert traits["Lone Rogue"] == ([], ["Slippery"])
    assert traits["Hoodlum"] == (["Cold blood"], [])
    moon = classes.background("Moon-curser")
    assert moon.trait_undefined and moon.issues and moon.kit.counterfeit and moon.kit.silver == "3d6"


def test_background_kits(classes: ClassesFile) -> None:
    foot = classes.background("Footman").kit
    assert [i.label for i in foot.equipment] == [
        "Backpack", "Long Spear", "Metal shield", "Padded armor", "Soldier helmet",
    ]  # fmt: skip
    assert foot.silver == "2d6"
    glad = classes.background("Gladiator").kit
    assert "Wooden shield" in [i.label for i in glad.equipment]
    barb = classes.background("Barbarian").kit
    med = next(i for i in barb.equipment if i.label == "Medical supply")
    assert med.count == 2 and barb.silver == "1d6"
    assert {i.label for i in barb.equipment if i.custom} == {"Bag", "Loincloth", "War paint"}  # Bag: R19
    stalk = classes.background("Stalker").kit
    hatchet = next(i for i in stalk.equipment if i.label == "Throwing hatchet")
    trap = next(i for i in stalk.equipment if i.label == "Trapping kit")
    assert hatchet.usage == 10 and trap.usage == 4
    rogue = classes.background("Lone Rogue").kit
    assert next(i for i in rogue.equipment if i.label == "Short sword").count == 2
    assert "Climbing gear" in [i.label for i in rogue.equipment]
    hood = classes.background("Hoodlum").kit
    vest = next(i for i in hood.equipment if i.custom)
    assert vest.name == "Reinforced hood and vest" and vest.ap == 1
    darts = next(i for i in classes.background("Moon-curser").kit.equipment if i.label == "Sleeping darts")
    assert darts.custom and darts.usage == 6 and darts.attack is None


def test_manoeuvres(classes: ClassesFile) -> None:
    def m(bg: str, name: str):  # type: ignore[no-untyped-def]
        return next(x for x in classes.background(bg).manoeuvres if x.name == name)

    assert m("Footman", "Turtle").actions == 2
    assert m("Footman", "Aegis").reaction and m("Footman", "Aegis").actions == 0
    assert m("Gladiator", "Bash").attack == "STR 1"
    assert m("Gladiator", "Disarm").attack == "-DEX 1"
    roar = m("Barbarian", "Roar")
    assert roar.attack == "PRE" and roar.range == "Nearby" and roar.once_per_combat
    assert roar.target_requires_tag == ["living"]
    assert m("Barbarian", "Charge").target_excludes_tag == ["ghost"]
    assert m("Stalker", "Fast trapping").range_tiles == 3
    wing = m("Lone Rogue", "Wing it")
    assert wing.attack == "-DEX" and wing.range_tiles == 3 and wing.weapon_attack
    assert m("Lone Rogue", "Outsmart").once_per_combat
    assert m("Lone Rogue", "Quick thinking").test == ["PRE", "INT"]
    assert m("Hoodlum", "Dirty tricks").range_tiles == 2
    assert m("Hoodlum", "Knife in the back").once_per_turn


def test_school_kits(classes: ClassesFile) -> None:
    assert [s.name for s in classes.schools] == [
        "Necromancers of Yadar", "Alchemists of the Golden Ridge", "Thaumaturgists of Ravenhome",
        "Wandering Mystics", "The Awakened",
    ]  # fmt: skip
    silver = {s.name: s.kit.silver for s in classes.schools}
    assert list(silver.values()) == ["2d6", "3d6", "2d6", "2d6", "1d6"]
    necro = classes.schools[0].kit.equipment
    skull = next(i for i in necro if i.label == "Inscribed skull")
    assert skull.grimoire and skull.conductor
    alch = classes.schools[1].kit.equipment
    assert next(i for i in alch if i.label == "Cane").conductor
    assert next(i for i in alch if i.label == "Old tome").grimoire
    gauntlet = next(i for i in classes.schools[4].kit.equipment if i.label == "Inscribed gauntlet")
    assert gauntlet.attack == "STR 2" and gauntlet.conductor
    cloak = next(i for i in classes.schools[3].kit.equipment if i.label == "Heavy cloak")
    assert cloak.ap == 1 and cloak.armor_type == "cloth"


def test_cleric_options(classes: ClassesFile) -> None:
    opts = classes.class_("Cleric").equipment_options
    assert [o.name for o in opts] == ["A", "B", "C"]
    assert [o.kit.silver for o in opts] == ["3d6", "3d6", "1d6"]
    assert [next(i.label for i in o.kit.equipment if i.holy_symbol) for o in opts] == [
        "Forbidden scriptures", "Ancient talisman", "Book of sins",
    ]  # fmt: skip
    water = next(i for i in opts[1].kit.equipment if i.label == "Holy water")
    assert water.usage == 6


def test_kit_items_are_table_items(classes: ClassesFile) -> None:
    kits = [b.kit for b in classes.backgrounds] + [s.kit for s in classes.schools]
    kits += [o.kit for o in classes.class_("Cleric").equipment_options]
    for kit in kits:
        for it in kit.equipment:
            if it.item is not None:
                assert it.item.lower() in BOOK_ITEMS, it.item


def test_kit_items_exist_in_equipment_files(classes: ClassesFile) -> None:
    names: set[str] = set()
    for fname, key in (("items.toml", "items"), ("weapons.toml", "weapons"), ("armor.toml", "armor")):
        path = content_dir() / fname
        if not path.exists():
            pytest.skip(f"{fname} not written yet")
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        names |= {e["name"].lower() for e in raw.get(key, [])}
        names |= {e["name"].lower() for e in raw.get("shields", [])}
    for it in [i for b in classes.backgrounds for i in b.kit.equipment] + [
        i for s in classes.schools for i in s.kit.equipment
    ]:
        if it.item is not None:
            assert it.item.lower() in names, it.item


def test_arsenal_levels_exist() -> None:
    path = content_dir() / "character.toml"
    if not path.exists():
        pytest.skip("character.toml not written yet")
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    levels = {lv["name"] for lv in raw["arsenal"]["levels"]}
    for c in load_toml(CLASSES, ClassesFile).classes:
        assert c.arsenal in levels


# --- broken copies are rejected, naming file, entry and field ----------------------------------------------


def _broken(tmp_path: Path, src: Path, old: str, new: str) -> Path:
    text = src.read_text(encoding="utf-8")
    assert old in text, old
    out = tmp_path / src.name
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


def test_unknown_key_rejected(tmp_path: Path) -> None:
    bad = _broken(tmp_path, LIFEPATH, 'name = "Battleborn"\n', 'name = "Battleborn"\nluck = 1\n')
    with pytest.raises(ContentError) as err:
        load_toml(bad, LifepathFile)
    msg = str(err.value)
    assert "lifepath.toml" in msg and "Battleborn" in msg and "luck" in msg


def test_missing_field_rejected(tmp_path: Path) -> None:
    bad = _broken(
        tmp_path, LIFEPATH, 'text = "Orphan, raised by other kids. +1 STR, +1 DEX, street wise (skill)"\n', ""
    )
    with pytest.raises(ContentError) as err:
        load_toml(bad, LifepathFile)
    msg = str(err.value)
    assert "lifepath.toml" in msg and "Street Urchin" in msg and "text" in msg


def test_out_of_range_rejected(tmp_path: Path) -> None:
    bad = _broken(tmp_path, LIFEPATH, "score = { STR = 2 }", "score = { STR = 7 }")
    with pytest.raises(ContentError) as err:
        load_toml(bad, LifepathFile)
    msg = str(err.value)
    assert "lifepath.toml" in msg and "Battleborn" in msg and "score.STR" in msg


def test_classes_broken_copy_rejected(tmp_path: Path) -> None:
    bad = _broken(tmp_path, CLASSES, 'name = "Turtle"\nactions = 2', 'name = "Turtle"\nactions = 5')
    with pytest.raises(ContentError) as err:
        load_toml(bad, ClassesFile)
    msg = str(err.value)
    assert "classes.toml" in msg and "Turtle" in msg and "actions" in msg


def test_table_coverage_checked(tmp_path: Path) -> None:
    bad = _broken(tmp_path, LIFEPATH, "roll = 20\n", "roll = 19\n")  # the book's duplicate 19
    with pytest.raises(ContentError, match="rolls must cover 4d6"):
        load_toml(bad, LifepathFile)


def test_unknown_skill_rejected(tmp_path: Path) -> None:
    bad = _broken(tmp_path, LIFEPATH, 'skills = ["Fearless"]', 'skills = ["Fearles"]')
    with pytest.raises(ContentError, match="unknown skill 'Fearles'"):
        load_toml(bad, LifepathFile)


def test_kit_item_needs_item_or_name(tmp_path: Path) -> None:
    bad = _broken(tmp_path, CLASSES, '{ name = "Loincloth", custom = true,', '{ item = "Loincloth", custom = true,')
    with pytest.raises(ContentError, match=r"classes\.toml"):
        load_toml(bad, ClassesFile)
