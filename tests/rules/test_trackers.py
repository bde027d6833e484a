"""Trackers: generic clocks, decay, omens and doom."""

from __future__ import annotations

from random import Random

import pytest

from rules.trackers import DECAY_STEPS, DecayTracker, DoomStep, DoomTracker, OmensTracker, Tracker


class Scripted(Random):
    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_tracker_advance_and_reduce() -> None:
    t = Tracker(size=4)
    assert t.advance() == 1 and t.filled == 1
    assert t.advance(2) == 2 and not t.full
    assert t.advance(5) == 1 and t.full and t.filled == 4
    assert t.advance() == 0
    assert t.reduce(3) == 3 and t.filled == 1
    assert t.reduce(3) == 1 and t.filled == 0
    assert t.reduce() == 0
    assert t.advance(-2) == 0 and t.reduce(-2) == 0 and t.filled == 0


@pytest.mark.parametrize(("size", "filled"), [(0, 0), (-1, 0), (3, 4), (3, -1)])
def test_tracker_rejects_impossible_states(size: int, filled: int) -> None:
    with pytest.raises(ValueError):
        Tracker(size=size, filled=filled)


def test_decay_every_six_turns() -> None:
    assert DECAY_STEPS == 6
    d = DecayTracker()
    results = [d.tick() for _ in range(18)]
    assert [i + 1 for i, r in enumerate(results) if r] == [6, 12, 18]
    assert d.filled == 0


def test_decay_starting_part_way() -> None:
    d = DecayTracker(filled=4)
    assert [d.tick(), d.tick(), d.tick()] == [False, True, False]


def test_omens_size_is_2d6() -> None:
    o = OmensTracker.new(Scripted([3, 4]))
    assert o.size == 7 and o.filled == 0
    sizes = {OmensTracker.new(Random(s)).size for s in range(400)}
    assert sizes == set(range(2, 13))


def test_omens_fill_and_reroll_size() -> None:
    o = OmensTracker(size=3)
    rng = Scripted([1, 1, 6, 6])
    assert o.advance(rng, 2) == 0
    assert o.advance(rng, 1) == 1  # filled: new size 1+1
    assert (o.size, o.filled, o.times_filled) == (2, 0, 1)
    assert o.advance(rng, 2) == 1  # filled again: new size 12
    assert (o.size, o.filled, o.times_filled) == (12, 0, 2)


def test_omens_many_fills_in_one_advance() -> None:
    o = OmensTracker(size=2)
    rng = Scripted([1, 1, 3, 3])
    assert o.advance(rng, 5) == 2  # fills at 2 (new size 2), then at 4 (new size 6)
    assert (o.size, o.filled, o.times_filled) == (6, 1, 2)
    assert rng.faces == []


def test_omens_custom_size_dice() -> None:
    o = OmensTracker(size=1)
    assert o.advance(Random(0), 1, size_dice="5") == 1
    assert o.size == 5


STEPS = (DoomStep(2, "lights go out"), DoomStep(4, "the dead wake"), DoomStep(6, "the tomb seals"))


def test_doom_steps_fire_once_in_order() -> None:
    doom = DoomTracker(STEPS)
    assert doom.size == 6 and not doom.maxed
    assert doom.next_step() == STEPS[0]
    assert doom.advance() == []
    assert doom.advance() == [STEPS[0]]
    assert doom.next_step() == STEPS[1]
    assert doom.reduce(2) == 2 and doom.filled == 0
    assert doom.advance(2) == []  # step 2 already fired
    assert doom.advance(10) == [STEPS[1], STEPS[2]]
    assert doom.filled == 6 and doom.maxed
    assert doom.fired == [2, 4, 6]
    assert doom.next_step() is None
    assert doom.advance(3) == []
    assert doom.filled == 6


def test_doomed_adds_one_per_movement() -> None:
    doom = DoomTracker(STEPS)
    assert doom.advance(1, doomed=1) == [STEPS[0]]
    assert doom.filled == 2
    doom.advance(1, doomed=2)  # two Doomed adventurers: two extra points
    assert doom.filled == 5
    two_moves = DoomTracker(STEPS)
    two_moves.advance(1, doomed=1)
    two_moves.advance(1, doomed=1)
    assert two_moves.filled == 4  # each movement gets its own extra point


def test_doom_does_not_move_without_a_movement() -> None:
    doom = DoomTracker(STEPS)
    assert doom.advance(0, doomed=2) == []
    assert doom.advance(-1, doomed=1) == []
    assert doom.filled == 0


def test_empty_doom_table() -> None:
    doom = DoomTracker(())
    assert doom.size == 0 and not doom.maxed
    assert doom.advance(3) == []
    assert doom.next_step() is None


def test_doom_reduce() -> None:
    doom = DoomTracker(STEPS, filled=3)
    assert doom.reduce(5) == 3 and doom.filled == 0
    assert doom.reduce(-1) == 0
