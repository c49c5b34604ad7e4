"""Page and document text for the command line and exports (one place, one pipeline)."""

from __future__ import annotations

from typing import Any

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import PageText
from glyphscope.core.document import Document
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters

_VALUE_KEYS = ("gap", "displacement")  # the measured number of each decision kind


def page_text(
    doc: Document, page_number: int, mode: str, params: Parameters = DEFAULT_PARAMETERS
) -> PageText:
    return analyze_page(doc, page_number, params).texts[mode]  # assembles this mode only


def document_pages_text(
    doc: Document, pages: list[int], mode: str, params: Parameters = DEFAULT_PARAMETERS
) -> list[tuple[int, PageText]]:
    return [(n, page_text(doc, n, mode, params)) for n in pages]


def decision_json(decision: Any) -> dict[str, Any]:
    """A decision's JSON with the common keys kind/before/after/value/threshold and its sentence."""
    d = decision.to_json()
    if "value" not in d:
        d["value"] = next((d[k] for k in _VALUE_KEYS if k in d), None)
    d.setdefault("before", None)
    d.setdefault("after", None)
    d.setdefault("threshold", None)
    d["description"] = decision.describe()
    return d


def page_decisions_json(
    doc: Document, page_number: int, mode: str = "plain", params: Parameters = DEFAULT_PARAMETERS
) -> dict[str, Any]:
    """Every decision that made the page text in `mode`, plus the passes' culls and drops."""
    analysis = analyze_page(doc, page_number, params)
    classified = analysis.classified
    text = analysis.texts[mode]
    out: list[dict[str, Any]] = []
    for c in classified.culls:
        out.append(
            {
                "kind": "cull",
                "before": None,
                "after": c.paint_index,
                "value": [round(c.center[0], 3), round(c.center[1], 3)],
                "threshold": [round(v, 3) for v in c.visible_box],
                "description": f"culled: box centre ({c.center[0]:.2f}, {c.center[1]:.2f}) lies outside the "
                f"visible box [{', '.join(f'{v:.2f}' for v in c.visible_box)}]",
            }
        )
    for dup in classified.duplicates:
        out.append(
            {
                "kind": "duplicate",
                "before": dup.duplicate_of,
                "after": dup.paint_index,
                "value": [round(dup.along, 3), round(dup.across, 3)],
                "threshold": [
                    round(params.dedupe_along * dup.size, 3),
                    round(params.dedupe_across * dup.size, 3),
                ],
                "description": f"duplicate of glyph {dup.duplicate_of} dropped: offset {abs(dup.along):.2f} pt "
                f"along ≤ {params.dedupe_along:.2f} × {dup.size:.2f} pt and {abs(dup.across):.2f} pt across "
                f"≤ {params.dedupe_across:.2f} × {dup.size:.2f} pt",
            }
        )
    out.extend(decision_json(d) for d in text.decisions)
    return {"params": params.to_json(), "text": text.text, "decisions": out}
