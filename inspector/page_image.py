"""Headless page images through PDFium (pypdfium2) and Pillow: no Qt.

The image covers the page's whole MediaBox, as the window draws it (glyphs the CropBox
hides are shown too), with /Rotate applied and form fields drawn.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from PIL import Image


def render_page_image(
    source: str | Path | bytes | BinaryIO,
    page_number: int,
    *,
    scale: float = 1.0,
    password: str | None = None,
) -> Image.Image:
    """Page `page_number` (1-based) at `scale` pixels per point: the whole MediaBox, rotated."""
    import pypdfium2

    data = source if isinstance(source, (str, Path)) else _pdf_bytes(source)
    document = pypdfium2.PdfDocument(data, password=password)
    try:
        document.init_forms()
        page = document[page_number - 1]
        # PDFium draws the CropBox: widened to the MediaBox (in memory only) it shows the whole frame.
        page.set_cropbox(*page.get_mediabox())
        image = page.render(scale=scale, may_draw_forms=True).to_pil()
        page.close()
    finally:
        document.close()
    return image


def _pdf_bytes(source: bytes | BinaryIO) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    return source.read()
