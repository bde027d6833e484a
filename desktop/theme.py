"""The look of Blacksalt: bundled fonts, the grim-dark palette, and one app-wide Qt stylesheet.

Screens use standard widgets and mark what they are with a dynamic property, never their own colours::

    title = QLabel("The Drowned Crypt")
    title.setProperty("role", "title")        # title, subtitle, muted, danger, good, gold, panel, log, primary

Custom painting takes its colours from :data:`COLORS` and its fonts from :func:`ui_font` / :func:`serif_font`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QColor, QFont, QPalette

from desktop.resources import fonts_dir, icons_dir

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from desktop.settings import Settings

FONTS_DIR: Path = fonts_dir()
ICONS_DIR: Path = icons_dir()

#: The palette: near-black warm stone, parchment ink, blood red, tarnished gold.
COLORS: dict[str, str] = {
    "bg": "#15120e",
    "panel": "#201b15",
    "panel_alt": "#2a231b",
    "ink": "#e6dbc3",
    "muted": "#9c907a",
    "accent": "#8e1b1b",
    "accent_hover": "#a82424",
    "accent_dark": "#5e1212",
    "gold": "#b08d57",
    "good": "#6f8f4e",
    "danger": "#c0392b",
    "border": "#3b3126",
    "paper": "#efe4c8",
    "paper_ink": "#2a2118",
    "shadow": "#0c0a07",
}

UI_FAMILY = "DejaVu Sans"
SERIF_FAMILY = "DejaVu Serif"
MONO_FAMILY = "DejaVu Sans Mono"


def load_fonts() -> list[str]:
    """Register the bundled fonts with Qt (once per process); returns the families they provide."""
    from desktop.render.fonts import bundled_families

    return list(bundled_families())


def icon(name: str) -> str:
    """A bundled icon's path as the stylesheet wants it (forward slashes, also on Windows)."""
    return (ICONS_DIR / name).as_posix()


def color(key: str) -> QColor:
    """A palette colour as a QColor."""
    return QColor(COLORS[key])


#: The settings' text size in force (:func:`apply_theme` sets it); :func:`sized` scales a widget's own font by it.
TEXT_PT = 10.5


def sized(pt: float) -> float:
    """A label's own point size ``pt`` (chosen at the default text size) at the player's text size: set with
    ``setFont``, it would otherwise stay small at text size 20 beside everything else grown."""
    return pt * TEXT_PT / 10.5


def _font(family: str, hint: QFont.StyleHint, pt: float, bold: bool, italic: bool) -> QFont:
    f = QFont(family)
    f.setStyleHint(hint)
    f.setPointSizeF(max(1.0, float(pt)))
    f.setBold(bold)
    f.setItalic(italic)
    return f


def ui_font(pt: float = 10, bold: bool = False) -> QFont:
    """The interface font (DejaVu Sans)."""
    return _font(UI_FAMILY, QFont.StyleHint.SansSerif, pt, bold, False)


def serif_font(pt: float = 12, bold: bool = False, italic: bool = False) -> QFont:
    """The book font for titles and narration (DejaVu Serif)."""
    return _font(SERIF_FAMILY, QFont.StyleHint.Serif, pt, bold, italic)


def mono_font(pt: float = 10) -> QFont:
    """Fixed-width, for dice and seeds."""
    return _font(MONO_FAMILY, QFont.StyleHint.Monospace, pt, False, False)


def palette() -> QPalette:
    """A QPalette matching the stylesheet, for widgets and dialogs the stylesheet does not reach."""
    c = COLORS
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: c["bg"],
        QPalette.ColorRole.WindowText: c["ink"],
        QPalette.ColorRole.Base: c["panel"],
        QPalette.ColorRole.AlternateBase: c["panel_alt"],
        QPalette.ColorRole.Text: c["ink"],
        QPalette.ColorRole.Button: c["panel_alt"],
        QPalette.ColorRole.ButtonText: c["ink"],
        QPalette.ColorRole.BrightText: c["paper"],
        QPalette.ColorRole.Highlight: c["accent"],
        QPalette.ColorRole.HighlightedText: c["paper"],
        QPalette.ColorRole.ToolTipBase: c["paper"],
        QPalette.ColorRole.ToolTipText: c["paper_ink"],
        QPalette.ColorRole.PlaceholderText: c["muted"],
        QPalette.ColorRole.Link: c["gold"],
        QPalette.ColorRole.LinkVisited: c["gold"],
        QPalette.ColorRole.Mid: c["border"],
        QPalette.ColorRole.Dark: c["shadow"],
        QPalette.ColorRole.Light: c["panel_alt"],
    }
    for role, value in roles.items():
        p.setColor(role, QColor(value))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(COLORS["muted"]).darker(140))
    return p


def stylesheet(text_pt: float = 10.5) -> str:
    """The whole application's Qt stylesheet, every size scaled from ``text_pt`` (the settings' text size)."""
    c = COLORS
    pt = float(text_pt)

    def s(factor: float, cap: float | None = None) -> str:
        """``factor`` times the text size; display type stops growing at ``cap`` points (a 68-point title at
        text size 20 left no room for what it names)."""
        size = pt * factor if cap is None else min(pt * factor, max(cap, pt * 1.2))
        return f"{size:.1f}pt"

    return f"""
/* no font rule for every widget: app.setFont() sets the default, so a widget's own setFont() still wins */
QWidget {{
    color: {c["ink"]};
    selection-background-color: {c["accent"]};
    selection-color: {c["paper"]};
}}
QMainWindow, QDialog, QStackedWidget, QWidget[role="screen"] {{ background-color: {c["bg"]}; }}
QWidget:disabled {{ color: #6b6252; }}

/* ---- labels and their roles ---- */
QLabel {{ background: transparent; color: {c["ink"]}; }}
QLabel[role="title"] {{
    font-family: "{SERIF_FAMILY}";
    font-size: {s(2.4, 30)};
    font-weight: bold;
    color: {c["paper"]};
    letter-spacing: 1px;
}}
QLabel[role="hero"] {{
    font-family: "{SERIF_FAMILY}";
    font-size: {s(3.4, 40)};
    font-weight: bold;
    color: {c["paper"]};
    letter-spacing: 3px;
}}
QLabel[role="subtitle"] {{
    font-family: "{SERIF_FAMILY}";
    font-size: {s(1.35)};
    font-style: italic;
    color: {c["gold"]};
}}
QLabel[role="heading"] {{
    font-family: "{SERIF_FAMILY}";
    font-size: {s(1.25)};
    font-weight: bold;
    color: {c["paper"]};
}}
QLabel[role="muted"] {{ color: {c["muted"]}; }}
QLabel[role="unavailable"] {{ color: #7a705f; }}
QLabel[role="reason"] {{ color: #c4806e; font-style: italic; }}
QLabel[role="danger"] {{ color: {c["danger"]}; font-weight: bold; }}
QLabel[role="good"] {{ color: {c["good"]}; font-weight: bold; }}
QLabel[role="gold"] {{ color: {c["gold"]}; }}
QLabel[role="log"] {{ font-family: "{SERIF_FAMILY}"; color: {c["ink"]}; }}

/* ---- panels ---- */
QFrame[role="panel"] {{
    background-color: {c["panel"]};
    border: 1px solid {c["border"]};
    border-radius: 4px;
}}
QFrame[role="panel_alt"] {{
    background-color: {c["panel_alt"]};
    border: 1px solid {c["border"]};
    border-radius: 4px;
}}
QFrame[frameShape="4"], QFrame[frameShape="5"] {{ color: {c["border"]}; background: {c["border"]}; }}
QSplitter::handle {{ background: {c["border"]}; }}
QSplitter::handle:horizontal {{ width: 2px; }}
QSplitter::handle:vertical {{ height: 2px; }}

/* ---- buttons ---- */
QPushButton, QToolButton {{
    background-color: {c["panel_alt"]};
    color: {c["ink"]};
    border: 1px solid {c["border"]};
    border-radius: 3px;
    padding: 6px 14px;
    min-height: 1.4em;
}}
QPushButton:hover, QToolButton:hover {{
    background-color: #352c22;
    border-color: {c["gold"]};
}}
QPushButton:pressed, QToolButton:pressed {{ background-color: {c["shadow"]}; }}
QPushButton:focus, QToolButton:focus {{ border-color: {c["gold"]}; outline: none; }}
QPushButton:checked, QToolButton:checked {{
    background-color: {c["accent_dark"]};
    border-color: {c["accent_hover"]};
    color: {c["paper"]};
}}
QPushButton:disabled, QToolButton:disabled {{
    background-color: #1b1712;
    color: #5f5747;
    border-color: #2a241c;
}}
QPushButton[unavailable="true"] {{ background-color: #161310; border: 1px dashed #3b3126; }}
QPushButton[role="primary"] {{
    background-color: {c["accent"]};
    color: {c["paper"]};
    border: 1px solid {c["accent_hover"]};
    font-weight: bold;
}}
QPushButton[role="primary"]:hover {{ background-color: {c["accent_hover"]}; border-color: {c["gold"]}; }}
QPushButton[role="primary"]:pressed {{ background-color: {c["accent_dark"]}; }}
QPushButton[role="primary"]:disabled {{
    background-color: #2e1a17;
    color: #7a6a5c;
    border-color: #3b2620;
}}
QPushButton[role="danger"] {{
    background-color: #2a1513;
    color: {c["danger"]};
    border: 1px solid {c["danger"]};
}}
QPushButton[role="danger"]:hover {{ background-color: #3a1a16; color: #e25544; }}
QPushButton[role="gold"] {{ color: {c["gold"]}; border-color: {c["gold"]}; }}
QPushButton[cell="true"] {{ padding: 1px 8px; min-height: 0; }}
QPushButton[role="menu"] {{
    font-family: "{SERIF_FAMILY}";
    font-size: {s(1.3)};
    text-align: left;
    padding: 8px 18px;
    background-color: rgba(32, 27, 21, 0.92);
}}
QPushButton[role="menu"]:hover {{ background-color: {c["accent_dark"]}; border-color: {c["accent_hover"]}; }}
QPushButton[role="menu"]:disabled {{ color: #5f5747; background-color: rgba(27, 23, 18, 0.9); }}
QPushButton[role="primary_menu"] {{
    font-family: "{SERIF_FAMILY}";
    font-size: {s(1.4)};
    font-weight: bold;
    text-align: left;
    padding: 8px 18px;
    background-color: {c["accent"]};
    color: {c["paper"]};
    border: 1px solid {c["accent_hover"]};
}}
QPushButton[role="primary_menu"]:hover {{ background-color: {c["accent_hover"]}; border-color: {c["gold"]}; }}
QPushButton[role="primary_menu"]:focus {{ border-color: {c["gold"]}; }}
QPushButton[role="primary_menu"]:disabled {{
    background-color: rgba(46, 26, 23, 0.9);
    color: #7a6a5c;
    border-color: #3b2620;
}}
/* the button the keys will press: a 2 px gold frame on every kind (1 px on a red button could not be seen from the
   keyboard); the padding gives the extra pixel back, so nothing moves when the focus does */
QPushButton:focus, QToolButton:focus {{ border: 2px solid {c["gold"]}; padding: 5px 13px; }}
QPushButton[cell="true"]:focus {{ padding: 0px 7px; }}
QPushButton[role="menu"]:focus, QPushButton[role="primary_menu"]:focus {{ padding: 7px 17px; }}
QPushButton[role="link"] {{
    background: transparent;
    border: none;
    color: {c["gold"]};
    text-decoration: underline;
    padding: 2px 4px;
}}

/* ---- item views ---- */
QListWidget, QListView, QTreeWidget, QTreeView, QTableWidget, QTableView {{
    background-color: {c["panel"]};
    alternate-background-color: {c["panel_alt"]};
    border: 1px solid {c["border"]};
    border-radius: 3px;
    outline: none;
}}
QListWidget::item, QListView::item, QTreeView::item {{ padding: 5px 6px; border: none; }}
QTableView::item {{ padding: 4px 6px; border: none; }}
QListWidget::item:hover, QListView::item:hover, QTreeView::item:hover, QTableView::item:hover {{
    background-color: #33291f;
}}
QListWidget::item:selected, QListView::item:selected, QTreeView::item:selected, QTableView::item:selected {{
    background-color: {c["accent"]};
    color: {c["paper"]};
}}
QTableView {{ gridline-color: {c["border"]}; }}
QHeaderView {{ background-color: {c["panel_alt"]}; border: none; }}
QHeaderView::section {{
    background-color: {c["panel_alt"]};
    color: {c["gold"]};
    border: none;
    border-right: 1px solid {c["border"]};
    border-bottom: 1px solid {c["border"]};
    padding: 5px 8px;
    font-weight: bold;
}}
QTableCornerButton::section {{ background-color: {c["panel_alt"]}; border: none; }}

/* ---- the GM's log and rich text ---- */
QTextBrowser, QTextEdit, QPlainTextEdit {{
    background-color: {c["panel"]};
    color: {c["ink"]};
    border: 1px solid {c["border"]};
    border-radius: 3px;
    padding: 4px;
}}
QTextBrowser[role="log"], QTextEdit[role="log"], QPlainTextEdit[role="log"] {{
    font-family: "{SERIF_FAMILY}";
    font-size: {s(1.05)};
    background-color: #1a1611;
    color: {c["ink"]};
    padding: 8px 10px;
}}

/* ---- tabs ---- */
QTabWidget::pane {{
    border: 1px solid {c["border"]};
    border-radius: 3px;
    top: -1px;
    background-color: {c["panel"]};
}}
QTabBar {{ background: transparent; }}
QTabBar::tab {{
    background-color: {c["bg"]};
    color: {c["muted"]};
    border: 1px solid {c["border"]};
    border-bottom: none;
    padding: 6px 16px;
    margin-right: 2px;
    border-top-left-radius: 3px;
    border-top-right-radius: 3px;
}}
QTabBar::tab:hover {{ color: {c["ink"]}; }}
QTabBar::tab:selected {{
    background-color: {c["panel"]};
    color: {c["paper"]};
    border-top: 2px solid {c["accent_hover"]};
}}

/* ---- inputs ---- */
QLineEdit, QSpinBox, QDoubleSpinBox, QComboBox {{
    background-color: {c["shadow"]};
    color: {c["ink"]};
    border: 1px solid {c["border"]};
    border-radius: 3px;
    padding: 4px 8px;
    min-height: 1.3em;
    selection-background-color: {c["accent"]};
}}
QLineEdit:focus, QSpinBox:focus, QDoubleSpinBox:focus, QComboBox:focus {{ border-color: {c["gold"]}; }}
QLineEdit:disabled, QSpinBox:disabled, QComboBox:disabled {{ color: #5f5747; background-color: #15120e; }}
QSpinBox::up-button, QSpinBox::down-button, QDoubleSpinBox::up-button, QDoubleSpinBox::down-button {{
    background-color: {c["panel_alt"]};
    border-left: 1px solid {c["border"]};
    width: 16px;
}}
QSpinBox::up-button:hover, QSpinBox::down-button:hover {{ background-color: #3a3025; }}
QSpinBox::up-arrow, QDoubleSpinBox::up-arrow {{ image: url({icon("arrow-up.svg")}); width: 8px; height: 8px; }}
QSpinBox::down-arrow, QDoubleSpinBox::down-arrow {{ image: url({icon("arrow-down.svg")}); width: 8px; height: 8px; }}
QComboBox::drop-down {{ border: none; width: 22px; }}
QComboBox::down-arrow {{ image: url({icon("arrow-down.svg")}); width: 10px; height: 10px; }}
QComboBox QAbstractItemView {{
    background-color: {c["panel"]};
    color: {c["ink"]};
    border: 1px solid {c["border"]};
    selection-background-color: {c["accent"]};
    selection-color: {c["paper"]};
}}

/* ---- check boxes, radio buttons ---- */
QCheckBox, QRadioButton {{ background: transparent; spacing: 8px; }}
QCheckBox::indicator, QRadioButton::indicator {{
    width: 15px; height: 15px;
    background-color: {c["shadow"]};
    border: 1px solid {c["muted"]};
}}
QCheckBox::indicator {{ border-radius: 2px; }}
QRadioButton::indicator {{ border-radius: 8px; }}
QCheckBox::indicator:hover, QRadioButton::indicator:hover {{ border-color: {c["gold"]}; }}
QCheckBox::indicator:checked {{
    background-color: {c["accent"]};
    border-color: {c["gold"]};
    image: url({icon("check.svg")});
}}
QRadioButton::indicator:checked {{
    background-color: {c["accent_hover"]};
    border-color: {c["gold"]};
}}
QCheckBox::indicator:disabled {{ border-color: #4a4032; background-color: #1b1712; }}

/* ---- sliders and progress ---- */
QSlider {{ background: transparent; min-height: 22px; }}
QSlider::groove:horizontal {{
    height: 4px;
    background: {c["border"]};
    border-radius: 2px;
}}
QSlider::sub-page:horizontal {{ background: {c["accent"]}; border-radius: 2px; }}
QSlider::handle:horizontal {{
    background: {c["gold"]};
    border: 1px solid {c["shadow"]};
    width: 14px;
    margin: -6px 0;
    border-radius: 7px;
}}
QSlider::handle:horizontal:hover {{ background: {c["paper"]}; }}
QProgressBar {{
    background-color: {c["shadow"]};
    border: 1px solid {c["border"]};
    border-radius: 3px;
    color: {c["paper"]};
    text-align: center;
    min-height: 1.1em;
}}
QProgressBar::chunk {{ background-color: {c["accent"]}; border-radius: 2px; }}

/* ---- scroll bars: thin and dark ---- */
QScrollArea {{ background: transparent; border: none; }}
QScrollArea > QWidget > QWidget {{ background: transparent; }}
QScrollBar:vertical {{ background: {c["bg"]}; width: 9px; margin: 0; border: none; }}
QScrollBar:horizontal {{ background: {c["bg"]}; height: 9px; margin: 0; border: none; }}
QScrollBar::handle:vertical, QScrollBar::handle:horizontal {{
    background: #4a3e30;
    border-radius: 4px;
    min-height: 24px;
    min-width: 24px;
}}
QScrollBar::handle:hover {{ background: {c["gold"]}; }}
QScrollBar::add-line, QScrollBar::sub-line {{ width: 0; height: 0; border: none; background: none; }}
QScrollBar::add-page, QScrollBar::sub-page {{ background: none; }}

/* ---- tooltips: parchment ---- */
QToolTip {{
    background-color: {c["paper"]};
    color: {c["paper_ink"]};
    border: 1px solid {c["gold"]};
    padding: 6px 8px;
    font-family: "{SERIF_FAMILY}";
    font-size: {s(0.95)};
}}

/* ---- menus ---- */
QMenuBar {{ background-color: {c["shadow"]}; color: {c["ink"]}; border-bottom: 1px solid {c["border"]}; }}
QMenuBar::item {{ background: transparent; padding: 4px 10px; }}
QMenuBar::item:selected {{ background-color: {c["accent_dark"]}; color: {c["paper"]}; }}
QMenu {{
    background-color: {c["panel"]};
    color: {c["ink"]};
    border: 1px solid {c["border"]};
    padding: 4px 0;
}}
QMenu::item {{ padding: 5px 26px 5px 20px; background: transparent; }}
QMenu::item:selected {{ background-color: {c["accent"]}; color: {c["paper"]}; }}
QMenu::item:disabled {{ color: #5f5747; }}
QMenu::separator {{ height: 1px; background: {c["border"]}; margin: 4px 8px; }}
QStatusBar {{ background-color: {c["shadow"]}; color: {c["muted"]}; border-top: 1px solid {c["border"]}; }}

/* ---- dialogs ---- */
QMessageBox, QInputDialog, QFileDialog {{ background-color: {c["panel"]}; }}
QMessageBox QLabel {{ color: {c["ink"]}; background: transparent; }}
QMessageBox QPushButton, QDialogButtonBox QPushButton {{ min-width: 80px; }}
QGroupBox {{
    background-color: {c["panel"]};
    border: 1px solid {c["border"]};
    border-radius: 4px;
    margin-top: 1.5em;
    padding: 10px 8px 8px 8px;
}}
QGroupBox::title {{
    subcontrol-origin: margin;
    subcontrol-position: top left;
    left: 10px;
    padding: 0 2px;
    color: {c["gold"]};
    font-family: "{SERIF_FAMILY}";
    font-weight: bold;
}}
"""


def apply_theme(app: QApplication, settings: Settings | None = None) -> None:
    """Load the fonts and dress the whole application (again, after the text size changed)."""
    load_fonts()
    global TEXT_PT
    pt = settings.text_size if settings is not None else 10.5
    TEXT_PT = pt
    app.setStyle("Fusion")
    app.setPalette(palette())
    app.setFont(ui_font(pt))
    app.setStyleSheet(stylesheet(pt))
