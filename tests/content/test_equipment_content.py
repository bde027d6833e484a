"""Items, weapons, armour/shields and alchemy: counts, spot checks against the book, broken copies."""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations_with_replacement
from pathlib import Path

import pytest

from rules.content.base import ContentError, content_dir, load_toml
from rules.content.schema_equipment import (
    FILES,
    AlchemyFile,
    ArmorFile,
    ItemsFile,
    WeaponsFile,
)
from rules.dice import DiceExpr
from rules.notation import Effect, Modifier, Range, parse_attack

DOCS = content_dir() / "docs" / "equipment.md"


@pytest.fixture(scope="module")
def items() -> ItemsFile:
    return load_toml(content_dir() / "items.toml", ItemsFile)


@pytest.fixture(scope="module")
def weapons() -> WeaponsFile:
    return load_toml(content_dir() / "weapons.toml", WeaponsFile)


@pytest.fixture(scope="module")
def armor() -> ArmorFile:
    return load_toml(content_dir() / "armor.toml", ArmorFile)


@pytest.fixture(scope="module")
def alchemy() -> AlchemyFile:
    return load_toml(content_dir() / "alchemy.toml", AlchemyFile)


def test_files_registry_loads_everything() -> None:
    assert set(FILES) == {"items.toml", "weapons.toml", "armor.toml", "alchemy.toml"}
    for name, model in FILES.items():
        load_toml(content_dir() / name, model)


# --- items.toml ---------------------------------------------------------------------


def test_item_counts(items: ItemsFile) -> None:
    assert len(items.items) == 45
    assert Counter(i.rarity for i in items.items) == {
        "free": 1,
        "common": 18,
        "uncommon": 14,
        "valuable": 6,
        "rare": 4,
        "exotic": 2,
    }
    assert len(items.light_sources) == 4
    assert len(items.inventory.containers) == 7


def test_rarity_prices(items: ItemsFile) -> None:
    prices = {r.name: (r.price, r.average) for r in items.rarities}
    assert prices == {
        "free": (0, 0),
        "common": ("1d6", 3),
        "uncommon": ("2 + 2d6", 9),
        "valuable": ("3 x 2d6", 20),
        "rare": ("5 x 3d6", 50),
        "exotic": ("10 x 4d6", 140),
    }
    assert DiceExpr.parse("10 x 4d6").mean == 140
    assert DiceExpr.parse("2 + 2d6").minimum == 4


def _item(items: ItemsFile, name: str):  # type: ignore[no-untyped-def]
    return next(i for i in items.items if i.name.lower() == name.lower())


def test_item_spot_checks(items: ItemsFile) -> None:
    torches = _item(items, "Torches")
    assert torches.pack == 2 and torches.light is not None
    assert (torches.light.range, torches.light.usage_die) == ("Nearby", 4)
    candles = _item(items, "Candles")
    assert candles.pack == 6 and candles.light is not None
    assert (candles.light.range, candles.light.usage_die) == ("Close", 6)
    lantern = _item(items, "Lantern")
    assert lantern.light is not None
    assert (lantern.light.range, lantern.light.usage_die, lantern.light.fuel) == ("Nearby", 8, "Oil")
    assert lantern.tags == ["quick", "slow"]
    assert _item(items, "Oil").fuel_for == "Lantern"

    aid = _item(items, "First aid kit")
    assert aid.usage_die == 6 and aid.tags == ["camp"]
    assert aid.effects[0].heal_wounds == 1 and aid.effects[0].heal_attrs == ["STR", "DEX"]
    tonic = _item(items, "Healing tonic")
    assert tonic.usage_die == 4 and tonic.effects[0].heal_attrs == ["INT", "DEX"]
    wine = _item(items, "Wine")
    assert wine.usage_die == 4 and wine.liquid
    assert wine.effects[0].heal_attrs == ["PRE"] and "parched" in wine.effects[0].remove
    medical = _item(items, "Medical supply")
    assert medical.pack == 2 and medical.effects[0].heal_wounds == 1 and medical.effects[0].heal_attrs == []
    panacea = _item(items, "Panacea")
    assert len(panacea.effects[0].remove) == 12
    assert sorted(a for e in panacea.effects[1:] for a in e.heal_attrs) == ["DEX", "INT", "PRE", "STR"]
    yoros = _item(items, "Wine of Yoros")
    assert [e.heal_attrs for e in yoros.effects] == [["PRE"], ["INT"]]

    holy = _item(items, "Holy water")
    assert holy.attack is not None and holy.attack.notation == "DEX 2PR" and holy.usage_die == 6
    atk = parse_attack(holy.attack.notation)
    assert atk.damage == 2 and atk.effects == {Effect.PIERCING, Effect.UNRESISTABLE}
    assert holy.attack.targets == ["undead"]

    pole = _item(items, "3 meter pole")
    assert pole.big and pole.extra_slots == 1
    assert _item(items, "Water").per_slot == 2 and _item(items, "Water").tags == ["quick"]
    assert _item(items, "Ration").food == "ration" and _item(items, "Ration").tags == ["slow", "camp"]
    assert _item(items, "Ration").cooked_feeds == 2 and _item(items, "Ration").cooked_feeds_with_cooking == 3
    assert _item(items, "Special ration").food == "special_ration"
    assert _item(items, "Lockpicking tools").usage_die == 20
    assert _item(items, "Bandages").pack == 3
    trap = _item(items, "Trapping kit")
    assert trap.trap is not None and trap.trap.wounds == 4 and trap.usage_die == 6
    assert _item(items, "Spell book").spell_capacity == 3
    assert _item(items, "Living ashes").damage_bonus == 1
    assert _item(items, "Exorcism book").bonus_dice == 1 and _item(items, "Exorcism book").tags == []


def test_containers(items: ItemsFile) -> None:
    expected = {
        "Small bag": (3, False),
        "Small pouch": (2, False),
        "Backpack": (7, False),
        "Canteen": (1, True),
        "Waterskin": (2, True),
        "Pack mule": (10, False),
    }
    got = {i.name: (i.container.slots, i.container.liquid_only) for i in items.items if i.container}
    assert got == expected
    inv = items.inventory
    places = {c.name: (c.slots, c.liquid_only) for c in inv.containers}
    assert places == {
        "Bag": (4, False),
        "Backpack": (7, False),
        "Belt": (1, False),
        "Small pouch": (2, False),
        "Canteen": (1, True),
        "Skin": (2, True),
        "Small bag": (3, False),
    }
    assert (inv.base_slots, inv.slots_per_str, inv.torso_slots, inv.hand_slots) == (7, 3, 4, 2)
    assert inv.starting_containers == ["Belt", "Canteen", "Bag"]


def test_light_and_darkness(items: ItemsFile) -> None:
    rows = {s.name: (s.range, s.usage_die, s.decays) for s in items.light_sources}
    assert rows == {
        "Torches": ("Nearby", 4, None),
        "Candles": ("Close", 6, None),
        "Lantern": ("Nearby", 8, None),
        "Light spell": ("Nearby", None, 1),
    }
    alts = items.darkness.alternatives
    assert (alts[0].fatigue, alts[0].fatigue_attr) == (1, "PRE")
    assert alts[1].afflictions == ["terrified"]


# --- weapons.toml --------------------------------------------------------------


def test_weapon_counts_and_names(weapons: WeaponsFile) -> None:
    assert [w.name for w in weapons.weapons] == [
        "Battle axe",
        "Cane",
        "Driftwood Club",
        "Dagger",
        "Falchion",
        "Flail",
        "Quarterstaff",
        "Sacrificial dagger",
        "Notched whip",
        "Short Spear",
        "Long Spear",
        "Short sword",
        "War hammer",
        "Throwing hatchet",
        "Short bow",
        "Crossbow",
    ]
    assert sorted(e.symbol for e in weapons.weapon_effects) == ["B", "N", "P", "R"]


def test_every_weapon_notation_parses(weapons: WeaponsFile) -> None:
    for w in weapons.weapons:
        for n in (w.notation, w.close_notation, w.dual_wield_notation):
            if n is not None:
                parse_attack(n)


def test_weapon_notations_exact(weapons: WeaponsFile) -> None:
    by = {w.name: w for w in weapons.weapons}
    falchion = parse_attack(by["Falchion"].notation)
    assert (falchion.damage, falchion.crit_damage, falchion.crit_effects, falchion.effects) == (
        3,
        1,
        frozenset({Effect.BLEEDING}),
        frozenset(),
    )
    dagger = parse_attack(by["Dagger"].notation)
    assert by["Dagger"].notation == "STR 1 + 3P"
    assert (dagger.damage, dagger.crit_damage, dagger.crit_effects) == (1, 3, frozenset({Effect.PIERCING}))
    whip = parse_attack(by["Notched whip"].notation)
    assert whip.attributes[0].value == "DEX"
    assert (whip.damage, whip.effects, whip.crit_damage, whip.crit_effects) == (
        1,
        frozenset({Effect.UNRESISTABLE}),
        2,
        frozenset({Effect.BLEEDING}),
    )
    hammer = parse_attack(by["War hammer"].notation)
    assert (hammer.damage, hammer.effects, hammer.crit_damage) == (2, frozenset({Effect.PIERCING}), 3)
    sac = parse_attack(by["Sacrificial dagger"].notation)
    assert (sac.damage, sac.effects, sac.crit_damage, sac.crit_effects) == (
        1,
        frozenset({Effect.BLEEDING}),
        1,
        frozenset(),
    )
    crossbow = parse_attack(by["Crossbow"].notation)
    assert (crossbow.damage, crossbow.effects, crossbow.crit_damage, crossbow.crit_effects) == (
        3,
        frozenset({Effect.PIERCING}),
        1,
        frozenset({Effect.UNRESISTABLE}),
    )
    assert by["Battle axe"].notation == "STR 4+2B" and by["Battle axe"].hands == 2
    assert by["Quarterstaff"].notation == "STR 1+1"


def test_weapon_special_fields(weapons: WeaponsFile) -> None:
    by = {w.name: w for w in weapons.weapons}
    spear = by["Long Spear"]
    assert spear.range == "2 tiles" and spear.hands == 2 and spear.one_handed_penalty == 1 and spear.reach_diagonal
    assert spear.close_notation == "-STR 1+1"
    close = parse_attack(spear.close_notation)
    assert close.modifier is Modifier.DISADVANTAGE and (close.damage, close.crit_damage) == (1, 1)
    assert by["Short Spear"].one_handed_penalty == 1 and by["Short Spear"].range == "Close"
    assert by["Crossbow"].reload_actions == 2 and by["Crossbow"].range == "Nearby"
    assert by["Short bow"].needs == "arrows" and by["Short bow"].hands == 2
    assert by["Short sword"].dual_wield_notation == "STR 3+1"
    assert by["Flail"].ignore_shield_tokens and by["Flail"].rules == ["flail_self_hit"]
    hatchet = by["Throwing hatchet"]
    assert hatchet.ignore_shield_tokens and hatchet.range == "Nearby"
    assert set(hatchet.rules) == {"thrown", "str_throw_coin_flip", "str_melee"}
    assert by["Notched whip"].reach_diagonal and by["Notched whip"].hands == 1
    classes = Counter(w.weapon_class for w in weapons.weapons)
    assert classes == {
        "small_one_handed": 2,
        "one_handed_melee": 6,
        "two_handed_melee": 3,
        "staff": 2,
        "ranged": 3,
    }
    assert by["Quarterstaff"].rules == ["dodge_token_on_hit"]
    assert by["War hammer"].rules == ["stun_on_six"]
    assert by["Sacrificial dagger"].rules == ["breaks_when_fully_reduced"]
    assert [w.name for w in weapons.weapons if w.hands == 2] == [
        "Battle axe",
        "Short Spear",
        "Long Spear",
        "Short bow",
        "Crossbow",
    ]


# --- armor.toml ----------------------------------------------------------------


def test_shields(armor: ArmorFile) -> None:
    rows = {s.name: (s.tokens, s.rarity, s.break_risk, s.no_dodge) for s in armor.shields}
    assert rows == {
        "Buckler": (1, "uncommon", None, False),
        "Small metal shield": (1, "uncommon", None, False),
        "Small wooden shield": (1, "common", 2, False),
        "Wooden shield": (2, "common", 2, True),
        "Leather shield": (2, "uncommon", 1, True),
        "Metal shield": (2, "valuable", None, True),
        "Tower shield": (3, "rare", None, True),
        "Spiked shield": (2, "rare", None, False),
    }
    by = {s.name: s for s in armor.shields}
    assert by["Buckler"].same_hand_as_weapon
    assert by["Tower shield"].slots == 2 and by["Tower shield"].big
    assert by["Spiked shield"].spikes_wound == 1


def test_armor(armor: ArmorFile) -> None:
    rows = {a.name: (a.ap, a.type, a.rarity, a.helmet) for a in armor.armor}
    assert rows == {
        "Heavy cape": ([1], "cloth", "uncommon", False),
        "Reinforced trenchcoat": ([1], "cloth", "uncommon", False),
        "Gambeson": ([1], "cloth", "valuable", False),
        "Leather armor": ([1], "leather", "uncommon", False),
        "Padded armor": ([2], "leather", "valuable", False),
        "Gladiator Armor": ([1, 1], "leather", "uncommon", False),
        "Scale Armor": ([2], "heavy", "valuable", False),
        "Chainmail": ([3], "heavy", "valuable", False),
        "Gothic plate armor": ([2, 3], "heavy", "rare", False),
        "Soldier helmet": ([2], "leather", "uncommon", True),
        "Cage helmet": ([1], "leather", "valuable", True),
        "Close helmet": ([2], "heavy", "rare", True),
        "Frog-mouth helm": ([3], "heavy", "exotic", True),
    }
    by = {a.name: a for a in armor.armor}
    gothic = by["Gothic plate armor"]
    assert gothic.slots == 2 and gothic.dex_dice_penalty == 1 and gothic.total_ap == 5
    assert by["Padded armor"].rules == ["four_does_not_break"]
    assert by["Chainmail"].rules == ["not_vs_impact"]
    assert by["Soldier helmet"].rules == ["breaks_exactly_one"]
    assert by["Heavy cape"].rules == ["worn_with_other_armor"]
    assert by["Gambeson"].rules == ["under_heavy_armor"]


# --- alchemy.toml --------------------------------------------------------------


def test_extracts(alchemy: AlchemyFile) -> None:
    assert {e.name: (e.yig, e.grai) for e in alchemy.extracts} == {
        "Flame": (-1, 1),
        "Water": (1, -1),
        "Smoke": (0, -1),
        "Necro": (-1, 0),
        "Rot": (0, 1),
        "Ether": (1, 0),
    }
    assert alchemy.rules.different_extracts_per_slot == 2 and alchemy.rules.same_type_stacks


def test_recipes(alchemy: AlchemyFile) -> None:
    assert [(r.name, r.yig, r.grai, r.usage_die) for r in alchemy.recipes] == [
        ("Healing tonic", 2, 0, 4),
        ("Potion of giants", 0, 3, 4),
        ("Explosive potion", -2, 2, None),
        ("Tonic of bravery", 1, 1, None),
        ("Anti-poison tonic", 1, -1, None),
        ("Mercurial tonic", 0, 0, None),
        ("Tonic of focus", -1, -1, None),
        ("Purging hot-water", 1, 1, 4),
    ]
    by = {r.name: r for r in alchemy.recipes}
    assert by["Tonic of focus"].effects[0].heal_wounds == 2 and by["Tonic of focus"].effects[0].heal_attrs == ["PRE"]
    purge = by["Purging hot-water"].effects[0]
    assert (purge.heal_wounds, purge.heal_attrs, purge.wounds, purge.wound_attr) == (2, ["STR"], 1, "PRE")
    boom = by["Explosive potion"]
    assert boom.range == "Nearby" and [(e.who, e.wounds) for e in boom.effects] == [("target", 2), ("close", 1)]
    assert by["Mercurial tonic"].duration_usage_die == 4
    assert by["Anti-poison tonic"].effects[0].remove == ["nauseated"]


def test_book_mixing_examples(alchemy: AlchemyFile) -> None:
    ex = {e.name: (e.yig, e.grai) for e in alchemy.extracts}

    def mix(*names: str) -> tuple[int, int]:
        return (sum(ex[n][0] for n in names), sum(ex[n][1] for n in names))

    recipes = {(r.yig, r.grai): r.name for r in alchemy.recipes if r.name != "Purging hot-water"}
    assert recipes[mix("Water", "Ether", "Rot")] == "Healing tonic"
    assert recipes[mix("Ether", "Ether")] == "Healing tonic"
    # the one (Yig, Grai) pair the book gives twice
    pairs = Counter((r.yig, r.grai) for r in alchemy.recipes)
    assert [p for p, c in pairs.items() if c > 1] == [(1, 1)]
    # every recipe can be made from at most four extracts
    reachable = {mix(*combo) for n in range(1, 5) for combo in combinations_with_replacement(ex, n)}
    assert all((r.yig, r.grai) in reachable for r in alchemy.recipes)


def test_cross_file_names(items: ItemsFile, alchemy: AlchemyFile) -> None:
    names = {i.name.lower() for i in items.items}
    assert alchemy.rules.extraction_requires.lower() in names
    assert "healing tonic" in names


# --- docs ------------------------------------------------------------------------


def test_every_tag_is_documented(
    items: ItemsFile, weapons: WeaponsFile, armor: ArmorFile, alchemy: AlchemyFile
) -> None:
    doc = DOCS.read_text(encoding="utf-8")
    tags: set[str] = {i.rule for i in items.items if i.rule}
    tags |= {r for w in weapons.weapons for r in w.rules}
    tags |= {r for a in armor.armor for r in a.rules}
    outcomes = [e for i in items.items for e in i.effects] + [i.trap for i in items.items if i.trap]
    outcomes += [e for r in alchemy.recipes for e in r.effects]
    tags |= {o.special for o in outcomes if o.special}
    missing = sorted(t for t in tags if f"`{t}`" not in doc)
    assert not missing, f"undocumented tags: {missing}"


# --- broken copies -----------------------------------------------------------------


def _broken(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (content_dir() / name).read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "old", "new", "entry", "field"),
    [
        # unknown key
        ("items.toml", 'name = "Rope"\n', 'name = "Rope"\ncolour = "brown"\n', "'Rope'", "colour"),
        # out of range (usage dice are d4..d20)
        ("items.toml", "usage_die = 20", "usage_die = 7", "'Lockpicking tools'", "usage_die"),
        # wrong type
        ("items.toml", 'text = "Nothing fancy."\ntags = ["equipment"]', 'text = "Nothing fancy."\ntags = "equipment"',
         "'Common clothes'", "tags"),
        # missing field
        ("weapons.toml", 'notation = "STR 3+1B"\nrarity = "uncommon"\n', 'rarity = "uncommon"\n', "'Falchion'",
         "notation"),
        # broken notation
        ("weapons.toml", 'notation = "STR 4+2B"', 'notation = "STR four"', "'Battle axe'", "notation"),
        # out of range
        ("armor.toml", "tokens = 3", "tokens = 9", "'Tower shield'", "tokens"),
        ("armor.toml", "ap = [2, 3]", "ap = []", "'Gothic plate armor'", "ap"),
        # out of range
        ("alchemy.toml", 'name = "Flame"\nkind = "flame"\nyig = -1', 'name = "Flame"\nkind = "flame"\nyig = -9',
         "'Flame'", "yig"),
        ("alchemy.toml", 'name = "Tonic of focus"\n', 'name = "Tonic of focus"\nbrew_time = 3\n', "'Tonic of focus'",
         "brew_time"),
    ],
)  # fmt: skip
def test_broken_copy_is_rejected(tmp_path: Path, name: str, old: str, new: str, entry: str, field: str) -> None:
    path = _broken(tmp_path, name, old, new)
    with pytest.raises(ContentError) as err:
        load_toml(path, FILES[name])
    msg = str(err.value)
    assert name in msg
    line = next((ln for ln in msg.splitlines() if entry in ln), "")
    assert line, msg
    assert re.search(rf"field [\w.]*{field}", line), msg


def test_cross_field_validators(tmp_path: Path) -> None:
    # a "(Big)" item without its extra slot
    path = _broken(tmp_path, "items.toml", "big = true\nextra_slots = 1\n", "big = true\n")
    with pytest.raises(ContentError, match="3 meter pole"):
        load_toml(path, ItemsFile)
    # a duplicate weapon name
    path = _broken(tmp_path, "weapons.toml", 'name = "Cane"', 'name = "Dagger"')
    with pytest.raises(ContentError, match="duplicate weapon"):
        load_toml(path, WeaponsFile)
    # an AP part out of range (the message names the list position)
    path = _broken(tmp_path, "armor.toml", "ap = [2, 3]", "ap = [2, 7]")
    with pytest.raises(ContentError, match=r"entry armor\[8\] \('Gothic plate armor'\): field ap\[1\]"):
        load_toml(path, ArmorFile)
    # an unknown item tag
    path = _broken(
        tmp_path,
        "items.toml",
        'text = "Nothing fancy."\ntags = ["equipment"]',
        'text = "Nothing fancy."\ntags = ["fancy"]',
    )
    with pytest.raises(ContentError, match="tags"):
        load_toml(path, ItemsFile)
    # a range that is not a range
    path = _broken(tmp_path, "weapons.toml", 'range = "2 tiles"', 'range = "far away"')
    with pytest.raises(ContentError, match="Long Spear"):
        load_toml(path, WeaponsFile)


def test_price_ranges() -> None:
    assert DiceExpr.parse("3 x 2d6").minimum == 6 and DiceExpr.parse("3 x 2d6").maximum == 36
    assert Range.NEARBY.value == "Nearby"
