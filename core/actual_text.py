"""Replacement text of marked content: /ActualText (ISO 32000-1 §14.9.4) and /E (§14.9.5).

A producer wraps glyphs whose own Unicode is wrong or incomplete (digits whose
ToUnicode maps to U+0000, a soft hyphen painted as a space, a ligature, an
abbreviation) in `/Span <</ActualText (...)>> BDC … EMC`. The interpreter
records each such span as data: which glyphs it covers (a contiguous range of
paint indices, since everything painted between BDC and EMC is painted in a
row, forms included) and the text it declares. It decides nothing: assembly
(core/assembly/actual_text.py) writes the replacement in place of the glyphs'
text, behind `Parameters.actual_text`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pikepdf

REPLACEMENT_KEYS = ("/ActualText", "/E")
"""Property keys whose text replaces the span's glyphs, in order of precedence: the
ActualText is the exact replacement; /E, the expansion of an abbreviation, is used
when there is no ActualText."""


@dataclass(frozen=True, slots=True)
class ActualTextSpan:
    """One marked-content span whose property list declares a replacement text.

    Only outermost spans are recorded: nested inside another span, a span's glyphs
    are already replaced by the outer text. A span that painted no glyph is not recorded.
    """

    first: int  # paint_index of the first glyph painted inside the span
    last: int  # paint_index of the last one (inclusive)
    text: str  # the replacement as declared (text string decoded: UTF-16BE with BOM, UTF-8 with BOM, PDFDocEncoding)
    key: str  # "/ActualText" or "/E"
    tag: str  # the BDC tag, e.g. "/Span"
    token_index: int  # page-stream instruction of the BDC; -1 when the BDC is inside a form
    stream_index: int  # the BDC's index in its own stream (page or form)
    form_path: tuple[str, ...]  # forms the BDC is inside, outer first (empty: the page stream)

    def __contains__(self, paint_index: object) -> bool:
        return isinstance(paint_index, int) and self.first <= paint_index <= self.last

    @property
    def glyph_count(self) -> int:
        return self.last - self.first + 1

    @property
    def key_name(self) -> str:
        """The key without its slash: "ActualText" or "E"."""
        return self.key.lstrip("/")


def replacement_of(properties: object) -> tuple[str, str] | None:
    """(text, key) a BDC property dictionary declares, or None.

    A value that is not a text string (a name, a number, a broken object) declares
    nothing: the glyphs keep their own text.
    """
    if not isinstance(properties, pikepdf.Dictionary):
        return None
    for key in REPLACEMENT_KEYS:
        try:
            value = properties.get(key)
        except (pikepdf.PikepdfError, ValueError, TypeError):
            continue
        if isinstance(value, pikepdf.String):
            return str(value), key
    return None
