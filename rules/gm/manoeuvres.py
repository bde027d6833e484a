"""Manoeuvres: the warriors' and rogues' techniques, a handler per name of the content (issue #12).

Each manoeuvre the adventurers' backgrounds teach (``classes.toml``) is a
:class:`~rules.gm.powers.ManoeuvreHandler` registered here under its name in
lower case: a lister (the actions it offers a fighter now, with why not) and an
applier (what one does).  The combat actions (:mod:`rules.gm.combat_actions`)
list and apply them through :data:`rules.gm.powers.MANOEUVRES`, beside the
spells and prayers; the three reactions (Aegis, Payback, Going somewhere?) are
registered there and played in the enemies' turn.  Adding a manoeuvre is adding
its two functions and one ``register_manoeuvre`` line; ``blacksalt validate``
refuses a manoeuvre of the content with no handler.

This module sits above the combat actions (it uses their attack); importing
:mod:`rules.gm.combat` wires it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.attributes import Attr
from rules.checks import RuleError
from rules.gm import combat_core as core
from rules.gm import combat_grid as grid
from rules.gm.combat_actions import (
    arm_by_key,
    attack,
    defend_now,
    fighter_test,
    move_steps,
    offer,
    target_reason,
    why_stuck,
)
from rules.gm.combat_foes import hurt_foe
from rules.gm.combat_gear import Arm, shield_of
from rules.gm.combat_state import CombatState, Fighter, Foe
from rules.gm.gear import use_up
from rules.gm.powers import ManoeuvreHandler, Moment, register_manoeuvre
from rules.notation import Attack, Modifier, parse_attack

if TYPE_CHECKING:
    from rules.gm.events import Action

#: Enemies that wield a weapon and can be disarmed (the others bite and claw).
ARMED_TAGS = {"human", "goblin"}


def _against_close(t: Moment) -> list[Action]:
    """Bash, Disarm: an attack of the manoeuvre's own notation on an enemy Close."""
    assert t.mv.attack is not None
    out = []
    for foe in t.cs.active_foes():
        reason = t.used or (None if grid.close(t.f.tile, foe.tile) else "The target must be Close.")
        if t.key == "disarm" and reason is None and not set(core.sheet(t.gm, foe.monster).tags) & ARMED_TAGS:
            reason = "It wields no weapon."
        out.append(offer(f"manoeuvre:{t.f.id}:{t.key}:{foe.id}", "manoeuvre",
                         f"{t.who.name}: {t.mv.name} {core.label(foe)} ({t.mv.attack})", t.f, t.mv.actions,
                         target=foe.id, reason=reason, params=(("name", t.key),), rule=t.rule))  # fmt: skip
    return out


def _bash_or_disarm(t: Moment, action: Action, foe: Foe | None) -> None:
    if foe is None or not t.mv.attack:
        return
    arm = Arm(key=t.mv.name, name=t.mv.name, attack=parse_attack(t.mv.attack), reach=1)
    if attack(t.gm, t.cs, t.f, t.who, arm, foe, mode=t.key) and foe.active:
        if t.key == "bash":
            core.add_stun(t.gm, t.cs, foe, 1, f"{t.who.name}'s bash")
        else:
            foe.disarmed = True
            t.gm.emit("foe_disarmed", f"{core.label(foe)} drops its weapon.", foe=foe.id)


register_manoeuvre(ManoeuvreHandler("bash", _against_close, _bash_or_disarm))
register_manoeuvre(ManoeuvreHandler("disarm", _against_close, _bash_or_disarm))


def _with_a_weapon(t: Moment) -> list[Action]:
    """Reckless attack, Clean kill, Incapacitating strike, Glorious finish, Outsmart: an attack with one of the
    fighter's weapons, its way."""
    out = []
    for arm in t.arms:
        for foe in t.cs.active_foes():
            reason = t.used or target_reason(t.gm, t.cs, t.f, t.who, arm, foe)
            out.append(offer(f"manoeuvre:{t.f.id}:{t.key}:{arm.key}:{foe.id}", "manoeuvre",
                             f"{t.who.name}: {t.mv.name} — {core.label(foe)} with the {arm.name}", t.f, t.mv.actions,
                             target=foe.id, reason=reason, params=(("name", t.key), ("arm", arm.key)),
                             rule=t.rule))  # fmt: skip
    return out


def _strike(t: Moment, action: Action, foe: Foe | None) -> None:
    """The attack's mode carries the manoeuvre (:func:`rules.gm.combat_actions.attack` reads it)."""
    if foe is not None:
        attack(t.gm, t.cs, t.f, t.who, arm_by_key(t.gm, t.who, t.f, str(action.param("arm"))), foe, mode=t.key)


def _outsmart(t: Moment, action: Action, foe: Foe | None) -> None:
    """Outsmart: the attack tests PRE or INT, whichever has more dice."""
    if foe is None:
        return
    ch = t.who.adv.character
    attr = max((Attr.PRE, Attr.INT), key=lambda a: ch.available(a, in_combat=True))
    attack(t.gm, t.cs, t.f, t.who, arm_by_key(t.gm, t.who, t.f, str(action.param("arm"))), foe, mode=t.key,
           attr_override=attr)  # fmt: skip


for _key in ("reckless attack", "clean kill", "incapacitating strike", "glorious finish"):
    register_manoeuvre(ManoeuvreHandler(_key, _with_a_weapon, _strike))
register_manoeuvre(ManoeuvreHandler("outsmart", _with_a_weapon, _outsmart))


def _knife_actions(t: Moment) -> list[Action]:
    out = []
    daggers = [a for a in t.arms if a.name.lower().startswith("dagger") and a.melee]
    for arm in daggers:
        for foe in t.cs.active_foes():
            reason = target_reason(t.gm, t.cs, t.f, t.who, arm, foe)
            if reason is None and t.f.knife_round == t.cs.round:
                reason = "Once per turn: already used."
            if reason is None and not core.engaged(t.gm, t.cs, foe, t.f):
                reason = "The enemy is not flanked."
            if reason is None and not t.f.turn_started:
                reason = "Only when attacking: attack the flanked enemy first."
            out.append(offer(f"manoeuvre:{t.f.id}:{t.key}:{arm.key}:{foe.id}", "manoeuvre",
                             f"{t.who.name}: Knife in the back — {core.label(foe)} (free attack, extra die)",
                             t.f, 0, target=foe.id, reason=reason, params=(("name", t.key), ("arm", arm.key)),
                             rule=t.rule))  # fmt: skip
    return out


def _knife(t: Moment, action: Action, foe: Foe | None) -> None:
    if foe is None:
        return
    t.f.knife_round = t.cs.round
    attack(t.gm, t.cs, t.f, t.who, arm_by_key(t.gm, t.who, t.f, str(action.param("arm"))), foe, mode=t.key,
           extra_dice=1)  # fmt: skip


register_manoeuvre(ManoeuvreHandler("knife in the back", _knife_actions, _knife))


def _wing_it_actions(t: Moment) -> list[Action]:
    out = []
    melee = [a for a in t.arms if a.melee and not a.needs_hands]
    for arm in melee:
        for foe in t.cs.active_foes():
            reach = t.mv.range_tiles or 3
            reason = None if grid.distance(t.f.tile, foe.tile) <= reach else "Out of reach (3 tiles)."
            out.append(offer(f"manoeuvre:{t.f.id}:{t.key}:{arm.key}:{foe.id}", "manoeuvre",
                             f"{t.who.name}: Wing it — throw the {arm.name} at {core.label(foe)} (-DEX)", t.f,
                             t.mv.actions, target=foe.id, reason=reason, params=(("name", t.key), ("arm", arm.key)),
                             rule=t.rule))  # fmt: skip
    return out


def _wing_it(t: Moment, action: Action, foe: Foe | None) -> None:
    if foe is None:
        return
    arm = arm_by_key(t.gm, t.who, t.f, str(action.param("arm")))
    base = arm.attack
    thrown = Attack((Attr.DEX,), Modifier.DISADVANTAGE, base.damage, base.effects, base.crit_damage,
                    base.crit_effects, source=f"-DEX {base.damage}")  # fmt: skip
    attack(t.gm, t.cs, t.f, t.who, arm, foe, mode=t.key, attack_with=thrown)


register_manoeuvre(ManoeuvreHandler("wing it", _wing_it_actions, _wing_it))


def _roar_actions(t: Moment) -> list[Action]:
    return [offer(f"manoeuvre:{t.f.id}:{t.key}", "manoeuvre", f"{t.who.name}: Roar (PRE, all living Nearby)",
                  t.f, t.mv.actions, reason=t.used, params=(("name", t.key),), rule=t.rule)]  # fmt: skip


def _roar(t: Moment, action: Action, foe: Foe | None) -> None:
    gm, cs, f, who, mv = t.gm, t.cs, t.f, t.who, t.mv
    gm.emit("roar", f"{who.name} roars!", who=who.id)
    for e in list(cs.active_foes()):
        m = core.sheet(gm, e.monster)
        if grid.distance(f.tile, e.tile) > grid.NEARBY:
            continue
        if mv.target_requires_tag and not set(m.tags) & set(mv.target_requires_tag):
            continue
        if "immune_pre" in core.rules_of(m):
            continue
        if fighter_test(gm, cs, f, who, Attr.PRE, f"roaring at {core.label(e)}").verdict.success:
            core.add_stun(gm, cs, e, 1, f"{who.name}'s roar")


register_manoeuvre(ManoeuvreHandler("roar", _roar_actions, _roar))


def _charge_actions(t: Moment) -> list[Action]:
    out = []
    for foe in t.cs.active_foes():
        tags = set(core.sheet(t.gm, foe.monster).tags)
        reason = why_stuck(t.f) or (None if grid.close(t.f.tile, foe.tile) else "The target must be Close.")
        if reason is None and tags & set(t.mv.target_excludes_tag):
            reason = "Does not work on ghosts."
        out.append(offer(f"manoeuvre:{t.f.id}:{t.key}:{foe.id}", "manoeuvre", f"{t.who.name}: Charge {core.label(foe)}",
                         t.f, t.mv.actions, target=foe.id, reason=reason, params=(("name", t.key),),
                         rule=t.rule))  # fmt: skip
    return out


def _charge(t: Moment, action: Action, foe: Foe | None) -> None:
    """Charge: drive the target in a straight line at move speed; a wall: 1 wound and a stun token."""
    if foe is None:
        return
    gm, cs, f, who = t.gm, t.cs, t.f, t.who
    steps, _ = move_steps(gm, who)
    step = (foe.x - f.x, foe.y - f.y)
    gm.emit("charge", f"{who.name} charges {core.label(foe)}!", who=who.id, foe=foe.id)
    tiles = set(cs.tiles)
    for _ in range(steps):
        nxt = (foe.x + step[0], foe.y + step[1])
        if nxt not in tiles:
            hurt_foe(gm, cs, foe, 1, "slammed into the wall", attacker=f, impact=True)
            if foe.active:
                core.add_stun(gm, cs, foe, 1, "the charge")
            break
        if grid.occupants(cs).get(nxt):
            break
        f.x, f.y = foe.x, foe.y
        foe.x, foe.y = nxt
    if f.shield and not who.adv.character.has_skill("Shield Master"):
        f.shield = 0


register_manoeuvre(ManoeuvreHandler("charge", _charge_actions, _charge))


def _turtle_actions(t: Moment) -> list[Action]:
    reason = None if shield_of(t.gm, t.who) is not None else "Needs a shield."
    label = f"{t.who.name}: Turtle (defend; no fatigue defending this turn)"
    return [offer(f"manoeuvre:{t.f.id}:{t.key}", "manoeuvre", label, t.f, t.mv.actions, reason=reason,
                  params=(("name", t.key),), rule=t.rule)]  # fmt: skip


def _turtle(t: Moment, action: Action, foe: Foe | None) -> None:
    defend_now(t.gm, t.f, t.who)
    t.f.turtle_round = core.next_enemy_round(t.cs)


register_manoeuvre(ManoeuvreHandler("turtle", _turtle_actions, _turtle))


def _quick_thinking_actions(t: Moment) -> list[Action]:
    return [offer(f"manoeuvre:{t.f.id}:{t.key}:{a}", "manoeuvre", f"{t.who.name}: Quick thinking ({a}: a dodge token)",
                  t.f, t.mv.actions, params=(("name", t.key), ("attr", a)), rule=t.rule)
            for a in t.mv.test or ["PRE", "INT"]]  # fmt: skip


def _quick_thinking(t: Moment, action: Action, foe: Foe | None) -> None:
    roll = fighter_test(t.gm, t.cs, t.f, t.who, Attr.parse(str(action.param("attr"))), "quick thinking")
    if roll.verdict.success:
        t.f.dodge += 1
        t.gm.emit("dodge", f"{t.who.name} sees it coming: {t.f.dodge} dodge token(s).", who=t.who.id, dodge=t.f.dodge)


register_manoeuvre(ManoeuvreHandler("quick thinking", _quick_thinking_actions, _quick_thinking))


def trap_spot(cs: CombatState, f: Fighter, foe: Foe, reach: int) -> tuple[int, int] | None:
    """Where a thrown trap catches ``foe``: the free tile next to it on its way to the thrower (within reach)."""
    taken = {g.tile for g in cs.fighters if not (g.dead or g.fled)} | {e.tile for e in cs.active_foes()}
    taken |= set(cs.traps)
    spots = [t for t in grid.around(foe.tile) if t in set(cs.tiles) and t not in taken
             and grid.distance(f.tile, t) <= reach]  # fmt: skip
    return min(spots, key=lambda t: (grid.distance(t, f.tile), t[1], t[0])) if spots else None


def _trapping_actions(t: Moment) -> list[Action]:
    out = []
    kit = next((i for i in t.who.adv.inventory.items if i.name.lower() == "trapping kit"), None)
    for foe in t.cs.active_foes():
        spot = trap_spot(t.cs, t.f, foe, t.mv.range_tiles or 3)
        reason = "Needs a trapping kit." if kit is None else None
        if reason is None and spot is None:
            reason = "No free tile in its path within 3 tiles."
        out.append(offer(f"manoeuvre:{t.f.id}:{t.key}:{foe.id}", "manoeuvre",
                         f"{t.who.name}: Fast trapping — a trap in the path of {core.label(foe)}", t.f, t.mv.actions,
                         target=foe.id, reason=reason, params=(("name", t.key),), rule=t.rule))  # fmt: skip
    return out


def _fast_trap(t: Moment, action: Action, foe: Foe | None) -> None:
    """Fast trapping: "Quickly arm and throw a trapping kit 3 tiles away" — a trap the next enemy to step on
    takes (4 wounds, held until it frees itself; RULINGS R195).  The kit's usage die is rolled."""
    if foe is None:
        return
    kit = next(i for i in t.who.adv.inventory.items if i.name.lower() == "trapping kit")
    spot = trap_spot(t.cs, t.f, foe, t.mv.range_tiles or 3)
    if spot is None:
        raise RuleError("no free tile in its path")
    t.cs.traps.append(spot)
    t.gm.emit("trap_set", f"{t.who.name} arms a trap and throws it in the path of {core.label(foe)}.", who=t.who.id,
              tile=list(spot))  # fmt: skip
    use_up(t.gm, t.who, kit)


register_manoeuvre(ManoeuvreHandler("fast trapping", _trapping_actions, _fast_trap))


def _tricks_actions(t: Moment) -> list[Action]:
    out = []
    reach = t.mv.range_tiles or 2
    for foe in t.cs.active_foes():
        tags = set(core.sheet(t.gm, foe.monster).tags)
        reason = None if grid.distance(t.f.tile, foe.tile) <= reach else f"Out of reach ({reach} tiles)."
        if reason is None and t.mv.target_requires_tag and not tags & set(t.mv.target_requires_tag):
            reason = "Only works on living enemies."
        out.append(offer(f"manoeuvre:{t.f.id}:{t.key}:{foe.id}", "manoeuvre",
                         f"{t.who.name}: Dirty tricks on {core.label(foe)}", t.f, t.mv.actions, target=foe.id,
                         reason=reason, params=(("name", t.key),), rule=t.rule))  # fmt: skip
    return out


def _dirty_tricks(t: Moment, action: Action, foe: Foe | None) -> None:
    if foe is None:
        return
    foe.tricked_round = t.cs.round + 1  # until the end of the next round
    t.gm.emit("tricked", f"{t.who.name} throws sand in the eyes of {core.label(foe)}: allies attack it with "
              "advantage.", who=t.who.id, foe=foe.id)  # fmt: skip


register_manoeuvre(ManoeuvreHandler("dirty tricks", _tricks_actions, _dirty_tricks))

__all__ = ["ARMED_TAGS", "trap_spot"]
