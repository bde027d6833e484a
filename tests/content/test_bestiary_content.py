"""Bestiary: counts, every notation parses, spot checks against the book, broken copies."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from rules.attributes import Attr
from rules.content.base import ContentError, content_dir, load_toml
from rules.content.schema_bestiary import FILES, ActionRule, BestiaryFile, SpecialRule
from rules.notation import Effect, Modifier, Range, parse_attack, parse_range

DOCS = content_dir() / "docs" / "bestiary.md"


@pytest.fixture(scope="module")
def bestiary() -> BestiaryFile:
    return load_toml(content_dir() / "bestiary.toml", BestiaryFile)


def test_registry() -> None:
    assert {"bestiary.toml": BestiaryFile} == FILES


def test_counts(bestiary: BestiaryFile) -> None:
    assert len(bestiary.monsters) == 37
    assert Counter(m.family for m in bestiary.monsters) == {
        "demons": 6,
        "child_stealers": 10,
        "scavengers": 7,
        "shore": 4,
        "undead": 8,
        "ghosts": 1,
        "humans": 1,
    }
    assert sum(len(m.actions) for m in bestiary.monsters) == 72
    assert sum(1 for m in bestiary.monsters for a in m.actions if a.notation) == 54
    assert [a.name for a in bestiary.enemy_rules.common_actions] == ["Move", "Recover"]
    assert len(bestiary.families) == 7


def test_derived_sheets_name_their_ruling(bestiary: BestiaryFile) -> None:
    """The two mishap summons the book prints no sheet for (RULINGS R209): between the Void Demon (LVL 6) and
    the Red Weaver (LVL 8), each line taken from theirs."""
    assert [m.name for m in bestiary.monsters if m.ruling] == ["Tormentor Demon", "Endless Horror"]
    t, h = bestiary.monster("Tormentor Demon"), bestiary.monster("Endless Horror")
    assert (t.level, t.wounds, t.armor, t.resist, t.movement) == (7, 10, 2, 1, 4)
    assert (h.level, h.wounds, h.armor, h.resist, h.movement) == (8, 14, 0, 2, 3)
    assert t.action("Void whip").notation == bestiary.monster("Void Demon").action("Void whip").notation
    assert h.action("Silver Tentacles").notation == bestiary.monster("Red Weaver").action("Silver Tentacles").notation
    assert t.ruling == h.ruling == "R209" and t.morale and not h.morale


def test_names_in_book_order(bestiary: BestiaryFile) -> None:
    assert [m.name for m in bestiary.monsters] == [
        "Lesser Demon", "Void Demon", "Vault Weaver", "Red Weaver",
        "Gremlin", "Goblin Scrapper", "Goblin Hunter", "Boggart", "Boggart Sniper", "Bloodshot Goblin",
        "Hobgoblin", "Sack Man", "Bugbear", "Goblin Matriarch",
        "Plagued Rat", "Rat King", "Giant Rat", "Bloated Plague Rat", "Swarm of Insects", "Rotworm Swarm",
        "Ectoplasmic Worm",
        "Giant Leech", "Giant Frog", "Giant Crab", "Golden Ridge Maneater",
        "Reanimated Husk", "Shrunken Corpse", "Slumbering Corpse", "Freshly Risen Corpse", "Starved Cadaver",
        "Unsatiable Dead", "Rotting Sailor", "Bloated Screamer",
        "Shadow",
        "Bounty Hunter",
        "Tormentor Demon", "Endless Horror",  # not printed: derived by RULINGS R209
    ]  # fmt: skip


def test_every_notation_parses(bestiary: BestiaryFile) -> None:
    n = 0
    for m in bestiary.monsters:
        for a in m.actions:
            if a.notation is not None:
                atk = parse_attack(a.notation)
                n += 1
                if a.range is not None:
                    band, _tiles = parse_range(a.range)
                    assert band is atk.range or atk.range is Range.CLOSE, (m.name, a.name)
        for s in m.specials:
            if s.notation is not None:
                parse_attack(s.notation)
    assert n == 54


def test_parsed_notations_exact(bestiary: BestiaryFile) -> None:
    rend = parse_attack(bestiary.monster("Bugbear").action("Rend").notation or "")
    assert rend.modifier is Modifier.DISADVANTAGE and rend.attributes == (Attr.STR,)
    assert (rend.damage, rend.crit_damage, rend.crit_effects) == (2, 2, frozenset({Effect.BLEEDING}))

    cries = bestiary.monster("Rat King").action("The cries of many")
    assert cries.notation == "-PER 1" and cries.hits_all_nearby
    atk = parse_attack(cries.notation)
    assert atk.attributes == (Attr.PRE,) and atk.modifier is Modifier.DISADVANTAGE and atk.damage == 1

    lunge = bestiary.monster("Freshly Risen Corpse").action("Lunge")
    assert lunge.notation == "DEX 2, Nearby" and lunge.rule == "lunge"
    atk = parse_attack(lunge.notation)
    assert (atk.attributes, atk.damage, atk.range) == ((Attr.DEX,), 2, Range.NEARBY)

    gaze = parse_attack(bestiary.monster("Goblin Matriarch").action("Controlling Gaze").notation or "")
    assert (gaze.attributes, gaze.damage) == ((Attr.INT,), 0)

    tentacles = parse_attack(bestiary.monster("Red Weaver").action("Silver Tentacles").notation or "")
    assert tentacles.attributes == (Attr.STR, Attr.INT, Attr.DEX)
    assert (tentacles.damage, tentacles.effects) == (2, frozenset({Effect.PIERCING}))

    whip = parse_attack(bestiary.monster("Void Demon").action("Void whip").notation or "")
    assert (whip.modifier, whip.damage, whip.effects, whip.crit_damage) == (
        Modifier.DISADVANTAGE,
        2,
        frozenset({Effect.UNRESISTABLE}),
        1,
    )
    touch = parse_attack(bestiary.monster("Shadow").action("Rotting touch").notation or "")
    assert touch.effects == {Effect.PIERCING, Effect.UNRESISTABLE} and touch.attributes == (Attr.PRE,)
    knife = parse_attack(bestiary.monster("Goblin Scrapper").action("Knife in the gut").notation or "")
    assert (knife.damage, knife.effects, knife.crit_damage) == (1, frozenset({Effect.BLEEDING}), 1)


def test_void_axe_ruling(bestiary: BestiaryFile) -> None:
    axe = bestiary.monster("Lesser Demon").action("Void Axe")
    assert axe.book_notation == "-DEX"  # printed "-DEX " with no damage
    assert axe.notation == "-DEX 2"
    # every other action is used exactly as printed
    others = [a for m in bestiary.monsters for a in m.actions if a.book_notation is not None]
    assert others == [axe]


def test_monster_spot_checks(bestiary: BestiaryFile) -> None:
    def stats(name: str) -> tuple[int, int, int, int, int]:
        m = bestiary.monster(name)
        return (m.level, m.wounds, m.armor, m.resist, m.movement)

    assert stats("Lesser Demon") == (4, 6, 2, 1, 6)
    assert stats("Void Demon") == (6, 9, 0, 1, 3)
    assert stats("Red Weaver") == (8, 14, 0, 2, 3)
    assert stats("Freshly Risen Corpse") == (2, 5, 1, 0, 5)  # the sheet's 5, not the explanation's 4
    assert stats("Giant Crab") == (5, 9, 4, 1, 8)
    assert stats("Golden Ridge Maneater") == (5, 8, 1, 2, 4)
    assert stats("Goblin Matriarch") == (3, 5, 0, 1, 1)
    assert stats("Bloated Screamer") == (5, 9, 3, 0, 1)
    assert stats("Bounty Hunter") == (4, 8, 3, 0, 4)
    assert stats("Ectoplasmic Worm") == (3, 2, 0, 1, 3)
    assert bestiary.monster("Bounty Hunter").tags == ["living", "human"]
    assert bestiary.monster("Lesser Demon").tags == ["ghost", "voidspawn"]
    assert bestiary.monster("Vault Weaver").extract == "ether"
    assert bestiary.monster("Bloated Screamer").extract == "rot"
    assert Counter(m.extract for m in bestiary.monsters) == {
        "flame": 6,
        "water": 8,
        "rot": 7,
        "ether": 9,
        "necro": 7,
    }


def test_special_rules(bestiary: BestiaryFile) -> None:
    fearless = [m.name for m in bestiary.monsters if not m.morale]
    assert fearless == [
        "Vault Weaver", "Red Weaver", "Swarm of Insects", "Reanimated Husk", "Shrunken Corpse",
        "Slumbering Corpse", "Freshly Risen Corpse", "Starved Cadaver", "Unsatiable Dead", "Rotting Sailor",
        "Bloated Screamer", "Endless Horror",
    ]  # fmt: skip
    immune = {m.name for m in bestiary.monsters if any(s.rule == "immune_pre" for s in m.specials)}
    assert immune == set(fearless) - {"Rotting Sailor"}

    def special(name: str, rule: str):  # type: ignore[no-untyped-def]
        return next(s for s in bestiary.monster(name).specials if s.rule == rule)

    assert special("Bloodshot Goblin", "frenzied").value == 3
    assert special("Rat King", "damage_cap").value == 2
    assert special("Rotworm Swarm", "damage_cap").value == 1
    assert special("Slumbering Corpse", "stack").value == 3
    assert special("Shrunken Corpse", "stack").value == 2
    boom = special("Bloated Plague Rat", "explodes_on_death")
    assert boom.area == "tile" and boom.effect is not None
    assert (boom.effect.wounds, boom.effect.risk_dice) == (2, 2)
    assert boom.effect.on_risk is not None and boom.effect.on_risk.afflictions == ["plagued"]
    pustules = special("Bloated Screamer", "acid_pustules")
    assert pustules.notation == "STR 1" and pustules.area == "close"
    assert special("Plagued Rat", "disadvantage_to_hit").text == "Small and fast, add 1 difficulty to hit."


def test_actions_spot_checks(bestiary: BestiaryFile) -> None:
    m = bestiary.monster
    assert m("Vault Weaver").action("Cry of hunger").actions == 2
    assert m("Vault Weaver").action("Consume a corpse").becomes == "Red Weaver"
    assert m("Starved Cadaver").action("Feast").becomes == "Unsatiable Dead"
    assert m("Starved Cadaver").action("Feast").actions == 2
    light = m("Red Weaver").action("Piercing red light")
    assert light.actions == 2 and light.hits_all_nearby and light.friendly_fire
    assert m("Red Weaver").action("Unblinking Gaze").stun == 2
    assert m("Red Weaver").action("Silver Tentacles").range == "Nearby"
    assert m("Hobgoblin").action("Death dealer").hits_all_close
    assert m("Hobgoblin").action("Cracked shield").shield_tokens == 2
    assert m("Boggart Sniper").action("Black Crossbow").reload_actions == 2
    assert m("Sack Man").action("Hook pole").diagonal and m("Sack Man").action("Hook pole").rule == "hook"
    assert m("Giant Crab").action("Grab").rule == "grab" and m("Giant Crab").action("Eat").rule == "eat"
    assert m("Giant Crab").action("Eat").notation == "-STR 5"
    assert m("Bloodshot Goblin").action("Unnatural regeneration").value == 1
    bite = m("Reanimated Husk").action("Infectious bite")
    assert bite.on_hit is not None and bite.on_hit.risk_dice == 1
    assert bite.on_hit.on_risk is not None and bite.on_hit.on_risk.afflictions == ["plagued"]
    shanty = m("Rotting Sailor").action("Cursed Sea shanty")
    assert shanty.on_hit is not None and shanty.on_hit.non_lethal and shanty.on_hit.wound_attr == "PRE"
    assert shanty.actions == 2 and shanty.hits_everyone and shanty.notation is None
    assert m("Bloated Screamer").action("Agony").alive_only
    assert m("Ectoplasmic Worm").action("Soul nibble").ignore_shields
    assert m("Goblin Scrapper").action("Roll").dodge_tokens == 2
    assert m("Void Demon").action("Phase out").move_tiles == 2


def test_every_tag_is_documented(bestiary: BestiaryFile) -> None:
    doc = DOCS.read_text(encoding="utf-8")
    all_tags = set(SpecialRule.__args__) | set(ActionRule.__args__)  # type: ignore[attr-defined]
    missing = sorted(t for t in all_tags if f"`{t}`" not in doc)
    assert not missing, f"undocumented tags: {missing}"
    outcome_specials = set()
    for m in bestiary.monsters:
        outs = [a.on_hit for a in m.actions] + [s.effect for s in m.specials]
        for o in outs:
            while o is not None:
                if o.special:
                    outcome_specials.add(o.special)
                o = o.on_risk
    assert outcome_specials == {"stun", "disarm", "only_if_wounded", "only_if_hits_wall"}
    assert all(f"`{t}`" in doc for t in outcome_specials)
    used = {s.rule for m in bestiary.monsters for s in m.specials}
    assert used == set(SpecialRule.__args__)  # type: ignore[attr-defined]


# --- broken copies -----------------------------------------------------------------


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = (content_dir() / "bestiary.toml").read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "bestiary.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "entry", "field"),
    [
        ('name = "Gremlin"\n', 'name = "Gremlin"\nhp = 3\n', "'Gremlin'", "hp"),  # unknown key
        ('name = "Boggart"\nfamily = "child_stealers"\nlevel = 2\nwounds = 4\n',
         'name = "Boggart"\nfamily = "child_stealers"\nlevel = 2\n', "'Boggart'", "wounds"),  # missing field
        ('name = "Red Weaver"\nfamily = "demons"\nlevel = 8', 'name = "Red Weaver"\nfamily = "demons"\nlevel = 80',
         "'Red Weaver'", "level"),  # out of range
        ('notation = "-STR 2+2B"', 'notation = "-STR two"', "'Rend'", "notation"),  # not notation
        ('text = "Jumpy! If the rat is hit by an attack, it can Move immediately."\nrule = "jumpy"',
         'text = "Jumpy! If the rat is hit by an attack, it can Move immediately."\nrule = "bouncy"',
         "'Giant Rat'", "rule"),  # unknown rule tag (message names the monster's list position)
    ],
)  # fmt: skip
def test_broken_copy_is_rejected(tmp_path: Path, old: str, new: str, entry: str, field: str) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(ContentError) as err:
        load_toml(path, BestiaryFile)
    msg = str(err.value)
    assert "bestiary.toml" in msg
    if entry == "'Giant Rat'":
        assert re.search(r"monsters\.16\.specials\[0\].*field rule", msg), msg
        return
    line = next((ln for ln in msg.splitlines() if entry in ln), "")
    assert line, msg
    assert re.search(rf"field [\w.]*{field}", line), msg


def test_cross_field_validators(tmp_path: Path) -> None:
    # fearless without morale = false
    path = _broken(tmp_path, 'name = "Shrunken Corpse"\nfamily = "undead"\nlevel = 3\nwounds = 3\nmovement = 4\n'
                   'tags = ["undead"]\nextract = "necro"\nmorale = false\n',
                   'name = "Shrunken Corpse"\nfamily = "undead"\nlevel = 3\nwounds = 3\nmovement = 4\n'
                   'tags = ["undead"]\nextract = "necro"\n')  # fmt: skip
    with pytest.raises(ContentError, match="morale"):
        load_toml(path, BestiaryFile)
    # a range that contradicts the notation
    path = _broken(
        tmp_path, 'notation = "DEX 2, Nearby"\nrange = "Nearby"', 'notation = "DEX 2, Nearby"\nrange = "Far"'
    )
    with pytest.raises(ContentError, match="disagrees"):
        load_toml(path, BestiaryFile)
    # a transformation into an unknown enemy
    path = _broken(tmp_path, 'becomes = "Red Weaver"', 'becomes = "Blue Weaver"')
    with pytest.raises(ContentError, match="Blue Weaver"):
        load_toml(path, BestiaryFile)
    # a damage cap without its value
    path = _broken(tmp_path, 'rule = "damage_cap"\nvalue = 2\n', 'rule = "damage_cap"\n')
    with pytest.raises(ContentError, match="value"):
        load_toml(path, BestiaryFile)
