"""Timings for the closing notes: ``.venv/bin/python packaging/bench.py [--runs N]``.

Measures, as medians of N runs:
* ``blacksalt odds --dice 5 --proficiency 2 --json`` as a whole process (what a player waits for);
* the exact odds computation alone, in process, from a cold cache;
* loading and validating every resource file, in a fresh process and in process.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLACKSALT = [sys.executable, "-m", "desktop"]


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:7.1f} ms (min {min(samples) * 1000:.1f}, n={len(samples)})"


def time_process(cmd: list[str], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        out.append(time.perf_counter() - t)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    runs = ap.parse_args().runs
    sys.path.insert(0, str(ROOT))

    print(
        "process: blacksalt odds --dice 5 --proficiency 2 --json   ",
        median_ms(time_process([*BLACKSALT, "odds", "--dice", "5", "--proficiency", "2", "--json"], runs)),
    )
    print(
        "process: python -c 'import desktop.cli' (interpreter floor)",
        median_ms(time_process([sys.executable, "-c", "import desktop.cli"], runs)),
    )
    print(
        "process: load and validate all resources               ",
        median_ms(
            time_process(
                [sys.executable, "-c", "from rules.content.registry import load_content; load_content()"], runs
            )
        ),
    )

    from rules.checks import TestSpec
    from rules.content.registry import load_content
    from rules.odds import odds, policy_for

    samples = []
    for _ in range(runs):
        odds.cache_clear()
        policy_for.cache_clear()
        t = time.perf_counter()
        odds(TestSpec(5, proficiency=2))
        samples.append(time.perf_counter() - t)
    print("in process: exact odds, 5 dice, proficiency 2 (cold)     ", median_ms(samples))
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        load_content(cached=False)
        samples.append(time.perf_counter() - t)
    print("in process: load and validate all resources (warm imports)", median_ms(samples))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
