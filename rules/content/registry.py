"""The registry: every content file, loaded and validated once.

:func:`load_content` reads each ``resources/content/*.toml`` through its
schema (``FILES`` of each ``schema_*`` module), then checks the references
between files (an item named in a starting kit exists in the item tables, a
skill granted by a lifepath exists in the skill list, ...).  Any problem is a
:class:`~rules.content.base.ContentError` that names the file, the entry and
the field.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel

from rules.content import (
    schema_bestiary,
    schema_blacksalt,
    schema_creation,
    schema_equipment,
    schema_freeform,
    schema_magic,
    schema_tables,
)
from rules.content.base import ContentError, content_dir, load_toml
from rules.content.schema_bestiary import BestiaryFile
from rules.content.schema_blacksalt import BlacksaltFile, NamesFile
from rules.content.schema_creation import ClassesFile, LifepathFile
from rules.content.schema_equipment import AlchemyFile, ArmorFile, ItemsFile, WeaponsFile
from rules.content.schema_freeform import FreeformFile
from rules.content.schema_magic import MagicFile
from rules.content.schema_tables import CharacterFile, TablesFile

SCHEMA_MODULES = (
    schema_creation, schema_magic, schema_equipment, schema_bestiary, schema_tables, schema_blacksalt, schema_freeform,
)  # fmt: skip


def _schemas() -> dict[str, type[BaseModel]]:
    files: dict[str, type[BaseModel]] = {}
    for module in SCHEMA_MODULES:
        for name, model in module.FILES.items():
            if name in files:
                raise ContentError(f"{name}: claimed by two schema modules")
            files[name] = model
    return files


@dataclass(frozen=True)
class Content:
    """All of the game's content, validated."""

    files: dict[str, BaseModel]

    def _file(self, name: str) -> Any:
        return self.files[name]

    @property
    def lifepath(self) -> LifepathFile:
        return cast(LifepathFile, self._file("lifepath.toml"))

    @property
    def classes(self) -> ClassesFile:
        return cast(ClassesFile, self._file("classes.toml"))

    @property
    def magic(self) -> MagicFile:
        return cast(MagicFile, self._file("magic.toml"))

    @property
    def items(self) -> ItemsFile:
        return cast(ItemsFile, self._file("items.toml"))

    @property
    def weapons(self) -> WeaponsFile:
        return cast(WeaponsFile, self._file("weapons.toml"))

    @property
    def armor(self) -> ArmorFile:
        return cast(ArmorFile, self._file("armor.toml"))

    @property
    def alchemy(self) -> AlchemyFile:
        return cast(AlchemyFile, self._file("alchemy.toml"))

    @property
    def bestiary(self) -> BestiaryFile:
        return cast(BestiaryFile, self._file("bestiary.toml"))

    @property
    def character(self) -> CharacterFile:
        return cast(CharacterFile, self._file("character.toml"))

    @property
    def tables(self) -> TablesFile:
        return cast(TablesFile, self._file("tables.toml"))

    @property
    def blacksalt(self) -> BlacksaltFile:
        return cast(BlacksaltFile, self._file("blacksalt.toml"))

    @property
    def names(self) -> NamesFile:
        return cast(NamesFile, self._file("names.toml"))

    @property
    def freeform(self) -> FreeformFile:
        return cast(FreeformFile, self._file("freeform.toml"))

    # --- lookups by kind (the `blacksalt rules` command, the UI's tooltips) -----------------

    def entries(self, kind: str) -> list[Any]:
        return list(KINDS[kind](self))

    def find(self, kind: str, name: str) -> Any | None:
        key = _norm(name)
        for e in self.entries(kind):
            if _norm(_name_of(e)) == key or key in {_norm(a) for a in getattr(e, "aliases", [])}:
                return e
        return None

    def suggest(self, kind: str, name: str, n: int = 3) -> list[str]:
        names = [_name_of(e) for e in self.entries(kind)]
        lowered = {_norm(x): x for x in names}
        close = difflib.get_close_matches(_norm(name), list(lowered), n=n, cutoff=0.5)
        if not close:
            close = [k for k in lowered if _norm(name) in k][:n]
        return [lowered[c] for c in close]

    def describe(self, kind: str, entry: Any) -> dict[str, Any]:
        from rules.content.describe import describe

        return describe(kind, entry)

    def card(self, kind: str, entry: Any) -> str:
        from rules.content.describe import card

        return card(kind, entry)

    def counts(self) -> dict[str, int]:
        from rules.content.describe import counts

        return counts(self)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def _name_of(entry: Any) -> str:
    return str(getattr(entry, "name", ""))


def _shields(c: Content) -> Iterator[Any]:
    return iter(c.armor.shields)


def _armours(c: Content) -> Iterator[Any]:
    return iter(c.armor.armor)


def _prayers(c: Content) -> Iterator[Any]:
    return iter(c.magic.prayers)


def _settlements(c: Content) -> Iterator[Any]:
    return iter(c.blacksalt.settlements)


KINDS: dict[str, Callable[[Content], Iterator[Any]]] = {
    "monster": lambda c: iter(c.bestiary.monsters),
    "weapon": lambda c: iter(c.weapons.weapons),
    "armor": _armours,
    "shield": _shields,
    "item": lambda c: iter(c.items.items),
    "skill": lambda c: iter(c.character.skills),
    "trait": lambda c: iter(c.character.traits),
    "affliction": lambda c: iter(c.character.afflictions),
    "spell": lambda c: iter(c.magic.spells),
    "prayer": _prayers,
    "settlement": _settlements,
}


def load_content(root: Path | None = None, *, cached: bool = True) -> Content:
    """Load and validate every content file (cached per folder unless ``cached=False``)."""
    if cached:
        return _load_cached(root or content_dir())
    return _load(root or content_dir())


@cache
def _load_cached(root: Path) -> Content:
    return _load(root)


def _load(root: Path) -> Content:
    schemas = _schemas()
    present = {p.name for p in root.glob("*.toml")}
    stray = sorted(present - set(schemas))
    if stray:
        raise ContentError(f"{root}: unknown content file(s) {', '.join(stray)} (no schema claims them)")
    files = {name: load_toml(root / name, model) for name, model in schemas.items()}
    content = Content(files)
    from rules.content.crossref import check_references

    problems = check_references(content) + schema_freeform.check_references(content)
    if problems:
        raise ContentError("references between content files are broken:\n  " + "\n  ".join(problems))
    return content
