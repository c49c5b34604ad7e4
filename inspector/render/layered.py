"""A page image with overlay layers: PDFium's page (inspector.render.page_images) and the
registry's shapes over it, drawn by the one headless painter (inspector.layers.painter, Pillow).

`glyphscope render --layers` and the HTML report's page images: the same pixels whether or
not the gui extra is installed (no Qt here, nor below).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from glyphscope.core.assembly.modes import Mode
from glyphscope.inspector.render.page_images import (
    DrawnPage,
    page_or_blank,
    paint_banner,
    png_bytes,
    render_page,
)
from glyphscope.inspector.render.renderer import page_matrix

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.core.params import Parameters


def draw_page(
    doc: Document,
    page_number: int,
    layers: Iterable[str],
    scale: float = 2.0,
    mode: str = Mode.PLAIN,
    params: Parameters | None = None,
    palette: bool = True,
) -> DrawnPage:
    """The page with `layers` drawn over it, as PNG (`palette`: 8-bit indexed colours, ~5× smaller).

    A page PDFium cannot draw is a blank page of its (clamped) size with a banner saying why
    (and the overlays), as in the window.
    """
    wanted = set(layers)
    facts = None
    boxes = None
    if wanted:  # the engine and the layers are loaded for pages that have overlays (start-up time)
        from glyphscope.core.analysis import analyze_page
        from glyphscope.core.params import DEFAULT_PARAMETERS
        from glyphscope.inspector.views.page_facts import PageFacts

        analysis = analyze_page(doc, page_number, params or DEFAULT_PARAMETERS)
        facts, boxes = PageFacts(analysis), analysis.page.boxes
    rendered = render_page(doc, page_number, scale, boxes)
    image = page_or_blank(rendered)
    if facts is not None:
        from glyphscope.inspector.layers.painter import draw_layers

        # RGB: Pillow blends a translucent stroke into an RGB image (into RGBA it would replace)
        draw_layers(image, facts, wanted, mode, page_matrix(rendered.frame, rendered.scale))
    if rendered.render_error:
        paint_banner(image, f"Page {page_number} {rendered.render_error}", rendered.scale)
    return DrawnPage(png_bytes(image, palette), image.width, image.height, rendered.render_error)


def page_png(
    doc: Document, page_number: int, layers: Iterable[str], scale: float = 2.0, palette: bool = True
) -> bytes:
    """`draw_page` as PNG bytes."""
    return draw_page(doc, page_number, layers, scale, palette=palette).png
