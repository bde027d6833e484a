"""Themes of the dungeon generator: every theme loads, meets its minimums, resolves its names; broken copies fail."""

from __future__ import annotations

import re
import shutil
import string
import typing
from pathlib import Path
from random import Random

import pytest
from pydantic import BaseModel

from dungeon_gen.story import PHRASES
from dungeon_gen.story import fill as fill_template
from dungeon_gen.themes import (
    DOOM_KINDS,
    PLACEHOLDERS,
    Theme,
    load_theme,
    load_themes,
    parse_count,
    placeholders,
    themes_dir,
)
from rules.content.base import ContentError
from rules.content.registry import Content, load_content
from rules.dice import DiceExpr
from rules.notation import parse_attack

THEME_IDS = [
    "demon_vault",
    "flooded_cellar",
    "goblin_warren",
    "necromancer_tomb",
    "plague_chapel",
    "ruined_watchtower",
    "salt_mine",
]
README = themes_dir() / "README.md"


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


@pytest.fixture(scope="module")
def themes(content: Content) -> dict[str, Theme]:
    return load_themes(content=content)


def _levels(content: Content) -> dict[str, int]:
    return {m.name: m.level for m in content.bestiary.monsters}


def _item_names(content: Content) -> set[str]:
    names = {i.name for i in content.items.items}
    names |= {w.name for w in content.weapons.weapons}
    names |= {a.name for a in content.armor.armor}
    names |= {s.name for s in content.armor.shields}
    return names


def test_every_theme_loads(themes: dict[str, Theme]) -> None:
    assert list(themes) == THEME_IDS
    for tid, theme in themes.items():
        assert theme.id == tid
        assert (themes_dir() / f"{tid}.toml").is_file()
    assert {t.style for t in themes.values()} <= {"halls", "caves"}


def test_default_loader_is_cached() -> None:
    assert load_themes() is not load_themes()  # a fresh dict each call ...
    assert load_themes()["goblin_warren"] is load_themes()["goblin_warren"]  # ... of the same validated themes


@pytest.mark.parametrize("tid", THEME_IDS)
def test_minimum_counts(themes: dict[str, Theme], tid: str) -> None:
    t = themes[tid]
    assert t.family_text and t.name
    assert 1 <= t.min_level <= t.max_level <= 10
    assert len(t.titles.patterns) >= 4
    assert len(t.titles.adjectives) >= 8 and len(t.titles.places) >= 6 and len(t.titles.owners) >= 8
    assert len(t.titles.depths) >= 3
    assert all(len(d.names) >= 2 for d in t.titles.depths)
    assert len(t.wandering) >= 6
    assert all(w.name and w.text for w in t.wandering)
    assert len(t.room_kinds) >= 14
    for k in t.room_kinds:
        assert len(k.names) >= 2 and k.sizes
        assert len(k.descriptions) >= 3, k.id
        assert len(k.features) >= 2, k.id
    assert sum(k.entrance for k in t.room_kinds) >= 2
    assert sum(k.boss_lair for k in t.room_kinds) >= 1
    assert len(t.traps) >= 8
    assert all(tr.clue and tr.trigger and tr.effect for tr in t.traps)
    assert len(t.loot) >= 15
    assert sum(lt.item is None for lt in t.loot) >= 10  # theme valuables
    assert sum(lt.item is not None for lt in t.loot) >= 5  # real equipment
    assert len(t.secrets) >= 6
    assert len({s.kind for s in t.secrets}) >= 4
    assert len(t.corpses) >= 4
    assert any(c.rises_as for c in t.corpses)
    assert len(t.hooks.all()) >= 4 and len(t.hooks.openers) >= 3
    assert len(t.rumours.true) >= 8 and len(t.rumours.false) >= 8
    assert min(len(t.history.origin), len(t.history.fall), len(t.history.now)) >= 3
    assert {d.kind for d in t.doom} == set(DOOM_KINDS)
    for kind in ("archway", "wooden", "iron", "stuck", "locked", "secret", "barricaded"):
        assert len(t.doors.for_kind(kind)) >= 2, kind  # type: ignore[arg-type]
    assert len(t.doors.keys) >= 3


def test_descriptions_are_prose(themes: dict[str, Theme]) -> None:
    for t in themes.values():
        for k in t.room_kinds:
            for d in k.descriptions:
                sentences = [s for s in re.split(r"(?<=[.!?])\s+", d) if s]
                assert 2 <= len(sentences) <= 4, (t.id, k.id, d)
                assert len(d) >= 80, (t.id, k.id, d)


def test_no_two_themes_share_prose(themes: dict[str, Theme]) -> None:
    seen: dict[str, str] = {}
    for t in themes.values():
        texts = [d for k in t.room_kinds for d in k.descriptions]
        texts += [r if isinstance(r, str) else r.text for r in t.rumours.true] + t.rumours.false + _hooks(t)
        for text in texts:
            assert text not in seen or seen[text] == t.id, (text, seen.get(text), t.id)
            seen[text] = t.id


@pytest.mark.parametrize("tid", THEME_IDS)
def test_every_level_is_covered(themes: dict[str, Theme], content: Content, tid: str) -> None:
    """At every level a theme suits, each role has monsters of a sensible strength."""
    t = themes[tid]
    levels = _levels(content)
    for lv in range(t.min_level, t.max_level + 1):
        minions = t.roster(lv, "minion")
        elites = t.roster(lv, "elite")
        bosses = t.roster(lv, "boss")
        assert len({e.monster for e in minions}) >= 2, (tid, lv)
        assert elites and bosses, (tid, lv)
        assert all(levels[e.monster] <= lv + 1 for e in minions), (tid, lv)  # level 1: minions of level 1-2
        assert all(levels[e.monster] <= lv + 2 for e in elites), (tid, lv)
        assert all(levels[e.monster] <= lv + 4 for e in bosses), (tid, lv)
        if lv >= 3:  # a level-5 dungeon has elites of level 4-6
            assert any(lv - 2 <= levels[e.monster] <= lv + 1 for e in elites), (tid, lv)
        assert len(t.wandering_at(lv)) >= 3, (tid, lv)
        assert t.doom_at(lv, "final_fight"), (tid, lv)
        for tier in (1, 2, 3):
            assert any(d.tier == tier for d in t.doom_at(lv)), (tid, lv, tier)
        assert len([tr for tr in t.traps if tr.fits(lv)]) >= 6, (tid, lv)
        assert len([lt for lt in t.loot if lt.fits(lv)]) >= 12, (tid, lv)


def test_brief_bosses(themes: dict[str, Theme]) -> None:
    bosses = {tid: {e.monster for e in t.monsters if e.role == "boss"} for tid, t in themes.items()}
    assert {"Bloated Screamer", "Starved Cadaver", "Vault Weaver"} <= bosses["necromancer_tomb"]
    assert {"Goblin Matriarch", "Sack Man"} <= bosses["goblin_warren"]
    assert {"Bloated Screamer", "Rat King"} <= bosses["plague_chapel"]
    assert {"Void Demon", "Red Weaver"} <= bosses["demon_vault"]
    matriarchs = [e for e in themes["goblin_warren"].monsters if e.monster == "Goblin Matriarch"]
    assert all(e.escort for e in matriarchs)  # she never stands alone


def test_monster_names_resolve(themes: dict[str, Theme], content: Content) -> None:
    known = set(_levels(content))
    for t in themes.values():
        names = [e.monster for e in t.monsters] + [m.monster for e in t.monsters for m in e.escort]
        names += [m.monster for w in t.wandering for m in w.monsters]
        names += [m.monster for d in t.doom for m in d.monsters]
        names += [c.rises_as for c in t.corpses if c.rises_as]
        assert set(names) <= known, (t.id, set(names) - known)


def test_item_names_resolve_and_values_fit(themes: dict[str, Theme], content: Content) -> None:
    items = _item_names(content)
    averages = {r.name: r.average for r in content.items.rarities}
    for t in themes.values():
        for lt in t.loot:
            if lt.item is not None:
                assert lt.item in items, (t.id, lt.item)
                continue
            assert lt.rarity is not None and lt.value is not None
            mean = DiceExpr.parse(lt.value).mean
            assert 0.35 * averages[lt.rarity] <= mean <= 3 * averages[lt.rarity], (t.id, lt.name)


def test_notations_and_counts_parse(themes: dict[str, Theme]) -> None:
    attacks = 0
    for t in themes.values():
        for tr in t.traps:
            if tr.attack:
                parse_attack(tr.attack)
                attacks += 1
        for d in t.doom:
            if d.attack:
                parse_attack(d.attack)
                attacks += 1
        for e in t.monsters:
            parse_count(e.group)
        for w in t.wandering:
            for m in w.monsters:
                lo, hi = parse_count(m.count)
                assert 1 <= lo <= hi <= 6
    assert attacks >= 48
    assert parse_count("2-4") == (2, 4) and parse_count("3") == (3, 3)
    for bad in ("0", "4-2", "two", "1-99"):
        with pytest.raises(ValueError):
            parse_count(bad)


def test_afflictions_and_settlements_exist(themes: dict[str, Theme], content: Content) -> None:
    afflictions = {a.name for a in content.character.afflictions}
    settlements = {s.name for s in content.blacksalt.settlements}
    for t in themes.values():
        for tr in t.traps:
            assert set(tr.afflictions) <= afflictions, (t.id, tr.name)
        for d in t.doom:
            assert d.affliction is None or d.affliction in afflictions
        assert set(t.hooks.settlements) <= settlements
    assert themes["flooded_cellar"].hooks.settlements == ["Kumar Port City"]


def _hooks(t: Theme) -> list[str]:
    return [h if isinstance(h, str) else h.text for h in t.hooks.all()]


def _templates(t: Theme) -> list[str]:
    trues = [r if isinstance(r, str) else r.text for r in t.rumours.true]
    texts = _hooks(t) + [x for o in t.hooks.offers for x in (o.quest, o.after)] + t.hooks.openers + trues
    texts += t.rumours.false
    texts += t.history.origin + t.history.fall + t.history.now
    texts += [d.text for d in t.doom] + [w.text for w in t.wandering]
    texts += [x for k in t.room_kinds for x in [*k.names, *k.descriptions]]
    texts += [x for k in t.room_kinds for f in k.features for x in (f.text, f.success, f.failure)]
    for kind in ("archway", "wooden", "iron", "stuck", "locked", "secret", "barricaded"):
        texts += t.doors.for_kind(kind)  # type: ignore[arg-type]
    return texts + t.doors.keys


def test_placeholders_fill(themes: dict[str, Theme]) -> None:
    values = {name: f"<{name}>" for name in PLACEHOLDERS}
    for t in themes.values():
        banks = t.phrase_banks()
        for text in _templates(t):
            plain = {n for n in placeholders(text) if not n.startswith("@")}
            assert plain <= PLACEHOLDERS, text
            assert {n[1:] for n in placeholders(text) - plain} <= set(banks), text
            for seed in range(3):  # every part drawn, every placeholder filled
                out = fill_template(text, {**values, PHRASES: banks}, Random(seed))
                assert "{" not in out and "[" not in out and "|" not in out, out
        for hook in _hooks(t):
            assert "{bounty}" in hook and "{settlement}" in hook, hook
        for d in t.doom:
            if d.kind == "final_fight":
                assert "{boss}" in d.text
        words = {"adjective": t.titles.adjectives[0], "place": t.titles.places[0], "owner": t.titles.owners[0]}
        for pattern in t.titles.patterns:
            title = pattern.format(**words)
            assert "{" not in title and title[0].isupper(), title


def test_owners_are_invented(themes: dict[str, Theme]) -> None:
    for t in themes.values():
        for owner in t.titles.owners:
            assert owner.lower() not in {"acheron zul", "ishnar zul", "guhlat", "irvine"}


def test_bounty_formula(themes: dict[str, Theme]) -> None:
    # the sample dungeon: 80 silver for a three-level tomb
    assert themes["necromancer_tomb"].hooks.bounty.silver(level=3, depths=3) == 80
    for t in themes.values():
        low = t.hooks.bounty.silver(t.min_level, 1)
        high = t.hooks.bounty.silver(t.max_level, 3)
        assert 40 <= low < high <= 120, t.id
    for t in themes.values():  # 40-120 silver by level and depth (#14)
        for level in range(1, 11):
            for depths in range(1, 6):
                assert 40 <= t.hooks.bounty.silver(level, depths) <= 120, (t.id, level, depths)


def test_depth_names(themes: dict[str, Theme]) -> None:
    tomb = themes["necromancer_tomb"]
    assert "The Mausoleum" in tomb.depth_names(1).names
    assert tomb.depth_names(9) == tomb.titles.depths[-1]
    for t in themes.values():
        for k in t.room_kinds:
            assert t.room_kind(k.id) is k
            if k.entrance:
                assert k.min_depth == 1


def test_readme_documents_every_field() -> None:
    text = README.read_text(encoding="utf-8")
    missing: set[str] = set()

    def walk(model: type[BaseModel]) -> None:
        for name, info in model.model_fields.items():
            if f"`{name}`" not in text:
                missing.add(f"{model.__name__}.{name}")
            for arg in _model_args(info.annotation):
                walk(arg)

    walk(Theme)
    assert not missing, sorted(missing)
    for name in PLACEHOLDERS:
        assert f"`{{{name}}}`" in text, name


def _model_args(tp: object) -> list[type[BaseModel]]:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    return [m for a in typing.get_args(tp) for m in _model_args(a)]


# --- broken copies -------------------------------------------------------------------------------


def _broken(tmp_path: Path, old: str, new: str, tid: str = "necromancer_tomb") -> Path:
    src = themes_dir() / f"{tid}.toml"
    text = src.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / src.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


BROKEN = [
    # (old, new, entry, field)
    (
        'disarm_text = "a spike hammered',
        'colour = "red"\ndisarm_text = "a spike hammered',
        "'Red spike plates'",
        "colour",
    ),
    ('clue = "[a crate of spikes', 'hint = "[a crate of spikes', "'Red spike plates'", "clue"),
    (
        'monster = "Bloated Screamer"\nrole = "elite"',
        'monster = "Bloated Screemer"\nrole = "elite"',
        "'Bloated Screemer'",
        "monster",
    ),
    ('attack = "-DEX 2+1B"', 'attack = "-DEX two"', "'Red spike plates'", "attack"),
    ('item = "Healing tonic"', 'item = "Healing potion"', "'Healing potion'", "item"),
    (
        'monster = "Void Demon"\nrole = "boss"\nmin_level = 3',
        'monster = "Void Demon"\nrole = "boss"\nmin_level = 1',
        "'Void Demon'",
        "monster",
    ),
    ('rarity = "exotic"\nvalue = "10 x 4d6"', 'rarity = "exotic"\nvalue = 5', "'Rosary of the hundred names'", "value"),
    ('name = "Defaced name"\ntext = "The name', 'name = "Defaced name"\ntext = "The {name}', "'Defaced name'", "text"),
    ('test = "INT"\nsuccess = "Traces', 'test = "WIS"\nsuccess = "Traces', "'Defaced name'", "test"),
    ('afflictions = ["bleeding"]', 'afflictions = ["bleding"]', "'Red spike plates'", "afflictions"),
    (
        'group = "2-4"\ndoing = [\n    "crawling',
        'group = "4-2"\ndoing = [\n    "crawling',
        "monsters[0]",
        "group",
    ),
]


@pytest.mark.parametrize(("old", "new", "entry", "field"), BROKEN)
def test_broken_copy_is_rejected(tmp_path: Path, old: str, new: str, entry: str, field: str) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(ContentError) as err:
        load_theme(path)
    msg = str(err.value)
    assert "necromancer_tomb.toml" in msg
    line = next((ln for ln in msg.splitlines() if entry in ln), "")
    assert line, msg
    assert line.strip().startswith("necromancer_tomb.toml: entry"), line
    assert re.search(rf"field [\w.\[\]]*{field}", line), msg


def test_broken_top_level_fields(tmp_path: Path) -> None:
    cases = [
        ('style = "halls"', 'style = "mazes"', "top level: field style"),
        ("{bounty} silver to whoever brings", "{reward} silver to whoever brings", "entry hooks.offers[0]: field text"),
        ('settlements = ["Trinta"', 'settlements = ["Trintaa"', "field settlements[0]: unknown settlement 'Trintaa'"),
        ('id = "necromancer_tomb"', 'id = "tomb"', "field id: 'tomb' must match the file name"),
        ('owners = [\n    "Malgrave Oth"', 'owners = [\n    "Acheron Zul"', "field titles"),
        ('"The {place} Where {owner} Lies",', '"The {place} Where {who} Lies",', "field titles.patterns[5]"),
        ('"The {place} Where {owner} Lies",', '"Where {owner} Lies",', "does not read as a place"),
    ]
    for old, new, expected in cases:
        path = _broken(tmp_path, old, new)
        with pytest.raises(ContentError) as err:
            load_theme(path)
        assert "necromancer_tomb.toml" in str(err.value)
        assert expected in str(err.value), str(err.value)


def test_missing_doom_kind_and_short_lists(tmp_path: Path) -> None:
    src = (themes_dir() / "goblin_warren.toml").read_text(encoding="utf-8")
    no_flood = re.sub(r'\[\[doom\]\]\nkind = "flood"\n(?:[^\[\n][^\n]*\n)*', "", src)
    assert no_flood != src
    path = tmp_path / "goblin_warren.toml"
    path.write_text(no_flood, encoding="utf-8")
    with pytest.raises(ContentError, match=r"goblin_warren\.toml: top level.*flood"):
        load_theme(path)

    one_rumour = re.sub(r"(\[rumours\]\ntrue = \[\n)(?:    [^\n]*\n)*\]", r'\1    "Only one.",\n]', src)
    path.write_text(one_rumour, encoding="utf-8")
    with pytest.raises(ContentError, match=r"field rumours\.true: List should have at least 8 items"):
        load_theme(path)


def test_theme_folder_errors(tmp_path: Path, content: Content) -> None:
    with pytest.raises(ContentError, match="no theme files"):
        load_themes(tmp_path, content=content)
    shutil.copy(themes_dir() / "goblin_warren.toml", tmp_path / "goblin_warren.toml")
    assert list(load_themes(tmp_path, content=content)) == ["goblin_warren"]
    (tmp_path / "zz_bad.toml").write_text("id = [", encoding="utf-8")
    with pytest.raises(ContentError, match=r"zz_bad\.toml: not valid TOML"):
        load_themes(tmp_path, content=content)


def test_title_pattern_words_are_formatter_safe(themes: dict[str, Theme]) -> None:
    for t in themes.values():
        for word in [*t.titles.adjectives, *t.titles.places, *t.titles.owners]:
            assert not any(name for _, name, _, _ in string.Formatter().parse(word) if name is not None), word
