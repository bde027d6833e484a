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
from typing import Literal

from dungeon_gen.export.walls import geometry_cache
from dungeon_gen.model import Dungeon, LevelData


class ExportError(RuntimeError):
    """An export that could not be written (the message says why; nothing was left behind)."""


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:60] or "dungeon"


def target_stem(out: str | Path, dungeon: Dungeon) -> tuple[Path, str]:
    """(folder, file stem): a folder (existing, or written with a trailing slash) gets ``<title-slug>``;
    anything else is a stem (a known suffix is dropped)."""
    text = str(out)
    path = Path(text)
    if path.is_dir() or text.endswith(("/", os.sep)):
        return path, slug(dungeon.title)
    stem = path.name
    for ext in (".json", ".md", ".svg", ".png", ".pdf", ".dd2vtt", ".uvtt"):
        if stem.lower().endswith(ext):
            stem = stem[: -len(ext)]
    return path.parent, stem


def _writers(dungeon: Dungeon, fmt: str, stem: str) -> list[tuple[str, Callable[[Path], object]]]:
    """(file name, writer) pairs for one format."""
    if fmt == "json":
        from dungeon_gen.export.json_io import dumps

        return [(f"{stem}.json", lambda p: p.write_text(dumps(dungeon), encoding="utf-8"))]
    if fmt == "md":
        from dungeon_gen.export.markdown import to_markdown

        return [(f"{stem}.md", lambda p: p.write_text(to_markdown(dungeon), encoding="utf-8"))]
    from desktop.render import export as render  # Qt from here on

    out: list[tuple[str, Callable[[Path], object]]] = []
    levels = dungeon.levels
    for level in levels:
        suffix = "" if len(levels) == 1 else f"-level{level.depth}"
        if fmt in ("svg", "png"):
            for player in (False, True):
                name = f"{stem}{suffix}{'-player' if player else ''}.{fmt}"
                out.append((name, _map_writer(fmt, dungeon, level, player)))
        elif fmt == "uvtt":
            # Two copies, named for whom they are: the GM's carries secret doors as doors, the
            # players' as wall (a file named for neither would be imported by the wrong one).
            for audience in ("gm", "player"):
                out.append((f"{stem}{suffix}-{audience}.dd2vtt", _vtt_writer(level, audience)))
    if fmt == "pdf":
        from dungeon_gen.export.markdown import to_markdown

        out.append((f"{stem}.pdf", lambda p: render.render_pdf_booklet(dungeon, to_markdown(dungeon), p)))
    return out


def _vtt_writer(level: LevelData, audience: Literal["gm", "player"]) -> Callable[[Path], object]:
    from desktop.render import export as render

    return lambda path: render.render_dd2vtt(level, path, audience=audience)


def _map_writer(fmt: str, dungeon: Dungeon, level: LevelData, player: bool) -> Callable[[Path], None]:
    from desktop.render import export as render

    def write(path: Path) -> None:
        if fmt == "svg":  # the GM's SVG has the monsters too, in a layer of their own to hide
            render.render_svg(level, path, player=player, title=dungeon.title, tokens=not player)
        else:
            render.render_png(level, path, player=player, title=dungeon.title)

    return write


def export_dungeon(dungeon: Dungeon, formats: list[str], out: str | Path) -> list[Path]:
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
        with geometry_cache():  # each view of a level is worked out once for every file
            # The VTT files first: their pictures (4760 x 6160 px for a 30-room level) are the
            # largest thing an export holds, best drawn before the other formats' caches and heap
            # have grown the process (the peak of a 30-room '--format all' is 212 MB the other way).
            for name, write in sorted(plan, key=lambda w: not w[0].endswith(".dd2vtt")):
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
