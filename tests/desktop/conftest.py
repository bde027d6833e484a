"""The desktop tests: the questions asked around a step (the warnings of :mod:`desktop.cautions`, who makes a
test) answer themselves as the game did before they existed (go on; the best odds), so a test that takes a job
or forces a door is not left waiting on a modal dialog, and the expedition's summary on the way back is not
shown.  The modules that test those questions ask for real."""

from __future__ import annotations

from typing import Any

import pytest

#: The test modules that answer the questions themselves.
ASKING = ("test_cautions", "test_testers", "test_summary")


@pytest.fixture(autouse=True)
def _questions_answer_themselves(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.module.__name__.rsplit(".", 1)[-1] in ASKING:
        return
    from desktop import decider
    from desktop.screens import game

    monkeypatch.setattr(game.GameScreen, "_caution_dialog", lambda self, caution: (True, False))
    monkeypatch.setattr(game.GameScreen, "_summary_dialog", lambda self, data: None)

    def best(parent: Any, action: Any, chances: list[Any]) -> str:
        return str(chances[0].who)

    monkeypatch.setattr(decider, "tester_dialog", best)
