"""Articles mode: the page read bead by bead along its article threads.

Each visible glyph goes to the first bead (in thread order) whose rectangle holds its
box centre; beads are read in thread order, each in plain (paint) order with the
pair rules, one line break between beads; glyphs in no bead follow in plain order.
Auto mode reads this order when the structure is not trusted and the beads hold at
least ARTICLE_SHARE of the visible glyphs (core/assembly/auto.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from glyphscope.core.article_threads import Bead
from glyphscope.core.assembly.actual_text import ActualTextSpans
from glyphscope.core.assembly.decisions import ArticleBeadRecord, ArticleOrderDecision
from glyphscope.core.assembly.flow import join_flow
from glyphscope.core.assembly.modes import Mode
from glyphscope.core.assembly.page_text import PageText, TextBuilder
from glyphscope.core.glyph import FlowFields, Glyph
from glyphscope.core.params import Parameters
from glyphscope.core.structure import PageStructure

ARTICLE_SHARE = 0.5
"""Auto mode reads bead order when the beads hold at least this share of the page's visible
glyphs (spaces included, as for the structure rule): a page with one small boxed article
among much other text keeps plain order."""


@dataclass(frozen=True, slots=True)
class ArticleUse:
    """The visible glyphs divided by the page's beads."""

    beads: tuple[Bead, ...]
    members: tuple[tuple[Glyph, ...], ...]  # per bead, paint order
    rest: tuple[Glyph, ...]  # in no bead, paint order
    decision: ArticleOrderDecision

    @property
    def usable(self) -> bool:
        return self.decision.usable


def article_use(structure: PageStructure | None, visible: Sequence[Glyph]) -> ArticleUse:
    beads = structure.beads if structure is not None else ()
    members: list[list[Glyph]] = [[] for _ in beads]
    rest: list[Glyph] = []
    for g in visible:
        x, y = g.center
        for i, bead in enumerate(beads):
            if bead.contains(x, y):
                members[i].append(g)
                break
        else:
            rest.append(g)
    in_beads = len(visible) - len(rest)
    decision = ArticleOrderDecision(len(beads), in_beads, len(visible), ARTICLE_SHARE)
    return ArticleUse(beads, tuple(tuple(m) for m in members), tuple(rest), decision)


def _quad(bead: Bead) -> tuple[tuple[float, float], ...]:
    x0, y0, x1, y1 = bead.rect
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def articles_text(
    visible: Sequence[Glyph],
    structure: PageStructure | None,
    params: Parameters,
    mode: str = Mode.ARTICLES,
    use: ArticleUse | None = None,
    spans: ActualTextSpans | None = None,
) -> PageText:
    """The page text in article-bead order; without beads, plain order (reason says so)."""
    if use is None:
        use = article_use(structure, visible)
    out = TextBuilder(params, actual_text=spans)
    oi = out.decide(use.decision)
    prev: FlowFields | None = None
    for n, (bead, members) in enumerate(zip(use.beads, use.members)):
        quad = _quad(bead)
        bi = out.decide(
            ArticleBeadRecord(n + 1, bead.thread, bead.index, quad, tuple(g.paint_index for g in members))  # type: ignore[arg-type]
        )
        if not members:
            continue
        out.newline(bi)  # one line break between beads (none before the first)
        prev = join_flow(members, out, params)
    if use.rest:
        if prev is not None:
            out.newline(oi)
        join_flow(use.rest, out, params)
    reason = None if use.beads else "no article beads on this page"
    return out.build(mode, reason=reason)
