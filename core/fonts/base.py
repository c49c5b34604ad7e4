"""What the interpreter needs from a font, and what the `fonts` view reports.

All metrics are in TEXT space per unit of font size: the glyph-space value
already multiplied by the font matrix (0.001 for every font but Type3). So a
Helvetica "a" has width 0.556 and ascent 0.718; the interpreter multiplies by
Tfs, Th and the text rendering matrix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.glyph import DecodeSource


@dataclass(frozen=True, slots=True)
class FontProblem:
    """Something wrong with a font, found while loading it."""

    kind: DiagnosticKind
    message: str


@dataclass(frozen=True, slots=True)
class FontInfo:
    """Facts about one font object, for the fonts panel / `glyphscope fonts`."""

    font_id: str  # "12 0 R" for indirect fonts, else a synthetic id
    subtype: str  # Type1, TrueType, Type0, Type3, MMType1, CIDFontType0/2 (descendant in descendant_subtype)
    base_font: str
    encoding: str  # human-readable: "WinAnsiEncoding + Differences", "Identity-H", "90ms-RKSJ-H", ...
    has_tounicode: bool
    tounicode_entries: int  # mappings read from the ToUnicode CMap (0 when absent/empty)
    widths_source: str  # "Widths", "standard-14 metrics", "W", "DW only", "W2", "FontBBox", "none"
    wmode: int
    descendant_subtype: str | None = None
    cid_collection: str | None = None  # "Adobe-Japan1" etc.
    embedded: bool = False
    problems: tuple[FontProblem, ...] = field(default=())
    ascent: float = 0.0  # the glyph box's top in text space per unit size (0 unknown)
    descent: float = 0.0  # its bottom, < 0 normally
    # Why a renderer's substitute draws this font's codes as something other than their encoded
    # letters, so the page's ink is no evidence about them (core.fonts.common.substitute_reason);
    # None: the ink is evidence (an embedded program, Type3, or a plain text font by glyph name).
    substitute: str | None = None


# (code, byte width, unicode, decode source, width w0): everything the interpreter needs per glyph.
DecodedCode = tuple[int, int, str, DecodeSource, float]


def decode_codes(font: LoadedFont, data: bytes) -> list[DecodedCode]:
    """`LoadedFont.decode` in terms of the per-code methods (fonts may do it faster)."""
    out = []
    for code, nbytes in font.split(data):
        text, source = font.unicode(code)
        out.append((code, nbytes, text, source, font.width(code)))
    return out


class LoadedFont(Protocol):
    """A font ready for decoding. Implementations cache per code."""

    info: FontInfo
    wmode: int
    is_type3: bool
    ascent: float  # text space per unit size, > 0 normally
    descent: float  # text space per unit size, < 0 normally

    def split(self, data: bytes) -> list[tuple[int, int]]:
        """Split a string operand into (code, byte width) using the codespace ranges."""
        ...

    def unicode(self, code: int) -> tuple[str, DecodeSource]:
        """Run the decoding chain; ("", UNRESOLVED) when every step fails. Never raises."""
        ...

    def width(self, code: int) -> float:
        """Horizontal advance w0 in text space per unit size."""
        ...

    def vertical(self, code: int) -> tuple[float, float, float]:
        """(w1y, vx, vy) for WMode 1 in text space per unit size (from /W2, /DW2)."""
        ...

    def decode(self, data: bytes) -> list[DecodedCode]:
        """split + unicode + width for a whole string operand: the interpreter's hot path."""
        ...
