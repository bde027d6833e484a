"""What items are for in a dungeon: a handler per item rule (``items.toml`` ``rule``), keyed by the rule's name.

Each is an :class:`~rules.gm.powers.ItemRule` registered in
:data:`rules.gm.powers.ITEM_RULES`, beside the rules played inside other
procedures (the camp's fire, the compass on the road, the exorcism book's dice).
The exploration (:mod:`rules.gm.exploration`) lists and applies these through
the registry: the actions at a door (lockpicking tools, iron spikes) and in the
room (ashes of insight), the tool that lets the party look for traps (the 3
meter pole), and what a map does as the party walks back (drawing tools).  The
items are found by their rule, not their names: a new item with a known rule is
a data edit; a new rule is a handler here, and ``blacksalt validate`` refuses an
item whose rule has none.

This module sits beside :mod:`rules.gm.exploration_use`, below the exploration,
which spends the turns a handler returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.attributes import Attr
from rules.checks import RuleError
from rules.gm.combat_gear import ashes_bonus, in_hands, weapon_entry
from rules.gm.events import Action, Cost
from rules.gm.gear import use_up
from rules.gm.places import blocked, by_map, door_state, is_locked, mapper, secret_found
from rules.gm.powers import ItemRule, carrying_rule, register_item_rule
from rules.gm.site import SiteLink

if TYPE_CHECKING:
    from rules.gm.services import GM

ONE_TURN = Cost(turns=1)


def _link(gm: GM, action: Action) -> SiteLink:
    return next(lk for lk in gm.site_level().links if lk.id == int(action.target or 0))


def _beyond(gm: GM, link: SiteLink) -> int:
    exp = gm.c.expedition
    assert exp is not None
    return link.other(exp.room)


# --- at a door -------------------------------------------------------------------------------------------------


def _pick_actions(gm: GM, link: SiteLink, threat: bool) -> list[Action]:
    if not is_locked(gm, link):
        return []
    picks = carrying_rule(gm, "pick_lock")
    why = "Needs lockpicking tools." if picks is None else "Not with enemies here." if threat else None
    return [Action(f"pick:{link.id}", "pick", f"Pick the lock of the door to room {_beyond(gm, link)} (DEX)",
                   ONE_TURN, why is None, why, target=str(link.id))]  # fmt: skip


def _pick(gm: GM, action: Action) -> int:
    link = _link(gm, action)
    found = carrying_rule(gm, "pick_lock")
    if found is None:
        raise RuleError("no lockpicking tools in the party")
    m, tools = found
    roll = gm.test(m, Attr.DEX, "picking the lock")
    use_up(gm, m, tools)
    if roll.verdict.success:
        door = door_state(gm, link)
        door.unlocked, door.locked = True, False
        gm.emit("door", "The lock gives.", link=link.id)
    return 1


register_item_rule(ItemRule("pick_lock", door=_pick_actions, kinds=("pick",), apply=_pick, doing="picking a lock"))


def _spike_actions(gm: GM, link: SiteLink, threat: bool) -> list[Action]:
    """Iron spikes wedge a door shut (what comes from beyond must burst it, R246) or wedge it open (a clear way
    back): the book's two uses."""
    door = door_state(gm, link)
    if not link.spikeable or door.spiked or door.wedged or link.door in ("archway", "barricaded"):
        return []
    spikes = carrying_rule(gm, "spike_door")
    why = "Needs iron spikes." if spikes is None else "Not with enemies here." if threat else None
    room = _beyond(gm, link)
    out = []
    if not door.broken:
        out.append(Action(f"spike:{link.id}", "spike", f"Spike the door to room {room} shut (monsters must burst it)",
                          ONE_TURN, why is None, why, target=str(link.id), params=(("how", "shut"),)))  # fmt: skip
    shut = blocked(gm, link)
    out.append(Action(f"spike:{link.id}:open", "spike", f"Spike the door to room {room} open (a clear way back)",
                      ONE_TURN, why is None and shut is None, why or shut, target=str(link.id),
                      params=(("how", "open"),)))  # fmt: skip
    return out


def _spike(gm: GM, action: Action) -> int:
    link = _link(gm, action)
    found = carrying_rule(gm, "spike_door")
    if found is None:
        raise RuleError("no iron spikes in the party")
    use_up(gm, found[0], found[1])
    door = door_state(gm, link)
    door.spiked = True
    if action.param("how") == "open":
        door.opened = True
        gm.emit("door", "The door is spiked open: a clear way back.", link=link.id)
    else:
        door.wedged, door.opened = True, False
        gm.emit("door", "The door is wedged shut with iron spikes: whatever comes through must burst it.",
                link=link.id)  # fmt: skip
    return 1


register_item_rule(ItemRule("spike_door", door=_spike_actions, kinds=("spike",), apply=_spike, doing="spiking a door"))


# --- in the room -----------------------------------------------------------------------------------------------


def _ashes_actions(gm: GM) -> list[Action]:
    """Ashes of insight, quick: "reveals something invisible" — what the room hides from the eye (RULINGS R203)."""
    found = carrying_rule(gm, "identify_or_reveal")
    if found is None:
        return []
    m, item = found
    return [Action(f"ashes:{m.id}", "ashes", f"{m.name}: scatter the {item.name.lower()} (reveal what is hidden here)",
                   Cost(), who=m.id, params=(("item", item.name),),
                   rule=f"{item.name} (quick): reveals something invisible — every secret and hidden trap of this "
                   "room shows. Used up.")]  # fmt: skip


def _scatter_ashes(gm: GM, action: Action) -> int:
    found = carrying_rule(gm, "identify_or_reveal")
    if found is None:
        raise RuleError("no ashes of insight to scatter")
    m, item = found
    room, st = gm.room(), gm.room_state()
    gm.emit("ashes", f"{m.name} scatters the {item.name.lower()}: they settle on what the eye cannot see.", who=m.id)
    use_up(gm, m, item)
    shown = 0
    for i in range(len(room.secrets)):
        if i not in st.secrets_found:
            secret_found(gm, i)
            shown += 1
    for i, ts in enumerate(st.traps):
        if not (ts.found or ts.triggered or ts.disarmed):
            ts.found = True
            shown += 1
            trap = room.traps[i]
            gm.emit("traps", f"The ashes outline a trap: {trap.text} ({trap.clue})", trap=trap.name)
    if not shown:
        gm.emit("ashes", "The ashes settle evenly: nothing here is hidden.", who=m.id)
    return 0


register_item_rule(ItemRule("identify_or_reveal", room=_ashes_actions, kinds=("ashes",), apply=_scatter_ashes))


# --- tools and maps ---------------------------------------------------------------------------------------------


#: The 3 meter pole: "Good for looking for traps" — without the Infiltration skill, the party needs one.
register_item_rule(ItemRule("probe_traps", tool_for="look_for_traps"))


def _follow_map(gm: GM, link: SiteLink, target: int) -> None:
    """Drawing tools: the way back to an explored room is on the map, so the walk costs no turn
    (:func:`rules.gm.places.move_cost`, RULINGS R203); the tools' usage die is rolled each time it does."""
    drawn = mapper(gm) if by_map(gm, link, target) else None
    if drawn is not None:
        gm.emit("map", f"{drawn[0].name} follows the map back: no turn spent.", who=drawn[0].id)
        use_up(gm, drawn[0], drawn[1])


register_item_rule(ItemRule("draw_maps", moved=_follow_map))


def _living_ashes_actions(gm: GM) -> list[Action]:
    """Living ashes, quick: "+1 damage to a weapon during expedition, Ud4 uses" — rubbed on a weapon in the hand
    of anyone standing here (an item can be used on someone in the same place), for the rest of the expedition."""
    found = carrying_rule(gm, "weapon_damage_bonus_expedition")
    exp = gm.c.expedition
    if found is None or exp is None:
        return []
    carrier, item = found
    out = []
    for m in gm.active():
        for held in in_hands(m):
            entry = weapon_entry(gm, held.name)
            if entry is None:
                continue
            done = exp.ashes.get(m.id) == entry.name
            whose = "their" if m is carrier else f"{m.name}'s"
            out.append(Action(f"living_ashes:{m.id}:{entry.name}", "living_ashes",
                              f"{carrier.name}: rub the {item.name.lower()} on {whose} {entry.name} (+{ashes_bonus(gm)}"
                              " damage this expedition)", Cost(), not done,
                              f"The {entry.name} already burns with them." if done else None, who=carrier.id,
                              target=m.id, params=(("weapon", entry.name),),
                              rule=f"{item.name} (quick): +{ashes_bonus(gm)} damage to a weapon during the "
                              "expedition; its usage die is rolled."))  # fmt: skip
    return out


def _rub_living_ashes(gm: GM, action: Action) -> int:
    found = carrying_rule(gm, "weapon_damage_bonus_expedition")
    exp = gm.c.expedition
    if found is None or exp is None:
        raise RuleError("no living ashes in the party")
    carrier, item = found
    m = gm.c.member(action.target or "")
    weapon = str(action.param("weapon"))
    exp.ashes[m.id] = weapon
    gm.emit("living_ashes", f"{carrier.name} rubs the {item.name.lower()} on {m.name}'s {weapon}: it smoulders "
            f"(+{ashes_bonus(gm)} damage until the party leaves).", who=carrier.id, target=m.id, weapon=weapon)
    use_up(gm, carrier, item)
    return 0


register_item_rule(ItemRule("weapon_damage_bonus_expedition", room=_living_ashes_actions, kinds=("living_ashes",),
                            apply=_rub_living_ashes))
