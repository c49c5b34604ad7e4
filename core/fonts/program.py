"""The embedded font program of a SIMPLE font as a decoding step (spec §6).

For a symbolic font, or one whose /Encoding names no usable table, the PDF declares
nothing about its codes; a Windows-1252 guess then invents letters (`(Tibet)` read as
`LTibetM` when the font draws a parenthesis at code 0x4C). The font program knows:

* TrueType (/FontFile2): the (3,0) symbol cmap (code, or 0xF000/0xF100/0xF200 + code)
  and the (1,0) Macintosh cmap give the glyph of a code; its name (post table) goes
  through the Adobe Glyph List, and a name outside it through the font's own Unicode
  cmap ((3,1), (3,10), (0,x)) inverted.
* CFF (/FontFile3) and Type1 (/FontFile): the program's own encoding gives the glyph
  name of a code, read through the Adobe Glyph List.

Answers are inferences, tagged FONT_PROGRAM. A code whose only answer is a private-use
code point is kept apart (`private_use`) with the glyph name tried, so the font reports
it. Loaded lazily, once per font, and never raises: a broken program answers nothing.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from glyphscope.core.fonts.encodings import glyph_unicode, type1_builtin_encoding
from glyphscope.core.fonts.pdfobj import dget, stream_bytes

SYMBOL_CMAP_OFFSETS = (0x0000, 0xF000, 0xF100, 0xF200)
"""Where a (3,0) subtable puts a one-byte code (ISO 32000-1 §9.6.6.4)."""


def is_private_use(text: str) -> bool:
    return any(0xE000 <= ord(c) <= 0xF8FF or ord(c) >= 0xF0000 for c in text)


@dataclass(slots=True)
class ProgramTable:
    """code → text, and code → (private-use text, glyph name tried)."""

    kind: str  # "TrueType cmap", "CFF encoding", "Type1 encoding", or "" when nothing was read
    text: dict[int, str] = field(default_factory=dict)
    glyph_names: dict[int, str] = field(default_factory=dict)
    private_use: dict[int, tuple[str, str]] = field(default_factory=dict)
    problem: str = ""  # why the program could not be read


def _record(table: ProgramTable, code: int, name: str, text: str | None) -> None:
    table.glyph_names[code] = name
    if not text:
        return
    if is_private_use(text):
        table.private_use[code] = (text, name)
    else:
        table.text[code] = text


def _truetype(data: bytes) -> ProgramTable:
    from fontTools.ttLib import TTFont  # imported on first use: most runs never read a font program

    font = TTFont(io.BytesIO(data), lazy=True, fontNumber=0)
    table = ProgramTable("TrueType cmap")
    cmap = font.get("cmap")
    if cmap is None:
        table.problem = "no cmap table"
        return table
    unicode_of: dict[str, str] = {}
    symbol: dict[int, str] = {}
    mac: dict[int, str] = {}
    for sub in cmap.tables:
        key = (sub.platformID, sub.platEncID)
        if key == (3, 0):
            symbol.update(sub.cmap)
        elif key == (1, 0):
            mac.update(sub.cmap)
        elif sub.platformID == 0 or key in ((3, 1), (3, 10)):
            for cp, name in sorted(
                sub.cmap.items(), key=lambda item: (is_private_use(chr(item[0])), item[0])
            ):
                if cp >= 0x20:
                    unicode_of.setdefault(name, chr(cp))
    for code in range(256):
        name = next((symbol[o + code] for o in SYMBOL_CMAP_OFFSETS if o + code in symbol), None)
        if name is None:
            name = mac.get(code)
        if name is None or name == ".notdef":
            continue
        text = glyph_unicode(name)
        if not text or is_private_use(text):
            text = unicode_of.get(name) or text
        if text is None and name in symbol.values():
            pua = next((o + code for o in SYMBOL_CMAP_OFFSETS[1:] if symbol.get(o + code) == name), None)
            text = chr(pua) if pua is not None else None  # the symbol cmap's own code point: private use
        _record(table, code, name, text)
    return table


def _cff(data: bytes) -> ProgramTable:
    from fontTools.cffLib import CFFFontSet  # imported on first use, as TTFont above

    cff = CFFFontSet()
    cff.decompile(io.BytesIO(data), None)
    top = cff[cff.fontNames[0]]
    table = ProgramTable("CFF encoding")
    encoding = getattr(top, "Encoding", None)
    if not isinstance(encoding, list):
        table.problem = "the CFF program uses a standard encoding"
        return table
    for code, name in enumerate(encoding[:256]):
        if name and name != ".notdef":
            _record(table, code, name, glyph_unicode(name))
    return table


def _type1(data: bytes) -> ProgramTable:
    table = ProgramTable("Type1 encoding")
    for code, name in (type1_builtin_encoding(data) or {}).items():
        if 0 <= code < 256 and name != ".notdef":
            _record(table, code, name, glyph_unicode(name))
    return table


def read_program_table(descriptor: object) -> ProgramTable:
    """The embedded program's answers for codes 0–255; an empty table when there is none."""
    for key, reader in (("/FontFile2", _truetype), ("/FontFile3", _cff), ("/FontFile", _type1)):
        obj = dget(descriptor, key)
        if obj is None:
            continue
        data, _ = stream_bytes(obj)
        if not data:
            return ProgramTable("", problem=f"{key} is empty or unreadable")
        if key == "/FontFile3" and data[:4] in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
            reader = _truetype  # OpenType in FontFile3: the cmap speaks
        try:
            return reader(data)
        except Exception as exc:  # noqa: BLE001 — fontTools raises many kinds on broken programs
            return ProgramTable("", problem=f"{key} cannot be read: {type(exc).__name__}: {exc}")
    return ProgramTable("")
