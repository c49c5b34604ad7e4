"""Page and document text for the command line and exports (one place, one pipeline)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TextIO

from glyphscope.core.analysis import PageErrorHandler, StopCheck, analyze_page, document_texts
from glyphscope.core.assembly import PageText
from glyphscope.core.assembly.document_join import FORM_FEED, write_page_texts
from glyphscope.core.assembly.modes import Mode
from glyphscope.core.decision_protocol import DecisionRecord
from glyphscope.core.document import Document
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters


def page_text(
    doc: Document, page_number: int, mode: str, params: Parameters = DEFAULT_PARAMETERS
) -> PageText:
    """One page's text in `mode` (assembles that mode only)."""
    return analyze_page(doc, page_number, params).texts[mode]


def document_pages_text(
    doc: Document,
    pages: list[int],
    mode: str,
    params: Parameters = DEFAULT_PARAMETERS,
    *,
    jobs: int | None = 1,
) -> list[tuple[int, PageText]]:
    """`core.analysis.document_texts`, as a list (`jobs`: processes reading the pages, None: automatic)."""
    return list(document_texts(doc, pages, mode, params, jobs=jobs))


def write_document_pages(
    out: TextIO,
    doc: Document,
    pages: Iterable[int],
    mode: str,
    params: Parameters = DEFAULT_PARAMETERS,
    *,
    separator: str = FORM_FEED,
    bom: bool = False,
    should_stop: StopCheck | None = None,
    on_error: PageErrorHandler | None = None,
    jobs: int | None = 1,
) -> int:
    """Stream the whole-document text of `pages` in `mode` to `out` (spec §9); returns pages written.

    Pages joined by `separator` (default form feed), no trailing one; `bom`
    writes U+FEFF first (EF BB BF in UTF-8). A page skipped by `on_error` or
    after `should_stop` is not written. `jobs`: processes reading the pages (None: automatic).
    """
    texts = document_texts(doc, pages, mode, params, should_stop=should_stop, on_error=on_error, jobs=jobs)
    return write_page_texts(out, (t.text for _, t in texts), separator, bom)


def decision_with_sentence(decision: DecisionRecord) -> dict[str, object]:
    """A decision record's own JSON plus its own sentence as "description"."""
    return {**decision.to_json(), "description": decision.describe()}


def page_decisions_json(
    doc: Document, page_number: int, mode: str = Mode.PLAIN, params: Parameters = DEFAULT_PARAMETERS
) -> dict[str, Any]:
    """Every decision of the page in `mode` (core.decision_set.page_decisions), each record's
    to_json() with its describe() sentence."""
    analysis = analyze_page(doc, page_number, params)
    decisions = [decision_with_sentence(d) for d in analysis.decisions(mode)]
    return {"params": params.to_json(), "text": analysis.texts[mode].text, "decisions": decisions}
