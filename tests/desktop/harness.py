"""What the game screen does for a phase view, for tests of one view alone: apply its choice, then refresh it."""

from __future__ import annotations

from typing import Any

from desktop.session import Session
from rules.gm.events import Action, Event


class Harness:
    def __init__(self, session: Session, view: Any) -> None:
        self.session, self.view = session, view
        self.events: list[Event] = []
        self.chosen: list[Action] = []
        view.act.connect(self.apply)

    def apply(self, action: Action) -> None:
        self.chosen.append(action)
        self.events = self.session.apply(action)
        self.view.refresh(self.events)


def shown(qtbot: Any, view: Any) -> tuple[Any, Harness]:
    """``view`` at 1280x720 on screen, drawn from its session, with a harness playing its choices."""
    qtbot.addWidget(view)
    view.resize(1280, 720)
    view.show()
    qtbot.waitExposed(view)
    view.refresh([])
    return view, Harness(view.session, view)
