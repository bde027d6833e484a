"""blacksalt.toml and names.toml: counts, spot checks against the rule texts, rejection of broken copies."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rules.content.base import ContentError, content_dir, load_toml
from rules.content.schema_blacksalt import FILES, BlacksaltFile, EventRow, NamesFile

BLACKSALT = content_dir() / "blacksalt.toml"
NAMES = content_dir() / "names.toml"


@pytest.fixture(scope="module")
def bs() -> BlacksaltFile:
    return load_toml(BLACKSALT, BlacksaltFile)


@pytest.fixture(scope="module")
def names() -> NamesFile:
    return load_toml(NAMES, NamesFile)


def test_files_registry() -> None:
    assert {"blacksalt.toml": BlacksaltFile, "names.toml": NamesFile} == FILES


def test_sizes_and_settlements(bs: BlacksaltFile) -> None:
    assert [(s.size, s.name) for s in bs.sizes] == [
        (1, "Small Camp"),
        (2, "Hamlet"),
        (3, "Fief"),
        (4, "Stronghold"),
        (5, "City"),
    ]
    assert {s.name: s.size for s in bs.settlements} == {
        "Yoros": 5,
        "Kumar Port City": 5,
        "Steinsburg": 4,
        "Brutburg": 4,
        "Trinta": 3,
        "Luna": 3,
        "Cefit": 2,
    }
    trinta = next(s for s in bs.settlements if s.name == "Trinta")
    assert "Ishnar Zul" in trinta.text
    locs = {loc.name: loc for loc in bs.locations}
    assert set(locs) == {"Fallen Agnar", "The Capital", "Golden Ridge", "Island of Yadar", "Ravenhome"}
    assert locs["Fallen Agnar"].kind == "ruin" and locs["Fallen Agnar"].text
    assert all(loc.kind == "other_place" and loc.text is None for n, loc in locs.items() if n != "Fallen Agnar")


def test_events(bs: BlacksaltFile) -> None:
    ev = bs.events
    assert [(r.min, r.max, r.special) for r in ev.rows] == [(1, 3, "bad_event"), (4, 5, None), (6, 6, "opportunity")]
    bad = bs.bad_events
    assert len(bad.rows) == 6 and all(isinstance(r, EventRow) for r in bad.rows)
    r1 = bad.lookup(1)
    assert (r1.settlement_doom, r1.omens) == (1, 1)
    harvest = bad.lookup(2)
    assert isinstance(harvest, EventRow)
    assert (harvest.special, harvest.price_category, harvest.price_multiplier, harvest.duration) == (
        "bad_harvest",
        "food",
        2.0,
        "1d6",
    )
    thugs = bad.lookup(3)
    assert (thugs.wounds, thugs.lose_silver) == (3, "2d6")
    assert bad.lookup(4).affliction_choice == ["terrified", "hopeless"]
    crowd = bad.lookup(5)
    assert isinstance(crowd, EventRow)
    assert (crowd.special, crowd.price_category, crowd.price_multiplier, crowd.duration) == (
        "overcrowded",
        "housing",
        2.0,
        "1d6",
    )
    assert bad.lookup(6).settlement_doom == 1
    opp = bs.opportunities
    assert len(opp.rows) == 6
    assert opp.lookup(1).settlement_doom == -1
    good = opp.lookup(2)
    assert isinstance(good, EventRow)
    assert (good.price_multiplier, good.days, good.stops) == (0.5, 1, "bad_harvest")
    investor = opp.lookup(3)
    assert isinstance(investor, EventRow) and investor.sell_multiplier == 1.5
    assert opp.lookup(4).remove_one_of == ["terrified", "hopeless", "angry"]
    empty = opp.lookup(5)
    assert isinstance(empty, EventRow) and (empty.price_category, empty.stops) == ("housing", "overcrowded")
    assert len(opp.lookup(6).alternatives) == 3


def test_sleep_tables(bs: BlacksaltFile) -> None:
    sl = {s.name: s for s in bs.sleep}
    assert set(sl) == {
        "On the streets - size 4-5",
        "On the streets - size 1-3",
        "Camp",
        "Inn",
        "Proper accommodation",
    }
    assert [len(s.table.rows) for s in bs.sleep] == [7, 7, 6, 6, 4]
    assert (sl["On the streets - size 4-5"].min_size, sl["On the streets - size 4-5"].max_size) == (4, 5)
    assert (sl["On the streets - size 1-3"].min_size, sl["On the streets - size 1-3"].max_size) == (1, 3)
    assert (sl["Inn"].cost_silver, sl["Inn"].min_size) == (1, 3)
    assert sl["Camp"].camping_supplies_per_character == 1
    assert sl["Proper accommodation"].availability == "story" and sl["Proper accommodation"].cost_silver is None
    big = sl["On the streets - size 4-5"].table
    assert big.lookup(2).wounds == 2 and big.lookup(3).affliction_choice == ["hopeless", "angry"]
    mug = big.lookup(6)
    assert mug.special == "robbery" and [(a.lose_silver, a.wounds) for a in mug.alternatives] == [("2d6", 0), (None, 2)]
    assert [(a.lose_silver, a.wounds) for a in big.lookup(8).alternatives] == [("2d6", 0), (None, 1)]
    small = sl["On the streets - size 1-3"].table
    assert small.lookup(6).settlement_doom == 1 and small.lookup(8).lose_silver == "3d6"
    inn = sl["Inn"].table
    assert inn.lookup(12).heal_wounds == 1 and inn.lookup(11).remove == ["sleepy", "shaken", "angry"]
    assert sl["Camp"].table.lookup(5).special == "spend_camping_supply"
    proper = sl["Proper accommodation"].table
    assert [(r.min, r.max) for r in proper.rows] == [(2, 5), (6, 7), (8, 9), (10, 12)]


def test_interlude_actions(bs: BlacksaltFile) -> None:
    acts = {a.name: a for a in bs.interlude_actions}
    assert list(acts) == ["Rest", "Tend Wounds", "Sell", "Go shopping", "Go back to expedition", "Lay low"]
    rest = {o.name: o for o in acts["Rest"].options}
    assert acts["Rest"].outcome.restore_fatigue == 1
    ent = rest["Proper entertainment"]
    assert (ent.cost_silver, ent.min_size, ent.max_size) == (2, 4, 5)
    drunk = rest["Get very drunk"]
    assert (drunk.cost_silver, drunk.min_size, drunk.max_size, drunk.outcome.risk_dice) == (1, 3, 5, 2)
    assert drunk.outcome.on_risk is not None and drunk.outcome.on_risk.afflictions == ["nauseated"]
    assert (rest["Bucolic rest"].min_size, rest["Bucolic rest"].max_size) == (1, 3)
    tend = {o.name: o for o in acts["Tend Wounds"].options}
    assert acts["Tend Wounds"].outcome.remove == ["bleeding"]
    surgeon = tend["Visit a surgeon"]
    assert (surgeon.cost_silver, surgeon.min_size, surgeon.max_size, surgeon.outcome.heal_wounds) == (4, 4, 5, 2)
    assert surgeon.outcome.on_risk is not None and surgeon.outcome.on_risk.remove == ["plagued"]
    witch = tend["Visit the witch doctor"]
    assert (witch.cost_silver, witch.min_size, witch.max_size) == (2, 2, 4)
    assert witch.outcome.on_risk is not None and witch.outcome.on_risk.remove == ["cursed"]
    assert tend["Use a first aid kit"].requires_item == "first aid kit"
    assert tend["Time heals all wounds"].outcome.risk_dice == 3
    assert (acts["Sell"].test_attr, acts["Sell"].on_fail) == ("PRE", "downgrade_rarity")
    lay = acts["Lay low"].outcome
    assert lay.risk_dice == 2 and lay.on_risk is not None and lay.on_risk.settlement_doom == -1


def test_shopping(bs: BlacksaltFile) -> None:
    table = {s.size: (s.common, s.uncommon, s.valuable, s.rare, s.exotic) for s in bs.shopping}
    assert table == {
        1: (2, 1, "unavailable", "unavailable", "unavailable"),
        2: (3, 2, 1, "unavailable", "unavailable"),
        3: (4, 3, 2, 1, "unavailable"),
        4: ("always", 4, 3, 2, 1),
        5: ("always", "always", 4, 3, 2),
    }


def test_settlement_doom(bs: BlacksaltFile) -> None:
    d = {s.step: s for s in bs.settlement_doom}
    assert [s.price_increase for s in bs.settlement_doom] == [1, 1, 2, 2, 3, 3, 3]
    assert d[1].inn_surcharge == 0 and d[2].inn_surcharge == 1
    assert d[3].max_rarity == "uncommon" and d[5].max_rarity == "common"
    assert not d[3].no_inn and d[4].no_inn
    assert d[6].no_shopping and d[6].no_surgeon and d[6].no_entertainment and not d[6].hunted
    assert d[7].hunted


def test_interlude_and_hunger(bs: BlacksaltFile) -> None:
    il = bs.interlude
    assert il.day_steps == ["events", "actions", "hunger", "sleep"]
    assert il.after_expedition_step == "sleep" and il.actions_per_day == 1
    assert il.duplicate_affliction == "choose_another" and not il.decay_tracker
    hb = bs.hunger_bites
    assert hb.rations_per_day == 1 and hb.outcome.afflictions == ["hungry", "parched"]
    assert hb.if_already_hungry == "roll_decay"


def test_names(names: NamesFile) -> None:
    assert len(names.given_names) >= 80
    assert len(names.surnames) >= 60
    assert len(names.epithets) >= 40
    assert any(e.startswith("the ") for e in names.epithets)
    book = {"zael", "amber", "ishnar", "zul", "cador", "yulak"}
    assert not book & {n.casefold() for n in names.given_names + names.surnames}
    rng = random.Random(7)
    pats = names.patterns
    for _ in range(50):
        p = rng.choices(pats, weights=[x.weight for x in pats])[0].pattern
        name = p.format(
            given=rng.choice(names.given_names),
            surname=rng.choice(names.surnames),
            epithet=rng.choice(names.epithets),
        )
        assert "{" not in name and name[0].isupper()


# ------------------------------------------------------------------------------ broken copies


def _broken(tmp_path: Path, src: Path, old: str, new: str) -> Path:
    text = src.read_text()
    assert old in text, old
    p = tmp_path / src.name
    p.write_text(text.replace(old, new, 1))
    return p


@pytest.mark.parametrize(
    ("old", "new", "where", "field"),
    [
        ('name = "Cefit"\nsize = 2\n', 'name = "Cefit"\nsize = 2\nmayor = "x"\n', "'Cefit'", "mayor"),
        ('name = "Cefit"\nsize = 2\n', 'name = "Cefit"\nsize = 6\n', "'Cefit'", "size"),
        ('name = "Inn"\nrule = "inn"\n', 'name = "Inn"\n', "'Inn'", "rule"),
        ("cost_silver = 4\n", "cost_silver = 40\n", "'Visit a surgeon'", "cost_silver"),
        ("price_multiplier = 2.0\n", "price_multiplier = 9.0\n", "bad_events.rows[1]", "price_multiplier"),
        ("step = 7\n", "step = 8\n", "settlement_doom[6]", "step"),
        ("size = 3\ncommon = 4\n", "size = 3\ncommon = 1\n", "top level", "shopping"),
    ],
)
def test_broken_blacksalt_rejected(tmp_path: Path, old: str, new: str, where: str, field: str) -> None:
    p = _broken(tmp_path, BLACKSALT, old, new)
    with pytest.raises(ContentError) as exc:
        load_toml(p, BlacksaltFile)
    msg = str(exc.value)
    assert "blacksalt.toml" in msg and where in msg and field in msg, msg


def test_broken_names_rejected(tmp_path: Path) -> None:
    p = _broken(tmp_path, NAMES, 'given_names = [\n    "Aveth",', 'given_names = [\n    "Zael",')
    with pytest.raises(ContentError, match="reserved"):
        load_toml(p, NamesFile)
    p = _broken(tmp_path, NAMES, 'pattern = "{given}"\n', 'pattern = "{nick}"\n')
    with pytest.raises(ContentError) as exc:
        load_toml(p, NamesFile)
    assert re.search(r"names\.toml: entry patterns\[0\].*field pattern", str(exc.value))
