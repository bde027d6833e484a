"""Property tests: random sequences of what can happen to an adventurer, and to trackers."""

from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.attributes import ATTRS, Attr
from rules.character import AttributeState, Character, Condition
from rules.trackers import DecayTracker, DoomStep, DoomTracker, OmensTracker, Tracker

AFFLICTIONS = ["plagued", "parched", "hungry", "terrified", "hopeless", "angry", "sleepy", "cursed", "doomed"]

RANK = {Condition.ACTIVE: 0, Condition.COLLAPSED: 1, Condition.MORTALLY_WOUNDED: 2, Condition.DEAD: 3}
ALLOWED = {
    (Condition.ACTIVE, Condition.COLLAPSED),
    (Condition.ACTIVE, Condition.MORTALLY_WOUNDED),
    (Condition.COLLAPSED, Condition.MORTALLY_WOUNDED),
    (Condition.MORTALLY_WOUNDED, Condition.DEAD),
}

attrs = st.sampled_from(ATTRS)
ops = st.one_of(
    st.tuples(st.just("fatigue"), attrs, st.integers(1, 4)),
    st.tuples(st.just("wounds"), st.integers(0, 5), st.booleans(), st.one_of(st.none(), attrs)),
    st.tuples(st.just("recover"), attrs, st.one_of(st.none(), st.integers(0, 3))),
    st.tuples(st.just("heal"), attrs, st.one_of(st.none(), st.integers(0, 3))),
    st.tuples(st.just("afflict"), st.sampled_from(AFFLICTIONS)),
    st.tuples(st.just("cure"), st.sampled_from(AFFLICTIONS)),
)


@st.composite
def characters(draw: st.DrawFn) -> Character:
    ch = Character(name="Prop", traits=draw(st.lists(st.sampled_from(["Berserker", "Dauntless"]), unique=True)))
    for a in ATTRS:
        ch.attrs[a] = AttributeState(score=draw(st.integers(0, 3)), proficiency=draw(st.integers(0, 2)))
    return ch


def cond(ch: Character) -> Condition:
    """The condition, read through a call so that type checkers do not narrow it across mutations."""
    return ch.condition


def totals(ch: Character) -> tuple[int, int]:
    return sum(s.fatigue for s in ch.attrs.values()), sum(s.wounds for s in ch.attrs.values())


def apply(ch: Character, op: tuple[Any, ...]) -> None:
    kind = op[0]
    before_f, before_w = totals(ch)
    if kind == "fatigue":
        r = ch.add_fatigue(op[1], op[2])
        after_f, after_w = totals(ch)
        if "plagued" in ch.afflictions:
            assert after_f <= before_f  # plagued: fatigue becomes wounds
        assert after_w >= before_w
        assert len(r.placed) <= op[2]
        if r.collapsed:
            assert ch.condition is not Condition.ACTIVE
    elif kind == "wounds":
        n, lethal, forced = op[1], op[2], op[3]
        r = ch.add_wounds(n, lethal=lethal, forced=forced)
        assert len(r.placed) + r.discarded + int(r.mortally_wounded) + int(r.died) == n
        assert totals(ch)[1] - before_w == len(r.placed)
        assert not (r.mortally_wounded and r.died)
        if not lethal:
            assert not r.mortally_wounded and not r.died
        if forced is not None:
            assert not r.mortally_wounded
            assert all(p[0] is forced for p in r.placed)
    elif kind == "recover":
        parched = "parched" in ch.afflictions
        n = ch.recover_fatigue(op[1], op[2])
        assert totals(ch) == (before_f - n, before_w)
        if parched:
            assert n == 0
    elif kind == "heal":
        hungry = "hungry" in ch.afflictions
        n = ch.heal_wounds(op[1], op[2])
        assert totals(ch) == (before_f, before_w - n)
        if hungry:
            assert n == 0
    elif kind == "afflict":
        had = op[1] in ch.afflictions
        assert ch.add_affliction(op[1]) is (not had)
        assert op[1] in ch.afflictions
    elif kind == "cure":
        had = op[1] in ch.afflictions
        assert ch.remove_affliction(op[1]) is had
        assert op[1] not in ch.afflictions


def check_invariants(ch: Character) -> None:
    ch.check_invariants()
    for a in ATTRS:
        s = ch.attrs[a]
        assert 0 <= s.wounds <= s.score
        assert s.fatigue >= 0
        assert s.available >= 0
        assert ch.available(a) >= 0
        assert ch.available(a, in_combat=True) >= 0
        spec = ch.test_spec(a)
        assert spec.main_dice >= 0
        if spec.pool <= 0:
            assert spec.keep_lowest and spec.main_dice >= 2
        else:
            assert spec.main_dice == spec.pool
        if a is not Attr.STR or not ch.has_trait("Berserker"):
            assert spec.dice == s.available


@settings(max_examples=400)
@given(characters(), st.lists(ops, max_size=40))
def test_random_damage_keeps_every_invariant(ch: Character, sequence: list[tuple[Any, ...]]) -> None:
    check_invariants(ch)
    for op in sequence:
        before = ch.condition
        apply(ch, op)
        after = ch.condition
        check_invariants(ch)
        if before is Condition.DEAD:
            assert after is Condition.DEAD  # the dead stay dead
        if after is not before:
            assert (before, after) in ALLOWED, (before, after, op)
        assert RANK[after] >= RANK[before]
        assert ch.alive == (after is not Condition.DEAD)
        assert ch.can_act == (after is Condition.ACTIVE)


@given(characters(), st.lists(ops, max_size=30))
def test_a_lethal_blow_on_a_full_character_never_kills_outright(ch: Character, sequence: list[tuple[Any, ...]]) -> None:
    for op in sequence:
        apply(ch, op)
    if ch.condition in (Condition.ACTIVE, Condition.COLLAPSED):
        r = ch.add_wounds(30)
        assert not r.died
        assert cond(ch) is Condition.MORTALLY_WOUNDED
        assert all(s.wounds == s.score for s in ch.attrs.values())
        r = ch.add_wounds(1)
        assert r.died and cond(ch) is Condition.DEAD


@given(characters(), st.lists(ops, max_size=30), attrs)
def test_extra_effort_only_when_the_point_is_fatigue(ch: Character, sequence: list[tuple[Any, ...]], a: Attr) -> None:
    for op in sequence:
        apply(ch, op)
    available = ch.attrs[a].available
    ok = available > 0 and "plagued" not in ch.afflictions and "sleepy" not in ch.afflictions
    try:
        spec = ch.test_spec(a, extra_effort=True)
    except ValueError:
        assert not ok
        return
    assert ok
    # paying the point now never wounds
    wounds = ch.attrs[a].wounds
    ch.add_fatigue(a)
    assert ch.attrs[a].wounds == wounds
    assert ch.attrs[a].available == available - 1
    assert spec.pool == ch.available(a) + 2 or (a is Attr.STR and ch.has_trait("Berserker"))


# --- trackers --------------------------------------------------------------------------------


@given(
    st.integers(1, 12),
    st.data(),
    st.lists(st.tuples(st.booleans(), st.integers(-3, 15)), max_size=40),
)
def test_tracker_stays_in_bounds(size: int, data: st.DataObject, moves: list[tuple[bool, int]]) -> None:
    t = Tracker(size=size, filled=data.draw(st.integers(0, size)))
    for up, steps in moves:
        before = t.filled
        n = t.advance(steps) if up else t.reduce(steps)
        assert 0 <= t.filled <= t.size
        assert n >= 0
        assert t.filled - before == (n if up else -n)
        if steps > 0:
            assert n == (min(steps, size - before) if up else min(steps, before))
        assert t.full == (t.filled == t.size)


@given(st.integers(0, 100))
def test_decay_fires_exactly_every_six_ticks(ticks: int) -> None:
    d = DecayTracker()
    fired = [i for i in range(1, ticks + 1) if d.tick()]
    assert fired == list(range(6, ticks + 1, 6))
    assert d.filled == ticks % 6


@given(st.integers(0, 2**32), st.lists(st.integers(0, 20), max_size=25))
def test_omens_size_and_fills(seed: int, advances: list[int]) -> None:
    rng = Random(seed)
    o = OmensTracker.new(rng)
    twin_rng = Random(seed)
    twin = OmensTracker.new(twin_rng)
    assert 2 <= o.size <= 12
    total_fills = 0
    for steps in advances:
        fills = o.advance(rng, steps)
        twin_fills = sum(twin.advance(twin_rng, 1) for _ in range(steps))
        assert fills == twin_fills  # many steps at once = one step at a time
        assert (o.size, o.filled, o.times_filled) == (twin.size, twin.filled, twin.times_filled)
        total_fills += fills
        assert 2 <= o.size <= 12
        assert 0 <= o.filled < o.size
        assert o.times_filled == total_fills
        assert 0 <= fills <= steps


@st.composite
def doom_tables(draw: st.DrawFn) -> tuple[DoomStep, ...]:
    ats = draw(st.lists(st.integers(1, 15), min_size=1, max_size=8, unique=True))
    return tuple(DoomStep(at, f"step {at}") for at in sorted(ats))


@given(doom_tables(), st.lists(st.tuples(st.booleans(), st.integers(-1, 5), st.integers(0, 3)), max_size=30))
def test_doom_steps_fire_once_in_order(steps: tuple[DoomStep, ...], moves: list[tuple[bool, int, int]]) -> None:
    doom = DoomTracker(steps)
    all_reached: list[DoomStep] = []
    highest = 0
    for up, points, doomed in moves:
        before = doom.filled
        if up:
            reached = doom.advance(points, doomed=doomed)
            moved = doom.filled - before
            if points <= 0:
                assert moved == 0 and reached == []
            else:
                assert moved == min(points + doomed, doom.size - before)  # one extra per movement per Doomed
            assert [s.at for s in reached] == sorted(s.at for s in reached)
            assert all(before < s.at <= doom.filled for s in reached)
            all_reached += reached
        else:
            n = doom.reduce(points)
            assert doom.filled == before - n
        assert 0 <= doom.filled <= doom.size
        highest = max(highest, doom.filled)
        ats = [s.at for s in all_reached]
        assert len(ats) == len(set(ats))  # each step fires once
        assert ats == sorted(ats)  # and in order
        assert ats == [s.at for s in steps if s.at <= highest]
        assert doom.fired == ats
