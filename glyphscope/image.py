"""A page image to draw on (Pillow, no Qt): `page.to_image()`.

The image is PDFium's rendering of the page's whole MediaBox with /Rotate applied, the
frame the window shows (glyphs the CropBox hides included); a crop's image is cut to the
crop. Drawing takes the object model's top-left coordinates (records' `x0, top, x1,
bottom`) or, for glyph quads, PDF user space, and maps both onto the pixels with the
page geometry of glyphscope/core/page_space.py.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from PIL import Image, ImageDraw

from glyphscope.core.assembly.decisions import LineBreakDecision, WordGapDecision
from glyphscope.core.assembly.modes import Mode
from glyphscope.core.assembly.verdicts import LineBreakVerdict, WordGapVerdict
from glyphscope.core.geometry import Matrix, Point, Quad, apply, invert, multiply
from glyphscope.core.page_space import display_matrix, display_size, quad_bbox
from glyphscope.inspector.render.page_images import render_open_page

if TYPE_CHECKING:
    from glyphscope.model import BBox, Page, Record
    from glyphscope.tables import Table, TableFinder, TableSettings

Colour = str | tuple[int, int, int] | tuple[int, int, int, int]

GLYPH_COLOUR = (0, 90, 255)
SPACE_COLOUR = (0, 160, 60)  # a space the word-gap rule inserted
BREAK_COLOUR = (220, 40, 40)  # a line break the line-break rule decided
# debug_tablefinder, in pdfplumber's colours: translucent blue cells outlined in red, red edges,
# blue circles at the intersections
TABLE_FILL = (0, 0, 255, 50)
TABLE_STROKE = (255, 0, 0, 200)
EDGE_COLOUR = (255, 0, 0)
INTERSECTION_COLOUR = (0, 0, 255, 200)


class PageImage:
    """The page rendered at `resolution` pixels per inch, with drawing methods.

    `original` is the rendering (a PIL image, never drawn on); `annotated` the copy the
    draw methods paint on, which `save`, `show` and Jupyter (`_repr_png_`) use.
    `matrix` maps the page's top-left coordinates (points) to pixels.
    """

    def __init__(self, page: Page, resolution: float = 72.0) -> None:
        if not resolution > 0:
            raise ValueError(f"resolution must be a positive number of pixels per inch, not {resolution!r}")
        self.page = page
        self.resolution = resolution
        pdf = page.pdf
        pdf.require_open()
        boxes = page._data.boxes
        image = render_open_page(
            pdf.document,
            page.page_number,
            scale=resolution / 72.0,
            key=pdf.render_key,
            source=pdf.source,
            password=pdf.password,
        )
        # The scale the renderer drew at (it may cap a huge page's pixels): read from the image.
        width, _ = display_size(boxes.media_box, boxes.rotate)
        scale = image.width / width if width > 0 else resolution / 72.0
        page_to_user = invert(page.matrix)
        assert page_to_user is not None  # a page's visible box is never empty (core/document.py)
        user_to_pixels = display_matrix(boxes.media_box, boxes.rotate, scale)
        if page.region is not None:  # a crop: its own part of the image
            corners = _corners(page.region)
            px0, py0, px1, py1 = quad_bbox(corners, multiply(page_to_user, user_to_pixels))
            left, upper = max(0, round(px0)), max(0, round(py0))
            image = image.crop((left, upper, max(left + 1, round(px1)), max(upper + 1, round(py1))))
            user_to_pixels = multiply(user_to_pixels, (1.0, 0.0, 0.0, 1.0, -left, -upper))
        self.original: Image.Image = image
        self.annotated: Image.Image = image.convert("RGB")
        self.scale = scale  # pixels per point
        self._user_to_pixels = user_to_pixels
        self.matrix: Matrix = multiply(page_to_user, user_to_pixels)

    # ------------------------------------------------------------------ drawing

    def reset(self) -> PageImage:
        """Drop every drawing: the annotated image is the rendering again."""
        self.annotated = self.original.convert("RGB")
        return self

    def draw_rects(
        self,
        items: Iterable[Record | BBox],
        *,
        stroke: Colour = (255, 0, 0),
        fill: Colour | None = None,
        stroke_width: int = 1,
    ) -> PageImage:
        """Outline records (chars, words, rects, …; pdfplumber's dicts too) or (x0, top, x1, bottom)
        boxes, both in the page's top-left coordinates (points)."""
        draw = ImageDraw.Draw(self.annotated, "RGBA")
        for item in items:
            box = item if isinstance(item, tuple) else (item["x0"], item["top"], item["x1"], item["bottom"])
            polygon = [apply(self.matrix, x, y) for x, y in _corners(box)]
            draw.polygon(polygon, outline=stroke, fill=fill, width=stroke_width)
        return self

    def draw_rect(
        self,
        item: Record | BBox,
        *,
        stroke: Colour = (255, 0, 0),
        fill: Colour | None = None,
        stroke_width: int = 1,
    ) -> PageImage:
        """One record or (x0, top, x1, bottom) box, as `draw_rects`."""
        return self.draw_rects([item], stroke=stroke, fill=fill, stroke_width=stroke_width)

    def draw_lines(
        self,
        items: Iterable[Record | Sequence[Point]],
        *,
        stroke: Colour = (255, 0, 0),
        stroke_width: int = 1,
    ) -> PageImage:
        """Polylines: records with points (`page.lines`, `page.curves`: their `pts`; others: the
        top edge of their box) or sequences of (x, top) points, page coordinates."""
        draw = ImageDraw.Draw(self.annotated, "RGBA")
        for item in items:
            if isinstance(item, Mapping):
                points = item.get("pts") or ((item["x0"], item["top"]), (item["x1"], item["top"]))
            else:
                points = item
            pixels = [apply(self.matrix, float(x), float(y)) for x, y in points]
            if len(pixels) >= 2:
                draw.line(pixels, fill=stroke, width=stroke_width)
        return self

    def draw_line(
        self, item: Record | Sequence[Point], *, stroke: Colour = (255, 0, 0), stroke_width: int = 1
    ) -> PageImage:
        """One polyline, as `draw_lines`."""
        return self.draw_lines([item], stroke=stroke, stroke_width=stroke_width)

    def draw_vlines(
        self, locations: Iterable[float], *, stroke: Colour = (255, 0, 0), stroke_width: int = 1
    ) -> PageImage:
        """Vertical lines across the page at these x (page coordinates)."""
        x0, top, x1, bottom = self.page.bbox
        return self.draw_lines(
            [((x, top), (x, bottom)) for x in locations], stroke=stroke, stroke_width=stroke_width
        )

    def draw_hlines(
        self, locations: Iterable[float], *, stroke: Colour = (255, 0, 0), stroke_width: int = 1
    ) -> PageImage:
        """Horizontal lines across the page at these tops (page coordinates)."""
        x0, top, x1, bottom = self.page.bbox
        return self.draw_lines(
            [((x0, y), (x1, y)) for y in locations], stroke=stroke, stroke_width=stroke_width
        )

    def draw_circles(
        self,
        items: Iterable[Record | Point],
        radius: float = 5,
        *,
        stroke: Colour = (255, 0, 0),
        fill: Colour | None = (255, 0, 0),
    ) -> PageImage:
        """Circles of `radius` pixels at points (x, top) or records' box centres."""
        draw = ImageDraw.Draw(self.annotated, "RGBA")
        for item in items:
            if isinstance(item, Mapping):
                x, y = (item["x0"] + item["x1"]) / 2, (item["top"] + item["bottom"]) / 2
            else:
                x, y = item
            px, py = apply(self.matrix, float(x), float(y))
            draw.ellipse((px - radius, py - radius, px + radius, py + radius), outline=stroke, fill=fill)
        return self

    def draw_glyphs(self, *, stroke: Colour = GLYPH_COLOUR, stroke_width: int = 1) -> PageImage:
        """Outline every char's quad (its box in user space, turned as the glyph is)."""
        draw = ImageDraw.Draw(self.annotated, "RGBA")
        for char in self.page.chars:
            draw.polygon(self._pixels(char.quad), outline=stroke, width=stroke_width)
        return self

    def draw_decisions(
        self, mode: str = Mode.PLAIN, *, space: Colour = SPACE_COLOUR, line_break: Colour = BREAK_COLOUR
    ) -> PageImage:
        """Mark where assembly in `mode` inserted a space (a bar in the gap between the two
        glyphs) or broke a line (a bar at the start of the new line's first glyph)."""
        glyphs = self.page.analysis.page.glyphs
        draw = ImageDraw.Draw(self.annotated, "RGBA")
        for d in self.page.decisions(mode):
            if isinstance(d, WordGapDecision) and d.verdict == WordGapVerdict.INSERTED:
                before, after = glyphs[d.before], glyphs[d.after]
                bottom = _midpoint(before.quad[1], after.quad[0])
                top = _midpoint(before.quad[2], after.quad[3])
                draw.line([*self._pixels((bottom, top))], fill=space, width=2)
            elif isinstance(d, LineBreakDecision) and d.verdict != LineBreakVerdict.SAME_LINE:
                after = glyphs[d.after]
                draw.line([*self._pixels((after.quad[0], after.quad[3]))], fill=line_break, width=2)
        return self

    def debug_table(
        self,
        table: Table,
        *,
        fill: Colour = TABLE_FILL,
        stroke: Colour = TABLE_STROKE,
        stroke_width: int = 1,
    ) -> PageImage:
        """Outline and tint the cells of one table (`page.find_tables()`)."""
        return self.draw_rects(table.cells, fill=fill, stroke=stroke, stroke_width=stroke_width)

    def debug_tablefinder(
        self, table_settings: TableFinder | TableSettings | Mapping[str, object] | None = None
    ) -> PageImage:
        """What the table finder saw, as pdfplumber draws it: each table's cells tinted blue and
        outlined, the edges it kept in red, and a circle at every intersection.

        `table_settings`: the settings of `page.debug_tablefinder` (a dict or `TableSettings`),
        or a `TableFinder` already run."""
        from glyphscope.tables import TableFinder

        if isinstance(table_settings, TableFinder):
            finder = table_settings
        else:
            finder = self.page.debug_tablefinder(table_settings)
        for table in finder.tables:
            self.debug_table(table)
        self.draw_lines([e.pts for e in finder.edges], stroke=EDGE_COLOUR, stroke_width=1)
        self.draw_circles(list(finder.intersections), radius=3, stroke=INTERSECTION_COLOUR, fill=None)
        return self

    def _pixels(self, points: Iterable[Point]) -> list[Point]:
        return [apply(self._user_to_pixels, x, y) for x, y in points]

    # ------------------------------------------------------------------ output

    def save(
        self,
        path: str | Path | BinaryIO,
        format: str | None = None,
        quantize: bool = True,
        colors: int = 256,
        bits: int = 8,
    ) -> None:
        """Write the annotated image (the format from the file name, or `format`, e.g. "PNG").

        As pdfplumber's `save`: a PNG is quantized to `colors` colours of `bits` bits by default
        (smaller and faster to write, looks the same); `quantize=False` keeps full colour.
        The image is written at `resolution` dots per inch."""
        image = self.annotated
        fmt = format or (Path(path).suffix.lstrip(".").upper() if isinstance(path, (str, Path)) else "PNG")
        dpi = (round(self.resolution), round(self.resolution))
        if quantize and fmt.upper() == "PNG":
            # pdfplumber converts with the adaptive (median cut) palette; the fast octree gives the
            # same look in a seventh of the time (a 595 × 842 page: 18 ms against 118 ms), and without
            # dithering flat areas stay flat: no speckle around letters, and half the PNG encoding time
            image = image.quantize(colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            image.save(path, format=format or "PNG", bits=bits, dpi=dpi)
        else:
            image.save(path, format=format, dpi=dpi)

    def show(self) -> None:
        self.annotated.show()

    def _repr_png_(self) -> bytes:
        """Jupyter's inline display."""
        buffer = io.BytesIO()
        self.annotated.save(buffer, format="PNG")
        return buffer.getvalue()


def _corners(box: BBox) -> Quad:
    x0, top, x1, bottom = box
    return ((x0, top), (x1, top), (x1, bottom), (x0, bottom))


def _midpoint(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0)
