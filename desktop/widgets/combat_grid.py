"""The fight on the room's tile grid: walls, floor, the doorway, the fighters, move and attack range.

:class:`CombatGrid` paints :class:`rules.gm.combat_state.CombatState` and turns clicks into the engine's own
actions: a click on a highlighted tile is that tile's ``move`` action, a click on an enemy the first
available ``attack`` on it (right click: every action that targets it; on an adventurer, every action of the
acting one aimed at them: a prayer, a potion, a gift, a helping hand), a click on the doorway the
``flee`` action.  It computes no rule: the tiles it highlights are the targets of the legal actions it
was given, the numbers it shows are the state's and the bestiary's.

The room (floor, walls, doorway) is painted once into a cached pixmap; a repaint draws only the
highlights and the fighters over it.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import QMenu, QSizePolicy, QToolTip, QWidget

from desktop.theme import COLORS, ui_font

if TYPE_CHECKING:
    from rules.content.schema_bestiary import Monster
    from rules.gm.combat_state import CombatState, Fighter, Foe
    from rules.gm.engine import GM
    from rules.gm.events import Action

Tile = tuple[int, int]

#: One ring colour per adventurer, in party order (the fifth wraps around).
RINGS = ("#c9a227", "#4f9a94", "#9a78c4", "#7fa65a", "#c77a3a")
MIN_CELL = 14
MAX_CELL = 76


def initials(name: str, letters: int = 2) -> str:
    """'Tamsen Fathom' -> 'TF'; 'Ghoul' -> 'GH'."""
    words = [w for w in name.replace("-", " ").split() if w[:1].isalpha()]
    if len(words) >= letters:
        return "".join(w[0] for w in words[:letters]).upper()
    word = words[0] if words else name
    return word[:letters].upper()


def _noise(x: int, y: int) -> int:
    """A fixed pseudo-random number per tile (flagstone shading), the same on every machine."""
    n = (x * 73856093) ^ (y * 19349663)
    return (n ^ (n >> 13)) & 0xFF


@dataclass(frozen=True)
class Layout:
    """Where the grid sits in the widget: tile (x, y) covers ``rect(x, y)``."""

    x0: int  # the leftmost tile column painted (a wall column)
    y0: int
    cols: int
    rows: int
    cell: int
    left: int  # pixel offset of column x0
    top: int

    def rect(self, x: int, y: int) -> QRect:
        return QRect(self.left + (x - self.x0) * self.cell, self.top + (y - self.y0) * self.cell, self.cell, self.cell)

    def centre(self, x: int, y: int) -> QPointF:
        return QPointF(self.left + (x - self.x0 + 0.5) * self.cell, self.top + (y - self.y0 + 0.5) * self.cell)

    def tile_at(self, p: QPoint | QPointF) -> Tile | None:
        if self.cell <= 0:
            return None
        cx = int((p.x() - self.left) // self.cell)
        cy = int((p.y() - self.top) // self.cell)
        if 0 <= cx < self.cols and 0 <= cy < self.rows:
            return (self.x0 + cx, self.y0 + cy)
        return None


class CombatGrid(QWidget):
    """The room's tile grid with the fighters; emits ``chosen(Action)`` and ``selected(fighter id)``."""

    chosen = Signal(object)
    selected = Signal(str)
    refused = Signal(str)  # why a click did nothing (an enemy out of reach): the view says it on screen

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 240)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self._gm: GM | None = None
        self._cs: CombatState | None = None
        self._actions: list[Action] = []
        self._active: str | None = None
        self._moves: dict[Tile, Action] = {}
        self._attacks: dict[str, list[Action]] = {}  # foe id -> available actions of the acting adventurer on it
        # foe or adventurer id -> every action of the acting adventurer aimed at it
        self._targeting: dict[str, list[Action]] = {}
        self._flee: Action | None = None
        self._hover: Tile | None = None
        self._cursor: Tile | None = None
        self._layout: Layout | None = None
        self._background: QPixmap | None = None
        self._background_key: object = None
        self._rings: dict[str, str] = {}
        self._odds: dict[str, Any] = {}  # attack action id -> its Chance (desktop.chances), for this state

    # --- state -------------------------------------------------------------------------------------------

    def set_state(self, gm: GM, actions: Iterable[Action], active: str | None = None) -> None:
        """Show ``gm``'s fight; ``actions``: the legal actions now; ``active``: whose range to show (None:
        the first adventurer with an available action)."""
        self._gm = gm
        self._cs = gm.c.combat
        self._actions = list(actions)
        self._odds = {}
        whos = [a.who for a in self._actions if a.available and a.who]
        self._active = active if active in whos else (whos[0] if whos else None)
        mine = [a for a in self._actions if a.who == self._active and self._active is not None]
        self._moves = {}
        self._attacks = {}
        self._targeting = {}
        self._flee = None
        party = {g.id for g in self._cs.fighters} if self._cs is not None else set()
        for a in mine:
            if a.kind == "move" and a.available and a.param("x") is not None:
                self._moves[(int(a.param("x")), int(a.param("y")))] = a
            elif a.kind == "flee" and a.available:
                self._flee = a
            if a.target and (a.target.startswith("e") or a.target in party):
                self._targeting.setdefault(a.target, []).append(a)
                if a.available and a.kind == "attack":
                    self._attacks.setdefault(a.target, []).append(a)
        self._rings = {}
        if self._cs is not None:
            for i, f in enumerate(self._cs.fighters):
                self._rings[f.id] = RINGS[i % len(RINGS)]
        self._relayout()
        self.update()

    @property
    def active(self) -> str | None:
        """The adventurer whose move and attack range is shown."""
        return self._active

    @property
    def move_tiles(self) -> set[Tile]:
        return set(self._moves)

    @property
    def attack_targets(self) -> set[str]:
        return set(self._attacks)

    def ring_color(self, fighter_id: str) -> str:
        return self._rings.get(fighter_id, COLORS["gold"])

    def tile_rect(self, tile: Tile) -> QRect:
        """The widget rectangle of a tile (for tests and overlays); empty when nothing is shown."""
        return self._layout.rect(*tile) if self._layout is not None else QRect()

    def action_at(self, tile: Tile) -> Action | None:
        """What a left click on ``tile`` takes: its move, the default attack on the enemy there, or flight."""
        foe = self._foe_at(tile)
        if foe is not None:
            return self.default_attack(foe.id)
        if tile in self._moves:
            return self._moves[tile]
        if self._flee is not None and self._cs is not None and tile == self._cs.exit:
            return self._flee
        return None

    def set_cursor(self, tile: Tile | None) -> None:
        """The keyboard cursor (arrows move it in the combat view; Enter takes :meth:`action_at` it)."""
        self._cursor = tile
        self.update()

    def default_attack(self, foe_id: str) -> Action | None:
        """The attack a click on ``foe_id`` makes: of the available ones, the one with the best odds (exact, from
        :mod:`desktop.chances`); the right-click menu offers every other."""
        options = self._attacks.get(foe_id)
        if not options:
            return None
        if len(options) == 1 or self._gm is None:
            return options[0]
        return min(options, key=lambda a: self._chance_key(a))

    def attack_odds(self, action: Action) -> Any:
        """The :class:`desktop.chances.Chance` of an attack (computed once per state), or None."""
        if action.id not in self._odds and self._gm is not None:
            from desktop.chances import attack_chance

            self._odds[action.id] = attack_chance(self._gm, action)
        return self._odds.get(action.id)

    def _chance_key(self, action: Action) -> tuple[float, ...]:
        c = self.attack_odds(action)
        return (-1.0, 0.0, 0.0) if c is None else c.key  # no test (a free critical hit): the best

    # --- layout and the cached room --------------------------------------------------------------------------

    def board_rect(self) -> QRect:
        """Where the room is drawn in the widget (the rest is margin): what a dialog should not cover."""
        lay = self._layout
        if lay is None:
            return self.rect()
        return QRect(lay.left, lay.top, lay.cell * lay.cols, lay.cell * lay.rows).intersected(self.rect())

    def sizeHint(self) -> QSize:
        return QSize(760, 560)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._relayout()
        super().resizeEvent(event)

    def _relayout(self) -> None:
        cs = self._cs
        if cs is None or not cs.tiles:
            self._layout = None
            return
        xs = [x for x, _ in cs.tiles]
        ys = [y for _, y in cs.tiles]
        x0, y0 = min(xs) - 1, min(ys) - 1
        cols, rows = max(xs) - x0 + 2, max(ys) - y0 + 2
        margin = 12
        cell = int(min((self.width() - 2 * margin) / cols, (self.height() - 2 * margin) / rows))
        cell = max(MIN_CELL, min(MAX_CELL, cell))
        left = (self.width() - cell * cols) // 2
        top = (self.height() - cell * rows) // 2
        self._layout = Layout(x0, y0, cols, rows, cell, left, top)

    def _room_pixmap(self, lay: Layout, cs: CombatState) -> QPixmap:
        key = (tuple(cs.tiles), cs.exit, tuple(cs.corpses), lay, self.width(), self.height(), self.devicePixelRatioF())
        if self._background is not None and self._background_key == key:
            return self._background
        dpr = self.devicePixelRatioF()
        pm = QPixmap(int(self.width() * dpr), int(self.height() * dpr))
        pm.setDevicePixelRatio(dpr)
        pm.fill(QColor(COLORS["bg"]))
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._paint_room(p, lay, cs)
        p.end()
        self._background, self._background_key = pm, key
        return pm

    def _paint_room(self, p: QPainter, lay: Layout, cs: CombatState) -> None:
        floor = set(cs.tiles)
        c = lay.cell
        # a faint vignette frame around the room
        frame = QRectF(lay.rect(lay.x0, lay.y0).topLeft(), QSize(lay.cols * c, lay.rows * c)).adjusted(-6, -6, 6, 6)
        p.setPen(QPen(QColor(COLORS["border"]), 1))
        p.setBrush(QColor(COLORS["shadow"]))
        p.drawRoundedRect(frame, 6, 6)
        # walls: every tile next to the floor that is not floor
        wall_fill = QColor("#0f0d0a")
        hatch = QColor("#2b241c")
        for ty in range(lay.y0, lay.y0 + lay.rows):
            for tx in range(lay.x0, lay.x0 + lay.cols):
                if (tx, ty) in floor:
                    continue
                if not any((tx + dx, ty + dy) in floor for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                    continue
                r = lay.rect(tx, ty)
                p.fillRect(r, wall_fill)
                p.save()
                p.setClipRect(r)
                p.setPen(QPen(hatch, 1))
                step = max(4, c // 4)
                for k in range(-c, c, step):
                    p.drawLine(r.left() + k, r.bottom(), r.left() + k + c, r.top())
                p.restore()
        # the floor: flagstones with a little shading each
        base = QColor(COLORS["panel_alt"]).lighter(125)
        for tx, ty in cs.tiles:
            r = lay.rect(tx, ty)
            shade = _noise(tx, ty) % 18 - 9
            p.fillRect(r, base.lighter(100 + shade) if shade > 0 else base.darker(100 - shade))
        p.setPen(QPen(QColor(COLORS["bg"]), max(1, c // 24)))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for tx, ty in cs.tiles:
            p.drawRect(lay.rect(tx, ty))
        # the walls' edge where they meet the floor
        edge = QPen(QColor(COLORS["border"]).lighter(140), max(2, c // 12))
        edge.setCapStyle(Qt.PenCapStyle.SquareCap)
        p.setPen(edge)
        for tx, ty in cs.tiles:
            r = lay.rect(tx, ty)
            if (tx, ty - 1) not in floor:
                p.drawLine(r.topLeft(), r.topRight())
            if (tx, ty + 1) not in floor:
                p.drawLine(r.bottomLeft(), r.bottomRight())
            if (tx - 1, ty) not in floor:
                p.drawLine(r.topLeft(), r.bottomLeft())
            if (tx + 1, ty) not in floor:
                p.drawLine(r.topRight(), r.bottomRight())
        # the doorway the party came through
        if cs.exit is not None:
            r = lay.rect(*cs.exit).adjusted(2, 2, -2, -2)
            p.setPen(QPen(QColor(COLORS["gold"]), max(2, c // 14)))
            p.setBrush(QColor("#4a3620"))
            p.drawRect(r)
            p.setFont(ui_font(max(6.0, c * 0.16), bold=True))
            p.setPen(QColor(COLORS["gold"]))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, "EXIT" if c >= 34 else "⇱")
        # bodies on the floor
        for tx, ty in cs.corpses:
            ctr = lay.centre(tx, ty)
            blot = QPainterPath()
            rad = c * 0.36
            blot.addEllipse(ctr + QPointF(c * 0.06, c * 0.05), rad, rad * 0.7)
            blot.addEllipse(ctr - QPointF(c * 0.12, c * 0.08), rad * 0.55, rad * 0.45)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(90, 14, 14, 150))
            p.drawPath(blot)

    # --- painting ------------------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        cs, lay = self._cs, self._layout
        if cs is None or lay is None:
            p.fillRect(self.rect(), QColor(COLORS["bg"]))
            p.setPen(QColor(COLORS["muted"]))
            p.setFont(ui_font(11))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No fight.")
            p.end()
            return
        p.drawPixmap(0, 0, self._room_pixmap(lay, cs))
        self._paint_ranges(p, lay, cs)
        self._paint_dropped(p, lay, cs)
        for f in cs.fighters:
            if not f.fled:
                self._paint_fighter(p, lay, f)
        for e in cs.foes:
            if e.active:
                self._paint_foe(p, lay, e)
        p.end()

    def _paint_ranges(self, p: QPainter, lay: Layout, cs: CombatState) -> None:
        c = lay.cell
        gold = QColor(COLORS["gold"])
        fill = QColor(gold)
        fill.setAlpha(90)  # the move range stands out from the floor (a faint dashed border was hard to see, #16.7)
        p.setPen(QPen(QColor(gold.red(), gold.green(), gold.blue(), 210), max(1.5, c / 20)))
        p.setBrush(fill)
        for t in self._moves:
            p.drawRect(lay.rect(*t).adjusted(2, 2, -2, -2))
        if self._flee is not None and cs.exit is not None:
            p.setPen(QPen(QColor(COLORS["gold"]), max(2, c // 12)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(lay.rect(*cs.exit).adjusted(1, 1, -1, -1))
        if self._hover is not None:
            hover_action = self._hover in self._moves or (self._flee is not None and self._hover == cs.exit)
            if hover_action:
                glow = QColor(gold)
                glow.setAlpha(110)
                p.setPen(QPen(QColor(COLORS["paper"]), 2))
                p.setBrush(glow)
                p.drawRect(lay.rect(*self._hover).adjusted(1, 1, -1, -1))
        if self._cursor is not None:
            p.setPen(QPen(QColor(COLORS["paper"]), max(2.0, c / 12), Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(lay.rect(*self._cursor).adjusted(3, 3, -3, -3))
        # attack range: a blood-red reticle under every enemy a legal attack reaches
        red = QColor(COLORS["danger"])
        for foe_id in self._attacks:
            try:
                e = cs.foe(foe_id)
            except KeyError:
                continue
            r = QRectF(lay.rect(*e.tile)).adjusted(1.5, 1.5, -1.5, -1.5)
            tint = QColor(red)
            tint.setAlpha(60)
            p.setPen(QPen(red, max(2.0, c / 16)))
            p.setBrush(tint)
            p.drawRect(r)

    def _paint_dropped(self, p: QPainter, lay: Layout, cs: CombatState) -> None:
        c = lay.cell
        for drop in cs.dropped:
            r = QRectF(lay.rect(drop.x, drop.y))
            blade = QPen(QColor(COLORS["muted"]), max(2.0, c / 18))
            p.setPen(blade)
            p.drawLine(r.topLeft() + QPointF(c * 0.18, c * 0.82), r.topLeft() + QPointF(c * 0.82, c * 0.18))

    def _pips(self, p: QPainter, centre: QPointF, width: float, size: float, states: list[str]) -> None:
        """A row of small pips under a token: 'ok', 'fatigue', 'wound', 'taken', 'left'."""
        if not states:
            return
        gap = size * 0.35
        per = max(1, int((width + gap) // (size + gap)))
        colours = {
            "ok": QColor(COLORS["paper"]),
            "fatigue": QColor("#c08a2e"),
            "wound": QColor(COLORS["danger"]),
            "taken": QColor(COLORS["danger"]),
            "left": QColor("#4a3f33"),
        }
        rows = [states[i : i + per] for i in range(0, len(states), per)]
        y = centre.y()
        for row in rows:
            total = len(row) * size + (len(row) - 1) * gap
            x = centre.x() - total / 2
            for st in row:
                p.setPen(QPen(QColor(COLORS["shadow"]), 1))
                p.setBrush(colours[st])
                p.drawRect(QRectF(x, y, size, size))
                x += size + gap
            y += size + gap

    def _badges(self, p: QPainter, r: QRectF, tokens: list[tuple[str, int, str]]) -> None:
        """Token counters in the tile's top corners: (letter, count, colour)."""
        c = r.width()
        size = max(9.0, c * 0.3)
        p.setFont(ui_font(max(5.5, size * 0.42), bold=True))
        x = r.right() - size
        for letter, n, col in tokens:
            if n <= 0:
                continue
            b = QRectF(x, r.top() - size * 0.15, size, size)
            p.setPen(QPen(QColor(COLORS["shadow"]), 1))
            p.setBrush(QColor(col))
            p.drawEllipse(b)
            p.setPen(QColor(COLORS["paper"]))
            p.drawText(b, Qt.AlignmentFlag.AlignCenter, f"{letter}{n}" if n > 1 and size >= 14 else letter)
            x -= size * 0.9

    def _paint_fighter(self, p: QPainter, lay: Layout, f: Fighter) -> None:
        from rules.attributes import ATTRS

        gm = self._gm
        assert gm is not None
        c = lay.cell
        r = QRectF(lay.rect(*f.tile))
        ctr = r.center()
        rad = c * 0.34
        member = next((m for m in gm.c.party if m.id == f.id), None)
        name = member.name if member is not None else f.id
        ring = QColor(self.ring_color(f.id))
        if f.dead or member is None:
            p.setPen(QPen(QColor(COLORS["muted"]), max(2.0, c / 14)))
            d = rad * 0.7
            p.drawLine(ctr + QPointF(-d, -d), ctr + QPointF(d, d))
            p.drawLine(ctr + QPointF(-d, d), ctr + QPointF(d, -d))
            return
        ch = member.adv.character
        if f.id == self._active:
            glow = QColor(COLORS["gold"])
            glow.setAlpha(90)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(glow)
            p.drawEllipse(ctr, rad * 1.45, rad * 1.45)
        p.setPen(QPen(ring, max(2.5, c / 11)))
        p.setBrush(QColor("#1d1812") if ch.can_act else QColor("#3a2f24"))
        p.drawEllipse(ctr, rad, rad)
        p.setPen(QColor(COLORS["paper"]) if ch.can_act else QColor(COLORS["muted"]))
        p.setFont(ui_font(max(6.0, c * 0.2), bold=True))
        p.drawText(QRectF(ctr.x() - rad, ctr.y() - rad, 2 * rad, 2 * rad), Qt.AlignmentFlag.AlignCenter, initials(name))
        # dice: one pip per point of every attribute: available, fatigued or wounded
        states: list[str] = []
        for a in ATTRS:
            st = ch.attrs[a]
            free = max(0, st.score - st.fatigue - st.wounds)
            states += ["ok"] * free + ["fatigue"] * min(st.fatigue, st.score) + ["wound"] * min(st.wounds, st.score)
        pip = max(3.0, c * 0.075)
        self._pips(p, QPointF(ctr.x(), r.bottom() - pip * 1.6), c * 0.9, pip, states[:24])
        self._badges(p, r, [("S", f.shield, "#3f6b8f"), ("D", f.dodge, "#3f8f6b"), ("!", f.stun, "#b8860b")])
        if f.bleeding_out is not None or ch.condition.value != "active":
            p.setPen(QPen(QColor(COLORS["danger"]), max(2.0, c / 16), Qt.PenStyle.DotLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(ctr, rad * 1.2, rad * 1.2)

    def _paint_foe(self, p: QPainter, lay: Layout, e: Foe) -> None:
        gm = self._gm
        assert gm is not None
        c = lay.cell
        r = QRectF(lay.rect(*e.tile))
        ctr = r.center()
        rad = c * 0.34
        sheet = monster_sheet(gm, e.monster)
        fill = QColor(COLORS["gold"] if e.side else COLORS["accent"])  # a summoned ally: the party's gold
        p.setPen(QPen(QColor("#e0c9a0") if e.id in self._attacks else QColor("#2a0c0c"), max(2.0, c / 14)))
        p.setBrush(fill)
        diamond = QPainterPath()
        diamond.moveTo(ctr.x(), ctr.y() - rad * 1.1)
        diamond.lineTo(ctr.x() + rad * 1.1, ctr.y())
        diamond.lineTo(ctr.x(), ctr.y() + rad * 1.1)
        diamond.lineTo(ctr.x() - rad * 1.1, ctr.y())
        diamond.closeSubpath()
        p.drawPath(diamond)
        p.setPen(QColor(COLORS["paper"]))
        p.setFont(ui_font(max(6.0, c * 0.19), bold=True))
        p.drawText(
            QRectF(ctr.x() - rad, ctr.y() - rad, 2 * rad, 2 * rad), Qt.AlignmentFlag.AlignCenter, initials(e.monster)
        )
        if c >= 30:
            p.setFont(ui_font(max(5.0, c * 0.13)))
            p.setPen(QColor(COLORS["muted"]))
            p.drawText(QRectF(r.left() + 2, r.top(), c * 0.4, c * 0.3), Qt.AlignmentFlag.AlignLeft, e.id[1:])
        # wounds taken of the sheet's wounds; armour points left
        if sheet is not None:
            states = ["taken"] * min(e.wounds, sheet.wounds) + ["left"] * max(0, sheet.wounds - e.wounds)
            pip = max(3.0, c * 0.075)
            self._pips(p, QPointF(ctr.x(), r.bottom() - pip * 1.6), c * 0.9, pip, states[:20])
        tokens = [
            ("A", e.ap, "#5b5b66"),
            ("S", e.shield, "#3f6b8f"),
            ("D", e.dodge, "#3f8f6b"),
            ("!", e.stun, "#b8860b"),
        ]
        self._badges(p, r, tokens)
        if e.bleeding:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(COLORS["danger"]))
            p.drawEllipse(QPointF(r.left() + c * 0.16, r.bottom() - c * 0.3), c * 0.06, c * 0.09)

    # --- the mouse --------------------------------------------------------------------------------------------

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        tile = self._layout.tile_at(event.position()) if self._layout is not None else None
        if tile != self._hover:
            self._hover = tile
            clickable = tile is not None and (
                tile in self._moves
                or self._foe_at(tile) is not None
                or (self._flee is not None and self._cs is not None and tile == self._cs.exit)
            )
            self.setCursor(Qt.CursorShape.PointingHandCursor if clickable else Qt.CursorShape.ArrowCursor)
            self.update()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._hover = None
        self.update()
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        tile = self._layout.tile_at(event.position()) if self._layout is not None else None
        if tile is None or self._cs is None:
            return super().mousePressEvent(event)
        foe = self._foe_at(tile)
        fighter = self._fighter_at(tile)
        if event.button() == Qt.MouseButton.RightButton:
            who = foe or fighter
            if who is not None:
                self._menu(who.id, event.globalPosition().toPoint())
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return
        if foe is not None:
            attack = self.default_attack(foe.id)
            if attack is not None:
                self.chosen.emit(attack)
            else:
                why = next((a.reason for a in self._targeting.get(foe.id, []) if a.kind == "attack" and a.reason), None)
                QToolTip.showText(event.globalPosition().toPoint(), why or "No attack reaches it now.", self)
                self.refused.emit(f"No attack on {foe.monster} now: {(why or 'none reaches it').rstrip('.')}.")
            return
        if fighter is not None and not fighter.dead:
            self.selected.emit(fighter.id)
            return
        if tile in self._moves:
            self.chosen.emit(self._moves[tile])
        elif self._flee is not None and tile == self._cs.exit:
            self.chosen.emit(self._flee)

    def _menu(self, target: str, where: QPoint) -> None:
        menu = self.menu_for(target)
        if menu is not None:
            self.open_menu(menu, where)
            menu.deleteLater()

    def targeting(self, target: str) -> list[Action]:
        """Every action of the acting adventurer aimed at ``target`` (an enemy, an ally or themself), available
        or not, in the engine's order."""
        return list(self._targeting.get(target, []))

    def menu_for(self, target: str) -> QMenu | None:
        """The right-click menu of an enemy or an adventurer: every action of the acting adventurer aimed at it
        (the unavailable greyed, with the reason as tooltip and, shortened, in the text); the odds of a test are
        in the text (an attack's from :mod:`desktop.chances`, a power's in its label).  Gifts, one per item,
        go in a submenu when there are several.  Choosing one emits :attr:`chosen`."""
        actions = self._targeting.get(target, [])
        if not actions:
            return None
        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        gifts = [a for a in actions if a.kind == "give"]
        sub: QMenu | None = None
        for a in actions:
            into = menu
            if a.kind == "give" and len(gifts) > 1:
                if sub is None:
                    whom = _whom(a.label)
                    sub = menu.addMenu(f"Give {whom}…" if whom else "Give…")
                    sub.setToolTipsVisible(True)
                    sub.setEnabled(any(g.available for g in gifts))
                into = sub
            odds = self.attack_odds(a) if a.kind == "attack" and a.available else None
            hit = f" — {odds.success:.0%} to hit" if odds is not None else ""
            why = f" — {_short_reason(a.reason)}" if not a.available and a.reason else ""
            item = into.addAction(f"{self._menu_label(a)}  [{a.cost}]{hit}{why}")
            item.setEnabled(a.available)
            if a.reason:
                item.setToolTip(a.reason)
            item.triggered.connect(lambda _=False, act=a: self.chosen.emit(act) if act.available else None)
        return menu

    def _menu_label(self, a: Action) -> str:
        """An action's label without the acting adventurer's name in front (it is their menu): 'Ysa: give the
        rope to Noll' -> 'Give the rope to Noll'."""
        name = next((m.name for m in self._gm.c.party if m.id == a.who), None) if self._gm is not None else None
        label = a.label[len(name) + 2 :] if name and a.label.startswith(name + ": ") else a.label
        return label[:1].upper() + label[1:]

    def open_menu(self, menu: QMenu, where: QPoint) -> None:
        """Show ``menu`` and wait for the player (a seam for tests: offscreen, nobody closes a menu)."""
        menu.exec(where)

    def _foe_at(self, tile: Tile) -> Foe | None:
        if self._cs is None:
            return None
        return next((e for e in self._cs.foes if e.active and e.tile == tile), None)

    def _fighter_at(self, tile: Tile) -> Fighter | None:
        if self._cs is None:
            return None
        return next((f for f in self._cs.fighters if not f.fled and not f.dead and f.tile == tile), None)

    # --- tooltips -----------------------------------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            tile = self._layout.tile_at(event.pos()) if self._layout is not None else None
            text = self.tooltip_for(tile) if tile is not None else ""
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def tooltip_for(self, tile: Tile) -> str:
        """The rich-text tooltip of a tile: an enemy's sheet, an adventurer's state, a move, the doorway."""
        cs, gm = self._cs, self._gm
        if cs is None or gm is None:
            return ""
        foe = self._foe_at(tile)
        if foe is not None:
            targeting = self._targeting.get(foe.id, [])
            default = self.default_attack(foe.id)
            if default is not None:  # "Click:" names the attack a click makes
                targeting = [default] + [a for a in targeting if a.id != default.id]
            return foe_sheet_html(gm, foe, targeting)
        fighter = self._fighter_at(tile)
        if fighter is not None:
            text = fighter_html(gm, fighter)
            aimed = self._targeting.get(fighter.id, [])
            if aimed:
                n = sum(1 for a in aimed if a.available)
                whom = "themself" if fighter.id == self._active else "them"
                text += (f"<br><span style='color:#6b5a44'>Right click: every action aimed at {whom} "
                         f"({n} possible now, {len(aimed) - n} not).</span>")  # fmt: skip
            return text
        if tile in self._moves:
            a = self._moves[tile]
            return f"<b>Move here</b> ({a.cost})<br><i>{html.escape(a.rule)}</i>"
        if cs.exit is not None and tile == cs.exit:
            text = "<b>The doorway</b> you came in: reaching it leaves the fight."
            if self._flee is not None:
                text += f"<br>Click: flee ({self._flee.cost})."
            return text
        if tile in cs.corpses:
            return "A body on the floor."
        return ""


def _whom(label: str) -> str:
    """'Ysa: give the rope to Noll' -> 'to Noll' (the gifts' submenu is named for whom they go to)."""
    _, sep, rest = label.rpartition(" to ")
    return f"to {rest}" if sep else ""


def _short_reason(reason: str, most: int = 60) -> str:
    """A greyed entry's reason in its text (a tooltip on a disabled menu entry is easy to miss): its first
    sentence, cut at ``most`` characters."""
    first = reason.split(". ")[0].rstrip(".")
    return first if len(first) <= most else first[: most - 1].rstrip() + "…"


def monster_sheet(gm: GM, monster: str) -> Monster | None:
    try:
        return gm.content.bestiary.monster(monster)
    except KeyError:
        return None


def foe_sheet_html(gm: GM, foe: Foe, actions: Sequence[Action] = ()) -> str:
    """An enemy's sheet as the GM tracks it: wounds taken of its total, armour left, resistance, its actions
    with their notation and its special rules, quoted from the bestiary."""
    m = gm.content.bestiary.monster(foe.monster)
    esc = html.escape
    rows = [
        f"<b style='font-size:12pt'>{esc(m.name)}</b> <span style='color:#6b5a44'>({esc(foe.id)}, level {m.level}, "
        f"{esc(', '.join(m.tags))})</span>",
        f"<b>Wounds taken:</b> {foe.wounds} of {m.wounds} (dies past {m.wounds})",
        f"<b>Armour:</b> {foe.ap} of {m.armor} AP left" if m.armor else "<b>Armour:</b> none",
        f"<b>Resistance:</b> {m.resist}" if m.resist else "",
        f"<b>Movement:</b> {m.movement} tiles",
    ]
    state = []
    for what, n in (("shield", foe.shield), ("dodge", foe.dodge), ("stun", foe.stun)):
        if n:
            state.append(f"{n} {what} token{'s' if n > 1 else ''}")
    if foe.bleeding:
        state.append("bleeding")
    if state:
        rows.append("<b>Now:</b> " + esc(", ".join(state)))
    rows.append("<hr><b>Actions</b>")
    for a in m.actions:
        note = f" <code>{esc(a.book_notation or a.notation or '')}</code>" if (a.book_notation or a.notation) else ""
        cost = f" ({a.actions} actions)" if a.actions > 1 else ""
        rng = f", {esc(a.range)}" if a.range else ""
        text = f": {esc(a.text)}" if a.text else ""
        rows.append(f"• <b>{esc(a.name)}</b>{note}{cost}{rng}{text}")
    if m.specials:
        rows.append("<hr><b>Special</b>")
        rows += [f"• {esc(s.text)}" for s in m.specials]
    if m.description:
        rows.append(f"<hr><i>{esc(m.description)}</i>")
    usable = [a for a in actions if a.available]
    if usable:
        rows.append(f"<hr><span style='color:#8e1b1b'>Click: {esc(usable[0].label)}</span>")
        if len(usable) > 1:
            rows.append("<span style='color:#6b5a44'>Right click: every other way to hit it.</span>")
    elif actions:
        why = next((a.reason for a in actions if a.reason), None)
        if why:
            rows.append(f"<hr><span style='color:#6b5a44'>{esc(why)}</span>")
    return "<div style='max-width:360px'>" + "<br>".join(r for r in rows if r) + "</div>"


def fighter_html(gm: GM, f: Fighter) -> str:
    """An adventurer on the grid: attributes as available dice of the score, fatigue, wounds, tokens."""
    from rules.attributes import ATTRS

    member = next((m for m in gm.c.party if m.id == f.id), None)
    if member is None:
        return "Fallen."
    ch = member.adv.character
    esc = html.escape
    rows = [f"<b style='font-size:12pt'>{esc(member.name)}</b> — {esc(ch.condition.value)}"]
    rows.append("Fast" if f.fast else "Slow")
    for a in ATTRS:
        st = ch.attrs[a]
        rows.append(
            f"<b>{a.value}</b> {max(0, st.available)} of {st.score} dice (fatigue {st.fatigue}, wounds {st.wounds})"
        )
    state = [f"{n} {w}" for w, n in (("shield", f.shield), ("dodge", f.dodge), ("stun", f.stun)) if n]
    if ch.afflictions:
        state.append(", ".join(sorted(ch.afflictions)))
    if f.bleeding_out is not None:
        state.append("bleeding out")
    if state:
        rows.append(esc("; ".join(state)))
    if f.actions:
        rows.append(f"{f.actions} action{'s' if f.actions > 1 else ''} left")
    return "<br>".join(rows)


__all__ = ["CombatGrid", "Layout", "fighter_html", "foe_sheet_html", "initials", "monster_sheet"]
