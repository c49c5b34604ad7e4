"""Headless rendering: a page with chosen overlay layers to a QImage (for `glyphscope render`).

Same code as the canvas: `rendering.page_transform` and `overlays.paint_layer`.
Needs a QGuiApplication; one is created on the offscreen platform if none exists.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from glyphscope.inspector.layers import LAYER_KEYS

_APP: Any = None


def ensure_gui_application() -> Any:
    global _APP
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _APP = app = QGuiApplication(["glyphscope-render"])
    return app


def parse_layers(spec: str | Iterable[str] | None) -> set[str]:
    """ "all", "none", or comma-separated layer keys; raises ValueError naming the valid keys."""
    if spec is None:
        return {
            k
            for k in LAYER_KEYS
            if k in ("page_boxes", "glyphs", "culled", "duplicates", "unresolved", "fallback")
        }
    items = [s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec) if s.strip()]
    if items == ["all"]:
        return set(LAYER_KEYS)
    if items in (["none"], []):
        return set()
    unknown = [i for i in items if i not in LAYER_KEYS]
    if unknown:
        raise ValueError(f"unknown layer(s) {', '.join(unknown)}; choose from {', '.join(LAYER_KEYS)}")
    return set(items)


def render_page_image(
    doc: Any,
    page_number: int,
    layers: set[str] | Iterable[str],
    scale: float = 2.0,
    mode: str = "plain",
    params: Any = None,
) -> Any:
    """The page (whole MediaBox) at `scale` pixels per point with `layers` drawn over it."""
    ensure_gui_application()
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter

    from glyphscope.core.analysis import analyze_page
    from glyphscope.core.params import DEFAULT_PARAMETERS
    from glyphscope.inspector.engine import PageFacts
    from glyphscope.inspector.gui.overlays import build_overlays, paint_layer
    from glyphscope.inspector.gui.rendering import (
        clamp_scale,
        display_size,
        page_transform,
        render_pdf_bytes,
        single_page_pdf,
    )

    analysis = analyze_page(doc, page_number, params or DEFAULT_PARAMETERS)
    boxes = analysis.page.boxes
    scale = clamp_scale(boxes, scale)
    w, h = display_size(boxes, scale)
    image = QImage(max(1, round(w)), max(1, round(h)), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("white"))
    page_image = render_pdf_bytes(single_page_pdf(doc.pdf, page_number, boxes), boxes, scale)
    facts = PageFacts(analysis)
    overlays = build_overlays(facts, mode)
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.drawImage(QRectF(0, 0, w, h), page_image)
        transform = page_transform(boxes, scale)
        exposed = QRectF(0, 0, w, h)
        wanted = set(layers)
        for key in LAYER_KEYS:
            if key in wanted:
                drawing = overlays.layer(key, mode)
                if drawing is not None:
                    paint_layer(painter, drawing, transform, exposed)
    finally:
        painter.end()
    return image
