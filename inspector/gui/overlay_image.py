"""Overlays drawn over PDFium's page image without a window (`glyphscope render`, HTML reports).

The page itself comes from the one renderer (inspector.render.page_images.render_page: PDFium in
its own process); Qt only draws the overlays over it, with the canvas's own code
(`rendering.page_transform` and `overlays.paint_layer`), so they line up with the glyphs
exactly as in the window. Drawing needs a Qt application: `offscreen_app()` returns the
running one or starts one on the offscreen platform, without touching the environment.
This module is the only way the Qt-free layer (`inspector.render.page_images`) reaches Qt, and
only lazily (pyproject.toml [tool.importlinter]).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QImage, QPainter, QPen

from glyphscope.inspector.layers import registry as L
from glyphscope.inspector.layers.registry import LAYER_KEYS
from glyphscope.inspector.layers.shapes import LabelSpace
from glyphscope.inspector.render.page_images import DrawnPage

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.core.params import Parameters


def offscreen_app() -> QGuiApplication:
    """The running Qt application, or a new QGuiApplication on the offscreen platform.

    Images need no screen, so unless QT_QPA_PLATFORM chooses a platform, the
    new application is told `-platform offscreen` in its argv: no display is
    needed and the environment is never written. PySide keeps the application
    alive for the rest of the process. It is a QApplication (widgets), not a bare
    QGuiApplication: Qt allows one application per process, and a window or
    dialog opened later in the same process (a notebook, a test run) needs one.
    """
    from PySide6.QtWidgets import QApplication

    app = QGuiApplication.instance()
    if isinstance(app, QGuiApplication):
        return app
    if app is not None:
        raise RuntimeError("a QCoreApplication without GUI support is running: page images need a GUI one")
    argv = ["glyphscope"]
    if not os.environ.get("QT_QPA_PLATFORM"):
        argv += ["-platform", "offscreen"]
    return QApplication(argv)


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


@dataclass(frozen=True)
class PageImage:
    """A drawn page: the image, and why the page itself is missing from it (None when rendered)."""

    image: QImage
    render_error: str | None = None


def render_page_image(
    doc: Document,
    page_number: int,
    layers: set[str] | Iterable[str],
    scale: float = 2.0,
    mode: str = "plain",
    params: Parameters | None = None,
) -> QImage:
    """The page (whole MediaBox) at `scale` pixels per point with `layers` drawn over it."""
    return draw_page(doc, page_number, layers, scale, mode, params).image


def draw_page(
    doc: Document,
    page_number: int,
    layers: set[str] | Iterable[str],
    scale: float = 2.0,
    mode: str = "plain",
    params: Parameters | None = None,
) -> PageImage:
    """`render_page_image` with the render failure: a page the renderer cannot draw (it crashed,
    overran its time, or the MediaBox is not a usable size) is a blank page of its (clamped)
    size with the overlays and a banner saying why, as in the window."""
    offscreen_app()

    from glyphscope.core.analysis import analyze_page
    from glyphscope.core.params import DEFAULT_PARAMETERS
    from glyphscope.inspector.gui.overlays import build_overlays, paint_layer
    from glyphscope.inspector.gui.rendering import page_transform, qimage
    from glyphscope.inspector.render.page_images import render_page
    from glyphscope.inspector.views.page_facts import PageFacts

    analysis = analyze_page(doc, page_number, params or DEFAULT_PARAMETERS)
    rendered = render_page(doc, page_number, scale, analysis.page.boxes)
    frame, scale, w, h = rendered.frame, rendered.scale, rendered.width, rendered.height
    image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("white"))
    page_image = qimage(rendered.pixels) if rendered.pixels is not None else None
    render_error = rendered.render_error
    facts = PageFacts(analysis)
    overlays = build_overlays(facts, mode)
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if page_image is not None:
            painter.drawImage(QRectF(0, 0, w, h), page_image)
        transform = page_transform(frame, scale)
        exposed = QRectF(0, 0, w, h)
        space = LabelSpace()  # as the window: labels off the letters and off each other
        for key in L.keys_in_order(layers):
            drawing = overlays.layer(key, mode)
            if drawing is not None:
                ink = overlays.hit_index.grid if drawing.labels else None
                paint_layer(painter, drawing, transform, exposed, ink, space)
        if render_error:
            paint_banner(painter, f"Page {page_number} {render_error}", QRectF(0, 0, w, h), scale)
    finally:
        painter.end()
    return PageImage(image, render_error)


def paint_banner(painter: QPainter, text: str, page: QRectF, scale: float = 2.0) -> None:
    """The window's page banner (gui.page_banner) drawn into an image: top-left, wrapped."""
    from glyphscope.inspector.gui.page_banner import BANNER_BACKGROUND, BANNER_BORDER, BANNER_TEXT

    margin = 8.0
    width = max(40.0, min(260.0 * scale, page.width() - 2 * margin))
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
    painter.save()
    font = QFont()
    font.setPixelSize(max(13, min(40, round(6.5 * scale))))
    painter.setFont(font)
    bounds = painter.boundingRect(QRectF(0, 0, width - 12, 10_000), flags, text)
    box = QRectF(page.left() + margin, page.top() + margin, bounds.width() + 12, bounds.height() + 8)
    painter.setPen(QPen(BANNER_BORDER, 1.0))
    painter.setBrush(BANNER_BACKGROUND)
    painter.drawRoundedRect(box, 4, 4)
    painter.setPen(BANNER_TEXT)
    painter.drawText(box.adjusted(6, 4, -6, -4), flags, text)
    painter.restore()


def draw_png(
    doc: Document,
    page_number: int,
    layers: set[str] | Iterable[str],
    scale: float = 2.0,
    mode: str = "plain",
    params: Parameters | None = None,
    palette: bool = True,
) -> DrawnPage:
    """`draw_page` as inspector.render.page_images.DrawnPage (PNG bytes)."""
    drawn = draw_page(doc, page_number, layers, scale, mode, params)
    image = drawn.image
    return DrawnPage(png_bytes(image, palette), image.width(), image.height(), drawn.render_error)


def png_bytes(image: QImage, palette: bool = True) -> bytes:
    """`image` as PNG; `palette` converts to 8-bit indexed colour (about 5× smaller, looks the same)."""
    if palette:
        flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
        image = image.convertToFormat(QImage.Format.Format_Indexed8, flags)
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    saved: bool = image.save(buf, "PNG")  # type: ignore[call-overload]  # takes a str; the stub: bytes
    if not saved:
        raise ValueError("the page image could not be encoded as PNG")
    buf.close()
    return bytes(data.data())
