"""Combat: the fight on the room's tile grid, round by round.

The core rules' "Combat" chapter (the later chapter's wording): setup (enemies
placed, an initiative DEX check for each adventurer: success fast, failure
slow), then a loop of fast adventurers (two actions each, in the order the
player likes) → enemies (the GM, two actions each) → slow adventurers (two
actions each, in the GM's order) → cleanup (unused dodge tokens go; shield
tokens stay), until one side is dead, has fled, or has left.  The whole
combat is one exploration turn; the decay tracker does not move during it.

What is saved lives in :mod:`rules.gm.combat_state`; this module names the
procedure's entry points (:func:`start`, :func:`reinforce`, :func:`actions`,
:func:`apply`); the procedure itself lives beside it:
:mod:`rules.gm.combat_grid` (tiles, distances, movement),
:mod:`rules.gm.combat_gear` (weapons, shields, attacks an adventurer can make),
:mod:`rules.gm.combat_foes` (enemy sheets, damage to enemies, the enemy AI and
enemy attacks), :mod:`rules.gm.combat_actions` (the adventurers' actions) and
:mod:`rules.gm.combat_flow` (setup, the turn loop, the end); the manoeuvres'
handlers are :mod:`rules.gm.manoeuvres`, which this module wires.  The autoplay's
player is :mod:`rules.autoplay.combat_policy`.

"""

from __future__ import annotations

from rules.gm import manoeuvres  # noqa: F401  (registers the manoeuvres' handlers, rules.gm.powers.MANOEUVRES)
from rules.gm.combat_actions import actions, apply
from rules.gm.combat_flow import reinforce, start

__all__ = ["actions", "apply", "reinforce", "start"]
