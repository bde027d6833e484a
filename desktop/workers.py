"""Long work off the GUI thread: generation, export, simulation.

``run_in_background(fn, on_done=..., on_error=...)`` runs ``fn`` on Qt's
global thread pool and delivers its result, its exception or its progress
reports back on the GUI thread through queued signals, so the callbacks may
touch widgets.  ``fn`` receives a ``progress(fraction, text)`` callable when
its signature has room for one (a parameter named ``progress``, or one
positional parameter).  The returned :class:`Job` can be cancelled: its
callbacks are then never called, and ``progress`` raises :class:`Cancelled`
inside the worker so cooperative work stops at its next report.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

Progress = Callable[[float, str], None]


class Cancelled(Exception):
    """Raised inside a cancelled job at its next progress report."""


class _Signals(QObject):
    done = Signal(object)
    failed = Signal(object)
    progress = Signal(float, str)


def _progress_style(fn: Callable[..., Any]) -> str:
    """How ``fn`` takes its progress callable: "keyword" (a keyword-only ``progress``), "positional",
    or "" (not at all)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return ""
    params = list(sig.parameters.values())
    named = next((p for p in params if p.name == "progress"), None)
    if named is not None:
        return "keyword" if named.kind is inspect.Parameter.KEYWORD_ONLY else "positional"
    positional = [
        p
        for p in params
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        and p.default is inspect.Parameter.empty
    ]
    if len(positional) == 1:
        return "positional"
    if not positional and any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return "positional"
    return ""


class Job(QObject):
    """One piece of background work; lives on the GUI thread and relays the worker's signals."""

    def __init__(
        self,
        fn: Callable[..., Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
        on_progress: Callable[[float, str], None] | None,
        parent: QObject | None,
    ) -> None:
        super().__init__(parent)
        self._fn = fn
        self._on_done = on_done
        self._on_error = on_error
        self._on_progress = on_progress
        self._cancel = threading.Event()
        self._finished = threading.Event()
        self.signals = _Signals(self)
        self.signals.done.connect(self._deliver_done)
        self.signals.failed.connect(self._deliver_error)
        self.signals.progress.connect(self._deliver_progress)

    # --- the public face -----------------------------------------------------------------------

    def cancel(self) -> None:
        """Ask the work to stop; no callback is called after this."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def finished(self) -> bool:
        """The worker has returned (or raised)."""
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the worker returns (for tests and shutdown); True when it did."""
        return self._finished.wait(timeout)

    # --- worker side (any thread) --------------------------------------------------------------

    def _report(self, fraction: float, text: str = "") -> None:
        if self._cancel.is_set():
            raise Cancelled
        self._emit(self.signals.progress, max(0.0, min(1.0, float(fraction))), str(text))

    def _run(self) -> None:
        try:
            style = _progress_style(self._fn)
            if style == "keyword":
                result = self._fn(progress=self._report)
            elif style == "positional":
                result = self._fn(self._report)
            else:
                result = self._fn()
        except Cancelled:
            self._finished.set()
            return
        except BaseException as exc:  # everything goes to on_error, nothing kills the pool thread
            self._finished.set()
            if not self._cancel.is_set():
                self._emit(self.signals.failed, exc)
            return
        self._finished.set()
        if not self._cancel.is_set():
            self._emit(self.signals.done, result)

    def _emit(self, signal: Any, *args: Any) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:  # the job's parent (a closed screen) is gone: nobody to tell
            self._cancel.set()

    # --- GUI side ------------------------------------------------------------------------------

    @Slot(object)
    def _deliver_done(self, result: object) -> None:
        try:
            if not self._cancel.is_set():
                self._on_done(result)
        finally:
            self._release()

    @Slot(object)
    def _deliver_error(self, exc: object) -> None:
        try:
            if not self._cancel.is_set():
                self._on_error(exc if isinstance(exc, BaseException) else RuntimeError(str(exc)))
        finally:
            self._release()

    @Slot(float, str)
    def _deliver_progress(self, fraction: float, text: str) -> None:
        if self._on_progress is not None and not self._cancel.is_set():
            self._on_progress(fraction, text)

    def _release(self) -> None:
        _LIVE.discard(self)
        self.deleteLater()


class _Runnable(QRunnable):
    def __init__(self, job: Job) -> None:
        super().__init__()
        self._job = job
        self.setAutoDelete(True)

    def run(self) -> None:
        self._job._run()


_LIVE: set[Job] = set()  # jobs without a parent stay alive until they have delivered


def run_in_background(
    fn: Callable[..., Any],
    *,
    on_done: Callable[[Any], None],
    on_error: Callable[[BaseException], None],
    on_progress: Callable[[float, str], None] | None = None,
    parent: QObject | None = None,
) -> Job:
    """Run ``fn`` on the thread pool; ``on_done(result)`` or ``on_error(exc)`` follow on the GUI thread.

    ``fn`` is called as ``fn(progress)`` when its signature accepts one argument (or one named
    ``progress``), else as ``fn()``.  Returns the :class:`Job` (``cancel()``, ``wait()``)."""
    job = Job(fn, on_done, on_error, on_progress, parent)
    _LIVE.add(job)
    QThreadPool.globalInstance().start(_Runnable(job))
    return job
