"""Rearranging one's trappings: a free action out of combat (exploration and the interlude).

"Take a free action (free). Some actions will not trigger a turn. Players may rearrange their adventurer's
equipment, equipping and un-equipping items." (expedition chapter, Exploration).  In combat, taking a carried
weapon in hand costs an action (``combat_actions``); here it costs nothing.

Three kinds of action, listed last among the moment's actions (the desktop reaches them by dragging items in
the inventory; the autoplay leaves them alone):

* ``equip:<member>:<item>`` — take a carried weapon or shield in hand (what that hand held goes back to the
  pack), as in combat;
* ``stow:<member>:<index>:<place>`` — put the item at ``index`` in another place where it fits: a container
  (liquids only into a canteen or skin), or a hand that wields nothing.  A weapon or shield leaving the hands
  is no longer wielded, and a two-handed weapon's grip frees the other hand.  Worn armour stays worn, and
  nothing goes onto the torso (taking armour off and on is not something the rules make free);
* ``give:<giver>:<index>:<receiver>`` — hand the item at ``index`` (one of a counted stack) to a companion who
  has room for it ("You can also give or use an item on someone in the same tile if they have inventory
  space"; out of a fight the party stands together, R187).  An adventurer who cannot act has their things
  taken by one who can (a collapsed companion's lantern).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.checks import RuleError
from rules.gm.combat_actions import take_in_hand
from rules.gm.combat_gear import spare_weapons
from rules.gm.events import Action, Cost
from rules.gm.gear import gift_noun, give, why_not_give
from rules.inventory import HANDS, TORSO, Inventory, is_grip

if TYPE_CHECKING:
    from rules.gm.services import GM
    from rules.gm.state import Member

KINDS = ("equip", "stow", "give")


def free_action(gm: GM) -> tuple[Cost, str]:
    """The cost and the words of "Take a free action" from the exploration actions table (tables.toml)."""
    row = next(a for a in gm.content.tables.exploration_actions if a.rule == "free_action")
    return Cost(turns=row.turns), f"{row.name}: {row.text}"




def _busy(inv: Inventory, place: str) -> bool:
    """A hand that wields something (a weapon, a shield, a two-handed grip) holds nothing else."""
    return inv.wields(place)


def actions(gm: GM) -> list[Action]:
    """Every rearrangement each adventurer who can act may make now."""

    out: list[Action] = []
    cost, rule = free_action(gm)
    for m in gm.active():
        inv = m.adv.inventory
        name = m.name
        for item in {i.name: i for i in spare_weapons(gm, m)}.values():
            out.append(Action(f"equip:{m.id}:{item.name}", "equip", f"{name}: take the {item.name} in hand", cost,
                              who=m.id, params=(("item", item.name),), rule=rule))  # fmt: skip
        for index, item in enumerate(inv.items):
            if is_grip(item) or item.place == TORSO:
                continue
            for place in inv.places:
                if place.name in (item.place, TORSO) or not inv.fits(item, place.name) or _busy(inv, place.name):
                    continue
                where = f"the {place.name.lower()}" if place.name in HANDS else f"the {place.name}"
                out.append(Action(f"stow:{m.id}:{index}:{place.name}", "stow", f"{name}: put the {item.name} in "
                                  f"{where}", cost, who=m.id, target=place.name,
                                  params=(("index", index), ("item", item.name), ("place", place.name)),
                                  rule=rule))  # fmt: skip
    out += _give_actions(gm, cost, rule)
    return out


def _give_actions(gm: GM, cost: Cost, rule: str) -> list[Action]:
    out: list[Action] = []
    can_act = {m.id for m in gm.active()}
    for giver in gm.alive():
        for index, item in enumerate(giver.adv.inventory.items):
            if is_grip(item):
                continue
            for receiver in gm.alive():
                if receiver is giver or not {giver.id, receiver.id} & can_act:
                    continue
                what = gift_noun(item)
                if giver.id in can_act:
                    actor, label = giver, f"{giver.name}: give {what} to {receiver.name}"
                else:
                    actor, label = receiver, f"{receiver.name}: take {what} from {giver.name}"
                why = why_not_give(gm, giver, item, receiver)
                out.append(Action(f"give:{giver.id}:{index}:{receiver.id}", "give", label, cost, why is None, why,
                                  who=actor.id, target=receiver.id,
                                  params=(("index", index), ("item", item.name), ("from", giver.id)),
                                  rule="You can also give or use an item on someone in the same tile if they have "
                                  "inventory space. " + rule))  # fmt: skip
    return out


def apply(gm: GM, action: Action) -> None:
    if action.kind == "give":
        giver = gm.c.member(str(action.param("from")))
        items = giver.adv.inventory.items
        index = int(action.param("index"))
        if not 0 <= index < len(items):
            raise RuleError(f"{giver.name} has no item {index}")
        give(gm, giver, items[index], gm.c.member(action.target or ""))
        return
    who = next((m for m in gm.active() if m.id == action.who), None)
    if who is None:
        raise RuleError("only an adventurer who can act rearranges their trappings")
    if action.kind == "equip":
        take_in_hand(gm, who, str(action.param("item")))
        return
    _stow(gm, who, int(action.param("index")), str(action.param("place")))


def _stow(gm: GM, who: Member, index: int, place: str) -> None:
    inv = who.adv.inventory
    if not 0 <= index < len(inv.items):
        raise RuleError(f"{who.name} has no item {index}")
    item = inv.items[index]
    if is_grip(item) or item.place == TORSO or place == TORSO or place == item.place:
        raise RuleError(f"the {item.name} cannot go there")
    if not inv.fits(item, place) or _busy(inv, place):
        raise RuleError(f"the {item.name} does not fit in {place} ({inv.free(place)} free)")
    was_held = item.place in HANDS
    if was_held and item.equipped:
        item.equipped = False
        grip = f"({item.name})"
        for other in [i for i in inv.items if i.name == grip and i.place in HANDS]:
            inv.remove(other)  # the other hand lets go too
    item.place = place
    gm.emit("stow", f"{who.name} puts the {item.name} in the {place.lower() if place in HANDS else place}.",
            who=who.id, item=item.name, place=place)  # fmt: skip
