"""What the party carries: kits and flagged items, counted and usage-die items, light sources, losses.

* What items serve as: the starting kits and the item table mark conductors, grimoires and holy symbols; one
  lookup for every procedure (exploration's casting, combat's spells, the camp's study), built once per
  content and kept with it.
* Spending an item (:func:`use_up`: a count, or its usage die), finding who carries one (:func:`carrying`).
* The light: lighting a torch, candle or lantern, putting it out, burning it down after a decay.
* Losing and breaking equipment (decay, omens).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from rules.checks import RuleError
from rules.content.registry import Content
from rules.dice import roll_usage
from rules.inventory import HANDS, TORSO, Carried

if TYPE_CHECKING:
    from rules.content.schema_creation import Kit
    from rules.gm.services import GM
    from rules.gm.state import Member

Flag = Literal["conductor", "grimoire", "holy_symbol"]

_FLAGGED: dict[tuple[int, str], tuple[Content, frozenset[str]]] = {}


def kits(content: Content) -> list[Kit]:
    """Every starting kit: backgrounds, wizard schools, cleric options."""
    cl = content.classes
    out = [b.kit for b in cl.backgrounds] + [s.kit for s in cl.schools]
    out += [o.kit for c in cl.classes for o in c.equipment_options]
    return out


def flagged(content: Content, flag: Flag) -> frozenset[str]:
    """Lower-case names of the items that serve as ``flag``: kit items marked so, and table items whose rule
    says so (the Spell book is a grimoire; the Holy symbol is one)."""
    key = (id(content), flag)
    if key not in _FLAGGED:
        names = {it.label.lower() for k in kits(content) for it in k.equipment if getattr(it, flag)}
        names |= {i.name.lower() for i in content.items.items if i.rule == flag}
        if flag == "holy_symbol":
            names.add("holy symbol")
        _FLAGGED[key] = (content, frozenset(names))  # holding the content keeps its id from being reused
    return _FLAGGED[key][1]


def carries(member: Member, content: Content, flag: Flag) -> bool:
    names = flagged(content, flag)
    return any(i.name.lower() in names for i in member.adv.inventory.items)


def stabilisers(content: Content) -> tuple[str, ...]:
    """The items that stabilise the mortally wounded ("with a first aid kit, medical supply or healing spell"),
    by their item-table names (the mortal wound rules list them; the spell is not an item)."""
    wanted = {n.lower() for n in content.tables.mortal_wound_rules.stabilise_with}
    return tuple(i.name for i in content.items.items if i.name.lower() in wanted)


def carrying(gm: GM, name: str) -> tuple[Member, Carried] | None:
    key = name.lower()
    for m in gm.active():
        for item in m.adv.inventory.items:
            if item.name.lower() == key:
                return m, item
    return None


def use_up(gm: GM, member: Member, item: Carried, units: int = 1) -> None:
    """Spend ``units`` of a counted item (rations, torches), or roll its usage die."""
    if item.usage is not None:
        r = roll_usage(gm.rng, item.usage)
        gm.emit(
            "usage",
            f"{item.name}: usage die d{r.before} rolls {r.face}"
            + (" — used up" if r.exhausted else f" → d{r.after}" if r.downgraded else ""),
            who=member.id,
        )
        if r.after is None:
            member.adv.inventory.remove(item)
        else:
            item.usage = r.after
        return
    item.count -= units
    if item.count <= 0:
        member.adv.inventory.remove(item)


def light_entry(gm: GM, name: str):  # type: ignore[no-untyped-def]
    for i in gm.content.items.items:
        if i.name.lower() == name.lower() and i.light is not None:
            return i
    return None


def party_has_light(gm: GM) -> bool:
    if gm.room().lit:
        return True
    return any(m.lit for m in gm.active())


#: One of a light source's items, in a sentence: "Torches" is a pack, one torch burns at a time.
_ONE_LIGHT = {"torches": "torch", "candles": "candle"}


def light_noun(name: str, *, article: bool = True) -> str:
    """``"a torch"`` for Torches, ``"a candle"`` for Candles, ``"a lantern"`` for a Lantern (no article:
    ``"torch"``)."""
    low = name.lower()
    one = _ONE_LIGHT.get(low, low)
    return with_article(one) if article else one


def with_article(noun: str) -> str:
    """``noun`` with its indefinite article: "an anti-poison tonic", "a torch"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def can_light(gm: GM, member: Member) -> bool:
    """``member`` carries a light that would burn now: a torch or candle, or a lantern with oil in it or oil to
    fill it (a dry lantern and no oil is no light: it was offered, lit nothing, and the autoplay asked again for
    12,000 steps)."""
    for item in member.adv.inventory.items:
        entry = light_entry(gm, item.name)
        if entry is None or entry.light is None:
            continue
        fuel = entry.light.fuel
        if not fuel or "lantern:dry" not in item.notes or any(i.name == fuel for i in member.adv.inventory.items):
            return True
    return False


def light_source(gm: GM, member: Member) -> str | None:
    """Light a torch, a candle or the lantern carried by ``member`` (a quick action); returns its name.  A
    partly burnt torch or candle is lit before a fresh one, and burns on from the usage die it had left."""
    items = sorted(member.adv.inventory.items, key=lambda i: i.usage is None)  # stubs first
    for item in items:
        entry = light_entry(gm, item.name)
        if entry is None or entry.light is None:
            continue
        die = entry.light.usage_die or 4
        if item.usage is not None and not entry.light.fuel:  # a stub: it burns on
            die = item.usage
            member.adv.inventory.remove(item)
        elif entry.light.fuel:  # the lantern: burns its oil
            if "lantern:dry" in item.notes:
                fuel = next((i for i in member.adv.inventory.items if i.name == entry.light.fuel), None)
                if fuel is None:
                    continue
                use_up(gm, member, fuel)
                item.notes = item.notes.replace("lantern:dry", "").strip()
        else:
            use_up(gm, member, item)
        member.lit = entry.name
        assert gm.c.expedition is not None
        gm.c.expedition.light_burns[member.id] = die
        gm.c.expedition.dark = False
        gm.emit("light", f"{member.name} lights {light_noun(entry.name)}.", who=member.id)
        return str(entry.name)
    return None


def snuff(gm: GM, member: Member, reason: str, *, keep: bool = False) -> None:
    """Put out ``member``'s light.  ``keep``: put out whole (by a wind, by daylight, on purpose), a torch or
    candle goes back to the pack with the usage die it had left (R186); else (burnt out, drowned, lost) it is
    gone."""
    exp = gm.c.expedition
    die = exp.light_burns.get(member.id) if exp is not None else None
    if member.lit:
        what = light_noun(member.lit, article=False)
        gm.emit("light_out", f"{member.name}'s {what} goes out ({reason}).", who=member.id)
        entry = light_entry(gm, member.lit)
        if keep and die and entry is not None and entry.light is not None and not entry.light.fuel:
            _keep_stub(gm, member, str(entry.name), die)
    member.lit = None
    if exp is not None:
        exp.light_burns.pop(member.id, None)


def _keep_stub(gm: GM, member: Member, name: str, die: int) -> None:
    """What is left of a lit torch or candle goes back to the pack, with its usage die."""
    rarity = next((str(i.rarity) for i in gm.content.items.items if i.name == name), "common")
    try:
        member.adv.inventory.add(Carried(name, "", count=1, usage=die, rarity=rarity, notes="partly burnt"))
    except RuleError:
        gm.emit("item_lost", f"No room to keep the {light_noun(name, article=False)}: it is dropped.",
                who=member.id, item=name)  # fmt: skip
        return
    gm.emit("stub", f"{member.name} keeps the {light_noun(name, article=False)} (Ud{die} left).", who=member.id,
            item=name, usage=die)  # fmt: skip


def burn(gm: GM) -> None:
    """After a decay: every burning light rolls its usage die; a spent one is gone."""
    exp = gm.c.expedition
    assert exp is not None
    for m in gm.alive():
        if not m.lit or m.id not in exp.light_burns:
            continue
        if exp.light_burns[m.id] == 0:  # magic light: "for 1 decay"
            snuff(gm, m, "the spell fades")
            continue
        r = roll_usage(gm.rng, exp.light_burns[m.id])
        if r.after is None:
            lantern = next((i for i in m.adv.inventory.items if i.name == m.lit), None)
            if lantern is not None and light_entry(gm, m.lit) is not None:
                entry = light_entry(gm, m.lit)
                if entry is not None and entry.light is not None and entry.light.fuel:
                    lantern.notes = (lantern.notes + " lantern:dry").strip()
            snuff(gm, m, "burnt out")
        else:
            exp.light_burns[m.id] = r.after


def lose(gm: GM, member: Member, item: Carried, why: str) -> None:
    member.adv.inventory.remove(item)
    if member.lit == item.name:
        snuff(gm, member, why)
    gm.emit("item_lost", f"{member.name}'s {item.name} is lost ({why}).", who=member.id, item=item.name)


def break_equipment(gm: GM, member: Member, n: int, reason: str) -> None:
    """Equipment breaks or is lost (decay 12): an equipped item first, else anything carried."""
    for _ in range(n):
        items = [i for i in member.adv.inventory.items if i.equipped] or list(member.adv.inventory.items)
        if not items:
            return
        labels = [i.name for i in items]
        pick = gm.decider.choose(gm, member, f"an item breaks ({reason})", labels)
        lose(gm, member, items[labels.index(pick)], reason)


# --- handing things over ---------------------------------------------------------------------------------------


_ARMOUR: dict[int, tuple[Content, frozenset[str]]] = {}


def _armour(content: Content) -> frozenset[str]:
    """The armour table's names (lower case), once per content."""
    held = _ARMOUR.get(id(content))
    if held is None or held[0] is not content:
        held = (content, frozenset(a.name.lower() for a in content.armor.armor))
        _ARMOUR[id(content)] = held
    return held[1]


def _worn_armour(gm: GM, item: Carried) -> bool:
    return item.place == TORSO and item.name.lower() in _armour(gm.content)


def _one(item: Carried) -> Carried:
    """What changes hands: one of a counted stack (a ration of three), else the item itself."""
    if item.count > 1 and item.usage is None:
        return replace(item, count=1, equipped=False)
    return item


def gift_noun(item: Carried) -> str:
    """What changes hands, in words: "the Lantern", "a torch" (one of a pack), "one Ration"."""
    if item.count == 1 or item.usage is not None:
        return f"the {item.name}"
    if item.name.lower() in _ONE_LIGHT:
        return light_noun(item.name)
    return f"one {item.name}"


def _receiving_place(gm: GM, receiver: Member, thing: Carried) -> str | None:
    """Where ``thing`` would go in ``receiver``'s inventory (only its slots and whether it is a liquid count)."""
    inv = receiver.adv.inventory
    if thing.name.lower() in _armour(gm.content) and inv.fits(thing, TORSO):
        return TORSO  # armour is put on
    return inv.room_for(thing)


def why_not_give(gm: GM, giver: Member, item: Carried, receiver: Member) -> str | None:
    """Why ``giver`` cannot hand ``item`` to ``receiver`` now (None: they can).  "You can also give or use an
    item on someone in the same tile if they have inventory space." (Use item or change equipment)"""
    if item.name.startswith("(") or receiver is giver:
        return "Nothing to give."
    if _worn_armour(gm, item):
        return "Worn armour stays worn: taking it off is not a free action."
    if _receiving_place(gm, receiver, item) is None:  # one of a stack takes the same room as the stack's slots
        return f"{receiver.name} has no room for the {item.name}."
    return None


def give(gm: GM, giver: Member, item: Carried, receiver: Member) -> None:
    """Hand ``item`` (one of a counted stack) from ``giver`` to ``receiver``: armour is put on where it fits, the
    rest goes where it fits (containers, then hands); a burning lantern passes lit to someone with no light.
    Armour the receiver can put on is put on, as when it is bought (R187)."""
    why = why_not_give(gm, giver, item, receiver)
    if why is not None:
        raise RuleError(why)
    inv = giver.adv.inventory
    noun = gift_noun(item)
    thing = _one(item)
    if thing is item:
        inv.remove(item)
        if item.place in HANDS:
            for grip in [i for i in inv.items if i.name == f"({item.name})"]:
                inv.remove(grip)  # the other hand lets go of a two-handed weapon too
    else:
        item.count -= 1
    lit_here = giver.lit is not None and giver.lit == thing.name and thing is item
    passed_lit = False
    if lit_here:
        entry = light_entry(gm, thing.name)
        exp = gm.c.expedition
        if entry is not None and entry.light is not None and entry.light.fuel and receiver.lit is None and exp:
            receiver.lit, giver.lit = giver.lit, None  # the lantern goes on burning in other hands
            exp.light_burns[receiver.id] = exp.light_burns.pop(giver.id, 0)
            passed_lit = True
        else:
            snuff(gm, giver, "handed over", keep=True)
    thing.equipped = False
    where = _receiving_place(gm, receiver, thing)
    assert where is not None
    if where == TORSO:
        thing.equipped = True
    receiver.adv.inventory.add(thing, where)
    how = "puts on" if where == TORSO else "takes"
    gm.emit("give", f"{giver.name} gives {receiver.name} {noun}; {receiver.name} {how} it"
            + (", still burning." if passed_lit else "."), who=giver.id, to=receiver.id, item=thing.name)  # fmt: skip


def drink(gm: GM, member: Member, special: str | None, name: str) -> None:
    """Wine's ``too_much_nauseated`` ("causes Nauseated if you drink too much"): a second drink before the party
    has camped again is too much (RULINGS R203)."""
    exp = gm.c.expedition
    if special != "too_much_nauseated" or exp is None:
        return
    if exp.drunk.get(member.id) == exp.camped:
        gm.emit("drunk", f"{member.name} has drunk too much {name.lower()}.", who=member.id)
        gm.afflict(member, "nauseated", f"too much {name.lower()}")
    exp.drunk[member.id] = exp.camped


#: Effect tags whose whole effect is the entry's remove list (:data:`rules.gm.powers.ITEM_SPECIALS` says so): of
#: no use to one without what it removes (the Anti-poison tonic was offered to the unpoisoned).
REMOVE_ONLY = frozenset({"cure_disease", "cure_simple_poison"})


def why_no_use(entry: Any, member: Member) -> str | None:
    """Why ``entry`` (an item or a potion with ``effects``) would do ``member`` no good now, or None when it would:
    it heals wounds they do not have (a Healing tonic heals INT or DEX wounds only), cures afflictions they do not
    have, restores fatigue they do not carry.  An effect with a rule of its own (``special``) is always of use."""
    from rules.attributes import ATTRS, Attr

    ch = member.adv.character
    missing: list[str] = []
    for eff in entry.effects:
        if eff.special is not None and eff.special not in REMOVE_ONLY and not (
                eff.special == "immune_terrified_expedition" and "terrified" in member.immune):  # fmt: skip
            return None
        if {*eff.remove, *eff.remove_one_of} & set(ch.afflictions):
            return None
        if eff.heal_wounds:
            attrs = [Attr(x) for x in eff.heal_attrs] or list(ATTRS)
            if any(ch.attrs[a].wounds for a in attrs):
                if "hungry" not in ch.afflictions:
                    return None
                missing.append("Hungry: wounds do not heal")
            else:
                names = " or ".join(a.value for a in attrs) + " " if eff.heal_attrs else ""
                missing.append(f"heals {names}wounds: {member.name} has none")
        if eff.restore_fatigue:
            attrs = [Attr(eff.fatigue_attr)] if eff.fatigue_attr else list(ATTRS)
            if any(ch.attrs[a].fatigue for a in attrs):
                return None
            which = f"{attrs[0].value} " if eff.fatigue_attr else ""
            missing.append(f"restores {which}fatigue: {member.name} has none")
        if eff.remove or eff.remove_one_of:
            cures = " or ".join([*eff.remove, *eff.remove_one_of])
            missing.append(f"cures {cures}: {member.name} is not {cures}")
    if not missing:
        return None
    text = "; ".join(dict.fromkeys(missing))
    return f"No use now: it {text}." if not text.startswith("Hungry") else f"No use now: {text}."
