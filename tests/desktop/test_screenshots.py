"""``blacksalt --screenshots DIR --seed S``: every screen written, big enough, and not a flat colour."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from desktop.screenshots import SCREENS

ROOT = Path(__file__).resolve().parents[2]


def distinct_colours(img: QImage, step: int = 16) -> int:
    seen = set()
    for y in range(0, img.height(), step):
        for x in range(0, img.width(), step):
            seen.add(img.pixel(x, y))
    return len(seen)


def test_screenshots_of_every_screen(tmp_path: Path) -> None:
    out = tmp_path / "shots"
    config = tmp_path / "config"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "BLACKSALT_CONFIG_DIR": str(config),
           "XDG_DATA_HOME": str(tmp_path / "data")}  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-m", "desktop", "--screenshots", str(out), "--seed", "77"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    for name in SCREENS:
        path = out / f"{name}.png"
        assert path.is_file(), f"{name}.png missing; stdout:\n{run.stdout}"
        img = QImage(str(path))
        assert img.width() >= 1280 and img.height() >= 720, (name, img.width(), img.height())
        assert distinct_colours(img) > 20, f"{name}.png is (nearly) one flat colour"
    # the demo never touches the player's saves: nothing was written in the data dir or the config dir
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.sqlite3"))
    assert not config.exists() or not any(config.iterdir())


def test_screenshots_report_an_unwritable_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    from desktop.screenshots import main

    assert main(blocker / "sub") == 1
