"""Auto mode (spec §9): structure order iff usable and untagged × 4 ≤ total, else plain."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from glyphscope.core.assembly.page_text import PageText
from glyphscope.core.assembly.plain import plain_text
from glyphscope.core.assembly.structure_mode import structure_text
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters
from glyphscope.core.structure import PageStructure

UNTAGGED_RATIO = 4
"""Structure order is trusted when untagged × 4 ≤ total (spec §8): at most a quarter untagged."""


def auto_text(visible: Sequence[Glyph], structure: PageStructure | None, params: Parameters) -> PageText:
    tagged = structure_text(visible, structure, params, mode="auto")
    if tagged.text is None:
        return replace(plain_text(visible, params, mode="auto"), structured=False, reason=tagged.reason)
    untagged = tagged.untagged or 0
    total = len(visible)
    if untagged * UNTAGGED_RATIO <= total:
        return tagged
    reason = f"too much untagged text: {untagged} × {UNTAGGED_RATIO} > {total} visible glyphs"
    return replace(
        plain_text(visible, params, mode="auto"), structured=False, untagged=untagged, reason=reason
    )
