"""Pieces shared by every font kind: the /ToUnicode step and problem bookkeeping."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.fonts.base import FontProblem
from glyphscope.core.fonts.encodings import base_glyph_names, glyph_unicode
from glyphscope.core.fonts.pdfobj import as_name, dget, is_dict, stream_bytes

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


def drawn_by_substitute(subtype: str, base_font: str, embedded: bool) -> bool:
    """Whether a renderer draws the font's glyphs with a substitute, so that the page's ink says
    nothing about what the codes mean: no program in the file (/FontFile, /FontFile2 and
    /FontFile3 absent), other than a Type3 font (its glyph procedures are in the file) and a
    simple font naming one of the standard 14 (every reader carries them, drawn by glyph name)."""
    from glyphscope.core.fonts.metrics import strip_subset

    if embedded or subtype == "Type3":
        return False
    return not (subtype in SIMPLE_SUBTYPES and strip_subset(base_font) in STANDARD_14)
