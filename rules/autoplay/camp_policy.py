"""The autoplay in camp: set up for what the party needs (sleep, rest, food, items), then spend the points."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.autoplay import powers_policy
from rules.gm.events import Action
from rules.gm.state import SETUP, CampState

if TYPE_CHECKING:
    from rules.gm.engine import GM
from rules.gm.camp import (
    CAMP_ITEMS,
    COOK,
    LOOKOUT,
    REST,
    SLEEP,
    action_row,
    ambush_pool,
    blocked,
    camp_items,
    casters,
    fatigued,
    food_carried,
    item_entry,
    item_helps,
    setup_total,
    who_eats,
    wounded,
)


def _needs_sleep(gm: GM) -> bool:
    for m in gm.alive():
        ch = m.adv.character
        heals = wounded(m) and not blocked(gm, m, "wound_healing", "wound_healing_by_rest")
        if heals or "sleepy" in ch.afflictions or "shaken" in ch.afflictions:
            return True
    return sum(1 for m in gm.alive() if fatigued(m)) >= 2


def _wanted_points(gm: GM, st: CampState) -> int:
    """Camp actions the autoplay would like: sleep, a meal, camp items, a lookout."""
    want = 0
    if _needs_sleep(gm):
        want += action_row(gm, SLEEP).cost
    elif any(fatigued(m) for m in gm.alive()):
        want += action_row(gm, REST).cost
    if who_eats(gm, "ration") and food_carried(gm, "ration"):
        want += action_row(gm, COOK).cost
    if any(camp_items(gm, m) for m in gm.alive()):
        want += action_row(gm, CAMP_ITEMS).cost
    return want + action_row(gm, LOOKOUT).cost


#: Yulak's sacrifice (2 wounds, no armour, and bleeding) is made only by a cleric with at least this many wounds
#: room left (the two, and a margin for the bleeding before it is bound), and with something in the party to
#: bind it.
SACRIFICE_ROOM = 4


def _sacrifice(gm: GM, actions: list[Action]) -> Action | None:
    """An angered god's sacrifice (R212), made so the cleric's prayers are answered again (#14: the autoplay never
    made one, and an angered cleric stayed deaf for the rest of the campaign): Akhzu's two rations buried when
    the party still has a ration for each who eats tonight; Yulak's self-flagellation when the cleric has room for
    the wounds and the party can bind the bleeding."""
    for a in actions:
        if not a.available or a.kind != "sacrifice":
            continue
        m = gm.c.member(a.who or "")
        god = next((g for g in gm.content.magic.gods if g.name == m.adv.god), None)
        sac = god.sacrifice if god is not None else None
        if sac is None:
            continue
        if sac.kind == "bury_rations":
            rations = sum(item.count for _, item in food_carried(gm, "ration"))
            if rations - sac.rations >= len(who_eats(gm, "ration")):
                return a
        elif sac.kind == "self_harm":
            ch = m.adv.character
            room = sum(max(0, ch.attrs[x].score - ch.attrs[x].wounds - ch.attrs[x].fatigue) for x in ch.attrs)
            binds = any(i.name in ("Bandages", "First aid kit") for o in gm.alive() for i in o.adv.inventory.items)
            if room >= SACRIFICE_ROOM and binds and "bleeding" not in ch.afflictions:
                return a
    return None


def suggest(gm: GM, actions: list[Action]) -> Action:
    """The autoplay camp policy.

    Setup: use a camping supply (it makes fire and cooking possible), light a fire when there is someone to
    feed and rations to cook, more supplies while the camp has fewer actions than it wants, then settle.
    Actions: free help first (camp prayers, surgery, items that cure), cook for the hungry, sleep when
    wounded, sleepy or tired, camp items, rest when tired, memorise forgotten spells, lookouts with the
    points left, a ritual against doom, then break camp.
    """
    ready = {a.id: a for a in actions if a.available}
    st = gm.c.camp
    if st is None or not ready:
        return next(a for a in actions if a.available)

    def first(*prefixes: str) -> Action | None:
        for p in prefixes:
            for a in actions:
                if a.available and (a.id == p or a.id.startswith(p + ":")):
                    return a
        return None

    if st.stage == SETUP:
        hungry = bool(who_eats(gm, "ration")) and bool(food_carried(gm, "ration"))
        if st.supplies == 0 and (a := first("supply")):
            return a
        if hungry and not st.fire and "fire" in ready and st.supplies:
            return ready["fire"]
        if setup_total(gm, st) < _wanted_points(gm, st) and (a := first("supply")):
            return a
        if (_needs_sleep(gm) and setup_total(gm, st) < action_row(gm, SLEEP).cost and not st.long_rest
                and "long_rest" in ready):  # fmt: skip
            # Short of the two actions a sleep takes: a long rest gives them for one more doom.  Without it a
            # party with no supplies camped with 0 actions, healed nothing, and paid the doom and the ambush roll
            # (seed 4, three camps running in the Smugglers' Landing).
            return ready["long_rest"]
        return ready["settle"]
    for a in actions:
        if a.available and a.kind == "pray":
            return a
    if (a := _sacrifice(gm, actions)) is not None:
        return a
    if (a := powers_policy.in_camp(gm, actions)) is not None:
        return a
    for a in actions:
        if a.available and a.kind == "item":
            m = gm.c.member(a.who or "")
            entry = item_entry(gm, a.target or "")
            if entry is None or not item_helps(gm, m, entry):
                continue
            if entry.food == "ration" and "cook:ration" in ready:
                continue  # cooking feeds more with the same ration
            return a
    if "cook:ration" in ready:
        return ready["cook:ration"]
    if any(wounded(m) and not blocked(gm, m, "wound_healing") for m in gm.alive()) and (a := first("surgeon")):
        return a
    if "sleep" in ready and _needs_sleep(gm):
        return ready["sleep"]
    if "camp_items" in ready:
        return ready["camp_items"]
    if (
        "rest" in ready
        and not st.slept
        and any(fatigued(m) or "shaken" in m.adv.character.afflictions for m in gm.alive())
    ):
        return ready["rest"]
    if "memorise" in ready and any(m.adv.spellbook is not None and m.adv.spellbook.forgotten for m in casters(gm)):
        return ready["memorise"]
    if not st.slept and "cook:coffee" in ready:
        return ready["cook:coffee"]
    if "cook:tea" in ready:
        return ready["cook:tea"]
    if "lookout" in ready and ambush_pool(gm, st) > 0:
        return ready["lookout"]
    rituals = [a for a in actions if a.available and a.kind == "ritual" and a.target == "doom"]
    if rituals:
        return rituals[0]
    return ready["break"]
