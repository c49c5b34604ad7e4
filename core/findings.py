"""All findings of a page, in one order, from the one place each is made.

1. the interpreter's (`InterpretedPage.diagnostics`: operators, fonts it could
   not load, forms, budgets) — recorded while the page runs;
2. the glyphs' (core/postprocess.py: per font, per form, per page), from the
   interpretation and the page product's per-font statistics;
3. the passes' (culled, duplicate glyphs) and the structure tree's, which
   depend on the thresholds;
4. the page checks (core/triage/page_checks.py: spaces painted inside words,
   hidden text per visibility class).

`PageAnalysis.findings` (core/analysis.py; `page_findings` there for one page) is this list; the window's
Diagnostics, `glyphscope diagnostics` and triage all read it.
"""

from __future__ import annotations

from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.page import InterpretedPage
from glyphscope.core.params import Parameters
from glyphscope.core.passes import ClassifiedGlyphs
from glyphscope.core.structure import PageStructure
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
    page: InterpretedPage,
    classified: ClassifiedGlyphs,
    structure: PageStructure | None,
    use: StructureUse | None = None,
) -> list[Diagnostic]:
    """Findings of a tagged document's page: depth cap, tree that misses the page, untrusted share.

    `use` is `structure_use(structure, classified.visible)` when the caller has it already.
    """
    if structure is None or not structure.has_tree:
        return []
    n = page.page_number
    out: list[Diagnostic] = []
    if structure.depth_capped:
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
    claims_tags = bool(structure.mcid_order) or structure.page_has_struct_parents
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


def threshold_findings(
    page: InterpretedPage,
    classified: ClassifiedGlyphs,
    structure: PageStructure | None,
    use: StructureUse,
    params: Parameters,
) -> list[Diagnostic]:
    """The findings that depend on the thresholds (groups 3 and 4 of the module docstring)."""
    from glyphscope.core.triage.page_checks import hidden_text_findings, painted_space_findings

    return [
        *pass_findings(page, classified),
        *structure_findings(page, classified, structure, use),
        *painted_space_findings(page, classified, params),
        *hidden_text_findings(page, classified),
    ]
