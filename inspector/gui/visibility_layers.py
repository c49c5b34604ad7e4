"""The overlay layers of the visibility classes, and the clip path of a selected glyph.

One layer per class a reader cannot see (inspector/layers.py VISIBILITY_LAYERS): the
glyph boxes outlined in the class's colour, and one marker per run of glyphs hidden for
the same reason, whose tooltip says why in words ("present but white on the white
page", "clipped by the path set at instruction 123").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainterPath, QPolygonF

from glyphscope.core.page import clip_paths
from glyphscope.core.visibility import MAX_CLIP_CHAIN, explain
from glyphscope.core.visibility_class import VisibilityClass
from glyphscope.inspector import layers as L
from glyphscope.inspector.engine import PageFacts
from glyphscope.inspector.gui import overlays as O

FILLS = {
    VisibilityClass.INVISIBLE_MODE: "#90a4ae",
    VisibilityClass.CLIPPED: "#ef9a9a",
    VisibilityClass.TRANSPARENT: "#b39ddb",
    VisibilityClass.SAME_AS_BACKGROUND: "#ffcc80",
    VisibilityClass.COVERED: "#a1887f",
}
CLIP_STYLE = O.Style("#c62828", 2.0, fill="#ef9a9a", fill_alpha=35, line_alpha=255, dash=True)
MAX_CLIPS_DRAWN = 8  # distinct clip paths drawn for one selection


def _builder(key: str) -> Callable[[PageFacts, dict[tuple[str, ...], str]], O.LayerDrawing]:
    def build(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> O.LayerDrawing:
        b = O._Builder(key, facts.page.boxes.media_box)
        style = O.Style(L.LAYER_BY_KEY[key].colour, 1.5, fill=FILLS[key], fill_alpha=70)
        glyphs = facts.page.glyphs
        vis = facts.classified.visibility
        records = [r for r in vis.records if r.kind == key] if vis is not None else []
        run: list[Any] = []
        for r in records:
            b.quad(style, glyphs[r.paint_index].quad)
            if run and (r.paint_index != run[-1].paint_index + 1 or explain(r) != explain(run[0])):
                _marker(b, facts, run)
                run = []
            run.append(r)
        if run:
            _marker(b, facts, run)
        return b.finish()

    return build


def _marker(b: O._Builder, facts: PageFacts, run: list[Any]) -> None:
    glyphs = facts.page.glyphs
    first = glyphs[run[0].paint_index]
    text = "".join(glyphs[r.paint_index].unicode for r in run[:60])
    fate = "dropped from text" if run[0].verdict == "dropped" else "still in the text"
    b.drawing.markers.append(
        O.Marker(
            O._centre(first.quad),
            f"{len(run)} glyph{'s' if len(run) != 1 else ''} “{text}”: {explain(run[0])} ({fate})",
            tuple(r.paint_index for r in run),
        )
    )


VISIBILITY_LAYER_BUILDERS = {key: _builder(key) for key in L.VISIBILITY_LAYERS}


def clip_path(facts: PageFacts | None, selection: Iterable[int]) -> QPainterPath:
    """The clip paths of the selected clipped glyphs, each path of the intersection (flattened, user space)."""
    path = QPainterPath()
    if facts is None:
        return path
    seen: set[int] = set()
    clips = facts.page.clips
    for i in sorted(selection):
        record = facts.visibility_record(i)
        if record is None or record.kind != VisibilityClass.CLIPPED or record.clip_id in seen:
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
