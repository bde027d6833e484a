"""Save timings for the closing notes: ``.venv/bin/python packaging/bench_saves.py [--steps N]``.

* one ``commit_step`` (the autosave after every step) of a campaign of about 60 KB of JSON with 10
  events: median, 90th percentile and worst over N steps, after a warm-up (goal: median under 5 ms);
* the same for a bigger campaign (about 250 KB: several dungeons kept in it);
* opening a save (the read-only checks included) and loading the campaign; creating a new one.

The campaign is shaped like ``Campaign.to_dict()`` (a party of three, the RNG state, settlements,
dungeons kept as their generator's JSON), and changes a little every step, as play does.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def dungeon_json(seed: int, rooms: int) -> str:
    try:
        from dungeon_gen.generate import generate

        return generate(seed, rooms=rooms).to_json()
    except Exception:  # the generator is not what this measures
        rng = random.Random(seed)
        return json.dumps(
            {"rooms": [{"id": i, "text": "".join(rng.choices("abcdefgh ", k=3000))} for i in range(rooms)]}
        )


def member(rng: random.Random, i: int) -> dict[str, Any]:
    attrs = {a: {"score": rng.randint(1, 3), "proficiency": rng.randint(0, 2), "fatigue": 0, "wounds": 0}
             for a in ("STR", "DEX", "INT", "PRE")}  # fmt: skip
    items = [{"name": f"item {j}", "slots": 1, "uses": rng.randint(0, 3), "broken": False} for j in range(12)]
    return {
        "id": f"a{i}",
        "adv": {
            "character": {"name": f"Adventurer {i}", "attrs": attrs, "afflictions": [], "traumas": [],
                          "skills": ["Fearless", "Slippery"], "traits": [], "condition": "active", "silver": 12,
                          "insight": 1, "insight_earned": 1, "mortal_wounds_this_expedition": 0},
            "klass": "Thief", "background": "Lone Rogue", "inventory": items,
            "lifepath": [{"table": "infancy", "roll": rng.randint(3, 18), "text": "x" * 120} for _ in range(4)],
        },
        "lit": None,
        "joined_day": 1,
        "fate": "",
    }  # fmt: skip


def campaign(dungeons: int, rooms: int) -> dict[str, Any]:
    rng = random.Random(7)
    r = random.Random(1)
    state = r.getstate()
    return {
        "seed": 7,
        "rng": [state[0], list(state[1]), state[2]],
        "phase": "exploration",
        "day": 1,
        "party": [member(rng, i) for i in range(1, 4)],
        "settlement": "Trinta",
        "omens": {"size": 6, "filled": 2},
        "goal_silver": 600,
        "settlements": {
            n: {"name": n, "size": 2, "doom": 0, "fired": [], "prices": {}, "events": {}}
            for n in ("Trinta", "Steinsburg", "Kerrow")
        },
        "locations": {
            f"d{i}": {
                "id": f"d{i}",
                "title": f"Dungeon {i}",
                "theme": "crypt",
                "level": 1,
                "bounty": 50,
                "depths": 1,
                "data": dungeon_json(i, rooms),
                "visits": 0,
                "cleared": False,
                "levels": {
                    "1": {
                        "depth": 1,
                        "doom": 0,
                        "fired": [],
                        "rooms": {str(k): {"seen": False, "visited": False} for k in range(rooms)},
                    }
                },
            }
            for i in range(dungeons)
        },
        "expedition": {"location": "d0", "depth": 1, "room": 1, "turns": 0, "decay": 0},
        "stats": {"steps": 0, "turns": 0},
        "version": 1,
    }


def step_events(step: int, rng: random.Random) -> list[dict[str, Any]]:
    return [
        {"kind": "test", "text": f"Adventurer 1 tests DEX: rolled {rng.randint(1, 6)}, {rng.randint(1, 6)}.",
         "data": {"dice": [rng.randint(1, 6) for _ in range(3)], "step": step}}
        for _ in range(10)
    ]  # fmt: skip


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.2f} ms"


def bench_commits(folder: Path, label: str, data: dict[str, Any], steps: int) -> float:
    from desktop.persistence import SaveFile

    rng = random.Random(3)
    size = len(json.dumps(data, separators=(",", ":")))
    path = folder / f"{label}.sqlite3"
    t0 = time.perf_counter()
    save = SaveFile.create(path, data)
    created = time.perf_counter() - t0
    samples = []
    warmup = 10
    for step in range(1, steps + warmup + 1):
        data["stats"]["steps"] = step
        data["expedition"]["turns"] = step
        data["expedition"]["room"] = rng.randint(1, 12)
        data["party"][0]["adv"]["character"]["attrs"]["DEX"]["fatigue"] = step % 3
        data["day"] = 1 + step // 50
        events = step_events(step, rng)
        t = time.perf_counter()
        save.commit_step(step, data, events)
        if step > warmup:
            samples.append(time.perf_counter() - t)
    save.close()
    opens, loads = [], []
    for _ in range(10):
        t = time.perf_counter()
        save = SaveFile.open(path)
        opens.append(time.perf_counter() - t)
        t = time.perf_counter()
        save.load()
        save.load()  # the second load reads the file: the first returns what open parsed
        loads.append(time.perf_counter() - t)
        save.close()
    med = statistics.median(samples)
    q = statistics.quantiles(samples, n=10)
    print(f"{label}: campaign {size / 1000:.0f} KB of JSON, 10 events per step, {len(samples)} steps")
    print(f"  commit_step   median {ms(med)}   p90 {ms(q[-1])}   max {ms(max(samples))}")
    print(f"  open (checks) median {ms(statistics.median(opens))}   two loads {ms(statistics.median(loads))}")
    print(f"  create        {ms(created)}")
    print(f"  file          {path.stat().st_size / 1e6:.2f} MB after {steps + warmup} steps")
    return med


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=300)
    steps = ap.parse_args().steps
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        med = bench_commits(folder, "typical", campaign(dungeons=1, rooms=8), steps)
        bench_commits(folder, "large", campaign(dungeons=4, rooms=12), steps)
    verdict = "meets" if med < 0.005 else "MISSES"
    print(f"autosave of a ~60 KB campaign: median {med * 1000:.2f} ms, {verdict} the 5 ms goal")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
