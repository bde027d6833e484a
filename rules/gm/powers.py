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
names every spell, prayer, manoeuvre, item rule and item effect of the content
with no handler (:data:`ITEM_RULES`, :data:`ITEM_SPECIALS`), and ``blacksalt
validate`` refuses the content while any is left.
Weapon spells (Magic Missile, Silver cannon) are attacks: they live with the
arms in :mod:`rules.gm.combat_gear`.  Miracles, a prayer's great success, are
here too (:func:`miracle`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from rules.attributes import ATTRS, Attr
from rules.checks import RuleError
from rules.dice import DiceExpr, d, roll
from rules.gm import alchemy
from rules.gm import combat_core as core
from rules.gm import combat_grid as grid
from rules.gm.combat_flow import Near, reinforce
from rules.gm.combat_foes import attack_of, flee, hurt_foe
from rules.gm.combat_gear import WEAPON_SPELLS, Arm
from rules.gm.combat_state import CombatState, Fighter, Foe, Tile
from rules.gm.gear import carries, drink, flagged, lose, with_article
from rules.gm.places import door_state, is_locked, live_monsters, room_label
from rules.gm.site import SiteLink, SiteTrap
from rules.gm.state import Phase
from rules.inventory import Carried
from rules.magic import SpellOutcome, cast_spell

if TYPE_CHECKING:
    from rules.content.registry import Content
    from rules.content.schema_creation import Manoeuvre
    from rules.gm.events import Action
    from rules.gm.services import GM
    from rules.gm.state import GroupState, Member

Kind = Literal["spell", "prayer"]
#: Who a power is aimed at in a fight: an adventurer (the caster included), an enemy, either, the caster alone,
#: a corpse on the floor, or tiles (chosen under enemies).
Aim = Literal["ally", "foe", "creature", "self", "corpse", "tiles"]
Target = Fighter | Foe | tuple[Tile, ...]
Outside = Callable[["GM", "Member"], None]
InFight = Callable[["GM", CombatState, Fighter, "Member", Any], None]
Fits = Callable[["GM", CombatState, Foe], "str | None"]


@dataclass(frozen=True)
class Power:
    kind: Kind
    name: str
    outside: Outside | None = None
    fight: InFight | None = None
    reach: int = grid.CLOSE  # in a fight: how far the target may stand (tiles), the caster always included
    area: bool = False  # in a fight: no target to choose, it takes everyone within ``reach`` of the caster
    aim: Aim = "ally"
    others: bool = False  # aimed at someone else than the caster (Nether swap)
    fits: Fits | None = None  # why an enemy in reach is no target for it (None: it is)
    helps: Callable[[GM, Member], str | None] | None = None  # why an ally in reach is no target (None: it is)
    ready: Callable[[GM, Member], str | None] | None = None  # out of a fight: why not now (None: it may)


@dataclass(frozen=True)
class Aimed:
    """One target a power may be aimed at in a fight: its id in the action, how the label names it, and why
    not (None: it may)."""

    id: str
    whom: str
    target: Target
    reason: str | None = None


POWERS: dict[tuple[Kind, str], Power] = {}

#: The adventurers' attack (:func:`rules.gm.combat_actions.attack`, wired from above, as the GM's procedures
#: are): a power that "attacks with" a notation strikes as a weapon does.
FIGHT_ATTACK: Callable[[GM, CombatState, Fighter, Member, Any, Foe], bool] | None = None


def _register(power: Power) -> Power:
    key = (power.kind, power.name)
    if key in POWERS:
        raise ValueError(f"{power.kind} {power.name!r} already has a handler")
    POWERS[key] = power
    return power


# --- manoeuvres: a handler per name ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Moment:
    """What a manoeuvre's lister sees: the fight, the fighter, the manoeuvre's entry, the fighter's arms (no
    spells), why not now if it is once per combat and used (None: it is not), and its rule line."""

    gm: GM
    cs: CombatState
    f: Fighter
    who: Member
    mv: Manoeuvre
    arms: list[Arm]
    used: str | None
    rule: str

    @property
    def key(self) -> str:
        return self.mv.name.lower()


@dataclass(frozen=True)
class ManoeuvreHandler:
    """A manoeuvre, by the content's name in lower case: the actions it offers in a fight (``lists``) and what one
    does (``apply``, with the enemy it targets); a reaction has neither and says where the enemies' turn plays it."""

    key: str
    lists: Callable[[Moment], list[Action]] | None = None
    apply: Callable[[Moment, Action, Foe | None], None] | None = None
    reaction: str = ""


#: Every manoeuvre the GM plays, by the content's names in lower case.  The actions are registered by
#: :mod:`rules.gm.manoeuvres` (above the combat actions, whose attack they use); the reactions here.
MANOEUVRES: dict[str, ManoeuvreHandler] = {}


def register_manoeuvre(handler: ManoeuvreHandler) -> ManoeuvreHandler:
    if handler.key in MANOEUVRES:
        raise ValueError(f"manoeuvre {handler.key!r} already has a handler")
    if (handler.lists is None) != (handler.apply is None) or (handler.lists is None) == (not handler.reaction):
        raise ValueError(f"manoeuvre {handler.key!r}: an action (lists and apply) or a reaction, not both")
    MANOEUVRES[handler.key] = handler
    return handler


for _key, _where in (("aegis", "combat_foes: an ally with a shield token takes the blow"),
                     ("payback", "combat_foes: a blocked blow strikes back"),
                     ("going somewhere?", "combat_foes: an enemy about to move is blocked")):  # fmt: skip
    register_manoeuvre(ManoeuvreHandler(_key, reaction=_where))


def handler(kind: Kind, name: str) -> Power | None:
    return POWERS.get((kind, name))


@dataclass(frozen=True)
class ItemRule:
    """What an item is for (``items.toml`` ``rule``), by the rule's name.  Where the GM plays it as an action of
    its own, the handler lists it (``room``: in the party's room; ``door``: at a door, given whether enemies are
    here) and applies it (``apply``, for its action ``kinds``; it returns the exploration turns spent); an item
    that lets the party take an action of the exploration's own (looking for traps) names it (``tool_for``); one
    that changes a move is called as the party moves (``moved``).  An item played inside another procedure says
    where (``elsewhere``)."""

    key: str
    room: Callable[[GM], list[Action]] | None = None
    door: Callable[[GM, SiteLink, bool], list[Action]] | None = None
    kinds: tuple[str, ...] = ()
    apply: Callable[[GM, Action], int] | None = None
    doing: str = ""  # what the turns it spends are spent on ("picking a lock")
    tool_for: str = ""
    moved: Callable[[GM, SiteLink, int], None] | None = None
    elsewhere: str = ""


#: Every item rule the GM plays, by the rule's name.  The exploration's are registered by
#: :mod:`rules.gm.item_rules` (which :mod:`rules.gm.exploration` lists and applies through); the rest here, with
#: where they are played.
ITEM_RULES: dict[str, ItemRule] = {}


def register_item_rule(rule: ItemRule) -> ItemRule:
    if rule.key in ITEM_RULES:
        raise ValueError(f"item rule {rule.key!r} already has a handler")
    acts = rule.room is not None or rule.door is not None
    if acts != (rule.apply is not None) or acts != bool(rule.kinds):
        raise ValueError(f"item rule {rule.key!r}: an action needs a lister, an applier and its kinds")
    if not (acts or rule.tool_for or rule.moved or rule.elsewhere):
        raise ValueError(f"item rule {rule.key!r} does nothing")
    ITEM_RULES[rule.key] = rule
    return rule


def items_with_rule(content: Content, rule: str) -> frozenset[str]:
    """The lower-case names of the items whose rule is ``rule``."""
    return frozenset(i.name.lower() for i in content.items.items if i.rule == rule)


def carrying_rule(gm: GM, rule: str) -> tuple[Member, Carried] | None:
    """The first adventurer able to act who carries an item whose rule is ``rule``, and the item."""
    names = items_with_rule(gm.content, rule)
    return next(((m, i) for m in gm.active() for i in m.adv.inventory.items if i.name.lower() in names), None)


def tool_for(gm: GM, kind: str) -> tuple[Member, Carried] | None:
    """Who carries an item whose rule lets the party take an action of ``kind`` (:attr:`ItemRule.tool_for`), and
    the item."""
    for rule in ITEM_RULES.values():
        if rule.tool_for == kind and (found := carrying_rule(gm, rule.key)) is not None:
            return found
    return None


for _key, _where in (
    ("camp_fire", "camp: a fire with camping supplies"),
    ("build_trap", "combat: the trapping kit Fast trapping throws (manoeuvres)"),
    ("navigate", "interlude: a shorter road to a dungeon (RULINGS R203)"),
    ("banish_undead", "prayers: its dice added to a prayer against the undead (banishing_dice, RULINGS R203)"),
    ("miracles", "prayers: the holy symbol"),
    ("pack_animal", "the pack mule's slots, fed in the interlude"),
    ("alchemy", "exploration: extracts from the dead; Transmute"),
    ("grimoire", "camp: studying spells"),
    ("dig", "freeform: the gear of the verb Dig or pry"),
    ("climb", "freeform: the gear of the verb Climb"),
    ("mechanics", "freeform: the gear of the verb Barricade a door"),
):
    register_item_rule(ItemRule(_key, elsewhere=_where))


@dataclass(frozen=True)
class ItemEffect:
    """What an item's or a potion's effect tag (``effects[].special``, a trap's ``special``) does: ``outside`` a
    fight and in one (``fight``) when it is used on ``target``; or, played elsewhere, where (``elsewhere``)."""

    outside: Callable[[GM, Member, str], None] | None = None  # (gm, target, the item's name)
    fight: Callable[[GM, CombatState, Fighter, Member, str], None] | None = None  # (gm, cs, target's fighter, ...)
    elsewhere: str = ""


def _fearless(gm: GM, target: Member, name: str) -> None:
    if "terrified" not in target.immune:
        target.immune.append("terrified")  # "Character can't get terrified during this expedition."
        gm.emit("tonic", f"{target.name} cannot be terrified for the rest of the expedition.", who=target.id)


def _quicken(gm: GM, cs: CombatState, g: Fighter, target: Member, name: str) -> None:
    """Mercurial tonic: "1 extra combat action for this and the next Ud4 turns (test at the end of the turn)"."""
    core.put(cs, g, "Mercurial tonic")
    g.actions += 1
    gm.emit("tonic", f"{target.name} quickens: one more action each turn, while the tonic lasts.", who=target.id)


def _too_much(gm: GM, target: Member, name: str) -> None:
    drink(gm, target, "too_much_nauseated", name)


#: The effect tags of items and potions the GM plays, by tag.
ITEM_SPECIALS: dict[str, ItemEffect] = {
    "immune_terrified_expedition": ItemEffect(_fearless, lambda gm, cs, g, m, name: _fearless(gm, m, name)),
    "extra_combat_action": ItemEffect(fight=_quicken),
    "too_much_nauseated": ItemEffect(_too_much, lambda gm, cs, g, m, name: _too_much(gm, m, name)),  # R203
    "thrown_at_tile": ItemEffect(elsewhere="combat_actions: the Explosive potion thrown at a tile"),
    # (gear.REMOVE_ONLY: these two are of no use to one without what their remove list cures)
    "cure_disease": ItemEffect(elsewhere="its remove list (the only diseases are afflictions)"),
    "cure_simple_poison": ItemEffect(elsewhere="its remove list (the only poison is nausea)"),
    "immobilized_until_str_test": ItemEffect(elsewhere="combat_foes: a trap holds an enemy until it tears free"),
}


def item_effect(gm: GM, target: Member, special: str | None, name: str,
                fight: tuple[CombatState, Fighter] | None = None) -> None:  # fmt: skip
    """An effect's tag, once its healing and curing are done (:meth:`GM.apply_row`): out of a fight, or in one
    (``fight``: the fight and the target's fighter)."""
    handler = ITEM_SPECIALS.get(special or "")
    if handler is None:
        return
    if fight is None and handler.outside is not None:
        handler.outside(gm, target, name)
    elif fight is not None and handler.fight is not None:
        handler.fight(gm, fight[0], fight[1], target, name)


def _items_unplayed(content: Content) -> list[str]:
    out = []
    for item in content.items.items:
        if item.rule is not None and item.rule not in ITEM_RULES:
            out.append(f"item: {item.name} (rule {item.rule!r})")
        tags = [e.special for e in item.effects] + [item.trap.special if item.trap is not None else None]
        out += [f"item: {item.name} (effect {t!r})" for t in tags if t is not None and t not in ITEM_SPECIALS]
    for recipe in content.alchemy.recipes:
        out += [f"potion: {recipe.name} (effect {e.special!r})" for e in recipe.effects
                if e.special is not None and e.special not in ITEM_SPECIALS]  # fmt: skip
    return out


def unplayed(content: Content) -> list[str]:
    """Every spell, prayer, manoeuvre, item rule and item effect of the content that the GM cannot play in any
    phase (sorted); ``blacksalt validate`` fails on any."""
    out = [f"spell: {s.name}" for s in content.magic.spells if s.name not in WEAPON_SPELLS and handler("spell", s.name)
           is None]  # fmt: skip
    out += [f"prayer: {p.name}" for p in content.magic.prayers if handler("prayer", p.name) is None]
    out += sorted({f"manoeuvre: {m.name}" for b in content.classes.backgrounds for m in b.manoeuvres
                   if m.name.lower() not in MANOEUVRES})  # fmt: skip
    names = {m.name for m in content.bestiary.monsters}
    for row in content.magic.spell_mishaps.rows:  # a summon must put a creature of the bestiary on the grid
        kind, _, arg = (row.special or "").partition(":")
        if kind in ("summon_close", "summon_nearby") and arg not in names:
            out.append(f"spell mishap {row.min}: {arg} (no bestiary sheet)")
    return sorted(out + _items_unplayed(content))


def fight_targets(gm: GM, cs: CombatState, f: Fighter, power: Power) -> list[Aimed]:
    """Whom ``power`` may be aimed at by ``f``: the caster and the allies within its reach (the fallen too: a
    Cure Light Wounds is for the dying first), the enemies in sight (those out of reach with the reason), a
    corpse, or the tiles under enemies."""
    if power.area or power.aim == "self":
        return [Aimed(f.id, "everyone Nearby" if power.area else "themself", f)]
    out: list[Aimed] = []
    if power.aim in ("ally", "creature"):
        for g, m in core.standing(gm, cs):
            if (g is f and power.others) or (g is not f and grid.distance(f.tile, g.tile) > power.reach):
                continue
            why = "Locked in an arcane crystal: nothing touches them." if g is not f and core.lasting(
                cs, g, "Arcane prison") else None  # fmt: skip
            if why is None and power.helps is not None:
                why = power.helps(gm, m)
            if why is None and core.lasting(cs, g, power.name):
                why = f"Already under {power.name}."  # (a playtest: cast again on whom it held, for nothing)
            out.append(Aimed(g.id, "themself" if g is f else m.name, g, why))
    if power.aim in ("foe", "creature"):
        for e in cs.active_foes():
            far = grid.distance(f.tile, e.tile)
            why = f"Out of reach: {far} tiles away." if far > power.reach else None
            if why is None and core.lasting(cs, e, "Arcane prison"):
                why = "Locked in an arcane crystal: nothing touches it."
            if why is None and power.fits is not None:
                why = power.fits(gm, cs, e)
            if why is None and core.lasting(cs, e, power.name):
                why = f"Already under {power.name}."
            out.append(Aimed(e.id, core.label(e), e, why))
    if power.aim == "corpse":
        for t in cs.corpses:
            if grid.distance(f.tile, t) <= power.reach:
                dead = next((e for e in cs.foes if e.state == "dead" and e.tile == t), None)
                out.append(Aimed(f"{t[0]},{t[1]}", f"the corpse of {core.label(dead)}" if dead else "a corpse", (t,)))
        for e in cs.active_foes():  # "Also works on undead under the Command undead spell."
            if core.lasting(cs, e, "Command undead") and grid.distance(f.tile, e.tile) <= power.reach:
                out.append(Aimed(e.id, f"the commanded {core.label(e)}", e))
    if power.aim == "tiles":
        spots = sorted({e.tile for e in cs.active_foes() if grid.distance(f.tile, e.tile) <= power.reach},
                       key=lambda t: (t[1], t[0]))  # fmt: skip
        names = {t: " and ".join(core.label(e) for e in cs.active_foes() if e.tile == t) for t in spots}
        pairs: list[tuple[Tile, ...]] = [(a, b) for i, a in enumerate(spots) for b in spots[i + 1 :]]
        pairs = pairs or [(a,) for a in spots]
        for tiles in pairs:
            out.append(Aimed(";".join(f"{t[0]},{t[1]}" for t in tiles),
                             "the ground under " + " and ".join(names[t] for t in tiles), tiles))  # fmt: skip
    return out


def resolve_target(cs: CombatState, target: str) -> Target:
    """An action's target id back to what it names (an enemy, an adventurer, or tiles)."""
    if target.startswith("e") and any(e.id == target for e in cs.foes):
        return cs.foe(target)
    if any(g.id == target for g in cs.fighters):
        return cs.fighter(target)
    try:
        return tuple((int(x), int(y)) for x, y in (t.split(",") for t in target.split(";")))
    except ValueError:
        raise RuleError(f"no target {target!r} in this fight") from None


def still(gm: GM, until: int) -> bool:
    """An effect kept as "until this exploration turn of the expedition" (Hover, Arcane Seal) holds now.  0 is
    "never cast": at the expedition's first turn (0) every adventurer hovered and was warded from spells."""
    exp = gm.c.expedition
    return exp is not None and until > 0 and until >= exp.turns


def lasts(gm: GM, kind: Kind, name: str) -> int:
    """Roll the power's duration from its entry (the content's dice)."""
    entries = gm.content.magic.spells if kind == "spell" else gm.content.magic.prayers
    entry = next(e for e in entries if e.name == name)
    assert entry.duration is not None
    return max(1, DiceExpr.parse(entry.duration).roll(gm.rng))


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


def banishing_dice(gm: GM, m: Member, kind: Kind, name: str) -> tuple[int, str]:
    """Dice an item adds to the test of a power that banishes the undead (the Exorcism book: "One extra dice when
    banishing undead", RULINGS R203): (how many, the item's name); (0, "") when none."""
    if not _entry(gm, kind, name).banishes_undead:
        return 0, ""
    books = {i.name.lower(): i for i in gm.content.items.items if i.rule == "banish_undead"}
    held = next((books[i.name.lower()] for i in m.adv.inventory.items if i.name.lower() in books), None)
    return (held.bonus_dice, held.name) if held is not None and held.bonus_dice else (0, "")


def cast_outside(gm: GM, m: Member, spell: str) -> None:
    """Cast a spell out of a fight (exploration, camp): it works ("the spell always works": its effect comes
    before the test); then the INT test — a failure forgets it, a critical failure is a mishap, a great success
    opens an arcane well."""
    book = m.adv.spellbook
    if book is None:
        raise RuleError(f"{m.name} has no spells")
    # what the spell does is the handler's to say (the book's text was printed here as if it were the outcome)
    gm.emit("spell", f"{m.name} casts {spell}.", who=m.id, spell=spell)
    power = handler("spell", spell)
    if power is not None and power.outside is not None:
        power.outside(gm, m)
    res = cast_spell(book, spell, m.adv.character.test_spec(Attr.INT), gm.rng, gm.content.magic.spell_mishaps,
                     has_conductor=carries(m, gm.content, "conductor"), player=gm.rerolls_of(m),
                     woven=gm.woven(m, f"keeping {spell} in mind"))  # fmt: skip
    if res.test is not None:
        gm.show_test(m, Attr.INT, f"keeping {spell} in mind", res.test)
    if res.test is not None and res.test.verdict.fatigue:
        gm.fatigue(m, "casting", Attr.INT)
    words = {
        SpellOutcome.CAST: "The spell holds.",
        SpellOutcome.FORGOTTEN: f"{spell} slips from {m.name}'s memory.",
        SpellOutcome.MISHAP: f"A mishap! {res.mishap.text if res.mishap else ''}",
        SpellOutcome.ARCANE_WELL: "An arcane well opens: the next spell cannot fail.",
        SpellOutcome.AUTOMATIC: "The arcane well carries the spell.",
    }
    gm.emit("spell_test", words[res.outcome], who=m.id, outcome=res.outcome.value, total=res.mishap_total)
    if res.mishap is not None:
        mishap(gm, m, res.mishap)


#: "Temporary blindness for 6 exploration turns" (the row's ``duration``; this when it has none).
BLIND_TURNS = 6


def blind(gm: GM, m: Member) -> bool:
    """``m`` cannot see (a spell mishap's blindness, RULINGS R206): attacks and defences with disadvantage."""
    return still(gm, m.blind)


def mishap(gm: GM, m: Member, row: Any, cs: CombatState | None = None) -> None:
    """A spell mishap's row (RULINGS R206): what the table row says (fatigue, afflictions, wounds, doom), then its
    special rule: a demon summoned (it joins the fight, or starts one), everyone else Nearby angry, the conductor
    destroyed, every item left in the void.  A summon whose creature has no sheet in the bestiary (the tormentor
    demon, the endless horror: their sheets are derived by R209) comes where the row says, Close or Nearby."""
    gm.apply_row(m, row, "a spell mishap")
    kind, _, arg = (getattr(row, "special", None) or "").partition(":")
    if kind in ("summon_close", "summon_nearby"):
        sheet = gm.content.bestiary.monster(arg)  # validate: every summoned name has a sheet
        if gm.c.phase is Phase.CAMP:
            gm.c.camp = None  # the camp is broken by what came through
        near = Near(m.id, 1, grid.CLOSE) if kind == "summon_close" else Near(m.id, grid.CLOSE + 1, grid.NEARBY)
        reinforce(gm, [(sheet.name, 1)], f"summoned by {m.name}'s mishap", near=near)
    elif kind == "others_nearby_angry":
        if cs is not None:
            others = [o for _, o in nearby(gm, cs, cs.fighter(m.id))[0] if o is not m]
        else:
            others = [o for o in gm.alive() if o is not m]  # out of a fight the party stands together
        for o in others:
            gm.afflict(o, "angry", "a spell mishap")
    elif kind == "blinded":
        exp = gm.c.expedition
        if exp is not None:
            dur = getattr(row, "duration", None)
            n = DiceExpr.parse(str(dur)).roll(gm.rng) if dur else BLIND_TURNS
            m.blind = exp.turns + n
            gm.emit("blind", f"{m.name} is blind for {n} exploration turns: every attack and defence with "
                    "disadvantage.", who=m.id, turns=n)  # fmt: skip
    elif kind == "conductor_destroyed":
        names = flagged(gm.content, "conductor")
        held = next((i for i in m.adv.inventory.items if i.name.lower() in names), None)
        if held is not None:
            lose(gm, m, held, "destroyed by a spell mishap")
    elif kind == "lose_all_items":
        for item in [i for i in m.adv.inventory.items if not i.name.startswith("(")]:
            lose(gm, m, item, "left in the void realm")


# --- shared effects ------------------------------------------------------------------------------------------


def most_wounded(gm: GM) -> Member | None:
    """The party member with the most wounds a heal would mend: the hungry heal nothing (their wounds do not heal),
    so they are passed over while anyone else is hurt (a miracle had healed a hungry adventurer's 0 wounds)."""
    hurt = [m for m in gm.alive() if any(m.adv.character.attrs[a].wounds for a in ATTRS)]
    fed = [m for m in hurt if "hungry" not in m.adv.character.afflictions]
    pool = fed or hurt
    return max(pool, key=lambda m: sum(m.adv.character.attrs[a].wounds for a in ATTRS)) if pool else None


def heal(gm: GM, target: Member, n: int, reason: str) -> None:
    """Heal ``n`` wounds of ``target``, each where the target's player wants it."""
    gm.heal(target, n, reason)


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


def _cure_helps(gm: GM, m: Member) -> str | None:
    """Why Cure Light Wounds would do ``m`` no good: no wound and no bleeding, or wounds a hungry body does not
    heal ("Hungry: wounds do not heal") and no bleeding to stop.  An answered prayer was spent on them for
    nothing (a playtest: a desperate plea healed a hungry cleric of 0 wounds)."""
    ch = m.adv.character
    if "bleeding" in ch.afflictions:
        return None
    if not any(ch.attrs[a].wounds for a in ATTRS):
        return f"No use now: {m.name} has no wound and is not bleeding."
    if "hungry" in ch.afflictions:
        return f"No use now: {m.name} is hungry (wounds do not heal) and not bleeding."
    return None


def _cure_outside(gm: GM, caster: Member) -> None:
    """The caster's player chooses whom it heals among the wounded and the bleeding: the bleeding first (they
    lose fatigue every turn), then the most wounded, offered in that order (the GM-decides pick is the first).
    The engine used to pick the most wounded, so a cleric healed their own scratches while a companion bled."""
    ch = {m.id: m.adv.character for m in gm.alive()}
    hurt = [m for m in gm.alive() if _cure_helps(gm, m) is None]
    hurt.sort(key=lambda m: ("bleeding" not in ch[m.id].afflictions, -sum(ch[m.id].attrs[a].wounds for a in ATTRS)))
    if len(hurt) <= 1:
        _cure(gm, hurt[0] if hurt else caster)
        return
    names = [f"{m.name} ({'bleeding, ' if 'bleeding' in ch[m.id].afflictions else ''}"
             f"{sum(ch[m.id].attrs[a].wounds for a in ATTRS)} wound(s))" for m in hurt]  # fmt: skip
    pick = gm.decider.choose(gm, caster, f"{CURE}: whom does {caster.name} heal?", names)
    _cure(gm, hurt[names.index(pick)])


def _cure_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    m = core.member(gm, target.id)
    if m is not None:
        _cure(gm, m)


def _hurt_ready(gm: GM, caster: Member) -> str | None:
    """Out of a fight a healing prayer is said for someone (it was offered, and spent, with no one to heal)."""
    if any("bleeding" in m.adv.character.afflictions or any(m.adv.character.attrs[a].wounds for a in ATTRS)
           for m in gm.alive()):  # fmt: skip
        return None
    return "No one is wounded or bleeding."


def _cure_ready(gm: GM, caster: Member) -> str | None:
    why = _hurt_ready(gm, caster)
    if why is None and not any(_cure_helps(gm, m) is None for m in gm.alive()):
        return "No use now: the wounded are hungry (wounds do not heal) and no one is bleeding."
    return why


_register(Power("prayer", CURE, _cure_outside, _cure_in_fight, reach=grid.NEARBY, ready=_cure_ready,
                helps=_cure_helps))  # "Nearby"


def _light_prayer(gm: GM, caster: Member) -> None:
    magic_light(gm, caster, "Light")


def _light_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    magic_light(gm, caster, "Light")


_register(Power("prayer", "Light", _light_prayer, _light_in_fight, aim="self"))  # the caster's own light


def _food_and_water(gm: GM, caster: Member) -> None:
    for item in (Carried("Ration", "", rarity="common"), Carried("Water", "", liquid=True, rarity="free")):
        try:
            caster.adv.inventory.add(item)
            what = "A ration" if item.name == "Ration" else "Fresh water"
            gm.emit("prayer", f"{what} appears in {caster.name}'s hands (Create food and water).",
                    who=caster.id)  # fmt: skip
        except RuleError:
            gm.emit("prayer", f"No room to carry the {item.name.lower()}: it is consumed at once.", who=caster.id)
            gm.cure(caster, "hungry" if item.name == "Ration" else "parched", "Create food and water")


def _food_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    _food_and_water(gm, caster)


# the food appears in the caster's hands: in a fight it was offered "on Kaspa", and still went to the caster
_register(Power("prayer", "Create food and water", _food_and_water, _food_in_fight, aim="self"))


# --- the gods' prayers -----------------------------------------------------------------------------------------


def _numbness(gm: GM, target: Member) -> None:
    """Goshkalon's Numbness: "Heal all PRE wounds, but causes one fatigue in STR and DEX." """
    ch = target.adv.character
    healed = ch.heal_wounds(Attr.PRE, None)
    gm.emit("heal", f"{target.name} heals {healed} PRE wound(s) (Numbness).", who=target.id, healed=healed)
    gm.fatigue(target, "Numbness", Attr.STR)
    gm.fatigue(target, "Numbness", Attr.DEX)


def _numbness_helps(gm: GM, m: Member) -> str | None:
    """Numbness is for PRE wounds: on anyone else it is two fatigue for nothing (a playtest, seed 128: offered
    with no one hurt, it would have numbed the cleric for nothing)."""
    ch = m.adv.character
    if not ch.attrs[Attr.PRE].wounds:
        return f"No use now: {m.name} has no PRE wound."
    if "hungry" in ch.afflictions:  # (seed 128: it "healed 0 PRE wounds" of a hungry warrior, for two fatigue)
        return f"No use now: {m.name} is hungry (wounds do not heal)."
    return None


def _numbness_ready(gm: GM, caster: Member) -> str | None:
    if any(_numbness_helps(gm, m) is None for m in gm.alive()):
        return None
    if any(m.adv.character.attrs[Attr.PRE].wounds for m in gm.alive()):
        return "No use now: those with PRE wounds are hungry (wounds do not heal)."
    return "No one has a PRE wound."


def _numbness_outside(gm: GM, caster: Member) -> None:
    """The player chooses whom among those with PRE wounds (the most wounded first, the GM-decides pick)."""
    hurt = sorted((m for m in gm.alive() if _numbness_helps(gm, m) is None),
                  key=lambda m: -m.adv.character.attrs[Attr.PRE].wounds)  # fmt: skip
    if len(hurt) <= 1:
        _numbness(gm, hurt[0] if hurt else caster)
        return
    names = [f"{m.name} ({m.adv.character.attrs[Attr.PRE].wounds} PRE wound(s))" for m in hurt]
    pick = gm.decider.choose(gm, caster, f"Numbness: whom does {caster.name} numb?", names)
    _numbness(gm, hurt[names.index(pick)])


def _numbness_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    m = core.member(gm, target.id)
    if m is not None:
        _numbness(gm, m)


_register(Power("prayer", "Numbness", _numbness_outside, _numbness_in_fight, reach=grid.NEARBY,
                ready=_numbness_ready, helps=_numbness_helps))  # "Nearby ally"


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


def _martyr_ready(gm: GM, caster: Member) -> str | None:
    """Martyr only wounds the cleric when no ally it reaches (Nearby in a fight; the party out of one) has what
    it cures (a playtest: offered, and answered, with no one to free)."""
    cs = gm.c.combat
    if cs is not None:
        f = next((g for g in cs.fighters if g.id == caster.id), None)
        allies = [m for _, m in nearby(gm, cs, f)[0]] if f is not None else []
    else:
        allies = list(gm.alive())
    if any(set(MARTYR_CURES) & m.adv.character.afflictions for m in allies if m is not caster):
        return None
    where = " Nearby" if cs is not None else ""
    return f"No use now: no ally{where} is bleeding, terrified, shaken or sleepy."


_register(Power("prayer", "Martyr", _martyr_outside, _martyr_in_fight, area=True, ready=_martyr_ready))


def _spring(gm: GM, members: list[Member], foes: list[Foe]) -> None:
    """Akhzu's Prayer of Spring: "Cures one wound from everyone Nearby, including enemies." """
    for m in members:
        if any(m.adv.character.attrs[a].wounds for a in ATTRS):  # (the whole ones were told "heals 0 wounds")
            heal(gm, m, 1, "Prayer of Spring")
    for e in foes:
        if e.wounds:
            e.wounds -= 1
            gm.emit("foe_heal", f"{core.label(e)} heals a wound (Prayer of Spring).", foe=e.id)


def _season_prayer(name: str, effect: Callable[[GM, list[Member], list[Foe]], None],
                   ready: Callable[[GM, Member], str | None] | None = None) -> None:
    """One of Akhzu's seasons that touch "everyone Nearby, including enemies": out of a fight the party, which
    stands together; in a fight everyone within Nearby of the cleric."""

    def outside(gm: GM, caster: Member) -> None:
        effect(gm, list(gm.alive()), [])

    def in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
        allies, foes = nearby(gm, cs, f)
        effect(gm, [m for _, m in allies], foes)

    _register(Power("prayer", name, outside, in_fight, area=True, ready=ready))


_season_prayer("Prayer of Spring", _spring, _hurt_ready)


def _winter_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    """Akhzu's Prayer of Winter: "Causes 2 wound to everyone Nearby, the cleric and allies receive 1 wound." """
    allies, foes = nearby(gm, cs, f)
    for e in foes:
        hurt_foe(gm, cs, e, 2, "Prayer of Winter", attacker=f, magic=True)
    for g, m in allies:  # the fight's own harm: smoke and the arcane prison are not touched (playtest 13a)
        core.hurt_member(gm, cs, g, m, 1, "Prayer of Winter", from_attack=False)


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


def _judgment_ready(gm: GM, caster: Member) -> str | None:
    """No undead Nearby: an answered Judgment would touch no one (a playtest offered it against living rats)."""
    cs = gm.c.combat
    f = next((g for g in cs.fighters if g.id == caster.id), None) if cs is not None else None
    if cs is None or f is None:
        return None
    if any("undead" in core.sheet(gm, e.monster).tags for e in nearby(gm, cs, f)[1]):
        return None
    return "No use now: no undead Nearby."


_register(Power("prayer", "Judgment", None, _judgment_in_fight, area=True, ready=_judgment_ready))


# --- spells ----------------------------------------------------------------------------------------------------


def _light_spell(gm: GM, caster: Member) -> None:
    magic_light(gm, caster, "Light")


_register(Power("spell", "Light", _light_spell))  # "Illuminates nearby room for 1 decay": no use in a fight


# --- powers over enemies and the battlefield --------------------------------------------------------------------


def _about(who: Fighter | Foe) -> dict[str, str]:
    """The event's field naming ``who``: an enemy's id, or an adventurer's."""
    return {"foe": who.id} if isinstance(who, Foe) else {"who": who.id}


def _name(gm: GM, who: Fighter | Foe) -> str:
    if isinstance(who, Foe):
        return core.label(who)
    m = core.member(gm, who.id)
    return m.name if m is not None else who.id


def _living_or_undead(gm: GM, cs: CombatState, e: Foe) -> str | None:
    m = core.sheet(gm, e.monster)
    return None if core.living(gm, m) or "undead" in m.tags else "Only living or undead enemies feel pain."


def _living(gm: GM, cs: CombatState, e: Foe) -> str | None:
    return None if core.living(gm, core.sheet(gm, e.monster)) else "Only the living sleep."


def _undead(gm: GM, cs: CombatState, e: Foe) -> str | None:
    return None if "undead" in core.sheet(gm, e.monster).tags else "Works only on the undead."


def _last(gm: GM, cs: CombatState, who: Fighter | Foe, power: str, kind: Kind, what: str) -> None:
    """A power lasting its rolled duration on ``who``, announced with how long."""
    n = lasts(gm, kind, power)
    core.put(cs, who, power, n)
    gm.emit("effect", f"{_name(gm, who)} {what} for {n} round(s) of this fight ({power}).", effect=power, turns=n,
            **_about(who))  # fmt: skip


def _all_fight(gm: GM, cs: CombatState, who: Fighter | Foe, power: str, what: str) -> None:
    core.put(cs, who, power)
    gm.emit("effect", f"{_name(gm, who)} {what} ({power}).", effect=power,
            **_about(who))  # fmt: skip


def _pain(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    """Pain: "Add 3 stun tokens ... Reduce the number of tokens using the enemy resistance." """
    resist = core.sheet(gm, e.monster).resist
    core.add_stun(gm, cs, e, max(0, 3 - resist), "Pain" + (f", {resist} resisted" if resist else ""))


_register(Power("spell", "Pain", fight=_pain, reach=grid.NEARBY, aim="foe", fits=_living_or_undead))


def _phobia(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    """Phobia: "The target nearby creature gets terrified of a chosen person ... for 1d6 turns." (It will not
    come Close to them nor attack them, RULINGS R192.)"""
    party = sorted(core.standing(gm, cs), key=lambda fm: (grid.distance(fm[0].tile, e.tile), fm[1].name))
    pick = gm.decider.choose(gm, caster, f"Phobia: whom is {core.label(e)} to fear?", [m.name for _, m in party])
    fear = next(g for g, m in party if m.name == pick)
    e.fear = fear.id
    _last(gm, cs, e, "Phobia", "spell", f"is terrified of {pick}")


_register(Power("spell", "Phobia", fight=_phobia, reach=grid.NEARBY, aim="foe"))


def _nightmare(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    _all_fight(gm, cs, e, "Nightmare", "falls into a restless sleep until disturbed")


_register(Power("spell", "Nightmare", fight=_nightmare, reach=grid.NEARBY, aim="foe", fits=_living))


def _bonedance(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    _all_fight(gm, cs, e, "Bonedance", "has its bones bent: every attack on it has advantage, its moves are halved")


_register(Power("spell", "Bonedance", fight=_bonedance, reach=grid.NEARBY, aim="foe"))


def _glue(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    _all_fight(gm, cs, e, "Glue", "is glued in place until it tests its way free")


_register(Power("spell", "Glue", fight=_glue, reach=grid.NEARBY, aim="foe"))


def _prison(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter | Foe) -> None:
    """Arcane prison: "can't act or be interacted with for 1d6 turns" (an ally too: out of harm's way)."""
    _last(gm, cs, who, "Arcane prison", "spell", "is locked in an arcane crystal")
    if isinstance(who, Fighter):
        who.actions = 0  # "can't act": not even for the rest of this turn


_register(Power("spell", "Arcane prison", fight=_prison, reach=grid.NEARBY, aim="creature"))


def _magic_shield(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    _all_fight(gm, cs, f, "Magic Shield", "will have a shield token at the start of each turn")


_register(Power("spell", "Magic Shield", fight=_magic_shield, aim="self"))


def _haste(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    _all_fight(gm, cs, who, "Haste", "moves twice as far until the end of the fight")


_register(Power("spell", "Haste", fight=_haste, reach=grid.NEARBY))


def _swap(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter | Foe) -> None:
    """Nether swap: "Immediately swaps place with a target creature." """
    (f.x, f.y), (who.x, who.y) = who.tile, f.tile
    gm.emit("swap", f"{caster.name} and {_name(gm, who)} swap places (Nether swap).", who=caster.id)


_register(Power("spell", "Nether swap", fight=_swap, reach=grid.NEARBY, aim="creature", others=True))


def _blast(gm: GM, cs: CombatState, at: Tile, reason: str) -> None:
    """2 wounds, reduced by armour and resistance, to everyone Close to ``at``."""
    for e in cs.active_foes():
        if grid.close(e.tile, at):
            hurt_foe(gm, cs, e, 2, reason, magic=True, hit=False)
    for g, m in core.standing(gm, cs):
        if grid.close(g.tile, at):
            core.hurt_member(gm, cs, g, m, 2, reason, from_attack=False)


def _explode(gm: GM, cs: CombatState, f: Fighter, caster: Member, what: Foe | tuple[Tile, ...]) -> None:
    """Explode corpse: "Causes 2 wound to everyone close that can be reduced by armor and resistances." """
    if isinstance(what, Foe):
        at = what.tile
        gm.emit("explosion", f"{core.label(what)} bursts apart (Explode corpse)!", foe=what.id)
        core.kill_foe(gm, cs, what, f, "Explode corpse")
    else:
        at = what[0]
        gm.emit("explosion", "The corpse bursts apart (Explode corpse)!", who=caster.id)
    if at in cs.corpses:
        cs.corpses.remove(at)
    _blast(gm, cs, at, "an exploding corpse")


_register(Power("spell", "Explode corpse", fight=_explode, reach=grid.NEARBY, aim="corpse"))


def _arcane_fire(gm: GM, cs: CombatState, f: Fighter, caster: Member, tiles: tuple[Tile, ...]) -> None:
    """Arcane fire: "anything standing in that tile takes 2 wounds per turn, those wounds can be reduced" — the
    turn it is cast too: what stands there burns at once, then at each round's end (RULINGS R239; burning only at
    the round's end, the enemies it was cast under stepped off before it ever touched them)."""
    cs.fire += [t for t in tiles if t not in cs.fire]
    gm.emit("fire", f"Arcane fire takes {len(tiles)} tile(s): whatever stands there burns each round.",
            who=caster.id, tiles=[list(t) for t in tiles])  # fmt: skip
    for e in cs.active_foes():
        if e.tile in tiles:
            hurt_foe(gm, cs, e, 2, "Arcane fire", magic=True, fire=True, hit=False)
    for g, m in core.standing(gm, cs):
        if g.tile in tiles:
            core.hurt_member(gm, cs, g, m, 2, "Arcane fire", from_attack=False)


_register(Power("spell", "Arcane fire", fight=_arcane_fire, reach=grid.NEARBY, aim="tiles"))


def _shackles(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    """Shackles: "hold a nearby creature in place, adding 2 stun tokens per turn ... as long as the wizard keeps
    channeling the spell.  The wizard can't move or act while channelling." """
    f.channel = f"Shackles:{e.id}"
    f.actions = 0
    gm.emit("effect", f"Magical shackles hold {core.label(e)} while {caster.name} channels them.", foe=e.id,
            effect="Shackles")  # fmt: skip
    core.add_stun(gm, cs, e, 2, "Shackles")


_register(Power("spell", "Shackles", fight=_shackles, reach=grid.NEARBY, aim="foe"))


def _telekinesis(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    """Telekinesis, in a fight: "use any weapon with intelligence as strength for one turn"."""
    core.put(cs, f, "Telekinesis", 1)
    gm.emit("effect", f"{caster.name} wields weapons with the mind this turn: INT for STR (Telekinesis).",
            who=caster.id, effect="Telekinesis")  # fmt: skip


_register(Power("spell", "Telekinesis", fight=_telekinesis, aim="self"))

COMMANDS = ("stand still", "leave the fight")


def _command_fits(gm: GM, cs: CombatState, e: Foe) -> str | None:
    m = core.sheet(gm, e.monster)
    if "undead" not in m.tags:
        return "Works only on the undead."
    if core.lasting(cs, e, "Command undead"):
        return "Already commanded for this fight."  # a second command was offered, and spent, on it
    return None if m.level <= 3 else f"Only undead up to level 3 (this one is level {m.level})."


def _command(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    """Command undead: one simple command, for the whole fight (RULINGS R192: stand still, or leave; R243: or
    attack another enemy)."""
    others = [o for o in cs.active_foes() if o is not e]
    attacks = {f"attack {core.label(o)}": o for o in others}
    order = gm.decider.choose(gm, caster, f"Command undead: what does {core.label(e)} do?",
                              [*COMMANDS, *attacks])  # fmt: skip
    if order == "leave the fight":
        gm.emit("commanded", f"{core.label(e)} turns and walks out of the fight, as it was commanded.", foe=e.id)
        flee(gm, cs, e)
    elif order in attacks:
        e.order = attacks[order].id
        _all_fight(gm, cs, e, "Command undead", f"turns on {core.label(attacks[order])}, as it was commanded")
    else:
        e.order = ""
        _all_fight(gm, cs, e, "Command undead", "stands still, as it was commanded")


_register(Power("spell", "Command undead", fight=_command, reach=grid.NEARBY, aim="foe", fits=_command_fits))


def _hold(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter | Foe) -> None:
    _last(gm, cs, who, "Hold", "prayer", "is paralysed")
    if isinstance(who, Fighter):
        who.actions = 0  # "reducing the target's actions to zero"


_register(Power("prayer", "Hold", fight=_hold, reach=grid.NEARBY, aim="foe"))


def _mercy_fits(gm: GM, cs: CombatState, e: Foe) -> str | None:
    left = core.sheet(gm, e.monster).wounds - e.wounds + 1
    return None if left <= 4 else f"Too strong for mercy: {left} wounds from death (4 or fewer)."


def _mercy(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    """Mercy: "Immediately kills any creature that would die if received 4 wounds or less." """
    if _mercy_fits(gm, cs, e) is None:
        core.kill_foe(gm, cs, e, f, "Mercy")


_register(Power("prayer", "Mercy", fight=_mercy, reach=grid.NEARBY, aim="foe", fits=_mercy_fits))


def _memento(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    _last(gm, cs, e, "Memento mori", "prayer", "takes a wound at each of its turns")


_register(Power("prayer", "Memento mori", fight=_memento, reach=grid.NEARBY, aim="foe", fits=_undead))


def _dirge(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    _last(gm, cs, e, "Dirge", "prayer", "bears the dirge's token (its death heals the living nearby)")


_register(Power("prayer", "Dirge", fight=_dirge, reach=grid.NEARBY, aim="foe"))


def _purge(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter | Foe) -> None:
    """Purge the filth: "can't act for 2 combat turns ... After that the target heals 3 wounds." """
    core.put(cs, who, "Purge the filth", 2)
    if isinstance(who, Fighter):
        who.actions = 0  # "can't act for 2 combat turns", this one among them
    gm.emit("effect", f"{_name(gm, who)} retches black slime: no action for 2 turns, then 3 wounds heal.",
            effect="Purge the filth", **_about(who))  # fmt: skip


def _purge_outside(gm: GM, caster: Member) -> None:
    """Out of a fight the retching takes the exploration turn the prayer takes; then 3 wounds heal."""
    heal(gm, most_wounded(gm) or caster, 3, "Purge the filth")


_register(Power("prayer", "Purge the filth", _purge_outside, _purge, reach=grid.NEARBY, aim="creature"))


def _ignorance(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    _last(gm, cs, e, "Ignorance", "prayer", "can use no INT attack")


def _thinks(gm: GM, cs: CombatState, e: Foe) -> str | None:
    m = core.sheet(gm, e.monster)
    attacks = [a for a in m.actions if (atk := attack_of(a)) is not None and Attr.INT in atk.attributes]
    return None if attacks else "It has no INT attack to lose."


_register(Power("prayer", "Ignorance", fight=_ignorance, reach=grid.NEARBY, aim="foe", fits=_thinks))


def _fury(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    """Righteous Fury: "3 extra dice in the next row and the angry affliction. Add one wound to any damage caused
    by the target in the next row." (The next attack roll, RULINGS R192.)"""
    core.put(cs, who, "Righteous Fury")
    m = core.member(gm, who.id)
    if m is not None:
        gm.emit("effect", f"{m.name} burns with righteous fury: +3 dice and +1 wound on the next attack.",
                who=m.id, effect="Righteous Fury")  # fmt: skip
        gm.afflict(m, "angry", "Righteous Fury")


_register(Power("prayer", "Righteous Fury", fight=_fury))


def broken_armour(gm: GM, m: Member, *, metal: bool = False) -> int:
    """How many armour points ``m``'s worn armour has lost (only metal pieces when ``metal``)."""
    table = {a.name.lower(): a for a in gm.content.armor.armor if not metal or a.metal}
    return sum(max(0, full - (i.ap[k] if len(i.ap) == len(e.ap) else full))
               for i in m.adv.inventory.items if i.equipped and (e := table.get(i.name.lower())) is not None
               for k, full in enumerate(e.ap))  # fmt: skip


def _summer_ready(gm: GM, caster: Member) -> str | None:
    """Out of a fight Summer mends the party's armour only: greyed when none is broken (playtest 13a)."""
    return None if any(broken_armour(gm, m) for m in gm.alive()) else "No one's armour is broken."


def repair_armour(gm: GM, m: Member, points: int = 1, *, metal: bool = False) -> int:
    """Repair ``points`` armour points of what ``m`` wears (the most damaged piece first; only metal pieces when
    ``metal``); returns how many."""
    table = {a.name.lower(): a for a in gm.content.armor.armor if not metal or a.metal}  # armor.toml: ``metal``
    done = 0
    for _ in range(points):
        worn = [(i, e) for i in m.adv.inventory.items if i.equipped and (e := table.get(i.name.lower())) is not None]
        gaps = [(full - (i.ap[k] if len(i.ap) == len(e.ap) else full), i, k, e)
                for i, e in worn for k, full in enumerate(e.ap)]  # fmt: skip
        gaps = [g for g in gaps if g[0] > 0]
        if not gaps:
            break
        _, item, k, entry = max(gaps, key=lambda g: g[0])
        if len(item.ap) != len(entry.ap):
            item.ap = list(entry.ap)
        item.ap[k] += 1
        done += 1
    return done


def _summer(gm: GM, members: list[Member], foes: list[Foe]) -> None:
    """Akhzu's Prayer of Summer: "Repair one armor point from everyone Nearby, including enemies." """
    mended = 0
    for m in members:
        if repair_armour(gm, m):
            mended += 1
            gm.emit("repair", f"{m.name}'s armour mends a point (Prayer of Summer).", who=m.id)
    for e in foes:
        full = core.sheet(gm, e.monster).armor
        if e.ap < full:
            e.ap += 1
            mended += 1
            gm.emit("foe_repair", f"{core.label(e)}'s armour mends a point (Prayer of Summer).", foe=e.id)
    if not mended:
        gm.emit("repair", "A warm wind passes: no armour nearby is broken (Prayer of Summer).")


_season_prayer("Prayer of Summer", _summer, _summer_ready)


def _apotheosis(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    """Goshkalon's Apotheosis: "All nearby allies recovers all fatigue, then next turn get it back." """
    for g, m in nearby(gm, cs, f)[0]:
        ch = m.adv.character
        owed = {a.value: ch.attrs[a].fatigue for a in ATTRS if ch.attrs[a].fatigue}
        for attr in ATTRS:
            ch.attrs[attr].fatigue = 0
        for key, n in owed.items():
            g.owed_fatigue[key] = g.owed_fatigue.get(key, 0) + n
        if owed:
            gm.emit("recover", f"{m.name} feels no fatigue — until their next turn (Apotheosis).", who=m.id)


def _apotheosis_ready(gm: GM, caster: Member) -> str | None:
    """Apotheosis lifts fatigue for a turn: with no one Nearby tired it is an answered prayer spent for nothing."""
    cs = gm.c.combat
    f = next((g for g in cs.fighters if g.id == caster.id), None) if cs is not None else None
    allies = [m for _, m in nearby(gm, cs, f)[0]] if cs is not None and f is not None else []
    if any(m.adv.character.attrs[a].fatigue for m in allies for a in ATTRS):
        return None
    return "No use now: no one Nearby is tired."


_register(Power("prayer", "Apotheosis", fight=_apotheosis, area=True, ready=_apotheosis_ready))


def _machine_spirit(gm: GM, target: Member) -> None:
    """Machine spirit: "Fixes a target machine or metal armor." (All its points, RULINGS R192.)"""
    fixed = repair_armour(gm, target, 99, metal=True)
    gm.emit("repair", f"{target.name}'s metal armour is whole again ({fixed} point(s), Machine spirit)." if fixed
            else f"{target.name} wears no broken metal armour: nothing to fix.", who=target.id)  # fmt: skip


def _metal_lost(gm: GM, m: Member) -> int:
    return broken_armour(gm, m, metal=True)


def _most_broken(gm: GM) -> Member | None:
    """Whose metal armour has lost the most points."""
    hurt = [m for m in gm.alive() if _metal_lost(gm, m) > 0]
    return max(hurt, key=lambda m: _metal_lost(gm, m)) if hurt else None


def _machine_ready(gm: GM, caster: Member) -> str | None:
    """Greyed with nothing to fix: the cast spent a turn to say so (playtest 13a)."""
    return None if _most_broken(gm) is not None else "No one wears broken metal armour."


def _machine_helps(gm: GM, m: Member) -> str | None:
    return None if _metal_lost(gm, m) else "No broken metal armour."


def _machine_outside(gm: GM, caster: Member) -> None:
    _machine_spirit(gm, _most_broken(gm) or caster)


def _machine_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    m = core.member(gm, who.id)
    if m is not None:
        _machine_spirit(gm, m)


_register(Power("spell", "Machine spirit", _machine_outside, _machine_in_fight, helps=_machine_helps,
                ready=_machine_ready))


def _borrowed_time(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    """Cador's Borrowed Time: "Target cannot die for the next 2d6 turns.  All wounds are placed normally"."""
    _last(gm, cs, who, "Borrowed Time", "prayer", "cannot die")


_register(Power("prayer", "Borrowed Time", fight=_borrowed_time, reach=grid.NEARBY))

#: Cleansing Flames cures "any affliction, except for cursed, doomed and plagued".
UNCLEANSED = frozenset({"cursed", "doomed", "plagued"})


def _cleanse(gm: GM, m: Member) -> None:
    burnt = sorted(set(m.adv.character.afflictions) - UNCLEANSED)
    for name in burnt:
        gm.cure(m, name, "Cleansing Flames")
    if not burnt:
        gm.emit("cure", f"The flames pass through {m.name}: there is nothing in them to burn (Cleansing Flames).",
                who=m.id)  # fmt: skip


def _cleansing_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter | Foe) -> None:
    """Yulak's Cleansing Flames: "Holds the target while chanting, burning the target from inside, attacking
    with STR 1PR+6.  If the target is an ally cure any affliction, except for cursed, doomed and plagued." """
    if isinstance(who, Fighter):
        m = core.member(gm, who.id)
        if m is not None:
            _cleanse(gm, m)
        return
    entry = next(p for p in gm.content.magic.prayers if p.name == "Cleansing Flames")
    arm = prayer_arm(entry, f)
    if FIGHT_ATTACK is not None:
        FIGHT_ATTACK(gm, cs, f, caster, arm, who)


def prayer_arm(entry: Any, f: Fighter) -> Arm:
    """The blow of a prayer that attacks with its own notation (Cleansing Flames: "attacking with STR 1PR+6"),
    Close, as a spell (magic)."""
    from rules.notation import parse_attack

    return Arm(key=entry.name, name=entry.name, attack=parse_attack(entry.attack), reach=grid.CLOSE, spell=True)


def _cleansing_outside(gm: GM, caster: Member) -> None:
    """Out of a fight the flames only cure (no enemy to burn): the caster's player chooses whom, among those
    with an affliction the flames burn away, the most afflicted first (the GM-decides pick).  The engine used
    to pick the most afflicted itself (playtest seed 101: the wizard's hunger, not the cleric's own)."""
    burnable = {m.id: sorted(set(m.adv.character.afflictions) - UNCLEANSED) for m in gm.alive()}
    who = sorted((m for m in gm.alive() if burnable[m.id]), key=lambda m: -len(burnable[m.id]))
    _cleanse(gm, _ask_whom(gm, caster, "Cleansing Flames: whom does the fire cleanse?", who,
                           lambda m: ", ".join(burnable[m.id])))  # fmt: skip


def _ask_whom(gm: GM, caster: Member, question: str, who: list[Member], about: Callable[[Member], str]) -> Member:
    """The caster's player chooses among ``who`` (each named with ``about``; the GM-decides pick is the first);
    alone, that one; no one, the caster."""
    if len(who) <= 1:
        return who[0] if who else caster
    names = [f"{m.name} ({about(m)})" for m in who]
    return who[names.index(gm.decider.choose(gm, caster, question, names))]


def _cleansing_ready(gm: GM, caster: Member) -> str | None:
    """Out of a fight, with no one to cure, the answered prayer would burn nothing (in a fight it burns an
    enemy: always of use there)."""
    if gm.c.combat is not None or any(set(m.adv.character.afflictions) - UNCLEANSED for m in gm.alive()):
        return None
    return "No use now: no one has an affliction the flames burn away."


def _cleansing_helps(gm: GM, m: Member) -> str | None:
    """On an ally the flames only cure: no use on one with no affliction they burn away."""
    if set(m.adv.character.afflictions) - UNCLEANSED:
        return None
    return f"No use now: {m.name} has no affliction the flames burn away (not cursed, doomed or plagued)."


_register(Power("prayer", "Cleansing Flames", _cleansing_outside, _cleansing_in_fight, aim="creature",
                helps=_cleansing_helps, ready=_cleansing_ready))


def _season_choice(gm: GM, m: Member) -> tuple[Attr, Attr] | None:
    """Season of changes: the target's player picks where the wounds and fatigue go from and to."""
    ch = m.adv.character
    loaded = [a.value for a in ATTRS if ch.attrs[a].wounds or ch.attrs[a].fatigue]
    if not loaded:
        return None
    frm = Attr(gm.decider.choose(gm, m, "Season of changes: move wounds and fatigue from", loaded))
    room = [a.value for a in ATTRS if a is not frm and ch.attrs[a].available > 0]
    if not room:
        return None
    # the GM-decides player moves them where the fewest dice are needed: the lowest score with room
    room.sort(key=lambda a: (ch.attrs[Attr(a)].score, a))
    to = Attr(gm.decider.choose(gm, m, f"Season of changes: move them from {frm.value} to", room))
    return frm, to


def _season(gm: GM, m: Member) -> None:
    """Akhzu's Season of changes: "You may move any number of wounds and fatigues from one attribute to another."
    (As many as the other attribute has room for, RULINGS R193.)"""
    pick = _season_choice(gm, m)
    if pick is None:
        gm.emit("season", f"{m.name} has nothing to move (Season of changes).", who=m.id)
        return
    frm, to = pick
    a, b = m.adv.character.attrs[frm], m.adv.character.attrs[to]
    wounds = min(a.wounds, b.available)
    a.wounds -= wounds
    b.wounds += wounds
    fatigue = min(a.fatigue, b.available)
    a.fatigue -= fatigue
    b.fatigue += fatigue
    gm.emit("season", f"{m.name}'s {wounds} wound(s) and {fatigue} fatigue move from {frm.value} to {to.value} "
            "(Season of changes).", who=m.id, wounds=wounds, fatigue=fatigue)  # fmt: skip


def _loads(m: Member) -> tuple[int, int]:
    ch = m.adv.character
    return sum(ch.attrs[a].wounds for a in ATTRS), sum(ch.attrs[a].fatigue for a in ATTRS)


def _season_helps(gm: GM, m: Member) -> str | None:
    return None if any(_loads(m)) else f"No use now: {m.name} has no wound or fatigue to move."


def _season_ready(gm: GM, caster: Member) -> str | None:
    """Out of a fight, with no wound or fatigue in the party, an answered prayer would move nothing (a playtest:
    offered to a fresh party).  In a fight each target says so (:func:`_season_helps`)."""
    if gm.c.combat is not None or any(any(_loads(m)) for m in gm.alive()):
        return None
    return "No use now: no one has a wound or fatigue to move."


def _season_outside(gm: GM, caster: Member) -> None:
    """The caster's player chooses whose season changes, the most wounded first (the GM-decides pick); the
    engine used to pick the most wounded itself."""
    who = sorted((m for m in gm.alive() if any(_loads(m))), key=lambda m: (-_loads(m)[0], -_loads(m)[1]))
    _season(gm, _ask_whom(gm, caster, "Season of changes: whose wounds and fatigue move?", who,
                          lambda m: f"{_loads(m)[0]} wounds, {_loads(m)[1]} fatigue"))  # fmt: skip


def _season_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    m = core.member(gm, who.id)
    if m is not None:
        _season(gm, m)


_register(Power("prayer", "Season of changes", _season_outside, _season_in_fight, reach=grid.NEARBY,
                helps=_season_helps, ready=_season_ready))


def _hyperfocus(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    """Goshkalon's Hyperfocus: "For the next 1d6 turns of combat the target will have 3 actions, but can only
    perform the same action.  The target can change actions between rounds." """
    _last(gm, cs, who, "Hyperfocus", "prayer", "has three actions a turn, all the same")


_register(Power("prayer", "Hyperfocus", fight=_hyperfocus, reach=grid.NEARBY))


def _euphoria(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    """Goshkalon's Euphoria: "Target recover 2 fatigue.  During this combat the target can ignore wounds and
    fatigue when counting available dice." """
    m = core.member(gm, who.id)
    if m is None:
        return
    ch = m.adv.character
    eased = 0
    for _ in range(2):
        tired = [a for a in ATTRS if ch.attrs[a].fatigue]
        if tired:
            a = max(tired, key=lambda x: ch.attrs[x].fatigue)
            ch.attrs[a].fatigue -= 1
            eased += 1
    gm.emit("recover", f"{m.name} recovers {eased} fatigue (Euphoria).", who=m.id)
    ch.euphoric = True
    _all_fight(gm, cs, who, "Euphoria", "ignores wounds and fatigue when counting dice")


_register(Power("prayer", "Euphoria", fight=_euphoria))


def _smoke(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    """Smoke form: "can move around for ... one combat turn (2 actions).  The wizard cannot be harmed while in
    smoke form." (Until the wizard's next turn; it passes through enemies, RULINGS R193.)"""
    # through the enemies' next turn, and no further (R193, R245): a fast wizard's ends with this round, a slow
    # one's with the enemies' turn of the next (and so covers the wizard's own next turn too)
    core.put(cs, f, "Smoke form", 1 if cs.phase == "fast" else 2)
    f.actions = max(f.actions, 2)  # "one combat turn (2 actions)" of moving
    gm.emit("effect", f"{caster.name} turns to smoke: no harm until their next turn, and enemies are no wall.",
            who=caster.id, effect="Smoke form")  # fmt: skip


_register(Power("spell", "Smoke form", fight=_smoke, aim="self"))


# --- powers out of a fight: doors, sight, the expedition ---------------------------------------------------------


def _here(gm: GM) -> list[SiteLink]:
    """The ways out of the party's room it knows of (not a secret door still unfound)."""
    exp = gm.c.expedition
    if exp is None:
        return []
    return [lk for lk in gm.site_level().links_of(exp.room) if lk.door != "secret" or door_state(gm, lk).found]


def _next_door(gm: GM, caster: Member, ways: list[SiteLink], prompt: str) -> tuple[int, str]:
    """The caster's player picks one of the rooms ``ways`` lead to from the party's: (its id, its label)."""
    exp = gm.c.expedition
    assert exp is not None
    names = [room_label(gm, lk.other(exp.room)) for lk in ways]
    pick = gm.decider.choose(gm, caster, prompt, names)
    return ways[names.index(pick)].other(exp.room), pick


def _locked(gm: GM) -> list[SiteLink]:
    return [lk for lk in _here(gm) if is_locked(gm, lk)]


def _lockable(gm: GM) -> list[SiteLink]:
    """The doors here the spell can lock (R248): a real door, open or closed, not broken, not spiked open nor
    wedged shut, not locked already."""
    out = []
    for lk in _here(gm):
        st = door_state(gm, lk)
        if lk.door in ("archway", "barricaded") or st.broken or st.spiked or st.wedged or is_locked(gm, lk):
            continue
        out.append(lk)
    return out


def _knock_ready(gm: GM, caster: Member) -> str | None:
    return None if _locked(gm) or _lockable(gm) else "No door here to open or to lock."


def _knock(gm: GM, caster: Member) -> None:
    """Knock/Lock: "Locks or opens a door nearby.  Will unlock any simple mechanical lock."  The caster's player
    picks which door, and whether it opens (a locked one) or locks (R248)."""
    exp = gm.c.expedition
    opens, locks = _locked(gm), _lockable(gm)
    if exp is None or not (opens or locks):
        raise RuleError("no door here to open or to lock")
    names = [f"Open the locked door to {room_label(gm, lk.other(exp.room))}" for lk in opens]
    names += [f"Lock the door to {room_label(gm, lk.other(exp.room))}" for lk in locks]
    pick = gm.decider.choose(gm, caster, "Knock/Lock: which door?", names)
    i = names.index(pick)
    door = door_state(gm, (opens + locks)[i])
    link = (opens + locks)[i]
    if i < len(opens):
        door.unlocked, door.locked = True, False
        gm.emit("door", f"The lock of the door to {room_label(gm, link.other(exp.room))} clicks open (Knock/Lock).",
                link=link.id)  # fmt: skip
        return
    door.locked, door.opened = True, False
    gm.emit("door", f"The door to {room_label(gm, link.other(exp.room))} swings shut and locks (Knock/Lock): "
            "what comes from beyond must burst it.", link=link.id)  # fmt: skip


_register(Power("spell", "Knock/Lock", _knock, ready=_knock_ready))

def _evil_here(gm: GM, room_id: int) -> list[str]:
    out: list[str] = []
    for g in live_monsters(gm, room_id):
        try:
            tags = set(core.sheet(gm, g.monster).tags)
        except KeyError:
            continue
        if tags & set(gm.content.bestiary.enemy_rules.evil_tags):  # "evil or undead" (R194)
            out.append(g.monster)
    return out


def _detect_evil(gm: GM, caster: Member) -> None:
    """Yulak's Detect Evil: "Everything nearby that's evil or undead glows with a green light" — the rooms
    next to the party's, and this one."""
    exp = gm.c.expedition
    if exp is None:
        raise RuleError("nothing to detect here")
    glows = []
    for rid in [exp.room, *(lk.other(exp.room) for lk in _here(gm))]:
        evil = _evil_here(gm, rid)
        if evil:
            glows.append(f"{'here' if rid == exp.room else room_label(gm, rid)}: {', '.join(sorted(set(evil)))}")
    text = ("A green glow: " + "; ".join(glows) + ".") if glows else "Nothing nearby glows: no evil, no undead."
    gm.emit("detect", text + " (Detect Evil)", who=caster.id)


def _detect_ready(gm: GM, caster: Member) -> str | None:
    return None if gm.c.expedition is not None else "Nothing to detect here."


_register(Power("prayer", "Detect Evil", _detect_evil, ready=_detect_ready))


def _unseen(gm: GM) -> list[SiteLink]:
    exp = gm.c.expedition
    if exp is None:
        return []
    return [lk for lk in _here(gm) if not gm.room_state(lk.other(exp.room)).visited]


def _eye_ready(gm: GM, caster: Member) -> str | None:
    return None if _unseen(gm) else "No unexplored room next to this one."


def _arcane_eye(gm: GM, caster: Member) -> None:
    """Arcane eye: the eye floats into a room next to this one, through any gap, and shows what is there (its
    creatures, and what lies in the open).  Creatures that are awake may spot it (a 1 or 2 on the Die of Fate):
    it bursts, and the wizard takes 1 INT wound (RULINGS R194)."""
    exp = gm.c.expedition
    ways = _unseen(gm)
    if exp is None or not ways:
        raise RuleError("no unexplored room next to this one")
    rid, _ = _next_door(gm, caster, ways, "Arcane eye: which room does the eye float into?")
    st = gm.room_state(rid)
    st.seen = True
    room = gm.room(rid)
    groups = live_monsters(gm, rid)
    who = ", ".join(f"{g.count} {g.monster}" + ("" if g.aware else " (unaware)") for g in groups) or "no one"
    loot = [x.name for x in room.loot if not x.hidden]
    gm.emit("scout", f"The arcane eye floats into {room.name} (room {rid}): {room.description} It sees {who}"
            + (f"; in the open: {', '.join(loot)}" if loot else "") + ".", who=caster.id, room=rid)  # fmt: skip
    if any(g.aware for g in groups):
        face = d(gm.rng, 6)
        if face <= 2:
            gm.emit("scout", f"The creatures spot the eye and tear it apart (Die of Fate {face}).", who=caster.id)
            gm.harm(caster, 1, "the arcane eye destroyed", attr=Attr.INT, armour=False)
        else:
            gm.emit("scout", f"The eye slips away unseen (Die of Fate {face}).", who=caster.id)


_register(Power("spell", "Arcane eye", _arcane_eye, ready=_eye_ready))

POCKET = "Pocket reality"


def _pocket_ready(gm: GM, caster: Member) -> str | None:
    if gm.c.expedition is None:
        return "Only on an expedition (it lasts until the expedition ends)."
    return "A pocket reality is already open." if any(p.name == POCKET for p in caster.adv.inventory.places) else None


def _pocket(gm: GM, caster: Member) -> None:
    """Pocket reality: "a bag that looks very small on the outside, but has 3 slots.  Anything inside do not
    count towards encumbrance.  It lasts until the end of the expedition." """
    caster.adv.inventory.add_container(POCKET, 3, on_body=False)
    gm.emit("pocket", f"{caster.name} opens a pocket reality: 3 slots that weigh nothing, until the expedition "
            "ends.", who=caster.id)  # fmt: skip


_register(Power("spell", POCKET, _pocket, ready=_pocket_ready))


def _bliss_ready(gm: GM, caster: Member) -> str | None:
    return None if any(m.adv.character.afflictions for m in gm.alive()) else "No one has an affliction."


def _bliss(gm: GM, caster: Member) -> None:
    """Goshkalon's Bliss: "Choose one affliction the target currently has, during this expedition that affliction
    will have no effect, but can't be removed."  It is set aside until the expedition ends, then comes back."""
    exp = gm.c.expedition
    hurt = [m for m in gm.alive() if m.adv.character.afflictions]
    if not hurt:
        raise RuleError("no one has an affliction")
    pairs = {f"{m.name}: {a}": (m, a) for m in hurt for a in sorted(m.adv.character.afflictions)}
    pick = gm.decider.choose(gm, caster, "Bliss: which affliction stops mattering?", list(pairs))
    m, name = pairs[pick]  # (the pick's place among the pairs is not its adventurer's place among the afflicted)
    m.adv.character.afflictions.discard(name)
    m.bliss.append(name)
    gm.emit("bliss", f"{m.name}'s {name} no longer matters" + (" until the expedition ends" if exp else "")
            + " (Bliss).", who=m.id)  # fmt: skip


_register(Power("prayer", "Bliss", _bliss, ready=_bliss_ready))


# --- Weave fate ---------------------------------------------------------------------------------------------------


def _weave_ready(gm: GM, caster: Member) -> str | None:
    exp = gm.c.expedition
    if exp is None:
        return "Only on an expedition."
    if exp.woven:
        return "Woven dice are still kept."
    return None if caster.adv.character.attrs[Attr.INT].available > 0 else "No INT dice left to weave."


def _weave_fate(gm: GM, caster: Member) -> None:
    """Weave fate: "Roll up to the wizard's available intelligence dice and keep them around.  You may use them to
    replace any dice result you roll in the next 2d6 exploration turns.  For every dice you don't use after that,
    receive one intelligence wound.  The GM should roll the timer and keep it in secret." """
    exp = gm.c.expedition
    most = caster.adv.character.attrs[Attr.INT].available
    if exp is None or most <= 0:
        raise RuleError(_weave_ready(gm, caster) or "no fate to weave")
    # "up to": the player weighs each die kept against the INT wound it costs unused (RULINGS R236)
    options = [f"weave {k} {'die' if k == 1 else 'dice'}" for k in range(most, 0, -1)]
    n = most - options.index(gm.decider.choose(gm, caster, "Weave fate: how many INT dice to weave?", options))
    exp.woven = sorted((d(gm.rng, 6) for _ in range(n)), reverse=True)
    exp.woven_by = caster.id
    exp.woven_until = exp.turns + lasts(gm, "spell", "Weave fate")
    gm.emit("weave", f"{caster.name} weaves fate: {exp.woven} are kept, to replace a die that fails "
            "(for a while only the GM knows).", who=caster.id, dice=list(exp.woven))  # fmt: skip


_register(Power("spell", "Weave fate", _weave_fate, ready=_weave_ready))


def each_turn(gm: GM) -> None:
    """An exploration turn passed: what lasts a number of turns runs out."""
    exp = gm.c.expedition
    if exp is None:
        return
    if exp.woven_by and exp.turns > exp.woven_until:
        _unravel(gm)
    _eye_turn(gm)


def _unravel(gm: GM) -> None:
    exp = gm.c.expedition
    if exp is None:
        return
    weaver = next((m for m in gm.alive() if m.id == exp.woven_by), None)
    left = len(exp.woven)
    exp.woven, exp.woven_by, exp.woven_until = [], "", 0
    if weaver is None:
        return
    gm.emit("weave", f"The woven fate unravels: {left} unused die(s)." if left else "The woven fate is spent.",
            who=weaver.id)  # fmt: skip
    if left:
        gm.harm(weaver, left, "unused woven dice", attr=Attr.INT, armour=False)


# --- Hover --------------------------------------------------------------------------------------------------------

def floats_over(gm: GM, m: Member, trap: SiteTrap) -> bool:
    """``m`` hovers over a trap set in the floor (it does not spring for them); the theme's trap table says which
    lie in the floor (``floor``, RULINGS R200)."""
    return still(gm, m.hovering) and trap.floor


def _hover_ready(gm: GM, caster: Member) -> str | None:
    exp = gm.c.expedition
    if exp is None:
        return "Only on an expedition."
    return "Already hovering." if still(gm, caster.hovering) else None


def _hover(gm: GM, caster: Member) -> None:
    """Hover: "The wizard can hover one meter above the ground, water or similar.  Lasts 1d6 turns." — no trap set
    in the floor springs under the wizard while it lasts (RULINGS R200)."""
    exp = gm.c.expedition
    if exp is None:
        raise RuleError("only on an expedition")
    n = lasts(gm, "spell", "Hover")
    caster.hovering = exp.turns + n
    gm.emit("hover", f"{caster.name} rises a metre above the ground for {n} exploration turn(s): no pit, plate or "
            "rotten floor springs under them.", who=caster.id, turns=n)  # fmt: skip


_register(Power("spell", "Hover", _hover, ready=_hover_ready))


def end_of_expedition(gm: GM) -> None:
    """What lasts "until the end of the expedition" ends: a pocket reality spills what it held; Bliss wears off;
    woven fate unravels."""
    _unravel(gm)
    for m in gm.c.party:
        inv = m.adv.inventory
        pocket = next((p for p in inv.places if p.name == POCKET), None)
        if pocket is not None:
            inside = [i for i in inv.items if i.place == POCKET]
            inv.places.remove(pocket)
            for item in inside:
                inv.items.remove(item)
                where = inv.room_for(item)
                if where is None:
                    gm.emit("pocket", f"The pocket reality closes: {item.name} is lost.", who=m.id)
                else:
                    inv.add(item, where)
            gm.emit("pocket", f"{m.name}'s pocket reality closes.", who=m.id)
        for name in m.bliss:
            m.adv.character.afflictions.add(name)
            gm.emit("bliss", f"Bliss wears off: {m.name} is {name} again.", who=m.id)
        m.bliss = []
        m.immune = []
        m.warded = 0
        m.hovering = 0
        m.blind = 0


def _seal(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    """Cador's Seal: "Creates a 3m line that no undead can cross during this expedition." — in a fight, drawn
    around the cleric: no undead may step onto the cleric's tile or the tiles Close to it (RULINGS R201); out of
    one, across a doorway (:func:`_seal_outside`)."""
    line = {f.tile, *grid.around(f.tile)} & set(cs.tiles)
    cs.sealed = sorted(set(cs.sealed) | line)
    gm.emit("seal", f"{caster.name} draws a line of holy ash: no undead may cross it.", who=caster.id,
            tiles=[list(t) for t in line])  # fmt: skip


def _unsealed(gm: GM) -> list[SiteLink]:
    exp = gm.c.expedition
    return [lk for lk in _here(gm) if exp is not None and [exp.depth, lk.id] not in exp.sealed]


def _seal_ready(gm: GM, caster: Member) -> str | None:
    if gm.c.expedition is None:
        return "Only on an expedition (the line lasts until it ends)."
    return None if _unsealed(gm) else "Every doorway here is sealed already."


def _seal_outside(gm: GM, caster: Member) -> None:
    """Seal out of a fight (RULINGS R204): the cleric's player picks a doorway of the party's room; the 3 m line
    of holy ash across it holds until the expedition ends.  No undead crosses it: undead coming to the party wait
    behind it while every way into the party's room is sealed (:func:`held_back`), and come when the party stands
    in a room that is not (:func:`released`)."""
    exp = gm.c.expedition
    ways = _unsealed(gm)
    if exp is None or not ways:
        raise RuleError(_seal_ready(gm, caster) or "nothing to seal")
    rid, label = _next_door(gm, caster, ways, "Seal: across which doorway is the line drawn?")
    link = next(lk for lk in ways if lk.other(exp.room) == rid)
    exp.sealed.append([exp.depth, link.id])
    shut = " The room is sealed: no undead can come in." if sealed_in(gm) else ""
    gm.emit("seal", f"{caster.name} draws a line of holy ash across the doorway to {label}: no undead will cross it "
            f"until the expedition ends.{shut}", who=caster.id, link=link.id)  # fmt: skip


_register(Power("prayer", "Seal", _seal_outside, _seal, area=True, ready=_seal_ready))


def sealed_in(gm: GM) -> bool:
    """Every way into the party's room is sealed (RULINGS R204): its doorways, each with a line of holy ash, and
    no stairs (a line across a doorway does not close a stair)."""
    exp = gm.c.expedition
    if exp is None or not exp.sealed or gm.room().stairs:
        return False
    links = gm.site_level().links_of(exp.room)
    return bool(links) and all([exp.depth, lk.id] in exp.sealed for lk in links)


def undead(gm: GM, monster: str) -> bool:
    try:
        return "undead" in gm.content.bestiary.monster(monster).tags
    except KeyError:
        return False


def held_back(gm: GM, groups: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Of the creatures coming at the party, those that come: undead stop at a sealed room's lines and wait there
    (kept in the expedition) until the party stands in a room that is not sealed in (RULINGS R204)."""
    exp = gm.c.expedition
    if exp is None or not sealed_in(gm):
        return groups
    waiting = [(n, c) for n, c in groups if undead(gm, n)]
    if not waiting:
        return groups
    exp.held += [[n, c] for n, c in waiting]
    names = ", ".join(f"{c} {n}" for n, c in waiting)
    gm.emit("seal", f"{names} come to the line of holy ash, and cannot cross it: they wait beyond the doorway.",
            monsters=[[n, c] for n, c in waiting])  # fmt: skip
    return [(n, c) for n, c in groups if not undead(gm, n)]


def released(gm: GM) -> list[tuple[str, int]]:
    """The undead waiting behind the line, once the party stands in a room that is not sealed in: they come at it
    (RULINGS R204).  Empty while it is sealed in, or when none wait."""
    exp = gm.c.expedition
    if exp is None or not exp.held or sealed_in(gm):
        return []
    out = [(str(n), int(c)) for n, c in exp.held]
    exp.held = []
    return out


def _mind_fog(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    """Mind fog: "A target close cannot form memories of the next 1d4 turns.  The GM should roll the dice in
    secret." — it forgets whom it fights as soon as it looks away: it goes after no one, striking only what is in
    its reach (RULINGS R201).  The log keeps the duration secret."""
    n = lasts(gm, "spell", "Mind fog")
    core.put(cs, e, "Mind fog", n)
    gm.emit("effect", f"A grey fog settles behind {core.label(e)}'s eyes (Mind fog; how long, only the GM knows).",
            foe=e.id, effect="Mind fog")  # fmt: skip


_register(Power("spell", "Mind fog", fight=_mind_fog, aim="foe"))


# --- silence, darkness, seals, voices and ink ---------------------------------------------------------------------


def _silence(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    """Kaal Rafir's Silence: "Absolute silence covers a Nearby area, no spells may be cast." (For the fight;
    no enemy's cry, song or scream carries in it either, RULINGS R197.)"""
    cs.silence.append(f.tile)
    gm.emit("silence", "Absolute silence falls around the cleric: no spell, no cry carries here.", who=caster.id)


_register(Power("prayer", "Silence", fight=_silence, area=True))


def _black_night(gm: GM, cs: CombatState, f: Fighter, caster: Member, e: Foe) -> None:
    """Black night: "Absolute darkness covers a nearby area, anything close to that area is engulfed in it and
    can't see.  The wizard can see normally through the darkness." (The enemy's tile and those Close to it, for
    the fight: enemies in it strike blind, the others attack into it blind, RULINGS R197.)"""
    area = {e.tile, *grid.around(e.tile)} & set(cs.tiles)
    cs.night = sorted(set(cs.night) | area)
    cs.night_by = f.id
    inside = [core.label(x) for x in cs.active_foes() if x.tile in cs.night]
    gm.emit("darkness", f"Absolute darkness swallows {', '.join(inside) or 'the floor'} (Black night).",
            who=caster.id, tiles=[list(t) for t in cs.night])  # fmt: skip


_register(Power("spell", "Black night", fight=_black_night, reach=grid.NEARBY, aim="foe"))


def _arcane_seal_on(gm: GM, caster: Member, target: Member) -> None:
    exp = gm.c.expedition
    n = lasts(gm, "spell", "Arcane Seal")
    target.warded = (exp.turns if exp is not None else 0) + n
    gm.emit("warded", f"An arcane seal wards {target.name} from spells for {n} exploration turn(s) (Arcane Seal).",
            who=target.id, turns=n)  # fmt: skip


def _arcane_seal(gm: GM, caster: Member) -> None:
    """Arcane Seal: "Protects a nearby person or object from spells for 1d6 exploration turns." — the spells the
    engine casts at the party are the enemies' attacks on the mind (defended with INT, RULINGS R197)."""
    unwarded = [m for m in gm.alive() if not still(gm, m.warded)]
    names = [m.name for m in (unwarded or gm.alive())]
    pick = gm.decider.choose(gm, caster, "Arcane Seal: whom does it ward?", names)
    _arcane_seal_on(gm, caster, next(m for m in gm.alive() if m.name == pick))


def _arcane_seal_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    m = core.member(gm, who.id)
    if m is not None:
        _arcane_seal_on(gm, caster, m)


_register(Power("spell", "Arcane Seal", _arcane_seal, _arcane_seal_in_fight, reach=grid.NEARBY))


def _mouth_rooms(gm: GM) -> list[SiteLink]:
    exp = gm.c.expedition
    if exp is None:
        return []
    return [lk for lk in _here(gm) if any(g.aware for g in live_monsters(gm, lk.other(exp.room)))]


def _mouth_ready(gm: GM, caster: Member) -> str | None:
    return None if _mouth_rooms(gm) else "No watchful creatures next door to lure."


def _magic_mouth(gm: GM, caster: Member) -> None:
    """Magic mouth: "Creates a magic mouth at a far location, that mouth will repeat a phrase" — set far off, a
    voice draws the attention of the creatures of a room next door: they turn to it, and the party comes upon
    them unaware (RULINGS R197)."""
    exp = gm.c.expedition
    ways = _mouth_rooms(gm)
    if exp is None or not ways:
        raise RuleError("no watchful creatures next door")
    rid, pick = _next_door(gm, caster, ways, "Magic mouth: whose attention does the voice draw?")
    for g in live_monsters(gm, rid):
        g.aware = False
    gm.emit("lure", f"A voice calls from far away; the creatures of {pick} turn towards it (Magic mouth).",
            who=caster.id, room=rid)  # fmt: skip


_register(Power("spell", "Magic mouth", _magic_mouth, ready=_mouth_ready))


def _ink_ready(gm: GM, caster: Member) -> str | None:
    exp = gm.c.expedition
    if exp is None:
        return "Only on an expedition."
    return "The way is already marked." if exp.ink == caster.id else None


def _mystic_ink(gm: GM, caster: Member) -> None:
    """Mystic ink: "a glowing colorful ink that only other wizards with the mystic ink spell can see" — the wizard
    marks the way: for the rest of the expedition going back to any explored room costs no turn (RULINGS R197)."""
    exp = gm.c.expedition
    if exp is None:
        raise RuleError("no way to mark here")
    exp.ink = caster.id
    gm.emit("ink", f"{caster.name} marks the way with glowing ink only a wizard sees: the way back is free.",
            who=caster.id)  # fmt: skip


_register(Power("spell", "Mystic ink", _mystic_ink, ready=_ink_ready))


# --- Eyes of the forest: a tree's eye -----------------------------------------------------------------------------

EYE = "Eyes of the forest"


def has_terrain(gm: GM, kind: str, room_id: int) -> bool:
    """Whether the room ``room_id`` of the party's level has the terrain ``kind`` of the content's ``[terrain]``
    (RULINGS R202): one of its words in the room's name, description or features, or — for a terrain seen outside
    — it is a way into the dungeon from the island."""
    terrain = gm.content.magic.terrain[kind]
    exp = gm.c.expedition
    if terrain.entrances and exp is not None and exp.depth == 1 and room_id in gm.site_level().entrances:
        return True
    room = gm.room(room_id)
    words = re.compile(r"\b(" + "|".join(re.escape(w) for w in terrain.words) + r")\b", re.IGNORECASE)
    texts = [room.name, room.description, *(t for f in room.features for t in (f.name, f.text))]
    return any(words.search(t) for t in texts)


def _in_sight(gm: GM) -> list[int]:
    """The rooms the party can see now: its own, and those next door through a way that stands open."""
    exp = gm.c.expedition
    if exp is None:
        return []
    out = [exp.room]
    for lk in _here(gm):
        st = door_state(gm, lk)
        if (lk.door == "archway" or st.opened or st.broken) and lk.other(exp.room) not in out:
            out.append(lk.other(exp.room))
    return out


def _trees(gm: GM) -> list[int]:
    """The rooms in sight with a tree for the eye, but the one it already sits in (the unexplored first)."""
    exp = gm.c.expedition
    if exp is None:
        return []
    kind = _entry(gm, "prayer", EYE).terrain or "tree"
    here = (exp.eye_depth, exp.eye_room) if exp.eye_by else None
    trees = [r for r in _in_sight(gm) if has_terrain(gm, kind, r) and (exp.depth, r) != here]
    # the unexplored first (what the eye is for), the party's own room last
    return sorted(trees, key=lambda r: (r == exp.room, gm.room_state(r).visited))


def eye_trees(gm: GM) -> list[int]:
    """The rooms in sight where Eyes of the forest could open its eye now (the unexplored first; R202)."""
    return _trees(gm)


def _entry(gm: GM, kind: Kind, name: str) -> Any:
    entries = gm.content.magic.spells if kind == "spell" else gm.content.magic.prayers
    return next(e for e in entries if e.name == name)


def _tree_ready(gm: GM, caster: Member) -> str | None:
    if gm.c.expedition is None:
        return "Only on an expedition (the eye lasts until it ends)."
    return None if _trees(gm) else "No tree in sight: no roots or trees here or through an open way."


def _sight(groups: list[GroupState]) -> tuple[str, str]:
    """What the eye shows of a room's creatures: (the words, a key that changes when they do)."""
    groups = [g for g in groups if g.count > 0]
    who = ", ".join(f"{g.count} {g.monster}" + ("" if g.aware else " (unaware)") for g in groups) or "no one"
    key = ";".join(f"{g.monster}:{g.count}:{int(g.aware)}" for g in groups)
    return who, key


def _eye(gm: GM, caster: Member) -> None:
    """Akhzu's Eyes of the forest: "Creates a magical eye on a Distant tree that you can currently see.  You can
    see though the magical eye during the current expedition." — the cleric's player picks a room in sight with a
    tree (RULINGS R202); the eye shows it now (its creatures, what lies in the open), and for the rest of the
    expedition tells whenever the creatures there change, and watches over a camp made there."""
    exp = gm.c.expedition
    trees = _trees(gm)
    if exp is None or not trees:
        raise RuleError(_tree_ready(gm, caster) or "no tree in sight")
    names = ["here" if r == exp.room else room_label(gm, r) for r in trees]
    pick = gm.decider.choose(gm, caster, "Eyes of the forest: on which tree does the eye open?", names)
    rid = trees[names.index(pick)]
    exp.eye_by, exp.eye_depth, exp.eye_room = caster.id, exp.depth, rid
    st = gm.room_state(rid)
    st.seen = True
    room = gm.room(rid)
    who, exp.eye_saw = _sight(st.monsters)
    loot = [x.name for i, x in enumerate(room.loot) if not x.hidden and i not in st.loot_taken]
    gm.emit("eye", f"An eye opens in the bark of a tree in {room.name} (room {rid}): {caster.name} sees {who} there"
            + (f"; in the open: {', '.join(loot)}" if loot else "") + ", and will see through it until the "
            "expedition ends (Eyes of the forest).", who=caster.id, room=rid)  # fmt: skip


def _eye_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    _eye(gm, caster)  # a prayer's action in the fight; the eye sees on after it


_register(Power("prayer", EYE, _eye, _eye_in_fight, aim="self", ready=_tree_ready))


def eye_watching(gm: GM) -> Member | None:
    """The cleric whose tree's eye watches the party's room now (None: none does)."""
    exp = gm.c.expedition
    if exp is None or not exp.eye_by or (exp.eye_depth, exp.eye_room) != (exp.depth, exp.room):
        return None
    return next((m for m in gm.alive() if m.id == exp.eye_by), None)


def _eye_turn(gm: GM) -> None:
    """An exploration turn passed: the cleric sees through the eye, and what changed in its room is told."""
    exp = gm.c.expedition
    if exp is None or not exp.eye_by:
        return
    seer = next((m for m in gm.alive() if m.id == exp.eye_by), None)
    if seer is None:
        return
    lv = gm.location().levels.get(exp.eye_depth)
    if lv is None or exp.eye_room not in lv.rooms:
        return
    who, key = _sight(lv.rooms[exp.eye_room].monsters)
    if key != exp.eye_saw:
        exp.eye_saw = key
        gm.emit("eye", f"Through the tree's eye {seer.name} sees {who} in room {exp.eye_room} now (Eyes of the "
                "forest).", who=seer.id, room=exp.eye_room, depth=exp.eye_depth)  # fmt: skip


# --- Cador's sacrifice: capture, then kill an undead ---------------------------------------------------------------

#: What holds an enemy captive for Cador's ritual (RULINGS R241): the powers that keep it from moving or acting.
CAPTIVE_BY = ("Hold", "Glue", "Command undead")


def captive(cs: CombatState, e: Foe) -> str | None:
    """What holds ``e`` captive now (a power's name), or None: Hold, Glue, Command undead's "stand still", or the
    Shackles a wizard channels on it."""
    held = next((n for n in CAPTIVE_BY if core.lasting(cs, e, n) and (n != "Command undead" or not e.order)), None)
    if held is None and any(g.channel == f"Shackles:{e.id}" for g in cs.fighters):
        held = "Shackles"
    return held


def cador_angered(gm: GM, m: Member) -> bool:
    """``m`` is a cleric whose god is angered and asks for a captured undead (Cador)."""
    god = next((g for g in gm.content.magic.gods if g.name == m.adv.god), None)
    return (m.adv.prayers is not None and m.adv.prayers.angered and god is not None and god.sacrifice is not None
            and god.sacrifice.kind == "kill_captured_undead")  # fmt: skip


def sacrifice_why_not(gm: GM, cs: CombatState, f: Fighter, e: Foe) -> str | None:
    """Why ``f`` cannot kill ``e`` in Cador's ritual now (None: they can)."""
    if "undead" not in core.sheet(gm, e.monster).tags:
        return "Cador asks for an undead."
    if captive(cs, e) is None:
        return "Not captured: it must be held first (Hold, Glue, Shackles, or commanded to stand still)."
    if not grid.close(f.tile, e.tile):
        return "The captive must be Close."
    return None


def cador_sacrifice(gm: GM, cs: CombatState, f: Fighter, m: Member, e: Foe) -> None:
    """Cador's sacrifice: "the cleric must capture, then kill an undead during the sacrifice ritual" — the held
    undead dies in the ritual, and the god listens again (RULINGS R241)."""
    held = captive(cs, e)
    gm.emit("sacrifice", f"{m.name} kills the captured {core.label(e)} (held by {held}) in Cador's ritual.",
            who=m.id, foe=e.id)  # fmt: skip
    core.kill_foe(gm, cs, e, f, "Cador's sacrifice")
    assert m.adv.prayers is not None
    m.adv.prayers.sacrifice()
    gm.emit("pray", f"{m.name} makes a sacrifice to Cador; the god listens again.", who=m.id)


# --- Swarm: a creature the cleric commands ------------------------------------------------------------------------


def _swarm(gm: GM, cs: CombatState, f: Fighter, caster: Member, target: Fighter) -> None:
    """Kaal Rafir's Swarm: "Summons a swarm of insects that can be commanded by the cleric." — it joins the fight
    beside the cleric, on the party's side, and acts when the cleric commands it (RULINGS R199)."""
    from rules.gm.combat_state import FoeGroup

    entry = next(p for p in gm.content.magic.prayers if p.name == "Swarm")
    name = entry.summon or "Swarm of Insects"
    taken = {g.tile for g in cs.fighters if not (g.dead or g.fled)} | {e.tile for e in cs.foes if e.active}
    spot = grid.nearest_free(cs, f.tile, taken)
    if spot is None:
        gm.emit("summon", "The swarm finds no room to gather, and scatters.", who=caster.id)
        return
    cs.groups.append(FoeGroup(name, 1, source="Swarm"))
    swarm = Foe(f"e{cs.next_foe}", name, len(cs.groups) - 1, spot[0], spot[1], side=caster.id)
    cs.next_foe += 1
    cs.foes.append(swarm)
    gm.emit("summon", f"A {name.lower()} gathers beside {caster.name}, waiting for a command.", who=caster.id,
            foe=swarm.id)  # fmt: skip


_register(Power("prayer", "Swarm", fight=_swarm, aim="self"))


def swarm_reach(gm: GM, cs: CombatState, swarm: Foe) -> dict[Tile, int]:
    """Where the swarm can fly this command (its movement; nothing blocks a cloud of insects but a wall)."""
    m = core.sheet(gm, swarm.monster)
    taken = {g.tile for g in cs.fighters if not (g.dead or g.fled)} | {e.tile for e in cs.foes if e.active}
    return grid.reachable(swarm.tile, m.movement, set(cs.tiles), blocked=set(), occupied=taken - {swarm.tile},
                          threat=set(), ignore_stop=True)  # fmt: skip


def command_swarm(gm: GM, cs: CombatState, swarm: Foe, target: Foe) -> None:
    """The swarm flies to the enemy and drains it: its sheet's attack, its level in dice, a 4+ hits (RULINGS
    R199)."""
    m = core.sheet(gm, swarm.monster)
    if not grid.close(swarm.tile, target.tile):
        spots = [t for t in swarm_reach(gm, cs, swarm) if grid.close(t, target.tile)]
        if not spots:
            gm.emit("swarm", f"The swarm cannot reach {core.label(target)}.", foe=swarm.id)
            return
        swarm.x, swarm.y = min(spots, key=lambda t: (grid.distance(t, swarm.tile), t[1], t[0]))
    attack = next((a for a in m.actions if a.notation), None)
    faces = [d(gm.rng, 6) for _ in range(max(1, m.level))]
    if attack is None or not any(x >= 4 for x in faces):
        gm.emit("swarm", f"The swarm engulfs {core.label(target)} but draws no blood ({faces}).", foe=swarm.id)
        return
    from rules.notation import parse_attack

    atk = parse_attack(attack.notation or "")
    gm.emit("swarm", f"The swarm engulfs {core.label(target)} ({faces}).", foe=swarm.id)
    hurt_foe(gm, cs, target, atk.damage, f"the swarm's {attack.name.lower()}")


def swarm_in_reach(gm: GM, cs: CombatState, swarm: Foe, target: Foe) -> bool:
    return grid.close(swarm.tile, target.tile) or any(grid.close(t, target.tile) for t in swarm_reach(gm, cs, swarm))


# --- Transmute: the alchemist's potions --------------------------------------------------------------------------


def _transmute_ready(gm: GM, caster: Member) -> str | None:
    if alchemy.kit(gm.content, caster) is None:
        return f"Needs an {gm.content.alchemy.rules.extraction_requires.lower()} (and its bottles)."
    options = alchemy.mixes(gm.content, alchemy.extracts(caster.adv.inventory))
    if not options:
        have = alchemy.extracts(caster.adv.inventory)
        return ("No mix of the extracts carried makes a recipe." if have
                else "No elemental extracts: take them from the dead first.")  # fmt: skip
    if not _brewable(caster, options):
        return "No hand or bag slot free for the potion: drop or give something first."
    return None


def _brewable(caster: Member, options: list[tuple[Any, dict[str, int]]]) -> list[tuple[Any, dict[str, int]]]:
    """The mixes whose potion has a place once their extracts are spent (a spent stack may leave its slot to the
    extract that shared it): a playtest cast Transmute with full hands and bag, and the potion was spilt."""
    out = []
    for recipe, mix in options:
        inv = copy.deepcopy(caster.adv.inventory)
        alchemy.spend_extracts(inv, mix)
        if inv.room_for(Carried(recipe.name, "", rarity=recipe.rarity, usage=recipe.usage_die)) is not None:
            out.append((recipe, mix))
    return out


def _transmute(gm: GM, caster: Member) -> None:
    """Transmute: "The wizard may mix elemental extracts to create tonics.  Requires an alchemic toolkit and a
    bottle." — the player picks a recipe the extracts carried can make (its smallest mix is used)."""
    why = _transmute_ready(gm, caster)
    if why is not None:
        raise RuleError(why)
    options = _brewable(caster, alchemy.mixes(gm.content, alchemy.extracts(caster.adv.inventory)))
    labels = [f"{r.name} ({alchemy.mix_text(mix)})" for r, mix in options]
    pick = gm.decider.choose(gm, caster, "Transmute: which potion?", labels)
    recipe, mix = options[labels.index(pick)]
    alchemy.spend_extracts(caster.adv.inventory, mix)
    try:
        alchemy.brew(gm.content, caster, recipe)
    except RuleError:
        gm.emit("transmute", f"{caster.name} mixes {with_article(recipe.name.lower())}, but has no hand or bag free "
                "for it: it is spilt.", who=caster.id)  # fmt: skip
        return
    gm.emit("transmute", f"{caster.name} mixes {alchemy.mix_text(mix)} into {with_article(recipe.name.lower())}: "
            f"{recipe.text}", who=caster.id, recipe=recipe.name)  # fmt: skip


def _transmute_in_fight(gm: GM, cs: CombatState, f: Fighter, caster: Member, who: Fighter) -> None:
    _transmute(gm, caster)


_register(Power("spell", "Transmute", _transmute, _transmute_in_fight, aim="self", ready=_transmute_ready))


# --- miracles ----------------------------------------------------------------------------------------------------


def miracle(gm: GM, m: Member, special: str, row: object) -> None:
    """A prayer's great success: the miracle table's row."""
    if special == "heal_1d6_wounds":
        target = most_wounded(gm) or m
        heal(gm, target, DiceExpr.parse("1d6").roll(gm.rng), "a miracle")
    elif special == "morale_1d6":
        # "Get 1d6 points of morale in this combat (or next, if out of combat)" (R208): each point pays one
        # fatigue point a test costs an adventurer in that fight (GM.morale_pays)
        points = DiceExpr.parse("1d6").roll(gm.rng)
        cs = gm.c.combat
        if cs is not None and gm.c.phase is Phase.COMBAT:
            cs.morale += points
            gm.emit("morale", f"The party's spirits rise: {points} point(s) of morale for this fight "
                    f"({cs.morale} in all); each takes a test's fatigue point.", who=m.id,
                    morale=cs.morale)  # fmt: skip
            return
        exp = gm.c.expedition
        if exp is not None:
            exp.morale += points
            gm.emit("morale", f"The party's spirits rise: it starts its next fight with {exp.morale} point(s) of "
                    "morale; each takes a test's fatigue point.", who=m.id, morale=exp.morale)  # fmt: skip
    elif special == "unexhaust_prayers" and m.adv.prayers is not None:
        m.adv.prayers.rest()
    elif special == "monsters_flee_or_doom_down":
        cs = gm.c.combat
        if cs is not None and gm.c.phase is Phase.COMBAT:
            # "all monsters try to flee in fear" (R207): each tests its morale now (LVL dice, a 4+ holds); those
            # that ignore morale stand
            for e in list(cs.active_foes()):
                sheet = core.sheet(gm, e.monster)
                if not sheet.morale:
                    continue
                faces = roll(gm.rng, sheet.level)
                held = any(x >= 4 for x in faces)
                gm.emit("morale", f"{core.label(e)} tests its morale against the miracle ({sheet.level} dice: "
                        f"{faces}): " + ("it holds." if held else "it flees in fear!"), foe=e.id, faces=faces)
                if not held:
                    flee(gm, cs, e)
            return
        lv = gm.level_state()
        lv.doom = max(0, lv.doom - 1)
        gm.emit("doom", "The dungeon's wrath ebbs a little.", hidden=True)
    elif special == "enemies_wound_or_shield_tokens":
        cs = gm.c.combat
        if cs is not None and gm.c.phase is Phase.COMBAT:
            for e in list(cs.active_foes()):
                hurt_foe(gm, cs, e, 1, "a miracle", magic=True)
            return
        exp = gm.c.expedition
        if exp is not None:
            exp.blessed = True
            gm.emit("miracle", "The party will start its next fight with a shield token each.", who=m.id)
    elif special == "":
        gm.apply_row(m, row, "a miracle")
