"""The party's purse: adventurers hand each other silver in a settlement (free, R183).

Each adventurer carries their own silver (the book's sheets do; thieves and muggers take it from one of them),
but nothing in the rules stops a party from pooling it, and at the table players do so without a second
thought: one buys the torches with everyone's coins.  Two free actions, at any moment of the interlude:

* ``pool:<member>`` — everyone hands their silver to that adventurer (to buy what one alone cannot afford);
* ``share`` — the silver is shared out evenly (the odd coins stay with whoever had the most), so everyone can
  pay for their own bed.

Neither costs a turn or a day's action, and neither is offered in a dungeon (silver changes hands there too,
but nothing there is bought with it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.checks import RuleError
from rules.gm.events import Action, Cost

if TYPE_CHECKING:
    from rules.gm.services import GM
    from rules.gm.state import Member

KIND = "purse"
RULE = ("Silver changes hands freely between adventurers in a settlement: a free action, no day's action spent "
        "(R183).")  # fmt: skip


def shares(total: int, members: list[Member]) -> dict[str, int]:
    """An even split of ``total`` silver: the odd coins go, one each, to those who held the most."""
    base, extra = divmod(total, len(members))
    order = sorted(members, key=lambda m: (-m.adv.character.silver, m.id))
    return {m.id: base + (1 if i < extra else 0) for i, m in enumerate(order)}


def actions(gm: GM) -> list[Action]:
    party = gm.alive()  # the collapsed too: a purse is a purse
    if len(party) < 2:
        return []
    total = sum(max(0, m.adv.character.silver) for m in party)
    out: list[Action] = []
    for m in party:
        others = total - max(0, m.adv.character.silver)
        why = None if others > 0 else "No one else has any silver to hand over."
        out.append(Action(f"pool:{m.id}", KIND, f"Everyone hands their silver to {m.name} ({total} in all)", Cost(),
                          why is None, why, who=m.id, params=(("how", "pool"),), rule=RULE))  # fmt: skip
    even = shares(total, party)
    uneven = any(max(0, m.adv.character.silver) != even[m.id] for m in party)
    why = None if uneven else "The silver is already shared evenly."
    each = total // len(party)
    out.append(Action("share", KIND, f"Share the silver evenly ({each} each)", Cost(), why is None, why,
                      params=(("how", "share"),), rule=RULE))  # fmt: skip
    return out


def apply(gm: GM, action: Action) -> None:
    party = gm.alive()  # the collapsed too: a purse is a purse
    if len(party) < 2:
        raise RuleError("there is no one to share silver with")
    total = sum(max(0, m.adv.character.silver) for m in party)
    if action.param("how") == "pool":
        to = next((m for m in party if m.id == action.who), None)
        if to is None:
            raise RuleError(f"no adventurer {action.who!r} to hand the silver to")
        for m in party:
            if m is not to and m.adv.character.silver > 0:
                to.adv.character.silver += m.adv.character.silver
                m.adv.character.silver = 0
        gm.emit("purse", f"Everyone hands their silver to {to.name}: {to.adv.character.silver} silver.",
                to=to.id, silver=to.adv.character.silver)  # fmt: skip
        return
    even = shares(total, party)
    for m in party:
        m.adv.character.silver = even[m.id]
    gm.emit("purse", "The party shares its silver: " + ", ".join(f"{m.name} {even[m.id]}" for m in party) + ".",
            shares=even)  # fmt: skip
