"""CJK text in a simple TrueType font: byte pairs read through a code page (decode source `code_page`).

Chinese, Japanese and Korean producers (S22PDF and others) embed a TrueType font as a *simple*
font declared WinAnsiEncoding while the content strings hold double-byte code-page values
(GBK, Big5, Shift-JIS, Wansung, Johab). Read a byte at a time they give `Ä¿ ¡¡ Â¼`. The font
program says which code page it is: its cmap has a Microsoft subtable whose codes are
code-page values — (3,2) Shift-JIS, (3,3) PRC/GBK, (3,4) Big5, (3,5) Wansung, (3,6) Johab —
and a name such as `\\xCB\\xCE\\xCC\\xE5` (宋体 in GBK) says it too. MuPDF decodes such fonts
as GBK-EUC-H; glyphscope does likewise, for every code page:

* a font is a candidate when it is a TrueType simple font without /ToUnicode and without
  /Differences whose embedded program has one of those subtables, or whose /BaseFont bytes
  read as CJK in one of the code pages;
* in a string, a lead byte of the code page followed by a byte that completes a valid pair
  (present in the font's subtable, when it has one) is one code of two bytes, decoded to
  Unicode by Python's codec for the code page; its advance is the two bytes' /Widths summed,
  so the glyphs after it stand where a byte-per-glyph reading put them;
* every other byte is decoded as before (ASCII digits and Latin letters of the same string).
"""

from __future__ import annotations

import codecs
import io
import struct

CODE_PAGE_SUBTABLES: dict[int, str] = {2: "shift_jis", 3: "gbk", 4: "big5", 5: "euc_kr", 6: "johab"}
"""Microsoft cmap encoding id (platform 3) → Python codec of its code-page values."""
LEAD_BYTES: dict[str, tuple[tuple[int, int], ...]] = {
    "gbk": ((0x81, 0xFE),),
    "big5": ((0xA1, 0xF9),),
    "shift_jis": ((0x81, 0x9F), (0xE0, 0xFC)),
    "euc_kr": ((0x81, 0xFE),),
    "johab": ((0x84, 0xD3), (0xD8, 0xDE), (0xE0, 0xF9)),
}
"""Lead-byte ranges of each code page: a byte in one starts a two-byte code."""
IDEOGRAPHIC_SPACE = "\u3000"
"""The full-width space every CJK code page has (GBK/EUC-KR A1A1, Big5 A140, Shift-JIS 8140, Johab
D931): a pair, not two Latin-1 bytes `¡¡`, though Python does not count it printable."""
NAME_CODE_PAGES = ("gbk", "big5", "shift_jis", "euc_kr")
"""Code pages tried on a /BaseFont name's bytes (GBK first: S22PDF's 宋体, 黑体, 楷体_GB2312)."""


def cmap_encodings(program: bytes) -> set[tuple[int, int]]:
    """(platform, encoding) of every cmap subtable, read from the table directory (no fontTools)."""
    try:
        if len(program) < 12:
            return set()
        num_tables = struct.unpack_from(">H", program, 4)[0]
        for i in range(min(num_tables, 256)):
            tag, _, offset, _ = struct.unpack_from(">4sIII", program, 12 + 16 * i)
            if tag == b"cmap":
                count = struct.unpack_from(">H", program, offset + 2)[0]
                return {struct.unpack_from(">HH", program, offset + 4 + 8 * j) for j in range(min(count, 64))}
    except struct.error:
        return set()
    return set()


def name_bytes(obj: object) -> bytes:
    """A PDF name's own bytes (`/#CB#CE#CC#E5` gives b"\\xcb\\xce\\xcc\\xe5"); b"" for anything else."""
    try:
        raw = bytes(obj.unparse())  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 — not a pikepdf object
        return b""
    if not raw.startswith(b"/"):
        return b""
    out = bytearray()
    i = 1
    while i < len(raw):
        if (
            raw[i] == 0x23
            and i + 2 < len(raw) + 0
            and all(chr(c) in "0123456789abcdefABCDEF" for c in raw[i + 1 : i + 3])
        ):
            out.append(int(raw[i + 1 : i + 3], 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    return bytes(out)


def code_page_of_name(raw: bytes) -> str | None:
    """The code page in which a font name's non-ASCII bytes read as CJK characters, or None."""
    high = bytes(b for b in raw if b >= 0x80)
    if len(high) < 2:
        return None
    for name in NAME_CODE_PAGES:
        try:
            text = high.decode(name)
        except UnicodeDecodeError:
            continue
        if text and all(_is_cjk(c) for c in text):
            return name
    return None


def _is_cjk(c: str) -> bool:
    o = ord(c)
    return 0x3000 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF


class CodePage:
    """Byte pairs of one code page, checked against the font program's subtable when it has one."""

    def __init__(self, codec: str, pairs: frozenset[int] | None, origin: str) -> None:
        self.codec = codec
        self.origin = origin  # "font program cmap (3,3)" or "font name"
        self._pairs = pairs  # codes of the program's subtable mapped to a glyph; None: no subtable
        self._lead = [any(lo <= b <= hi for lo, hi in LEAD_BYTES[codec]) for b in range(256)]
        self._cache: dict[int, str | None] = {}

    def is_lead(self, byte: int) -> bool:
        return self._lead[byte]

    def text(self, code: int) -> str | None:
        """The Unicode of a two-byte code, or None when it is no valid pair."""
        if code in self._cache:
            return self._cache[code]
        text: str | None = None
        if self._pairs is None or code in self._pairs:
            try:
                text = codecs.decode(code.to_bytes(2, "big"), self.codec)
            except (UnicodeDecodeError, OverflowError):
                text = None
            if text is not None and (len(text) != 1 or not (text.isprintable() or text == IDEOGRAPHIC_SPACE)):
                text = None
        self._cache[code] = text
        return text


def program_code_page(program: bytes) -> CodePage | None:
    """The code page of a TrueType program's (3,2)–(3,6) subtable, with the pairs it maps."""
    found = sorted(enc for plat, enc in cmap_encodings(program) if plat == 3 and enc in CODE_PAGE_SUBTABLES)
    if not found:
        return None
    from fontTools.ttLib import TTFont  # only fonts with a CJK subtable pay for it

    try:
        font = TTFont(io.BytesIO(program), lazy=True, fontNumber=0)
        sub = font["cmap"].getcmap(3, found[0])
        pairs = frozenset(
            c for c, g in (sub.cmap if sub is not None else {}).items() if c > 0xFF and g != ".notdef"
        )
    except Exception:  # noqa: BLE001 — fontTools raises many kinds on broken programs
        return None
    if not pairs:
        return None
    return CodePage(CODE_PAGE_SUBTABLES[found[0]], pairs, f"font program cmap (3,{found[0]})")
