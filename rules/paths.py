"""Where ``resources/`` is: beside the packages in a checkout, or inside the PyInstaller bundle.

Import-light on purpose (no pydantic): the desktop's start screen finds its fonts and icons through
this before the rules content is loaded.
"""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    """The ``resources/`` folder (beside the packages, or bundled by PyInstaller under ``sys._MEIPASS``)."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parents[1] / "resources"
