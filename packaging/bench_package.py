"""Launch timing of the packaged game beside the source install.

    .venv/bin/python packaging/bench_package.py [--runs N] [--onedir EXE] [--onefile EXE] [--no-source]

Time from starting the process to an interactive start screen (window shown and painted, the saves
listed): the game's ``BLACKSALT_STARTUP_PROBE`` prints a JSON line at that moment and quits (see
``desktop/app.py``), the same moment ``packaging/bench_desktop.py`` measures inside one Python process.
Candidates: the source install (``.venv/bin/blacksalt``) and the executables built by
``packaging/build.py`` (by default ``dist/onedir/blacksalt/blacksalt`` and ``dist/onefile/blacksalt`` when
they exist).  Each run is a fresh process, offscreen, with settings and saves in a temporary folder (holding
K campaigns).

*cold*: before the run, every file of the candidate (the bundle; for the source install the venv, the
checkout's packages and Python's standard library) is dropped from the OS page cache with
``posix_fadvise(DONTNEED)`` (no root needed; system libraries such as libc, libGL and fontconfig stay
cached, as they would on a desktop).  *warm*: the median of N runs right after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_desktop import make_saves  # noqa: E402  (the same saves as the source launch's benchmark)


def evict(paths: list[Path]) -> int:
    """Drop these files (recursively) from the page cache; returns how many files."""
    if not hasattr(os, "posix_fadvise"):
        return 0
    n = 0
    for top in paths:
        files = [top] if top.is_file() else (p for p in top.rglob("*") if p.is_file() and not p.is_symlink())
        for f in files:
            try:
                fd = os.open(f, os.O_RDONLY)
            except OSError:
                continue
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                n += 1
            finally:
                os.close(fd)
    return n


def launch(cmd: list[str], env: dict[str, str]) -> tuple[float, dict[str, object]]:
    """Seconds from Popen to the probe's JSON line."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=env["HOME_"])
    assert proc.stdout is not None
    line = ""
    for line in proc.stdout:
        if line.startswith("{"):
            break
    elapsed = time.perf_counter() - t0
    _out, err = proc.communicate(timeout=60)
    if not line.startswith("{"):
        raise SystemExit(f"{cmd[0]} never reached its start screen (rc {proc.returncode}):\n{err[-2000:]}")
    return elapsed, json.loads(line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--saves", type=int, default=4)
    ap.add_argument("--onedir", type=Path, default=ROOT / "dist/onedir/blacksalt/blacksalt")
    ap.add_argument("--onefile", type=Path, default=ROOT / "dist/onefile/blacksalt")
    ap.add_argument("--no-source", action="store_true")
    args = ap.parse_args()

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    candidates: list[tuple[str, list[str], list[Path]]] = []
    if not args.no_source:
        source_exe = Path(sys.prefix) / ("Scripts/blacksalt.exe" if os.name == "nt" else "bin/blacksalt")
        candidates.append(("source install", [str(source_exe)],
                           [Path(sys.prefix), stdlib, ROOT / "desktop", ROOT / "rules", ROOT / "dungeon_gen",
                            ROOT / "resources"]))  # fmt: skip
    for name, exe in (("onedir", args.onedir), ("onefile", args.onefile)):
        if exe.is_file():
            candidates.append((name, [str(exe)], [exe if name == "onefile" else exe.parent]))
        else:
            print(f"({name}: no executable at {exe}; build it with packaging/build.py --{name})")

    with tempfile.TemporaryDirectory(prefix="blacksalt-bench-") as tmp:
        home = Path(tmp)
        env = dict(os.environ)
        for key in ("PYTHONPATH", "PYTHONHOME"):
            env.pop(key, None)
        env.update(
            QT_QPA_PLATFORM="offscreen",
            BLACKSALT_CONFIG_DIR=str(home / "config"),
            BLACKSALT_DATA_DIR=str(home / "data"),
            BLACKSALT_STARTUP_PROBE="1",
            HOME_=str(home),
        )
        os.environ.update(BLACKSALT_CONFIG_DIR=env["BLACKSALT_CONFIG_DIR"], QT_QPA_PLATFORM="offscreen")
        make_saves(home / "data" / "campaigns", args.saves)
        print(f"launch -> interactive start screen ({args.saves} saves listed), offscreen, n={args.runs}:")
        for name, cmd, files in candidates:
            evicted = evict(files)
            cold, probe = launch(cmd, env)
            if probe.get("saves") != args.saves:
                print(f"  WARNING: {name} listed {probe.get('saves')} saves, not {args.saves}")
            warm = [launch(cmd, env)[0] for _ in range(args.runs)]
            print(f"  {name:15s} cold {cold * 1000:5.0f} ms ({evicted} files evicted)   warm median "
                  f"{statistics.median(warm) * 1000:4.0f} ms (min {min(warm) * 1000:.0f}, max {max(warm) * 1000:.0f})",
                  flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
