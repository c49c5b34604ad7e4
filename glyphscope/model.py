"""The object model for Python users: `glyphscope.open(...)`, `doc.pages`, chars, words, crops.

It follows pdfplumber's conventions (names, keys and their meanings: glyphscope/records.py)
over the engine's page product (`glyphscope.core.analysis.PageAnalysis`), and adds nothing
to the rules: texts, words and text lines are what the engine's assembly made of the glyphs,
and a crop's text is assembled from the region's glyphs by the same assembly, so it has the
same spaces and line breaks and the decisions that explain them.

Coordinates. Records carry two systems side by side:

* `x0, top, x1, bottom`: points from the top-left corner of the page frame, y down. The
  frame is chosen when the file is opened: `coordinates="visible"` (the default) is the
  page as displayed (its visible box, CropBox ∩ MediaBox, turned clockwise by /Rotate, origin
  at its top-left corner, as the window and page images show it); `coordinates="pdfplumber"`
  is pdfplumber's (the MediaBox with its offset: a MediaBox that does not start at 0,0 moves
  every x0 by its left edge, and `page.bbox` is pdfplumber's). `page.width` / `page.height`
  are the frame's size; `crop` and `within_bbox` take boxes in these coordinates.
* `quad`: the glyph's four corners in PDF user space (origin bottom-left, y up, points),
  as the engine, the JSON outputs and the decision records use them.

Pages are indexed from 0 like a list (`doc.pages[0]` is the first page), while
`page.page_number` is 1-based, as PDF viewers and the command line count.

A closed document (after `close()` or its `with` block) raises ValueError on every read.

This module sits above `glyphscope.core` (the engine) and reaches the headless renderer of
`glyphscope.inspector` only through `to_image` (glyphscope/image.py), never Qt.
"""

from __future__ import annotations

import operator
import os
import re
import uuid
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TypeAlias, TypedDict, overload

from glyphscope.core.analysis import PageAnalysis, analyze_page, document_texts
from glyphscope.core.annotations import comb_fields
from glyphscope.core.assembly import MODES, Mode, PageText, assemble
from glyphscope.core.assembly.document_join import FORM_FEED
from glyphscope.core.decision_protocol import DecisionRecord
from glyphscope.core.document import Document, open_document
from glyphscope.core.geometry import Matrix, Point, Quad, apply, multiply
from glyphscope.core.glyph import Glyph
from glyphscope.core.limits import DEFAULT_LIMITS, Limits
from glyphscope.core.page import PageBoxes
from glyphscope.core.page_space import display_matrix, display_size, quad_bbox, user_rect
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.visibility_class import VisibilityClass
from glyphscope.records import (
    Annot,
    BBox,
    Char,
    ImageRecord,
    Match,
    Record,
    Shape,
    TextLine,
    Word,
)

if TYPE_CHECKING:
    from glyphscope.core.drawing import PageDrawing
    from glyphscope.core.trace import TraceColour
    from glyphscope.image import PageImage
    from glyphscope.tables import Table, TableFinder, TableSettings

Source: TypeAlias = str | Path | bytes | BinaryIO
"""What `open` reads: a path, the PDF's bytes, or a binary file-like object."""

Coordinates: TypeAlias = Literal["visible", "pdfplumber"]

COORDINATES: tuple[str, ...] = ("visible", "pdfplumber")
PAGE_DATA_CACHE = 8  # pages whose records a document keeps (each holds its analysis and records)
DEFAULT_ASCENT, DEFAULT_DESCENT = 0.8, -0.2  # what the text layout takes for a font without both

Line = TextLine  # the old name of a text line; `glyphscope.Line` warns (glyphscope/__init__.py)


def open(  # noqa: A001 - the name users expect (pdfplumber.open)
    source: Source,
    password: str | None = None,
    *,
    params: Parameters = DEFAULT_PARAMETERS,
    limits: Limits = DEFAULT_LIMITS,
    coordinates: Coordinates = "visible",
) -> PDF:
    """Open a PDF (read-only): a path, its bytes or a binary file-like object.

    Use it as a context manager (`with glyphscope.open(path) as doc:`) to close the file.
    `params` are the assembly thresholds every page uses; `limits` bound interpretation;
    `coordinates` the page frame of every record's `x0, top, x1, bottom`: "visible" (the page
    as displayed) or "pdfplumber" (pdfplumber's MediaBox frame, offset included).
    Raises a `glyphscope.core.errors.GlyphscopeError` subclass when the file cannot be read,
    and `TypeError` for a source that is none of the three.
    """
    if coordinates not in COORDINATES:
        raise ValueError(f"coordinates must be one of {', '.join(COORDINATES)}, not {coordinates!r}")
    kept: str | Path | bytes
    if isinstance(source, (str, Path)):
        kept = source
    elif isinstance(source, os.PathLike):
        kept = Path(os.fsdecode(source))
    elif isinstance(source, (bytes, bytearray, memoryview)):
        kept = bytes(source)
    else:
        if not callable(getattr(source, "read", None)):
            raise TypeError(
                "glyphscope.open takes a path (str or os.PathLike), the PDF's bytes or a binary file "
                f"object, not {type(source).__name__}"
            )
        kept = source.read()  # kept: page images are drawn from the same bytes
        if not isinstance(kept, bytes):
            raise TypeError(f"glyphscope.open reads PDF bytes; {type(source).__name__}.read() gave text")
    document = open_document(kept, password, limits=limits)
    return PDF(document, kept, password, params, coordinates=coordinates)


class PDF:
    """An open document: `pages`, `metadata`, the whole text (`extract_text`, `texts`),
    `document` (the engine's `Document`), `close()`."""

    def __init__(
        self,
        document: Document,
        source: str | Path | bytes,
        password: str | None = None,
        params: Parameters = DEFAULT_PARAMETERS,
        *,
        coordinates: Coordinates = "visible",
    ) -> None:
        self.document = document
        self.source = source  # what page images are rendered from
        self.password = password
        self.params = params
        self.coordinates = coordinates
        self.pages = Pages(self)
        self._page_data: OrderedDict[int, _PageData] = OrderedDict()
        self._doctops: list[float] | None = None
        self._metadata: dict[str, Any] | None = None
        # names the document to the renderer process that keeps it open for page images
        self.render_key = uuid.uuid4().hex

    @property
    def closed(self) -> bool:
        return self.document.closed

    def close(self) -> None:
        self._page_data.clear()
        self.document.close()

    def require_open(self) -> None:
        """ValueError when the document is closed."""
        self.document.require_open()

    @property
    def metadata(self) -> dict[str, Any]:
        """The document information dictionary (/Info) as pdfplumber gives it: keys without the
        slash ("Title", "Producer", "CreationDate", …), text values as str."""
        self.require_open()
        if self._metadata is None:
            self._metadata = _metadata(self.document)
        return dict(self._metadata)

    def texts(self, mode: Mode | str = Mode.AUTO, *, jobs: int | None = 1) -> Iterator[str]:
        """Each page's `extract_text(mode)` (auto by default, as `Page.extract_text`), in page
        order, one page at a time.

        `jobs`: processes reading the pages, each one page at a time (1: this process; None:
        one per usable processor when the document has enough pages to pay for it,
        `core.page_workers.PARALLEL_MIN_PAGES`). The texts are the same whatever it is; a
        page that fails raises here when it is due, as it would in one process.
        """
        if mode not in MODES:
            raise ValueError(f"unknown text mode {mode!r}; expected one of {', '.join(MODES)}")
        self.require_open()
        pages = range(1, self.document.page_count + 1)
        for _, text in document_texts(self.document, pages, mode, self.params, jobs=jobs):
            yield text.text or ""

    def extract_text(
        self, mode: Mode | str = Mode.AUTO, *, jobs: int | None = 1, separator: str = FORM_FEED
    ) -> str:
        """The whole document's text in `mode` (auto by default, as `Page.extract_text`): the
        pages' texts joined by `separator` (a form feed, as `glyphscope text` writes them).
        `jobs` as in `texts`."""
        return separator.join(self.texts(mode, jobs=jobs))

    def _data(self, page_number: int) -> _PageData:
        self.require_open()
        found = self._page_data.get(page_number)
        if found is None:
            found = self._page_data[page_number] = _PageData(self, page_number)
            while len(self._page_data) > PAGE_DATA_CACHE:
                self._page_data.popitem(last=False)
        else:
            self._page_data.move_to_end(page_number)
        return found

    def doctop(self, page_number: int) -> float:
        """The heights of the pages before `page_number` in this document's frame (pdfplumber's
        `initial_doctop`)."""
        if self._doctops is None:
            tops, total = [], 0.0
            for n in range(1, self.document.page_count + 1):
                tops.append(total)
                total += _frame(_boxes(self.document, n), self.coordinates)[1][3]
            self._doctops = tops
        return self._doctops[page_number - 1]

    def __enter__(self) -> PDF:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = self.document.path or "bytes"
        return f"<glyphscope.PDF {where}: {len(self.pages)} pages>"


class Pages(Sequence["Page"]):
    """The document's pages, indexed from 0 like a list (`pages[0]` is page_number 1).

    A page is made when indexed and analysed when first read; the engine caches the
    interpretation of recent pages, so iterating a long document holds only a few.
    """

    def __init__(self, pdf: PDF) -> None:
        self._pdf = pdf

    def __len__(self) -> int:
        return self._pdf.document.page_count

    @overload
    def __getitem__(self, index: int) -> Page: ...
    @overload
    def __getitem__(self, index: slice) -> list[Page]: ...
    def __getitem__(self, index: int | slice) -> Page | list[Page]:
        self._pdf.require_open()
        if isinstance(index, slice):
            return [Page(self._pdf, i + 1) for i in range(*index.indices(len(self)))]
        try:
            index = operator.index(index)  # an int, or what stands for one (a NumPy integer)
        except TypeError:
            raise TypeError(
                f"pages are indexed by an int (from 0) or a slice, not {type(index).__name__}"
            ) from None
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"page index {index} out of range (the document has {n} pages)")
        return Page(self._pdf, index + 1)

    def __iter__(self) -> Iterator[Page]:
        self._pdf.require_open()
        for i in range(len(self)):
            yield Page(self._pdf, i + 1)


def _boxes(document: Document, page_number: int) -> PageBoxes:
    """The page's boxes as the engine reads them (a page whose boxes cannot be read: Letter, as
    the engine lays it out). ValueError when the document is closed."""
    document.require_open()
    try:
        return document.page_boxes(page_number)
    except ValueError:
        raise
    except Exception:  # noqa: BLE001 - a damaged page dictionary: the engine's own fallback
        from glyphscope.core.document import DEFAULT_MEDIA_BOX

        return PageBoxes(DEFAULT_MEDIA_BOX, DEFAULT_MEDIA_BOX, DEFAULT_MEDIA_BOX, 0)


def pdfminer_ctm(media_box: tuple[float, float, float, float], rotate: int) -> Matrix:
    """The matrix pdfminer.six starts a page with (PDFPageInterpreter.process_page): user space →
    its device space, the MediaBox's lower-left at the origin, turned by /Rotate."""
    x0, y0, x1, y1 = media_box
    rotate %= 360
    if rotate == 90:
        return (0.0, -1.0, 1.0, 0.0, -y0, x1)
    if rotate == 180:
        return (-1.0, 0.0, 0.0, -1.0, x1, y1)
    if rotate == 270:
        return (0.0, 1.0, -1.0, 0.0, y1, -x0)
    return (1.0, 0.0, 0.0, 1.0, -x0, -y0)


def _frame(boxes: PageBoxes, coordinates: str) -> tuple[Matrix, BBox]:
    """User space → the frame's top-left coordinates, and the page's bbox in them."""
    if coordinates == "pdfplumber":
        # pdfplumber 0.11 (page.py): the MediaBox normalised for the rotation, flipped to
        # (x0, height − y1, x1, height − y0); pdfminer's device y flipped over the height,
        # the box's left edge and top added back.
        mx0, my0, mx1, my1 = boxes.media_box
        if boxes.rotate in (90, 270):
            nx0, ny0, nx1, ny1 = my0, mx0, my1, mx1
        else:
            nx0, ny0, nx1, ny1 = mx0, my0, mx1, my1
        height = ny1 - ny0
        top = height - ny1
        flip: Matrix = (1.0, 0.0, 0.0, -1.0, nx0, height + top)
        matrix = multiply(pdfminer_ctm(boxes.media_box, boxes.rotate), flip)
        return matrix, (nx0, top, nx1, top + height)
    w, h = display_size(boxes.visible_box, boxes.rotate)
    return display_matrix(boxes.visible_box, boxes.rotate), (0.0, 0.0, w, h)


_SPACE_NAMES = {
    "gray": "DeviceGray",
    "rgb": "DeviceRGB",
    "cmyk": "DeviceCMYK",
    "indexed": "Indexed",
    "separation": "Separation",
    "devicen": "DeviceN",
    "pattern": "Pattern",
    "lab": "Lab",
}


def _space_name(colour: TraceColour) -> str:
    """A colour space's PDF name: as the stream named a device space, else its family's."""
    if colour.space.startswith("Device") or colour.space in ("Pattern", "CalRGB", "CalGray", "Lab"):
        return colour.space
    return _SPACE_NAMES.get(colour.family, colour.space)


class _Box(TypedDict):
    """The box fields every placed record shares (`_PageData._box`)."""

    x0: float
    top: float
    x1: float
    bottom: float
    doctop: float
    y0: float
    y1: float
    width: float
    height: float


class _PageData:
    """What every view of one page shares (the page, its crops and filters): the analysis, the
    frame, the drawing and the records, each made on first use."""

    def __init__(self, pdf: PDF, page_number: int) -> None:
        self.pdf = pdf
        self.page_number = page_number
        self._analysis: PageAnalysis | None = None
        self._drawing: PageDrawing | None = None
        self._frame: tuple[Matrix, BBox] | None = None
        self._boxes: PageBoxes | None = None
        self._chars: dict[int, Char] = {}
        self._font_metrics: dict[tuple[str, tuple[str, ...]], tuple[str, float, float]] | None = None
        self._base: Matrix | None = None

    @property
    def analysis(self) -> PageAnalysis:
        self.pdf.require_open()
        if self._analysis is None:
            self._analysis = analyze_page(self.pdf.document, self.page_number, self.pdf.params)
        return self._analysis

    @property
    def boxes(self) -> PageBoxes:
        if self._boxes is None:
            self._boxes = (
                self._analysis.page.boxes
                if self._analysis is not None
                else _boxes(self.pdf.document, self.page_number)
            )
        return self._boxes

    @property
    def frame(self) -> tuple[Matrix, BBox]:
        if self._frame is None:
            self._frame = _frame(self.boxes, self.pdf.coordinates)
        return self._frame

    @property
    def doctop(self) -> float:
        return self.pdf.doctop(self.page_number)

    @property
    def drawing(self) -> PageDrawing:
        self.pdf.require_open()
        if self._drawing is None:
            from glyphscope.core.drawing import read_drawing

            self._drawing = read_drawing(self.pdf.document, self.page_number)
        return self._drawing

    # ------------------------------------------------------------------ chars

    def char(self, g: Glyph) -> Char:
        found = self._chars.get(g.paint_index)
        if found is None:
            found = self._chars[g.paint_index] = self._make_char(g)
        return found

    def _metrics(self, g: Glyph) -> tuple[str, float, float]:
        if self._font_metrics is None:
            self._font_metrics = {
                (f.font_key, f.form_path): (f.info.base_font, f.info.ascent, f.info.descent)
                for f in self.analysis.page.fonts
            }
        name, ascent, descent = self._font_metrics.get((g.font_key, g.form_path), (g.font_key, 0.0, 0.0))
        if ascent <= descent:
            ascent, descent = DEFAULT_ASCENT, DEFAULT_DESCENT
        return name or g.font_key, ascent, descent

    def _text_matrix(self, g: Glyph, em: Point) -> tuple[float, float, float, float]:
        """(a, b, c, d) of Tm × CTM for the glyph: from its run, or (a table built from records)
        from its direction and em, as a conformal matrix."""
        glyphs = self.analysis.page.glyphs
        if len(glyphs.runs):
            found = glyphs.runs[glyphs.run_at(g.paint_index)].text_matrix
            if found is not None:
                return found
        size = g.font_size or 1.0
        c, d = em[0] / size, em[1] / size
        scale = (c * c + d * d) ** 0.5 * g.horizontal_scaling / 100.0
        return (g.direction[0] * scale, g.direction[1] * scale, c, d)

    def _make_char(self, g: Glyph) -> Char:
        analysis = self.analysis
        matrix, bbox = self.frame
        fontname, ascent, descent = self._metrics(g)
        q = g.quad
        em = ((q[3][0] - q[0][0]) / (ascent - descent), (q[3][1] - q[0][1]) / (ascent - descent))
        a, b, c, d = self._text_matrix(g, em)
        ox, oy = g.origin
        wx, wy = g.glyph_end[0] - ox, g.glyph_end[1] - oy
        if g.wmode == 0:
            # pdfminer's box: the advance along the baseline, one em across from the descent
            p0 = q[0]
            corners: Quad = (
                p0,
                (p0[0] + wx, p0[1] + wy),
                (p0[0] + wx + em[0], p0[1] + wy + em[1]),
                (p0[0] + em[0], p0[1] + em[1]),
            )
        else:
            corners = _pdfminer_vertical_box(g, em, (a, b, c, d), descent)
        x0, top, x1, bottom = quad_bbox(corners, matrix)
        size = (bottom - top) if g.wmode == 0 else (x1 - x0)
        base = self._pdfminer_base()
        pen = (ox - g.rise * c, oy - g.rise * d)
        pm = multiply((a, b, c, d, pen[0], pen[1]), base)
        th = g.horizontal_scaling / 100.0
        upright = pm[0] * pm[3] * th > 0 and pm[1] * pm[2] <= 0
        norm = (a * a + b * b) ** 0.5
        adv = (wx * wx + wy * wy) ** 0.5 / norm if norm else 0.0
        if g.wmode == 1:
            adv = (wx * wx + wy * wy) ** 0.5 / ((c * c + d * d) ** 0.5 or 1.0)
        visibility = analysis.classified.visibility
        visible = (
            VisibilityClass(visibility.classes[g.paint_index]) if visibility else VisibilityClass.VISIBLE
        )
        paint = self.drawing.paint_of(g.paint_index)
        frame_bottom = bbox[3]
        return Char(
            text=g.text,
            fontname=fontname,
            size=size,
            x0=x0,
            x1=x1,
            top=top,
            bottom=bottom,
            doctop=self.doctop + top,
            y0=frame_bottom - bottom,
            y1=frame_bottom - top,
            width=x1 - x0,
            height=bottom - top,
            upright=upright,
            matrix=pm,
            adv=adv,
            page_number=self.page_number,
            ncs=_space_name(paint.fill),
            stroking_color=paint.stroke.components,
            non_stroking_color=paint.fill.components,
            mcid=g.mcid,
            tag=g.marked_tags[-1].lstrip("/") if g.marked_tags else None,
            quad=q,
            glyph_box=quad_bbox(q, matrix),
            glyph_height=g.height,
            font_size=g.font_size,
            wmode=g.wmode,
            paint_index=g.paint_index,
            decode_source=g.decode_source,
            visibility=visible,
        )

    def _pdfminer_base(self) -> Matrix:
        if self._base is None:
            boxes = self.boxes
            self._base = pdfminer_ctm(boxes.media_box, boxes.rotate)
        return self._base

    # ------------------------------------------------------------------ other objects

    def _place(self, points: Sequence[Point]) -> tuple[tuple[Point, ...], float, float, float, float]:
        matrix, _ = self.frame
        placed = tuple(apply(matrix, x, y) for x, y in points)
        xs = [p[0] for p in placed]
        ys = [p[1] for p in placed]
        return placed, min(xs), min(ys), max(xs), max(ys)

    def _box(self, x0: float, top: float, x1: float, bottom: float) -> _Box:
        """A placed record's box fields, as pdfplumber's: top-down (top, bottom, doctop) and bottom-up (y0, y1)."""
        bottom_of_frame = self.frame[1][3]
        return _Box(
            x0=x0,
            top=top,
            x1=x1,
            bottom=bottom,
            doctop=self.doctop + top,
            y0=bottom_of_frame - bottom,
            y1=bottom_of_frame - top,
            width=x1 - x0,
            height=bottom - top,
        )

    @cached_property
    def shapes(self) -> tuple[Shape, ...]:
        out: list[Shape] = []
        matrix = self.frame[0]
        for p in self.drawing.paths:
            pts, x0, top, x1, bottom = self._place(p.points)
            if p.kind == "rect":  # pdfminer's LTRect: its box's corners, from the lower left
                pts = ((x0, bottom), (x1, bottom), (x1, top), (x0, top))
            path = tuple((op, *(apply(matrix, x, y) for x, y in points)) for op, points in p.segments)
            out.append(
                Shape(
                    object_type=p.kind,
                    **self._box(x0, top, x1, bottom),
                    pts=pts,
                    path=path,
                    linewidth=p.linewidth,
                    stroke=p.stroke,
                    fill=p.fill,
                    evenodd=p.even_odd,
                    stroking_color=p.stroking.components,
                    non_stroking_color=p.non_stroking.components,
                    dash=p.dash,
                    mcid=p.mcid,
                    page_number=self.page_number,
                )
            )
        return tuple(out)

    @cached_property
    def images(self) -> tuple[ImageRecord, ...]:
        out = []
        for im in self.drawing.images:
            _, x0, top, x1, bottom = self._place(im.corners)
            out.append(
                ImageRecord(
                    **self._box(x0, top, x1, bottom),
                    name=im.name,
                    srcsize=im.srcsize,
                    bits=im.bits,
                    colorspace=im.colorspace,
                    imagemask=im.imagemask,
                    inline=im.inline,
                    page_number=self.page_number,
                )
            )
        return tuple(out)

    @cached_property
    def annots(self) -> tuple[Annot, ...]:
        out = []
        for subtype, rect, uri, title, contents in _read_annots(self.pdf.document, self.page_number):
            _, x0, top, x1, bottom = self._place(
                [(rect[0], rect[1]), (rect[2], rect[1]), (rect[2], rect[3]), (rect[0], rect[3])]
            )
            out.append(
                Annot(
                    **self._box(x0, top, x1, bottom),
                    subtype=subtype,
                    uri=uri,
                    title=title,
                    contents=contents,
                    page_number=self.page_number,
                )
            )
        return tuple(out)


def _pdfminer_vertical_box(g: Glyph, em: Point, m: tuple[float, float, float, float], descent: float) -> Quad:
    """pdfminer.six's box of a glyph in vertical writing (layout.LTChar): one em wide from the
    position vector's −vx (half an em when /W2 gives none), and from (1 − vy) em down by the
    vertical advance; glyphscope's own box spans the glyph's width and the font's descent to
    ascent. vx, vy and the advance are read back from the glyph's quad and ends."""
    a, b, _, _ = m
    size = g.font_size or 1.0
    th = g.horizontal_scaling / 100.0 or 1.0
    ax, ay = size * th * a, size * th * b  # one em along the text's x, user space
    ux, uy = em
    ox, oy = g.origin
    q = g.quad
    det = ax * uy - ay * ux
    if det == 0:
        return q
    rx, ry = q[0][0] - ox, q[0][1] - oy  # = −vx·A + (descent − vy)·U
    vx = -(rx * uy - ry * ux) / det
    vy = descent - (ax * ry - ay * rx) / det
    width = ((q[1][0] - q[0][0]) ** 2 + (q[1][1] - q[0][1]) ** 2) ** 0.5 / ((ax * ax + ay * ay) ** 0.5 or 1.0)
    if abs(vx - width / 2) < 1e-6:
        vx = 0.5  # the default position vector: pdfminer centres an em, not the glyph's width
    u2 = ux * ux + uy * uy or 1.0
    w1y = ((g.glyph_end[0] - ox) * ux + (g.glyph_end[1] - oy) * uy) / u2
    px, py = ax / th, ay / th  # pdfminer's x extent is not scaled by Tz, its advance is
    top = 1.0 - vy
    bottom = top + w1y * th
    pts = ((-vx, bottom), (1.0 - vx, bottom), (1.0 - vx, top), (-vx, top))
    c0, c1, c2, c3 = ((ox + x * px + y * ux, oy + x * py + y * uy) for x, y in pts)
    return (c0, c1, c2, c3)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    try:
        return str(value)
    except (UnicodeDecodeError, ValueError):
        return None


def _read_annots(
    document: Document, page_number: int
) -> list[tuple[str, tuple[float, float, float, float], str | None, str | None, str | None]]:
    """(subtype, /Rect normalised, /A /URI, /T, /Contents) of each usable entry of /Annots."""
    import pikepdf

    out = []
    with document.locked():
        page = document.page_object(page_number)
        try:
            annots = page.get("/Annots")
            entries = list(annots) if isinstance(annots, pikepdf.Array) else []
        except (pikepdf.PdfError, TypeError, ValueError):
            entries = []
        for annot in entries:
            try:
                if not isinstance(annot, pikepdf.Dictionary):
                    continue
                rect = annot.get("/Rect")
                if not isinstance(rect, pikepdf.Array) or len(rect) != 4:
                    continue
                x0, y0, x1, y1 = (float(v) for v in rect)
                action = annot.get("/A")
                uri = _text(action.get("/URI")) if isinstance(action, pikepdf.Dictionary) else None
                subtype = str(annot.get("/Subtype", "")).lstrip("/")
                out.append(
                    (
                        subtype,
                        (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)),
                        uri,
                        _text(annot.get("/T")),
                        _text(annot.get("/Contents")),
                    )
                )
            except (pikepdf.PdfError, TypeError, ValueError, AttributeError):
                continue  # one damaged entry costs itself
    return out


def _metadata(document: Document) -> dict[str, Any]:
    import pikepdf

    out: dict[str, Any] = {}
    with document.locked():
        try:
            info = document.pdf.docinfo
            items = list(info.items())
        except (pikepdf.PdfError, AttributeError, TypeError, ValueError):
            return out
        for key, value in items:
            name = str(key).lstrip("/")
            try:
                if isinstance(value, (pikepdf.String, pikepdf.Name)):
                    out[name] = str(value).lstrip("/") if isinstance(value, pikepdf.Name) else str(value)
                elif isinstance(value, (bool, int, float)):
                    out[name] = value
                else:
                    out[name] = str(value)
            except (UnicodeDecodeError, ValueError, pikepdf.PdfError):
                continue
    return out


Keep: TypeAlias = Callable[[Record], bool]


class Page:
    """One page, or a view of it (`crop`, `within_bbox`, `outside_bbox`, `filter`).

    `page_number` is 1-based. `width`/`height`, `bbox` and every record's `x0, top, x1,
    bottom` are points from the top-left corner of the page frame (see the module docstring:
    the page as displayed, or pdfplumber's frame); `quad`s are PDF user space (bottom-left
    origin, y up).
    """

    def __init__(
        self,
        pdf: PDF,
        page_number: int,
        *,
        bbox: BBox | None = None,
        keep: Keep | None = None,
    ) -> None:
        self.pdf = pdf
        self.page_number = page_number
        self._bbox = bbox
        self._keep = keep  # None: the whole page
        self._texts: dict[str, PageText] = {}
        self._chars: tuple[Char, ...] | None = None
        self._data_ref: _PageData | None = None

    @property
    def _data(self) -> _PageData:
        self.pdf.require_open()
        if self._data_ref is None:
            self._data_ref = self.pdf._data(self.page_number)
        return self._data_ref

    # ------------------------------------------------------------------ the page

    @property
    def analysis(self) -> PageAnalysis:
        """The engine's page product (glyphs, classification, texts, decisions, findings)."""
        return self._data.analysis

    @property
    def rotation(self) -> int:
        """The page's /Rotate: 0, 90, 180 or 270 (clockwise)."""
        return self._data.boxes.rotate

    @property
    def matrix(self) -> Matrix:
        """PDF user space → this page's frame coordinates (points, y down, rotation applied)."""
        return self._data.frame[0]

    @property
    def mediabox(self) -> BBox:
        """The MediaBox in this page's frame coordinates (x0, top, x1, bottom)."""
        b = self._data.boxes.media_box
        return quad_bbox(((b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])), self.matrix)

    @property
    def cropbox(self) -> BBox:
        """The CropBox in this page's frame coordinates."""
        b = self._data.boxes.crop_box
        return quad_bbox(((b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])), self.matrix)

    @property
    def width(self) -> float:
        """Width in points of the page frame (rotation applied); a crop's own width."""
        return self.bbox[2] - self.bbox[0]

    @property
    def height(self) -> float:
        """Height in points of the page frame; a crop's own height."""
        return self.bbox[3] - self.bbox[1]

    @property
    def bbox(self) -> BBox:
        """(x0, top, x1, bottom) of this page or region in the frame's coordinates: (0, 0, width,
        height) in the visible frame; pdfplumber's MediaBox box in its frame."""
        if self._bbox is not None:
            return self._bbox
        return self._data.frame[1]

    @property
    def region(self) -> BBox | None:
        """The crop's bbox (frame coordinates), None for the whole page (and an unboxed filter)."""
        return self._bbox

    @property
    def doctop(self) -> float:
        """The heights of the pages before this one (pdfplumber's `initial_doctop`)."""
        return self._data.doctop

    # ------------------------------------------------------------------ regions

    def _check_bbox(self, bbox: BBox, strict: bool, relative: bool) -> BBox:
        x0, top, x1, bottom = _checked(bbox)
        if relative:
            px0, ptop = self.bbox[0], self.bbox[1]
            x0, x1, top, bottom = x0 + px0, x1 + px0, top + ptop, bottom + ptop
        if strict:
            px0, ptop, px1, pbottom = self.bbox
            eps = 1e-6
            if x0 < px0 - eps or top < ptop - eps or x1 > px1 + eps or bottom > pbottom + eps:
                raise ValueError(
                    f"bounding box {(x0, top, x1, bottom)} is not fully within the parent page's "
                    f"bounding box {self.bbox} (strict=False allows it)"
                )
        return (x0, top, x1, bottom)

    def crop(self, bbox: BBox, relative: bool = False, strict: bool = True) -> Page:
        """The region `bbox` (x0, top, x1, bottom; frame coordinates; `relative`: from this
        page's own top-left corner). `strict` (pdfplumber's): ValueError when the box is not
        within this page's bbox.

        A char belongs to it when the centre of its glyph box (`glyph_box`) lies inside, the
        rule the engine culls the page by, so neighbouring crops share no glyph; shapes,
        images and annotations when their box meets the region. The region's text is
        assembled from its glyphs by the engine's assembly, with its decisions.
        """
        x0, top, x1, bottom = box = self._check_bbox(bbox, strict, relative)

        def keep(r: Record) -> bool:
            if isinstance(r, Char):
                gx0, gtop, gx1, gbottom = r.glyph_box
                cx, cy = (gx0 + gx1) / 2, (gtop + gbottom) / 2
                return x0 <= cx <= x1 and top <= cy <= bottom
            return _overlaps(r.bbox, box)

        return self._view(box, keep)

    def within_bbox(self, bbox: BBox, relative: bool = False, strict: bool = True) -> Page:
        """The region `bbox` (as `crop`), keeping only objects whose whole box (x0, top, x1,
        bottom) lies inside it."""
        box = self._check_bbox(bbox, strict, relative)
        return self._view(box, lambda r: _inside(r.bbox, box))

    def outside_bbox(self, bbox: BBox, relative: bool = False, strict: bool = True) -> Page:
        """This page without `bbox`: only objects whose box lies wholly outside it."""
        box = self._check_bbox(bbox, strict, relative)
        return self._view(self._bbox, lambda r: not _overlaps(r.bbox, box, touching=False))

    def filter(self, test_function: Keep) -> Page:
        """This page with only the objects (chars, shapes, images, annotations) for which
        `test_function(obj)` is true; the text is assembled from the chars kept."""
        return self._view(self._bbox, test_function)

    def _view(self, bbox: BBox | None, keep: Keep) -> Page:
        outer = self._keep
        both = keep if outer is None else (lambda r: outer(r) and keep(r))
        view = Page(self.pdf, self.page_number, bbox=bbox, keep=both)
        view._data_ref = self._data
        return view

    def _glyphs(self) -> Sequence[Glyph]:
        """The glyphs the text modes read (kept, paint order), within the view if any."""
        visible = self.analysis.classified.visible
        keep = self._keep
        if keep is None:
            return visible
        char = self._data.char
        return tuple(g for g in visible if keep(char(g)))

    def _kept(self, records: tuple[Any, ...]) -> tuple[Any, ...]:
        keep = self._keep
        return records if keep is None else tuple(r for r in records if keep(r))

    # ------------------------------------------------------------------ texts and decisions

    def page_text(self, mode: Mode | str = Mode.PLAIN) -> PageText:
        """The engine's page text in `mode` (text, character map, decisions)."""
        if mode not in MODES:
            raise ValueError(f"unknown text mode {mode!r}; expected one of {', '.join(MODES)}")
        if self._keep is None:
            return self.analysis.texts[mode]
        found = self._texts.get(mode)
        if found is None:
            analysis = self.analysis
            found = self._texts[mode] = assemble(
                self._glyphs(),
                mode,
                analysis.params,
                visible_box=user_rect(self.bbox, self.matrix),
                structure=analysis.structure,
                actual_text=analysis.page.actual_text,
                survivors=analysis.classified.survivors if mode in (Mode.PLAIN, Mode.AUTO) else None,
                combs=comb_fields(analysis.page.annotations) if mode in (Mode.PLAIN, Mode.AUTO) else None,
            )
        return found

    def extract_text(self, mode: Mode | str = Mode.AUTO) -> str:
        """The text in `mode` ("plain", "layout", "columns", "structure", "articles", "auto");
        "" where structure mode finds no usable structure.

        The default is `auto`, reading order as pdfplumber's `extract_text` gives it: usable
        structure, else article beads, else — when the content stream's order is scrambled
        (the `reading_order` decision says by how much) — baselines top to bottom, else the
        stream's order, which is plain's text. `extract_text("plain")` is always paint order."""
        return self.page_text(mode).text or ""

    def decisions(self, mode: Mode | str = Mode.PLAIN) -> tuple[DecisionRecord, ...]:
        """The decisions behind the text in `mode`, each with its numbers (`value`,
        `threshold`, `verdict`, `describe()`). The whole page: the passes' (cull, duplicate,
        visibility, ...) then assembly's; a region: the assembly of its glyphs."""
        if self._keep is None:
            return self.analysis.decisions(mode)
        return tuple(self.page_text(mode).decisions)

    def search(
        self,
        pattern: str | re.Pattern[str],
        regex: bool = True,
        case: bool = True,
        main_group: int = 0,
        return_chars: bool = True,
        return_groups: bool = True,
        mode: Mode | str = Mode.PLAIN,
    ) -> list[Match]:
        """Where `pattern` occurs in the text (`mode`, plain by default), as pdfplumber's
        `search`: each match's text, the box around its chars, the chars and the groups.
        `regex=False` takes the pattern literally; `case=False` ignores case. A match that
        covers only characters assembly wrote (spaces, line breaks) has no box and is left out."""
        if isinstance(pattern, re.Pattern):
            if not regex:
                raise ValueError("a compiled pattern needs regex=True")
            compiled = pattern
        else:
            flags = 0 if case else re.IGNORECASE
            compiled = re.compile(pattern if regex else re.escape(pattern), flags)
        page_text = self.page_text(mode)
        text = page_text.text or ""
        glyphs = self.analysis.page.glyphs
        char = self._data.char
        out: list[Match] = []
        for m in compiled.finditer(text):
            start, end = m.span(main_group)
            seen: list[int] = []
            for i in range(start, end):
                p = page_text.glyph_of_char(i)
                if p >= 0 and (not seen or seen[-1] != p):
                    seen.append(p)
            records = tuple(char(glyphs[p]) for p in dict.fromkeys(seen))
            if not records:
                continue
            x0 = min(r.x0 for r in records)
            top = min(r.top for r in records)
            out.append(
                Match(
                    text=m.group(main_group),
                    x0=x0,
                    top=top,
                    x1=max(r.x1 for r in records),
                    bottom=max(r.bottom for r in records),
                    doctop=self.doctop + top,
                    chars=records if return_chars else (),
                    groups=m.groups() if return_groups else (),
                )
            )
        return out

    # ------------------------------------------------------------------ records

    @property
    def chars(self) -> tuple[Char, ...]:
        """The glyphs the text is made of (not culled, not duplicates, not dropped as hidden),
        in paint order, with pdfplumber's keys. Every painted glyph: `page.analysis.page.glyphs`."""
        self.pdf.require_open()
        if self._chars is None:
            char = self._data.char
            self._chars = tuple(char(g) for g in self._glyphs())
        return self._chars

    @property
    def painted_chars(self) -> tuple[Char, ...]:
        """Every glyph the page paints, as pdfplumber's `chars` has them: those the text leaves
        out too (outside the visible box, duplicates, hidden: each char's `visibility` and
        `page.analysis.classified` say why), in paint order; a view keeps those it selects."""
        self.pdf.require_open()
        char = self._data.char
        return self._kept(tuple(char(g) for g in self.analysis.page.glyphs))

    @property
    def words(self) -> tuple[Word, ...]:
        """The words of the plain text (see `extract_words`)."""
        return self.extract_words()

    @property
    def text_lines(self) -> tuple[TextLine, ...]:
        """The lines of the plain text (see `extract_text_lines`)."""
        return self.extract_text_lines()

    @property
    def rects(self) -> tuple[Shape, ...]:
        """The rectangles the page paints (stroked or filled), as pdfplumber's `rects`."""
        return self._kept(tuple(s for s in self._data.shapes if s.object_type == "rect"))

    @property
    def lines(self) -> tuple[Shape, ...]:
        """The straight lines the page paints, as pdfplumber's `lines` (graphic lines; the lines
        of text are `text_lines`)."""
        return self._kept(tuple(s for s in self._data.shapes if s.object_type == "line"))

    @property
    def curves(self) -> tuple[Shape, ...]:
        """The other paths the page paints (curves and polygons), as pdfplumber's `curves`."""
        return self._kept(tuple(s for s in self._data.shapes if s.object_type == "curve"))

    @property
    def images(self) -> tuple[ImageRecord, ...]:
        """The images the page paints (XObjects and inline images), with their boxes."""
        return self._kept(self._data.images)

    @property
    def annots(self) -> tuple[Annot, ...]:
        """The entries of the page's /Annots that have a /Rect."""
        return self._kept(self._data.annots)

    @property
    def hyperlinks(self) -> tuple[Annot, ...]:
        """The annotations with a URI (a link's /A /URI)."""
        return tuple(a for a in self.annots if a.uri is not None)

    @property
    def objects(self) -> dict[str, tuple[Record, ...]]:
        """Every kind of object by its `object_type`: "char", "rect", "line", "curve", "image"."""
        return {
            "char": self.chars,
            "rect": self.rects,
            "line": self.lines,
            "curve": self.curves,
            "image": self.images,
        }

    def extract_words(
        self,
        x_tolerance: float | None = None,
        y_tolerance: float | None = None,
        keep_blank_chars: bool = False,
        use_text_flow: bool = False,
        extra_attrs: Sequence[str] | None = None,
        *,
        mode: Mode | str = Mode.PLAIN,
    ) -> tuple[Word, ...]:
        """The words of the page.

        Without tolerances (the default): the engine's words, in text order — runs of
        characters between the spaces and line breaks assembly wrote in `mode` (its word-gap
        and line-break decisions explain each one). With `x_tolerance` or `y_tolerance` (or
        `keep_blank_chars`, `use_text_flow`): pdfplumber's rule over `chars`
        (glyphscope/words.py) — chars in lines (tops within `y_tolerance`, 3 by default,
        chained), each in x order, unless `use_text_flow` keeps paint order; a new word where
        the next char starts more than `x_tolerance` (3) after the previous one ends or before
        it starts, or its `top` moves more than `y_tolerance`; blank chars split words unless
        `keep_blank_chars`. `extra_attrs` (e.g. ["fontname", "size"]) split the chars into
        runs where those keys change and add them to each word.
        """
        attrs = tuple(extra_attrs or ())
        if x_tolerance is None and y_tolerance is None and not keep_blank_chars and not use_text_flow:
            return tuple(self._engine_runs(mode, str.isspace, Word, attrs))
        return self._tolerance_words(
            3.0 if x_tolerance is None else float(x_tolerance),
            3.0 if y_tolerance is None else float(y_tolerance),
            keep_blank_chars,
            use_text_flow,
            attrs,
        )

    def extract_text_lines(self, mode: Mode | str = Mode.PLAIN) -> tuple[TextLine, ...]:
        """The lines of the text in `mode`, in text order (layout padding trimmed)."""
        return tuple(self._engine_runs(mode, lambda c: c == "\n", TextLine, ()))

    def extract_lines(self, mode: Mode | str = Mode.PLAIN) -> tuple[TextLine, ...]:
        """Deprecated: `extract_text_lines` (pdfplumber's name; `page.lines` are drawn lines)."""
        warnings.warn(
            "page.extract_lines() is now page.extract_text_lines(); page.lines are the page's drawn "
            "lines, as pdfplumber's",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.extract_text_lines(mode)

    def _engine_runs(
        self,
        mode: str,
        separator: Callable[[str], bool],
        kind: type[Word] | type[TextLine],
        attrs: tuple[str, ...],
    ) -> list[Any]:
        """Each run of the text between separator characters that holds at least one glyph, as a
        `kind` record; with `attrs`, a run is split where one of those char keys changes."""
        page_text = self.page_text(mode)
        text = page_text.text or ""
        run_of_char = [-1] * len(text)
        starts: list[int] = []
        run = -1
        for i, c in enumerate(text):
            if separator(c):
                continue
            if i == 0 or separator(text[i - 1]):
                run += 1
                starts.append(i)
            run_of_char[i] = run
        members: list[list[tuple[int, Glyph]]] = [[] for _ in starts]
        for g in self._glyphs():
            chars = page_text.chars_of_glyph(g.paint_index)
            if chars and run_of_char[chars.start] >= 0:
                members[run_of_char[chars.start]].append((chars.start, g))
        char = self._data.char
        out: list[Any] = []
        for k, glyphs in enumerate(members):
            if not glyphs:
                continue  # generated characters only (a column separator)
            glyphs.sort(key=lambda item: item[0])
            end = starts[k + 1] if k + 1 < len(starts) else len(text)
            while end > starts[k] and separator(text[end - 1]):
                end -= 1
            pieces: list[tuple[int, list[Glyph]]] = []
            for pos, g in glyphs:
                if pieces and all(char(g)[a] == char(pieces[-1][1][-1])[a] for a in attrs):
                    pieces[-1][1].append(g)
                else:
                    pieces.append((pos if pieces else starts[k], [g]))
            for j, (pos, piece) in enumerate(pieces):
                stop = pieces[j + 1][0] if j + 1 < len(pieces) else end
                out.append(self._run_record(kind, text[pos:stop].strip(), piece, attrs))
        return out

    def _run_record(
        self, kind: type[Word] | type[TextLine], text: str, glyphs: list[Glyph], attrs: tuple[str, ...]
    ) -> Word | TextLine:
        char = self._data.char
        chars = tuple(char(g) for g in glyphs)
        first, last = glyphs[0], glyphs[-1]
        quad: Quad = (first.quad[0], last.quad[1], last.quad[2], first.quad[3])
        x0, top = min(c.x0 for c in chars), min(c.top for c in chars)
        x1, bottom = max(c.x1 for c in chars), max(c.bottom for c in chars)
        if kind is TextLine:
            return TextLine(
                text=text,
                x0=x0,
                top=top,
                x1=x1,
                bottom=bottom,
                doctop=self.doctop + top,
                chars=chars,
                quad=quad,
                fontname=chars[0].fontname,
                size=chars[0].size,
                paint_indices=tuple(g.paint_index for g in glyphs),
            )
        return _word(text, chars, quad, self.doctop, attrs)

    def _tolerance_words(
        self, x_tol: float, y_tol: float, keep_blank: bool, text_flow: bool, attrs: tuple[str, ...]
    ) -> tuple[Word, ...]:
        from glyphscope.words import word_groups

        out = []
        for members in word_groups(self.chars, x_tol, y_tol, keep_blank, text_flow, attrs):
            first, last = members[0], members[-1]
            quad: Quad = (first.quad[0], last.quad[1], last.quad[2], first.quad[3])
            out.append(_word("".join(c.text for c in members), tuple(members), quad, self.doctop, attrs))
        return tuple(out)

    # ------------------------------------------------------------------ images and tables

    def to_image(
        self,
        resolution: float | None = None,
        width: float | None = None,
        height: float | None = None,
    ) -> PageImage:
        """The page drawn by PDFium (no Qt) at `resolution` pixels per inch (72 by default), or
        scaled to `width` or `height` pixels: the whole MediaBox, rotation applied, as the window
        shows it; a view is cut to its bbox. Draw on it with `draw_rects`, `draw_lines`,
        `draw_glyphs`, `draw_decisions`; `save(path)`; Jupyter shows it inline.

        The image is drawn from the open document by a renderer process that stays warm
        between calls (inspector/render/renderer.py)."""
        from glyphscope.image import PageImage

        self.pdf.require_open()
        if resolution is None and (width is not None or height is not None):
            w, h = self.width, self.height
            resolution = 72.0 * (width / w if width is not None else float(height or 0) / h)
        return PageImage(self, 72.0 if resolution is None else resolution)

    def debug_tablefinder(
        self, table_settings: TableSettings | Mapping[str, object] | None = None
    ) -> TableFinder:
        """The table finder's working on this page (pdfplumber's `debug_tablefinder`): its
        `edges`, `intersections`, `cells` and `tables` (glyphscope/tables.py).

        `table_settings` are pdfplumber's (a dict or a `TableSettings`): `vertical_strategy`,
        `horizontal_strategy` ("lines", "lines_strict", "text", "explicit"),
        `explicit_vertical_lines`, `explicit_horizontal_lines`, `snap_tolerance`,
        `join_tolerance`, `edge_min_length`, `min_words_vertical`, `min_words_horizontal`,
        `intersection_tolerance` (each tolerance also per axis: `snap_x_tolerance`, …) and the
        `text_*` settings of the words (`text_x_tolerance`, `text_y_tolerance`, …).
        ValueError names a setting that is unknown or out of range."""
        from glyphscope.tables import TableFinder

        self.pdf.require_open()
        return TableFinder(self, table_settings)

    def find_tables(self, table_settings: TableSettings | Mapping[str, object] | None = None) -> list[Table]:
        """The tables on this page, top to bottom, as pdfplumber finds them (`debug_tablefinder`
        says how): each with `bbox`, `cells`, `rows`, `columns` and `extract()`."""
        return self.debug_tablefinder(table_settings).tables

    def find_table(self, table_settings: TableSettings | Mapping[str, object] | None = None) -> Table | None:
        """The table with the most cells (the top-most of those with as many), None without one."""
        from glyphscope.tables import largest

        return largest(self.find_tables(table_settings))

    def extract_tables(
        self, table_settings: TableSettings | Mapping[str, object] | None = None
    ) -> list[list[list[str | None]]]:
        """The text of every table (`find_tables`), row by row and cell by cell: None where a
        row has no cell at a column, "" for an empty cell."""
        finder = self.debug_tablefinder(table_settings)
        return [t.extract(**finder.settings.text_settings) for t in finder.tables]

    def extract_table(
        self, table_settings: TableSettings | Mapping[str, object] | None = None
    ) -> list[list[str | None]] | None:
        """The text of `find_table()`'s table, None without a table."""
        finder = self.debug_tablefinder(table_settings)
        from glyphscope.tables import largest

        table = largest(finder.tables)
        return None if table is None else table.extract(**finder.settings.text_settings)

    def to_dataframe(
        self, records: Literal["chars", "words", "text_lines", "lines", "rects", "curves", "images"] = "chars"
    ) -> Any:
        """The page's chars (or words, text_lines, lines, rects, curves, images) as a pandas
        DataFrame, one column per key.

        pandas is optional: without it this raises ImportError saying how to install it."""
        try:
            import pandas
        except ImportError as exc:
            raise ImportError(
                "page.to_dataframe() needs pandas, which glyphscope does not install: pip install pandas"
            ) from exc
        kinds: dict[str, tuple[type[Record], Callable[[], Sequence[Record]]]] = {
            "chars": (Char, lambda: self.chars),
            "words": (Word, lambda: self.words),
            "text_lines": (TextLine, lambda: self.text_lines),
            "lines": (Shape, lambda: self.lines),
            "rects": (Shape, lambda: self.rects),
            "curves": (Shape, lambda: self.curves),
            "images": (ImageRecord, lambda: self.images),
        }
        if records not in kinds:
            raise ValueError(f"records must be one of {', '.join(kinds)}, not {records!r}")
        kind, rows = kinds[records]
        return pandas.DataFrame([dict(r) for r in rows()], columns=list(kind._KEYS))

    def __repr__(self) -> str:
        region = "" if self._bbox is None else f" crop {tuple(round(v, 2) for v in self._bbox)}"
        return f"<glyphscope.Page {self.page_number}{region}>"


def _word(text: str, chars: tuple[Char, ...], quad: Quad, doctop: float, attrs: tuple[str, ...]) -> Word:
    x0, top = min(c.x0 for c in chars), min(c.top for c in chars)
    x1, bottom = max(c.x1 for c in chars), max(c.bottom for c in chars)
    first = chars[0]
    return Word(
        text=text,
        x0=x0,
        x1=x1,
        top=top,
        doctop=doctop + top,
        bottom=bottom,
        upright=first.upright,
        height=bottom - top,
        width=x1 - x0,
        direction=_direction(chars),
        quad=quad,
        fontname=first.fontname,
        size=first.size,
        paint_indices=tuple(c.paint_index for c in chars),
        extra=tuple((a, first[a]) for a in attrs),
    )


def _direction(chars: Sequence[Char]) -> str:
    """pdfplumber's word direction: "ltr", "rtl", "ttb" or "btt", from the first to the last char."""
    if len(chars) < 2:
        return "ltr" if chars[0].upright else "ttb"
    dx = chars[-1].x0 - chars[0].x0
    dy = chars[-1].top - chars[0].top
    if abs(dx) >= abs(dy):
        return "ltr" if dx >= 0 else "rtl"
    return "ttb" if dy > 0 else "btt"


def _overlaps(a: BBox, b: BBox, touching: bool = True) -> bool:
    if touching:
        return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a: BBox, b: BBox) -> bool:
    return b[0] <= a[0] and a[2] <= b[2] and b[1] <= a[1] and a[3] <= b[3]


def _checked(bbox: Sequence[float]) -> BBox:
    try:
        x0, top, x1, bottom = (float(v) for v in bbox)
    except (TypeError, ValueError):
        raise TypeError(f"bbox must be four numbers (x0, top, x1, bottom), not {bbox!r}") from None
    if x1 < x0 or bottom < top:
        raise ValueError(f"bbox {bbox!r} is not (x0, top, x1, bottom) with x0 <= x1 and top <= bottom")
    return (x0, top, x1, bottom)


__all__ = [
    "PDF",
    "Annot",
    "BBox",
    "Char",
    "ImageRecord",
    "Match",
    "Page",
    "Pages",
    "Shape",
    "TextLine",
    "Word",
    "open",
]
