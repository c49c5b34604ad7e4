"""Structure mode (spec §8, §9): MCID buckets in tree order, then the untagged tail."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from glyphscope.core.assembly.baselines import geometric_order
from glyphscope.core.assembly.decisions import StructureOrder
from glyphscope.core.assembly.flow import join_flow
from glyphscope.core.assembly.page_text import PageText, TextBuilder, no_text
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters
from glyphscope.core.structure import PageStructure


@dataclass(frozen=True, slots=True)
class StructureSplit:
    """The visible list divided by the tree: usable iff at least one bucket is non-empty."""

    buckets: tuple[tuple[int, tuple[Glyph, ...]], ...]  # (mcid, glyphs in paint order), tree order
    untagged: tuple[Glyph, ...]  # no MCID, or an MCID the tree never references
    reason: str | None  # why the structure is not usable, None when usable

    @property
    def usable(self) -> bool:
        return self.reason is None


def split_by_structure(visible: Sequence[Glyph], structure: PageStructure | None) -> StructureSplit:
    if structure is None or not structure.has_tree:
        return StructureSplit((), tuple(visible), "no structure: the document has no /StructTreeRoot")
    order = structure.mcid_order
    by_mcid: dict[int, list[Glyph]] = {m: [] for m in order}
    untagged: list[Glyph] = []
    for g in visible:
        bucket = by_mcid.get(g.mcid) if g.mcid is not None else None
        if bucket is None:
            untagged.append(g)
        else:
            bucket.append(g)
    buckets = tuple((m, tuple(by_mcid[m])) for m in order if by_mcid[m])
    reason = None
    if not order:
        reason = "no structure: the structure tree references no marked content on this page"
    elif not buckets:
        reason = "no structure: no visible glyph carries an MCID the structure tree references"
    return StructureSplit(buckets, tuple(untagged), reason)


def structure_text(
    visible: Sequence[Glyph], structure: PageStructure | None, params: Parameters, mode: str = "structure"
) -> PageText:
    split = split_by_structure(visible, structure)
    if split.reason is not None:
        return no_text(mode, split.reason)
    out = TextBuilder()
    tagged = [g for _, glyphs in split.buckets for g in glyphs]
    tail = geometric_order(split.untagged, params) if split.untagged else []
    order = StructureOrder(
        tuple(m for m, _ in split.buckets),
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
    return out.build(mode, structured=True if mode == "auto" else None, untagged=len(tail))
