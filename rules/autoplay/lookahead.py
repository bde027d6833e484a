"""Looking ahead: the autoplay judges a fight by playing it out in copies of the campaign.

The expected-value forecast (:func:`rules.autoplay.combat_policy.forecast_groups`) is quick, but it reads a fight
badly: it counts an adventurer who has run out of dice as lost, and it never sees the enemy who stops next to
the first adventurer, the armour that holds, the rat that jumps away.  Measured over the room fights the
autoplay met in 40 campaigns (6 expeditions each), it called a lone aware Giant Rat a fight with two
adventurers down, while the same fight played out to the end 12 times was won every time, with no one dead.

So the autoplay plays the fight out instead, :data:`RUNS` times, each in a deep copy of the campaign with its
own random generator, and counts how often it was won and how many died.  The copies' dice are seeded from
the campaign's seed and step (never drawn from the campaign's own generator), so looking ahead neither
peeks at the real dice nor moves them: the same seed still plays the same campaign.  The copies know what
the forecast knew (the enemies' sheets and wounds), and a fight does not reach beyond its room.  Inside a copy the
combat policy does not look ahead again; it keeps to the course being tested (:func:`course`).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Literal, cast

if TYPE_CHECKING:
    from rules.gm.combat_state import CombatState
    from rules.gm.engine import GM
    from rules.gm.state import Campaign

#: Copies played for one judgement.
RUNS = 12
#: Copies played for each course when a fight in progress is judged (fight on, or leave): fewer, and once a
#: round rather than once for each side's turn, since the judgement is made again next round.  Measured
#: (#14): the lookahead was 97% of the autoplay's time, and balance.py's 100 seeds x 25 expeditions took
#: hours, not the ten minutes it must.
PLAN_RUNS = 6
#: Steps a copy may take before it is called off (a fight that has not ended counts as not won).
MAX_STEPS = 300
#: Rounds a copy's fight may last before it is called off, counted as not won: a fight that drags on is not
#: worth starting, and a copy that never ended (blood drawn every few rounds, so never the engine's stalemate)
#: cost a whole campaign of 25 expeditions 37 CPU minutes and more in ``balance.py`` (#14).
MAX_ROUNDS = 20
#: What beating the enemies is worth, in lives: a fight in progress goes on when its expected deaths, less
#: this much for each copy won, are no more than leaving's (a won room can be looted and walked through;
#: a fled one stays barred).
WIN_WORTH = 0.3

Course = Literal["fight", "leave"]

_course: Course | None = None


def course() -> Course | None:
    """The course a copy is testing ("fight": leave only a fight that is lost; "leave": everyone out now),
    or None outside a copy (the policy then looks ahead itself)."""
    return _course


@contextmanager
def _testing(c: Course) -> Iterator[None]:
    global _course
    before, _course = _course, c
    try:
        yield
    finally:
        _course = before


@dataclass(frozen=True)
class Outlook:
    """How a fight went in ``runs`` copies."""

    runs: int
    won: float  # share of the copies in which the enemies were beaten (killed, routed)
    deaths: float  # adventurers dead per copy
    dying: float  # share of the copies in which anyone died


def play_out(gm: GM, first: str | None, c: Course, runs: int = RUNS, *, need: tuple[float, float] | None = None,
             settled: Callable[[int, int, int], bool] | None = None) -> Outlook:  # fmt: skip
    """Play the fight (started by action ``first``, or the one in progress) to its end in ``runs`` copies.

    ``need``: (the share of copies won, the share with a death at most) the caller asks for; the copies stop
    as soon as the answer is no whatever the rest would show (the outlook then counts only those played).
    ``settled(played, won, deaths)``: the caller's own test, after each copy, that its answer can no longer
    change (the outlook counts those played)."""
    from rules.autoplay import suggest
    from rules.gm.state import Phase

    base = zlib.crc32(f"{gm.c.seed}:{gm.c.stats.steps}:{first}:{c}".encode())
    won = deaths = dying = played = 0
    with _testing(c):
        copies = gm.forks((Random(base + k) for k in range(runs)), what_if=True)
        for k, g in enumerate(copies):
            copy_ = g.c
            before = copy_.stats.deaths
            outcome = None
            events = g.apply(first) if first is not None else []
            steps = 0
            while copy_.phase is Phase.COMBAT and steps < MAX_STEPS and _rounds(copy_) <= MAX_ROUNDS:
                action = suggest(g, lean=True)
                if action is None:
                    break
                events = g.apply(action)
                steps += 1
            for e in events:
                if e.kind == "combat_end":
                    outcome = e.data.get("outcome")
            died = copy_.stats.deaths - before
            won += outcome == "victory"
            deaths += died
            dying += died > 0
            played = k + 1
            if need is not None and (played - won > runs * (1 - need[0]) or dying > runs * need[1]):
                break  # already more copies lost, or with a death, than the answer yes allows
            if settled is not None and played < runs and settled(played, won, deaths):
                break
    return Outlook(runs=played, won=won / played, deaths=deaths / played, dying=dying / played)


def _rounds(c: Campaign) -> int:
    return c.combat.round if c.combat is not None else 0


#: The plan is made again when the party's dice left (a share of its full scores) fall by this much since it
#: was made, or someone goes down, or the enemies lose one of theirs: not every round (playing both courses out
#: every round was two thirds of the autoplay's time, and the answer rarely changed while the fight did not).
REPLAN_STEP = 0.2


def plan(gm: GM, cs: CombatState) -> Course:
    """Fight on or leave: decided by playing both courses out, and kept in the combat state (so a resumed save
    keeps to it) until the fight turns (:data:`REPLAN_STEP`)."""
    from rules.autoplay.player import party_strength

    key = f"{len(gm.active())}:{len(cs.active_foes())}:{int(party_strength(gm) / REPLAN_STEP)}"
    if cs.plan_at == key and cs.plan:
        return cast(Course, cs.plan)
    stay = play_out(gm, None, "fight", PLAN_RUNS)
    cost = stay.deaths - WIN_WORTH * stay.won  # fighting on: lives lost, less what a win is worth
    most = len(gm.c.party)  # the most deaths one copy can have
    verdict: list[Course] = []

    def settled(played: int, won: int, deaths: int) -> bool:
        """Whatever the copies of leaving not yet played show, the choice is made (#14: fewer copies where the
        answer is clear, the same answer): leaving's cost, computed as below, is at least ``low`` (none of the
        rest with a death, all won) and at most ``high`` (all of the rest with everyone dead, none won)."""
        rest = PLAN_RUNS - played
        low = deaths / PLAN_RUNS - WIN_WORTH * ((won + rest) / PLAN_RUNS)
        high = (deaths + most * rest) / PLAN_RUNS - WIN_WORTH * (won / PLAN_RUNS)
        if cost <= low:
            verdict.append("fight")
        elif cost > high:
            verdict.append("leave")
        return bool(verdict)

    if not settled(0, 0, 0):  # (fighting on won every copy with no one dead: leaving cannot do better)
        go = play_out(gm, None, "leave", PLAN_RUNS, settled=settled)
    choice = verdict[0] if verdict else "fight" if cost <= go.deaths - WIN_WORTH * go.won else "leave"
    cs.plan, cs.plan_at = choice, key
    return choice
