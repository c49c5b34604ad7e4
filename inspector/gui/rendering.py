"""The window's side of the renderer: PDFium's pixels (inspector.render.renderer) as QImages.

The page is drawn by PDFium in the renderer process (inspector.render.worker); Qt only
wraps the RGBA bytes it sends back in a QImage for display, and maps user space to
the scene with `page_transform` (inspector.render.renderer.page_matrix as a QTransform).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QImage, QTransform

from glyphscope.core.page import PageBoxes
from glyphscope.inspector.render import renderer as _rendering
from glyphscope.inspector.render.renderer import (
    FALLBACK_FRAME,
    MAX_PAGE_SIDE,
    MAX_RENDER_PIXELS,
    MIN_RENDER_SCALE,
    Pixels,
    RenderFailed,
    clamp_scale,
    frame_boxes,
    media_display_size,
    page_matrix,
    page_size_problem,
    render_failure,
    render_pixels,
    render_service,
    single_page_pdf,
)

__all__ = [
    "FALLBACK_FRAME",
    "MAX_PAGE_SIDE",
    "MAX_RENDER_PIXELS",
    "MIN_RENDER_SCALE",
    "QtPageRenderer",
    "RenderFailed",
    "clamp_scale",
    "media_display_size",
    "frame_boxes",
    "page_matrix",
    "page_size_problem",
    "page_transform",
    "qimage",
    "render_failure",
    "qimage_of_pdf_bytes",
    "render_pixels",
    "render_service",
    "single_page_pdf",
]


def page_transform(boxes: PageBoxes, scale: float = 1.0) -> QTransform:
    """`page_matrix` as a QTransform (same a b c d e f convention)."""
    a, b, c, d, e, f = page_matrix(boxes, scale)
    return QTransform(a, b, c, d, e, f)


def qimage(pixels: Pixels) -> QImage:
    """The renderer's RGBA pixels as a QImage that owns them."""
    image = QImage(
        pixels.data, pixels.width, pixels.height, pixels.bytes_per_line, QImage.Format.Format_RGBA8888
    ).copy()  # copy: own the pixels
    if image.isNull():
        raise RenderFailed("the renderer returned an empty image")
    return image


def qimage_of_pdf_bytes(
    data: bytes, boxes: PageBoxes, scale: float, should_stop: Callable[[], bool] | None = None
) -> QImage:
    """inspector.render.renderer.render_pdf_bytes as a QImage."""
    return qimage(_rendering.render_pdf_bytes(data, boxes, scale, should_stop))


class QtPageRenderer(_rendering.PageRenderer):
    """inspector.render.renderer.PageRenderer whose images are QImages (the canvas shows them)."""

    def render(  # type: ignore[override]
        self, page_number: int, boxes: PageBoxes, scale: float, should_stop: Callable[[], bool] | None = None
    ) -> QImage:
        return qimage(super().render(page_number, boxes, scale, should_stop))
