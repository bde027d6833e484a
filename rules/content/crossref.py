"""References between content files, checked once at load.

Each problem names the file and entry that holds the broken reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.content.registry import Content


def check_references(c: Content) -> list[str]:
    problems: list[str] = []
    items = {n.lower() for n in _all_item_names(c)}
    skills = set()
    for s in c.character.skills:
        skills.add(s.name.lower())
        skills.update(a.lower() for a in s.aliases)
    traits = set()
    for t in c.character.traits:
        traits.add(t.name.lower())
        traits.update(a.lower() for a in t.aliases)
    monsters = {m.name.lower() for m in c.bestiary.monsters}

    for table in c.lifepath.tables:
        for row in table.rows:
            where = f"lifepath.toml: {table.id} row {row.roll} ({row.name!r})"
            problems += [f"{where}: unknown skill {s!r}" for s in row.skills if s.lower() not in skills]
            problems += [f"{where}: unknown trait {t!r}" for t in row.traits if t.lower() not in traits]

    def kit_refs(where: str, kit: object) -> None:
        for it in getattr(kit, "equipment", []):
            if it.item is not None and it.item.lower() not in items:
                problems.append(f"{where}: kit item {it.item!r} is in no equipment table")

    for cls in c.classes.classes:
        where = f"classes.toml: class {cls.name!r}"
        problems += [f"{where}: unknown skill {s!r}" for s in cls.skills if s.lower() not in skills]
        problems += [f"{where}: unknown trait {t!r}" for t in cls.traits if t.lower() not in traits]
        for opt in cls.equipment_options:
            kit_refs(f"{where} option {opt.name}", opt.kit)
    for bg in c.classes.backgrounds:
        where = f"classes.toml: background {bg.name!r}"
        kit_refs(where, bg.kit)
        if not bg.trait_undefined:
            problems += [f"{where}: unknown trait {t!r}" for t in bg.traits if t.lower() not in traits]
    for school in c.classes.schools:
        kit_refs(f"classes.toml: school {school.name!r}", school.kit)

    spell_schools = {s.school for s in c.magic.spells}
    for school in c.classes.schools:
        if school.name not in spell_schools:
            problems.append(f"magic.toml: no spells for school {school.name!r}")
    for spell in c.magic.spells:
        if spell.summon and spell.summon.lower() not in monsters:
            problems.append(f"magic.toml: spell {spell.name!r} summons unknown monster {spell.summon!r}")
    return problems


def _all_item_names(c: Content) -> list[str]:
    names = [i.name for i in c.items.items]
    names += [w.name for w in c.weapons.weapons]
    names += [a.name for a in c.armor.armor]
    names += [s.name for s in c.armor.shields]
    return names
