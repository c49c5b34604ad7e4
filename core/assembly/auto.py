"""Auto mode (spec §9): the one rule choosing the reading order of a page.

Structure order when the page's structure is usable and trusted; else article order
when the beads hold at least ARTICLE_SHARE of the visible glyphs; else plain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from glyphscope.core.assembly.actual_text import ActualTextSpans
from glyphscope.core.assembly.articles import ArticleUse, article_use, articles_text
from glyphscope.core.assembly.page_text import PageText
from glyphscope.core.assembly.plain import plain_text
from glyphscope.core.assembly.structure_mode import structure_text
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters
from glyphscope.core.structure import PageStructure
from glyphscope.core.structure_use import StructureUse, structure_use

AutoOrder = Literal["structure", "articles", "plain"]


def auto_order(structure: StructureUse, articles: ArticleUse) -> AutoOrder:
    """THE auto rule: structure if usable and trusted, else articles if the beads hold
    enough of the page, else plain. Every caller asks this function."""
    if structure.usable and structure.trusted:
        return "structure"
    if articles.usable:
        return "articles"
    return "plain"


def auto_text(
    visible: Sequence[Glyph],
    structure: PageStructure | None,
    params: Parameters,
    spans: ActualTextSpans | None = None,
) -> PageText:
    use = structure_use(structure, visible)  # the trust rule lives there (UNTAGGED_TRUST_RATIO)
    articles = article_use(structure, visible)
    order = auto_order(use, articles)
    if order == "structure":
        return replace(
            structure_text(visible, structure, params, mode="auto", use=use, spans=spans), order=order
        )
    untagged = len(use.untagged) if use.usable else None
    if order == "articles":
        text = articles_text(visible, structure, params, mode="auto", use=articles, spans=spans)
        reason = (
            f"{use.reason or 'structure order not trusted'}; article threads: {articles.decision.describe()}"
        )
        return replace(text, structured=False, untagged=untagged, reason=reason, order=order)
    return _as_auto(plain_text(visible, params, mode="auto", spans=spans), use)


def auto_from_plain(
    plain: PageText, structure: PageStructure | None, visible: Sequence[Glyph]
) -> PageText | None:
    """Auto mode's text made from plain mode's when auto reads in plain order (None when it
    does not): the same text and decisions, assembled once (the window reads every mode)."""
    use = structure_use(structure, visible)
    if auto_order(use, article_use(structure, visible)) != "plain":
        return None
    return _as_auto(plain, use)


def _as_auto(plain: PageText, use: StructureUse) -> PageText:
    untagged = len(use.untagged) if use.usable else None
    return replace(plain, mode="auto", structured=False, untagged=untagged, reason=use.reason, order="plain")
