"""Structure mode (spec §8, §9): MCID buckets in tree order, then the untagged tail."""

from __future__ import annotations

from collections.abc import Sequence

from glyphscope.core.assembly.actual_text import ActualTextSpans
from glyphscope.core.assembly.baselines import baseline_order
from glyphscope.core.assembly.decisions import StructureOrder
from glyphscope.core.assembly.flow import join_flow
from glyphscope.core.assembly.modes import Mode
from glyphscope.core.assembly.page_text import PageText, TextBuilder, no_text
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters
from glyphscope.core.structure import PageStructure
from glyphscope.core.structure_use import StructureUse, structure_use


def structure_text(
    visible: Sequence[Glyph],
    structure: PageStructure | None,
    params: Parameters,
    mode: str = Mode.STRUCTURE,
    use: StructureUse | None = None,
    spans: ActualTextSpans | None = None,
) -> PageText:
    """The page text in structure order; `use` is `structure_use(structure, visible)` when at hand."""
    if use is None:
        use = structure_use(structure, visible)
    if not use.usable:
        return no_text(mode, use.reason or "no structure")
    by_index = {g.paint_index: g for g in visible}
    out = TextBuilder(params, actual_text=spans)
    tagged = [by_index[i] for i in use.tagged]
    untagged = [by_index[i] for i in use.untagged]
    tail = baseline_order(untagged, params) if untagged else []
    order = StructureOrder(
        tuple(m for m, _ in use.buckets),
        len(tagged),
        len(tail),
        len(visible),
        tail[0].paint_index if tail else -1,
    )
    oi = out.decide(order)
    join_flow(tagged, out, params)
    if tail:
        out.newline(oi)  # the tail is separated from the structure text by "\n"
        join_flow(tail, out, params)
    return out.build(mode, structured=True if mode == Mode.AUTO else None, untagged=len(tail))
