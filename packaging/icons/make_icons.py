"""Make the Windows ``blacksalt.ico`` and macOS ``blacksalt.icns`` beside this file (run once; both are committed).

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/icons/make_icons.py

The icon is painted by :func:`desktop.app.paint_icon` (vector, so every size is sharp) at each size the
formats hold, and written with Pillow (the ``test`` extra).  ``resources/icons/blacksalt.png`` (256 px, the
window icon) comes from the same painter.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
ICNS_SIZES = [16, 32, 64, 128, 256, 512]  # 1024 would double the file for no gain on a 256-px design


def painted(size: int):  # -> PIL.Image.Image
    from PIL import Image
    from PySide6.QtCore import QBuffer, QIODevice

    from desktop.app import paint_icon

    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    paint_icon(size).save(buf, "PNG")
    return Image.open(io.BytesIO(bytes(buf.data().data()))).convert("RGBA")


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 - painting needs an application
    ico = [painted(s) for s in ICO_SIZES]
    ico[-1].save(HERE / "blacksalt.ico", sizes=[(s, s) for s in ICO_SIZES], append_images=ico[:-1])
    icns = [painted(s) for s in ICNS_SIZES]
    icns[-1].save(HERE / "blacksalt.icns", append_images=icns[:-1])
    for name in ("blacksalt.ico", "blacksalt.icns"):
        print(f"{HERE / name}: {(HERE / name).stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
