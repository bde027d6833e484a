"""The adventurers' combat actions: what each may do now, and doing it.

The book's list (Combat Actions): Attack (1), Recover (1), Move (1), Catch
breath (1), Defend (1), Dodge (2), spells, prayers and manoeuvres (1 or 2),
Use item or change equipment (1), Help another (2) — plus fleeing through the
door the party came in, stabilising a mortally wounded ally, helping a
collapsed one up, breaking free of a grab and pulling off what clings.  A
stunned adventurer may only Recover.  Fast adventurers act in the order the
player likes; slow ones in the GM's order (the party's order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rules.attributes import ATTRS, Attr
from rules.character import Character, Condition
from rules.checks import RuleError, Side, TestRoll
from rules.content.schema_creation import Manoeuvre
from rules.dice import d
from rules.gm import alchemy, combat_flow, powers
from rules.gm import combat_core as core
from rules.gm import combat_grid as grid
from rules.gm.combat_foes import hurt_foe, silenced, wake
from rules.gm.combat_gear import (
    SILVER_PER_SHOT,
    WEAPON_SPELLS,
    Arm,
    arms_of,
    ashes_bonus,
    has_conductor,
    in_hands,
    is_shield,
    shield_of,
    spare_weapons,
    weapon_entry,
)
from rules.gm.combat_state import CombatState, Dropped, Fighter, Foe
from rules.gm.events import Action, Cost
from rules.gm.gear import carries, gift_noun, give, stabilisers, use_up, why_no_use, why_not_give
from rules.gm.table import ActionTable
from rules.inventory import HANDS
from rules.magic import PrayerOutcome, Spellbook, SpellOutcome, cast_spell, invoke_prayer
from rules.notation import Attack, Effect, Modifier, parse_attack
from rules.odds import odds

if TYPE_CHECKING:
    from rules.gm.services import GM
    from rules.gm.state import Member

#: "place 2 dodge token on a success. Add another one on a great success."
DODGE_TOKENS = 2
DODGE_GREAT_EXTRA = 1
#: Help another: "Next turn an ally will receive an extra dice from you"; it costs 2 actions.
HELP_ACTIONS = 2
DODGE_ACTIONS = 2

RULES = {
    "attack": "Attack (1 action): test the weapon attribute to hit; each dodge or shield token the defender spends "
    "forces a reroll; success: the weapon's wounds; great success: the critical wounds too.",
    "move": "Move (1 action): DEX available dice x 2 tiles, no diagonals; stop after leaving a square next to an "
    "enemy; moving removes unused shield tokens.",
    "recover": "Recover (1 action): remove a stun token; or remove a shield or dodge token and recover one fatigue.",
    "breath": "Catch breath (1 action): recover one fatigue point for each attribute.",
    "defend": "Defend (1 action): place your shield's tokens (at most 5).",
    "dodge": "Dodge (2 actions): DEX test; 2 dodge tokens on a success, 3 on a great success.",
    "help": "Help another (2 actions): next turn an adjacent ally receives an extra die from you in all actions.",
    "item": "Use item or change equipment (1 action).",
    "flee": "Move off through the door you came in: you leave the fight.",
    "stabilise": "A mortally wounded character must be stabilized with a first aid kit or medical supply.",
}


# --- who may act now -----------------------------------------------------------------------------------------


def actors(gm: GM, cs: CombatState) -> list[tuple[Fighter, Member]]:
    if cs.phase == "fast":
        return [(f, m) for f, m in core.able(gm, cs) if f.fast and f.actions > 0]
    if cs.phase == "slow":
        waiting = [(f, m) for f, m in core.able(gm, cs) if not f.fast and f.actions > 0]
        return waiting[:1]  # "in a specific order, determined by the GM": the party's order
    return []


def helper_of(gm: GM, cs: CombatState, f: Fighter) -> Member | None:
    if not f.help_ready or f.helped_by is None:
        return None
    for g, m in core.able(gm, cs):
        if g.id == f.helped_by:
            return m
    return None


def _manoeuvre(gm: GM, name: str) -> Manoeuvre | None:
    for bg in gm.content.classes.backgrounds:
        for mv in bg.manoeuvres:
            if mv.name.lower() == name.lower():
                return mv
    return None


def move_steps(gm: GM, who: Member) -> tuple[int, int]:
    """(tiles, action cost) of a Move: DEX available x 2; Broken leg: 1 tile for 2 actions; encumbered: half."""
    ch = who.adv.character
    steps = max(0, ch.available(Attr.DEX, in_combat=True)) * 2
    cost = 1
    for t in gm.content.character.traumas:
        if t.name.lower() in ch.traumas and t.movement_tiles is not None:
            steps = min(steps, t.movement_tiles)
            cost = max(cost, t.move_action_cost or 1)
    if who.adv.inventory.encumbered(ch.attrs[Attr.STR].score):
        steps //= 2
    return steps, cost


def fighter_moves(gm: GM, cs: CombatState, f: Fighter, steps: int) -> dict[tuple[int, int], int]:
    occ = grid.occupants(cs)
    fighter_ids = {g.id for g in cs.fighters}
    smoke = core.lasting(cs, f, "Smoke form")  # smoke drifts through enemies, and nothing holds it back
    blocked = set() if smoke else {t for t, who in occ.items() if any(i not in fighter_ids for i in who)}
    occupied = {t for t, who in occ.items() if who and t != f.tile}
    threat = set() if smoke else core.threat_for_fighters(cs)
    return grid.reachable(f.tile, steps, set(cs.tiles), blocked=blocked, occupied=occupied, threat=threat)


def why_stuck(f: Fighter) -> str | None:
    if f.grabbed_by is not None:
        return "Grabbed: break free first."
    if f.hooked_by is not None:
        return "Hooked: you cannot move until the hook lets go."
    if f.bound:
        return "Bound: no moving until a Recover action."
    return None


def offer(
    id_: str,
    kind: str,
    label: str,
    who: Fighter,
    actions: int = 1,
    *,
    target: str | None = None,
    reason: str | None = None,
    params: tuple[tuple[str, object], ...] = (),
    rule: str = "",
    silver: int = 0,
    items: tuple[str, ...] = (),
) -> Action:
    return Action(
        id_,
        kind,
        label,
        _cost(actions, silver, items),
        reason is None,
        reason,
        who=who.id,
        target=target,
        params=params,
        rule=rule,
    )


@lru_cache(maxsize=256)
def _cost(actions: int, silver: int, items: tuple[str, ...]) -> Cost:
    """A cost, made once (a :class:`Cost` is frozen; a fight's listing offers the same few hundreds of times)."""
    return Cost(actions=actions, silver=silver, items=items)


# --- listing ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """The fighter whose action it is: what the combat table's listers and appliers receive."""

    gm: GM
    cs: CombatState
    f: Fighter
    who: Member


#: The adventurers' actions in a fight, by kind (listed per fighter, in this order).
TABLE: ActionTable[Turn] = ActionTable("combat")

FighterLister = Callable[["GM", CombatState, Fighter, "Member"], list[Action]]


def _for_fighter(fn: FighterLister) -> FighterLister:
    """Register a lister written for one fighter (``gm, cs, f, who``)."""
    TABLE.lister(lambda t: fn(t.gm, t.cs, t.f, t.who))
    return fn


def actions(gm: GM) -> list[Action]:
    cs = gm.c.combat
    if cs is None:
        return []
    out: list[Action] = []
    if gm.lean:  # the first who may act, what they can do (GM.legal_actions)
        for f, who in actors(gm, cs)[:1]:
            out += [a for a in fighter_actions(gm, cs, f, who) if a.available]
        return out
    for f, who in actors(gm, cs):
        out += fighter_actions(gm, cs, f, who)
    return out


def fighter_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    n = f.actions
    name = who.name
    result: list[Action] = []
    for a in TABLE.actions(Turn(gm, cs, f, who)):
        reason = a.reason
        if reason is None and a.cost.actions > n and a.kind != "break_free":
            reason = f"Needs {a.cost.actions} actions; {name} has {n} left."
        if f.stun > 0 and a.kind != "end" and not (a.kind == "recover" and a.param("what") == "stun"):
            reason = "Stunned: only Recover (removing a stun token) until no stun token is left."
        if reason is None and f.focus and a.kind not in (f.focus, "end") and core.lasting(cs, f, "Hyperfocus"):
            reason = f"Hyperfocus: only the same action ({f.focus}) this turn."
        if reason is None and a.kind not in ("move", "flee", "end") and core.lasting(cs, f, "Smoke form"):
            reason = "Smoke: only moving until the form ends."  # its "one combat turn (2 actions)" (R245)
        if reason != a.reason:
            a = Action(a.id, a.kind, a.label, a.cost, reason is None, reason, a.who, a.target, a.params, a.rule)
        result.append(a)
    return result


@TABLE.lister
def _end_actions(t: Turn) -> list[Action]:
    return [offer(f"end:{t.f.id}", "end", f"End {t.who.name}'s turn", t.f, 0, rule="")]


@_for_fighter
def _recover_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    out: list[Action] = []
    ch = who.adv.character
    if f.stun:
        out.append(
            offer(f"recover:{f.id}:stun", "recover", f"{who.name}: recover (remove a stun token)", f,
                 params=(("what", "stun"),), rule=RULES["recover"])
        )  # fmt: skip
    tired = [a for a in ATTRS if ch.attrs[a].fatigue > 0]
    for token, have in (("shield", f.shield), ("dodge", f.dodge)):
        if not have:
            continue
        for a in tired:
            out.append(
                offer(
                    f"recover:{f.id}:{token}:{a.value}",
                    "recover",
                    f"{who.name}: recover (drop a {token} token, recover 1 {a.value} fatigue)",
                    f,
                    reason="Parched: cannot recover fatigue." if "parched" in ch.afflictions else None,
                    params=(("what", token), ("attr", a.value)),
                    rule=RULES["recover"],
                )
            )
    if f.bound and not f.stun:
        out.append(
            offer(f"recover:{f.id}:bind", "recover", f"{who.name}: recover (shake off the bind)", f,
                 params=(("what", "bind"),), rule=RULES["recover"])
        )  # fmt: skip
    reason = None
    if "shaken" in ch.afflictions:
        reason = "Shaken: cannot catch breath."
    elif "parched" in ch.afflictions:
        reason = "Parched: cannot recover fatigue."
    elif not tired:
        reason = "No fatigue to recover."
    out.append(offer(f"breath:{f.id}", "breath", f"{who.name}: catch breath", f, reason=reason, rule=RULES["breath"]))
    return out


def target_reason(gm: GM, cs: CombatState, f: Fighter, who: Member, arm: Arm, foe: Foe) -> str | None:
    if arm.needs_hands:
        return arm.needs_hands
    if arm.key in f.unloaded:
        return f"The {arm.name} must be reloaded first."
    m = core.sheet(gm, foe.monster)
    if arm.targets and not set(arm.targets) & set(m.tags):
        return f"{arm.name} works only against {', '.join(arm.targets)} enemies."
    if arm.silver and who.adv.character.silver < arm.silver:
        return f"Needs {arm.silver} silver per shot."
    if not grid.in_reach(f.tile, foe.tile, arm.reach, diagonals=arm.diagonal):
        return f"Out of reach: {grid.distance(f.tile, foe.tile)} tiles away."
    if core.lasting(cs, foe, "Arcane prison"):
        return "Locked in an arcane crystal: nothing touches it."
    return None


@_for_fighter
def _attack_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    out: list[Action] = []
    arms = arms_of(gm, who, f)
    if not arms:
        out.append(offer(f"attack:{f.id}", "attack", f"{who.name}: attack", f, reason="No weapon in hand.",
                        rule=RULES["attack"]))  # fmt: skip
    for arm in arms:
        for foe in cs.active_foes():
            out.append(
                offer(
                    f"attack:{f.id}:{arm.key}:{foe.id}",
                    "attack",
                    f"{who.name}: attack {core.label(foe)} with the {arm.name} ({arm.attack.source})",
                    f,
                    target=foe.id,
                    reason=target_reason(gm, cs, f, who, arm, foe),
                    params=(("arm", arm.key),),
                    rule=RULES["attack"],
                    silver=arm.silver,
                )
            )
    for arm_key in f.unloaded:
        entry = weapon_entry(gm, arm_key)
        cost = entry.reload_actions if entry is not None else 1
        out.append(offer(f"reload:{f.id}:{arm_key}", "reload", f"{who.name}: reload the {arm_key}", f, cost,
                        params=(("arm", arm_key),), rule="Requires 2 actions to reload."))  # fmt: skip
    return out


def _moment(gm: GM, cs: CombatState, f: Fighter, who: Member, mv: Manoeuvre) -> powers.Moment:
    used = "Once per combat: already used." if mv.once_per_combat and mv.name.lower() in f.used else None
    return powers.Moment(gm, cs, f, who, mv, [a for a in arms_of(gm, who, f) if not a.spell], used,
                         f"{mv.name}: {mv.text}")  # fmt: skip


@_for_fighter
def _manoeuvre_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Each manoeuvre the adventurer knows offers its actions (its handler's lister); a reaction waits for the
    enemies' turn."""
    out: list[Action] = []
    for name in who.adv.manoeuvres:
        mv = _manoeuvre(gm, name)
        if mv is None:
            continue
        handler = powers.MANOEUVRES.get(name.lower())
        if handler is None:
            raise RuleError(f"the manoeuvre {mv.name!r} has no handler")  # blacksalt validate names it first
        if handler.lists is not None:
            out += handler.lists(_moment(gm, cs, f, who, mv))
    return out


@_for_fighter
def _magic_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Cast a memorised spell: the weapon spells (Magic Missile, Silver cannon) arm the wizard for the fight;
    every other spell with an effect in a fight is aimed at whom it may touch (:mod:`rules.gm.powers`).  A spell
    with no use in a fight (Light, Pocket reality...) is not offered."""
    out: list[Action] = []
    ch = who.adv.character
    book = who.adv.spellbook
    if book is not None:
        for spell in book.memorised:
            entry = next((s for s in gm.content.magic.spells if s.name == spell), None)
            cost = entry.actions if entry is not None else 1
            rule = f"{spell}: {entry.text}" if entry is not None else spell
            reason: str | None = None
            if spell in book.forgotten:
                reason = "Forgotten."
            elif not ch.has_trait("Magic user"):
                reason = "Needs the Magic user trait."
            elif f.channel:
                reason = "Channelling a spell: no other action."
            elif silenced(cs, f.tile):
                reason = "Silence: no spell can be cast here."
            if spell in WEAPON_SPELLS:
                if reason is None and spell in f.spells:
                    reason = "Already in effect for this combat."
                shot = SILVER_PER_SHOT.get(spell, 0)
                if reason is None and shot and ch.silver < shot:
                    reason = f"Needs {shot} silver per shot: {who.name} has {ch.silver}."
                label = f"{who.name}: cast {spell} (INT {_keep(book, ch, lean=gm.lean)} to keep it)"
                out.append(offer(f"cast:{f.id}:{spell}", "cast", label, f, cost, reason=reason,
                                params=(("spell", spell),), rule=rule))  # fmt: skip
                continue
            power = powers.handler("spell", spell)
            if power is None or power.fight is None:
                continue
            if reason is None and power.ready is not None:
                reason = power.ready(gm, who)
            if reason is None and power.aim == "self" and core.lasting(cs, f, spell):
                reason = "Already in effect for this fight."
            keep = _keep(book, ch, lean=gm.lean)
            aims = powers.fight_targets(gm, cs, f, power)
            if not aims:  # said once, greyed, so the spell is not lost from sight
                out.append(offer(f"cast:{f.id}:{spell}", "cast", f"{who.name}: cast {spell}", f, cost,
                                reason=reason or "No target in reach.", params=(("spell", spell),),
                                rule=rule))  # fmt: skip
            for aim in aims:
                label = f"{who.name}: cast {spell}" + ("" if power.aim == "self" else f" on {aim.whom}")
                label += f" (INT {keep} to keep it)"
                out.append(offer(f"cast:{f.id}:{spell}:{aim.id}", "cast", label, f, cost, target=aim.id,
                                reason=reason or aim.reason, params=(("spell", spell),), rule=rule))  # fmt: skip
    out += _prayer_actions(gm, cs, f, who)
    return out


def _keep(book: Spellbook, ch: Character, *, lean: bool = False) -> str:
    """The odds of keeping a spell in mind: an open arcane well ("your next spell will be an automatic
    success") makes no test at all."""
    return "100%" if book.arcane_well else _chance(ch, Attr.INT, lean=lean)


def _chance(ch: Character, attr: Attr, extra: int = 0, *, lean: bool = False) -> str:
    """The exact odds of a plain test of ``attr`` now (``extra`` dice more), as the label shows them ("?" in a
    lean listing, which no one reads)."""
    if lean:
        return "?"
    spec = ch.test_spec(attr, in_combat=True)
    return f"{odds(replace(spec, dice=spec.dice + extra) if extra else spec).success:.0%}"


def _prayer_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Invoke a prayer (1 action unless its text says more): the PRE test first; answered, its effect lands on
    the chosen target within its reach (:mod:`rules.gm.powers`).  A prayer with no use in a fight is not
    offered."""
    out: list[Action] = []
    prayers = who.adv.prayers
    if prayers is None:
        return out
    ch = who.adv.character
    for prayer in prayers.memorised:
        entry = next((p for p in gm.content.magic.prayers if p.name == prayer), None)
        cost = entry.actions if entry is not None else 1
        rule = f"{prayer}: {entry.text}" if entry is not None else prayer
        power = powers.handler("prayer", prayer)
        if power is None or power.fight is None:
            continue
        why, exhausted, plea = powers.prayer_blocked(gm, who, prayer)
        if not ch.has_trait("Divine mandate"):
            why = "Needs the Divine mandate trait."
        if why is None and power.ready is not None:
            why = power.ready(gm, who)
        answered = _chance(ch, Attr.PRE, powers.banishing_dice(gm, who, "prayer", prayer)[0], lean=gm.lean)
        for aim in powers.fight_targets(gm, cs, f, power):
            label = f"{who.name}: pray for {prayer} on {aim.whom}" + (" (desperate plea)" if exhausted and plea else "")
            if entry is not None and entry.attack and isinstance(aim.target, Foe) and not gm.lean:
                # a prayer that attacks (Cleansing Flames): answered first, then its own blow must hit
                arm = powers.prayer_arm(entry, f)
                hit = hit_odds(gm, cs, f, who, arm, aim.target)
                label += f" (PRE {answered} answered, then {entry.attack} {hit:.0%} to hit)"
            else:
                label += f" (PRE {answered})"
            out.append(offer(f"pray:{f.id}:{prayer}:{aim.id}", "pray", label, f, cost, target=aim.id,
                            reason=why or aim.reason, params=(("prayer", prayer), ("plea", exhausted)),
                            rule=rule))  # fmt: skip
    return out


@_for_fighter
def _swarm_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Command a summoned swarm (free, once a turn): it flies at an enemy and drains it."""
    out: list[Action] = []
    for swarm in cs.summoned(f.id):
        done = "The swarm has had its command this turn." if swarm.commanded_round == cs.round else None
        for foe in cs.active_foes():
            reason = done or (None if powers.swarm_in_reach(gm, cs, swarm, foe) else "Out of the swarm's reach.")
            out.append(offer(f"swarm:{f.id}:{swarm.id}:{foe.id}", "swarm",
                            f"{who.name}: command the swarm to drain {core.label(foe)}", f, 0, target=foe.id,
                            reason=reason, params=(("swarm", swarm.id),),
                            rule="Swarm: a swarm of insects the cleric commands."))  # fmt: skip
    return out


@TABLE.applies("swarm")
def _swarm_command(t: Turn, action: Action) -> None:
    swarm = t.cs.foe(str(action.param("swarm")))
    swarm.commanded_round = t.cs.round  # once a round
    powers.command_swarm(t.gm, t.cs, swarm, t.cs.foe(action.target or ""))


@_for_fighter
def _sacrifice_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """An angered cleric of Cador kills a captured undead in the sacrifice ritual (2 actions, RULINGS R241)."""
    if not powers.cador_angered(gm, who):
        return []
    rule = "Cador's sacrifice: the cleric must capture, then kill an undead during the sacrifice ritual."
    return [offer(f"sacrifice:{f.id}:{e.id}", "sacrifice", f"{who.name}: kill the captured {core.label(e)} in "
                  "Cador's ritual", f, 2, target=e.id, reason=powers.sacrifice_why_not(gm, cs, f, e), rule=rule)
            for e in cs.active_foes() if "undead" in core.sheet(gm, e.monster).tags]  # fmt: skip


@TABLE.applies("sacrifice")
def _sacrifice(t: Turn, action: Action) -> None:
    powers.cador_sacrifice(t.gm, t.cs, t.f, t.who, t.cs.foe(action.target or ""))


@_for_fighter
def _skill_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    out: list[Action] = []
    ch = who.adv.character
    if ch.has_skill("Duelist") or ch.has_skill("Swashbuckler"):
        for foe in cs.active_foes():
            reason = None if grid.close(f.tile, foe.tile) else "The target must be Close."
            if reason is None and not (foe.shield or foe.dodge):
                reason = "It has no shield or dodge tokens."
            out.append(offer(f"feint:{f.id}:{foe.id}", "feint", f"{who.name}: feint {core.label(foe)}", f,
                            target=foe.id, reason=reason,
                            rule="Feint (1 action): discard all shield and dodge tokens from your enemy."))  # fmt: skip
    if ch.has_skill("Intimidate"):
        reason = "Only one intimidate action per combat." if "intimidate" in f.used else None
        rule = "Intimidate (2 actions): attack with PRE 1N all nearby enemies."
        out.append(offer(f"intimidate:{f.id}", "intimidate", f"{who.name}: intimidate (PRE 1N, all enemies Nearby)",
                        f, 2, reason=reason, rule=rule))  # fmt: skip
    if ch.has_skill("Fearless"):
        reason = "Once per combat: already used." if "fearless" in f.used else None
        if reason is None and ch.attrs[Attr.PRE].wounds == 0:
            reason = "No presence wound to heal."
        if reason is None and "hungry" in ch.afflictions:
            reason = "Hungry: wounds do not heal."
        out.append(offer(f"fearless:{f.id}", "fearless", f"{who.name}: fearless (heal one PRE wound)", f, 0,
                        reason=reason, rule="Fearless: once per combat you may heal one presence wound."))  # fmt: skip
    return out


@_for_fighter
def _move_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    out: list[Action] = []
    steps, cost = move_steps(gm, who)
    if core.lasting(cs, f, "Haste"):
        steps *= 2  # Haste: "movement speed doubled until the end of the combat"
    stuck = why_stuck(f)
    reach = {} if stuck else fighter_moves(gm, cs, f, steps)
    if cs.exit is not None:
        reason = stuck
        if reason is None and f.tile != cs.exit and cs.exit not in reach:
            reason = "The door is out of reach this move."
        out.append(offer(f"flee:{f.id}", "flee", f"{who.name}: flee through the door", f, cost, reason=reason,
                        rule=RULES["flee"]))  # fmt: skip
    if stuck or not reach:
        reason = stuck or "Nowhere to go (no DEX dice left, or hemmed in)."
        out.append(offer(f"move:{f.id}", "move", f"{who.name}: move", f, cost, reason=reason,
                        rule=RULES["move"]))  # fmt: skip
        return out
    for t in grid.ordered(reach):
        out.append(offer(f"move:{f.id}:{t[0]},{t[1]}", "move", f"{who.name}: move to {t[0]},{t[1]}", f, cost,
                        target=f"{t[0]},{t[1]}", params=(("x", t[0]), ("y", t[1])), rule=RULES["move"]))  # fmt: skip
    return out


def _allies_close(gm: GM, cs: CombatState, f: Fighter) -> list[tuple[Fighter, Member]]:
    """Allies next to ``f`` one can reach (not one locked in an arcane crystal: nothing touches them)."""
    return [(g, m) for g, m in core.standing(gm, cs) if g is not f and grid.close(g.tile, f.tile)
            and not core.lasting(cs, g, "Arcane prison")]  # fmt: skip


@_for_fighter
def _guard_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Defend (with a shield) and dodge."""
    held = shield_of(gm, who)
    reason = None if held is not None else "Needs a shield."
    if reason is None and f.shield >= core.MAX_SHIELD:
        reason = f"Already {core.MAX_SHIELD} shield tokens."
    label = f"{who.name}: defend" + (f" ({held[1].name}: {held[1].tokens} shield tokens)" if held else "")
    out = [offer(f"defend:{f.id}", "defend", label, f, reason=reason, rule=RULES["defend"])]
    reason = f"Can't dodge with the {held[1].name}." if held is not None and held[1].no_dodge else None
    out.append(offer(f"dodge:{f.id}", "dodge", f"{who.name}: dodge (DEX)", f, DODGE_ACTIONS, reason=reason,
                    rule=RULES["dodge"]))  # fmt: skip
    return out


@_for_fighter
def _break_free_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    if f.grabbed_by is None:
        return []
    rule = "Use all actions to test STR to break free, or take 1 wound."
    return [offer(f"break_free:{f.id}", "break_free", f"{who.name}: break free (all actions, STR)", f,
                  max(1, f.actions), rule=rule)]  # fmt: skip


_QUICK: dict[int, tuple[object, list[Any]]] = {}


def _quick_items(content: Any) -> list[Any]:
    """The usable items that are quick and have an effect, in order (made once per content: every listing asks)."""
    if id(content) not in _QUICK:  # (the content is held so that its id is not reused)
        _QUICK[id(content)] = (content, [e for e in alchemy.usable_items(content) if "quick" in e.tags and e.effects])
    return _QUICK[id(content)][1]


@_for_fighter
def _quick_item_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """A quick item (a tonic, bandages) on oneself or an ally Close."""
    out: list[Action] = []
    for entry in _quick_items(gm.content):
        if who.adv.inventory.find(entry.name) is None:
            continue
        for g, m in [(f, who), *_allies_close(gm, cs, f)]:
            whom = "themself" if g is f else m.name
            reason = "Dead." if m.adv.character.condition is Condition.DEAD else why_no_use(entry, m)
            out.append(offer(f"item:{f.id}:{entry.name}:{g.id}", "item", f"{who.name}: use {entry.name} on {whom}",
                            f, target=g.id, reason=reason, params=(("item", entry.name),), rule=entry.text,
                            items=(entry.name,)))  # fmt: skip
    return out


@_for_fighter
def _living_ashes_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Living ashes in a fight (R211): "+1 damage to a weapon during expedition", a quick item — using it is the
    fight's "use item" action (1 action), on a weapon in the hand of the user or of an ally Close."""
    names = powers.items_with_rule(gm.content, "weapon_damage_bonus_expedition")
    item = next((i for i in who.adv.inventory.items if i.name.lower() in names), None)
    exp = gm.c.expedition
    if item is None or exp is None:
        return []
    out: list[Action] = []
    for g, m in [(f, who), *_allies_close(gm, cs, f)]:
        for held in in_hands(m):
            entry = weapon_entry(gm, held.name)
            if entry is None or entry.name in WEAPON_SPELLS:
                continue
            done = exp.ashes.get(m.id) == entry.name
            whose = "their" if g is f else f"{m.name}'s"
            out.append(offer(f"living_ashes:{f.id}:{g.id}:{entry.name}", "living_ashes",
                             f"{who.name}: rub the {item.name.lower()} on {whose} {entry.name} (+{ashes_bonus(gm)} "
                             "damage this expedition)", f, target=g.id,
                             reason=f"The {entry.name} already burns with them." if done else None,
                             params=(("weapon", entry.name), ("item", item.name)),
                             rule=f"{item.name} (quick; in a fight, the use item action): +{ashes_bonus(gm)} damage "
                             "to a weapon during the expedition; its usage die is rolled.",
                             items=(item.name,)))  # fmt: skip
    return out


@TABLE.applies("living_ashes")
def _living_ashes(t: Turn, action: Action) -> None:
    item = t.who.adv.inventory.find(str(action.param("item")))
    exp = t.gm.c.expedition
    if item is None or exp is None:
        raise RuleError(f"{t.who.name} has no living ashes")
    g = t.cs.fighter(action.target or "")
    m = t.gm.c.member(g.id)
    weapon = str(action.param("weapon"))
    exp.ashes[m.id] = weapon
    t.gm.emit("living_ashes", f"{t.who.name} rubs the {item.name.lower()} on {m.name}'s {weapon}: it smoulders "
              f"(+{ashes_bonus(t.gm)} damage until the party leaves).", who=t.who.id, target=m.id,
              weapon=weapon)  # fmt: skip
    use_up(t.gm, t.who, item)


@_for_fighter
def _ally_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """For an ally Close: stabilise the dying, help the collapsed up, or help one who can act."""
    out: list[Action] = []
    for g, m in _allies_close(gm, cs, f):
        mch = m.adv.character
        if mch.condition is Condition.MORTALLY_WOUNDED:
            kit = next((n for n in stabilisers(gm.content) if who.adv.inventory.find(n) is not None), None)
            out.append(offer(f"stabilise:{f.id}:{g.id}", "stabilise", f"{who.name}: stabilise {m.name}", f,
                            target=g.id, reason=None if kit else "Needs a first aid kit or a medical supply.",
                            params=(("item", kit or ""),), rule=RULES["stabilise"],
                            items=(kit,) if kit else ()))  # fmt: skip
        elif mch.condition is Condition.COLLAPSED:
            out.append(offer(f"help_up:{f.id}:{g.id}", "help_up", f"{who.name}: help {m.name} up", f, target=g.id,
                            rule="A collapsed adventurer gets up when an ally helps (an action)."))  # fmt: skip
        elif mch.can_act:
            out.append(offer(f"help:{f.id}:{g.id}", "help", f"{who.name}: help {m.name}", f, HELP_ACTIONS,
                            target=g.id, reason=_why_not_help(who, g, m), rule=RULES["help"]))  # fmt: skip
    return out


def _why_not_help(who: Member, g: Fighter, m: Member) -> str | None:
    if "sleepy" in who.adv.character.afflictions:
        return "Sleepy: can't help friends."
    if "paranoid" in m.adv.character.traumas:
        return f"{m.name} is paranoid: can't receive help."
    if g.helped_by is not None:
        return f"{m.name} already has help."
    return None


@_for_fighter
def _detach_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Pull off what clings to oneself or an ally Close (worms, a leech)."""
    out: list[Action] = []
    for g, m in [(f, who), *_allies_close(gm, cs, f)]:
        leech = next((e for e in cs.active_foes() if e.attached == g.id), None)
        if g.worms or leech is not None:
            whom = "themself" if g is f else m.name
            out.append(offer(f"detach:{f.id}:{g.id}", "detach", f"{who.name}: pull off what clings to {whom}", f,
                            target=g.id, rule="Removing an attached creature takes 1 action."))  # fmt: skip
    return out


@_for_fighter
def _equipment_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Take a carried weapon in hand; pick up what lies on one's tile or next to it."""
    out: list[Action] = []
    for item in {i.name: i for i in spare_weapons(gm, who)}.values():  # two clubs: one choice
        out.append(offer(f"equip:{f.id}:{item.name}", "equip", f"{who.name}: take the {item.name} in hand", f,
                        params=(("item", item.name),), rule=RULES["item"]))  # fmt: skip
    for i, drop in enumerate(cs.dropped):
        if (drop.x == f.x and drop.y == f.y) or grid.close(f.tile, (drop.x, drop.y)):
            out.append(offer(f"pickup:{f.id}:{i}", "pickup", f"{who.name}: pick up the {drop.item.name}", f,
                            params=(("index", i),), rule=RULES["item"]))  # fmt: skip
    return out


@_for_fighter
def _give_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Give an item to an ally next to you (1 action; receiving costs nothing).  Two adventurers never share a
    tile on the grid, so "the same tile" of the rule is a Close ally (R187)."""
    out: list[Action] = []
    for g, m in _allies_close(gm, cs, f):
        if m.adv.character.condition is Condition.DEAD:
            continue
        for index, item in enumerate(who.adv.inventory.items):
            if item.name.startswith("("):
                continue
            what = gift_noun(item)
            out.append(offer(f"give:{f.id}:{index}:{g.id}", "give", f"{who.name}: give {what} to {m.name}", f,
                            target=g.id, reason=why_not_give(gm, who, item, m),
                            params=(("index", index), ("item", item.name), ("from", who.id)),
                            rule=RULES["item"] + " You can also give or use an item on someone in the same tile if "
                            "they have inventory space. Receiving an item doesn't cost an action."))  # fmt: skip
    return out

# --- doing it ----------------------------------------------------------------------------------------------


def apply(gm: GM, action: Action) -> None:
    cs = gm.c.combat
    if cs is None:
        raise RuleError("there is no fight")
    f = cs.fighter(action.who or "")
    who = core.member(gm, f.id)
    if who is None:
        raise RuleError("that adventurer is gone")
    cost = f.actions if action.kind == "break_free" else action.cost.actions
    f.actions -= cost
    f.turn_started = True
    if core.lasting(cs, f, "Hyperfocus") and not f.focus and action.kind != "end":
        f.focus = action.kind  # "can only perform the same action" for the rest of the turn
    TABLE.apply(Turn(gm, cs, f, who), action)
    combat_flow.advance(gm)


@TABLE.applies("end")
def _end(t: Turn, action: Action) -> None:
    t.f.actions = 0


@TABLE.applies("recover")
def _recover_action(t: Turn, action: Action) -> None:
    _recover(t.gm, t.cs, t.f, t.who, str(action.param("what")), action.param("attr"))


@TABLE.applies("breath")
def _breath(t: Turn, action: Action) -> None:
    for a in ATTRS:
        t.who.adv.character.recover_fatigue(a, 1)
    t.gm.emit("breath", f"{t.who.name} catches their breath.", who=t.who.id)


@TABLE.applies("attack")
def _attack_action(t: Turn, action: Action) -> None:
    arm = arm_by_key(t.gm, t.who, t.f, str(action.param("arm")))
    attack(t.gm, t.cs, t.f, t.who, arm, t.cs.foe(action.target or ""))


@TABLE.applies("reload")
def _reload(t: Turn, action: Action) -> None:
    t.f.unloaded.remove(str(action.param("arm")))
    t.gm.emit("reload", f"{t.who.name} reloads the {action.param('arm')}.", who=t.who.id)


@TABLE.applies("manoeuvre")
def _manoeuvre_action(t: Turn, action: Action) -> None:
    _manoeuvre_apply(t.gm, t.cs, t.f, t.who, action)


@TABLE.applies("cast")
def _cast_action(t: Turn, action: Action) -> None:
    target = powers.resolve_target(t.cs, action.target) if action.target else None
    _cast(t.gm, t.cs, t.f, t.who, str(action.param("spell")), target)


@TABLE.applies("pray")
def _pray_action(t: Turn, action: Action) -> None:
    _pray(t.gm, t.cs, t.f, t.who, str(action.param("prayer")), powers.resolve_target(t.cs, action.target or ""),
          plea=bool(action.param("plea")))  # fmt: skip


@TABLE.applies("feint")
def _feint_action(t: Turn, action: Action) -> None:
    _feint(t.gm, t.cs, t.f, t.who, t.cs.foe(action.target or ""))


@TABLE.applies("intimidate")
def _intimidate_action(t: Turn, action: Action) -> None:
    _intimidate(t.gm, t.cs, t.f, t.who)


@TABLE.applies("fearless")
def _fearless(t: Turn, action: Action) -> None:
    t.f.used.append("fearless")
    t.who.adv.character.heal_wounds(Attr.PRE, 1)
    t.gm.emit("heal", f"{t.who.name} steels themself: one presence wound heals.", who=t.who.id)


@TABLE.applies("move")
def _move_action(t: Turn, action: Action) -> None:
    _move(t.gm, t.cs, t.f, t.who, (int(action.param("x")), int(action.param("y"))))


@TABLE.applies("flee")
def _flee(t: Turn, action: Action) -> None:
    t.f.fled = True
    t.cs.last_blood = t.cs.round
    t.f.shield = t.f.dodge = 0
    t.gm.emit("flee", f"{t.who.name} flees through the door.", who=t.who.id)


@TABLE.applies("defend")
def _defend_action(t: Turn, action: Action) -> None:
    defend_now(t.gm, t.f, t.who)


@TABLE.applies("dodge")
def _dodge_action(t: Turn, action: Action) -> None:
    _dodge(t.gm, t.cs, t.f, t.who)


@TABLE.applies("break_free")
def _break_free_action(t: Turn, action: Action) -> None:
    _break_free(t.gm, t.cs, t.f, t.who)


@TABLE.applies("item")
def _item_action(t: Turn, action: Action) -> None:
    _use_item(t.gm, t.cs, t.f, t.who, str(action.param("item")), t.cs.fighter(action.target or ""))


@TABLE.applies("stabilise")
def _stabilise_action(t: Turn, action: Action) -> None:
    _stabilise(t.gm, t.cs, t.f, t.who, str(action.param("item")), t.cs.fighter(action.target or ""))


@TABLE.applies("help_up")
def _help_up(t: Turn, action: Action) -> None:
    g = t.cs.fighter(action.target or "")
    ally = core.member(t.gm, g.id)
    if ally is not None:
        ally.adv.character.condition = Condition.ACTIVE
        t.gm.emit("help_up", f"{t.who.name} helps {ally.name} up.", who=t.who.id, ally=ally.id)


@TABLE.applies("help")
def _help_action(t: Turn, action: Action) -> None:
    _help(t.gm, t.cs, t.f, t.who, t.cs.fighter(action.target or ""))


@TABLE.applies("detach")
def _detach_action(t: Turn, action: Action) -> None:
    _detach(t.gm, t.cs, t.f, t.who, t.cs.fighter(action.target or ""))


@TABLE.applies("equip")
def _equip(t: Turn, action: Action) -> None:
    take_in_hand(t.gm, t.who, str(action.param("item")))
    _shield_gone(t)


def _shield_gone(t: Turn) -> None:
    """A shield that left the hand (to the pack, or to an ally) takes its tokens with it."""
    if t.f.shield and shield_of(t.gm, t.who) is None:
        t.f.shield = 0
        t.gm.emit("tokens", f"{t.who.name} no longer holds a shield: its tokens are gone.", who=t.who.id)


@TABLE.applies("give")
def _give(t: Turn, action: Action) -> None:
    items = t.who.adv.inventory.items
    index = int(action.param("index"))
    if not 0 <= index < len(items):
        raise RuleError(f"{t.who.name} has no item {index}")
    ally = core.member(t.gm, action.target or "")
    if ally is None:
        raise RuleError("that adventurer is gone")
    give(t.gm, t.who, items[index], ally)
    _shield_gone(t)


@TABLE.applies("pickup")
def _pickup(t: Turn, action: Action) -> None:
    drop = t.cs.dropped.pop(int(action.param("index")))
    core.give_back(t.gm, t.who, drop)


def arm_by_key(gm: GM, who: Member, f: Fighter, key: str) -> Arm:
    for arm in arms_of(gm, who, f):
        if arm.key == key:
            return arm
    raise RuleError(f"{who.name} has no {key} to attack with")


def fighter_test(gm: GM, cs: CombatState, f: Fighter, who: Member, attr: Attr, reason: str, **options: Any) -> TestRoll:
    """A test in ``who``'s own action, with the help an ally gave."""
    return gm.test(who, attr, reason, helper=helper_of(gm, cs, f), in_combat=True, **options)


def _recover(gm: GM, cs: CombatState, f: Fighter, who: Member, what: str, attr: object) -> None:
    f.bound = False
    if what == "stun":
        f.stun -= 1
        gm.emit("recover", f"{who.name} shakes off a stun token.", who=who.id, stun=f.stun)
    elif what in ("shield", "dodge"):
        if what == "shield":
            f.shield -= 1
        else:
            f.dodge -= 1
        got = who.adv.character.recover_fatigue(Attr.parse(str(attr)), 1)
        gm.emit("recover", f"{who.name} drops a {what} token and recovers {got} {attr} fatigue.", who=who.id)
    else:
        gm.emit("recover", f"{who.name} shakes off the bind.", who=who.id)


def _move(gm: GM, cs: CombatState, f: Fighter, who: Member, to: tuple[int, int]) -> None:
    steps = grid.distance(f.tile, to)
    where = " to the way out" if cs.exit is not None and tuple(cs.exit) == tuple(to) else ""
    gm.emit("move", f"{who.name} moves {steps} tile{'s' if steps != 1 else ''}{where}.", who=who.id,
            frm=list(f.tile), to=list(to))  # fmt: skip
    f.x, f.y = to
    if f.shield and not who.adv.character.has_skill("Shield Master"):
        f.shield = 0  # "Moving will remove any unused shield tokens" (Shield Master: "Moving does not remove")


def defend_now(gm: GM, f: Fighter, who: Member) -> None:
    held = shield_of(gm, who)
    if held is None:
        raise RuleError("no shield")
    ch = who.adv.character
    tokens = held[1].tokens + (1 if ch.has_skill("Shield Expert") or ch.has_skill("Shield Master") else 0)
    f.shield = min(core.MAX_SHIELD, f.shield + tokens)
    gm.emit("defend", f"{who.name} raises the {held[1].name}: {f.shield} shield token(s).", who=who.id,
            shield=f.shield)  # fmt: skip


def _dodge(gm: GM, cs: CombatState, f: Fighter, who: Member) -> None:
    roll = fighter_test(gm, cs, f, who, Attr.DEX, "dodging")
    v = roll.verdict
    if v.success:
        f.dodge += DODGE_TOKENS + (DODGE_GREAT_EXTRA if v.great_success else 0)
    gm.emit("dodge", f"{who.name} has {f.dodge} dodge token(s).", who=who.id, dodge=f.dodge)


def _break_free(gm: GM, cs: CombatState, f: Fighter, who: Member) -> None:
    f.broke_free_tried = True
    roll = fighter_test(gm, cs, f, who, Attr.STR, "breaking free")
    if roll.verdict.success and f.grabbed_by is not None:
        foe = cs.foe(f.grabbed_by)
        foe.grabbing = None
        f.grabbed_by = None
        gm.emit("free", f"{who.name} breaks free.", who=who.id)


def _help(gm: GM, cs: CombatState, f: Fighter, who: Member, g: Fighter) -> None:
    g.helped_by = f.id
    # "Next turn": the ally's coming turn, if it has not begun yet in this phase
    g.help_ready = g.fast == (cs.phase == "fast") and not g.turn_started and cs.phase in ("fast", "slow")
    ally = core.member(gm, g.id)
    gm.emit("help", f"{who.name} will help {ally.name if ally else g.id} next turn.", who=who.id, ally=g.id)


def _detach(gm: GM, cs: CombatState, f: Fighter, who: Member, g: Fighter) -> None:
    leech = next((e for e in cs.active_foes() if e.attached == g.id), None)
    if leech is not None:
        leech.attached = None
        gm.emit("detach", f"{who.name} pulls off the {leech.monster}.", who=who.id)
    elif g.worms:
        g.worms -= 1
        gm.emit("detach", f"{who.name} pulls out a worm.", who=who.id)


def _use_item(gm: GM, cs: CombatState, f: Fighter, who: Member, name: str, g: Fighter) -> None:
    entry = next(i for i in alchemy.usable_items(gm.content) if i.name == name)
    item = who.adv.inventory.find(name)
    target = core.member(gm, g.id)
    if item is None or target is None:
        raise RuleError(f"{who.name} has no {name}")
    for effect in entry.effects:
        gm.apply_row(target, effect, name)
        powers.item_effect(gm, target, effect.special, name, (cs, g))  # its tag's handler (powers.ITEM_SPECIALS)
    use_up(gm, who, item)


@_for_fighter
def _throw_actions(gm: GM, cs: CombatState, f: Fighter, who: Member) -> list[Action]:
    """Throw an explosive potion at an enemy's tile, Nearby (1 action)."""
    out: list[Action] = []
    for item in who.adv.inventory.items:
        recipe = alchemy.potion(gm.content, item.name)
        if recipe is None or not any(e.special == "thrown_at_tile" for e in recipe.effects):
            continue
        for foe in cs.active_foes():
            far = grid.distance(f.tile, foe.tile)
            reason = None if far <= grid.NEARBY else f"Out of reach: {far} tiles away."
            out.append(offer(f"throw:{f.id}:{item.name}:{foe.id}", "throw", f"{who.name}: throw the {item.name} at "
                            f"{core.label(foe)}", f, target=foe.id, reason=reason, params=(("item", item.name),),
                            rule=recipe.text, items=(item.name,)))  # fmt: skip
        break
    return out


@TABLE.applies("throw")
def _throw(t: Turn, action: Action) -> None:
    """The explosive potion: "2 wounds to anyone in that tile and 1 wound to anyone close, damage can be
    reduced"."""
    gm, cs, who = t.gm, t.cs, t.who
    item = who.adv.inventory.find(str(action.param("item")))
    if item is None:
        raise RuleError(f"{who.name} has no {action.param('item')}")
    at = cs.foe(action.target or "").tile
    gm.emit("explosion", f"{who.name} throws the {item.name}: it bursts!", who=who.id, tile=list(at))
    use_up(gm, who, item)
    for e in cs.active_foes():
        if e.tile == at or grid.close(e.tile, at):
            hurt_foe(gm, cs, e, 2 if e.tile == at else 1, item.name, attacker=t.f, fire=True, hit=False)
    for g, m in core.standing(gm, cs):
        if grid.close(g.tile, at):
            core.hurt_member(gm, cs, g, m, 1, item.name, from_attack=False)


def _stabilise(gm: GM, cs: CombatState, f: Fighter, who: Member, name: str, g: Fighter) -> None:
    from rules.injury import stabilise

    item = who.adv.inventory.find(name)
    target = core.member(gm, g.id)
    if item is None or target is None:
        raise RuleError("nothing to stabilise with")
    if stabilise(target.adv.character):
        g.bleeding_out = None
        gm.emit("stabilise", f"{who.name} stabilises {target.name} with a {name}.", who=who.id, ally=target.id)
        entry = next((i for i in gm.content.items.items if i.name == name), None)
        for effect in entry.effects if entry is not None else []:
            gm.apply_row(target, effect, name)
    use_up(gm, who, item)


def take_in_hand(gm: GM, who: Member, name: str) -> None:
    """Take a carried weapon or shield in hand; what was in that hand goes back to the pack (or stays held)."""
    inv = who.adv.inventory
    item = next((i for i in inv.items if i.name == name and not i.equipped), None)
    if item is None:
        raise RuleError(f"{who.name} carries no spare {name}")
    shield = is_shield(gm, name)
    entry = weapon_entry(gm, name)
    two_hands = entry is not None and entry.hands == 2
    hands = list(HANDS)
    if not two_hands:
        # keep a shield (or weapon) in the other hand: replace the same kind of thing
        def holds_same(h: str) -> bool:
            held = [i for i in in_hands(who) if i.place == h]
            return any(is_shield(gm, i.name) if shield else weapon_entry(gm, i.name) is not None for i in held)

        hands = [h for h in HANDS if holds_same(h)] or [h for h in HANDS if not any(i.place == h for i in inv.items)]
        hands = hands[:1] or [HANDS[0]]
    for h in hands:
        for old in [i for i in inv.items if i.place == h and i is not item]:  # the spare may sit in that hand
            if old.name.startswith("("):
                inv.remove(old)
                continue
            old.equipped = False
            inv.remove(old)
            try:
                inv.add(old)
            except RuleError:
                inv.items.append(old)
                old.place = h
    for old in [i for i in inv.items if i.name.startswith("(") and i.name.endswith(")")]:
        inv.remove(old)
    inv.remove(item)
    item.place = hands[0]
    item.equipped = True
    inv.items.append(item)
    if two_hands:
        from rules.inventory import Carried

        inv.items.append(Carried(f"({name})", hands[1], slots=1, notes="two-handed grip"))
    gm.emit("equip", f"{who.name} takes the {name} in hand.", who=who.id, item=name)




# --- attacks -------------------------------------------------------------------------------------------------


def _spend_foe_tokens(gm: GM, foe: Foe, roll: TestRoll, free: int, offered: int, ignore_shields: bool) -> None:
    """Tokens the enemy spent: the GM's rerolls beyond those its disadvantage gave for free."""
    used = sum(1 for r in roll.history if r.side is Side.GM)
    spent = min(offered, max(0, used - free))
    if spent <= 0:
        return
    dodge = min(foe.dodge, spent)
    shield = 0 if ignore_shields else min(foe.shield, spent - dodge)
    foe.dodge -= dodge
    foe.shield -= shield
    gm.emit("foe_tokens", f"{core.label(foe)} spends {dodge} dodge and {shield} shield token(s).", foe=foe.id)
    if shield:
        m = core.sheet(gm, foe.monster)
        if any(a.rule == "shield_breaks_when_used" for a in m.actions):
            foe.shield_gone = True
            foe.shield = 0
            gm.emit("foe_shield_gone", f"{core.label(foe)}'s cracked shield falls apart.", foe=foe.id)


def _immobile(cs: CombatState, foe: Foe) -> bool:
    """Immobilised: incapacitated this turn, stunned, or holding someone in its grip."""
    return foe.immobilized_round >= cs.round or foe.stun > 0


def _next_enemy_round(cs: CombatState) -> int:
    """The round of the enemies' next turn."""
    return cs.round if cs.phase == "fast" else cs.round + 1


# --- attack modes: what a manoeuvre made as an attack changes, a handler per mode -----------------------------


@dataclass(frozen=True)
class AttackMode:
    """What an attack made with a manoeuvre (``mode``, its name in lower case) changes, at the moments
    :func:`attack` asks: the wounds of a hit (``wounds``, before armour), after a hit (``hit``, with whether the
    enemy was up before it), after a miss (``missed``), and whether the weapon leaves the hand (``thrown``).  A
    mode with no handler only names the attack."""

    key: str
    wounds: Callable[[GM, CombatState, Fighter, Foe, int], int] | None = None
    hit: Callable[[GM, CombatState, Fighter, Member, Foe, bool], None] | None = None
    missed: Callable[[GM, CombatState, Fighter, Member, Foe], None] | None = None
    thrown: bool = False


#: The attack modes that change the blow, by mode.  Adding one is a handler and a ``register_attack_mode`` line.
ATTACK_MODES: dict[str, AttackMode] = {}


def register_attack_mode(mode: AttackMode) -> AttackMode:
    if mode.key in ATTACK_MODES:
        raise ValueError(f"attack mode {mode.key!r} already has a handler")
    ATTACK_MODES[mode.key] = mode
    return mode


def _reckless(gm: GM, cs: CombatState, f: Fighter, foe: Foe, wounds: int) -> int:
    """Reckless attack: one wound more, and the attacker is open until their next turn."""
    f.reckless = True
    return wounds + 1


def _clean_kill(gm: GM, cs: CombatState, f: Fighter, foe: Foe, wounds: int) -> int:
    """Clean kill: double wounds on an immobilised enemy."""
    return wounds * 2 if _immobile(cs, foe) else wounds


def _incapacitating(gm: GM, cs: CombatState, f: Fighter, foe: Foe, wounds: int) -> int:
    """Incapacitating strike: at most one wound, and the enemy loses its next turn."""
    foe.immobilized_round = core.next_enemy_round(cs)
    return min(wounds, 1)


def _glorious_hit(gm: GM, cs: CombatState, f: Fighter, who: Member, foe: Foe, was_alive: bool) -> None:
    if was_alive and not foe.active and not cs.active_foes():
        _glorious(gm, who)


def _glorious_miss(gm: GM, cs: CombatState, f: Fighter, who: Member, foe: Foe) -> None:
    gm.fatigue(who, "a failed glorious finish", Attr.PRE)


register_attack_mode(AttackMode("reckless attack", wounds=_reckless))
register_attack_mode(AttackMode("clean kill", wounds=_clean_kill))
register_attack_mode(AttackMode("incapacitating strike", wounds=_incapacitating))
register_attack_mode(AttackMode("glorious finish", hit=_glorious_hit, missed=_glorious_miss))
register_attack_mode(AttackMode("wing it", thrown=True))  # a melee weapon thrown: it lands by the target


def attack(
    gm: GM,
    cs: CombatState,
    f: Fighter,
    who: Member,
    arm: Arm,
    foe: Foe,
    *,
    mode: str = "",
    attack_with: Attack | None = None,
    attr_override: Attr | None = None,
    extra_dice: int = 0,
    extra_disadvantage: int = 0,
) -> bool:
    """An adventurer's attack on an enemy; returns True on a hit.  ``mode``, the manoeuvre it is made with, names
    it in the test's reason; its handler in :data:`ATTACK_MODES`, if it has one, changes the blow."""
    way = ATTACK_MODES.get(mode)
    ch = who.adv.character
    atk, attr, adv, dis, offered, backstab = _aim(gm, cs, f, who, arm, foe, attack_with, attr_override,
                                                  extra_disadvantage)  # fmt: skip
    fury = f.effects.pop("Righteous Fury", 0) >= cs.round  # "3 extra dice in the next row ... one wound"
    if fury:
        extra_dice += 3
    reason = f"attacking {core.label(foe)} with the {arm.name}" + (f" ({mode})" if mode else "")
    if arm.silver:
        ch.silver -= arm.silver
    if f.free_crit:
        f.free_crit = False
        hit, crit = True, True
        gm.emit("stalker", f"{who.name} strikes from the shadows: a free critical hit.", who=who.id)
    else:
        roll = fighter_test(
            gm, cs, f, who, attr, reason, advantage=adv, disadvantage=dis, opponent_rerolls=offered,
            dice=arm.dice + extra_dice,
        )  # fmt: skip
        _spend_foe_tokens(gm, foe, roll, max(0, dis - adv), offered, arm.ignore_shields)
        hit, crit = roll.verdict.success, roll.verdict.great_success
    wake(gm, foe)  # an attack disturbs a sleeper, hit or miss
    _after_throw(gm, cs, f, who, arm, foe, mode)
    if arm.reload and arm.key not in f.unloaded:
        f.unloaded.append(arm.key)
    if not hit:
        _miss(gm, cs, f, who, arm, foe, way)
        return False
    wounds = atk.wounds(crit)
    effects = atk.effects_on(crit)
    if backstab:
        wounds += 1  # Cold blood: "you cause one extra wound"
    if fury:
        wounds += 1
    if way is not None and way.wounds is not None:
        wounds = way.wounds(gm, cs, f, foe, wounds)
    gm.emit("hit_foe", f"{who.name} hits {core.label(foe)}" + (" — a critical hit!" if crit else "."), who=who.id,
            foe=foe.id, critical=crit)  # fmt: skip
    was_alive = foe.active
    dealt = hurt_foe(
        gm, cs, foe, wounds, f"{who.name}'s {arm.name}", effects=effects, attacker=f, magic=arm.spell,
        pre=Attr.PRE in atk.attributes, impact=arm.impact, ignore_resist=backstab,
    )  # fmt: skip
    _weapon_on_hit(gm, cs, f, who, arm, foe, wounds, dealt)
    if way is not None and way.hit is not None:
        way.hit(gm, cs, f, who, foe, was_alive)
    return True


powers.FIGHT_ATTACK = attack


def _aim(
    gm: GM,
    cs: CombatState,
    f: Fighter,
    who: Member,
    arm: Arm,
    foe: Foe,
    attack_with: Attack | None = None,
    attr_override: Attr | None = None,
    extra_disadvantage: int = 0,
) -> tuple[Attack, Attr, int, int, int, bool]:
    """How ``who``'s blow with ``arm`` at ``foe`` is rolled: the notation, the attribute, advantage and
    disadvantage, the enemy's tokens that force rerolls, and whether Cold blood's backstab applies."""
    ch = who.adv.character
    atk = attack_with or arm.attack
    if attack_with is None and arm.close_attack is not None and grid.close(f.tile, foe.tile):
        atk = arm.close_attack  # Long Spear: "When hitting tiles close use (-STR 1+1)"
    attrs = list(atk.attributes)
    backstab = ch.has_trait("Cold blood") and core.engaged(gm, cs, foe, f)
    if backstab and Attr.STR in attrs and Attr.DEX not in attrs:
        attrs.append(Attr.DEX)  # Cold blood: "you may use Dexterity to hit with weapons that would require Strength"
    if core.lasting(cs, f, "Telekinesis") and Attr.STR in attrs and Attr.INT not in attrs:
        attrs.append(Attr.INT)  # Telekinesis: "use any weapon with intelligence as strength for one turn"
    attr = attr_override or max(attrs, key=lambda a: (ch.available(a, in_combat=True), -attrs.index(a)))
    adv, dis = _edge(gm, cs, f, who, foe, atk, extra_disadvantage)
    offered = foe.dodge + (0 if arm.ignore_shields else foe.shield)
    return atk, attr, adv, dis, offered, backstab


def hit_odds(gm: GM, cs: CombatState, f: Fighter, who: Member, arm: Arm, foe: Foe) -> float:
    """The exact chance that ``who``'s blow with ``arm`` hits ``foe`` now, rolled as :func:`attack` rolls it (the
    help an ally gave, the enemy's tokens, advantage and disadvantage; the player's extra effort aside)."""
    if f.free_crit:
        return 1.0
    _atk, attr, adv, dis, offered, _ = _aim(gm, cs, f, who, arm, foe)
    extra = arm.dice + (3 if f.effects.get("Righteous Fury", 0) >= cs.round else 0)
    options: dict[str, Any] = {"advantage": adv, "disadvantage": dis, "opponent_rerolls": offered}
    helper = helper_of(gm, cs, f)
    if helper is not None:
        options.update(help=True, helper_proficiency=helper.adv.character.attr(attr).proficiency)
    spec = who.adv.character.test_spec(attr, in_combat=True, **options)
    return odds(spec.with_(dice=spec.dice + extra) if extra else spec).success


def _edge(
    gm: GM, cs: CombatState, f: Fighter, who: Member, foe: Foe, atk: Attack, extra_disadvantage: int
) -> tuple[int, int]:
    """The advantage and disadvantage of ``f``'s attack on ``foe``: the notation's, the enemy's, the fight's."""
    adv = 1 if atk.modifier is Modifier.ADVANTAGE else 0
    dis = (1 if atk.modifier is Modifier.DISADVANTAGE else 0) + extra_disadvantage
    if "disadvantage_to_hit" in core.rules_of(core.sheet(gm, foe.monster)):
        dis += 1
    if foe.tricked_round >= cs.round:
        adv += 1  # Dirty tricks: "Any ally attacking this enemy has advantage."
    if core.lasting(cs, foe, "Bonedance"):
        adv += 1  # "All tests made against that creature are made with advantage."
    if foe.tile in cs.night and f.id != cs.night_by:
        dis += 1  # Black night: "can't see" into it; "The wizard can see normally through the darkness."
    if powers.blind(gm, who):
        dis += 1  # a spell mishap's blindness (RULINGS R206)
    return adv, dis


def _miss(gm: GM, cs: CombatState, f: Fighter, who: Member, arm: Arm, foe: Foe, way: AttackMode | None) -> None:
    gm.emit("miss", f"{who.name} misses {core.label(foe)}.", who=who.id, foe=foe.id)
    if "flail_self_hit" in arm.rules:
        face = d(gm.rng, 6)
        if face == 1:  # "If you miss, roll a d6, on a 1 you hit yourself with 1 wound."
            core.hurt_member(gm, cs, f, who, 1, "the flail swings back", from_attack=False)
    if way is not None and way.missed is not None:
        way.missed(gm, cs, f, who, foe)


def _after_throw(gm: GM, cs: CombatState, f: Fighter, who: Member, arm: Arm, foe: Foe, mode: str) -> None:
    """A thrown weapon or item leaves the hand: a usage die for supplies, else it lands by the target."""
    way = ATTACK_MODES.get(mode)
    if not (arm.thrown or (way is not None and way.thrown)):
        return
    name = arm.item or arm.key.split(" (")[0]
    item = next((i for i in who.adv.inventory.items if i.name == name), None)
    if item is None:
        return
    if item.usage is not None or item.count > 1:
        use_up(gm, who, item)
        return
    who.adv.inventory.remove(item)
    for grip in [i for i in who.adv.inventory.items if i.name == f"({name})"]:
        who.adv.inventory.remove(grip)
    cs.dropped.append(Dropped(f.id, item, foe.x, foe.y))


def _weapon_on_hit(
    gm: GM, cs: CombatState, f: Fighter, who: Member, arm: Arm, foe: Foe, wounds: int, dealt: int
) -> None:
    m = core.sheet(gm, foe.monster)
    if "dodge_token_on_hit" in arm.rules:
        f.dodge += 1  # Quarterstaff: "On hit add one dodge token to the attacker."
    if "stun_if_unarmored" in arm.rules and foe.active and (m.armor == 0 or foe.ap == 0):
        core.add_stun(gm, cs, foe, 1, f"{who.name}'s {arm.name}")
    if "stun_on_six" in arm.rules and foe.active:
        face = d(gm.rng, 6)
        if face == 6:
            core.add_stun(gm, cs, foe, 1, f"{who.name}'s {arm.name} (d6: 6)")
    if "breaks_when_fully_reduced" in arm.rules and wounds > 0 and dealt == 0:
        face = d(gm.rng, 6)
        if face == 1:
            item = who.adv.inventory.find(arm.name)
            if item is not None:
                who.adv.inventory.remove(item)
                gm.emit("breaks", f"{who.name}'s {arm.name} breaks (d6: 1).", who=who.id)


def _glorious(gm: GM, who: Member) -> None:
    """Glorious finish on the last enemy: the whole party recovers one presence fatigue or wound."""
    for m in gm.alive():
        ch = m.adv.character
        if ch.attrs[Attr.PRE].fatigue and ch.recover_fatigue(Attr.PRE, 1):
            continue
        ch.heal_wounds(Attr.PRE, 1)
    gm.emit("glorious", f"{who.name}'s glorious finish lifts the party's spirits.", who=who.id)


# --- manoeuvres, spells and skills ----------------------------------------------------------------------------


def _manoeuvre_apply(gm: GM, cs: CombatState, f: Fighter, who: Member, action: Action) -> None:
    """A manoeuvre's action: its handler (:data:`rules.gm.powers.MANOEUVRES`, :mod:`rules.gm.manoeuvres`)."""
    key = str(action.param("name"))
    mv = _manoeuvre(gm, key)
    handler = powers.MANOEUVRES.get(key)
    if mv is None or handler is None or handler.apply is None:
        raise RuleError(f"no manoeuvre {key!r} to do")
    foe = cs.foe(action.target) if action.target else None
    if mv.once_per_combat:
        f.used.append(key)
    handler.apply(_moment(gm, cs, f, who, mv), action, foe)


def _feint(gm: GM, cs: CombatState, f: Fighter, who: Member, foe: Foe) -> None:
    had_shield = foe.shield > 0
    foe.shield = foe.dodge = 0
    gm.emit("feint", f"{who.name} feints: {core.label(foe)} loses its shield and dodge tokens.", who=who.id,
            foe=foe.id)  # fmt: skip
    if had_shield and who.adv.character.has_skill("Swashbuckler"):
        foe.pinned_round = core.next_enemy_round(cs)  # "your opponent may not attack next turn"


def _intimidate(gm: GM, cs: CombatState, f: Fighter, who: Member) -> None:
    f.used.append("intimidate")
    atk = parse_attack("PRE 1N")  # "attacking with PRE 1N all nearby enemies"
    for foe in list(cs.active_foes()):
        if grid.distance(f.tile, foe.tile) > grid.NEARBY or core.lasting(cs, foe, "Arcane prison"):
            continue
        if fighter_test(gm, cs, f, who, Attr.PRE, f"intimidating {core.label(foe)}").verdict.success:
            hurt_foe(gm, cs, foe, atk.damage, f"{who.name}'s intimidation", effects=frozenset({Effect.NON_LETHAL}),
                          attacker=f, pre=True)  # fmt: skip


def _pray(
    gm: GM, cs: CombatState, f: Fighter, who: Member, prayer: str, target: powers.Target, *, plea: bool
) -> None:
    """Invoke a prayer in a fight: the PRE test first (failure: ignored; critical failure: the god is angered;
    great success: a miracle too), then its effect on ``target``."""
    prayers = who.adv.prayers
    power = powers.handler("prayer", prayer)
    if prayers is None or power is None or power.fight is None:
        raise RuleError(f"{who.name} cannot pray for {prayer} here")
    spec = who.adv.character.test_spec(Attr.PRE, in_combat=True)
    extra, book = powers.banishing_dice(gm, who, "prayer", prayer)
    if extra:
        spec = replace(spec, dice=spec.dice + extra)
        gm.emit("bonus_dice", f"{who.name}'s {book.lower()}: {extra} extra die against the undead.", who=who.id)
    res = invoke_prayer(
        prayers,
        prayer,
        spec,
        gm.rng,
        gm.content.magic.miracles,
        has_holy_symbol=carries(who, gm.content, "holy_symbol"),
        desperate_plea=plea,
        player=gm.rerolls_of(who),
        woven=gm.woven(who, f"praying for {prayer}"),
    )
    gm.show_test(who, Attr.PRE, f"praying for {prayer}", res.test)
    if res.test.verdict.fatigue and not gm.morale_pays(who, f"praying for {prayer}"):
        gm.fatigue(who, f"praying for {prayer}", Attr.PRE)
    if res.outcome in (PrayerOutcome.IGNORED, PrayerOutcome.ANGERED):
        text = "The god does not answer." if res.outcome is PrayerOutcome.IGNORED else "The god is angered!"
        gm.emit("prayer", f"{who.name} prays for {prayer}. {text}", who=who.id, outcome=res.outcome.value)
        return
    gm.emit("prayer", f"{who.name}'s prayer for {prayer} is answered.", who=who.id, prayer=prayer,
            outcome=res.outcome.value)  # fmt: skip
    power.fight(gm, cs, f, who, target)
    if res.miracle is not None:
        gm.emit("miracle", f"A miracle! {res.miracle.text}", who=who.id, roll=res.miracle_roll)
        powers.miracle(gm, who, res.miracle.special or "", res.miracle)


def _cast(gm: GM, cs: CombatState, f: Fighter, who: Member, spell: str, target: powers.Target | None = None) -> None:
    """Cast a spell in a fight: it works, then the INT test (forgotten on a failure; a mishap on a critical
    one)."""
    book = who.adv.spellbook
    if book is None:
        raise RuleError(f"{who.name} has no spells")
    power = powers.handler("spell", spell) if spell not in WEAPON_SPELLS else None
    if spell not in WEAPON_SPELLS and (power is None or power.fight is None or target is None):
        raise RuleError(f"{spell} has no use in a fight")
    ch = who.adv.character
    spec = ch.test_spec(Attr.INT, in_combat=True)
    res = cast_spell(
        book,
        spell,
        spec,
        gm.rng,
        gm.content.magic.spell_mishaps,
        has_conductor=has_conductor(gm, who),
        player=lambda t: gm.decider.reroll(gm, who, t),
        woven=gm.woven(who, f"keeping {spell} in mind"),
    )
    # the spell works first; what the INT test did to it is told after its dice ("casts Magic Shield: cast." was
    # the outcome's code name, before the effect and the dice)
    gm.emit("cast", f"{who.name} casts {spell}.", who=who.id, spell=spell, outcome=res.outcome.value)
    if power is not None and power.fight is not None:
        power.fight(gm, cs, f, who, target)
    else:
        f.spells.append(spell)
    if res.test is not None:
        gm.show_test(who, Attr.INT, f"keeping {spell} in mind", res.test)
        v = res.test.verdict
        if v.fatigue and not gm.morale_pays(who, f"casting {spell}"):
            gm.fatigue(who, f"casting {spell}", Attr.INT)
        if v.critical_failure and ch.has_trait("Bad omens"):
            gm.advance_omens(1, f"{who.name}'s bad omens")
    lost = " It slips from memory." if spell in book.forgotten else ""
    words = {
        SpellOutcome.CAST: "",
        SpellOutcome.FORGOTTEN: f"{spell} slips from {who.name}'s memory.",
        SpellOutcome.MISHAP: f"A mishap!{lost}",
        SpellOutcome.ARCANE_WELL: "An arcane well opens: the next spell cannot fail.",
        SpellOutcome.AUTOMATIC: "The arcane well carries the spell.",
    }[res.outcome]
    if words:
        gm.emit("spell_test", words, who=who.id, outcome=res.outcome.value)
    if res.outcome is SpellOutcome.MISHAP and res.mishap is not None:
        powers.mishap(gm, who, res.mishap, cs)
    for g, m in core.standing(gm, cs):
        if g is not f and "visions" in m.adv.character.traumas and grid.distance(g.tile, f.tile) <= grid.NEARBY:
            core.add_stun(gm, cs, g, 1, "visions")  # "When someone casts a spell nearby you receive a stun token."
