"""Exploration actions that use things: items (quick and slow), spells, prayers, concentrating.

* Use a quick item (free) or a slow item (1 turn): its effects (``items.toml``)
  go to the adventurer who needs them most (bandages to the bleeding, a tonic
  to the wounded); usage dice are rolled, counted items spent.
* Cast a spell (1 turn): the spell takes effect, then the INT test
  (:func:`rules.magic.cast_spell`); the effect is the power's handler
  (:mod:`rules.gm.powers`).
* Invoke a prayer (1 turn): the PRE test first (:func:`rules.magic.invoke_prayer`);
  the answered prayer's handler plays its effect, and a miracle on a great success.
* Concentrate (1 turn, the later chapter): refresh a forgotten spell.

Every spell and prayer has a handler in :mod:`rules.gm.powers`; content with
none is refused by ``blacksalt validate`` (``powers.unplayed``, issue #13).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from rules.attributes import ATTRS, Attr
from rules.checks import RuleError
from rules.gm import alchemy, powers
from rules.gm.combat_gear import WEAPON_SPELLS
from rules.gm.events import Action, Cost
from rules.gm.gear import carries, use_up
from rules.gm.state import Member
from rules.inventory import Carried
from rules.magic import PrayerOutcome, SpellOutcome, concentrate, invoke_prayer
from rules.odds import odds

if TYPE_CHECKING:
    from rules.content.schema_equipment import Item
    from rules.gm.services import GM

def _item(gm: GM, name: str) -> Item | None:
    return next((i for i in alchemy.usable_items(gm.content) if i.name.lower() == name.lower()), None)


# --- items ------------------------------------------------------------------------------------------------


def _benefit(gm: GM, entry: Item, m: Member) -> int:
    """How much ``m`` gains from ``entry``'s effects (0: nothing)."""
    ch = m.adv.character
    gain = 0
    for eff in entry.effects:
        gain += sum(2 for a in eff.remove if a in ch.afflictions)
        if eff.heal_wounds:
            attrs = [Attr(x) for x in eff.heal_attrs] or list(ATTRS)
            if "hungry" not in ch.afflictions:
                gain += min(sum(ch.attrs[a].wounds for a in attrs), 2 if eff.heal_wounds == "all" else eff.heal_wounds)
        if eff.restore_fatigue and "parched" not in ch.afflictions:  # (a potion of giants for a tired warrior
            # was offered to no one: playtest 13a; the parched recover no fatigue)
            attrs = [Attr(eff.fatigue_attr)] if eff.fatigue_attr else list(ATTRS)
            tired = sum(ch.attrs[a].fatigue for a in attrs)
            gain += min(tired, 2 if eff.restore_fatigue == "all" else eff.restore_fatigue)
    if entry.food == "ration" and "hungry" in ch.afflictions:
        gain += 2
    for eff in entry.effects:
        if eff.special == "immune_terrified_expedition" and "terrified" not in m.immune:
            gain += 1
    return gain


def item_actions(gm: GM) -> list[Action]:
    out: list[Action] = []
    seen: set[tuple[str, str]] = set()
    for owner in gm.active():
        for carried in owner.adv.inventory.items:
            entry = _item(gm, carried.name)
            if entry is None or not (entry.effects or entry.food == "ration"):
                continue
            quick = "quick" in entry.tags
            slow = "slow" in entry.tags
            if not (quick or slow):
                continue  # camp items wait for the camp
            key = (owner.id, carried.name)
            if key in seen:
                continue
            seen.add(key)
            # "You can also give or use an item on someone in the same tile": out of a fight the party stands
            # together, so on anyone it helps, the one it helps most first (a potion was offered only to whom the
            # engine thought best: the drinker, never the downed ally)
            targets = sorted((m for m in gm.alive() if _benefit(gm, entry, m) > 0),
                             key=lambda m: -_benefit(gm, entry, m))  # fmt: skip
            cost = Cost() if quick else Cost(turns=1)
            for whom in targets:
                out.append(
                    Action(
                        f"use:{owner.id}:{carried.name}:{whom.id}",
                        "use_item",
                        f"{owner.name}: use the {carried.name.lower()} on "
                        f"{'themself' if whom is owner else whom.name}",
                        cost,
                        who=owner.id,
                        target=whom.id,
                        params=(("item", carried.name),),
                        rule="Use a quick item (free) / a slow item (1 turn). You can also give or use an item on "
                        "someone in the same tile.",
                    )
                )
    return out


def use_item(gm: GM, action: Action) -> int:
    """Apply the item; returns the turns it costs."""
    owner = gm.c.member(action.who or "")
    target = gm.c.member(action.target or "")
    name = str(action.param("item"))
    carried = next((i for i in owner.adv.inventory.items if i.name == name), None)
    entry = _item(gm, name)
    if carried is None or entry is None:
        raise RuleError(f"{owner.name} has no {name}")
    for eff in entry.effects:
        gm.apply_row(target, eff, name)
        powers.item_effect(gm, target, eff.special, name)  # its tag's handler (powers.ITEM_SPECIALS)
    if entry.food == "ration":
        gm.cure(target, "parched", "a ration")  # R82: eating removes parched too
    _spend(gm, owner, carried)
    return 0 if "quick" in entry.tags else 1


def _spend(gm: GM, owner: Member, carried: Carried) -> None:
    use_up(gm, owner, carried)


# --- alchemy: extracts from the dead -----------------------------------------------------------------------------


def extract_actions(gm: GM) -> list[Action]:
    """Extract (1 exploration turn): an alchemist with a toolkit takes the elemental extracts of the room's dead,
    one corpse and one more per point of INT proficiency."""
    dead = alchemy.remains(gm)
    out: list[Action] = []
    if not dead:
        return out
    kinds = sorted({k for _, k in dead})
    for m in gm.active():
        if not alchemy.alchemist(gm.content, m):
            continue
        n = 1 + m.adv.character.attrs[Attr.INT].proficiency * gm.content.alchemy.rules.extra_corpses_per_int_proficiency
        out.append(Action(f"extract:{m.id}", "extract",
                          f"{m.name}: take the elemental extracts of the dead ({min(n, len(dead))} of {len(dead)}: "
                          f"{', '.join(kinds)})", Cost(turns=gm.content.alchemy.rules.extraction_turns), who=m.id,
                          rule=gm.content.alchemy.rules.text.split(". To make")[0] + "."))  # fmt: skip
    return out


def extract(gm: GM, action: Action) -> int:
    """Take the extracts; returns the turns it took."""
    m = gm.c.member(action.who or "")
    st = gm.room_state()
    n = 1 + m.adv.character.attrs[Attr.INT].proficiency * gm.content.alchemy.rules.extra_corpses_per_int_proficiency
    taken: list[str] = []
    for monster, kind in alchemy.choose_remains(gm, m, n):
        if not alchemy.add_extract(m.adv.inventory, kind):
            gm.emit("extract", f"No room for the {kind} extract.", who=m.id)
            break
        st.extracted[monster] = st.extracted.get(monster, 0) + 1
        taken.append(f"{kind} ({alchemy.remains_name(monster)})")
    gm.emit("extract", f"{m.name} takes elemental extracts: {', '.join(taken) or 'none'}.", who=m.id, taken=taken)
    return gm.content.alchemy.rules.extraction_turns


# --- magic ------------------------------------------------------------------------------------------------------


def _text(gm: GM, kind: str, name: str) -> str:
    entries = gm.content.magic.spells if kind == "spell" else gm.content.magic.prayers
    return next((e.text for e in entries if e.name == name), "")


def _use_outside(gm: GM, kind: powers.Kind, name: str, m: Member) -> str | Literal[False] | None:
    """None: the power does something out of a fight; a reason when it works only in one; False when the GM
    cannot play it at all (named by ``blacksalt validate``, never offered as a no-op)."""
    if kind == "spell" and name in WEAPON_SPELLS:
        return "Works only in a fight."
    power = powers.handler(kind, name)
    if power is None or (power.outside is None and power.fight is None):
        return False
    if power.outside is None:
        return "Works only in a fight."
    return power.ready(gm, m) if power.ready is not None else None


def magic_actions(gm: GM) -> list[Action]:
    """Each adventurer's spells (cast the memorised, concentrate on the forgotten), then their prayers."""
    return [a for m in gm.active() for a in (*_spell_actions(gm, m), *_prayer_actions(gm, m))]


def _spell_actions(gm: GM, m: Member) -> list[Action]:
    book = m.adv.spellbook
    if book is None or not m.adv.character.has_trait("Magic user"):
        return []
    out: list[Action] = []
    keep = 1.0 if book.arcane_well else odds(m.adv.character.test_spec(Attr.INT)).success  # the well: no test
    for spell in book.memorised:
        if spell in book.forgotten or (use := _use_outside(gm, "spell", spell, m)) is False:
            continue
        risky = " (no conductor: any failure is a mishap)" if not carries(m, gm.content, "conductor") else ""
        out.append(Action(f"cast:{m.id}:{spell}", "cast", f"{m.name}: cast {spell}{risky} (INT {keep:.0%} to keep it)",
                          Cost(turns=1), use is None, use or None, who=m.id, params=(("spell", spell),),
                          rule=f"{spell}: {_text(gm, 'spell', spell)} — Cast a spell (1 turn): it works; then an INT "
                          "test: a failure forgets it, a critical failure is a mishap."))  # fmt: skip
    for spell in book.forgotten:
        out.append(Action(f"concentrate:{m.id}:{spell}", "concentrate",
                          f"{m.name}: concentrate to recall {spell} (INT {keep:.0%}; a failure is a mishap)",
                          Cost(turns=1), who=m.id, params=(("spell", spell),),
                          rule="Concentrate (1 turn): an INT test refreshes a forgotten spell; a failure is a "
                          "mishap."))  # fmt: skip
    return out


def _prayer_actions(gm: GM, m: Member) -> list[Action]:
    prayers = m.adv.prayers
    if prayers is None or not m.adv.character.has_trait("Divine mandate"):
        return []
    out: list[Action] = []
    for prayer in prayers.memorised:
        use = _use_outside(gm, "prayer", prayer, m)
        if use is False:
            continue
        why, exhausted, plea = powers.prayer_blocked(gm, m, prayer)
        why = (use or None) or why
        label = f"{m.name}: pray for {prayer}" + (" (desperate plea)" if exhausted and plea else "")
        label += f" (PRE {odds(m.adv.character.test_spec(Attr.PRE)).success:.0%})"
        rule = (f"{prayer}: {_text(gm, 'prayer', prayer)} — Invoke a prayer (1 turn): a PRE test first; on a failure "
                "the god does not answer, on a critical failure the god is angered.")
        out.append(Action(f"pray:{m.id}:{prayer}", "pray", label, Cost(turns=1), why is None, why, who=m.id,
                          params=(("prayer", prayer), ("plea", exhausted)), rule=rule))  # fmt: skip
    return out


def cast(gm: GM, action: Action) -> None:
    powers.cast_outside(gm, gm.c.member(action.who or ""), str(action.param("spell")))


def _mishap(gm: GM, m: Member, row: object) -> None:
    """A mishap's row and its special rule (:func:`rules.gm.powers.mishap`)."""
    powers.mishap(gm, m, row)


def recall(gm: GM, action: Action) -> None:
    m = gm.c.member(action.who or "")
    book = m.adv.spellbook
    assert book is not None
    spell = str(action.param("spell"))
    res = concentrate(book, spell, m.adv.character.test_spec(Attr.INT), gm.rng, gm.content.magic.spell_mishaps,
                      woven=gm.woven(m, f"recalling {spell}"))
    if res.test is not None:
        gm.show_test(m, Attr.INT, f"recalling {spell}", res.test)
    if res.test is not None and res.test.verdict.fatigue:
        gm.fatigue(m, "concentrating", Attr.INT)
    if res.outcome is SpellOutcome.CAST:
        gm.emit("spell", f"{m.name} recalls {spell}.", who=m.id)
    else:
        gm.emit("spell", f"{m.name} fails to recall {spell}: a mishap!", who=m.id)
        if res.mishap is not None:
            _mishap(gm, m, res.mishap)


def pray(gm: GM, action: Action) -> None:
    m = gm.c.member(action.who or "")
    prayers = m.adv.prayers
    assert prayers is not None
    name = str(action.param("prayer"))

    spec = m.adv.character.test_spec(Attr.PRE)
    extra, book = powers.banishing_dice(gm, m, "prayer", name)
    if extra:
        spec = replace(spec, dice=spec.dice + extra)
        gm.emit("bonus_dice", f"{m.name}'s {book.lower()}: {extra} extra die against the undead.", who=m.id)
    res = invoke_prayer(
        prayers,
        name,
        spec,
        gm.rng,
        gm.content.magic.miracles,
        desperate_plea=bool(action.param("plea")),
        player=gm.rerolls_of(m),
        woven=gm.woven(m, f"praying for {name}"),
    )
    gm.show_test(m, Attr.PRE, f"praying for {name}", res.test)
    if res.test.verdict.fatigue:
        gm.fatigue(m, "praying", Attr.PRE)
    if res.outcome in (PrayerOutcome.IGNORED, PrayerOutcome.ANGERED):
        text = "The god does not answer." if res.outcome is PrayerOutcome.IGNORED else "The god is angered!"
        gm.emit("prayer", f"{m.name} prays for {name}. {text}", who=m.id, outcome=res.outcome.value)
        return
    gm.emit("prayer", f"{m.name}'s prayer for {name} is answered.", who=m.id)  # the handler says what it does
    power = powers.handler("prayer", name)
    if power is not None and power.outside is not None:
        power.outside(gm, m)
    if res.miracle is not None:
        gm.emit("miracle", f"A miracle! {res.miracle.text}", who=m.id, roll=res.miracle_roll)
        powers.miracle(gm, m, res.miracle.special or "", res.miracle)
