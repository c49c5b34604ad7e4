"""Whether a page's structure tree can order its text (spec §8, §9): the rule, written once.

Structure mode, auto mode, the structure findings and triage all ask the same
questions of a page — which visible glyphs does the tree reach, how many does
it miss, may reading order follow the tree — and all get the answer from
`structure_use(structure, visible)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from glyphscope.core.glyph import Glyph
from glyphscope.core.glyph_table import paint_indices
from glyphscope.core.structure import PageStructure

UNTAGGED_TRUST_RATIO = 4
"""Structure order is trusted when untagged × 4 ≤ total (spec §8): at most a quarter of the page's
visible glyphs may lie outside the tree. Past that, the untagged tail (appended in geometric order)
is a large part of the text, so "structure order" would mostly be our own guess; auto mode then
prefers the producer's content-stream order."""

NO_TREE = "no structure: the document has no /StructTreeRoot"
NO_PAGE_MCIDS = "no structure: the structure tree references no marked content on this page"
NO_TAGGED_GLYPH = "no structure: no visible glyph carries an MCID the structure tree references"


@dataclass(frozen=True, slots=True)
class StructureUse:
    """The visible glyph list divided by the structure tree, and what that allows.

    Counts are over the visible glyph list, spaces included (spec §9).
    """

    has_tree: bool  # the document has a /StructTreeRoot
    buckets: tuple[tuple[int, tuple[int, ...]], ...]  # (MCID, paint indices in paint order), tree order
    untagged: tuple[int, ...]  # paint indices: no MCID, or an MCID the tree never references
    total: int  # visible glyphs
    reason: str | None  # why structure order is not usable or not trusted; None when trusted

    @property
    def tagged(self) -> tuple[int, ...]:
        """Paint indices of the tagged glyphs in structure order (bucket by bucket)."""
        return tuple(i for _, indices in self.buckets for i in indices)

    @property
    def usable(self) -> bool:
        """At least one MCID of this page in the tree is carried by a visible glyph (spec §9)."""
        return bool(self.buckets)

    @property
    def trusted(self) -> bool:
        """Usable, and untagged × UNTAGGED_TRUST_RATIO ≤ total: auto mode follows the tree."""
        return self.usable and is_trusted_share(len(self.untagged), self.total)

    def to_json(self) -> dict[str, object]:
        return {
            "has_tree": self.has_tree,
            "mcid_order": [m for m, _ in self.buckets],
            "tagged": len(self.tagged),
            "untagged": len(self.untagged),
            "total": self.total,
            "usable": self.usable,
            "trusted": self.trusted,
            "reason": self.reason,
        }


def is_trusted_share(untagged: int, total: int) -> bool:
    """The ratio test alone: untagged × UNTAGGED_TRUST_RATIO ≤ total."""
    return untagged * UNTAGGED_TRUST_RATIO <= total


def structure_use(structure: PageStructure | None, visible: Sequence[Glyph]) -> StructureUse:
    """Divide `visible` (kept glyphs, paint order) by the page's structure tree."""
    if structure is None or not structure.has_tree:
        return StructureUse(False, (), paint_indices(visible), len(visible), NO_TREE)
    order = structure.mcid_order
    by_mcid: dict[int, list[int]] = {m: [] for m in order}
    untagged: list[int] = []
    for g in visible:
        bucket = by_mcid.get(g.mcid) if g.mcid is not None else None
        if bucket is None:
            untagged.append(g.paint_index)
        else:
            bucket.append(g.paint_index)
    buckets = tuple((m, tuple(by_mcid[m])) for m in order if by_mcid[m])
    total = len(visible)
    reason: str | None = None
    if not order:
        reason = NO_PAGE_MCIDS
    elif not buckets:
        reason = NO_TAGGED_GLYPH
    elif not is_trusted_share(len(untagged), total):
        reason = f"too much untagged text: {len(untagged)} × {UNTAGGED_TRUST_RATIO} > {total} visible glyphs"
    return StructureUse(True, buckets, tuple(untagged), total, reason)
