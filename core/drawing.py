"""A page's drawing as pdfplumber's users know it: stroked and filled paths, images, and the
stroke and fill colours every glyph was painted with.

The engine keeps only what can hide text (filled areas, images, the fill colour). The Python
API's `page.rects`, `page.lines`, `page.curves`, `page.images` and a char's
`stroking_color` need more, so the page is run once more by the interpreter itself with a
`DrawingRecorder` among its recorders (`read_drawing`), as the stepper's trace is: the same
streams, forms, CTM and colour-space reading, no second reader of content streams. The
recorder follows each stream through `observe` and the paint state through the interpreter's
events (core/trace.py's: fill and stroke colours, q/Q), reads each path back at its painting operator from the
construction operators handed out before it, and classifies it as pdfminer.six does
(`converter.PDFLayoutAnalyzer.paint_path`): one segment is a line, a closed axis-aligned
four-sided subpath a rect, anything else a curve; a path of several subpaths is one object
per subpath.
"""

from __future__ import annotations

import contextlib
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal

import pikepdf

from glyphscope.core.document import Document
from glyphscope.core.fonts.pdfobj import pdf_text
from glyphscope.core.geometry import Matrix, Point, apply
from glyphscope.core.interpreter import Instruction
from glyphscope.core.page import PaintKind
from glyphscope.core.trace import INITIAL_PAINT, TEXT_SHOWING, PaintState, TraceColour, TraceRecorder

_CONSTRUCTION = frozenset(("m", "l", "c", "v", "y", "h", "re"))
# painting operator → (stroke, fill, even-odd); "n" paints nothing
_PAINTING = {
    "S": (True, False, False),
    "s": (True, False, False),
    "f": (False, True, False),
    "F": (False, True, False),
    "f*": (False, True, True),
    "B": (True, True, False),
    "B*": (True, True, True),
    "b": (True, True, False),
    "b*": (True, True, True),
}
_CLOSING = frozenset(("s", "b", "b*"))  # close the subpath before painting
_NUMBERS = (int, float, Decimal)

Segment = tuple[str, tuple[Point, ...]]
"""One path operator with its points in user space: ("m", (p,)), ("l", (p,)), ("c", (p1, p2, p3)), ("h", ())."""


@dataclass(frozen=True, slots=True)
class DrawnPath:
    """One subpath painted by a stroke or fill operator, classified as pdfminer.six does.

    kind: "line", "rect" or "curve"; `points` the subpath's points (curve control points left
    out, `h` back at the start) and `segments` its operators, both in PDF user space;
    `linewidth` in user space units (the `w` operand, untransformed, as pdfminer gives it).
    """

    kind: str
    points: tuple[Point, ...]
    segments: tuple[Segment, ...]
    stroke: bool
    fill: bool
    even_odd: bool
    linewidth: float
    stroking: TraceColour
    non_stroking: TraceColour
    dash: tuple[tuple[float, ...], float] | None
    form_path: tuple[str, ...]
    mcid: int | None


@dataclass(frozen=True, slots=True)
class DrawnImage:
    """An image painted on the page: the CTM's unit square (corners in user space, counter-clockwise
    from the image's lower-left) and what the image dictionary says."""

    name: str  # the XObject's resource name ("" for an inline image)
    corners: tuple[Point, Point, Point, Point]
    srcsize: tuple[int, int]  # /Width, /Height in samples
    bits: int  # /BitsPerComponent (1 for an image mask)
    colorspace: str  # /ColorSpace as named ("" when absent)
    imagemask: bool
    inline: bool
    form_path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PageDrawing:
    """What `read_drawing` found: paths and images in paint order, and the paint state of each
    run of glyphs (`paint_of(paint_index)`)."""

    paths: tuple[DrawnPath, ...]
    images: tuple[DrawnImage, ...]
    glyph_paint_starts: tuple[int, ...]  # the first paint index each entry of glyph_paint applies to
    glyph_paint: tuple[PaintState, ...]

    def paint_of(self, paint_index: int) -> PaintState:
        """The fill and stroke colours the glyph was painted with."""
        k = bisect_right(self.glyph_paint_starts, paint_index) - 1
        return self.glyph_paint[k] if k >= 0 else INITIAL_PAINT


class DrawingRecorder(TraceRecorder):
    """Paths, images and the glyphs' paint state of one run of a page (no trace steps)."""

    def __init__(self) -> None:
        super().__init__()
        self.paths: list[DrawnPath] = []
        self.images: list[DrawnImage] = []
        self.glyph_starts: list[int] = []
        self.glyph_paint: list[PaintState] = []
        self._linewidth = 1.0
        self._dash: tuple[tuple[float, ...], float] | None = None
        self._saved_line: list[tuple[float, tuple[tuple[float, ...], float] | None]] = []  # one per q
        self._do_name = ""

    def observe(self, instructions: Iterable[Instruction]) -> Iterator[Instruction]:
        interp = self.interp
        path: list[tuple[str, list[float]]] = []
        for ins in instructions:
            if isinstance(ins, pikepdf.ContentStreamInlineImage):
                self._do_name = ""
                yield ins
                continue
            op = pdf_text(ins.operator)
            if op in _CONSTRUCTION:
                path.append((op, [float(v) for v in ins.operands if v.__class__ in _NUMBERS]))
            elif op in _PAINTING or op == "n":
                if op != "n" and path:
                    self._painted(op, path, interp.gs.ctm)
                path = []
            elif op in TEXT_SHOWING:
                if not self.glyph_paint or self.glyph_paint[-1] is not self.paint:
                    self.glyph_starts.append(interp.glyph_count)
                    self.glyph_paint.append(self.paint)
            elif op == "Do":
                self._do_name = pdf_text(ins.operands[0]).lstrip("/") if ins.operands else ""
            yield ins
            self._line_after(op, ins)

    def state_saved(self) -> None:
        """q: the line width and dash are saved with the paint state."""
        super().state_saved()
        self._saved_line.append((self._linewidth, self._dash))

    def state_restored(self) -> None:
        super().state_restored()
        if self._saved_line:
            self._linewidth, self._dash = self._saved_line.pop()

    def form_ended(self, use_index: int) -> None:
        super().form_ended(use_index)
        del self._saved_line[len(self._saved_paint) :]  # the form's unmatched q go with it

    def _line_after(self, op: str, ins: Instruction) -> None:
        """Follow the line width and dash (q/Q: `state_saved`, `state_restored`)."""
        if op == "w" and ins.operands and ins.operands[0].__class__ in _NUMBERS:
            self._linewidth = float(ins.operands[0])
        elif op == "d" and len(ins.operands) == 2:
            array, phase = ins.operands
            if isinstance(array, pikepdf.Array) and phase.__class__ in _NUMBERS:
                self._dash = (tuple(float(v) for v in array if v.__class__ in _NUMBERS), float(phase))

    def image_drawn(self, kind: str, info: pikepdf.Object | None) -> None:
        ctm = self.interp.gs.ctm
        corners = (apply(ctm, 0.0, 0.0), apply(ctm, 1.0, 0.0), apply(ctm, 1.0, 1.0), apply(ctm, 0.0, 1.0))
        inline = kind != PaintKind.IMAGE

        def get(*keys: str) -> object:
            for key in keys:
                try:
                    value = info.get(key) if info is not None else None
                except (pikepdf.PdfError, AttributeError, TypeError, ValueError):
                    value = None
                if value is not None:
                    return value
            return None

        def integer(value: object) -> int:
            try:
                return int(value)  # type: ignore[call-overload]
            except (TypeError, ValueError):
                return 0

        mask = get("/ImageMask", "/IM")
        space = get("/ColorSpace", "/CS")
        if isinstance(space, pikepdf.Array) and len(space):
            space = space[0]
        self.images.append(
            DrawnImage(
                name="" if inline else self._do_name,
                corners=corners,
                srcsize=(integer(get("/Width", "/W")), integer(get("/Height", "/H"))),
                bits=1 if mask is True else integer(get("/BitsPerComponent", "/BPC")),
                colorspace=pdf_text(space).lstrip("/") if isinstance(space, pikepdf.Name) else "",
                imagemask=mask is True,
                inline=inline,
                form_path=self.interp.frame.form_path,
            )
        )

    def _painted(self, op: str, path: list[tuple[str, list[float]]], ctm: Matrix) -> None:
        stroke, fill, even_odd = _PAINTING[op]
        segments: list[Segment] = []
        start: Point | None = None
        for name, args in path:
            if name == "re" and len(args) >= 4:
                x, y, w, h = args[-4:]
                corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
                p = [apply(ctm, px, py) for px, py in corners]
                segments += [("m", (p[0],)), ("l", (p[1],)), ("l", (p[2],)), ("l", (p[3],)), ("h", ())]
                start = None
            elif name == "m" and len(args) >= 2:
                start = apply(ctm, args[-2], args[-1])
                segments.append(("m", (start,)))
            elif name == "l" and len(args) >= 2:
                segments.append(("l", (apply(ctm, args[-2], args[-1]),)))
            elif name in ("c", "v", "y") and len(args) >= (6 if name == "c" else 4):
                pts = [apply(ctm, args[i], args[i + 1]) for i in range(0, len(args) - 1, 2)]
                segments.append(("c" if name == "c" else name, tuple(pts)))
            elif name == "h":
                segments.append(("h", ()))
        if op in _CLOSING and segments and segments[-1][0] != "h":
            segments.append(("h", ()))
        marked = self.interp.marked
        mcid = marked.active_mcid if marked is not None else None
        for subpath in _subpaths(segments):
            kind, points = classify_subpath(subpath)
            if kind:
                self.paths.append(
                    DrawnPath(
                        kind,
                        points,
                        tuple(subpath),
                        stroke,
                        fill,
                        even_odd,
                        self._linewidth,
                        self.paint.stroke,
                        self.paint.fill,
                        self._dash,
                        self.interp.frame.form_path,
                        mcid,
                    )
                )


def _subpaths(segments: list[Segment]) -> Iterator[list[Segment]]:
    """The subpaths, each from its `m` (segments before the first `m` are dropped, as pdfminer does)."""
    current: list[Segment] | None = None
    for seg in segments:
        if seg[0] == "m":
            if current:
                yield current
            current = [seg]
        elif current is not None:
            current.append(seg)
    if current:
        yield current


def classify_subpath(subpath: list[Segment]) -> tuple[str, tuple[Point, ...]]:
    """("line" | "rect" | "curve", the points) as pdfminer.six's paint_path decides; ("", ()) for a
    lone `m`."""
    if len(subpath) < 2:
        return "", ()
    first = subpath[0][1][0]
    points = tuple(seg[1][-1] if seg[0] != "h" else first for seg in subpath)
    shape = "".join("c" if seg[0] in ("c", "v", "y") else seg[0] for seg in subpath)
    if len(shape) > 3 and shape[-2:] == "lh" and points[-2] == points[0]:
        shape = shape[:-2] + "h"  # a redundant `l` back to the start before `h`
        points = points[:-2] + points[-1:]
    if shape in ("ml", "mlh"):
        return "line", points[:2]
    if shape in ("mlllh", "mllll"):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3), last = points
        square = (x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0) or (
            y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0
        )
        if points[0] == last and square:
            return "rect", points
    return "curve", points


def read_drawing(document: Document, page_number: int) -> PageDrawing:
    """Run page `page_number` (1-based) once more and return its paths, images and glyph paint.

    Raises what `Document.record_page` raises (a closed document: ValueError); a page the
    interpreter stops part-way keeps what was drawn up to there."""
    recorder = DrawingRecorder()
    # what was heard up to a failure stands; the page's own findings say why it stopped
    with contextlib.suppress(pikepdf.PdfError, RuntimeError, TypeError, KeyError, IndexError, AttributeError):
        document.record_page(page_number, [recorder])
    return PageDrawing(
        tuple(recorder.paths),
        tuple(recorder.images),
        tuple(recorder.glyph_starts),
        tuple(recorder.glyph_paint),
    )
