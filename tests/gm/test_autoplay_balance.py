"""packaging/balance.py's per-campaign guard (#14): a campaign over its CPU budget is stopped and named by seed."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_a_campaign_over_its_cpu_budget_is_reported_as_a_runaway_and_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign that never ends (here: one that only burns CPU) is stopped by the timer, even inside one step that
    never returns. (A real seed's expedition was the budget's victim before: at CI, seed 1's one expedition ended
    inside 0.05 CPU seconds on a fast machine, so the test now spins.)"""
    from rules.autoplay import simulate

    def spin(*args: Any, **kwargs: Any) -> None:
        while True:
            pass

    monkeypatch.setattr(simulate, "run", spin)
    spec = importlib.util.spec_from_file_location("balance", ROOT / "packaging" / "balance.py")
    assert spec is not None and spec.loader is not None
    balance = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(balance)
    run = balance.play((1, 1, 3, 0.05))
    assert set(run) == {"seed", "runaway"} and run["seed"] == 1 and run["runaway"].startswith("over 0.05 CPU seconds")
    s = balance.summarise([run], 1.0, 1)
    assert s["campaigns"] == 0 and s["runaway"] == {1: run["runaway"]} and s["crashed"] == {}
