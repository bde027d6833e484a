"""Combat: the fight on the room's tile grid, round by round.

The core rules' "Combat" chapter (the later chapter's wording): setup (enemies
placed, an initiative DEX check for each adventurer: success fast, failure
slow), then a loop of fast adventurers (two actions each, in the order the
player likes) → enemies (the GM, two actions each) → slow adventurers (two
actions each, in the GM's order) → cleanup (unused dodge tokens go; shield
tokens stay), until one side is dead, has fled, or has left.  The whole
combat is one exploration turn; the decay tracker does not move during it.

This module holds what is saved (:class:`CombatState` and its parts) and the
procedure's entry points; the procedure itself lives beside it:
:mod:`rules.gm.combat_grid` (tiles, distances, movement),
:mod:`rules.gm.combat_gear` (weapons, shields, attacks an adventurer can make),
:mod:`rules.gm.combat_foes` (enemy sheets, damage to enemies, the enemy AI and
enemy attacks), :mod:`rules.gm.combat_actions` (the adventurers' actions) and
:mod:`rules.gm.combat_flow` (setup, the turn loop, the end) and
:mod:`rules.gm.combat_policy` (the autoplay player).

Rule for this module: import the GM's engine and state only under
``TYPE_CHECKING`` (rules.gm.state imports this module's state class); the
procedure modules are imported when a function runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules.inventory import Carried

if TYPE_CHECKING:
    from rules.gm.engine import GM
    from rules.gm.events import Action

Tile = tuple[int, int]


@dataclass
class Fighter:
    """An adventurer in the fight (``id`` is the party member's id)."""

    id: str
    x: int
    y: int
    fast: bool = False
    actions: int = 0  # left in this turn
    turn_started: bool = False  # has spent an action (or ended the turn) this round
    dodge: int = 0
    shield: int = 0
    stun: int = 0
    fled: bool = False
    helped_by: str | None = None  # an ally's extra die on this fighter's tests...
    help_ready: bool = False  # ...from the start of this fighter's next turn until its end
    bound: bool = False  # Void whip: cannot move until a Recover action
    grabbed_by: str | None = None  # a foe's id (Grab): break free or take a wound
    hooked_by: str | None = None  # a foe's id (Hook pole): cannot move, 1 wound a turn
    broke_free_tried: bool = False
    worms: int = 0  # attached rotworms: 1 wound a turn each until removed
    reckless: bool = False  # Reckless attack: the next defence has disadvantage
    turtle_round: int = 0  # Turtle: no fatigue for defending during this round
    spells: list[str] = field(default_factory=list)  # combat spells in effect (Magic Missile, Silver cannon)
    used: list[str] = field(default_factory=list)  # once-per-combat things already used
    knife_round: int = 0  # Knife in the back: the round it was last used
    unloaded: list[str] = field(default_factory=list)  # weapons that must be reloaded
    attacked_round: int = 0  # Fearful: the round of the last attack against this fighter...
    attacked_count: int = 0  # ...and how many attacks in it
    bleeding_out: int | None = None  # "if not stabilised in 1 combat turn": dies at the end of this round
    free_crit: bool = False  # Stalker: the first attack of a surprise is a critical hit
    dead: bool = False  # died in this fight (the body stays on the floor, but takes no room)

    @property
    def tile(self) -> Tile:
        return (self.x, self.y)


@dataclass
class Foe:
    """One enemy in the fight."""

    id: str  # "e1", "e2", ...
    monster: str  # the bestiary's name
    group: int  # index into CombatState.groups
    x: int
    y: int
    wounds: int = 0
    ap: int = 0  # armour points left (enemies' armour is never repaired)
    stun: int = 0
    shield: int = 0
    dodge: int = 0
    bleeding: bool = False
    state: str = "active"  # active, dead, fled
    loaded: bool = True  # a weapon that needs reloading has been reloaded
    aimed: bool = False  # Take aim: the next attack is defended with disadvantage
    shield_gone: bool = False  # Cracked shield: its tokens were used, the shield is gone
    incorporeal_round: int = 0  # Phase out: incorporeal until its next turn
    grabbing: str | None = None  # a fighter's id
    hooking: str | None = None  # a fighter's id
    attached: str | None = None  # a fighter's id (Giant Leech)
    immobilized_round: int = 0  # Incapacitating strike: cannot move in this round's enemy turn
    tricked_round: int = 0  # Dirty tricks: allies attack it with advantage until the end of this round
    pinned_round: int = 0  # Swashbuckler: may not attack in this round's enemy turn
    disarmed: bool = False  # must pick its weapon up (its next action)
    morale_tested: bool = False
    lost_turn: bool = False  # surprised: loses its first turn

    @property
    def tile(self) -> Tile:
        return (self.x, self.y)

    @property
    def active(self) -> bool:
        return self.state == "active"


@dataclass
class FoeGroup:
    """A group of enemies that joined the fight (a room's group, wanderers or reinforcements)."""

    monster: str
    count: int  # how many joined
    room_index: int | None = None  # index into the room's RoomState.monsters, when it is the room's group
    killed: int = 0
    fled: int = 0
    source: str = ""


@dataclass
class Dropped:
    """An item on the floor (disarmed, thrown); its owner picks it up after the fight."""

    owner: str
    item: Carried
    x: int
    y: int


@dataclass
class CombatState:
    """Everything the combat procedure keeps between steps (saved with the campaign)."""

    round: int = 0
    phase: str = "fast"  # fast, enemies, slow
    source: str = ""
    surprise: str | None = None  # "party" (enemies unaware) or "enemies" (ambush)
    return_phase: str = "exploration"  # the Phase value to go back to
    counts_turn: bool = True  # the whole combat is one exploration turn (not when it interrupts a camp)
    room: int | None = None
    tiles: list[Tile] = field(default_factory=list)  # the grid: the room's floor (and corridor tiles)
    exit: Tile | None = None  # the doorway the party came through: reaching it is leaving
    exit_room: int | None = None  # where that doorway leads
    fighters: list[Fighter] = field(default_factory=list)
    foes: list[Foe] = field(default_factory=list)
    groups: list[FoeGroup] = field(default_factory=list)
    corpses: list[Tile] = field(default_factory=list)  # bodies on the floor (for Consume a corpse / Feast)
    dropped: list[Dropped] = field(default_factory=list)
    party_size: int = 0  # adventurers who started the fight
    idle_rounds: int = 0  # rounds in which no adventurer could act and no enemy did anything
    last_blood: int = 0  # the last round in which anyone was wounded, died or fled
    next_foe: int = 1
    plan: str = ""  # the autoplay's course for this side's turn: "fight" or "leave" (rules.gm.lookahead)
    plan_at: str = ""  # the round and side it was decided for

    def fighter(self, member_id: str) -> Fighter:
        for f in self.fighters:
            if f.id == member_id:
                return f
        raise KeyError(f"{member_id!r} is not in the fight")

    def foe(self, foe_id: str) -> Foe:
        for e in self.foes:
            if e.id == foe_id:
                return e
        raise KeyError(f"no enemy {foe_id!r} in the fight")

    def active_foes(self) -> list[Foe]:
        return [e for e in self.foes if e.active]


# --- entry points (the procedure lives in the combat_* modules) ----------------------------------------


def start(
    gm: GM,
    groups: list[tuple[str, int]],
    *,
    source: str,
    surprise: str | None = None,
    room_groups: list[int] | None = None,
) -> None:
    """Start a fight with ``groups`` (monster, count); ``room_groups``: their indices in the room's monsters."""
    from rules.gm.combat_flow import start as begin

    begin(gm, groups, source=source, surprise=surprise, room_groups=room_groups)


def reinforce(gm: GM, groups: list[tuple[str, int]], source: str) -> None:
    """More enemies join the fight in progress (a doom event)."""
    from rules.gm.combat_flow import reinforce as join

    join(gm, groups, source)


def actions(gm: GM) -> list[Action]:
    from rules.gm.combat_actions import actions as listing

    return listing(gm)


def apply(gm: GM, action: Action) -> None:
    from rules.gm.combat_actions import apply as do

    do(gm, action)


def suggest(gm: GM, actions: list[Action]) -> Action:
    """The autoplay policy's choice among the available actions."""
    from rules.gm.combat_policy import suggest as policy

    return policy(gm, actions)
