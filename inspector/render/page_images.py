"""Headless page images: PDFium's rendering (inspector.render.renderer, in its own process) as
Pillow images and PNGs. No Qt: `render`, `triage --html`, `page.to_image()` and the OCR
cross-check work without the gui extra.

The image covers the page's whole MediaBox, as the window draws it (glyphs the CropBox
hides are shown too), with /Rotate applied and form fields drawn. The overlay layers are
drawn over it by inspector.render.layered.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import pikepdf

from glyphscope.inspector.render.renderer import (
    DocumentMismatch,
    DocumentPage,
    Pixels,
    RenderFailed,
    clamp_scale,
    frame_boxes,
    media_display_size,
    page_size_problem,
    render_failure,
    render_pdf_bytes,
    render_pixels,
    render_service,
    single_page_pdf,
)

if TYPE_CHECKING:
    from PIL import Image

    from glyphscope.core.document import Document
    from glyphscope.core.page import PageBoxes

# What makes a page's image fail, besides the renderer's own RenderFailed: copying the page.
_COPY_ERRORS = (pikepdf.PdfError, RuntimeError, ValueError, TypeError, KeyError, IndexError)


class PageImageError(Exception):
    """No image of the page: `str(exc)` says why in one line."""


@dataclass(frozen=True)
class RenderedPage:
    """PDFium's image of a page (None when it could not be drawn, with the reason) and its
    frame: the boxes and scale every overlay is laid out with (inspector.render.renderer.page_matrix)."""

    pixels: Pixels | None
    render_error: str | None
    frame: PageBoxes
    scale: float
    width: int
    height: int


@dataclass(frozen=True)
class DrawnPage:
    """A page drawn for `render` or the HTML report: the PNG, its size and why the page itself
    is missing (None when rendered)."""

    png: bytes
    width: int
    height: int
    render_error: str | None = None


def render_page(
    doc: Document, page_number: int, scale: float, boxes: PageBoxes | None = None
) -> RenderedPage:
    """Page `page_number` of `doc` at `scale` px/pt (clamped): never raises for the page's content."""
    boxes = doc.page_boxes(page_number) if boxes is None else boxes
    frame = frame_boxes(boxes)
    scale = clamp_scale(boxes, scale)
    w, h = media_display_size(frame, scale)
    width, height = max(1, round(w)), max(1, round(h))
    try:
        problem = page_size_problem(boxes)
        if problem is not None:
            raise RenderFailed(problem)
        pixels: Pixels | None = render_pdf_bytes(single_page_pdf(doc.pdf, page_number, boxes), boxes, scale)
        error = None
    except (RenderFailed, *_COPY_ERRORS) as exc:
        pixels, error = None, render_failure(exc)
    return RenderedPage(pixels, error, frame, scale, width, height)


def page_or_blank(rendered: RenderedPage) -> Image.Image:
    """The rendered page as an RGB Pillow image, or a white page of its size when it has none."""
    from PIL import Image

    if rendered.pixels is None:
        return Image.new("RGB", (rendered.width, rendered.height), "white")
    return rendered.pixels.to_pil().convert("RGB")


def paint_banner(image: Image.Image, text: str, scale: float = 2.0) -> None:
    """The window's page banner (gui.page_banner's colours) drawn with Pillow: top-left, wrapped."""
    import textwrap

    from PIL import ImageDraw, ImageFont

    size = max(13, min(40, round(6.5 * scale)))
    font = ImageFont.load_default(size)
    margin = 8
    chars = max(10, int(min(260.0 * scale, image.width - 2 * margin) / (0.55 * size)))
    lines = textwrap.wrap(text, chars) or [text]
    draw = ImageDraw.Draw(image)
    body = "\n".join(lines)
    left, top, right, bottom = draw.multiline_textbbox((margin + 6, margin + 4), body, font=font)
    draw.rounded_rectangle(
        (margin, margin, right + 6, bottom + 4), radius=4, fill=(255, 243, 205), outline=(0xB2, 0x6A, 0x00)
    )
    draw.multiline_text((margin + 6, margin + 4), body, fill=(0x4E, 0x34, 0x2E), font=font)


def png_bytes(image: Image.Image, palette: bool = True) -> bytes:
    """`image` as PNG; `palette` converts to 8-bit indexed colour (smaller, looks the same)."""
    if palette:
        image = image.convert("RGB").quantize(256)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def render_page_image(
    source: str | Path | bytes | BinaryIO,
    page_number: int,
    *,
    scale: float = 1.0,
    password: str | None = None,
) -> Image.Image:
    """Page `page_number` (1-based) at `scale` pixels per point: the whole MediaBox, rotated, form
    fields drawn (RGBA). PageImageError with the reason when the page has no image."""
    from glyphscope.core.document import read_page_boxes
    from glyphscope.core.page_tree_repair import open_pdf

    data: str | Path | BinaryIO = (
        io.BytesIO(bytes(source)) if isinstance(source, (bytes, bytearray)) else source
    )
    try:
        pdf = open_pdf(data, password or "")
    except (pikepdf.PdfError, OSError, ValueError) as exc:
        raise PageImageError(
            f"the PDF could not be opened for rendering ({type(exc).__name__}: {exc})"
        ) from None
    try:
        if not 1 <= page_number <= len(pdf.pages):
            raise PageImageError(
                f"page {page_number} is out of range: the document has {len(pdf.pages)} page(s)"
            )
        try:
            boxes = read_page_boxes(pdf.pages[page_number - 1].obj)
            problem = page_size_problem(boxes)
            if problem is not None:
                raise RenderFailed(problem)
            pixels = render_pdf_bytes(single_page_pdf(pdf, page_number, boxes), boxes, scale)
        except (RenderFailed, *_COPY_ERRORS) as exc:
            raise PageImageError(f"page {page_number} {render_failure(exc)}") from None
    finally:
        pdf.close()
    return pixels.to_pil()


def render_open_page(
    doc: Document,
    page_number: int,
    *,
    scale: float = 1.0,
    key: str,
    source: str | Path | bytes,
    password: str | None = None,
) -> Image.Image:
    """Page `page_number` (1-based) of the open `doc` at `scale` pixels per point, as
    `render_page_image` draws it, without opening the file again: a warm renderer process keeps
    the document (`key` names it; `source` is its path or bytes, sent once) and draws the page
    framed as the one-page copy is. Where PDFium counts the pages otherwise (a page tree the
    engine repaired), the page goes as a one-page copy from `doc`. PageImageError with the
    reason when the page has no image."""
    boxes = doc.page_boxes(page_number)
    problem = page_size_problem(boxes)
    if problem is not None:
        raise PageImageError(f"page {page_number} {render_failure(RenderFailed(problem))}")
    width, height = render_pixels(boxes, scale)
    pixels: Pixels | None = None
    if not doc.page_tree_repair:
        request = DocumentPage(
            key=key,
            path=str(source) if isinstance(source, (str, Path)) else None,
            data=bytes(source) if isinstance(source, (bytes, bytearray)) else None,
            password=password,
            page_number=page_number,
            page_count=doc.page_count,
            media_box=boxes.media_box,
            rotate=boxes.rotate,
        )
        try:
            pixels = render_service().render_document(request, width, height)
        except DocumentMismatch:
            pixels = None
        except RenderFailed as exc:
            raise PageImageError(f"page {page_number} {render_failure(exc)}") from None
    if pixels is None:
        try:
            with doc.locked():
                data = single_page_pdf(doc.pdf, page_number, boxes)
            pixels = render_pdf_bytes(data, boxes, scale)
        except (RenderFailed, *_COPY_ERRORS) as exc:
            raise PageImageError(f"page {page_number} {render_failure(exc)}") from None
    return pixels.to_pil()
