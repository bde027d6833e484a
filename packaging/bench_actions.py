"""Action latency in the window: ``.venv/bin/python packaging/bench_actions.py [--seed 3] [--steps 600]``.

Plays a seeded campaign through the real game screen (``GameScreen.play``: the engine's step, the save
committed, the log, the party panel and the phase view redrawn, and the window painted) with the autoplay
choosing, offscreen at 1280x720, and prints the time from the click to the painted result: median, 95th
percentile and worst, overall and per phase, plus the slowest action kinds.  Goal: every step painted within
50 ms at the 99th percentile.  No dialog waits for a person: the GM answers every question, the warnings are
taken as "go on" and the expedition's summary is not shown.  ``--profile FILE`` writes cProfile statistics of the
steps alone (``python -m pstats FILE``).  Beside the wall-clock times it prints the process's CPU time per step
(``time.process_time``), which a loaded machine (five people's tests on two cores) inflates far less: compare
two versions by it, and give the load average (printed) beside any figure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
GOAL_MS = 50.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--party", type=int, default=3)
    ap.add_argument("--profile", type=Path, default=None, help="write cProfile statistics of the steps here")
    a = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory(prefix="blacksalt-bench-") as tmp:
        os.environ["BLACKSALT_CONFIG_DIR"] = str(Path(tmp) / "config")
        os.environ["BLACKSALT_DATA_DIR"] = str(Path(tmp) / "data")

        from desktop.app import create_app
        from desktop.screens.game import GameScreen
        from desktop.session import Session
        from desktop.settings import Settings
        from rules.autoplay import suggest
        from rules.gm.engine import AutoDecider
        from rules.gm.state import Phase

        settings = Settings.load()
        settings.gm_rerolls = True  # the GM decides rerolls: no dialog waits for a person
        app = create_app(["blacksalt"], settings)
        session = Session.new(seed=a.seed, party_size=a.party, folder=Path(tmp) / "saves", decider=AutoDecider())
        # the GM's own decider: a dialog asking who tests, or a warning, once waited for a person forever
        screen = GameScreen(session, settings, decider=AutoDecider())
        screen.caution = lambda _caution: (True, False)
        screen.summary = lambda _data: None
        screen.resize(1280, 720)
        screen.show()
        app.processEvents()
        import cProfile

        prof = cProfile.Profile() if a.profile is not None else None
        times: dict[str, list[float]] = defaultdict(list)
        cpu: list[float] = []
        cpus: dict[str, list[float]] = defaultdict(list)
        kinds: dict[str, list[float]] = defaultdict(list)
        for _ in range(a.steps):
            if session.phase is Phase.OVER:
                break
            action = suggest(session.gm)
            if action is None:
                break
            phase = session.phase.value
            t0 = time.perf_counter()
            c0 = time.process_time()
            if prof is not None:
                prof.enable()
            screen.play(action)
            screen.repaint()  # paint now, as the screen would before the player sees the result
            app.processEvents()
            if prof is not None:
                prof.disable()
            ms = (time.perf_counter() - t0) * 1000
            cpu.append((time.process_time() - c0) * 1000)
            cpus[phase].append(cpu[-1])
            times[phase].append(ms)
            kinds[f"{phase}:{action.kind}"].append(ms)
        session.close()
        every = sorted(t for ts in times.values() for t in ts)

        def line(label: str, ts: list[float]) -> str:
            ts = sorted(ts)
            p90, p95, p99 = (ts[min(len(ts) - 1, int(q * len(ts)))] for q in (0.90, 0.95, 0.99))
            return f"{label:<20} n={len(ts):<5} median {statistics.median(ts):6.1f} ms   p90 {p90:6.1f} ms   " \
                   f"p95 {p95:6.1f} ms   p99 {p99:6.1f} ms   worst {ts[-1]:6.1f} ms"  # fmt: skip

        print(line("all", every))
        print(line("all, CPU", cpu))
        for phase, ts in sorted(times.items()):
            print(line(phase, ts))
            print(line(f"{phase}, CPU", cpus[phase]))
        slow = sorted(kinds.items(), key=lambda kv: -max(kv[1]))[:6]
        print("slowest kinds: " + ", ".join(f"{k} {max(v):.0f} ms" for k, v in slow))
        over = sum(1 for t in every if t > GOAL_MS)
        print(f"over {GOAL_MS:.0f} ms: {over} of {len(every)}")
        print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        if prof is not None:
            prof.dump_stats(str(a.profile))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
