"""The GM's shared services: the campaign, its dice, and every rule the procedures share.

:class:`GM` holds the campaign, the content, the dungeons and the one seeded
RNG, and offers the services every procedure uses — tests, fatigue, harm,
afflictions, death, the doom and omens trackers, decay, table rows — so each
rule is written once.  The procedures (:mod:`rules.gm.exploration`,
:mod:`rules.gm.combat`, :mod:`rules.gm.camp`, :mod:`rules.gm.interlude`) sit
above this layer; where a service must hand over to one of them (a doom step
fires, a fight ends and the turn is spent, the party walks out into a
settlement) it calls :attr:`GM.procedures`, the table the engine facade
(:mod:`rules.gm.engine`) fills.  Clients build :class:`rules.gm.engine.GM`,
which is this class with the procedures wired in.

Player decisions inside a step (rerolls, where wounds go, which armour, which
option) go through a :class:`Decider`; :class:`AutoDecider` is the autoplay
and "let the GM decide" player.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from random import Random
from typing import Any, Protocol, Self

from rules.armor import ArmorPart, Defender, reduce_damage
from rules.attributes import ATTRS, Attr
from rules.character import Character, Condition, DamageReport, default_wound_choice
from rules.checks import RuleError, TestRoll
from rules.content.registry import Content
from rules.dice import DiceExpr, roll
from rules.gm.events import Action, Event
from rules.gm.gear import break_equipment, lose
from rules.gm.site import DungeonMaker, Site, SiteDoomStep, SiteLevel, SiteRoom
from rules.gm.state import (
    Campaign,
    LevelState,
    LocationState,
    Member,
    Phase,
    RoomState,
    fresh_room_state,
    rng_from,
)
from rules.injury import hardened, mortal_wound
from rules.notation import Effect
from rules.odds import policy_for, resolve
from rules.outcomes import apply_outcome, roll_decay

# --- decisions --------------------------------------------------------------------------------------


class Decider(Protocol):
    """The player's decisions inside a step (the desktop asks the person)."""

    def reroll(self, gm: GM, member: Member, test: TestRoll) -> int | None:
        """Which die to reroll for the side to act (index; -1 the helper's die; None to stop)."""

    def wound(self, gm: GM, member: Member, options: list[tuple[Attr, bool]]) -> tuple[Attr, bool]:
        """Where the next wound goes: (attribute, convert fatigue)."""

    def armour(self, gm: GM, member: Member, parts: list[ArmorPart], wounds: int) -> ArmorPart | None:
        """Which armour piece to roll (None: none)."""

    def choose(self, gm: GM, member: Member | None, prompt: str, options: list[str]) -> str:
        """One of ``options`` (an attribute, an affliction, an item, an alternative...)."""

    # Optional hooks (a decider may have them; :class:`AutoDecider` has none, so autoplay never calls them):
    #
    #   before_test(gm, member, attr, reason, spec) -> dict | None
    #       Called by :meth:`GM.test` before the dice are rolled, with the announced :class:`TestSpec`.  It may
    #       return options announced before the roll, as :meth:`Character.test_spec` names them
    #       (``extra_effort``, ``keep_safe``, ``burden``), and ``helper``: the id of an adventurer who helps.
    #   after_test(gm, member, roll) -> None
    #       Called by :meth:`GM.test` once the roll is final (the player sees the outcome).


class AutoDecider:
    """Sensible choices: the odds' default reroll policy, wounds where dice are left, the thickest armour,
    and for open choices the option that hurts least."""

    #: Afflictions in the order the autoplay would rather take them (first: least harmful).
    MILD = ("angry", "shaken", "sleepy", "hungry", "parched", "terrified", "hopeless", "nauseated")

    def reroll(self, gm: GM, member: Member, test: TestRoll) -> int | None:
        return policy_for(test.spec).decide(test)

    def wound(self, gm: GM, member: Member, options: list[tuple[Attr, bool]]) -> tuple[Attr, bool]:
        return default_wound_choice(member.adv.character, options)

    def armour(self, gm: GM, member: Member, parts: list[ArmorPart], wounds: int) -> ArmorPart | None:
        return max(parts, key=lambda p: p.ap) if parts else None

    def choose(self, gm: GM, member: Member | None, prompt: str, options: list[str]) -> str:
        if not options:
            raise RuleError(f"nothing to choose for {prompt}")
        lowered = [o.lower() for o in options]
        for mild in self.MILD:
            if mild in lowered:
                return options[lowered.index(mild)]
        if member is not None and set(lowered) <= {a.value.lower() for a in ATTRS}:
            ch = member.adv.character
            if "heal" in prompt.lower() or "recover" in prompt.lower():
                # healing goes where it gives back most: the most wounded attribute
                return max(options, key=lambda o: (ch.attr(o).wounds, -ch.attr(o).available, -lowered.index(o.lower())))
            # fatigue or a loss goes where the most dice are left
            return max(options, key=lambda o: (ch.attr(o).available, -lowered.index(o.lower())))
        return options[0]


# --- the engine -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PhaseProcedures:
    """One phase's procedure: list the legal actions, apply one."""

    actions: Callable[[GM], list[Action]]
    apply: Callable[[GM, Action], None]


@dataclass(frozen=True)
class Procedures:
    """What the services hand over to the procedures above them (wired by :mod:`rules.gm.engine`)."""

    phases: dict[Phase, PhaseProcedures]
    doom_step: Callable[[GM, SiteDoomStep], None]  # a doom step fires (exploration)
    settlement_doom: Callable[[GM, int, str], None]  # the settlement's doom moves (interlude)
    end_turn: Callable[[GM, int, str], None]  # exploration turns are spent (a fight ended)
    leave: Callable[[GM], None]  # the party walks out of the dungeon (fled through the way in)
    start_interlude: Callable[[GM], None]  # back in a settlement after an expedition


class GM:
    """The campaign and the services on it; :class:`rules.gm.engine.GM` adds the step (legal actions, apply)."""

    #: the procedures above the services; :class:`rules.gm.engine.GM` sets them
    PROCEDURES: Procedures | None = None

    def __init__(
        self,
        campaign: Campaign,
        content: Content,
        maker: DungeonMaker,
        decider: Decider | None = None,
        *,
        rng: Random | None = None,
    ) -> None:
        """``rng``: the dice to roll instead of the campaign's saved generator (a copy's own)."""
        if self.PROCEDURES is None:
            raise RuleError("build the GM from rules.gm.engine: the procedures are wired there")
        self.procedures: Procedures = self.PROCEDURES
        self.c = campaign
        self.content = content
        self.maker = maker
        self.decider: Decider = decider or AutoDecider()
        #: the adventurer the player chose to make the step's test (:meth:`rules.gm.engine.GM.apply`); taken by
        #: the first :func:`best` that may use them, then forgotten.  Not saved: it lives for one step.
        self.tester: str | None = None
        self.rng: Random = rng if rng is not None else rng_from(campaign.rng)
        self.events: list[Event] = []
        self._sites: dict[str, Site] = {}
        self._made: dict[str, tuple[Site, str]] = {}  # job-board dungeons as generated (:meth:`keep_made`)
        #: True while a lean listing is made (:meth:`rules.gm.engine.GM.legal_actions`): listers may then leave
        #: out what only a person reads (labels' odds) and what the lean listing drops anyway
        self.lean = False
        #: a copy made to see how a fight plays out (:meth:`fork` with ``what_if``): once the party is back in
        #: the settlement nothing more is asked of it, so the settlement skips what only later days read (the job
        #: board's new dungeons, each generated whole: most of the time of a copy whose party fled)
        self.what_if = False

    # --- events ------------------------------------------------------------------------------------

    def emit(self, kind: str, text: str, **data: Any) -> Event:
        ev = Event(kind, text, data)
        self.events.append(ev)
        return ev

    def fork(self, rng: Random, *, what_if: bool = False) -> Self:
        """A GM over a deep copy of the campaign that rolls ``rng``'s dice and decides for itself (the
        autoplay's decider); it shares the dungeons already built, which never change.  ``what_if``: the copy
        is played only until the party is back in a settlement (:attr:`what_if`)."""
        # a pickle round trip is a deep copy (shared objects stay shared) about four times as fast as
        # copy.deepcopy on a campaign: the autoplay forks it for every copy of a fight it plays out
        return self._forked(pickle.loads(pickle.dumps(self.c, pickle.HIGHEST_PROTOCOL)), rng, what_if)

    def forks(self, rngs: Iterable[Random], *, what_if: bool = False) -> Iterator[Self]:
        """Copies as :meth:`fork` makes them, one for each of ``rngs``, made one by one from the campaign as it
        is now (taken once: the campaign must not change while they are made, as playing a copy never changes
        it)."""
        data = pickle.dumps(self.c, pickle.HIGHEST_PROTOCOL)
        for rng in rngs:
            yield self._forked(pickle.loads(data), rng, what_if)

    def _forked(self, campaign: Campaign, rng: Random, what_if: bool) -> Self:
        other = type(self)(campaign, self.content, self.maker, rng=rng)
        other._sites = self._sites
        other.what_if = what_if
        return other

    # --- where we are -------------------------------------------------------------------------------

    def site(self, location_id: str) -> Site:
        """The dungeon of a location.  A job-board dungeon is kept as its recipe until the party goes
        there (saves stay small); then it is made again, identically, and kept as data for good."""
        if location_id not in self._sites:
            loc = self.c.locations[location_id]
            if not loc.data and loc.recipe:
                r = loc.recipe
                made = self._made.pop(location_id, None)
                site, loc.data = made if made is not None else self.maker.make(
                    int(r["seed"]), level=int(r["level"]), rooms=int(r["rooms"]), theme=r.get("theme"),
                    depth=int(r["depth"]),
                )  # fmt: skip
                self._sites[location_id] = site
            else:
                self._sites[location_id] = self.maker.load(loc.data)
        return self._sites[location_id]

    def keep_made(self, location_id: str | None, site: Site | None = None, data: str = "") -> None:
        """Keep a job-board dungeon just generated from its recipe, so that :meth:`site` need not make it again
        when the party goes there (the same dungeon: the generator makes it identically); ``None``: forget
        those kept (the board is made anew).  Not saved: a loaded campaign makes it again."""
        if location_id is None:
            self._made.clear()
        elif site is not None:
            self._made[location_id] = (site, data)

    def location(self) -> LocationState:
        if self.c.expedition is None:
            raise RuleError("the party is not on an expedition")
        return self.c.locations[self.c.expedition.location]

    def site_level(self) -> SiteLevel:
        exp = self.c.expedition
        if exp is None:
            raise RuleError("the party is not on an expedition")
        return self.site(exp.location).depth(exp.depth)

    def level_state(self) -> LevelState:
        exp = self.c.expedition
        if exp is None:
            raise RuleError("the party is not on an expedition")
        loc = self.location()
        if exp.depth not in loc.levels:
            loc.levels[exp.depth] = LevelState(depth=exp.depth)
        return loc.levels[exp.depth]

    def room(self, room_id: int | None = None) -> SiteRoom:
        exp = self.c.expedition
        assert exp is not None
        return self.site_level().room(room_id if room_id is not None else exp.room)

    def room_state(self, room_id: int | None = None) -> RoomState:
        exp = self.c.expedition
        assert exp is not None
        rid = room_id if room_id is not None else exp.room
        lv = self.level_state()
        if rid not in lv.rooms:
            room = self.site_level().room(rid)
            lv.rooms[rid] = fresh_room_state(room)
        return lv.rooms[rid]

    # --- who ----------------------------------------------------------------------------------------

    def alive(self) -> list[Member]:
        return [m for m in self.c.party if m.adv.character.condition is not Condition.DEAD]

    def active(self) -> list[Member]:
        return [m for m in self.c.party if m.adv.character.can_act]

    # --- services -----------------------------------------------------------------------------------

    def test(
        self,
        member: Member,
        attr: Attr | str,
        reason: str,
        *,
        helper: Member | None = None,
        in_combat: bool = False,
        dice: int = 0,
        **options: Any,
    ) -> TestRoll:
        """Roll a test (or a check, ``check=True``) for ``member``; fatigue, helper fatigue and Bad omens applied.

        ``dice``: dice added to (or, negative, removed from) the pool by a rule ("roll an extra dice",
        "reduces the attack roll by 1 dice").
        """
        a = Attr.parse(attr) if isinstance(attr, str) else attr
        ch = member.adv.character
        if helper is not None:
            options["help"] = True
            options["helper_proficiency"] = helper.adv.character.attr(a).proficiency
        spec = ch.test_spec(a, in_combat=in_combat, **options)
        if dice:
            spec = spec.with_(dice=spec.dice + dice)
        before = getattr(self.decider, "before_test", None)
        if before is not None:
            chosen: dict[str, Any] = dict(before(self, member, a, reason, spec) or {})
            helper_id = chosen.pop("helper", None)
            if helper_id and helper is None:
                helper = self.c.member(str(helper_id))
                chosen["help"] = True
                chosen["helper_proficiency"] = helper.adv.character.attr(a).proficiency
            if chosen:
                options.update(chosen)
                spec = ch.test_spec(a, in_combat=in_combat, **options)
                if dice:
                    spec = spec.with_(dice=spec.dice + dice)
                if chosen.get("burden"):
                    # "if you do any of these you earn an insight point" (core rules, Roll your burden)
                    self.c.settings.setdefault("burden_used", {})[member.id] = self.c.stats.expeditions
                    gained = ch.earn_insight(1)
                    self.emit("insight", f"{member.name}'s burden makes it harder: +{gained} insight",
                              who=member.id, insight=gained)  # fmt: skip

        roll = resolve(spec, self.rng, self.rerolls_of(member))
        self._weave(member, reason, roll)
        v = roll.verdict
        if v.fatigue and not self.morale_pays(member, reason):
            self._after_damage(member, ch.add_fatigue(a), f"fatigue from {reason}")
        if v.helper_fatigue and helper is not None and not self.morale_pays(helper, f"helping with {reason}"):
            self._after_damage(helper, helper.adv.character.add_fatigue(a), f"fatigue from helping with {reason}")
        self.show_test(member, a, reason, roll)
        if v.critical_failure and ch.has_trait("Bad omens"):
            self.advance_omens(1, f"{member.name}'s bad omens")
        after = getattr(self.decider, "after_test", None)
        if after is not None:
            after(self, member, roll)
        return roll

    def show_test(self, member: Member, a: Attr, reason: str, roll: TestRoll) -> None:
        """The log's line for a test: the dice, the rerolls and the outcome (every test the player makes)."""
        v = roll.verdict
        outcome = (
            "great success"
            if v.great_success
            else "success"
            if v.success
            else ("critical failure" if v.critical_failure else "failure")
        )
        self.emit(
            "test",
            f"{member.name} tests {a.value} ({reason}): {outcome}" + (", fatigue" if v.fatigue else ""),
            who=member.id,
            attr=a.value,
            reason=reason,
            dice=list(roll.initial),
            final=list(roll.main) + ([roll.helper] if roll.helper is not None else []),
            rerolls=[(r.side.value, r.old, r.new) for r in roll.history],
            outcome=outcome,
        )

    def enemy_test(self, dice: int) -> tuple[list[int], bool]:
        """An enemy test ("the GM can roll using the monster's LVL value, rolling that amount of dice"): the faces
        rolled, and whether any is a test's success face (the morale test, tearing free, bursting a door)."""
        faces = roll(self.rng, dice)
        return faces, any(f in self.content.tables.tests.success_faces for f in faces)

    def woven(self, member: Member, reason: str) -> Callable[[TestRoll], None]:
        """Weave fate's offer for a roll resolved outside :meth:`test` (keeping a spell, recalling one, a prayer)."""
        return lambda roll: self._weave(member, reason, roll)

    def _weave(self, member: Member, reason: str, roll: TestRoll) -> None:
        """Weave fate: "You may use them to replace any dice result you roll" — offered on a failed test when a
        woven die would make it a success (the wizard's player decides; RULINGS R198)."""
        exp = self.c.expedition
        if exp is None or not exp.woven or roll.verdict.success or not roll.main:
            return
        good = sorted((f for f in exp.woven if f in roll.spec.success_faces), reverse=True)
        weaver = next((m for m in self.alive() if m.id == exp.woven_by), None)
        if not good or weaver is None:
            return
        low = min(range(len(roll.main)), key=lambda i: roll.main[i])
        pick = self.decider.choose(self, weaver, f"Weave fate: turn {member.name}'s {roll.main[low]} ({reason}) into "
                                   f"a woven {good[0]}? ({len(exp.woven)} woven dice left)",
                                   ["use a woven die", "keep the roll"])  # fmt: skip
        if pick != "use a woven die":
            return
        exp.woven.remove(good[0])
        old, roll.main[low] = roll.main[low], good[0]
        self.emit("weave", f"Fate bends: {member.name}'s {old} becomes {good[0]} (Weave fate).", who=member.id,
                  old=old, new=good[0])  # fmt: skip

    def rerolls_of(self, member: Member) -> Callable[[TestRoll], int | None]:
        """The chooser of ``member``'s rerolls (the Decider), for any roll resolved outside :meth:`test`."""

        def player(t: TestRoll) -> int | None:
            return self.decider.reroll(self, member, t)

        return player

    def morale_pays(self, member: Member, reason: str) -> bool:
        """Miracle 2's "points of morale" (RULINGS R208): in a fight, while the party has morale left, the fatigue
        point a test would cost an adventurer (its 1 or 4, the extra effort, a helper's share) spends a point of
        morale instead.  True when morale paid it."""
        cs = self.c.combat
        if cs is None or self.c.phase is not Phase.COMBAT or cs.morale <= 0:
            return False
        if not any(f.id == member.id for f in cs.fighters):
            return False
        cs.morale -= 1
        self.emit("morale", f"{member.name} pushes on: the party's morale takes the fatigue ({reason}); "
                  f"{cs.morale} point(s) of morale left.", who=member.id, morale=cs.morale)  # fmt: skip
        return True

    def fatigue(self, member: Member, reason: str, attr: Attr | str | None = None, points: int = 1) -> None:
        ch = member.adv.character
        for _ in range(points):
            if attr is None:
                options = [a.value for a in ATTRS if ch.attrs[a].available > 0] or [a.value for a in ATTRS]
                prompt = f"takes 1 fatigue ({reason}): on which attribute? It loses one die until rested"
                a = Attr(self.decider.choose(self, member, prompt, options))
            else:
                a = Attr.parse(attr) if isinstance(attr, str) else attr
            report = ch.add_fatigue(a)
            self.emit("fatigue", f"{member.name} takes 1 {a.value} fatigue ({reason})", who=member.id, attr=a.value)
            self._after_damage(member, report, reason)

    def harm(
        self,
        member: Member,
        wounds: int,
        reason: str,
        *,
        effects: frozenset[Effect] = frozenset(),
        attr: Attr | None = None,
        lethal: bool = True,
        armour: bool = True,
        from_attack: bool = False,
        impact: bool = False,
    ) -> int:
        """Wounds from ``reason``: armour, Hardened, then placement; returns the wounds taken."""
        ch = member.adv.character
        if wounds <= 0 or ch.condition is Condition.DEAD:
            return 0
        if Effect.NON_LETHAL in effects:
            lethal = False
        remaining = wounds
        parts = armour_parts(self, member) if armour and Effect.PIERCING not in effects else []
        if parts:
            part = self.decider.armour(self, member, parts, wounds)
            if part is not None:
                result = reduce_damage(self.rng, wounds, effects, Defender([part]), part, impact=impact)
                if result.armor is not None and result.armor.faces:
                    self.emit(
                        "armour",
                        f"{member.name}'s {armour_label(part.name)} blocks {result.armor.blocked}"
                        + (f", losing {result.armor.broken} AP" if result.armor.broken else ""),
                        who=member.id,
                        faces=list(result.armor.faces),
                    )
                remaining = result.wounds
                store_armour(self, member, part)
        if from_attack and remaining > 0 and ch.has_trait("Hardened") and Effect.UNRESISTABLE not in effects:
            res = hardened(ch, self.rng, remaining)
            if res.resisted:
                self.emit("hardened", f"{member.name} shrugs off {res.resisted} wound(s)", who=member.id)
            remaining = res.remaining
        if remaining <= 0:
            self.emit("harm", f"{member.name} takes no wounds ({reason})", who=member.id, wounds=0)
            return 0

        def place(c: Character, options: list[tuple[Attr, bool]]) -> tuple[Attr, bool]:
            return self.decider.wound(self, member, options)

        report = ch.add_wounds(remaining, forced=attr, lethal=lethal, chooser=place)
        taken = len(report.placed)
        self.emit(
            "harm",
            f"{member.name} takes {taken} wound(s) ({reason})",
            who=member.id,
            wounds=taken,
            placed=[(a.value, how) for a, how in report.placed],
        )
        if Effect.BLEEDING in effects and taken:
            self.afflict(member, "bleeding", reason)
        self._after_damage(member, report, reason)
        return taken

    def _after_damage(self, member: Member, report: DamageReport, reason: str) -> None:
        ch = member.adv.character
        if report.collapsed:
            self.emit("collapse", f"{member.name} collapses from exhaustion", who=member.id)
        if report.died:
            self.death(member, reason)
        elif report.mortally_wounded:
            table = self.content.tables.mortal_wounds
            traumas = [t.name for t in self.content.character.traumas]

            def pick(c: Character, what: str, options: list[str]) -> str:
                return self.decider.choose(self, member, what, options)

            res = mortal_wound(ch, self.rng, table, traumas, pick=pick)
            text = res.row.text if res.row is not None else "Rejected by death: the wound does not take."
            self.emit(
                "mortal_wound",
                f"{member.name} is mortally wounded: {text}",
                who=member.id,
                roll=res.roll,
                total=res.total,
                outcome=res.outcome,
                trauma=res.trauma,
            )
            if ch.condition is Condition.DEAD:
                self.death(member, reason)

    def afflict(self, member: Member, name: str, reason: str) -> bool:
        ch = member.adv.character
        key = name.lower()
        if key in member.bliss or key in member.immune:
            return False  # Bliss: "that affliction will have no effect"; a tonic: "can't get terrified"
        if ch.add_affliction(key):
            self.emit("affliction", f"{member.name} is {key} ({reason})", who=member.id, affliction=key)
            return True
        return False

    def cure(self, member: Member, name: str, reason: str) -> bool:
        if member.adv.character.remove_affliction(name):
            self.emit("cure", f"{member.name} is no longer {name.lower()} ({reason})", who=member.id)
            return True
        return False

    def heal(self, target: Member, n: int, reason: str) -> int:
        """Heal ``n`` wounds of ``target``, each where the target's player wants it; returns how many healed."""
        ch = target.adv.character
        healed = 0
        for _ in range(n):
            wounded = [a.value for a in ATTRS if ch.attrs[a].wounds]
            if not wounded:
                break
            healed += ch.heal_wounds(Attr(self.decider.choose(self, target, "heal a wound", wounded)), 1)
        self.emit("heal", f"{target.name} heals {healed} wound(s) ({reason}).", who=target.id, healed=healed)
        return healed

    def death(self, member: Member, cause: str) -> None:
        ch = member.adv.character
        ch.condition = Condition.DEAD
        if member in self.c.party:
            self.c.party.remove(member)
            member.fate = f"died on day {self.c.day}: {cause}"
            self.c.fallen.append(member)
            self.c.stats.deaths += 1
            self.emit("death", f"{member.name} is dead ({cause}).", who=member.id)
        if not self.c.party:
            self.c.outcome = "perished"
            self.c.phase = Phase.OVER
            self.emit("campaign_over", "No one is left. The island keeps what it takes.")

    # --- trackers -----------------------------------------------------------------------------------

    def advance_doom(self, points: int, reason: str) -> list[SiteDoomStep]:
        """Advance this level's doom (one extra per movement for each Doomed adventurer); fire steps.

        Outside an expedition, in the interlude, it is the settlement's doom tracker (RULINGS.md R88).
        """
        if points <= 0:
            return []
        if self.c.expedition is None:
            if self.c.phase is Phase.INTERLUDE:
                self.procedures.settlement_doom(self, points, reason)
            return []
        doomed = sum(1 for m in self.alive() if "doomed" in m.adv.character.afflictions)
        lv = self.level_state()
        steps = self.site_level().doom
        total = sum(s.ticks for s in steps)
        before = lv.doom
        lv.doom = min(total, lv.doom + points + doomed)
        self.emit("doom", f"The dungeon stirs ({reason}).", doom=lv.doom, added=lv.doom - before, hidden=True)
        fired: list[SiteDoomStep] = []
        threshold = 0
        for i, step in enumerate(steps):
            threshold += step.ticks
            if lv.doom >= threshold and i not in lv.fired:
                lv.fired.append(i)
                fired.append(step)
                self.c.stats.doom_events += 1
                if i == len(steps) - 1:
                    self.c.stats.doom_maxed += 1
                if self.c.expedition is not None and self.c.expedition.leaving:  # R221: behind the party
                    self.emit("doom_event", f"Behind the party: {step.text}", step=i, event=step.kind, hidden=True)
                else:
                    self.emit("doom_event", step.text, step=i, event=step.kind)
                self.advance_omens(1, "a doom event")
                self.procedures.doom_step(self, step)
        return fired

    def advance_omens(self, points: int, reason: str) -> None:
        fills = self.c.omens.advance(self.rng, points, self.content.tables.omens_tracker_size)
        self.emit("omens", f"The omens darken ({reason}).", filled=self.c.omens.filled, hidden=True)
        for _ in range(fills):
            self.c.stats.omens_triggered += 1
            self.roll_omen()

    def roll_omen(self) -> None:
        """The omens tracker filled: roll on the omens table and make the party pay."""
        table = self.content.tables.omens
        face = DiceExpr.parse(table.dice).roll(self.rng)
        row = table.lookup(face)
        self.emit("omen", f"An omen: {row.text}", roll=face)
        amount_dice: str | None = getattr(row, "amount", None)
        amount = DiceExpr.parse(amount_dice).roll(self.rng) if amount_dice else 0
        special = row.special or ""
        paid = 0
        if special == "roll_decay_twice":
            for m in list(self.alive()):
                self.decay(m)
                self.decay(m)
            return
        if special == "break_equipped_items":
            for _ in range(amount):
                victims = [(m, i) for m in self.alive() for i in m.adv.inventory.items if i.equipped]
                if not victims:
                    break
                m, item = victims[self.rng.randrange(len(victims))]
                lose(self, m, item, "broken by an omen")
                paid += 1
        else:
            wanted = {
                "discard_water": ("water",),
                "discard_rations": ("ration",),
                "discard_torches": ("torch",),
                "discard_magic_items": ("scroll", "spell book", "holy relic", "panacea", "living ashes"),
            }.get(special, ())
            for _ in range(amount):
                found = [
                    (m, i)
                    for m in self.alive()
                    for i in m.adv.inventory.items
                    if any(w in i.name.lower() for w in wanted)
                ]
                if not found:
                    break
                m, item = found[0]
                if item.count > 1:
                    item.count -= 1
                else:
                    lose(self, m, item, "discarded by an omen")
                paid += 1
        if paid < amount:
            # "discard/break as many as possible, and one and only one more time" (RULINGS)
            self.emit("omen_shortfall", "The omen could not be paid in full: the omens darken once more.")
            shortfall = self.content.tables.omens_shortfall.omens
            self.c.omens.filled = min(self.c.omens.size - 1, self.c.omens.filled + shortfall)

    def decay(self, member: Member) -> None:
        """One decay roll for ``member`` (the +1 climb past afflictions already held)."""
        tables = self.content.tables
        rolled = roll_decay(
            member.adv.character,
            self.rng,
            tables.decay,
            step=tables.decay_duplicate.step,
            top=tables.decay_duplicate.top,
        )
        self.c.stats.decay_rolls += 1
        row = rolled.row
        self.emit(
            "decay", f"Decay for {member.name}: {row.text}", who=member.id, dice=list(rolled.faces), total=rolled.total
        )
        if row.fatigue:
            self.fatigue(member, "decay", row.fatigue_attr, row.fatigue)
        if row.wounds:
            self.harm(member, row.wounds, "decay", armour=False)
        for name in row.afflictions:
            self.afflict(member, name, "decay")
        if row.doom:
            self.advance_doom(row.doom, "decay")
        if row.special == "equipment_breaks":
            break_equipment(self, member, 1, "decay")

    def apply_row(self, member: Member, row: Any, reason: str, *, in_interlude: bool = False) -> None:
        """A table row's outcome for one adventurer (fatigue, wounds, afflictions, silver, healing...)."""

        def choose(ch: Character, what: str, options: list[str]) -> str:
            return self.decider.choose(self, member, what, options)

        ch = member.adv.character
        if getattr(row, "heal_wounds", 0) and "hungry" in ch.afflictions and any(ch.attrs[a].wounds for a in ATTRS):
            # "Hungry: wounds do not heal" - say so, rather than print a healing that heals nothing
            self.emit("no_healing", f"{member.name} is hungry: wounds do not heal until they eat.", who=member.id)
        tired = any(ch.attrs[a].fatigue for a in ATTRS)
        if getattr(row, "restore_fatigue", 0) and "parched" in ch.afflictions and tired:
            # "Parched: cannot recover fatigue" - the same: the row's healing text would promise what does not happen
            self.emit("no_healing", f"{member.name} is parched: fatigue does not go until they drink.", who=member.id)
        done = apply_outcome(ch, row, self.rng, choose, interlude=in_interlude)
        self.emit("outcome", f"{member.name}: {row.text}", who=member.id, reason=reason)
        if done.doom:
            self.advance_doom(done.doom, reason)
        if done.omens:
            self.advance_omens(done.omens, reason)
        if done.settlement_doom:
            self.procedures.settlement_doom(self, done.settlement_doom, reason)


# --- armour worn --------------------------------------------------------------------------------------


def armour_parts(gm: GM, member: Member) -> list[ArmorPart]:
    """The armour pieces (and parts of multi-part armour) ``member`` wears, with their current AP."""
    table = {a.name.lower(): a for a in gm.content.armor.armor}
    parts: list[ArmorPart] = []
    for item in member.adv.inventory.items:
        entry = table.get(item.name.lower()) if item.equipped else None
        if entry is None:
            continue
        current = item.ap if len(item.ap) == len(entry.ap) else list(entry.ap)
        for i, full in enumerate(entry.ap):
            if current[i] <= 0:
                continue
            parts.append(
                ArmorPart(
                    f"{item.name}#{i}" if len(entry.ap) > 1 else item.name,
                    full,
                    current[i],
                    four_does_not_break="four_does_not_break" in entry.rules,
                    breaks_exactly_one="breaks_exactly_one" in entry.rules,
                    not_against_impact="not_vs_impact" in entry.rules,
                )
            )
    return parts


def armour_label(part_name: str) -> str:
    """A part's name as the player reads it: "Gladiator Armor (piece 2)" for the part id "Gladiator Armor#1"
    (the id leaked into the log: "Gladiator Armor#0 blocks 0")."""
    name, _, index = part_name.partition("#")
    return f"{name} (piece {int(index) + 1})" if index.isdigit() else name


def store_armour(gm: GM, member: Member, part: ArmorPart) -> None:
    """Write a rolled part's remaining AP back to the worn item."""
    name, _, index = part.name.partition("#")
    table = {a.name.lower(): a for a in gm.content.armor.armor}
    for item in member.adv.inventory.items:
        entry = table.get(item.name.lower())
        if item.equipped and item.name == name and entry is not None:
            if len(item.ap) != len(entry.ap):
                item.ap = list(entry.ap)
            item.ap[int(index) if index else 0] = part.ap
            return


def take_tester(gm: GM, pool: list[Member]) -> Member | None:
    """The adventurer the player chose for the step's test, if among ``pool``; the choice is used up."""
    wanted, gm.tester = gm.tester, None
    return next((m for m in pool if m.id == wanted), None) if wanted else None


def best(gm: GM, attr: Attr, members: list[Member] | None = None) -> Member:
    """The adventurer the player chose for this step's test (:attr:`GM.tester`, once) if they may make it, else
    the one with most available dice of ``attr`` (then proficiency)."""
    pool = members if members is not None else gm.active()
    if not pool:
        raise RuleError("no one can act")
    chosen = take_tester(gm, pool)
    if chosen is not None:
        return chosen
    return max(pool, key=lambda m: (m.adv.character.available(attr), m.adv.character.attr(attr).proficiency))
