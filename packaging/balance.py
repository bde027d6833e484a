"""Balance of the autoplay campaign: ``.venv/bin/python packaging/balance.py [--seeds 40] [--expeditions 5]``.

Plays ``--seeds`` campaigns (seeds ``--first`` ..) of ``--expeditions`` expeditions each with a party of
``--party`` through :func:`rules.autoplay.simulate.run` (the same code as ``blacksalt simulate``), on ``--jobs``
processes, and prints:

* expeditions survived per campaign (the party came home; median and quartiles);
* the share of campaigns perished / escaped / in progress;
* per expedition: deaths, full doom tracks reached (``doom_maxed``), silver earned, combats (and how many the
  party fled), exploration turns, camps, rooms entered for the first time, loot actions, parleys, bribes paid;
* how each expedition ended (home with loot, home empty, perished) and the causes of death;
* setting out: the share of expeditions entered without a light, or weaker than the autoplay's bar to go home;
* coming home: the share that turned back at once (0 turns), the loot value carried out, and how the party
  stood when it left (weak, without a light, both, or neither: done);
* the engine's speed: steps per second and exploration turns per second (one process, wall clock);
* campaigns that stopped on an engine error, by seed (left out of the numbers above);
* runaway campaigns, by seed: over ``--max-cpu`` CPU seconds per expedition asked for (a fight, real or a
  lookahead's copy, that never ends has cost hours); stopped and left out of the numbers like an engine error.

``--json`` prints the same numbers as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


#: CPU seconds a campaign may spend per expedition asked for before it is stopped as a runaway (measured: a
#: campaign of 25 expeditions takes well under a minute; the runaway of #14 ran 37 CPU minutes and on).
MAX_CPU_PER_EXPEDITION = 20.0


class Runaway(BaseException):
    """A campaign that ran over its CPU budget (not an Exception: no handler in the engine may swallow it)."""


@contextmanager
def _cpu_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Runaway` once this process has spent ``seconds`` more CPU time: a timer, so a single step
    that never returns is stopped too (the check after each step catches the rest)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def alarm(signum: int, frame: object) -> None:
        raise Runaway(f"over {seconds:g} CPU seconds")

    before = signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, before)


def play(args: tuple[int, int, int, float]) -> dict[str, Any]:
    """One campaign; its report plus what the events tell (expeditions survived, flights, causes of death)."""
    from dungeon_gen.site import GeneratedDungeons
    from rules.autoplay.player import LEAVE_BELOW, has_light, party_strength
    from rules.autoplay.simulate import run
    from rules.content.registry import load_content
    from rules.gm.engine import GM
    from rules.gm.events import Event

    seed, expeditions, party, max_cpu = args
    counts: Counter[str] = Counter()
    causes: Counter[str] = Counter()
    reasons: Counter[str] = Counter()  # how the party stood when it left: weak, without light, or done

    def on_step(gm: GM, events: list[Event]) -> None:
        for e in events:
            if e.kind == "expedition":  # the party enters: with a light? how strong?
                counts["set_out"] += 1
                counts["set_out_dark"] += not has_light(gm)
                counts["set_out_weak"] += party_strength(gm) < LEAVE_BELOW
            elif e.kind == "exit":
                counts["came_home"] += 1
                counts["turned_back"] += e.data.get("turns") == 0
                weak = party_strength(gm) < LEAVE_BELOW
                reasons["+".join(w for w, on in (("weak", weak), ("dark", not has_light(gm))) if on) or "done"] += 1
                counts["loot_home"] += sum(i.value * i.count for m in gm.alive() for i in m.adv.inventory.items
                                           if i.value > 0)  # fmt: skip
            elif e.kind == "combat_end":
                counts[f"combat_{e.data.get('outcome')}"] += 1
            elif e.kind == "loot":
                counts["loot"] += 1
                counts["loot_taken"] += bool(e.data.get("taken"))
            elif e.kind == "room" and e.data.get("first_time"):
                counts["rooms"] += 1
            elif e.kind == "test" and e.data.get("reason") == "parley":
                counts["parleys"] += 1
            elif e.kind == "bribe" and e.data.get("paid"):
                counts["bribes"] += 1
            elif e.kind == "master_dead":
                counts["masters"] += 1
            elif e.kind == "bounty":
                counts["bounties"] += 1
                counts["bounty_silver"] += int(e.data.get("silver", 0) or 0)
            elif e.kind == "death":
                text = e.text
                cause = text[text.find("(") + 1 : text.rfind(")")] if "(" in text else text
                causes[_cause(cause)] += 1

    content = load_content()
    t = time.perf_counter()
    limit = max_cpu * expeditions
    try:
        with _cpu_limit(limit):
            _, stats = run(content, GeneratedDungeons(), seed=seed, expeditions=expeditions, party=party,
                           on_step=on_step)  # fmt: skip
    except Runaway as e:  # named by seed (its seed replays it), left out of the figures like an engine error
        return {"seed": seed, "runaway": f"{e} ({time.perf_counter() - t:.0f} s wall)"}
    except Exception as e:  # an engine error: counted and named (its seed replays it), not a lost measurement
        return {"seed": seed, "crash": f"{type(e).__name__}: {e}"}
    stats["seconds"] = time.perf_counter() - t
    stats["came_home"] = counts["came_home"]
    for key in ("loot", "loot_taken", "rooms", "parleys", "bribes", "set_out", "set_out_dark", "set_out_weak",
                "turned_back", "loot_home", "masters", "bounties", "bounty_silver"):  # fmt: skip
        stats[f"n_{key}"] = counts[key]
    stats["exit_reasons"] = dict(reasons)
    stats["combat_outcomes"] = {k[7:]: v for k, v in counts.items() if k.startswith("combat_")}
    stats["causes"] = dict(causes)
    return stats


def _cause(text: str) -> str:
    """A death's cause, without the monster's name where it is one's attack."""
    if "'s " in text:
        return "an enemy's attack"
    return text.split(":")[0]


def quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        v = values[0] if values else 0.0
        return v, v, v
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], statistics.median(values), q[2]


def summarise(runs: list[dict[str, Any]], wall: float, jobs: int) -> dict[str, Any]:
    crashed = {r["seed"]: r["crash"] for r in runs if "crash" in r}
    runaway = {r["seed"]: r["runaway"] for r in runs if "runaway" in r}
    runs = [r for r in runs if "crash" not in r and "runaway" not in r]
    n = len(runs)
    exps = sum(r["expeditions"] for r in runs) or 1
    home = [float(r["came_home"]) for r in runs]
    outcomes = Counter(r["outcome"] for r in runs)
    combat = Counter[str]()
    causes = Counter[str]()
    exits = Counter[str]()
    for r in runs:
        combat.update(r["combat_outcomes"])
        causes.update(r["causes"])
        exits.update(r["exit_reasons"])
    set_out = sum(r["n_set_out"] for r in runs) or 1
    back = sum(r["came_home"] for r in runs) or 1
    steps = sum(r["steps"] for r in runs)
    turns = sum(r["turns"] for r in runs)
    cpu = sum(r["seconds"] for r in runs) or 1e-9
    q1, med, q3 = quartiles(home)
    return {
        "campaigns": n,
        "expeditions_survived": {"q1": q1, "median": med, "q3": q3, "mean": statistics.fmean(home) if home else 0},
        "outcome_share": {k: round(v / n, 3) for k, v in sorted(outcomes.items())},
        "expeditions": exps,
        "per_expedition": {
            "deaths": round(sum(r["deaths"] for r in runs) / exps, 3),
            "doom_maxed": round(sum(r["doom_maxed"] for r in runs) / exps, 3),
            "silver_earned": round(sum(r["silver_earned"] for r in runs) / exps, 1),
            "combats": round(sum(r["combats"] for r in runs) / exps, 2),
            "turns": round(turns / exps, 1),
            "camps": round(sum(r["camps"] for r in runs) / exps, 2),
            "doom_events": round(sum(r["doom_events"] for r in runs) / exps, 2),
            "rooms_entered": round(sum(r["n_rooms"] for r in runs) / exps, 2),
            "loot_actions": round(sum(r["n_loot"] for r in runs) / exps, 2),
            "loot_taking": round(sum(r["n_loot_taken"] for r in runs) / exps, 2),
            "parleys": round(sum(r["n_parleys"] for r in runs) / exps, 2),
            "bribes": round(sum(r["n_bribes"] for r in runs) / exps, 2),
            "masters_killed": round(sum(r["n_masters"] for r in runs) / exps, 3),
            "bounties_paid": round(sum(r["n_bounties"] for r in runs) / exps, 3),
            "bounty_silver": round(sum(r["n_bounty_silver"] for r in runs) / exps, 1),
        },
        "came_home_share": round(sum(home) / exps, 3),
        "setting_out": {
            "without_light": round(sum(r["n_set_out_dark"] for r in runs) / set_out, 3),
            "weak": round(sum(r["n_set_out_weak"] for r in runs) / set_out, 3),
        },
        "coming_home": {
            "after_0_turns": round(sum(r["n_turned_back"] for r in runs) / back, 3),
            "loot_value_carried": round(sum(r["n_loot_home"] for r in runs) / back, 1),
            "how": {k: round(v / back, 3) for k, v in exits.most_common()},
        },
        "combat_outcomes": dict(sorted(combat.items())),
        "death_causes": dict(causes.most_common()),
        "silver_at_end_median": statistics.median([r["silver"] for r in runs]) if runs else 0,
        "recruited": sum(r["recruited"] for r in runs),
        "crashed": crashed,
        "runaway": runaway,
        "speed": {
            "steps_per_second": round(steps / cpu),
            "turns_per_second": round(turns / cpu),
            "wall_seconds": round(wall, 1),
            "jobs": jobs,
        },
    }


def show(s: dict[str, Any]) -> None:
    e = s["expeditions_survived"]
    pe = s["per_expedition"]
    print(f"campaigns {s['campaigns']}, expeditions started {s['expeditions']}")
    print(
        f"expeditions survived per campaign: median {e['median']:g}, quartiles {e['q1']:g}–{e['q3']:g},"
        f" mean {e['mean']:.2f}; share of expeditions that came home {s['came_home_share']:.0%}"
    )
    print("campaign outcomes: " + ", ".join(f"{k} {v:.0%}" for k, v in s["outcome_share"].items()))
    print(
        f"per expedition: deaths {pe['deaths']}, doom_maxed {pe['doom_maxed']}, silver earned {pe['silver_earned']},"
        f" combats {pe['combats']}, turns {pe['turns']}, camps {pe['camps']}, doom events {pe['doom_events']}"
    )
    print(
        f"per expedition: rooms entered (first time) {pe['rooms_entered']}, loot actions {pe['loot_actions']}"
        f" (that took something {pe['loot_taking']}),"
        f" parleys {pe['parleys']}, bribes paid {pe['bribes']}"
    )
    print(
        f"per expedition: masters killed {pe['masters_killed']}, bounties paid {pe['bounties_paid']}"
        f" ({pe['bounty_silver']} silver)"
    )
    so, ch = s["setting_out"], s["coming_home"]
    print(
        f"setting out: without a light {so['without_light']:.0%}, weak (under the autoplay's bar to go home)"
        f" {so['weak']:.0%}"
    )
    print(
        f"coming home: after 0 turns {ch['after_0_turns']:.0%}, loot value carried {ch['loot_value_carried']},"
        " how: " + ", ".join(f"{k} {v:.0%}" for k, v in ch["how"].items())
    )
    print("combat outcomes: " + ", ".join(f"{k} {v}" for k, v in s["combat_outcomes"].items()))
    print("deaths by cause: " + ", ".join(f"{k} {v}" for k, v in s["death_causes"].items()))
    print(f"silver held at the end (median) {s['silver_at_end_median']}, recruits {s['recruited']}")
    for seed, why in s["crashed"].items():
        print(f"CRASHED seed {seed}: {why}")
    for seed, why in s["runaway"].items():
        print(f"RUNAWAY seed {seed}: {why}")
    sp = s["speed"]
    print(
        f"speed: {sp['steps_per_second']} steps/s, {sp['turns_per_second']} exploration turns/s per process"
        f" ({sp['wall_seconds']} s wall on {sp['jobs']} processes)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--expeditions", type=int, default=5)
    ap.add_argument("--party", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--max-cpu", type=float, default=MAX_CPU_PER_EXPEDITION,
                    help="CPU seconds per expedition before a campaign is stopped as a runaway")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--per-seed", action="store_true", help="one line per campaign too")
    a = ap.parse_args()
    work = [(s, a.expeditions, a.party, a.max_cpu) for s in range(a.first, a.first + a.seeds)]
    t = time.perf_counter()
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as pool:
            runs = list(pool.map(play, work))
    else:
        runs = [play(w) for w in work]
    wall = time.perf_counter() - t
    s = summarise(runs, wall, a.jobs)
    if a.per_seed:
        for r in (r for r in runs if "crash" not in r and "runaway" not in r):
            print(
                f"seed {r['seed']:>4}: {r['outcome']:<11} home {r['came_home']}/{r['expeditions']}"
                f" deaths {r['deaths']} combats {r['combats']} turns {r['turns']} silver+ {r['silver_earned']}"
                f" {r['combat_outcomes']} {r['seconds']:.0f}s"
            )
    if a.json:
        print(json.dumps(s, indent=2))
    else:
        show(s)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
