"""What items serve as: the starting kits and the item table mark conductors, grimoires and holy symbols.

One lookup for every procedure (exploration's casting, combat's spells, the camp's study), built once per
content and kept with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rules.content.registry import Content

if TYPE_CHECKING:
    from rules.content.schema_creation import Kit
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
