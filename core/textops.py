"""Page and document text for the command line and exports (one place, one pipeline)."""

from __future__ import annotations

from typing import Any

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import PageText
from glyphscope.core.decision_protocol import DecisionRecord
from glyphscope.core.document import Document
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters

def page_text(
    doc: Document, page_number: int, mode: str, params: Parameters = DEFAULT_PARAMETERS
) -> PageText:
    return analyze_page(doc, page_number, params).texts[mode]  # assembles this mode only


def document_pages_text(
    doc: Document, pages: list[int], mode: str, params: Parameters = DEFAULT_PARAMETERS
) -> list[tuple[int, PageText]]:
    return [(n, page_text(doc, n, mode, params)) for n in pages]


def decision_with_sentence(decision: DecisionRecord) -> dict[str, Any]:
    """A decision record's own JSON plus its own sentence as "description"."""
    return {**decision.to_json(), "description": decision.describe()}


def page_decisions_json(
    doc: Document, page_number: int, mode: str = "plain", params: Parameters = DEFAULT_PARAMETERS
) -> dict[str, Any]:
    """Every decision of the page in `mode` (core.decision_set.page_decisions), each record's
    to_json() with its describe() sentence."""
    analysis = analyze_page(doc, page_number, params)
    decisions = [decision_with_sentence(d) for d in analysis.decisions(mode)]
    return {"params": params.to_json(), "text": analysis.texts[mode].text, "decisions": decisions}
