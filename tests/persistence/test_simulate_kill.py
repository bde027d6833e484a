"""Kill ``blacksalt simulate --save`` at random moments: every save still opens and resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from random import Random

import pytest

from desktop.persistence import SaveFile
from rules.gm.state import Campaign

ROOT = Path(__file__).resolve().parents[2]
KILLS = 10


def blacksalt(*args: str) -> list[str]:
    return [sys.executable, "-m", "desktop", *args]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_simulations_leave_saves_that_resume(tmp_path: Path) -> None:
    rng = Random(2024)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    survived = 0
    for i in range(KILLS):
        save = tmp_path / f"kill{i}.sqlite3"
        proc = subprocess.Popen(
            blacksalt("simulate", "--seed", str(100 + i), "--expeditions", "20", "--party", "4", "--save", str(save)),
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        time.sleep(0.8 + rng.random() * 1.5)  # start-up is ~0.5 s; then it writes a step every few ms
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            survived += 1
        proc.wait(timeout=60)
        if not save.exists():
            continue  # killed before the save was created: nothing to lose
        with SaveFile.open(save) as opened:
            data, step = opened.load()
        campaign = Campaign.from_dict(data)
        assert campaign.stats.steps == step
        check = subprocess.run(blacksalt("save", "check", str(save)), cwd=ROOT, env=env, capture_output=True,
                               text=True, timeout=60)  # fmt: skip
        assert check.returncode in (0, 1), check.stderr  # 1: opened from its backup (the last step was lost)
        resumed = subprocess.run(blacksalt("simulate", "--resume", str(save), "--expeditions", "1", "--json"),
                                 cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
        assert resumed.returncode == 0, resumed.stderr
        stats = json.loads(resumed.stdout)
        assert stats["steps"] >= step
    assert survived >= KILLS // 2, "the simulations ended before they could be killed"
