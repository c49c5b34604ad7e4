"""Simple-font encodings: base tables, /Differences and glyph names (spec §6, steps 2 and 4).

Tables come from pdfminer.six's ``latin_enc`` (Standard, MacRoman, WinAnsi, PDFDoc)
and glyph names go through fontTools' Adobe Glyph List, which also reads uniXXXX,
uXXXXX, ligature names (f_f_i) and suffixed names (a.sc). MacExpertEncoding, Symbol
and ZapfDingbats have no table in either library; we do not hand-write one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from glyphscope.core.fonts.pdfobj import as_int, as_list, as_name
from glyphscope.core.fonts.third_party import agl_to_unicode, latin_encodings

_COLUMNS = {"StandardEncoding": 1, "MacRomanEncoding": 2, "WinAnsiEncoding": 3, "PDFDocEncoding": 4}
KNOWN_BASE_ENCODINGS = frozenset(("StandardEncoding", "MacRomanEncoding", "WinAnsiEncoding"))


@cache
def base_glyph_names(encoding: str) -> Mapping[int, str]:
    """code → glyph name for a named base encoding ({} when not available)."""
    column = _COLUMNS.get(encoding)
    if column is None:
        return {}
    out: dict[int, str] = {}
    for row in latin_encodings():
        code = row[column]
        if isinstance(code, int):
            out[code] = row[0]
    if encoding == "WinAnsiEncoding":
        # ISO 32000-1 Annex D note 6: WinAnsi 255 octal (0xAD) is the hyphen; latin_enc lists a space there.
        out[0xAD] = "hyphen"
    return out


def glyph_unicode(name: str) -> str | None:
    """Unicode for a glyph name via the AGL, or None (g12, cid00012, glyph7 ...)."""
    if not name or name == ".notdef":
        return None
    text = agl_to_unicode(name)
    if not text or text == "\x00":
        return None
    return text


def parse_differences(obj: object) -> tuple[dict[int, str], int]:
    """/Differences array → (code → glyph name, count of unusable items)."""
    out: dict[int, str] = {}
    bad = 0
    code: int | None = None
    for item in as_list(obj):
        number = as_int(item)
        if number is not None:
            code = number
            continue
        name = as_name(item)
        if name is None or code is None:
            bad += 1
            continue
        if 0 <= code <= 255:
            out[code] = name
        code += 1
    return out, bad


_TYPE1_ENCODING_ENTRY = rb"dup\s+(\d{1,3})\s*/([^\s/\[\]{}()<>%]+)\s+put"  # both compiled on first use
_TYPE1_STANDARD = rb"/Encoding\s+StandardEncoding\s+def"


def type1_builtin_encoding(program: bytes) -> dict[int, str] | None:
    """The built-in encoding of a Type 1 font program (its cleartext part), if it has its own.

    None when the program says ``/Encoding StandardEncoding def`` or has no readable entries.
    The cleartext part comes before ``eexec``; we only look there.
    """
    head = program.split(b"eexec", 1)[0]
    if re.search(_TYPE1_STANDARD, head):
        return None
    out: dict[int, str] = {}
    for m in re.finditer(_TYPE1_ENCODING_ENTRY, head):
        code = int(m.group(1))
        if code <= 255:
            out[code] = m.group(2).decode("latin-1")
    return out or None
