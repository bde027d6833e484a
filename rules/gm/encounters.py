"""Encounters with the dungeon's living: reactions, parley, bribes, and wanderers that move on.

The optional module of the rule texts for parley: the adventuring rules' **attitude table** (a d6: hostile,
unfriendly, neutral, friendly; 2d6 keeping the lower die for an aggressive temper, the higher for a peaceful
approach).  Who has a mind to react, what each takes as a bribe and every number are data
(``resources/gm/encounters.toml``, documented beside it).

* **Meeting.**  A living group with a mind (goblins, people, beasts) that has noticed the party when it comes
  in is rolled on the table once: the GM's secret choice for the other side ("If at least one group wants to
  fight, a combat breaks out").  Hostile: they attack.  Unfriendly or neutral: they keep their distance — the
  party may pass through, but not loot, search or rest there.  Friendly: they let the party be (the room is
  safe) and tell it a rumour.  An unaware group is rolled when the party speaks to it or offers it something.
  The mindless (undead, ghosts, demons, swarms) and the master of the place with its guards never react:
  they fight.
* **Parley** (1 turn, PRE): a group that talks, once: the attitude is rolled if unknown, then a success
  shifts it one step better, a great success two, a critical failure makes them hostile (and they act first,
  R102); hostile means a fight.
* **Bribes** (1 turn): food or silver to a group that takes it.  Neutral groups take a fair price, unfriendly
  ones a big favour (twice: "in case a big favour is made, the save is not required"); hostile ones refuse, and
  friendly ones need nothing.  A bribed group lets the party loot and pass.
* **Wanderers move on**: a group that came wandering (the doom, an ambush, a hunt, a fight's survivors that
  were not the room's own) leaves the room after ``stay`` exploration turns (1d4); and wanderers never wait
  for the party's next expedition.
* **Memory between expeditions**: attitudes last the expedition.  When the party comes back, the living that
  fought it are met anew (rolled again when they see it), the bribed are neutral again (a bribe buys one
  visit), and parley may be tried again.

Attitudes are kept on :class:`~rules.gm.state.GroupState` (``attitude``: "" not met yet, or one of the
table's, or "bribed").
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field, model_validator

from rules.attributes import Attr
from rules.content.base import AttrCode, ContentError, Dice, Strict, check_unique, load_toml, resources_dir
from rules.dice import DiceExpr, d
from rules.gm.events import Action, Cost
from rules.gm.gear import use_up
from rules.gm.services import best
from rules.gm.state import GroupState, Phase

if TYPE_CHECKING:
    from rules.content.registry import Content
    from rules.gm.services import GM
    from rules.gm.site import SiteRoom
    from rules.gm.state import Member
    from rules.inventory import Carried

AttitudeName = Literal["hostile", "unfriendly", "neutral", "friendly"]
Temper = Literal["plain", "aggressive", "peaceful"]
MindKind = Literal["talks", "beast", "none"]
Currency = Literal["food", "silver"]

HOSTILE = "hostile"
FRIENDLY = "friendly"
BRIBED = "bribed"  # not a row of the table: paid off, they let the party loot and pass
AT_PEACE = (FRIENDLY, BRIBED)  # the room is safe with them in it
WARY = ("unfriendly", "neutral")  # they keep their distance: the party may pass, not loot


# --- the data ---------------------------------------------------------------------------------------------


class AttitudeRow(Strict):
    min: int = Field(ge=1, le=20)
    max: int = Field(ge=1, le=20)
    attitude: AttitudeName
    text: str


class AttitudeTable(Strict):
    text: str
    die: int = Field(ge=2, le=20)
    steps: list[AttitudeName]
    rows: list[AttitudeRow]

    @model_validator(mode="after")
    def _covers(self) -> AttitudeTable:
        if sorted(self.steps) != sorted(set(AttitudeName.__args__)):  # type: ignore[attr-defined]
            raise ValueError("steps must name every attitude once, worst to best")
        face = 1
        for row in sorted(self.rows, key=lambda r: r.min):
            if row.min != face or row.max < row.min:
                raise ValueError(f"the rows must cover 1..{self.die} without gaps (at {face})")
            face = row.max + 1
        if face != self.die + 1:
            raise ValueError(f"the rows must cover 1..{self.die} exactly")
        return self

    def row(self, face: int) -> AttitudeRow:
        return next(r for r in self.rows if r.min <= face <= r.max)


class ParleyRules(Strict):
    text: str
    attr: AttrCode
    success: int = Field(ge=0, le=3)
    great_success: int = Field(ge=0, le=3)
    critical_failure: AttitudeName


class BribeRules(Strict):
    text: str
    food: list[str] = Field(min_length=1)
    rations_per_monster: int = Field(ge=1, le=5)
    silver_per_level: int = Field(ge=1, le=10)
    price: dict[str, int]  # attitude -> times the price
    offer_temper: Temper

    @model_validator(mode="after")
    def _prices(self) -> BribeRules:
        if not self.price or any(not 1 <= v <= 5 for v in self.price.values()):
            raise ValueError("price: each attitude that takes a bribe pays 1 to 5 times the price")
        if any(k not in WARY for k in self.price):
            raise ValueError("price: only unfriendly and neutral groups take bribes")
        return self


class WandererRules(Strict):
    text: str
    stay: Dice

    @model_validator(mode="after")
    def _positive(self) -> WandererRules:
        if DiceExpr.parse(self.stay).minimum < 1:
            raise ValueError("stay: wanderers stay at least one turn")
        return self


class Mind(Strict):
    family: str | None = None
    monster: str | None = None
    mind: MindKind
    takes: list[Currency] = Field(default_factory=list)
    temper: Temper = "plain"
    text: str = ""

    @model_validator(mode="after")
    def _one(self) -> Mind:
        if (self.family is None) == (self.monster is None):
            raise ValueError("name either a family or a monster")
        if self.mind == "none" and self.takes:
            raise ValueError("a group with no mind takes no bribe")
        if self.mind == "beast" and "silver" in self.takes:
            raise ValueError("beasts do not take silver")
        return self


class EncountersFile(Strict):
    attitude: AttitudeTable
    parley: ParleyRules
    bribe: BribeRules
    wanderers: WandererRules
    minds: list[Mind]

    @model_validator(mode="after")
    def _unique(self) -> EncountersFile:
        check_unique([m.monster for m in self.minds if m.monster], "monster")
        check_unique([m.family for m in self.minds if m.family], "family")
        return self


def data_path() -> Path:
    return resources_dir() / "gm" / "encounters.toml"


@cache
def load_encounters(path: Path | None = None) -> EncountersFile:
    return load_toml(path or data_path(), EncountersFile)


def check(data: EncountersFile, content: Content) -> None:
    """The names the file uses exist in the content; only the living talk or are beasts."""
    where = data_path().name
    families = {f.key for f in content.bestiary.families}
    items = {i.name.lower() for i in content.items.items}
    for m in data.minds:
        if m.family is not None and m.family not in families:
            raise ContentError(f"{where}: minds: unknown family {m.family!r}")
        if m.monster is not None:
            try:
                sheet = content.bestiary.monster(m.monster)
            except KeyError:
                raise ContentError(f"{where}: minds: unknown monster {m.monster!r}") from None
            if m.mind != "none" and "living" not in sheet.tags:
                raise ContentError(f"{where}: minds: {m.monster} is not living: it cannot talk or be a beast")
    for name in data.bribe.food:
        if name.lower() not in items:
            raise ContentError(f"{where}: bribe: food: unknown item {name!r}")


_checked: set[int] = set()


def rules(gm: GM) -> EncountersFile:
    data = load_encounters()
    if id(gm.content) not in _checked:
        check(data, gm.content)
        _checked.add(id(gm.content))
    return data


# --- who is who ---------------------------------------------------------------------------------------------


def mind_of(gm: GM, monster: str) -> Mind | None:
    """The monster's line of the minds list (its own, else its family's); None: no mind to react."""
    data = rules(gm)
    key = monster.lower()
    own = next((m for m in data.minds if m.monster is not None and m.monster.lower() == key), None)
    try:
        sheet = gm.content.bestiary.monster(monster)
    except KeyError:
        return None
    if "living" not in sheet.tags:
        return None  # only the living have a mind to react (a family line does not make a ghost talk)
    if own is None:
        own = next((m for m in data.minds if m.family == sheet.family), None)
    return own if own is not None and own.mind != "none" else None


def reacts(gm: GM, monster: str) -> bool:
    return mind_of(gm, monster) is not None


def talks(gm: GM, monster: str) -> bool:
    mind = mind_of(gm, monster)
    return mind is not None and mind.mind == "talks"


def takes(gm: GM, monster: str, currency: str) -> bool:
    mind = mind_of(gm, monster)
    return mind is not None and currency in mind.takes


def wanderer(room: SiteRoom, index: int) -> bool:
    """A group that came to the room (not one the dungeon put there): it moves on after a while."""
    return index >= len(room.monsters)


def mood(gm: GM, room: SiteRoom, index: int, g: GroupState) -> str:
    """The group's attitude as the GM plays it: the one rolled or set; else hostile for the mindless, for the
    master of the place and its guards, and for wanderers (they came in fighting); else "" (not met yet)."""
    if g.attitude:
        return g.attitude
    if room.boss or wanderer(room, index) or not reacts(gm, g.monster):
        return HOSTILE
    return ""


def _live(gm: GM, room_id: int | None = None) -> list[tuple[int, GroupState]]:
    return [(i, g) for i, g in enumerate(gm.room_state(room_id).monsters) if g.count > 0]


def moods(gm: GM, room_id: int | None = None) -> list[tuple[GroupState, str]]:
    room = gm.room(room_id)
    return [(g, mood(gm, room, i, g)) for i, g in _live(gm, room_id)]


def unsafe(gm: GM, room_id: int | None = None) -> list[GroupState]:
    """Groups that make the room unsafe (no looting, searching, resting): all but the friendly and bribed."""
    return [g for g, m in moods(gm, room_id) if m not in AT_PEACE]


def in_the_way(gm: GM, room_id: int | None = None) -> list[GroupState]:
    """Groups that have not let the party pass (hostile, or not met yet): the stairs and the exit are barred."""
    return [g for g, m in moods(gm, room_id) if m not in AT_PEACE + WARY]


def barring(gm: GM, room_id: int | None = None) -> list[GroupState]:
    """Aware groups that have not let the party pass: only the way back is open."""
    return [g for g in in_the_way(gm, room_id) if g.aware]


def attackers(gm: GM, room_id: int | None = None) -> list[GroupState]:
    """Aware groups that want to fight."""
    return [g for g, m in moods(gm, room_id) if g.aware and m == HOSTILE]


def menacing(gm: GM, room: SiteRoom, states: list[GroupState], *, expedition: bool = True) -> list[GroupState]:
    """Groups of a room (any level, even between expeditions) the party knows would attack it, or may:
    aware and hostile or not met yet.  Between expeditions (``expedition=False``) wanderers are gone."""
    out = []
    for i, g in enumerate(states):
        if g.count <= 0 or not g.aware or (not expedition and wanderer(room, i)):
            continue
        if mood(gm, room, i, g) not in AT_PEACE + WARY:
            out.append(g)
    return out


# --- the attitude roll --------------------------------------------------------------------------------------


def _temper(gm: GM, groups: list[GroupState], approach: Temper = "plain") -> Temper:
    tempers = {m.temper for g in groups if (m := mind_of(gm, g.monster)) is not None}
    if "aggressive" in tempers:
        return "aggressive" if approach != "peaceful" else "plain"  # a gift to the feral evens the odds
    return approach


def roll_attitude(gm: GM, temper: Temper = "plain") -> tuple[str, list[int]]:
    """A roll on the attitude table: a die, or two keeping the lower (aggressive) or the higher (peaceful)."""
    table = rules(gm).attitude
    if temper == "plain":
        faces = [d(gm.rng, table.die)]
        face = faces[0]
    else:
        faces = [d(gm.rng, table.die), d(gm.rng, table.die)]
        face = min(faces) if temper == "aggressive" else max(faces)
    return table.row(face).attitude, faces


def shifted(gm: GM, attitude: str, steps: int) -> str:
    order = list(rules(gm).attitude.steps)
    if attitude not in order:
        return attitude
    return order[max(0, min(len(order) - 1, order.index(attitude) + steps))]


def _names(groups: list[GroupState]) -> str:
    return ", ".join(f"{g.count} {g.monster}" for g in groups)


_BEHAVIOUR = {
    "hostile": "they attack",
    "unfriendly": "they keep their distance and will not deal; you may pass, not loot",
    "neutral": "they keep their distance, open to a deal; you may pass, not loot",
    "friendly": "they let you be",
    "bribed": "paid off: they let you loot and pass",
}


def _settle(
    gm: GM, groups: list[GroupState], attitude: str, faces: list[int] | None, why: str, *, was: str | None = None
) -> None:
    """Set and tell the groups' attitude; newly friendly groups (``was``: before this step) tell a rumour."""
    warmer = any((was if was is not None else g.attitude) != FRIENDLY for g in groups)
    for g in groups:
        g.attitude = attitude
        g.aware = True
    row = next((r for r in rules(gm).attitude.rows if r.attitude == attitude), None)
    text = row.text if row is not None else attitude.capitalize() + "."
    gm.emit(
        "reaction",
        f"{_names(groups)} ({why}): {text} — {_BEHAVIOUR.get(attitude, attitude)}.",
        attitude=attitude,
        roll=list(faces or []),
        monsters=[g.monster for g in groups],
    )
    if attitude == FRIENDLY and warmer:
        rumour(gm, groups)


def meet(gm: GM) -> None:
    """The party comes into a room: aware groups with a mind, met for the first time, show their attitude."""
    room = gm.room()
    fresh = [g for i, g in _live(gm) if g.aware and mood(gm, room, i, g) == ""]
    if not fresh:
        return
    attitude, faces = roll_attitude(gm, _temper(gm, fresh))
    _settle(gm, fresh, attitude, faces, "they have seen you")


def arrive(gm: GM, groups: list[tuple[str, int]], source: str) -> bool:
    """A wandering group comes upon the party exploring.  If every one of them has a mind, the attitude is
    rolled: unless hostile they stay in the room as a group that moves on later (True: no fight)."""
    if gm.c.phase is not Phase.EXPLORATION or not groups or not all(reacts(gm, n) for n, _ in groups):
        return False
    st = gm.room_state()
    new = [GroupState(name, count, aware=True) for name, count in groups]
    attitude, faces = roll_attitude(gm, _temper(gm, new))
    if attitude == HOSTILE:
        gm.emit("reaction", f"{_names(new)} ({source}): they come in fighting.", attitude=attitude, roll=faces)
        return False
    st.monsters.extend(new)
    gm.emit("monsters", f"Here: {_names(new)} ({source}).", room=gm.room().id)
    _settle(gm, new, attitude, faces, "they come upon you")
    return True


# --- rumours ------------------------------------------------------------------------------------------------


def rumour(gm: GM, groups: list[GroupState]) -> None:
    """Friendly: they tell of the nearest unexplored room's trap, else of who waits there."""
    exp = gm.c.expedition
    if exp is None:
        return
    level = gm.site_level()
    seen = {exp.room}
    todo = deque([exp.room])
    order: list[int] = []
    while todo:
        r = todo.popleft()
        for link in level.links_of(r):
            n = link.other(r)
            if n not in seen:
                seen.add(n)
                order.append(n)
                todo.append(n)
    who = groups[0].monster if groups else "they"
    for rid in order:
        room = level.room(rid)
        st = gm.room_state(rid)
        hidden = [i for i, t in enumerate(st.traps) if not (t.found or t.triggered or t.disarmed)]
        if hidden and not st.visited:
            for i in hidden:
                st.traps[i].found = True
            trap = room.traps[hidden[0]]
            gm.emit("rumour", f"The {who} warn of {trap.name.lower()} in {room.name}.", room=rid, trap=trap.name)
            return
    for rid in order:
        st = gm.room_state(rid)
        live = [g for g in st.monsters if g.count > 0]
        if live and not st.visited:
            st.seen = True
            room = level.room(rid)
            gm.emit("rumour", f"The {who} tell of {_names(live)} in {room.name}.", room=rid)
            return
    gm.emit("rumour", f"The {who} have nothing to tell.")


# --- the actions --------------------------------------------------------------------------------------------


def _parley_targets(gm: GM) -> list[tuple[GroupState, str]]:
    """Groups that talk, not yet talked with, not at peace already: (group, its mood)."""
    room = gm.room()
    if room.boss:
        return []
    out = []
    for i, g in _live(gm):
        m = mood(gm, room, i, g)
        if talks(gm, g.monster) and not g.parleyed and m not in AT_PEACE:
            out.append((g, m))
    return out


def _takers(gm: GM, currency: str) -> list[GroupState]:
    room = gm.room()
    data = rules(gm).bribe
    out = []
    for i, g in _live(gm):
        m = mood(gm, room, i, g)
        if room.boss or not takes(gm, g.monster, currency):
            continue
        if m == "" or m in data.price:
            out.append(g)
    return out


def base_price(gm: GM, g: GroupState, currency: str) -> int:
    data = rules(gm).bribe
    if currency == "food":
        return data.rations_per_monster * g.count
    return data.silver_per_level * gm.content.bestiary.monster(g.monster).level * g.count


def price(gm: GM, groups: list[GroupState], currency: str) -> int:
    """What the groups ask (a group not met yet: the fair price; it may turn out to want more)."""
    times = rules(gm).bribe.price
    return sum(base_price(gm, g, currency) * times.get(g.attitude, 1) for g in groups)


def _food(gm: GM) -> list[tuple[Member, Carried]]:
    wanted = {n.lower() for n in rules(gm).bribe.food}
    return [(m, i) for m in gm.alive() for i in m.adv.inventory.items if i.name.lower() in wanted]


def holding(gm: GM, currency: str) -> int:
    if currency == "food":
        return sum(i.count for _, i in _food(gm))
    return sum(max(0, m.adv.character.silver) for m in gm.alive())


def actions(gm: GM) -> list[Action]:
    """Parley and bribes, for the exploration list (only where someone is there)."""
    live = [g for _, g in _live(gm)]
    if not live:
        return []
    out: list[Action] = []
    data = rules(gm)
    targets = [g for g, _ in _parley_targets(gm)]
    talkers = [g for g in live if talks(gm, g.monster)]
    if targets:
        reason = None
    elif gm.room().boss:
        reason = "The master of this place does not bargain."
    elif talkers and all(g.attitude in AT_PEACE for g in talkers):
        reason = "They are already at peace with you."
    elif talkers:
        reason = "You have already talked with them."
    elif any(reacts(gm, g.monster) for g in live):
        reason = "Beasts do not talk: food may calm them."
    else:
        reason = "There is no reasoning with them: they do not talk."
    out.append(
        Action(
            "parley",
            "parley",
            f"Parley ({data.parley.attr})" + (f" with {_names(targets)}" if targets else ""),
            Cost(turns=1),
            not reason,
            reason,
            rule="Parley (1 turn): a PRE test may keep it from turning into a fight "
            "(success: one step friendlier, great success: two, critical failure: hostile).",
        )
    )
    for currency in ("food", "silver"):
        takers = _takers(gm, currency)
        if not takers:
            continue
        cost = price(gm, takers, currency)
        have = holding(gm, currency)
        unknown = any(g.attitude == "" for g in takers)
        what = f"{cost} ration{'s' if cost != 1 else ''}" if currency == "food" else f"{cost} silver"
        out.append(
            Action(
                f"bribe:{currency}",
                "bribe",
                f"Offer {what} to {_names(takers)}" + (" (more, if they are unfriendly)" if unknown else ""),
                Cost(
                    turns=1,
                    silver=cost if currency == "silver" else 0,
                    items=(f"{cost} × {data.bribe.food[0]}",) if currency == "food" else (),
                ),
                have >= cost,
                None if have >= cost else f"You have {have}; they want {what}.",
                params=(("currency", currency), ("price", cost)),
                rule="Bribe (1 turn): neutral groups take a fair price, unfriendly ones a big favour (twice); "
                "paid off, they let you loot and pass.",
            )
        )
    return out


def _best(gm: GM, attr: Attr) -> Member:
    return best(gm, attr)


@dataclass(frozen=True)
class Blows:
    """How a talk or an offer turns into a fight, if anyone still attacks once its turn is spent (the
    exploration procedure spends the turn and starts the fight)."""

    surprise: str | None
    source: str
    words: str = ""


def parley(gm: GM) -> Blows:
    """Parley (1 turn): the attitude (rolled if not known), then the PRE test moves it."""
    data = rules(gm)
    targets = _parley_targets(gm)
    was = {id(g): m for g, m in targets}
    for g, m in targets:
        if g.attitude == "" and m == HOSTILE:
            g.attitude = HOSTILE  # wanderers who came fighting
    unknown = [g for g, _ in targets if g.attitude == ""]
    if unknown:
        attitude, faces = roll_attitude(gm, _temper(gm, unknown))
        for g in unknown:
            g.attitude = attitude
        gm.emit("reaction", f"{_names(unknown)} turn to you.", attitude=attitude, roll=faces, hidden=True)
    attr = Attr.parse(data.parley.attr)
    roll = gm.test(_best(gm, attr), attr, "parley")
    v = roll.verdict
    steps = data.parley.great_success if v.great_success else data.parley.success if v.success else 0
    results: dict[tuple[str, bool], list[GroupState]] = {}
    for g, _ in targets:
        g.parleyed = True
        after = data.parley.critical_failure if v.critical_failure else shifted(gm, g.attitude, steps)
        results.setdefault((after, was[id(g)] == FRIENDLY), []).append(g)
    for (after, friends), groups in results.items():
        _settle(gm, groups, after, None, "after the talk", was=FRIENDLY if friends else "")
    return Blows("enemies" if v.critical_failure else None, "parley failed", "The talk turns to blows.")


def bribe(gm: GM, action: Action) -> Blows:
    """Offer food or silver (1 turn): the attitude (rolled as a peaceful approach if not known) decides."""
    data = rules(gm).bribe
    currency = str(action.param("currency"))
    takers = _takers(gm, currency)
    unknown = [g for g in takers if g.attitude == ""]
    if unknown:
        attitude, faces = roll_attitude(gm, _temper(gm, unknown, data.offer_temper))
        _settle(gm, unknown, attitude, faces, "at your offer")
    hostile = [g for g in takers if g.attitude == HOSTILE]
    paying = [g for g in takers if g.attitude in data.price]
    cost = price(gm, paying, currency)
    if hostile:
        gm.emit("bribe", f"{_names(hostile)} will not be bought.", paid=0)
    elif not paying:
        gm.emit("bribe", "They want nothing from you.", paid=0)
    elif cost > holding(gm, currency):
        gm.emit("bribe", f"{_names(paying)} want more than you can give ({cost}).", paid=0)
    else:
        pay(gm, currency, cost)
        for g in paying:
            g.attitude = BRIBED
        what = f"{cost} ration{'s' if cost != 1 else ''}" if currency == "food" else f"{cost} silver"
        gm.emit("bribe", f"{_names(paying)} take {what}: they let you loot and pass.", paid=cost, currency=currency)
    return Blows(None, "the offer is refused")


def pay(gm: GM, currency: str, amount: int) -> None:
    """The party hands over ``amount`` silver (the richest first) or rations (a bribe, a group's want)."""
    left = amount
    if currency == "silver":
        for m in sorted(gm.alive(), key=lambda m: -m.adv.character.silver):
            take = min(left, max(0, m.adv.character.silver))
            m.adv.character.silver -= take
            left -= take
            if not left:
                return
        return
    while left > 0:
        food = _food(gm)
        if not food:
            return
        m, item = food[0]
        use_up(gm, m, item)
        left -= 1


# --- wanderers ----------------------------------------------------------------------------------------------


def wander(gm: GM) -> None:
    """An exploration turn passes: each wandering group counts down its stay and moves on when it is over."""
    exp = gm.c.expedition
    if exp is None:
        return
    loc = gm.location()
    site = gm.site(loc.id)
    stay = DiceExpr.parse(rules(gm).wanderers.stay)
    for depth in sorted(loc.levels):
        lv = loc.levels[depth]
        level = site.depth(depth)
        for rid in sorted(lv.rooms):
            room = level.room(rid)
            for i, g in enumerate(lv.rooms[rid].monsters):
                if g.count <= 0 or not wanderer(room, i):
                    continue
                if g.leaves_in <= 0:
                    g.leaves_in = stay.roll(gm.rng)
                g.leaves_in -= 1
                if g.leaves_in <= 0:
                    here = depth == exp.depth and rid == exp.room
                    gm.emit("wanderers", f"{g.count} {g.monster} move on.", room=rid, hidden=not here)
                    g.count = 0


def new_expedition(gm: GM) -> None:
    """The party comes back after days away: the wanderers of the place have long moved on; the living that
    fought it will be met anew (their attitude rolled again when they see the party), and a bribe bought one
    visit (the bribed are neutral again: open to another deal); a talk can be tried again."""
    loc = gm.location()
    site = gm.site(loc.id)
    for depth, lv in loc.levels.items():
        level = site.depth(depth)
        for rid, st in lv.rooms.items():
            room = level.room(rid)
            for i, g in enumerate(st.monsters):
                if g.count <= 0:
                    continue
                if wanderer(room, i):
                    g.count = 0
                    continue
                g.parleyed = False
                if g.attitude == BRIBED:
                    g.attitude = "neutral"
                elif g.attitude == HOSTILE and reacts(gm, g.monster):
                    g.attitude = ""
