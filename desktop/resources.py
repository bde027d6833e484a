"""Where the game's own files are: from a source checkout, or inside a PyInstaller bundle.

One place for the folders the desktop reads (fonts, icons); the content, dungeon themes and GM tables go
through the same :func:`rules.paths.resources_dir` (Qt-free and pydantic-free: ``sys._MEIPASS/resources``
when frozen, else ``resources/`` beside the packages).
"""

from __future__ import annotations

import sys
from pathlib import Path

from rules.paths import resources_dir

__all__ = ["fonts_dir", "frozen", "icon_path", "icons_dir", "resources_dir"]


def frozen() -> bool:
    """Whether this is the packaged executable (PyInstaller sets ``sys.frozen``)."""
    return bool(getattr(sys, "frozen", False))


def fonts_dir() -> Path:
    """The bundled TTFs (DejaVu): a bare machine has no fonts of its own."""
    return resources_dir() / "fonts"


def icons_dir() -> Path:
    return resources_dir() / "icons"


def icon_path(name: str) -> Path:
    return icons_dir() / name
