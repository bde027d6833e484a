"""One painter for every map: draws a level with QPainter onto any QPaintDevice.

The same code draws the PNG (QImage), the SVG (QSvgGenerator), the pages of
the PDF booklet (QPdfWriter) and, later, the screen map.  The look is an
old-school GM map: grey rock hatched along the walls, parchment floors with a
faint 1.5 m grid, thick black walls, doors drawn by kind on their wall edge,
room numbers, and a title, north arrow, scale bar and legend in the margins.

Coordinates: :class:`MapLayout` maps tiles to *layout pixels* (``px_per_tile``
per tile, the top-left of the margin at 0, 0).  A QImage is painted 1:1; the
PDF booklet scales the layout onto its page with the painter's transform.

Geometry (floor, walls, doors, "what the party has seen") comes from the
Qt-free :mod:`dungeon_gen.export.walls`, shared with the Universal VTT export.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

from dungeon_gen.export.walls import (
    STEPS,
    DoorEdge,
    Frame,
    LevelGeometry,
    Seen,
    Segment,
    Tile,
    interior_edges,
    level_geometry,
    level_memo,
    map_frame,
    open_part,
    runs,
)
from dungeon_gen.model import Dungeon, LevelData, Room

SERIF_FAMILIES = ["DejaVu Serif", "Liberation Serif", "Noto Serif", "Times New Roman", "Georgia", "serif"]
SANS_FAMILIES = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial", "Helvetica", "sans-serif"]


@dataclass(frozen=True)
class Palette:
    paper: QColor = field(default_factory=lambda: QColor("#f4eedc"))  # the margins
    rock: QColor = field(default_factory=lambda: QColor("#7e7a72"))
    rock_near: QColor = field(default_factory=lambda: QColor("#b4afa4"))  # the hatched band along the walls
    hatch: QColor = field(default_factory=lambda: QColor("#4b4740"))
    floor: QColor = field(default_factory=lambda: QColor("#f6efdc"))
    grid: QColor = field(default_factory=lambda: QColor("#d9ceb2"))
    wall: QColor = field(default_factory=lambda: QColor("#111111"))
    ink: QColor = field(default_factory=lambda: QColor("#1a1a1a"))
    wood: QColor = field(default_factory=lambda: QColor("#a86f3a"))
    plank: QColor = field(default_factory=lambda: QColor("#c8955a"))
    iron: QColor = field(default_factory=lambda: QColor("#3d434a"))
    bars: QColor = field(default_factory=lambda: QColor("#aab3bc"))
    trap: QColor = field(default_factory=lambda: QColor("#9b1c1c"))
    corpse: QColor = field(default_factory=lambda: QColor("#5a3a1e"))
    token: QColor = field(default_factory=lambda: QColor("#7d2222"))
    boss: QColor = field(default_factory=lambda: QColor("#4a1010"))
    entrance: QColor = field(default_factory=lambda: QColor("#8e1b1b"))
    label_fill: QColor = field(default_factory=lambda: QColor("#fffaf0"))


PALETTE = Palette()


@dataclass(frozen=True)
class MapOptions:
    """What a map shows.

    * ``player``: the players' map: no room numbers, secret doors are wall
      (those not yet found are hidden with their corridor, and with no
      ``seen`` the rooms only a secret door leads to are left out), no traps,
      monsters or corpses.
    * ``seen``: draw only what the party has seen (rooms, connections).
    * ``reveal_secrets``: override whether unfound secret passages are drawn
      (default: on the GM map only).  The VTT image draws them with the secret
      door as plain wall, so fog of war can reveal the passage behind it.
    * ``tokens``: monster tokens (small circles with initials), GM map only.
    * ``decorations``: the title, north arrow, scale bar and legend margins;
      off for a bare battle map (the VTT image).
    """

    player: bool = False
    seen: Seen | None = None
    reveal_secrets: bool | None = None
    tokens: bool = False
    grid: bool = True
    decorations: bool = True
    hatching: bool = True
    title: str | None = None  # the dungeon's title; default: the Dungeon's own
    subtitle: str | None = None  # default: "Level 1 — The Mausoleum"
    entrances: tuple[int, ...] | None = None  # rooms entered from outside; default: the Dungeon's own
    pad: int = 2  # rock around the floor, in tiles
    frame: Frame | None = None  # the part of the grid to draw, instead of the floor grown by ``pad``
    ui_unit: float | None = None  # the margins' unit (title, legend, scale bar), in layout px; default: a tile
    label_scale: float = 1.0  # room numbers and marks, in tiles: larger when a big map is printed small


def font(px: float, *, serif: bool = True, bold: bool = False, italic: bool = False) -> QFont:
    """A font by family name (a bundled one in resources/fonts first), sized in pixels.

    The first installed family of the list is named alone, so SVG files carry one plain
    family name; the style hint picks a fallback when none is installed."""
    f = QFont()
    f.setFamily(_installed_family(serif))
    f.setStyleHint(QFont.StyleHint.Serif if serif else QFont.StyleHint.SansSerif)
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    f.setItalic(italic)
    return f


@cache
def _installed_family(serif: bool) -> str:
    bundled = [f for f in _bundled_families() if ("Serif" in f) == serif and "Mono" not in f]
    wanted = [*bundled, *(SERIF_FAMILIES if serif else SANS_FAMILIES)]
    installed = set(QFontDatabase.families())
    return next((f for f in wanted if f in installed), wanted[-1])


def _bundled_families() -> tuple[str, ...]:
    from desktop.render.fonts import bundled_families

    return bundled_families()


class MapLayout:
    """Where everything of one map goes, in layout pixels."""

    def __init__(self, level: LevelData, px_per_tile: float = 32, options: MapOptions | None = None) -> None:
        self.level = level
        opts = options or MapOptions()
        reveal = opts.reveal_secrets if opts.reveal_secrets is not None else not opts.player
        if opts.player and opts.seen is None and not reveal:
            # The players' handout: a room only a secret door leads to is not drawn at all (a box
            # with no way in would give the secret away), as in the players' VTT file.
            opts = replace(opts, seen=open_part(level))
        self.options = opts
        self.t = float(px_per_tile)
        self.geometry: LevelGeometry = level_geometry(
            level, seen=opts.seen, reveal_secrets=reveal, wall_secret_doors=True
        )
        min_w = 18 if opts.decorations else 0
        self.frame: Frame = opts.frame if opts.frame is not None else map_frame(level, pad=opts.pad, min_w=min_w)
        self.title = opts.title if opts.title is not None else (level.title if isinstance(level, Dungeon) else "")
        if opts.subtitle is not None:
            self.subtitle = opts.subtitle
        else:
            self.subtitle = f"Level {level.depth}" + (f" — {level.name}" if level.name else "")
        if opts.entrances is not None:
            self.entrances = opts.entrances
        else:
            self.entrances = tuple(level.entrances) if isinstance(level, Dungeon) and level.depth == 1 else ()
        self.legend = self._legend_items() if opts.decorations else []
        t = self.t
        self.u = u = opts.ui_unit if opts.ui_unit is not None else t
        self.lt = t * opts.label_scale  # the size of a label, where a tile would be
        # The scale bar: 5 tiles, or more when tiles are small beside the lettering.
        self.scale_tiles = next((n for n in (5, 10, 20, 50) if n * t >= 3.2 * u), 100)
        self.margin = 0.5 * u if opts.decorations else 0.0
        self.top = 2.4 * u if opts.decorations else 0.0
        map_w = self.frame.w * t
        self.map_rect = QRectF(self.margin, self.top, map_w, self.frame.h * t)
        self.legend_x = 0.1 * u + max(self.scale_tiles * t, 3.6 * u) + 1.2 * u  # from the map's left edge
        self.legend_col_w = 4.8 * u
        self.legend_cols = max(1, int((map_w - self.legend_x) // self.legend_col_w)) if self.legend else 1
        rows = math.ceil(len(self.legend) / self.legend_cols) if self.legend else 0
        self.bottom = max(2.2 * u, (rows * 0.85 + 0.9) * u) if opts.decorations else 0.0
        self.width = map_w + 2 * self.margin
        self.height = self.top + self.frame.h * t + self.bottom

    def size(self) -> tuple[int, int]:
        return math.ceil(self.width), math.ceil(self.height)

    def point(self, x: float, y: float) -> QPointF:
        """Layout pixels of grid corner ``(x, y)``."""
        return QPointF(
            self.map_rect.left() + (x - self.frame.x) * self.t, self.map_rect.top() + (y - self.frame.y) * self.t
        )

    def lines(self, segments: Iterable[Segment]) -> list[QLineF]:
        """Layout pixels of grid segments: :meth:`point` of both ends, the same numbers, worked out
        without a QPointF apiece (the walls and the grid are thousands of segments a picture)."""
        left, top, fx, fy, t = self.map_rect.left(), self.map_rect.top(), self.frame.x, self.frame.y, self.t
        return [
            QLineF(left + (s.x1 - fx) * t, top + (s.y1 - fy) * t, left + (s.x2 - fx) * t, top + (s.y2 - fy) * t)
            for s in segments
        ]

    def centre(self, tile: tuple[int, int]) -> QPointF:
        return self.point(tile[0] + 0.5, tile[1] + 0.5)

    def tile_rect(self, x: int, y: int, w: int = 1, h: int = 1) -> QRectF:
        return QRectF(self.point(x, y), self.point(x + w, y + h))

    def _legend_items(self) -> list[str]:
        kinds = {d.kind for d in self.geometry.doors}
        if self.options.player:
            kinds.discard("secret")
        items: list[str] = [
            k for k in ("archway", "wooden", "iron", "stuck", "locked", "barricaded", "secret") if k in kinds
        ]
        if any((st.tile[0], st.tile[1]) in self.geometry.floor for st in self.level.stairs):
            items.append("stairs")
        if not self.options.player:
            if any(r.traps for r in self.level.rooms):
                items.append("trap")
            if any(r.corpses for r in self.level.rooms):
                items.append("corpse")
            if self.options.tokens and any(r.monsters for r in self.level.rooms):
                items.append("monster")
            seen = self.options.seen
            if any(r.boss and (seen is None or r.id in seen.rooms) for r in self.level.rooms):
                items.append("boss")
        if self.entrances:
            items.append("entrance")
        return items


def hatch_strokes(floor: frozenset[Tile], rng: random.Random) -> list[tuple[float, float, float, float]]:
    """The hatching's strokes along every unit of wall, on the rock side, one or two clusters kept
    inside the halo, in tiles: ``(a, b, dx, dy)`` for the stroke from ``(a - dx, b - dy)`` to
    ``(a + dx, b + dy)``.  They depend on the floor and the seed only, not on the picture's size:
    the exports of one level (the PNG maps, the PDF's, the SVG's, the VTT pictures) work them out
    once (:func:`dungeon_gen.export.walls.geometry_cache`) and scale them."""
    out: list[tuple[float, float, float, float]] = []
    random_, bits, cos, sin, pi = rng.random, rng.getrandbits, math.cos, math.sin, math.pi
    # Random.uniform(a, b) and Random.randint(3, 4) written out as Random writes them (the same
    # numbers from the same seed), without their calls' cost: this ran for every unit of wall.
    for x, y in sorted(floor):
        for sx, sy in STEPS:
            if (x + sx, y + sy) in floor:
                continue
            # The edge's midpoint, the outward normal (sx, sy) and the direction along it (-sy, sx).
            mx, my = x + 0.5 + sx * 0.5, y + 0.5 + sy * 0.5
            for _ in range(2 if random_() < 0.6 else 1):
                d = 0.2 + (0.48 - 0.2) * random_()
                a = -0.45 + (0.45 - -0.45) * random_()
                cx, cy = mx + sx * d - sy * a, my + sy * d + sx * a
                angle = 0 + (pi - 0) * random_()
                half = 0.16 + (0.24 - 0.16) * random_()
                dx, dy = cos(angle), sin(angle)
                r = bits(2)
                while r >= 2:
                    r = bits(2)
                n = 3 + r
                for i in range(n):
                    o = (i - (n - 1) / 2) * 0.09
                    out.append((cx - dy * o, cy + dx * o, dx * half, dy * half))
    return out


LEGEND_TEXT = {
    "archway": "archway",
    "wooden": "wooden door",
    "iron": "iron door",
    "stuck": "stuck door",
    "locked": "locked door",
    "barricaded": "barricaded",
    "secret": "secret door",
    "stairs": "stairs",
    "trap": "trap",
    "corpse": "corpse",
    "monster": "monster",
    "boss": "boss's lair",
    "entrance": "entrance",
}


#: The map's layers, bottom to top: what the SVG export groups for a GM to show or hide.
LAYERS: tuple[str, ...] = (
    "paper",  # the margins' ground
    "rock",
    "floor",
    "grid",
    "stairs",
    "walls",
    "doors",
    "secrets",  # the secret doors' marks (GM map)
    "traps",  # traps and corpses (GM map)
    "monsters",  # monster tokens (GM map, with tokens on)
    "entrances",
    "labels",  # room numbers and where the stairs lead (GM map)
    "margins",  # the frame, title, north arrow, scale bar and legend
)


def paint_map(
    painter: QPainter, layout: MapLayout, palette: Palette = PALETTE, layers: Iterable[str] | None = None
) -> None:
    """Draw the map of ``layout`` with ``painter`` (in layout pixels): every layer, or those named."""
    MapPainter(painter, layout, palette).paint(layers)


class MapPainter:
    def __init__(self, painter: QPainter, layout: MapLayout, palette: Palette = PALETTE) -> None:
        self.p = painter
        self.lay = layout
        self.c = palette
        self.t = layout.t
        self.u = layout.u
        self.lt = layout.lt
        self.opts = layout.options
        self.floor = layout.geometry.floor
        self.rng = random.Random(layout.level.seed * 7919 + 17)  # cosmetic only: hatching

    # --- the whole map -----------------------------------------------------------------------------

    def paint(self, layers: Iterable[str] | None = None) -> None:
        """Draw the map, or only the named :data:`LAYERS` (in their own order, whatever the
        order given): the SVG export draws each layer into a group of its own."""
        want = set(LAYERS) if layers is None else set(layers)
        unknown = want - set(LAYERS)
        if unknown:
            raise ValueError(f"unknown map layer(s) {sorted(unknown)}; the layers are {', '.join(LAYERS)}")
        p = self.p
        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        if self.opts.decorations and "paper" in want:
            p.fillRect(QRectF(0, 0, self.lay.width, self.lay.height), self.c.paper)
        p.setClipRect(self.lay.map_rect)
        if "rock" in want:
            p.fillRect(self.lay.map_rect, self.c.rock)
            if self.opts.hatching:
                self.paint_hatching()
        if "floor" in want:
            self.paint_floor()
        if "grid" in want and self.opts.grid:
            self.paint_grid()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        if "stairs" in want:
            self.paint_stairs()
        if "walls" in want:
            self.paint_walls()
        if "doors" in want:
            self.paint_doors()
        if "secrets" in want:
            self.paint_secret_marks()
        if not self.opts.player:
            if "traps" in want:
                self.paint_gm_marks()
            if "monsters" in want:
                self.paint_tokens()
        if "entrances" in want:
            self.paint_entrances()
        if "labels" in want:
            if not self.opts.player:
                self.paint_room_numbers()
            self.paint_stairs_labels()
        p.setClipping(False)
        if self.opts.decorations and "margins" in want:
            self.paint_frame()
            self.paint_title()
            self.paint_compass()
            self.paint_scale_bar()
            self.paint_legend()
        p.restore()

    # --- rock, floor, walls ------------------------------------------------------------------------

    def paint_hatching(self) -> None:
        """A lighter halo of rock along every wall (the walls stroked with a wide round pen, so it
        follows the rooms' shapes), hatched with short strokes in clusters of three or four."""
        p, t, lay = self.p, self.t, self.lay
        walls = lay.lines(lay.geometry.walls)
        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        halo = QPen(
            self.c.rock_near, 1.6 * t, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin
        )
        p.setPen(halo)
        p.drawLines(walls)
        origin = lay.point(0, 0)
        ox, oy = origin.x(), origin.y()
        memo = level_memo(lay.level, "hatching")  # by floor: the same strokes in every picture of it
        strokes = memo.get(self.floor)
        if strokes is None:
            strokes = memo[self.floor] = hatch_strokes(self.floor, self.rng)
        lines = [
            QLineF(ox + a * t - dx * t, oy + b * t - dy * t, ox + a * t + dx * t, oy + b * t + dy * t)
            for a, b, dx, dy in strokes
        ]
        # Flat caps: round caps cost seven times as much to rasterise with antialiasing.
        p.setPen(QPen(self.c.hatch, max(0.8, t * 0.035), Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        p.drawLines(lines)
        p.restore()

    def paint_floor(self) -> None:
        p, lay = self.p, self.lay
        # One rectangle per run of floor tiles in a row.
        rows: dict[int, list[int]] = {}
        for x, y in self.floor:
            rows.setdefault(y, []).append(x)
        rects = [lay.tile_rect(a, y, b - a, 1) for y, xs in rows.items() for a, b in runs(xs)]
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(self.c.floor)
        p.drawRects(rects)

    def paint_grid(self) -> None:
        lay = self.lay
        memo = level_memo(lay.level, "grid")  # by floor: the same lines in every picture of it
        edges = memo.get(self.floor)
        if edges is None:
            edges = memo[self.floor] = interior_edges(self.floor)
        self.p.setPen(QPen(self.c.grid, max(1.0, self.t / 40)))
        self.p.drawLines(lay.lines(edges))

    def wall_width(self) -> float:
        # An even number of pixels keeps the wall crisp on the tile boundary.
        return max(2.0, 2 * round(self.t * 0.065))

    def paint_walls(self) -> None:
        p, lay = self.p, self.lay
        pen = QPen(self.c.wall, self.wall_width(), Qt.PenStyle.SolidLine, Qt.PenCapStyle.SquareCap)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        p.setPen(pen)
        p.drawLines(lay.lines(lay.geometry.walls))

    # --- doors -------------------------------------------------------------------------------------

    def paint_secret_marks(self) -> None:
        seen_connections = self.opts.seen.connections if self.opts.seen is not None else frozenset()
        for d in self.lay.geometry.doors:
            if d.secret and (not self.opts.player or d.connection in seen_connections):
                self.draw_secret_mark(d)

    def paint_doors(self) -> None:
        for d in self.lay.geometry.doors:
            if d.secret:
                continue
            self.p.save()
            self._door_transform(d)
            draw_door_symbol(self.p, d.kind, self.c, self.wall_width() / self.t)
            self.p.restore()

    def _door_transform(self, d: DoorEdge) -> None:
        """Unit coordinates: the door's edge from (-0.5, 0) to (0.5, 0), +y into room ``to``."""
        mx, my = d.segment.midpoint
        self.p.translate(self.lay.point(mx, my))
        angle = {(0, 1): 0.0, (0, -1): 180.0, (1, 0): -90.0, (-1, 0): 90.0}[d.inward]
        self.p.rotate(angle)
        self.p.scale(self.t, self.t)

    def draw_secret_mark(self, d: DoorEdge) -> None:
        mx, my = d.segment.midpoint
        draw_secret_s(self.p, self.lay.point(mx, my), self.lt, self.c)

    # --- stairs, entrances -------------------------------------------------------------------------

    def paint_stairs(self) -> None:
        for s in self.lay.level.stairs:
            tile = (s.tile[0], s.tile[1])
            if tile not in self.floor:
                continue
            down = s.to_depth > self.lay.level.depth
            toward = self.stairs_direction(tile)
            self.p.save()
            self.p.translate(self.lay.centre(tile))
            self.p.rotate({(0, -1): 0.0, (0, 1): 180.0, (1, 0): 90.0, (-1, 0): -90.0}[toward])
            self.p.scale(self.t, self.t)
            draw_stairs_symbol(self.p, self.c, down)
            self.p.restore()

    def paint_stairs_labels(self) -> None:
        """ "↓2" (where the stairs lead) beside the stairs, away from the wall: GM map only."""
        if self.opts.player:
            return
        for s in self.lay.level.stairs:
            tile = (s.tile[0], s.tile[1])
            if tile not in self.floor:
                continue
            text = ("↓" if s.to_depth > self.lay.level.depth else "↑") + str(s.to_depth)
            side = self.stairs_label_tile(tile, self.stairs_direction(tile))
            self.p.setFont(font(self.lt * 0.36, bold=True))
            _halo_text(self.p, self.lay.tile_rect(*side), Qt.AlignmentFlag.AlignCenter, text, self.c)

    def stairs_direction(self, tile: Tile) -> tuple[int, int]:
        """The steps descend towards a wall next to the tile, if there is one (north if none)."""
        return next(((dx, dy) for dx, dy in STEPS if (tile[0] + dx, tile[1] + dy) not in self.floor), (0, -1))

    def stairs_label_tile(self, tile: Tile, toward: tuple[int, int]) -> Tile:
        """Where "↓2" goes: a free floor tile beside the stairs, away from the wall if it can."""
        room = next((r for r in self.lay.level.rooms if tile in r.floor()), None)
        busy = self.marks(room) if room is not None else set()
        dx, dy = toward
        for sx, sy in ((-dx, -dy), (dy, dx), (-dy, -dx), (-dx + dy, -dy + dx), (-dx - dy, -dy - dx)):
            n = (tile[0] + sx, tile[1] + sy)
            if n in self.floor and n not in busy:
                return n
        return tile

    def entrance_arrows(self) -> list[tuple[QPointF, QPointF]]:
        """For each entrance room, an arrow from the map's edge (or from the rock beside it)
        to the room's wall, along the clearest short line."""
        out: list[tuple[QPointF, QPointF]] = []
        fr = self.lay.frame
        level = self.lay.level
        ways = {w.room: w for w in getattr(level, "entrance_ways", []) if w.room in self.lay.entrances}
        for way in ways.values():
            # the entrance corridor from the map's edge: the arrow comes in along it
            (x0, y0), (x1, y1) = way.path[0], way.path[min(1, len(way.path) - 1)]
            dx, dy = (x1 - x0, y1 - y0) if (x1, y1) != (x0, y0) else _SIDE_IN[way.side]
            head = self.lay.point(x0 + 0.5, y0 + 0.5)
            tail = self.lay.point(x0 + 0.5 - dx * 2.5, y0 + 0.5 - dy * 2.5)
            out.append((tail, head))
        for rid in self.lay.entrances:
            if rid in ways:
                continue
            room = next((r for r in level.rooms if r.id == rid), None)
            if room is None or not (room.floor() & self.floor):
                continue
            best: tuple[int, int, QPointF, QPointF] | None = None
            for dx, dy in ((0, -1), (-1, 0), (0, 1), (1, 0)):
                start_tile, length, blocked = _ray_from_room(room, (dx, dy), self.floor, fr)
                if length < 1:
                    continue
                sx, sy = start_tile
                wall = self.lay.point(sx + 0.5 - dx * 0.5, sy + 0.5 - dy * 0.5)
                span = length if not blocked else min(length, 3)
                tail = self.lay.point(sx + 0.5 + dx * (span - 0.5), sy + 0.5 + dy * (span - 0.5))
                key = (1 if blocked else 0, length)
                if best is None or key < best[:2]:
                    best = (key[0], key[1], tail, wall)
            if best is not None:
                out.append((best[2], best[3]))
        return out

    def paint_entrances(self) -> None:
        for tail, head in self.entrance_arrows():
            draw_arrow(self.p, tail, head, self.lt, self.c)

    # --- GM marks: traps, corpses, monsters, room numbers ------------------------------------------

    def paint_gm_marks(self) -> None:
        p, t = self.p, self.lt
        for room in self.lay.level.rooms:
            if self.opts.seen is not None and room.id not in self.opts.seen.rooms:
                continue
            for trap in room.traps:
                if trap.tile is not None:
                    draw_trap(p, self.lay.centre((trap.tile[0], trap.tile[1])), t, self.c)
            for corpse in room.corpses:
                draw_corpse(p, self.lay.centre((corpse.tile[0], corpse.tile[1])), t, self.c)

    def paint_tokens(self) -> None:
        if not self.opts.tokens:
            return
        for room in self.lay.level.rooms:
            if self.opts.seen is not None and room.id not in self.opts.seen.rooms:
                continue
            for group in room.monsters:
                for pos in group.positions:
                    draw_token(
                        self.p, self.lay.centre((pos[0], pos[1])), self.lt, initials(group.monster), self.c, room.boss
                    )

    def marks(self, room: Room) -> set[Tile]:
        """The tiles of a room that carry a GM mark (trap, corpse, monster token)."""
        out: set[Tile] = set()
        if not self.opts.player:
            out |= {(tr.tile[0], tr.tile[1]) for tr in room.traps if tr.tile is not None}
            out |= {(c.tile[0], c.tile[1]) for c in room.corpses}
            if self.opts.tokens:
                out |= {(x, y) for g in room.monsters for x, y in g.positions}
        return out

    def occupied(self, room: Room) -> set[Tile]:
        """Tiles a room number must not cover: marks, stairs and the stairs' labels."""
        out = self.marks(room)
        for s in self.lay.level.stairs:
            tile = (s.tile[0], s.tile[1])
            out.add(tile)
            if s.room == room.id and not self.opts.player:
                out.add(self.stairs_label_tile(tile, self.stairs_direction(tile)))
        return out

    def paint_room_numbers(self) -> None:
        p, t = self.p, self.lt
        f = font(t * 0.5, bold=True)
        for room in self.lay.level.rooms:
            if self.opts.seen is not None and room.id not in self.opts.seen.rooms:
                continue
            x, y = label_position(room, self.occupied(room), 0.35 * self.opts.label_scale)
            draw_room_number(p, self.lay.point(x, y), t, str(room.id), self.c, boss=room.boss, font_=f)

    # --- margins -----------------------------------------------------------------------------------

    def paint_frame(self) -> None:
        p = self.p
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(self.c.ink, max(1.0, self.u * 0.05)))
        p.drawRect(self.lay.map_rect)

    def paint_title(self) -> None:
        p, t, lay = self.p, self.u, self.lay
        avail = lay.map_rect.width() - 2.2 * t
        title = lay.title or lay.subtitle
        subtitle = lay.subtitle if lay.title else ""
        size = t * 0.78
        f = font(size, bold=True)
        while QFontMetricsF(f).horizontalAdvance(title) > avail and size > t * 0.35:
            size *= 0.92
            f = font(size, bold=True)
        p.setPen(self.c.ink)
        p.setFont(f)
        title = QFontMetricsF(f).elidedText(title, Qt.TextElideMode.ElideRight, avail)
        p.drawText(
            QRectF(lay.margin, 0.2 * t, avail, 1.2 * t),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom,
            title,
        )
        if subtitle:
            f2 = font(t * 0.46, italic=True)
            p.setFont(f2)
            subtitle = QFontMetricsF(f2).elidedText(subtitle, Qt.TextElideMode.ElideRight, avail)
            p.drawText(
                QRectF(lay.margin, 1.4 * t, avail, 0.8 * t),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                subtitle,
            )

    def paint_compass(self) -> None:
        lay, t = self.lay, self.u
        centre = QPointF(lay.map_rect.right() - 0.8 * t, 1.5 * t)
        draw_north_arrow(self.p, centre, t, self.c)

    def paint_scale_bar(self) -> None:
        p, t, u, lay = self.p, self.t, self.u, self.lay
        tiles = lay.scale_tiles
        step = 1 if tiles <= 10 else tiles // 5  # black and white blocks
        left = lay.margin + 0.1 * u
        top = lay.map_rect.bottom() + 0.75 * u
        h = 0.22 * u
        p.setPen(QPen(self.c.ink, max(1.0, u * 0.04)))
        for i in range(0, tiles, step):
            p.setBrush(self.c.ink if (i // step) % 2 == 0 else self.c.label_fill)
            p.drawRect(QRectF(left + i * t, top, step * t, h))
        metres = lay.level.grid.tile_m
        p.setFont(font(u * 0.32))
        for i in (0, tiles):
            p.drawText(
                QRectF(left + i * t - u, top + h + 0.05 * u, 2 * u, 0.45 * u),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                _metres(i * metres),
            )
        p.setFont(font(u * 0.3, italic=True))
        p.drawText(
            QRectF(left, top - 0.55 * u, 8 * u, 0.5 * u),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom,
            f"1 square = {_metres(metres)}",
        )

    def paint_legend(self) -> None:
        lay, t, p = self.lay, self.u, self.p
        if not lay.legend:
            return
        x0 = lay.margin + lay.legend_x
        y0 = lay.map_rect.bottom() + 0.45 * t
        col_w = lay.legend_col_w
        p.setFont(font(t * 0.36))
        for i, item in enumerate(lay.legend):
            col, row = i % lay.legend_cols, i // lay.legend_cols
            x, y = x0 + col * col_w, y0 + row * 0.85 * t
            icon = QRectF(x, y, 1.2 * t, t * 0.7)
            self.legend_icon(item, icon)
            p.setPen(self.c.ink)
            p.drawText(
                QRectF(x + 1.4 * t, y, col_w - 1.5 * t, 0.7 * t),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                LEGEND_TEXT[item],
            )

    def legend_icon(self, item: str, rect: QRectF) -> None:
        p, t, c = self.p, self.u, self.c
        mid = rect.center()
        p.save()
        if item in ("archway", "wooden", "iron", "stuck", "locked", "barricaded", "secret"):
            # A strip of floor across a wall, the door in a gap of the wall (unit: 0.8 tile).
            u = 0.8 * t
            p.translate(QPointF(rect.left() + 0.75 * u, mid.y()))
            p.scale(u, u)
            p.fillRect(QRectF(-0.75, -0.4, 1.5, 0.8), c.floor)
            wall_w = max(2.0, 2 * round(t * 0.065)) / u
            p.setPen(QPen(c.wall, wall_w, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
            if item == "secret":
                p.drawLine(QPointF(-0.75, 0), QPointF(0.75, 0))
                p.restore()
                p.save()
                draw_secret_s(p, QPointF(rect.left() + 0.75 * u, mid.y()), t, c)
            else:
                p.drawLine(QPointF(-0.75, 0), QPointF(-0.5 + wall_w / 2, 0))
                p.drawLine(QPointF(0.5 - wall_w / 2, 0), QPointF(0.75, 0))
                draw_door_symbol(p, item, c, wall_w)
        elif item == "stairs":
            p.fillRect(QRectF(mid.x() - 0.35 * t, mid.y() - 0.35 * t, 0.7 * t, 0.7 * t), c.floor)
            p.translate(mid)
            p.scale(t * 0.7, t * 0.7)
            draw_stairs_symbol(p, c, True)
        elif item == "trap":
            draw_trap(p, mid, t, c)
        elif item == "corpse":
            draw_corpse(p, mid, t, c)
        elif item == "monster":
            draw_token(p, mid, t, "Gb", c, False)
        elif item == "boss":
            draw_room_number(p, mid, t * 0.8, "7", c, boss=True)
        elif item == "entrance":
            draw_arrow(p, QPointF(mid.x() - 0.55 * t, mid.y()), QPointF(mid.x() + 0.5 * t, mid.y()), t * 0.8, c)
        p.restore()


# --- symbols, in their own coordinates ------------------------------------------------------------


def draw_room_number(
    p: QPainter, centre: QPointF, t: float, text: str, c: Palette, *, boss: bool, font_: QFont | None = None
) -> None:
    """A room number in its circle, ``t`` a tile's size; a second ring marks the boss's lair."""
    f = font_ or font(t * 0.5, bold=True)
    p.setFont(f)
    r = max(t * 0.36, QFontMetricsF(f).horizontalAdvance(text) / 2 + t * 0.12)
    p.setPen(QPen(c.ink, max(1.0, t * 0.045)))
    p.setBrush(c.label_fill)
    p.drawEllipse(centre, r, r)
    if boss:
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(centre, r + t * 0.08, r + t * 0.08)
    p.setPen(c.ink)
    p.drawText(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, text)


def draw_door_symbol(p: QPainter, kind: str, c: Palette, wall_w: float) -> None:
    """A door on the edge from (-0.5, 0) to (0.5, 0) of a unit tile, +y facing into room ``to``.

    ``wall_w`` is the wall's thickness in the same units.
    """
    ink = QPen(c.ink, max(0.05, wall_w * 0.45))
    ink.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    if kind == "archway":
        # The gap stays open; two short jambs across the wall line mark the arch.
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(c.wall)
        jw = max(0.1, wall_w)
        p.drawRects([QRectF(-0.5, -0.2, jw, 0.4), QRectF(0.5 - jw, -0.2, jw, 0.4)])
        return
    leaf = QRectF(-0.4, -0.16, 0.8, 0.32)
    if kind == "iron":
        p.setPen(ink)
        p.setBrush(c.iron)
        p.drawRect(leaf)
        bars = [QLineF(-0.27 + i * 0.135, -0.11, -0.27 + i * 0.135, 0.11) for i in range(5)]
        p.setPen(QPen(c.bars, 0.035, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        p.drawLines([*bars, QLineF(-0.34, 0.0, 0.34, 0.0)])
        return
    p.setPen(ink)
    p.setBrush(c.wood)
    p.drawRect(leaf)
    if kind == "stuck":
        # A wedge driven under the door on the corridor side, and a crack across the leaf.
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(c.ink)
        p.drawPolygon(QPolygonF([QPointF(0.02, -0.17), QPointF(0.36, -0.17), QPointF(0.36, -0.4)]))
        p.setPen(QPen(c.ink, 0.045, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap, Qt.PenJoinStyle.MiterJoin))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPolyline(
            QPolygonF([QPointF(-0.22, -0.16), QPointF(-0.14, -0.05), QPointF(-0.24, 0.04), QPointF(-0.16, 0.16)])
        )
    elif kind == "locked":
        # A keyhole in the middle of the leaf.
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(c.ink)
        path = QPainterPath()
        path.addEllipse(QPointF(0.0, -0.045), 0.07, 0.07)
        path.addPolygon(
            QPolygonF([QPointF(-0.03, -0.04), QPointF(0.03, -0.04), QPointF(0.065, 0.12), QPointF(-0.065, 0.12)])
        )
        path.setFillRule(Qt.FillRule.WindingFill)
        p.drawPath(path)
    elif kind == "barricaded":
        # An X of planks nailed across the doorway.
        planks = [QLineF(-0.44, -0.36, 0.44, 0.36), QLineF(-0.44, 0.36, 0.44, -0.36)]
        p.setPen(QPen(c.ink, 0.19, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        p.drawLines(planks)
        p.setPen(QPen(c.plank, 0.11, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        p.drawLines(planks)


def draw_secret_s(p: QPainter, at: QPointF, t: float, c: Palette) -> None:
    """The GM's "S" on a wall line (the wall is drawn through)."""
    f = font(t * 0.62, bold=True)
    path = QPainterPath()
    fm = QFontMetricsF(f)
    w = fm.horizontalAdvance("S")
    path.addText(QPointF(at.x() - w / 2, at.y() + fm.capHeight() / 2), f, "S")
    p.save()
    p.setPen(
        QPen(c.floor, max(1.5, t * 0.09), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    )
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(path)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(c.trap)
    p.drawPath(path)
    p.restore()


def draw_stairs_symbol(p: QPainter, c: Palette, down: bool) -> None:
    """Steps filling a unit tile centred on 0, 0 and descending towards -y: the treads narrow
    as they go down (a stair going up keeps them even)."""
    p.setPen(QPen(c.ink, 0.05, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap, Qt.PenJoinStyle.MiterJoin))
    p.setBrush(c.floor)
    p.drawRect(QRectF(-0.44, -0.44, 0.88, 0.88))
    n = 6
    treads: list[QLineF] = []
    for i in range(n):
        y = 0.44 - (i + 0.5) * (0.88 / n)
        half = 0.44 - (i * 0.05 if down else 0.0)
        treads.append(QLineF(-half, y, half, y))
    p.setPen(QPen(c.ink, 0.06, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    p.drawLines(treads)
    if down:  # the darkness at the bottom
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(c.ink)
        p.drawPolygon(
            QPolygonF([QPointF(-0.19, -0.44), QPointF(0.19, -0.44), QPointF(0.14, -0.3), QPointF(-0.14, -0.3)])
        )


def draw_trap(p: QPainter, at: QPointF, t: float, c: Palette) -> None:
    f = font(t * 0.62, bold=True)
    p.setFont(f)
    rect = QRectF(at.x() - 0.5 * t, at.y() - 0.5 * t, t, t)
    _halo_text(p, rect, Qt.AlignmentFlag.AlignCenter, "T", c, colour=c.trap)


def draw_corpse(p: QPainter, at: QPointF, t: float, c: Palette) -> None:
    """A small Latin cross."""
    p.save()
    p.setPen(QPen(c.corpse, max(1.2, t * 0.08), Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    p.drawLine(QPointF(at.x(), at.y() - 0.3 * t), QPointF(at.x(), at.y() + 0.32 * t))
    p.drawLine(QPointF(at.x() - 0.18 * t, at.y() - 0.1 * t), QPointF(at.x() + 0.18 * t, at.y() - 0.1 * t))
    p.restore()


def draw_token(p: QPainter, at: QPointF, t: float, text: str, c: Palette, boss: bool) -> None:
    p.save()
    r = 0.34 * t
    fill = QColor(c.boss if boss else c.token)
    fill.setAlpha(200)
    p.setPen(QPen(c.label_fill, max(1.0, t * 0.04)))
    p.setBrush(fill)
    p.drawEllipse(at, r, r)
    p.setPen(c.label_fill)
    p.setFont(font(t * 0.28, serif=False, bold=True))
    p.drawText(QRectF(at.x() - r, at.y() - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, text)
    p.restore()


def draw_arrow(p: QPainter, tail: QPointF, head: QPointF, t: float, c: Palette) -> None:
    """A bold arrow whose point touches ``head``."""
    line = QLineF(tail, head)
    if line.length() < 1e-6:
        return
    ux, uy = line.dx() / line.length(), line.dy() / line.length()
    nx, ny = -uy, ux
    hl, hw, sw = 0.45 * t, 0.28 * t, 0.09 * t
    base = QPointF(head.x() - ux * hl, head.y() - uy * hl)
    shape = QPolygonF(
        [
            QPointF(tail.x() + nx * sw, tail.y() + ny * sw),
            QPointF(base.x() + nx * sw, base.y() + ny * sw),
            QPointF(base.x() + nx * hw, base.y() + ny * hw),
            head,
            QPointF(base.x() - nx * hw, base.y() - ny * hw),
            QPointF(base.x() - nx * sw, base.y() - ny * sw),
            QPointF(tail.x() - nx * sw, tail.y() - ny * sw),
        ]
    )
    p.save()
    p.setPen(
        QPen(c.label_fill, max(1.0, t * 0.05), Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap, Qt.PenJoinStyle.MiterJoin)
    )
    p.setBrush(c.entrance)
    p.drawPolygon(shape)
    p.restore()


def draw_north_arrow(p: QPainter, centre: QPointF, t: float, c: Palette) -> None:
    """A small compass rose: four points, each half dark and half light, and an "N" above."""
    p.save()
    p.translate(centre)
    p.setPen(QPen(c.ink, max(1.0, t * 0.035), Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap, Qt.PenJoinStyle.MiterJoin))
    h = 0.62 * t
    waist = 0.2 * t
    points = [(0.0, -h), (h * 0.6, 0.0), (0.0, h), (-h * 0.6, 0.0)]
    for i, (px, py) in enumerate(points):
        tip = QPointF(px, py)
        # The two corners of the waist on either side of this point.
        ax, ay = (-py, px) if i % 2 == 0 else (py, -px)
        norm = math.hypot(ax, ay) or 1.0
        left = QPointF(ax / norm * waist, ay / norm * waist)
        right = QPointF(-left.x(), -left.y())
        p.setBrush(c.ink)
        p.drawPolygon(QPolygonF([tip, right, QPointF(0, 0)]))
        p.setBrush(c.label_fill)
        p.drawPolygon(QPolygonF([tip, left, QPointF(0, 0)]))
    p.setFont(font(t * 0.5, bold=True))
    p.setPen(c.ink)
    p.drawText(QRectF(-0.6 * t, -h - 0.6 * t, 1.2 * t, 0.55 * t), Qt.AlignmentFlag.AlignCenter, "N")
    p.restore()


def _halo_text(
    p: QPainter, rect: QRectF, flags: Qt.AlignmentFlag, text: str, c: Palette, colour: QColor | None = None
) -> None:
    """Text with a parchment outline so it reads over lines and hatching."""
    f = p.font()
    fm = QFontMetricsF(f)
    br = fm.boundingRect(rect, int(flags), text)
    path = QPainterPath()
    path.addText(QPointF(br.left(), br.top() + fm.ascent()), f, text)
    p.save()
    p.setPen(
        QPen(
            c.label_fill,
            max(1.5, f.pixelSize() * 0.16),
            Qt.PenStyle.SolidLine,
            Qt.PenCapStyle.RoundCap,
            Qt.PenJoinStyle.RoundJoin,
        )
    )
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(path)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(colour or c.ink))
    p.drawPath(path)
    p.restore()


# --- pure helpers ---------------------------------------------------------------------------------


def initials(name: str) -> str:
    """ "Goblin Scrapper" -> "GS", "Hobgoblin" -> "Ho"."""
    words = [w for w in name.replace("-", " ").split() if w]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].capitalize()
    return (words[0][0] + words[1][0]).upper()


def _metres(m: float) -> str:
    return f"{m:g} m"


_SIDE_IN = {"north": (0, 1), "south": (0, -1), "west": (1, 0), "east": (-1, 0)}


def _ray_from_room(room: Room, step: tuple[int, int], floor: frozenset[Tile], frame: Frame) -> tuple[Tile, int, bool]:
    """From the middle of one side of ``room`` outwards: the first tile outside the room,
    how many tiles there are to the frame's edge, and whether other floor lies in the way."""
    tiles = room.floor()
    dx, dy = step
    if dx:
        ys = sorted({y for _, y in tiles})
        y = ys[len(ys) // 2]
        row = [x for x, yy in tiles if yy == y]
        x = (max(row) + 1) if dx > 0 else (min(row) - 1)
        start = (x, y)
    else:
        xs = sorted({x for x, _ in tiles})
        x = xs[len(xs) // 2]
        col = [y for xx, y in tiles if xx == x]
        y = (max(col) + 1) if dy > 0 else (min(col) - 1)
        start = (x, y)
    length, blocked = 0, False
    cx, cy = start
    while frame.x <= cx < frame.x + frame.w and frame.y <= cy < frame.y + frame.h:
        if (cx, cy) in floor:
            blocked = True
            break
        length += 1
        cx, cy = cx + dx, cy + dy
    return start, length, blocked


def label_position(room: Room, occupied: set[Tile], radius: float = 0.35) -> tuple[float, float]:
    """Where a room's number goes, in grid units: the middle of the room when free, else the
    free floor tile nearest to it, preferring tiles away from the walls."""
    tiles = room.floor()
    if not tiles:
        return (room.x + room.w / 2, room.y + room.h / 2)
    cx = sum(x + 0.5 for x, _ in tiles) / len(tiles)
    cy = sum(y + 0.5 for _, y in tiles) / len(tiles)
    # The tiles a label at (cx, cy) would cover.
    covered = {(math.floor(cx + ox), math.floor(cy + oy)) for ox in (-radius, radius) for oy in (-radius, radius)}
    if covered <= tiles and not covered & occupied:
        return (cx, cy)
    depth = _wall_distance(tiles)
    free = [t for t in tiles if t not in occupied] or list(tiles)
    best = min(free, key=lambda t: (-min(depth[t], 2), (t[0] + 0.5 - cx) ** 2 + (t[1] + 0.5 - cy) ** 2, t))
    return (best[0] + 0.5, best[1] + 0.5)


def _wall_distance(tiles: set[Tile]) -> dict[Tile, int]:
    """Steps from each tile to the nearest tile outside the set (1 next to a wall)."""
    dist: dict[Tile, int] = {}
    queue: deque[Tile] = deque()
    for x, y in tiles:
        if any((x + dx, y + dy) not in tiles for dx, dy in STEPS):
            dist[(x, y)] = 1
            queue.append((x, y))
    while queue:
        x, y = queue.popleft()
        for dx, dy in STEPS:
            n = (x + dx, y + dy)
            if n in tiles and n not in dist:
                dist[n] = dist[(x, y)] + 1
                queue.append(n)
    return dist
