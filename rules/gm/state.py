"""The campaign: everything the GM keeps, saved whole after every step.

Plain dataclasses, round-tripped by :mod:`rules.gm.serial` (``to_dict`` /
``from_dict``): what a save holds is exactly what the engine reads.  The
dungeons themselves are kept as their generator's JSON (``LocationState.data``)
and rebuilt into :class:`~rules.gm.site.Site` on load; what the party changed
there (doom, looted rooms, dead monsters, opened doors) is kept here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from random import Random
from typing import Any

from rules.creation import Adventurer
from rules.gm.combat_state import CombatState
from rules.gm.serial import dump, load
from rules.gm.site import SiteRoom
from rules.inventory import Carried
from rules.trackers import OmensTracker

SAVE_VERSION = 1


class Phase(StrEnum):
    INTERLUDE = "interlude"  # in a settlement, day by day
    EXPLORATION = "exploration"  # in a dungeon, turn by turn
    COMBAT = "combat"
    CAMP = "camp"
    OVER = "over"  # the campaign ended: escaped the island, or no one left


@dataclass
class Member:
    """An adventurer of the party, with what only matters while they play."""

    id: str  # stable within the campaign: "a1", "a2", ...
    adv: Adventurer
    lit: str | None = None  # the light source in hand, burning (an inventory item's name)
    joined_day: int = 0
    fate: str = ""  # "died in the Chapel of Candles on day 12", "retired on day 80"
    bliss: list[str] = field(default_factory=list)  # afflictions Bliss set aside until the expedition ends
    immune: list[str] = field(default_factory=list)  # afflictions that cannot take hold this expedition (a tonic)
    warded: int = 0  # Arcane Seal: protected from spells until this exploration turn of the expedition
    hovering: int = 0  # Hover: above the ground until this exploration turn of the expedition
    blind: int = 0  # a spell mishap's blindness: until this exploration turn of the expedition (R206)

    @property
    def name(self) -> str:
        return self.adv.character.name


@dataclass
class GroupState:
    """A group of monsters of a room (or a wandering group that arrived)."""

    monster: str
    count: int  # still standing
    killed: int = 0
    aware: bool = True
    fled: int = 0
    attitude: str = ""  # "" not met yet; hostile, unfriendly, neutral, friendly (the attitude table); bribed
    parleyed: bool = False  # the party has talked with them (parley is once per group)
    leaves_in: int = 0  # a wandering group: exploration turns left before it moves on (0: not counted yet)


@dataclass
class TrapState:
    found: bool = False
    disarmed: bool = False
    triggered: bool = False


@dataclass
class RoomState:
    seen: bool = False
    visited: bool = False
    looted: bool = False
    searched: bool = False  # searched for secrets
    traps_checked: bool = False  # looked for traps
    monsters: list[GroupState] = field(default_factory=list)
    traps: list[TrapState] = field(default_factory=list)
    secrets_found: list[int] = field(default_factory=list)  # indices into the room's secrets
    corpses: list[str] = field(default_factory=list)  # per corpse: "lying", "warded", "risen", "gone"
    features_used: list[int] = field(default_factory=list)
    loot_taken: list[int] = field(default_factory=list)  # indices into the room's loot
    extracted: dict[str, int] = field(default_factory=dict)  # monster -> its dead an alchemist took extracts from
    floor: list[Carried] = field(default_factory=list)  # what a feature gave that no one had room for (R230)


@dataclass
class DoorState:
    opened: bool = False
    found: bool = False  # a secret door found
    unlocked: bool = False
    broken: bool = False  # forced or smashed
    spiked: bool = False  # spiked open (or shut)
    wedged: bool = False  # spiked or barricaded shut against what comes from beyond (R246)
    locked: bool = False  # locked by the Knock/Lock spell (R248): a key, picks or the spell opens it


@dataclass
class LevelState:
    depth: int
    rooms: dict[int, RoomState] = field(default_factory=dict)
    doors: dict[int, DoorState] = field(default_factory=dict)
    doom: int = 0  # ticks filled
    fired: list[int] = field(default_factory=list)  # indices of the doom steps that fired
    doom_known: int | None = None  # the doom a Veteran read here (a snapshot, not kept up to date); None: unknown
    doom_next_known: int | None = None  # the doom at which the next step fires, as read; None: unknown or none left
    worked: list[int] = field(default_factory=list)  # indices of the level's set pieces worked (rules.gm.setpieces)


@dataclass
class LocationState:
    """A place the party knows: a dungeon of the job board, or one they entered."""

    id: str
    title: str
    theme: str
    level: int
    bounty: int
    depths: int
    data: str  # the dungeon, as its generator's JSON (rebuilt into a Site on load); "" until entered
    recipe: dict[str, Any] = field(default_factory=dict)  # seed, level, rooms, theme, depth: remade when entered
    levels: dict[int, LevelState] = field(default_factory=dict)
    visits: int = 0
    cleared: bool = False  # the master is dead: the bounty is earned
    bounty_paid: bool = False


@dataclass
class ExpeditionState:
    location: str
    depth: int
    room: int
    turns: int = 0
    decay: int = 0  # decay tracker, 0..5
    camped: int = 0  # camps made this expedition
    dark: bool = False  # the party's light is out
    returning: bool = False
    came_from: int | None = None  # the room the party came from (for flight and backtracking)
    ambush_dice: int = 0  # added by doom events
    boss_hunts: bool = False  # the master joins the next fight
    decay_doubled: bool = False  # every decay rolls twice
    exit_sealed: bool = False
    light_burns: dict[str, int] = field(default_factory=dict)  # member id -> usage die of the lit source
    had_coffee: list[str] = field(default_factory=list)  # member ids (Coffee addict: sleepy needs coffee first)
    leaving: bool = False  # the party is on its way out: the doom that leaving wakes plays out behind it (R184)
    ink: str = ""  # the wizard whose Mystic ink marks the way back (free backtracking while they live)
    woven: list[int] = field(default_factory=list)  # Weave fate: the dice kept to replace rolled ones...
    woven_by: str = ""  # ...the wizard who wove them...
    woven_until: int = 0  # ...and the last exploration turn they last (the GM's secret timer)
    eye_by: str = ""  # Eyes of the forest: the cleric who sees through a tree's eye this expedition...
    eye_depth: int = 0  # ...the level...
    eye_room: int = 0  # ...and the room of its tree (RULINGS R202)
    eye_saw: str = ""  # what the eye last showed there (a change is told)
    sealed: list[list[int]] = field(default_factory=list)  # Seal: [depth, link id] of doorways no undead cross...
    held: list[list[Any]] = field(default_factory=list)  # ...and [monster, count] waiting behind them (R204)
    blessed: bool = False  # a miracle: the next fight starts with a shield token on each adventurer (R207)
    morale: int = 0  # Miracle 2 out of a fight: the points of morale the next fight starts with (R208)
    drunk: dict[str, int] = field(default_factory=dict)  # member id -> the camps made when they last drank wine
    road_days: int = 0  # days on the road between the settlement and this dungeon, each way (R222)
    start_day: int = 0  # the calendar day the party set out
    rooms_new: int = 0  # rooms entered for the first time on this expedition
    combats_before: int = 0  # the campaign's fights when the expedition began
    fallen_before: int = 0  # len(campaign.fallen) when the expedition began
    silver_before: int = 0  # the party's silver when it set out
    dice_before: int = 0  # the party's available dice when it came in (how strong it set out)
    carried_in: dict[str, int] = field(default_factory=dict)  # valued things (name -> count) brought in: not loot
    ashes: dict[str, str] = field(default_factory=dict)  # member id -> the weapon Living ashes were rubbed on
    at_door: list[list[Any]] = field(default_factory=list)  # creatures held at a shut door, R247:
    # [depth, the party's room, link id, the room they pursue from (-1: none), source, [[monster, count], ...]]
    heard: dict[str, str] = field(default_factory=dict)  # "depth:room" -> what listening at its door last told:
    # "alert", "unaware" or "nothing" (nothing heard is not nothing there: a failed test, or the silent undead)


@dataclass
class SettlementState:
    name: str
    size: int
    doom: int = 0
    fired: list[int] = field(default_factory=list)
    prices: dict[str, int] = field(default_factory=dict)  # rolled prices, held until the next interlude
    events: dict[str, int] = field(default_factory=dict)  # multi-day events: name -> days left


@dataclass
class Job:
    """A dungeon on the job board."""

    location: str  # a LocationState id
    title: str
    theme: str
    level: int
    bounty: int
    depths: int
    hook: str
    days: int  # days of travel from the settlement


@dataclass
class Stats:
    expeditions: int = 0
    turns: int = 0
    decay_rolls: int = 0
    doom_events: int = 0
    doom_maxed: int = 0
    omens_triggered: int = 0
    combats: int = 0
    combat_rounds: int = 0
    camps: int = 0
    ambushes: int = 0
    interlude_days: int = 0
    deaths: int = 0
    retired: int = 0
    recruited: int = 0
    silver_earned: int = 0
    steps: int = 0


# --- the state of a camp and of an interlude (the procedures: rules.gm.camp, rules.gm.interlude) ---

SETUP = "setup"  # camp stages
ACTIONS = "actions"


@dataclass
class CampState:
    """Everything the camp procedure keeps between steps (saved with the campaign)."""

    stage: str = SETUP  # "setup", then "actions"
    room: int = 0
    dry: bool = False
    filthy: bool = False
    exposed: bool = False
    survivalists: list[str] = field(default_factory=list)  # member ids
    supplies: int = 0  # camping supplies used
    fire: bool = False
    firewood: bool = False  # the fire burns firewood instead of a camping supply
    long_rest: bool = False
    points: int = 0  # camp actions, fixed when the setup is done
    spent: int = 0
    lookouts: int = 0
    rested: bool = False
    slept: bool = False
    snore_dice: int = 0  # Loud snore: extra ambush dice chosen at Sleep
    meals: int = 0  # Cook actions taken
    done: list[str] = field(default_factory=list)  # once-a-camp uses: "surgeon:a1", "ritual:a2", "pray:a3"

    @property
    def left(self) -> int:
        return self.points - self.spent


@dataclass
class InterludeState:
    """Everything the interlude procedure keeps between steps (saved with the campaign)."""

    step: str = "actions"  # "actions" (announcing), "market" (shopping or selling), "sleep", "road" (travelling)
    resolved: bool = False  # today's actions are done: the evening, when the party may still set out (R224)
    days: int = 0  # days begun in this interlude
    event: str = ""  # today's Blacksalt event, for the UI
    plans: dict[str, list[str]] = field(default_factory=dict)  # member id -> actions announced today
    queue: list[str] = field(default_factory=list)  # "member|plan" still to resolve
    market: str = ""  # the member at the market
    market_kind: str = ""  # "shop" or "sell"
    sleep: dict[str, str] = field(default_factory=dict)  # member id -> sleep location rule chosen
    stock: dict[str, bool] = field(default_factory=dict)  # item -> in stock today (rolled by the day's first shopper)
    haggles: dict[str, int] = field(default_factory=dict)  # member id -> price rerolls used
    restocks: dict[str, int] = field(default_factory=dict)  # member id -> availability rerolls used
    board_day: int = 0  # the day the job board was last refreshed


@dataclass
class Campaign:
    seed: int
    rng: list[Any]  # random.Random state, JSON-ready
    phase: Phase
    day: int
    party: list[Member]
    settlement: str
    omens: OmensTracker
    goal_silver: int  # saving this much (party total) wins: passage off Blacksalt
    fallen: list[Member] = field(default_factory=list)
    retired: list[Member] = field(default_factory=list)
    settlements: dict[str, SettlementState] = field(default_factory=dict)
    locations: dict[str, LocationState] = field(default_factory=dict)
    jobs: list[Job] = field(default_factory=list)
    expedition: ExpeditionState | None = None
    combat: CombatState | None = None
    camp: CampState | None = None
    interlude: InterludeState | None = None
    stats: Stats = field(default_factory=Stats)
    outcome: str | None = None  # "escaped", "perished", "abandoned"
    next_id: int = 1
    version: int = SAVE_VERSION
    settings: dict[str, Any] = field(default_factory=dict)  # "gm_decides_rerolls": True, ...
    last_expedition: dict[str, Any] = field(default_factory=dict)  # the last expedition's summary (its event's data)

    # --- saves ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = dump(self)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Campaign:
        version = data.get("version")
        if version != SAVE_VERSION:
            raise ValueError(f"campaign format {version!r}; this Blacksalt reads {SAVE_VERSION}")
        return load(cls, data)

    # --- convenience -----------------------------------------------------------------------------

    def new_id(self, prefix: str = "a") -> str:
        n = self.next_id
        self.next_id += 1
        return f"{prefix}{n}"

    def member(self, member_id: str) -> Member:
        for m in self.party:
            if m.id == member_id:
                return m
        raise KeyError(f"no adventurer {member_id!r} in the party")

    @property
    def silver(self) -> int:
        return sum(m.adv.character.silver for m in self.party)


def rng_state(rng: Random) -> list[Any]:
    """A Random's state as JSON-ready data."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from(state: list[Any]) -> Random:
    rng = Random()
    version, internal, gauss = state
    rng.setstate((version, tuple(internal), gauss))
    return rng


def fresh_room_state(room: SiteRoom) -> RoomState:
    return RoomState(
        monsters=[GroupState(g.monster, g.count, aware=g.aware) for g in room.monsters],
        traps=[TrapState() for _ in room.traps],
        corpses=["warded" if c.warded else "lying" for c in room.corpses],
    )
