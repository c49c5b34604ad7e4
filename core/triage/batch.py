"""Triage of many files: expand folders, run the files (in worker processes when jobs > 1), sort the rows.

The parallel runner keeps its own worker processes (`core.worker_processes`), one pipe each, so it
always knows which file each worker is reading. A worker that dies blames
exactly its file; a worker past its budget + grace is terminated alone and
replaced. No file is read twice, and no innocent file in flight is re-run.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkContext, SpawnContext
from pathlib import Path

from glyphscope.core.limits import Limits
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.triage.collect import triage_file
from glyphscope.core.triage.inputs import expand_paths
from glyphscope.core.triage.rows import TriageRow, failed_row, sort_rows
from glyphscope.core.triage.time_limits import HARD_TIMEOUT_GRACE, TIME_BUDGET
from glyphscope.core.worker_processes import WorkerProcess, ignore_interrupts, mp_context, shut_down

ProgressCallback = Callable[[int, int, TriageRow], None]
Worker = Callable[[str, str | None, Parameters, float | None], TriageRow]

POLL_SECONDS = 0.5  # how often the runner looks at deadlines and cancellation while workers run


def _triage_worker(
    path: str, password: str | None, params: Parameters, budget: float | None, limits: Limits | None = None
) -> TriageRow:
    return triage_file(path, password, params, budget, limits=limits)


def triage_paths(
    paths: Sequence[str | Path],
    password: str | None = None,
    jobs: int = 1,
    progress_callback: ProgressCallback | None = None,
    *,
    params: Parameters = DEFAULT_PARAMETERS,
    time_budget: float | None = TIME_BUDGET,
    hard_timeout_grace: float = HARD_TIMEOUT_GRACE,
    cancelled: Callable[[], bool] | None = None,
    worker: Worker | None = None,
    limits: Limits | None = None,
) -> list[TriageRow]:
    """Triage every file under `paths`; rows sorted worst first.

    Paths that do not exist are skipped here (the CLI reports them first
    with `expand_paths`). `progress_callback(done, total, row)` is called
    once per finished file, in completion order. `cancelled()` is polled
    between files; on True the rows finished so far are returned.
    A worker process still busy `hard_timeout_grace` seconds after the
    budget is terminated (its file becomes a failed row).
    `worker(path, password, params, budget)` replaces `triage_file` in the
    worker processes (a picklable, module-level function; tests use it to
    simulate hangs and crashes).
    """
    files, _missing = expand_paths(paths)
    total = len(files)
    rows: list[TriageRow] = []
    for row in iter_triage(
        files,
        password,
        jobs,
        params=params,
        time_budget=time_budget,
        hard_timeout_grace=hard_timeout_grace,
        cancelled=cancelled,
        worker=worker,
        limits=limits,
    ):
        rows.append(row)
        if progress_callback is not None:
            progress_callback(len(rows), total, row)
    return sort_rows(rows)


def iter_triage(
    files: Iterable[str | Path],
    password: str | None = None,
    jobs: int = 1,
    *,
    params: Parameters = DEFAULT_PARAMETERS,
    time_budget: float | None = TIME_BUDGET,
    hard_timeout_grace: float = HARD_TIMEOUT_GRACE,
    cancelled: Callable[[], bool] | None = None,
    worker: Worker | None = None,
    limits: Limits | None = None,
) -> Iterator[TriageRow]:
    """One row per file, yielded as each file finishes (completion order), holding none of them.

    `files` are taken as they are (expand folders first); they are drawn from
    the iterable only as workers become free, so a generator of a million
    paths is never materialised. Closing the generator (or an exception in
    the caller, e.g. KeyboardInterrupt) kills the workers still busy: their
    files yield no row. `cancelled()` is polled between files.
    """
    run = worker or (functools.partial(_triage_worker, limits=limits) if limits else _triage_worker)
    if jobs <= 1:
        for f in files:
            if cancelled is not None and cancelled():
                return
            yield run(str(f), password, params, time_budget)
        return
    hard_limit = (time_budget + hard_timeout_grace) if time_budget else None
    runner = _ParallelRun(run, password, params, time_budget, hard_limit)
    yield from runner.run(iter(files), jobs, cancelled)


# ---------------------------------------------------------------- worker processes


def _serve(
    conn: Connection, worker: Worker, password: str | None, params: Parameters, budget: float | None
) -> None:
    """A worker process: read a path, send its row, until told to stop (None) or the pipe closes.

    Ctrl-C in a terminal reaches the whole process group: the worker ignores it and the parent
    decides (it kills the busy workers, whose files then yield no row rather than a crash row).
    """
    ignore_interrupts()
    while True:
        try:
            path = conn.recv()
        except (EOFError, OSError):
            return
        if path is None:
            return
        try:
            row = worker(path, password, params, budget)
        except Exception as exc:  # noqa: BLE001 — a custom worker's failure is its file's row
            row = failed_row(path, f"internal error: {type(exc).__name__}: {exc}", 1)
        try:
            conn.send(row)
        except Exception as exc:  # noqa: BLE001 — e.g. a row that cannot be pickled
            conn.send(failed_row(path, f"internal error: {type(exc).__name__}: {exc}", 1))


class _WorkerProcess(WorkerProcess):
    """A triage worker; `task` is the file it is reading and since when."""

    def __init__(self, ctx: ForkContext | SpawnContext, args: tuple[object, ...]) -> None:
        super().__init__(ctx, _serve, args)
        self.task: tuple[str | Path, float] | None = None

    def submit(self, path: str | Path) -> None:
        self.conn.send(str(path))
        self.task = (path, time.monotonic())


class _ParallelRun:
    """At most `jobs` files in flight, one per worker, so the submit time is the start time."""

    def __init__(
        self,
        worker: Worker,
        password: str | None,
        params: Parameters,
        budget: float | None,
        hard_limit: float | None,
    ) -> None:
        self.args = (worker, password, params, budget)
        self.budget = budget
        self.hard_limit = hard_limit
        self.ctx = mp_context()
        self.idle: list[_WorkerProcess] = []
        self.busy: list[_WorkerProcess] = []

    def run(
        self,
        files: Iterator[str | Path],
        jobs: int,
        cancelled: Callable[[], bool] | None,
    ) -> Iterator[TriageRow]:
        pending = True
        try:
            while pending or self.busy:
                if cancelled is not None and cancelled():
                    break
                while pending and len(self.busy) < jobs:
                    nxt = next(files, None)
                    if nxt is None:
                        pending = False
                        break
                    self._start(Path(nxt) if not isinstance(nxt, str) else nxt)
                yield from self._collect()
        finally:
            shut_down(self.busy, self.idle)

    def _start(self, path: str | Path) -> None:
        w = self.idle.pop() if self.idle else _WorkerProcess(self.ctx, self.args)
        w.submit(path)
        self.busy.append(w)

    def _collect(self) -> list[TriageRow]:
        """Rows of the workers that finished, died or overran in the next POLL_SECONDS."""
        ready = set(wait([w.conn for w in self.busy], timeout=POLL_SECONDS))
        rows: list[TriageRow] = []
        for w in list(self.busy):
            assert w.task is not None
            path, start = w.task
            if w.conn in ready:
                try:
                    row = w.conn.recv()
                except (EOFError, OSError):  # the process died: segfault, os._exit, killed from outside
                    rows.append(
                        failed_row(
                            path, "the worker process crashed while reading this file", 1, _since(start)
                        )
                    )
                    self._retire(w)
                    continue
                except Exception as exc:  # noqa: BLE001 — e.g. a row that cannot be unpickled
                    row = failed_row(path, f"internal error: {type(exc).__name__}: {exc}", 1, _since(start))
                rows.append(row)
                w.task = None
                self.busy.remove(w)
                self.idle.append(w)
            elif self.hard_limit is not None and time.monotonic() - start > self.hard_limit:
                rows.append(
                    failed_row(
                        path,
                        f"gave up after the time budget of {self.budget:g} s (worker killed)",
                        1,
                        _since(start),
                    )
                )
                self._retire(w)
        return rows

    def _retire(self, w: _WorkerProcess) -> None:
        self.busy.remove(w)
        w.kill()


def _since(start: float) -> float:
    return round(time.monotonic() - start, 3)
