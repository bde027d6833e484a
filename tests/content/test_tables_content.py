"""character.toml and tables.toml: counts, spot checks against the rule texts, rejection of broken copies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.content.base import ContentError, content_dir, load_toml
from rules.content.effects import AFFLICTIONS
from rules.content.schema_tables import FILES, AmountRow, CharacterFile, TablesFile
from rules.dice import DiceExpr
from rules.notation import RANGE_TILES, Range, parse_attack

CHARACTER = content_dir() / "character.toml"
TABLES = content_dir() / "tables.toml"
#: shared/ sits beside the repository (CI clones main with shared/ next to it)
RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rulebook"


@pytest.fixture(scope="module")
def char() -> CharacterFile:
    return load_toml(CHARACTER, CharacterFile)


@pytest.fixture(scope="module")
def tables() -> TablesFile:
    return load_toml(TABLES, TablesFile)


def test_files_registry() -> None:
    assert {"character.toml": CharacterFile, "tables.toml": TablesFile} == FILES


# ----------------------------------------------------------------------------------- character


def test_counts(char: CharacterFile) -> None:
    assert len(char.skills) == 26
    assert len(char.traits) == 10  # Slippery is a skill (see rulings)
    assert len(char.traumas) == 7
    assert len(char.afflictions) == 12
    assert len(char.arsenal.levels) == 3
    assert len(char.insight.spends) == 6


def test_every_skill_of_the_book(char: CharacterFile) -> None:
    names = {s.name for s in char.skills}
    assert names == {
        "Animal Affinity", "Beastmaster", "Ward the dead", "Cooking", "Master Chef", "Crafting",
        "Duelist", "Swashbuckler", "Fearless", "Haggle", "Trade network", "Holy Rites", "Infiltration",
        "Intimidate", "Loremaster", "Pilfer", "Occult Studies", "Ritualist", "Shield Expert",
        "Shield Master", "Stalker", "Street Wise", "Surgeon", "Survivalist", "Slippery", "Veteran",
    }  # fmt: skip


def test_skills_match_the_quick_reference_text(char: CharacterFile) -> None:
    """Every skill's text appears in the rule text (typo fixes aside)."""
    path = RULEBOOK / "dead-weight-core-rules-v0.6.txt"
    if not path.exists():
        pytest.skip("rulebook not present")
    book = path.read_text()
    fixed = {"Master Chef": "3 free ration ", "Trade network": "availablilty"}
    for s in char.skills:
        if s.name in fixed:
            assert fixed[s.name] in book
            continue
        assert s.text in book, s.name


def test_advanced_skills(char: CharacterFile) -> None:
    adv = {s.name: s.advanced_of for s in char.skills if s.advanced_of}
    assert adv == {
        "Beastmaster": "Animal Affinity",
        "Master Chef": "Cooking",
        "Swashbuckler": "Duelist",
        "Trade network": "Haggle",
        "Shield Master": "Shield Expert",
    }


def test_skill_numbers(char: CharacterFile) -> None:
    sk = {s.name: s for s in char.skills}
    assert (sk["Cooking"].extra_fed_per_ration, sk["Cooking"].free_rations_interlude) == (1, 1)
    assert (sk["Master Chef"].extra_fed_per_ration, sk["Master Chef"].free_rations_interlude) == (2, 3)
    assert sk["Survivalist"].extra_camp_actions == 1
    assert sk["Survivalist"].extra_proficiency == 1
    assert sk["Shield Expert"].extra_shield_tokens == 1
    assert sk["Shield Master"].moving_keeps_shield_tokens
    assert sk["Pilfer"].interlude_silver == "1d6"
    i = sk["Intimidate"]
    assert (i.attack, i.attack_range, i.combat_actions, i.uses_per_combat) == ("PRE 1N", "nearby", 2, 1)
    assert i.attack is not None
    atk = parse_attack(i.attack)
    assert atk.damage == 1 and {e.value for e in atk.effects} == {"N"}
    v = sk["Veteran"]
    assert (v.exploration_turns, v.test_attr, v.reveals_doom) == (1, "PRE", True)
    assert (sk["Ritualist"].camp_actions, sk["Ritualist"].remove_omens_or_doom) == (1, 1)
    assert sk["Crafting"].armour_repair_camp == 2
    assert (sk["Duelist"].action_name, sk["Duelist"].combat_actions) == ("Feint", 1)
    assert (sk["Fearless"].heal_wounds, sk["Fearless"].heal_attrs, sk["Fearless"].uses_per_combat) == (1, ["PRE"], 1)
    assert sk["Trade network"].price_reroll_keep_either and sk["Trade network"].availability_rerolls == 1
    assert not sk["Haggle"].price_reroll_keep_either and sk["Haggle"].price_rerolls == 1
    sw = sk["Street Wise"]
    assert (sw.no_robbery, sw.extra_daily_actions, sw.common_price_reduction, sw.min_price) == (True, 1, 1, 1)
    assert (sk["Surgeon"].test_attr, sk["Surgeon"].heal_wounds, sk["Surgeon"].targets) == ("INT", 1, "party")
    assert (sk["Ward the dead"].exploration_turns, sk["Ward the dead"].radius_m) == (1, 1.0)
    assert sk["Beastmaster"].companion == "medium ally"
    assert "lore master" in sk["Loremaster"].aliases
    assert "streetwise" in sk["Street Wise"].aliases


def test_traits(char: CharacterFile) -> None:
    tr = {t.name: t for t in char.traits}
    assert set(tr) == {
        "Berserker", "Bad omens", "Battle trance", "Cold blood", "Divine mandate", "Hardened",
        "Magic user", "Rejected by death", "Dauntless", "Third eye",
    }  # fmt: skip
    assert tr["Rejected by death"].risk_dice == 2
    assert tr["Dauntless"].extra_dice == 2
    assert (tr["Hardened"].test_attr, tr["Hardened"].resist_wounds_success, tr["Hardened"].resist_wounds_great) == (
        "STR",
        1,
        2,
    )
    assert tr["Cold blood"].extra_wounds == 1 and "cold blooded" in tr["Cold blood"].aliases
    assert tr["Berserker"].ignore_attrs_in_combat == ["STR"]
    assert (tr["Divine mandate"].casts, tr["Magic user"].casts) == ("prayers", "spells")
    assert tr["Third eye"].sees_omens
    assert "Slippery" not in tr  # a skill, reached by the Lone Rogue through classes.toml


def test_traumas(char: CharacterFile) -> None:
    tm = {t.name: t for t in char.traumas}
    assert set(tm) == {"Broken arm", "Broken leg", "Chronic pain", "Brain damage", "Paranoid", "Fearful", "Visions"}
    assert (tm["Broken leg"].movement_tiles, tm["Broken leg"].move_action_cost) == (1, 2)
    assert tm["Paranoid"].ambush_dice == -1 and tm["Paranoid"].no_help_received
    assert tm["Chronic pain"].score_reduction == 1
    assert tm["Brain damage"].proficiency_reduction == 1
    assert (tm["Fearful"].knockback_tiles, tm["Fearful"].stun_tokens) == (1, 1)
    assert (tm["Visions"].stun_tokens, tm["Visions"].trigger_range) == (1, "nearby")


def test_afflictions(char: CharacterFile) -> None:
    af = {a.name: a for a in char.afflictions}
    assert set(af) == set(AFFLICTIONS)
    assert {n for n, a in af.items() if a.permanent_until_magic} == {"cursed", "plagued", "doomed"}
    assert af["hungry"].removed_by == ["eating"]
    assert set(af["sleepy"].removed_by) == {"camping", "coffee", "wound_in_combat"}
    assert set(af["terrified"].removed_by) == {"wine", "defeat_challenging_foe"}
    assert set(af["hopeless"].removed_by) == {"escape_dungeon", "survive_challenging_fight"}
    assert set(af["nauseated"].removed_by) == {"potion", "interlude"}
    assert af["bleeding"].fatigue_per_turn == 1
    assert af["terrified"].success_faces_lost == [4]
    assert af["hopeless"].fatigue_faces_added == [5, 6]
    assert af["nauseated"].combat_actions_lost == 1
    assert af["doomed"].extra_doom_per_move == 1
    assert af["plagued"].fatigue_becomes_wound
    assert af["cursed"].effect == "Wounds do not heal by resting. Can see ghosts."
    assert af["angry"].blocks == ["proficiency_rerolls"]


def test_arsenal_and_insight(char: CharacterFile) -> None:
    lv = {lvl.name: lvl for lvl in char.arsenal.levels}
    assert lv["Weapon master"].any_weapon_or_armour
    assert lv["No weapon training"].armour_types == []
    assert set(lv["No weapon training"].weapon_classes) == {"small_one_handed", "staff"}
    assert "two_handed_melee" not in lv["Basic weapon training"].weapon_classes
    assert "heavy" not in lv["Basic weapon training"].armour_types
    assert char.arsenal.untrained_penalty == "disadvantage"
    ins = char.insight
    assert (ins.start, ins.max) == (1, 12)
    assert {s.name: s.cost for s in ins.spends} == {
        "Move attribute score": 1,
        "Learn skill": 1,
        "Heal trauma": 1,
        "Increase lowest score": 2,
        "Increase score": 3,
        "Increase proficiency": 4,
    }


# -------------------------------------------------------------------------------------- tables


def test_decay(tables: TablesFile) -> None:
    assert tables.decay_steps == 6
    d = tables.decay
    assert d.dice == "2d6" and len(d.rows) == 11
    assert d.lookup(2).text == "Press on (No effect)"
    assert d.lookup(3).fatigue == 1
    assert [d.lookup(n).afflictions for n in (4, 5, 6, 8, 9, 10)] == [
        ["terrified"],
        ["sleepy"],
        ["parched"],
        ["hungry"],
        ["hopeless"],
        ["angry"],
    ]
    assert d.lookup(7).doom == 1
    assert d.lookup(11).wounds == 1 and d.lookup(11).wound_attr is None
    assert d.lookup(12).special == "equipment_breaks"
    assert tables.decay_duplicate.step == 1 and tables.decay_duplicate.top == 12


def test_decay_duplicate_never_passes_12(tables: TablesFile) -> None:
    """+1 until valid: with every affliction held, every start lands on 7 (doom) or 11 (wound) or stays."""
    held = set(AFFLICTIONS)
    for start in range(2, 13):
        n = start
        while tables.decay.lookup(n).afflictions and set(tables.decay.lookup(n).afflictions) <= held:
            n += tables.decay_duplicate.step
        assert n <= tables.decay_duplicate.top


def test_omens(tables: TablesFile) -> None:
    assert tables.omens_tracker_size == "2d6"
    assert DiceExpr.parse(tables.omens_tracker_size).maximum == 12
    rows = tables.omens.rows
    assert len(rows) == 6 and all(isinstance(r, AmountRow) for r in rows)
    assert [r.special for r in rows] == [
        "break_equipped_items",
        "roll_decay_twice",
        "discard_water",
        "discard_rations",
        "discard_torches",
        "discard_magic_items",
    ]
    assert [r.amount for r in rows] == ["2d4", None, "2d4", "2d4", "2d4", "2d4"]
    assert tables.omens_shortfall.omens == 1


def test_mortal_wounds(tables: TablesFile) -> None:
    mw = tables.mortal_wounds
    assert len(mw.rows) == 8
    assert mw.lookup(-2).special == "no_mortal_wound" and mw.lookup(0).special == "no_mortal_wound"
    assert mw.lookup(1).special == "knocked_out"
    assert [mw.lookup(n).trauma for n in (2, 3, 4, 5)] == ["Chronic pain", "choose", "Brain damage", "Visions"]
    assert mw.lookup(6).special == "die_unless_stabilised"
    assert mw.lookup(7).special == "dead" and mw.lookup(12).special == "dead"
    assert tables.mortal_wound_rules.modifier_per_previous == 1


def test_ranges(tables: TablesFile) -> None:
    r = {x.name: x for x in tables.ranges}
    assert (r["Close"].max_tiles, r["Close"].meters, r["Close"].diagonal) == (1, 1.5, False)
    assert (r["Nearby"].max_tiles, r["Nearby"].meters) == (6, 9.0)
    assert (r["Far"].max_tiles, r["Far"].meters) == (12, 20.0)
    assert (r["Distant"].min_tiles, r["Distant"].max_tiles) == (13, None)
    # the notation parser agrees with the table
    for band in Range:
        assert RANGE_TILES[band] == r[band.value].max_tiles


def test_test_constants(tables: TablesFile) -> None:
    t = tables.tests
    assert t.success_faces == [4, 5, 6] and t.fatigue_faces == [1, 4]
    assert t.great_success_sixes == 2 and t.max_shield_tokens == 5
    assert (t.keep_it_safe_dice, t.extra_effort_dice, t.extra_effort_fatigue) == (-2, 1, 1)
    assert (t.zero_dice_roll, t.negative_dice_roll_base) == (2, 2)


def test_camp(tables: TablesFile) -> None:
    c = tables.camp
    assert {s.name: s.actions for s in c.setup} == {
        "Dry and stable place": 1,
        "Camping supply": 1,
        "Survivalist": 1,
        "Fire": 1,
        "Long rest": 2,
        "Filthy or unhealthy place": -1,
    }
    costs = {a.name: a.cost for a in c.actions}
    assert costs == {
        "Keep a lookout": 1,
        "A well deserved rest": 1,
        "Use items": 0,
        "Use camp items": 1,
        "Cook some food": 1,
        "Memorize spells and prayers": 1,
        "Sleep": 2,
    }
    sleep = next(a for a in c.actions if a.name == "Sleep")
    assert sleep.outcome is not None
    assert sleep.outcome.heal_wounds == 1 and sleep.outcome.heal_attrs == []  # any attribute (later chapter)
    assert sleep.ambush_dice == 1
    assert next(a for a in c.actions if a.name == "Keep a lookout").ambush_dice == -1
    assert {s.name: s.dice for s in c.ambush.sources} == {
        "Exposed place": 1,
        "Fire": 1,
        "Camped before": 1,
        "Sleep": 1,
        "Keep a lookout": -1,
    }
    assert (c.ambush.combat_on_sixes, c.ambush.surprised_on_sixes) == (1, 2)
    assert (c.break_camp.doom, c.break_camp.doom_after_long_rest) == (1, 2)


def test_exploration_actions(tables: TablesFile) -> None:
    turns = {a.name: a.turns for a in tables.exploration_actions}
    assert turns == {
        "Move": 1,
        "Loot": 1,
        "Parley": 1,
        "Start Combat": 1,
        "Catch your breath": 1,
        "Look for traps": 1,
        "Use a quick item": 0,
        "Use a slow item": 1,
        "Cast a spell or prayer": 1,
        "Concentrate": 1,
        "Freeform": 1,
        "Set up Camp": 1,
        "Take a free action": 0,
        "Exit the expedition": 0,
    }
    ex = {a.name: a for a in tables.exploration_actions}
    assert ex["Exit the expedition"].doom == 2  # later chapter: 2 steps
    assert ex["Freeform"].more_turns_possible


def test_combat_actions(tables: TablesFile) -> None:
    acts = {a.name: a for a in tables.combat_actions}
    assert {n: a.actions for n, a in acts.items()} == {
        "Attack": 1,
        "Recover": 1,
        "Move": 1,
        "Catch breath": 1,
        "Defend": 1,
        "Dodge": 2,
        "Cast spell, invoke a prayer or perform a combat manoeuver": 1,
        "Use item or change equipment": 1,
        "Help another": 2,
    }
    assert acts["Cast spell, invoke a prayer or perform a combat manoeuver"].actions_max == 2
    assert (acts["Dodge"].dodge_tokens, acts["Dodge"].dodge_tokens_great) == (2, 3)
    assert acts["Move"].tiles_per_available_dex == 2
    assert tables.combat.actions_per_turn == 2


# ------------------------------------------------------------------------------ broken copies


def _broken(tmp_path: Path, src: Path, old: str, new: str) -> Path:
    text = src.read_text()
    assert old in text, old
    p = tmp_path / src.name
    p.write_text(text.replace(old, new, 1))
    return p


@pytest.mark.parametrize(
    ("old", "new", "entry", "field"),
    [
        ('name = "Pilfer"\n', 'name = "Pilfer"\nsilver = 3\n', "'Pilfer'", "silver"),  # unknown key
        ('rule = "pilfer"\n', "", "'Pilfer'", "rule"),  # missing field
        ("risk_dice = 2\n", "risk_dice = 9\n", "'Rejected by death'", "risk_dice"),  # out of range
        ('removed_by = ["eating"]', 'removed_by = ["snacking"]', "afflictions[0] ('hungry')", "removed_by[0]"),
    ],
)
def test_broken_character_rejected(tmp_path: Path, old: str, new: str, entry: str, field: str) -> None:
    p = _broken(tmp_path, CHARACTER, old, new)
    with pytest.raises(ContentError) as exc:
        load_toml(p, CharacterFile)
    msg = str(exc.value)
    assert "character.toml" in msg and entry in msg and field in msg, msg


@pytest.mark.parametrize(
    ("old", "new", "where", "field"),
    [
        ('text = "Hungry"\n', 'text = "Hungry"\nhunger = 1\n', "decay.rows[6]", "hunger"),  # unknown key
        ("actions = 2\ntest_attr", "actions = 3\ntest_attr", "combat_actions[5] ('Dodge')", "actions"),
        ('doom = 2\nrequires = ["near_exit"', 'doom = 5\nrequires = ["near_exit"', "'Exit the expedition'", "doom"),
        ("min = 12\nmax = 12\n", "min = 12\nmax = 13\n", "one row per result", "decay"),  # 2d6 has one row per result
    ],
)
def test_broken_tables_rejected(tmp_path: Path, old: str, new: str, where: str, field: str) -> None:
    p = _broken(tmp_path, TABLES, old, new)
    with pytest.raises(ContentError) as exc:
        load_toml(p, TablesFile)
    msg = str(exc.value)
    assert "tables.toml" in msg and where in msg and field in msg, msg


def test_missing_skill_number_field_names_entry(tmp_path: Path) -> None:
    p = _broken(tmp_path, CHARACTER, "cost = 4\n", "")
    with pytest.raises(ContentError) as exc:
        load_toml(p, CharacterFile)
    assert re.search(r"insight\.spends\[5\].*'Increase proficiency'.*field cost", str(exc.value))


def test_advanced_of_must_name_a_skill(tmp_path: Path) -> None:
    p = _broken(tmp_path, CHARACTER, 'advanced_of = "Haggle"', 'advanced_of = "Hagle"')
    with pytest.raises(ContentError, match="advanced_of names no skill"):
        load_toml(p, CharacterFile)
