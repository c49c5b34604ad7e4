"""Time limits of triage: a budget per file, checked cooperatively, and the grace before a stuck worker is killed.

Checked without signals, so the budget holds in any thread, in a Dask or Ray
worker as in our own worker processes. Between pages the collector checks `Deadline`;
inside a page the interpreter itself checks the engine's budgets
(`core.limits.Limits`: page_seconds, document_seconds, operators, glyphs),
which `engine_limits` caps by the file's budget, so one page stuck in a
long content stream stops there with a `budget_exceeded` finding. A worker
stuck inside C code (qpdf) is out of reach of any check: the local batch
runner (core/triage/batch.py) kills it HARD_TIMEOUT_GRACE after its budget;
in a single-process run on the main thread a late SIGALRM is the backstop.
"""

from __future__ import annotations

import signal
import threading
import time
from types import FrameType

from glyphscope.core.limits import DEFAULT_LIMITS, Limits

TIME_BUDGET = 120.0  # seconds per file
HARD_TIMEOUT_GRACE = 15.0  # a worker stuck in C code is killed this long after its budget


class TimeBudgetExceeded(Exception):
    pass


def engine_limits(budget: float | None, limits: Limits | None = None) -> Limits:
    """The engine's budgets for one file: `limits` (default: the engine's defaults) with its wall-time
    budgets no longer than the file's time budget."""
    base = limits or DEFAULT_LIMITS
    if not budget or budget <= 0:
        return base
    return base.with_changes(
        page_seconds=min(base.page_seconds, budget), document_seconds=min(base.document_seconds, budget)
    )


class Deadline:
    """A per-file time budget, checked cooperatively between pages (any thread).

    Backstop, on the main thread only: SIGALRM a little after the budget
    (half the grace, at most half the budget again) interrupts what no
    cooperative check reaches — a pure-Python loop outside the interpreter —
    in a single-process run, where no runner could kill a worker. The engine's
    budgets and the between-page check normally fire first; in Dask or Ray
    workers (threads) only they apply.
    """

    def __init__(self, budget: float | None) -> None:
        self.budget = budget
        self.end = time.monotonic() + budget if budget else None
        self._alarm = False

    def __enter__(self) -> Deadline:
        if (
            self.budget
            and threading.current_thread() is threading.main_thread()
            and hasattr(signal, "SIGALRM")
        ):
            try:
                self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
                signal.setitimer(signal.ITIMER_REAL, self.budget + 0.5 * min(HARD_TIMEOUT_GRACE, self.budget))
                self._alarm = True
            except (ValueError, OSError):
                self._alarm = False
        return self

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        raise TimeBudgetExceeded

    def check(self) -> None:
        if self.end is not None and time.monotonic() > self.end:
            raise TimeBudgetExceeded

    def __exit__(self, *exc: object) -> None:
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
