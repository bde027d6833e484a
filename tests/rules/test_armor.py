"""Armour rolls and damage reduction (core rules, "Armor"; Weapon Effects)."""

from __future__ import annotations

from random import Random

import pytest

from rules.armor import ArmorPart, ArmorRoll, Defender, reduce_damage, roll_armor
from rules.notation import Effect

NONE: frozenset[Effect] = frozenset()
P = frozenset({Effect.PIERCING})
R = frozenset({Effect.UNRESISTABLE})


class Scripted(Random):
    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        return self.faces.pop(0)


def faces_for(seed: int, n: int) -> tuple[int, ...]:
    rng = Random(seed)
    return tuple(rng.randint(1, 6) for _ in range(n))


@pytest.mark.parametrize("ap", [1, 2, 3, 4])
def test_seeded_rolls_match_the_faces(ap: int) -> None:
    for seed in range(150):
        part = ArmorPart("leather", max_ap=ap)
        faces = faces_for(seed, ap)
        r = roll_armor(Random(seed), part)
        assert r.faces == faces
        assert r.blocked == sum(f in (4, 5, 6) for f in faces)
        assert r.broken == sum(f in (1, 4) for f in faces)
        assert part.ap == ap - r.broken >= 0


def test_zaels_example() -> None:
    # 2 wounds from an arrow, reinforced leather (2 AP) rolls 1 and 6: 1 wound, armour down to 1 AP
    part = ArmorPart("reinforced leather", max_ap=2)
    res = reduce_damage(Scripted([1, 6]), 2, NONE, Defender([part]))
    assert res.armor == ArmorRoll((1, 6), blocked=1, broken=1)
    assert res.wounds == 1
    assert part.ap == 1


def test_a_four_blocks_and_breaks() -> None:
    part = ArmorPart("vest", max_ap=1)
    assert roll_armor(Scripted([4]), part) == ArmorRoll((4,), 1, 1)
    assert part.ap == 0


def test_padded_four_does_not_break() -> None:
    for seed in range(150):
        part = ArmorPart("padded", max_ap=3, four_does_not_break=True)
        faces = faces_for(seed, 3)
        r = roll_armor(Random(seed), part)
        assert r.blocked == sum(f >= 4 for f in faces)
        assert r.broken == faces.count(1)
        assert part.ap == 3 - faces.count(1)
    part = ArmorPart("padded", max_ap=2, four_does_not_break=True)
    assert roll_armor(Scripted([4, 4]), part) == ArmorRoll((4, 4), 2, 0)
    assert part.ap == 2


def test_soldier_helmet_breaks_exactly_one() -> None:
    for seed in range(100):
        part = ArmorPart("soldier helmet", max_ap=2, breaks_exactly_one=True)
        r = roll_armor(Random(seed), part)
        assert r.broken == 1
        assert part.ap == 1
        assert r.blocked == sum(f >= 4 for f in r.faces)
    part = ArmorPart("soldier helmet", max_ap=3, breaks_exactly_one=True)
    assert roll_armor(Scripted([1, 4, 1]), part).broken == 1
    assert roll_armor(Scripted([6, 5]), part).broken == 1
    assert part.ap == 1


def test_helmet_with_no_dice_rolled_does_not_break() -> None:
    part = ArmorPart("soldier helmet", max_ap=2, breaks_exactly_one=True)
    r = roll_armor(Random(0), part, dice=0)
    assert r == ArmorRoll((), 0, 0)
    assert part.ap == 2


def test_fewer_dice_and_never_more_than_ap() -> None:
    part = ArmorPart("plate", max_ap=4)
    r = roll_armor(Scripted([6]), part, dice=1)
    assert r.faces == (6,)
    part.ap = 2
    r = roll_armor(Scripted([5, 5]), part, dice=10)
    assert len(r.faces) == 2
    assert roll_armor(Random(1), part, dice=-3).faces == ()


def test_broken_armour_rolls_nothing() -> None:
    part = ArmorPart("rags", max_ap=2, ap=0)
    assert roll_armor(Random(0), part) == ArmorRoll((), 0, 0)


def test_ap_as_new_and_repair() -> None:
    part = ArmorPart("chain", max_ap=3)
    assert part.ap == 3
    part.ap = 0
    assert part.repair(2) == 2 and part.ap == 2
    assert part.repair(5) == 1 and part.ap == 3
    assert part.repair(1) == 0
    assert ArmorPart("x", max_ap=3, ap=1).ap == 1


# --- reduce_damage ---------------------------------------------------------------------------


def test_piercing_skips_armour_but_not_resistance() -> None:
    part = ArmorPart("plate", max_ap=3)
    rng = Scripted([])  # no die may be rolled
    res = reduce_damage(rng, 3, P, Defender([part], resist=1))
    assert res.armor is None
    assert res.resisted == 1 and res.wounds == 2
    assert part.ap == 3


def test_unresistable_skips_resistance_but_not_armour() -> None:
    part = ArmorPart("leather", max_ap=2)
    res = reduce_damage(Scripted([5, 2]), 3, R, Defender([part], resist=2))
    assert res.armor is not None and res.armor.blocked == 1
    assert res.resisted == 0
    assert res.wounds == 2


def test_piercing_and_unresistable_go_straight_through() -> None:
    res = reduce_damage(Scripted([]), 4, P | R, Defender([ArmorPart("plate", 4)], resist=3))
    assert (res.armor, res.resisted, res.wounds) == (None, 0, 4)


def test_armour_then_resistance_never_negative() -> None:
    for seed in range(200):
        part = ArmorPart("plate", max_ap=4)
        res = reduce_damage(Random(seed), 2, NONE, Defender([part], resist=3))
        assert res.wounds >= 0 and res.resisted >= 0
        blocked = res.armor.blocked if res.armor else 0
        assert res.wounds == max(0, 2 - blocked - res.resisted)
        assert res.resisted == min(3, max(0, 2 - blocked))


def test_ignore_resist() -> None:
    res = reduce_damage(Scripted([]), 2, NONE, Defender([], resist=2), ignore_resist=True)
    assert (res.resisted, res.wounds) == (0, 2)


def test_zero_wounds_roll_nothing() -> None:
    part = ArmorPart("plate", max_ap=3)
    res = reduce_damage(Scripted([]), 0, NONE, Defender([part], resist=1))
    assert (res.armor, res.resisted, res.wounds) == (None, 0, 0)
    assert part.ap == 3


def test_default_part_is_the_one_with_most_ap() -> None:
    helmet = ArmorPart("helmet", max_ap=1)
    vest = ArmorPart("vest", max_ap=2)
    res = reduce_damage(Scripted([2, 3]), 1, NONE, Defender([helmet, vest]))
    assert res.armor is not None and len(res.armor.faces) == 2
    assert helmet.ap == 1  # only one piece defends each attack


def test_chosen_part_is_used() -> None:
    helmet = ArmorPart("helmet", max_ap=1)
    vest = ArmorPart("vest", max_ap=2)
    res = reduce_damage(Scripted([6]), 1, NONE, Defender([helmet, vest]), part=helmet)
    assert res.armor == ArmorRoll((6,), 1, 0)
    assert res.wounds == 0


def test_a_broken_chosen_part_falls_back() -> None:
    helmet = ArmorPart("helmet", max_ap=1, ap=0)
    vest = ArmorPart("vest", max_ap=1)
    res = reduce_damage(Scripted([5]), 1, NONE, Defender([helmet, vest]), part=helmet)
    assert res.armor is not None and res.wounds == 0


def test_chainmail_does_not_work_against_impact() -> None:
    chain = ArmorPart("chainmail", max_ap=3, not_against_impact=True)
    res = reduce_damage(Scripted([]), 2, NONE, Defender([chain]), impact=True)
    assert res.armor is None and res.wounds == 2
    res = reduce_damage(Scripted([6, 6, 6]), 2, NONE, Defender([chain]))
    assert res.wounds == 0


def test_no_armour_at_all() -> None:
    res = reduce_damage(Scripted([]), 3, NONE, Defender())
    assert (res.armor, res.resisted, res.wounds, res.incoming) == (None, 0, 3, 3)
