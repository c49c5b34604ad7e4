"""One page compared with other engines: alignment, differences, the deciding decisions (Qt-free).

`compare_page(analysis, engine_texts, mode)` is the one place that turns engine
texts (compare_engines) into differences explained by glyphscope's decisions
(compare_align, compare_explain); `glyphscope compare`, the Compare panel, its
canvas layer and triage's `--compare` column all read its `PageComparison`.
"""

from __future__ import annotations

import weakref
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from glyphscope.core.assembly.modes import Mode
from glyphscope.core.gcpause import gc_paused
from glyphscope.core.glyph import GlyphStatus
from glyphscope.inspector.compare.align import (
    CHANGED,
    EXTRA,
    MISSING,
    ORDER,
    SPACE,
    Alignment,
    Run,
    align,
    non_space_count,
)
from glyphscope.inspector.compare.causes import CAUSES, PUBLIC_KINDS, Cause, JsonObject, public_kind
from glyphscope.inspector.compare.engines import DEFAULT_TIMEOUT, EngineText, run_engine, run_engines
from glyphscope.inspector.compare.explain import (
    DecisionIndex,
    Explanation,
    PageContext,
    explain,
    explain_leftovers,
)
from glyphscope.inspector.compare.triage_pages import DOCUMENT_MAX_PAGES

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.decision_protocol import DecisionRecord
    from glyphscope.core.document import Document
    from glyphscope.core.params import Parameters
    from glyphscope.inspector.compare.theirs import TheirText
    from glyphscope.inspector.jobs import CancelToken, Progress
    from glyphscope.inspector.views.page_facts import PageFacts

KIND_TITLES: dict[str, str] = {
    MISSING: "missing in theirs",
    EXTRA: "extra in theirs",
    SPACE: "space differs",
    ORDER: "order differs",
    CHANGED: "read differently",
}
"""Each difference kind as the window and the reports name it."""


@dataclass(frozen=True, slots=True)
class Difference:
    """One place where an engine's text differs from glyphscope's, with the decision that explains it."""

    engine: str  # engine key
    run: Run
    explanation: Explanation

    @property
    def kind(self) -> str:
        return self.run.kind

    @property
    def public_kind(self) -> str:
        """missing, extra, changed, order, split or glued (`compare --json`'s kind)."""
        return public_kind(self.run.kind, self.run.their_has_space)

    @property
    def cause(self) -> str:
        return self.explanation.cause

    @property
    def glyphs(self) -> tuple[int, ...]:
        return self.run.glyphs

    @property
    def decision(self) -> DecisionRecord | None:
        return self.explanation.decision

    @property
    def sentence(self) -> str:
        return self.explanation.sentence

    def to_json(self, their_text: str, our_text: str) -> dict[str, object]:
        r = self.run
        d = self.decision
        decision = None
        if d is not None:
            decision = d.to_json() | {"description": d.describe()}
        return {
            "kind": self.public_kind,
            "cause": self.cause,
            "numbers": dict(self.explanation.numbers),
            "fix": self.explanation.fix or None,
            "their_span": [r.their_start, r.their_end],
            "our_span": [r.our_start, r.our_end],
            "their_text": their_text[r.their_start : r.their_end],
            "our_text": our_text[r.our_start : r.our_end],
            "glyphs": list(r.glyphs),
            "explanation": self.sentence,
            "decision": decision,
        }


@dataclass(slots=True)
class EngineComparison:
    """One engine on one page: its text, the alignment to our glyphs and the differences."""

    result: EngineText
    alignment: Alignment | None  # None when the engine gave no text
    differences: list[Difference] = field(default_factory=list)
    _summary: JsonObject | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def key(self) -> str:
        return self.result.key

    @property
    def label(self) -> str:
        return self.result.label

    @property
    def agreement(self) -> float | None:
        return None if self.alignment is None else self.alignment.agreement

    def summary(self) -> JsonObject | None:
        """Agreement, characters and differences counted (made once: the differences do not change)."""
        al = self.alignment
        if al is None:
            return None
        if self._summary is not None:
            return self._summary
        by_kind = {k: 0 for k in PUBLIC_KINDS}
        by_cause = {c: 0 for c in CAUSES}
        for d in self.differences:
            by_kind[d.public_kind] += 1
            by_cause[d.cause] += 1
        self._summary = {
            "agreement": round(al.agreement, 4),
            "characters_ours": non_space_count(al.our_text),
            "characters_theirs": non_space_count(al.their_text),
            "characters_agreeing": al.chars_equal,
            "spaces_differing": al.count(SPACE),
            "only_theirs": al.chars_of(EXTRA),
            "only_ours": al.chars_of(MISSING),
            "moved": al.chars_of(ORDER),
            "changed": al.chars_of(CHANGED),
            "differences": by_kind,
            "causes": by_cause,
            "explained": _explained(by_cause),
        }
        return self._summary

    def to_json(self) -> dict[str, object]:
        st = self.result.status
        al = self.alignment
        return {
            "engine": st.key,
            "label": st.label,
            "version": st.version or None,
            "options": st.spec.options,
            "seconds": round(self.result.seconds, 3),
            "error": self.result.error,
            "text": self.result.text,
            "summary": self.summary(),
            "char_glyphs": None if al is None else list(al.glyph),
            "differences": []
            if al is None
            else [d.to_json(al.their_text, al.our_text) for d in self.differences],
        }


@dataclass(slots=True)
class PageComparison:
    page_number: int
    mode: str
    text: str  # glyphscope's text of the page in `mode`
    engines: list[EngineComparison]

    def engine(self, key: str) -> EngineComparison | None:
        return next((e for e in self.engines if e.key == key), None)

    def glyph_kinds(self) -> dict[int, list[tuple[str, Difference]]]:
        """Paint index → (kind, difference) of every difference that concerns the glyph (the canvas layer)."""
        out: dict[int, list[tuple[str, Difference]]] = {}
        for e in self.engines:
            for d in e.differences:
                for g in d.glyphs:
                    out.setdefault(g, []).append((d.kind, d))
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "page": self.page_number,
            "mode": self.mode,
            "glyphscope_text": self.text,
            "engines": [e.to_json() for e in self.engines],
        }


def hidden_glyphs(analysis: PageAnalysis) -> list[tuple[int, str, str]]:
    """(paint index, text, its status) of every glyph left out of the text, in paint order: "culled",
    "duplicate", "clipped" or "hidden" (dropped by --drop-hidden)."""
    out = []
    classified = analysis.classified
    glyphs = classified.glyphs
    kept = GlyphStatus.KEPT
    texts = getattr(glyphs, "unicode", None)  # a GlyphTable's column: no record made per glyph
    if isinstance(texts, list) and len(texts) == len(glyphs):
        return [(i, texts[i], str(s.value)) for i, s in enumerate(classified.status) if s is not kept]
    for i, s in enumerate(classified.status):
        if s is not kept:
            g = glyphs[i]
            out.append((g.paint_index, g.unicode, str(s.value)))
    return out


class _Hidden:
    """`hidden_glyphs(analysis)`, read on first iteration: the alignment needs them only when the
    engine has text glyphscope's text lacks."""

    def __init__(self, analysis: PageAnalysis) -> None:
        self._analysis = analysis
        self._found: list[tuple[int, str, str]] | None = None

    def __iter__(self) -> Iterator[tuple[int, str, str]]:
        if self._found is None:
            self._found = hidden_glyphs(self._analysis)
        return iter(self._found)


def compare_page(
    analysis: PageAnalysis, results: Sequence[EngineText], mode: str = Mode.PLAIN
) -> PageComparison:
    """Align each engine's text of `analysis`'s page to glyphscope's glyphs and explain the differences
    with the records of `analysis.decisions(mode)`."""
    with gc_paused():  # alignment and causes make many small, cycle-free objects (core/gcpause.py)
        return _compare_page(analysis, results, mode)


def _compare_page(analysis: PageAnalysis, results: Sequence[EngineText], mode: str) -> PageComparison:
    page_text = analysis.texts[mode]
    ours = page_text.text or ""
    our_glyph = page_text.char_map.glyph if page_text.text is not None else ()
    index: DecisionIndex | None = None  # made for the first engine that differs
    context = PageContext(analysis)
    hidden = _Hidden(analysis)
    engines = []
    for res in results:
        if res.text is None:
            engines.append(EngineComparison(res, None))
            continue
        al = align(res.text, ours, our_glyph, hidden)
        if al.runs and index is None:
            index = DecisionIndex.of_analysis(analysis, mode)
        said = [explain(run, res.label, index, al.their_text, al.our_text, context) for run in al.runs]  # type: ignore[arg-type]
        said = explain_leftovers(al.runs, said, res.label, al.their_text, al.our_text, al.glyph, context)
        diffs = [Difference(res.key, run, ex) for run, ex in zip(al.runs, said)]
        engines.append(EngineComparison(res, al, diffs))
    return PageComparison(analysis.page_number, mode, ours, engines)


def _explained(by_cause: Mapping[str, int]) -> float | None:
    """Share of differences whose cause is not `unexplained` (None without differences)."""
    total = sum(by_cause.values())
    return None if total == 0 else round(1.0 - by_cause.get(Cause.UNEXPLAINED.value, 0) / total, 4)


# -- the window's current comparison per page view ------------------------------------------------

_ATTACHED: weakref.WeakKeyDictionary[PageFacts, PageComparison] = weakref.WeakKeyDictionary()


def attach_comparison(facts: PageFacts, comparison: PageComparison | None) -> None:
    """Keep `comparison` with a page's view facts (engine.PageFacts) for the canvas layer; None drops it."""
    if comparison is None:
        _ATTACHED.pop(facts, None)
    else:
        _ATTACHED[facts] = comparison


def comparison_of(facts: PageFacts) -> PageComparison | None:
    """The comparison the Compare panel made for these facts, or None (not compared yet)."""
    try:
        return _ATTACHED.get(facts)
    except TypeError:  # not weak-referenceable
        return None


def compare_count(facts: PageFacts) -> int:
    """Differences the Compare panel found on this page (0 until it has compared it): the
    legend's count of the "Other engines differ" layer, live (the comparison comes after the page)."""
    comparison = comparison_of(facts)
    return 0 if comparison is None else sum(len(e.differences) for e in comparison.engines)


# -- the window's job ------------------------------------------------------------------------------


def compare_page_job(
    path: str,
    password: str | None,
    analysis: PageAnalysis,
    keys: Sequence[str],
    mode: str = Mode.PLAIN,
    known: Mapping[str, EngineText] | None = None,
    *,
    token: CancelToken,
    timeout: float = DEFAULT_TIMEOUT,
) -> Generator[Progress, None, PageComparison]:
    """Run the engines of `keys` on `analysis`'s page (those in `known` are not run again: their text
    of this very page) and compare; a job for gui.workers.Worker (cancel: `token`)."""
    from glyphscope.inspector.jobs import Progress  # the window's: not a command's import

    results: dict[str, EngineText] = dict(known or {})
    todo = [k for k in keys if k not in results]
    yield Progress(0, len(todo) + 1, f"running {', '.join(todo)}" if todo else "aligning")
    if todo:
        ran = run_engines(
            todo,
            path,
            analysis.page_number,
            password,
            timeout=timeout,
            should_stop=lambda: bool(getattr(token, "cancelled", False)),
        )
        token.check()
        results.update({r.key: r for r in ran})
    yield Progress(len(todo), len(todo) + 1, "aligning")
    return compare_page(analysis, [results[k] for k in keys], mode)


# -- a whole document against one engine (triage's --compare column) -------------------------------


@dataclass(frozen=True, slots=True)
class DocumentAgreement:
    """How far one engine's text of a document's first pages agrees with glyphscope's."""

    engine: str
    agreement: float | None  # 0–1 over the pages compared; None when the engine gave no text
    pages: int  # pages compared
    error: str | None = None

    def to_json(self) -> dict[str, object]:
        pct = None if self.agreement is None else round(100.0 * self.agreement, 2)
        return {"engine": self.engine, "agreement_pct": pct, "pages": self.pages, "error": self.error}


def document_agreement(
    path: str,
    engine: str,
    password: str | None = None,
    *,
    max_pages: int = DOCUMENT_MAX_PAGES,
    mode: str = Mode.PLAIN,
    timeout: float = DEFAULT_TIMEOUT,
) -> DocumentAgreement:
    """`engine`'s agreement with glyphscope's `mode` text over the first `max_pages` pages of the PDF at
    `path` (tokens in place on both sides / all tokens, as Alignment.agreement); never raises for a bad
    file or a failing engine: the result carries the error."""
    from glyphscope.core.analysis import document_analyses
    from glyphscope.core.document import open_document
    from glyphscope.core.errors import GlyphscopeError

    try:
        doc = open_document(path, password)
    except GlyphscopeError as exc:
        return DocumentAgreement(engine, None, 0, str(exc))
    equal = total = done = 0
    skipped: list[int] = []
    pages = range(1, min(doc.page_count, max_pages) + 1)
    for analysis in document_analyses(doc, pages, mode=mode, on_error=lambda n, exc: skipped.append(n)):
        res = run_engine(engine, path, analysis.page_number, password, timeout=timeout)
        if res.text is None:
            return DocumentAgreement(engine, None, done, f"page {analysis.page_number}: {res.error}")
        text = analysis.texts[mode]
        al = align(
            res.text, text.text or "", text.char_map.glyph if text.text else (), hidden_glyphs(analysis)
        )
        equal += al.tokens_equal
        total += al.tokens_ours + al.tokens_theirs
        done += 1
    error = f"page(s) {', '.join(map(str, skipped))} could not be analysed" if skipped else None
    return DocumentAgreement(engine, 1.0 if total == 0 else 2.0 * equal / total, done, error)


# -- a whole document against their text (triage's --against, the benchmark) -----------------------


@dataclass(slots=True)
class TheirDocument:
    """Their text of a document against glyphscope's: the pages compared, the warnings, the totals."""

    pages: list[PageComparison]
    warnings: list[str]
    error: str | None = None

    def engines(self) -> list[EngineComparison]:
        return [e for p in self.pages for e in p.engines]

    @property
    def agreement(self) -> float | None:
        equal = total = 0
        seen = False
        for e in self.engines():
            al = e.alignment
            if al is None:
                continue
            seen = True
            equal += al.tokens_equal
            total += al.tokens_ours + al.tokens_theirs
        if not seen:
            return None
        return 1.0 if total == 0 else 2.0 * equal / total

    def causes(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.engines():
            for d in e.differences:
                out[d.cause] = out.get(d.cause, 0) + 1
        return out


def compare_their_document(
    doc: Document,
    their: TheirText,
    pages: Sequence[int],
    mode: str = Mode.PLAIN,
    params: Parameters | None = None,
) -> TheirDocument:
    """`their` (compare.theirs.TheirText) against glyphscope's `mode` text of `pages` of `doc`, page by page
    in this process; never raises for a page that cannot be analysed (a warning names it)."""
    from glyphscope.core.analysis import document_analyses
    from glyphscope.core.params import DEFAULT_PARAMETERS
    from glyphscope.inspector.compare.theirs import form_feed_pages, page_result, page_texts

    params = params or DEFAULT_PARAMETERS
    warnings = list(their.warnings)
    if their.text is None:
        return TheirDocument([], warnings, their.error)
    skipped: list[int] = []
    analyses = list(
        document_analyses(doc, pages, params, mode=mode, on_error=lambda n, exc: skipped.append(n))
    )
    our_texts = None
    if form_feed_pages(their.text) is None and len(pages) > 1:
        by_page = {a.page_number: a.texts[mode].text or "" for a in analyses}
        our_texts = [by_page.get(n, "") for n in pages]
    cut, notes = page_texts(their.text, pages, doc.page_count, our_texts)
    warnings.extend(notes)
    if skipped:
        warnings.append(f"page(s) {', '.join(map(str, skipped))} could not be analysed")
    in_text = len(form_feed_pages(their.text) or [their.text])
    out = [
        compare_page(a, [page_result(their, cut.get(a.page_number), a.page_number, in_text)], mode)
        for a in analyses
    ]
    return TheirDocument(out, warnings)
