"""Map view timings: ``.venv/bin/python packaging/bench_map_view.py [--runs N] [--seeds K]``.

For a 40-room level (the first level of a 40-room, depth-3 dungeon), in a 1280×720 MapView:

* redraw: one synchronous repaint of the widget with its cached map and an overlay (party marker) —
  what the expedition screen costs after every step when the map did not change; goal under 16 ms;
* redraw while panning and zooming (the cached picture blitted at another transform);
* set_level with unchanged level and options (the expedition's call after every step): a no-op;
* rebuild: set_level with new options (the party saw a new room): layout + painting the cache once;
* a whole new level on the GM map (the workshop after generating or re-rolling).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def ms(samples: list[float]) -> str:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(len(s) * 0.95))]
    return f"{statistics.median(s) * 1000:7.2f} ms median, p95 {p95 * 1000:.2f}, max {s[-1] * 1000:.2f} (n={len(s)})"


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=200, help="repaints per measurement")
    ap.add_argument("--seeds", type=int, default=3, help="dungeons measured")
    args = ap.parse_args()

    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor, QPainter
    from PySide6.QtWidgets import QApplication

    from desktop.render.map_painter import MapLayout, MapOptions
    from desktop.theme import apply_theme
    from desktop.widgets.map_view import MapView
    from dungeon_gen.export.walls import Seen
    from dungeon_gen.generate import generate

    app = QApplication.instance() or QApplication([])
    apply_theme(app)  # type: ignore[arg-type]
    redraw: list[float] = []
    moving: list[float] = []
    noop: list[float] = []
    rebuild: list[float] = []
    fresh: list[float] = []
    for seed in range(args.seeds):
        d = generate(seed, level=3, rooms=40, depth=3)
        view = MapView()
        view.resize(1280, 720)
        view.show()
        app.processEvents()
        view.set_level(d, MapOptions(tokens=True))
        app.processEvents()
        tile = (d.rooms[0].x, d.rooms[0].y)

        def marker(p: QPainter, lay: MapLayout, tile: tuple[int, int] = tile) -> None:
            p.setBrush(QColor(180, 30, 30))
            p.drawEllipse(lay.centre(tile), lay.t * 0.4, lay.t * 0.4)

        view.set_overlay(marker)
        for _ in range(args.runs):
            t = time.perf_counter()
            view.repaint()
            redraw.append(time.perf_counter() - t)
        for i in range(args.runs):
            view.set_zoom(view.zoom() * (1.01 if i % 2 else 0.995), QPointF(600, 300))
            view.pan(3 if i % 4 < 2 else -3, 1)
            t = time.perf_counter()
            view.repaint()
            moving.append(time.perf_counter() - t)
        for _ in range(args.runs):
            opts = MapOptions(tokens=True)
            t = time.perf_counter()
            view.set_level(d, opts)
            view.repaint()
            noop.append(time.perf_counter() - t)
        ids = [r.id for r in d.rooms]
        for n in range(1, min(len(ids), 20) + 1):
            opts = MapOptions(player=True, seen=Seen.of(ids[:n]))
            t = time.perf_counter()
            view.set_level(d, opts)
            view.repaint()
            rebuild.append(time.perf_counter() - t)
        for lv in d.levels:  # another whole level, GM map: the layout and the full painting at the fitted zoom
            view.set_level(None)
            t = time.perf_counter()
            view.set_level(lv, MapOptions(tokens=True))
            view.repaint()
            fresh.append(time.perf_counter() - t)
        view.close()
    print("map view, 40-room level, 1280x720")
    print(f"  redraw (cached map + overlay)        {ms(redraw)}")
    print(f"  redraw while zooming and panning     {ms(moving)}")
    print(f"  set_level unchanged + redraw         {ms(noop)}")
    print(f"  set_level new options (map repaint)  {ms(rebuild)}")
    print(f"  set_level a whole new GM level       {ms(fresh)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
