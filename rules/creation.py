"""Character creation: the life path, the class, the kit — step by step or in one call.

Steps (core rules, "Character Creation"): every attribute starts at score 1
and proficiency 0 with 1 insight; roll infancy (3d6), previous career (3d6),
tragedy (3d6), burden (2d6) and a quirk (4d6), applying each row's changes
with scores clamped to 0..3 and proficiencies to 0..2 ("ignore any excess
points"); insight may re-roll the dice of a life-path roll; a skill gained
twice is upgraded to its advanced form; then the class with its background,
school or god, its spells or prayers and its starting equipment and silver.

Every choice goes through a :class:`CreationChooser`.  The desktop asks the
person; :class:`RandomChooser` plays a sensible random adventurer.  All
randomness comes from the RNG passed in.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from random import Random
from typing import Any, Protocol

from rules.attributes import ATTRS, Attr
from rules.character import MAX_PROFICIENCY, MAX_SCORE, Character
from rules.checks import RuleError
from rules.content.registry import Content
from rules.content.schema_creation import LifepathRow, LifepathTable, StartingItem
from rules.dice import DiceExpr, roll
from rules.inventory import HANDS, TORSO, Carried, Inventory
from rules.magic import Prayers, Spellbook
from rules.names import random_name

LIFEPATH_ORDER = ("infancy", "career", "tragedy", "burden", "quirks")


@dataclass
class LifepathRoll:
    """One life-path step as rolled: the dice (after any insight re-rolls) and the row."""

    table: str
    dice: list[int]
    row: str
    roll: int
    rerolls: list[list[int]] = field(default_factory=list)  # dice before each re-roll
    chosen: bool = False
    free_rerolls: int = 0  # re-rolls that cost no insight (the same life path as a party member)


@dataclass
class Adventurer:
    """A created adventurer: the mechanical :class:`Character` and who they are."""

    character: Character
    klass: str | None = None
    background: str | None = None
    school: str | None = None
    god: str | None = None
    equipment_option: str | None = None
    manoeuvres: list[str] = field(default_factory=list)
    burden: str | None = None
    quirk: str | None = None
    lifepath: list[LifepathRoll] = field(default_factory=list)
    spellbook: Spellbook | None = None
    prayers: Prayers | None = None
    inventory: Inventory = field(default_factory=Inventory.body)
    arsenal: str | None = None
    counterfeit_silver: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.character.name

    def to_dict(self) -> dict[str, Any]:
        ch = self.character
        d = ch.to_dict()
        d.update(
            {
                "class": self.klass,
                "background": self.background,
                "school": self.school,
                "god": self.god,
                "equipment_option": self.equipment_option,
                "arsenal": self.arsenal,
                "manoeuvres": list(self.manoeuvres),
                "burden": self.burden,
                "quirk": self.quirk,
                "lifepath": [
                    {"table": r.table, "roll": r.roll, "dice": r.dice, "result": r.row, "rerolls": r.rerolls}
                    for r in self.lifepath
                ],
                "proficiencies": {a.value: ch.attrs[a].proficiency for a in ATTRS},
                "spells": list(self.spellbook.known) if self.spellbook else [],
                "prayers": list(self.prayers.memorised) if self.prayers else [],
                "equipment": [i.to_dict() for i in self.inventory.items],
                "containers": [p.name for p in self.inventory.places if p.container],
                "carry_limit": self.inventory.capacity(ch.attrs[Attr.STR].score),
                "counterfeit_silver": self.counterfeit_silver,
                "notes": list(self.notes),
            }
        )
        return d

    def sheet(self) -> str:
        """A plain-text character sheet."""
        ch = self.character
        what = " ".join(x for x in (self.klass, f"({self.background or self.school or self.god})") if x)
        lines = [f"{ch.name}, {what}" if self.klass else ch.name, ""]
        for a in ATTRS:
            st = ch.attrs[a]
            prof = "●" * st.proficiency + "○" * (MAX_PROFICIENCY - st.proficiency)
            lines.append(f"  {a.value}  score {st.score}  proficiency {prof}")
        lines.append("")
        for r in self.lifepath:
            lines.append(f"  {r.table.capitalize():<8} {r.roll:>2}  {r.row}")
        lines.append("")
        if ch.skills:
            lines.append("Skills: " + ", ".join(ch.skills))
        if ch.traits:
            lines.append("Traits: " + ", ".join(ch.traits))
        if self.manoeuvres:
            lines.append("Manoeuvres: " + ", ".join(self.manoeuvres))
        if self.spellbook:
            lines.append("Spells: " + ", ".join(self.spellbook.known))
        if self.prayers:
            lines.append("Prayers: " + ", ".join(self.prayers.memorised))
        lines.append("Equipment: " + ", ".join(_item_label(i) for i in self.inventory.items))
        coins = f"{ch.silver} silver" + (" (counterfeit)" if self.counterfeit_silver else "")
        lines.append(f"Silver: {coins}   Insight: {ch.insight}")
        return "\n".join(lines)


def _item_label(i: Carried) -> str:
    label = i.name if i.count == 1 else f"{i.count} × {i.name}"
    return f"{label} (Ud{i.usage})" if i.usage else label


class CreationChooser(Protocol):
    """The choices a player makes while creating an adventurer."""

    def lifepath_reroll(self, adv: Adventurer, table: LifepathTable, dice: list[int]) -> list[int] | None:
        """Indices of dice to re-roll for 1 insight (None: keep the result)."""

    def attribute(self, adv: Adventurer, purpose: str, options: list[Attr]) -> Attr:
        """Pick an attribute for ``purpose`` ("score +1", "score -1", "proficiency +1")."""

    def pick(self, adv: Adventurer, what: str, options: list[str], count: int = 1) -> list[str]:
        """Pick ``count`` of ``options`` for ``what`` (class, background, manoeuvre, school, spells, ...)."""


class RandomChooser:
    """A sensible random player: re-rolls only ruinous life-path results, takes
    attribute gains where they help most and losses where they hurt least."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def lifepath_reroll(self, adv: Adventurer, table: LifepathTable, dice: list[int]) -> list[int] | None:
        row = table.lookup(sum(dice))
        loss = -sum(v for v in row.score.values() if v < 0) - min(0, row.score_any) - row.score_highest
        if loss >= 2 and adv.character.insight >= 1:
            return list(range(len(dice)))  # a −2: worth one insight to roll again
        return None

    def attribute(self, adv: Adventurer, purpose: str, options: list[Attr]) -> Attr:
        attrs = adv.character.attrs
        if purpose.startswith("score -"):
            # lose where it hurts least: the highest score, so the character stays rounded
            best = max(attrs[a].score for a in options)
            options = [a for a in options if attrs[a].score == best]
        elif purpose.startswith("score +"):
            low = min(attrs[a].score for a in options)
            options = [a for a in options if attrs[a].score == low]
        elif purpose.startswith("proficiency"):
            # train what the character is good at
            best = max(attrs[a].score for a in options)
            options = [a for a in options if attrs[a].score == best]
        return options[self.rng.randrange(len(options))]

    def pick(self, adv: Adventurer, what: str, options: list[str], count: int = 1) -> list[str]:
        pool = list(options)
        self.rng.shuffle(pool)
        return pool[: min(count, len(pool))]


# --- the life path --------------------------------------------------------------------------


def _clamp_score(ch: Character, a: Attr, delta: int) -> None:
    st = ch.attrs[a]
    st.score = max(0, min(MAX_SCORE, st.score + delta))


def _clamp_prof(ch: Character, a: Attr, delta: int) -> None:
    st = ch.attrs[a]
    st.proficiency = max(0, min(MAX_PROFICIENCY, st.proficiency + delta))


def gain_skill(adv: Adventurer, content: Content, name: str) -> str:
    """Learn a skill; one already known is upgraded to its advanced form (if it has one)."""
    ch = adv.character
    skills = {s.name.lower(): s for s in content.character.skills}
    alias = {a.lower(): s.name for s in content.character.skills for a in s.aliases}
    canonical = skills[name.lower()].name if name.lower() in skills else alias.get(name.lower(), name)
    if not ch.has_skill(canonical):
        ch.skills.append(canonical)
        return canonical
    upgrade = next((s for s in content.character.skills if (s.advanced_of or "").lower() == canonical.lower()), None)
    if upgrade is None or ch.has_skill(upgrade.name):
        adv.notes.append(f"{canonical} gained twice; it has no advanced form to upgrade to")
        return canonical
    ch.skills[[s.lower() for s in ch.skills].index(canonical.lower())] = upgrade.name
    return upgrade.name


def gain_trait(adv: Adventurer, content: Content, name: str) -> str:
    traits = {t.name.lower(): t.name for t in content.character.traits}
    traits.update({a.lower(): t.name for t in content.character.traits for a in t.aliases})
    canonical = traits.get(name.lower(), name)
    if not adv.character.has_trait(canonical):
        adv.character.traits.append(canonical)
    return canonical


def apply_lifepath_row(
    adv: Adventurer, content: Content, row: LifepathRow, chooser: CreationChooser, rng: Random
) -> None:
    """Apply one life-path row's changes, clamped to the creation limits."""
    ch = adv.character
    for code, delta in row.score.items():
        _clamp_score(ch, Attr(code), delta)
    for code, delta in row.proficiency.items():
        _clamp_prof(ch, Attr(code), delta)
    if row.score_any:
        sign = "+" if row.score_any > 0 else "-"
        opts = [a for a in ATTRS if (ch.attrs[a].score > 0 if sign == "-" else ch.attrs[a].score < MAX_SCORE)]
        if opts:
            _clamp_score(ch, chooser.attribute(adv, f"score {sign}{abs(row.score_any)}", opts), row.score_any)
    if row.score_highest:
        top = max(ch.attrs[a].score for a in ATTRS)
        opts = [a for a in ATTRS if ch.attrs[a].score == top]
        pick = opts[0] if len(opts) == 1 else chooser.attribute(adv, f"score {row.score_highest} (highest)", opts)
        _clamp_score(ch, pick, row.score_highest)
    if row.proficiency_any:
        opts = [a for a in ATTRS if ch.attrs[a].proficiency < MAX_PROFICIENCY] or list(ATTRS)
        _clamp_prof(ch, chooser.attribute(adv, f"proficiency +{row.proficiency_any}", opts), row.proficiency_any)
    if row.proficiency_of_lowest:
        low = min(ch.attrs[a].score for a in ATTRS)
        opts = [a for a in ATTRS if ch.attrs[a].score == low]
        pick = opts[0] if len(opts) == 1 else chooser.attribute(adv, "proficiency +1 (lowest score)", opts)
        _clamp_prof(ch, pick, row.proficiency_of_lowest)
    for s in row.skills:
        gain_skill(adv, content, s)
    for t in row.traits:
        gain_trait(adv, content, t)
    if row.silver:
        ch.silver += DiceExpr.parse(row.silver).roll(rng)
    if row.insight:
        ch.earn_insight(row.insight)


def free_lifepath_reroll(
    adv: Adventurer, content: Content, table: LifepathTable, dice: list[int], shared: Collection[str], used: int = 0
) -> bool:
    """Whether re-rolling ``dice`` now costs no insight: the row is one another party member already has on this
    table (``shared``) and the adventurer has not had its free re-roll yet ("When playing with a group, if your
    character has the same life path as another character in your party, you may, only once, roll again without
    spending insight").  ``used``: free re-rolls already taken in the roll in progress."""
    expr = DiceExpr.parse(table.dice)
    row = table.lookup(sum(dice) + expr.bonus)
    taken = sum(r.free_rerolls for r in adv.lifepath) + used
    return row.name in shared and taken < content.lifepath.rules.same_lifepath_free_rerolls


def roll_lifepath_dice(
    adv: Adventurer,
    content: Content,
    table_id: str,
    rng: Random,
    chooser: CreationChooser,
    *,
    shared: Collection[str] = (),
) -> LifepathRoll:
    """Roll one life-path table and offer the re-rolls; the row is found but not yet applied.

    The first half of :func:`roll_lifepath`: a step-by-step creation shows the dice and the row here,
    before :func:`finish_lifepath` applies the row (which may ask the chooser for attributes).  A re-roll
    costs insight, except once per adventurer when the row is one of ``shared`` (the rows other party
    members have on this table; see :func:`free_lifepath_reroll`).
    """
    table = content.lifepath.table(table_id)  # type: ignore[arg-type]
    expr = DiceExpr.parse(table.dice)
    dice = roll(rng, expr.count, expr.sides)
    record = LifepathRoll(table_id, dice, "", 0)
    cost = content.lifepath.rules.insight_reroll_cost
    while True:
        free = free_lifepath_reroll(adv, content, table, dice, shared, record.free_rerolls)
        if not free and adv.character.insight < cost:
            break
        again = chooser.lifepath_reroll(adv, table, list(dice))
        if not again:
            break
        if any(not 0 <= i < len(dice) for i in again):
            raise RuleError("re-roll indices must name dice of this roll")
        if free:
            record.free_rerolls += 1
        else:
            adv.character.spend_insight(cost)
        record.rerolls.append(list(dice))
        for i in sorted(set(again)):
            dice[i] = roll(rng, 1, expr.sides)[0]
    total = sum(dice) + expr.bonus
    row = table.lookup(total)
    record.dice, record.roll, record.row = dice, total, row.name
    return record


def finish_lifepath(
    adv: Adventurer, content: Content, record: LifepathRoll, rng: Random, chooser: CreationChooser
) -> LifepathRoll:
    """Apply a rolled life-path step (from :func:`roll_lifepath_dice`) and add it to the adventurer's life path."""
    row = content.lifepath.table(record.table).lookup(record.roll)  # type: ignore[arg-type]
    apply_lifepath_row(adv, content, row, chooser, rng)
    if record.table == "burden":
        adv.burden = row.name
    elif record.table == "quirks":
        adv.quirk = row.name
    adv.lifepath.append(record)
    return record


def roll_lifepath(
    adv: Adventurer, content: Content, table_id: str, rng: Random, chooser: CreationChooser
) -> LifepathRoll:
    """Roll one life-path table, offer insight re-rolls, apply the row."""
    return finish_lifepath(adv, content, roll_lifepath_dice(adv, content, table_id, rng, chooser), rng, chooser)


# --- class, kit, magic -------------------------------------------------------------------------


def _equipment_index(content: Content) -> dict[str, tuple[str, Any]]:
    idx: dict[str, tuple[str, Any]] = {}
    for i in content.items.items:
        idx[i.name.lower()] = ("item", i)
    for w in content.weapons.weapons:
        idx[w.name.lower()] = ("weapon", w)
    for a in content.armor.armor:
        idx[a.name.lower()] = ("armor", a)
    for s in content.armor.shields:
        idx[s.name.lower()] = ("shield", s)
    return idx


def _free_hand(inv: Inventory, slots: int = 1) -> str | None:
    for h in HANDS:
        if not any(i.place == h and i.equipped for i in inv.items) and inv.free(h) >= slots:
            return h
    return None


def add_kit_item(adv: Adventurer, content: Content, it: StartingItem) -> None:
    """Put one starting-kit entry in the inventory: containers become places,
    armour goes on the torso, the first weapon and shield in the hands."""
    inv = adv.inventory
    idx = _equipment_index(content)
    if it.custom:
        if (it.name or "").lower() == "bag" and any(p.container == "Bag" for p in inv.places):
            return  # the kit's "Bag" is the bag everyone starts with (RULINGS.md R19)
        for _ in range(1 if it.usage else it.count):
            item = Carried(it.name or "", "", usage=it.usage, count=1, notes=it.notes or "")
            if it.ap is not None:
                item.equipped = True
                inv.add(item, TORSO if inv.fits(item, TORSO) else None)
            else:
                inv.add(item)
        return
    kind, entry = idx[(it.item or "").lower()]
    name = entry.name
    container = getattr(entry, "container", None)
    if kind == "item" and container is not None and not container.liquid_only and name.lower() != "pack mule":
        # a bag or pouch: worn, it gives room rather than taking it
        if name.lower() == "backpack":
            # a backpack is carried on the back instead of the starting bag (RULINGS.md)
            inv.places = [p for p in inv.places if not (p.container == "Bag" and inv.used(p.name) == 0)]
        inv.add_container(name, container.slots)
        return
    if kind == "item" and name.lower() == "pack mule" and container is not None:
        inv.add_container(name, container.slots, on_body=False)
        return
    slots = 1
    if kind == "item":
        slots = 1 + entry.extra_slots
    elif kind in ("armor", "shield"):
        slots = getattr(entry, "slots", 1)
    usage = it.usage if it.usage is not None else getattr(entry, "usage_die", None)
    count = 1 if usage else it.count
    pack = getattr(entry, "pack", None) if kind == "item" else None
    if pack:  # a pack (2 torches, 6 candles) is one item counting its units
        item = Carried(name, "", slots=slots, count=pack * it.count, notes=it.notes or "", rarity=entry.rarity)
        inv.add(item)
        return
    for _ in range(count):
        item = Carried(name, "", slots=slots, usage=usage, notes=it.notes or "", liquid=getattr(entry, "liquid", False),
                       rarity=getattr(entry, "rarity", ""))  # fmt: skip
        if kind == "armor" and inv.fits(item, TORSO):
            item.equipped = True
            inv.add(item, TORSO)
            continue
        if kind in ("weapon", "shield"):
            hands_needed = getattr(entry, "hands", 1)
            hand = _free_hand(inv)
            if hand is not None and (hands_needed == 1 or _free_hand_count(inv) >= 2):
                item.equipped = True
                inv.add(item, hand)
                if hands_needed == 2:
                    other = _free_hand(inv)
                    if other is not None:
                        inv.add(Carried(f"({name})", "", slots=inv.free(other), notes="two-handed grip"), other)
                continue
        inv.add(item)


def _free_hand_count(inv: Inventory) -> int:
    return sum(1 for h in HANDS if not any(i.place == h and i.equipped for i in inv.items))


def _start_inventory(adv: Adventurer, content: Content) -> None:
    rules = content.items.inventory
    adv.inventory = Inventory.body(rules.torso_slots, rules.hand_slots, rules.base_slots, rules.slots_per_str)
    places = {c.name.lower(): c for c in rules.containers}
    for name in rules.starting_containers:
        c = places[name.lower()]
        adv.inventory.add_container(c.name, c.slots, c.liquid_only)


def apply_class(adv: Adventurer, content: Content, class_name: str, rng: Random, chooser: CreationChooser) -> None:
    cls = content.classes.class_(class_name)
    ch = adv.character
    adv.klass = cls.name
    adv.arsenal = cls.arsenal
    for code, delta in cls.proficiency.items():
        _clamp_prof(ch, Attr(code), delta)
    for t in cls.traits:
        gain_trait(adv, content, t)
    for s in cls.skills:
        gain_skill(adv, content, s)
    kits = []
    if "background" in cls.choices:
        options = [b.name for b in content.classes.backgrounds if b.class_name == cls.name]
        bg = content.classes.background(chooser.pick(adv, "background", options)[0])
        adv.background = bg.name
        for t in bg.traits:
            if bg.trait_undefined:
                adv.notes.append(f"{t}: the book names this trait without saying what it does")
                ch.traits.append(t)
            else:
                gain_trait(adv, content, t)
        for s in bg.skills:
            gain_skill(adv, content, s)
        if cls.manoeuvres_to_choose and bg.manoeuvres:
            adv.manoeuvres = chooser.pick(adv, "manoeuvre", [m.name for m in bg.manoeuvres], cls.manoeuvres_to_choose)
        kits.append(bg.kit)
    if "school" in cls.choices:
        school = chooser.pick(adv, "school", [s.name for s in content.classes.schools])[0]
        adv.school = school
        kits.append(next(s for s in content.classes.schools if s.name == school).kit)
    if "equipment_option" in cls.choices:
        opt_name = chooser.pick(adv, "equipment option", [o.name for o in cls.equipment_options])[0]
        adv.equipment_option = opt_name
        kits.append(next(o for o in cls.equipment_options if o.name == opt_name).kit)
    if "god" in cls.choices:
        gods = [g.name for g in content.magic.gods if g.kind == "new"]
        adv.god = chooser.pick(adv, "god", gods)[0]
    if cls.spells_known_attr is not None and adv.school is not None:
        n = ch.attrs[Attr(cls.spells_known_attr)].score
        options = [s.name for s in content.magic.spells if s.school == adv.school]
        known = chooser.pick(adv, "spells", options, n)
        adv.spellbook = Spellbook(known=known)
        adv.spellbook.memorise(known[:n], n)
    if cls.prayers_known_attr is not None and adv.god is not None:
        n = ch.attrs[Attr(cls.prayers_known_attr)].score
        options = [p.name for p in content.magic.prayers if p.source in ("basic", adv.god)]
        adv.prayers = Prayers(memorised=chooser.pick(adv, "prayers", options, n))
    _start_inventory(adv, content)
    for kit in kits:
        for it in kit.equipment:
            add_kit_item(adv, content, it)
        ch.silver += DiceExpr.parse(kit.silver).roll(rng)
        adv.counterfeit_silver = adv.counterfeit_silver or kit.counterfeit


def new_adventurer(content: Content, name: str) -> Adventurer:
    rules = content.lifepath.rules
    ch = Character(name=name)
    for a in ATTRS:
        ch.attrs[a].score = rules.starting_score
        ch.attrs[a].proficiency = rules.starting_proficiency
    ch.insight = ch.insight_earned = rules.starting_insight
    return Adventurer(character=ch)


def random_adventurer(
    content: Content, rng: Random, *, klass: str | None = None, name: str | None = None,
    chooser: CreationChooser | None = None,
) -> Adventurer:  # fmt: skip
    """A complete adventurer in one call: name, life path, class, kit, silver."""
    choose = chooser or RandomChooser(rng)
    adv = new_adventurer(content, name or random_name(content, rng))
    for table_id in LIFEPATH_ORDER:
        roll_lifepath(adv, content, table_id, rng, choose)
    classes: list[str] = [c.name for c in content.classes.classes]
    apply_class(adv, content, klass or choose.pick(adv, "class", classes)[0], rng, choose)
    spend_leftover_insight(adv, content, choose)
    return adv


def spend_leftover_insight(adv: Adventurer, content: Content, chooser: CreationChooser) -> list[str]:
    """Spend the insight left at the end of creation ("That is recommended"), within the creation limits.

    Prefers raising the lowest score, then a new skill; returns the log lines.
    """
    from rules.progression import learnable_skills, spend, spend_options

    ch = adv.character
    skills = [(s.name, s.advanced_of) for s in content.character.skills]
    upgrades = {s.name: s.advanced_of for s in content.character.skills if s.advanced_of}
    log: list[str] = []
    preference = ("increase_lowest_score", "learn_skill")
    while ch.insight > 0:
        options = {
            o.rule: o
            for o in spend_options(ch, list(content.character.insight.spends), learnable_skills(ch, skills),
                                   at_creation=True)
            if o.unavailable is None
        }  # fmt: skip
        rule = next((r for r in preference if r in options), None)
        if rule is None:
            break
        option = options[rule]
        target = chooser.pick(adv, option.name, list(option.targets))[0]
        log.append(spend(ch, option, target, upgrades=upgrades))
    adv.notes.extend(log)
    top_up_spells(adv, content, chooser)
    return log


def top_up_spells(adv: Adventurer, content: Content, chooser: CreationChooser) -> list[str]:
    """A wizard knows one spell per INT score point ("choose a number of spells equal to their intelligence
    score"): the spells chosen with the class are counted before the leftover insight is spent, so an INT raised
    by that insight (a 0 raised to 1 leaves a wizard with no spell at all) adds the spells it now allows, memorised
    like the first ones.  Returns the spells added."""
    book = adv.spellbook
    cls = next((c for c in content.classes.classes if c.name == adv.klass), None)
    if book is None or cls is None or cls.spells_known_attr is None or adv.school is None:
        return []
    n = adv.character.attrs[Attr(cls.spells_known_attr)].score
    options = [s.name for s in content.magic.spells if s.school == adv.school and s.name not in book.known]
    missing = min(n - len(book.known), len(options))
    if missing <= 0:
        return []
    added = chooser.pick(adv, "spells", options, missing)
    book.known.extend(added)
    book.memorise(book.known[:n], n)
    return added
