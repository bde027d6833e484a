"""Setting up a fight, running its rounds, and ending it.

Setup: the visible enemies are placed (a room's monsters where the dungeon
put them; wanderers and reinforcements on the far side of the room), the
party by the door it came through (in the middle of the room when ambushed
in camp); initiative is a DEX check for each adventurer (success: fast;
failure: slow).  Unaware enemies: no initiative, every adventurer is fast and
the enemies lose their first turn.  An ambush (two 6s in camp): the enemies
act first and every adventurer is slow.

Rounds: fast adventurers → enemies → slow adventurers → cleanup (dodge tokens
go, shield tokens stay).  The fight ends when no enemy stands (dead or
fled), when no adventurer is left in it (dead or fled through the door), or —
a safety net — when nobody can or does act any more.  The whole fight is one
exploration turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.attributes import Attr
from rules.character import Condition
from rules.checks import RuleError
from rules.dice import d
from rules.gm import combat_core as core
from rules.gm import combat_foes as foes
from rules.gm import combat_grid as grid
from rules.gm.combat_state import CombatState, Fighter, Foe, FoeGroup, Tile
from rules.gm.gear import stabilisers, use_up
from rules.gm.places import pursuers, wait_at_door, way_in
from rules.gm.state import GroupState, Phase

if TYPE_CHECKING:
    from rules.gm.services import GM
    from rules.gm.state import Member

#: A fight in which no one is wounded, dies or flees for this many rounds breaks off (a stun-lock, enemies
#: that cannot be harmed, sides that cannot reach each other): both sides draw back.
QUIET_ROUNDS = 10
#: Rounds in which no adventurer can act and no enemy does anything before the enemies lose interest.
IDLE_ROUNDS = 2
#: A fight is "challenging" (Terrified: "defeat a challenging foe"; Hopeless: "survive a challenging fight")
#: when the enemies' levels add up to at least this many per adventurer who started it.
CHALLENGE_LEVELS_PER_ADVENTURER = 2
#: Spill-over room beyond the doorway when a room is too small for everyone.
CORRIDOR = 12


# --- setup -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Near:
    """Where joining enemies stand: within ``lo``..``hi`` tiles of the adventurer ``who`` (a summoning)."""

    who: str
    lo: int
    hi: int


def _place_near(gm: GM, cs: CombatState, joined: list[Foe], near: Near) -> None:
    """Each of ``joined`` moves to the free tile nearest ``near.who`` within its reach ("Close to you": next to
    them; "Nearby": two or more tiles off, within Nearby).  Where none is free it stays where it joined."""
    anchor = next((f for f in cs.fighters if f.id == near.who and not f.fled), None)
    if anchor is None:
        return
    for foe in joined:
        taken = set(grid.occupants(cs)) - {foe.tile}
        spots = [t for t in cs.tiles if t not in taken and near.lo <= grid.distance(t, anchor.tile) <= near.hi]
        if not spots:
            continue
        foe.x, foe.y = min(spots, key=lambda t: (grid.distance(t, anchor.tile), t[1], t[0]))
        gm.emit("summoned", f"{core.label(foe)} steps out of the void "
                + ("beside" if near.hi <= grid.CLOSE else "near") + f" {gm.c.member(near.who).name}.",
                foe=foe.id, monster=foe.monster, x=foe.x, y=foe.y)  # fmt: skip


def start(
    gm: GM,
    groups: list[tuple[str, int]],
    *,
    source: str,
    surprise: str | None = None,
    room_groups: list[int] | None = None,
    near: Near | None = None,
) -> None:
    """A fight starts in the party's room; ``near``: the enemies stand within that reach of an adventurer (a
    summoning: "Close to you", "Nearby")."""
    if gm.c.combat is not None and gm.c.phase is Phase.COMBAT:
        reinforce(gm, groups, source, near=near)
        return
    exp = gm.c.expedition
    if exp is None:
        raise RuleError("a fight needs a place: the party is not on an expedition")
    if surprise not in (None, "party", "enemies"):
        raise ValueError(f"surprise is 'party', 'enemies' or None, not {surprise!r}")
    back = gm.c.phase
    if back is Phase.CAMP and gm.c.camp is None:
        back = Phase.EXPLORATION  # the camp was broken up by the attack
    if back not in (Phase.EXPLORATION, Phase.CAMP):
        back = Phase.EXPLORATION
    room = gm.room()
    level = gm.site_level()
    neighbours = [lk.other(room.id) for lk in level.links_of(room.id)]
    came = exp.came_from if exp.came_from in neighbours else None  # not the stairs' room on another level
    towards_room = came if came is not None else (neighbours[0] if neighbours else None)
    link = next((lk for lk in level.links_of(room.id) if lk.other(room.id) == towards_room), None)
    mouth = link.mouth(room.id) if link is not None else None
    towards: tuple[int, int] | None
    if mouth is not None:
        towards = mouth  # the door's own place: the corridor tile at this room's wall
    else:
        towards = grid.centre(level.room(towards_room).tiles) if towards_room is not None else None
    inside, outside = grid.doorway(room.tiles, towards)
    cs = CombatState(
        source=source,
        surprise=surprise,
        return_phase=back.value,
        counts_turn=back is Phase.EXPLORATION,
        room=room.id,
        tiles=grid.ordered(set(room.tiles) | {outside}),
        exit=outside,
        # the room beyond that doorway; None: the way in from outside (the party fled out of the dungeon)
        exit_room=came if came is not None or (room.entrance and exp.depth == 1) else towards_room,
    )
    spill = grid.corridor(room.tiles, inside, outside, CORRIDOR)
    party = gm.alive()
    cs.party_size = len(party)
    _place_party(cs, party, inside if surprise != "enemies" else grid.centre(room.tiles), spill)
    joined = _join(gm, cs, groups, source, room_groups=room_groups, spill=spill)
    if near is not None:
        _place_near(gm, cs, joined, near)
    gm.c.combat = cs
    gm.c.phase = Phase.COMBAT
    gm.c.stats.combats += 1
    names = ", ".join(f"{g.count} {g.monster}" for g in cs.groups)
    gm.emit("combat", f"Combat! {names} ({source}).", source=source, surprise=surprise, room=room.id)
    if exp.blessed:  # a miracle out of a fight: the group starts the next one with a shield token each (R207)
        exp.blessed = False
        for g in cs.fighters:
            g.shield = max(g.shield, 1)
        gm.emit("miracle", "The miracle holds: every adventurer starts the fight with a shield token.")
    if exp.morale:  # Miracle 2 out of a fight: its points of morale are for this one (R208)
        cs.morale, exp.morale = cs.morale + exp.morale, 0
        gm.emit("morale", f"The miracle holds: the party fights with {cs.morale} point(s) of morale.",
                morale=cs.morale)  # fmt: skip
    _initiative(gm, cs, surprise)
    _new_round(gm, cs)
    advance(gm)


def _place_party(cs: CombatState, party: list[Member], start: Tile, spill: list[Tile]) -> None:
    taken: set[Tile] = set()
    for m in party:
        spot = grid.nearest_free(cs, start, taken, avoid=[cs.exit] if cs.exit else [])
        if spot is None and cs.exit is not None and cs.exit not in taken:
            spot = cs.exit
        if spot is None:
            spot = _spill(cs, spill, taken)
        taken.add(spot)
        cs.fighters.append(Fighter(m.id, spot[0], spot[1]))


def _spill(cs: CombatState, spill: list[Tile], taken: set[Tile]) -> Tile:
    """No room left: the next corridor tile beyond the doorway joins the grid."""
    for t in spill:
        if t not in cs.tiles:
            cs.tiles.append(t)
        if t not in taken:
            return t
    raise RuleError("no room to stand anywhere")


def _join(
    gm: GM,
    cs: CombatState,
    groups: list[tuple[str, int]],
    source: str,
    *,
    room_groups: list[int] | None = None,
    spill: list[Tile] | None = None,
) -> list[Foe]:
    """Enemies join the fight: room groups where the dungeon put them, others far from the party."""
    room = gm.room()
    joined: list[Foe] = []
    taken = {t for t in grid.occupants(cs)}
    party_tiles = [f.tile for f in cs.fighters if not f.fled]
    for n, (name, count) in enumerate(groups):
        try:
            m = core.sheet(gm, name)
        except KeyError:
            gm.emit("warning", f"Unknown enemy {name!r}: it does not join the fight.")
            continue
        index = room_groups[n] if room_groups is not None and n < len(room_groups) else None
        cs.groups.append(FoeGroup(m.name, count, index, source=source))
        spots: list[Tile] = []
        if index is not None and index < len(room.monsters) and room.monsters[index].monster == name:
            spots = [t for t in room.monsters[index].positions if t in set(cs.tiles)]
        for i in range(count):
            want = spots[i] if i < len(spots) else None
            spot = None
            if want is not None and want not in taken:
                spot = want
            if spot is None:
                spot = _far_tile(cs, taken, party_tiles)
            if spot is None:
                try:
                    spot = _spill(cs, spill or [], taken)
                except RuleError:
                    # every tile of the room and the corridor is taken: the rest crowd outside, out of the fight
                    cs.groups[-1].count = i
                    gm.emit("no_room", f"No room for {count - i} more {m.name}: they wait outside.", monster=m.name,
                            left_out=count - i)  # fmt: skip
                    break
            taken.add(spot)
            foe = Foe(f"e{cs.next_foe}", m.name, len(cs.groups) - 1, spot[0], spot[1], ap=m.armor)
            cs.next_foe += 1
            cs.foes.append(foe)
            joined.append(foe)
    return joined


def _far_tile(cs: CombatState, taken: set[Tile], party: list[Tile]) -> Tile | None:
    """The free room tile farthest from the party (the room's far side)."""
    free = [t for t in cs.tiles if t not in taken and t != cs.exit]
    if not free:
        return None
    if not party:
        return grid.ordered(free)[0]
    return max(grid.ordered(free), key=lambda t: min(grid.distance(t, p) for p in party))


def _initiative(gm: GM, cs: CombatState, surprise: str | None) -> None:
    for f in cs.fighters:
        who = core.member(gm, f.id)
        if who is None or not who.adv.character.can_act:
            continue
        if surprise == "party":
            f.fast = True  # "they don't need to roll the initiative test, and are all considered fast"
            if who.adv.character.has_skill("Stalker"):
                f.free_crit = True  # Stalker: "if undetected by an enemy you have a free critical hit"
        elif surprise == "enemies":
            f.fast = False
        else:
            f.fast = gm.test(who, Attr.DEX, "initiative", check=True).verdict.success
    if surprise == "party":
        for e in cs.foes:
            e.lost_turn = True
    fast = [core.member(gm, f.id) for f in cs.fighters if f.fast]
    slow = [core.member(gm, f.id) for f in cs.fighters if not f.fast]
    gm.emit(
        "initiative",
        "Fast: " + (", ".join(m.name for m in fast if m) or "no one") + ". Slow: "
        + (", ".join(m.name for m in slow if m) or "no one") + ".",
        fast=[f.id for f in cs.fighters if f.fast],
        slow=[f.id for f in cs.fighters if not f.fast],
    )  # fmt: skip


def reinforce(gm: GM, groups: list[tuple[str, int]], source: str, *, near: Near | None = None) -> None:
    cs = gm.c.combat
    if cs is None:
        start(gm, groups, source=source, near=near)
        return
    joined = _join(gm, cs, groups, source)
    if near is not None:
        _place_near(gm, cs, joined, near)
    if joined:
        names = ", ".join(f"{n} {name}" for name, n in groups)
        gm.emit("reinforcements", f"More enemies join the fight: {names} ({source}).", source=source)


# --- the round ---------------------------------------------------------------------------------------------


def _actions_for(gm: GM, cs: CombatState, who: Member) -> int:
    """Two actions; one less when nauseated (or near a nauseating aura)."""
    n = core.ACTIONS
    ch = who.adv.character
    sick = "nauseated" in ch.afflictions
    if not sick:
        f = cs.fighter(who.id)
        for e in cs.active_foes():
            aura = core.special(core.sheet(gm, e.monster), "nauseating_aura")
            if aura is not None and grid.distance(e.tile, f.tile) <= grid.NEARBY:
                sick = True
    return n - (1 if sick else 0)


def _begin_turns(gm: GM, cs: CombatState, fast: bool) -> None:
    for f, who in core.standing(gm, cs):
        if f.fast != fast:
            continue
        f.turn_started = False
        f.focus = ""
        f.broke_free_tried = False
        f.help_ready = f.helped_by is not None
        f.actions = _actions_for(gm, cs, who) if who.adv.character.can_act else 0
        _powers_at_turn(gm, cs, f, who)


def _powers_at_turn(gm: GM, cs: CombatState, f: Fighter, who: Member) -> None:
    """What the powers on an adventurer do as their turn begins."""
    ch = who.adv.character
    for a, n in list(f.owed_fatigue.items()):  # Apotheosis: "then next turn get it back"
        del f.owed_fatigue[a]
        gm.fatigue(who, "Apotheosis fades", Attr(a), points=n)
    if f.actions and core.lasting(cs, f, "Magic Shield") and f.shield < core.MAX_SHIELD:
        f.shield += 1  # "the wizard get a shield token on the start of the wizard's turn"
        gm.emit("tokens", f"{who.name}'s magic shield: +1 shield token.", who=who.id, shield=f.shield)
    if f.actions and core.lasting(cs, f, "Mercurial tonic"):
        f.actions += 1
    if f.actions and core.lasting(cs, f, "Hyperfocus"):
        f.actions = 3  # "the target will have 3 actions, but can only perform the same action"
    for name, text in (("Arcane prison", "is locked in the arcane crystal"), ("Hold", "is paralysed"),
                       ("Purge the filth", "retches black slime")):  # fmt: skip
        if f.actions and core.lasting(cs, f, name):
            f.actions = 0
            gm.emit("idle", f"{who.name} {text} and cannot act.", who=who.id)
    if f.channel and f.actions:
        power, _, target = f.channel.partition(":")
        foe = next((e for e in cs.active_foes() if e.id == target), None)
        keep = foe is not None and ch.can_act and gm.decider.choose(
            gm, who, f"Keep channelling {power} on {core.label(foe)}? (no moving or acting while you do)",
            ["keep channelling", "let it go"]) == "keep channelling"  # fmt: skip
        if foe is None or not keep:
            f.channel = ""
            gm.emit("channel_ends", f"{who.name} stops channelling {power}.", who=who.id)
        else:
            f.actions = 0  # "The wizard can't move or act while channelling."
            core.add_stun(gm, cs, foe, 2, power)  # Shackles: "adding 2 stun tokens per turn"


def _end_turns(gm: GM, cs: CombatState, fast: bool) -> None:
    for f, who in core.standing(gm, cs):
        if f.fast != fast:
            continue
        f.actions = 0
        if core.lasting(cs, f, "Mercurial tonic"):
            face = d(gm.rng, 4)  # "(test at the end of the turn)": the tonic's Ud4
            if face <= 2:
                del f.effects["Mercurial tonic"]
                gm.emit("tonic", f"{who.name}'s mercurial tonic wears off (Ud4: {face}).", who=who.id)
        if f.help_ready:
            f.helped_by, f.help_ready = None, False
        if f.grabbed_by is not None and not f.broke_free_tried and who.adv.character.can_act:
            # "use all actions to test STR to break free or take 1 wound and be immobilized for this turn"
            core.hurt_member(gm, cs, f, who, 1, "the crushing grip", armour=False, from_attack=False)


def _new_round(gm: GM, cs: CombatState) -> None:
    cs.round += 1
    cs.phase = "fast"
    gm.c.stats.combat_rounds += 1
    gm.emit("round", f"Round {cs.round}.", round=cs.round)
    for who, name in core.expire(gm, cs):
        if name == "Purge the filth":  # "After that the target heals 3 wounds."
            if isinstance(who, Foe) and who.active:
                healed = min(3, who.wounds)
                who.wounds -= healed
                gm.emit("foe_heal", f"{core.label(who)} heals {healed} wound(s) (Purge the filth).", foe=who.id)
            elif isinstance(who, Fighter) and (m := core.member(gm, who.id)) is not None:
                gm.heal(m, 3, "Purge the filth")
    _begin_turns(gm, cs, True)


def _waiting(gm: GM, cs: CombatState, fast: bool) -> bool:
    return any(f.fast == fast and f.actions > 0 for f, _ in core.able(gm, cs))


def _enemies(gm: GM, cs: CombatState) -> bool:
    """The enemies' turn; returns whether any of them did anything."""
    did = False
    for f, who in core.standing(gm, cs):
        for _ in range(f.worms):  # Infest: "causing 1 wound per turn until removed"
            core.hurt_member(gm, cs, f, who, 1, "a burrowing worm", armour=False, from_attack=False)
    for e in list(cs.foes):
        core.settle(gm, cs)
        if foes.over(gm, cs):
            break
        if e.active and not e.side:
            did = foes.enemy_turn(gm, cs, e) or did
    return did


def _cleanup(gm: GM, cs: CombatState) -> None:
    """Remove any unused dodge tokens; shield tokens stay.  The dying who were not stabilised die."""
    for f in cs.fighters:
        f.dodge = 0
    for e in cs.foes:
        e.dodge = 0
    _burn(gm, cs)
    for f, who in core.standing(gm, cs):
        ch = who.adv.character
        if f.bleeding_out is not None and cs.round >= f.bleeding_out:
            if ch.condition is Condition.MORTALLY_WOUNDED:
                gm.death(who, "bled out before anyone could stabilise them")
                core.fell(gm, cs, f)
            f.bleeding_out = None


def _burn(gm: GM, cs: CombatState) -> None:
    """Arcane fire: "anything standing in that tile takes 2 wounds per turn, those wounds can be reduced"."""
    if not cs.fire:
        return
    for e in cs.active_foes():
        if e.tile in cs.fire:
            foes.hurt_foe(gm, cs, e, 2, "Arcane fire", magic=True, fire=True, hit=False)
    for f, who in core.standing(gm, cs):
        if f.tile in cs.fire:
            core.hurt_member(gm, cs, f, who, 2, "Arcane fire", from_attack=False)


def advance(gm: GM) -> None:
    """Run the fight until the player must choose (or it ends)."""
    cs = gm.c.combat
    while cs is not None and gm.c.combat is cs:
        core.settle(gm, cs)
        outcome = _outcome(gm, cs)
        if outcome is not None:
            end(gm, cs, outcome)
            return
        if cs.phase == "fast":
            if _waiting(gm, cs, True):
                return
            _end_turns(gm, cs, True)
            cs.phase = "enemies"
        elif cs.phase == "enemies":
            did = _enemies(gm, cs)
            cs.idle_rounds = cs.idle_rounds + 1 if not did and not core.able(gm, cs) else 0
            cs.phase = "slow"
            _begin_turns(gm, cs, False)
        else:
            if _waiting(gm, cs, False):
                return
            _end_turns(gm, cs, False)
            _cleanup(gm, cs)
            if _outcome(gm, cs) is None:
                _new_round(gm, cs)


def _outcome(gm: GM, cs: CombatState) -> str | None:
    if gm.c.phase is Phase.OVER:
        return "dead"
    if not cs.active_foes():
        return "victory"
    if not core.standing(gm, cs):
        return "fled" if any(f.fled for f in cs.fighters) else "dead"
    if cs.idle_rounds >= IDLE_ROUNDS:
        return "idle"
    if cs.round - cs.last_blood > QUIET_ROUNDS:
        return "stalemate"
    return None


# --- the end -----------------------------------------------------------------------------------------------


def _challenging(gm: GM, cs: CombatState) -> bool:
    levels = sum(core.sheet(gm, e.monster).level for e in cs.foes if not e.side)
    return levels >= CHALLENGE_LEVELS_PER_ADVENTURER * max(1, cs.party_size)


def end(gm: GM, cs: CombatState, outcome: str) -> None:
    texts = {
        "victory": "The fight is over: no enemy stands.",
        "fled": "The party has fled; the enemies hold the room.",
        "dead": "The fight is over. No one is left to tell of it.",
        "idle": "No one is left standing to fight; the enemies lose interest.",
        "stalemate": "The fight breaks off; both sides draw back.",
    }
    _record(gm, cs)
    for m in gm.c.party:
        m.adv.character.euphoric = False  # Euphoria lasts "during this combat"
    for f in cs.fighters:  # Apotheosis: the fight ends before "next turn": the lifted fatigue comes back (R240)
        who = core.member(gm, f.id)
        for a, n in list(f.owed_fatigue.items()):
            del f.owed_fatigue[a]
            if who is not None:
                gm.fatigue(who, "Apotheosis fades", Attr(a), points=n)
    for f, who in core.standing(gm, cs):
        lasting = sorted(n for n, until in f.effects.items() if until >= cs.round)
        if lasting:  # R191: every duration ends with the fight
            gm.emit("effect_ends", f"{', '.join(lasting)} end(s) on {who.name} with the fight.", who=who.id)
    for f, who in core.standing(gm, cs):
        ch = who.adv.character
        if f.bleeding_out is not None and ch.condition is Condition.MORTALLY_WOUNDED:
            _last_chance(gm, cs, f, who)
        if ch.condition is Condition.COLLAPSED:
            ch.condition = Condition.ACTIVE  # R10: collapsed "until the combat ends"
    for drop in cs.dropped:
        owner = core.member(gm, drop.owner)
        if owner is not None:
            core.give_back(gm, owner, drop)
    cs.dropped = []
    if _challenging(gm, cs) and outcome in ("victory", "fled"):
        for g in cs.fighters:
            survivor = core.member(gm, g.id)
            if survivor is None:
                continue
            if outcome == "victory" and not g.fled:
                gm.cure(survivor, "terrified", "defeated a challenging foe")
            gm.cure(survivor, "hopeless", "survived a challenging fight")
    exp = gm.c.expedition
    outside = outcome == "fled" and exp is not None and cs.exit_room is None
    if outcome == "fled" and exp is not None and cs.exit_room is not None:
        exp.came_from, exp.room = cs.room, cs.exit_room
        gm.emit("room", f"The party falls back to {gm.room(cs.exit_room).name}.", room=cs.exit_room)
    gm.emit("combat_end", texts[outcome], outcome=outcome, rounds=cs.round)
    gm.c.combat = None
    if gm.c.phase is Phase.OVER:
        return
    gm.c.phase = Phase(cs.return_phase)
    if cs.counts_turn and gm.c.phase is Phase.EXPLORATION:
        gm.procedures.end_turn(gm, 1, "combat")  # "The whole combat only counts as one exploration turn."
    exp = gm.c.expedition
    if outcome == "fled" and not outside and exp is not None and gm.c.phase is Phase.EXPLORATION:
        link = way_in(gm)
        if link is not None and link.other(exp.room) == cs.room and pursuers(gm, cs.room):
            wait_at_door(gm, link, [], "they pursue the party", from_room=cs.room)  # they follow (R247)
    if outside and gm.c.phase is Phase.EXPLORATION and gm.c.expedition is not None and not gm.c.expedition.exit_sealed:
        gm.procedures.leave(gm)  # fled out through the way in: the expedition is over


def _last_chance(gm: GM, cs: CombatState, f: Fighter, who: Member) -> None:
    """Bleeding out when the fight ends: an ally with a first aid kit or medical supply stabilises them, or they die."""
    from rules.injury import stabilise

    for m in gm.alive():
        if not m.adv.character.can_act:
            continue
        for name in stabilisers(gm.content):
            item = m.adv.inventory.find(name)
            if item is not None:
                stabilise(who.adv.character)
                f.bleeding_out = None
                gm.emit("stabilise", f"{m.name} stabilises {who.name} with a {name}.", who=m.id, ally=who.id)
                use_up(gm, m, item)
                return
    gm.death(who, "bled out")


def _record(gm: GM, cs: CombatState) -> None:
    """The room remembers who died and who fled; wanderers who survive stay in the room."""
    if gm.c.expedition is None:
        return
    st = gm.room_state(cs.room)
    for i, g in enumerate(cs.groups):
        members = [e for e in cs.foes if e.group == i]
        standing = sum(1 for e in members if e.active)
        if g.room_index is not None and g.room_index < len(st.monsters):
            rs = st.monsters[g.room_index]
            rs.count = max(0, rs.count - g.killed - g.fled)
            rs.killed += g.killed
            rs.fled += g.fled
            rs.aware = True
        elif standing or g.killed:
            st.monsters.append(GroupState(g.monster, standing, killed=g.killed, aware=True, fled=g.fled))
