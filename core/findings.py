"""All findings of a page: the interpreter's, plus those of the passes and the structure tree.

The interpreter's diagnostics do not depend on thresholds; culling, dedupe
and tagging findings do, so they are computed here from a classification.
`PageAnalysis.findings` (core/analysis.py) assembles them; `page_findings`
is that, for one page number.
"""

from __future__ import annotations

from typing import Any

from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.document import Document
from glyphscope.core.page import InterpretedPage
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.passes import ClassifiedGlyphs
from glyphscope.core.structure_use import StructureUse, structure_use


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _culled_sample(page: InterpretedPage, indices: tuple[int, ...]) -> str:
    """The first culled glyphs as plain text would read them, lines joined by " / "."""
    from glyphscope.core.assembly import assemble  # the text rules, not a second copy of them

    text = assemble([page.glyphs[i] for i in indices], "plain", visible_box=page.boxes.media_box).text or ""
    return " / ".join(line.strip() for line in text.split("\n") if line.strip())


def pass_findings(page: InterpretedPage, classified: ClassifiedGlyphs) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    n = page.page_number
    if classified.culls:
        idx = tuple(c.paint_index for c in classified.culls)
        sample = _culled_sample(page, idx[:40])
        out.append(
            Diagnostic(
                DiagnosticKind.CULLED_GLYPHS,
                Severity.WARNING,
                f"{_n(len(idx), 'glyph')} outside the visible page area (CropBox) left out of the text"
                + (f": “{sample}”" if sample else "")
                + " — printer slug lines, crop marks or text of a neighbouring page",
                page=n,
                glyphs=idx,
                count=len(idx),
            )
        )
    if classified.duplicates:
        idx = tuple(d.paint_index for d in classified.duplicates)
        out.append(
            Diagnostic(
                DiagnosticKind.DUPLICATE_GLYPHS,
                Severity.WARNING,
                f"{_n(len(idx), 'glyph')} painted twice in the same place (fake bold, overprint or a "
                "repeated footer) read once",
                page=n,
                glyphs=idx,
                count=len(idx),
            )
        )
    return out


def structure_findings(
    page: InterpretedPage, classified: ClassifiedGlyphs, structure: Any, use: StructureUse | None = None
) -> list[Diagnostic]:
    """Findings of a tagged document's page: depth cap, tree that misses the page, untrusted share.

    `use` is `structure_use(structure, classified.visible)` when the caller has it already.
    """
    if structure is None or not getattr(structure, "has_tree", False):
        return []
    n = page.page_number
    out: list[Diagnostic] = []
    if getattr(structure, "depth_capped", False):
        out.append(
            Diagnostic(
                DiagnosticKind.STRUCTURE_DEPTH_CAP,
                Severity.WARNING,
                "the structure tree is nested deeper than 128 levels: the deeper part was not read",
                page=n,
            )
        )
    if use is None:
        use = structure_use(structure, classified.visible)
    if not use.total:
        return out
    untagged = use.untagged
    claims_tags = bool(structure.mcid_order) or getattr(structure, "page_has_struct_parents", False)
    if not use.usable:
        if not claims_tags:
            return out  # an untagged page of a tagged document: nothing was promised
        out.append(
            Diagnostic(
                DiagnosticKind.STRUCTURE_UNUSABLE,
                Severity.INFO,
                "the document is tagged but the structure tree does not reach this page's text: "
                "structure order is not available, reading order falls back to the content stream",
                page=n,
                glyphs=untagged,
            )
        )
    elif not use.trusted:
        out.append(
            Diagnostic(
                DiagnosticKind.UNTAGGED_SHARE,
                Severity.WARNING,
                f"{len(untagged) / use.total:.0%} of this tagged page's text is untagged: "
                "structure order is not trusted, auto mode uses content-stream order",
                page=n,
                glyphs=untagged,
                count=len(untagged),
            )
        )
    return out


def page_findings(
    doc: Document, page_number: int, params: Parameters = DEFAULT_PARAMETERS
) -> list[Diagnostic]:
    """Every finding of one page: `analyze_page(doc, page_number, params).findings`, as a list."""
    from glyphscope.core.analysis import analyze_page

    return list(analyze_page(doc, page_number, params).findings)
