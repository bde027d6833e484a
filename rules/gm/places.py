"""The dungeon as the party finds it: doors and what bars them, who is in a room, keys and hidden loot."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


LOCKED = "The door is locked: use its key or pick the lock."


def is_locked(gm: GM, link: SiteLink) -> bool:
    """The door is locked: the dungeon's own lock not yet opened, or one the Knock/Lock spell turned (R248)."""
    st = door_state(gm, link)
    return not st.broken and (st.locked or (link.door == "locked" and not st.unlocked))


def holds(gm: GM, link: SiteLink) -> str | None:
    """Why ``link`` holds against creatures coming through it (None: it opens freely for them, as the book says):
    wedged shut with spikes or a barricade, locked, or the dungeon's barricade not yet broken (R246)."""
    st = door_state(gm, link)
    if st.broken:
        return None
    if st.wedged:
        return "wedged shut"
    if is_locked(gm, link):
        return "locked"
    if link.door == "barricaded":
        return "barricaded"
    return None


def door_words(gm: GM, link: SiteLink) -> str:
    """The door's state as the party sees it, for its line in the room's list of ways ("" when nothing to say)."""
    st = door_state(gm, link)
    if st.broken and link.door != "archway":
        return "burst open" if link.door not in ("stuck", "barricaded") else ""
    if st.wedged:
        return "wedged shut"
    if st.spiked:
        return "spiked open"
    if st.locked:
        return "locked by a spell"
    if link.door == "locked" and st.unlocked:
        return "unlocked"
    return ""


def way_in(gm: GM) -> SiteLink | None:
    """The way creatures come at the party in its room: the way it came (they follow its trail, R246); None when it
    came by the stairs or from outside."""
    exp = gm.c.expedition
    if exp is None or exp.came_from is None:
        return None
    return next((lk for lk in gm.site_level().links_of(exp.room) if lk.other(exp.room) == exp.came_from), None)


def _level(gm: GM, name: str) -> int:
    try:
        return max(1, gm.content.bestiary.monster(name).level)
    except KeyError:
        return 1  # (a creature with no sheet: one die)


def burst(gm: GM, link: SiteLink, groups: list[tuple[str, int]], why: str) -> bool:
    """Creatures on the far side of a door that holds (``why``) try to burst it, as the book's STR save: the
    strongest of them tests its level in dice, a 4 or more bursts it (as the enemies' morale test, R246).  Burst:
    the door is broken, with a crash the party hears; held: they pound at it, and the party hears that too."""
    level = max((_level(gm, n) for n, _ in groups), default=1)
    faces, bursts = gm.enemy_test(level)
    exp = gm.c.expedition
    beyond = room_label(gm, link.other(exp.room)) if exp is not None else "beyond"
    rolled = f"{level} {'die' if level == 1 else 'dice'}: {faces}"
    if bursts:
        st = door_state(gm, link)
        st.broken, st.wedged, st.locked, st.opened = True, False, False, True
        gm.emit("door_burst", f"A crash: something bursts the door ({why}) from {beyond} ({rolled}).",
                link=link.id, faces=faces)  # fmt: skip
        return True
    gm.emit("door_holds", f"Something pounds at the door to {beyond}: it holds ({why}; {rolled}).",
            link=link.id, faces=faces)  # fmt: skip
    return False


def wait_at_door(gm: GM, link: SiteLink, groups: list[tuple[str, int]], source: str, from_room: int = -1) -> None:
    """Creatures held at the door try again at the end of each exploration turn the party stays (R247)."""
    exp = gm.c.expedition
    assert exp is not None
    entry: list[Any] = [exp.depth, exp.room, link.id, from_room, source, [[n, c] for n, c in groups]]
    exp.at_door.append(entry)


def through_the_door(gm: GM, groups: list[tuple[str, int]], source: str) -> tuple[list[tuple[str, int]], bool]:
    """Creatures coming at the party by the way it came: through freely, or the door holds and they must burst it
    (R246).  Returns who comes now (none: they wait at the door, R247) and whether the party heard them burst it."""
    link = way_in(gm)
    why = holds(gm, link) if link is not None and groups else None
    if link is None or why is None:
        return groups, False
    if burst(gm, link, groups, why):
        return groups, True
    wait_at_door(gm, link, groups, source)
    return [], False


def chased_through(gm: GM) -> dict[int, int]:
    """The doors of the party's room that the creatures of a fight it fled will come through at the end of its next
    turn there (R247): link id -> the room they pursue from.  (The bands held at doors, read for the player.)"""
    exp = gm.c.expedition
    if exp is None:
        return {}
    return {int(link): int(src) for depth, room, link, src, *_ in exp.at_door
            if depth == exp.depth and room == exp.room and src >= 0}  # fmt: skip


def pursuers(gm: GM, room_id: int) -> list[tuple[str, int]]:
    """Who in ``room_id`` would pursue the party: its live creatures that have seen it and are not won over."""
    return [(g.monster, g.count) for g in live_monsters(gm, room_id)
            if g.aware and g.attitude in ("", "hostile")]  # fmt: skip


def blocked(gm: GM, link: SiteLink) -> str | None:
    """Why the party cannot pass ``link`` now (None: it can)."""
    st = door_state(gm, link)
    if link.door == "secret" and not st.found:
        return "hidden"
    if st.broken or (st.opened and not st.locked):
        return None
    if is_locked(gm, link):
        return LOCKED
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
