"""Time limits of triage: a soft budget per file, and the grace before a stuck worker is killed."""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

TIME_BUDGET = 120.0  # seconds per file
HARD_TIMEOUT_GRACE = 15.0  # a worker stuck in C code is killed this long after its budget


class TimeBudgetExceeded(Exception):
    pass


class Deadline:
    """A soft per-file time budget, checked between pages; plus SIGALRM when we own the main thread.

    The alarm interrupts a page stuck in a Python loop; a worker stuck inside
    C code is killed by the batch runner (core/triage/batch.py) after
    HARD_TIMEOUT_GRACE.
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
                signal.setitimer(signal.ITIMER_REAL, self.budget)
                self._alarm = True
            except (ValueError, OSError):
                self._alarm = False
        return self

    def _on_alarm(self, signum: int, frame: Any) -> None:
        raise TimeBudgetExceeded

    def check(self) -> None:
        if self.end is not None and time.monotonic() > self.end:
            raise TimeBudgetExceeded

    def __exit__(self, *exc: object) -> None:
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
