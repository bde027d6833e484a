"""The engine facade: the GM with every procedure wired in, and the step (legal actions, apply, fork).

``GM.legal_actions()`` lists what the player may do in the current phase (with
costs, and the reason for what cannot be done); ``GM.apply(action_id)`` does
one step and returns its events.  The desktop saves the campaign after every
step.  Inside a step, the phase's procedure (:mod:`rules.gm.exploration`,
:mod:`rules.gm.combat`, :mod:`rules.gm.camp`, :mod:`rules.gm.interlude`) uses
the services of :mod:`rules.gm.services`; where a service hands over to a
procedure, it goes through the :data:`PROCEDURES` wired here.

Player decisions inside a step go through a :class:`Decider`;
:class:`AutoDecider` is the "let the GM decide" player.  This is the module
clients import: the desktop, the autoplay (:mod:`rules.autoplay`), the tests.
"""

from __future__ import annotations

from random import Random
from typing import Self

from rules.checks import RuleError
from rules.gm import camp, combat, combat_flow, exploration, interlude
from rules.gm.events import Action, Event
from rules.gm.services import GM as Services
from rules.gm.services import (
    AutoDecider,
    Decider,
    PhaseProcedures,
    Procedures,
    armour_parts,
    store_armour,
)
from rules.gm.state import Campaign, Phase, rng_state

__all__ = ["GM", "PROCEDURES", "AutoDecider", "Decider", "armour_parts", "store_armour"]

PROCEDURES = Procedures(
    phases={
        Phase.EXPLORATION: PhaseProcedures(exploration.actions, exploration.apply),
        Phase.COMBAT: PhaseProcedures(combat.actions, combat.apply),
        Phase.CAMP: PhaseProcedures(camp.actions, camp.apply),
        Phase.INTERLUDE: PhaseProcedures(interlude.actions, interlude.apply),
    },
    doom_step=exploration.fire_doom,
    settlement_doom=interlude.settlement_doom,
    end_turn=exploration.end_turn,
    leave=exploration.leave,
    start_interlude=lambda gm: interlude.start(gm, returning=True),
)


class GM(Services):
    """The automated GM: the campaign's services (:class:`rules.gm.services.GM`) and the step."""

    PROCEDURES = PROCEDURES

    #: The last listing, kept so that :meth:`apply` given one of its very actions on the state that listed it
    #: need not list everything again (the step validated twice was half of the autoplay's time): the step count
    #: and campaign it was made on, and its actions by id.
    _listed: tuple[int, int, dict[str, Action]] | None = None

    def legal_actions(self, *, lean: bool = False) -> list[Action]:
        """What the player may do now, and what not and why.

        ``lean``: for a program that only picks among the available actions and reads their ids, kinds, targets,
        params and costs (the autoplay, above all in the copies its lookahead plays out): in a fight, only the
        available actions of the first adventurer who may act (the others' would be listed after theirs), and
        labels without their odds.  The same choice of the same actions, listed several times faster."""
        if self.c.phase is Phase.OVER:
            return []
        self.lean = lean
        try:
            out = self.procedures.phases[self.c.phase].actions(self)
        finally:
            self.lean = False
        self._listed = (self.c.stats.steps, id(self.c), {a.id: a for a in out})
        return out

    def _legal_by_id(self, action: str | Action) -> dict[str, Action]:
        listed = self._listed
        if listed is not None and listed[0] == self.c.stats.steps and listed[1] == id(self.c):
            if isinstance(action, Action) and listed[2].get(action.id) is action:
                return listed[2]  # the caller hands back an action of the listing made on this very step
            if isinstance(action, str) and self.what_if and action in listed[2]:
                # a what-if copy names an action of the listing it took along (made on its step, just before the
                # copy: GM.forks).  Elsewhere a name is always looked up afresh: the state may have been changed
                # between the listing and the step (a test kills someone, then recruits).
                return listed[2]
        return {a.id: a for a in self.legal_actions()}

    def _forked(self, campaign: Campaign, rng: Random, what_if: bool) -> Self:
        """A copy (:meth:`rules.gm.services.GM.fork`); the listing made on this very step goes along (the
        copy's state is the same), so the copy's first step need not list again."""
        other = super()._forked(campaign, rng, what_if)
        listed = self._listed
        if listed is not None and listed[0] == self.c.stats.steps and listed[1] == id(self.c):
            other._listed = (listed[0], id(other.c), listed[2])
        return other

    def apply(self, action: str | Action, *, tester: str | None = None) -> list[Event]:
        """Do one step; return what happened.  Unknown or unavailable actions raise :class:`RuleError`.

        ``tester``: the adventurer the player sends to make the step's test (who forces the door, who searches),
        instead of the GM's pick; ignored when they may not make it (the pool is the skilled, or they fell)."""
        wanted = action.id if isinstance(action, Action) else action
        legal = self._legal_by_id(action)
        self._listed = None  # the step changes the state
        if wanted not in legal:
            raise RuleError(f"{wanted!r} is not an action here (phase {self.c.phase.value})")
        chosen = legal[wanted]
        if not chosen.available:
            raise RuleError(chosen.reason or f"{chosen.label}: not now")
        self.events = []
        self.tester = tester
        try:
            self.procedures.phases[self.c.phase].apply(self, chosen)
        finally:
            self.tester = None
        if self.c.phase is Phase.COMBAT:
            # whatever the step did (a fight begun by a doom event, fatigue in the dark), the fight
            # runs on until someone must choose: a step never ends with a fight no one can act in
            combat_flow.advance(self)
        if self.c.expedition is not None and self.c.phase is not Phase.COMBAT:
            exploration.check_master(self)  # the master of the place fell in this step: say so at once
        self.c.stats.steps += 1
        if not self.what_if:  # (a what-if copy is never saved nor copied: its dice's state is not kept)
            self.c.rng = rng_state(self.rng)
        return self.events
