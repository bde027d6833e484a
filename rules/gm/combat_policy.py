"""The autoplay policy for combat: a sensible player, for ``blacksalt simulate`` and "let the GM decide".

In order: recover when stunned; leave a fight that is lost (half the party
down, dice nearly gone against fresh enemies, or no weapon that can harm any
enemy) through the door, walking towards it if need be; stabilise the dying,
help the collapsed up, pull off what clings; break free of a grab; bandage a
bleeding wound; pick up a dropped weapon; guard when badly hurt; attack the
most hurt enemy in reach with something that can harm it and an attribute that
still has dice; cast a combat spell; dodge when hurt; catch breath when an
attribute has run dry; close in on the enemies; raise the shield; catch
breath; end the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.attributes import ATTRS, Attr
from rules.character import Condition
from rules.gm import combat_core as core
from rules.gm import combat_grid as grid
from rules.gm.combat import CombatState, Fighter, Foe
from rules.gm.combat_gear import Arm, arms_of
from rules.gm.events import Action

if TYPE_CHECKING:
    from rules.gm.engine import GM
    from rules.gm.state import Member


def harms(gm: GM, arm: Arm, foe: Foe) -> bool:
    """``arm`` can wound ``foe`` at all (ethereal, swarms, PRE immunity)."""
    tags = core.rules_of(core.sheet(gm, foe.monster))
    if ("ethereal" in tags or "only_fire_or_spells" in tags) and not arm.spell:
        return False
    return not ("immune_pre" in tags and Attr.PRE in arm.attack.attributes)


def _attr_left(who: Member, arm: Arm) -> int:
    ch = who.adv.character
    return max(ch.available(a, in_combat=True) for a in arm.attack.attributes)


def suggest(gm: GM, actions: list[Action]) -> Action:
    cs = gm.c.combat
    usable = [a for a in actions if a.available]
    if cs is None or not usable:
        return actions[0]
    who_id = usable[0].who
    mine = [a for a in usable if a.who == who_id]
    f = cs.fighter(who_id or "")
    who = core.member(gm, f.id)
    assert who is not None
    ch = who.adv.character

    def first(kind: str, pred: Callable[[Action], bool] | None = None) -> Action | None:
        for a in mine:
            if a.kind == kind and (pred is None or pred(a)):
                return a
        return None

    end = first("end")
    if f.stun:
        return first("recover", lambda a: a.param("what") == "stun") or end or mine[0]
    moves = [a for a in mine if a.kind == "move" and a.param("x") is not None]
    if losing(gm, cs) or not winnable(gm, cs):
        out = first("flee") or _towards(moves, f, [cs.exit] if cs.exit else [])
        if out is not None:
            return out
    for kind in ("stabilise", "help_up", "detach"):
        a = first(kind)
        if a is not None:
            return a
    if f.grabbed_by is not None:
        a = first("break_free")
        if a is not None:
            return a
    if "bleeding" in ch.afflictions:
        a = first("item", lambda x: x.param("item") == "Bandages" and x.target == f.id)
        if a is not None:
            return a
    arms = {arm.key: arm for arm in arms_of(gm, who, f)}
    if not arms:
        a = first("pickup") or first("equip")
        if a is not None:
            return a
    hurt = core.dice_left(who) <= 2
    if hurt and f.shield == 0:
        a = first("defend") or first("manoeuvre", lambda x: x.param("name") == "turtle")
        if a is not None:
            return a
    attack = _best_attack(gm, cs, who, mine, arms)
    if attack is not None:
        return attack
    cast = first("cast")
    if cast is not None:
        return cast
    if hurt and f.actions >= 2:
        a = first("dodge")
        if a is not None:
            return a
    dry = any(ch.attrs[a].available <= 0 and ch.attrs[a].fatigue for a in ATTRS)
    if dry:
        a = first("breath")
        if a is not None:
            return a
    fallen = [g for g, m in core.standing(gm, cs) if m.adv.character.condition is Condition.COLLAPSED]
    if fallen and min(grid.distance(f.tile, g.tile) for g in fallen) > 1:
        step = _towards(moves, f, [g.tile for g in fallen], stop=1)
        if step is not None:
            return step
    targets = [e.tile for e in cs.active_foes() if any(harms(gm, arm, e) for arm in arms.values())]
    step = _towards(moves, f, targets, stop=1)
    if step is not None:
        return step
    if f.shield < 2:
        a = first("defend")
        if a is not None:
            return a
    if any(ch.attrs[a].fatigue for a in ATTRS):
        a = first("breath")
        if a is not None:
            return a
    return end or mine[0]


def _best_attack(gm: GM, cs: CombatState, who: Member, mine: list[Action], arms: dict[str, Arm]) -> Action | None:
    options: list[tuple[tuple[int, int, int], Action]] = []
    for a in mine:
        name = a.param("name")
        if a.kind not in ("attack", "manoeuvre") or not a.target:
            continue
        foe = cs.foe(a.target)
        arm = arms.get(str(a.param("arm"))) if a.param("arm") is not None else None
        if arm is None and not (a.kind == "manoeuvre" and name == "bash"):
            continue
        if arm is not None and (not harms(gm, arm, foe) or _attr_left(who, arm) <= 0):
            continue
        if name == "knife in the back":
            bonus = 2
        elif name in ("reckless attack", "clean kill"):
            bonus = 1
        elif name in ("incapacitating strike", "bash", "wing it", "outsmart", "glorious finish"):
            bonus = -1  # fine manoeuvres, but the plain blow is the better default
        else:
            bonus = 0
        left = core.sheet(gm, foe.monster).wounds - foe.wounds
        options.append(((-left, bonus, -a.cost.silver), a))
    if not options:
        return None
    return max(options, key=lambda o: o[0])[1]


def _towards(moves: list[Action], f: Fighter, goals: list[tuple[int, int]], stop: int = 0) -> Action | None:
    """The move that brings ``f`` nearest to one of ``goals`` (no nearer than ``stop``), if it gets any nearer."""
    if not moves or not goals:
        return None

    def gap(a: Action) -> tuple[int, int]:
        t = (int(a.param("x")), int(a.param("y")))
        return max(stop, min(grid.distance(t, g) for g in goals)), grid.distance(t, f.tile)

    best = min(moves, key=gap)
    here = max(stop, min(grid.distance(f.tile, g) for g in goals))
    return best if gap(best)[0] < here else None


def winnable(gm: GM, cs: CombatState) -> bool:
    """Someone in the party has something that can harm one of the enemies."""
    for f, m in core.able(gm, cs):
        for arm in arms_of(gm, m, f):
            if any(harms(gm, arm, e) for e in cs.active_foes()):
                return True
        book = m.adv.spellbook
        if book is not None and any(s in ("Magic Missile", "Silver cannon") for s in book.memorised):
            return True
    return False


def losing(gm: GM, cs: CombatState) -> bool:
    """The party is losing badly: half of it is down, or its dice are nearly gone while the enemies are fresh."""
    standing = core.standing(gm, cs)
    able = core.able(gm, cs)
    if len(able) * 2 < len(standing) and len(standing) > 1:
        return True
    dice = sum(core.dice_left(m) for _, m in able)
    left = sum(core.sheet(gm, e.monster).wounds - e.wounds + 1 for e in cs.active_foes())
    return dice <= 3 and left > dice
