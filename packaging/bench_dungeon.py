"""Dungeon timings for the closing notes: ``.venv/bin/python packaging/bench_dungeon.py [--runs N]``.

* loading every theme file, parsed and validated (best of 5; it was a timed test, which a loaded machine
  failed);
* generating a 30-room, one-level dungeon with all its contents (median over N seeds);
* the same for a 3-level dungeon of 30 rooms per level;
* exporting one 30-room dungeon to each format (median of N runs, after one warm-up).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:8.1f} ms (min {min(samples) * 1000:.1f}, n={len(samples)})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    runs = ap.parse_args().runs

    from desktop.dungeon_export import export_dungeon
    from dungeon_gen.generate import generate
    from dungeon_gen.themes import load_themes
    from rules.content.registry import load_content

    content = load_content()
    loads = []
    for _ in range(5):
        t = time.perf_counter()
        load_themes(content=content)
        loads.append(time.perf_counter() - t)
    print(f"load {'every theme':<26} {min(loads) * 1000:8.1f} ms (best of 5)")
    themes = sorted(load_themes())
    generate(0, rooms=30)  # warm: content and themes loaded once, as in the game
    for label, kwargs in (("30 rooms, 1 level", {"rooms": 30}), ("30 rooms x 3 levels", {"rooms": 30, "depth": 3})):
        samples = []
        for seed in range(runs):
            t = time.perf_counter()
            generate(seed, level=1 + seed % 6, theme=themes[seed % len(themes)], **kwargs)  # type: ignore[arg-type]
            samples.append(time.perf_counter() - t)
        print(f"generate {label:<22}", ms(samples))

    d = generate(7, rooms=30, level=3)
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("json", "md", "svg", "png", "pdf", "uvtt"):
            export_dungeon(d, [fmt], Path(tmp) / "warm")
            samples = []
            for i in range(max(3, runs // 6)):
                t = time.perf_counter()
                export_dungeon(d, [fmt], Path(tmp) / f"d{i}")
                samples.append(time.perf_counter() - t)
            print(f"export {fmt:<24}", ms(samples))
        t = time.perf_counter()
        export_dungeon(d, ["json", "md", "svg", "png", "pdf", "uvtt"], Path(tmp) / "all")
        print(f"export {'all formats (once)':<24} {(time.perf_counter() - t) * 1000:8.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
