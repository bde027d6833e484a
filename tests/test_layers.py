"""The layers of DESIGN.md, enforced: Qt only in desktop/, no SQLAlchemy in the pure core.

import-linter checks the same in CI (``lint-imports``); this test reads the
source itself, so it also catches imports hidden inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "rules": ("PySide6", "shiboken6", "sqlalchemy", "alembic", "dungeon_gen", "desktop"),
    "dungeon_gen": ("PySide6", "shiboken6", "sqlalchemy", "alembic", "desktop"),
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_pure_packages_do_not_import_qt_or_sqlalchemy(package: str) -> None:
    offences = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, module in imported_modules(path):
            top = module.split(".")[0]
            if top in FORBIDDEN[package]:
                offences.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not offences, "\n".join(offences)


def test_qt_only_in_desktop_views() -> None:
    """Even inside desktop/, the CLI and persistence stay Qt-free."""
    qt_free = [ROOT / "desktop" / "cli.py", ROOT / "desktop" / "__main__.py"]
    offences = [
        f"{p.relative_to(ROOT)}:{line} imports {m}"
        for p in qt_free
        if p.exists()
        for line, m in imported_modules(p)
        if m.split(".")[0] in ("PySide6", "shiboken6")
    ]
    assert not offences, "\n".join(offences)


def test_the_check_would_catch_an_offence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from PySide6.QtCore import QObject\n    import sqlalchemy.orm\n")
    assert [m for _, m in imported_modules(bad)] == ["PySide6.QtCore", "sqlalchemy.orm"]


def private_gm_names(path: Path) -> list[str]:
    """``from rules.gm.x import _name`` and ``module._name`` for a module imported from rules.gm."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules: set[str] = set()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rules.gm"):
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"{path.name}:{node.lineno} imports {node.module}.{alias.name}")
                elif node.module == "rules.gm":
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name.startswith("rules.gm"))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name) and node.value.id in modules):  # fmt: skip
            found.append(f"{path.name}:{node.lineno} uses {node.value.id}.{node.attr}")
    return found


def test_the_autoplay_uses_only_the_gms_public_names() -> None:
    """The autoplay is a player: it reads the GM through public names only (import-linter keeps the GM from
    importing it; this keeps it out of the GM's private parts)."""
    offences = [o for p in sorted((ROOT / "rules" / "autoplay").rglob("*.py")) for o in private_gm_names(p)]
    assert not offences, "\n".join(offences)


def test_the_private_name_check_would_catch_an_offence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from rules.gm import exploration\nfrom rules.gm.places import _hidden\n"
                   "def f(gm):\n    return exploration._blocked(gm)\n")  # fmt: skip
    assert private_gm_names(bad) == ["bad.py:2 imports rules.gm.places._hidden", "bad.py:4 uses exploration._blocked"]
