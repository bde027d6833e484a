"""Mortal wounds, stabilising, and the traits that soften a blow.

* Mortal wounds table: 1d6 + the mortal wounds this character already took
  this expedition (+ other modifiers); 0 or less "nothing but a scratch", 7 or
  more dead.  A trauma the character already has is ignored.
* Rejected by death: before the roll, 2 risk dice; if triggered, ignore the
  mortal wound.
* Hardened: when receiving wounds from an attack, a STR test resists 1 wound
  (2 on a great success).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from rules.attributes import ATTRS, Attr
from rules.character import Character, Condition
from rules.content.effects import RollTable, TableRow
from rules.dice import DiceExpr, roll_risk
from rules.odds import Chooser, resolve

#: Picks one of the options (a trauma name, an attribute) for the player.
Pick = Callable[[Character, str, list[str]], str]


def _first(_: Character, __: str, options: list[str]) -> str:
    return options[0]


@dataclass(frozen=True)
class MortalWoundResult:
    ignored_by_trait: bool
    roll: int | None
    total: int | None
    row: TableRow | None
    trauma: str | None
    outcome: str  # "scratch", "knocked out", "trauma", "bleeding out", "dead", "rejected by death"


def mortal_wound(
    ch: Character,
    rng: Random,
    table: RollTable,
    traumas: list[str],
    *,
    modifier: int = 0,
    pick: Pick = _first,
) -> MortalWoundResult:
    """Roll on the mortal wounds table for a character just mortally wounded.

    ``traumas``: every trauma's name (for "choose a trauma you don't have").
    """
    if ch.has_trait("Rejected by death") and roll_risk(rng, 2).triggered:
        ch.condition = Condition.ACTIVE
        return MortalWoundResult(True, None, None, None, None, "rejected by death")
    face = DiceExpr.parse(table.dice).roll(rng)
    total = face + ch.mortal_wounds_this_expedition + modifier
    ch.mortal_wounds_this_expedition += 1
    row = table.lookup(total)
    trauma: str | None = None
    outcome = "trauma"
    if row.special == "no_mortal_wound":
        ch.condition = Condition.ACTIVE
        outcome = "scratch"
    elif row.special == "dead":
        ch.condition = Condition.DEAD
        outcome = "dead"
    elif row.special == "die_unless_stabilised":
        outcome = "bleeding out"
    elif row.special == "knocked_out":
        outcome = "knocked out"
    if row.trauma:
        name = row.trauma
        if name == "choose":
            options = [t for t in traumas if t.lower() not in ch.traumas]
            name = pick(ch, "trauma", options) if options else ""
        if name and ch.add_trauma(name):
            trauma = name
            apply_trauma_onset(ch, name, pick)
    return MortalWoundResult(False, face, total, row, trauma, outcome)


def apply_trauma_onset(ch: Character, trauma: str, pick: Pick = _first) -> None:
    """The lasting change a trauma makes when taken (Chronic pain, Brain damage)."""
    key = trauma.lower()
    if key == "chronic pain":
        options = [a.value for a in ATTRS if ch.attrs[a].score > 0]
        if options:
            st = ch.attrs[Attr(pick(ch, "chronic pain: score -1", options))]
            st.score -= 1
            st.fit()
    elif key == "brain damage":
        options = [a.value for a in ATTRS if ch.attrs[a].proficiency > 0]
        if options:
            ch.attrs[Attr(pick(ch, "brain damage: proficiency -1", options))].proficiency -= 1


def stabilise(ch: Character) -> bool:
    """A first aid kit, medical supply or healing spell wakes a mortally wounded character."""
    if ch.condition is Condition.MORTALLY_WOUNDED:
        ch.condition = Condition.ACTIVE
        return True
    return False


@dataclass(frozen=True)
class HardenedResult:
    tested: bool
    resisted: int
    remaining: int


def hardened(ch: Character, rng: Random, wounds: int, player: Chooser | None = None) -> HardenedResult:
    """Hardened: test STR against incoming wounds; resist 1 (2 on a great success)."""
    if not ch.has_trait("Hardened") or wounds <= 0:
        return HardenedResult(False, 0, wounds)
    test = resolve(ch.test_spec(Attr.STR), rng, player)
    v = test.verdict
    if v.fatigue:
        ch.add_fatigue(Attr.STR)
    resisted = 0 if not v.success else 2 if v.great_success else 1
    resisted = min(resisted, wounds)
    return HardenedResult(True, resisted, wounds - resisted)
