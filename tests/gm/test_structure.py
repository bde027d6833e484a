"""The GM's structure (issue #12), kept: the autoplay a client of the public API, every doom step a handler, each
phase's actions in a table by kind.  The layers themselves are import-linter's contract in ``pyproject.toml``."""

from __future__ import annotations

import ast
from pathlib import Path

from dungeon_gen.themes import DOOM_KINDS
from rules.gm import camp, combat_actions, exploration, interlude
from rules.gm.table import ActionTable

ROOT = Path(__file__).resolve().parents[2]


def private_uses(path: Path) -> list[str]:
    """Private names of ``rules.gm`` a module uses: imported (``from rules.gm.x import _y``) or reached through an
    imported module (``x._y``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules: set[str] = set()
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rules.gm"):
            for alias in node.names:
                if alias.name.startswith("_"):
                    out.append(f"{path.name}:{node.lineno} imports {node.module}.{alias.name}")
                elif node.module == "rules.gm":
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name.startswith("rules.gm")}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = ast.unparse(node.value)
            if base in modules:
                out.append(f"{path.name}:{node.lineno} uses {base}.{node.attr}")
    return out


def test_the_autoplay_uses_no_private_name_of_the_gm() -> None:
    offences = [x for p in sorted((ROOT / "rules" / "autoplay").rglob("*.py")) for x in private_uses(p)]
    assert not offences, "\n".join(offences)


def test_the_check_would_catch_a_private_use(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from rules.gm.exploration import _blocked\nfrom rules.gm import places\nplaces._walk(1)\n")
    assert private_uses(bad) == ["bad.py:1 imports rules.gm.exploration._blocked", "bad.py:3 uses places._walk"]


def test_every_kind_of_doom_step_the_generator_makes_has_a_handler() -> None:
    assert set(exploration.DOOM_EVENTS) == set(DOOM_KINDS)
    assert set(exploration.ARRIVALS) <= set(DOOM_KINDS)


def test_each_phase_lists_and_applies_through_a_table_by_kind() -> None:
    tables = [exploration.TABLE, camp.SETUP_TABLE, camp.CAMP_TABLE, interlude.DAY, interlude.MARKET,
              interlude.NIGHT, interlude.FREE, combat_actions.TABLE]  # fmt: skip
    for table in tables:
        assert isinstance(table, ActionTable) and table.listers and table.kinds, table.phase
    assert {"move", "loot", "pick", "spike", "ashes", "camp", "exit"} <= exploration.TABLE.kinds
    assert {"attack", "manoeuvre", "cast", "pray", "defend", "dodge"} <= combat_actions.TABLE.kinds
