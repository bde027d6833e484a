"""Timings of the dungeon layout stage: ``.venv/bin/python packaging/bench_layout.py [--seeds N]``.

For 10, 30 and 60 rooms in each style, builds one level per seed (with
stairs down and up, the default loops and one entrance) and prints the
median, the 90th percentile and the worst time in milliseconds.  The target
is a median under 8 ms for 30 rooms (the whole dungeon, contents included,
must stay under 20 ms).  The first levels warm the cache of built room
shapes, so a few warm-up levels run before timing starts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200, help="levels per row (default 200)")
    seeds = ap.parse_args().seeds
    sys.path.insert(0, str(ROOT))
    from dungeon_gen.layout import STYLES, build_level

    for style in STYLES:
        for seed in range(20):
            build_level(random.Random(seed), 30, style=style)
    print(f"layout stage, {seeds} seeds each: median / p90 / worst (ms)")
    for style in STYLES:
        for rooms in (10, 30, 60):
            times = []
            for seed in range(seeds):
                rng = random.Random(seed)
                t = time.perf_counter()
                build_level(rng, rooms, style=style, stairs_down=True, stairs_up=True)
                times.append((time.perf_counter() - t) * 1000)
            times.sort()
            p90 = times[int(len(times) * 0.9) - 1]
            print(f"  {style:5} {rooms:2} rooms  {statistics.median(times):6.2f}  {p90:6.2f}  {times[-1]:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
