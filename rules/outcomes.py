"""Applying a table row's :class:`~rules.content.effects.Outcome` to one character.

What concerns the character (fatigue, wounds, afflictions, healing, traumas,
silver, a risk sub-roll) is applied here; what concerns the party or the world
(doom, omens, settlement doom, ``special`` rules such as
``equipment_breaks``) is returned in :class:`Applied` for the automated GM.

Also the decay roll, with its rule: "If a character would receive an
affliction that they already have, keep adding 1 to the result until a
valid result has been reached."
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random

from rules.attributes import ATTRS, Attr
from rules.character import Character
from rules.content.effects import Outcome, RollTable, TableRow
from rules.dice import DiceExpr, roll_risk

#: The player's choice among options: (character, what is being chosen, options) -> option.
Choose = Callable[[Character, str, list[str]], str]


def first_option(_: Character, __: str, options: list[str]) -> str:
    return options[0]


@dataclass
class Applied:
    """What an outcome did to the character, and what it leaves to the GM."""

    lines: list[str] = field(default_factory=list)
    doom: int = 0
    omens: int = 0
    settlement_doom: int = 0
    specials: list[str] = field(default_factory=list)
    silver_lost: int = 0
    silver_gained: int = 0

    def merge(self, other: Applied) -> None:
        self.lines += other.lines
        self.doom += other.doom
        self.omens += other.omens
        self.settlement_doom += other.settlement_doom
        self.specials += other.specials
        self.silver_lost += other.silver_lost
        self.silver_gained += other.silver_gained


def _attr_choice(ch: Character, fixed: str | None, purpose: str, choose: Choose, *, need_room: bool) -> Attr:
    if fixed is not None:
        return Attr(fixed)
    options = [a.value for a in ATTRS if not need_room or ch.attrs[a].available > 0] or [a.value for a in ATTRS]
    return Attr(choose(ch, purpose, options))


def apply_outcome(
    ch: Character, out: Outcome, rng: Random, choose: Choose = first_option, *, interlude: bool = False
) -> Applied:
    """Apply ``out`` to ``ch``.  ``interlude``: a held affliction means choosing another (sleep rules)."""
    done = Applied(lines=[out.text])
    if out.alternatives:
        labels = [alt.text for alt in out.alternatives]
        pick = choose(ch, "alternative", labels)
        done.merge(apply_outcome(ch, out.alternatives[labels.index(pick)], rng, choose, interlude=interlude))
    for _ in range(out.fatigue):
        ch.add_fatigue(_attr_choice(ch, out.fatigue_attr, "fatigue", choose, need_room=True))
    if out.wounds:
        if out.wound_attr is not None:
            ch.add_wounds(out.wounds, forced=Attr(out.wound_attr), lethal=not out.non_lethal)
        else:
            ch.add_wounds(out.wounds, lethal=not out.non_lethal)
    for a in ATTRS if out.wounds_each_attr else ():
        ch.add_wounds(out.wounds_each_attr, forced=a, lethal=not out.non_lethal)
    restore = out.restore_fatigue
    if restore:  # the attribute named, when no fatigue is added ("Heals all strength ... fatigue")
        for a in [Attr(out.fatigue_attr)] if out.fatigue_attr and not out.fatigue else ATTRS:
            ch.recover_fatigue(a, None if restore == "all" else restore)
    if out.heal_wounds:
        targets = [Attr(x) for x in out.heal_attrs] or list(ATTRS)
        if out.heal_wounds == "all":
            for a in targets:
                ch.heal_wounds(a, None)
        else:
            for _ in range(out.heal_wounds):
                wounded = [a.value for a in targets if ch.attrs[a].wounds > 0]
                if not wounded:
                    break
                ch.heal_wounds(Attr(choose(ch, "heal a wound", wounded)), 1)
    for name in out.afflictions:
        if not ch.add_affliction(name) and interlude:
            others = [a for a in _INTERLUDE_SWAPS if a not in ch.afflictions]
            if others:
                ch.add_affliction(choose(ch, f"already {name}: choose another affliction", others))
    if out.affliction_choice:
        options: list[str] = [a for a in out.affliction_choice if a not in ch.afflictions]
        options = options or list(out.affliction_choice)
        ch.add_affliction(choose(ch, "affliction", options))
    for name in out.remove:
        ch.remove_affliction(name)
    if out.remove_one_of:
        held: list[str] = [a for a in out.remove_one_of if a in ch.afflictions]
        if held:
            ch.remove_affliction(choose(ch, "remove an affliction", held))
    if out.trauma and out.trauma != "choose":
        ch.add_trauma(out.trauma)
    elif out.trauma == "choose":
        done.specials.append("choose_trauma")
    if out.gain_silver:
        n = DiceExpr.parse(out.gain_silver).roll(rng)
        ch.silver += n
        done.silver_gained += n
    if out.lose_silver:
        n = DiceExpr.parse(out.lose_silver).roll(rng)
        paid = min(n, ch.silver)
        ch.silver -= paid
        done.silver_lost += paid
    done.doom += out.doom
    done.omens += out.omens
    done.settlement_doom += out.settlement_doom
    if out.special:
        done.specials.append(out.special)
    if out.risk_dice and out.on_risk is not None and roll_risk(rng, out.risk_dice).triggered:
        done.merge(apply_outcome(ch, out.on_risk, rng, choose, interlude=interlude))
    return done


# Afflictions the interlude's "choose another affliction" can fall back on: the table's own temporary ones.
_INTERLUDE_SWAPS = ("terrified", "hopeless", "angry", "sleepy", "shaken", "nauseated", "hungry", "parched")


@dataclass(frozen=True)
class DecayRoll:
    faces: tuple[int, int]
    total: int  # after the +1 climb
    row: TableRow


def roll_decay(ch: Character, rng: Random, table: RollTable, *, step: int = 1, top: int = 12) -> DecayRoll:
    """Roll 2d6 on the decay table for ``ch``, climbing past afflictions already held."""
    faces = (rng.randint(1, 6), rng.randint(1, 6))
    total = sum(faces)
    row = table.lookup(total)
    while row.afflictions and all(a in ch.afflictions for a in row.afflictions) and total < top:
        total = min(top, total + step)
        row = table.lookup(total)
    return DecayRoll(faces, total, row)
