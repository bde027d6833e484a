"""Alchemy (Alchemists of the Golden Ridge): elemental extracts taken from the dead, potions mixed by the recipes.

The book: "Elemental extracts can be found in corpses and monster remains.  To get the elemental extract from a
corpse a wizard requires an alchemic toolkit and one exploration turn.  For each point in intelligence proficiency
the wizard can get the extract from an extra corpse nearby in that turn. ... A single inventory slot can store two
different extracts.  You can stack as many extracts of the same type in the same slot as you want.  To make a
potion the wizard can mix any number of extracts available.  Add all from the Yig column, then from the Grai
second.  The numbers must match one of the recipes."

This module keeps the accounts (which dead can still give an extract, the extracts carried and their slots, the
mixes that make a recipe, the potions as usable items); the actions that use them are the exploration's
(:mod:`rules.gm.exploration_use`: extract, drink) and the Transmute spell's (:mod:`rules.gm.powers`).
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from rules.content.schema_equipment import Item, Recipe
from rules.inventory import Carried, Inventory

if TYPE_CHECKING:
    from rules.content.registry import Content
    from rules.gm.services import GM
    from rules.gm.state import Member

SUFFIX = " extract"
#: The most extracts of one kind a mix is searched with (more never makes a recipe of the book's).
MOST_OF_ONE = 4


def extract_name(kind: str) -> str:
    return kind.capitalize() + SUFFIX


def kit(content: Content, m: Member) -> Carried | None:
    """The alchemic toolkit ``m`` carries (extraction and Transmute require it)."""
    return m.adv.inventory.find(content.alchemy.rules.extraction_requires)


def alchemist(content: Content, m: Member) -> bool:
    """A wizard ("Magic user") with an alchemic toolkit."""
    return m.adv.character.has_trait("Magic user") and kit(content, m) is not None


# --- the dead -----------------------------------------------------------------------------------------------


def remains(gm: GM, room_id: int | None = None) -> list[tuple[str, str]]:
    """(monster, extract kind) for each dead creature of the room that still holds an extract."""
    st = gm.room_state(room_id)
    out: list[tuple[str, str]] = []
    for g in st.monsters:
        try:
            kind = gm.content.bestiary.monster(g.monster).extract
        except KeyError:
            continue
        if kind is None:
            continue
        left = g.killed - st.extracted.get(g.monster, 0)
        out += [(g.monster, kind)] * max(0, left)
    # "Elemental extracts can be found in corpses": a room's dead that lie there give the extract of the creature
    # they would rise as (its sheet's; none when they would not rise, RULINGS R205)
    for i, corpse in enumerate(gm.room(room_id).corpses):
        key = f"{CORPSE}{i}"
        if corpse.rises_as is None or i >= len(st.corpses) or st.corpses[i] not in ("lying", "warded") \
                or st.extracted.get(key):
            continue
        try:
            kind = gm.content.bestiary.monster(corpse.rises_as).extract
        except KeyError:
            continue
        if kind is not None:
            out.append((key, kind))
    return out


def choose_remains(gm: GM, m: Member, n: int) -> list[tuple[str, str]]:
    """The ``n`` of :func:`remains` the alchemist takes from this turn: while there are more dead than that and
    they differ, the player chooses each ("necro (Reanimated Husk)"; the GM-decides pick is the first listed).
    The engine used to take the first ``n`` listed (a playtest: necro taken, the rot wanted left)."""
    pool = remains(gm)
    picked: list[tuple[str, str]] = []
    while pool and len(picked) < n:
        left = n - len(picked)
        labels = list(dict.fromkeys(f"{kind} ({remains_name(key)})" for key, kind in pool))
        if len(pool) <= left or len(labels) == 1:
            picked += pool[:left]
            break
        pick = gm.decider.choose(gm, m, f"Extract: which of the dead next? ({left} more this turn)", labels)
        i = next(i for i, (key, kind) in enumerate(pool) if f"{kind} ({remains_name(key)})" == pick)
        picked.append(pool.pop(i))
    return picked


#: How :func:`remains` names a room's corpse (by its index) among the slain monsters.
CORPSE = "corpse #"


def remains_name(key: str) -> str:
    """How the log names one of :func:`remains`: a monster's name, or a corpse of the room."""
    return "a corpse" if key.startswith(CORPSE) else key


# --- extracts carried ---------------------------------------------------------------------------------------


def extracts(inv: Inventory) -> dict[str, int]:
    """Extract kind (lower case) -> how many are carried."""
    out: dict[str, int] = {}
    for i in inv.items:
        if i.name.endswith(SUFFIX):
            kind = i.name[: -len(SUFFIX)].lower()
            out[kind] = out.get(kind, 0) + i.count
    return out


def add_extract(inv: Inventory, kind: str) -> bool:
    """One more extract of ``kind``: on its stack, else sharing a slot with a lone kind, else in a free slot;
    returns False when there is no room."""
    name = extract_name(kind)
    held = inv.find(name)
    if held is not None:
        held.count += 1
        return True
    stacks = [i for i in inv.items if i.name.endswith(SUFFIX)]
    lone = next((i for i in stacks if i.slots == 1 and sum(1 for j in stacks if j.place == i.place) % 2 == 1), None)
    if lone is not None:  # "A single inventory slot can store two different extracts."
        inv.items.append(Carried(name, lone.place, slots=0))
        return True
    where = inv.room_for(Carried(name, "", slots=1))
    if where is None:
        return False
    inv.add(Carried(name, "", slots=1), where)
    return True


def spend_extracts(inv: Inventory, mix: dict[str, int]) -> None:
    for kind, n in mix.items():
        held = inv.find(extract_name(kind))
        if held is None or held.count < n:
            raise ValueError(f"not enough {kind} extracts")
        held.count -= n
        if held.count <= 0:
            inv.remove(held)
            partner = next((i for i in inv.items if i.name.endswith(SUFFIX) and i.place == held.place
                            and i.slots == 0), None)  # fmt: skip
            if held.slots == 1 and partner is not None:
                partner.slots = 1  # the slot is the partner's now


# --- mixing -------------------------------------------------------------------------------------------------


def mixes(content: Content, have: dict[str, int]) -> list[tuple[Recipe, dict[str, int]]]:
    """For each recipe the extracts in ``have`` can make, the smallest mix that makes it."""
    key = (id(content), tuple(sorted((k, n) for k, n in have.items() if n > 0)))
    if key not in _MIXES:
        _MIXES[key] = _mixes(content, key[1])
    return list(_MIXES[key])


_MIXES: dict[tuple[int, tuple[tuple[str, int], ...]], tuple[tuple[Recipe, dict[str, int]], ...]] = {}


def _mixes(content: Content, have: tuple[tuple[str, int], ...]) -> tuple[tuple[Recipe, dict[str, int]], ...]:
    vectors = {e.kind: (e.yig, e.grai) for e in content.alchemy.extracts}
    kinds = [k for k, _ in have if k in vectors]
    limits = [min(n, MOST_OF_ONE) for k, n in have if k in vectors]
    best: dict[str, tuple[int, dict[str, int]]] = {}
    targets: dict[tuple[int, int], list[Recipe]] = {}
    for r in content.alchemy.recipes:  # two recipes may share their numbers (bravery, hot-water): the wizard picks
        targets.setdefault((r.yig, r.grai), []).append(r)
    for counts in product(*(range(n + 1) for n in limits)):
        total = sum(counts)
        if total == 0:
            continue
        yig = sum(c * vectors[k][0] for k, c in zip(kinds, counts, strict=True))
        grai = sum(c * vectors[k][1] for k, c in zip(kinds, counts, strict=True))
        for recipe in targets.get((yig, grai), []):
            if recipe.name not in best or total < best[recipe.name][0]:
                best[recipe.name] = (total, {k: c for k, c in zip(kinds, counts, strict=True) if c})
    order = {r.name: i for i, r in enumerate(content.alchemy.recipes)}
    return tuple((next(r for r in content.alchemy.recipes if r.name == name), mix)
                 for name, (_, mix) in sorted(best.items(), key=lambda kv: order[kv[0]]))  # fmt: skip


def mix_text(mix: dict[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in sorted(mix.items()))


# --- potions ------------------------------------------------------------------------------------------------


_POTIONS: dict[int, tuple[Item, ...]] = {}


def potions(content: Content) -> tuple[Item, ...]:
    """The recipes as items one can carry and use: quick (a free action out of a fight, 1 action in one), their
    usage die, their effects.  The explosive potion is thrown, not drunk (no effect on the drinker)."""
    if id(content) not in _POTIONS:
        _POTIONS[id(content)] = _potions(content)
    return _POTIONS[id(content)]


def _potions(content: Content) -> tuple[Item, ...]:
    out = []
    for r in content.alchemy.recipes:
        thrown = any(e.special == "thrown_at_tile" for e in r.effects)
        out.append(Item.model_validate({
            "name": r.name, "rarity": r.rarity, "text": r.text, "tags": ["quick"],
            "usage_die": r.usage_die, "effects": [] if thrown else [e.model_dump(exclude_defaults=True)
                                                                     for e in r.effects],
        }))  # fmt: skip
    return tuple(out)


def usable_items(content: Content) -> list[Item]:
    """The items of the tables and the potions: what an adventurer may use, each name once (a potion the item
    tables also sell, the Healing tonic, is the tables' entry)."""
    if id(content) not in _USABLE:  # asked for in every fighter's every listing: made once per content
        seen = {i.name.lower() for i in content.items.items}
        _USABLE[id(content)] = (content, [*content.items.items, *(p for p in potions(content)
                                                                  if p.name.lower() not in seen)])  # fmt: skip
    return _USABLE[id(content)][1]


_USABLE: dict[int, tuple[Content, list[Item]]] = {}  # the content is held so that its id is not reused


def potion(content: Content, name: str) -> Recipe | None:
    if id(content) not in _RECIPES:  # asked for each item offered in a fight (why_no_use): a table made once
        table: dict[str, Recipe] = {}
        for r in content.alchemy.recipes:
            table.setdefault(r.name.lower(), r)  # the first of a name, as the scan found it
        _RECIPES[id(content)] = (content, table)
    return _RECIPES[id(content)][1].get(name.lower())


_RECIPES: dict[int, tuple[Content, dict[str, Recipe]]] = {}  # the content is held so that its id is not reused


def brew(content: Content, m: Member, recipe: Recipe) -> Carried:
    """The potion, in ``m``'s hands or bags (raises when there is no room)."""
    item = Carried(recipe.name, "", rarity=recipe.rarity, usage=recipe.usage_die)
    return m.adv.inventory.add(item)
