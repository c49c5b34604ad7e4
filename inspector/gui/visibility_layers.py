"""The clip path of a selected clipped glyph, drawn on the canvas over the layers.

The visibility classes' own layers (one per class a reader cannot see) are declared in the
layer registry (inspector/layers/registry.py) and drawn Qt-free (inspector/layers/builders.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainterPath, QPolygonF

from glyphscope.core.page import clip_paths
from glyphscope.core.visibility import MAX_CLIP_CHAIN, ClippedDecision
from glyphscope.inspector.layers.shapes import Style
from glyphscope.inspector.views.page_facts import PageFacts

CLIP_STYLE = Style("#c62828", 2.0, line_alpha=255, dash=True)  # an outline: the letters inside stay readable
MAX_CLIPS_DRAWN = 8  # distinct clip paths drawn for one selection


def clip_path(facts: PageFacts | None, selection: Iterable[int]) -> QPainterPath:
    """The clip paths of the selected clipped glyphs, each path of the intersection (flattened, user space)."""
    path = QPainterPath()
    if facts is None:
        return path
    seen: set[int] = set()
    clips = facts.page.clips
    for i in sorted(selection):
        record = facts.fates.visibility_record(i)
        if not isinstance(record, ClippedDecision) or record.clip_id in seen:
            continue
        seen.add(record.clip_id)
        if len(seen) > MAX_CLIPS_DRAWN:
            break
        for clip_path_ in clip_paths(clips, record.clip_id, MAX_CLIP_CHAIN):
            for poly in clip_path_.polygons:
                if len(poly) >= 2:
                    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in (*poly, poly[0])]))
                    path.closeSubpath()
    return path
