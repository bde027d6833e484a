"""The step's save made fast without giving anything up (#16.12): the campaign's JSON made by orjson is the text
``json.dumps(campaign.to_dict())`` made, character for character; with background saves each step is still one
transaction, written in the writer thread, committed before the next step is applied; a transaction the file
refused is written again before the next step, and the step is never dropped."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from desktop.persistence import SaveError, examine
from desktop.persistence.savefile import encode
from desktop.session import Session, campaign_json
from rules.autoplay import suggest
from rules.gm.engine import AutoDecider
from rules.gm.serial import dump
from rules.gm.state import Phase


def play(s: Session) -> list[Any]:
    action = suggest(s.gm)
    assert action is not None
    return s.apply(action)


def old_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class Tone(Enum):
    LOW = "low"
    HIGH = "high"


@dataclass
class Inner:
    tags: set[str] = field(default_factory=set)
    pair: tuple[int, str] = (1, "é")


@dataclass
class Outer:
    by_tone: dict[Tone, Inner] = field(default_factory=dict)
    by_number: dict[int, str] = field(default_factory=dict)
    maybe: Inner | None = None
    note: str = 'a "quoted" line\nand a tab\t, ☼'
    ratio: float = 0.1


def test_encode_writes_what_dump_and_json_wrote() -> None:
    obj = Outer({Tone.HIGH: Inner({"b", "a", "c"}), Tone.LOW: Inner()}, {3: "x", 1: "y"}, Inner({"z"}, (2, "w")))
    assert campaign_json(obj) == old_text(dump(obj))  # type: ignore[arg-type]
    assert json.loads(campaign_json(obj))["by_tone"]["high"]["tags"] == ["a", "b", "c"]  # type: ignore[arg-type]
    assert encode(dump(obj)) == old_text(dump(obj))  # plain data too
    big = {"n": 2**70}  # past orjson's 64 bits: the old way, not an error
    assert encode(big) == '{"n":1180591620717411303424}'
    with pytest.raises(TypeError):  # what json.dumps refuses in plain data is refused
        encode({"bad": {1, 2}})


def test_a_played_campaign_encodes_to_the_same_text_in_every_phase(tmp_path: Path) -> None:
    s = Session.new(seed=3, party_size=3, folder=tmp_path, decider=AutoDecider())
    seen: set[Phase] = set()
    try:
        for n in range(260):
            action = suggest(s.gm)
            assert action is not None
            s.gm.apply(action)
            phase = s.phase
            if phase not in seen or n % 25 == 0:
                seen.add(phase)
                assert campaign_json(s.campaign) == old_text(s.campaign.to_dict()), (n, phase)
    finally:
        s.close()
    assert {Phase.EXPLORATION, Phase.COMBAT, Phase.INTERLUDE} <= seen


def test_background_saves_commit_one_transaction_per_step_before_the_next_step(tmp_path: Path) -> None:
    from sqlalchemy import event

    s = Session.new(seed=5, party_size=2, folder=tmp_path, decider=AutoDecider())
    s.background_saves = True
    commits: list[str] = []
    event.listen(s.save._engine, "commit", lambda _conn: commits.append(threading.current_thread().name))
    saved_when_applied: list[tuple[int, int]] = []
    apply = s.gm.apply

    def watched(action: Any, **kw: Any) -> Any:
        saved_when_applied.append((s.save.step, s.campaign.stats.steps))
        return apply(action, **kw)

    s.gm.apply = watched  # type: ignore[method-assign]
    for _ in range(12):
        play(s)
    s.flush()
    assert not s.pending
    # every step's transaction was in the file before the next step was applied
    assert all(saved == steps for saved, steps in saved_when_applied)
    assert len(commits) == 12 and all(name.startswith("blacksalt-save") for name in commits)  # one each, off the GUI
    steps = s.campaign.stats.steps
    events = s.log()
    s.close()
    report = examine(s.path)
    assert report.step == steps == 12 and report.events == len(events) > 0


def test_a_refused_transaction_is_written_again_before_the_next_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = Session.new(seed=5, party_size=2, folder=tmp_path, decider=AutoDecider())
    s.background_saves = True
    commit = s.save.commit_step
    refusals = [2]  # the disk is full for two tries

    def flaky(*args: Any, **kw: Any) -> None:
        if refusals[0]:
            refusals[0] -= 1
            raise SaveError("unwritable", s.path, "could not save (disk full)")
        commit(*args, **kw)

    monkeypatch.setattr(s.save, "commit_step", flaky)
    first = play(s)  # written in the background: refused there
    step = s.campaign.stats.steps
    with pytest.raises(SaveError, match="disk full"):
        play(s)  # tried again before the next step: refused again, the next step is not applied
    assert s.campaign.stats.steps == step and s.pending and s.save.step == 0
    play(s)  # the disk has room: the kept step first, then this one
    s.close()
    report = examine(s.path)
    assert report.step == step + 1
    with Session.open(s.path) as again:
        kept = [e for e in again.log() if e["step"] == step]
    assert [e["text"] for e in kept] == [e.text for e in first]  # the refused step's events were not lost
