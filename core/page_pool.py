"""A document's pages in worker processes: the workers, and the parent's side of them.

`core.page_workers.page_results` starts a `PagePool` when more than one process reads the
pages; a command that reads its pages in its own process never loads this module.
Each worker opens the document once, then reads the page numbers it is sent, one at a
time; the parent hands out the pages in order and hands the results on in page order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from glyphscope.core.errors import GlyphscopeError
from glyphscope.core.limits import Limits
from glyphscope.core.worker_processes import WorkerProcess, ignore_interrupts, mp_context, shut_down

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from glyphscope.core.document import Document, DocumentOrigin
    from glyphscope.core.page_workers import PageTask

T = TypeVar("T")

WINDOW_PER_JOB = 64
"""Pages in flight or finished early, per worker, beyond the next page due: a page that takes a
second (a dense map) holds the output back, not the other workers, which read on meanwhile.

It was 16: in the merged test corpus (121 pages, ~30 ms each, one of 0.93 s at page 65) the
other worker then ran out of window after ~0.6 s and waited for the slow page; with the
pages' own times two workers finish in 2.40 s with 16, 2.23 s with 32 or more (half of the
4.33 s of one process: 2.17 s). WINDOW_BYTES still bounds what is held."""
WINDOW_BYTES = 256 * 1024 * 1024
"""At most this much of early results is held (as the bytes the workers sent, unpickled when due)."""


class PageWorkerCrashed(GlyphscopeError):
    """A worker process died (killed, out of memory, a crash in native code) while reading a page."""


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What a worker sends back for one page: the value or error, and the page's report."""

    page: int
    value: object
    error: Exception | None
    warnings: tuple[str, ...] = ()
    budget_note: str | None = None


def _serve_pages(conn: Connection, origin: DocumentOrigin, limits: Limits, task: PageTask[object]) -> None:
    """A page worker: open the document, then read a page number and send its outcome, until told
    to stop (None) or the pipe closes."""
    from glyphscope.core.document import open_document

    ignore_interrupts()
    doc: Document | None = None
    failure: Exception | None = None
    try:
        doc = open_document(origin.source, origin.password, limits=limits)
    except Exception as exc:  # noqa: BLE001 — every page then reports it
        failure = exc
    while True:
        try:
            n = conn.recv()
        except (EOFError, OSError):
            return
        if n is None:
            return
        outcome = _outcome(doc, n, task) if doc is not None else _Outcome(n, None, failure)
        try:
            conn.send(outcome)
        except Exception as exc:  # noqa: BLE001 — e.g. an exception whose arguments do not pickle
            error = RuntimeError(f"{type(exc).__name__}: {exc}")
            conn.send(_Outcome(n, None, error, outcome.warnings, outcome.budget_note))
        if doc is not None:
            doc.drop_cached_pages()


def _outcome(doc: Document, n: int, task: PageTask[object]) -> _Outcome:
    try:
        value, error = task(doc, n), None
    except Exception as exc:  # noqa: BLE001 — the page's result
        value, error = None, exc
    warnings, note = doc.page_report(n)
    return _Outcome(n, value, error, warnings, note)


class PagePool:
    """At most `jobs` pages in flight, one per worker; results handed on in page order."""

    def __init__(self, doc: Document, origin: DocumentOrigin, task: PageTask[T], jobs: int) -> None:
        self.doc = doc
        self.jobs = jobs
        self.ctx = mp_context()
        self.args: tuple[object, ...] = (origin, doc.limits, task)
        self.idle: list[WorkerProcess] = []
        self.busy: dict[WorkerProcess, int] = {}  # worker → index in the page list

    def run(self, pages: list[int]) -> Iterator[tuple[int, object, Exception | None]]:
        """(page, value, error) for each of `pages`, in their order."""
        done: dict[int, _Outcome | bytes] = {}  # early results, kept as sent until due
        held = due = submitted = 0
        window = WINDOW_PER_JOB * self.jobs
        try:
            while due < len(pages):
                while (
                    submitted < len(pages)
                    and len(self.busy) < self.jobs
                    and submitted <= due + window
                    and held <= WINDOW_BYTES
                ):
                    self._submit(submitted, pages[submitted])
                    submitted += 1
                for i, got in self._collect(pages):
                    done[i] = got
                    held += len(got) if isinstance(got, bytes) else 0
                while due in done:
                    got = done.pop(due)
                    held -= len(got) if isinstance(got, bytes) else 0
                    outcome = _loaded(pages[due], got)
                    due += 1
                    self.doc.adopt_page_report(outcome.page, outcome.warnings, outcome.budget_note)
                    yield outcome.page, outcome.value, outcome.error
        finally:
            shut_down(self.busy, self.idle)

    def _submit(self, index: int, page: int) -> None:
        w = self.idle.pop() if self.idle else WorkerProcess(self.ctx, _serve_pages, self.args)
        w.conn.send(page)
        self.busy[w] = index

    def _collect(self, pages: list[int]) -> list[tuple[int, _Outcome | bytes]]:
        """What the workers that finished (or died) sent, waiting for at least one."""
        from multiprocessing.connection import wait

        ready = set(wait([w.conn for w in self.busy]))
        got: list[tuple[int, _Outcome | bytes]] = []
        for w in [w for w in self.busy if w.conn in ready]:
            index = self.busy.pop(w)
            try:
                got.append((index, w.conn.recv_bytes()))
            except (EOFError, OSError):  # the process died: a crash in native code, killed from outside
                page = pages[index]
                crash = PageWorkerCrashed(f"page {page}: the worker process reading it crashed")
                got.append((index, _Outcome(page, None, crash)))
                w.kill()
                continue
            self.idle.append(w)
        return got


def _loaded(page: int, got: _Outcome | bytes) -> _Outcome:
    """A worker's outcome from the bytes it sent (Connection.send pickled it)."""
    if isinstance(got, _Outcome):
        return got
    import pickle

    try:
        outcome = pickle.loads(got)
    except Exception as exc:  # noqa: BLE001 — an outcome that cannot be unpickled
        return _Outcome(page, None, RuntimeError(f"{type(exc).__name__}: {exc}"))
    assert isinstance(outcome, _Outcome)
    return outcome
