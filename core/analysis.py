"""One call for everything the inspector and the CLI show about a page.

Interpretation is the expensive part and is cached by the Document;
`reassemble` re-runs only the passes and assembly, for live tuning.
`document_analyses` / `document_texts` are THE page loop over a document
(whole-document text, search, diagnostics, triage): a page's facts are never
recomputed elsewhere.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from glyphscope.core.assembly import MODES, Mode, PageText, assemble
from glyphscope.core.document import Document
from glyphscope.core.limits import Limits
from glyphscope.core.page import InterpretedPage
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.passes import ClassifiedGlyphs, classify
from glyphscope.core.structure import PageStructure

if TYPE_CHECKING:  # made on first use: a page's text needs none of them (start-up time)
    from glyphscope.core.decision_protocol import DecisionRecord
    from glyphscope.core.diagnostics import Diagnostic
    from glyphscope.core.font_stats import PageFontStats
    from glyphscope.core.page_counts import PageCounts
    from glyphscope.core.structure_use import StructureUse

StopCheck = Callable[[], bool]
PageErrorHandler = Callable[[int, Exception], None]


class PageAnalysis:
    """Everything one page produces: the only page product (CLI, triage, window, search).

    Glyphs and their classification are computed up front; texts, decisions,
    findings, per-font statistics, the structure use and the counts are made on
    first access, so a caller pays only for what it reads.

    `page` holds the glyphs the product covers: all of them, or the first
    `Limits.page_glyphs` of a page that painted more (`glyphs_painted`).
    """

    __slots__ = (
        "page",
        "classified",
        "structure",
        "texts",
        "params",
        "glyphs_painted",
        "_fonts",
        "_glyph_findings",
        "_findings",
        "_decisions",
        "_structure_use",
        "_counts",
    )

    def __init__(
        self,
        page: InterpretedPage,
        classified: ClassifiedGlyphs,
        structure: PageStructure,
        texts: Mapping[str, PageText],
        params: Parameters,
        *,
        glyphs_painted: int | None = None,
        fonts: PageFontStats | None = None,
        glyph_findings: tuple[Diagnostic, ...] | None = None,
    ) -> None:
        self.page = page
        self.classified = classified
        self.structure = structure
        self.texts = texts  # every mode of core.assembly.MODES, assembled on first access
        self.params = params
        self.glyphs_painted = len(page.glyphs) if glyphs_painted is None else glyphs_painted
        # Threshold-independent parts: handed on by `reassemble`, never computed twice.
        self._fonts = fonts
        self._glyph_findings = glyph_findings
        self._findings: tuple[Diagnostic, ...] | None = None
        self._decisions: dict[str, tuple[DecisionRecord, ...]] = {}
        self._structure_use: StructureUse | None = None
        self._counts: PageCounts | None = None

    @property
    def page_number(self) -> int:
        return self.page.page_number

    @property
    def truncated(self) -> bool:
        """Whether the page painted more glyphs than the product's glyph budget kept."""
        return self.glyphs_painted > len(self.page.glyphs)

    @property
    def fonts(self) -> PageFontStats:
        """Per font (resource entry and font object): glyphs and decode sources, counted once."""
        if self._fonts is None:
            from glyphscope.core.font_stats import font_statistics

            self._fonts = font_statistics(self.page)
        return self._fonts

    @property
    def structure_use(self) -> StructureUse:
        """The visible glyphs divided by the structure tree: tagged, untagged, usable, trusted (spec §9)."""
        if self._structure_use is None:
            from glyphscope.core.structure_use import structure_use

            self._structure_use = structure_use(self.structure, self.classified.visible)
        return self._structure_use

    @property
    def counts(self) -> PageCounts:
        """Glyphs, visible, culled, duplicates, from forms, unresolved, fallback; fonts used and lost."""
        if self._counts is None:
            from glyphscope.core.page_counts import count_page

            self._counts = count_page(self.page, self.classified, self.fonts)
        return self._counts

    @property
    def interpretation_findings(self) -> tuple[Diagnostic, ...]:
        """The findings no threshold changes: the interpreter's, then the glyphs' (per font, form, page)."""
        if self._glyph_findings is None:
            from glyphscope.core.postprocess import glyph_findings

            self._glyph_findings = tuple(glyph_findings(self.page, self.fonts))
        return (*self.page.diagnostics, *self._glyph_findings)

    @property
    def findings(self) -> tuple[Diagnostic, ...]:
        """Every finding of the page, in the order core/findings.py describes: the interpretation's,
        then the passes', the structure's and the page checks'."""
        if self._findings is None:
            from glyphscope.core.findings import threshold_findings

            self._findings = (
                *self.interpretation_findings,
                *threshold_findings(
                    self.page, self.classified, self.structure, self.structure_use, self.params
                ),
            )
        return self._findings

    def decisions(self, mode: str = Mode.PLAIN) -> tuple[DecisionRecord, ...]:
        """Every decision that made the page text in `mode`: the passes' (cull, duplicate, ...)
        first, then assembly's, each a record with to_json() and describe()."""
        found = self._decisions.get(mode)
        if found is None:
            from glyphscope.core.decision_set import page_decisions

            found = self._decisions[mode] = tuple(
                page_decisions(self.page, self.classified, self.texts[mode], self.params)
            )
        return found


class LazyTexts(Mapping[str, PageText]):
    """The page text of every mode, each assembled on first access (thread-safe).

    A whole-document extraction or a search needs one mode per page; the window
    reads them all, from its worker thread, before it shows the page.
    """

    def __init__(
        self,
        page: InterpretedPage,
        classified: ClassifiedGlyphs,
        structure: PageStructure,
        params: Parameters,
    ) -> None:
        self._page = page
        self._classified = classified
        self._structure = structure
        self._params = params
        self._done: dict[str, PageText] = {}
        self._lock = threading.Lock()

    def __getitem__(self, mode: str) -> PageText:
        found = self._done.get(mode)
        if found is not None:
            return found
        if mode not in MODES:
            raise KeyError(mode)
        with self._lock:
            found = self._done.get(mode)
            if found is None and mode == Mode.AUTO and Mode.PLAIN in self._done:
                from glyphscope.core.assembly.auto import auto_from_plain

                found = auto_from_plain(
                    self._done["plain"], self._structure, self._classified.visible, self._params
                )
                if found is not None:
                    self._done[mode] = found
            if found is None:
                combs = None
                if mode in (Mode.PLAIN, Mode.AUTO) and self._page.annotations:
                    # the annotations module is loaded only for a page that has annotations
                    from glyphscope.core.annotations import comb_fields

                    combs = comb_fields(self._page.annotations)
                found = self._done[mode] = assemble(
                    self._classified.visible,
                    mode,
                    self._params,
                    visible_box=self._page.boxes.visible_box,
                    structure=self._structure,
                    actual_text=self._page.actual_text,
                    survivors=self._classified.survivors if mode in (Mode.PLAIN, Mode.AUTO) else None,
                    combs=combs,
                )
        return found

    def ready(self, mode: str) -> bool:
        """Whether `mode` is assembled already (reading it now costs nothing)."""
        return mode in self._done

    def __iter__(self) -> Iterator[str]:
        return iter(MODES)

    def __len__(self) -> int:
        return len(MODES)


def analyze_page(
    doc: Document,
    page_number: int,
    params: Parameters = DEFAULT_PARAMETERS,
    *,
    limits: Limits | None = None,
) -> PageAnalysis:
    """The page product of one page (1-based): interpretation (cached by `doc`) and classification now,
    everything else on first access. The only way a page product is made.

    `limits`: the product's budget. A page whose interpretation (under the document's own
    limits) painted more than `limits.page_glyphs` glyphs is analysed on its first ones in
    paint order: passes, texts, decisions, findings and statistics all see the same glyphs,
    and memory stays bounded by the budget. The other budgets are interpretation budgets,
    the document's (`Document.set_limits`).
    """
    page = doc.interpret(page_number)
    painted = len(page.glyphs)
    if limits is not None and painted > limits.page_glyphs:
        page = dataclasses.replace(page, glyphs=page.glyphs.prefix(limits.page_glyphs))
    structure = doc.structure(page_number)
    classified = classify(page, params)
    return PageAnalysis(
        page,
        classified,
        structure,
        LazyTexts(page, classified, structure, params),
        params,
        glyphs_painted=painted,
    )


def page_findings(
    doc: Document, page_number: int, params: Parameters = DEFAULT_PARAMETERS
) -> list[Diagnostic]:
    """Every finding of one page: `analyze_page(doc, page_number, params).findings`, as a list."""
    return list(analyze_page(doc, page_number, params).findings)


def reassemble(analysis: PageAnalysis, params: Parameters) -> PageAnalysis:
    """Same page, other thresholds: no re-interpretation; per-font statistics and the
    interpretation's findings are handed on."""
    classified = classify(analysis.page, params)
    texts = LazyTexts(analysis.page, classified, analysis.structure, params)
    return PageAnalysis(
        analysis.page,
        classified,
        analysis.structure,
        texts,
        params,
        glyphs_painted=analysis.glyphs_painted,
        fonts=analysis.fonts,
        glyph_findings=analysis._glyph_findings,
    )


def document_analyses(
    doc: Document,
    pages: Iterable[int],
    params: Parameters = DEFAULT_PARAMETERS,
    *,
    mode: str | None = None,
    should_stop: StopCheck | None = None,
    on_error: PageErrorHandler | None = None,
) -> Iterator[PageAnalysis]:
    """The page product of each of `pages` (1-based, in the order given), one page at a time.

    `mode`: assemble that text mode inside the loop, so a page whose assembly
    fails is handled here like one whose analysis fails. `should_stop()` is
    polled before each page; True ends the iteration quietly (the caller
    decides whether that is a cancellation). `on_error(page_number, exc)`
    receives a page that raised, which is then skipped; it is called in page
    order, before the next page is analysed. Without `on_error` the exception
    propagates.
    """
    if mode is not None and mode not in MODES:
        raise ValueError(f"unknown text mode {mode!r}; expected one of {', '.join(MODES)}")
    for n in pages:
        if should_stop is not None and should_stop():
            return
        try:
            analysis = analyze_page(doc, n, params)
            if mode is not None:
                _ = analysis.texts[mode]  # assembled here, so its failure is this page's
        except Exception as exc:  # one bad page must not end the document when the caller says so
            if on_error is None:
                raise
            on_error(n, exc)
            continue
        yield analysis


def document_texts(
    doc: Document,
    pages: Iterable[int],
    mode: str,
    params: Parameters = DEFAULT_PARAMETERS,
    *,
    should_stop: StopCheck | None = None,
    on_error: PageErrorHandler | None = None,
    jobs: int | None = 1,
) -> Iterator[tuple[int, PageText]]:
    """(page number, page text in `mode`) for each of `pages`: whole-document text, page by page.

    Only `mode` is assembled. `should_stop` and `on_error` as in
    `document_analyses`. Join the texts with
    `core.assembly.document_join.write_page_texts` (separator, BOM).
    `jobs`: processes reading the pages (`core.page_workers.page_results`; None: automatic);
    the texts are the same and come in the same order whatever it is.
    """
    if jobs != 1:
        from glyphscope.core.page_workers import effective_jobs, page_results

        pages = list(pages)
        n_jobs = effective_jobs(doc, len(pages), jobs)
        if n_jobs > 1:
            if mode not in MODES:
                raise ValueError(f"unknown text mode {mode!r}; expected one of {', '.join(MODES)}")
            task = functools.partial(page_text_task, mode=mode, params=params)
            results = page_results(doc, pages, task, n_jobs)
            try:
                for result in results:
                    if should_stop is not None and should_stop():
                        return
                    if result.error is not None:
                        if on_error is None:
                            raise result.error
                        on_error(result.page, result.error)
                        continue
                    yield result.page, result.get()
            finally:
                results.close()
            return
    for analysis in document_analyses(
        doc, pages, params, mode=mode, should_stop=should_stop, on_error=on_error
    ):
        yield analysis.page_number, analysis.texts[mode]


def page_text_task(doc: Document, page_number: int, mode: str, params: Parameters) -> PageText:
    """One page's text in `mode`: what a page worker does for `document_texts`."""
    return analyze_page(doc, page_number, params).texts[mode]
