"""How hard a generated level is (issue #15, "difficulty that means something").

One yardstick for the generator and its tests: a monster's strength is its bestiary level, a fight's
is the sum of its monsters' levels (a level-3 Starved Cadaver with two level-1 husks is 5), a trap's
is the wounds its attack can deal plus the doom its noise adds, treasure is its silver.  The
generator uses the same numbers to make a level's master the strongest thing on it and the last
doom step its hardest fight.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from dungeon_gen.model import DoomStep, LevelData, MonsterCount, Trap, WanderingGroup
from rules.notation import Modifier, parse_attack


@cache
def _levels() -> dict[str, int]:
    from rules.content.registry import load_content

    return {m.name.lower(): m.level for m in load_content().bestiary.monsters}


def monster_level(name: str) -> int:
    """The bestiary level of a monster (1 for a name the bestiary lacks)."""
    return _levels().get(name.lower(), 1)


def fight(members: Iterable[MonsterCount | tuple[str, int]]) -> int:
    """A fight's strength: the sum of its monsters' bestiary levels."""
    total = 0
    for m in members:
        name, count = (m.monster, m.count) if isinstance(m, MonsterCount) else m
        total += monster_level(name) * count
    return total


def trap_strength(attack: str | None, doom: int) -> int:
    """What a trap costs the party: the wounds its attack deals (and half its critical), one more when
    the defence has disadvantage, plus the doom its noise adds."""
    if not attack:
        return 1 + doom
    a = parse_attack(attack)
    return a.damage + a.crit_damage // 2 + (1 if a.modifier == Modifier.DISADVANTAGE else 0) + doom


def _group(groups: list[WanderingGroup], name: str | None) -> list[MonsterCount]:
    return next((g.monsters for g in groups if g.name == name), [])


def doom_fights(track: list[DoomStep], groups: list[WanderingGroup]) -> list[int]:
    """The strength of each doom step's fight (0 for a step that brings none), in track order."""
    out = []
    for step in track:
        e = step.effect
        members = list(e.monsters)
        if e.kind == "wandering_group":
            members += _group(groups, e.group)
        out.append(fight(members))
    return out


@dataclass(frozen=True)
class LevelReport:
    monsters: int  # summed strength of the fights in rooms (the master's lair included)
    traps: int  # summed strength of the traps
    treasure: int  # silver of the valuables and items found (keys are free)
    master: int | None  # the master's bestiary level, on the level where it waits
    master_strongest: bool  # no other monster of the level is stronger, and no room's fight is as hard
    final_hardest: bool  # the last doom step's fight is harder than every other fight of the level


def level_report(level: LevelData) -> LevelReport:
    room_fights = {r.id: fight(r.monsters) for r in level.rooms}
    lair = next((r for r in level.rooms if r.boss), None)
    master: int | None = None
    strongest = True
    if lair is not None and lair.monsters:
        master = monster_level(lair.monsters[0].monster)
        others = [g.monster for r in level.rooms if not r.boss for g in r.monsters]
        others += [m.monster for g in level.wandering_monsters for m in g.monsters]
        others += [m.monster for s in level.doom_track if s.effect.kind != "final_fight" for m in s.effect.monsters]
        strongest = all(monster_level(m) <= master for m in others) and all(
            f < room_fights[lair.id] for rid, f in room_fights.items() if rid != lair.id
        )
    dooms = doom_fights(level.doom_track, level.wandering_monsters)
    wanderers = [fight(g.monsters) for g in level.wandering_monsters]
    final = dooms[-1] if dooms else 0
    final_hardest = all(f < final for f in [*dooms[:-1], *wanderers, *room_fights.values()])
    traps = sum(trap_strength(t.attack, t.doom) for r in level.rooms for t in r.traps)
    treasure = sum(x.value * x.count for r in level.rooms for x in r.loot)
    return LevelReport(sum(room_fights.values()), traps, treasure, master, strongest, final_hardest)


def trap_of(t: Trap) -> int:
    return trap_strength(t.attack, t.doom)
