"""The saved state of a fight: the fighters, the foes, what lies on the floor, and the round.

Plain data (the campaign's :mod:`rules.gm.state` holds a :class:`CombatState`
while a fight is on); the procedure that reads and changes it is
:mod:`rules.gm.combat` and the ``combat_*`` modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.inventory import Carried

Tile = tuple[int, int]
COMBAT = 1_000_000  # an effect's last round when it lasts the whole fight


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
    effects: dict[str, int] = field(default_factory=dict)  # powers on this fighter: name -> last round (COMBAT: all)
    owed_fatigue: dict[str, int] = field(default_factory=dict)  # Apotheosis: fatigue that comes back next turn
    channel: str = ""  # a channelled power: "Shackles:e3" (power:target)
    focus: str = ""  # Hyperfocus: the kind of action this turn is spent on
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
    effects: dict[str, int] = field(default_factory=dict)  # powers on this enemy: name -> last round (COMBAT: all)
    fear: str = ""  # Phobia: the adventurer it is terrified of
    side: str = ""  # "" an enemy; a summoned ally: the id of the adventurer who commands it (Swarm)
    commanded_round: int = 0  # a summoned ally: the round of its last command
    order: str = ""  # Command undead: the enemy it was commanded to attack ("" none, RULINGS R243)

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
    fire: list[Tile] = field(default_factory=list)  # Arcane fire: tiles that burn until the end of the fight
    traps: list[Tile] = field(default_factory=list)  # armed traps (Fast trapping): the next enemy to step there
    silence: list[Tile] = field(default_factory=list)  # Silence: where it was prayed for (it covers Nearby)
    night: list[Tile] = field(default_factory=list)  # Black night: the tiles in darkness...
    night_by: str = ""  # ...and the wizard who sees through it
    sealed: list[Tile] = field(default_factory=list)  # Seal: tiles no undead may enter
    morale: int = 0  # Miracle 2's points of morale: each pays a test's fatigue point in this fight (RULINGS R208)
    plan: str = ""  # the autoplay's course for this side's turn: "fight" or "leave" (rules.autoplay.lookahead)
    plan_at: str = ""  # the state of the fight it was decided in (the autoplay keeps to it until that changes)

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
        """The enemies still in the fight (not the party's summoned allies)."""
        return [e for e in self.foes if e.active and not e.side]

    def summoned(self, commander: str | None = None) -> list[Foe]:
        """The party's summoned creatures still in the fight (of ``commander``, when given)."""
        return [e for e in self.foes if e.active and e.side and (commander is None or e.side == commander)]
