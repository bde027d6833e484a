"""A level's doom track and its wandering monsters.

The track has seven steps of one to three ticks each, escalating like the
sample dungeon's: two early steps (a wandering group shows up; the lights
fail), two middle ones, two late ones, and a final very hard fight with the
dungeon's master and reinforcements.  Every step is a concrete event the
automated GM can run (its ``kind`` and fields), with the words for a GM.
"""

from __future__ import annotations

from random import Random

from dungeon_gen.contents import LevelPlan
from dungeon_gen.difficulty import doom_fights, fight, monster_level
from dungeon_gen.export.markdown import plural
from dungeon_gen.model import DoomEffect, DoomStep, MonsterCount, WanderingGroup
from dungeon_gen.story import fill
from dungeon_gen.themes import DoomTemplate, RosterEntry, WanderingTemplate, parse_count

TIERS = (1, 1, 2, 2, 3, 3)  # then the final fight
TICKS = {1: (1, 2, 2), 2: (2, 2, 2), 3: (2, 2, 3)}
FINAL_TICKS = 2
GROUPS_PER_LEVEL = 3
#: What a group of strays is doing (a roster monster no wandering group of the theme brings).
STRAY = (
    "Strayed from [where they lair|their nest|the rooms they haunt|their kill], they follow "
    "[noise and light|the smell of the living|footsteps|the warmth of a lamp] through the "
    "[halls|dark|passages], [and turn on whatever they find|and lose interest slowly|"
    "and come back to a place they liked]."
)


def _count(rng: Random, text: str) -> int:
    lo, hi = parse_count(text)
    return rng.randint(lo, hi)


def wandering_groups(plan: LevelPlan, rng: Random) -> list[WanderingGroup]:
    """Three groups, drawn from the theme's wandering groups that fit the level and, beside them, a
    group of each monster of the level's roster that none of those brings (the rotworm swarm of a
    level-1 tomb), so the wanderers cover the level's whole bestiary, not the same three every time."""
    templates = plan.theme.wandering_at(plan.level) or list(plan.theme.wandering)
    cap = monster_level(plan.story.boss)  # no wanderer is stronger than the master (issue #15)
    templates = [w for w in templates if max(monster_level(m.monster) for m in w.monsters) <= cap] or templates
    covered = {m.monster for w in templates for m in w.monsters}
    strays = [e for e in plan.theme.monsters if e.role != "boss" and e.fits(plan.level) and e.monster not in covered]
    strays = [e for e in strays if monster_level(e.monster) <= cap]
    strays = list({e.monster: e for e in strays}.values())  # one group per monster
    pool: list[WanderingTemplate | RosterEntry] = [*templates, *strays]
    chosen = rng.sample(pool, k=min(GROUPS_PER_LEVEL, len(pool)))
    values = plan.story.values()
    out = []
    for w in chosen:
        if isinstance(w, RosterEntry):
            count = _count(rng, w.group)
            name = f"Stray {plural(w.monster, count)}"
            text = fill(STRAY, values, rng)
            out.append(WanderingGroup(name=name, text=text, monsters=[MonsterCount(monster=w.monster, count=count)]))
            continue
        members = [MonsterCount(monster=m.monster, count=_count(rng, m.count)) for m in w.monsters]
        out.append(WanderingGroup(name=w.name, text=fill(w.text, values, rng), monsters=members))
    return out


def _effect(t: DoomTemplate, plan: LevelPlan, groups: list[WanderingGroup], rng: Random) -> DoomEffect:
    names = [g.name for g in groups]
    group: str | None = None
    if t.kind == "wandering_group":
        group = t.group if t.group in names else rng.choice(names)
    monsters = [MonsterCount(monster=m.monster, count=_count(rng, m.count)) for m in t.monsters]
    if t.kind == "final_fight":
        monsters = [MonsterCount(monster=plan.story.boss, count=1), *monsters]
    text = fill(t.text, plan.story.values(group=group or (names[0] if names else "")), rng)
    return DoomEffect(
        kind=t.kind, text=text, group=group, monsters=monsters, attack=t.attack, affliction=t.affliction, dice=t.dice
    )


def doom_track(plan: LevelPlan, groups: list[WanderingGroup], rng: Random, hardest: int = 0) -> list[DoomStep]:
    """Six steps and the final fight, which is the hardest fight of the level (issue #15): harder than
    ``hardest`` (the level's hardest room), every wandering group and every other step; no monster
    that appears is stronger than the master."""
    th = plan.theme
    cap = monster_level(plan.story.boss)
    steps: list[DoomStep] = []
    used_kinds: set[str] = set()
    used_texts: set[str] = set()
    for i, tier in enumerate(TIERS):
        pool = [d for d in th.doom_at(plan.level) if d.tier == tier and d.text not in used_texts]
        pool = [d for d in pool if all(monster_level(m.monster) <= cap for m in d.monsters)]
        if i == 0:
            opening = [d for d in pool if d.kind == "wandering_group"]
            pool = opening or pool
        fresh = [d for d in pool if d.kind not in used_kinds] or pool
        if not fresh:
            fresh = [d for d in th.doom if d.kind != "final_fight"]
        t = rng.choice(fresh)
        used_kinds.add(t.kind)
        used_texts.add(t.text)
        steps.append(DoomStep(ticks=rng.choice(TICKS[tier]), effect=_effect(t, plan, groups, rng)))
    finals = th.doom_at(plan.level, "final_fight") or [d for d in th.doom if d.kind == "final_fight"]
    final = _effect(rng.choice(finals), plan, groups, rng)
    others = max([hardest, *doom_fights(steps, groups), *(fight(g.monsters) for g in groups)])
    monsters = list(final.monsters)
    grow = 1 if len(monsters) > 1 else 0  # the first reinforcement, or the master's own kind
    while fight(monsters) <= others and monsters[grow].count < 40:
        monsters[grow] = monsters[grow].model_copy(update={"count": monsters[grow].count + 1})
    steps.append(DoomStep(ticks=FINAL_TICKS, effect=final.model_copy(update={"monsters": monsters})))
    return steps
