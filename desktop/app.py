"""The Qt application: created once, dressed in the theme, and the main window run in it.

Launch is kept fast: nothing here loads the rules content or imports the engine; the start screen
appears first and the engine is loaded when a campaign is opened.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QIcon,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QRadialGradient,
)
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.resources import icon_path
from desktop.settings import Settings
from desktop.theme import COLORS, apply_theme

if TYPE_CHECKING:
    from desktop.main_window import MainWindow

ICON_PATH = icon_path("blacksalt.png")
#: Set (to anything) to print a JSON line and quit once the start screen is interactive.
STARTUP_PROBE_ENV = "BLACKSALT_STARTUP_PROBE"


def version() -> str:
    """The installed Blacksalt version (the source tree's pyproject version when run from a checkout)."""
    from desktop.cli import version as cli_version

    return cli_version()


def create_app(argv: Sequence[str] | None = None, settings: Settings | None = None) -> QApplication:
    """The application (the existing one if there is one), named, themed and with its icon."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    else:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(list(argv) if argv is not None else sys.argv[:1])
    app.setApplicationName("Blacksalt")
    app.setOrganizationName("Blacksalt")
    app.setApplicationDisplayName("Blacksalt")
    app.setApplicationVersion(version())
    if ICON_PATH.is_file():
        app.setWindowIcon(QIcon(str(ICON_PATH)))
    apply_theme(app, settings if settings is not None else Settings.load())
    from desktop.keys import keep_activation

    keep_activation(app)
    return app


def _excepthook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    """An error nobody caught: the player gets a dialog, the details go to the terminal; never a crash."""
    traceback.print_exception(kind, exc, tb)
    if issubclass(kind, KeyboardInterrupt):
        QApplication.quit()
        return
    if QApplication.instance() is not None:
        QMessageBox.critical(
            None,
            "Blacksalt — something went wrong",
            f"{exc}\n\nThe campaign is saved up to the last finished step; you can keep playing or reopen it.",
        )


def run_window(argv: Sequence[str] | None = None) -> int:
    """Open the game window and run until it closes."""
    settings = Settings.load()
    app = create_app(argv, settings)
    from desktop.main_window import MainWindow

    window = MainWindow(settings)
    sys.excepthook = _excepthook
    window.show()
    if os.environ.get(STARTUP_PROBE_ENV):
        _probe_start_screen(app, window)
    if settings.load_error:
        window.statusBar().showMessage(settings.load_error, 10000)
    return int(app.exec())


def _probe_start_screen(app: QApplication, window: MainWindow) -> None:
    """With ``BLACKSALT_STARTUP_PROBE=1``: once the start screen is interactive (shown, painted, the saves
    listed), print one JSON line and quit.  For timing launches of the source and the packaged game
    (``packaging/bench_desktop.py --exe``) and for the smoke test, which checks the bundled fonts."""
    from PySide6.QtCore import QTimer

    from desktop.resources import fonts_dir, frozen
    from desktop.theme import load_fonts

    start = window.start_screen()

    def ready() -> None:
        if not start._loaded or not start.isVisible():
            QTimer.singleShot(1, ready)
            return
        info = {
            "start_screen": True,
            "process_s": time.process_time(),
            "saves": start.table.rowCount(),
            "fonts": load_fonts(),
            "fonts_dir": str(fonts_dir()),
            "frozen": frozen(),
            "platform": QGuiApplication.platformName(),
            "engine_loaded": "rules.gm.engine" in sys.modules,
        }
        print(json.dumps(info), flush=True)
        app.quit()

    QTimer.singleShot(0, ready)


# --- the icon ------------------------------------------------------------------------------------------


def paint_icon(size: int = 256) -> QImage:
    """Blacksalt's icon: a blood-red salt crystal on black stone in a tarnished gold ring (no Dead Weight logo)."""
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    s = float(size)
    c = s / 2
    # stone disc
    stone = QRadialGradient(QPointF(c * 0.8, c * 0.7), s * 0.6)
    stone.setColorAt(0.0, QColor("#3a3026"))
    stone.setColorAt(1.0, QColor(COLORS["bg"]))
    p.setPen(QPen(QColor(COLORS["gold"]), s * 0.035))
    p.setBrush(stone)
    m = s * 0.04
    p.drawEllipse(QRectF(m, m, s - 2 * m, s - 2 * m))
    inner = s * 0.085
    p.setPen(QPen(QColor(COLORS["border"]), s * 0.012))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(QRectF(inner, inner, s - 2 * inner, s - 2 * inner))
    # the crystal: an elongated hexagonal prism seen from the side
    w, top, bottom = s * 0.2, s * 0.17, s * 0.83
    crystal = QPainterPath()
    crystal.moveTo(c, top)
    crystal.lineTo(c + w, top + s * 0.17)
    crystal.lineTo(c + w, bottom - s * 0.17)
    crystal.lineTo(c, bottom)
    crystal.lineTo(c - w, bottom - s * 0.17)
    crystal.lineTo(c - w, top + s * 0.17)
    crystal.closeSubpath()
    fill = QLinearGradient(QPointF(c - w, top), QPointF(c + w, bottom))
    fill.setColorAt(0.0, QColor("#c23030"))
    fill.setColorAt(0.55, QColor(COLORS["accent"]))
    fill.setColorAt(1.0, QColor("#3d0a0a"))
    p.setPen(QPen(QColor(COLORS["paper"]), s * 0.014))
    p.setBrush(fill)
    p.drawPath(crystal)
    # facets
    p.setPen(QPen(QColor(239, 228, 200, 150), s * 0.01))
    p.drawLine(QPointF(c, top), QPointF(c, bottom))
    p.drawLine(QPointF(c - w, top + s * 0.17), QPointF(c, top + s * 0.3))
    p.drawLine(QPointF(c + w, top + s * 0.17), QPointF(c, top + s * 0.3))
    p.drawLine(QPointF(c, top + s * 0.3), QPointF(c, bottom))
    # a highlight on the lit face
    shine = QPainterPath()
    shine.moveTo(c - w * 0.8, top + s * 0.2)
    shine.lineTo(c - w * 0.3, top + s * 0.27)
    shine.lineTo(c - w * 0.3, bottom - s * 0.25)
    shine.lineTo(c - w * 0.8, bottom - s * 0.2)
    shine.closeSubpath()
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(255, 240, 220, 55))
    p.drawPath(shine)
    p.end()
    return img


def write_icon(path: Path = ICON_PATH, size: int = 256) -> Path:
    """Paint the icon into ``path`` (run once by hand; the PNG is committed)."""
    if QGuiApplication.instance() is None:
        raise RuntimeError("a QGuiApplication must exist to paint the icon")
    path.parent.mkdir(parents=True, exist_ok=True)
    paint_icon(size).save(str(path))
    return path
