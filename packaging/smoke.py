"""Smoke test of the packaged game: build it, run it, check what it wrote.

    .venv/bin/python packaging/smoke.py                # build the one-folder executable in a temp dir, test it
    .venv/bin/python packaging/smoke.py --onefile      # ... the one-file executable
    .venv/bin/python packaging/smoke.py --exe PATH     # test an executable built before (CI artifacts)

Everything runs headless (``QT_QPA_PLATFORM=offscreen``) with the settings and saves in the temporary
folder (``BLACKSALT_CONFIG_DIR``, ``BLACKSALT_DATA_DIR``), and with a fontconfig that knows no system font,
so the text can only come from the fonts inside the bundle.  Checks:

- the bundle holds the phase views (imported by name), the Alembic scripts, the fonts, and (Linux) every
  Qt library its libraries link;
- ``--version`` prints the checkout's version;
- ``simulate --seed 1 --expeditions 1 --json`` prints the statistics (keys checked);
- ``simulate --save`` writes a campaign that ``save check`` reads (the migrations ran in the bundle);
- ``rules`` and ``odds`` answer (JSON); ``dungeon --format json,png`` writes a dungeon;
- the window reaches its start screen, with the bundled DejaVu fonts loaded from inside the bundle
  (``BLACKSALT_STARTUP_PROBE``);
- ``--screenshots DIR`` writes every screen as a 1280x720 PNG;
- nothing was written next to the executable.

Exits non-zero with the first failure's message; prints the build time, the size and each step's time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import build as builder  # noqa: E402  (packaging/build.py)

SIM_KEYS = {"seed", "expeditions", "turns", "combats", "deaths", "party", "fallen", "steps", "outcome", "day"}
SCREENS = {"start", "new-campaign", "expedition", "combat", "camp", "interlude", "workshop", "settings", "chronicle"}
FONTS = {"DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"}

EMPTY_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><cachedir>{cache}</cachedir></fontconfig>
"""


class SmokeError(Exception):
    pass


def check(ok: object, message: str) -> None:
    if not ok:
        raise SmokeError(message)


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    check(head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path.name} is not a PNG")
    w, h = struct.unpack(">II", head[16:24])
    return int(w), int(h)


def checkout_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^version = "([^"]+)"', text, re.MULTILINE)
    return found.group(1) if found else "?"


class Runner:
    def __init__(self, exe: Path, home: Path) -> None:
        self.exe = exe
        self.home = home
        fc = home / "fontconfig"
        fc.mkdir(parents=True, exist_ok=True)
        (fc / "fonts.conf").write_text(EMPTY_FONTCONFIG.format(cache=(fc / "cache").as_posix()), encoding="utf-8")
        self.env = dict(os.environ)
        for key in ("PYTHONPATH", "PYTHONHOME", "QT_PLUGIN_PATH", "QT_QPA_PLATFORM_PLUGIN_PATH"):
            self.env.pop(key, None)
        self.env.update(
            QT_QPA_PLATFORM="offscreen",
            BLACKSALT_DATA_DIR=str(home / "data"),
            BLACKSALT_CONFIG_DIR=str(home / "config"),
            FONTCONFIG_FILE=str(fc / "fonts.conf"),
            LANG=os.environ.get("LANG", "C.UTF-8"),
        )

    def run(self, args: Sequence[str], timeout: float = 120, extra_env: dict[str, str] | None = None) -> str:
        t0 = time.perf_counter()
        env = dict(self.env, **(extra_env or {}))
        try:
            out = subprocess.run(
                [str(self.exe), *args],
                cwd=self.home,
                env=env,
                capture_output=True,
                text=True,
                encoding="utf-8",
                errors="replace",
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise SmokeError(f"`blacksalt {' '.join(args)}` did not finish in {timeout:.0f} s") from None
        dt = time.perf_counter() - t0
        if out.returncode != 0:
            raise SmokeError(f"`blacksalt {' '.join(args)}` exited {out.returncode}:\n{out.stderr[-3000:]}")
        print(f"  ok  blacksalt {' '.join(args)}  ({dt:.1f} s)", flush=True)
        return out.stdout


def source_modules() -> list[str]:
    """Every module of the game's packages in the checkout (``desktop.screens.combat`` ...)."""
    names: list[str] = []
    for pkg in ("rules", "dungeon_gen", "desktop"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            if "migrations" in rel.parts or rel.name == "__main__":
                continue  # the migrations ship as files for Alembic; __main__ is the entry script
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            names.append(".".join(parts))
    return names


def listing(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")}


def check_bundle(exe: Path, onefile: bool) -> None:
    """What must be inside: the phase views, the migrations, the fonts; the Qt libraries resolve (Linux)."""
    from PyInstaller.archive.readers import CArchiveReader

    archive = CArchiveReader(str(exe))
    pyz_name = next((n for n in archive.toc if n.endswith(".pyz")), None)
    check(pyz_name is not None, f"{exe}: no PYZ archive inside")
    modules = set(archive.open_embedded_archive(pyz_name).toc)
    missing = [m for m in source_modules() if m not in modules]
    check(not missing, f"the bundle lacks {missing[:8]} (the phase views are imported by name: without them the game "
                       "falls back to plain lists)")  # fmt: skip
    if onefile:
        files = {n.replace("\\", "/") for n in archive.toc}
    else:
        internal = exe.parent / "_internal"
        files = listing(internal) if internal.is_dir() else listing(exe.parent)
    for need in ("desktop/persistence/migrations/env.py", "resources/fonts/DejaVuSans.ttf",
                 "resources/content/bestiary.toml", "resources/dungeon/dungeon.schema.json"):  # fmt: skip
        check(need in files, f"the bundle lacks {need}")
    check(any(f.startswith("desktop/persistence/migrations/versions/0001") for f in files),
          "the bundle lacks the Alembic revisions")  # fmt: skip
    if not onefile:
        problems = builder.missing_libraries(exe.parent)
        check(not problems, "bundled libraries miss Qt libraries:\n  " + "\n  ".join(problems[:10]))
    print("  ok  bundle: phase views, migrations, resources" + ("" if onefile else ", libraries"), flush=True)


def smoke(exe: Path, home: Path, onefile: bool) -> None:
    check(exe.is_file(), f"no executable at {exe}")
    beside = exe.parent
    before = listing(beside)
    check_bundle(exe, onefile)
    r = Runner(exe, home)

    out = r.run(["--version"]).strip()
    want = checkout_version()
    check(out == f"blacksalt {want}", f"--version printed {out!r}, the checkout is {want}")

    out = r.run(["simulate", "--seed", "1", "--expeditions", "1", "--json"])
    try:
        stats = json.loads(out)
    except json.JSONDecodeError as exc:
        raise SmokeError(f"simulate --json printed no JSON ({exc}): {out[:300]!r}") from None
    check(isinstance(stats, dict) and set(stats) >= SIM_KEYS, f"simulate --json lacks {SIM_KEYS - set(stats)}")
    check(stats["seed"] == 1 and stats["expeditions"] >= 1 and stats["steps"] > 0, f"odd statistics: {stats}")

    save = home / "camp.sqlite3"
    r.run(["simulate", "--seed", "2", "--expeditions", "1", "--save", str(save)])
    out = r.run(["save", "check", str(save)])
    check("schema revision" in out and "steps" in out, f"save check printed: {out[:400]!r}")

    out = r.run(["rules", "monster", "freshly risen corpse", "--json"])
    check(json.loads(out), f"rules --json printed {out[:200]!r}")
    out = r.run(["odds", "--dice", "5", "--proficiency", "2", "--json"])
    check(json.loads(out), f"odds --json printed {out[:200]!r}")

    r.run(["dungeon", "--seed", "7", "--rooms", "8", "--format", "json,png", "--out", str(home / "dng")])
    check((home / "dng.json").is_file() and png_size(home / "dng.png")[0] > 100, "dungeon wrote no json/png")

    out = r.run([], timeout=60, extra_env={"BLACKSALT_STARTUP_PROBE": "1"})
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    check(lines, f"the window never reported its start screen: {out[-400:]!r}")
    probe = json.loads(lines[-1])
    check(probe.get("frozen") is True, f"the start screen ran unfrozen? {probe}")
    check(set(probe.get("fonts", [])) >= FONTS, f"bundled fonts not loaded: {probe.get('fonts')}")
    fonts_dir = Path(probe["fonts_dir"])
    check(not fonts_dir.is_relative_to(ROOT / "resources"), f"fonts read from the checkout ({fonts_dir})")
    check(onefile or fonts_dir.is_relative_to(exe.parent), f"fonts read from outside the bundle ({fonts_dir})")
    print(f"  ok  start screen on {probe.get('platform')}, fonts {sorted(probe['fonts'])} from the bundle")

    shots = home / "shots"
    r.run(["--screenshots", str(shots)], timeout=180)
    pngs = {p.stem: p for p in shots.glob("*.png")}
    check(set(pngs) >= SCREENS, f"--screenshots lacks {sorted(SCREENS - set(pngs))}")
    for path in sorted(pngs.values()):
        check(path.stat().st_size > 10_000, f"{path.name} is suspiciously small ({path.stat().st_size} bytes)")
        check(png_size(path) == (1280, 720), f"{path.name} is {png_size(path)}, not 1280x720")
    print(f"  ok  {len(pngs)} screenshots, 1280x720")

    after = listing(beside)
    check(after == before, f"files appeared next to the executable: {sorted(after - before)[:5]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--onefile", action="store_true", help="build and test the one-file executable")
    ap.add_argument("--exe", type=Path, help="test this executable instead of building one")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="blacksalt-smoke-"))
    t_start = time.perf_counter()
    try:
        if args.exe is not None:
            exe = args.exe.resolve()
            onefile = not (exe.parent / "_internal").is_dir()
        else:
            onefile = args.onefile
            kind = "onefile" if onefile else "onedir"
            print(f"smoke: building the {kind} executable in {tmp} ...", flush=True)
            t0 = time.perf_counter()
            try:
                exe = builder.build(onefile, tmp / "dist", tmp / "build", quiet=True)
            except RuntimeError as exc:
                raise SmokeError(str(exc)) from None
            size = builder.tree_size(exe if onefile else exe.parent)
            print(f"  ok  built in {time.perf_counter() - t0:.1f} s: {size / 1e6:.1f} MB ({size / 2**20:.1f} MiB)",
                  flush=True)  # fmt: skip
        home = tmp / "home"
        home.mkdir()
        smoke(exe, home, onefile)
    except SmokeError as exc:
        print(f"SMOKE TEST FAILED: {exc}", file=sys.stderr)
        if args.keep:
            print(f"  (kept {tmp})", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
    print(f"smoke test passed in {time.perf_counter() - t_start:.1f} s" + (f" (kept {tmp})" if args.keep else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
