"""A phase's actions as small functions registered by kind: a table from kind to "list" and "apply".

Each phase (exploration, camp, interlude, combat) keeps one :class:`ActionTable`.
Its *listers* are called in the order they were registered, and their actions are
listed in that order (the order the player sees, and the autoplay's order of
preference among equals).  Its *appliers* are keyed by :attr:`Action.kind`.
Adding an action is adding a lister and an applier in the module that owns the
kind::

    TABLE = ActionTable("exploration")

    @TABLE.lister
    def _rest_actions(gm: GM) -> list[Action]: ...

    @TABLE.applies("catch_breath")
    def _catch_breath(gm: GM, action: Action) -> None: ...

The table is generic in what its functions receive: the GM for exploration,
camp and the interlude; in a fight, the fighter whose turn it is
(:class:`rules.gm.combat_actions.Turn`).  A kind listed with no applier, or an
applier registered twice, is a programming error that :meth:`ActionTable.apply`
and :meth:`ActionTable.applies` report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rules.checks import RuleError
from rules.gm.events import Action

C = TypeVar("C")  # what the functions receive: the GM, or a fighter's turn
Lister = Callable[[C], list[Action]]
Applier = Callable[[C, Action], None]


class ActionTable(Generic[C]):
    """The listers and appliers of one phase."""

    def __init__(self, phase: str) -> None:
        self.phase = phase
        self.listers: list[Lister[C]] = []
        self.appliers: dict[str, Applier[C]] = {}

    def lister(self, fn: Lister[C]) -> Lister[C]:
        """Register a function that lists some of the phase's actions (after those registered before)."""
        self.listers.append(fn)
        return fn

    def applies(self, *kinds: str) -> Callable[[Applier[C]], Applier[C]]:
        """Register the function that applies actions of ``kinds``."""

        def register(fn: Applier[C]) -> Applier[C]:
            for kind in kinds:
                if kind in self.appliers:
                    raise ValueError(f"{self.phase}: {kind!r} already has an applier")
                self.appliers[kind] = fn
            return fn

        return register

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(self.appliers)

    def actions(self, ctx: C) -> list[Action]:
        return [a for lister in self.listers for a in lister(ctx)]

    def apply(self, ctx: C, action: Action) -> None:
        fn = self.appliers.get(action.kind)
        if fn is None:
            raise RuleError(f"unknown {self.phase} action {action.kind!r}")
        fn(ctx, action)
