"""What an adventurer fights with: weapons in hand, thrown items, combat spells, the shield.

Every number comes from ``weapons.toml``, ``armor.toml``, ``items.toml``,
``classes.toml`` (kit weapons such as the Inscribed gauntlet) and
``magic.toml`` (Magic Missile, Silver cannon); the notation is parsed by
:func:`rules.notation.parse_attack`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules.attributes import Attr
from rules.content.registry import Content
from rules.content.schema_equipment import Item, Shield, Weapon
from rules.gm.combat_state import Fighter
from rules.gm.gear import carries, kits
from rules.inventory import HANDS, Carried
from rules.notation import Attack, Range, parse_attack, parse_range

if TYPE_CHECKING:
    from rules.gm.services import GM
    from rules.gm.state import Member

#: Combat spells that turn into a ranged weapon for the rest of the fight (R43: Nearby).
WEAPON_SPELLS = ("Magic Missile", "Silver cannon")
SILVER_PER_SHOT = {"Silver cannon": 1}  # "The wizard must spend 1 silver for each shot."


@dataclass(frozen=True)
class Arm:
    """One way an adventurer can attack now."""

    key: str  # unique among the adventurer's options ("Falchion", "Magic Missile", "Holy water")
    name: str
    attack: Attack
    reach: int | None  # tiles (None: unlimited)
    diagonal: bool = False
    close_attack: Attack | None = None  # used instead against a Close target (Long Spear)
    impact: bool = False
    ignore_shields: bool = False
    rules: tuple[str, ...] = ()
    item: str | None = None  # the inventory item used (thrown, consumed)
    thrown: bool = False
    spell: bool = False
    silver: int = 0
    targets: tuple[str, ...] = ()  # only enemies with one of these tags (Holy water: undead)
    dice: int = 0  # dice added or removed (a two-handed spear held in one hand)
    reload: int = 0  # actions to reload after a shot (Crossbow)
    needs_hands: str | None = None  # why it cannot be used now (a two-handed weapon without a free hand)

    @property
    def melee(self) -> bool:
        return not self.thrown and (self.reach or 0) <= 1 and not self.spell


_MEMO: dict[tuple[str, int], Any] = {}


def _memo(name: str, content: Content, build: Any) -> Any:
    """Per-content lookup tables, built once (the content never changes while the game runs)."""
    key = (name, id(content))
    if key not in _MEMO:
        _MEMO[key] = (content, build(content))  # holding the content keeps its id from being reused
    return _MEMO[key][1]


def _reach(text: str) -> tuple[int | None, Range]:
    band, tiles = parse_range(text)
    if tiles is not None:
        return tiles, band
    from rules.notation import RANGE_TILES

    return RANGE_TILES[band], band


def _weapons_build(content: Content) -> dict[str, Weapon]:
    return {w.name.lower(): w for w in content.weapons.weapons}


def _shields_build(content: Content) -> dict[str, Shield]:
    return {s.name.lower(): s for s in content.armor.shields}


def _kit_attacks_build(content: Content) -> dict[str, str]:
    """Kit-only weapons with their attack (the Awakened's Inscribed gauntlet, STR 2)."""
    out: dict[str, str] = {}
    for kit in kits(content):
        for it in kit.equipment:
            if it.custom and it.attack and it.name:
                out[it.name.lower()] = it.attack
    return out


def _item_attacks_build(content: Content) -> list[Item]:
    return [thing for thing in content.items.items if thing.attack is not None]


def _item_attacks(content: Content) -> list[Item]:
    """The items that attack (thrown flasks, holy water), in the items' order."""
    result: list[Item] = _memo("item_attacks", content, _item_attacks_build)
    return result


def _weapons(content: Content) -> dict[str, Weapon]:
    result: dict[str, Weapon] = _memo("weapons", content, _weapons_build)
    return result


def _shields(content: Content) -> dict[str, Shield]:
    result: dict[str, Shield] = _memo("shields", content, _shields_build)
    return result


def _kit_attacks(content: Content) -> dict[str, str]:
    result: dict[str, str] = _memo("kit_attacks", content, _kit_attacks_build)
    return result


def weapon_entry(gm: GM, name: str) -> Weapon | None:
    return _weapons(gm.content).get(name.lower())


def has_conductor(gm: GM, member: Member) -> bool:
    return carries(member, gm.content, "conductor")


def ashes_bonus(gm: GM) -> int:
    """The damage Living ashes add to the weapon they were rubbed on (``items.toml`` ``damage_bonus``)."""
    entry = next((i for i in gm.content.items.items if i.rule == "weapon_damage_bonus_expedition"), None)
    return entry.damage_bonus if entry is not None else 0


def in_hands(member: Member) -> list[Carried]:
    return [i for i in member.adv.inventory.items if i.place in HANDS and i.equipped]


def is_shield(gm: GM, name: str) -> bool:
    return name.lower() in _shields(gm.content)


def shield_of(gm: GM, member: Member) -> tuple[Carried, Shield] | None:
    """The equipped shield, if any."""
    table = _shields(gm.content)
    for item in in_hands(member):
        entry = table.get(item.name.lower())
        if entry is not None:
            return item, entry
    return None


_ARMS: dict[tuple[Any, ...], tuple[Arm, ...]] = {}


def weapon_arms(gm: GM, member: Member) -> list[Arm]:
    """Attacks with the weapons in hand (equipped), kit weapons carried, and thrown items.

    Made once for what they depend on (the content, the items carried: names, places, in hand or not, and the
    weapon Living ashes were rubbed on): a fight's every listing, and the autoplay's every choice, asks anew."""
    exp = gm.c.expedition
    key = (id(gm.content), exp.ashes.get(member.id) if exp is not None else None,
           tuple((i.name, i.place, i.equipped) for i in member.adv.inventory.items))  # fmt: skip
    arms = _ARMS.get(key)
    if arms is None:
        if len(_ARMS) > 4096:
            _ARMS.clear()
        arms = _ARMS[key] = tuple(_weapon_arms(gm, member))  # (the content is held by _memo: its id stays its own)
    return list(arms)


def _weapon_arms(gm: GM, member: Member) -> list[Arm]:
    arms: list[Arm] = []
    table = _weapons(gm.content)
    held = in_hands(member)
    seen: set[str] = set()
    for item in held:
        entry = table.get(item.name.lower())
        if entry is None or entry.name in seen:
            continue
        seen.add(entry.name)
        same = [i for i in held if i.name.lower() == entry.name.lower()]
        notation = entry.dual_wield_notation if len(same) > 1 and entry.dual_wield_notation else entry.notation
        reach, _ = _reach(entry.range)
        dice = 0
        needs: str | None = None
        if entry.hands == 2:
            other = [h for h in HANDS if h != item.place]
            grip = any(i.place in other and i.name == f"({entry.name})" for i in member.adv.inventory.items)
            free = any(not any(i.place == h for i in member.adv.inventory.items) for h in other)
            if not (grip or free):
                if entry.one_handed_penalty:
                    dice = -entry.one_handed_penalty  # "can be used with 1 hand, but reduces the attack roll by 1 dice"
                else:
                    needs = f"{entry.name} needs both hands."
        base = parse_attack(notation)
        thrown = "thrown" in entry.rules
        label = entry.name + (" (two, dual wielded)" if notation != entry.notation else "")
        if gm.c.expedition is not None and gm.c.expedition.ashes.get(member.id) == entry.name:
            bonus = ashes_bonus(gm)  # Living ashes: "+1 damage to a weapon during expedition"
            base = replace(base, damage=base.damage + bonus,
                           crit_damage=base.crit_damage + bonus if base.crit_damage else 0)  # fmt: skip
            label += " (living ashes)"
        arms.append(
            Arm(
                key=entry.name + (" (thrown)" if thrown else ""),
                name=label + (" (thrown)" if thrown else ""),
                attack=base,
                reach=reach,
                diagonal=entry.reach_diagonal,
                close_attack=parse_attack(entry.close_notation) if entry.close_notation else None,
                impact=entry.impact,
                ignore_shields=entry.ignore_shield_tokens,
                rules=tuple(entry.rules),
                item=entry.name if thrown else None,
                thrown=thrown,
                dice=dice,
                reload=entry.reload_actions,
                needs_hands=needs,
            )
        )
        if "str_melee" in entry.rules:
            # "You can use STR to melee with no downsides."
            melee = Attack(
                attributes=(Attr.STR,),
                modifier=base.modifier,
                damage=base.damage,
                effects=base.effects,
                crit_damage=base.crit_damage,
                crit_effects=base.crit_effects,
                source=base.source,
            )
            arms.append(
                Arm(
                    key=f"{entry.name} (melee)",
                    name=f"{entry.name} (in hand, STR)",
                    attack=melee,
                    reach=1,
                    impact=entry.impact,
                    ignore_shields=entry.ignore_shield_tokens,
                    rules=tuple(r for r in entry.rules if r != "thrown"),
                )
            )
    kit = _kit_attacks(gm.content)
    for item in member.adv.inventory.items:
        kit_notation = kit.get(item.name.lower())
        if kit_notation is not None and item.name not in seen:
            seen.add(item.name)
            arms.append(Arm(key=item.name, name=item.name, attack=parse_attack(kit_notation), reach=1))
    carried = {i.name.lower() for i in member.adv.inventory.items}
    for thing in _item_attacks(gm.content):
        used = thing.attack
        if used is None or thing.name in seen or thing.name.lower() not in carried:
            continue
        seen.add(thing.name)
        reach, _ = _reach(used.range)
        arms.append(
            Arm(
                key=thing.name,
                name=f"{thing.name} (thrown)" if used.thrown else thing.name,
                attack=parse_attack(used.notation),
                reach=reach,
                item=thing.name,
                thrown=used.thrown,
                targets=tuple(used.targets),
            )
        )
    return arms


def spell_arms(gm: GM, fighter: Fighter) -> list[Arm]:
    """The combat spells in effect that work as ranged weapons (Magic Missile, Silver cannon)."""
    arms: list[Arm] = []
    for spell in gm.content.magic.spells:
        if spell.name in fighter.spells and spell.name in WEAPON_SPELLS and spell.attack:
            reach, _ = _reach(spell.range or "Nearby")
            arms.append(
                Arm(
                    key=spell.name,
                    name=spell.name,
                    attack=parse_attack(spell.attack),
                    reach=reach,
                    spell=True,
                    silver=SILVER_PER_SHOT.get(spell.name, 0),
                )
            )
    return arms


def arms_of(gm: GM, member: Member, fighter: Fighter) -> list[Arm]:
    return weapon_arms(gm, member) + spell_arms(gm, fighter)


def spare_weapons(gm: GM, member: Member) -> list[Carried]:
    """Weapons and shields carried but not in hand (they can be equipped: 1 action)."""
    table = _weapons(gm.content)
    shields = _shields(gm.content)
    return [
        i
        for i in member.adv.inventory.items
        if not i.equipped and (i.name.lower() in table or i.name.lower() in shields)
    ]
