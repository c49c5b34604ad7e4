"""Worker processes with one pipe each: how the engine starts, stops and kills them.

Triage's files (`core.triage.batch`) and a document's pages (`core.page_workers`) both
run in these: the parent always knows what each worker is doing, a worker that dies
closes its pipe (EOF), and Ctrl-C is the parent's to handle (workers ignore it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # multiprocessing is loaded when a worker is started, not by a one-page command
    from multiprocessing.context import ForkContext, SpawnContext

STOP_SECONDS = 5.0  # an idle worker asked to exit gets this long before it is killed


def mp_context() -> ForkContext | SpawnContext:
    """fork where it is safe (cheap, and the parent's imports come for free), spawn otherwise."""
    import multiprocessing

    # fork is cheap, but forking a process that runs Qt (the window) or other threads is unsafe.
    if "fork" in multiprocessing.get_all_start_methods() and "PySide6.QtCore" not in sys.modules:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def usable_cpus() -> int:
    """The processors this process may run on (its affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def ignore_interrupts() -> None:
    """In a worker: Ctrl-C in a terminal reaches the whole process group; the worker ignores it
    and the parent decides (it kills the busy workers)."""
    with contextlib.suppress(ValueError, OSError, AttributeError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class WorkerProcess:
    """One daemon process running `target(conn, *args)` and the parent's end of its pipe."""

    def __init__(
        self, ctx: ForkContext | SpawnContext, target: Callable[..., None], args: tuple[object, ...]
    ) -> None:
        from glyphscope.core.gcpause import resume_start

        resume_start()  # this process reads no page itself now: its collector runs again
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=target, args=(child, *args), daemon=True)
        self.process.start()
        child.close()  # our copy: the pipe reports EOF when the worker dies

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.process.kill()
        with contextlib.suppress(OSError, ValueError, AssertionError):
            self.process.join(STOP_SECONDS)
        self.conn.close()

    def stop(self) -> None:
        """Ask an idle worker to exit (None on its pipe); kill it if it does not."""
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)
        with contextlib.suppress(OSError, ValueError, AssertionError):
            self.process.join(STOP_SECONDS)
        if self.process.is_alive():
            self.kill()
        else:
            self.conn.close()


W = TypeVar("W", bound=WorkerProcess)


def shut_down(busy: list[W] | dict[W, int], idle: list[W]) -> None:
    """End a pool's workers: the busy ones killed (their work is not wanted), the idle ones asked to stop."""
    for w in busy:
        w.kill()
    for w in idle:
        w.stop()
    busy.clear()
    idle.clear()
