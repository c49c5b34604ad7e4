"""Rendering a page over its whole MediaBox, and the user-space → pixel mapping.

QtPdf's `QPdfDocument.render` draws the CropBox only. To show glyphs that
the visible box culls, we render an in-memory one-page copy whose CropBox
is widened to the MediaBox (pikepdf → bytes → QBuffer → QPdfDocument).
/Rotate stays on the copy, so PDFium rotates; `page_matrix` applies the same
rotation to user space, and the canvas, the overlays and the headless
renderer all use it.
"""

from __future__ import annotations

import io
import threading
import warnings
from pathlib import Path
from typing import Any

import pikepdf
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize
from PySide6.QtGui import QImage, QTransform
from PySide6.QtPdf import QPdfDocument, QPdfDocumentRenderOptions

from glyphscope.core.geometry import Matrix, Rect, multiply
from glyphscope.core.page import PageBoxes

MAX_RENDER_PIXELS = 40_000_000  # width × height cap of one rendered page image (~160 MB ARGB)


def display_size(boxes: PageBoxes, scale: float = 1.0) -> tuple[float, float]:
    """Width and height of the displayed (rotated) MediaBox at `scale` pixels per point."""
    x0, y0, x1, y1 = boxes.media_box
    w, h = (x1 - x0) * scale, (y1 - y0) * scale
    return (h, w) if boxes.rotate % 180 == 90 else (w, h)


def page_matrix(boxes: PageBoxes, scale: float = 1.0) -> Matrix:
    """User space → pixels of the displayed MediaBox (y down), /Rotate applied clockwise."""
    x0, y0, x1, y1 = boxes.media_box
    w, h = (x1 - x0) * scale, (y1 - y0) * scale
    unrotated: Matrix = (scale, 0.0, 0.0, -scale, -scale * x0, scale * y1)
    rotate = boxes.rotate % 360
    if rotate == 90:
        rotation: Matrix = (0.0, 1.0, -1.0, 0.0, h, 0.0)
    elif rotate == 180:
        rotation = (-1.0, 0.0, 0.0, -1.0, w, h)
    elif rotate == 270:
        rotation = (0.0, -1.0, 1.0, 0.0, 0.0, w)
    else:
        return unrotated
    return multiply(unrotated, rotation)


def page_transform(boxes: PageBoxes, scale: float = 1.0) -> QTransform:
    """`page_matrix` as a QTransform (same a b c d e f convention)."""
    a, b, c, d, e, f = page_matrix(boxes, scale)
    return QTransform(a, b, c, d, e, f)


def clamp_scale(boxes: PageBoxes, scale: float) -> float:
    w, h = display_size(boxes, scale)
    if w * h > MAX_RENDER_PIXELS:
        scale *= (MAX_RENDER_PIXELS / (w * h)) ** 0.5
    return max(scale, 0.05)


def _normalized(r: Rect) -> list[float]:
    return [min(r[0], r[2]), min(r[1], r[3]), max(r[0], r[2]), max(r[1], r[3])]


def single_page_pdf(pdf: pikepdf.Pdf, page_number: int, boxes: PageBoxes) -> bytes:
    """A one-page PDF of `page_number` whose CropBox is the whole MediaBox."""
    out = pikepdf.new()
    out.pages.append(pdf.pages[page_number - 1])
    page = out.pages[0].obj
    media = pikepdf.Array(_normalized(boxes.media_box))
    page["/MediaBox"] = media
    page["/CropBox"] = media
    page["/Rotate"] = int(boxes.rotate) % 360
    for key in ("/BleedBox", "/TrimBox", "/ArtBox"):
        if key in page:
            del page[key]
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        # pikepdf warns that copied widget annotations are unreachable from /AcroForm: irrelevant
        # for a throwaway copy that is only rendered.
        warnings.simplefilter("ignore")
        out.save(buffer, compress_streams=False, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    out.close()
    return buffer.getvalue()


def render_pdf_bytes(data: bytes, boxes: PageBoxes, scale: float) -> QImage:
    """Render page 1 of `data` to an ARGB image of the displayed MediaBox at `scale` px/pt."""
    w, h = display_size(boxes, scale)
    size = QSize(max(1, round(w)), max(1, round(h)))
    array = QByteArray(data)
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    document = QPdfDocument()
    try:
        document.load(buffer)
        if document.status() != QPdfDocument.Status.Ready or document.pageCount() < 1:
            raise RuntimeError(f"the page could not be rendered ({document.error().name})")
        options = QPdfDocumentRenderOptions()
        options.setRenderFlags(QPdfDocumentRenderOptions.RenderFlag.Annotations)
        image = document.render(0, size, options)
        if image.isNull():
            raise RuntimeError("the page could not be rendered (empty image)")
        return image
    finally:
        document.close()
        buffer.close()


class PageRenderer:
    """Renders pages of one file from its own pikepdf handle.

    The engine's Document holds its pikepdf.Pdf under its own lock while a
    worker interprets; opening the file a second time here lets rendering run
    in parallel without touching that object from another thread.
    """

    def __init__(self, source: str | Path | bytes, password: str | None = None) -> None:
        self._source = source
        self._password = password
        self._pdf: pikepdf.Pdf | None = None
        self._lock = threading.Lock()

    def _open(self) -> pikepdf.Pdf:
        if self._pdf is None:
            source: Any = self._source
            if isinstance(source, (bytes, bytearray)):
                source = io.BytesIO(bytes(source))
            self._pdf = pikepdf.open(source, password=self._password or "", suppress_warnings=True)
        return self._pdf

    def boxes(self, page_number: int) -> PageBoxes:
        """The page's boxes read from this handle (same rules as the engine: core.document.page_boxes)."""
        from glyphscope.core.document import page_boxes

        with self._lock:
            return page_boxes(self._open().pages[page_number - 1].obj)

    def page_bytes(self, page_number: int, boxes: PageBoxes) -> bytes:
        with self._lock:
            return single_page_pdf(self._open(), page_number, boxes)

    def render(self, page_number: int, boxes: PageBoxes, scale: float) -> QImage:
        return render_pdf_bytes(self.page_bytes(page_number, boxes), boxes, clamp_scale(boxes, scale))

    def close(self) -> None:
        with self._lock:
            if self._pdf is not None:
                self._pdf.close()
                self._pdf = None
