"""An adventurer's fatigue, wounds, condition, afflictions, traits and insight."""

from __future__ import annotations

import pytest

from rules.attributes import ATTRS, Attr
from rules.character import (
    MAX_INSIGHT,
    AttributeState,
    Character,
    Condition,
    DamageReport,
    default_wound_choice,
)
from rules.checks import RuleError

STR, DEX, INT, PRE = Attr.STR, Attr.DEX, Attr.INT, Attr.PRE


def make(str_: int = 2, dex: int = 2, int_: int = 2, pre: int = 2, **kw: object) -> Character:
    ch = Character(name="Amber", **kw)  # type: ignore[arg-type]
    for a, s in zip(ATTRS, (str_, dex, int_, pre), strict=True):
        ch.attrs[a] = AttributeState(score=s)
    return ch


def cond(ch: Character) -> Condition:
    """The condition, read through a call so that type checkers do not narrow it across mutations."""
    return ch.condition


def state(ch: Character, a: Attr) -> tuple[int, int, int]:
    st = ch.attrs[a]
    return st.fatigue, st.wounds, st.available


def fill_with_wounds(ch: Character) -> None:
    for st in ch.attrs.values():
        st.fatigue = 0
        st.wounds = st.score


# --- fatigue ---------------------------------------------------------------------------------


def test_available_is_score_minus_fatigue_and_wounds() -> None:
    st = AttributeState(score=3, fatigue=1, wounds=1)
    assert st.available == 1
    assert st.can_hold_wound


def test_default_character() -> None:
    ch = Character("X")
    assert all(ch.attrs[a].score == 1 for a in ATTRS)
    assert cond(ch) is Condition.ACTIVE and ch.can_act and ch.alive
    ch.check_invariants()


def test_fatigue_fills_dice_then_converts_then_collapses() -> None:
    ch = make(str_=2)
    r = ch.add_fatigue(STR)
    assert r.placed == ((STR, "fatigue"),) and not r.collapsed
    assert state(ch, STR) == (1, 0, 1)
    ch.add_fatigue("str")
    assert state(ch, STR) == (2, 0, 0)
    # no available die: one fatigue point becomes a wound
    r = ch.add_fatigue(STR)
    assert r.placed == ((STR, "converted"),)
    assert state(ch, STR) == (1, 1, 0)
    assert cond(ch) is Condition.ACTIVE
    ch.add_fatigue(STR)
    assert state(ch, STR) == (0, 2, 0)
    # full of wounds: breaks down from exhaustion
    r = ch.add_fatigue(STR)
    assert r.collapsed and r.placed == ()
    assert state(ch, STR) == (0, 2, 0)
    assert cond(ch) is Condition.COLLAPSED
    assert not ch.can_act and ch.alive
    ch.check_invariants()


def test_several_points_at_once() -> None:
    ch = make(dex=2)
    r = ch.add_fatigue(DEX, 5)
    assert [p[1] for p in r.placed] == ["fatigue", "fatigue", "converted", "converted"]
    assert r.collapsed
    assert state(ch, DEX) == (0, 2, 0)
    assert cond(ch) is Condition.COLLAPSED


def test_fatigue_on_a_zero_score_attribute_collapses() -> None:
    ch = make(int_=0)
    r = ch.add_fatigue(INT)
    assert r.collapsed and cond(ch) is Condition.COLLAPSED
    assert state(ch, INT) == (0, 0, 0)


def test_fatigue_never_spills_to_other_attributes() -> None:
    ch = make()
    ch.add_fatigue(PRE, 10)
    for a in (STR, DEX, INT):
        assert state(ch, a) == (0, 0, 2)


def test_collapse_does_not_revive_or_downgrade_other_conditions() -> None:
    ch = make(str_=0)
    ch.condition = Condition.MORTALLY_WOUNDED
    ch.add_fatigue(STR)
    assert cond(ch) is Condition.MORTALLY_WOUNDED


def test_recover_fatigue() -> None:
    ch = make(str_=3)
    ch.add_fatigue(STR, 3)
    assert ch.recover_fatigue(STR) == 1
    assert state(ch, STR) == (2, 0, 1)
    assert ch.recover_fatigue(STR, 5) == 2
    assert ch.recover_fatigue(STR) == 0
    ch.add_fatigue(STR, 2)
    ch.add_fatigue(DEX, 1)
    assert ch.recover_all_fatigue() == 3
    assert all(ch.attrs[a].fatigue == 0 for a in ATTRS)


def test_recover_fatigue_none_means_all() -> None:
    ch = make(pre=3)
    ch.add_fatigue(PRE, 3)
    assert ch.recover_fatigue(PRE, None) == 3


def test_parched_cannot_recover_fatigue() -> None:
    ch = make()
    ch.add_fatigue(STR, 2)
    ch.add_affliction("Parched")
    assert ch.recover_fatigue(STR) == 0
    assert ch.recover_all_fatigue() == 0
    assert ch.attrs[STR].fatigue == 2
    ch.remove_affliction("parched")
    assert ch.recover_fatigue(STR, None) == 2


def test_plagued_turns_fatigue_into_wounds() -> None:
    ch = make(str_=2)
    ch.add_affliction("plagued")
    r = ch.add_fatigue(STR)
    assert state(ch, STR) == (0, 1, 1)
    assert r.placed == ((STR, "wound"),)
    ch.add_fatigue(STR)
    assert state(ch, STR) == (0, 2, 0)
    r = ch.add_fatigue(STR)  # nothing fits: forced, so the excess is ignored and they collapse
    assert r.collapsed and r.discarded == 1
    assert cond(ch) is Condition.COLLAPSED
    assert ch.attrs[STR].wounds == 2


def test_plagued_fatigue_converts_existing_fatigue_when_no_die_is_left() -> None:
    ch = make(dex=2)
    ch.add_fatigue(DEX, 2)
    ch.add_affliction("plagued")
    ch.add_fatigue(DEX)
    assert state(ch, DEX) == (1, 1, 0)


# --- wounds ----------------------------------------------------------------------------------


def test_wound_options() -> None:
    ch = make(str_=2, dex=1, int_=0, pre=3)
    ch.attrs[STR].fatigue = 1
    ch.attrs[DEX].wounds = 1
    ch.attrs[PRE].fatigue = 3
    assert ch.wound_options() == [(STR, False), (STR, True), (PRE, True)]


def test_place_wound_rules() -> None:
    ch = make(str_=1, dex=1)
    ch.attrs[STR].fatigue = 1
    with pytest.raises(RuleError, match="convert fatigue"):
        ch.place_wound(STR, convert=False)
    with pytest.raises(RuleError, match="no DEX fatigue"):
        ch.place_wound(DEX, convert=True)
    ch.place_wound(STR, convert=True)
    assert state(ch, STR) == (0, 1, 0)
    with pytest.raises(RuleError, match="more wounds than its score"):
        ch.place_wound(STR, convert=False)
    ch.place_wound(DEX, convert=False)
    assert state(ch, DEX) == (0, 1, 0)


def test_wounds_never_exceed_score() -> None:
    ch = make(1, 1, 1, 1)
    ch.add_wounds(10)
    for a in ATTRS:
        assert ch.attrs[a].wounds == 1
    ch.check_invariants()


def test_default_choice_converts_fatigue_first() -> None:
    ch = make(3, 3, 3, 3)
    ch.attrs[DEX].fatigue = 1
    ch.attrs[INT].fatigue = 2
    r = ch.add_wounds(1)
    assert r.placed == ((INT, "converted"),)
    assert state(ch, INT) == (1, 1, 1)


def test_default_choice_wounds_the_attribute_with_most_dice() -> None:
    ch = make(str_=3, dex=1, int_=2, pre=2)
    r = ch.add_wounds(1)
    assert r.placed == ((STR, "wound"),)
    r = ch.add_wounds(1)  # STR 2, INT 2, PRE 2: ties go to PRE
    assert r.placed == ((PRE, "wound"),)


def test_default_wound_choice_tie_order() -> None:
    ch = make(1, 1, 1, 1)
    assert default_wound_choice(ch, ch.wound_options()) == (PRE, False)
    ch.attrs[PRE].wounds = 1
    assert default_wound_choice(ch, ch.wound_options()) == (INT, False)


def test_custom_chooser_is_asked_for_every_wound() -> None:
    ch = make(2, 2, 2, 2)
    asked: list[list[tuple[Attr, bool]]] = []

    def dex_first(c: Character, opts: list[tuple[Attr, bool]]) -> tuple[Attr, bool]:
        asked.append(list(opts))
        return next(o for o in opts if o[0] is DEX) if any(o[0] is DEX for o in opts) else opts[0]

    r = ch.add_wounds(3, chooser=dex_first)
    assert len(asked) == 3
    assert [p[0] for p in r.placed] == [DEX, DEX, STR]
    assert (DEX, False) not in asked[2]


def test_zero_wounds_do_nothing() -> None:
    ch = make()
    assert ch.add_wounds(0) == DamageReport()


def test_mortal_wound_when_nothing_can_hold() -> None:
    ch = make(1, 1, 1, 1)
    r = ch.add_wounds(4)
    assert len(r.placed) == 4 and not r.mortally_wounded
    assert cond(ch) is Condition.ACTIVE
    r = ch.add_wounds(1)
    assert r.mortally_wounded and not r.died
    assert cond(ch) is Condition.MORTALLY_WOUNDED
    assert not ch.can_act and ch.alive


def test_the_blow_that_mortally_wounds_does_not_also_kill() -> None:
    ch = make(1, 1, 1, 1)
    r = ch.add_wounds(7)  # 4 fit, the 5th mortally wounds, the rest of the blow is discarded
    assert len(r.placed) == 4
    assert r.mortally_wounded and not r.died
    assert r.discarded == 2
    assert cond(ch) is Condition.MORTALLY_WOUNDED
    # later damage kills
    r = ch.add_wounds(1)
    assert r.died and not r.mortally_wounded
    assert cond(ch) is Condition.DEAD and not ch.alive


def test_later_forced_damage_also_kills() -> None:
    ch = make(0, 0, 0, 0)
    ch.add_wounds(1)
    assert cond(ch) is Condition.MORTALLY_WOUNDED
    ch.add_wounds(1, forced=STR)
    assert cond(ch) is Condition.DEAD


def test_non_lethal_wounds_are_discarded() -> None:
    ch = make(1, 1, 0, 0)
    r = ch.add_wounds(5, lethal=False)
    assert len(r.placed) == 2 and r.discarded == 3
    assert not r.mortally_wounded and not r.collapsed
    assert cond(ch) is Condition.ACTIVE


def test_non_lethal_wounds_do_not_kill_the_mortally_wounded() -> None:
    ch = make(0, 0, 0, 0)
    ch.add_wounds(1)
    r = ch.add_wounds(3, lethal=False)
    assert r.discarded == 3 and not r.died
    assert cond(ch) is Condition.MORTALLY_WOUNDED


def test_the_dead_take_nothing_more() -> None:
    ch = make(0, 0, 0, 0)
    ch.add_wounds(1)
    ch.add_wounds(1)
    assert cond(ch) is Condition.DEAD
    r = ch.add_wounds(3)
    assert r.discarded == 3 and not r.died and not r.mortally_wounded
    assert cond(ch) is Condition.DEAD


def test_forced_wounds_overflow_collapses() -> None:
    ch = make(str_=1)
    r = ch.add_wounds(3, forced=STR)
    assert r.placed == ((STR, "wound"),)
    assert r.discarded == 2 and r.collapsed and not r.mortally_wounded
    assert cond(ch) is Condition.COLLAPSED
    # other attributes are untouched by a forced placement
    assert all(ch.attrs[a].wounds == 0 for a in (DEX, INT, PRE))


def test_forced_wound_converts_fatigue_when_no_die_is_left() -> None:
    ch = make(int_=2)
    ch.add_fatigue(INT, 2)
    r = ch.add_wounds(1, forced=INT)
    assert r.placed == ((INT, "converted"),)
    assert state(ch, INT) == (1, 1, 0)


def test_collapsed_characters_can_still_be_mortally_wounded() -> None:
    ch = make(1, 0, 0, 0)
    ch.add_fatigue(DEX)
    assert cond(ch) is Condition.COLLAPSED
    ch.add_wounds(2)
    assert cond(ch) is Condition.MORTALLY_WOUNDED


def test_heal_wounds() -> None:
    ch = make(str_=3)
    ch.add_wounds(3, forced=STR)
    assert ch.heal_wounds(STR) == 1
    assert ch.heal_wounds("STR", 5) == 2
    assert ch.heal_wounds(STR) == 0
    ch.add_wounds(2, forced=STR)
    assert ch.heal_wounds(STR, None) == 2


def test_hungry_wounds_do_not_heal() -> None:
    ch = make()
    ch.add_wounds(1, forced=DEX)
    ch.add_affliction("hungry")
    assert ch.heal_wounds(DEX, None) == 0
    assert ch.attrs[DEX].wounds == 1
    ch.remove_affliction("Hungry")
    assert ch.heal_wounds(DEX) == 1


# --- afflictions and traumas -------------------------------------------------------------------


def test_same_affliction_twice_is_ignored() -> None:
    ch = make()
    assert ch.add_affliction("Terrified") is True
    assert ch.add_affliction("terrified") is False
    assert ch.afflictions == {"terrified"}
    assert ch.remove_affliction("TERRIFIED") is True
    assert ch.remove_affliction("terrified") is False
    assert ch.afflictions == set()


def test_same_trauma_twice_is_ignored() -> None:
    ch = make()
    assert ch.add_trauma("Brain damage")
    assert not ch.add_trauma("brain damage")
    assert ch.traumas == {"brain damage"}


def test_test_spec_carries_afflictions_proficiency_and_traits() -> None:
    ch = make(dex=3, traits=["Dauntless"])
    ch.attrs[DEX].proficiency = 2
    ch.add_fatigue(DEX)
    ch.add_affliction("terrified")
    ch.add_affliction("hungry")
    s = ch.test_spec(DEX, advantage=1)
    assert s.dice == 2 and s.proficiency == 2 and s.advantage == 1
    assert s.dauntless
    assert s.afflictions == {"terrified"}


def test_sleepy_character_cannot_use_extra_effort() -> None:
    ch = make()
    ch.add_affliction("sleepy")
    with pytest.raises(RuleError):
        ch.test_spec(STR, extra_effort=True)


def test_extra_effort_cannot_cause_a_wound() -> None:
    ch = make(str_=2)
    ch.add_fatigue(STR, 2)  # no available die: the point would convert into a wound
    with pytest.raises(RuleError):
        ch.test_spec(STR, extra_effort=True)
    ch.test_spec(STR)  # a plain test of zero dice is allowed
    ch2 = make()
    ch2.add_affliction("plagued")  # every fatigue point is a wound
    with pytest.raises(RuleError):
        ch2.test_spec(DEX, extra_effort=True)
    assert make().test_spec(DEX, extra_effort=True).extra_effort


def test_zero_dice_spec_rolls_two_keep_lowest() -> None:
    ch = make(pre=1)
    ch.add_fatigue(PRE)
    s = ch.test_spec(PRE)
    assert s.dice == 0 and s.keep_lowest and s.main_dice == 2


# --- Berserker ---------------------------------------------------------------------------------


def test_berserker_ignores_str_fatigue_and_wounds_in_combat() -> None:
    ch = make(str_=3, dex=2, traits=["Berserker"])
    ch.add_fatigue(STR, 2)
    ch.add_wounds(1, forced=STR)
    ch.add_fatigue(DEX)
    assert ch.available(STR) == 0
    assert ch.available(STR, in_combat=True) == 3
    assert ch.available(DEX, in_combat=True) == 1  # only strength
    assert ch.test_spec(STR, in_combat=True).dice == 3
    assert ch.test_spec(STR).dice == 0


def test_berserker_still_takes_fatigue_and_collapses() -> None:
    ch = make(str_=1, traits=["berserker"])
    ch.add_fatigue(STR, 2)
    assert state(ch, STR) == (0, 1, 0)
    ch.add_fatigue(STR)
    assert cond(ch) is Condition.COLLAPSED
    assert ch.available(STR, in_combat=True) == 1


def test_non_berserker_in_combat() -> None:
    ch = make(str_=3)
    ch.add_fatigue(STR)
    assert ch.available(STR, in_combat=True) == 2


# --- insight -----------------------------------------------------------------------------------


def test_insight_capped_at_twelve_in_a_lifetime() -> None:
    ch = make()
    assert (ch.insight, ch.insight_earned) == (1, 1)
    assert ch.earn_insight(5) == 5
    ch.spend_insight(4)
    assert ch.insight == 2
    assert ch.earn_insight(100) == MAX_INSIGHT - 6
    assert ch.insight_earned == MAX_INSIGHT
    assert ch.may_retire
    ch.spend_insight(ch.insight)
    assert ch.earn_insight(1) == 0  # spending does not make room
    assert ch.insight == 0 and ch.insight_earned == 12


def test_earning_nothing_or_negative() -> None:
    ch = make()
    assert ch.earn_insight(0) == 0
    assert ch.earn_insight(-3) == 0
    assert (ch.insight, ch.insight_earned) == (1, 1)
    assert not ch.may_retire


def test_cannot_overspend_insight() -> None:
    ch = make()
    with pytest.raises(RuleError):
        ch.spend_insight(2)
    assert ch.insight == 1


# --- saves and invariants -------------------------------------------------------------------------


def test_to_dict() -> None:
    ch = make(str_=3, traits=["Berserker"], skills=["Cooking"], silver=4)
    ch.add_fatigue(STR)
    ch.add_affliction("hungry")
    ch.add_trauma("paranoid")
    d = ch.to_dict()
    assert d["name"] == "Amber"
    assert d["attributes"]["STR"] == {"score": 3, "proficiency": 0, "fatigue": 1, "wounds": 0}
    assert d["afflictions"] == ["hungry"] and d["traumas"] == ["paranoid"]
    assert d["condition"] == "active"
    assert d["silver"] == 4 and d["traits"] == ["Berserker"] and d["skills"] == ["Cooking"]


@pytest.mark.parametrize(
    "bad", [AttributeState(2, wounds=3), AttributeState(2, fatigue=-1), AttributeState(2, fatigue=2, wounds=1)]
)
def test_check_invariants_catches_impossible_states(bad: AttributeState) -> None:
    with pytest.raises(AssertionError):
        bad.check()


def test_skills_and_traits_case_insensitive() -> None:
    ch = make(skills=["Cooking"], traits=["Third eye"])
    assert ch.has_skill("cooking") and ch.has_trait("THIRD EYE")
    assert not ch.has_trait("Berserker")
