"""Dungeon timings for the closing notes: ``.venv/bin/python packaging/bench_dungeon.py [--runs N]``.

* loading every theme file, parsed and validated (best of 5; it was a timed test, which a loaded machine
  failed);
* generating a 30-room, one-level dungeon with all its contents (median over N seeds);
* the same for a 3-level dungeon of 30 rooms per level;
* exporting one 30-room dungeon to each format (median of N runs, after one warm-up);
* the whole command, as a GM runs it (``blacksalt dungeon --seed 7 --rooms R --format F``, for 30 and
  60 rooms, each format alone and ``all``): wall time, CPU time and peak RSS of the process, best of
  ``--command-runs`` (default 3), against the goals of issue #15 (30 rooms ``all`` <= 0.5 s and
  <= 200 MB, 60 rooms <= 1 s and <= 300 MB).  Python is allowed to write its bytecode cache first, as
  an installed program has one (with PYTHONDONTWRITEBYTECODE every run compiles every module anew).
  ``--command-only`` skips the in-process timings.  ``--against DIR`` runs each command in another
  checkout too (``git worktree add DIR COMMIT``, or ``git archive COMMIT | tar -x -C DIR``), the two
  taking turns run by run so that both meet the same load, and prints them side by side: the
  before and after of a change on a machine others are using.

Benchmarks on a shared machine are noisy: the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:8.1f} ms (min {min(samples) * 1000:.1f}, n={len(samples)})"


GOALS = {30: (0.5, 200), 60: (1.0, 300)}  # rooms: (seconds, MB) for --format all (#15)
FORMATS = ("json", "md", "svg", "png", "pdf", "uvtt")


def run_command(argv: list[str], env: dict[str, str], root: Path = ROOT) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MB) of one run of ``argv`` in the checkout ``root``."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def bench_command(runs: int, against: Path | None = None) -> None:
    """The whole ``blacksalt dungeon`` command, per format and all formats, for 30 and 60 rooms
    (and the same in the checkout ``against``, run by run in turn with this one)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    roots = [ROOT] if against is None else [against.resolve(), ROOT]
    cmd = [sys.executable, "-m", "desktop", "dungeon", "--seed", "7"]
    print(f"whole command, best of {runs} (load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores):")
    if against is not None:
        print(f"  each line: {against} -> {ROOT}")
    with tempfile.TemporaryDirectory() as tmp:
        for root in roots:  # bytecode cache
            run_command([*cmd, "--rooms", "3", "--format", "all", "--out", f"{tmp}/warm/"], env, root)
        for rooms in (30, 60):
            for fmt in (*FORMATS, "all"):
                best = {root: (float("inf"), float("inf"), float("inf")) for root in roots}
                for i in range(runs):
                    for root in roots:
                        out = Path(tmp) / f"{rooms}-{fmt}-{i}"
                        argv = [*cmd, "--rooms", str(rooms), "--format", fmt, "--out", f"{out}/"]
                        result = run_command(argv, env, root)
                        best[root] = tuple(min(a, b) for a, b in zip(best[root], result, strict=True))  # type: ignore[assignment]
                        shutil.rmtree(out, ignore_errors=True)
                cells = [f"{w:6.2f} s wall {c:6.2f} s CPU {m:6.0f} MB peak" for w, c, m in best.values()]
                wall, _, rss = best[ROOT]
                goal = ""
                if fmt == "all":
                    secs, mb = GOALS[rooms]
                    goal = f"  goal <= {secs} s, <= {mb} MB: {'met' if wall <= secs and rss <= mb else 'NOT met'}"
                print(f"  {rooms} rooms --format {fmt:<5} {'  ->  '.join(cells)}{goal}")
    print(f"(load average after: {os.getloadavg()[0]:.2f})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--command-runs", type=int, default=3)
    ap.add_argument("--command-only", action="store_true")
    ap.add_argument("--against", type=Path, default=None, metavar="DIR", help="another checkout, run in turn")
    args = ap.parse_args()
    runs = args.runs
    if args.command_only:
        bench_command(args.command_runs, args.against)
        return 0

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
    bench_command(args.command_runs, args.against)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
