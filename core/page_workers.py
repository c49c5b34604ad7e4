"""A document's pages in worker processes, the results in page order.

`page_results(doc, pages, task, jobs)` gives `task(doc, n)` for each page, in the
order of `pages`, as each becomes the next one due: with `jobs=1` in this process
(the way every page was always read), with more in worker processes
(`core.worker_processes`) that each open the document once and read one page at a time.
The results are the same either way:

* each worker sends what reading its page added to the document (qpdf's repair
  warnings, the page's budget note) and the parent takes it on in page order,
  so `doc.warnings` and `doc.budget_notes` are what one process would have;
* a task that raises is that page's result (`PageResult.error`), re-raised by
  `get()` where the page is due: the other pages go on;
* a file qpdf repaired while opening it (repairs of objects read later would be
  reported by the page that happened to read them first), and a document whose
  whole-document budgets were changed (each process would spend its own), are
  read in one process whatever `jobs` says.

The workers and the parent's side of them are `core.page_pool` (loaded only when workers
start). Memory stays bounded: at most `WINDOW_PER_JOB × jobs` pages (and WINDOW_BYTES) are
in flight or waiting for an earlier one, and a worker drops each page once its result is sent.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar, cast

from glyphscope.core.limits import DEFAULT_LIMITS
from glyphscope.core.worker_processes import usable_cpus

if TYPE_CHECKING:  # the command line's parsers read PARALLEL_MIN_PAGES without loading the engine
    from glyphscope.core.document import Document

T = TypeVar("T")
PageTask = Callable[["Document", int], T]
"""What is done with one page: a module-level function (or a functools.partial of one) so a
spawned worker can receive it."""

PARALLEL_MIN_PAGES = 6
"""The fewest pages the automatic `jobs` reads in worker processes; fewer are read in this process.

Measured on this project's 2-core machine: whole `glyphscope text` processes, `--jobs 2` against
`--jobs 1`, on files of K pages taken evenly from the merged test corpus (121 pages; the time
of --jobs 2 / that of --jobs 1, medians of 7 to 15; below 1.00 the workers pay):

    pages      2     3     4     6     8    12    16
    run 4    1.14  0.98  0.99  0.91  0.86  0.80          the machine otherwise idle
    run 1    0.89        0.96  1.15  0.93  0.75          beside a lighter job
    run 2    1.07  1.01  1.05  1.00  0.85                beside a lighter job
    run 3    1.21  1.15  1.13  1.12  1.01  1.02  1.15    another test suite held one core

Starting a worker (fork, then opening the file and loading its fonts again) costs about as
much as a few average pages (~30 ms each here): on an idle machine the break-even is at 3 to 4
pages and the workers clearly pay from 6 (run 4). On a machine whose other work holds the
cores nothing can pay (run 3); `--jobs 1` is the way to say so. `benchmarks/bench_parallel.py`
measures it again.
"""


@dataclass(frozen=True, slots=True)
class PageResult(Generic[T]):
    """One page's result: the task's value, or the exception it raised."""

    page: int
    value: T | None
    error: Exception | None = None

    def get(self) -> T:
        """The value; the task's exception raised again when it failed."""
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]  # a task may return None itself


def check_jobs(jobs: int | None) -> None:
    if jobs is not None and (isinstance(jobs, bool) or jobs < 1):
        raise ValueError(f"jobs must be a whole number ≥ 1, not {jobs!r}")


def parallel_reason(doc: Document) -> str:
    """Why `doc` must be read in one process ("" when workers may read it)."""
    if doc.origin is None:
        return "not opened by open_document"
    if doc.warnings:
        return "qpdf repaired the file"
    limits = doc.limits
    if (limits.document_operators, limits.document_seconds) != (
        DEFAULT_LIMITS.document_operators,
        DEFAULT_LIMITS.document_seconds,
    ):
        return "a whole-document budget was changed"
    return ""


def effective_jobs(doc: Document, page_count: int, jobs: int | None) -> int:
    """The processes to read `page_count` pages with: `jobs`, or with None the usable processors
    when there are at least PARALLEL_MIN_PAGES pages; never more than the pages, 1 when
    `parallel_reason` says so."""
    check_jobs(jobs)
    if jobs is None:
        jobs = usable_cpus() if page_count >= PARALLEL_MIN_PAGES else 1
    jobs = min(jobs, page_count)
    if jobs > 1 and parallel_reason(doc):
        return 1
    return max(jobs, 1)


def page_results(
    doc: Document, pages: Sequence[int], task: PageTask[T], jobs: int | None = 1
) -> Generator[PageResult[T], None, None]:
    """`task(doc, n)` for each of `pages`, in that order, one result at a time (see the module).

    `jobs`: processes (1: this one; None: automatic, `effective_jobs`). Closing the iterator
    early (or Ctrl-C while it waits) kills the workers still busy.
    """
    pages = list(pages)
    n_jobs = effective_jobs(doc, len(pages), jobs)
    if n_jobs <= 1:
        for n in pages:
            try:
                value = task(doc, n)
            except Exception as exc:  # noqa: BLE001 — the page's result; get() raises it again
                yield PageResult(n, None, exc)
                continue
            yield PageResult(n, value)
        return
    assert doc.origin is not None  # effective_jobs said so
    from glyphscope.core.page_pool import PagePool  # a one-page command never loads the pool

    for page, sent, error in PagePool(doc, doc.origin, task, n_jobs).run(pages):
        yield PageResult(page, cast("T | None", sent), error)  # a value of `task`, sent by a worker
