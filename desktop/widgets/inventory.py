"""An adventurer's trappings as a paper doll: the body's places (hands, torso) and the containers (belt, canteen,
bag or backpack, pouches, a mule's packs), each slot a cell and each item a tile with its usage die and rarity.

The view holds no rules.  What an item may do comes from the engine's legal actions: dragging an item onto a
place emits the engine's action that puts it there (in combat, "take the ... in hand": the only moving of items
the engine offers), and a right click lists every legal action that names the item (use it, sell it, equip it).
Anywhere the engine offers no such action, the tiles stay where they are.

>>> view = InventoryView(session, "a1")
>>> view.act.connect(session.apply)         # or a GameScreen relays it like a phase view's ``act``
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QDrag,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QFontMetrics,
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTabBar,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import COLORS, serif_font, sized, ui_font
from rules.attributes import Attr
from rules.inventory import HANDS, TORSO, Carried, Inventory, Place

if TYPE_CHECKING:
    from desktop.session import Session
    from rules.gm.events import Action, Event
    from rules.gm.state import Member

MIME = "application/x-blacksalt-item"
CELL_W, CELL_H, GAP = 118, 58, 4
CELL_MIN = 70  # the narrowest slot
WIDE = 1100  # from this width on, the selected item's panel shows beside the doll

#: Tile border colour per rarity (keys of :data:`desktop.theme.COLORS`).
RARITY_COLOR = {
    "free": "muted",
    "common": "border",
    "uncommon": "good",
    "valuable": "gold",
    "rare": "accent",
    "exotic": "danger",
}


#: The market's actions name a ware, not an item carried.
MARKET_KINDS = ("buy", "buy_for", "haggle", "restock")


def _color(key: str) -> QColor:
    return QColor(COLORS.get(key, "#888888"))


def find_member(session: Session, member_id: str) -> Member | None:
    """The member with ``member_id`` among the party, the fallen and the retired."""
    c = session.campaign
    return next((m for m in [*c.party, *c.fallen, *c.retired] if m.id == member_id), None)


@dataclass
class ItemInfo:
    """What a tile shows of a carried item (all read from the state and the content)."""

    index: int  # in the inventory's item list
    item: Carried
    rarity: str
    text: str  # the table's text, for the tooltip


def _item_texts(session: Session) -> dict[str, tuple[str, str]]:
    """name (lower case) -> (rarity, text) from the equipment tables."""
    content = session.gm.content
    out: dict[str, tuple[str, str]] = {}
    for i in content.items.items:
        out[i.name.lower()] = (i.rarity, i.text)
    for w in content.weapons.weapons:
        out.setdefault(w.name.lower(), (w.rarity, f"{w.notation}. {getattr(w, 'text', '') or ''}".strip()))
    for a in content.armor.armor:
        out.setdefault(a.name.lower(), (a.rarity, str(getattr(a, "text", "") or "")))
    for s in content.armor.shields:
        out.setdefault(s.name.lower(), (s.rarity, str(getattr(s, "text", "") or "")))
    return out


def item_actions(actions: list[Action], member_id: str, index: int, item: Carried) -> list[Action]:
    """The legal actions that name this item of this member (use, equip, sell, camp items...)."""
    out = []
    for a in actions:
        if a.kind == "give":  # handed over by its owner, or taken from one who cannot act
            if a.param("from") == member_id and a.param("index") == index:
                out.append(a)
            continue
        if a.who != member_id:
            continue
        if a.kind == "sell_item":
            if a.param("index") == index:
                out.append(a)
        elif a.param("item") == item.name or (a.target == item.name and a.kind not in MARKET_KINDS):
            out.append(a)
    return out


def drop_action(actions: list[Action], member_id: str, item: Carried, place: str, index: int = -1) -> Action | None:
    """The engine's action that puts ``item`` (at ``index`` of the inventory) in ``place``: rearranging the
    trappings out of combat (``stow``), or taking a carried weapon or shield in hand (``equip``, also in
    combat).  None where the engine has no such action (then the drop is refused)."""
    for a in actions:
        if (a.who == member_id and a.kind == "stow" and a.available and a.param("index") == index
                and a.param("place") == place):  # fmt: skip
            return a
    if place not in HANDS or item.place in HANDS:
        return None
    for a in actions:
        if a.who == member_id and a.kind == "equip" and a.param("item") == item.name and a.available:
            return a
    return None


# --- one place: its slots and the items in them ---------------------------------------------------------------


class PlaceBox(QWidget):
    """A place (a hand, the torso, a container) painted as its slot cells with the items in them."""

    def __init__(self, view: InventoryView, place: Place, cols: int) -> None:
        super().__init__(view)
        self.view = view
        self.place = place
        self.cols = max(1, cols)
        self.items: list[ItemInfo] = []
        self._cells: list[tuple[QRect, ItemInfo | None, bool]] = []  # rect, item, first cell of the item
        self._press: QPoint | None = None
        self._press_item: ItemInfo | None = None
        self._hover_ok: bool | None = None  # a drag over this place: will it drop?
        self.setAcceptDrops(True)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    # --- layout ---------------------------------------------------------------------------------------------

    def set_items(self, items: list[ItemInfo]) -> None:
        self.items = items
        self._layout_cells()
        self.updateGeometry()
        self.update()

    def _units(self) -> list[ItemInfo | None]:
        """One entry per cell: the item in it, or None for an empty slot."""
        units: list[ItemInfo | None] = []
        for info in self.items:
            units += [info] * max(1, info.item.slots)  # a slot-free item still shows, in a cell of its own
        units += [None] * max(0, self.place.slots - sum(max(1, i.item.slots) for i in self.items if i.item.slots))
        return units

    def _layout_cells(self) -> None:
        self._cells = []
        top = 26
        seen: set[int] = set()
        for n, info in enumerate(self._units()):
            row, col = divmod(n, self.cols)
            cw = self.view.cell_w
            rect = QRect(col * (cw + GAP), top + row * (CELL_H + GAP), cw, CELL_H)
            first = info is not None and id(info) not in seen
            if info is not None:
                seen.add(id(info))
            self._cells.append((rect, info, first))

    def sizeHint(self) -> QSize:
        n = max(1, len(self._units()))
        rows = (n + self.cols - 1) // self.cols
        cols = min(self.cols, n) if n >= self.cols else self.cols
        return QSize(cols * (self.view.cell_w + GAP) - GAP, 26 + rows * (CELL_H + GAP) - GAP + 2)

    # --- painting -------------------------------------------------------------------------------------------

    def _spans(self) -> list[tuple[QRect, ItemInfo | None, int]]:
        """Cells merged per item and row: (rect, item, index of the unit)."""
        spans: list[tuple[QRect, ItemInfo | None, int]] = []
        for n, (rect, info, _first) in enumerate(self._cells):
            prev_rect = spans[-1][0] if spans else QRect()
            same_line = prev_rect.top() == rect.top() or (self.cols == 1 and prev_rect.left() == rect.left())
            if spans and info is not None and spans[-1][1] is info and same_line:
                prev = spans[-1][0]
                spans[-1] = (prev.united(rect), info, spans[-1][2])
            else:
                spans.append((QRect(rect), info, n))
        return spans

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        used = sum(i.item.slots for i in self.items)
        over = used > self.place.slots
        p.setFont(ui_font(9, bold=True))
        p.setPen(_color("danger") if over else _color("gold"))
        title = self.place.name.upper()
        p.drawText(QRect(0, 0, self.width(), 20), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)
        p.setPen(_color("danger") if over else _color("muted"))
        p.setFont(ui_font(9))
        p.drawText(QRect(0, 0, self.width(), 20), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                   f"{used}/{self.place.slots}")  # fmt: skip
        if self._hover_ok is not None:
            p.setPen(QPen(_color("good") if self._hover_ok else _color("danger"), 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(QRectF(self.rect().adjusted(1, 22, -1, -1)), 5, 5)
        for rect, info, _n in self._spans():
            if info is None:
                pen = QPen(_color("border"), 1, Qt.PenStyle.DashLine)
                p.setPen(pen)
                p.setBrush(_color("bg"))
                p.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
                if self.place.liquid_only:
                    p.setPen(_color("border"))
                    p.setFont(ui_font(8))
                    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, "liquids only")
                    p.setFont(ui_font(9))
                continue
            self._paint_tile(p, rect, info)
        p.end()

    def _paint_tile(self, p: QPainter, rect: QRect, info: ItemInfo) -> None:
        item = info.item
        if info.index == self.view.selected:
            p.setPen(QPen(_color("paper"), 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(QRectF(rect).adjusted(-2, -2, 2, 2), 5, 5)
        grip = item.name.startswith("(")
        border = _color(RARITY_COLOR.get(info.rarity, "border"))
        fill = QColor(COLORS["panel_alt"]) if not grip else QColor(COLORS["bg"])
        if item.equipped:
            fill = fill.lighter(125)
        p.setPen(QPen(border, 2 if info.rarity not in ("", "free", "common") else 1))
        p.setBrush(fill)
        r = QRectF(rect).adjusted(1, 1, -1, -1)
        p.drawRoundedRect(r, 4, 4)
        if grip:
            p.setPen(QPen(_color("border"), 1))
            for x in range(rect.left() - rect.height(), rect.right(), 10):
                p.drawLine(x, rect.bottom() - 2, x + rect.height() - 4, rect.top() + 2)
        inner = rect.adjusted(6, 3, -6, -3)
        p.setPen(_color("muted") if grip else _color("ink"))
        p.setFont(serif_font(9.5, bold=item.equipped))
        fm = QFontMetrics(p.font())
        name = item.name + (f" ×{item.count}" if item.count > 1 else "")
        box = inner.adjusted(0, 0, 0, -16)
        if fm.horizontalAdvance(name) > box.width() and box.height() >= 2 * fm.height():
            first, _, rest = name.partition(" ")
            while rest and fm.horizontalAdvance(first + " " + rest.split(" ")[0]) <= box.width():
                word, _, rest = rest.partition(" ")
                first += " " + word
            name = first + "\n" + fm.elidedText(rest, Qt.TextElideMode.ElideRight, box.width())
        else:
            name = fm.elidedText(name, Qt.TextElideMode.ElideRight, box.width())
        p.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, name)
        # bottom line: usage die, rarity, equipped
        p.setFont(ui_font(8))
        bits: list[tuple[str, str]] = []
        if item.usage is not None:
            bits.append((f"Ud{item.usage}", "danger" if item.usage <= 4 else "gold"))
        if info.rarity and not grip:
            bits.append((info.rarity, RARITY_COLOR.get(info.rarity, "muted")))
        if item.equipped:
            bits.append(("worn" if item.place == TORSO else "in hand", "good"))
        if grip:
            bits.append(("two-handed grip", "muted"))
        x = inner.left()
        fm8 = QFontMetrics(p.font())
        for text, key in bits:
            w = fm8.horizontalAdvance(text) + 8
            if x + w > inner.right() + 2:
                break
            badge = QRect(x, inner.bottom() - 14, w, 14)
            p.setPen(Qt.PenStyle.NoPen)
            c = _color(key)
            c.setAlpha(60)
            p.setBrush(c)
            p.drawRoundedRect(QRectF(badge), 3, 3)
            p.setPen(_color(key) if key != "border" else _color("ink"))
            p.drawText(badge, Qt.AlignmentFlag.AlignCenter, text)
            x += w + 4

    # --- hit testing, tooltips, menus -----------------------------------------------------------------------

    def item_at(self, pos: QPoint) -> ItemInfo | None:
        for rect, info, _first in self._cells:
            if rect.contains(pos):
                return info
        return None

    def tile_rect(self, index: int) -> QRect | None:
        """The first cell of the item at ``index`` of the inventory (tests click there)."""
        for rect, info, first in self._cells:
            if info is not None and first and info.index == index:
                return rect
        return None

    def event(self, e: object) -> bool:
        if isinstance(e, QHelpEvent):
            info = self.item_at(e.pos())
            if info is None:
                QToolTip.showText(e.globalPos(), self.view.place_tooltip(self.place), self)
            else:
                QToolTip.showText(e.globalPos(), self.view.item_tooltip(info), self)
            return True
        return super().event(e)  # type: ignore[arg-type]

    def mousePressEvent(self, e: QMouseEvent) -> None:
        info = self.item_at(e.position().toPoint())
        if e.button() == Qt.MouseButton.RightButton and info is not None:
            self.view.show_item_menu(info, self.mapToGlobal(e.position().toPoint()))
            return
        if e.button() == Qt.MouseButton.LeftButton:
            self._press = e.position().toPoint()
            self._press_item = info
            if info is not None:
                self.view.select(info.index)

    def mouseMoveEvent(self, e: QMouseEvent) -> None:
        if self._press is None or self._press_item is None or not (e.buttons() & Qt.MouseButton.LeftButton):
            return
        if (e.position().toPoint() - self._press).manhattanLength() < 8:
            return
        info = self._press_item
        self._press = self._press_item = None
        if info.item.name.startswith("(") or not self.view.can_drag(info):
            return
        drag = QDrag(self)
        mime = QMimeData()
        mime.setData(MIME, str(info.index).encode())
        drag.setMimeData(mime)
        rect = self.tile_rect(info.index) or QRect(0, 0, self.view.cell_w, CELL_H)
        pix = QPixmap(rect.size())
        pix.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pix)
        self._paint_tile(painter, QRect(QPoint(0, 0), rect.size()), info)
        painter.end()
        drag.setPixmap(pix)
        drag.exec(Qt.DropAction.MoveAction)

    def mouseReleaseEvent(self, e: QMouseEvent) -> None:
        self._press = self._press_item = None

    def mouseDoubleClickEvent(self, e: QMouseEvent) -> None:
        info = self.item_at(e.position().toPoint())
        if info is not None:
            acts = [a for a in self.view.item_actions(info) if a.available]
            if len(acts) == 1:
                self.view.act.emit(acts[0])

    # --- drops ----------------------------------------------------------------------------------------------

    def _dragged(self, mime: QMimeData) -> int | None:
        return dragged_index(mime)

    def dragEnterEvent(self, e: QDragEnterEvent) -> None:
        index = self._dragged(e.mimeData())
        if index is None:
            e.ignore()
            return
        action = self.view.drop_action_for(index, self.place.name)
        self._hover_ok = action is not None
        self.update()
        e.accept()  # accepted to show the verdict; refused on drop if there is no action

    def dragMoveEvent(self, e: QDragMoveEvent) -> None:
        if self._hover_ok:
            e.acceptProposedAction()
        else:
            e.ignore()

    def dragLeaveEvent(self, e: object) -> None:
        self._hover_ok = None
        self.update()

    def dropEvent(self, e: QDropEvent) -> None:
        self._hover_ok = None
        self.update()
        index = self._dragged(e.mimeData())
        if index is None:
            e.ignore()
            return
        if self.view.drop(index, self.place.name):
            e.acceptProposedAction()
        else:
            e.ignore()


def dragged_index(mime: QMimeData) -> int | None:
    """The index of the carried item a drag holds (None: not one of ours, or damaged)."""
    if not mime.hasFormat(MIME):
        return None
    try:
        return int(bytes(mime.data(MIME).data()).decode())
    except ValueError:
        return None


class GiveTabBar(QTabBar):
    """The inventory dialog's tabs, one per adventurer: an item dragged onto a companion's tab is given to them
    (``give_to(index, tab)`` plays the engine's give action; False when there is none)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.give_to: Callable[[int, int], bool] | None = None

    @staticmethod
    def _index(mime: QMimeData) -> int | None:
        return dragged_index(mime)

    def dragEnterEvent(self, e: QDragEnterEvent) -> None:
        if self._index(e.mimeData()) is not None:
            e.acceptProposedAction()
        else:
            e.ignore()

    def dragMoveEvent(self, e: QDragMoveEvent) -> None:
        tab = self.tabAt(e.position().toPoint())
        if tab >= 0 and tab != self.currentIndex() and self._index(e.mimeData()) is not None:
            e.acceptProposedAction()
        else:
            e.ignore()

    def dropEvent(self, e: QDropEvent) -> None:
        index = self._index(e.mimeData())
        tab = self.tabAt(e.position().toPoint())
        if index is None or tab < 0 or self.give_to is None or not self.give_to(index, tab):
            e.ignore()
            return
        e.acceptProposedAction()


# --- the view -------------------------------------------------------------------------------------------------


class InventoryView(QWidget):
    """A member's trappings.  ``act`` carries an engine action chosen here (an item used, equipped, sold)."""

    act = Signal(object)

    def __init__(self, session: Session, member_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.member_id = member_id
        self.selected: int | None = None
        self.cell_w = CELL_W  # a slot's width: narrower in a narrow window (see resizeEvent)
        self._texts = _item_texts(session)
        self._actions: list[Action] | None = None
        self.boxes: dict[str, PlaceBox] = {}

        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 10, 12, 10)
        outer.setSpacing(8)

        head = QHBoxLayout()
        self.title = QLabel()
        self.title.setProperty("role", "heading")
        self.subtitle = QLabel()
        self.subtitle.setProperty("role", "muted")
        names = QVBoxLayout()
        names.setSpacing(0)
        names.addWidget(self.title)
        names.addWidget(self.subtitle)
        head.addLayout(names, 1)
        load = QVBoxLayout()
        load.setSpacing(3)
        self.load_label = QLabel()
        self.load_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.load_bar = QProgressBar()
        self.load_bar.setTextVisible(False)
        self.load_bar.setFixedHeight(10)
        self.load_bar.setFixedWidth(260)
        load.addWidget(self.load_label)
        load.addWidget(self.load_bar, 0, Qt.AlignmentFlag.AlignRight)
        head.addLayout(load)
        outer.addLayout(head)

        self.warning = QLabel()
        self.warning.setProperty("role", "danger")
        self.warning.setWordWrap(True)
        self.warning.hide()
        outer.addWidget(self.warning)

        row = QHBoxLayout()
        row.setSpacing(12)
        self.body_panel, self.body_area = self._panel("Body", "Hands, torso, and what hangs on the belt")
        self.packs_panel, self.packs_area = self._panel("Containers", "Bags, pouches and packs")
        row.addWidget(self.body_panel, 0)
        row.addWidget(self.packs_panel, 0)
        self.detail = QFrame()
        self.detail.setProperty("role", "panel")
        self.detail.setMinimumWidth(250)
        dl = QVBoxLayout(self.detail)
        dl.setContentsMargins(14, 12, 14, 12)
        dl.setSpacing(8)
        self.detail_title = QLabel()
        self.detail_title.setProperty("role", "heading")
        self.detail_title.setWordWrap(True)
        self.detail_facts = QLabel()
        self.detail_facts.setProperty("role", "gold")
        self.detail_facts.setWordWrap(True)
        self.detail_text = QLabel()
        self.detail_text.setProperty("role", "log")
        self.detail_text.setWordWrap(True)
        self.detail_text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.detail_buttons = QVBoxLayout()
        self.detail_buttons.setSpacing(4)
        dl.addWidget(self.detail_title)
        dl.addWidget(self.detail_facts)
        dl.addWidget(self.detail_text, 1)
        dl.addLayout(self.detail_buttons)
        row.addWidget(self.detail, 1)
        outer.addLayout(row, 1)

        self.hint = QLabel()
        self.hint.setProperty("role", "muted")
        self.hint.setWordWrap(True)
        outer.addWidget(self.hint)
        self.refresh()

    def _panel(self, title: str, sub: str) -> tuple[QFrame, QScrollArea]:
        frame = QFrame()
        frame.setProperty("role", "panel")
        lay = QVBoxLayout(frame)
        lay.setContentsMargins(14, 10, 14, 12)
        lay.setSpacing(4)
        head = QLabel(title)
        head.setProperty("role", "subtitle")
        lay.addWidget(head)
        note = QLabel(sub)
        note.setProperty("role", "muted")
        note.setWordWrap(True)  # a long line at a large text size set the panel's least width
        note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        lay.addWidget(note)
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        lay.addWidget(area, 1)
        return frame, area

    # --- size ---------------------------------------------------------------------------------------------

    def _fit(self, width: int) -> bool:
        """Slot width and the detail panel for ``width``; True when the doll must be rebuilt."""
        # the item's panel beside the doll only where both fit at the text size (at 20 pt in a 1024 px window the
        # three side by side scrolled sideways); below that the panel gives way and the item shows in the hint
        show_detail = width >= WIDE * max(1.0, sized(10.5) / 10.5)
        fixed = 24 + 2 * 12 + 2 * 28 + 2 * 12 + 10 + (260 if show_detail else 0)
        cell = max(CELL_MIN, min(CELL_W, (width - fixed) // 7 - GAP))
        self.detail.setVisible(show_detail)
        changed = cell != self.cell_w
        self.cell_w = cell
        return changed

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._fit(event.size().width()):
            m = self.member
            if m is not None:
                self._build_doll(m.adv.inventory)

    # --- public ---------------------------------------------------------------------------------------------

    @property
    def member(self) -> Member | None:
        return find_member(self.session, self.member_id)

    def set_member(self, member_id: str) -> None:
        self.member_id = member_id
        self.selected = None
        self.refresh()

    def refresh(self, events: list[Event] | None = None) -> None:
        """Redraw from the state (after every step)."""
        self._actions = None
        m = self.member
        if m is None:
            self.title.setText("No one")
            self.subtitle.setText("")
            return
        ch = m.adv.character
        inv = m.adv.inventory
        self.title.setText(m.name)
        where = "" if m in self.session.campaign.party else f" — {m.fate}"
        self.subtitle.setText(f"{m.adv.klass or 'Adventurer'} · {ch.silver} silver{where}")
        if self.selected is not None and self.selected >= len(inv.items):
            self.selected = None
        self._build_doll(inv)
        self._update_load(m)
        self._update_detail()
        self.hint.setText(self._hint())

    def box(self, place: str) -> PlaceBox:
        return self.boxes[place]

    # --- building -------------------------------------------------------------------------------------------

    def _infos(self, inv: Inventory) -> dict[str, list[ItemInfo]]:
        out: dict[str, list[ItemInfo]] = {p.name: [] for p in inv.places}
        for i, item in enumerate(inv.items):
            rarity, text = self._texts.get(item.name.lower(), ("", ""))
            out.setdefault(item.place, []).append(ItemInfo(i, item, item.rarity or rarity, text))
        return out

    def _build_doll(self, inv: Inventory) -> None:
        self.boxes = {}
        infos = self._infos(inv)
        known = {p.name: p for p in inv.places}
        for name in [*HANDS, TORSO]:
            known.setdefault(name, Place(name, 0))

        body = QWidget()
        grid = QGridLayout(body)
        grid.setContentsMargins(0, 4, 0, 0)
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(12)
        grid.addWidget(self._make_box(known[HANDS[0]], 1, infos), 0, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self._make_box(known[TORSO], 2, infos), 0, 1, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self._make_box(known[HANDS[1]], 1, infos), 0, 2, Qt.AlignmentFlag.AlignTop)
        small = [p for p in inv.places if p.container and p.slots <= 2 and p.on_body]
        for n, p in enumerate(small):
            grid.addWidget(self._make_box(p, 1, infos), 1 + n // 3, n % 3, Qt.AlignmentFlag.AlignTop)
        grid.setRowStretch(2 + len(small) // 3, 1)
        grid.setColumnStretch(3, 1)
        self._swap(self.body_area, body)

        packs = QWidget()
        col = QVBoxLayout(packs)
        col.setContentsMargins(0, 4, 0, 0)
        col.setSpacing(12)
        big = [p for p in inv.places if p.container and p.slots > 2 and p.on_body]
        off = [p for p in inv.places if not p.on_body]
        for p in big + off:
            col.addWidget(self._make_box(p, 3, infos))
        stray = [i for name, lst in infos.items() if name not in self.boxes for i in lst]
        if stray:
            b = PlaceBox(self, Place("Elsewhere", 0), 3)
            b.set_items(stray)
            b.setFixedSize(b.sizeHint())
            self.boxes["Elsewhere"] = b
            col.addWidget(b)
        if not big and not off and not stray:
            none = QLabel("No bag, no pack: only what the body holds.")
            none.setProperty("role", "muted")
            col.addWidget(none)
        col.addStretch(1)
        self._swap(self.packs_area, packs)
        cw = self.cell_w
        self.packs_panel.setFixedWidth(3 * (cw + GAP) + 10 + 28)
        self.body_panel.setFixedWidth(4 * (cw + GAP) + 2 * 12 + 28)

    def _swap(self, area: QScrollArea, widget: QWidget) -> None:
        old = area.takeWidget()
        if old is not None:
            old.deleteLater()
        area.setWidget(widget)

    def _make_box(self, place: Place, cols: int, infos: dict[str, list[ItemInfo]]) -> PlaceBox:
        box = PlaceBox(self, place, cols)
        box.set_items(infos.get(place.name, []))
        box.setFixedSize(box.sizeHint())
        self.boxes[place.name] = box
        return box

    def _update_load(self, m: Member) -> None:
        inv = m.adv.inventory
        strength = m.adv.character.attrs[Attr.STR].score
        cap = inv.capacity(strength)
        used = inv.carried_slots
        over = used > cap
        self.load_label.setText(f"Carried {used} / {cap} slots" + ("  — ENCUMBERED" if over else ""))
        self.load_label.setProperty("role", "danger" if over else "gold")
        self.load_label.style().unpolish(self.load_label)
        self.load_label.style().polish(self.load_label)
        self.load_bar.setMaximum(max(cap, used, 1))
        self.load_bar.setValue(used)
        chunk = COLORS["danger"] if over else (COLORS["gold"] if used >= cap - 1 else COLORS["good"])
        self.load_bar.setStyleSheet(f"QProgressBar::chunk {{ background: {chunk}; border-radius: 2px; }}")
        rule = self.session.gm.content.items.inventory.text
        tip = f"<b>{inv.base_slots} + {inv.slots_per_str} × STR {strength} = {cap} slots.</b><br>{_quote(rule, 420)}"
        self.load_label.setToolTip(tip)
        self.load_bar.setToolTip(tip)
        if over:
            self.warning.setText(f"Encumbered: {used - cap} slot(s) over the limit. Movement is halved and a STR test "
                                 "is due every turn; failing it, something is dropped.")  # fmt: skip
            self.warning.show()
        else:
            self.warning.hide()

    def _update_detail(self) -> None:
        while self.detail_buttons.count():
            child = self.detail_buttons.takeAt(0)
            w = child.widget() if child is not None else None
            if w is not None:
                w.setParent(None)
                w.deleteLater()
        info = self._selected_info()
        if info is None:
            m = self.member
            n = len(m.adv.inventory.items) if m is not None else 0
            self.detail_title.setText("Trappings")
            self.detail_facts.setText(f"{n} item{'s' if n != 1 else ''} carried")
            self.detail_text.setText("Click an item to read it. Hover a place for its rule.")
            return
        item = info.item
        self.detail_title.setText(item.name + (f" ×{item.count}" if item.count > 1 else ""))
        self.detail_facts.setText(self._facts(info))
        self.detail_text.setText(_quote(info.text or item.notes, 600) or "<i>No table text.</i>")
        for a in self.item_actions(info):
            if a.kind == "stow":
                continue  # one per place: dragging the tile (or its right-click menu) does these
            b = QPushButton(self._button_text(a) + (f"  ({a.cost})" if str(a.cost) != "free" else ""))
            b.setEnabled(a.available)
            b.setToolTip(a.label + ". " + (a.reason or _quote(a.rule, 300)) if a.kind == "give" else
                         a.reason or _quote(a.rule, 300))  # fmt: skip
            b.clicked.connect(lambda _=False, action=a: self.act.emit(action))
            self.detail_buttons.addWidget(b)

    def _button_text(self, a: Action) -> str:
        """The words on an item's button: a gift says only to whom (the item and its owner are on screen)."""
        if a.kind != "give":
            return a.label
        party = {m.id: m.name for m in self.session.campaign.party}
        to = party.get(a.target or "", a.target or "")
        if a.who == a.param("from"):
            return f"Give to {to}"
        return f"{party.get(a.who or '', '')} takes it"

    def _selected_info(self) -> ItemInfo | None:
        if self.selected is None:
            return None
        for box in self.boxes.values():
            for info in box.items:
                if info.index == self.selected:
                    return info
        return None

    def _facts(self, info: ItemInfo) -> str:
        item = info.item
        facts = [item.place, f"{item.slots} slot{'s' if item.slots != 1 else ''}"]
        if info.rarity:
            facts.append(info.rarity)
        if item.usage is not None:
            facts.append(f"usage die Ud{item.usage}")
        if item.value:
            facts.append(f"valued {item.value} silver")
        if item.equipped:
            facts.append("worn" if item.place == TORSO else "in hand")
        if item.ap:
            facts.append("AP " + "/".join(str(a) for a in item.ap))
        return " · ".join(facts)

    def _hint(self) -> str:
        acts = self.legal_actions()
        if any(a.kind == "stow" and a.who == self.member_id for a in acts):
            return ("Drag an item to another place to rearrange (free: “players may rearrange their adventurer's "
                    "equipment”); onto a hand to hold or wield it. Right-click an item for more.")  # fmt: skip
        if any(a.kind == "equip" and a.who == self.member_id for a in acts):
            return "Drag a spare weapon or shield onto a hand to take it in hand. Right-click an item for more."
        if any(item_actions(acts, self.member_id, i, it) for i, it in self._items()):
            return "Right-click an item for what can be done with it now; double-click does the only one."
        return "Items stay where they are: the engine moves them only when a rule does (taking a weapon in hand)."

    def _items(self) -> list[tuple[int, Carried]]:
        m = self.member
        return list(enumerate(m.adv.inventory.items)) if m is not None else []

    # --- the engine's actions -------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal actions now (read once per refresh)."""
        if self._actions is None:
            m = self.member
            self._actions = self.session.actions() if m is not None and m in self.session.campaign.party else []
        return self._actions

    def item_actions(self, info: ItemInfo) -> list[Action]:
        return item_actions(self.legal_actions(), self.member_id, info.index, info.item)

    def can_drag(self, info: ItemInfo) -> bool:
        acts = self.legal_actions()
        if any(a.kind == "stow" and a.who == self.member_id and a.param("index") == info.index for a in acts):
            return True
        return any(drop_action(acts, self.member_id, info.item, h, info.index) is not None for h in HANDS)

    def drop_action_for(self, index: int, place: str) -> Action | None:
        items = self._items()
        if not 0 <= index < len(items):
            return None
        return drop_action(self.legal_actions(), self.member_id, items[index][1], place, index)

    def drop(self, index: int, place: str) -> bool:
        """Drop the item at ``index`` on ``place``: emits the engine's action, or refuses (False)."""
        action = self.drop_action_for(index, place)
        if action is None:
            return False
        self.act.emit(action)
        return True

    def select(self, index: int) -> None:
        self.selected = index
        self._update_detail()
        for box in self.boxes.values():
            box.update()

    def show_item_menu(self, info: ItemInfo, at: QPoint) -> None:
        self.select(info.index)
        acts = self.item_actions(info)
        menu = QMenu(self)
        if not acts:
            none = menu.addAction("Nothing to do with it now")
            none.setEnabled(False)
        for a in acts:
            qa = menu.addAction(a.label + (f"  ({a.cost})" if str(a.cost) != "free" else ""))
            qa.setEnabled(a.available)
            qa.setToolTip(a.reason or a.rule)
            qa.triggered.connect(lambda _=False, action=a: self.act.emit(action))
        menu.setToolTipsVisible(True)
        menu.popup(at)

    # --- tooltips -------------------------------------------------------------------------------------------

    def item_tooltip(self, info: ItemInfo) -> str:
        item = info.item
        lines = [f"<b>{item.name}</b>" + (f" ×{item.count}" if item.count > 1 else ""), self._facts(info)]
        if item.notes:
            lines.append(f"<i>{item.notes}</i>")
        if info.text:
            lines.append(_quote(info.text, 300))
        acts = [a for a in self.item_actions(info) if a.available]
        if acts:
            lines.append("<i>Now: " + "; ".join(a.label for a in acts) + "</i>")
        return "<br>".join(lines)

    def place_tooltip(self, place: Place) -> str:
        content = self.session.gm.content
        text = next((c.text for c in content.items.inventory.containers if c.name == (place.container or "")), "")
        if place.name == TORSO:
            text = "The torso has 4 slots. Equipped armor and helmet go on the torso slots."
        elif place.name in HANDS:
            text = ("Each hand has 2 slots. Wielded items, including torches go on the hands. A character can only "
                    "wield one item on each hand, even with 2 slots.")  # fmt: skip
        m = self.member
        used = sum(i.slots for i in (m.adv.inventory.items if m is not None else []) if i.place == place.name)
        extra = "" if place.on_body else "<br>Not carried: it does not count against the carry limit."
        return f"<b>{place.name}</b>: {used} of {place.slots} slots used.{extra}<br>{_quote(text, 300)}"


def _quote(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0] + "…"
    return f"<i>“{text}”</i>" if text else ""
