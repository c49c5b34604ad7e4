"""Pieces shared by every font kind: the /ToUnicode step and problem bookkeeping."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.fonts.base import FontProblem
from glyphscope.core.fonts.encodings import base_glyph_names, glyph_unicode
from glyphscope.core.fonts.pdfobj import as_name, dget, is_dict, stream_bytes

if TYPE_CHECKING:
    from glyphscope.core.fonts.base import FontInfo

EMBEDDED_KEYS = ("/FontFile", "/FontFile2", "/FontFile3")


@dataclass(slots=True)
class ToUnicode:
    """Result of reading /ToUnicode (step 1 of the chain)."""

    present: bool = False
    mapping: Mapping[int, str] = field(default_factory=dict)
    # /ToUnicode /Identity-H: not a CMap stream, but producers mean "code = Unicode" (PDFBox reads it so).
    identity: bool = False
    # An embedded Identity-H/V *encoding* CMap given as /ToUnicode (no bf entries, PDFBOX-4322):
    # it falls through like an empty one; "code = Unicode" is only the chain's last guess.
    identity_guess: bool = False
    codespace: list[tuple[int, int, int]] = field(default_factory=list)
    problems: list[FontProblem] = field(default_factory=list)

    @property
    def entries(self) -> int:
        return len(self.mapping)

    def lookup(self, code: int) -> str | None:
        text = self.mapping.get(code)
        if text is None and self.identity and 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            return chr(code)
        return text

    def guess(self, code: int) -> str | None:
        if self.identity_guess and 0x20 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            return chr(code)
        return None


def read_tounicode(font: object) -> ToUnicode:
    obj = dget(font, "/ToUnicode")
    if obj is None:
        return ToUnicode()
    name = as_name(obj)
    if name is not None:
        if name in ("Identity-H", "Identity-V"):
            return ToUnicode(present=True, identity=True)
        return ToUnicode(
            present=True,
            problems=[
                FontProblem(DiagnosticKind.TOUNICODE_BROKEN, f"/ToUnicode is the name /{name}, not a CMap")
            ],
        )
    data, error = stream_bytes(obj)
    if data is None:
        return ToUnicode(
            present=True,
            problems=[
                FontProblem(DiagnosticKind.TOUNICODE_BROKEN, f"/ToUnicode stream unreadable ({error})")
            ],
        )
    from glyphscope.core.fonts.cmap import parse_cmap  # a font with a /ToUnicode stream only (start-up time)

    parsed = parse_cmap(data)
    problems = []
    if parsed.problems:
        shown = "; ".join(parsed.problems[:3]) + (" …" if len(parsed.problems) > 3 else "")
        problems.append(FontProblem(DiagnosticKind.TOUNICODE_BROKEN, f"/ToUnicode CMap: {shown}"))
    identity_guess = not parsed.to_unicode and (parsed.name or "").startswith("Identity-")
    return ToUnicode(
        present=True,
        mapping=parsed.to_unicode,
        codespace=parsed.codespace,
        problems=problems,
        identity_guess=identity_guess,
    )


def is_embedded(descriptor: object) -> bool:
    return is_dict(descriptor) and any(dget(descriptor, key) is not None for key in EMBEDDED_KEYS)


def latin1_guess(code: int) -> str | None:
    """The code read as Windows-1252 (Latin-1 plus the 0x80-0x9F punctuation), printable codes only.

    A FALLBACK guess: it is what most fonts without encoding information were typed in.
    """
    if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
        return chr(code)
    name = base_glyph_names("WinAnsiEncoding").get(code) if 0x80 <= code <= 0x9F else None
    return glyph_unicode(name) if name else None


STANDARD_14 = frozenset(
    {
        "Times-Roman",
        "Times-Bold",
        "Times-Italic",
        "Times-BoldItalic",
        "Helvetica",
        "Helvetica-Bold",
        "Helvetica-Oblique",
        "Helvetica-BoldOblique",
        "Courier",
        "Courier-Bold",
        "Courier-Oblique",
        "Courier-BoldOblique",
        "Symbol",
        "ZapfDingbats",
    }
)
"""The fonts every PDF reader carries (ISO 32000-1 §9.6.2.2): drawn by glyph name, not substituted."""

SIMPLE_SUBTYPES = ("Type1", "MMType1", "TrueType")

STANDARD_ENCODINGS = frozenset(("StandardEncoding", "WinAnsiEncoding", "MacRomanEncoding"))
"""The base encodings whose codes every renderer turns into standard glyph names (Annex D)."""

SYMBOL_FAMILIES = ("Symbol", "ZapfDingbats", "Wingdings", "Webdings", "Marlett", "MTExtra", "MT-Extra")
"""Families of symbol fonts: a substitute for one of them (other than the standard 14's own Symbol
and ZapfDingbats, drawn by name) is a text font, whose letters are not the symbols."""

SUBSTITUTE_CID = "a composite (Type0) font that is not embedded (its codes are glyph ids or CIDs of a font that is not there)"
SUBSTITUTE_SYMBOLIC = (
    "a symbolic font that is not embedded (the substitute draws text letters, not its symbols)"
)
SUBSTITUTE_ENCODING = (
    "a font that is not embedded, with the non-standard encoding /{name} (its codes name no standard glyph)"
)
SUBSTITUTE_NAMES = (
    "a font that is not embedded whose /Differences use glyph names with no standard meaning ({names})"
)
SUBSTITUTE_OTHER = "a font of kind {subtype} that is not embedded"


def substitute_reason(
    subtype: str,
    base_font: str,
    embedded: bool,
    *,
    symbolic: bool = False,
    base_encoding: str | None = None,
    glyph_names: Iterable[str] = (),
) -> str | None:
    """Why the page's ink is a renderer's substitute drawing something other than the letters the
    codes are encoded as (so the ink is no evidence about the codes), or None when the ink is
    evidence: THE rule, for the OCR verdicts (inspector/verify/check.py) and for repair's votes
    (inspector/verify/evidence.py). Facts of the font dictionary:

    * `embedded`: a program in the file (/FontFile, /FontFile2, /FontFile3): its own glyphs. None.
    * Type3: its glyph procedures are in the file. None.
    * a simple font naming one of the standard 14: every reader carries it, drawn by glyph name. None.
    * a composite font (Type0, CIDFontType0/2) not embedded: its codes are glyph ids or CIDs of a font
      that is not there; a substitute draws other glyphs. A reason.
    * a simple font (Type1, MMType1, TrueType) not embedded is drawn by a substitute (Arial, Times, a
      system font) through glyph names: code → the encoding's standard glyph name → that letter of the
      substitute. So the ink IS the encoded letter when the font is not symbolic (`symbolic`: the
      descriptor's /Flags bit 3, or a symbol family's name), its /Encoding (`base_encoding`: the name,
      or /BaseEncoding; None when it names none: the standard encoding) is a standard one and every
      /Differences name (`glyph_names`) has a standard meaning (the Adobe Glyph List, uniXXXX). Else
      a reason: a symbolic font's codes are symbols the substitute's letters are not; a glyph name
      with no meaning (g12, cid00042) is no glyph the substitute has.
    """
    from glyphscope.core.fonts.encodings import glyph_unicode
    from glyphscope.core.fonts.metrics import strip_subset

    if embedded or subtype == "Type3":
        return None
    name = strip_subset(base_font)
    if subtype in SIMPLE_SUBTYPES and name in STANDARD_14:
        return None
    if subtype in ("Type0", "CIDFontType0", "CIDFontType2"):
        return SUBSTITUTE_CID
    if subtype not in SIMPLE_SUBTYPES:
        return SUBSTITUTE_OTHER.format(subtype=subtype or "unknown")
    if symbolic or name.replace(" ", "").startswith(SYMBOL_FAMILIES):
        return SUBSTITUTE_SYMBOLIC
    if base_encoding is not None and base_encoding not in STANDARD_ENCODINGS:
        return SUBSTITUTE_ENCODING.format(name=base_encoding)
    odd = sorted({n for n in glyph_names if glyph_unicode(n) is None and n != ".notdef"})
    if odd:
        shown = ", ".join("/" + n for n in odd[:3]) + (" …" if len(odd) > 3 else "")
        return SUBSTITUTE_NAMES.format(names=shown)
    return None


def drawn_by_substitute(info: FontInfo) -> bool:
    """Whether the page's ink for `info`'s glyphs is a renderer's substitute drawing something else
    than the encoded letters (`substitute_reason`, decided when the font was loaded:
    `FontInfo.substitute`)."""
    return info.substitute is not None
