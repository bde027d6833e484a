"""The dice tray and the window's decider, driven through the real widgets."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer

from desktop.decider import QtDecider
from desktop.session import Session
from desktop.settings import Settings
from desktop.widgets.dice_tray import DiceTray, odds_now, percent
from rules.attributes import Attr
from rules.checks import Side
from rules.checks import TestSpec as Spec
from rules.odds import odds, policy_for


def shown(tray: DiceTray) -> dict[str, str]:
    return {k: lab.text() for k, lab in tray.odds_labels.items()}


def expected(values: dict[str, float]) -> dict[str, str]:
    return {k: percent(v) for k, v in values.items()}


def test_odds_before_the_roll_are_the_engines(qtbot: Any) -> None:
    tray = DiceTray()
    qtbot.addWidget(tray)
    spec = Spec(dice=3, proficiency=1, disadvantage=1)
    tray.play(spec, Random(1), title="A test", make_spec=lambda o: spec.with_(**o))
    o = odds(spec)
    assert shown(tray) == expected({"success": o.success, "great_success": o.great_success,
                                    "critical_failure": o.critical_failure, "fatigue": o.fatigue})  # fmt: skip
    # announcing extra effort changes the pool and the odds shown, before anything is rolled
    qtbot.mouseClick(tray.option_checks["extra_effort"], Qt.MouseButton.LeftButton)
    o2 = odds(spec.with_(extra_effort=True))
    assert tray.odds_labels["success"].text() == percent(o2.success)
    assert tray.odds_labels["fatigue"].text() == percent(o2.fatigue) == "100%"
    assert tray.live_test is None  # nothing rolled yet
    assert len(tray.dice) == 4 and all(d.face == 0 for d in tray.dice)


def test_clicking_a_die_rerolls_that_die_only_and_the_odds_follow(qtbot: Any) -> None:
    tray = DiceTray()
    qtbot.addWidget(tray)
    spec = Spec(dice=4, proficiency=2)
    tray.play(spec, Random(7), title="Lockpicking")
    tray.show()
    qtbot.mouseClick(tray.roll_button, Qt.MouseButton.LeftButton)
    test = tray.live_test
    assert test is not None and test.side_to_act is Side.PLAYER
    assert [d.face for d in tray.dice] == test.main
    assert shown(tray) == expected(odds_now(test))
    for round_ in range(2):
        before = list(test.main)
        left = test.player_left
        qtbot.mouseClick(tray.dice[round_], Qt.MouseButton.LeftButton)
        assert test.player_left == left - 1
        assert [f for i, f in enumerate(test.main) if i != round_] == [f for i, f in enumerate(before) if i != round_]
        assert test.history[-1].index == round_ and test.history[-1].old == before[round_]
        assert [d.face for d in tray.dice] == test.main
    # no rerolls left: the outcome, and its odds are the verdict
    assert tray.stage == "outcome"
    v = test.verdict
    assert tray.odds_labels["success"].text() == ("100%" if v.success else "0%")
    assert all(not d.isEnabled() for d in tray.dice)


def test_odds_from_here_match_the_policy_after_a_reroll(qtbot: Any) -> None:
    tray = DiceTray()
    qtbot.addWidget(tray)
    spec = Spec(dice=2, proficiency=2)
    tray.play(spec, Random(3))
    qtbot.mouseClick(tray.roll_button, Qt.MouseButton.LeftButton)
    test = tray.live_test
    assert test is not None
    qtbot.mouseClick(tray.dice[1], Qt.MouseButton.LeftButton)
    v = policy_for(spec).value(tuple(sorted(test.main)), None, (0, 0, test.player_left))
    assert tray.odds_labels["success"].text() == percent(v[1])
    assert tray.odds_labels["critical_failure"].text() == percent(v[3])
    qtbot.mouseClick(tray.keep_button, Qt.MouseButton.LeftButton)
    assert tray.stage == "outcome" and test.player_left == 0


@pytest.fixture
def session(tmp_path: Path) -> Any:
    s = Session.new(seed=11, party_size=3, folder=tmp_path)
    yield s
    s.close()


def proficient(s: Session) -> tuple[Any, Attr]:
    for m in s.campaign.party:
        for a in (Attr.DEX, Attr.INT, Attr.STR, Attr.PRE):
            st = m.adv.character.attrs[a]
            if st.proficiency and st.available >= 2:
                return m, a
    pytest.skip("no proficient adventurer in this party")


def test_the_decider_rolls_through_the_real_tray(qtbot: Any, session: Session) -> None:
    """A test inside the engine: roll in the tray, reroll a die by clicking it, see the outcome."""
    decider = QtDecider(Settings(gm_rerolls=False))
    session.gm.decider = decider
    member, attr = proficient(session)
    clicks: list[tuple[int, list[int]]] = []

    def drive() -> None:
        tray = decider.tray
        if tray is None or not tray.isVisible():
            return
        if tray.stage == "before":
            qtbot.mouseClick(tray.roll_button, Qt.MouseButton.LeftButton)
        elif tray.stage == "reroll" and tray.test is not None:
            clicks.append((0, list(tray.test.main)))
            qtbot.mouseClick(tray.dice[0], Qt.MouseButton.LeftButton)
        elif tray.stage in ("outcome", "rolled"):
            qtbot.mouseClick(tray.continue_button, Qt.MouseButton.LeftButton)

    timer = QTimer()
    timer.timeout.connect(drive)
    timer.start(15)
    roll = session.gm.test(member, attr, "a test in the tray")
    timer.stop()
    assert decider.asked[0] == "before_test" and decider.asked[-1] == "after_test"
    assert decider.asked.count("reroll") == len(clicks) >= 1
    player = [r for r in roll.history if r.side is Side.PLAYER]
    assert len(player) == len(clicks)
    assert all(r.index == 0 for r in player)
    assert player[0].old == clicks[0][1][0]
    ev = session.gm.events[-1]
    assert ev.kind == "test" and ev.data["rerolls"] == [(r.side.value, r.old, r.new) for r in roll.history]
    assert decider.tray is None  # closed after the outcome


def test_announced_options_reach_the_roll(session: Session) -> None:
    answers: list[str] = []

    def ask(kind: str, p: dict[str, Any]) -> Any:
        answers.append(kind)
        if kind == "before_test":
            assert "keep_safe" not in p["unavailable"]
            return {"keep_safe": True}
        return None

    session.gm.decider = QtDecider(Settings(gm_rerolls=False), ask=ask)
    member, attr = proficient(session)
    roll = session.gm.test(member, attr, "carefully")
    dice = member.adv.character.attrs[attr].available + (1 if roll.verdict.fatigue else 0)
    assert roll.spec.keep_safe and roll.spec.dice == dice and roll.spec.pool == dice - 2
    assert answers[0] == "before_test" and answers[-1] == "after_test"


def test_help_and_burden(session: Session) -> None:
    member, attr = proficient(session)
    other = next(m for m in session.campaign.party if m.id != member.id)
    insight = member.adv.character.insight
    seen: dict[str, Any] = {}

    def ask(kind: str, p: dict[str, Any]) -> Any:
        if kind == "before_test":
            seen.setdefault("unavailable", []).append(dict(p["unavailable"]))
            seen["helpers"] = p["helpers"]
            return {"helper": other.id, "burden": True} if "burden" not in p["unavailable"] else {}
        return None

    session.gm.decider = QtDecider(Settings(gm_rerolls=False), ask=ask)
    if not member.adv.burden:
        pytest.skip("no burden")
    roll = session.gm.test(member, attr, "with help")
    assert roll.spec.help and roll.spec.burden and roll.helper is not None
    assert (other.id, other.name) in seen["helpers"]
    assert member.adv.character.insight == insight + 1
    # once per session: the burden is not offered again on this expedition
    session.gm.test(member, attr, "again")
    assert "burden" in seen["unavailable"][-1]


def test_gm_decides_never_asks(session: Session) -> None:
    def ask(kind: str, p: dict[str, Any]) -> Any:
        raise AssertionError(f"asked {kind}")

    session.gm.decider = QtDecider(Settings(gm_rerolls=True), ask=ask)
    member, attr = proficient(session)
    session.gm.test(member, attr, "quickly")


def test_dice_tumble_then_settle_on_their_real_faces(qtbot: Any) -> None:
    """The "Animations" setting: fresh dice show other faces for a moment, then their own; the roll itself is
    the game's and does not change."""
    tray = DiceTray()
    qtbot.addWidget(tray)
    tray.animation_ms = 180
    tray.play(Spec(dice=3, proficiency=1), Random(3), title="A tumble")
    tray.show()
    qtbot.mouseClick(tray.roll_button, Qt.MouseButton.LeftButton)
    test = tray.live_test
    assert test is not None
    assert all(d.shown is not None for d in tray.dice)  # rolling
    qtbot.waitUntil(lambda: all(d.shown is None for d in tray.dice), timeout=2000)
    assert [d.face for d in tray.dice] == test.main
    still = DiceTray()
    qtbot.addWidget(still)
    still.play(Spec(dice=3, proficiency=1), Random(3), title="No animation")
    still.show()
    qtbot.mouseClick(still.roll_button, Qt.MouseButton.LeftButton)
    assert all(d.shown is None for d in still.dice)


def test_the_animation_setting_reaches_the_tray(qtbot: Any, session: Session) -> None:
    """A test rolled inside the engine opens a tray that tumbles as long as the setting says."""
    from desktop.widgets.dice_tray import TUMBLE_MS

    decider = QtDecider(Settings(gm_rerolls=False, animation_speed=2))
    session.gm.decider = decider
    member, attr = proficient(session)
    speeds: list[int] = []

    def drive() -> None:
        tray = decider.tray
        if tray is None or not tray.isVisible():
            return
        speeds.append(tray.animation_ms)
        if tray.stage == "before":
            qtbot.mouseClick(tray.roll_button, Qt.MouseButton.LeftButton)
        elif tray.stage == "reroll":
            qtbot.mouseClick(tray.keep_button, Qt.MouseButton.LeftButton)
        elif tray.stage in ("outcome", "rolled"):
            qtbot.mouseClick(tray.continue_button, Qt.MouseButton.LeftButton)

    timer = QTimer()
    timer.timeout.connect(drive)
    timer.start(15)
    session.gm.test(member, attr, "a tumbling test")
    timer.stop()
    assert speeds and set(speeds) == {TUMBLE_MS[2]} and TUMBLE_MS[0] == 0
