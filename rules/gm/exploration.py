"""Exploration: the turn-by-turn procedure in a dungeon.

Every action costs exploration turns (the Exploration Actions list); after
each turn the trackers move (:func:`end_turn`): decay (6 steps, then every
adventurer rolls on the decay table, then the light sources' usage dice),
bleeding, and the dark (ending a turn without light costs PRE fatigue or
Terrified).  Doom moves with noise, camps and exits (:meth:`GM.advance_doom`),
and its steps fire here (:func:`fire_doom`); the omens table too
(:func:`roll_omen`).

Doors follow the dungeon's kinds: archways and wooden or iron doors open;
stuck and barricaded doors must be forced (STR, noisy); locked doors need
their key or lockpicking tools (DEX); secret doors must be found first
(searching, INT).  Rooms hold what the generator put there; looting a room
with an unfound trap may set it off.

Meeting the dungeon's living (reactions, parley, bribes, wanderers that move
on) is :mod:`rules.gm.encounters`: a room is safe to loot, search or rest in
when every group there is friendly or bribed; wary groups (unfriendly,
neutral) let the party pass but not loot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.attributes import ATTRS, Attr
from rules.character import Condition
from rules.checks import RuleError
from rules.gm import camp, combat, encounters, exploration_use, freeform, powers, rearrange, setpieces
from rules.gm.events import Action, Cost
from rules.gm.gear import (
    burn,
    carrying,
    light_entry,
    light_noun,
    light_source,
    party_has_light,
    snuff,
    stabilisers,
    use_up,
)
from rules.gm.places import (
    blocked,
    by_map,
    door_state,
    found_hidden,
    key_for,
    live_monsters,
    mapper,
    move_cost,
    room_label,
)
from rules.gm.rearrange import free_action
from rules.gm.services import best
from rules.gm.site import SiteDoomStep, SiteLink, SiteTrap
from rules.gm.state import ExpeditionState, Member, Phase
from rules.gm.table import ActionTable
from rules.injury import stabilise
from rules.inventory import HANDS, Carried
from rules.notation import parse_attack

if TYPE_CHECKING:
    from rules.gm.services import GM

NOISY = 1  # doom for forcing a door or breaking a barricade


# --- rooms and doors ---------------------------------------------------------------------------------














# --- who does it --------------------------------------------------------------------------------------








# --- the light ---------------------------------------------------------------------------------------


















# --- the turn ------------------------------------------------------------------------------------------


def end_turn(gm: GM, turns: int, reason: str) -> None:
    """Spend exploration turns: decay, light, bleeding, the dark.

    Only in exploration: when the step already turned into a fight (a doom event woke something), the fight is
    the turn ("The whole combat only counts as one exploration turn") and combat spends it when it ends.
    """
    exp = gm.c.expedition
    if exp is None or gm.c.phase is not Phase.EXPLORATION:
        return
    started = gm.c.phase
    for _ in range(turns):
        if gm.c.phase is not started:
            return  # a doom event began a fight (or ended the campaign): the rest waits for it
        exp.turns += 1
        gm.c.stats.turns += 1
        encounters.wander(gm)  # wandering groups move on after their stay
        powers.each_turn(gm)
        for m in list(gm.alive()):
            if "bleeding" in m.adv.character.afflictions:
                gm.fatigue(m, "bleeding")
        exp.decay += 1
        if exp.decay >= gm.content.tables.decay_steps:
            exp.decay = 0
            for m in list(gm.alive()):
                gm.decay(m)
                if exp.decay_doubled and m in gm.alive():
                    gm.decay(m)
            burn(gm)
        if gm.c.phase is not started:
            return
        if not party_has_light(gm):
            lit = next((name for m in gm.active() if (name := light_source(gm, m))), None)
            if lit is None:
                exp.dark = True
                for m in list(gm.alive()):
                    held = "terrified" in m.adv.character.afflictions
                    prompt = "the dark: PRE fatigue or terrified" + (" (already terrified: no further effect)"
                                                                    if held else "")  # fmt: skip
                    pick = gm.decider.choose(gm, m, prompt, ["PRE fatigue", "terrified"])
                    if pick != "terrified":
                        gm.fatigue(m, "a turn in the dark", Attr.PRE)
                    elif held:  # "If an adventurer would receive an affliction he or she already have, ignore it."
                        gm.emit("dark", f"{m.name}, already terrified, endures the dark.", who=m.id)
                    else:
                        gm.afflict(m, "terrified", "a turn in the dark")


# --- doom and omens ----------------------------------------------------------------------------------------


def fire_doom(gm: GM, step: SiteDoomStep) -> None:
    """Run a doom step's event."""
    exp = gm.c.expedition
    if exp is None:
        return
    kind = step.kind
    if exp.leaving and kind not in ("wandering_group", "monsters_appear", "final_fight"):
        # R221: whatever the doom of leaving wakes happens behind the party, not on its doorstep
        gm.emit("too_late", "Behind the party, the dungeon shifts; it will be worse when they come back.",
                event=kind)  # fmt: skip
        return
    if kind in ("wandering_group", "monsters_appear", "final_fight"):
        groups = list(step.monsters)
        if kind == "wandering_group":
            group = next((g for g in gm.site_level().wanderers if g.name == step.group), None)
            groups = list(group.monsters) if group else groups
        if exp.leaving:  # R184: they come to where the noise was, and find the party gone
            if groups:
                names = ", ".join(f"{n} {m}" for m, n in groups)
                gm.emit("too_late", f"Behind the party, {names} come to see who woke them, and find no one.",
                        monsters=[list(g) for g in groups])  # fmt: skip
            return
        if kind == "wandering_group" and encounters.arrive(gm, groups, f"doom: {step.group or 'wanderers'}"):
            return  # they have a mind, and no wish to fight: they keep their distance (or help)
        if kind == "final_fight":
            groups = _with_the_master(gm, groups)
        if groups:
            _enemies_arrive(gm, groups, f"doom: {step.group or kind.replace('_', ' ')}")
    elif kind == "lights_snuffed":
        for m in gm.alive():
            snuff(gm, m, "a sudden wind", keep=True)
    elif kind == "ceiling_collapse" and step.attack:
        attack = parse_attack(step.attack)
        for m in list(gm.alive()):
            roll = gm.test(
                m,
                attack.attributes[0],
                "the ceiling falls",
                disadvantage=int(attack.modifier is not None and attack.modifier.value == "disadvantage"),
            )
            v = roll.verdict
            if not v.success:
                wounds = attack.wounds(v.critical_failure)
                gm.harm(
                    m,
                    wounds,
                    "falling stones",
                    effects=attack.effects_on(v.critical_failure),
                    from_attack=True,
                    impact=True,
                )
    elif kind == "ambush_dice":
        exp.ambush_dice += max(1, step.dice)
    elif kind == "boss_hunts":
        exp.boss_hunts = True
    elif kind == "decay_doubled":
        exp.decay_doubled = True
    elif kind == "affliction" and step.affliction:
        for m in gm.alive():
            gm.afflict(m, step.affliction, "doom")
    elif kind == "flood":
        for m in list(gm.alive()):
            if m.lit in ("Torches", "Candles"):
                snuff(gm, m, "the water")
            gm.fatigue(m, "wading", Attr.STR)
    elif kind == "seal_exit":
        exp.exit_sealed = True


def _enemies_arrive(gm: GM, groups: list[tuple[str, int]], source: str) -> None:
    if gm.c.phase is Phase.COMBAT and gm.c.combat is not None:
        combat.reinforce(gm, groups, source)
    elif gm.c.phase is Phase.CAMP:
        gm.c.camp = None
        combat.start(gm, groups, source=source, surprise="enemies")
    elif gm.c.phase is Phase.EXPLORATION:
        combat.start(gm, groups, source=source)








# --- entering and leaving -------------------------------------------------------------------------------


def enter(gm: GM, location_id: str, depth: int = 1, road_days: int = 0) -> None:
    """Start an expedition at ``location_id``: the party stands in an entrance room.  ``road_days``: the days
    the party walked to get here, which it walks again on the way back (R222)."""
    loc = gm.c.locations[location_id]
    site = gm.site(location_id)
    level = site.depth(depth)
    first = level.entrances[0] if level.entrances else level.rooms[0].id
    gm.c.expedition = ExpeditionState(location=location_id, depth=depth, room=first, road_days=road_days,
                                      start_day=gm.c.day - road_days, combats_before=gm.c.stats.combats,
                                      fallen_before=len(gm.c.fallen), silver_before=gm.c.silver,
                                      dice_before=sum(max(0, m.adv.character.attrs[a].available)
                                                      for m in gm.alive() for a in ATTRS))  # fmt: skip
    gm.c.phase = Phase.EXPLORATION
    gm.c.interlude = None
    loc.visits += 1
    gm.c.stats.expeditions += 1
    encounters.new_expedition(gm)
    for m in gm.alive():
        m.adv.character.mortal_wounds_this_expedition = 0
        if m.adv.spellbook is not None:
            m.adv.spellbook.new_expedition()
        if m.adv.prayers is not None:
            m.adv.prayers.new_expedition()
    gm.emit("expedition", f"The party enters {site.title}.", location=location_id)
    _arrive(gm, first, came_from=None)


def _arrive(gm: GM, room_id: int, came_from: int | None) -> None:
    exp = gm.c.expedition
    assert exp is not None
    exp.came_from = came_from
    exp.room = room_id
    st = gm.room_state(room_id)
    room = gm.room(room_id)
    first_time = not st.visited
    st.seen = st.visited = True
    exp.rooms_new += first_time
    gm.emit(
        "room",
        f"{room.name}. {room.description}" if first_time else f"Back in {room.name}.",
        room=room_id,
        first_time=first_time,
    )
    setpieces.arrive(gm, room_id, first_time)  # skill notes, a set piece's hazard (issue #15)
    if not party_has_light(gm):
        for m in gm.active():
            if light_source(gm, m):
                break
    groups = live_monsters(gm)
    if groups:
        names = ", ".join(f"{g.count} {g.monster}" for g in groups)
        aware = any(g.aware for g in groups)
        gm.emit("monsters", f"Here: {names}." + ("" if aware else " They have not noticed you."), room=room_id)
        encounters.meet(gm)  # the GM's choice for those who have seen the party: the attitude table
        if encounters.attackers(gm):
            fight_room(gm, surprise=None, source="they attack", everyone=False)
    elif exp.boss_hunts and not room.boss:
        exp.boss_hunts = False
        boss = _master_leaves(gm)
        if boss:
            _enemies_arrive(gm, [(boss, 1)], "the master of this place hunts you down")


def _boss(gm: GM) -> str | None:
    steps = gm.site_level().doom
    final = steps[-1] if steps else None
    return final.monsters[0][0] if final is not None and final.monsters else None


def _master_leaves(gm: GM) -> str | None:
    """The master of this level (the final doom fight's first creature) leaves where it is, its lair or the
    room where it was last seen, to come for the party: its name, or None when it is dead (or already in the
    room with the party).  There is one master: it is taken from where it stood, never copied."""
    boss = _boss(gm)
    exp = gm.c.expedition
    if boss is None or exp is None:
        return None
    level = gm.site_level()
    lair = next((r.id for r in level.rooms if r.boss), None)
    lv = gm.level_state()
    if lair is not None:
        gm.room_state(lair)  # the lair as the dungeon made it, if the party never saw it
    rooms = sorted(lv.rooms, key=lambda rid: (rid != lair, rid))
    if lair is None and not any(g.monster == boss for rid in rooms for g in lv.rooms[rid].monsters):
        return boss  # a level with no lair: the master is the final fight's own
    for rid in rooms:
        for g in lv.rooms[rid].monsters:
            if g.monster == boss and g.count > 0:
                if rid == exp.room:
                    return None  # it is here already
                g.count -= 1
                return boss
    killed = any(g.monster == boss and g.killed for st in lv.rooms.values() for g in st.monsters)
    return None if killed else boss  # not seen anywhere but not dead: it went back into the dark, and comes


def _with_the_master(gm: GM, groups: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The final doom fight's groups: the master comes from wherever it is, or not at all once dead."""
    boss = _boss(gm)
    if boss is None or not any(name == boss for name, _ in groups):
        return groups
    if _master_leaves(gm) is not None:
        return groups
    out = [(name, n - 1 if name == boss else n) for name, n in groups]
    out = [(name, n) for name, n in out if n > 0]
    gm.emit("master_gone", f"The master of this place ({boss}) does not come: it is dead, or already here.",
            monster=boss)  # fmt: skip
    return out


def fight_room(gm: GM, surprise: str | None, source: str, *, everyone: bool = True) -> None:
    """A fight with the room's groups: all of them when the party attacks (``everyone``), else all but those
    at peace with the party (friendly, bribed), who stand aside.  Whoever fights is hostile from now on."""

    st = gm.room_state()
    idx = [i for i, g in enumerate(st.monsters) if g.count > 0 and (everyone or g.attitude not in encounters.AT_PEACE)]
    for i in idx:
        st.monsters[i].attitude = encounters.HOSTILE
    groups = [(st.monsters[i].monster, st.monsters[i].count) for i in idx]
    if gm.c.expedition is not None and gm.c.expedition.boss_hunts and not gm.room().boss:
        gm.c.expedition.boss_hunts = False
        boss = _master_leaves(gm)
        if boss:
            groups.append((boss, 1))
    for i in idx:
        st.monsters[i].aware = True
    combat.start(gm, groups, source=source, surprise=surprise, room_groups=idx)


def master_name(gm: GM, location_id: str) -> str | None:
    """The master of the place: the first creature of the lair on the deepest level (None: no lair)."""
    last = gm.site(location_id).levels[-1]
    lair = next((r for r in last.rooms if r.boss), None)
    if lair is None or not lair.monsters:
        return None
    return lair.monsters[0].monster


def boss_defeated(gm: GM) -> bool:
    """The master of the place is dead: on the deepest level, one of its kind was killed and none of its kind
    still stands anywhere (it may have left its lair to hunt the party, and died elsewhere).  Its escort and
    the rest of the lair do not matter: the bounty is for the master (R220)."""
    loc = gm.location()
    boss = master_name(gm, loc.id)
    depth = gm.site(loc.id).levels[-1].depth
    if boss is None or depth not in loc.levels:
        return False
    groups = [g for st in loc.levels[depth].rooms.values() for g in st.monsters if g.monster == boss]
    return any(g.killed for g in groups) and not any(g.count > 0 for g in groups)


def check_master(gm: GM) -> None:
    """After every step of an expedition: the master of the place has just died.  The bounty is earned now
    (paid in a settlement), and the party is told so at once."""
    exp = gm.c.expedition
    if exp is None:
        return
    loc = gm.location()
    if loc.cleared or not boss_defeated(gm):
        return
    loc.cleared = True
    boss = master_name(gm, loc.id)
    gm.emit("master_dead", f"The master of {loc.title} ({boss}) is dead: the bounty of {loc.bounty} silver waits "
            f"in {gm.c.settlement}.", location=loc.id, monster=boss, bounty=loc.bounty,
            settlement=gm.c.settlement)  # fmt: skip


def leave(gm: GM) -> None:
    """Exit the expedition: doom +2 (the later chapter), then the interlude's sleep."""
    exp = gm.c.expedition
    assert exp is not None
    check_master(gm)
    exp.leaving = True
    gm.advance_doom(2, "leaving the dungeon")
    if gm.c.phase is Phase.OVER:
        return
    for m in gm.alive():
        snuff(gm, m, "back in daylight", keep=True)
        gm.cure(m, "hopeless", "escaping alive from the dungeon")
    powers.end_of_expedition(gm)
    gm.emit("exit", f"The party leaves {gm.site(exp.location).title} after {exp.turns} turns.", turns=exp.turns)
    gm.c.last_expedition = _summary(gm, exp)
    gm.c.expedition = None
    gm.procedures.start_interlude(gm)


def _summary(gm: GM, exp: ExpeditionState) -> dict[str, object]:
    """What the expedition came to, as the party walks out (the interlude adds the road back and the bounty)."""
    loot = [(i.name, i.count, i.value * i.count) for m in gm.alive() for i in m.adv.inventory.items if i.value > 0]
    loc = gm.location()
    return {
        "location": exp.location,
        "title": loc.title,
        "start_day": exp.start_day,
        "road_days": exp.road_days,
        "turns": exp.turns,
        "camps": exp.camped,
        "rooms": exp.rooms_new,
        "fights": gm.c.stats.combats - exp.combats_before,
        "loot": [list(x) for x in loot],
        "loot_value": sum(v for _, _, v in loot),
        "fallen": [m.name for m in gm.c.fallen[exp.fallen_before :]],
        "master_dead": loc.cleared,
        "silver_before": exp.silver_before,
    }


# --- actions -----------------------------------------------------------------------------------------------


def _turn_cost(n: int) -> Cost:
    return Cost(turns=n)


TABLE: ActionTable[GM] = ActionTable("exploration")

COME_TO = Action(
    "come_to",
    "come_to",
    "Lie in the dark until someone comes to (1 turn)",
    Cost(turns=1),
    rule="Collapsed adventurers come to after a turn; the dying need someone standing.",
)


def actions(gm: GM) -> list[Action]:
    """The exploration actions, in the order of :data:`TABLE`'s listers (only coming to when no one can act)."""
    if gm.c.expedition is None:
        return []
    if not gm.active():
        return [COME_TO]
    return TABLE.actions(gm)


def apply(gm: GM, action: Action) -> None:
    assert gm.c.expedition is not None
    TABLE.apply(gm, action)


def _exp(gm: GM) -> ExpeditionState:
    exp = gm.c.expedition
    assert exp is not None
    return exp


def _threat(gm: GM) -> bool:
    """No looting, searching or resting but where it is safe."""
    return bool(encounters.unsafe(gm))


def _barred(gm: GM) -> bool:
    """The stairs and the exit: not past those who watch and bar the way."""
    return bool(encounters.barring(gm))


def _link(gm: GM, action: Action) -> SiteLink:
    return next(lk for lk in gm.site_level().links if lk.id == int(action.target or 0))


# --- the ways on: doors and stairs ----------------------------------------------------------------------------


@TABLE.lister
def _way_actions(gm: GM) -> list[Action]:
    exp = _exp(gm)
    threat = _threat(gm)
    out: list[Action] = []
    for link in gm.site_level().links_of(exp.room):
        target = link.other(exp.room)
        why = blocked(gm, link)
        if why == "hidden":
            continue
        door = door_state(gm, link)
        cost = move_cost(gm, link, target)
        way = "archway" if link.door == "archway" else f"{link.door} door"
        label = f"Go to {room_label(gm, target)} through the {way}"
        reason = why
        if encounters.barring(gm) and target != exp.came_from:
            reason = reason or "Enemies bar the way: fight, parley, or go back the way you came."
        out.append(
            Action(
                f"move:{target}",
                "move",
                label,
                _turn_cost(cost),
                reason is None,
                reason,
                target=str(target),
                rule="Move (1 turn); free back to an explored room nearby.",
            )
        )
        if link.door == "stuck" and not (door.opened or door.broken):
            out.append(
                Action(
                    f"force:{link.id}",
                    "force",
                    f"Force the stuck door to room {target} (STR, noisy)",
                    _turn_cost(1),
                    not threat,
                    "Not with enemies here." if threat else None,
                    target=str(link.id),
                )
            )
        if link.door == "barricaded" and not (door.opened or door.broken):
            out.append(
                Action(
                    f"break:{link.id}",
                    "break",
                    f"Break through the barricade to room {target} (STR, noisy)",
                    _turn_cost(1),
                    not threat,
                    "Not with enemies here." if threat else None,
                    target=str(link.id),
                )
            )
        if link.door == "locked" and not (door.unlocked or door.broken):
            key = key_for(gm, link)
            picks = carrying(gm, "Lockpicking tools")
            out.append(
                Action(
                    f"unlock:{link.id}",
                    "unlock",
                    f"Unlock the door to room {target} with its key",
                    Cost(),
                    key is not None,
                    None if key else "You have not found its key.",
                    target=str(link.id),
                )
            )
            out.append(
                Action(
                    f"pick:{link.id}",
                    "pick",
                    f"Pick the lock of the door to room {target} (DEX)",
                    _turn_cost(1),
                    picks is not None and not threat,
                    "Needs lockpicking tools." if picks is None else "Not with enemies here." if threat else None,
                    target=str(link.id),
                )
            )
        if link.spikeable and not door.spiked and (door.opened or door.broken or link.door in ("wooden", "iron")):
            spikes = carrying(gm, "Iron spikes")
            out.append(
                Action(
                    f"spike:{link.id}",
                    "spike",
                    f"Spike the door to room {target}",
                    _turn_cost(1),
                    spikes is not None and not threat,
                    "Needs iron spikes." if spikes is None else "Not with enemies here." if threat else None,
                    target=str(link.id),
                )
            )
    barred = _barred(gm)
    for to_depth, to_room in gm.room().stairs:
        out.append(
            Action(
                f"stairs:{to_depth}",
                "stairs",
                f"Take the stairs {'down' if to_depth > exp.depth else 'up'} to level {to_depth}",
                _turn_cost(1),
                not barred,
                "Enemies are here." if barred else None,
                params=(("room", to_room),),
            )
        )
    return out


@TABLE.applies("move")
def _move(gm: GM, action: Action) -> None:
    exp = _exp(gm)
    target = int(action.target or 0)
    link = next(lk for lk in gm.site_level().links_of(exp.room) if lk.other(exp.room) == target)
    drawn = mapper(gm) if by_map(gm, link, target) else None
    if drawn is not None:  # the way back is on the map (drawing tools, RULINGS R203): its usage die is rolled
        gm.emit("map", f"{drawn[0].name} follows the map back: no turn spent.", who=drawn[0].id)
        use_up(gm, drawn[0], drawn[1])
    door_state(gm, link).opened = True
    turns = action.cost.turns
    came = exp.room
    if turns:
        end_turn(gm, turns, "moving")
    if gm.c.phase is Phase.EXPLORATION:
        _arrive(gm, target, came)


@TABLE.applies("stairs")
def _stairs(gm: GM, action: Action) -> None:
    exp = _exp(gm)
    exp.depth = int(action.id.split(":")[1])
    end_turn(gm, 1, "the stairs")
    if gm.c.phase is Phase.EXPLORATION:
        # room ids repeat across levels: no "came from" on arrival (flight falls back to the stairs room)
        _arrive(gm, int(action.param("room")), None)


@TABLE.applies("force", "break")
def _force(gm: GM, action: Action) -> None:
    kind = action.kind
    link = _link(gm, action)
    m = best(gm, Attr.STR)
    roll = gm.test(m, Attr.STR, "forcing the door" if kind == "force" else "breaking the barricade")
    if roll.verdict.success:
        door_state(gm, link).broken = True
        gm.emit("door", "The way is open.", link=link.id)
    gm.advance_doom(NOISY, "noise")
    end_turn(gm, 1, kind)


@TABLE.applies("unlock")
def _unlock(gm: GM, action: Action) -> None:
    link = _link(gm, action)
    door_state(gm, link).unlocked = True
    gm.emit("door", "The key turns.", link=link.id)


@TABLE.applies("pick")
def _pick(gm: GM, action: Action) -> None:
    link = _link(gm, action)
    found = carrying(gm, "Lockpicking tools")
    assert found is not None
    m, tools = found
    roll = gm.test(m, Attr.DEX, "picking the lock")
    use_up(gm, m, tools)
    if roll.verdict.success:
        door_state(gm, link).unlocked = True
        gm.emit("door", "The lock gives.", link=link.id)
    end_turn(gm, 1, "picking a lock")


@TABLE.applies("spike")
def _spike(gm: GM, action: Action) -> None:
    link = _link(gm, action)
    found = carrying(gm, "Iron spikes")
    assert found is not None
    use_up(gm, found[0], found[1])
    door_state(gm, link).spiked = True
    gm.emit("door", "The door is spiked in place.", link=link.id)
    end_turn(gm, 1, "spiking a door")


# --- the room: its living, its loot, its secrets and traps ---------------------------------------------------


@TABLE.lister
def _room_actions(gm: GM) -> list[Action]:
    room = gm.room()
    st = gm.room_state()
    monsters = live_monsters(gm)
    threat = _threat(gm)
    out: list[Action] = []
    if monsters:
        out.append(
            Action(
                "fight",
                "fight",
                "Attack "
                + ", ".join(f"{g.count} {g.monster}" for g in monsters)
                + ("" if any(g.aware for g in monsters) else " (they have not noticed you: surprise)"),
                _turn_cost(1),
                rule="Start combat (1 turn); unaware enemies: no initiative, all fast.",
            )
        )
        out += encounters.actions(gm)
    loot_left = [
        i for i, x in enumerate(room.loot) if i not in st.loot_taken and (not x.hidden or found_hidden(gm, i))
        and not setpieces.holds(gm, i)  # out of reach until a set piece is worked
    ]
    out.append(
        Action(
            "loot",
            "loot",
            f"Loot {room.name}",
            _turn_cost(1),
            bool(loot_left) and not threat,
            "Enemies are here."
            if threat
            else None
            if loot_left
            else "Nothing left to take here."
            if st.loot_taken
            else "Nothing of value in sight.",
            rule="Loot (1 turn): only where it is safe. If there is a trap, you may fall for it.",
        )
    )
    out.append(
        Action(
            "search",
            "search",
            "Search for secrets (INT)",
            _turn_cost(1),
            not threat and not st.searched,
            "Enemies are here." if threat else "Already searched." if st.searched else None,
        )
    )
    tool = carrying(gm, "3 meter pole")
    skilled = [m for m in gm.active() if m.adv.character.has_skill("Infiltration")]
    can_look = bool(skilled) or tool is not None
    out.append(
        Action(
            "traps",
            "look_for_traps",
            "Look for traps (INT)",
            _turn_cost(1),
            can_look and not threat,
            "Needs the Infiltration skill or a tool such as a 3 meter pole."
            if not can_look
            else "Enemies are here."
            if threat
            else None,
            rule="Look for traps (1 turn): INT test; critical failure sets them off.",
        )
    )
    for i, (trap, tst) in enumerate(zip(room.traps, st.traps, strict=True)):
        if tst.found and not (tst.disarmed or tst.triggered):
            out.append(
                Action(
                    f"disarm:{i}",
                    "disarm",
                    f"Disarm the {trap.name} ({disarm_attr(trap).value})",
                    _turn_cost(1),
                    not threat,
                    "Enemies are here." if threat else None,
                )
            )
    return out


@TABLE.applies("fight")
def _fight(gm: GM, action: Action) -> None:
    surprise = None if any(g.aware for g in live_monsters(gm)) else "party"
    fight_room(gm, surprise=surprise, source="the party attacks")


@TABLE.applies("parley")
def _parley(gm: GM, action: Action) -> None:
    _after_talk(gm, encounters.parley(gm), "parley")


@TABLE.applies("bribe")
def _bribe(gm: GM, action: Action) -> None:
    _after_talk(gm, encounters.bribe(gm, action), "bribing")


@TABLE.applies("loot")
def _loot_action(gm: GM, action: Action) -> None:
    _loot(gm)
    end_turn(gm, 1, "looting")


@TABLE.applies("search")
def _search_action(gm: GM, action: Action) -> None:
    _search(gm)
    end_turn(gm, 1, "searching")


@TABLE.applies("look_for_traps")
def _traps_action(gm: GM, action: Action) -> None:
    _look_for_traps(gm)
    end_turn(gm, 1, "looking for traps")


@TABLE.applies("disarm")
def _disarm_action(gm: GM, action: Action) -> None:
    _disarm(gm, int(action.id.split(":")[1]))
    end_turn(gm, 1, "disarming")


# --- rest, camp and the dying ---------------------------------------------------------------------------------


@TABLE.lister
def _rest_actions(gm: GM) -> list[Action]:
    room = gm.room()
    threat = _threat(gm)
    out: list[Action] = []
    tired = [m for m in gm.active() if any(m.adv.character.attrs[a].fatigue for a in ATTRS)]
    shaken = all("shaken" in m.adv.character.afflictions for m in tired) if tired else False
    out.append(
        Action(
            "breath",
            "catch_breath",
            "Catch your breath",
            _turn_cost(1),
            bool(tired) and not threat and not shaken,
            "Enemies are here."
            if threat
            else "No one is tired."
            if not tired
            else "Shaken: can't catch breath."
            if shaken
            else None,
            rule="Catch your breath (1 turn): recover 1 fatigue of each attribute.",
        )
    )
    safe = not threat
    out.append(
        Action(
            "camp",
            "camp",
            f"Set up camp in {room.name}",
            _turn_cost(1),
            safe,
            None if safe else "You can only camp where there is no imminent danger.",
            rule="Set up camp (1 turn): the whole camp counts as one exploration turn.",
        )
    )
    kit = next((c for c in (carrying(gm, n) for n in stabilisers(gm.content)) if c is not None), None)
    for m in gm.alive():
        if m.adv.character.condition is Condition.MORTALLY_WOUNDED:
            out.append(Action(f"stabilise:{m.id}", "stabilise", f"Stabilise {m.name}", _turn_cost(1), kit is not None,
                              None if kit else "Needs a first aid kit or a medical supply.", who=m.id,
                              rule="A mortally wounded adventurer must be stabilised to wake up."))  # fmt: skip
    return out


@TABLE.applies("catch_breath")
def _catch_breath(gm: GM, action: Action) -> None:
    for m in gm.active():
        if "shaken" in m.adv.character.afflictions:
            continue
        for a in ATTRS:
            m.adv.character.recover_fatigue(a, 1)
    gm.emit("rest", "The party catches its breath.")
    end_turn(gm, 1, "catching breath")


@TABLE.applies("camp")
def _camp(gm: GM, action: Action) -> None:
    end_turn(gm, 1, "setting up camp")
    if gm.c.phase is Phase.EXPLORATION:
        camp.start(gm)


@TABLE.applies("come_to")
def _come_to(gm: GM, action: Action) -> None:
    down = [m for m in gm.alive() if m.adv.character.condition is Condition.COLLAPSED]
    if not down:
        for m in list(gm.alive()):
            gm.death(m, "no one was left standing to tend the dying")
        return
    for m in down:
        m.adv.character.condition = Condition.ACTIVE
        gm.emit("come_to", f"{m.name} comes to.", who=m.id)
    end_turn(gm, 1, "lying in the dark")


@TABLE.applies("stabilise")
def _stabilise(gm: GM, action: Action) -> None:
    found = next((c for c in (carrying(gm, n) for n in stabilisers(gm.content)) if c is not None), None)
    assert found is not None
    use_up(gm, found[0], found[1])
    patient = gm.c.member(action.who or "")
    stabilise(patient.adv.character)
    gm.emit("stabilise", f"{found[0].name} stabilises {patient.name}.", who=patient.id)
    end_turn(gm, 1, "tending the dying")


# --- magic and items (rules.gm.exploration_use) ---------------------------------------------------------------


@TABLE.lister
def _use_actions(gm: GM) -> list[Action]:
    out: list[Action] = []
    if not _threat(gm):
        out += exploration_use.magic_actions(gm)
        out += exploration_use.extract_actions(gm)
    out += exploration_use.item_actions(gm)
    return out


@TABLE.applies("extract")
def _extract(gm: GM, action: Action) -> None:
    end_turn(gm, exploration_use.extract(gm, action), "taking extracts")


@TABLE.applies("use_item")
def _use_item(gm: GM, action: Action) -> None:
    turns = exploration_use.use_item(gm, action)
    if turns:
        end_turn(gm, turns, "using an item")


@TABLE.applies("cast", "concentrate", "pray")
def _magic(gm: GM, action: Action) -> None:
    kind = action.kind
    {"cast": exploration_use.cast, "concentrate": exploration_use.recall, "pray": exploration_use.pray}[kind](
        gm, action
    )
    end_turn(gm, 1, kind)


# --- freeform: features, the Die of Fate, listening (rules.gm.freeform) ----------------------------------------


TABLE.lister(freeform.actions)


@TABLE.applies(*freeform.KINDS)
def _freeform(gm: GM, action: Action) -> None:
    turns = freeform.apply(gm, action)
    if turns:
        end_turn(gm, turns, action.kind)


TABLE.lister(setpieces.actions)


@TABLE.applies(*setpieces.KINDS)
def _setpiece(gm: GM, action: Action) -> None:
    end_turn(gm, setpieces.apply(gm, action), action.kind)


# --- the light -----------------------------------------------------------------------------------------------


@TABLE.lister
def _light_actions(gm: GM) -> list[Action]:
    exp = _exp(gm)
    out: list[Action] = []
    for m in gm.active():
        if not m.lit and any(light_entry(gm, i.name) for i in m.adv.inventory.items):
            out.append(Action(f"light:{m.id}", "light", f"{m.name} lights a light", Cost(), who=m.id))
        die = exp.light_burns.get(m.id)
        if m.lit and die:  # a torch, candle or lantern (a magic light has no die: it cannot be saved)
            free, rule = free_action(gm)
            what = light_noun(m.lit, article=False)
            out.append(Action(f"snuff:{m.id}", "snuff", f"{m.name} snuffs out the {what} (kept, Ud{die} left)",
                              free, who=m.id, rule=rule))  # fmt: skip
    return out


@TABLE.applies("light")
def _light(gm: GM, action: Action) -> None:
    light_source(gm, gm.c.member(action.who or ""))


@TABLE.applies("snuff")
def _snuff(gm: GM, action: Action) -> None:
    snuff(gm, gm.c.member(action.who or ""), "snuffed out", keep=True)


# --- the way out ---------------------------------------------------------------------------------------------


@TABLE.lister
def _exit_actions(gm: GM) -> list[Action]:
    exp = _exp(gm)
    if not (gm.room().entrance and exp.depth == 1):
        return []
    barred = _barred(gm)
    out = [
        Action(
            "exit",
            "exit",
            "Leave the dungeon",
            Cost(),
            not barred and not exp.exit_sealed,
            "Enemies are here." if barred else "The way out is sealed." if exp.exit_sealed else None,
            rule="Exit: leaving always advances the doom tracker 2 steps.",
        )
    ]
    if exp.exit_sealed:
        out.append(
            Action(
                "unseal",
                "unseal",
                "Force the sealed way out (STR, noisy)",
                _turn_cost(1),
                not barred,
                "Enemies are here." if barred else None,
                rule="The way out was sealed by the dungeon: breaking through is a STR test, and loud.",
            )
        )
    return out


@TABLE.applies("unseal")
def _unseal(gm: GM, action: Action) -> None:
    m = best(gm, Attr.STR)
    roll = gm.test(m, Attr.STR, "forcing the sealed way out")
    if roll.verdict.success:
        _exp(gm).exit_sealed = False
        gm.emit("door", "The way out gives: daylight, or what passes for it.")
    gm.advance_doom(NOISY, "noise")
    end_turn(gm, 1, "forcing the way out")


@TABLE.applies("exit")
def _exit(gm: GM, action: Action) -> None:
    leave(gm)


# --- rearranging one's trappings (free; last: the desktop drags items for them) -----------------------------


TABLE.lister(rearrange.actions)
TABLE.applies(*rearrange.KINDS)(rearrange.apply)


def _after_talk(gm: GM, blows: encounters.Blows, reason: str) -> None:
    """A parley or a bribe spent its turn; whoever still attacks starts the fight."""
    end_turn(gm, 1, reason)
    if gm.c.phase is Phase.EXPLORATION and encounters.attackers(gm):
        if blows.words:
            gm.emit("parley", blows.words)
        fight_room(gm, surprise=blows.surprise, source=blows.source)


def _trap_goes_off(gm: GM, index: int, victim: Member) -> None:
    trap = gm.room().traps[index]
    if powers.floats_over(gm, victim, trap):
        gm.emit("trap", f"{victim.name} hovers over the {trap.name.lower()}: it finds no weight to spring under "
                "(Hover).", who=victim.id, trap=trap.name)  # fmt: skip
        return
    gm.room_state().traps[index].triggered = True
    gm.emit("trap", f"{trap.name}! {trap.effect}", trap=trap.name, who=victim.id)
    if trap.attack:
        attack = parse_attack(trap.attack)
        dis = int(attack.modifier is not None and attack.modifier.value == "disadvantage")
        roll = gm.test(victim, attack.attributes[0], f"the {trap.name.lower()}", disadvantage=dis)
        v = roll.verdict
        if not v.success:
            gm.harm(
                victim,
                attack.wounds(v.critical_failure),
                trap.name,
                effects=attack.effects_on(v.critical_failure),
                from_attack=True,
            )
            for name in trap.afflictions:
                gm.afflict(victim, name, trap.name)
    else:
        for name in trap.afflictions:
            gm.afflict(victim, name, trap.name)
    if trap.doom:
        gm.advance_doom(trap.doom, trap.name)


def _loot(gm: GM) -> None:
    room = gm.room()
    st = gm.room_state()
    for i, tst in enumerate(st.traps):
        if not (tst.found or tst.disarmed or tst.triggered):
            able = gm.active()
            if able:  # whoever's hands find it first: the GM rolls among those looting (R190)
                _trap_goes_off(gm, i, able[gm.rng.randrange(len(able))])
            break
    taken: list[str] = []
    left: list[str] = []
    for i, loot in enumerate(room.loot):
        if i in st.loot_taken or (loot.hidden and not found_hidden(gm, i)) or setpieces.holds(gm, i):
            continue
        slots = 0 if loot.name.lower().startswith("key to") else (2 if loot.big else 1)
        item = Carried(loot.name, "", slots=slots, count=loot.count, rarity=loot.rarity, value=loot.value)
        for m in gm.active():
            try:
                m.adv.inventory.add(item)
            except RuleError:
                continue
            st.loot_taken.append(i)
            taken.append(f"{loot.count} × {loot.name}" if loot.count > 1 else loot.name)
            break
        else:
            left.append(loot.name)
    st.looted = len(st.loot_taken) == len(room.loot)
    text = "Taken: " + ", ".join(taken) + "." if taken else "Nothing worth carrying."
    if left:
        text += " No room for: " + ", ".join(left) + "."
    gm.emit("loot", text, taken=taken, left=left)


def _search(gm: GM) -> None:
    room = gm.room()
    st = gm.room_state()
    st.searched = True
    m = best(gm, Attr.INT)
    roll = gm.test(m, Attr.INT, "searching")
    hidden = [i for i in range(len(room.secrets)) if i not in st.secrets_found]
    if not roll.verdict.success or not hidden:
        gm.emit("search", "Nothing turns up.")
        return
    found = hidden if roll.verdict.great_success else hidden[:1]
    for i in found:
        _secret_found(gm, i)


def _secret_found(gm: GM, i: int) -> None:
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


def _ashes(gm: GM) -> tuple[Member, Carried] | None:
    names = {i.name.lower() for i in gm.content.items.items if i.rule == "identify_or_reveal"}
    return next(((m, i) for m in gm.active() for i in m.adv.inventory.items if i.name.lower() in names), None)


@TABLE.lister
def _ashes_actions(gm: GM) -> list[Action]:
    """Ashes of insight, quick: "reveals something invisible" — what the room hides from the eye (RULINGS R203)."""
    found = _ashes(gm)
    if found is None:
        return []
    m, item = found
    return [Action(f"ashes:{m.id}", "ashes", f"{m.name}: scatter the {item.name.lower()} (reveal what is hidden here)",
                   Cost(), who=m.id, params=(("item", item.name),),
                   rule=f"{item.name} (quick): reveals something invisible — every secret and hidden trap of this "
                   "room shows. Used up.")]  # fmt: skip


@TABLE.applies("ashes")
def _scatter_ashes(gm: GM, action: Action) -> None:
    found = _ashes(gm)
    if found is None:
        raise RuleError("no ashes of insight to scatter")
    m, item = found
    room, st = gm.room(), gm.room_state()
    gm.emit("ashes", f"{m.name} scatters the {item.name.lower()}: they settle on what the eye cannot see.", who=m.id)
    use_up(gm, m, item)
    shown = 0
    for i in range(len(room.secrets)):
        if i not in st.secrets_found:
            _secret_found(gm, i)
            shown += 1
    for i, ts in enumerate(st.traps):
        if not (ts.found or ts.triggered or ts.disarmed):
            ts.found = True
            shown += 1
            trap = room.traps[i]
            gm.emit("traps", f"The ashes outline a trap: {trap.text} ({trap.clue})", trap=trap.name)
    if not shown:
        gm.emit("ashes", "The ashes settle evenly: nothing here is hidden.", who=m.id)


def _look_for_traps(gm: GM) -> None:
    room = gm.room()
    st = gm.room_state()
    st.traps_checked = True
    skilled = [m for m in gm.active() if m.adv.character.has_skill("Infiltration")]
    m = best(gm, Attr.INT, skilled or None)
    roll = gm.test(m, Attr.INT, "looking for traps")
    v = roll.verdict
    hidden = [i for i, t in enumerate(st.traps) if not (t.found or t.triggered or t.disarmed)]
    if v.critical_failure and hidden:
        _trap_goes_off(gm, hidden[0], m)
        return
    if not v.success or not hidden:
        gm.emit("traps", "No traps found." if v.success else "Nothing found.")
        return
    for i in hidden:
        st.traps[i].found = True
        gm.emit("traps", f"A trap: {room.traps[i].text} ({room.traps[i].clue})".rstrip(), trap=room.traps[i].name)
        if v.great_success:
            st.traps[i].disarmed = True
            gm.emit("traps", f"{m.name} disarms it at once.")


def disarm_attr(trap: SiteTrap) -> Attr:
    """The attribute a trap's own text names for disarming it ("STR: lowering the lid with two people"); DEX
    when it names none."""
    head = trap.disarm.split(":", 1)[0].strip().upper()
    return Attr(head) if head in {a.value for a in ATTRS} else Attr.DEX


def _disarm(gm: GM, index: int) -> None:
    attr = disarm_attr(gm.room().traps[index])
    m = best(gm, attr)
    roll = gm.test(m, attr, "disarming a trap")
    if roll.verdict.success:
        gm.room_state().traps[index].disarmed = True
        gm.emit("traps", f"{m.name} disarms the {gm.room().traps[index].name.lower()}.")
    else:
        _trap_goes_off(gm, index, m)


# re-exported for the other procedures
__all__ = ["HANDS", "actions", "apply", "end_turn", "enter", "fire_doom"]
