"""Freeform actions, listening at doors, room features, and the Veteran and Ward the dead skills.

Two entry points for :mod:`rules.gm.exploration`: :func:`actions` lists everything this module adds
(with its cost, availability and the rule it quotes) and :func:`apply` does one and returns the
exploration turns it cost; the caller ends those turns (``end_turn``), this module never does.

Enemies here means living groups of the room not at peace with the party (the encounters module's
friendly or bribed groups are); aware ones leave only hiding, calming and questions, and any of them take
the Time leg away.

**Freeform** ("This allows the adventurers to do pretty much anything they want"): a catalogue of
verbs in ``resources/content/freeform.toml`` (barricade a door, break down a locked door, hide, calm
the animals, ask the Die of Fate; and approaches — climb, swim, pick a lock, dig or pry, read old
writing, sneak — that only apply to room features whose words name them).  Whether a roll is needed is
**Time / Gear / Skill** ("Block, Dodge, Parry"): time is no enemy in the room, gear a fitting item
carried by anyone standing (and no hindering armour on the one acting), skill a fitting skill, class,
background or past of the one acting.  With all three there is no roll: it succeeds.  Otherwise the
one acting tests the verb's attribute (with advantage when one of their skills says so), and the test
answers in the Die of Fate's words (great success Yes-and, success Yes, failure No, critical failure
No-and); a verb with no attribute is answered by the **Die of Fate** itself (1d6: No-and, No, No-but,
Yes-but, Yes, Yes-and).  Gear marked ``spend`` is used up by the attempt (its usage die rolled).

**Listen at a door** (Knave-style delving, "Hear Noises"): 1 turn and a test; on a success the party
learns whether something is in the room beyond and, if so, whether it is aware; the undead make no
sound; a failure hears nothing.

**Veteran**: a test of the skill's attribute; on a success the level's doom and the doom at which the
next step fires are known (``LevelState.doom_known`` / ``doom_next_known``, a snapshot).

**Ward the dead**: a ritual of 1 turn, no test: the room's lying corpses are warded.

**Room features**: once each (``RoomState.features_used``), the Freeform action's turn, the feature's
test if it names one (Time / Gear / Skill of a verb whose keywords its words use can make the roll
unnecessary), then its success or failure words.  The words change the game only through these plain
phrases (anything else is told, not played):

* "tick(s) the doom tracker" or "the doom tracker ticks" — doom +1 ("twice": +2); else the words
  "noise", "noisy", "noisily", "loud", "loudly" (not "little noise") — doom +1, the noise rule (R99);
* "N wound(s)", "N STR/DEX/INT/PRE wound(s)" — N wounds (in that attribute), no armour roll;
* "N fatigue", "N STR/... fatigue", "N non-lethal PRE fatigue", "N fatigue point(s)" — fatigue;
* an affliction's name ("shaken", "nauseated", "terrified", ...) — that affliction; "remove shaken
  from one adventurer" — cured (the one acting if they have it, else the first who does);
  "plagued on 1d!" — the affliction if the risk dice trigger;
* in failure words only, attack notation ("DEX 2", "STR 1 or grabbed", "DEX 3 for everyone") — an
  attack defended by the one acting (everyone, when it says so), as a trap's attack is.

A feature's structured rewards (its ``rewards``: an item, loot, silver, a creature, a way, information) is
played on a success by :mod:`rules.gm.rewards`, before the words' effects; what no one had room for lies on
the room's floor, and **taking it from the floor** (``floor``) costs no turn once someone has room (R230).

A clause with "everyone" applies to every adventurer; a clause that is conditional ("if", "unless",
"more than", "when", "will", "would", "or") is only told.  Durations ("until the interlude") are the
afflictions' own rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.attributes import Attr
from rules.checks import RuleError
from rules.content.effects import AFFLICTIONS
from rules.dice import d, roll_risk
from rules.gm import rewards
from rules.gm.encounters import AT_PEACE
from rules.gm.events import Action, Cost
from rules.gm.gear import use_up
from rules.gm.places import door_state, is_locked
from rules.gm.rewards import next_threshold
from rules.gm.services import take_tester
from rules.gm.state import Phase
from rules.notation import NotationError, parse_attack

if TYPE_CHECKING:
    from rules.content.schema_freeform import FateFace, Verb, VerbOutcome
    from rules.content.schema_tables import Skill
    from rules.gm.services import GM
    from rules.gm.site import SiteFeature, SiteLink
    from rules.gm.state import GroupState, Member
    from rules.inventory import Carried


# --- Time / Gear / Skill --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Legs:
    """Time / Gear / Skill for one attempt."""

    time: bool
    gear: bool
    skill: bool
    item: tuple[Member, Carried, bool] | None = None  # the fitting gear found: who carries it, it, spent?

    @property
    def all(self) -> bool:
        return self.time and self.gear and self.skill

    def names(self) -> tuple[str, ...]:
        return tuple(n for n, ok in (("time", self.time), ("gear", self.gear), ("skill", self.skill)) if ok)


def _live(gm: GM) -> list[GroupState]:
    """The room's groups that are not at peace with the party (friendly or bribed ones do not rush anyone)."""
    return [g for g in gm.room_state().monsters if g.count > 0 and g.attitude not in AT_PEACE]


def _watched(gm: GM) -> bool:
    """Aware enemies in the room: only hiding, calming and questions make sense."""
    return any(g.aware for g in _live(gm))


def pasts(member: Member) -> set[str]:
    """What counts as an adventurer's background: class, background, school, god, life-path rows."""
    adv = member.adv
    names = {x for x in (adv.klass, adv.background, adv.school, adv.god) if x}
    names |= {r.row for r in adv.lifepath}
    return {n.lower() for n in names}


def skilled(member: Member, verb: Verb) -> bool:
    ch = member.adv.character
    return any(ch.has_skill(s) for s in verb.skills) or bool(pasts(member) & {b.lower() for b in verb.backgrounds})


def hindered(gm: GM, member: Member, verb: Verb) -> bool:
    if not verb.hindered_by:
        return False
    types = {a.name.lower(): a.type for a in gm.content.armor.armor}
    return any(i.equipped and types.get(i.name.lower()) in verb.hindered_by for i in member.adv.inventory.items)


def _gear(gm: GM, verb: Verb) -> tuple[Member, Carried, bool] | None:
    for g in verb.gear:
        key = g.name.lower()
        for m in gm.active():
            for item in m.adv.inventory.items:
                if item.name.lower() == key:
                    return m, item, g.spend
    return None


def legs(gm: GM, verb: Verb, member: Member) -> Legs:
    item = _gear(gm, verb)
    gear = (item is not None or not verb.gear) and not hindered(gm, member, verb)
    return Legs(time=not _live(gm), gear=gear, skill=skilled(member, verb), item=item)


def advantage(gm: GM, member: Member, verb: Verb | None) -> int:
    """1 when a skill of ``member`` gives advantage on what ``verb`` is (Infiltration: sneaking), else 0."""
    if verb is None or not verb.advantage_on:
        return 0
    wanted = set(verb.advantage_on)
    for s in gm.content.character.skills:
        if member.adv.character.has_skill(s.name) and wanted & set(s.advantage_on):
            return 1
    return 0


def actor(gm: GM, attr: Attr | None, verb: Verb | None) -> Member:
    """Who tries it: someone skilled first, then unhindered, then the most dice (and proficiency)."""
    pool = gm.active()
    if not pool:
        raise RuleError("no one can act")
    chosen = take_tester(gm, pool)
    if chosen is not None:
        return chosen

    def key(m: Member) -> tuple[int, int, int, int]:
        ch = m.adv.character
        return (
            int(verb is not None and skilled(m, verb)),
            int(verb is None or not hindered(gm, m, verb)),
            ch.available(attr) if attr is not None else 0,
            ch.attr(attr).proficiency if attr is not None else 0,
        )

    return max(pool, key=key)  # max keeps the first of equals: the party's order


def roll_fate(gm: GM) -> FateFace:
    """Roll the Die of Fate."""
    fate = gm.content.freeform.fate
    face = fate.face(d(gm.rng, 6))
    return face


def _grade_of_test(gm: GM, great: bool, success: bool, critical: bool) -> str:
    g = gm.content.freeform.grades
    if great:
        return g.great_success
    if success:
        return g.success
    return g.critical_failure if critical else g.failure


def _roll_note(attr: Attr | None, lg: Legs) -> str:
    if lg.all:
        return "no roll: time, gear and skill"
    return attr.value if attr is not None else "the Die of Fate"


def attempt(gm: GM, verb: Verb | None, attr: Attr | None, member: Member, reason: str) -> str:
    """Time / Gear / Skill, then a test or the Die of Fate: the answer's grade ("yes", "no_and", ...)."""
    lg = legs(gm, verb, member) if verb is not None else Legs(time=not _live(gm), gear=False, skill=False)
    if lg.item is not None and lg.gear:
        who, item, spend = lg.item
        gm.emit("gear", f"{member.name} uses {item.name.lower()} ({reason}).", who=member.id, item=item.name)
        if spend:
            use_up(gm, who, item)
    if lg.all:
        gm.emit("freeform_sure", f"{member.name} has the time, the gear and the skill: no roll is needed.",
                who=member.id, reason=reason)  # fmt: skip
        return "yes"
    if attr is not None:
        roll = gm.test(member, attr, reason, advantage=advantage(gm, member, verb))
        v = roll.verdict
        return _grade_of_test(gm, v.great_success, v.success, v.critical_failure)
    face = roll_fate(gm)
    gm.emit("fate", f"The Die of Fate ({reason}): {face.face}, {face.name} {face.text}",
            face=face.face, grade=face.grade, reason=reason)  # fmt: skip
    return face.grade


# --- outcomes ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plain:
    """One effect read from a feature's words (or a verb's outcome)."""

    kind: str  # "doom", "wounds", "fatigue", "afflict", "cure", "risk", "attack"
    who: str = "self"  # "self" (the one acting), "party" (everyone), "one" (one who has it)
    amount: int = 0
    attr: Attr | None = None
    name: str = ""  # an affliction, or attack notation


_AFF = "|".join(AFFLICTIONS)
_CLAUSE = re.compile(r"[.;:](?:\s+|$)")
_ATTACK = re.compile(r"\b(STR|DEX|INT|PRE) (\d+[BPRN]*(?:\+\d+[BPRN]*)?)\b")
_IFFY = re.compile(r"\b(if|unless|more than|when|whenever|will|would|or)\b")
_DOOM = re.compile(r"\btick(?:s|ed)? the doom tracker(?: (twice))?|\bthe doom tracker ticks(?: (twice))?")
_NOISE = re.compile(r"(?<!little )(?<!no )(?<!without )\b(noise|noisy|noisily|loud|loudly)\b")
_WOUNDS = re.compile(r"\b(\d+) (?:(str|dex|int|pre) )?wounds?\b")
_FATIGUE = re.compile(r"\b(\d+) (?:non-lethal )?(?:(str|dex|int|pre) )?fatigue\b")
_RISK = re.compile(rf"\b({_AFF}) on (\d+)d!")
_CURE = re.compile(rf"\bremoves? ({_AFF})\b")
_AFFLICTION = re.compile(rf"\b({_AFF})\b")


def _attr(code: str | None) -> Attr | None:
    return Attr(code.upper()) if code else None


def plain_effects(text: str, *, failure: bool) -> list[Plain]:
    """The effects a feature's words state plainly (see the module's docstring for the list)."""
    out: list[Plain] = []
    explicit = bool(_DOOM.search(text.lower()))
    noisy = False
    for clause in _CLAUSE.split(text):
        low = clause.lower().strip()
        if not low:
            continue
        who = "party" if re.search(r"\beveryone\b", low) else "self"
        if failure:
            m = _ATTACK.search(clause)
            if m is not None:
                try:
                    parse_attack(f"{m[1]} {m[2]}")
                except NotationError:
                    pass
                else:
                    out.append(Plain("attack", who, name=f"{m[1]} {m[2]}"))
                    continue
        for m in _DOOM.finditer(low):
            out.append(Plain("doom", amount=2 if (m[1] or m[2]) else 1))
        if _IFFY.search(low):
            continue
        if not explicit and not noisy and _NOISE.search(low):
            noisy = True
            out.append(Plain("doom", amount=1, name="noise"))
        out += [Plain("wounds", who, int(m[1]), _attr(m[2])) for m in _WOUNDS.finditer(low)]
        out += [Plain("fatigue", who, int(m[1]), _attr(m[2])) for m in _FATIGUE.finditer(low)]
        out += [Plain("risk", who, int(m[2]), name=m[1]) for m in _RISK.finditer(low)]
        low = _RISK.sub("", low)
        out += [Plain("cure", "one" if "one adventurer" in low else who, name=m[1]) for m in _CURE.finditer(low)]
        low = _CURE.sub("", low)
        out += [Plain("afflict", who, name=m[1]) for m in _AFFLICTION.finditer(low)]
    return out


def outcome_effects(out: VerbOutcome, attr: Attr | None) -> list[Plain]:
    """A catalogue outcome as effects."""
    effects: list[Plain] = []
    if out.fatigue:
        effects.append(Plain("fatigue", out.who, out.fatigue, _attr(out.fatigue_attr) or attr))
    if out.wounds:
        effects.append(Plain("wounds", out.who, out.wounds, _attr(out.wound_attr)))
    effects += [Plain("afflict", out.who, name=a) for a in out.afflictions]
    if out.doom:
        effects.append(Plain("doom", amount=out.doom))
    return effects


def apply_effects(gm: GM, member: Member, effects: list[Plain], reason: str) -> None:
    """Apply ``effects`` through the GM's services; the doom last (its events may start a fight)."""

    doom = 0
    for e in effects:
        if gm.c.phase is Phase.OVER:
            return
        if e.kind == "doom":
            doom += e.amount
            continue
        if e.who == "party":
            targets = list(gm.alive())
        elif e.who == "one":
            has = [m for m in gm.alive() if e.name in m.adv.character.afflictions]
            targets = [member] if member in has else has[:1]
        else:
            targets = [member] if member in gm.alive() else []
        for m in targets:
            if m not in gm.alive():
                continue
            if e.kind == "wounds":
                gm.harm(m, e.amount, reason, attr=e.attr, armour=False)
            elif e.kind == "fatigue":
                gm.fatigue(m, reason, e.attr, e.amount)
            elif e.kind == "afflict":
                gm.afflict(m, e.name, reason)
            elif e.kind == "cure":
                gm.cure(m, e.name, reason)
            elif e.kind == "risk":
                risk = roll_risk(gm.rng, e.amount)
                gm.emit("risk", f"Risk dice for {m.name} ({e.name}): {', '.join(map(str, risk.faces))}",
                        who=m.id, faces=list(risk.faces), triggered=risk.triggered)  # fmt: skip
                if risk.triggered:
                    gm.afflict(m, e.name, reason)
            elif e.kind == "attack":
                _attacked(gm, m, e.name, reason)
    if doom and gm.c.phase is not Phase.OVER:
        gm.advance_doom(doom, reason)


def _attacked(gm: GM, member: Member, notation: str, reason: str) -> None:
    """An attack from the surroundings, defended by the victim's test (as a trap's attack is)."""
    attack = parse_attack(notation)
    dis = int(attack.modifier is not None and attack.modifier.value == "disadvantage")
    roll = gm.test(member, attack.attributes[0], reason, disadvantage=dis)
    v = roll.verdict
    if not v.success:
        gm.harm(member, attack.wounds(v.critical_failure), reason, effects=attack.effects_on(v.critical_failure),
                from_attack=True)  # fmt: skip


# --- the list ---------------------------------------------------------------------------------------------


def _room_label(gm: GM, room_id: int) -> str:
    return f"{gm.room(room_id).name} (room {room_id})" if gm.room_state(room_id).seen else f"room {room_id}"


def _closed_doors(gm: GM) -> list[SiteLink]:
    """The room's doors that are shut: not archways, not hidden, not opened or broken."""
    exp = gm.c.expedition
    assert exp is not None
    out = []
    for link in gm.site_level().links_of(exp.room):
        st = door_state(gm, link)
        if link.door == "archway" or (link.door == "secret" and not st.found) or st.opened or st.broken:
            continue
        out.append(link)
    return out


def _skill(gm: GM, name: str) -> Skill:
    for s in gm.content.character.skills:
        if s.name.lower() == name.lower():
            return s
    raise RuleError(f"no skill {name!r}")


def _freeform_turns(gm: GM) -> int:
    for a in gm.content.tables.exploration_actions:
        if a.rule == "freeform":
            return a.turns
    return 1


def _animal(gm: GM, monster: str) -> bool:
    spec = gm.content.freeform.animals
    entry = next((m for m in gm.content.bestiary.monsters if m.name == monster), None)
    return entry is not None and entry.family in spec.families and set(spec.tags) <= set(entry.tags)


def _silent(gm: GM, monster: str) -> bool:
    silent = set(gm.content.freeform.listen.silent_tags)
    entry = next((m for m in gm.content.bestiary.monsters if m.name == monster), None)
    return entry is not None and bool(silent & set(entry.tags))


def _verb_action(gm: GM, verb: Verb, id_: str, label: str, why: str | None, **params: object) -> Action:
    attr = Attr(verb.attr) if verb.attr else None
    member = actor(gm, attr, verb)
    lg = legs(gm, verb, member)
    note = _roll_note(attr, lg)
    return Action(
        id_,
        "freeform",
        f"{label} ({note})",
        Cost(turns=verb.turns),
        why is None,
        why,
        who=member.id,
        target=str(params["target"]) if "target" in params else None,
        params=(
            ("verb", verb.id),
            ("roll", "none" if lg.all else "test" if attr else "fate"),
            ("legs", lg.names()),
            *params.items(),
        ),
        rule=verb.rule,
    )


Lister = Callable[["GM"], list[Action]]
Applier = Callable[["GM", Action], int]

#: What this module lists, in order (each a small function over the party's room), and how it applies each kind
#: (returning the exploration turns spent, which the exploration ends).
LISTERS: list[Lister] = []
APPLIERS: dict[str, Applier] = {}


def _lists(fn: Lister) -> Lister:
    LISTERS.append(fn)
    return fn


def _applies(kind: str) -> Callable[[Applier], Applier]:
    def register(fn: Applier) -> Applier:
        APPLIERS[kind] = fn
        return fn

    return register


def actions(gm: GM) -> list[Action]:
    """Everything this module adds to exploration, with cost, availability and rule."""
    if gm.c.expedition is None or not gm.active():
        return []
    return [a for lister in LISTERS for a in lister(gm)]


def _here(gm: GM) -> int:
    exp = gm.c.expedition
    assert exp is not None
    return exp.room


def _busy(gm: GM) -> str | None:
    return "Enemies are watching you." if _watched(gm) else None


@_lists
def _listen_actions(gm: GM) -> list[Action]:
    ff, busy, room = gm.content.freeform, _busy(gm), _here(gm)
    return [Action(f"listen:{link.id}", "listen",
                   f"Listen at the {link.door} door to {_room_label(gm, link.other(room))} ({ff.listen.attr})",
                   Cost(turns=ff.listen.turns), busy is None, busy, target=str(link.other(room)),
                   params=(("link", link.id),), rule=ff.listen.rule)
            for link in _closed_doors(gm)]  # fmt: skip


@_lists
def _verb_actions(gm: GM) -> list[Action]:
    """The catalogue's verbs, each on what it is aimed at: a door, a locked door, the enemies, animals, or none."""
    busy, room = _busy(gm), _here(gm)
    doors = _closed_doors(gm)
    out: list[Action] = []
    for verb in gm.content.freeform.verbs:
        if verb.target == "door":
            out += [_verb_action(gm, verb, f"freeform:{verb.id}:{link.id}",
                                 f"{verb.name}: the {link.door} door to {_room_label(gm, link.other(room))}", busy,
                                 target=link.other(room), link=link.id)
                    for link in doors if not (door_state(gm, link).spiked or door_state(gm, link).broken)]  # fmt: skip
        elif verb.target == "locked_door":
            out += [_verb_action(gm, verb, f"freeform:{verb.id}:{link.id}",
                                 f"{verb.name}: the door to {_room_label(gm, link.other(room))}", busy,
                                 target=link.other(room), link=link.id)
                    for link in doors if is_locked(gm, link)]  # fmt: skip
        elif verb.target == "enemies":
            out += [_verb_action(gm, verb, f"freeform:{verb.id}", verb.name, None)] if busy else []
        elif verb.target == "animals":
            out += [_verb_action(gm, verb, f"freeform:{verb.id}:{i}", f"{verb.name}: {g.count} {g.monster}", None,
                                 target=i)
                    for i, g in enumerate(gm.room_state().monsters)
                    if g.count > 0 and g.aware and g.attitude not in AT_PEACE and _animal(gm, g.monster)]  # fmt: skip
        elif verb.target == "none":
            out.append(_verb_action(gm, verb, f"freeform:{verb.id}", verb.name, None))
    return out


@_lists
def _feature_actions(gm: GM) -> list[Action]:
    busy, used = _busy(gm), gm.room_state().features_used
    return [_feature_action(gm, i, feature, "Already done." if i in used else busy)
            for i, feature in enumerate(gm.room().features)]  # fmt: skip


@_lists
def _floor_actions(gm: GM) -> list[Action]:
    """What a feature gave that no one had room for (R230)."""
    out = []
    for i, item in enumerate(gm.room_state().floor):
        room_for = rewards.can_take(gm, item)
        out.append(Action(f"floor:{i}", "floor", f"Pick up {item.name.lower()} from the floor", Cost(), room_for,
                          None if room_for else "No one has room for it.", params=(("item", item.name),),
                          rule="R230"))  # fmt: skip
    return out


@_lists
def _veteran_actions(gm: GM) -> list[Action]:
    ff, busy = gm.content.freeform, _busy(gm)
    veterans = [m for m in gm.active() if m.adv.character.has_skill(ff.veteran.skill)]
    if not veterans:
        return []
    skill = _skill(gm, ff.veteran.skill)
    attr = Attr(skill.test_attr or "PRE")
    m = max(veterans, key=lambda x: (x.adv.character.available(attr), x.adv.character.attr(attr).proficiency))
    label = f"{m.name} reads the signs of the dungeon (Veteran, {attr.value})"
    return [Action("veteran", "veteran", label, Cost(turns=skill.exploration_turns or 1), busy is None, busy,
                   who=m.id, rule=skill.text)]  # fmt: skip


@_lists
def _ward_actions(gm: GM) -> list[Action]:
    ff, busy, room, st = gm.content.freeform, _busy(gm), gm.room(), gm.room_state()
    wardens = [m for m in gm.active() if m.adv.character.has_skill(ff.ward.skill)]
    if not (wardens and st.corpses):
        return []
    skill = _skill(gm, ff.ward.skill)
    why = busy or (None if "lying" in st.corpses else "The dead here are already warded, or gone.")
    return [Action("ward", "ward", f"{wardens[0].name} wards the dead of {room.name} (Ward the dead)",
                   Cost(turns=skill.exploration_turns or 1), why is None, why, who=wardens[0].id,
                   rule=skill.text)]  # fmt: skip


def feature_verb(gm: GM, feature: SiteFeature) -> Verb | None:
    """The catalogue verb a feature's words name (its gear and skills count for Time / Gear / Skill)."""
    words = " ".join((feature.name, feature.text, feature.success)).lower()
    for verb in gm.content.freeform.verbs:
        if any(re.search(rf"\b{re.escape(k)}\b", words) for k in verb.keywords):
            return verb
    return None


def _feature_action(gm: GM, index: int, feature: SiteFeature, why: str | None) -> Action:
    attr = Attr.parse(feature.test) if feature.test else None
    verb = feature_verb(gm, feature)
    member = actor(gm, attr, verb)
    if attr is None:
        note = ""
        roll = "none"
    else:
        lg = legs(gm, verb, member) if verb is not None else Legs(time=False, gear=False, skill=False)
        note = f" ({_roll_note(attr, lg)})"
        roll = "none" if lg.all else "test"
    return Action(
        f"feature:{index}",
        "feature",
        f"{feature.name}{note}",
        Cost(turns=_freeform_turns(gm)),
        why is None,
        why,
        who=member.id,
        target=str(index),
        params=(("text", feature.text), ("roll", roll), ("verb", verb.id if verb else None)),
        rule=gm.content.freeform.features.rule,
    )


# --- doing it ---------------------------------------------------------------------------------------------


def apply(gm: GM, action: Action) -> int:
    """Do ``action`` (one of :func:`actions`'); return the exploration turns it cost (not yet ended)."""
    fn = APPLIERS.get(action.kind)
    if fn is None:
        raise RuleError(f"unknown freeform action {action.kind!r}")
    return fn(gm, action)


def _index(action: Action) -> int:
    return int(action.id.split(":")[1])


@_applies("freeform")
def _freeform(gm: GM, action: Action) -> int:
    verb = gm.content.freeform.verb(str(action.param("verb")))
    attr = Attr(verb.attr) if verb.attr else None
    member = gm.c.member(action.who) if action.who else actor(gm, attr, verb)
    grade = attempt(gm, verb, attr, member, verb.name.lower())
    out = verb.outcome(grade)
    gm.emit("freeform", out.text, who=member.id, verb=verb.id, grade=grade)
    if out.result is not None and grade.startswith("yes"):
        if out.result in ("shut_door", "break_door"):
            link = next(lk for lk in gm.site_level().links if lk.id == int(action.param("link")))
            st = door_state(gm, link)
            if out.result == "shut_door":  # barricaded shut: what comes from beyond must burst it (R246)
                st.spiked = st.wedged = True
                st.opened = False
            else:
                st.broken = True
        elif out.result == "calm":
            group = gm.room_state().monsters[int(action.param("target"))]
            group.aware = False
        elif out.result == "hide":
            for g in _live(gm):
                g.aware = False
    apply_effects(gm, member, outcome_effects(out, attr), verb.name.lower())
    return verb.turns


@_applies("feature")
def _feature_applied(gm: GM, action: Action) -> int:
    return _feature(gm, _index(action))


def _feature(gm: GM, index: int) -> int:
    feature = gm.room().features[index]
    st = gm.room_state()
    st.features_used.append(index)
    attr = Attr.parse(feature.test) if feature.test else None
    verb = feature_verb(gm, feature)
    member = actor(gm, attr, verb)
    gm.emit("feature", f"{member.name} tries the {feature.name.lower()}: {feature.text}", who=member.id,
            feature=feature.name)  # fmt: skip
    if attr is None:
        success = True
    else:
        grade = attempt(gm, verb, attr, member, feature.name.lower())
        success = grade.startswith("yes")
    words = feature.success if success else feature.failure
    if words:
        gm.emit("feature_outcome", words, who=member.id, feature=feature.name, success=success)
    for reward in feature.rewards if success else ():
        if gm.c.phase is Phase.EXPLORATION:
            rewards.give(gm, member, reward, feature.name.lower())
    if words:
        apply_effects(gm, member, plain_effects(words, failure=not success), feature.name.lower())
    return _freeform_turns(gm)


@_applies("floor")
def _pickup_applied(gm: GM, action: Action) -> int:
    return _pickup(gm, _index(action))


def _pickup(gm: GM, index: int) -> int:
    st = gm.room_state()
    item = st.floor[index]
    member = gm.active()[0]
    who = rewards.take(gm, member, item)
    if who is None:
        raise RuleError(f"no one has room for {item.name}")
    del st.floor[index]
    gm.emit("pickup", f"{who.name} picks up {item.name.lower()} from the floor.", who=who.id, item=item.name)
    return 0


@_applies("listen")
def _listen_applied(gm: GM, action: Action) -> int:
    return _listen(gm, _index(action))


def _listen(gm: GM, link_id: int) -> int:
    ff = gm.content.freeform.listen
    exp = gm.c.expedition
    assert exp is not None
    link = next(lk for lk in gm.site_level().links if lk.id == link_id)
    target = link.other(exp.room)
    attr = Attr(ff.attr)
    member = actor(gm, attr, None)
    roll = gm.test(member, attr, "listening at a door")
    heard = [g for g in gm.room_state(target).monsters if g.count > 0 and not _silent(gm, g.monster)]
    key = f"{exp.depth}:{target}"
    exp.heard[key] = "nothing"
    if roll.verdict.success and heard:
        aware = any(g.aware for g in heard)
        exp.heard[key] = "alert" if aware else "unaware"
        text = (
            "Beyond the door: movement and voices. Something is there, and it is alert."
            if aware
            else "Beyond the door: slow breathing, a shuffle. Something is there, and it has not noticed you."
        )
        gm.emit("listen", text, who=member.id, room=target, heard=True, aware=aware)
    else:
        gm.emit("listen", "Nothing can be heard beyond the door.", who=member.id, room=target, heard=False)
    return ff.turns


def heard(gm: GM, room_id: int) -> str:
    """What listening at a door to ``room_id`` (on this level) last told this expedition: "alert", "unaware",
    "nothing", or "" (no one listened)."""
    exp = gm.c.expedition
    return "" if exp is None else exp.heard.get(f"{exp.depth}:{room_id}", "")


@_applies("veteran")
def _veteran_applied(gm: GM, action: Action) -> int:
    return _veteran(gm, gm.c.member(action.who or ""))


def _veteran(gm: GM, member: Member) -> int:
    skill = _skill(gm, gm.content.freeform.veteran.skill)
    attr = Attr(skill.test_attr or "PRE")
    roll = gm.test(member, attr, "reading the dungeon (Veteran)")
    lv = gm.level_state()
    if roll.verdict.success:
        lv.doom_known = lv.doom
        lv.doom_next_known = next_threshold(gm)
        nxt = (
            f"the next step comes at {lv.doom_next_known}"
            if lv.doom_next_known is not None
            else "nothing worse is left to come"
        )
        gm.emit("veteran", f"{member.name} reads the signs: the doom here stands at {lv.doom}; {nxt}.",
                who=member.id, doom=lv.doom, next=lv.doom_next_known)  # fmt: skip
    else:
        gm.emit("veteran", f"{member.name} cannot read the signs.", who=member.id, doom=None, next=None)
    return skill.exploration_turns or 1


@_applies("ward")
def _ward_applied(gm: GM, action: Action) -> int:
    return _ward(gm, gm.c.member(action.who or ""))


def _ward(gm: GM, member: Member) -> int:
    skill = _skill(gm, gm.content.freeform.ward.skill)
    st = gm.room_state()
    n = 0
    for i, c in enumerate(st.corpses):
        if c == "lying":
            st.corpses[i] = "warded"
            n += 1
    gm.emit("ward", f"{member.name} draws the circle and speaks the rite: {n} of the dead here will not rise.",
            who=member.id, warded=n)  # fmt: skip
    return skill.exploration_turns or 1


#: The kinds of action this module applies (the exploration registers them in its table).
KINDS = tuple(APPLIERS)

__all__ = ["KINDS", "actions", "apply", "attempt", "plain_effects", "roll_fate"]
