"""Page images without a window: a page with chosen overlay layers (`glyphscope render`, HTML reports).

Same code as the canvas: `rendering.page_transform` and `overlays.paint_layer`.
Drawing needs a Qt application: `offscreen_app()` returns the running one or
starts one on the offscreen platform, without touching the environment. The
entry points that make images (`render`, `triage --html`) call it up front.
This module is the only way the Qt-free layer (`inspector.render_cli`,
`inspector.triage_cli`, `inspector.report_html`) reaches Qt, and only lazily
(pyproject.toml [tool.importlinter]).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter

from glyphscope.inspector.layers import LAYER_KEYS


def offscreen_app() -> QGuiApplication:
    """The running Qt application, or a new QGuiApplication on the offscreen platform.

    Images need no screen, so unless QT_QPA_PLATFORM chooses a platform, the
    new application is told `-platform offscreen` in its argv: no display is
    needed and the environment is never written. PySide keeps the application
    alive for the rest of the process.
    """
    app = QGuiApplication.instance()
    if isinstance(app, QGuiApplication):
        return app
    if app is not None:
        raise RuntimeError("a QCoreApplication without GUI support is running: page images need a GUI one")
    argv = ["glyphscope"]
    if not os.environ.get("QT_QPA_PLATFORM"):
        argv += ["-platform", "offscreen"]
    return QGuiApplication(argv)


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
    offscreen_app()

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


def png_bytes(image: QImage, palette: bool = True) -> bytes:
    """`image` as PNG; `palette` converts to 8-bit indexed colour (about 5× smaller, looks the same)."""
    if palette:
        flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
        image = image.convertToFormat(QImage.Format.Format_Indexed8, flags)
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buf, "PNG"):
        raise ValueError("the page image could not be encoded as PNG")
    buf.close()
    return bytes(data.data())


def page_png(
    doc: Any, page_number: int, layers: set[str] | Iterable[str], scale: float = 2.0, palette: bool = True
) -> bytes:
    """`render_page_image` as PNG bytes."""
    image = render_page_image(doc, page_number, layers, scale)
    if image is None or image.isNull():
        raise ValueError("the renderer returned an empty image")
    return png_bytes(image, palette)
