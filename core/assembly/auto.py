"""Auto mode (spec §9): structure order when the page's structure is trusted, else plain."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from glyphscope.core.assembly.page_text import PageText
from glyphscope.core.assembly.plain import plain_text
from glyphscope.core.assembly.structure_mode import structure_text
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters
from glyphscope.core.structure import PageStructure
from glyphscope.core.structure_use import structure_use


def auto_text(visible: Sequence[Glyph], structure: PageStructure | None, params: Parameters) -> PageText:
    use = structure_use(structure, visible)  # the trust rule lives there (UNTAGGED_TRUST_RATIO)
    if use.trusted:
        return structure_text(visible, structure, params, mode="auto", use=use)
    plain = plain_text(visible, params, mode="auto")
    untagged = len(use.untagged) if use.usable else None
    return replace(plain, structured=False, untagged=untagged, reason=use.reason)
