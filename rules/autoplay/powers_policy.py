"""The autoplay's use of the powers and the tools that are powers: when a spell, a prayer, a potion or a tool is
worth its turn, its action or its silver.  Each phase's policy calls one hook here (a few lines each):

* in a fight (:func:`in_fight`): a healing potion for the dying or the collapsed ally in reach (before the
  blows: a downed ally loses the fight for the party), or for one's own worst wounds; an explosive potion at a
  group of enemies;
* exploring (:func:`exploring`): a Light spell or prayer when the party has no light to light; Eyes of the
  forest to scout the way on while no eye is open; the ashes of insight where the party would otherwise spend
  a turn searching (they show secrets and traps, for free);
* before camping (:func:`before_camp`): a dead end's one doorway sealed against the undead (Seal);
* in camp (:func:`in_camp`): Transmute (a free action in camp) when the extracts make a potion;
* at the market (:func:`for_whom`, :func:`extras`): a light bought for the companion who carries none (a
  collapsed carrier's lantern stays dark), armour for the one who wears least; the drawing tools (the way back
  is mapped) and a compass (a day's road is close by) once the essentials are bought.

Like the rest of the autoplay it reads the campaign and picks among the legal actions; it never cheats (it does
not know what a room hides: the ashes are scattered where the party would look anyway).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.attributes import ATTRS, Attr
from rules.character import Condition
from rules.gm import alchemy
from rules.gm import combat_core as core
from rules.gm import combat_grid as grid
from rules.gm.events import Action
from rules.gm.gear import can_light, light_entry
from rules.gm.services import armour_parts

if TYPE_CHECKING:
    from rules.content.schema_equipment import Item
    from rules.gm.combat_state import CombatState, Fighter
    from rules.gm.engine import GM
    from rules.gm.state import Member


# --- in a fight ------------------------------------------------------------------------------------------------


def _heals(entry: Item, m: Member) -> int:
    """Wounds ``entry`` would take off ``m`` (0 for the hungry: their wounds do not heal)."""
    ch = m.adv.character
    if "hungry" in ch.afflictions:
        return 0
    out = 0
    for eff in entry.effects:
        if eff.heal_wounds:
            attrs = [Attr(x) for x in eff.heal_attrs] or list(ATTRS)
            have = sum(ch.attrs[a].wounds for a in attrs)
            out += have if eff.heal_wounds == "all" else min(have, int(eff.heal_wounds))
    return out


#: A healing potion is drunk in a fight by one standing only for this many of its wounds or more (a drink is an
#: action: a scratch is not worth it).
SELF_HEAL_AT = 2


def in_fight(gm: GM, cs: CombatState, f: Fighter, mine: list[Action]) -> Action | None:
    """A healing potion (or any quick healing item) on the ally in reach who is down, the dying first; on oneself
    when badly hurt.  Measured before (the autoplay's fights, 8 seeds x 3 expeditions): the Healing tonic was
    offered 116 times in fights and never drunk."""
    best: tuple[tuple[int, int], Action] | None = None
    usable = {i.name: i for i in alchemy.usable_items(gm.content)}
    for a in mine:
        if a.kind != "item" or not a.target:
            continue
        entry = usable.get(str(a.param("item")))
        m = core.member(gm, a.target)
        if entry is None or m is None:
            continue
        healed = _heals(entry, m)
        if healed == 0:
            continue
        cond = m.adv.character.condition
        down = 2 if cond is Condition.MORTALLY_WOUNDED else 1 if cond is Condition.COLLAPSED else 0
        if not down and (a.target != f.id or healed < SELF_HEAL_AT):
            continue
        key = (down, healed)
        if best is None or key > best[0]:
            best = (key, a)
    if best is not None:
        return best[1]
    return _throw(gm, cs, mine)


def _throw(gm: GM, cs: CombatState, mine: list[Action]) -> Action | None:
    """An explosive potion at the enemy with the most other enemies Close to it (when there are two or more)."""
    throws = [a for a in mine if a.kind == "throw" and a.target]
    if not throws:
        return None

    def crowd(a: Action) -> int:
        e = cs.foe(a.target or "")
        return sum(1 for o in cs.active_foes() if o is not e and grid.close(o.tile, e.tile))

    pick = max(throws, key=crowd)
    return pick if crowd(pick) >= 1 else None


# --- exploring ---------------------------------------------------------------------------------------------------


def _power(a: Action) -> str:
    return str(a.param("spell") or a.param("prayer") or "")


def exploring(gm: GM, actions: list[Action], *, leaving: bool) -> Action | None:
    """A power or a tool worth a turn before the party moves on (None: none is)."""
    from rules.gm.powers import eye_trees

    exp = gm.c.expedition
    if exp is None:
        return None
    powers = [a for a in actions if a.kind in ("cast", "pray") and not a.param("plea")]
    lit = any(m.lit for m in gm.alive())
    lights = any(can_light(gm, m) for m in gm.alive())
    if not lit and not lights:
        glow = next((a for a in powers if _power(a) == "Light"), None)
        if glow is not None:
            return glow  # no torch, no lantern: the spell (or the prayer) lights the way for a decay
    if not leaving and not exp.eye_by and any(not gm.room_state(r).visited for r in eye_trees(gm)):
        eye = next((a for a in powers if _power(a) == "Eyes of the forest"), None)
        if eye is not None:
            return eye  # an eye on a tree in sight: the next room seen, and whoever comes and goes there
        # (only on a room not yet explored: seed 4 opened it on the entrance it stood in, every expedition, for a PRE
        # fatigue and nothing to see)
    return None


def ashes_instead(gm: GM, actions: list[Action], chosen: Action) -> Action:
    """Where the party would search (a turn, a test), scatter the ashes of insight instead: they show every secret
    and hidden trap of the room, for free.  (Not instead of looking for traps: the room would still count as not
    looked at, and the party would spend the turn after.)"""
    if chosen.id != "search":
        return chosen
    return next((a for a in actions if a.kind == "ashes"), chosen)


def before_camp(gm: GM, actions: list[Action], camp: Action) -> Action:
    """Before camping in a room with one doorway and no stairs, a cleric of Cador seals the doorway (RULINGS
    R204): no undead comes at the camp while it holds."""
    from rules.gm.powers import sealed_in

    exp = gm.c.expedition
    if exp is None or sealed_in(gm) or gm.room().stairs or len(gm.site_level().links_of(exp.room)) != 1:
        return camp
    seal = next((a for a in actions if a.kind == "pray" and a.param("prayer") == "Seal" and not a.param("plea")),
                None)  # fmt: skip
    return seal or camp


# --- camp ----------------------------------------------------------------------------------------------------


def in_camp(gm: GM, actions: list[Action]) -> Action | None:
    """Transmute, a free action in camp, whenever the extracts make a potion (the GM-decides player: the first
    recipe that fits)."""
    return next((a for a in actions if a.available and a.kind == "transmute"), None)


# --- the market ----------------------------------------------------------------------------------------------


def _lights(gm: GM, m: Member) -> bool:
    return can_light(gm, m)


def _armour(gm: GM, m: Member) -> int:
    return sum(p.ap for p in armour_parts(gm, m))


def for_whom(gm: GM, shopper: Member, buy: Action, by_id: dict[str, Action]) -> Action:
    """The ware the shopper chose, bought for the companion who needs it: a light for one who carries none
    (while the shopper has one), armour for the one who wears least."""
    name = buy.target or ""
    others = [m for m in gm.alive() if m is not shopper]
    pick: Member | None = None
    if light_entry(gm, name) is not None and _lights(gm, shopper):
        pick = next((m for m in others if not _lights(gm, m)), None)
    elif _is_armour(gm, name):
        least = min(gm.alive(), key=lambda m: (_armour(gm, m), m is not shopper))
        pick = least if least is not shopper else None
    if pick is None:
        return buy
    return by_id.get(f"buy_for:{name}:{pick.id}", buy)


def _is_armour(gm: GM, name: str) -> bool:
    return any(a.name == name for a in gm.content.armor.armor)


#: Silver kept back, beyond the night's bed, before buying what is not essential (tools, armour).
EXTRAS_CUSHION = 12
#: Tools bought once for the party when the essentials are in the packs: the way back mapped (R203), a day's road
#: close by.  Then armour for whoever wears none, the cheapest piece on offer.
TOOLS = ("Drawing tools", "Compass")


def extras(gm: GM, shopper: Member, by_id: dict[str, Action], budget: int) -> Action | None:
    """After the essentials: the party's tools, then a piece of armour for whoever wears none."""
    spare = budget - EXTRAS_CUSHION
    for name in TOOLS:
        buy = by_id.get(f"buy:{name}")
        if buy is None or buy.cost.silver > spare:
            continue
        if not any(m.adv.inventory.find(name) is not None for m in gm.alive()):
            return buy
    bare = [m for m in gm.alive() if _armour(gm, m) == 0]
    if not bare:
        return None
    pieces = sorted((a for a in by_id.values() if a.kind == "buy" and _is_armour(gm, a.target or "")
                     and a.cost.silver <= spare), key=lambda a: a.cost.silver)  # fmt: skip
    if not pieces:
        return None
    return for_whom(gm, shopper, pieces[0], by_id)
