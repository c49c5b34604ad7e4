"""Text assembly (spec §3, §4, §8, §9): pure functions over the visible glyph list.

`assemble(visible, mode, params, visible_box=..., structure=..., actual_text=...)`
returns a `PageText` with the text, every decision taken (as records the
inspector draws) and the character map linking text and glyphs both ways.
`actual_text` is the page's replacement spans (InterpretedPage.actual_text),
written in place of their glyphs' text when `params.actual_text` is on.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from glyphscope.core.assembly.actual_text import ActualTextSpans, span_index
from glyphscope.core.assembly.chars import RTL_CANDIDATE
from glyphscope.core.assembly.modes import MODES as MODES
from glyphscope.core.assembly.modes import Mode as Mode
from glyphscope.core.assembly.page_text import CharMap, PageText
from glyphscope.core.gcpause import gc_paused
from glyphscope.core.glyph import FlowFields, Glyph
from glyphscope.core.glyph_table import flow_glyphs
from glyphscope.core.lazy import lazy_names
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters

if TYPE_CHECKING:
    # What type checkers see; at run time a mode's module is imported when the mode is first
    # assembled and the records' names on first use (`__getattr__` below): `glyphscope text`
    # in plain mode builds none of the other modes' record classes (start-up time, issue 29).
    from glyphscope.core.actual_text import ActualTextSpan
    from glyphscope.core.assembly.actual_text import ActualTextDecision as ActualTextDecision
    from glyphscope.core.assembly.bidi import BidiDecision as BidiDecision
    from glyphscope.core.assembly.decisions import ArticleBeadRecord as ArticleBeadRecord
    from glyphscope.core.assembly.decisions import ArticleOrderDecision as ArticleOrderDecision
    from glyphscope.core.assembly.decisions import Baseline as Baseline
    from glyphscope.core.assembly.decisions import ColumnChangeDecision as ColumnChangeDecision
    from glyphscope.core.assembly.decisions import ColumnSplit as ColumnSplit
    from glyphscope.core.assembly.decisions import Decision as Decision
    from glyphscope.core.assembly.decisions import GridPlacement as GridPlacement
    from glyphscope.core.assembly.decisions import LayoutGrid as LayoutGrid
    from glyphscope.core.assembly.decisions import LineBreakDecision as LineBreakDecision
    from glyphscope.core.assembly.decisions import StructureOrder as StructureOrder
    from glyphscope.core.assembly.decisions import TextColumn as TextColumn
    from glyphscope.core.assembly.decisions import VerticalColumn as VerticalColumn
    from glyphscope.core.assembly.decisions import WordGapDecision as WordGapDecision
    from glyphscope.core.assembly.document_join import document_text as document_text
    from glyphscope.core.assembly.document_join import write_document_text as write_document_text
    from glyphscope.core.geometry import Rect
    from glyphscope.core.structure import PageStructure


def assemble(
    visible: Sequence[Glyph],
    mode: str,
    params: Parameters = DEFAULT_PARAMETERS,
    *,
    visible_box: Rect,
    structure: PageStructure | None = None,
    actual_text: Sequence[ActualTextSpan] = (),
    survivors: Mapping[int, int] | None = None,
    combs: Mapping[int, tuple[int, float]] | None = None,
) -> PageText:
    """Assemble the page text of `visible` (kept glyphs in paint order) in one of MODES.

    `survivors`: a deduped run's survivors → the glyph each is written after in the
    content-stream orders (core/assembly/survivors.py; ClassifiedGlyphs.survivors).
    `combs`: annotation index of a comb text field → (cells, cell width): its cells are one word."""
    spans = span_index(actual_text, params.actual_text)
    # Every mode indexes the glyphs repeatedly: a lazy sequence is read once (a tuple is kept
    # as it is); plain mode reads lighter records of its own (glyph_table.flow_glyphs).
    with gc_paused():  # records made from the page's columns are many young objects: no collector passes
        if mode != Mode.PLAIN:
            visible = tuple(visible)
        text = _assemble(visible, mode, params, visible_box, structure, spans, survivors, combs)
        if params.visual_order or not text.text or RTL_CANDIDATE.search(text.text) is None:
            return text  # no right-to-left letters: the bidi pass is not even imported
        from glyphscope.core.assembly.bidi import logical_order

        return logical_order(text, _positions(visible))  # RTL lines


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
    survivors: Mapping[int, int] | None = None,
    combs: Mapping[int, tuple[int, float]] | None = None,
) -> PageText:
    # Each mode's module is imported when that mode is assembled (start-up time, issue 29).
    if mode == Mode.PLAIN:
        from glyphscope.core.assembly.plain import plain_text

        return plain_text(visible, params, spans=spans, survivors=survivors, combs=combs)
    if mode == Mode.LAYOUT:
        from glyphscope.core.assembly.layout import layout_text

        return layout_text(visible, params, visible_box, spans=spans)
    if mode == Mode.COLUMNS:
        from glyphscope.core.assembly.columns import columns_text

        return columns_text(visible, params, spans=spans)
    if mode == Mode.STRUCTURE:
        from glyphscope.core.assembly.structure_mode import structure_text

        return structure_text(visible, structure, params, spans=spans)
    if mode == Mode.ARTICLES:
        from glyphscope.core.assembly.articles import articles_text

        return articles_text(visible, structure, params, spans=spans)
    if mode == Mode.AUTO:
        from glyphscope.core.assembly.auto import auto_text

        return auto_text(visible, structure, params, spans=spans, survivors=survivors, combs=combs)
    raise ValueError(f"unknown text mode {mode!r}; expected one of {', '.join(MODES)}")


# Name → module, for the re-exported names of the TYPE_CHECKING block (a test keeps the two in step).
_LAZY = {
    "ActualTextDecision": "glyphscope.core.assembly.actual_text",
    "BidiDecision": "glyphscope.core.assembly.bidi",
    **dict.fromkeys(
        (
            "ArticleBeadRecord",
            "ArticleOrderDecision",
            "Baseline",
            "ColumnChangeDecision",
            "ColumnSplit",
            "Decision",
            "GridPlacement",
            "LayoutGrid",
            "LineBreakDecision",
            "StructureOrder",
            "TextColumn",
            "VerticalColumn",
            "WordGapDecision",
        ),
        "glyphscope.core.assembly.decisions",
    ),
    "document_text": "glyphscope.core.assembly.document_join",
    "write_document_text": "glyphscope.core.assembly.document_join",
}


_find = lazy_names(__name__, _LAZY)


def __getattr__(name: str) -> object:
    return _find(name)


__all__ = [
    "MODES",
    "Mode",
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
