"""Map exports: PNG, SVG, the printable PDF booklet, and the Universal VTT file.

Every function creates an offscreen QGuiApplication when none runs, so the
command line can export without a window.  The drawing itself is
:mod:`desktop.render.map_painter`; the geometry and the VTT JSON are Qt-free
(:mod:`dungeon_gen.export.walls`, :mod:`dungeon_gen.export.uvtt`).
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import struct
import uuid
import zlib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import ParamSpec, TypeVar

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QHashSeed,
    QIODevice,
    QMarginsF,
    QPointF,
    QRectF,
    QSize,
    QSizeF,
    Qt,
    QUuid,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QGuiApplication,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPicture,
    QTextBlock,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtSvg import QSvgGenerator

from desktop.render.map_painter import LAYERS, PALETTE, MapLayout, MapOptions, font, paint_map
from dungeon_gen.export import uvtt
from dungeon_gen.export.walls import Seen, open_part
from dungeon_gen.model import Dungeon, LevelData

KeySections = Sequence[tuple[str, str]]  # (heading, Markdown body)

_app: QGuiApplication | None = None

P = ParamSpec("P")
R = TypeVar("R")


def ensure_app() -> None:
    """A QGuiApplication must exist to draw text; make an offscreen one if needed."""
    global _app
    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _app = QGuiApplication([])


def map_options(
    *,
    player: bool = False,
    seen: Seen | None = None,
    tokens: bool = False,
    title: str | None = None,
    grid: bool = True,
    decorations: bool = True,
) -> MapOptions:
    return MapOptions(player=player, seen=seen, tokens=tokens, title=title, grid=grid, decorations=decorations)


def render_image(level: LevelData, *, px_per_tile: int = 32, options: MapOptions | None = None) -> QImage:
    """The map as a QImage, RGB888 (no alpha: the paper and rock fill it): the PNG stores that,
    so the encoder reads its rows as they are, and the picture takes three bytes a pixel, not
    four (the 70 px a tile VTT picture of a 30-room level is 4760 × 6160 px)."""
    ensure_app()
    layout = MapLayout(level, px_per_tile, options)
    w, h = layout.size()
    image = QImage(w, h, QImage.Format.Format_RGB888)
    if not layout.options.decorations:
        image.fill(PALETTE.rock)  # the map fills the whole picture; this only covers rounding
    painter = QPainter(image)
    try:
        paint_map(painter, layout)
    finally:
        painter.end()
    return image


def render_png(
    level: LevelData,
    path: str | Path,
    *,
    player: bool = False,
    px_per_tile: int = 32,
    seen: Seen | None = None,
    tokens: bool = False,
    title: str | None = None,
    options: MapOptions | None = None,
) -> tuple[int, int]:
    """Write the map of one level as a PNG; returns its size in pixels."""
    opts = options or map_options(player=player, seen=seen, tokens=tokens, title=title)
    layout = MapLayout(level, px_per_tile, opts)
    Path(path).write_bytes(layout_png(layout))
    return layout.size()


def png_bytes(
    level: LevelData,
    *,
    player: bool = False,
    px_per_tile: int = 32,
    options: MapOptions | None = None,
) -> bytes:
    """The map as PNG bytes (for the Universal VTT file, or a clipboard)."""
    opts = options or map_options(player=player)
    return layout_png(MapLayout(level, px_per_tile, opts))


STRIP_ROWS = 512  # rows of the picture drawn at a time by layout_png
_STRIP_MARGIN = 16


def layout_png(layout: MapLayout, *, strip_rows: int = STRIP_ROWS, level: int = 1) -> bytes:
    """The map of ``layout`` as an RGB PNG, drawn a strip of rows at a time (issue #15).

    The map is drawn once into a QPicture (the painting commands, recorded), which is played
    into one strip of ``strip_rows`` rows after another: the whole picture (88 MB for the 70 px
    a square VTT picture of a 30-room level) is never held, and each strip is drawn in RGB32,
    the format Qt's raster engine draws fastest (antialiased strokes into RGB888 took twice as
    long), then converted to the PNG's RGB rows.  Each strip is deflated (zlib level ``level``,
    unfiltered rows: see :func:`encode_png`) on a second thread while the next is drawn; zlib lets
    go of the GIL.  The same layout gives the same bytes every time; another ``strip_rows`` may
    shade a few antialiased pixels near the strips' joins a shade differently."""
    ensure_app()
    picture = QPicture()
    painter = QPainter()
    if not painter.begin(picture):
        raise OSError("could not record the map")
    try:
        paint_map(painter, layout)
    finally:
        painter.end()
    w, h = layout.size()
    deflate = zlib.compressobj(level)
    parts: list[bytes] = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        job = None
        for top in range(0, h, strip_rows):
            rows = min(strip_rows, h - top)
            # Drawn with a few rows to spare above and below: antialiasing along a picture's edge
            # differs a little from the same strokes inside it.
            first, last = max(0, top - _STRIP_MARGIN), min(h, top + rows + _STRIP_MARGIN)
            strip = QImage(w, last - first, QImage.Format.Format_RGB32)
            strip.fill(PALETTE.rock)  # the bare battle map's ground (a map with margins paints paper)
            painter = QPainter(strip)
            try:
                painter.translate(0, -first)
                painter.drawPicture(0, 0, picture)
            finally:
                painter.end()
            raw = _unfiltered(strip.convertToFormat(QImage.Format.Format_RGB888), top - first, rows)
            if job is not None:
                parts.append(job.result())
            job = pool.submit(deflate.compress, raw)  # in order: each waits for the one before
        if job is not None:
            parts.append(job.result())
    parts.append(deflate.flush())
    return _png(w, h, b"".join(parts))


def _unfiltered(rgb: QImage, first: int, rows: int) -> bytes:
    """PNG rows of an RGB888 image, ``rows`` of them from row ``first``: each its filter type
    (0, none) and its pixels."""
    bits = memoryview(rgb.constBits()).cast("B")
    stride, row = rgb.bytesPerLine(), 3 * rgb.width()
    return b"\0" + b"\0".join([bits[y * stride : y * stride + row] for y in range(first, first + rows)])


def _png(w: int, h: int, idat: bytes) -> bytes:
    """An 8-bit RGB PNG of ``w`` × ``h`` pixels from its zlib stream of unfiltered rows."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB, deflate, no filter, no interlace
    return b"".join([b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", header), chunk(b"IDAT", idat), chunk(b"IEND", b"")])


def encode_png(image: QImage, level: int = 1) -> bytes:
    """An RGB PNG of ``image``, written here rather than by Qt.

    Qt's writer (libpng trying every row filter, zlib level 6) takes 150 ms for a
    2400 × 2100 px map; unfiltered rows deflated at level 1 in slices on parallel threads
    (zlib lets go of the GIL) take about a quarter of that, for a file of the same size.
    The rows are fed to zlib a block at a time, straight from the image: the whole
    unfiltered stream (as large as the picture) is never held in memory, and an image
    drawn in RGB888 (:func:`render_image` does) is not copied at all.
    """
    rgb = image if image.format() == QImage.Format.Format_RGB888 else image.convertToFormat(QImage.Format.Format_RGB888)
    return _png(rgb.width(), rgb.height(), _deflate(_RawRows(rgb), level))


class _RawRows:
    """The PNG's unfiltered stream of an RGB888 image (each row: filter type 0, then its
    pixels), read a range at a time without building it whole."""

    def __init__(self, rgb: QImage) -> None:
        self.bits = memoryview(rgb.constBits()).cast("B")
        self.stride = rgb.bytesPerLine()
        self.row = 3 * rgb.width()
        self.size = (self.row + 1) * rgb.height()

    def read(self, start: int, end: int) -> bytearray:
        """Bytes ``start`` to ``end`` of the stream."""
        out = bytearray(end - start)  # zeros: every filter byte is already in place
        span = self.row + 1
        y, off = divmod(start, span)
        pos = 0
        while pos < len(out):
            take = min(span - off, len(out) - pos)
            if off == 0:  # the filter byte
                pos, off, take = pos + 1, 1, take - 1
            if take > 0:
                src = y * self.stride + off - 1
                out[pos : pos + take] = self.bits[src : src + take]
                pos, off = pos + take, off + take
            if off == span:
                y, off = y + 1, 0
        return out


_SLICE = 1 << 22  # 4 MiB of pixels per thread at least
_BLOCK = 1 << 20  # fed to zlib a mebibyte at a time


def _deflate(data: _RawRows, level: int) -> bytes:
    """A zlib stream of ``data``, deflated in slices on parallel threads (as pigz does): each
    slice but the last ends on a sync flush, so the raw deflate streams join into one; the
    slices' checksums are combined into the stream's."""
    total = data.size
    slices = max(1, min(os.cpu_count() or 1, 4, total // _SLICE))
    size = -(-total // slices)
    bounds = [(a, min(a + size, total)) for a in range(0, total, size)] or [(0, 0)]

    def deflate(i: int) -> tuple[bytes, int]:
        start, end = bounds[i]
        # One slice: a whole zlib stream, as zlib.compress writes it; more: raw deflate streams.
        c = zlib.compressobj(level) if slices == 1 else zlib.compressobj(level, zlib.DEFLATED, -15)
        parts, check = [], 1
        for a in range(start, end, _BLOCK):
            block = data.read(a, min(a + _BLOCK, end))
            check = zlib.adler32(block, check)
            parts.append(c.compress(block))
        parts.append(c.flush(zlib.Z_FINISH if i == len(bounds) - 1 else zlib.Z_SYNC_FLUSH))
        return b"".join(parts), check

    if slices == 1:
        return deflate(0)[0]
    with ThreadPoolExecutor(max_workers=len(bounds)) as pool:
        results = list(pool.map(deflate, range(len(bounds))))
    check = results[0][1]
    for (start, end), (_, part) in zip(bounds[1:], results[1:], strict=True):
        check = adler32_combine(check, part, end - start)
    return b"\x78\x01" + b"".join(body for body, _ in results) + struct.pack(">I", check)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs (zlib's adler32_combine,
    which Python's zlib does not offer)."""
    base = 65521
    rem = second_length % base
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % base
    sum1 += (second & 0xFFFF) + base - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + base - rem
    sum1 %= base
    sum2 %= base
    return sum1 | (sum2 << 16)


SVG_NS = "http://www.w3.org/2000/svg"
INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
LAYER_LABELS = {
    "paper": "Paper",
    "rock": "Rock",
    "floor": "Floor",
    "grid": "Grid",
    "stairs": "Stairs",
    "walls": "Walls",
    "doors": "Doors",
    "secrets": "Secrets",
    "traps": "Traps and corpses",
    "monsters": "Monsters",
    "entrances": "Entrances",
    "labels": "Labels",
    "margins": "Title, scale and legend",
}


def render_svg(
    level: LevelData,
    path: str | Path,
    *,
    player: bool = False,
    px_per_tile: int = 32,
    seen: Seen | None = None,
    tokens: bool = False,
    title: str | None = None,
    options: MapOptions | None = None,
) -> tuple[int, int]:
    """Write the map of one level as SVG, each of :data:`map_painter.LAYERS` in a group of its
    own (``<g id="grid" inkscape:groupmode="layer" inkscape:label="Grid">``) that a GM can hide
    in a browser's inspector, Inkscape or any SVG editor; returns its size in layout pixels."""
    ensure_app()
    opts = options or map_options(player=player, seen=seen, tokens=tokens, title=title)
    layout = MapLayout(level, px_per_tile, opts)
    w, h = layout.size()
    parts: list[str] = []
    for layer in LAYERS:
        text = _svg_text(layout, layer)
        if not parts:  # the document's head: Qt's <svg> start tag and its title and description
            tag = text.index("<svg")
            head = text[tag : text.index(">", tag)]
            meta = text[text.index("<title>") : text.index("</desc>") + len("</desc>")]
            parts.append(f"<?xml version='1.0' encoding='UTF-8'?>\n{head} xmlns:inkscape=\"{INKSCAPE_NS}\">{meta}\n")
        body = text[text.index("</defs>") + len("</defs>") : text.rindex("</svg>")].strip("\n")
        label = LAYER_LABELS[layer]
        parts.append(f'<g id="{layer}" inkscape:groupmode="layer" inkscape:label="{label}">')
        if _DRAWS.search(body):  # not only the empty state groups Qt writes on every pen change
            parts.append(body)
        parts.append("</g>\n")
    parts.append("</svg>\n")
    try:
        Path(path).write_text("".join(parts), encoding="utf-8")
    except OSError as exc:
        raise OSError(f"could not write {path}: {exc.strerror or exc}") from None
    return w, h


_DRAWS = re.compile(r"<(?!/?g[\s>/])[A-Za-z]")  # an element other than a group


def _svg_text(layout: MapLayout, layer: str) -> str:
    """One layer of the map drawn by Qt's SVG generator: its document.  Its groups go into the
    map's document as Qt wrote them (parsed and written again by ElementTree they took most of
    an SVG export, issue #15)."""
    w, h = layout.size()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buffer)
    gen.setSize(QSize(w, h))
    gen.setViewBox(QRectF(0, 0, w, h))
    gen.setResolution(96)  # one layout pixel = one CSS pixel
    gen.setTitle(" — ".join(x for x in (layout.title, layout.subtitle) if x))
    gen.setDescription("Blacksalt dungeon map" + (" (players)" if layout.options.player else " (GM)"))
    painter = QPainter()
    if not painter.begin(gen):
        raise OSError("could not draw the SVG")
    try:
        paint_map(painter, layout, layers=(layer,))
    finally:
        painter.end()
    buffer.close()
    return bytes(buffer.data().data()).decode("utf-8")


# --- Universal VTT ---------------------------------------------------------------------------------


def vtt_image_options(level: LevelData, audience: uvtt.Audience = uvtt.GM) -> MapOptions:
    """The VTT picture: a bare battle map (no margins, no numbers, traps or monsters) of exactly
    :func:`uvtt.vtt_frame`, the secret doors drawn as plain wall.  The GM's picture draws the
    secret passages and rooms behind them (the VTT's fog hides what the party has not seen); the
    players' leaves out all that only a secret door leads to."""
    seen = None if audience == uvtt.GM else open_part(level)
    return MapOptions(
        player=True, seen=seen, reveal_secrets=audience == uvtt.GM, decorations=False, frame=uvtt.vtt_frame(level)
    )


def render_dd2vtt(
    level: LevelData,
    path: str | Path,
    *,
    pixels_per_grid: int = 70,
    audience: uvtt.Audience = uvtt.GM,
) -> dict[str, object]:
    """Write a Universal VTT (``.dd2vtt``) file of one level for the GM or the players; returns
    the JSON object."""
    image = png_bytes(level, px_per_tile=pixels_per_grid, options=vtt_image_options(level, audience))
    data = uvtt.build_uvtt(level, image, pixels_per_grid=pixels_per_grid, audience=audience)
    Path(path).write_text(uvtt.dumps(data), encoding="utf-8")
    return data


# --- the PDF booklet -------------------------------------------------------------------------------

PDF_DPI = 300
_MM = PDF_DPI / 25.4  # device pixels per millimetre
PRINT_UI_MM = 7.0  # the margins' unit on paper: title about 15 pt, legend about 7 pt
PRINT_LABEL_MM = 4.6  # a room number's circle is about 3.3 mm across, its digits about 6.5 pt


def render_pdf_booklet(
    dungeon: Dungeon,
    key: str | KeySections,
    path: str | Path,
    *,
    tokens: bool = False,
) -> int:
    """Write a printable GM booklet (A4): a title page with the hook, two map pages per level
    (the GM's map, then the players' map to hand out, each fitted to its page), then the key laid
    out across as many pages as it needs.

    ``key`` is the Markdown key text, or a list of ``(heading, markdown)`` sections.  The same
    dungeon and key give the same bytes on every export (see :func:`reproducible_pdf`).
    Returns the number of pages.
    """
    ensure_app()
    text = _key_markdown(key)
    identity = hashlib.sha256(dungeon.to_json().encode() + b"\0" + text.encode() + bytes([tokens])).hexdigest()
    doc_id = uuid.uuid5(uuid.NAMESPACE_URL, f"https://blacksalt.invalid/booklet/{identity}")
    # Qt orders the embedded fonts by a hash seeded at random in every process; a fixed seed
    # while the booklet is written makes the same dungeon give the same bytes.
    random_seed = os.environ.get("QT_HASH_SEED") != "0"  # Qt's default, put back afterwards
    QHashSeed.setDeterministicGlobalSeed()
    # Glyph outlines come from this thread's font cache, whose state (what was drawn before, at
    # what size) moves them by fractions of a point: start the booklet from an empty cache.  Fonts
    # in use elsewhere reload their engines (Qt tracks the cache they came from).
    QFont.cleanup()
    try:
        pages = _write_booklet(dungeon, text, path, tokens=tokens, doc_id=doc_id)
    finally:
        if random_seed:
            QHashSeed.resetRandomGlobalSeed()
    target = Path(path)
    target.write_bytes(reproducible_pdf(target.read_bytes()))
    return pages


def _write_booklet(dungeon: Dungeon, key: str, path: str | Path, *, tokens: bool, doc_id: uuid.UUID) -> int:
    writer = QPdfWriter(str(path))
    writer.setResolution(PDF_DPI)
    writer.setTitle(dungeon.title)
    writer.setCreator("Blacksalt")
    writer.setDocumentId(QUuid(str(doc_id)))
    writer.setDocumentXmpMetadata(QByteArray(_xmp(dungeon.title, doc_id).encode("utf-8")))
    writer.setPageLayout(_page_layout(QPageLayout.Orientation.Portrait))
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"could not write {path}")
    pages = 1
    try:
        _title_page(painter, writer, dungeon)
        for level in dungeon.levels:
            for player in (False, True):
                options = MapOptions(
                    player=player,
                    tokens=tokens and not player,
                    title=dungeon.title,
                    subtitle=_map_subtitle(level, player),
                    entrances=tuple(dungeon.entrances) if level.depth == 1 else (),
                )
                # The orientation that prints the tiles larger.
                orientation = max(
                    (QPageLayout.Orientation.Portrait, QPageLayout.Orientation.Landscape),
                    key=lambda o: fit_layout(level, options, _body_area(_page_layout(o))).t,
                )
                writer.setPageOrientation(orientation)
                writer.newPage()
                pages += 1
                _map_page(painter, writer, level, options, dungeon.title, pages)
        writer.setPageOrientation(QPageLayout.Orientation.Portrait)
        pages = _key_pages(painter, writer, dungeon, key, pages)
    finally:
        painter.end()
    return pages


def _map_subtitle(level: LevelData, player: bool) -> str:
    name = f"Level {level.depth}" + (f" — {level.name}" if level.name else "")
    return f"{name} — players' map" if player else name


def _xmp(title: str, doc_id: uuid.UUID) -> str:
    """The booklet's XMP metadata, without the dates Qt would write (they change every export)."""
    return (
        "<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>"
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"'
        ' xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">'
        f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{html.escape(title)}</rdf:li></rdf:Alt></dc:title>'
        f"<xmp:CreatorTool>Blacksalt</xmp:CreatorTool><xmpMM:DocumentID>uuid:{doc_id}</xmpMM:DocumentID>"
        "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?>"
    )


_PDF_DATE = re.compile(rb"/(?:CreationDate|ModDate) \(D:[^)]*\)\n")
_PDF_OBJ = re.compile(rb"(?m)^(\d+) 0 obj\b")


def reproducible_pdf(data: bytes) -> bytes:
    """Qt's PDF without the creation and modification dates (the clock and time zone of the
    export), its cross-reference table rebuilt for the new offsets.  The rest of what Qt writes
    is already a function of the drawing (given a fixed hash seed: see render_pdf_booklet)."""
    body_end = data.rindex(b"\nxref\n") + 1
    trailer = data[data.index(b"trailer\n", body_end) : data.rindex(b"startxref")]
    body = _PDF_DATE.sub(b"", data[:body_end])
    offsets = {int(m.group(1)): m.start() for m in _PDF_OBJ.finditer(body)}
    size = max(offsets) + 1
    rows = [b"0000000000 65535 f \n"]
    rows += [(b"%010d 00000 n \n" % offsets[i]) if i in offsets else b"0000000000 65535 f \n" for i in range(1, size)]
    xref = b"xref\n0 %d\n" % size + b"".join(rows)
    return body + xref + trailer + b"startxref\n%d\n%%%%EOF\n" % len(body)


def _page_layout(orientation: QPageLayout.Orientation) -> QPageLayout:
    return QPageLayout(QPageSize(QPageSize.PageSizeId.A4), orientation, QMarginsF(15, 15, 15, 15))


_FOOTER_MM = 6.0
_FOOTER_GAP_MM = 3.0


def _body_area(layout: QPageLayout) -> QRectF:
    """The printable area above the footer, in device pixels."""
    r = layout.paintRectPixels(PDF_DPI)
    return QRectF(0, 0, r.width(), r.height() - (_FOOTER_MM + _FOOTER_GAP_MM) * _MM)


def _page_rect(writer: QPdfWriter) -> QRectF:
    """The printable area in device pixels (the painter's origin is its top-left)."""
    r = writer.pageLayout().paintRectPixels(writer.resolution())
    return QRectF(0, 0, r.width(), r.height())


def _footer(painter: QPainter, writer: QPdfWriter, title: str, page: int) -> QRectF:
    """Draw the running footer; return the area left above it."""
    area = _page_rect(writer)
    h = _FOOTER_MM * _MM
    painter.save()
    painter.setPen(QColor("#555555"))
    painter.setFont(font(2.9 * _MM, italic=True))
    foot = QRectF(area.left(), area.bottom() - h, area.width(), h)
    painter.drawLine(QPointF(foot.left(), foot.top() + 0.3 * _MM), QPointF(foot.right(), foot.top() + 0.3 * _MM))
    painter.drawText(foot, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, title)
    painter.drawText(foot, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom, str(page))
    painter.restore()
    return QRectF(area.left(), area.top(), area.width(), area.height() - h - _FOOTER_GAP_MM * _MM)


def _document(writer: QPdfWriter, width: float) -> QTextDocument:
    doc = QTextDocument()
    layout: QAbstractTextDocumentLayout = doc.documentLayout()
    layout.setPaintDevice(writer)
    base = font(0)
    base.setPointSizeF(10.5)
    doc.setDefaultFont(base)
    doc.setDocumentMargin(0)
    doc.setTextWidth(width)
    doc.setDefaultStyleSheet(
        "h1 { font-size: 20pt; } h2 { font-size: 14pt; color: #5a1a1a; } h3 { font-size: 12pt; }"
        " table { border-collapse: collapse; } td, th { padding: 2px 4px; }"
    )
    return doc


def _title_page(painter: QPainter, writer: QPdfWriter, d: Dungeon) -> None:
    area = _page_rect(writer)
    contents = "".join(
        f"<tr><td>{what} of level {lv.depth}{' — ' + html.escape(lv.name) if lv.name else ''}</td>"
        f"<td align='right'>{2 * i + 2 + player}</td></tr>"
        for i, lv in enumerate(d.levels)
        for player, what in ((0, "GM's map"), (1, "Players' map"))
    )
    contents += f"<tr><td>The key</td><td align='right'>{2 * len(d.levels) + 2}</td></tr>"
    body = "".join(
        [
            "<div style='text-align:center'>",
            f"<p style='font-size:30pt; font-weight:bold; margin-top:60pt'>{html.escape(d.title)}</p>",
            f"<p style='font-size:13pt; font-style:italic'>A dungeon for Dead Weight — {len(d.levels)} "
            f"level{'s' if len(d.levels) != 1 else ''}, difficulty {d.level}, theme: {html.escape(d.theme)}</p>",
            "<p style='font-size:12pt'>&#10086;</p></div>",
            "<h2>The hook</h2>",
            hook_html(d.hook),
            f"<p style='font-size:12pt'><b>Bounty:</b> {d.bounty} silver.</p>",
            "<h2>Contents</h2>",
            f"<table width='60%' cellpadding='2' style='font-size:12pt'>{contents}</table>",
            f"<p style='font-size:10pt; color:#555555; margin-top:40pt'>Generated by Blacksalt, seed {d.seed}."
            " Dead Weight rules by Pedro Medeiros (CC BY 4.0).</p>",
        ]
    )
    doc = _document(writer, area.width())
    doc.setHtml(body)
    painter.save()
    doc.drawContents(painter, area)
    painter.restore()


def hook_html(hook: str) -> str:
    """The hook's paragraphs and its bullet list ("- " lines) as HTML, each line kept apart."""
    out: list[str] = []
    items: list[str] = []

    def close_list() -> None:
        if items:
            out.append("<ul style='font-size:12pt'>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
            items.clear()

    for paragraph in hook.split("\n\n"):
        for line in paragraph.splitlines():
            text = line.strip()
            if text.startswith(("- ", "* ")):
                items.append(html.escape(text[2:].strip()))
            elif text:
                close_list()
                out.append(f"<p style='font-size:12pt'>{html.escape(text)}</p>")
        close_list()
    return "".join(out)


def fit_layout(level: LevelData, options: MapOptions, area: QRectF) -> MapLayout:
    """The map laid out to fill ``area`` (device pixels), its margins and lettering at a fixed
    printed size and its labels never smaller than :data:`PRINT_LABEL_MM` however small the tiles."""
    ui = PRINT_UI_MM * _MM
    t = 32.0
    layout = MapLayout(level, t, replace(options, ui_unit=ui))
    for _ in range(4):  # the legend's rows depend on the width, so settle in a few rounds
        t = min(
            (area.width() - 2 * layout.margin) / layout.frame.w,
            (area.height() - layout.top - layout.bottom) / layout.frame.h,
        )
        label_scale = min(3.0, max(1.0, PRINT_LABEL_MM * _MM / t))
        layout = MapLayout(level, t, replace(options, ui_unit=ui, label_scale=label_scale))
    return layout


def _map_page(
    painter: QPainter, writer: QPdfWriter, level: LevelData, options: MapOptions, title: str, page: int
) -> None:
    area = _footer(painter, writer, title, page)
    layout = fit_layout(level, options, area)
    painter.save()
    painter.translate(area.left() + (area.width() - layout.width) / 2, area.top() + (area.height() - layout.height) / 2)
    paint_map(painter, layout)
    painter.restore()


def _key_markdown(key: str | KeySections) -> str:
    if isinstance(key, str):
        return key
    return "\n\n".join(f"## {heading}\n\n{body}" for heading, body in key)


def _key_pages(painter: QPainter, writer: QPdfWriter, d: Dungeon, text: str, pages: int) -> int:
    if not text.strip():
        return pages
    writer.newPage()
    pages += 1
    area = _footer(painter, writer, d.title, pages)
    doc = key_document(writer, text, area.width(), area.height())
    count = doc.pageCount()
    for i in range(count):
        if i:
            writer.newPage()
            pages += 1
            _footer(painter, writer, d.title, pages)
        painter.save()
        painter.translate(area.left(), area.top() - i * area.height())
        doc.drawContents(painter, QRectF(0, i * area.height(), area.width(), area.height()))
        painter.restore()
    return pages


def key_document(device: QPdfWriter, text: str, width: float, height: float) -> QTextDocument:
    """The key's Markdown laid out in pages of ``width`` × ``height`` device pixels, no heading
    left at the foot of a page without the start of its text."""
    doc = _document(device, width)
    doc.setMarkdown(_strip_front_matter(text), QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
    _space_headings(doc)
    doc.setPageSize(QSizeF(width, height))
    _keep_headings_with_text(doc)
    return doc


def orphaned_headings(doc: QTextDocument) -> list[str]:
    """Headings whose page ends before the first two lines of what follows them (or all of it,
    when it is shorter) fit beneath."""
    return [block.text() for block in _headings(doc) if _orphaned(doc, block)]


def _headings(doc: QTextDocument) -> list[QTextBlock]:
    out = []
    block = doc.begin()
    while block.isValid():
        if block.blockFormat().headingLevel():
            out.append(block)
        block = block.next()
    return out


def _orphaned(doc: QTextDocument, heading: QTextBlock) -> bool:
    follower = heading.next()
    if not follower.isValid():
        return False
    layout = doc.documentLayout()
    page_h = doc.pageSize().height()
    top = layout.blockBoundingRect(heading).top()
    page_end = (int(top // page_h) + 1) * page_h
    lines = follower.layout()
    if lines is None or lines.lineCount() == 0:
        return False
    rect = layout.blockBoundingRect(follower)
    last = lines.lineAt(min(1, lines.lineCount() - 1))
    need_bottom = rect.top() + last.y() + last.height()
    return need_bottom > page_end + 0.5


def _keep_headings_with_text(doc: QTextDocument) -> None:
    """Start a heading on a new page when the page would end under it (Qt's text layout has no
    "keep with next"); a heading already at the top of a page is left where it is."""
    page_h = doc.pageSize().height()
    # Lay the whole document out first and after every change: asked block by block before
    # that, Qt's incremental layout gives positions (and a page count) of a partial layout.
    doc.pageCount()
    for heading in _headings(doc):  # in order: each break moves only what follows
        top = doc.documentLayout().blockBoundingRect(heading).top()
        at_page_top = top - (int(top // page_h)) * page_h < heading.blockFormat().topMargin() + 1
        if at_page_top or not _orphaned(doc, heading):
            continue
        fmt = heading.blockFormat()
        fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        QTextCursor(heading).setBlockFormat(fmt)
        doc.pageCount()


def _space_headings(doc: QTextDocument) -> None:
    """Markdown import sets no space around headings; give them room and the key's ink colour."""
    block = doc.begin()
    while block.isValid():
        level = block.blockFormat().headingLevel()
        if level:
            cursor = QTextCursor(block)
            fmt = block.blockFormat()
            fmt.setTopMargin({1: 16.0, 2: 14.0}.get(level, 9.0))
            fmt.setBottomMargin(4.0)
            cursor.setBlockFormat(fmt)
            if level <= 2:
                cursor.select(QTextCursor.SelectionType.BlockUnderCursor)
                colour = QTextCharFormat()
                colour.setForeground(QColor("#5a1a1a"))
                cursor.mergeCharFormat(colour)
        block = block.next()


def _strip_front_matter(text: str) -> str:
    """Drop a YAML front matter block (``---`` ... ``---``) that Markdown would print as text."""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            return text[end + 4 :].lstrip("\n")
    return text
