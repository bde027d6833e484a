"""An adventurer's state: attributes with fatigue and wounds, afflictions,
traumas, mortal wounds, insight and what they carry.

The rules here, from the core text:

* available dice = score − fatigue − wounds;
* fatigue on an attribute with no available dice converts one fatigue point
  into a wound (that wound cannot be reduced); if the attribute is already
  full of wounds the character collapses;
* a wound may be placed on any attribute that can hold it (no attribute holds
  more wounds than its score); placing it where there is fatigue may convert
  that fatigue instead of taking a fresh die away;
* a lethal wound that no attribute can hold mortally wounds the character
  (non-lethal wounds are discarded instead); a mortally wounded character who
  takes more damage dies;
* Plagued turns every fatigue point into a wound; the same affliction or
  trauma twice has no effect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.attributes import ATTRS, Attr
from rules.checks import RuleError, TestSpec

MAX_SCORE = 3  # during creation (core rules: "can not go lower than 0 or higher than 3")
MAX_PROFICIENCY = 2
MAX_INSIGHT = 12


@dataclass
class AttributeState:
    score: int
    proficiency: int = 0
    fatigue: int = 0
    wounds: int = 0

    @property
    def available(self) -> int:
        return self.score - self.fatigue - self.wounds

    @property
    def can_hold_wound(self) -> bool:
        """Another wound fits: by a fresh die, or by converting fatigue."""
        return self.wounds < self.score

    def fit(self) -> None:
        """After the score drops, wounds then fatigue beyond it are lost (nothing can exceed the score)."""
        self.wounds = min(self.wounds, self.score)
        self.fatigue = min(self.fatigue, self.score - self.wounds)

    def check(self) -> None:
        if not (0 <= self.wounds <= self.score and self.fatigue >= 0 and self.available >= 0):
            raise AssertionError(f"impossible attribute state {self}")


class Condition(StrEnum):
    """Whether an adventurer can act."""

    ACTIVE = "active"
    COLLAPSED = "collapsed"  # fainted from exhaustion: a forced point did not fit
    MORTALLY_WOUNDED = "mortally wounded"
    DEAD = "dead"


@dataclass(frozen=True)
class DamageReport:
    """What placing fatigue or wounds did, for the log."""

    placed: tuple[tuple[Attr, str], ...] = ()  # (attribute, "fatigue" | "wound" | "converted")
    discarded: int = 0
    collapsed: bool = False
    mortally_wounded: bool = False
    died: bool = False


@dataclass
class Character:
    name: str
    attrs: dict[Attr, AttributeState] = field(default_factory=lambda: {a: AttributeState(1) for a in ATTRS})
    afflictions: set[str] = field(default_factory=set)
    traumas: set[str] = field(default_factory=set)
    skills: list[str] = field(default_factory=list)
    traits: list[str] = field(default_factory=list)
    condition: Condition = Condition.ACTIVE
    mortal_wounds_this_expedition: int = 0
    insight: int = 1  # unspent
    insight_earned: int = 1  # lifetime, capped at MAX_INSIGHT
    silver: int = 0
    euphoric: bool = False  # Euphoria: wounds and fatigue do not count against the dice, until the fight ends

    # --- reading ---------------------------------------------------------------------

    def attr(self, a: Attr | str) -> AttributeState:
        return self.attrs[Attr.parse(a) if isinstance(a, str) else a]

    def available(self, a: Attr | str, *, in_combat: bool = False) -> int:
        """Available dice; a Berserker ignores STR fatigue and wounds in combat."""
        st = self.attr(a)
        if in_combat and self.euphoric:
            return st.score
        if in_combat and self.has_trait("Berserker") and self.attr(a) is self.attrs[Attr.STR]:
            return st.score
        return st.available

    def has_trait(self, name: str) -> bool:
        key = name.lower()
        return any(t.lower() == key for t in self.traits)

    def has_skill(self, name: str) -> bool:
        key = name.lower()
        return any(s.lower() == key for s in self.skills)

    @property
    def can_act(self) -> bool:
        return self.condition is Condition.ACTIVE

    @property
    def alive(self) -> bool:
        return self.condition is not Condition.DEAD

    def test_spec(self, a: Attr | str, *, in_combat: bool = False, **options: Any) -> TestSpec:
        """The :class:`TestSpec` for testing attribute ``a`` with this character's afflictions."""
        st = self.attr(a)
        if options.get("extra_effort") and (st.available <= 0 or "plagued" in self.afflictions):
            # the point would be a wound (no die left to tire, or Plagued): not allowed
            raise RuleError("A character cannot spend fatigue if it would cause a wound (extra effort).")
        return TestSpec(
            dice=self.available(a, in_combat=in_combat),
            proficiency=st.proficiency,
            afflictions=frozenset(self.afflictions),
            dauntless=self.has_trait("Dauntless"),
            **options,
        )

    # --- fatigue ---------------------------------------------------------------------

    def add_fatigue(self, a: Attr | str, points: int = 1) -> DamageReport:
        """Fatigue on one attribute (the place is forced)."""
        attr = Attr.parse(a) if isinstance(a, str) else a
        placed: list[tuple[Attr, str]] = []
        collapsed = False
        if "plagued" in self.afflictions:
            # Plagued: "When receiving fatigue receive a wound instead."
            return self.add_wounds(points, forced=attr)
        for _ in range(points):
            st = self.attrs[attr]
            if st.available > 0:
                st.fatigue += 1
                placed.append((attr, "fatigue"))
            elif st.fatigue > 0:
                st.fatigue -= 1
                st.wounds += 1
                placed.append((attr, "converted"))
            else:
                collapsed = True  # the attribute is full of wounds: break down from exhaustion
        if collapsed and self.condition is Condition.ACTIVE:
            self.condition = Condition.COLLAPSED
        return DamageReport(placed=tuple(placed), discarded=0, collapsed=collapsed)

    def recover_fatigue(self, a: Attr | str, points: int | None = 1) -> int:
        """Remove fatigue (None: all); Parched characters cannot recover fatigue. Returns points removed."""
        if points is not None and points < 0:
            raise ValueError("cannot recover a negative amount of fatigue")
        if "parched" in self.afflictions:
            return 0
        st = self.attr(a)
        n = st.fatigue if points is None else min(points, st.fatigue)
        st.fatigue -= n
        return n

    def recover_all_fatigue(self) -> int:
        return sum(self.recover_fatigue(a, None) for a in ATTRS)

    # --- wounds ----------------------------------------------------------------------

    def wound_options(self) -> list[tuple[Attr, bool]]:
        """Where the next wound can go: (attribute, converts fatigue)."""
        opts: list[tuple[Attr, bool]] = []
        for a in ATTRS:
            st = self.attrs[a]
            if not st.can_hold_wound:
                continue
            if st.available > 0:
                opts.append((a, False))
            if st.fatigue > 0:
                opts.append((a, True))
        return opts

    def place_wound(self, a: Attr, convert: bool) -> None:
        st = self.attrs[a]
        if not st.can_hold_wound:
            raise RuleError(f"{a.value} cannot hold more wounds than its score")
        if convert:
            if st.fatigue == 0:
                raise RuleError(f"no {a.value} fatigue to convert")
            st.fatigue -= 1
        elif st.available <= 0:
            raise RuleError(f"{a.value} has no available die; the wound must convert fatigue")
        st.wounds += 1

    def add_wounds(
        self,
        points: int,
        *,
        forced: Attr | None = None,
        lethal: bool = True,
        chooser: WoundChooser | None = None,
    ) -> DamageReport:
        """Place ``points`` wounds, each where ``chooser`` says (default: :func:`default_wound_choice`).

        ``forced``: the rule names the attribute; what does not fit is discarded
        and the character collapses.
        """
        placed: list[tuple[Attr, str]] = []
        discarded = 0
        collapsed = mortal = died = False
        choose = chooser or default_wound_choice
        for _ in range(points):
            if self.condition is Condition.DEAD:
                discarded += 1
                continue
            if self.condition is Condition.MORTALLY_WOUNDED:
                if lethal and not mortal:  # the blow that mortally wounds does not also kill (RULINGS.md)
                    self.condition = Condition.DEAD
                    died = True
                else:
                    discarded += 1
                continue
            if forced is not None:
                st = self.attrs[forced]
                if st.can_hold_wound and (st.available > 0 or st.fatigue > 0):
                    convert = st.available <= 0
                    self.place_wound(forced, convert)
                    placed.append((forced, "converted" if convert else "wound"))
                else:
                    discarded += 1
                    collapsed = True
                continue
            opts = self.wound_options()
            if not opts:
                if lethal:
                    self.condition = Condition.MORTALLY_WOUNDED
                    mortal = True
                else:
                    discarded += 1
                continue
            a, convert = choose(self, opts)
            self.place_wound(a, convert)
            placed.append((a, "converted" if convert else "wound"))
        if collapsed and self.condition is Condition.ACTIVE:
            self.condition = Condition.COLLAPSED
        return DamageReport(tuple(placed), discarded, collapsed, mortal, died)

    def heal_wounds(self, a: Attr | str, points: int | None = 1) -> int:
        """Heal wounds on ``a`` (None: all).  Hungry: wounds do not heal."""
        if points is not None and points < 0:
            raise ValueError("cannot heal a negative number of wounds")
        if "hungry" in self.afflictions:
            return 0
        st = self.attr(a)
        n = st.wounds if points is None else min(points, st.wounds)
        st.wounds -= n
        return n

    # --- afflictions and traumas ---------------------------------------------------------

    def add_affliction(self, name: str) -> bool:
        """Gain an affliction; one already held is ignored (returns False)."""
        key = name.lower()
        if key in self.afflictions:
            return False
        self.afflictions.add(key)
        return True

    def remove_affliction(self, name: str) -> bool:
        key = name.lower()
        if key in self.afflictions:
            self.afflictions.remove(key)
            return True
        return False

    def add_trauma(self, name: str) -> bool:
        key = name.lower()
        if key in self.traumas:
            return False
        self.traumas.add(key)
        return True

    # --- insight ------------------------------------------------------------------------

    def earn_insight(self, points: int = 1) -> int:
        """Earn insight, never beyond 12 in a lifetime; returns what was earned."""
        room = MAX_INSIGHT - self.insight_earned
        n = max(0, min(points, room))
        self.insight += n
        self.insight_earned += n
        return n

    def spend_insight(self, points: int) -> None:
        if points > self.insight:
            raise RuleError(f"{self.name} has {self.insight} insight, not {points}")
        self.insight -= points

    @property
    def may_retire(self) -> bool:
        return self.insight_earned >= MAX_INSIGHT

    # --- invariants and saves --------------------------------------------------------------

    def check_invariants(self) -> None:
        for st in self.attrs.values():
            st.check()

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "attributes": {
                a.value: {"score": s.score, "proficiency": s.proficiency, "fatigue": s.fatigue, "wounds": s.wounds}
                for a, s in self.attrs.items()
            },
            "afflictions": sorted(self.afflictions),
            "traumas": sorted(self.traumas),
            "skills": list(self.skills),
            "traits": list(self.traits),
            "condition": self.condition.value,
            "mortal_wounds_this_expedition": self.mortal_wounds_this_expedition,
            "insight": self.insight,
            "insight_earned": self.insight_earned,
            "silver": self.silver,
        }


def default_wound_choice(ch: Character, options: list[tuple[Attr, bool]]) -> tuple[Attr, bool]:
    """The sensible default: convert fatigue where possible (it keeps dice), else
    wound the attribute with the most available dice (ties: PRE, INT, DEX, STR)."""
    order = {Attr.PRE: 0, Attr.INT: 1, Attr.DEX: 2, Attr.STR: 3}
    converts = [o for o in options if o[1]]
    if converts:
        return max(converts, key=lambda o: (ch.attrs[o[0]].fatigue, -order[o[0]]))
    return max(options, key=lambda o: (ch.attrs[o[0]].available, -order[o[0]]))


#: Where to place each wound: (character, options) -> (attribute, convert fatigue).
WoundChooser = Callable[[Character, list[tuple[Attr, bool]]], tuple[Attr, bool]]
