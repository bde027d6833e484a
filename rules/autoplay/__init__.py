"""The autoplay: a player, not part of the GM.

It plays headless (``blacksalt simulate``, ``packaging/balance.py``) and is the
"let the GM decide" button of the window.  Like any player it only reads the
campaign and picks among the legal actions the engine lists, through the
engine's public API (:class:`rules.gm.engine.GM`: ``legal_actions``,
``apply``, ``fork``, read-only state); the GM never imports it (an
import-linter contract in ``pyproject.toml``).

* :mod:`rules.autoplay.player`: exploration (what to loot, where to go, when to
  go home), and its sense of the party's strength and light.
* :mod:`rules.autoplay.combat_policy`: a fight, turn by turn; the
  expected-value forecast.
* :mod:`rules.autoplay.lookahead`: a fight judged by playing it out in copies
  of the campaign.
* :mod:`rules.autoplay.camp_policy`, :mod:`rules.autoplay.interlude_policy`:
  camp, and days in a settlement (which job to take).
* :mod:`rules.autoplay.simulate`: whole campaigns, with statistics.
"""

from __future__ import annotations

from rules.autoplay import camp_policy, combat_policy, interlude_policy
from rules.autoplay.player import explore
from rules.gm.engine import GM
from rules.gm.events import Action
from rules.gm.state import Phase

__all__ = ["suggest"]


def suggest(gm: GM, *, lean: bool = False) -> Action | None:
    """The autoplay's choice among the available actions of the phase (None: there is none).

    ``lean``: choose from the engine's lean listing (``GM.legal_actions(lean=True)``): the same choice, faster;
    headless play uses it (the window shows the full listing anyway)."""
    actions = [a for a in gm.legal_actions(lean=lean) if a.available]
    if not actions:
        return None
    phase = gm.c.phase
    if phase is Phase.EXPLORATION:
        return explore(gm, actions)
    pickers = {Phase.COMBAT: combat_policy.suggest, Phase.CAMP: camp_policy.suggest,
               Phase.INTERLUDE: interlude_policy.suggest}  # fmt: skip
    return pickers[phase](gm, actions)
