"""What an adventurer carries (core rules, "Inventory").

* The carry limit is 7 + 3 × STR score items; above it the adventurer is
  encumbered (half movement, a STR test every turn or something is dropped).
* Items sit in places: containers (belt 1, small pouch 2, small bag 3, bag 4,
  backpack 7; canteen 1 and waterskin 2 for liquids only), the torso (4 slots:
  equipped armour and helmet) and each hand (2 slots; one wielded item).
* Big or awkward items take extra slots; very small items and clothes take none.

The numbers come from ``items.toml`` (``[inventory]``); this module only
keeps the accounts.  See RULINGS.md for how the carry limit and the places
combine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.checks import RuleError

TORSO = "Torso"
HANDS = ("Left hand", "Right hand")


@dataclass
class Place:
    name: str
    slots: int
    liquid_only: bool = False
    container: str | None = None  # the item that provides it (a bag), None for the body
    on_body: bool = True  # False: a pack mule's load, which the adventurer does not carry


@dataclass
class Carried:
    name: str
    place: str
    slots: int = 1
    count: int = 1
    usage: int | None = None  # current usage die
    liquid: bool = False
    equipped: bool = False  # worn armour, wielded weapon or shield
    notes: str = ""
    ap: list[int] = field(default_factory=list)  # worn armour's current AP per part (empty: as new)
    rarity: str = ""  # for selling: the table's rarity (loot has its own)
    value: int = 0  # silver at full price (loot found in a dungeon)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "place": self.place, "slots": self.slots}
        if self.count != 1:
            d["count"] = self.count
        if self.usage is not None:
            d["usage"] = f"Ud{self.usage}"
        if self.equipped:
            d["equipped"] = True
        if self.notes:
            d["notes"] = self.notes
        if self.ap:
            d["ap"] = list(self.ap)
        if self.value:
            d["value"] = self.value
        return d


def is_grip(item: Carried) -> bool:
    """The second hand of a two-handed weapon: ``(Battle axe)``."""
    return item.name.startswith("(") and item.name.endswith(")")


@dataclass
class Inventory:
    base_slots: int = 7
    slots_per_str: int = 3
    places: list[Place] = field(default_factory=list)
    items: list[Carried] = field(default_factory=list)

    @classmethod
    def body(cls, torso_slots: int = 4, hand_slots: int = 2, base_slots: int = 7, slots_per_str: int = 3) -> Inventory:
        places = [Place(TORSO, torso_slots)] + [Place(h, hand_slots) for h in HANDS]
        return cls(base_slots, slots_per_str, places, [])

    def capacity(self, str_score: int) -> int:
        return self.base_slots + self.slots_per_str * str_score

    @property
    def carried_slots(self) -> int:
        """Slots used by carried items (containers themselves are worn, not carried)."""
        off = {p.name for p in self.places if not p.on_body}
        return sum(i.slots for i in self.items if i.place not in off)

    def encumbered(self, str_score: int) -> bool:
        return self.carried_slots > self.capacity(str_score)

    def used(self, place: str) -> int:
        return sum(i.slots for i in self.items if i.place == place)

    def place(self, name: str) -> Place:
        for p in self.places:
            if p.name == name:
                return p
        raise RuleError(f"no place called {name!r}")

    def free(self, place: str) -> int:
        return self.place(place).slots - self.used(place)

    def add_container(self, name: str, slots: int, liquid_only: bool = False, on_body: bool = True) -> Place:
        label = name
        n = 2
        while any(p.name == label for p in self.places):
            label = f"{name} {n}"
            n += 1
        p = Place(label, slots, liquid_only, container=name, on_body=on_body)
        self.places.append(p)
        return p

    def wields(self, place: str) -> bool:
        """A hand that wields something (a weapon, a shield, a two-handed grip) holds nothing else (RULINGS R182)."""
        return place in HANDS and any(i.place == place and (i.equipped or is_grip(i)) for i in self.items)

    def fits(self, item: Carried, place: str) -> bool:
        p = self.place(place)
        if p.liquid_only and not item.liquid:
            return False
        return self.free(place) >= item.slots

    def add(self, item: Carried, place: str | None = None) -> Carried:
        """Put ``item`` in ``place`` or the first place it fits (containers before hands)."""
        if place is not None:
            if not self.fits(item, place):
                raise RuleError(f"{item.name} does not fit in {place} ({self.free(place)} free)")
            item.place = place
            self.items.append(item)
            return item
        where = self.room_for(item)
        if where is None:
            raise RuleError(f"no room for {item.name}: every container and hand is full")
        item.place = where
        self.items.append(item)
        return item

    def room_for(self, item: Carried) -> str | None:
        """The place :meth:`add` would put ``item`` in (liquid containers first for a liquid, then the
        containers, then a hand that wields nothing); None when it fits nowhere."""
        used: dict[str, int] = {}
        wielded: set[str] = set()
        for i in self.items:  # one pass over the items (this is asked for every gift the listing offers)
            used[i.place] = used.get(i.place, 0) + i.slots
            if i.place in HANDS and (i.equipped or is_grip(i)):
                wielded.add(i.place)
        order = [p for p in self.places if p.container and p.liquid_only and item.liquid]
        order += [p for p in self.places if p.container and not p.liquid_only]
        # a hand that wields something takes nothing more (R182): a torch bought or a spyglass looted went into a
        # hand already wielding a whip or a sword (playtests)
        order += [p for p in self.places if p.name in HANDS and p.name not in wielded]
        for p in order:  # as fits(item, p.name): a liquid-only place takes liquids, and the free slots suffice
            first = self.place(p.name)
            if not (first.liquid_only and not item.liquid) and first.slots - used.get(p.name, 0) >= item.slots:
                return p.name
        return None

    def remove(self, item: Carried) -> None:
        """Take out this very item: two alike (a pair of short swords) are told apart by identity, not by
        equal fields (an item equal to another only by value is removed only when the very one is not here)."""
        for k, held in enumerate(self.items):
            if held is item:
                del self.items[k]
                return
        self.items.remove(item)

    def find(self, name: str) -> Carried | None:
        key = name.lower()
        return next((i for i in self.items if i.name.lower() == key), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "places": [{"name": p.name, "slots": p.slots, "used": self.used(p.name)} for p in self.places],
            "items": [i.to_dict() for i in self.items],
            "carried_slots": self.carried_slots,
        }
