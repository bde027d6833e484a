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
with an unfound trap may set it off.  What the party's items do here (picking
a lock, spiking a door, the pole, the map back, the ashes of insight) is listed
and applied through their item rules' handlers (:mod:`rules.gm.item_rules`);
what each doom step does, through :data:`DOOM_EVENTS`.

Meeting the dungeon's living (reactions, parley, bribes, wanderers that move
on) is :mod:`rules.gm.encounters`: a room is safe to loot, search or rest in
when every group there is friendly or bribed; wary groups (unfriendly,
neutral) let the party pass but not loot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.attributes import ATTRS, Attr
from rules.character import Condition
from rules.checks import RuleError
from rules.gm import camp, combat, encounters, exploration_use, freeform, powers, rearrange, setpieces
from rules.gm import item_rules as _item_rules  # noqa: F401  (registers the item rules played here)
from rules.gm.events import Action, Cost
from rules.gm.gear import (
    burn,
    can_light,
    carrying,
    light_noun,
    light_source,
    party_has_light,
    snuff,
    stabilisers,
    use_up,
)
from rules.gm.places import (
    blocked,
    burst,
    door_state,
    door_words,
    found_hidden,
    holds,
    is_locked,
    key_for,
    key_found_here,
    live_monsters,
    move_cost,
    pursuers,
    room_label,
    secret_found,
    through_the_door,
)
from rules.gm.rearrange import free_action
from rules.gm.services import best
from rules.gm.site import SiteDoomStep, SiteLink, SiteTrap
from rules.gm.state import ExpeditionState, GroupState, Member, Phase
from rules.gm.table import ActionTable
from rules.injury import stabilise
from rules.inventory import HANDS, Carried
from rules.notation import parse_attack
from rules.odds import odds

if TYPE_CHECKING:
    from rules.gm.services import GM

NOISY = 1  # doom for forcing a door or breaking a barricade


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
        _at_the_doors(gm)  # those held at a shut door try again, or lose the party (R247)
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


#: The doom steps that bring enemies: even as the party leaves, they come (and find no one, R184).
ARRIVALS = ("wandering_group", "monsters_appear", "final_fight")


def fire_doom(gm: GM, step: SiteDoomStep) -> None:
    """Run a doom step's event: its handler in :data:`DOOM_EVENTS`, by the step's kind."""
    exp = gm.c.expedition
    if exp is None:
        return
    if exp.leaving and step.kind not in ARRIVALS:
        # R221: whatever the doom of leaving wakes happens behind the party, not on its doorstep
        gm.emit("too_late", "Behind the party, the dungeon shifts; it will be worse when they come back.",
                event=step.kind)  # fmt: skip
        return
    handler = DOOM_EVENTS.get(step.kind)
    if handler is not None:
        handler(gm, exp, step)


def _too_late(gm: GM, exp: ExpeditionState, groups: list[tuple[str, int]]) -> bool:
    """R184: those the doom brings come to where the noise was, and find the party gone."""
    if not exp.leaving:
        return False
    if groups:
        names = ", ".join(f"{n} {m}" for m, n in groups)
        one = sum(n for _, n in groups) == 1  # "1 Ectoplasmic Worm come to see" (a playtest)
        come, find = ("comes", "finds") if one else ("come", "find")
        gm.emit("too_late", f"Behind the party, {names} {come} to see who woke them, and {find} no one.",
                monsters=[list(g) for g in groups])  # fmt: skip
    return True


def _doom_fight(gm: GM, step: SiteDoomStep, groups: list[tuple[str, int]]) -> None:
    if groups:
        _enemies_arrive(gm, groups, f"doom: {step.group or step.kind.replace('_', ' ')}")


def _wanderers(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    group = next((g for g in gm.site_level().wanderers if g.name == step.group), None)
    groups = list(group.monsters) if group else list(step.monsters)
    if _too_late(gm, exp, groups):
        return
    source = f"doom: {step.group or 'wanderers'}"
    groups, _ = through_the_door(gm, groups, source)  # a door wedged shut or locked: they must burst it (R246)
    if not groups or encounters.arrive(gm, groups, source):
        return  # (a group with a mind and no wish to fight keeps its distance, or helps)
    _enemies_arrive(gm, groups, source, door=False)


def _monsters_appear(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    groups = list(step.monsters)
    if not _too_late(gm, exp, groups):
        _doom_fight(gm, step, groups)


def _final_fight(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    groups = list(step.monsters)
    if not _too_late(gm, exp, groups):
        _doom_fight(gm, step, _with_the_master(gm, groups))


def _lights_snuffed(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    for m in gm.alive():
        snuff(gm, m, "a sudden wind", keep=True)


def _ceiling_collapse(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    if not step.attack:
        return
    attack = parse_attack(step.attack)
    dis = int(attack.modifier is not None and attack.modifier.value == "disadvantage")
    for m in list(gm.alive()):
        v = gm.test(m, attack.attributes[0], "the ceiling falls", disadvantage=dis).verdict
        if not v.success:
            crit = v.critical_failure
            gm.harm(m, attack.wounds(crit), "falling stones", effects=attack.effects_on(crit), from_attack=True,
                    impact=True)  # fmt: skip


def _ambush_dice(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    exp.ambush_dice += max(1, step.dice)


def _boss_hunts(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    exp.boss_hunts = True


def _decay_doubled(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    exp.decay_doubled = True


def _doom_affliction(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    if step.affliction:
        for m in gm.alive():
            gm.afflict(m, step.affliction, "doom")


def _flood(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    for m in list(gm.alive()):
        if m.lit in ("Torches", "Candles"):
            snuff(gm, m, "the water")
        gm.fatigue(m, "wading", Attr.STR)


def _seal_exit(gm: GM, exp: ExpeditionState, step: SiteDoomStep) -> None:
    exp.exit_sealed = True


#: What each kind of doom step does, by the kind the dungeon's doom table names (``SiteDoomStep.kind``).
DOOM_EVENTS: dict[str, Callable[[GM, ExpeditionState, SiteDoomStep], None]] = {
    "wandering_group": _wanderers,
    "monsters_appear": _monsters_appear,
    "final_fight": _final_fight,
    "lights_snuffed": _lights_snuffed,
    "ceiling_collapse": _ceiling_collapse,
    "ambush_dice": _ambush_dice,
    "boss_hunts": _boss_hunts,
    "decay_doubled": _decay_doubled,
    "affliction": _doom_affliction,
    "flood": _flood,
    "seal_exit": _seal_exit,
}


def _enemies_arrive(gm: GM, groups: list[tuple[str, int]], source: str, *, door: bool = True) -> None:
    """Enemies come at the party: by the way it came, through its door if it does not hold (``door``: not yet
    checked; R246), and not past a sealed room's lines (R204)."""
    heard = False
    if door:
        groups, heard = through_the_door(gm, groups, source)
    groups = powers.held_back(gm, groups)  # undead wait behind a sealed room's lines (R204)
    if not groups:
        return
    if gm.c.phase is Phase.COMBAT and gm.c.combat is not None:
        combat.reinforce(gm, groups, source)
    elif gm.c.phase is Phase.CAMP:
        gm.c.camp = None
        combat.start(gm, groups, source=source, surprise=None if heard else "enemies")
    elif gm.c.phase is Phase.EXPLORATION:
        combat.start(gm, groups, source=source)








def _leave_the_doors(gm: GM, link: SiteLink) -> bool:
    """The party sets off through ``link``: those held at another door of its room lose it (R247); those held at
    this very door are on it as it opens (True: a fight, the party does not go through)."""
    exp = gm.c.expedition
    assert exp is not None
    here = [b for b in exp.at_door if b[0] == exp.depth and b[1] == exp.room]
    if not here:
        return False
    exp.at_door = [b for b in exp.at_door if b not in here]
    for band in here:
        if band[2] != link.id:
            _lose(gm, band)
    at_this = [b for b in here if b[2] == link.id]
    if not at_this:
        return False
    st = door_state(gm, link)
    st.wedged = st.spiked = st.locked = False
    st.opened = True
    gm.emit("door", "The party opens the door on those pounding at it.", link=link.id)
    exp.at_door += at_this
    _at_the_doors(gm)
    return gm.c.phase is not Phase.EXPLORATION


def _lose(gm: GM, band: list[Any]) -> None:
    """A band held at a door has lost the party: pursuers stay where they were; the doom's wait in the room on
    their side of the door, as wanderers (R247)."""
    exp = gm.c.expedition
    assert exp is not None
    depth, room, link_id, from_room, _, monsters = band
    if from_room >= 0 or depth != exp.depth:
        return
    link = next((lk for lk in gm.site_level().links if lk.id == link_id), None)
    if link is not None:
        gm.room_state(link.other(room)).monsters += [GroupState(str(n), int(c), aware=True) for n, c in monsters]


def _at_the_doors(gm: GM) -> None:
    """An exploration turn ends: each band held at a door tries to burst it again while the party is still in the
    room beyond; once the party has gone, they lose it: pursuers stay where they were, the doom's wait in the room
    on their side of the door as wanderers (R247)."""
    exp = gm.c.expedition
    if exp is None or not exp.at_door:
        return
    bands, exp.at_door = exp.at_door, []
    for band in bands:
        depth, room, link_id, from_room, source, monsters = band
        link = next((lk for lk in gm.site(exp.location).depth(depth).links if lk.id == link_id), None)
        if link is None:
            continue
        groups = [(str(n), int(c)) for n, c in monsters]
        if from_room >= 0:
            groups = pursuers(gm, from_room) if depth == exp.depth else []
        if not groups:
            continue
        if depth != exp.depth or room != exp.room:
            _lose(gm, band)
            continue
        why = holds(gm, link)
        if why is not None and not burst(gm, link, groups, why):
            exp.at_door.append([depth, room, link_id, from_room, source, monsters])
            continue
        if from_room >= 0:
            for g in live_monsters(gm, from_room):
                if (g.monster, g.count) in groups:
                    g.count = 0
        _enemies_arrive(gm, groups, source, door=False)


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
                                                      for m in gm.alive() for a in ATTRS),
                                      carried_in=_valued(gm))  # fmt: skip
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
    waited = powers.released(gm)
    if waited:  # the undead that waited behind a line of holy ash: out of the sealed room, they come (R204)
        _enemies_arrive(gm, waited, "the undead that waited behind the line")


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


def _valued(gm: GM) -> dict[str, int]:
    """Name -> count of the things with a value the party carries."""
    out: dict[str, int] = {}
    for m in gm.alive():
        for i in m.adv.inventory.items:
            if i.value > 0:
                out[i.name] = out.get(i.name, 0) + i.count
    return out


def _summary(gm: GM, exp: ExpeditionState) -> dict[str, object]:
    """What the expedition came to, as the party walks out (the interlude adds the road back and the bounty)."""
    # what was found on this expedition: the valued things carried out, less those carried in (unsold loot of an
    # earlier expedition is not this one's)
    left = dict(exp.carried_in)
    loot = []
    for m in gm.alive():
        for i in m.adv.inventory.items:
            if i.value <= 0:
                continue
            old = min(i.count, left.get(i.name, 0))
            left[i.name] = left.get(i.name, 0) - old
            if i.count > old:
                loot.append((i.name, i.count - old, i.value * (i.count - old)))
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
    """At each door of the room, in turn: going through, what the closed door itself offers, and what the party's
    items do there (:mod:`rules.gm.item_rules`: pick the lock, spike it)."""
    exp = _exp(gm)
    threat = _threat(gm)
    out: list[Action] = []
    for link in gm.site_level().links_of(exp.room):
        why = blocked(gm, link)
        if why == "hidden":
            continue
        out.append(_go_through(gm, link, why))
        out += _door_actions(gm, link, threat)
        for rule in powers.ITEM_RULES.values():
            out += rule.door(gm, link, threat) if rule.door is not None else []
    return out


def _go_through(gm: GM, link: SiteLink, why: str | None) -> Action:
    exp = _exp(gm)
    target = link.other(exp.room)
    cost = move_cost(gm, link, target)
    way = "archway" if link.door == "archway" else f"{link.door} door"
    state = door_words(gm, link)
    way += f", {state}" if state else ""
    reason = why
    if encounters.barring(gm) and target != exp.came_from:
        reason = reason or "Enemies bar the way: fight, parley, or go back the way you came."
    return Action(f"move:{target}", "move", f"Go to {room_label(gm, target)} through the {way}", _turn_cost(cost),
                  reason is None, reason, target=str(target),
                  rule="Move (1 turn); free back to an explored room nearby.")  # fmt: skip


#: A shut door's kinds that force or break open (STR, noisy): the action's kind and what it says.
_FORCED = {"stuck": ("force", "Force the stuck door"), "barricaded": ("break", "Break through the barricade")}


def _door_actions(gm: GM, link: SiteLink, threat: bool) -> list[Action]:
    """A shut door's own ways: force a stuck one or break a barricade (STR, noisy), unlock a locked one with its
    key."""
    door = door_state(gm, link)
    target = link.other(_exp(gm).room)
    if link.door in _FORCED and not (door.opened or door.broken):
        kind, what = _FORCED[link.door]
        return [Action(f"{kind}:{link.id}", kind, f"{what} to room {target} (STR, noisy)", _turn_cost(1), not threat,
                       "Not with enemies here." if threat else None, target=str(link.id))]  # fmt: skip
    if link.door == "locked" and is_locked(gm, link):
        key = key_for(gm, link)
        why = None if key else "You have not found its key."
        return [Action(f"unlock:{link.id}", "unlock", f"Unlock the door to room {target} with its key", Cost(),
                       key is not None, why, target=str(link.id))]  # fmt: skip
    return []


@TABLE.lister
def _stairs_actions(gm: GM) -> list[Action]:
    exp = _exp(gm)
    barred = _barred(gm)
    return [Action(f"stairs:{to_depth}", "stairs",
                   f"Take the stairs {'down' if to_depth > exp.depth else 'up'} to level {to_depth}", _turn_cost(1),
                   not barred, "Enemies are here." if barred else None, params=(("room", to_room),))
            for to_depth, to_room in gm.room().stairs]  # fmt: skip


@TABLE.applies("move")
def _move(gm: GM, action: Action) -> None:
    exp = _exp(gm)
    target = int(action.target or 0)
    link = next(lk for lk in gm.site_level().links_of(exp.room) if lk.other(exp.room) == target)
    for rule in powers.ITEM_RULES.values():  # what the party's items do as it moves: the map back (item_rules)
        if rule.moved is not None:
            rule.moved(gm, link, target)
    if _leave_the_doors(gm, link):
        return  # the party opened the door on those pounding at it: they are on it
    st = door_state(gm, link)
    if st.wedged:  # the party pulls its spikes or its barricade away as it goes through (R246)
        st.wedged = st.spiked = False
        gm.emit("door", "The party pulls the wedges from the door and goes through.", link=link.id)
    st.opened = True
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
    st = door_state(gm, link)
    st.unlocked, st.locked = True, False
    gm.emit("door", "The key turns.", link=link.id)


# --- the room: its living, its loot, its secrets and traps ---------------------------------------------------


@TABLE.lister
def _fight_actions(gm: GM) -> list[Action]:
    """The room's living: attack them, or meet them (parley, bribe: :mod:`rules.gm.encounters`)."""
    monsters = live_monsters(gm)
    if not monsters:
        return []
    surprise = "" if any(g.aware for g in monsters) else " (they have not noticed you: surprise)"
    fight = Action("fight", "fight", "Attack " + ", ".join(f"{g.count} {g.monster}" for g in monsters) + surprise,
                   _turn_cost(1), rule="Start combat (1 turn); unaware enemies: no initiative, all fast.")  # fmt: skip
    return [fight, *encounters.actions(gm)]


def loot_in_sight(gm: GM) -> list[int]:
    """The room's things left to take: not taken, not hidden unless found, not held until a set piece is worked."""
    st, room = gm.room_state(), gm.room()
    return [i for i, x in enumerate(room.loot) if i not in st.loot_taken and (not x.hidden or found_hidden(gm, i))
            and not setpieces.holds(gm, i)]  # fmt: skip


@TABLE.lister
def _loot_actions(gm: GM) -> list[Action]:
    room, st = gm.room(), gm.room_state()
    threat = _threat(gm)
    left = loot_in_sight(gm)
    why = ("Enemies are here." if threat else None if left else "Nothing left to take here." if st.loot_taken
           else "Nothing of value in sight.")  # fmt: skip
    return [Action("loot", "loot", f"Loot {room.name}", _turn_cost(1), bool(left) and not threat, why,
                   rule="Loot (1 turn): only where it is safe. If there is a trap, you may fall for it.")]  # fmt: skip


#: The freeform verb of looting past creatures that have not noticed the party (freeform.toml, RULINGS R235).
LOOT_QUIETLY = "loot_quietly"


@TABLE.lister
def _quiet_loot_actions(gm: GM) -> list[Action]:
    """Loot a room whose creatures have not noticed the party, past them: the book's riskier looting, "a freeform
    action, and may require a test" (RULINGS R235).  Failed, they see the party."""
    groups = encounters.unsafe(gm)
    if not groups or any(g.aware for g in groups):
        return []  # safe: loot as usual; watched: no sneaking past eyes that are on you
    if not loot_in_sight(gm) or not gm.active():
        return []
    verb = gm.content.freeform.verb(LOOT_QUIETLY)
    attr = Attr(verb.attr or "DEX")
    m = freeform.actor(gm, attr, verb)
    chance = odds(m.adv.character.test_spec(attr, advantage=freeform.advantage(gm, m, verb))).success
    names = ", ".join(f"{g.count} {g.monster}" for g in groups)
    label = f"Loot quietly past the unaware {names}: {m.name} ({attr.value} {chance:.0%}; failed, they see you)"
    return [Action(LOOT_QUIETLY, LOOT_QUIETLY, label, _turn_cost(verb.turns), who=m.id, rule=verb.rule)]


@TABLE.lister
def _search_actions(gm: GM) -> list[Action]:
    st = gm.room_state()
    threat = _threat(gm)
    return [Action("search", "search", "Search for secrets (INT)", _turn_cost(1), not threat and not st.searched,
                   "Enemies are here." if threat else "Already searched." if st.searched else None)]  # fmt: skip


@TABLE.lister
def _trap_actions(gm: GM) -> list[Action]:
    """Look for traps (the Infiltration skill, or a tool an item rule names: the 3 meter pole); disarm those found."""
    room, st = gm.room(), gm.room_state()
    threat = _threat(gm)
    tool = powers.tool_for(gm, "look_for_traps")
    can_look = any(m.adv.character.has_skill("Infiltration") for m in gm.active()) or tool is not None
    why = ("Needs the Infiltration skill or a tool such as a 3 meter pole." if not can_look
           else "Enemies are here." if threat else None)  # fmt: skip
    out = [Action("traps", "look_for_traps", "Look for traps (INT)", _turn_cost(1), can_look and not threat, why,
                  rule="Look for traps (1 turn): INT test; critical failure sets them off.")]  # fmt: skip
    for i, (trap, tst) in enumerate(zip(room.traps, st.traps, strict=True)):
        if tst.found and not (tst.disarmed or tst.triggered):
            out.append(Action(f"disarm:{i}", "disarm", f"Disarm the {trap.name} ({disarm_attr(trap).value})",
                              _turn_cost(1), not threat, "Enemies are here." if threat else None))  # fmt: skip
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


@TABLE.applies(LOOT_QUIETLY)
def _loot_quietly(gm: GM, action: Action) -> None:
    verb = gm.content.freeform.verb(LOOT_QUIETLY)
    attr = Attr(verb.attr or "DEX")
    member = gm.c.member(action.who) if action.who else freeform.actor(gm, attr, verb)
    grade = freeform.attempt(gm, verb, attr, member, "looting quietly")
    out = verb.outcome(grade)
    gm.emit("freeform", out.text, who=member.id, verb=verb.id, grade=grade)
    freeform.apply_effects(gm, member, freeform.outcome_effects(out, attr), "looting quietly")
    if out.result in ("loot", "loot_wake"):
        _loot(gm)
    woke = out.result in ("loot_wake", "wake")
    if woke:
        for g in live_monsters(gm):
            g.aware = True
        encounters.meet(gm)  # those with a mind show their attitude: not every one who wakes attacks
    end_turn(gm, 1, "looting quietly")
    if woke and gm.c.phase is Phase.EXPLORATION and encounters.attackers(gm):
        fight_room(gm, surprise="enemies" if grade == gm.content.freeform.grades.critical_failure else None,
                   source="they see you", everyone=False)  # fmt: skip


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
    out = exploration_use.magic_actions(gm) + exploration_use.extract_actions(gm)
    if _threat(gm):  # shown greyed with the reason, not hidden (they vanished while neutral monsters stood by)
        out = [replace(a, available=False, reason="Not with enemies here.") if a.available else a for a in out]
    return out + exploration_use.item_actions(gm)


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
        if not m.lit and can_light(gm, m):
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
    for i in loot_in_sight(gm):
        loot = room.loot[i]
        key = loot.name.lower().startswith("key to")
        item = Carried(loot.name, "", slots=0 if key else (2 if loot.big else 1), count=loot.count,
                       rarity=loot.rarity, value=loot.value, notes=key_found_here(gm) if key else "")  # fmt: skip
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
        secret_found(gm, i)


# --- what the party's items are for: a handler per item rule (rules.gm.item_rules, powers.ITEM_RULES) -------------
# Listed last, as the room's item actions always were; at doors and on moves above; the pole's looking for traps
# in the room's actions.


@TABLE.lister
def _item_rule_actions(gm: GM) -> list[Action]:
    return [a for r in powers.ITEM_RULES.values() if r.room is not None for a in r.room(gm)]


@TABLE.applies(*(kind for r in powers.ITEM_RULES.values() if r.apply is not None for kind in r.kinds))
def _item_rule(gm: GM, action: Action) -> None:
    rule = next(r for r in powers.ITEM_RULES.values() if action.kind in r.kinds)
    assert rule.apply is not None
    turns = rule.apply(gm, action)
    if turns:
        end_turn(gm, turns, rule.doing)


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
