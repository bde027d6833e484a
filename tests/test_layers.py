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
