"""Who could make an action's test, and their exact odds: so the player chooses, and the default is the best.  No Qt.

The engine knows the test an action makes only when it runs it, so :func:`first_test` runs the action in a
copy of the campaign (:meth:`GM.fork`) with a decider that stops at the first test and keeps what was about
to be rolled: who, which attribute, the dice (:class:`~rules.checks.TestSpec`).  The odds are the exact ones
of :func:`rules.odds.odds`.  The campaign itself is never touched.

* :func:`testers`: for an exploration action with a test (forcing a door, searching, a parley...), every
  adventurer who may make it, best odds first; :meth:`GM.apply` takes the one chosen (``tester=``).
* :func:`attack_chance`: the odds of an attack in a fight (the desktop's click on an enemy takes the attack
  with the best odds, not the first one listed).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Any

from rules.gm.engine import AutoDecider

if TYPE_CHECKING:
    from rules.attributes import Attr
    from rules.checks import TestSpec
    from rules.gm.engine import GM
    from rules.gm.events import Action
    from rules.gm.state import Member

#: The exploration actions whose test the GM gave to someone the player did not choose.
TESTED_KINDS = frozenset({"force", "break", "unseal", "search", "look_for_traps", "disarm", "listen", "parley",
                          "feature", "freeform"})  # fmt: skip


@dataclass(frozen=True)
class Chance:
    """One adventurer's odds at a test: success, great success, critical failure and fatigue (0..1)."""

    who: str
    name: str
    attr: str
    dice: int
    success: float
    great: float
    critical: float
    fatigue: float

    @property
    def key(self) -> tuple[float, float, float]:
        """Best first: the most likely success, then the least fatigue, then the fewest critical failures."""
        return (-round(self.success, 4), round(self.fatigue, 4), round(self.critical, 4))

    def text(self) -> str:
        """ "STR 2 dice: 58% success, 31% fatigue" """
        crit = f", {self.critical:.0%} critical failure" if self.critical >= 0.005 else ""
        return (f"{self.attr} {self.dice} {'die' if self.dice == 1 else 'dice'}: {self.success:.0%} success, "
                f"{self.fatigue:.0%} fatigue{crit}")  # fmt: skip


class _Stop(Exception):
    """Raised by the probe at the first test: the copy's step goes no further."""


class _Probe(AutoDecider):
    def __init__(self) -> None:
        super().__init__()
        self.seen: tuple[Member, Attr, TestSpec] | None = None

    def before_test(self, gm: GM, member: Member, attr: Attr, reason: str, spec: TestSpec) -> dict[str, Any] | None:
        self.seen = (member, attr, spec)
        raise _Stop


def first_test(gm: GM, action: Action, tester: str | None = None) -> tuple[Member, Attr, TestSpec] | None:
    """Who would make ``action``'s first test, with which attribute and dice; None when it makes none (or the
    engine refuses it).  Run in a copy: the campaign is untouched."""
    fork = gm.fork(Random(0))
    probe = _Probe()
    fork.decider = probe
    try:
        fork.apply(action.id, tester=tester)
    except _Stop:
        return probe.seen
    except Exception:  # the engine refused, or the copy went somewhere odd: no odds to show
        return None
    return None


def chance_of(member: Member, attr: Attr, spec: TestSpec) -> Chance:
    from rules.odds import odds

    o = odds(spec)
    return Chance(member.id, member.name, attr.value, spec.dice, o.success, o.great_success, o.critical_failure,
                  o.fatigue)  # fmt: skip


def testers(gm: GM, action: Action) -> list[Chance]:
    """Everyone who may make ``action``'s test, best odds first ([] when it has no test the player can give)."""
    if not action.available or action.kind not in TESTED_KINDS:
        return []
    out: dict[str, Chance] = {}
    for m in gm.active():
        seen = first_test(gm, action, tester=m.id)
        if seen is None:
            return []
        member, attr, spec = seen
        if member.id not in out:
            out[member.id] = chance_of(member, attr, spec)
    return sorted(out.values(), key=lambda c: c.key)


def attack_chance(gm: GM, action: Action) -> Chance | None:
    """The odds of an attack (None when it makes no test: a free critical hit, or the engine refuses it)."""
    seen = first_test(gm, action)
    return chance_of(*seen) if seen is not None else None


# --- prices: the dice a price is rolled with (the market, haggling) ------------------------------------------


def price_spread(content: Any, rarity: str) -> dict[int, float]:
    """Every price a ware of ``rarity`` may be rolled at, with its chance (the rarity's dice, as
    :func:`rules.settlement.roll_price` rolls them when a market opens or a price is haggled)."""
    from rules.dice import DiceExpr

    entry = next((r for r in content.items.rarities if r.name == rarity), None)
    if entry is None:
        return {}
    if not isinstance(entry.price, str):
        return {int(entry.price): 1.0}
    expr = DiceExpr.parse(entry.price)
    sums = {0: 1.0}
    for _ in range(expr.count):
        nxt: dict[int, float] = {}
        for total, p in sums.items():
            for face in range(1, expr.sides + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / expr.sides
        sums = nxt
    return {expr.mult * s + expr.bonus: p for s, p in sums.items()}


def price_dice(content: Any, rarity: str) -> str:
    """ "2 + 2d6 (4–14)": how a price of ``rarity`` is rolled, and its range ("free", a plain number)."""
    entry = next((r for r in content.items.rarities if r.name == rarity), None)
    spread = price_spread(content, rarity)
    if entry is None or not spread:
        return ""
    lo, hi = min(spread), max(spread)
    if lo == hi:
        return "free" if lo == 0 else f"{lo} s"
    return f"{entry.price} ({lo}–{hi})"


def haggle_odds(content: Any, rarity: str, asked: int, keep_either: bool = False) -> tuple[float, float]:
    """The chances that haggling over a price of ``asked`` ends lower, and higher (never, when the haggler
    keeps either price): the price is rolled again on the rarity's dice."""
    spread = price_spread(content, rarity)
    lower = sum(p for v, p in spread.items() if v < asked)
    higher = 0.0 if keep_either else sum(p for v, p in spread.items() if v > asked)
    return lower, higher
