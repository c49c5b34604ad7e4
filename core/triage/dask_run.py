"""Triage on Dask: a LocalCluster sized to the machine, or an existing scheduler (`tcp://HOST:PORT`).

Dask is optional (`pip install 'glyphscope[dask]'`). Files are streamed to the
workers with a bounded number of tasks in flight (`distributed.as_completed`
refilled as results arrive), so a million files never become a
million-element task graph, and rows come back as they complete. Each task
is `triage_file(source, …)`: module-level, picklable, never raises, its time
budget checked cooperatively (between pages, and inside a page by the
interpreter's own budgets), so it holds in a Dask worker's thread. A task
is never retried (`retries=0`; on our own LocalCluster also
`allowed-failures: 0`), so no file is read twice: a worker that dies on a
file makes that file a failed row.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from glyphscope.core.limits import Limits
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.triage.collect import triage_file
from glyphscope.core.triage.rows import TriageRow, failed_row
from glyphscope.core.triage.time_limits import TIME_BUDGET

if TYPE_CHECKING:
    from distributed import Client, Future

DASK_MISSING = (
    "the Dask scheduler needs Dask: pip install 'glyphscope[dask]' (or pip install 'dask[distributed]')"
)
TASKS_PER_THREAD = (
    4  # tasks in flight per worker thread: enough to keep workers busy, few enough to stay small
)


class DaskMissing(ImportError):
    """Dask (distributed) is not installed; the message says how to install it."""


def dask_available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def local_cluster_size() -> int:
    """Worker processes of `--scheduler dask`: one per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@contextlib.contextmanager
def dask_client(scheduler: str, workers: int | None = None) -> Iterator[Client]:
    """A `distributed.Client`: `scheduler` "dask" starts a LocalCluster (processes, one thread each),
    anything else is the address of a running scheduler. Closed (and the cluster stopped) on exit."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise DaskMissing(DASK_MISSING) from None
    if scheduler == "dask":
        with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
            cluster = LocalCluster(
                n_workers=workers or local_cluster_size(),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
            cluster.close()
    else:
        client = Client(scheduler, timeout="20s")
        try:
            yield client
        finally:
            client.close()


def iter_triage_dask(
    files: Iterable[str],
    client: Client,
    password: str | None = None,
    *,
    params: Parameters = DEFAULT_PARAMETERS,
    time_budget: float | None = TIME_BUDGET,
    in_flight: int | None = None,
    cancelled: Callable[[], bool] | None = None,
    task: Callable[..., TriageRow] = triage_file,
    limits: Limits | None = None,
) -> Iterator[TriageRow]:
    """One row per file as each completes on `client`'s workers, at most `in_flight` tasks submitted.

    Closing the generator cancels the tasks still in flight (their files yield no row).
    """
    from distributed import as_completed

    if in_flight is None:
        threads = sum(client.nthreads().values()) or 1
        in_flight = TASKS_PER_THREAD * threads
    source_of: dict[Future, str] = {}
    todo = iter(files)
    queue = as_completed()

    def submit_next() -> bool:
        source = next(todo, None)
        if source is None:
            return False
        fut = client.submit(task, source, password, params, time_budget, limits=limits, pure=False, retries=0)
        source_of[fut] = source
        queue.add(fut)
        return True

    try:
        for _ in range(max(1, in_flight)):
            if not submit_next():
                break
        for fut in queue:
            source = source_of.pop(fut)
            try:
                row = fut.result()
            except Exception as exc:  # noqa: BLE001 — a killed worker or lost task is this file's row
                row = failed_row(
                    source, f"the Dask worker failed on this file: {type(exc).__name__}: {exc}", 1
                )
            fut.release()
            yield row
            if cancelled is not None and cancelled():
                return
            submit_next()
    finally:
        if source_of:
            with contextlib.suppress(Exception):
                client.cancel(list(source_of))
        source_of.clear()
