"""The object model for Python users: `glyphscope.open(...)`, `doc.pages`, chars, words, crops.

It follows pdfplumber's conventions where they fit, over the engine's page product
(`glyphscope.core.analysis.PageAnalysis`), and adds nothing to the rules: texts, words and
lines are what the engine's assembly made of the glyphs, and a crop's text is assembled
from the region's glyphs by the same assembly, so it has the same spaces and line breaks
and the decisions that explain them.

Coordinates. Records carry two systems side by side:

* `x0, top, x1, bottom`: points from the top-left corner of the page as displayed (its
  visible box, CropBox ∩ MediaBox, turned clockwise by /Rotate), y down, as pdfplumber.
  `page.width` / `page.height` are that box's size; `crop` and `within_bbox` take boxes in
  these coordinates.
* `quad`: the glyph's four corners in PDF user space (origin bottom-left, y up, points),
  as the engine, the JSON outputs and the decision records use them.

Pages are indexed from 0 like a list (`doc.pages[0]` is the first page), while
`page.page_number` is 1-based, as PDF viewers and the command line count.

This module sits above `glyphscope.core` (the engine) and reaches the headless renderer of
`glyphscope.inspector` only through `to_image` (glyphscope/image.py), never Qt.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TypeAlias, overload

from glyphscope.core.analysis import PageAnalysis, analyze_page, document_texts
from glyphscope.core.annotations import comb_fields
from glyphscope.core.assembly import MODES, PageText, assemble
from glyphscope.core.assembly.document_text import FORM_FEED
from glyphscope.core.decision_protocol import DecisionRecord
from glyphscope.core.document import Document, open_document
from glyphscope.core.geometry import Matrix, Quad, Rect, apply
from glyphscope.core.glyph import DecodeSource, Glyph
from glyphscope.core.limits import DEFAULT_LIMITS, Limits
from glyphscope.core.page_space import display_matrix, display_size, quad_bbox, user_rect
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.visibility_class import VisibilityClass

if TYPE_CHECKING:
    from glyphscope.image import PageImage

Source: TypeAlias = str | Path | bytes | BinaryIO
"""What `open` reads: a path, the PDF's bytes, or a binary file-like object."""

BBox: TypeAlias = tuple[float, float, float, float]
"""(x0, top, x1, bottom): points from the displayed page's top-left corner, y down."""

Mode: TypeAlias = Literal["plain", "layout", "columns", "structure", "articles", "auto"]


@dataclass(frozen=True, slots=True)
class Char:
    """One glyph the page's text is made of.

    `x0, top, x1, bottom`: its box in points from the displayed page's top-left corner
    (y down); `quad`: the same box's corners in PDF user space (bottom-left origin, y up):
    descent-origin, descent-advance, ascent-advance, ascent-origin. `size` is the box
    height in points (the font's descent to ascent, scaled to the page: close to the font
    size, not the Tf operand, which is `font_size`). `fontname` is the font's /BaseFont.
    """

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    quad: Quad
    fontname: str
    size: float
    font_size: float
    paint_index: int
    decode_source: DecodeSource
    visibility: VisibilityClass


@dataclass(frozen=True, slots=True)
class Word:
    """A run of characters between spaces and line breaks of the page text, as assembly wrote it.

    `x0, top, x1, bottom`: the box around its glyphs (top-left coordinates, points);
    `quad`: user-space corners from the first glyph's start edge to the last glyph's end
    edge (reading order). `fontname` and `size` are its first glyph's; `paint_indices`
    its glyphs, in reading order.
    """

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    quad: Quad
    fontname: str
    size: float
    paint_indices: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the page text (padding trimmed), with its box as `Word` has one."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    quad: Quad
    fontname: str
    size: float
    paint_indices: tuple[int, ...]


Record: TypeAlias = Char | Word | Line

_RunFields: TypeAlias = tuple[str, float, float, float, float, Quad, str, float, tuple[int, ...]]
"""A word's or a line's fields, in the order `Word` and `Line` declare them."""


def open(  # noqa: A001 - the name users expect (pdfplumber.open)
    source: Source,
    password: str | None = None,
    *,
    params: Parameters = DEFAULT_PARAMETERS,
    limits: Limits = DEFAULT_LIMITS,
) -> PDF:
    """Open a PDF (read-only): a path, its bytes or a binary file-like object.

    Use it as a context manager (`with glyphscope.open(path) as doc:`) to close the file.
    `params` are the assembly thresholds every page uses; `limits` bound interpretation.
    Raises a `glyphscope.core.errors.GlyphscopeError` subclass when the file cannot be read,
    and `TypeError` for a source that is none of the three.
    """
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
    return PDF(document, kept, password, params)


class PDF:
    """An open document: `pages`, the whole text (`extract_text`, `texts`), `document` (the
    engine's `Document`), `close()`."""

    def __init__(
        self,
        document: Document,
        source: str | Path | bytes,
        password: str | None = None,
        params: Parameters = DEFAULT_PARAMETERS,
    ) -> None:
        self.document = document
        self.source = source  # what page images are rendered from
        self.password = password
        self.params = params
        self.pages = Pages(self)

    def close(self) -> None:
        self.document.close()

    def texts(self, mode: Mode | str = "plain", *, jobs: int | None = 1) -> Iterator[str]:
        """Each page's `extract_text(mode)`, in page order, one page at a time.

        `jobs`: processes reading the pages, each one page at a time (1: this process; None:
        one per usable processor when the document has enough pages to pay for it,
        `core.page_workers.PARALLEL_MIN_PAGES`). The texts are the same whatever it is; a
        page that fails raises here when it is due, as it would in one process.
        """
        if mode not in MODES:
            raise ValueError(f"unknown text mode {mode!r}; expected one of {', '.join(MODES)}")
        pages = range(1, self.document.page_count + 1)
        for _, text in document_texts(self.document, pages, mode, self.params, jobs=jobs):
            yield text.text or ""

    def extract_text(
        self, mode: Mode | str = "plain", *, jobs: int | None = 1, separator: str = FORM_FEED
    ) -> str:
        """The whole document's text in `mode`: the pages' texts joined by `separator` (a form
        feed, as `glyphscope text` writes them). `jobs` as in `texts`."""
        return separator.join(self.texts(mode, jobs=jobs))

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
        for i in range(len(self)):
            yield Page(self._pdf, i + 1)


class Page:
    """One page, or a region of it (`crop`, `within_bbox`).

    `page_number` is 1-based. `width`/`height`, `bbox` and every record's `x0, top, x1,
    bottom` are points from the top-left corner of the page as displayed (visible box,
    /Rotate applied, y down); `quad`s are PDF user space (bottom-left origin, y up).
    """

    def __init__(
        self,
        pdf: PDF,
        page_number: int,
        *,
        bbox: BBox | None = None,
        inside: Callable[[Glyph], bool] | None = None,
        analysis: PageAnalysis | None = None,
    ) -> None:
        self.pdf = pdf
        self.page_number = page_number
        self._analysis = analysis
        self._bbox = bbox
        self._inside = inside  # None: the whole page
        self._texts: dict[str, PageText] = {}
        self._chars: tuple[Char, ...] | None = None
        self._fontnames: dict[tuple[str, tuple[str, ...]], str] | None = None

    # ------------------------------------------------------------------ the page

    @property
    def analysis(self) -> PageAnalysis:
        """The engine's page product (glyphs, classification, texts, decisions, findings)."""
        if self._analysis is None:
            self._analysis = analyze_page(self.pdf.document, self.page_number, self.pdf.params)
        return self._analysis

    @property
    def rotation(self) -> int:
        """The page's /Rotate: 0, 90, 180 or 270 (clockwise)."""
        return self.analysis.page.boxes.rotate

    @property
    def matrix(self) -> Matrix:
        """PDF user space → this page's top-left coordinates (points, y down, rotation applied)."""
        boxes = self.analysis.page.boxes
        return display_matrix(boxes.visible_box, boxes.rotate)

    @property
    def width(self) -> float:
        """Width in points of the page as displayed (its visible box, rotation applied);
        a crop's own width."""
        return self.bbox[2] - self.bbox[0]

    @property
    def height(self) -> float:
        """Height in points of the page as displayed; a crop's own height."""
        return self.bbox[3] - self.bbox[1]

    @property
    def bbox(self) -> BBox:
        """(x0, top, x1, bottom) of this page or region in the page's top-left coordinates."""
        if self._bbox is not None:
            return self._bbox
        boxes = self.analysis.page.boxes
        w, h = display_size(boxes.visible_box, boxes.rotate)
        return (0.0, 0.0, w, h)

    @property
    def region(self) -> BBox | None:
        """The crop's bbox (top-left coordinates), None for the whole page."""
        return self._bbox

    # ------------------------------------------------------------------ regions

    def crop(self, bbox: BBox) -> Page:
        """The region `bbox` (x0, top, x1, bottom; points from the displayed page's top-left).

        A glyph belongs to it when its box centre lies inside, the rule the engine culls the
        page by, so neighbouring crops share no glyph. The region's text is assembled from
        its glyphs by the engine's assembly, with its decisions.
        """
        matrix = self.matrix
        x0, top, x1, bottom = _checked(bbox)

        def inside(g: Glyph) -> bool:
            cx, cy = apply(matrix, *g.center)
            return x0 <= cx <= x1 and top <= cy <= bottom

        return self._region((x0, top, x1, bottom), inside)

    def within_bbox(self, bbox: BBox) -> Page:
        """The region `bbox` (top-left coordinates, as `crop`), keeping only glyphs whose whole
        box lies inside it."""
        matrix = self.matrix
        x0, top, x1, bottom = _checked(bbox)

        def inside(g: Glyph) -> bool:
            gx0, gtop, gx1, gbottom = quad_bbox(g.quad, matrix)
            return x0 <= gx0 and gx1 <= x1 and top <= gtop and gbottom <= bottom

        return self._region((x0, top, x1, bottom), inside)

    def _region(self, bbox: BBox, inside: Callable[[Glyph], bool]) -> Page:
        outer = self._inside
        both = inside if outer is None else (lambda g: outer(g) and inside(g))
        return Page(self.pdf, self.page_number, bbox=bbox, inside=both, analysis=self.analysis)

    def _glyphs(self) -> Sequence[Glyph]:
        """The glyphs the text modes read (kept, paint order), within the region if any."""
        visible = self.analysis.classified.visible
        if self._inside is None:
            return visible
        inside = self._inside
        return tuple(g for g in visible if inside(g))

    # ------------------------------------------------------------------ texts and decisions

    def page_text(self, mode: Mode | str = "plain") -> PageText:
        """The engine's page text in `mode` (text, character map, decisions)."""
        if mode not in MODES:
            raise ValueError(f"unknown text mode {mode!r}; expected one of {', '.join(MODES)}")
        if self._inside is None:
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
                survivors=analysis.classified.survivors if mode in ("plain", "auto") else None,
                combs=comb_fields(analysis.page.annotations) if mode in ("plain", "auto") else None,
            )
        return found

    def extract_text(self, mode: Mode | str = "plain") -> str:
        """The text in `mode` ("plain", "layout", "columns", "structure", "articles", "auto");
        "" where structure mode finds no usable structure."""
        return self.page_text(mode).text or ""

    def decisions(self, mode: Mode | str = "plain") -> tuple[DecisionRecord, ...]:
        """The decisions behind the text in `mode`, each with its numbers (`value`,
        `threshold`, `verdict`, `describe()`). The whole page: the passes' (cull, duplicate,
        visibility, ...) then assembly's; a region: the assembly of its glyphs."""
        if self._inside is None:
            return self.analysis.decisions(mode)
        return tuple(self.page_text(mode).decisions)

    # ------------------------------------------------------------------ records

    @property
    def chars(self) -> tuple[Char, ...]:
        """The glyphs the text is made of (not culled, not duplicates, not dropped as hidden),
        in paint order. Every painted glyph: `page.analysis.page.glyphs`."""
        if self._chars is None:
            self._chars = tuple(self._char(g) for g in self._glyphs())
        return self._chars

    @property
    def words(self) -> tuple[Word, ...]:
        """The words of the plain text (see `extract_words`)."""
        return self.extract_words()

    @property
    def lines(self) -> tuple[Line, ...]:
        """The lines of the plain text (see `extract_lines`)."""
        return self.extract_lines()

    def extract_words(self, mode: Mode | str = "plain") -> tuple[Word, ...]:
        """The words of the text in `mode`, in text order: runs of characters between the
        spaces and line breaks assembly wrote (inserted or painted)."""
        return tuple(Word(*fields_) for fields_ in self._runs(mode, str.isspace))

    def extract_lines(self, mode: Mode | str = "plain") -> tuple[Line, ...]:
        """The lines of the text in `mode`, in text order (layout padding trimmed)."""
        return tuple(Line(*fields_) for fields_ in self._runs(mode, lambda c: c == "\n"))

    def _runs(self, mode: str, separator: Callable[[str], bool]) -> list[_RunFields]:
        """(text, x0, top, x1, bottom, quad, fontname, size, paint indices) of each run of the
        text between separator characters that holds at least one glyph."""
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
        matrix = self.matrix
        out: list[_RunFields] = []
        for k, glyphs in enumerate(members):
            if not glyphs:
                continue  # generated characters only (a column separator)
            glyphs.sort(key=lambda item: item[0])
            end = starts[k + 1] if k + 1 < len(starts) else len(text)
            while end > starts[k] and separator(text[end - 1]):
                end -= 1
            records = [g for _, g in glyphs]
            boxes = [quad_bbox(g.quad, matrix) for g in records]
            first, last = records[0], records[-1]
            quad: Quad = (first.quad[0], last.quad[1], last.quad[2], first.quad[3])
            out.append(
                (
                    text[starts[k] : end].strip(),
                    min(b[0] for b in boxes),
                    min(b[1] for b in boxes),
                    max(b[2] for b in boxes),
                    max(b[3] for b in boxes),
                    quad,
                    self._fontname(first),
                    first.height,
                    tuple(g.paint_index for g in records),
                )
            )
        return out

    def _char(self, g: Glyph) -> Char:
        x0, top, x1, bottom = quad_bbox(g.quad, self.matrix)
        visibility = self.analysis.classified.visibility
        visible = (
            VisibilityClass(visibility.classes[g.paint_index]) if visibility else VisibilityClass.VISIBLE
        )
        return Char(
            g.text,
            x0,
            top,
            x1,
            bottom,
            g.quad,
            self._fontname(g),
            g.height,
            g.font_size,
            g.paint_index,
            g.decode_source,
            visible,
        )

    def _fontname(self, g: Glyph) -> str:
        if self._fontnames is None:
            self._fontnames = {(f.font_key, f.form_path): f.info.base_font for f in self.analysis.page.fonts}
        return self._fontnames.get((g.font_key, g.form_path)) or g.font_key

    # ------------------------------------------------------------------ images and tables

    def to_image(self, resolution: float = 72.0) -> PageImage:
        """The page drawn by PDFium (no Qt) at `resolution` pixels per inch: the whole MediaBox,
        rotation applied, as the window shows it. Draw on it with `draw_rects`,
        `draw_glyphs`, `draw_decisions`; `save(path)`; Jupyter shows it inline."""
        from glyphscope.image import PageImage

        return PageImage(self, resolution)

    def to_dataframe(self, records: Literal["chars", "words", "lines"] = "chars") -> Any:
        """The page's chars (or words, lines) as a pandas DataFrame, one column per field.

        pandas is optional: without it this raises ImportError saying how to install it."""
        try:
            import pandas
        except ImportError as exc:
            raise ImportError(
                "page.to_dataframe() needs pandas, which glyphscope does not install: pip install pandas"
            ) from exc
        kind: type[Record]
        rows: Sequence[Record]
        if records == "chars":
            kind, rows = Char, self.chars
        elif records == "words":
            kind, rows = Word, self.words
        elif records == "lines":
            kind, rows = Line, self.lines
        else:
            raise ValueError(f"records must be 'chars', 'words' or 'lines', not {records!r}")
        return pandas.DataFrame([asdict(r) for r in rows], columns=[f.name for f in fields(kind)])

    def __repr__(self) -> str:
        region = "" if self._bbox is None else f" crop {tuple(round(v, 2) for v in self._bbox)}"
        return f"<glyphscope.Page {self.page_number}{region}>"


def _checked(bbox: Rect) -> BBox:
    try:
        x0, top, x1, bottom = (float(v) for v in bbox)
    except (TypeError, ValueError):
        raise TypeError(f"bbox must be four numbers (x0, top, x1, bottom), not {bbox!r}") from None
    if x1 < x0 or bottom < top:
        raise ValueError(f"bbox {bbox!r} is not (x0, top, x1, bottom) with x0 <= x1 and top <= bottom")
    return (x0, top, x1, bottom)


__all__ = ["PDF", "BBox", "Char", "Line", "Page", "Pages", "Word", "open"]
