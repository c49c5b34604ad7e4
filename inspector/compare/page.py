"""One page compared with other engines: alignment, differences, the deciding decisions (Qt-free).

`compare_page(analysis, engine_texts, mode)` is the one place that turns engine
texts (compare_engines) into differences explained by glyphscope's decisions
(compare_align, compare_explain); `glyphscope compare`, the Compare panel, its
canvas layer and triage's `--compare` column all read its `PageComparison`.
"""

from __future__ import annotations

import weakref
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from glyphscope.core.glyph import GlyphStatus, is_space_like
from glyphscope.inspector.compare.align import (
    CHANGED,
    EXTRA,
    KINDS,
    MISSING,
    ORDER,
    SPACE,
    Alignment,
    Run,
    align,
)
from glyphscope.inspector.compare.engines import DEFAULT_TIMEOUT, EngineText, run_engine, run_engines
from glyphscope.inspector.compare.explain import DecisionIndex, Explanation, explain
from glyphscope.inspector.compare.limits import DOCUMENT_MAX_PAGES
from glyphscope.inspector.jobs import CancelToken, Progress

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.decision_protocol import DecisionRecord
    from glyphscope.inspector.views.page_facts import PageFacts

KIND_TITLES = {
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
            "kind": r.kind,
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

    @property
    def key(self) -> str:
        return self.result.key

    @property
    def label(self) -> str:
        return self.result.label

    @property
    def agreement(self) -> float | None:
        return None if self.alignment is None else self.alignment.agreement

    def summary(self) -> dict[str, Any] | None:
        al = self.alignment
        if al is None:
            return None
        by_kind = {k: 0 for k in KINDS}
        for d in self.differences:
            by_kind[d.kind] += 1
        return {
            "agreement": round(al.agreement, 4),
            "characters_ours": sum(1 for c in al.our_text if not is_space_like(c)),
            "characters_theirs": sum(1 for c in al.their_text if not is_space_like(c)),
            "characters_agreeing": al.chars_equal,
            "spaces_differing": al.count(SPACE),
            "only_theirs": al.chars_of(EXTRA),
            "only_ours": al.chars_of(MISSING),
            "moved": al.chars_of(ORDER),
            "changed": al.chars_of(CHANGED),
            "differences": by_kind,
        }

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
    status = analysis.classified.status
    for g in analysis.classified.glyphs:
        s = status[g.paint_index]
        if s is not GlyphStatus.KEPT:
            out.append((g.paint_index, g.unicode, str(s.value)))
    return out


def compare_page(
    analysis: PageAnalysis, results: Sequence[EngineText], mode: str = "plain"
) -> PageComparison:
    """Align each engine's text of `analysis`'s page to glyphscope's glyphs and explain the differences
    with the records of `analysis.decisions(mode)`."""
    page_text = analysis.texts[mode]
    ours = page_text.text or ""
    our_glyph = page_text.char_map.glyph if page_text.text is not None else ()
    index = DecisionIndex(analysis.decisions(mode))
    hidden = hidden_glyphs(analysis)
    engines = []
    for res in results:
        if res.text is None:
            engines.append(EngineComparison(res, None))
            continue
        al = align(res.text, ours, our_glyph, hidden)
        diffs = [
            Difference(res.key, run, explain(run, res.label, index, al.their_text, al.our_text))
            for run in al.runs
        ]
        engines.append(EngineComparison(res, al, diffs))
    return PageComparison(analysis.page_number, mode, ours, engines)


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
    mode: str = "plain",
    known: Mapping[str, EngineText] | None = None,
    *,
    token: CancelToken,
    timeout: float = DEFAULT_TIMEOUT,
) -> Generator[Progress, None, PageComparison]:
    """Run the engines of `keys` on `analysis`'s page (those in `known` are not run again: their text
    of this very page) and compare; a job for gui.workers.Worker (cancel: `token`)."""
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
    mode: str = "plain",
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
