"""Shared pieces of the combat procedure: who fights, enemy sheets, tokens, and damage both ways.

Damage to adventurers goes through :meth:`GM.harm` (armour, Hardened, placement,
mortal wounds, death); damage to enemies through :func:`hurt_foe` (the book's
"Taking damage": armour roll, then resistance, never below zero; RULINGS R11:
an enemy dies when its wounds exceed its sheet's Wounds), with every special
rule of the bestiary that reacts to a hit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.attributes import ATTRS
from rules.character import Condition
from rules.checks import RuleError
from rules.content.effects import Outcome
from rules.content.schema_bestiary import Monster, MonsterSpecial
from rules.dice import d, roll_risk
from rules.gm import combat_grid as grid
from rules.gm.combat_gear import weapon_entry
from rules.gm.combat_state import COMBAT, CombatState, Dropped, Fighter, Foe
from rules.inventory import HANDS
from rules.notation import Effect

if TYPE_CHECKING:
    from rules.gm.services import GM
    from rules.gm.state import Member

#: "Characters can't have more than 5 shield tokens at any time."
MAX_SHIELD = 5
#: "Each one taking 2 actions" (adventurers); enemies "usually have 2 actions, just like the players".
ACTIONS = 2


# --- enemy sheets -----------------------------------------------------------------------------------------


def sheet(gm: GM, name: str) -> Monster:
    return gm.content.bestiary.monster(name)


def rules_of(m: Monster) -> frozenset[str]:
    return frozenset(s.rule for s in m.specials)


def special(m: Monster, rule: str) -> MonsterSpecial | None:
    return next((s for s in m.specials if s.rule == rule), None)


def label(foe: Foe) -> str:
    return f"{foe.monster} ({foe.id})"


def living(gm: GM, m: Monster) -> bool:
    """Only enemies tagged with living can bleed."""
    return bool(set(m.tags) & set(gm.content.bestiary.enemy_rules.bleed_tags))


# --- adventurers in the fight ---------------------------------------------------------------------------


def member(gm: GM, member_id: str) -> Member | None:
    """The party member (None once dead: the dead leave the party)."""
    for m in gm.c.party:
        if m.id == member_id:
            return m
    return None


def standing(gm: GM, cs: CombatState) -> list[tuple[Fighter, Member]]:
    """Adventurers still in the fight (alive and not fled), able to act or not."""
    out: list[tuple[Fighter, Member]] = []
    for f in cs.fighters:
        if f.fled or f.dead:
            continue
        m = member(gm, f.id)
        if m is not None and m.adv.character.condition is not Condition.DEAD:
            out.append((f, m))
    return out


def settle(gm: GM, cs: CombatState) -> None:
    """Bodies for the dead: whoever died outside a blow (a Plagued fatigue point turned wound, bleeding out)."""
    for f in cs.fighters:
        if f.fled or f.dead:
            continue
        m = member(gm, f.id)
        if m is not None and m.adv.character.condition is Condition.DEAD:
            gm.death(m, "wounds")  # a point placed outside GM.harm killed them: the engine did not hear of it
            m = None
        if m is None:
            fell(gm, cs, f)


def able(gm: GM, cs: CombatState) -> list[tuple[Fighter, Member]]:
    """Adventurers in the fight who can act (not collapsed, not mortally wounded)."""
    return [(f, m) for f, m in standing(gm, cs) if m.adv.character.can_act]


def dice_left(m: Member) -> int:
    ch = m.adv.character
    return sum(max(0, ch.attrs[a].available) for a in ATTRS)


def foe_tiles(cs: CombatState) -> set[tuple[int, int]]:
    return {e.tile for e in cs.active_foes()}


def threat_for_fighters(cs: CombatState) -> set[tuple[int, int]]:
    """Squares adjacent to an enemy (leaving one stops a move)."""
    return {t for e in cs.active_foes() for t in grid.around(e.tile)}


def engaged(gm: GM, cs: CombatState, foe: Foe, besides: Fighter) -> bool:
    """``foe`` is Close to another adventurer who can act (flanked, or engaged in combat with someone else)."""
    return any(f is not besides and grid.close(f.tile, foe.tile) for f, _ in able(gm, cs))


# --- tokens ---------------------------------------------------------------------------------------------


def add_stun(gm: GM, cs: CombatState, target: Fighter | Foe, n: int, reason: str) -> None:
    if n <= 0:
        return
    target.stun += n
    if isinstance(target, Foe):
        gm.emit("stun", f"{label(target)} is stunned ({reason}).", foe=target.id, stun=target.stun)
        if target.hooking is not None:  # R68: one stun token on the Sack Man releases the target
            release(cs, target)
            gm.emit("release", f"{label(target)} lets go.", foe=target.id)
    else:
        who = member(gm, target.id)
        name = who.name if who else target.id
        gm.emit("stun", f"{name} is stunned ({reason}).", who=target.id, stun=target.stun)


def release(cs: CombatState, foe: Foe) -> None:
    """``foe`` lets go of whoever it grabbed, hooked or clung to."""
    for f in cs.fighters:
        if f.grabbed_by == foe.id:
            f.grabbed_by = None
        if f.hooked_by == foe.id:
            f.hooked_by = None
    foe.grabbing = foe.hooking = foe.attached = None


# --- powers lasting on a fighter or an enemy ---------------------------------------------------------------


def next_enemy_round(cs: CombatState) -> int:
    """The round of the enemies' next turn."""
    return cs.round if cs.phase == "fast" else cs.round + 1


def next_turn(cs: CombatState, who: Fighter | Foe) -> int:
    """The round of ``who``'s next turn, or of this one while it is under way (RULINGS R191)."""
    if isinstance(who, Foe):
        return next_enemy_round(cs)
    return cs.round if cs.phase == "fast" or not who.fast else cs.round + 1


def put(cs: CombatState, who: Fighter | Foe, name: str, turns: int | None = None) -> int:
    """``name`` lasts on ``who`` for ``turns`` of its turns (None: the whole fight); returns its last round."""
    until = COMBAT if turns is None else next_turn(cs, who) + max(1, turns) - 1
    who.effects[name] = max(until, who.effects.get(name, 0))
    return until


def lasting(cs: CombatState, who: Fighter | Foe, name: str) -> bool:
    return who.effects.get(name, 0) >= cs.round


def expire(gm: GM, cs: CombatState) -> list[tuple[Fighter | Foe, str]]:
    """Drop the effects whose last round has passed (at a new round); returns what ended, on whom."""
    ended: list[tuple[Fighter | Foe, str]] = []
    everyone: list[Fighter | Foe] = [*cs.fighters, *cs.foes]
    for who in everyone:
        for name, until in list(who.effects.items()):
            if until < cs.round:
                del who.effects[name]
                ended.append((who, name))
                if isinstance(who, Foe):
                    if who.active:
                        gm.emit("effect_ends", f"{name} ends on {label(who)}.", foe=who.id, effect=name)
                    if name == "Phobia":
                        who.fear = ""
                else:
                    m = member(gm, who.id)
                    if m is not None:
                        gm.emit("effect_ends", f"{name} ends on {m.name}.", who=m.id, effect=name)
    return ended


# --- damage to adventurers ------------------------------------------------------------------------------


def hurt_member(
    gm: GM,
    cs: CombatState,
    fighter: Fighter,
    who: Member,
    wounds: int,
    reason: str,
    *,
    effects: frozenset[Effect] = frozenset(),
    attr: str | None = None,
    lethal: bool = True,
    armour: bool = True,
    from_attack: bool = True,
    impact: bool = False,
) -> int:
    """Wounds to an adventurer in the fight; returns the wounds taken."""
    from rules.attributes import Attr

    if lasting(cs, fighter, "Arcane prison"):
        gm.emit("immune", f"{who.name} is locked in the arcane crystal: nothing touches them.", who=who.id)
        return 0
    if lasting(cs, fighter, "Smoke form"):
        gm.emit("immune", f"{who.name} is smoke: nothing can harm them.", who=who.id)
        return 0
    if lasting(cs, fighter, "Borrowed Time"):
        lethal = False  # "Target cannot die ... All wounds are placed normally"
    mark = len(gm.events)
    taken = gm.harm(
        who,
        wounds,
        reason,
        effects=effects,
        attr=Attr.parse(attr) if attr else None,
        lethal=lethal,
        armour=armour,
        from_attack=from_attack,
        impact=impact,
    )
    after_harm(gm, cs, fighter, who, mark, taken)
    if taken:
        cs.last_blood = cs.round
    return taken


def after_harm(gm: GM, cs: CombatState, fighter: Fighter, who: Member, mark: int, taken: int) -> None:
    """What a blow in combat changes besides the wounds: sleepy wakes, the dying, the dead."""
    ch = who.adv.character
    if taken and "sleepy" in ch.afflictions and ch.condition is not Condition.DEAD:
        gm.cure(who, "sleepy", "a wound in combat")  # sleepy: "receiving a wound in combat"
    for ev in gm.events[mark:]:
        if ev.kind == "mortal_wound" and ev.data.get("who") == who.id and ev.data.get("outcome") == "bleeding out":
            fighter.bleeding_out = cs.round + 1  # "If not stabilized in 1 combat turn, you are dead."
    if ch.condition is Condition.DEAD and member(gm, who.id) is not None:
        gm.death(who, "wounds")  # killed by a point placed outside GM.harm (a Hardened or defence test's fatigue)
    if ch.condition is Condition.DEAD or member(gm, who.id) is None:
        fell(gm, cs, fighter)


def fell(gm: GM, cs: CombatState, fighter: Fighter) -> None:
    """An adventurer died: the body stays on the floor; whatever held them lets go."""
    fighter.dead = True
    cs.last_blood = cs.round
    if fighter.tile not in cs.corpses:
        cs.corpses.append(fighter.tile)
    fighter.bleeding_out = None
    for e in cs.foes:
        if fighter.id in (e.grabbing, e.hooking, e.attached):
            if e.grabbing == fighter.id:
                e.grabbing = None
            if e.hooking == fighter.id:
                e.hooking = None
            if e.attached == fighter.id:
                e.attached = None
    fighter.grabbed_by = fighter.hooked_by = None


def apply_effect(
    gm: GM,
    cs: CombatState,
    fighter: Fighter,
    who: Member,
    out: Outcome,
    reason: str,
    *,
    wounded: int = 0,
    impact: bool = False,
) -> None:
    """An enemy's Outcome on one adventurer (bestiary ``on_hit`` / ``effect`` / ``on_risk``).

    Wounds go through armour unless they are Presence wounds (a wave of pain, a cursed
    song: armour cannot stop them); afflictions, stun and disarm as tagged.
    """
    if out.special == "only_if_wounded" and wounded <= 0:
        return
    if out.wounds:
        hurt_member(
            gm,
            cs,
            fighter,
            who,
            out.wounds,
            reason,
            attr=out.wound_attr,
            lethal=not out.non_lethal,
            armour=out.wound_attr != "PRE",
            impact=impact,
        )
    if member(gm, who.id) is None:
        return
    if out.fatigue:
        gm.fatigue(who, reason, out.fatigue_attr, out.fatigue)
    for name in out.afflictions:
        gm.afflict(who, name, reason)
    if out.special == "stun":
        add_stun(gm, cs, fighter, 1, reason)
    elif out.special == "disarm":
        disarm(gm, cs, fighter, who, reason)
    if out.risk_dice and out.on_risk is not None:
        risk = roll_risk(gm.rng, out.risk_dice)
        gm.emit(
            "risk",
            f"{out.risk_dice}d! for {who.name}: {list(risk.faces)}" + (" — it happens" if risk.triggered else ""),
            who=who.id,
            faces=list(risk.faces),
        )
        if risk.triggered:
            apply_effect(gm, cs, fighter, who, out.on_risk, reason, wounded=wounded, impact=impact)


def disarm(gm: GM, cs: CombatState, fighter: Fighter, who: Member, reason: str) -> None:
    """The adventurer drops the weapon in hand; it lies on the floor until picked up (or the fight ends)."""
    inv = who.adv.inventory
    weapon = next(
        (i for i in inv.items if i.place in HANDS and i.equipped and weapon_entry(gm, i.name) is not None), None
    )
    if weapon is None:
        return
    inv.remove(weapon)
    for grip in [i for i in inv.items if i.name == f"({weapon.name})"]:
        inv.remove(grip)
    cs.dropped.append(Dropped(fighter.id, weapon, fighter.x, fighter.y))
    gm.emit("disarm", f"{who.name} drops the {weapon.name} ({reason}).", who=who.id, item=weapon.name)


# --- damage to enemies -------------------------------------------------------------------------------------




def kill_foe(gm: GM, cs: CombatState, foe: Foe, killer: Fighter | None, reason: str) -> None:
    m = sheet(gm, foe.monster)
    foe.state = "dead"
    cs.last_blood = cs.round
    cs.groups[foe.group].killed += 1
    release(cs, foe)
    if foe.tile not in cs.corpses:
        cs.corpses.append(foe.tile)
    gm.emit("kill", f"{label(foe)} dies ({reason}).", foe=foe.id, monster=foe.monster)
    if lasting(cs, foe, "Dirge"):  # "If that target dies with the token, all nearby living creatures heal 2 wounds."
        _dirge(gm, cs, foe)
    if killer is not None:
        who = member(gm, killer.id)
        if who is not None and who.adv.character.has_trait("Battle trance"):
            killer.actions += 1  # "Every time you kill an enemy you get an extra action."
            gm.emit("battle_trance", f"{who.name}'s battle trance: one more action.", who=who.id)
    burst = special(m, "explodes_on_death")
    if burst is not None and burst.effect is not None:
        gm.emit("explosion", f"{label(foe)} bursts!", foe=foe.id)
        for f, who in standing(gm, cs):
            if _in_area(f.tile, foe.tile, burst.area):
                apply_effect(gm, cs, f, who, burst.effect, f"{foe.monster} bursting")


def _dirge(gm: GM, cs: CombatState, dead: Foe) -> None:
    gm.emit("dirge", f"The dirge is sung out over {label(dead)}: the living nearby heal.", foe=dead.id)
    for f, m in standing(gm, cs):
        if grid.distance(f.tile, dead.tile) <= grid.NEARBY:
            gm.heal(m, 2, "Dirge")
    for e in cs.active_foes():
        if grid.distance(e.tile, dead.tile) <= grid.NEARBY and living(gm, sheet(gm, e.monster)) and e.wounds:
            healed = min(2, e.wounds)
            e.wounds -= healed
            gm.emit("foe_heal", f"{label(e)} heals {healed} wound(s) (Dirge).", foe=e.id, wounds=e.wounds)


def _in_area(t: tuple[int, int], origin: tuple[int, int], area: str | None) -> bool:
    """``tile`` (no one shares an enemy's tile, so: the tiles Close to it), ``close``, ``nearby``."""
    if area == "nearby":
        return grid.distance(t, origin) <= grid.NEARBY
    return grid.close(t, origin)


def bleed_foe(gm: GM, cs: CombatState, foe: Foe) -> None:
    """A bleeding enemy rolls a d6 at the start of its turn: 1-3, one wound."""
    m = sheet(gm, foe.monster)
    if not foe.bleeding or not living(gm, m):
        return
    face = d(gm.rng, 6)
    if face <= gm.content.bestiary.enemy_rules.bleed_wound_on_max:
        foe.wounds += 1
        gm.emit("foe_bleeds", f"{label(foe)} bleeds (d6: {face}): 1 wound.", foe=foe.id, face=face, wounds=foe.wounds)
        if foe.wounds > m.wounds:
            kill_foe(gm, cs, foe, None, "bleeding")
    else:
        gm.emit("foe_bleeds", f"{label(foe)} bleeds (d6: {face}): no wound.", foe=foe.id, face=face)


def give_back(gm: GM, who: Member, drop: Dropped) -> None:
    inv = who.adv.inventory
    item = drop.item
    free_hand = next((h for h in HANDS if not any(i.place == h and i.equipped for i in inv.items)), None)
    if free_hand is not None and inv.free(free_hand) >= item.slots:
        item.place, item.equipped = free_hand, True
        inv.items.append(item)
    else:
        item.equipped = False
        try:
            inv.add(item)
        except RuleError:
            item.place = HANDS[0]
            inv.items.append(item)
    gm.emit("pickup", f"{who.name} picks up the {item.name}.", who=who.id, item=item.name)
