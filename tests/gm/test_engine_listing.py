"""The engine trusts an action handed back from the listing made on the same step, and only that (the step is
validated once, not twice: half of the autoplay's time)."""

from __future__ import annotations

import pytest

from rules.checks import RuleError
from rules.gm import exploration
from tests.gm.scripted import corridor, game


def test_an_action_from_an_earlier_step_is_checked_again() -> None:
    gm = game(corridor(3), seed=4, party=2)
    exploration.enter(gm, "test-site")
    listed = {a.id: a for a in gm.legal_actions()}
    gm.apply(listed["move:2"])
    assert gm.c.expedition is not None and gm.c.expedition.room == 2
    with pytest.raises(RuleError):
        gm.apply(listed["move:2"])  # listed in room 1; from room 2 there is no way "to room 2"


def test_an_unavailable_action_of_the_listing_is_refused() -> None:
    gm = game(corridor(3), seed=4, party=2)
    exploration.enter(gm, "test-site")
    greyed = next(a for a in gm.legal_actions() if not a.available)
    with pytest.raises(RuleError):
        gm.apply(greyed)
