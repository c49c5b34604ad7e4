"""Text assembly (spec §3, §4, §8, §9): pure functions over the visible glyph list.

`assemble(visible, mode, params, visible_box=..., structure=..., actual_text=...)`
returns a `PageText` with the text, every decision taken (as records the
inspector draws) and the character map linking text and glyphs both ways.
`actual_text` is the page's replacement spans (InterpretedPage.actual_text),
written in place of their glyphs' text when `params.actual_text` is on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from glyphscope.core.actual_text import ActualTextSpan
from glyphscope.core.assembly.actual_text import ActualTextDecision, ActualTextSpans, span_index
from glyphscope.core.assembly.articles import articles_text
from glyphscope.core.assembly.auto import auto_text
from glyphscope.core.assembly.bidi import BidiDecision, logical_order
from glyphscope.core.assembly.columns import columns_text
from glyphscope.core.assembly.decisions import (
    ArticleBeadRecord,
    ArticleOrderDecision,
    Baseline,
    ColumnChangeDecision,
    ColumnSplit,
    Decision,
    GridPlacement,
    LayoutGrid,
    LineBreakDecision,
    StructureOrder,
    TextColumn,
    VerticalColumn,
    WordGapDecision,
)
from glyphscope.core.assembly.document_text import document_text, write_document_text
from glyphscope.core.assembly.layout import layout_text
from glyphscope.core.assembly.page_text import CharMap, PageText
from glyphscope.core.assembly.plain import plain_text
from glyphscope.core.assembly.structure_mode import structure_text
from glyphscope.core.gcpause import gc_paused
from glyphscope.core.geometry import Rect
from glyphscope.core.glyph import FlowFields, Glyph
from glyphscope.core.glyph_table import flow_glyphs
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.structure import PageStructure

MODES: tuple[str, ...] = ("plain", "layout", "columns", "structure", "articles", "auto")


def assemble(
    visible: Sequence[Glyph],
    mode: str,
    params: Parameters = DEFAULT_PARAMETERS,
    *,
    visible_box: Rect,
    structure: PageStructure | None = None,
    actual_text: Sequence[ActualTextSpan] = (),
) -> PageText:
    """Assemble the page text of `visible` (kept glyphs in paint order) in one of MODES."""
    spans = span_index(actual_text, params.actual_text)
    # Every mode indexes the glyphs repeatedly: a lazy sequence is read once (a tuple is kept
    # as it is); plain mode reads lighter records of its own (glyph_table.flow_glyphs).
    with gc_paused():  # records made from the page's columns are many young objects: no collector passes
        if mode != "plain":
            visible = tuple(visible)
        text = _assemble(visible, mode, params, visible_box, structure, spans)
        return text if params.visual_order else logical_order(text, _positions(visible))  # RTL lines


def _positions(visible: Sequence[Glyph]) -> Iterator[FlowFields]:
    """The glyphs' positions for the right-to-left pass, read only if it asks (a generator)."""
    yield from flow_glyphs(visible)


def _assemble(
    visible: Sequence[Glyph],
    mode: str,
    params: Parameters,
    visible_box: Rect,
    structure: PageStructure | None,
    spans: ActualTextSpans | None = None,
) -> PageText:
    if mode == "plain":
        return plain_text(visible, params, spans=spans)
    if mode == "layout":
        return layout_text(visible, params, visible_box, spans=spans)
    if mode == "columns":
        return columns_text(visible, params, spans=spans)
    if mode == "structure":
        return structure_text(visible, structure, params, spans=spans)
    if mode == "articles":
        return articles_text(visible, structure, params, spans=spans)
    if mode == "auto":
        return auto_text(visible, structure, params, spans=spans)
    raise ValueError(f"unknown text mode {mode!r}; expected one of {', '.join(MODES)}")


__all__ = [
    "MODES",
    "ActualTextDecision",
    "ArticleBeadRecord",
    "ArticleOrderDecision",
    "Baseline",
    "BidiDecision",
    "CharMap",
    "ColumnChangeDecision",
    "ColumnSplit",
    "Decision",
    "GridPlacement",
    "LayoutGrid",
    "LineBreakDecision",
    "PageText",
    "StructureOrder",
    "TextColumn",
    "VerticalColumn",
    "WordGapDecision",
    "assemble",
    "document_text",
    "write_document_text",
]
