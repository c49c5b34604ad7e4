"""Auto mode (spec §9): the one rule choosing the reading order of a page.

Structure order when the page's structure is usable and trusted; else article order
when the beads hold at least ARTICLE_SHARE of the visible glyphs; else, when plain's
content-stream order is scrambled (core/assembly/reading_order.py), a geometric order with
a `reading_order` decision; else plain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from glyphscope.core.assembly.actual_text import ActualTextSpans
from glyphscope.core.assembly.annotation_order import annotation_places, annotations_in_place
from glyphscope.core.assembly.articles import ArticleUse, article_use, articles_text
from glyphscope.core.assembly.baselines import dominant_frame
from glyphscope.core.assembly.decisions import ReadingOrderDecision
from glyphscope.core.assembly.flow import join_flow
from glyphscope.core.assembly.modes import Mode, ReadingOrder
from glyphscope.core.assembly.page_text import PageText, TextBuilder
from glyphscope.core.assembly.plain import join_with_annotations, plain_text
from glyphscope.core.assembly.reading_order import geometric_order, scramble_measure
from glyphscope.core.assembly.structure_mode import structure_text
from glyphscope.core.assembly.verdicts import ReadingVerdict
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters
from glyphscope.core.structure import PageStructure
from glyphscope.core.structure_use import StructureUse, structure_use


def auto_order(
    structure: StructureUse, articles: ArticleUse, reading: ReadingOrderDecision | None = None
) -> ReadingOrder:
    """THE auto rule: structure if usable and trusted, else articles if the beads hold
    enough of the page, else geometric if the stream order is scrambled (`reading`, the
    measure of reading_order.scramble_measure), else plain. Every caller asks this function."""
    if structure.usable and structure.trusted:
        return ReadingOrder.STRUCTURE
    if articles.usable:
        return ReadingOrder.ARTICLES
    if reading is not None and reading.verdict == ReadingVerdict.GEOMETRIC:
        return ReadingOrder.GEOMETRIC
    return ReadingOrder.PLAIN


def reading_measure(visible: Sequence[Glyph], params: Parameters) -> ReadingOrderDecision:
    """The scramble measure of plain mode's order (annotations where a reader meets them)."""
    flow = annotations_in_place(visible, params)
    return scramble_measure(flow, dominant_frame(flow), params.line_break)


def auto_text(
    visible: Sequence[Glyph],
    structure: PageStructure | None,
    params: Parameters,
    spans: ActualTextSpans | None = None,
    survivors: Mapping[int, int] | None = None,
    combs: Mapping[int, tuple[int, float]] | None = None,
) -> PageText:
    use = structure_use(structure, visible)  # the trust rule lives there (UNTAGGED_TRUST_RATIO)
    articles = article_use(structure, visible)
    order = auto_order(use, articles)
    if order == ReadingOrder.STRUCTURE:
        return replace(
            structure_text(visible, structure, params, mode=Mode.AUTO, use=use, spans=spans), order=order
        )
    untagged = len(use.untagged) if use.usable else None
    reading = None
    if order == ReadingOrder.PLAIN:
        reading = reading_measure(visible, params)
        order = auto_order(use, articles, reading)
    if order == ReadingOrder.GEOMETRIC and reading is not None:
        out = TextBuilder(params, actual_text=spans)
        out.decide(reading)
        # the page's glyphs in reading order; annotation text where a reader meets it in that
        # order, never inside a page word, and comb fields as one word (as plain places them)
        page = [g for g in visible if g.annotation < 0]
        ordered = (
            geometric_order(page, params) if len(page) < len(visible) else geometric_order(visible, params)
        )
        if len(page) < len(visible):
            placed, moved = annotation_places([*ordered, *(g for g in visible if g.annotation >= 0)], params)
            join_with_annotations(placed, moved, combs or {}, out, params)
        else:
            join_flow(ordered, out, params)
        reason = f"{use.reason or 'structure order not trusted'}; {reading.describe()}"
        return replace(out.build(Mode.AUTO), structured=False, untagged=untagged, reason=reason, order=order)
    if order == ReadingOrder.ARTICLES:
        text = articles_text(visible, structure, params, mode=Mode.AUTO, use=articles, spans=spans)
        reason = (
            f"{use.reason or 'structure order not trusted'}; article threads: {articles.decision.describe()}"
        )
        return replace(text, structured=False, untagged=untagged, reason=reason, order=order)
    return _as_auto(
        plain_text(visible, params, mode=Mode.AUTO, spans=spans, survivors=survivors, combs=combs), use
    )


def auto_from_plain(
    plain: PageText, structure: PageStructure | None, visible: Sequence[Glyph], params: Parameters
) -> PageText | None:
    """Auto mode's text made from plain mode's when auto reads in plain order (None when it
    does not): the same text and decisions, assembled once (the window reads every mode)."""
    use = structure_use(structure, visible)
    articles = article_use(structure, visible)
    if auto_order(use, articles) != ReadingOrder.PLAIN:
        return None
    if auto_order(use, articles, reading_measure(visible, params)) != ReadingOrder.PLAIN:
        return None
    return _as_auto(plain, use)


def _as_auto(plain: PageText, use: StructureUse) -> PageText:
    untagged = len(use.untagged) if use.usable else None
    return replace(
        plain,
        mode=Mode.AUTO,
        structured=False,
        untagged=untagged,
        reason=use.reason,
        order=ReadingOrder.PLAIN,
    )
