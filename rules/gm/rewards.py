"""What a room feature gives on a success: one handler per reward kind (issue #13).

A feature's success words promise something ("One piece is in good repair and fits", "a drowned sack with
something inside"); its :class:`~rules.gm.site.SiteReward` says what, and :data:`HANDLERS` plays it.  The theme
loader (``dungeon_gen.themes.check_reward``) refuses a reward whose kind has no handler here, and a ``way`` or
``info`` reward that reveals something not in :data:`REVEALS`.

* ``item``: one of the reward's items, drawn by the GM, ``count`` of it, as a starting kit's item is given (a
  weapon into a free hand, armour onto a bare torso);
* ``loot``: a valuable worth ``value`` silver (dice rolled when it is won; default the rarity's price);
* ``extract``: ``count`` alchemical extracts of the kind ``name`` (rot, necro, ...), kept as an alchemist keeps
  them (two kinds to a slot);
* ``silver``: coins, ``value`` silver (dice rolled), into the purse of the one who made the test;
* ``creature``: ``count`` × ``monster`` come into the room: hostile ones fight at once, others stay with their
  attitude (friendly, neutral, unfriendly) as a group met;
* ``way``: ``secret_door`` — the room's hidden door is found (failing that, the way down); ``stairs`` — the room
  with the stairs down is known (seen on the map);
* ``info``: ``doom`` — the level's doom and its next step are known (as the Veteran's reading); ``boss`` — the
  master's room is known; ``traps`` — the room's traps are found; ``secrets`` — the room's secrets are found.

Things go to the adventurer who made the test, else to the first of the party with room; with no room anywhere
they are left on the room's floor (``RoomState.floor``), to be picked up later (R230).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.checks import RuleError
from rules.content.schema_creation import StartingItem
from rules.creation import add_kit_item
from rules.dice import DiceExpr, d
from rules.gm import combat
from rules.gm.alchemy import add_extract, extract_name
from rules.gm.places import door_state
from rules.gm.state import GroupState, Phase
from rules.inventory import Carried

if TYPE_CHECKING:
    from rules.creation import Adventurer
    from rules.gm.services import GM
    from rules.gm.site import SiteReward
    from rules.gm.state import Member

Handler = Callable[["GM", "Member", "SiteReward", str], None]

#: what a ``way`` or ``info`` reward may reveal
REVEALS: dict[str, tuple[str, ...]] = {
    "way": ("secret_door", "stairs"),
    "info": ("doom", "boss", "traps", "secrets"),
}


def _takers(gm: GM, member: Member) -> list[Member]:
    return [member] + [m for m in gm.active() if m is not member] if member in gm.active() else gm.active()


def _to_floor(gm: GM, item: Carried, source: str) -> None:
    gm.room_state().floor.append(item)
    gm.emit("reward_floor", f"No one has room for {item.name.lower()}: it is left on the floor ({source}).",
            item=item.name, count=item.count)  # fmt: skip


def _item(gm: GM, member: Member, reward: SiteReward, source: str) -> None:
    if reward.pick == "all":
        names = list(reward.items)
    else:
        names = [reward.items[d(gm.rng, len(reward.items)) - 1] if len(reward.items) > 1 else reward.items[0]]
    for name in names:
        _one_item(gm, member, name, reward.count, source)


def _one_item(gm: GM, member: Member, name: str, count: int, source: str) -> None:
    entry = next(
        (e for g in (gm.content.items.items, gm.content.weapons.weapons, gm.content.armor.armor,
                     gm.content.armor.shields) for e in g if e.name.lower() == name.lower()),
        None,
    )  # fmt: skip
    if entry is None:
        raise RuleError(f"{source}: no item {name!r} in the equipment tables")
    for _ in range(count):
        for m in _takers(gm, member):
            try:
                add_kit_item(m.adv, gm.content, StartingItem(item=entry.name, book=entry.name))
            except RuleError:
                continue
            gm.emit("reward", f"{m.name} takes {entry.name.lower()} ({source}).", who=m.id, item=entry.name,
                    gain="item")  # fmt: skip
            break
        else:
            _to_floor(gm, Carried(entry.name, "", rarity=getattr(entry, "rarity", "")), source)


def _put(gm: GM, adv: Adventurer, item: Carried) -> None:
    """Put ``item`` in ``adv``'s inventory (an equipment table's item as a kit's is); RuleError: no room."""
    equipment = {e.name.lower() for g in (gm.content.items.items, gm.content.weapons.weapons,
                                          gm.content.armor.armor, gm.content.armor.shields) for e in g}  # fmt: skip
    if item.name.lower() in equipment and not item.value:
        for _ in range(max(1, item.count)):
            add_kit_item(adv, gm.content, StartingItem(item=item.name, book=item.name))
    else:
        adv.inventory.add(copy.deepcopy(item))


def take(gm: GM, member: Member, item: Carried) -> Member | None:
    """Put ``item`` with ``member``, else the first of the party with room; who took it (None: no one could)."""
    for m in _takers(gm, member):
        try:
            _put(gm, copy.deepcopy(m.adv), item)  # tried on a copy first: a kit item may fail half-way
            _put(gm, m.adv, item)
        except RuleError:
            continue
        return m
    return None


def can_take(gm: GM, item: Carried) -> bool:
    """Someone of the party has room for ``item``."""
    for m in gm.active():
        try:
            _put(gm, copy.deepcopy(m.adv), item)
        except RuleError:
            continue
        return True
    return False


def _silver(expr: str, gm: GM) -> int:
    return max(0, DiceExpr.parse(expr).roll(gm.rng))


def _loot(gm: GM, member: Member, reward: SiteReward, source: str) -> None:
    price = reward.value or next(str(r.price) for r in gm.content.items.rarities if r.name == reward.rarity)
    value = _silver(price, gm)
    item = Carried(reward.name, "", slots=2 if reward.big else 1, count=reward.count, rarity=reward.rarity,
                   value=value)  # fmt: skip
    label = f"{reward.count} × {reward.name}" if reward.count > 1 else reward.name
    who = take(gm, member, item)
    if who is None:
        _to_floor(gm, item, source)
        return
    gm.emit("reward", f"{who.name} takes {label}, {reward.rarity}, worth {value} silver ({source}).", who=who.id,
            item=reward.name, value=value, gain="loot")  # fmt: skip


def _coins(gm: GM, member: Member, reward: SiteReward, source: str) -> None:
    n = _silver(reward.value, gm)
    member.adv.character.silver += n
    gm.emit("reward", f"{member.name} pockets {n} silver ({source}).", who=member.id, silver=n, gain="silver")


def _extract(gm: GM, member: Member, reward: SiteReward, source: str) -> None:
    label = extract_name(reward.name)
    for _ in range(reward.count):
        who = next((m for m in _takers(gm, member) if add_extract(m.adv.inventory, reward.name)), None)
        if who is None:
            _to_floor(gm, Carried(label, "", slots=1), source)
            continue
        gm.emit("reward", f"{who.name} takes 1 {label.lower()} ({source}).", who=who.id, item=label, gain="extract")


def _creature(gm: GM, member: Member, reward: SiteReward, source: str) -> None:
    if reward.attitude == "hostile":
        gm.emit("reward", f"{reward.count} {reward.monster} ({source}): it comes out fighting.",
                monster=reward.monster, count=reward.count, gain="creature")  # fmt: skip
        if gm.c.phase is Phase.EXPLORATION:
            combat.start(gm, [(reward.monster, reward.count)], source=source)
        return
    gm.room_state().monsters.append(GroupState(reward.monster, reward.count, aware=True, attitude=reward.attitude))
    gm.emit("reward", f"{reward.count} {reward.monster} ({source}), {reward.attitude}.", monster=reward.monster,
            count=reward.count, attitude=reward.attitude, gain="creature")  # fmt: skip


def _stairs(gm: GM, source: str) -> None:
    level = gm.site_level()
    down = [r for r in level.rooms if any(d > level.depth for d, _ in r.stairs)]
    if not down:
        gm.emit("reward", f"There is no way further down from here ({source}).", gain="way", room=None)
        return
    room = down[0]
    gm.room_state(room.id).seen = True
    gm.emit("reward", f"The way down is known: {room.name} (room {room.id}) ({source}).", gain="way", room=room.id)


def _way(gm: GM, member: Member, reward: SiteReward, source: str) -> None:
    exp = gm.c.expedition
    assert exp is not None
    if reward.reveals == "secret_door":
        for link in gm.site_level().links_of(exp.room):
            st = door_state(gm, link)
            if link.door == "secret" and not st.found:
                st.found = st.opened = True
                rst = gm.room_state()
                mine = f"connection {link.id}"
                rst.secrets_found += [
                    i for i, sc in enumerate(gm.room().secrets) if sc.reveals == mine and i not in rst.secrets_found
                ]
                target = link.other(exp.room)
                gm.emit("reward", f"A hidden door is found, to room {target} ({source}).", gain="way", link=link.id,
                        room=target)  # fmt: skip
                return
    _stairs(gm, source)


def next_threshold(gm: GM) -> int | None:
    """The doom at which the level's next unfired step fires (None: every step has fired)."""
    lv = gm.level_state()
    total = 0
    for i, step in enumerate(gm.site_level().doom):
        total += step.ticks
        if i not in lv.fired:
            return total
    return None


def _info(gm: GM, member: Member, reward: SiteReward, source: str) -> None:
    what = reward.reveals
    if what == "doom":
        lv = gm.level_state()
        lv.doom_known = lv.doom
        lv.doom_next_known = next_threshold(gm)
        nxt = f"the next step comes at {lv.doom_next_known}" if lv.doom_next_known is not None else "nothing worse"
        gm.emit("reward", f"The doom here stands at {lv.doom}; {nxt} ({source}).", gain="info", reveals=what,
                doom=lv.doom, next=lv.doom_next_known)  # fmt: skip
    elif what == "boss":
        boss = next((r for r in gm.site_level().rooms if r.boss), None)
        if boss is None:
            gm.emit("reward", f"The master is not on this level ({source}).", gain="info", reveals=what, room=None)
            return
        gm.room_state(boss.id).seen = True
        gm.emit("reward", f"The master's room is known: {boss.name} (room {boss.id}) ({source}).", gain="info",
                reveals=what, room=boss.id)  # fmt: skip
    elif what == "traps":
        st = gm.room_state()
        names = []
        for i, t in enumerate(st.traps):
            if not t.found:
                t.found = True
                names.append(gm.room().traps[i].name)
        text = f"Traps found: {', '.join(names)}" if names else "There is no trap here"
        gm.emit("reward", f"{text} ({source}).", gain="info", reveals=what, traps=names)
    elif what == "secrets":
        st = gm.room_state()
        new = [i for i in range(len(gm.room().secrets)) if i not in st.secrets_found]
        st.secrets_found.extend(new)
        for i in new:
            sc = gm.room().secrets[i]
            if sc.kind == "door" and sc.reveals.startswith("connection "):
                link_id = int(sc.reveals.split()[1])
                link = next(lk for lk in gm.site_level().links if lk.id == link_id)
                door_state(gm, link).found = door_state(gm, link).opened = True
        texts = [gm.room().secrets[i].text for i in new]
        text = "Found: " + " ".join(texts) if texts else "Nothing more is hidden here"
        gm.emit("reward", f"{text} ({source}).", gain="info", reveals=what, secrets=new)


#: reward kind -> its handler; the theme loader refuses a kind missing here
HANDLERS: dict[str, Handler] = {
    "item": _item,
    "loot": _loot,
    "silver": _coins,
    "extract": _extract,
    "creature": _creature,
    "way": _way,
    "info": _info,
}


def give(gm: GM, member: Member, reward: SiteReward, source: str) -> None:
    """Play ``reward``, won by ``member`` at ``source`` (the feature)."""
    handler = HANDLERS.get(reward.kind)
    if handler is None:
        raise RuleError(f"{source}: no handler for reward kind {reward.kind!r}")
    handler(gm, member, reward, source)


__all__ = ["HANDLERS", "REVEALS", "can_take", "give", "next_threshold", "take"]
