"""The fonts bundled in ``resources/fonts`` (DejaVu), registered with Qt once per process.

Every screen and every exported map draws with them, so the game looks the same on every machine and in the
packaged build (a bare machine has no fonts at all).
"""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QFontDatabase

from desktop.resources import fonts_dir


@cache
def bundled_families() -> tuple[str, ...]:
    """Register every bundled font file; the families they provide, in file order."""
    families: list[str] = []
    folder = fonts_dir()
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() in (".ttf", ".otf"):
                font_id = QFontDatabase.addApplicationFont(str(path))
                if font_id >= 0:
                    families += [f for f in QFontDatabase.applicationFontFamilies(font_id) if f not in families]
    return tuple(families)
