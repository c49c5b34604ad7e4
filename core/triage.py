"""Triage: one row per file saying how much of its text is affected, and a score to sort by.

Qt-free. `triage_file` never raises for a bad file: a file that cannot be
opened (not a PDF, password, damaged beyond repair), that crashes a worker
or that runs out of its time budget becomes a row with `error` set and the
top score, so it sorts first. `triage_paths` expands folders and runs the
files, in parallel processes when `jobs > 1`.

## The score

Every share below is a fraction (0–1) of the file's painted glyphs (page
stream and forms, culled and duplicate ones included):

    score = 40·√unresolved + 20·√fallback + 25·√culled + 25·√duplicates
          + 10·√from_forms + 15·untagged          (tagged documents only)
          + 3·min(fonts without ToUnicode that lost glyphs, 5)
          + 6·log2(1 + errors) + 2·log2(1 + warnings) + 0.25·log2(1 + infos)

* Square roots, not plain shares: one slug line or one fake-bold heading is
  1–2 % of a page but is exactly what a ticket is about; √0.01 = 0.1 makes
  it count, while a file whose text is all affected still saturates at the
  weight.
* The weights order the damage a reader sees: unresolved glyphs are lost
  text; fallback decodes may be wrong text; culled and duplicate glyphs are
  text silently dropped; form text and untagged structure change the order
  more than the content.
* Severity counts are the number of findings (per page, per font), damped
  by log2 so a 300-page file with the same info on every page does not
  outrank a one-page file with a real error.
* A clean file scores 0 (or a point or two of info findings); a file that
  cannot be read scores FAILED_SCORE. Page scores use the same formula on
  the page's own numbers.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.errors import GlyphscopeError
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters

FAILED_SCORE = 1000.0  # above any real score: unreadable files sort first
TIME_BUDGET = 120.0  # seconds per file
HARD_TIMEOUT_GRACE = 15.0  # a worker stuck in C code is killed this long after its budget
WORST_PAGES = 5
MAX_FINDINGS_KEPT = 1000  # per file; counts are always complete
MAX_GLYPHS_PER_FINDING = 200  # paint indices kept per finding (the count stays exact)

W_UNRESOLVED = 40.0
W_FALLBACK = 20.0
W_CULLED = 25.0
W_DUPLICATES = 25.0
W_FORMS = 10.0
W_UNTAGGED = 15.0
W_FONT_WITHOUT_TOUNICODE = 3.0
MAX_FONTS_COUNTED = 5
W_ERROR = 6.0
W_WARNING = 2.0
W_INFO = 0.25

ProgressCallback = Callable[[int, int, "TriageRow"], None]


# ---------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class TriageFinding:
    """One finding of a file, slimmed for reports: glyph lists are capped, `count` stays exact."""

    kind: str
    severity: str
    message: str
    page: int | None
    font_key: str | None = None
    form_path: tuple[str, ...] = ()
    token_index: int | None = None
    count: int | None = None
    glyphs: tuple[int, ...] = ()
    glyphs_total: int = 0

    @classmethod
    def of(cls, d: Diagnostic) -> TriageFinding:
        return cls(
            kind=d.kind.value,
            severity=d.severity.value,
            message=d.message,
            page=d.page,
            font_key=d.font_key,
            form_path=tuple(d.form_path),
            token_index=d.token_index,
            count=d.count,
            glyphs=tuple(d.glyphs[:MAX_GLYPHS_PER_FINDING]),
            glyphs_total=len(d.glyphs),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "message": self.message,
            "page": self.page,
            "font_key": self.font_key,
            "form_path": list(self.form_path),
            "token_index": self.token_index,
            "count": self.count,
            "glyphs": list(self.glyphs),
            "glyphs_total": self.glyphs_total,
        }


@dataclass(frozen=True, slots=True)
class PageScore:
    page: int
    score: float
    glyphs: int
    kinds: tuple[str, ...]  # finding kinds on the page, most severe first

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page, "score": self.score, "glyphs": self.glyphs, "kinds": list(self.kinds)}


@dataclass(frozen=True, slots=True)
class TriageRow:
    file: str
    pages: int = 0
    glyphs: int = 0
    visible_glyphs: int = 0
    pct_culled: float = 0.0  # percentages (0–100) of `glyphs`
    pct_duplicates: float = 0.0
    pct_from_forms: float = 0.0
    pct_unresolved: float = 0.0
    pct_fallback: float = 0.0
    fonts: int = 0  # distinct fonts that painted glyphs
    fonts_without_tounicode: int = 0  # ... without ToUnicode AND with unresolved or fallback glyphs
    fonts_without_tounicode_total: int = 0  # ... without ToUnicode, whatever their decoding gave
    structure_usable: bool | None = None  # None: the document is not tagged
    pct_untagged: float | None = None  # share of visible glyphs outside the tree (tagged documents)
    findings_by_severity: dict[str, int] = field(
        default_factory=lambda: {"error": 0, "warning": 0, "info": 0}
    )
    finding_kinds: tuple[tuple[str, int], ...] = ()  # (kind, number of findings), most frequent first
    worst_pages: tuple[PageScore, ...] = ()
    findings: tuple[TriageFinding, ...] = ()
    warnings: tuple[str, ...] = ()  # qpdf repair warnings
    error: str | None = None
    error_code: int | None = None  # the CLI exit code the error maps to (3 password, 4 not a PDF, 1 other)
    score: float = 0.0
    seconds: float = field(default=0.0, compare=False)  # wall time; not part of equality (determinism)

    @property
    def name(self) -> str:
        return Path(self.file).name

    @property
    def failed(self) -> bool:
        return self.error is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "score": self.score,
            "error": self.error,
            "error_code": self.error_code,
            "pages": self.pages,
            "glyphs": self.glyphs,
            "visible_glyphs": self.visible_glyphs,
            "pct_culled": self.pct_culled,
            "pct_duplicates": self.pct_duplicates,
            "pct_from_forms": self.pct_from_forms,
            "pct_unresolved": self.pct_unresolved,
            "pct_fallback": self.pct_fallback,
            "fonts": self.fonts,
            "fonts_without_tounicode": self.fonts_without_tounicode,
            "fonts_without_tounicode_total": self.fonts_without_tounicode_total,
            "structure_usable": self.structure_usable,
            "pct_untagged": self.pct_untagged,
            "findings_by_severity": dict(self.findings_by_severity),
            "finding_kinds": dict(self.finding_kinds),
            "worst_pages": [p.to_json() for p in self.worst_pages],
            "warnings": list(self.warnings),
            "findings": [f.to_json() for f in self.findings],
        }


def failed_row(path: str | Path, message: str, code: int | None = 1, seconds: float = 0.0) -> TriageRow:
    return TriageRow(file=str(path), error=message, error_code=code, score=FAILED_SCORE, seconds=seconds)


# ---------------------------------------------------------------- counting


@dataclass(slots=True)
class _Tally:
    """Additive counts of one page or one document; `score` turns them into the number."""

    glyphs: int = 0
    visible: int = 0
    culled: int = 0
    duplicates: int = 0
    forms: int = 0
    unresolved: int = 0
    fallback: int = 0
    untagged: int = 0  # visible glyphs outside the tree (tagged documents only)
    tagged_visible: int = 0  # visible glyphs counted for the untagged share
    errors: int = 0
    warnings: int = 0
    infos: int = 0

    def add(self, other: _Tally) -> None:
        for name in self.__slots__:  # type: ignore[attr-defined]
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def count_severity(self, severity: Severity) -> None:
        if severity is Severity.ERROR:
            self.errors += 1
        elif severity is Severity.WARNING:
            self.warnings += 1
        else:
            self.infos += 1

    def share(self, n: int) -> float:
        return n / self.glyphs if self.glyphs else 0.0

    def untagged_share(self) -> float | None:
        return self.untagged / self.tagged_visible if self.tagged_visible else None


def score(tally: _Tally, tagged: bool, problem_fonts: int = 0) -> float:
    """The formula of the module docstring, rounded to 2 decimals (stable output)."""
    s = (
        W_UNRESOLVED * math.sqrt(tally.share(tally.unresolved))
        + W_FALLBACK * math.sqrt(tally.share(tally.fallback))
        + W_CULLED * math.sqrt(tally.share(tally.culled))
        + W_DUPLICATES * math.sqrt(tally.share(tally.duplicates))
        + W_FORMS * math.sqrt(tally.share(tally.forms))
        + W_FONT_WITHOUT_TOUNICODE * min(problem_fonts, MAX_FONTS_COUNTED)
        + W_ERROR * math.log2(1 + tally.errors)
        + W_WARNING * math.log2(1 + tally.warnings)
        + W_INFO * math.log2(1 + tally.infos)
    )
    untagged = tally.untagged_share()
    if tagged and untagged is not None:
        s += W_UNTAGGED * untagged
    return round(s, 2)


def _pct(n: int, total: int) -> float:
    return round(100.0 * n / total, 2) if total else 0.0


_SEVERITY_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


# ---------------------------------------------------------------- one file


class _TimeBudgetExceeded(Exception):
    pass


class _Deadline:
    """A soft per-file time budget, checked between pages; plus SIGALRM when we own the main thread.

    The alarm interrupts a page stuck in a Python loop; a worker stuck inside
    C code is killed by `triage_paths` after HARD_TIMEOUT_GRACE.
    """

    def __init__(self, budget: float | None) -> None:
        self.budget = budget
        self.end = time.monotonic() + budget if budget else None
        self._alarm = False

    def __enter__(self) -> _Deadline:
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
        raise _TimeBudgetExceeded

    def check(self) -> None:
        if self.end is not None and time.monotonic() > self.end:
            raise _TimeBudgetExceeded

    def __exit__(self, *exc: object) -> None:
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)


def triage_file(
    path: str | Path,
    password: str | None = None,
    params: Parameters = DEFAULT_PARAMETERS,
    time_budget: float | None = TIME_BUDGET,
) -> TriageRow:
    """Triage one file. Never raises for a bad file: errors become the row's `error`."""
    started = time.monotonic()
    pages_done = 0
    total_pages = 0

    def elapsed() -> float:
        return round(time.monotonic() - started, 3)

    try:
        with _Deadline(time_budget) as deadline:
            from glyphscope.core.document import open_document

            doc = open_document(path, password)
            try:
                total_pages = doc.page_count
                collector = _Collector(doc, params)
                for n in range(1, doc.page_count + 1):
                    deadline.check()
                    collector.page(n)
                    pages_done = n
                return collector.row(str(path), elapsed())
            finally:
                doc.close()
    except _TimeBudgetExceeded:
        return failed_row(
            path,
            f"gave up after the time budget of {time_budget:g} s ({pages_done} of {total_pages} pages read)",
            1,
            elapsed(),
        )
    except GlyphscopeError as exc:
        return failed_row(path, str(exc), exc.exit_code, elapsed())
    except RecursionError:
        return failed_row(path, "the file is nested too deeply to read (recursion limit)", 1, elapsed())
    except MemoryError:
        return failed_row(path, "out of memory while reading the file", 1, elapsed())
    except Exception as exc:  # noqa: BLE001 — one hostile file must become a row, never end the batch
        return failed_row(path, f"internal error: {type(exc).__name__}: {exc}", 1, elapsed())


class _Collector:
    """Accumulates a document's counts and findings page by page."""

    def __init__(self, doc: Any, params: Parameters) -> None:
        self.doc = doc
        self.params = params
        self.tagged = bool(doc.is_tagged())
        self.total = _Tally()
        self.page_scores: list[PageScore] = []
        self.findings: list[TriageFinding] = []
        self.kinds: Counter[str] = Counter()
        self.font_has_tounicode: dict[str, bool] = {}
        self.font_lost: set[str] = set()  # fonts with unresolved or fallback glyphs
        self.font_used: set[str] = set()
        self.structure_pages_usable = 0
        self.structure_pages_with_text = 0

    def _finding(self, d: Diagnostic, tally: _Tally) -> None:
        tally.count_severity(d.severity)
        self.kinds[d.kind.value] += 1
        if len(self.findings) < MAX_FINDINGS_KEPT:
            self.findings.append(TriageFinding.of(d))

    def page(self, n: int) -> None:
        from glyphscope.core.findings import pass_findings, structure_findings
        from glyphscope.core.passes import classify

        doc = self.doc
        page = doc.interpret(n)
        classified = classify(page, self.params)
        structure = doc.structure(n)
        t = _Tally(glyphs=len(page.glyphs), visible=len(classified.visible))
        t.culled = len(classified.culls)
        t.duplicates = len(classified.duplicates)
        for g in page.glyphs:
            if g.form_path:
                t.forms += 1
            if g.decode_source is DecodeSource.UNRESOLVED:
                t.unresolved += 1
                self.font_lost.add(g.font_id)
            elif g.decode_source is DecodeSource.FALLBACK:
                t.fallback += 1
                self.font_lost.add(g.font_id)
            self.font_used.add(g.font_id)
        for pf in page.fonts:
            info = pf.info
            self.font_has_tounicode[info.font_id] = self.font_has_tounicode.get(info.font_id, False) or bool(
                info.has_tounicode
            )
        if getattr(structure, "has_tree", False) and classified.visible:
            tagged_ids = set(structure.mcid_order)
            untagged = sum(1 for g in classified.visible if g.mcid is None or g.mcid not in tagged_ids)
            t.untagged = untagged
            t.tagged_visible = len(classified.visible)
            self.structure_pages_with_text += 1
            if untagged < len(classified.visible) and untagged * 4 <= len(classified.visible):
                self.structure_pages_usable += 1
        diags = (
            list(page.diagnostics)
            + pass_findings(page, classified)
            + structure_findings(page, classified, structure)
        )
        for d in diags:
            if d.kind is DiagnosticKind.DAMAGED_FILE_REPAIRED:
                continue  # counted once per document from doc.diagnostics
            self._finding(d, t)
        ordered_kinds = sorted(
            {(d.kind.value, _SEVERITY_RANK.get(d.severity, 3)) for d in diags},
            key=lambda kv: (kv[1], kv[0]),
        )
        kinds = tuple(dict.fromkeys(k for k, _ in ordered_kinds))
        page_problem_fonts = len(
            {
                g.font_id
                for g in page.glyphs
                if g.decode_source in (DecodeSource.UNRESOLVED, DecodeSource.FALLBACK)
                and not self.font_has_tounicode.get(g.font_id, False)
            }
        )
        self.page_scores.append(PageScore(n, score(t, self.tagged, page_problem_fonts), t.glyphs, kinds))
        self.total.add(t)

    def row(self, file: str, seconds: float) -> TriageRow:
        doc_diags = list(self.doc.diagnostics)
        for d in doc_diags:
            self._finding(d, self.total)
        t = self.total
        used = self.font_used
        without = {f for f in used if f in self.font_has_tounicode and not self.font_has_tounicode[f]}
        problem_fonts = len(without & self.font_lost)
        if not self.tagged:
            usable: bool | None = None
        else:
            usable = self.structure_pages_with_text > 0 and self.structure_pages_usable * 2 >= max(
                1, self.structure_pages_with_text
            )
        untagged = t.untagged_share()
        worst = sorted((p for p in self.page_scores if p.score > 0), key=lambda p: (-p.score, p.page))
        severities = {"error": t.errors, "warning": t.warnings, "info": t.infos}
        findings = sorted(
            self.findings,
            key=lambda f: (
                {"error": 0, "warning": 1, "info": 2}.get(f.severity, 3),
                f.page if f.page is not None else 0,
                f.kind,
            ),
        )
        return TriageRow(
            file=file,
            pages=self.doc.page_count,
            glyphs=t.glyphs,
            visible_glyphs=t.visible,
            pct_culled=_pct(t.culled, t.glyphs),
            pct_duplicates=_pct(t.duplicates, t.glyphs),
            pct_from_forms=_pct(t.forms, t.glyphs),
            pct_unresolved=_pct(t.unresolved, t.glyphs),
            pct_fallback=_pct(t.fallback, t.glyphs),
            fonts=len(used),
            fonts_without_tounicode=problem_fonts,
            fonts_without_tounicode_total=len(without),
            structure_usable=usable,
            pct_untagged=None if untagged is None or not self.tagged else round(100.0 * untagged, 2),
            findings_by_severity=severities,
            finding_kinds=tuple(sorted(self.kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
            worst_pages=tuple(worst[:WORST_PAGES]),
            findings=tuple(findings),
            warnings=tuple(self.doc.warnings),
            score=score(t, self.tagged, problem_fonts),
            seconds=seconds,
        )


# ---------------------------------------------------------------- many files


def expand_paths(paths: Iterable[str | Path]) -> tuple[list[Path], list[str]]:
    """Files to triage (folders searched recursively for *.pdf, any case) and the paths that do not exist.

    A file named explicitly is taken whatever its extension (a non-PDF becomes
    an error row). Symlinked folders are not followed (no loops); duplicates
    are dropped, first occurrence wins.
    """
    files: list[Path] = []
    missing: list[str] = []
    seen: set[str] = set()

    def take(p: Path) -> None:
        try:
            key = str(p.resolve())
        except OSError:
            key = str(p)
        if key not in seen:
            seen.add(key)
            files.append(p)

    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found: list[Path] = []
            for root, dirs, names in os.walk(p, followlinks=False):
                dirs.sort()
                for name in names:
                    if name.lower().endswith(".pdf"):
                        candidate = Path(root) / name
                        if candidate.is_file():
                            found.append(candidate)
            for f in sorted(found):
                take(f)
        elif p.exists():
            take(p)
        else:
            missing.append(str(raw))
    return files, missing


def sort_rows(rows: Iterable[TriageRow]) -> list[TriageRow]:
    """Worst first; ties broken by file name, then full path (stable, deterministic)."""
    return sorted(rows, key=lambda r: (-r.score, r.name, r.file))


def _worker(path: str, password: str | None, params: Parameters, budget: float | None) -> TriageRow:
    return triage_file(path, password, params, budget)


def _mp_context() -> Any:
    import multiprocessing
    import sys

    # fork is cheap, but forking a process that runs Qt (the window) or other threads is unsafe.
    if "fork" in multiprocessing.get_all_start_methods() and "PySide6.QtCore" not in sys.modules:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _kill_pool(pool: ProcessPoolExecutor) -> None:
    # The public API cannot stop a running task; a worker stuck in C code must be killed.
    processes = dict(getattr(pool, "_processes", None) or {})
    for proc in processes.values():
        with contextlib.suppress(OSError, ValueError, AttributeError):
            proc.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes.values():
        with contextlib.suppress(OSError, ValueError, AssertionError, AttributeError):
            proc.join(timeout=5)


def triage_paths(
    paths: Sequence[str | Path],
    password: str | None = None,
    jobs: int = 1,
    progress_callback: ProgressCallback | None = None,
    *,
    params: Parameters = DEFAULT_PARAMETERS,
    time_budget: float | None = TIME_BUDGET,
    cancelled: Callable[[], bool] | None = None,
    worker: Callable[[str, str | None, Parameters, float | None], TriageRow] | None = None,
) -> list[TriageRow]:
    """Triage every file under `paths`; rows sorted worst first.

    Paths that do not exist are skipped here (the CLI reports them first
    with `expand_paths`). `progress_callback(done, total, row)` is called
    once per finished file, in completion order. `cancelled()` is polled
    between files; on True the rows finished so far are returned.
    `worker(path, password, params, budget)` replaces `triage_file` in the
    worker processes (a picklable, module-level function; tests use it to
    simulate hangs and crashes).
    """
    files, _missing = expand_paths(paths)
    total = len(files)
    rows: list[TriageRow] = []

    def finished(row: TriageRow) -> None:
        rows.append(row)
        if progress_callback is not None:
            progress_callback(len(rows), total, row)

    if jobs <= 1 or total <= 1:
        for f in files:
            if cancelled is not None and cancelled():
                break
            finished((worker or _worker)(str(f), password, params, time_budget))
        return sort_rows(rows)
    _run_parallel(files, password, jobs, params, time_budget, finished, cancelled, worker or _worker)
    return sort_rows(rows)


def _run_parallel(
    files: list[Path],
    password: str | None,
    jobs: int,
    params: Parameters,
    time_budget: float | None,
    finished: Callable[[TriageRow], None],
    cancelled: Callable[[], bool] | None,
    worker: Callable[[str, str | None, Parameters, float | None], TriageRow],
) -> None:
    """At most `jobs` files in flight, so the submit time is the start time and deadlines are exact.

    A worker that dies (segfault, killed) breaks the pool: every file in
    flight is retried once, alone, so an innocent neighbour is not blamed.
    A worker past its budget + grace is killed with its pool.
    """
    queue: list[tuple[Path, int]] = [(f, 0) for f in files]  # (file, attempts)
    queue.reverse()  # pop() from the end keeps the original order
    hard_limit = (time_budget + HARD_TIMEOUT_GRACE) if time_budget else None
    ctx = _mp_context()
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
    in_flight: dict[Future[TriageRow], tuple[Path, int, float]] = {}
    try:
        while queue or in_flight:
            if cancelled is not None and cancelled():
                break
            isolating = any(attempts > 0 for _, attempts, _ in in_flight.values())
            while queue and not isolating and len(in_flight) < jobs:
                f, attempts = queue[-1]
                if attempts > 0 and in_flight:
                    break  # a retried file runs alone
                queue.pop()
                fut = pool.submit(worker, str(f), password, params, time_budget)
                in_flight[fut] = (f, attempts, time.monotonic())
                if attempts > 0:
                    break
            done, _ = wait(list(in_flight), timeout=0.5, return_when=FIRST_COMPLETED)
            broken = False
            for fut in done:
                f, attempts, start = in_flight.pop(fut)
                try:
                    finished(fut.result())
                except BrokenProcessPool:
                    broken = True
                    if attempts >= 1:
                        finished(
                            failed_row(
                                f,
                                "the worker process crashed while reading this file",
                                1,
                                time.monotonic() - start,
                            )
                        )
                    else:
                        queue.append((f, attempts + 1))
                except Exception as exc:  # noqa: BLE001 — e.g. a result that cannot be unpickled
                    finished(failed_row(f, f"internal error: {type(exc).__name__}: {exc}", 1))
            now = time.monotonic()
            overdue = [
                fut for fut, (_, _, start) in in_flight.items() if hard_limit and now - start > hard_limit
            ]
            if overdue or broken:
                for fut in overdue:
                    f, _attempts, start = in_flight.pop(fut)
                    finished(
                        failed_row(
                            f,
                            f"gave up after the time budget of {time_budget:g} s (worker killed)",
                            1,
                            now - start,
                        )
                    )
                # Everything else in flight dies with the pool: run it again (a retry if the pool broke).
                for fut, (f, attempts, _start) in list(in_flight.items()):
                    if fut.done() and not fut.exception():
                        finished(fut.result())
                    else:
                        queue.append((f, attempts + (1 if broken else 0)))
                in_flight.clear()
                _kill_pool(pool)
                pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
    finally:
        if in_flight:
            _kill_pool(pool)
        else:
            pool.shutdown(wait=True, cancel_futures=True)
