"""The glyph record: one painted glyph, with everything needed to explain it.

No `from __future__ import annotations` here: a NamedTuple's field annotations written as
strings each become a typing.ForwardRef, compiled when the class is made (~36 compilations,
~0.6 ms of every start-up); written as objects they are only looked up.
"""

from enum import Enum
from typing import NamedTuple, Protocol

from glyphscope.core.geometry import Point, Quad


class DecodeSource(str, Enum):
    """Which step of the decoding chain (spec §6) produced a glyph's Unicode."""

    TOUNICODE = "tounicode"  # embedded /ToUnicode CMap
    ENCODING_CMAP = "encoding_cmap"  # /Encoding CMap whose CIDs are Unicode (e.g. UniGB-UTF16-H)
    CID_COLLECTION = "cid_collection"  # Adobe-GB1/CNS1/Japan1/Korea1 CID → Unicode
    DIFFERENCES = "differences"  # glyph name from /Differences (AGL, uniXXXX, uXXXXX)
    BASE_ENCODING = "base_encoding"  # WinAnsi / MacRoman / Standard / the Type1 program's built-in
    FONT_PROGRAM = "font_program"  # embedded TrueType cmap of an Identity font: inferred, not declared
    CODE_PAGE = (
        "code_page"  # a simple TrueType font's byte pairs read as GBK/Big5/Shift-JIS/… (core/fonts/cjk.py)
    )
    FALLBACK = "fallback"  # a guess: no encoding information answered, code taken as Latin-1 etc.
    UNRESOLVED = "unresolved"


class GlyphStatus(str, Enum):
    KEPT = "kept"
    CULLED = "culled"  # box centre outside the visible box (spec §5)
    DUPLICATE = "duplicate"  # dropped by dedupe (spec §7)
    CLIPPED = "clipped"  # wholly outside the clipping path: dropped like culled
    HIDDEN = "hidden"  # transparent, same as background or covered, dropped by Parameters.drop_hidden
    EXCLUDED = (
        "excluded"  # left out by Parameters.annotations (an annotation's glyph, or with "only" the page's)
    )


def is_space_like(text: str) -> bool:
    """A space for dedupe, the word-gap rule and text comparison (spec §7, §9): whitespace
    (U+00A0 and U+3000 included), any code point ≤ U+0020 (controls a producer paints where a
    space goes), and "" — an unresolved glyph, which text shows as a space and the word-gap rule
    counts as "already a space"."""
    if not text:
        return True
    return text.isspace() or (len(text) == 1 and ord(text) <= 0x20)


class Glyph(NamedTuple):
    """One painted glyph, in user space. Field meanings: spec §1 and §9.

    A named tuple rather than a frozen dataclass: records are made on demand from the page's
    columns (core/glyph_table.py), by the hundred thousand, and a tuple is built in one step
    (~0.3 µs against ~2 µs for a 29-field slotted dataclass). Immutable, compared and hashed
    field by field, fields in `Glyph._fields`.
    """

    paint_index: int  # position in paint order over page + forms, 0-based
    unicode: str  # "" when unresolved
    code: int
    code_bytes: int
    font_key: str  # resource name as written, e.g. "/F1"
    font_size: float  # the Tf operand
    origin: Point  # baseline start (includes text rise)
    glyph_end: Point  # origin + the glyph's own advance w0*Tfs*Th
    pen_end: Point  # origin + full advance incl. Tc, Tw
    quad: Quad  # descent-origin, descent-advance, ascent-advance, ascent-origin
    height: float  # |quad[0] -> quad[3]|
    direction: Point  # unit writing direction in user space
    wmode: int
    token_index: int  # index of the painting instruction in the page stream; -1 inside a form
    form_path: tuple[str, ...]  # XObject names of the Do chain, outer first
    mcid: int | None
    decode_source: DecodeSource
    render_mode: int
    rise: float
    font_id: str  # identity of the font object (e.g. "12 0 R" or the key when direct)
    stream_index: int = -1  # index of the painting instruction in its own stream (page or form)
    char_spacing: float = 0.0
    word_spacing: float = 0.0
    horizontal_scaling: float = 100.0
    outside_form_bbox: bool = False
    marked_tags: tuple[str, ...] = ()  # marked-content tags, outer first
    form_use: int = -1  # index into InterpretedPage.forms of the Do run that painted it; -1 for the page
    # Visibility, last (they have defaults): compact ids shared by every glyph painted in one state.
    clip_id: int = -1  # index into InterpretedPage.clips of the clip in force; -1: not clipped
    fill_id: int = 0  # index into InterpretedPage.fills (colour, alpha, soft mask)
    # Origin: an annotation's appearance (a form field, a comment, a stamp), not the page's content.
    annotation: int = (
        -1
    )  # Annotation.index (its position in /Annots) of InterpretedPage.annotations; -1: none

    @property
    def is_space(self) -> bool:
        """Space-like for dedupe and the word-gap rule (spec §7, §9)."""
        return is_space_like(self.unicode)

    @property
    def center(self) -> Point:
        q = self.quad
        return ((q[0][0] + q[2][0]) / 2.0, (q[0][1] + q[2][1]) / 2.0)

    @property
    def advance(self) -> float:
        """Length of the glyph's own advance in user space."""
        dx = self.glyph_end[0] - self.origin[0]
        dy = self.glyph_end[1] - self.origin[1]
        return (dx * dx + dy * dy) ** 0.5

    @property
    def text(self) -> str:
        """What this glyph contributes to text: unresolved becomes one space (spec §6)."""
        return self.unicode if self.unicode else " "


class FlowFields(Protocol):
    """What text flows read of a glyph (core/assembly/flow.py: the pair rules, the text
    builder): a `Glyph` has these fields, and so has the lighter `FlowGlyph`."""

    @property
    def paint_index(self) -> int: ...
    @property
    def unicode(self) -> str: ...
    @property
    def origin(self) -> Point: ...
    @property
    def glyph_end(self) -> Point: ...
    @property
    def height(self) -> float: ...
    @property
    def direction(self) -> Point: ...
    @property
    def wmode(self) -> int: ...


class FlowGlyph(NamedTuple):
    """A glyph as plain mode's flow reads it (FlowFields), made from the page's columns
    (GlyphTable.flow_glyphs): a third of a `Glyph` record's memory and building time, for a
    mode that reads seven of its 29 fields once."""

    paint_index: int
    unicode: str
    origin: Point
    glyph_end: Point
    height: float
    direction: Point
    wmode: int
