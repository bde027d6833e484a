"""Content entries as JSON-ready dicts and as readable cards.

Every attack notation found in an entry (``notation`` / ``attack`` fields) is
shown parsed beside the book's string, so a GM or a test sees exactly how the
engine reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from rules.notation import find_range, parse_attack, parse_range

if TYPE_CHECKING:
    from rules.content.registry import Content

_NOTATION_KEYS = ("notation", "attack")


def _parsed(notation: str, range_text: object = None) -> dict[str, Any]:
    attack = parse_attack(notation)
    if isinstance(range_text, str) and range_text:
        try:
            band, tiles = parse_range(range_text)
        except ValueError:
            found = find_range(range_text)
            band, tiles = found if found else (attack.range, attack.range_tiles)
        attack = attack.with_range(band, tiles)
    return attack.to_dict()


def _walk(node: Any) -> Any:
    if isinstance(node, dict):
        out = {k: _walk(v) for k, v in node.items()}
        for key in _NOTATION_KEYS:
            value = node.get(key)
            if isinstance(value, str) and value.strip():
                out[key] = _parsed(value, node.get("range"))
                if key == "notation":
                    out["attack"] = out.pop("notation")
                    out["notation"] = value
                else:
                    out["notation"] = node.get("notation", value) if "notation" in node else value
        return out
    if isinstance(node, list):
        return [_walk(v) for v in node]
    return node


def _prune(node: Any, depth: int = 0) -> Any:
    """Drop unset flags (False, empty lists) below the top level, so nested data reads clean."""
    if isinstance(node, dict):
        return {
            k: _prune(v, depth + 1)
            for k, v in node.items()
            if depth == 0 or k in ("damage", "crit_damage", "effects", "crit_effects") or v not in (False, [], {})
        }
    if isinstance(node, list):
        return [_prune(v, depth + 1) for v in node]
    return node


def describe(kind: str, entry: BaseModel) -> dict[str, Any]:
    """The entry as data, with every attack parsed (``attack``) beside its ``notation``."""
    data = _prune(entry.model_dump(mode="json", exclude_none=True))
    out = _walk(data)
    out = {"kind": kind, **out}
    return dict(out)


def _line(label: str, value: object) -> str:
    return f"{label}: {value}"


def card(kind: str, entry: BaseModel) -> str:
    """A readable card, in the book's own layout where it has one."""
    d = entry.model_dump(mode="json", exclude_none=True)
    name = d.get("name", "?")
    lines: list[str] = []
    if kind == "monster":
        lines.append(f"{name} - LVL {d['level']}")
        stats = [f"Wounds: {d['wounds']}"]
        if d.get("armor"):
            stats.append(f"Armor: {d['armor']}")
        if d.get("resist"):
            stats.append(f"Resist: {d['resist']}")
        stats.append(f"Movement: {d['movement']}")
        lines.append(", ".join(stats))
        lines.extend(s["text"] for s in d.get("specials", []))
        for a in d.get("actions", []):
            head = a["name"]
            if a.get("notation"):
                head += f" ({a['notation']})"
            lines.append(f"{head}: {a['text']}" if a.get("text") else head)
        lines.append(_line("Tags", ", ".join(d.get("tags", []))))
        if d.get("extract"):
            lines.append(_line("Extract", str(d["extract"]).capitalize()))
        if d.get("description"):
            lines.append("")
            lines.append(d["description"])
        return "\n".join(lines)
    lines.append(name if kind != "affliction" else str(name).capitalize())
    for key, label in (("notation", "Attack"), ("rarity", "Rarity"), ("tokens", "Shield tokens"),
                       ("ap", "Armour points"), ("type", "Type"), ("range", "Range"), ("hands", "Hands"),
                       ("tags", "Tags"), ("usage", "Usage die"), ("size", "Size"), ("cure", "Getting rid of"),
                       ("effect", "Effect"), ("school", "School"), ("source", "Prayer of"),
                       ("advanced_of", "Advanced skill of"), ("special", "Special")):  # fmt: skip
        if key in d and d[key] not in (None, "", [], False):
            value = d[key]
            if isinstance(value, list):
                value = ", ".join(str(v) for v in value)
            if key == "usage":
                value = f"Ud{value}"
            lines.append(_line(label, value))
    for key in ("notation", "attack"):
        if isinstance(d.get(key), str):
            a = _parsed(d[key], d.get("range"))
            crit = f" + {a['crit_damage']}{''.join(a['crit_effects'])} on a critical" if a["crit_damage"] else ""
            mod = f" with {a['modifier']}" if a["modifier"] else ""
            lines.append(
                f"  -> test {'/'.join(a['attributes'])}{mod}: {a['damage']}{''.join(a['effects'])} wounds{crit}; "
                f"range {a['range']}"
            )
            break
    if d.get("text"):
        lines.append("")
        lines.append(d["text"])
    return "\n".join(lines)


def counts(content: Content) -> dict[str, int]:
    """Entries per table, for ``blacksalt validate`` and the closing notes."""
    out: dict[str, int] = {}
    for fname, model in content.files.items():
        stem = fname.removesuffix(".toml")
        for field, value in model:
            if isinstance(value, list) and value:
                out[f"{stem}.{field}"] = len(value)
                first = value[0]
                # roll tables nested in a list (lifepath tables) count their rows too
                if isinstance(first, BaseModel) and hasattr(first, "rows") and hasattr(first, "id"):
                    for t in value:
                        out[f"{stem}.{t.id}"] = len(t.rows)
            elif isinstance(value, BaseModel) and hasattr(value, "rows"):
                out[f"{stem}.{field}"] = len(value.rows)
    return out
