"""desktop.workers: background work whose results arrive on the GUI thread."""

from __future__ import annotations

import threading
import time
from typing import Any

from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication, QWidget

from desktop.workers import Cancelled, run_in_background


def _gui_thread() -> QThread:
    app = QApplication.instance()
    assert app is not None
    return app.thread()


def test_result_arrives_on_the_gui_thread(qtbot: Any) -> None:
    seen: dict[str, Any] = {}

    def work() -> int:
        seen["worker"] = threading.get_ident()
        return 6 * 7

    def done(result: int) -> None:
        seen["result"] = result
        seen["thread"] = QThread.currentThread()

    run_in_background(work, on_done=done, on_error=lambda e: seen.setdefault("error", e))
    qtbot.waitUntil(lambda: "result" in seen, timeout=5000)
    assert seen["result"] == 42
    assert seen["thread"] is _gui_thread()
    assert seen["worker"] != threading.get_ident()  # it really ran elsewhere
    assert "error" not in seen


def test_exceptions_go_to_on_error(qtbot: Any) -> None:
    errors: list[BaseException] = []
    done: list[object] = []

    def work() -> None:
        raise ValueError("the well is dry")

    run_in_background(work, on_done=done.append, on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=5000)
    assert isinstance(errors[0], ValueError)
    assert str(errors[0]) == "the well is dry"
    assert done == []


def test_progress_is_passed_when_the_signature_takes_it(qtbot: Any) -> None:
    reports: list[tuple[float, str]] = []
    result: list[str] = []

    def work(progress: Any) -> str:
        for i in range(4):
            progress(i / 4, f"step {i}")
        progress(1.5, "clamped")
        return "ok"

    run_in_background(
        work, on_done=result.append, on_error=lambda e: None, on_progress=lambda f, t: reports.append((f, t))
    )
    qtbot.waitUntil(lambda: bool(result), timeout=5000)
    assert result == ["ok"]
    assert reports == [(0.0, "step 0"), (0.25, "step 1"), (0.5, "step 2"), (0.75, "step 3"), (1.0, "clamped")]


def test_keyword_progress_and_no_argument_functions(qtbot: Any) -> None:
    got: list[object] = []

    def with_kw(*, progress: Any = None) -> str:
        return "kw" if progress is not None else "none"

    def with_default(x: int = 3) -> int:  # a defaulted parameter is not a progress slot
        return x

    run_in_background(with_kw, on_done=got.append, on_error=got.append)
    qtbot.waitUntil(lambda: len(got) == 1, timeout=5000)
    run_in_background(lambda: "bare", on_done=got.append, on_error=got.append)
    qtbot.waitUntil(lambda: len(got) == 2, timeout=5000)
    run_in_background(with_default, on_done=got.append, on_error=got.append)
    qtbot.waitUntil(lambda: len(got) == 3, timeout=5000)
    assert got == ["kw", "bare", 3]


def test_cancel_stops_cooperative_work_and_silences_callbacks(qtbot: Any) -> None:
    started = threading.Event()
    stopped = threading.Event()
    calls: list[object] = []

    def work(progress: Any) -> str:
        started.set()
        try:
            for _ in range(500):
                time.sleep(0.01)
                progress(0.1, "working")
        except Cancelled:
            stopped.set()
            raise
        return "finished"

    job = run_in_background(work, on_done=calls.append, on_error=calls.append)
    assert started.wait(5)
    job.cancel()
    assert job.cancelled
    assert job.wait(5)
    assert stopped.is_set()
    qtbot.wait(50)
    assert calls == []


def test_parent_closed_before_the_result_does_not_crash(qtbot: Any) -> None:
    release = threading.Event()
    calls: list[object] = []
    parent = QWidget()

    def work() -> int:
        release.wait(5)
        return 1

    job = run_in_background(work, on_done=calls.append, on_error=calls.append, parent=parent)
    parent.deleteLater()
    qtbot.wait(20)
    release.set()
    assert job.wait(5)
    qtbot.wait(50)
    assert calls == []


def test_many_jobs_all_deliver(qtbot: Any) -> None:
    results: list[int] = []
    for i in range(20):
        run_in_background(lambda i=i: i * i, on_done=results.append, on_error=lambda e: None)
    qtbot.waitUntil(lambda: len(results) == 20, timeout=10000)
    assert sorted(results) == [i * i for i in range(20)]
