"""Triage of one file: each page's product (`analyze_page`) folded into one row.

The collector reads only what the page product gives — `counts`,
`structure_use`, `findings` — so a triage row says exactly what the window,
`glyphscope diagnostics` and the text modes say about the same page.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from glyphscope.core.analysis import PageAnalysis, analyze_page
from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind
from glyphscope.core.document import Document
from glyphscope.core.errors import GlyphscopeError
from glyphscope.core.limits import Limits
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.triage.rows import FINDING_ORDER, PageScore, TriageFinding, TriageRow, failed_row
from glyphscope.core.triage.scoring import SEVERITY_RANK, Tally, pct, score
from glyphscope.core.triage.time_limits import TIME_BUDGET, Deadline, TimeBudgetExceeded, engine_limits
from glyphscope.core.visibility_class import HIDDEN_CLASSES

WORST_PAGES = 5
MAX_FINDINGS_KEPT = 1000  # per file; counts are always complete
LIBRARY_LOGGERS = ("fontTools", "pikepdf", "pypdfium2")
"""Libraries whose log lines (warnings and worse) while a file is read become its row's warnings."""
MAX_LOG_LINES = 50  # per file: a font that logs for every glyph must not fill the row


class _FileLog(logging.Handler):
    """The library log lines of one file's triage: this thread's only (files read in other threads
    keep theirs), each text once, `library: message`."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.thread = threading.get_ident()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread or len(self.lines) >= MAX_LOG_LINES:
            return
        try:
            text = record.getMessage()
        except (TypeError, ValueError):
            text = str(record.msg)
        line = f"{record.name.split('.')[0]}: {' '.join(text.split())}"
        if line not in self.lines:
            self.lines.append(line)


@contextlib.contextmanager
def library_log() -> Iterator[list[str]]:
    """While reading one file: the lines fontTools, pikepdf and pypdfium2 log (see `_FileLog`)."""
    handler = _FileLog()
    loggers = [logging.getLogger(name) for name in LIBRARY_LOGGERS]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.lines
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


class PageCollector:
    """Accumulates a document's counts and findings, one page product at a time."""

    def __init__(self, doc: Document, params: Parameters) -> None:
        self.doc = doc
        self.params = params
        self.tagged = bool(doc.is_tagged())
        self.total = Tally()
        self.page_scores: list[PageScore] = []
        self.findings: list[TriageFinding] = []
        self.kinds: Counter[str] = Counter()
        self.font_has_tounicode: dict[str, bool] = {}
        self.font_lost: set[str] = set()  # fonts with unresolved or fallback glyphs
        self.font_used: set[str] = set()
        self.structure_pages_trusted = 0
        self.structure_pages_with_text = 0

    def _finding(self, d: Diagnostic, tally: Tally) -> None:
        tally.count_severity(d.severity)
        self.kinds[d.kind.value] += 1
        if len(self.findings) < MAX_FINDINGS_KEPT:
            self.findings.append(TriageFinding.of(d))

    def page(self, n: int) -> None:
        """Analyse page `n` (1-based) and add it."""
        self.add(analyze_page(self.doc, n, self.params))

    def add(self, analysis: PageAnalysis) -> None:
        counts = analysis.counts
        t = Tally.of_page(counts)
        t.count_visibility(analysis.classified.visibility)
        fonts = analysis.fonts
        t.garbled = sum(fonts.of_font(fid).count for fid, v in fonts.verdicts.items() if v.garbled)
        self.font_used |= counts.fonts_used
        self.font_lost |= counts.fonts_lost
        for entry in analysis.fonts.entries:
            info = entry.page_font.info
            self.font_has_tounicode[info.font_id] = self.font_has_tounicode.get(info.font_id, False) or bool(
                info.has_tounicode
            )
        use = analysis.structure_use
        if use.has_tree and use.total:
            t.untagged = len(use.untagged)
            t.tagged_visible = use.total
            self.structure_pages_with_text += 1
            if use.trusted:
                self.structure_pages_trusted += 1
        diags = analysis.findings
        for d in diags:
            if d.kind is DiagnosticKind.DAMAGED_FILE_REPAIRED:
                continue  # counted once per document from doc.diagnostics
            self._finding(d, t)
        kind_ranks = {(d.kind.value, SEVERITY_RANK.get(d.severity, 3)) for d in diags}
        ordered_kinds = sorted(
            kind_ranks,
            key=lambda kv: (kv[1], kv[0]),
        )
        kinds = tuple(dict.fromkeys(k for k, _ in ordered_kinds))
        page_problem_fonts = len({f for f in counts.fonts_lost if not self.font_has_tounicode.get(f, False)})
        page_score = score(t, self.tagged, page_problem_fonts)
        self.page_scores.append(PageScore(analysis.page_number, page_score, t.glyphs, kinds))
        self.total.add(t)

    def structure_usable(self) -> bool | None:
        """None for an untagged document; else whether structure order is trusted on at least
        half of the pages that have text."""
        if not self.tagged:
            return None
        with_text = self.structure_pages_with_text
        return with_text > 0 and self.structure_pages_trusted * 2 >= with_text

    def row(self, file: str, seconds: float) -> TriageRow:
        for d in self.doc.diagnostics:
            self._finding(d, self.total)
        t = self.total
        used = self.font_used
        without = {f for f in used if f in self.font_has_tounicode and not self.font_has_tounicode[f]}
        problem_fonts = len(without & self.font_lost)
        untagged = t.untagged_share()
        worst = sorted((p for p in self.page_scores if p.score > 0), key=lambda p: (-p.score, p.page))
        findings = sorted(
            self.findings,
            key=lambda f: (FINDING_ORDER.get(f.severity, 3), f.page if f.page is not None else 0, f.kind),
        )
        return TriageRow(
            file=file,
            pages=self.doc.page_count,
            glyphs=t.glyphs,
            visible_glyphs=t.visible,
            pct_culled=pct(t.culled, t.glyphs),
            pct_duplicates=pct(t.duplicates, t.glyphs),
            pct_from_forms=pct(t.forms, t.glyphs),
            pct_unresolved=pct(t.unresolved, t.glyphs),
            pct_fallback=pct(t.fallback, t.glyphs),
            pct_garbled=pct(t.garbled, t.glyphs),
            fonts=len(used),
            fonts_without_tounicode=problem_fonts,
            fonts_without_tounicode_total=len(without),
            structure_usable=self.structure_usable(),
            pct_untagged=None if untagged is None or not self.tagged else round(100.0 * untagged, 2),
            pct_hidden={k: pct(getattr(t, k), t.glyphs) for k in HIDDEN_CLASSES},
            findings_by_severity={"error": t.errors, "warning": t.warnings, "info": t.infos},
            finding_kinds=tuple(sorted(self.kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
            worst_pages=tuple(worst[:WORST_PAGES]),
            findings=tuple(findings),
            warnings=tuple(self.doc.warnings),
            score=score(t, self.tagged, problem_fonts),
            seconds=seconds,
        )


def triage_file(
    path: str | Path,
    password: str | None = None,
    params: Parameters = DEFAULT_PARAMETERS,
    time_budget: float | None = TIME_BUDGET,
    *,
    limits: Limits | None = None,
) -> TriageRow:
    """Triage one file (a path, or an fsspec URL read as bytes). Never raises for a bad file: errors
    become the row's `error`. The row carries the SHA-256 of the bytes read (`--resume` compares it).

    `limits` are the engine's budgets (default: its defaults), their wall-time budgets capped by
    `time_budget`: a page that overruns stops with a `budget_exceeded` finding, in any thread."""
    from glyphscope.core.triage.inputs import content_sha256, is_url, read_url

    started = time.monotonic()
    pages_done = 0
    total_pages = 0
    digest: str | None = None

    def elapsed() -> float:
        return round(time.monotonic() - started, 3)

    def failed(message: str, code: int | None) -> TriageRow:
        return replace(failed_row(path, message, code, elapsed()), sha256=digest)

    try:
        with Deadline(time_budget) as deadline:
            from glyphscope.core.document import open_document

            source: str | Path | bytes = path
            if is_url(str(path)):
                data = read_url(str(path))
                digest = hashlib.sha256(data).hexdigest()
                source = data
            else:
                digest = content_sha256(path)
            try:
                doc = open_document(source, password, limits=engine_limits(time_budget, limits))
            except GlyphscopeError as exc:
                if isinstance(source, bytes):  # name the URL, not "the data"
                    raise type(exc)(str(exc).replace("the data", str(path))) from None
                raise
            try:
                total_pages = doc.page_count
                collector = PageCollector(doc, params)
                with library_log() as logged:
                    for n in range(1, doc.page_count + 1):
                        deadline.check()
                        collector.page(n)
                        pages_done = n
                row = collector.row(str(path), elapsed())
                # what the libraries logged while the pages were read: warnings of the file, never
                # bare lines on a terminal (the command line prints them after its progress line)
                return replace(row, sha256=digest, warnings=(*row.warnings, *logged))
            finally:
                doc.close()
    except TimeBudgetExceeded:
        where = f"{pages_done} of {total_pages} pages read" if total_pages else "while opening the file"
        return failed(f"gave up after the time budget of {time_budget:g} s ({where})", 1)
    except GlyphscopeError as exc:
        return failed(str(exc), exc.exit_code)
    except ImportError as exc:  # fsspec (or one of its backends) missing for a URL
        return failed(str(exc), 1)
    except RecursionError:
        return failed("the file is nested too deeply to read (recursion limit)", 1)
    except MemoryError:
        return failed("out of memory while reading the file", 1)
    except Exception as exc:  # noqa: BLE001 — one hostile file must become a row, never end the batch
        return failed(f"internal error: {type(exc).__name__}: {exc}", 1)
