"""The records of the Python API: chars, words, text lines, shapes, images, annotations, matches.

Each record is an object and a read-only mapping at once: `c.text` and `c["text"]` are the
same value, `dict(c)` has every key, and a pdfplumber loop (`[c for c in page.chars if
c["size"] > 10]`) runs unchanged. Where a key is pdfplumber's it means what pdfplumber's
means (pdfplumber 0.11 over pdfminer.six):

* `x0, x1, top, bottom`: the char's box in the page's top-left coordinates (y down): its
  advance along the baseline, and one em across it from the font's descent (pdfminer's
  box), so `top = bottom − size` for horizontal text;
* `size`: the effective point size, the box's height (its width in vertical writing);
* `y0, y1`: the same box from the bottom of the page's frame (y up); `doctop`: `top` plus
  the heights of the pages before;
* `matrix`: the text matrix × CTM at the glyph's origin in pdfminer's device space; `adv`
  the glyph's advance in text space × size × horizontal scaling; `upright` as pdfminer
  decides it from the matrix;
* `stroking_color`, `non_stroking_color`: the colour components as the content stream set
  them; `ncs` the fill colour space.

glyphscope's own geometry keeps its own names: `quad` (the glyph's four corners in PDF
user space, from the font's descent to its ascent) and `glyph_box` / `glyph_height` (that
quad's box in page coordinates and its height), `font_size` (the Tf operand).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from glyphscope.core.geometry import Matrix, Point, Quad
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.visibility_class import VisibilityClass

BBox = tuple[float, float, float, float]
"""(x0, top, x1, bottom): points from the page frame's top-left corner, y down."""


class Record(Mapping[str, Any]):
    """An object whose fields are also its mapping's keys (read-only)."""

    __slots__ = ()
    _KEYS: ClassVar[tuple[str, ...]] = ()

    def _keys(self) -> tuple[str, ...]:
        return self._KEYS

    def __getitem__(self, key: str) -> Any:
        if key in self._keys():
            return getattr(self, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def __contains__(self, key: object) -> bool:
        return key in self._keys()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record):
            return type(self) is type(other) and all(
                getattr(self, k) == getattr(other, k) for k in self._field_names()
            )
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash((type(self).__name__, *(getattr(self, k) for k in self._field_names())))

    @classmethod
    def _field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))  # type: ignore[arg-type]

    @property
    def bbox(self) -> BBox:
        """(x0, top, x1, bottom)."""
        return (self.x0, self.top, self.x1, self.bottom)  # type: ignore[attr-defined]


def _keys_of(cls: type[Record], drop: tuple[str, ...] = ()) -> type[Record]:
    cls._KEYS = tuple(f.name for f in fields(cls) if f.name not in drop)  # type: ignore[arg-type]
    return cls


@dataclass(frozen=True, slots=True, eq=False, repr=True)
class Char(Record):
    """One glyph the page's text is made of, with pdfplumber's keys and glyphscope's own.

    pdfplumber's: `text, fontname, size, x0, x1, top, bottom, doctop, y0, y1, width, height,
    upright, matrix, adv, page_number, ncs, stroking_color, non_stroking_color, mcid, tag,
    object_type` (see the module docstring for their definitions). glyphscope's: `quad`
    (user space, descent to ascent), `glyph_box` and `glyph_height` (that quad in page
    coordinates), `font_size` (the Tf operand), `wmode` (1: vertical writing), `paint_index`, `decode_source`, `visibility`.
    """

    text: str
    fontname: str
    size: float
    x0: float
    x1: float
    top: float
    bottom: float
    doctop: float
    y0: float
    y1: float
    width: float
    height: float
    upright: bool
    matrix: Matrix
    adv: float
    page_number: int
    ncs: str
    stroking_color: tuple[float, ...] | None
    non_stroking_color: tuple[float, ...] | None
    mcid: int | None
    tag: str | None
    quad: Quad
    glyph_box: BBox
    glyph_height: float
    font_size: float
    wmode: int
    paint_index: int
    decode_source: DecodeSource
    visibility: VisibilityClass
    object_type: str = "char"


@dataclass(frozen=True, slots=True, eq=False)
class Word(Record):
    """A word: pdfplumber's keys `text, x0, x1, top, doctop, bottom, upright, height, width,
    direction` (plus those `extra_attrs` asked for, as keys), and glyphscope's `quad` (user
    space, first glyph's start edge to last glyph's end edge), `fontname` and `size` (its first
    char's), `paint_indices` (its glyphs, in reading order)."""

    text: str
    x0: float
    x1: float
    top: float
    doctop: float
    bottom: float
    upright: bool
    height: float
    width: float
    direction: str
    quad: Quad
    fontname: str
    size: float
    paint_indices: tuple[int, ...]
    extra: tuple[tuple[str, Any], ...] = ()

    def _keys(self) -> tuple[str, ...]:
        return self._KEYS + tuple(k for k, _ in self.extra)

    def __getitem__(self, key: str) -> Any:
        for k, v in self.extra:
            if k == key:
                return v
        return Record.__getitem__(self, key)


@dataclass(frozen=True, slots=True, eq=False)
class TextLine(Record):
    """One line of the page text (padding trimmed): pdfplumber's `extract_text_lines` keys
    `text, x0, top, x1, bottom, chars`, plus `doctop` and glyphscope's `quad`, `fontname`,
    `size` (its first char's) and `paint_indices`."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    doctop: float
    chars: tuple[Char, ...]
    quad: Quad
    fontname: str
    size: float
    paint_indices: tuple[int, ...]


_NOT_TEXT = frozenset(("text", "chars", "paint_indices", "fontname", "quad"))


@dataclass(frozen=True, slots=True, eq=False)
class Shape(Record):
    """A painted path as pdfplumber has it: `object_type` "rect", "line" or "curve"; its box;
    `pts` (its points, page coordinates), `path` (its operators with their points:
    ("m", (x, top)), ("l", …), ("c", p1, p2, p3), ("h",)); `linewidth` (the `w` operand),
    `stroke`, `fill`, `evenodd`, the colours, `dash`, `mcid`."""

    object_type: str
    x0: float
    top: float
    x1: float
    bottom: float
    doctop: float
    y0: float
    y1: float
    width: float
    height: float
    pts: tuple[Point, ...]
    path: tuple[tuple[Any, ...], ...]
    linewidth: float
    stroke: bool
    fill: bool
    evenodd: bool
    stroking_color: tuple[float, ...] | None
    non_stroking_color: tuple[float, ...] | None
    dash: tuple[tuple[float, ...], float] | None
    mcid: int | None
    page_number: int

    def __getattr__(self, name: str) -> Any:
        if name in _NOT_TEXT:
            raise AttributeError(
                f"page.lines are the page's drawn lines, as pdfplumber's (a {self.object_type} has no "
                f"{name!r}); the lines of text are page.text_lines (page.extract_text_lines())"
            )
        raise AttributeError(name)


@dataclass(frozen=True, slots=True, eq=False)
class ImageRecord(Record):
    """An image painted on the page: its box, `name` (the XObject's resource name, "" inline),
    `srcsize` (samples across, down), `bits`, `colorspace`, `imagemask`, `inline`."""

    x0: float
    top: float
    x1: float
    bottom: float
    doctop: float
    y0: float
    y1: float
    width: float
    height: float
    name: str
    srcsize: tuple[int, int]
    bits: int
    colorspace: str
    imagemask: bool
    inline: bool
    page_number: int
    object_type: str = "image"


@dataclass(frozen=True, slots=True, eq=False)
class Annot(Record):
    """An entry of the page's /Annots: its /Rect as a box, `subtype`, `uri` (a link's /A /URI,
    None otherwise), `title` (/T), `contents` (/Contents)."""

    x0: float
    top: float
    x1: float
    bottom: float
    doctop: float
    y0: float
    y1: float
    width: float
    height: float
    subtype: str
    uri: str | None
    title: str | None
    contents: str | None
    page_number: int
    object_type: str = "annot"


@dataclass(frozen=True, slots=True, eq=False)
class Match(Record):
    """A `page.search` hit: the matched `text`, the box around its chars, `chars` and the
    regular expression's `groups`."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    doctop: float
    chars: tuple[Char, ...]
    groups: tuple[str | None, ...]


for _cls in (Char, TextLine, Shape, ImageRecord, Annot, Match):
    _keys_of(_cls)
_keys_of(Word, drop=("extra",))


__all__ = ["Annot", "BBox", "Char", "ImageRecord", "Match", "Record", "Shape", "TextLine", "Word"]
