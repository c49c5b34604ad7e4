"""Loading fonts from resource dictionaries, once per document.

``load_font`` never raises: an object that is no usable font still yields a font
(`UnusableFont`: codes decode as UNRESOLVED, default metrics) carrying the reason in
``info.problems``, so the interpreter keeps the glyph positions and the counts.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import repeat

import pikepdf

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.fonts.base import DecodedCode, FontInfo, FontProblem, LoadedFont, decode_codes
from glyphscope.core.fonts.metrics import DEFAULT_ASCENT, DEFAULT_DESCENT
from glyphscope.core.fonts.pdfobj import as_name, as_text, dget, is_dict, object_id
from glyphscope.core.fonts.simple import SimpleFont
from glyphscope.core.fonts.type3 import Type3Font
from glyphscope.core.glyph import DecodeSource

SIMPLE_SUBTYPES = ("Type1", "MMType1", "TrueType", "OpenType")
UNUSABLE_WIDTH = 0.5  # em: keeps the glyphs of an unusable font apart


class UnusableFont:
    """Stand-in for an object that is not a usable font: one-byte codes, nothing decoded."""

    is_type3 = False
    wmode = 0
    ascent = DEFAULT_ASCENT
    descent = DEFAULT_DESCENT

    def __init__(self, font_id: str, subtype: str, base_font: str, reason: str) -> None:
        self.info = FontInfo(
            font_id=font_id,
            subtype=subtype,
            base_font=base_font,
            encoding="none",
            has_tounicode=False,
            tounicode_entries=0,
            widths_source="none",
            wmode=0,
            problems=(FontProblem(DiagnosticKind.FONT_FAILED, reason),),
            substitute=f"a font that could not be read ({reason}): the renderer draws it with something else",
        )

    def split(self, data: bytes) -> list[tuple[int, int]]:
        return list(zip(data, repeat(1)))

    def unicode(self, code: int) -> tuple[str, DecodeSource]:
        return ("", DecodeSource.UNRESOLVED)

    def width(self, code: int) -> float:
        return UNUSABLE_WIDTH

    def vertical(self, code: int) -> tuple[float, float, float]:
        return (-1.0, UNUSABLE_WIDTH / 2.0, 0.88)

    def decode(self, data: bytes) -> list[DecodedCode]:
        return decode_codes(self, data)


def load_font(font_obj: pikepdf.Object, font_key: str) -> LoadedFont:
    """Build the font for a /Font resource entry. Never raises."""
    font_id = object_id(font_obj, font_key)
    if not is_dict(font_obj):
        return UnusableFont(font_id, "", "", f"font {font_key} is not a dictionary")
    subtype = as_name(dget(font_obj, "/Subtype")) or ""
    base_font = as_text(dget(font_obj, "/BaseFont")) or ""
    try:
        if subtype == "Type0":
            return _composite(font_obj, font_id)
        if subtype == "Type3":
            return Type3Font(font_obj, font_id)
        if subtype in SIMPLE_SUBTYPES:
            return SimpleFont(font_obj, font_id, subtype)
        if dget(font_obj, "/DescendantFonts") is not None:
            return _composite(font_obj, font_id)  # Type0 in all but its /Subtype
        # No or unknown /Subtype: read it as a simple font and say so (its encoding may still work).
        font = SimpleFont(font_obj, font_id, subtype or "unknown")
        reason = f"font {font_key} has {'/Subtype /' + subtype if subtype else 'no /Subtype'}; read as a simple font"
        font.info = replace(
            font.info, problems=(*font.info.problems, FontProblem(DiagnosticKind.FONT_FAILED, reason))
        )
        return font
    except Exception as exc:  # noqa: BLE001 -- the contract is "never raises": the reason is recorded
        reason = f"font {font_key} could not be loaded ({type(exc).__name__}: {exc})"
        return UnusableFont(font_id, subtype, base_font, reason)


def _composite(font_obj: pikepdf.Object, font_id: str) -> LoadedFont:
    """A Type0 font: composite fonts and their CMap machinery are imported by the documents
    that have one (start-up time, issue 29)."""
    from glyphscope.core.fonts.composite import CompositeFont

    return CompositeFont(font_obj, font_id)


class FontCache:
    """Fonts of one document, parsed once each: keyed by object number for indirect fonts."""

    def __init__(self) -> None:
        self._fonts: dict[object, LoadedFont] = {}

    def get(self, font_obj: pikepdf.Object, font_key: str) -> LoadedFont:
        key = self._key(font_obj, font_key)
        if key is None:
            return load_font(font_obj, font_key)
        font = self._fonts.get(key)
        if font is None:
            font = self._fonts[key] = load_font(font_obj, font_key)
        return font

    def __len__(self) -> int:
        return len(self._fonts)

    @staticmethod
    def _key(font_obj: pikepdf.Object, font_key: str) -> object | None:
        try:
            if font_obj.is_indirect:
                return font_obj.objgen
            # A direct font dict: its serialisation identifies it (streams inside are references).
            return ("direct", font_key, font_obj.unparse())
        except (pikepdf.PdfError, AttributeError, TypeError, ValueError):
            return None
