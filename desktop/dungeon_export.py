"""Writing a dungeon's exports all at once, or not at all.

Every file is first written into a temporary folder beside the target; only
when all of them are complete are they moved into place, so an error (an
unwritable folder, a failed render) never leaves half a set behind.  Qt is
imported only for the formats that draw (svg, png, pdf, uvtt).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from dungeon_gen.model import Dungeon, LevelData


class ExportError(RuntimeError):
    """An export that could not be written (the message says why; nothing was left behind)."""


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:60] or "dungeon"


def target_stem(out: Path, dungeon: Dungeon) -> tuple[Path, str]:
    """(folder, file stem): a folder gets ``<title-slug>``; a path is a stem (a known suffix is dropped)."""
    if out.is_dir() or str(out).endswith(("/", os.sep)):
        return out, slug(dungeon.title)
    stem = out.name
    for ext in (".json", ".md", ".svg", ".png", ".pdf", ".dd2vtt", ".uvtt"):
        if stem.lower().endswith(ext):
            stem = stem[: -len(ext)]
    return out.parent if str(out.parent) else Path("."), stem


def _writers(dungeon: Dungeon, fmt: str, stem: str) -> list[tuple[str, Callable[[Path], None]]]:
    """(file name, writer) pairs for one format."""
    if fmt == "json":
        from dungeon_gen.export.json_io import dumps

        return [(f"{stem}.json", lambda p: p.write_text(dumps(dungeon), encoding="utf-8"))]
    if fmt == "md":
        from dungeon_gen.export.markdown import to_markdown

        return [(f"{stem}.md", lambda p: p.write_text(to_markdown(dungeon), encoding="utf-8"))]
    from desktop.render import export as render  # Qt from here on

    out: list[tuple[str, Callable[[Path], None]]] = []
    levels = dungeon.levels
    for level in levels:
        suffix = "" if len(levels) == 1 else f"-level{level.depth}"
        if fmt in ("svg", "png"):
            for player in (False, True):
                out.append(
                    (f"{stem}{suffix}{'-player' if player else ''}.{fmt}", _map_writer(fmt, dungeon, level, player))
                )
        elif fmt == "uvtt":
            from dungeon_gen.export.uvtt import to_uvtt_json

            def write_uvtt(p: Path, lv=level) -> None:  # type: ignore[no-untyped-def]
                p.write_text(to_uvtt_json(lv, render.png_bytes(dungeon, lv, player=True)), encoding="utf-8")

            out.append((f"{stem}{suffix}.dd2vtt", write_uvtt))
    if fmt == "pdf":
        from dungeon_gen.export.markdown import to_markdown

        out.append((f"{stem}.pdf", lambda p: render.render_pdf_booklet(dungeon, to_markdown(dungeon), p)))
    return out


def _map_writer(fmt: str, dungeon: Dungeon, level: LevelData, player: bool) -> Callable[[Path], None]:
    from desktop.render import export as render

    def write(path: Path) -> None:
        if fmt == "svg":
            render.render_svg(dungeon, level, path, player=player)
        else:
            render.render_png(dungeon, level, path, player=player)

    return write


def export_dungeon(dungeon: Dungeon, formats: list[str], out: Path) -> list[Path]:
    """Write every format; return the paths written.  All or nothing."""
    folder, stem = target_stem(out, dungeon)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create the folder {folder}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise ExportError(f"cannot write into {folder}: permission denied")
    try:
        staging = Path(tempfile.mkdtemp(prefix=".blacksalt-export-", dir=folder))
    except OSError as exc:
        raise ExportError(f"cannot write into {folder}: {exc.strerror or exc}") from None
    written: list[Path] = []
    try:
        plan = [w for fmt in dict.fromkeys(formats) for w in _writers(dungeon, fmt, stem)]
        for name, write in plan:
            write(staging / name)
        for name, _ in plan:
            final = folder / name
            os.replace(staging / name, final)
            written.append(final)
    except ExportError:
        raise
    except Exception as exc:  # a failed render or write: report it, leave nothing behind
        for p in written:
            p.unlink(missing_ok=True)
        raise ExportError(f"export failed, nothing was written: {exc}") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return written
