"""The enemies' turn: the GM's tactics and the enemy actions of the bestiary.

Enemies do not roll to hit: the adventurer defends with a test of the
attribute the notation names (with its advantage or disadvantage); each dodge
or shield token the defender spends forces a reroll; a failure takes the
wounds, a critical failure the critical wounds too.  Enemies move up to their
Movement score (no diagonals, stopping after leaving a square next to an
adventurer), recover from stun tokens (the only thing a stunned enemy may do),
bleed if they are living, and use the special actions of their sheet.

The tactics (deterministic, every die from the campaign RNG): finish eating a
grabbed victim; regenerate when at half its wounds or worse; consume a corpse
in reach; otherwise the attack that does the most harm on the weakest
adventurer in reach (fewest available dice); take aim before a shot; ranged
enemies step back from melee before shooting; else close in on the weakest
adventurer it can reach soon (else the nearest); with nothing better to do,
raise its shield.  Mortally wounded or collapsed adventurers are left alone
while anyone else in the fight can still act.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.armor import ArmorPart, Defender, reduce_damage
from rules.attributes import Attr
from rules.character import Condition
from rules.checks import Side, TestRoll, evaluate
from rules.content.schema_bestiary import Monster, MonsterAction
from rules.dice import roll
from rules.gm import combat_core as core
from rules.gm import combat_grid as grid
from rules.gm.combat_gear import shield_of
from rules.gm.combat_state import CombatState, Fighter, Foe, Tile
from rules.gm.services import armour_parts, store_armour
from rules.gm.state import Phase
from rules.notation import Attack, Effect, Modifier, parse_attack, parse_range

if TYPE_CHECKING:
    from rules.gm.services import GM, Decider
    from rules.gm.state import Member

#: The defence roll is a *test* (1s and 4s cost fatigue): "Player's may always choose to not roll any dice to avoid
#: fatigue" and Turtle's "you can't receive fatigue for defending" both say so, although the combat chapter once
#: calls it "a check to dodge" (checks cost no fatigue).  A ruling; flip it here to play the other reading.
DEFENCE_IS_A_CHECK = False

#: Rules of actions that are not attacks the tactics weigh (handled on their own).
_NOT_ATTACKS = {"move", "recover", "eat", "heal", "consume_corpse", "take_aim", "shield_breaks_when_used"}


@dataclass(frozen=True)
class Plan:
    kind: str  # attack, lunge, heal, consume, aim, reload, move, guard, ram
    cost: int
    action: MonsterAction | None = None
    target: Fighter | None = None
    tile: Tile | None = None
    score: float = 0.0


# --- reading the sheet -------------------------------------------------------------------------------------


def attack_of(action: MonsterAction) -> Attack | None:
    return parse_attack(action.notation) if action.notation else None


def reach_of(action: MonsterAction) -> int:
    """Tiles an action reaches (Close unless its range says otherwise)."""
    if action.range:
        band, tiles = parse_range(action.range)
        if tiles is not None:
            return tiles
        from rules.notation import RANGE_TILES

        return RANGE_TILES[band] or grid.NEARBY
    atk = attack_of(action)
    if atk is None:
        return 1
    return atk.max_tiles or 1


def _warded(gm: GM, until: int) -> bool:
    """An effect kept "until this exploration turn" holds (Arcane Seal's ``Member.warded``, a mishap's
    ``Member.blind``; 0: never — see ``powers.still``)."""
    exp = gm.c.expedition
    return exp is not None and until > 0 and until >= exp.turns


def _fighter_ids(cs: CombatState) -> set[str]:
    return {f.id for f in cs.fighters}


def targets(gm: GM, cs: CombatState) -> list[tuple[Fighter, Member]]:
    """Who the enemies go for: those who can act, or — when no one can — whoever is left."""
    return core.able(gm, cs) or core.standing(gm, cs)


def _weakest(gm: GM, pool: list[tuple[Fighter, Member]], origin: Tile) -> tuple[Fighter, Member]:
    order = {f.id: i for i, f in enumerate(f for f, _ in pool)}
    return min(pool, key=lambda fm: (core.dice_left(fm[1]), grid.distance(origin, fm[0].tile), order[fm[0].id]))


# --- movement -------------------------------------------------------------------------------------------------


def moves(gm: GM, cs: CombatState, foe: Foe, steps: int | None = None) -> dict[Tile, int]:
    """Tiles ``foe`` can move to this action."""
    m = core.sheet(gm, foe.monster)
    tags = core.rules_of(m)
    if foe.immobilized_round == cs.round or held(cs, foe) or core.lasting(cs, foe, "Mind fog"):
        return {}  # (Mind fog: it remembers no one to go after, RULINGS R201)
    if steps is None:
        bent = core.lasting(cs, foe, "Bonedance")  # "Halves that creature move speed"
        steps = m.movement // 2 if bent else m.movement
    fighters = {f.tile for f, _ in core.standing(gm, cs)}
    through = bool({"immaterial", "incorporeal"} & tags) or foe.incorporeal_round != 0
    stack = core.special(m, "stack")
    per_tile = stack.value if stack is not None and stack.value else 1
    ids = _fighter_ids(cs)
    occupied: set[Tile] = set()
    for t, who in grid.occupants(cs).items():
        others = [i for i in who if i != foe.id]
        if not others:
            continue
        foreign = any(i in ids for i in others) or not all(cs.foe(i).monster == foe.monster for i in others)
        if foreign or len(others) >= per_tile:
            occupied.add(t)
    threat = {t for f in fighters for t in grid.around(f)}
    feared = next((f.tile for f, _ in core.standing(gm, cs) if f.id == foe.fear), None)
    if feared is not None:  # Phobia: it never comes Close to whom it fears
        occupied |= {t for t in cs.tiles if grid.close(t, feared)}
    occupied |= set(cs.fire)  # nothing walks into Arcane fire
    through_seal = set(cs.sealed) if "undead" in m.tags else set()  # Seal: "no undead can cross"
    return grid.reachable(
        foe.tile,
        steps,
        set(cs.tiles),
        blocked=(set() if through else fighters) | through_seal,
        occupied=occupied,
        threat=threat,
        ignore_stop=bool({"nimble", "immaterial"} & tags),
        straight="straight_line_movement" in tags,
        stops=set(cs.traps),
    )


def _move_cost(m: Monster) -> int:
    return 2 if "crawls" in core.rules_of(m) else 1  # "Crawls, uses 2 actions when moving."


def _free(cs: CombatState, t: Tile, me: Foe) -> bool:
    who = grid.occupants(cs).get(t, [])
    return t in set(cs.tiles) and all(i == me.id for i in who)


def silenced(cs: CombatState, t: Tile) -> bool:
    """``t`` lies in a Silence (Nearby the tile it was prayed for)."""
    return any(grid.distance(t, c) <= grid.NEARBY for c in cs.silence)


#: Powers and snares that hold an enemy in place.
HELD = ("Glue", "Hold", "Arcane prison", "Nightmare", "Command undead", "Trapped")


def held(cs: CombatState, foe: Foe) -> bool:
    """Held in place by a power: Glue, Shackles, Hold, the arcane prison, asleep, or commanded to stand."""
    return (
        any(core.lasting(cs, foe, n) for n in HELD if n != "Command undead" or not foe.order)  # (sent: it walks)
        or any(f.channel == f"Shackles:{foe.id}" for f in cs.fighters)
    )


def _idle(gm: GM, cs: CombatState, foe: Foe) -> bool:
    """A power that takes this enemy's turn: it says so, and the turn is lost."""
    why = next(
        (text for name, text in (
            ("Arcane prison", "is locked in the arcane crystal"),
            ("Hold", "is paralysed"),
            ("Purge the filth", "retches black slime"),
            ("Nightmare", "sleeps a restless sleep"),
            ("Command undead", "stands still, as it was commanded"),
        ) if core.lasting(cs, foe, name)),
        None,
    )  # fmt: skip
    if why is None:
        return False
    gm.emit("foe_idle", f"{core.label(foe)} {why}.", foe=foe.id)
    return True


def _obey(gm: GM, cs: CombatState, foe: Foe, m: Monster) -> bool:
    """A commanded undead attacks the enemy it was sent at (RULINGS R243): it walks Close if it can this turn,
    then strikes with its sheet's first attack, its level in dice, a 4+ hits (as a commanded swarm, R199).  "If
    unable to follow the command for any reason the undead will just stay in place without moving." """
    target = next((o for o in cs.active_foes() if o.id == foe.order and o is not foe), None)
    attack = next((a for a in m.actions if (atk := attack_of(a)) is not None and atk.damage > 0), None)
    if target is not None and attack is not None and not grid.close(foe.tile, target.tile):
        spots = [t for t in moves(gm, cs, foe) if grid.close(t, target.tile)]
        if spots:
            foe.x, foe.y = min(spots, key=lambda t: (grid.distance(t, foe.tile), t[1], t[0]))
            gm.emit("foe_move", f"{core.label(foe)} moves on {core.label(target)}, as it was commanded.", foe=foe.id)
    if target is None or attack is None or not grid.close(foe.tile, target.tile):
        gm.emit("foe_idle", f"{core.label(foe)} cannot follow its command and stays in place.", foe=foe.id)
        return False
    atk = attack_of(attack)
    assert atk is not None
    faces, hits = gm.enemy_test(max(1, m.level))
    if not hits:
        gm.emit("foe_action", f"{core.label(foe)} strikes at {core.label(target)} and misses ({faces}).", foe=foe.id)
        return True
    gm.emit("foe_action", f"{core.label(foe)} strikes {core.label(target)} with its {attack.name.lower()} ({faces}),"
            " as it was commanded.", foe=foe.id)  # fmt: skip
    hurt_foe(gm, cs, target, atk.damage, f"{core.label(foe)}'s {attack.name.lower()}")
    return True


def _tear_free(gm: GM, foe: Foe, m: Monster, effect: str, what: str, held: str) -> None:
    """An enemy tests to get free of ``effect``: its level in dice, a 4+ frees it (as the morale test)."""
    faces, free = gm.enemy_test(max(1, m.level))
    if free:
        del foe.effects[effect]
    gm.emit("foe_struggle", f"{core.label(foe)} {what} ({faces}): " + ("it tears free." if free else held),
            foe=foe.id, faces=faces, effect=effect)  # fmt: skip


def _unglue(gm: GM, cs: CombatState, foe: Foe, m: Monster) -> None:
    """Glue: "they must succeed a test and spend one action to get free"."""
    _tear_free(gm, foe, m, "Glue", "strains against the glue", "still stuck.")


# --- the turn ------------------------------------------------------------------------------------------------


def over(gm: GM, cs: CombatState) -> bool:
    return gm.c.phase is Phase.OVER or not core.standing(gm, cs) or not cs.active_foes()


def enemy_turn(gm: GM, cs: CombatState, foe: Foe) -> bool:
    """One enemy's turn; returns whether it did anything."""
    m = core.sheet(gm, foe.monster)
    if foe.active and core.lasting(cs, foe, "Memento mori"):  # "Target undead start taking 1 wound per turn"
        # the god's wound, not a blow: no armour or resistance takes it; a lost turn is still a turn (R242)
        hurt_foe(gm, cs, foe, 1, "Memento mori", effects=frozenset({Effect.PIERCING}), magic=True,
                 ignore_resist=True, hit=False)  # fmt: skip
        if not foe.active:
            return True
    core.bleed_foe(gm, cs, foe)  # "at the start of its turn": a turn lost to surprise is still its turn
    if not foe.active:
        return True
    if foe.lost_turn:
        foe.lost_turn = False
        gm.emit("surprised", f"{core.label(foe)} is caught unaware and loses its turn.", foe=foe.id)
        return False
    foe.incorporeal_round = 0  # Phase out lasts until its next turn (R66)
    if foe.order and core.lasting(cs, foe, "Command undead"):
        return _obey(gm, cs, foe, m)
    if _idle(gm, cs, foe):
        return False
    if core.lasting(cs, foe, "Trapped"):
        _untrap(gm, cs, foe, m)
        return True
    tags = core.rules_of(m)
    if "dodge_token_each_turn" in tags:
        foe.dodge += 1
    _ongoing(gm, cs, foe)
    if not foe.active or over(gm, cs):
        return True
    if _morale(gm, cs, foe, m):
        return True
    frenzied = core.special(m, "frenzied")
    left = frenzied.value if frenzied is not None and frenzied.value else core.ACTIONS
    did = False
    for _ in range(8):  # never more than a handful of actions in a turn
        if left <= 0 or not foe.active or over(gm, cs):
            break
        if foe.stun > 0:
            foe.stun -= 1
            left -= 1
            did = True
            gm.emit("foe_recover", f"{core.label(foe)} recovers from a stun token.", foe=foe.id, stun=foe.stun)
            continue
        if core.lasting(cs, foe, "Glue"):
            left -= 1
            did = True
            _unglue(gm, cs, foe, m)
            continue
        if foe.disarmed:
            foe.disarmed = False
            left -= 1
            did = True
            gm.emit("foe_pickup", f"{core.label(foe)} picks up its weapon.", foe=foe.id)
            continue
        plan = _plan(gm, cs, foe, m, left)
        if plan is None:
            if not did:
                gm.emit("foe_idle", f"{core.label(foe)} finds no way at anyone and holds its ground.", foe=foe.id)
            break
        _execute(gm, cs, foe, m, plan)
        left -= plan.cost
        did = True
    return did


def _ongoing(gm: GM, cs: CombatState, foe: Foe) -> None:
    """What its grip does at the start of its turn (the hook's wound; the leech's bleeding)."""
    if foe.hooking is not None:
        victim = next(((f, m) for f, m in core.standing(gm, cs) if f.id == foe.hooking), None)
        if victim is None or not victim[1].adv.character.can_act:
            core.release(cs, foe)
            gm.emit("release", f"{core.label(foe)} lets go.", foe=foe.id)
        else:
            f, who = victim
            core.hurt_member(gm, cs, f, who, 1, f"{foe.monster}'s hook", armour=False, from_attack=False)
    if foe.attached is not None:
        victim = next(((f, m) for f, m in core.standing(gm, cs) if f.id == foe.attached), None)
        if victim is None:
            foe.attached = None
        else:
            gm.afflict(victim[1], "bleeding", f"{foe.monster} attached")  # "Causes Bleeding until removed."


def _morale(gm: GM, cs: CombatState, foe: Foe, m: Monster) -> bool:
    """Morale: once half the enemy side is dead or fled, each enemy with morale tests (LVL dice) once; it flees
    on a failure.  Enemies that ignore morale never flee."""
    side = [e for e in cs.foes if not e.side]
    if not m.morale or foe.morale_tested or len(side) < 2:
        return False
    lost = sum(1 for e in side if not e.active)
    if lost * 2 < len(side):
        return False
    foe.morale_tested = True
    faces, held = gm.enemy_test(m.level)
    gm.emit(
        "morale",
        f"{core.label(foe)} tests its morale ({m.level} {'die' if m.level == 1 else 'dice'}: {faces}): "
        + ("it holds." if held else "it flees!"),
        foe=foe.id,
        faces=faces,
    )
    if not held:
        flee(gm, cs, foe)
    return not held


def flee(gm: GM, cs: CombatState, foe: Foe) -> None:
    foe.state = "fled"
    cs.last_blood = cs.round
    cs.groups[foe.group].fled += 1
    core.release(cs, foe)
    gm.emit("foe_flees", f"{core.label(foe)} flees the fight.", foe=foe.id)


# --- planning -------------------------------------------------------------------------------------------------


def _in_area(action: MonsterAction, origin: Tile, t: Tile) -> bool:
    if action.hits_everyone:
        return True
    if action.hits_all_close:
        return grid.in_reach(origin, t, grid.CLOSE, diagonals=action.diagonal)
    if action.hits_all_nearby:
        return grid.distance(origin, t) <= grid.NEARBY
    return False


def _area(action: MonsterAction) -> bool:
    return action.hits_all_close or action.hits_all_nearby or action.hits_everyone


def _worth(action: MonsterAction, target: Fighter | None = None) -> float:
    """How much harm an action does to one target (for choosing among them).

    Stunning someone already stunned is worth little: the GM then goes for the wounds."""
    atk = attack_of(action)
    value = 0.0
    if atk is not None:
        value += atk.damage + 0.3 * atk.crit_damage + (0.5 if atk.effects else 0.0)
    if action.on_hit is not None:
        value += action.on_hit.wounds + 0.5 * len(action.on_hit.afflictions) + (0.3 if action.on_hit.risk_dice else 0)
    stunned = target is not None and target.stun > 0
    value += (0.2 if stunned else 1.5) * action.stun
    if action.rule in ("grab", "hook", "bind", "attach", "push", "chew_armor"):
        value += 1.0
    return value


def _wounds(action: MonsterAction) -> bool:
    """The action can wound (not only stun, grab or disarm)."""
    atk = attack_of(action)
    return (atk is not None and atk.damage > 0) or (action.on_hit is not None and action.on_hit.wounds > 0)


def _landing(cs: CombatState, foe: Foe, target: Fighter) -> Tile | None:
    """A free tile Close to ``target`` for a lunge (the nearest to the enemy)."""
    spots = [t for t in grid.around(target.tile) if _free(cs, t, foe)]
    return min(spots, key=lambda t: (grid.distance(t, foe.tile), t[1], t[0])) if spots else None


def _plan(gm: GM, cs: CombatState, foe: Foe, m: Monster, left: int) -> Plan | None:
    pool = [(f, w) for f, w in targets(gm, cs) if f.id != foe.fear  # nothing to strike in the crystal or the smoke
            and not core.lasting(cs, f, "Arcane prison") and not core.lasting(cs, f, "Smoke form")]
    if not pool:
        return None
    acts = [a for a in m.actions if a.actions <= left]
    if core.lasting(cs, foe, "Ignorance"):  # "can't use any INT based attacks"
        acts = [a for a in acts if (atk := attack_of(a)) is None or Attr.INT not in atk.attributes]
    if silenced(cs, foe.tile):  # Silence: no cry, song or scream carries (RULINGS R197)
        acts = [a for a in acts if not a.sound]  # bestiary.toml: ``sound``
    may_attack = foe.pinned_round != cs.round
    # 1. a grabbed victim is eaten
    if foe.grabbing is not None and may_attack:
        eat = next((a for a in acts if a.rule == "eat"), None)
        victim = next((f for f, _ in core.standing(gm, cs) if f.id == foe.grabbing), None)
        if eat is not None and victim is not None and grid.close(foe.tile, victim.tile):
            return Plan("attack", eat.actions, eat, victim, score=_worth(eat))
    # 2. regenerate when hurt
    heal = next((a for a in acts if a.rule == "heal"), None)
    if heal is not None and foe.wounds > 0 and foe.wounds * 2 >= m.wounds:
        return Plan("heal", heal.actions, heal)
    # 3. a corpse within reach
    feed = next((a for a in acts if a.rule == "consume_corpse"), None)
    corpse = next((c for c in cs.corpses if grid.close(foe.tile, c) or foe.tile == c), None)
    if feed is not None and corpse is not None:
        threatened = any(grid.close(f.tile, foe.tile) for f, _ in pool)
        if foe.wounds > 0 or not threatened:
            return Plan("consume", feed.actions, feed, tile=corpse)
    # 4. attacks
    best = _best_attack(gm, cs, foe, m, acts, pool) if may_attack else None
    if best is not None and best.target is not None and left > best.cost:
        # a feeble blow in reach, a much better one a few steps away: close in first
        ideal = max((_worth(a, best.target) for a in m.actions if a.rule not in _NOT_ATTACKS), default=0.0)
        if best.score * 2 < ideal:
            closer = _approach(gm, cs, foe, m, pool, left)
            if closer is not None:
                return closer
    if best is not None:
        step_back = _step_back(gm, cs, foe, m, best, left)
        if step_back is not None:
            return step_back
        aim = next((a for a in acts if a.rule == "take_aim"), None)
        if (
            aim is not None
            and not foe.aimed
            and best.action is not None
            and reach_of(best.action) > 1
            and left >= aim.actions + best.cost
        ):
            return Plan("aim", aim.actions, aim)
        return best
    # 5. reload
    loader = next((a for a in m.actions if a.reload_actions), None)
    if loader is not None and not foe.loaded and loader.reload_actions <= left:
        return Plan("reload", loader.reload_actions, loader)
    # 6. close in
    approach = _approach(gm, cs, foe, m, pool, left)
    if approach is not None:
        return approach
    # 7. raise a shield, roll aside
    for a in acts:
        if (a.shield_tokens or a.dodge_tokens) and a.notation is None:
            if a.rule == "shield_breaks_when_used" and foe.shield_gone:
                continue
            if a.shield_tokens and foe.shield >= core.MAX_SHIELD and not a.dodge_tokens:
                continue
            return Plan("guard", a.actions, a)
    return None


def _best_attack(
    gm: GM, cs: CombatState, foe: Foe, m: Monster, acts: list[MonsterAction], pool: list[tuple[Fighter, Member]]
) -> Plan | None:
    options: list[tuple[float, int, Plan]] = []
    for i, a in enumerate(acts):
        if a.rule in _NOT_ATTACKS or (a.notation is None and a.rule not in ("no_defense", "ram")):
            continue
        if a.reload_actions and not foe.loaded:
            continue
        if _area(a):
            hit = [f for f, _ in pool if _in_area(a, foe.tile, f.tile)]
            if hit:
                worth = sum(_worth(a, f) for f in hit)
                options.append((worth, -i, Plan("attack", a.actions, a, hit[0], score=worth)))
            continue
        if a.rule == "grab" and foe.grabbing is not None:
            continue
        follow_up = 0.0
        if a.rule == "grab":  # a grab is worth the meal that follows
            meals = [attack_of(x) for x in m.actions if x.rule == "eat"]
            follow_up = max((0.6 * x.damage for x in meals if x is not None), default=0.0)
        if a.rule == "ram":
            ram = _ram_plan(gm, cs, foe, a, pool)
            if ram is not None:
                options.append((ram.score, -i, ram))
            continue
        reach = reach_of(a)
        in_reach = [(f, w) for f, w in pool if grid.in_reach(foe.tile, f.tile, reach, diagonals=a.diagonal)]
        if a.rule == "lunge":
            in_reach = [(f, w) for f, w in in_reach if grid.close(foe.tile, f.tile) or _landing(cs, foe, f)]
        if not in_reach:
            continue
        victim, _ = _weakest(gm, in_reach, foe.tile)
        kind = "lunge" if a.rule == "lunge" and not grid.close(foe.tile, victim.tile) else "attack"
        worth = _worth(a, victim) + follow_up
        options.append((worth, -i, Plan(kind, a.actions, a, victim, score=worth)))
    if not options:
        return None
    return max(options, key=lambda o: (o[0], o[1]))[2]


def _step_back(gm: GM, cs: CombatState, foe: Foe, m: Monster, best: Plan, left: int) -> Plan | None:
    """A ranged enemy next to an adventurer steps away before it shoots, if it has the actions for both."""
    a = best.action
    if a is None or best.target is None or reach_of(a) <= 1 or _area(a) or best.kind != "attack":
        return None
    fighters = [f for f, _ in core.standing(gm, cs)]
    if not any(grid.close(f.tile, foe.tile) for f in fighters) or left < best.cost + _move_cost(m):
        return None
    if any(reach_of(x) <= 1 and x.notation for x in m.actions if x.rule not in _NOT_ATTACKS):
        return None  # it has a melee attack: it fights where it stands
    spots = [
        t
        for t in grid.ordered(moves(gm, cs, foe))
        if not any(grid.close(f.tile, t) for f in fighters) and grid.in_reach(t, best.target.tile, reach_of(a))
    ]
    if not spots:
        return None
    return Plan("move", _move_cost(m), tile=min(spots, key=lambda t: grid.distance(t, foe.tile)))


def _approach(
    gm: GM, cs: CombatState, foe: Foe, m: Monster, pool: list[tuple[Fighter, Member]], left: int
) -> Plan | None:
    cost = _move_cost(m)
    if cost > left:
        return None
    attacks = [a for a in m.actions if a.rule not in _NOT_ATTACKS and (a.notation or a.rule == "no_defense")]
    if not attacks:
        return None
    main = max(attacks, key=lambda a: (_worth(a), -m.actions.index(a)))
    reach = 1 if main.rule == "lunge" else reach_of(main)
    soon = [(f, w) for f, w in pool if grid.distance(foe.tile, f.tile) <= m.movement + reach + 1]
    if soon:
        victim, _ = _weakest(gm, soon, foe.tile)
    else:
        order = {f.id: i for i, (f, _) in enumerate(pool)}
        victim = min(
            pool, key=lambda fm: (grid.distance(foe.tile, fm[0].tile), core.dice_left(fm[1]), order[fm[0].id])
        )[0]
    ranged = reach > 1
    fighters = [f for f, _ in core.standing(gm, cs)]

    def good(t: Tile) -> bool:
        if not grid.in_reach(t, victim.tile, reach, diagonals=main.diagonal):
            return False
        return not ranged or not any(grid.close(f.tile, t) for f in fighters)

    here = foe.tile
    if good(here):
        return None
    options = moves(gm, cs, foe)
    if not options:
        return None

    def gap(t: Tile) -> int:
        return max(0, grid.distance(t, victim.tile) - reach) + (1 if ranged and not good(t) else 0)

    best = min(grid.ordered(options), key=lambda t: (gap(t), options[t]))
    if gap(best) >= gap(here):
        return None
    return Plan("move", cost, tile=best)


def _ram_plan(gm: GM, cs: CombatState, foe: Foe, a: MonsterAction, pool: list[tuple[Fighter, Member]]) -> Plan | None:
    """Ram: an adventurer in a straight line within its reach, nothing else in the way."""
    length = a.move_tiles or 1
    occ = grid.occupants(cs)
    for f, _ in sorted(pool, key=lambda fm: grid.distance(foe.tile, fm[0].tile)):
        dx, dy = f.x - foe.x, f.y - foe.y
        if (dx != 0 and dy != 0) or grid.distance(foe.tile, f.tile) > length + 1:
            continue
        step = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
        t = foe.tile
        clear = True
        while True:
            t = (t[0] + step[0], t[1] + step[1])
            if t == f.tile:
                break
            if t not in set(cs.tiles) or occ.get(t):
                clear = False
                break
        if clear:
            return Plan("ram", a.actions, a, f, score=1.0)
    return None


# --- doing it ---------------------------------------------------------------------------------------------------


def _execute(gm: GM, cs: CombatState, foe: Foe, m: Monster, plan: Plan) -> None:
    a = plan.action
    if plan.kind == "move" and plan.tile is not None:
        if _blocked_by_an_adventurer(gm, cs, foe):
            return
        gm.emit("foe_move", f"{core.label(foe)} moves.", foe=foe.id, frm=list(foe.tile), to=list(plan.tile))
        foe.x, foe.y = plan.tile
        if foe.tile in cs.traps:
            _sprung(gm, cs, foe)
    elif plan.kind == "heal" and a is not None:
        healed = foe.wounds if a.value == "all" else min(foe.wounds, int(a.value or 0))
        foe.wounds -= healed
        gm.emit("foe_heal", f"{core.label(foe)} uses {a.name}: heals {healed} wound(s).", foe=foe.id, wounds=foe.wounds)
    elif plan.kind == "consume" and a is not None and plan.tile is not None:
        _consume(gm, cs, foe, a, plan.tile)
    elif plan.kind == "aim" and a is not None:
        foe.aimed = True
        gm.emit("foe_aim", f"{core.label(foe)} takes aim.", foe=foe.id)
    elif plan.kind == "reload" and a is not None:
        foe.loaded = True
        gm.emit("foe_reload", f"{core.label(foe)} reloads its {a.name}.", foe=foe.id)
    elif plan.kind == "guard" and a is not None:
        _guard(gm, cs, foe, m, a)
    elif plan.kind == "ram" and a is not None and plan.target is not None:
        _ram(gm, cs, foe, a, plan.target)
    elif plan.kind in ("attack", "lunge") and a is not None:
        if plan.kind == "lunge" and plan.target is not None:
            spot = _landing(cs, foe, plan.target)
            if spot is not None:
                gm.emit("foe_move", f"{core.label(foe)} lunges.", foe=foe.id, frm=list(foe.tile), to=list(spot))
                foe.x, foe.y = spot
        use(gm, cs, foe, m, a, plan.target)


def _sprung(gm: GM, cs: CombatState, foe: Foe) -> None:
    """A trap: "Stepping on a trap causes 4 wounds and immobilizes the target." """
    cs.traps.remove(foe.tile)
    gm.emit("trap_sprung", f"{core.label(foe)} steps on a trap!", foe=foe.id)
    hurt_foe(gm, cs, foe, 4, "a trap", hit=False)
    if foe.active:
        core.put(cs, foe, "Trapped")


def _blocked_by_an_adventurer(gm: GM, cs: CombatState, foe: Foe) -> bool:
    """Going somewhere? (Hoodlum): "During the enemy actions you may block an enemy from moving, add a stun token
    to yourself.  The enemy will still spend an action."  Asked of each hoodlum Close to it who can act."""
    for f, who in core.able(gm, cs):
        if "going somewhere?" not in (n.lower() for n in who.adv.manoeuvres) or not grid.close(f.tile, foe.tile):
            continue
        options = ["block it", "let it go"] if f.stun == 0 else ["let it go", "block it"]
        pick = gm.decider.choose(gm, who, f"Going somewhere? {core.label(foe)} is about to move: block it "
                                 f"(a stun token on {who.name})?", options)  # fmt: skip
        if pick == "block it":
            gm.emit("blocked", f"{who.name} steps in the way: {core.label(foe)} goes nowhere.", who=who.id,
                    foe=foe.id)  # fmt: skip
            core.add_stun(gm, cs, f, 1, "Going somewhere?")
            return True
    return False


def _untrap(gm: GM, cs: CombatState, foe: Foe, m: Monster) -> None:
    """A trap: "Getting free requires 1 turn and a strength test" (its whole turn)."""
    _tear_free(gm, foe, m, "Trapped", "wrenches at the trap", "still caught.")


def _consume(gm: GM, cs: CombatState, foe: Foe, a: MonsterAction, corpse: Tile) -> None:
    cs.corpses.remove(corpse)
    text = f"{core.label(foe)} uses {a.name}"
    if a.text and "heal all wounds" in a.text.lower():
        foe.wounds = 0
    if a.becomes:
        new = core.sheet(gm, a.becomes)
        text += f" and becomes a {new.name}"
        foe.monster = new.name
        foe.ap = new.armor
        foe.wounds = min(foe.wounds, new.wounds)
    gm.emit("foe_consume", text + ".", foe=foe.id, monster=foe.monster)


def _guard(gm: GM, cs: CombatState, foe: Foe, m: Monster, a: MonsterAction) -> None:
    foe.shield = min(core.MAX_SHIELD, foe.shield + a.shield_tokens)
    foe.dodge += a.dodge_tokens
    if a.rule == "phase_out":
        foe.incorporeal_round = cs.round
    gm.emit("foe_guard", f"{core.label(foe)} uses {a.name}.", foe=foe.id, shield=foe.shield, dodge=foe.dodge)
    if a.move_tiles:
        pool = targets(gm, cs)
        options = moves(gm, cs, foe, a.move_tiles)
        if pool and options:
            victim, _ = _weakest(gm, pool, foe.tile)
            spot = min(grid.ordered(options), key=lambda t: grid.distance(t, victim.tile))
            if grid.distance(spot, victim.tile) < grid.distance(foe.tile, victim.tile):
                foe.x, foe.y = spot


def use(gm: GM, cs: CombatState, foe: Foe, m: Monster, a: MonsterAction, target: Fighter | None) -> None:
    """An attack (or effect) of the sheet, on its target or its area."""
    gm.emit("foe_action", f"{core.label(foe)} uses {a.name}.", foe=foe.id, action=a.name)
    atk = attack_of(a)
    if a.reload_actions:
        foe.loaded = False
    if a.rule == "no_defense":
        for f, who in core.standing(gm, cs):
            if _in_area(a, foe.tile, f.tile) and a.on_hit is not None:
                core.apply_effect(gm, cs, f, who, a.on_hit, f"{foe.monster}'s {a.name}")
        foe.aimed = False
        return
    if atk is None:
        return
    if _area(a):
        for f, who in core.standing(gm, cs):
            if _in_area(a, foe.tile, f.tile) and foe.active:
                strike(gm, cs, foe, m, a.name, atk, f, who, action=a, area=True)
        if a.friendly_fire:
            for other in cs.active_foes():
                if other is not foe and _in_area(a, foe.tile, other.tile):
                    hurt_foe(gm, cs, other, atk.damage, f"{foe.monster}'s {a.name}", effects=atk.effects)
        if a.rule == "gaze_stun_close":
            for f, _ in core.standing(gm, cs):
                if grid.close(f.tile, foe.tile):
                    core.add_stun(gm, cs, f, 1, f"{foe.monster}'s {a.name}")
    elif target is not None:
        victim = core.member(gm, target.id)
        if victim is not None:
            strike(gm, cs, foe, m, a.name, atk, target, victim, action=a)
    foe.aimed = False


def pustules(gm: GM, cs: CombatState, foe: Foe) -> None:
    """Acid pustules: every time it takes a wound it attacks everyone Close with the rule's notation."""
    m = core.sheet(gm, foe.monster)
    rule = core.special(m, "acid_pustules")
    if rule is None or rule.notation is None:
        return
    atk = parse_attack(rule.notation)
    for f, who in core.standing(gm, cs):
        if grid.close(f.tile, foe.tile):
            strike(gm, cs, foe, m, "acid pustules", atk, f, who, area=True)


def jump(gm: GM, cs: CombatState, foe: Foe) -> None:
    """Jumpy: hit, it moves at once — away from the adventurers."""
    fighters = [f.tile for f, _ in core.standing(gm, cs)]
    options = moves(gm, cs, foe)
    if not fighters or not options:
        return

    def room(t: Tile) -> int:
        return min(grid.distance(t, f) for f in fighters)

    spot = max(grid.ordered(options), key=room)
    if room(spot) > room(foe.tile):
        gm.emit("foe_move", f"{core.label(foe)} jumps away.", foe=foe.id, frm=list(foe.tile), to=list(spot))
        foe.x, foe.y = spot


# --- an enemy attack, defended by the adventurer -----------------------------------------------------------------


def _aegis(gm: GM, cs: CombatState, f: Fighter, who: Member, atk: Attack) -> tuple[Fighter, Member]:
    """Aegis: an ally next to the target (diagonals too) with a shield token may take the attack in its place."""
    best = max(who.adv.character.available(a, in_combat=True) for a in atk.attributes)
    for g, ally in core.able(gm, cs):
        if g is f or g.shield < 1 or g.stun or "aegis" not in {x.lower() for x in ally.adv.manoeuvres}:
            continue
        if not grid.in_reach(g.tile, f.tile, 1, diagonals=True):
            continue
        if max(ally.adv.character.available(a, in_combat=True) for a in atk.attributes) <= best:
            continue
        g.shield -= 1
        g.x, g.y, f.x, f.y = f.x, f.y, g.x, g.y
        gm.emit("aegis", f"{ally.name} steps in front of {who.name} (Aegis).", who=ally.id, ally=who.id)
        return g, ally
    return f, who


def strike(
    gm: GM,
    cs: CombatState,
    foe: Foe,
    m: Monster,
    name: str,
    atk: Attack,
    f: Fighter,
    who: Member,
    *,
    action: MonsterAction | None = None,
    area: bool = False,
) -> bool:
    """An enemy attack on one adventurer: the defence test, tokens, damage and the attack's effects.

    Returns True on a hit."""
    if not area:
        f, who = _aegis(gm, cs, f, who, atk)
    ch = who.adv.character
    if len(atk.attributes) > 1:
        pick = gm.decider.choose(gm, who, f"defend against {name} with", [a.value for a in atk.attributes])
        attr = Attr.parse(pick)
    else:
        attr = atk.attributes[0]
    adv = 1 if atk.modifier is Modifier.ADVANTAGE else 0
    dis = 1 if atk.modifier is Modifier.DISADVANTAGE else 0
    if foe.tile in cs.night:
        adv += 1  # Black night: it "can't see" whom it strikes at (RULINGS R197)
    if _warded(gm, who.blind):  # (the same "until this turn" reckoning) a blind defender: R206
        dis += 1
    if attr is Attr.INT and len(atk.attributes) == 1 and _warded(gm, who.warded):
        gm.emit("warded", f"The arcane seal turns {foe.monster}'s {name} from {who.name}.", who=who.id, foe=foe.id)
        return False  # Arcane Seal: a mind-attack is a spell (RULINGS R197)
    if foe.aimed:
        dis += 1  # Take aim: "the next attack to have disadvantage to defend"
    if f.reckless:
        dis += 1  # Reckless attack: "Your next defense will have disadvantage."
        f.reckless = False
    if not ch.can_act:
        # mortally wounded or collapsed: no defence — the blow lands
        gm.emit("hit", f"{foe.monster}'s {name} hits the helpless {who.name}.", who=who.id, foe=foe.id, critical=False)
        _land(gm, cs, foe, m, name, atk, f, who, action, crit=False)
        return True
    ignore_shields = (action is not None and action.ignore_shields) or "immaterial" in core.rules_of(m)
    tokens = f.dodge + (0 if ignore_shields else f.shield)
    turtle = f.turtle_round == cs.round
    helps = bool(tokens or adv or turtle)
    if ch.available(attr, in_combat=True) <= 0 and _takes_the_hit(gm, who, f"{foe.monster}'s {name}", attr, helps):
        text = f"{who.name} does not roll against {foe.monster}'s {name}: it hits."
        gm.emit("hit", text, who=who.id, foe=foe.id, critical=False, declined=True)
        _land(gm, cs, foe, m, name, atk, f, who, action, crit=False)
        return True
    player = gm.decider
    if tokens:
        gm.decider = _AsNeeded(player)  # "spend each token, one by one as needed"
    try:
        roll = gm.test(
            who,
            attr,
            f"defending against {foe.monster}'s {name}",
            in_combat=True,
            advantage=adv + tokens,
            disadvantage=dis,
            check=turtle or DEFENCE_IS_A_CHECK,  # Turtle: "for this turn you can't receive fatigue for defending"
        )
    finally:
        gm.decider = player
    spent_dodge, spent_shield = _spend(f, roll, tokens, adv, dis, ignore_shields)
    if spent_dodge or spent_shield:
        gm.emit(
            "tokens",
            f"{who.name} spends {spent_dodge} dodge and {spent_shield} shield token(s).",
            who=who.id,
            dodge=spent_dodge,
            shield=spent_shield,
        )
    v = roll.verdict
    melee = action is None or reach_of(action) <= 1
    if spent_shield:
        _shield_used(gm, cs, f, who, foe, blocked=v.success and melee)
    _fearful(gm, cs, f, who, foe)
    if v.success:
        gm.emit("blocked", f"{who.name} avoids {foe.monster}'s {name}.", who=who.id, foe=foe.id)
        return False
    crit = v.critical_failure and gm.content.bestiary.enemy_rules.crit_on_defender_crit_fail
    gm.emit(
        "hit",
        f"{foe.monster}'s {name} hits {who.name}" + (" critically" if crit else "") + ".",
        who=who.id,
        foe=foe.id,
        critical=crit,
    )
    _land(gm, cs, foe, m, name, atk, f, who, action, crit=crit)
    return True


#: The choice offered when an adventurer has no dice left to defend with (the zero-dice roll is 2 dice, keep
#: the lowest: a 1 in 4 chance to avoid the blow, more than even odds of a fatigue point that now turns into a
#: wound, and a 1 on either die makes the hit critical).
TAKE_THE_HIT = "take the hit"
ROLL_ANYWAY = "roll anyway"


def _takes_the_hit(gm: GM, who: Member, what: str, attr: Attr, rolling_helps: bool) -> bool:
    """The book: "Players may always choose to not roll any dice to avoid fatigue; this will cause the enemy
    to automatically hit."  Asked only with no dice left; the first option is the sensible default (the
    automatic player takes it): take the hit, unless tokens, advantage or Turtle make the roll worth it."""
    options = [ROLL_ANYWAY, TAKE_THE_HIT] if rolling_helps else [TAKE_THE_HIT, ROLL_ANYWAY]
    prompt = f"{who.name} has no {attr.value} dice left to defend against {what}"
    return gm.decider.choose(gm, who, prompt, options) == TAKE_THE_HIT


def _land(
    gm: GM,
    cs: CombatState,
    foe: Foe,
    m: Monster,
    name: str,
    atk: Attack,
    f: Fighter,
    who: Member,
    action: MonsterAction | None,
    *,
    crit: bool,
) -> None:
    """A hit: the wounds (critical ones on a critical failure), then the attack's effects."""
    ch = who.adv.character
    wounds = atk.wounds(crit)
    impact = action is not None and action.impact
    taken = 0
    if wounds > 0:
        taken = core.hurt_member(
            gm, cs, f, who, wounds, f"{foe.monster}'s {name}", effects=atk.effects_on(crit), impact=impact
        )
    if core.member(gm, who.id) is None or ch.condition is Condition.DEAD:
        return
    if action is not None:
        _on_hit(gm, cs, foe, m, action, f, who, taken, crit)
    terror = core.special(m, "terrifying")
    if terror is not None and terror.effect is not None and core.member(gm, who.id) is not None:
        core.apply_effect(gm, cs, f, who, terror.effect, f"{foe.monster} is terrifying", wounded=taken)


class _AsNeeded:
    """The defender's decisions during one defence with tokens: no more rerolls once the roll succeeds.

    The tokens are rerolls the defender pays for; a defence gains nothing from a great success."""

    def __init__(self, inner: Decider) -> None:
        self.inner = inner

    def reroll(self, gm: GM, member: Member, test: TestRoll) -> int | None:
        if test.side_to_act is Side.PLAYER and evaluate(test.spec, tuple(test.main), test.helper).success:
            return None
        return self.inner.reroll(gm, member, test)

    def wound(self, gm: GM, member: Member, options: list[tuple[Attr, bool]]) -> tuple[Attr, bool]:
        return self.inner.wound(gm, member, options)

    def armour(self, gm: GM, member: Member, parts: list[ArmorPart], wounds: int) -> ArmorPart | None:
        return self.inner.armour(gm, member, parts, wounds)

    def choose(self, gm: GM, member: Member | None, prompt: str, options: list[str]) -> str:
        return self.inner.choose(gm, member, prompt, options)


def _spend(f: Fighter, test: TestRoll, tokens: int, adv: int, dis: int, ignore_shields: bool) -> tuple[int, int]:
    """Tokens the defender used: one for each disadvantage it cancelled and each reroll beyond proficiency."""
    if tokens <= 0:
        return 0, 0
    spec = test.spec
    free = (0 if "angry" in spec.afflictions else spec.proficiency) + max(0, adv - dis)
    used = sum(1 for r in test.history if r.side is Side.PLAYER)
    cancelled = min(tokens, max(0, dis - adv))
    spent = min(tokens, cancelled + max(0, used - free))
    dodge = min(f.dodge, spent)
    shield = 0 if ignore_shields else min(f.shield, spent - dodge)
    f.dodge -= dodge
    f.shield -= shield
    return dodge, shield


def _shield_used(gm: GM, cs: CombatState, f: Fighter, who: Member, foe: Foe, *, blocked: bool) -> None:
    """A shield whose tokens were used: it may break; spikes and Payback answer a blocked melee attack."""
    held = shield_of(gm, who)
    if blocked and "payback" in {x.lower() for x in who.adv.manoeuvres} and foe.active:
        core.add_stun(gm, cs, foe, 1, f"{who.name}'s payback")
    if held is None:
        return
    item, entry = held
    if blocked and entry.spikes_wound and foe.active:
        hurt_foe(gm, cs, foe, entry.spikes_wound, f"{who.name}'s {entry.name}", hit=False)
    if entry.break_risk:
        faces = roll(gm.rng, entry.break_risk)
        if 1 in faces:
            who.adv.inventory.remove(item)
            f.shield = 0
            gm.emit(
                "shield_breaks",
                f"{who.name}'s {entry.name} breaks ({entry.break_risk}d!: {faces}).",
                who=who.id,
                faces=faces,
            )


def _fearful(gm: GM, cs: CombatState, f: Fighter, who: Member, foe: Foe) -> None:
    """Fearful: attacked, step back one tile; attacked more than once (this round), one stun token."""
    if "fearful" not in who.adv.character.traumas:
        return
    if f.attacked_round != cs.round:
        f.attacked_round, f.attacked_count = cs.round, 0
    f.attacked_count += 1
    if f.attacked_count == 2:
        core.add_stun(gm, cs, f, 1, "fearful")
    occ = grid.occupants(cs)
    back = [
        t
        for t in grid.around(f.tile)
        if t in set(cs.tiles) and not occ.get(t) and grid.distance(t, foe.tile) > grid.distance(f.tile, foe.tile)
    ]
    if back and f.grabbed_by is None and f.hooked_by is None and not f.bound:
        f.x, f.y = grid.ordered(back)[0]
        gm.emit("fearful", f"{who.name} backs away in fear.", who=who.id)


def _on_hit(
    gm: GM, cs: CombatState, foe: Foe, m: Monster, a: MonsterAction, f: Fighter, who: Member, taken: int, crit: bool
) -> None:
    reason = f"{foe.monster}'s {a.name}"
    if a.stun:
        core.add_stun(gm, cs, f, a.stun, reason)
    if a.on_hit is not None and not (a.rule == "attach" and taken == 0):
        core.apply_effect(gm, cs, f, who, a.on_hit, reason, wounded=taken, impact=a.impact)
    if core.member(gm, who.id) is None:
        return
    rule = a.rule
    if rule == "bind":
        f.bound = True
        gm.emit("bound", f"{who.name} is bound: no moving until a Recover action.", who=who.id)
    elif rule == "hook" and foe.active:
        foe.hooking, f.hooked_by = f.id, foe.id
        gm.emit("hooked", f"{who.name} is hooked.", who=who.id)
    elif rule == "grab" and foe.active:
        foe.grabbing, f.grabbed_by = f.id, foe.id
        gm.emit("grabbed", f"{who.name} is picked up.", who=who.id)
    elif rule == "push":
        push(gm, cs, f, (f.x - foe.x, f.y - foe.y), 1, reason)
    elif rule == "chew_armor":
        _chew(gm, who)
    elif rule == "attach" and taken > 0 and foe.active:
        foe.attached = f.id
        gm.emit("attached", f"The {foe.monster} attaches itself to {who.name}.", who=who.id)
    elif rule == "attach_on_crit" and crit:
        f.worms += 1
        gm.emit("attached", f"A {foe.monster} burrows into {who.name}.", who=who.id)
    elif rule == "heal_on_hit" and foe.wounds:
        healed = foe.wounds if a.value == "all" else min(foe.wounds, int(a.value or 0))
        foe.wounds -= healed
        gm.emit("foe_heal", f"{core.label(foe)} heals {healed} wound(s).", foe=foe.id)


def _chew(gm: GM, who: Member) -> None:
    """Chew Armor: "Always destroys 1 armor point" of the target's armour (the piece with most points)."""
    parts = armour_parts(gm, who)
    if not parts:
        return
    part = max(parts, key=lambda p: p.ap)
    part.ap -= 1
    store_armour(gm, who, part)
    gm.emit("armour_chewed", f"{who.name}'s {part.name.split('#')[0]} loses 1 armour point.", who=who.id)


def push(gm: GM, cs: CombatState, f: Fighter, direction: tuple[int, int], steps: int, reason: str) -> bool:
    """Push an adventurer ``steps`` tiles along ``direction`` (normalised); returns True if it hit a wall."""
    step = ((direction[0] > 0) - (direction[0] < 0), (direction[1] > 0) - (direction[1] < 0))
    if step == (0, 0) or (step[0] and step[1]):
        step = (step[0], 0) if step[0] else (0, step[1])
    grid_tiles = set(cs.tiles)
    for _ in range(steps):
        nxt = (f.x + step[0], f.y + step[1])
        if nxt not in grid_tiles:
            return True
        if grid.occupants(cs).get(nxt):
            return False
        f.x, f.y = nxt
        who = core.member(gm, f.id)
        gm.emit("pushed", f"{who.name if who else f.id} is pushed ({reason}).", who=f.id, to=list(nxt))
    return False


def _ram(gm: GM, cs: CombatState, foe: Foe, a: MonsterAction, target: Fighter) -> None:
    """Ram: it charges up to its tiles in a straight line, pushing whoever is in the way; a wall hurts."""
    gm.emit("foe_action", f"{core.label(foe)} uses {a.name}.", foe=foe.id, action=a.name)
    step = ((target.x > foe.x) - (target.x < foe.x), (target.y > foe.y) - (target.y < foe.y))
    left = a.move_tiles or 1
    while left > 0:
        nxt = (foe.x + step[0], foe.y + step[1])
        if nxt == target.tile:
            wall = push(gm, cs, target, step, 1, f"{foe.monster}'s {a.name}")
            if target.tile == nxt:  # it did not give way
                if wall and a.on_hit is not None:
                    who = core.member(gm, target.id)
                    if who is not None:
                        core.apply_effect(gm, cs, target, who, a.on_hit, f"{foe.monster}'s {a.name}", impact=a.impact)
                break
        if nxt not in set(cs.tiles) or grid.occupants(cs).get(nxt):
            break
        foe.x, foe.y = nxt
        left -= 1


def wake(gm: GM, foe: Foe) -> None:
    """Nightmare: "The creature will wake up normally if disturbed" (attacked or hurt)."""
    if foe.effects.pop("Nightmare", None) is not None:
        gm.emit("foe_wakes", f"{core.label(foe)} wakes from its nightmare.", foe=foe.id)


def hurt_foe(
    gm: GM,
    cs: CombatState,
    foe: Foe,
    wounds: int,
    reason: str,
    *,
    effects: frozenset[Effect] = frozenset(),
    attacker: Fighter | None = None,
    magic: bool = False,
    fire: bool = False,
    pre: bool = False,
    impact: bool = False,
    ignore_resist: bool = False,
    hit: bool = True,
) -> int:
    """Wounds to an enemy: armour (breaks, never repaired), resistance, its core.special rules; returns wounds dealt."""
    if not foe.active:
        return 0
    if core.lasting(cs, foe, "Arcane prison"):
        gm.emit("immune", f"{core.label(foe)} is locked in the arcane crystal: nothing touches it.", foe=foe.id)
        return 0
    wake(gm, foe)
    m = core.sheet(gm, foe.monster)
    tags = core.rules_of(m)
    if "ethereal" in tags and not magic:
        gm.emit("immune", f"The blow passes through {core.label(foe)}: only magic, prayers or banishing hurt it.")
        return 0
    if "only_fire_or_spells" in tags and not (magic or fire):
        gm.emit("immune", f"{core.label(foe)} cannot be harmed by regular weapons, only by fire or spells.")
        return 0
    if "immune_pre" in tags and pre:
        gm.emit("immune", f"{core.label(foe)} is immune to PRE attacks.")
        return 0
    parts = [ArmorPart("armour", m.armor, foe.ap)] if m.armor > 0 and foe.ap > 0 else []
    result = reduce_damage(
        gm.rng,
        max(0, wounds),
        effects,
        Defender(parts, resist=m.resist),
        parts[0] if parts else None,
        ignore_resist=ignore_resist,
        impact=impact,
    )
    if parts:
        foe.ap = parts[0].ap
    dealt = result.wounds
    cap = core.special(m, "damage_cap")
    if cap is not None and cap.value is not None:
        dealt = min(dealt, cap.value)
    if Effect.NON_LETHAL in effects:
        dealt = min(dealt, max(0, m.wounds - foe.wounds))  # non-lethal: ignore damage that would kill
    foe.wounds += dealt
    if dealt:
        cs.last_blood = cs.round
    text = f"{core.label(foe)} takes {dealt} wound(s) ({reason})"
    if result.armor is not None and result.armor.faces:
        text += f"; armour rolled {list(result.armor.faces)}, blocked {result.armor.blocked}"
    if result.resisted:
        text += f"; resisted {result.resisted}"
    gm.emit(
        "foe_damage",
        text + ".",
        foe=foe.id,
        incoming=wounds,
        dealt=dealt,
        armour=list(result.armor.faces) if result.armor else [],
        resisted=result.resisted,
        wounds=foe.wounds,
        ap=foe.ap,
    )
    if dealt and Effect.BLEEDING in effects and core.living(gm, m) and not foe.bleeding:
        foe.bleeding = True
        gm.emit("foe_bleeding", f"{core.label(foe)} is bleeding.", foe=foe.id)
    if hit and "toxic_spores" in tags:
        for f, _ in core.standing(gm, cs):
            if grid.close(f.tile, foe.tile):
                core.add_stun(gm, cs, f, 1, f"{foe.monster}'s spores")
    if foe.wounds > m.wounds:
        core.kill_foe(gm, cs, foe, attacker, reason)
        return dealt
    if hit and "will_to_live" in tags and dealt > 2:
        foe.shield = min(core.MAX_SHIELD, foe.shield + 1)
        gm.emit("foe_tokens", f"{core.label(foe)} will not die here: +1 shield token.", foe=foe.id)
    if dealt and "acid_pustules" in tags:
        pustules(gm, cs, foe)
    if hit and foe.active and "jumpy" in tags:
        jump(gm, cs, foe)
    return dealt
