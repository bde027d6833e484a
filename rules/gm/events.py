"""Actions the player can take, and events the GM reports.

An :class:`Action` is listed by the engine with its cost and, when it cannot be
taken, the reason; an :class:`Event` is what happened, in words fit for the
game's log, with the dice and numbers in ``data`` for the UI.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Cost:
    turns: int = 0  # exploration turns
    actions: int = 0  # combat or camp actions
    silver: int = 0
    items: tuple[str, ...] = ()

    def __str__(self) -> str:
        parts = []
        if self.turns:
            parts.append(f"{self.turns} turn{'s' if self.turns > 1 else ''}")
        if self.actions:
            parts.append(f"{self.actions} action{'s' if self.actions > 1 else ''}")
        if self.silver:
            parts.append(f"{self.silver} silver")
        parts += list(self.items)
        return ", ".join(parts) or "free"


_FREE = Cost()


@dataclass(frozen=True, init=False)
class Action:
    """Something the player may do now (``available``) or could, but not now (``reason``)."""

    id: str  # unique among the current legal actions: "move:4", "loot", "attack:a1:m2"
    kind: str  # "move", "loot", "attack", ...
    label: str  # for a button: "Move to the Chapel of Candles (room 8)"
    cost: Cost = _FREE
    available: bool = True
    reason: str | None = None  # why it is unavailable
    who: str | None = None  # the adventurer acting, when one does
    target: str | None = None  # a room, a door, an enemy, an item...
    params: tuple[tuple[str, Any], ...] = ()
    rule: str = ""  # the rule it quotes, for a tooltip

    def __init__(
        self,
        id: str,
        kind: str,
        label: str,
        cost: Cost = _FREE,
        available: bool = True,
        reason: str | None = None,
        who: str | None = None,
        target: str | None = None,
        params: tuple[tuple[str, Any], ...] = (),
        rule: str = "",
    ) -> None:
        # the fields written straight into the instance: a frozen dataclass's own __init__ sets each through
        # object.__setattr__, four times slower, and a fight's listings make hundreds of thousands (#14)
        d = self.__dict__
        d["id"], d["kind"], d["label"], d["cost"], d["available"] = id, kind, label, cost, available
        d["reason"], d["who"], d["target"], d["params"], d["rule"] = reason, who, target, params, rule

    def param(self, key: str, default: Any = None) -> Any:
        return dict(self.params).get(key, default)


@dataclass(frozen=True)
class Event:
    """What happened.  ``kind`` for filtering, ``text`` for the log, ``data`` for the UI."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": self.data}
