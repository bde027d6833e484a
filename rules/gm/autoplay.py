"""The autoplay policy: a sensible player for every phase, for ``blacksalt simulate`` and tests.

It only ever picks among the legal actions the engine lists, so it can never
cheat; each phase's module may offer its own ``suggest(gm, actions)``.
Exploration here: loot what is safe, explore unvisited rooms through the
cheapest door, rest when tired, head for the exit when hurt, out of light or
done, and take the stairs down when the level is explored and the party is fit.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from rules.attributes import ATTRS, Attr
from rules.gm.events import Action
from rules.gm.site import SiteLink
from rules.gm.state import Phase

if TYPE_CHECKING:
    from rules.gm.engine import GM

MAX_TURNS = 90  # an expedition longer than this heads home
LEAVE_BELOW = 0.6  # head home when the party has less than this share of its dice left
BREATH_AT = 3  # catch breath when the party has this many fatigue points (or anyone's DEX is tired)


def suggest(gm: GM) -> Action | None:
    actions = [a for a in gm.legal_actions() if a.available]
    if not actions:
        return None
    phase = gm.c.phase
    if phase is Phase.EXPLORATION:
        return explore(gm, actions)
    from rules.gm import camp, combat, interlude

    module = {Phase.COMBAT: combat, Phase.CAMP: camp, Phase.INTERLUDE: interlude}[phase]
    picker = getattr(module, "suggest", None)
    return picker(gm, actions) if picker is not None else actions[0]


def _by_kind(actions: list[Action], kind: str) -> list[Action]:
    return [a for a in actions if a.kind == kind]


def party_strength(gm: GM) -> float:
    """Available dice left, as a share of the party's full scores."""
    full = sum(m.adv.character.attrs[a].score for m in gm.alive() for a in ATTRS) or 1
    left = sum(max(0, m.adv.character.attrs[a].available) for m in gm.active() for a in ATTRS)
    return left / full


def has_light(gm: GM) -> bool:
    from rules.gm.exploration import _light_entry

    return any(m.lit for m in gm.alive()) or any(
        _light_entry(gm, i.name) is not None for m in gm.alive() for i in m.adv.inventory.items
    )


def _wounds(gm: GM) -> int:
    return sum(m.adv.character.attrs[a].wounds for m in gm.alive() for a in ATTRS)


def should_leave(gm: GM) -> bool:
    exp = gm.c.expedition
    assert exp is not None
    hurt = party_strength(gm) < LEAVE_BELOW or any(not m.adv.character.can_act for m in gm.alive())
    from rules.gm.exploration import boss_defeated

    return hurt or not has_light(gm) or exp.turns > MAX_TURNS or boss_defeated(gm)


def _path_first_step(gm: GM, goal: set[int], *, through_enemies: bool = False) -> int | None:
    """The next room on the shortest passable path from here to any room of ``goal``: never through a room
    where the party knows enemies wait for it (unless the forecast says it wins there cleanly, or
    ``through_enemies``)."""
    from rules.gm.exploration import _blocked

    exp = gm.c.expedition
    assert exp is not None
    level = gm.site_level()
    start = exp.room
    prev: dict[int, int] = {start: start}
    todo = deque([start])
    while todo:
        r = todo.popleft()
        if r in goal and r != start:
            while prev[r] != start:
                r = prev[r]
            return r
        for link in level.links_of(r):
            n = link.other(r)
            if n in prev or _blocked(gm, link) is not None:
                continue
            if not through_enemies and not _safe_room(gm, n):
                continue  # do not walk back into enemies the party has met
            prev[n] = r
            todo.append(n)
    return None


def _safe_room(gm: GM, room_id: int) -> bool:
    """No enemies the party knows of wait there, or the party would beat them cleanly."""
    groups = [(g.monster, g.count) for g in gm.room_state(room_id).monsters if g.count > 0 and g.aware]
    return not groups or _clean_win(gm, groups, surprise=False)


def _clean_win(gm: GM, groups: list[tuple[str, int]], *, surprise: bool) -> bool:
    from rules.gm.combat_policy import forecast_groups

    if not gm.active():
        return False
    f = forecast_groups(gm, groups, surprise=surprise)
    return f.win and f.downs == 0 and f.wounds <= SURPRISE_WOUNDS_PER_ADVENTURER * len(gm.active())


def _openable(gm: GM, link: SiteLink) -> bool:
    """The party can get through this door: open, or one it can force, break, unlock or pick."""
    from rules.gm.exploration import _blocked, _key_for, carrying, door_state

    why = _blocked(gm, link)
    if why is None:
        return True
    if why == "hidden":
        return False
    if link.door in ("stuck", "barricaded"):
        return True
    if link.door == "locked":
        tools = carrying(gm, "Lockpicking tools")
        return door_state(gm, link).unlocked or _key_for(gm, link) is not None or tools is not None
    return False


#: Attack unaware enemies only when the forecast (with surprise) is a win in which no one goes down and the
#: party takes at most this many wounds per adventurer.
SURPRISE_WOUNDS_PER_ADVENTURER = 0.5


def worth_fighting(gm: GM) -> bool:
    """Attack unaware enemies only with the odds well on the party's side: the forecast of the fight (every
    adventurer fast, the enemies lose their first turn) is a clean win."""
    from rules.gm.exploration import live_monsters

    groups = [(g.monster, g.count) for g in live_monsters(gm)]
    return bool(groups) and _clean_win(gm, groups, surprise=True)


def explore(gm: GM, actions: list[Action]) -> Action:
    exp = gm.c.expedition
    assert exp is not None
    ids = {a.id: a for a in actions}
    lights = _by_kind(actions, "light")
    if lights and not any(m.lit for m in gm.alive()):
        return lights[0]
    leaving = should_leave(gm)
    if leaving and "exit" in ids:
        return ids["exit"]
    if "fight" in ids and (worth_fighting(gm) or not any(a.kind == "move" for a in actions)):
        return ids["fight"]
    st = gm.room_state()
    if "loot" in ids and "traps" in ids and not st.traps_checked:
        return ids["traps"]
    if "loot" in ids:
        return ids["loot"]
    disarm = _by_kind(actions, "disarm")
    if disarm:
        return disarm[0]
    tired = sum(m.adv.character.attrs[a].fatigue for m in gm.active() for a in ATTRS)
    legs = any(m.adv.character.attrs[Attr.DEX].fatigue for m in gm.active())  # DEX moves you out of a fight
    if "breath" in ids and (tired >= BREATH_AT or legs):
        return ids["breath"]
    if "camp" in ids and not leaving and (_wounds(gm) >= 3 or tired >= 5) and exp.camped < 2:
        return ids["camp"]
    level = gm.site_level()
    if leaving:
        if exp.depth > 1:
            up = [a for a in _by_kind(actions, "stairs") if int(a.id.split(":")[1]) < exp.depth]
            if up:
                return up[0]
        goal = set(level.entrances) if exp.depth == 1 else {r.id for r in level.rooms if any(
            d < exp.depth for d, _ in r.stairs)}  # fmt: skip
        step = _path_first_step(gm, goal)
        if step is None:
            # the way out is held by enemies: get as strong as the party can before forcing it
            if "breath" in ids:
                return ids["breath"]
            if "camp" in ids and exp.camped < 2 and party_strength(gm) < 0.9:
                return ids["camp"]
            step = _path_first_step(gm, goal, through_enemies=True)
        if step is not None and f"move:{step}" in ids:
            return ids[f"move:{step}"]
    # explore: an unvisited neighbour first, through whatever door the party can open
    for a in _by_kind(actions, "move"):
        if not gm.room_state(int(a.target or 0)).visited:
            return a
    for kind in ("unlock", "force", "break", "pick"):
        opts = _by_kind(actions, kind)
        if opts:
            return opts[0]
    unvisited = {r.id for r in level.rooms if not gm.room_state(r.id).visited}
    frontier = {
        r.id
        for r in level.rooms
        if gm.room_state(r.id).visited
        and r.id != exp.room
        and any(lk.other(r.id) in unvisited and _openable(gm, lk) for lk in level.links_of(r.id))
    }
    step = _path_first_step(gm, frontier) if frontier else None
    if step is not None and f"move:{step}" in ids:
        return ids[f"move:{step}"]
    down = [a for a in _by_kind(actions, "stairs") if int(a.id.split(":")[1]) > exp.depth]
    if down and party_strength(gm) > 0.7:
        return down[0]
    if "search" in ids and len(level.links_of(exp.room)) == 1:
        return ids["search"]
    # nothing left here: go home
    if "exit" in ids:
        return ids["exit"]
    goal = set(level.entrances)
    step = _path_first_step(gm, goal)
    if step is not None and f"move:{step}" in ids:
        return ids[f"move:{step}"]
    return actions[0]


# --- between expeditions ------------------------------------------------------------------------------------

#: Expeditions into one dungeon before the autoplay would rather try another (each exit wakes it up: doom +2).
AUTO_VISITS = 3


def visits(gm: GM, location_id: str) -> int:
    loc = gm.c.locations.get(location_id)
    return loc.visits if loc is not None else 0


def guarded(gm: GM, location_id: str) -> bool:
    """The party has seen enemies waiting for it in a room where it comes in."""
    loc = gm.c.locations.get(location_id)
    if loc is None or not loc.visits or 1 not in loc.levels:
        return False
    states = loc.levels[1].rooms
    for rid in gm.site(location_id).depth(1).entrances:
        st = states.get(rid)
        if st is not None and any(g.count > 0 and g.aware for g in st.monsters):
            return True
    return False
