"""Conventions shared by every content schema.

Each ``resources/content/*.toml`` file is validated, as a whole, by one
pydantic model built on :class:`Strict`: unknown keys, missing fields and
out-of-range values are rejected, and :func:`load_toml` turns pydantic's
error into a :class:`ContentError` naming the file, the entry and the field.

Field types shared by all schemas:

* :data:`AttrCode`: ``"STR" | "DEX" | "INT" | "PRE"``.
* :data:`Dice`: a dice formula string parsed by :class:`rules.dice.DiceExpr`
  (``"2d6"``, ``"2 + 2d6"``, ``"3 x 2d6"``), validated at load.
* :data:`Notation`: attack notation parsed by :func:`rules.notation.parse_attack`
  (``"-STR 2+2B"``), validated at load.
* :data:`UsageDie`: ``4 | 6 | 8 | 10 | 12 | 20`` (a usage die ``Ud8`` is ``8``).
* :data:`RiskDice`: a number of risk dice (``2d!`` is ``2``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from rules.dice import DiceExpr, parse_usage_die
from rules.notation import parse_attack
from rules.paths import resources_dir as resources_dir  # re-exported: content, gm and dungeon_gen use it


class ContentError(ValueError):
    """A resource file that cannot be used, with file, entry and field named."""


class Strict(BaseModel):
    """Base of every content model: no unknown keys, immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


def _check_dice(v: str) -> str:
    DiceExpr.parse(v)
    return v


def _check_notation(v: str) -> str:
    parse_attack(v)
    return v


def _check_usage(v: int) -> int:
    parse_usage_die(v)
    return v


AttrCode = Literal["STR", "DEX", "INT", "PRE"]
Dice = Annotated[str, AfterValidator(_check_dice)]
Notation = Annotated[str, AfterValidator(_check_notation)]
UsageDie = Annotated[int, AfterValidator(_check_usage)]
RiskDice = Annotated[int, Field(ge=1, le=6)]
Rarity = Literal["free", "common", "uncommon", "valuable", "rare", "exotic"]
Name = Annotated[str, Field(min_length=1)]
Text = Annotated[str, Field(min_length=1)]

M = TypeVar("M", bound=BaseModel)


def check_unique(names: Iterable[str], what: str) -> None:
    """Refuse names that repeat (ignoring case): "duplicate <what>: a, b"."""
    seen: set[str] = set()
    dup: set[str] = set()
    for n in names:
        key = n.casefold()
        (dup if key in seen else seen).add(key)
    if dup:
        raise ValueError(f"duplicate {what}: {', '.join(sorted(dup))}")


def _entry_label(raw: Any, loc: tuple[int | str, ...]) -> tuple[str, str]:
    """Split a pydantic error location into ("entry", "field") for humans."""
    node = raw
    entry = ""
    fields: list[str] = []
    for i, part in enumerate(loc):
        if isinstance(part, int) and isinstance(node, list):
            element = node[part] if part < len(node) else None
            if not isinstance(element, dict) and fields:
                # an index inside a list of plain values: part of the field, not a new entry
                fields[-1] += f"[{part}]"
                node = element
                continue
            node = element
            label = None
            if isinstance(node, dict):
                label = node.get("name") or node.get("id") or node.get("roll")
            entry = f"{'.'.join(str(p) for p in loc[:i])}[{part}]" + (f" ({label!r})" if label is not None else "")
            fields = []
            continue
        node = node.get(str(part)) if isinstance(node, dict) else None
        fields.append(str(part))
    return entry, ".".join(fields)


def format_validation_error(path: Path, raw: Any, err: ValidationError) -> str:
    lines = [f"{path.name}: {err.error_count()} problem(s)"]
    for e in err.errors():
        loc = tuple(p for p in e["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        entry, fieldname = _entry_label(raw, loc)
        where = f"entry {entry}" if entry else "top level"
        lines.append(f"  {path.name}: {where}: field {fieldname or '(entry)'}: {e['msg']}")
    return "\n".join(lines)


def load_toml(path: Path, model: type[M]) -> M:
    """Read and validate one content file; raise :class:`ContentError` naming file, entry, field."""
    try:
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ContentError(f"{path}: missing content file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path.name}: not valid TOML: {exc}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ContentError(format_validation_error(path, raw, exc)) from None


def content_dir() -> Path:
    return resources_dir() / "content"
