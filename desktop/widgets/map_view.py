"""The dungeon map on screen: a zoomable, draggable view of one level.

The level is painted by :mod:`desktop.render.map_painter` (the same painter
as the PNG, SVG and PDF exports) into a cached image, once per level and
options, at a resolution near the current zoom; every repaint afterwards only
blits that image and draws the overlay (party marker, highlights), so the
expedition screen may call :meth:`MapView.set_level` after every step for
free when nothing changed.

Coordinates: the overlay and :meth:`layout` speak *layout pixels* of a
:class:`MapLayout` built at :data:`BASE_TILE` pixels per tile; the view maps
them to the screen with ``zoom`` (screen pixels per layout pixel) and an
offset.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from desktop.render.map_painter import MapLayout, MapOptions, paint_map
from desktop.theme import COLORS, ui_font
from dungeon_gen.model import LevelData

Overlay = Callable[[QPainter, MapLayout], None]

BASE_TILE = 32  # layout pixels per tile
MIN_ZOOM = 0.04
MAX_ZOOM = 4.0
ZOOM_STEP = 1.2
MAX_CACHE_PIXELS = 14_000_000  # about 56 MB of RGB32: the largest cached picture of a level
CLICK_SLOP = 4  # pixels a press may move and still count as a click


class MapView(QWidget):
    """A level's map with zoom (wheel, +/-), pan (drag, arrows) and fit (double-click, F)."""

    tile_clicked = Signal(int, int)
    view_changed = Signal()

    #: The map's keys, when it has the focus (click it, or Tab to it); the Help menu lists them.
    KEYS = (
        ("+ / −", "Zoom in / out"),
        ("Arrows", "Pan the map"),
        ("F or 0", "Fit the whole map"),
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(False)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        self.setToolTip("Wheel or +/− to zoom, drag to pan, double-click or F to fit the map")
        self._level: LevelData | None = None
        self._options = MapOptions()
        self._layout: MapLayout | None = None
        self._overlay: Overlay | None = None
        self._cache: QPixmap | None = None
        self._cache_scale = 0.0  # cache pixels per layout pixel
        self._zoom = 1.0
        self._offset = QPointF(0, 0)  # widget position of layout (0, 0)
        self._auto_fit = True  # fit on resize until the user zooms or pans
        # (tile, tiles across, min zoom, max zoom): keep that tile in the middle at that scale, through resizes,
        # until the user zooms or pans; asked before the view has its size, it is applied once it has one
        self._follow: tuple[tuple[int, int], float, float, float] | None = None
        self._press: QPointF | None = None
        self._placeholder = "No map yet"
        self._press_offset = QPointF(0, 0)
        self._dragging = False
        self.renders = 0  # how many times the map itself was painted (tests, benchmarks)
        self._sharpen = QTimer(self)
        self._sharpen.setSingleShot(True)
        self._sharpen.setInterval(150)
        self._sharpen.timeout.connect(self._sharpen_now)
        self._detail: QPixmap | None = None  # the visible part at the exact zoom, when the cache is coarser
        self._detail_key: tuple[float, ...] = ()

    # --- the public API ------------------------------------------------------------------------

    def set_level(self, level: LevelData | None, options: MapOptions | None = None) -> None:
        """Show ``level`` drawn with ``options``; nothing is redrawn when both are unchanged.

        A different level (another seed or depth) is fitted to the view; new options for the same
        level (more of it seen, the player's view) keep the zoom and position."""
        options = options if options is not None else MapOptions()
        if level is self._level and options == self._options and (level is None or self._cache is not None):
            return
        same_place = (
            level is not None
            and self._level is not None
            and (level.seed, level.depth) == (self._level.seed, self._level.depth)
        )
        self._level = level
        self._options = options
        self._layout = MapLayout(level, BASE_TILE, options) if level is not None else None
        self._cache = None
        self._cache_scale = 0.0
        self._detail, self._detail_key = None, ()
        if not same_place:
            self._auto_fit = True
            self._follow = None
        if self._follow is not None:
            self._apply_follow()
        elif self._auto_fit:
            self._fit_now()
        self._refresh_cache()
        self.update()

    def level(self) -> LevelData | None:
        return self._level

    def options(self) -> MapOptions:
        return self._options

    def map_layout(self) -> MapLayout | None:
        """The layout the overlay draws with (None without a level)."""
        return self._layout

    def set_overlay(self, fn: Overlay | None) -> None:
        """Draw ``fn(painter, layout)`` over the map on every paint (in layout pixels; not cached)."""
        self._overlay = fn
        self.update()

    def invalidate(self) -> None:
        """Repaint the map itself (after the level was changed in place)."""
        if self._level is not None:
            self._layout = MapLayout(self._level, BASE_TILE, self._options)
        self._cache = None
        self._detail, self._detail_key = None, ()
        self._refresh_cache()
        self.update()

    def fit(self) -> None:
        """Zoom and centre so the whole map shows."""
        self._auto_fit = True
        self._follow = None
        self._fit_now()
        self._schedule_sharpen()
        self.update()
        self.view_changed.emit()

    def center_on_tile(self, tile: tuple[int, int]) -> None:
        """Scroll so tile ``(x, y)`` is in the middle of the view (the zoom stays)."""
        if self._layout is None:
            return
        self._auto_fit = False
        if self._follow is not None:
            self._follow = (tile, *self._follow[1:])
        c = self._layout.centre(tile)
        self._offset = QPointF(self.width() / 2 - c.x() * self._zoom, self.height() / 2 - c.y() * self._zoom)
        self._clamp()
        self._schedule_sharpen()
        self.update()
        self.view_changed.emit()

    def follow_tile(self, tile: tuple[int, int], across: float, lo: float = MIN_ZOOM, hi: float = MAX_ZOOM) -> None:
        """Centre ``tile`` at a zoom that shows about ``across`` tiles over the view's shorter side (between
        ``lo`` and ``hi``), and keep it so when the view is resized (or first laid out: a view made before
        the window is shown has no size yet) until the player zooms, pans or fits."""
        if self._layout is None:
            return
        self._follow = (tile, across, lo, hi)
        self._apply_follow()
        self._schedule_sharpen()
        self.update()
        self.view_changed.emit()

    def following(self) -> tuple[int, int] | None:
        """The tile the view keeps in its middle, or None once the player moved the view."""
        return self._follow[0] if self._follow is not None else None

    def _apply_follow(self) -> None:
        lay = self._layout
        if lay is None or self._follow is None:
            return
        tile, across, lo, hi = self._follow
        self._auto_fit = False
        span = across * float(lay.t)
        self._zoom = max(self._min_zoom(), lo, min(hi, MAX_ZOOM, min(self.width(), self.height()) / span))
        c = lay.centre(tile)
        self._offset = QPointF(self.width() / 2 - c.x() * self._zoom, self.height() / 2 - c.y() * self._zoom)
        self._cover()

    def _cover(self) -> None:
        """Following the party: the sheet is moved towards filling the view where it is larger than the view
        (centring the party's tile near the sheet's edge left a dark band across the top or side of the map),
        as far as the party's tile stays in the middle half of the view."""
        lay = self._layout
        if lay is None:
            return
        mw, mh = lay.width * self._zoom, lay.height * self._zoom

        def place(at: float, size: float, room: float) -> float:
            if size <= room:
                return at  # all of it in sight: the party's tile stays in the middle
            filled = min(0.0, max(at, room - size))
            return max(at - room / 4, min(at + room / 4, filled))

        self._offset = QPointF(place(self._offset.x(), mw, self.width()), place(self._offset.y(), mh, self.height()))

    def zoom(self) -> float:
        """Screen pixels per layout pixel."""
        return self._zoom

    def set_zoom(self, zoom: float, around: QPointF | None = None) -> None:
        """Zoom to ``zoom``, keeping the layout point under ``around`` (widget pixels) in place."""
        if self._layout is None:
            return
        zoom = max(self._min_zoom(), min(MAX_ZOOM, zoom))
        if math.isclose(zoom, self._zoom):
            return
        at = around if around is not None else QPointF(self.width() / 2, self.height() / 2)
        lx = (at.x() - self._offset.x()) / self._zoom
        ly = (at.y() - self._offset.y()) / self._zoom
        self._zoom = zoom
        self._offset = QPointF(at.x() - lx * zoom, at.y() - ly * zoom)
        self._auto_fit = False
        self._follow = None
        self._clamp()
        self._schedule_sharpen()
        self.update()
        self.view_changed.emit()

    def zoom_in(self) -> None:
        self.set_zoom(self._zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self._zoom / ZOOM_STEP)

    def pan(self, dx: float, dy: float) -> None:
        """Move the map by ``dx, dy`` widget pixels."""
        self._offset = QPointF(self._offset.x() + dx, self._offset.y() + dy)
        self._auto_fit = False
        self._follow = None
        self._clamp()
        self._schedule_sharpen()
        self.update()
        self.view_changed.emit()

    def view_transform(self) -> QTransform:
        """Layout pixels -> widget pixels."""
        return QTransform(self._zoom, 0, 0, self._zoom, self._offset.x(), self._offset.y())

    def tile_at(self, pos: QPointF | QPoint) -> tuple[int, int] | None:
        """The tile under widget position ``pos``, or None outside the map's grid."""
        lay = self._layout
        if lay is None:
            return None
        p = QPointF(pos)
        lx = (p.x() - self._offset.x()) / self._zoom
        ly = (p.y() - self._offset.y()) / self._zoom
        if not lay.map_rect.contains(QPointF(lx, ly)):
            return None
        tx = lay.frame.x + math.floor((lx - lay.map_rect.left()) / lay.t)
        ty = lay.frame.y + math.floor((ly - lay.map_rect.top()) / lay.t)
        return tx, ty

    def tile_pos(self, tile: tuple[int, int]) -> QPointF:
        """The widget position of the centre of ``tile``."""
        if self._layout is None:
            return QPointF()
        return self.view_transform().map(self._layout.centre(tile))

    def sizeHint(self) -> QSize:
        return QSize(640, 480)

    def minimumSizeHint(self) -> QSize:
        return QSize(160, 120)

    # --- the cache -----------------------------------------------------------------------------

    def _wanted_scale(self) -> float:
        """Cache pixels per layout pixel for the current zoom: a power of two at or above what the
        screen shows (so the blit only ever shrinks a little), capped by the pixel budget."""
        lay = self._layout
        if lay is None:
            return 0.0
        need = max(1e-3, self._zoom * self.devicePixelRatioF())
        scale = 2.0 ** math.ceil(math.log2(need))
        budget = math.sqrt(MAX_CACHE_PIXELS / max(1.0, lay.width * lay.height))
        return max(1 / 64, min(scale, budget, 2.0))

    def _refresh_cache(self) -> None:
        lay = self._layout
        if lay is None:
            self._cache = None
            return
        scale = self._wanted_scale()
        if self._cache is not None and math.isclose(scale, self._cache_scale):
            return
        w = max(1, math.ceil(lay.width * scale))
        h = max(1, math.ceil(lay.height * scale))
        image = QImage(w, h, QImage.Format.Format_RGB32)
        image.fill(QColor(COLORS["bg"]))
        painter = QPainter(image)
        try:
            painter.scale(scale, scale)
            paint_map(painter, lay)
        finally:
            painter.end()
        self._cache = QPixmap.fromImage(image)
        self._cache_scale = scale
        self.renders += 1
        self.update()

    def _schedule_sharpen(self) -> None:
        if self._layout is None:
            return
        if not math.isclose(self._wanted_scale(), self._cache_scale) or (
            self._needs_detail() and self._detail_key != self._view_key()
        ):
            self._sharpen.start()

    def _sharpen_now(self) -> None:
        self._refresh_cache()
        if self._needs_detail() and self._detail_key != self._view_key():
            self._render_detail()

    def _view_key(self) -> tuple[float, ...]:
        return (self._zoom, self._offset.x(), self._offset.y(), self.width(), self.height(), self.devicePixelRatioF())

    def _needs_detail(self) -> bool:
        """Zoomed in beyond the cache's resolution (a big level, close up): the cache would blur."""
        return self._layout is not None and self._zoom * self.devicePixelRatioF() > self._cache_scale * 1.05

    def _render_detail(self) -> None:
        """Paint just the visible part of the map at the exact zoom (after zooming or panning settles)."""
        lay = self._layout
        if lay is None:
            return
        dpr = self.devicePixelRatioF()
        image = QImage(
            max(1, math.ceil(self.width() * dpr)),
            max(1, math.ceil(self.height() * dpr)),
            QImage.Format.Format_ARGB32_Premultiplied,
        )
        image.setDevicePixelRatio(dpr)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        try:
            painter.setTransform(self.view_transform())
            visible = self.view_transform().inverted()[0].mapRect(QRectF(self.rect()))
            painter.setClipRect(visible.intersected(QRectF(0, 0, lay.width, lay.height)))
            paint_map(painter, lay)
        finally:
            painter.end()
        self._detail = QPixmap.fromImage(image)
        self._detail_key = self._view_key()
        self.renders += 1
        self.update()

    # --- geometry helpers ----------------------------------------------------------------------

    def _min_zoom(self) -> float:
        return min(MIN_ZOOM, self._fit_zoom() * 0.5)

    def _fit_zoom(self) -> float:
        lay = self._layout
        if lay is None or lay.width <= 0 or lay.height <= 0:
            return 1.0
        margin = 16
        w = max(1, self.width() - 2 * margin)
        h = max(1, self.height() - 2 * margin)
        return max(1e-3, min(MAX_ZOOM, w / lay.width, h / lay.height))

    def _fit_now(self) -> None:
        lay = self._layout
        if lay is None:
            return
        self._zoom = self._fit_zoom()
        self._offset = QPointF(
            (self.width() - lay.width * self._zoom) / 2, (self.height() - lay.height * self._zoom) / 2
        )

    def _clamp(self) -> None:
        """Keep at least a quarter of the view on the map, so it can never be lost off-screen."""
        lay = self._layout
        if lay is None:
            return
        mw, mh = lay.width * self._zoom, lay.height * self._zoom
        keep_x = min(mw, self.width() / 4)
        keep_y = min(mh, self.height() / 4)
        x = min(max(self._offset.x(), keep_x - mw), self.width() - keep_x)
        y = min(max(self._offset.y(), keep_y - mh), self.height() - keep_y)
        self._offset = QPointF(x, y)

    # --- painting ------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(COLORS["bg"]))
        lay = self._layout
        if lay is None or self._cache is None:
            self._paint_empty(p)
            p.end()
            return
        target = QRectF(self._offset.x(), self._offset.y(), lay.width * self._zoom, lay.height * self._zoom)
        # a soft shadow under the sheet
        for i, alpha in enumerate((70, 45, 25)):
            d = 3 + 3 * i
            p.fillRect(target.adjusted(-d + 4, -d + 6, d + 4, d + 6), QColor(0, 0, 0, alpha))
        if self._detail is not None and self._detail_key == self._view_key():
            p.drawPixmap(0, 0, self._detail)
        else:
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            p.drawPixmap(target, self._cache, QRectF(self._cache.rect()))
        p.setPen(QPen(QColor(COLORS["border"]), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(target.adjusted(-0.5, -0.5, 0.5, 0.5))
        if self._overlay is not None:
            p.save()
            p.setTransform(self.view_transform())
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            try:
                self._overlay(p, lay)
            finally:
                p.restore()
        p.end()

    def set_placeholder(self, text: str) -> None:
        """What the view says while it has no level."""
        self._placeholder = text
        self.update()

    def _paint_empty(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        box = QRectF(self.rect()).adjusted(24, 24, -24, -24)
        pen = QPen(QColor(COLORS["border"]), 1.5, Qt.PenStyle.DashLine)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(box, 6, 6)
        p.setPen(QColor(COLORS["muted"]))
        p.setFont(ui_font(11))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self._placeholder)

    # --- input ---------------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._follow is not None:
            self._apply_follow()
            self._schedule_sharpen()
        elif self._auto_fit:
            self._fit_now()
            self._schedule_sharpen()
        else:
            self._clamp()
            self._schedule_sharpen()

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        if steps == 0:
            event.ignore()
            return
        self.set_zoom(self._zoom * ZOOM_STEP**steps, event.position())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.MiddleButton):
            self._press = event.position()
            self._press_offset = QPointF(self._offset)
            self._dragging = False
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press is None:
            return super().mouseMoveEvent(event)
        d = event.position() - self._press
        if not self._dragging and (abs(d.x()) + abs(d.y())) > CLICK_SLOP:
            self._dragging = True
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
        if self._dragging:
            self._offset = self._press_offset + d
            self._auto_fit = False
            self._follow = None
            self._clamp()
            self.update()
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._press is None:
            return super().mouseReleaseEvent(event)
        was_drag = self._dragging
        self._press = None
        self._dragging = False
        self.unsetCursor()
        if was_drag:
            self._schedule_sharpen()
            self.view_changed.emit()
        elif event.button() == Qt.MouseButton.LeftButton:
            tile = self.tile_at(event.position())
            if tile is not None:
                self.tile_clicked.emit(tile[0], tile[1])
        event.accept()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.fit()
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        step = max(40.0, min(self.width(), self.height()) / 6)
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_in()
        elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom_out()
        elif key in (Qt.Key.Key_F, Qt.Key.Key_0):
            self.fit()
        elif key == Qt.Key.Key_Left:
            self.pan(step, 0)
        elif key == Qt.Key.Key_Right:
            self.pan(-step, 0)
        elif key == Qt.Key.Key_Up:
            self.pan(0, step)
        elif key == Qt.Key.Key_Down:
            self.pan(0, -step)
        else:
            super().keyPressEvent(event)
            return
        event.accept()
