"""The dungeon as the party finds it: doors and what bars them, who is in a room, keys and hidden loot."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.gm.site import SiteLink
from rules.gm.state import DoorState, GroupState
from rules.inventory import Carried

if TYPE_CHECKING:
    from rules.gm.services import GM
    from rules.gm.state import Member



def door_state(gm: GM, link: SiteLink) -> DoorState:
    lv = gm.level_state()
    if link.id not in lv.doors:
        lv.doors[link.id] = DoorState(opened=link.door == "archway")
    return lv.doors[link.id]


def blocked(gm: GM, link: SiteLink) -> str | None:
    """Why the party cannot pass ``link`` now (None: it can)."""
    st = door_state(gm, link)
    if link.door == "secret" and not st.found:
        return "hidden"
    if st.opened or st.broken:
        return None
    if link.door == "locked" and not st.unlocked:
        return "The door is locked: use its key or pick the lock."
    if link.door == "stuck":
        return "The door is stuck: force it open (STR, noisy)."
    if link.door == "barricaded":
        return "The way is barricaded: break through (STR, noisy)."
    return None


def live_monsters(gm: GM, room_id: int | None = None) -> list[GroupState]:
    return [g for g in gm.room_state(room_id).monsters if g.count > 0]


def room_label(gm: GM, room_id: int) -> str:
    st = gm.room_state(room_id)
    return f"{gm.room(room_id).name} (room {room_id})" if st.seen else f"an unexplored room ({room_id})"


def _walk(gm: GM, link: SiteLink, target: int) -> int:
    """The turns a move costs by the book: backtracking to an explored room at most Nearby away is free; a corridor
    costs a turn more per Far of it; Mystic ink makes any way back free."""
    visited = gm.room_state(target).visited
    ranges = {r.name: r.max_tiles for r in gm.content.tables.ranges}
    nearby, far = ranges["Nearby"] or 6, ranges["Far"] or 12
    if visited and link.length <= nearby:
        return 0  # "free when moving to somewhere already explored and close"
    exp = gm.c.expedition
    if visited and exp is not None and exp.ink and any(m.id == exp.ink for m in gm.alive()):
        return 0  # Mystic ink: the glowing trail leads straight back (RULINGS R197)
    return 1 + max(0, (link.length - 1) // far)


def mapper(gm: GM) -> tuple[Member, Carried] | None:
    """Who carries the drawing tools that map the way (an item whose rule is ``draw_maps``), and them."""
    names = {i.name.lower() for i in gm.content.items.items if i.rule == "draw_maps"}
    for m in gm.active():
        for item in m.adv.inventory.items:
            if item.name.lower() in names:
                return m, item
    return None


def by_map(gm: GM, link: SiteLink, target: int) -> bool:
    """The move is free only because the way back is drawn on a map (RULINGS R203): an explored room the walk
    would cost turns to reach, and drawing tools in the party."""
    return gm.room_state(target).visited and _walk(gm, link, target) > 0 and mapper(gm) is not None


def move_cost(gm: GM, link: SiteLink, target: int) -> int:
    return 0 if by_map(gm, link, target) else _walk(gm, link, target)


def found_hidden(gm: GM, loot_index: int) -> bool:
    room = gm.room()
    st = gm.room_state()
    name = room.loot[loot_index].name
    return any(room.secrets[i].kind == "treasure" and room.secrets[i].reveals == name for i in st.secrets_found)


def key_found_here(gm: GM) -> str:
    """The note a key found in this dungeon's level carries: the same room numbers recur in every dungeon, so the
    key to "the locked door between rooms 3 and 4" of one dungeon must not open another's."""
    exp = gm.c.expedition
    assert exp is not None
    return f"Found in {exp.location}, level {exp.depth}."


def key_for(gm: GM, link: SiteLink) -> Carried | None:
    """The key the party carries to this locked door: found on this level (a key from before keys were marked
    with where they were found, an empty note, still fits by its name)."""
    if link.door != "locked":
        return None
    wanted = f"key to the locked door between rooms {link.a} and {link.b}"
    here = key_found_here(gm)
    for m in gm.alive():
        for item in m.adv.inventory.items:
            if item.name.lower() == wanted and item.notes in ("", here):
                return item
    return None


def secret_found(gm: GM, i: int) -> None:
    """The room's secret ``i`` is found (a secret door opens the way it hides)."""
    st = gm.room_state()
    st.secrets_found.append(i)
    s = gm.room().secrets[i]
    gm.emit("secret", f"Found: {s.text}", secret=s.kind)
    if s.kind == "door" and s.reveals.startswith("connection "):
        link_id = int(s.reveals.split()[1])
        link = next(lk for lk in gm.site_level().links if lk.id == link_id)
        door_state(gm, link).found = True
        door_state(gm, link).opened = True
