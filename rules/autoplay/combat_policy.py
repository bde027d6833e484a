"""The autoplay policy for combat: a sensible player, for ``blacksalt simulate`` and "let the GM decide".

In order: recover when stunned; leave a fight that is lost (half the party
down, dice nearly gone against fresh enemies, or no weapon that can harm any
enemy) through the door, walking towards it if need be — once the dying in
reach are stabilised or prayed for; stabilise the dying,
help the collapsed up, pull off what clings; break free of a grab; bandage a
bleeding wound; pick up a dropped weapon; guard when badly hurt; attack the
most hurt enemy in reach with something that can harm it and an attribute that
still has dice; cast a combat spell; dodge when hurt; catch breath when an
attribute has run dry; close in on the enemies; raise the shield; catch
breath; end the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import TYPE_CHECKING

from rules.attributes import ATTRS, Attr
from rules.autoplay import powers_policy
from rules.character import Condition
from rules.checks import TestSpec
from rules.content.schema_bestiary import Monster
from rules.gm import combat_core as core
from rules.gm import combat_grid as grid
from rules.gm.combat_gear import Arm, arms_of
from rules.gm.combat_state import CombatState, Fighter, Foe
from rules.gm.events import Action
from rules.notation import Attack, Modifier
from rules.odds import odds

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


HEALING_PRAYER = "Cure Light Wounds"


def _healing_prayer(gm: GM, mine: list[Action], *, dying_only: bool = False) -> Action | None:
    """A cleric prays for Cure Light Wounds on whoever needs it most: the dying first, then the bleeding and the
    badly hurt (two wounds or more).  Not on the hungry (their wounds do not heal), and the desperate plea only
    for the dying."""
    best: tuple[int, Action] | None = None
    for a in mine:
        if a.kind != "pray" or a.param("prayer") != HEALING_PRAYER or not a.target:
            continue
        m = core.member(gm, a.target)
        if m is None or "hungry" in m.adv.character.afflictions:
            continue
        ch = m.adv.character
        wounds = sum(ch.attrs[x].wounds for x in ATTRS)
        dying = ch.condition is Condition.MORTALLY_WOUNDED
        bleeding = "bleeding" in ch.afflictions
        if a.param("plea") and not dying:
            continue
        if not (dying or bleeding or wounds >= 2) or (dying_only and not dying):
            continue
        need = 10 * dying + 3 * bleeding + wounds
        if best is None or need > best[0]:
            best = (need, a)
    return best[1] if best is not None else None


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
    if should_flee(gm, cs):
        # the dying first: left behind, they die (the sims: a cleric walked off from a dying ally it could heal)
        keep = first("stabilise") or _healing_prayer(gm, mine, dying_only=True)
        if keep is not None:
            return keep
        retreat = _retreat(gm, cs, f, first, moves)
        if retreat is not None:
            return retreat
    for kind in ("stabilise", "help_up", "detach"):
        a = first(kind)
        if a is not None:
            return a
    a = _healing_prayer(gm, mine) or powers_policy.in_fight(gm, cs, f, mine)
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
    swarm = [a for a in mine if a.kind == "swarm" and a.target]
    if swarm:  # free: send the swarm at the weakest enemy it reaches
        return min(swarm, key=lambda a: core.sheet(gm, cs.foe(a.target or "").monster).wounds
                   - cs.foe(a.target or "").wounds)  # fmt: skip
    power = _best_power(gm, cs, f, mine)
    if power is not None:
        return power
    attack = _best_attack(gm, cs, who, mine, arms)
    if attack is not None:
        return attack
    cast = first("cast", lambda x: not x.target)  # a weapon spell (Magic Missile, Silver cannon)
    if cast is not None:
        return cast
    # a dodge is a DEX test: with no DEX die left it only forces fatigue that does not fit, and the dodger
    # collapses (#14: a tired party of three dodged itself to the floor, round after round, against one Goblin
    # Scrapper, where catching its breath gave it back a die in every attribute)
    legs = ch.available(Attr.DEX, in_combat=True) > 0
    if hurt and f.actions >= 2 and legs:
        a = first("dodge")
        if a is not None:
            return a
    dry = any(ch.attrs[a].available <= 0 and ch.attrs[a].fatigue for a in ATTRS)
    if dry:
        a = first("breath")
        if a is not None:
            return a
    if attack is None and _in_danger(gm, cs, f):
        # nothing to strike with where enemies can strike: step out of their reach, or dodge; out through the door
        # only when cornered (whoever leaves takes the party with them, since the others follow: #14, a fighter
        # of STR 0 with a hammer walked out of fights the others were winning)
        a = _away(moves, f, [e.tile for e in cs.active_foes()])
        if a is None and f.actions >= 2 and legs:
            a = first("dodge")
        if a is None:
            a = _retreat(gm, cs, f, first, moves)
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


def _in_danger(gm: GM, cs: CombatState, f: Fighter) -> bool:
    """An enemy stands Close to ``f``."""
    return any(grid.close(e.tile, f.tile) for e in cs.active_foes())


def _retreat(
    gm: GM,
    cs: CombatState,
    f: Fighter,
    first: Callable[[str], Action | None],
    moves: list[Action],
) -> Action | None:
    """Leave the fight without leaving behind anyone who could still come along: help a collapsed ally up
    first, then out through the door (walking towards it if it is out of reach).  (Fast adventurers staying
    a round with their slow allies to share the blows was measured: more deaths, not fewer.)"""
    a = first("help_up")
    if a is not None:
        return a
    return first("flee") or _towards(moves, f, [cs.exit] if cs.exit else [])


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


#: Powers the autoplay aims at an enemy, best first: it puts the strongest enemy out of the fight (RULINGS
#: R192 says what each does).  Powers that need a finer judgement (Nether swap, Arcane fire, Phobia...) are left
#: to the player.
DISABLING = ("Mercy", "Arcane prison", "Hold", "Command undead", "Nightmare", "Pain", "Glue", "Shackles",
             "Memento mori", "Bonedance")  # fmt: skip
#: Powers on the caster worth a first action when enemies are about.
WARDS = ("Magic Shield",)
#: What already takes an enemy out of the fight: not worth a second power.
_OUT = ("Arcane prison", "Hold", "Command undead", "Nightmare", "Glue", "Purge the filth")


def _strength(gm: GM, cs: CombatState, e: Foe) -> tuple[int, int]:
    m = core.sheet(gm, e.monster)
    return m.level, m.wounds - e.wounds


def _best_power(gm: GM, cs: CombatState, f: Fighter, mine: list[Action]) -> Action | None:
    """A wizard stuns, holds or imprisons the strongest enemy its powers reach (not a last bare straggler); a cleric
    grants mercy to the nearly dead; a shield spell goes up first."""
    powers = [a for a in mine if a.kind in ("cast", "pray") and a.target]
    if not powers:
        return None
    for a in powers:
        if a.param("spell") in WARDS and a.target == f.id and WARDS[0] not in f.effects:
            return a
        if a.param("prayer") == "Swarm" and not cs.summoned(f.id) and not a.param("plea"):
            return a  # a swarm to command is worth a prayer
    foes = cs.active_foes()
    free = [e for e in foes if not any(core.lasting(cs, e, x) for x in _OUT)]
    options: list[tuple[tuple[int, int, int], Action]] = []
    for a in powers:
        name = str(a.param("spell") or a.param("prayer"))
        target = a.target or ""
        if name not in DISABLING or not target.startswith("e") or a.param("plea"):
            continue
        e = cs.foe(target)
        if e not in free or (name == "Shackles" and f.channel):
            continue
        if name == "Arcane prison" and len(free) < 2:
            continue  # nothing touches the crystal: locking the last free enemy stalls the fight (wizard playtest)
        level, left = _strength(gm, cs, e)
        if name != "Mercy" and len(foes) < 2 and left <= 2 and e.ap == 0:
            continue  # one weak, unarmoured enemy left: strike it down instead
        options.append(((level, left, -DISABLING.index(name)), a))
    # the strongest enemy the powers reach (an out-of-reach stronger one no longer stops the caster: the
    # necromancer stood by, or scratched at an armoured husk with a dagger, with Command undead in mind)
    return max(options, key=lambda o: o[0])[1] if options else None


def _away(moves: list[Action], f: Fighter, threats: list[tuple[int, int]]) -> Action | None:
    """The move that takes ``f`` out of every threat's Close reach, the furthest from them, if there is one."""
    if not moves or not threats:
        return None

    def gap(a: Action) -> int:
        t = (int(a.param("x")), int(a.param("y")))
        return min(grid.distance(t, g) for g in threats)

    best = max(moves, key=gap)
    return best if not any(grid.close((int(best.param("x")), int(best.param("y"))), g) for g in threats) else None


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
    """The party is losing badly: more than half of it is down.

    Its dice nearly gone while the enemies are fresh was a reason too, and it made the party flee a lone Goblin
    Scrapper or Giant Leech it would have beaten (#14): an adventurer with no die left still fights (the blow lands
    on the armour, fatigue is pushed), and fleeing past the enemy costs more.  Scripted, a level-1 party of three
    two fatigue down in every attribute against one aware Goblin Scrapper: fleeing at once lost 1.33 lives per
    copy, fighting on 0.67 (and fighting on without that rule, in the copies too, fewer).  The dice left are the
    lookahead's to weigh (:func:`rules.autoplay.lookahead.plan`), not a rule of thumb's."""
    standing = core.standing(gm, cs)
    able = core.able(gm, cs)
    return len(able) * 2 < len(standing) and len(standing) > 1


# --- the forecast: how a fight is likely to go ------------------------------------------------------------------


@dataclass
class _Side:
    """One adventurer in the forecast: dice left per attribute (fractions: expected values)."""

    name: str
    dice: dict[Attr, float]
    prof: dict[Attr, int]
    room: float  # wounds that still fit before a mortal wound
    ap: int
    arms: list[Attack]
    tokens: int = 0
    down: bool = False

    @property
    def total(self) -> float:
        return sum(max(0.0, v) for v in self.dice.values())


@dataclass
class _Enemy:
    hp: float  # wounds it still takes before it dies
    ap: int
    resist: int
    attacks: list[Attack]
    actions: int
    level: int


@dataclass(frozen=True)
class Forecast:
    """The expected course of a fight, round by round, at expected values (no dice are rolled)."""

    win: bool  # every enemy falls before every adventurer does
    rounds: int  # rounds until one side is done (or the horizon)
    downs: float  # adventurers expected to go down (mortally wounded or out of dice)
    wounds: float  # wounds the party is expected to take
    enemy_left: float  # share of the enemies' health still standing at the end


_HORIZON = 12


def _chance(dice: float, prof: int, adv: int = 0, dis: int = 0) -> tuple[float, float, float, float]:
    """(success, great success, critical failure, fatigue) of a test with ``dice`` (a fraction interpolates)."""
    lo = int(dice // 1)
    frac = dice - lo
    a = _odds_at(lo, prof, adv, dis)
    if frac < 1e-6:
        return a
    b = _odds_at(lo + 1, prof, adv, dis)
    return tuple(x + (y - x) * frac for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@cache
def _odds_at(dice: int, prof: int, adv: int, dis: int) -> tuple[float, float, float, float]:
    o = odds(TestSpec(dice=max(-2, min(dice, 8)), proficiency=min(prof, 3), advantage=min(adv, 3),
                      disadvantage=min(dis, 3)))  # fmt: skip
    return o.success, o.great_success, o.critical_failure, o.fatigue


@cache
def _through(wounds: int, ap: int, resist: int) -> float:
    """Expected wounds left after an armour roll of ``ap`` dice (each 4-6 blocks one) and resistance."""
    if wounds <= 0:
        return 0.0
    total = 0.0
    for blocked in range(ap + 1):
        p = comb(ap, blocked) / 2**ap
        total += p * max(0, wounds - blocked - resist)
    return total


def _monster_attacks(m: Monster) -> list[Attack]:
    from rules.gm.combat_foes import attack_of

    out = []
    for a in m.actions:
        atk = attack_of(a)
        if atk is not None and a.rule not in ("heal", "consume_corpse", "take_aim"):
            out.append(atk)
    return out


def _enemy(gm: GM, name: str, wounds: int = 0, ap: int | None = None) -> _Enemy:
    m = core.sheet(gm, name)
    frenzied = core.special(m, "frenzied")
    actions = frenzied.value if frenzied is not None and frenzied.value else core.ACTIONS
    return _Enemy(
        hp=float(m.wounds - wounds + 1),
        ap=m.armor if ap is None else ap,
        resist=m.resist,
        attacks=_monster_attacks(m),
        actions=actions,
        level=m.level,
    )


def _side(gm: GM, who: Member, arms: list[Arm], enemies: list[str], tokens: int = 0) -> _Side:
    from rules.gm.engine import armour_parts

    ch = who.adv.character
    foes = [core.sheet(gm, n) for n in enemies]
    usable = [arm.attack for arm in arms if any(harms_sheet(arm, m) for m in foes)]
    parts = armour_parts(gm, who)
    return _Side(
        name=who.name,
        dice={a: float(max(-1, ch.available(a, in_combat=True))) for a in ATTRS},
        prof={a: ch.attrs[a].proficiency for a in ATTRS},
        room=float(sum(ch.attrs[a].score - ch.attrs[a].wounds for a in ATTRS)),
        ap=max((p.ap for p in parts), default=0),
        arms=usable,
        tokens=tokens,
    )


def harms_sheet(arm: Arm, m: Monster) -> bool:
    tags = core.rules_of(m)
    if ("ethereal" in tags or "only_fire_or_spells" in tags) and not arm.spell:
        return False
    return not ("immune_pre" in tags and Attr.PRE in arm.attack.attributes)


def _blow(s: _Side, e: _Enemy) -> tuple[float, Attr | None, float]:
    """The adventurer's best attack on ``e``: (expected wounds dealt, attribute tested, fatigue chance)."""
    best: tuple[float, Attr | None, float] = (0.0, None, 0.0)
    for atk in s.arms:
        attr = max(atk.attributes, key=lambda a: s.dice[a])
        adv = 1 if atk.modifier is Modifier.ADVANTAGE else 0
        dis = 1 if atk.modifier is Modifier.DISADVANTAGE else 0
        ok, great, _, tired = _chance(s.dice[attr], s.prof[attr], adv, dis)
        hit = ok * _through(atk.damage, e.ap, e.resist) + great * (
            _through(atk.wounds(True), e.ap, e.resist) - _through(atk.damage, e.ap, e.resist)
        )
        if hit > best[0]:
            best = (hit, attr, tired)
    return best


def _strike(e: _Enemy, s: _Side) -> tuple[float, Attr | None, float]:
    """The enemy's best attack on ``s``: (expected wounds, attribute defended, the defender's fatigue chance)."""
    best: tuple[float, Attr | None, float] = (0.0, None, 0.0)
    for atk in e.attacks:
        attr = max(atk.attributes, key=lambda a: s.dice[a])
        adv = (1 if atk.modifier is Modifier.ADVANTAGE else 0) + min(s.tokens, 2)
        dis = 1 if atk.modifier is Modifier.DISADVANTAGE else 0
        if s.dice[attr] <= 0 and not adv:
            ok, crit, tired = 0.0, 0.0, 0.0  # no dice: take the hit rather than roll for nothing
        else:
            ok, _, crit, tired = _chance(s.dice[attr], s.prof[attr], adv, dis)
        through = _through(atk.damage, s.ap, 0)
        wounds = (1 - ok) * through + crit * (_through(atk.wounds(True), s.ap, 0) - through)
        wounds += 0.3 * (1 - ok) * bool(atk.effects)
        if wounds > best[0] or best[1] is None:
            best = (wounds, attr, tired)
    return best


def _wound(s: _Side, amount: float) -> None:
    """Wounds land where the most dice are left (the default placement)."""
    s.room -= amount
    left = amount
    while left > 1e-9:
        a = max(ATTRS, key=lambda x: s.dice[x])
        if s.dice[a] <= 0:
            break
        take = min(left, s.dice[a])
        s.dice[a] -= take
        left -= take
    if s.room <= 0.5 or s.total < 0.5:
        s.down = True


def _tire(s: _Side, attr: Attr, chance: float) -> None:
    if s.dice[attr] > 0:
        s.dice[attr] = max(0.0, s.dice[attr] - chance)
    else:
        s.room -= chance  # fatigue on an empty attribute turns into a wound
        if s.room <= 0.5:
            s.down = True


def simulate_fight(party: list[_Side], enemies: list[_Enemy], *, enemies_lose_turn: bool = False) -> Forecast:
    """Play the fight at expected values: each round every adventurer strikes twice at the weakest enemy,
    then every enemy strikes at the adventurer with the fewest dice left."""
    start_hp = sum(e.hp for e in enemies) or 1.0
    wounds = 0.0
    rounds = 0
    for rounds in range(1, _HORIZON + 1):
        for s in party:
            for _ in range(core.ACTIONS):
                alive = [e for e in enemies if e.hp > 0]
                if s.down or not alive:
                    break
                target = min(alive, key=lambda e: e.hp)
                dealt, attr, tired = _blow(s, target)
                if attr is None:
                    break
                target.hp -= dealt
                _tire(s, attr, tired)
        if all(e.hp <= 0 for e in enemies):
            break
        if not (enemies_lose_turn and rounds == 1):
            for e in enemies:
                if e.hp <= 0:
                    continue
                for _ in range(e.actions):
                    up = [s for s in party if not s.down]
                    if not up:
                        break
                    victim = min(up, key=lambda s: s.total)
                    hurt, attr, tired = _strike(e, victim)
                    if attr is None:
                        break
                    if victim.dice[attr] > 0:
                        _tire(victim, attr, tired)
                    wounds += hurt
                    _wound(victim, hurt)
        if all(s.down for s in party):
            break
    left = sum(max(0.0, e.hp) for e in enemies)
    downs = float(sum(1 for s in party if s.down))
    return Forecast(win=left <= 0 and downs < len(party), rounds=rounds, downs=downs, wounds=wounds,
                    enemy_left=left / start_hp)  # fmt: skip


def forecast_groups(gm: GM, groups: list[tuple[str, int]], *, surprise: bool = False) -> Forecast:
    """How a fight with ``groups`` (monster, count) would go for the party as it stands (before it starts)."""
    from rules.gm.combat_gear import weapon_arms

    names = [n for n, c in groups for _ in range(c)]
    party = [_side(gm, m, weapon_arms(gm, m), names) for m in gm.active()]
    enemies = [_enemy(gm, n) for n in names]
    return simulate_fight(party, enemies, enemies_lose_turn=surprise)


#: A fight still going after this many rounds is left (through the door, if there is one): every fight must end,
#: and the engine's stalemate (:data:`rules.gm.combat_flow.QUIET_ROUNDS`) ends only one in which no blood is drawn.
#: The lookahead's copies are called off sooner (:data:`rules.autoplay.lookahead.MAX_ROUNDS`).
FIGHT_ROUNDS = 30


def should_flee(gm: GM, cs: CombatState) -> bool:
    """Leave while the party still can: the fight is lost or cannot be won, someone has already left, or
    playing it out (:mod:`rules.autoplay.lookahead`) costs more lives than leaving now."""
    from rules.autoplay import lookahead

    if losing(gm, cs) or not winnable(gm, cs) or cs.round > FIGHT_ROUNDS:
        return True
    if any(f.fled for f in cs.fighters):
        return True  # someone already left: the others follow
    tested = lookahead.course()
    if tested is not None:
        return tested == "leave"
    if _sure_win(gm, cs):
        return False  # no need to play it out: the quick forecast already sees it won, no one down
    return lookahead.plan(gm, cs) == "leave"


def _sure_win(gm: GM, cs: CombatState) -> bool:
    """The expected-value forecast of the fight as it stands (the enemies' wounds counted) is a win with no
    one going down and few wounds: fighting on needs no lookahead (which is most of the autoplay's time)."""
    from rules.gm.combat_gear import weapon_arms

    foes = cs.active_foes()
    if not foes or not gm.active():
        return False
    names = [e.monster for e in foes]
    party = [_side(gm, m, weapon_arms(gm, m), names) for m in gm.active()]
    enemies = [_enemy(gm, e.monster, wounds=e.wounds) for e in foes]
    f = simulate_fight(party, enemies)
    return f.win and f.downs < 0.05 and f.wounds <= len(party)
