"""Build the packaged game for this machine with PyInstaller.

    python packaging/build.py [--onefile|--onedir] [--dist DIR] [--work DIR] [--no-strip] [--clean]

``--onedir`` (the default) makes the folder ``DIST/blacksalt/`` with the executable ``blacksalt`` in it
(``blacksalt.exe`` on Windows; on macOS also ``DIST/Blacksalt.app``); ``--onefile`` makes one self-extracting
``DIST/blacksalt``.  DIST is ``dist/onedir`` or ``dist/onefile`` at the top of the checkout (the two builds
would otherwise collide on the name ``blacksalt``), or exactly the folder ``--dist`` names.

Uses ``packaging/blacksalt.spec`` (the resources, the Alembic scripts, the trimmed Qt of
``packaging/slim_filter.py``); prints the time, the size and the path.  On Linux it then checks with ``ldd``
that every bundled library finds the Qt libraries it links (the slim filter must not drop one still needed).

Run it with the Python that has the game and PyInstaller installed (``.venv/bin/python``; PyInstaller is in
the ``dev`` extra).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPEC = HERE / "blacksalt.spec"
NAME = "blacksalt"

#: The Linux goals of issue 6.
GOAL_MB = {"onefile": 60, "onedir": 130}


def tree_size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def executable(dist: Path, onefile: bool) -> Path:
    """Where the built executable is."""
    exe = NAME + (".exe" if sys.platform == "win32" else "")
    return dist / exe if onefile else dist / NAME / exe


def missing_libraries(folder: Path) -> list[str]:
    """Linux: bundled ``.so`` files whose ``ldd`` reports a Qt, ICU or Python library as not found."""
    if not sys.platform.startswith("linux") or shutil.which("ldd") is None:
        return []
    problems: list[str] = []
    for path in sorted(folder.rglob("*.so*")):
        if not path.is_file():
            continue
        env = dict(os.environ, LD_LIBRARY_PATH=f"{folder / '_internal'}:{folder / '_internal/PySide6/Qt/lib'}")
        out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env, check=False).stdout
        for line in out.splitlines():
            if "not found" in line and any(k in line for k in ("Qt6", "icu", "python", "shiboken", "pyside")):
                problems.append(f"{path.relative_to(folder)}: {line.strip()}")
    return problems


def build(onefile: bool, dist: Path, work: Path, strip: bool = True, clean: bool = False, quiet: bool = False) -> Path:
    """Run PyInstaller on the spec; returns the executable's path.  Raises ``RuntimeError`` on failure."""
    dist.mkdir(parents=True, exist_ok=True)
    mode = "onefile" if onefile else "onedir"
    cmd = [
        sys.executable,
        "-m",
        "PyInstaller",
        str(SPEC),
        "--noconfirm",
        "--distpath",
        str(dist),
        "--workpath",
        str(work / mode),
        "--log-level",
        "WARN",
    ]
    if clean:
        cmd.append("--clean")
    cmd.append("--")
    if onefile:
        cmd.append("--onefile")
    if not strip:
        cmd.append("--no-strip")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    out = subprocess.run(cmd, cwd=ROOT, env=env, check=False, text=True, capture_output=quiet)
    if out.returncode != 0:
        tail = (out.stderr or "")[-4000:] if quiet else ""
        raise RuntimeError(f"PyInstaller failed ({out.returncode}){': ' + tail if tail else ''}")
    exe = executable(dist, onefile)
    if not exe.is_file():
        raise RuntimeError(f"PyInstaller finished but {exe} is missing")
    return exe


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--onefile", action="store_true", help="one self-extracting executable")
    mode.add_argument("--onedir", action="store_true", help="a folder with the executable (default)")
    ap.add_argument("--dist", type=Path, help="where the build lands (default: dist/onedir or dist/onefile)")
    ap.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller", help="PyInstaller's work folder")
    ap.add_argument("--no-strip", action="store_true", help="keep the symbols (Linux builds are stripped)")
    ap.add_argument("--clean", action="store_true", help="empty PyInstaller's cache first")
    args = ap.parse_args(argv)
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        print("build: PyInstaller is not installed here; `pip install -e '.[dev]'` or `pip install pyinstaller`",
              file=sys.stderr)  # fmt: skip
        return 2
    onefile = bool(args.onefile)
    dist = (args.dist or ROOT / "dist" / ("onefile" if onefile else "onedir")).resolve()
    t0 = time.perf_counter()
    try:
        exe = build(onefile, dist, args.work.resolve(), strip=not args.no_strip, clean=args.clean)
    except RuntimeError as exc:
        print(f"build: {exc}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - t0
    target = exe if onefile else exe.parent
    size = tree_size(target)
    kind = "onefile" if onefile else "onedir"
    print(f"built {kind} in {elapsed:.1f} s: {target} ({size / 1e6:.1f} MB)")
    if sys.platform == "darwin" and not onefile and (dist / "Blacksalt.app").is_dir():
        print(f"  macOS app bundle: {dist / 'Blacksalt.app'}")
    if sys.platform.startswith("linux"):
        goal = GOAL_MB[kind]
        print(f"  Linux goal < {goal} MB: {'met' if size / 1e6 < goal else 'NOT met'}")
        if not onefile:
            problems = missing_libraries(exe.parent)
            if problems:
                print("build: bundled libraries miss Qt libraries the slim filter dropped:", file=sys.stderr)
                for p in problems[:20]:
                    print("  " + p, file=sys.stderr)
                return 1
    print(f"run it: {exe} --version")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
