"""Powers: what spells and prayers do, as effect handlers keyed by the content's names.

One place for every power's effect, in and out of a fight.  The procedures
that *use* a power (the INT or PRE test, exhaustion, mishaps, the arcane well,
the cost in actions or turns) stay with them: :mod:`rules.gm.exploration_use`
out of a fight, :mod:`rules.gm.combat_actions` in one.  Once the power works,
they call its handler here:

* ``outside(gm, caster)`` — exploration and camp: the effect on the party.
* ``fight(gm, cs, caster_fighter, caster, target)`` — in a fight, aimed at a
  ``target`` among :func:`fight_targets` (an ally or the caster, within the
  power's reach).

A power with no handler for a phase cannot be used there; :func:`unplayed`
names every spell and prayer of the content the GM cannot play yet, so the
gap is visible (``blacksalt validate``) rather than hidden in a reason string.
Weapon spells (Magic Missile, Silver cannon) are attacks: they live with the
arms in :mod:`rules.gm.combat_gear`.  Miracles, a prayer's great success, are
here too (:func:`miracle`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rules.attributes import ATTRS, Attr
from rules.checks import RuleError
from rules.dice import DiceExpr
from rules.gm import combat_core as core
from rules.gm import combat_grid as grid
from rules.gm.combat_foes import hurt_foe
from rules.gm.combat_gear import WEAPON_SPELLS
from rules.gm.combat_state import CombatState, Fighter, Foe
from rules.gm.gear import carries
from rules.inventory import Carried

if TYPE_CHECKING:
    from rules.content.registry import Content
    from rules.gm.services import GM
    from rules.gm.state import Member

Kind = Literal["spell", "prayer"]
Outside = Callable[["GM", "Member"], None]
InFight = Callable[["GM", CombatState, Fighter, "Member", Fighter], None]


@dataclass(frozen=True)
class Power:
    kind: Kind
    name: str
    outside: Outside | None = None
    fight: InFight | None = None
    reach: int = grid.CLOSE  # in a fight: how far the target may stand (tiles), the caster always included
    area: bool = False  # in a fight: no target to choose, it takes everyone within ``reach`` of the caster


POWERS: dict[tuple[Kind, str], Power] = {}


def _register(power: Power) -> Power:
    key = (power.kind, power.name)
    if key in POWERS:
        raise ValueError(f"{power.kind} {power.name!r} already has a handler")
    POWERS[key] = power
    return power


def handler(kind: Kind, name: str) -> Power | None:
    return POWERS.get((kind, name))


def unplayed(content: Content) -> list[str]:
    """Every spell and prayer of the content whose effect the GM cannot play in any phase (sorted)."""
    out = [f"spell: {s.name}" for s in content.magic.spells if s.name not in WEAPON_SPELLS and handler("spell", s.name)
           is None]  # fmt: skip
    out += [f"prayer: {p.name}" for p in content.magic.prayers if handler("prayer", p.name) is None]
    return sorted(out)


def fight_targets(gm: GM, cs: CombatState, f: Fighter, power: Power) -> list[tuple[Fighter, Member]]:
    """Who a fight handler may aim at: the caster and the allies within the power's reach (the fallen too:
    a Cure Light Wounds is for the dying first)."""
    if power.area:
        return [(g, m) for g, m in core.standing(gm, cs) if g is f]
    return [(g, m) for g, m in core.standing(gm, cs) if g is f or grid.distance(f.tile, g.tile) <= power.reach]


def nearby(gm: GM, cs: CombatState, f: Fighter, reach: int = grid.NEARBY) -> tuple[list[tuple[Fighter, Member]],
                                                                                 list[Foe]]:  # fmt: skip
    """The adventurers (the caster among them) and the enemies within ``reach`` of the caster."""
    allies = [(g, m) for g, m in core.standing(gm, cs) if grid.distance(f.tile, g.tile) <= reach]
    foes = [e for e in cs.active_foes() if grid.distance(f.tile, e.tile) <= reach]
    return allies, foes


def prayer_blocked(gm: GM, m: Member, prayer: str) -> tuple[str | None, bool, bool]:
    """Why ``m`` cannot pray for ``prayer`` now (None: they can), whether it is exhausted, and whether the
    desperate plea of this expedition would carry it; the same in and out of a fight."""
    prayers = m.adv.prayers
    if prayers is None:
        return "No prayers.", False, False
    exhausted = prayer in prayers.exhausted
    plea = exhausted and not prayers.plea_used
    why = None
    if not carries(m, gm.content, "holy_symbol"):
        why = "No holy symbol: the prayer won't work."
    elif prayers.angered:
        why = "The god is angered: no prayer is answered until a sacrifice."
    elif exhausted and not plea:
        why = "Exhausted until a rest (the desperate plea of this expedition is spent)."
    return why, exhausted, plea


# --- shared effects ------------------------------------------------------------------------------------------


def most_wounded(gm: GM) -> Member | None:
    hurt = [m for m in gm.alive() if any(m.adv.character.attrs[a].wounds for a in ATTRS)]
    return max(hurt, key=lambda m: sum(m.adv.character.attrs[a].wounds for a in ATTRS)) if hurt else None


def heal(gm: GM, target: Member, n: int, reason: str) -> None:
    """Heal ``n`` wounds of ``target``, each where the target's player wants it."""
    ch = target.adv.character
    healed = 0
    for _ in range(n):
        wounded = [a.value for a in ATTRS if ch.attrs[a].wounds]
        if not wounded:
            break
        healed += ch.heal_wounds(Attr(gm.decider.choose(gm, target, "heal a wound", wounded)), 1)
    gm.emit("heal", f"{target.name} heals {healed} wound(s) ({reason}).", who=target.id, healed=healed)


def magic_light(gm: GM, m: Member, name: str) -> None:
    """Magic light: the way is lit for one decay."""
    exp = gm.c.expedition
    if exp is None:
        raise RuleError("there is no dark to light here")
    m.lit = name
    exp.light_burns[m.id] = 0  # 0: no usage die; it goes out at the next decay
    exp.dark = False
    gm.emit("light", f"{name}: a cold glow lights the way.", who=m.id)


# --- the basic prayers ---------------------------------------------------------------------------------------

CURE = "Cure Light Wounds"


def _cure(gm: GM, target: Member) -> None:
    heal(gm, target, 2, CURE)
    gm.cure(target, "bleeding", CURE)


def _cure_outside(gm: GM, caster: Member) -> None:
    target = most_wounded(gm) or next((x for x in gm.alive() if "bleeding" in x.adv.character.afflictions), caster)
    _cure(gm, target)


def _cure_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    m = core.member(gm, target.id)
    if m is not None:
        _cure(gm, m)


_register(Power("prayer", CURE, _cure_outside, _cure_in_fight, reach=grid.NEARBY))  # "from a Nearby target"


def _light_prayer(gm: GM, caster: Member) -> None:
    magic_light(gm, caster, "Light")


def _light_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    magic_light(gm, caster, "Light")


_register(Power("prayer", "Light", _light_prayer, _light_in_fight))


def _food_and_water(gm: GM, caster: Member) -> None:
    for item in (Carried("Ration", "", rarity="common"), Carried("Water", "", liquid=True, rarity="free")):
        try:
            caster.adv.inventory.add(item)
        except RuleError:
            gm.emit("prayer", f"No room to carry the {item.name.lower()}: it is consumed at once.", who=caster.id)
            gm.cure(caster, "hungry" if item.name == "Ration" else "parched", "Create food and water")


def _food_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    _food_and_water(gm, caster)


_register(Power("prayer", "Create food and water", _food_and_water, _food_in_fight))


# --- the gods' prayers -----------------------------------------------------------------------------------------


def _numbness(gm: GM, target: Member) -> None:
    """Goshkalon's Numbness: "Heal all PRE wounds, but causes one fatigue in STR and DEX." """
    ch = target.adv.character
    healed = ch.heal_wounds(Attr.PRE, None)
    gm.emit("heal", f"{target.name} heals {healed} PRE wound(s) (Numbness).", who=target.id, healed=healed)
    gm.fatigue(target, "Numbness", Attr.STR)
    gm.fatigue(target, "Numbness", Attr.DEX)


def _numbness_outside(gm: GM, caster: Member) -> None:
    hurt = [m for m in gm.alive() if m.adv.character.attrs[Attr.PRE].wounds]
    _numbness(gm, max(hurt, key=lambda m: m.adv.character.attrs[Attr.PRE].wounds) if hurt else caster)


def _numbness_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    m = core.member(gm, target.id)
    if m is not None:
        _numbness(gm, m)


_register(Power("prayer", "Numbness", _numbness_outside, _numbness_in_fight))


MARTYR_CURES = ("bleeding", "terrified", "shaken", "sleepy")


def _martyr(gm: GM, caster: Member, allies: list[Member]) -> None:
    """Yulak's Martyr: "Cause one wound to the cleric, all nearby allies recover from bleeding, terrified, shaken
    and sleepy." """
    gm.harm(caster, 1, "Martyr", armour=False)
    for m in allies:
        if m is not caster:
            for name in MARTYR_CURES:
                gm.cure(m, name, "Martyr")


def _martyr_outside(gm: GM, caster: Member) -> None:
    _martyr(gm, caster, list(gm.alive()))  # out of a fight the party stands together


def _martyr_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    _martyr(gm, caster, [m for _, m in nearby(gm, cs, f)[0]])


_register(Power("prayer", "Martyr", _martyr_outside, _martyr_in_fight, area=True))


def _spring(gm: GM, members: list[Member], foes: list[Foe]) -> None:
    """Akhzu's Prayer of Spring: "Cures one wound from everyone Nearby, including enemies." """
    for m in members:
        heal(gm, m, 1, "Prayer of Spring")
    for e in foes:
        if e.wounds:
            e.wounds -= 1
            gm.emit("foe_heal", f"{core.label(e)} heals a wound (Prayer of Spring).", foe=e.id)


def _spring_outside(gm: GM, caster: Member) -> None:
    _spring(gm, list(gm.alive()), [])


def _spring_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    allies, foes = nearby(gm, cs, f)
    _spring(gm, [m for _, m in allies], foes)


_register(Power("prayer", "Prayer of Spring", _spring_outside, _spring_in_fight, area=True))


def _winter_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    """Akhzu's Prayer of Winter: "Causes 2 wound to everyone Nearby, the cleric and allies receive 1 wound." """
    allies, foes = nearby(gm, cs, f)
    for e in foes:
        hurt_foe(gm, cs, e, 2, "Prayer of Winter", attacker=f, magic=True)
    for g, m in allies:
        mark = len(gm.events)
        taken = gm.harm(m, 1, "Prayer of Winter")
        if taken:
            core.after_harm(gm, cs, g, m, mark, taken)


_register(Power("prayer", "Prayer of Winter", None, _winter_in_fight, area=True))  # no one to freeze but friends


def _autumn_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    """Akhzu's Prayer of Autumn: "A weakness takes over everyone Nearby, including allies and the cleric.
    Removes all shield and dodge tokens." """
    allies, foes = nearby(gm, cs, f)
    touched: list[Fighter | Foe] = [g for g, _ in allies]
    for who in [*touched, *foes]:
        who.shield = who.dodge = 0
    gm.emit("tokens", "A weakness takes everyone nearby: every shield and dodge token is gone.", who=caster.id)


_register(Power("prayer", "Prayer of Autumn", None, _autumn_in_fight, area=True))  # tokens exist only in a fight


def _judgment_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    """Cador's Judgment: "All undead nearby receive a stun token and a wound." """
    for e in nearby(gm, cs, f)[1]:
        if "undead" in core.sheet(gm, e.monster).tags:
            core.add_stun(gm, cs, e, 1, "Judgment")
            hurt_foe(gm, cs, e, 1, "Judgment", attacker=f, magic=True)


_register(Power("prayer", "Judgment", None, _judgment_in_fight, area=True))


# --- spells ----------------------------------------------------------------------------------------------------


def _light_spell(gm: GM, caster: Member) -> None:
    magic_light(gm, caster, "Light")


_register(Power("spell", "Light", _light_spell))  # "Illuminates nearby room for 1 decay": no use in a fight


# --- miracles ----------------------------------------------------------------------------------------------------


def miracle(gm: GM, m: Member, special: str, row: object) -> None:
    """A prayer's great success: the miracle table's row."""
    if special == "heal_1d6_wounds":
        target = most_wounded(gm) or m
        heal(gm, target, DiceExpr.parse("1d6").roll(gm.rng), "a miracle")
    elif special == "unexhaust_prayers" and m.adv.prayers is not None:
        m.adv.prayers.rest()
    elif special == "monsters_flee_or_doom_down":
        lv = gm.level_state()
        lv.doom = max(0, lv.doom - 1)
        gm.emit("doom", "The dungeon's wrath ebbs a little.", hidden=True)
    elif special == "":
        gm.apply_row(m, row, "a miracle")
