"""Progress and cancellation for long jobs, Qt-free.

A job is a generator function. It yields progress as `Progress(done, total,
message)` and returns its result (`StopIteration.value`); it receives a
`CancelToken` and calls `token.check()` between steps. The CLI runs jobs
directly; the window runs them in `gui.workers.Worker`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass


class Cancelled(Exception):
    """Raised by `CancelToken.check` inside a job that was cancelled."""


class CancelToken:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def check(self) -> None:
        if self.cancelled:
            raise Cancelled()


@dataclass(frozen=True, slots=True)
class Progress:
    done: int
    total: int
    message: str = ""


@dataclass(frozen=True, slots=True)
class Partial:
    """A result worth showing before the job is done (e.g. the rendered page before its analysis)."""

    value: object


JobFunction = Callable[..., Generator[Progress, None, object] | object]  # a generator job or a plain call
