"""A tolerant parser for embedded CMap streams: /ToUnicode and Type0 /Encoding CMaps.

Rules (spec §6): the count before ``beginbfchar`` & co. is ignored; a block is read
until its matching ``end…`` keyword (or until another block starts, for files that
forget to close one). Garbage tokens are skipped and noted, never fatal. Codes are
keyed by their integer value, as pdf.js and pdfminer do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from glyphscope.core.fonts.third_party import agl_to_unicode

# Ranges wider than this are truncated (a <00000000> <FFFFFFFF> bfrange would
# otherwise build four billion entries); CID ranges are kept as ranges instead.
MAX_RANGE_ENTRIES = 0x10000

_TOKEN = re.compile(
    rb"""
    (?P<ws>[\s\x00]+)
  | (?P<comment>%[^\r\n]*)
  | (?P<dopen><<) | (?P<dclose>>>)
  | (?P<hex><[0-9A-Fa-f\s]*>)
  | (?P<aopen>\[) | (?P<aclose>\])
  | (?P<popen>\{) | (?P<pclose>\})
  | (?P<lit>\()
  | (?P<name>/[^\s\x00/\[\]<>(){}%]*)
  | (?P<num>[+-]?(?:\d+\.?\d*|\.\d+)(?![^\s\x00/\[\]<>(){}%]))
  | (?P<kw>[^\s\x00/\[\]<>(){}%]+)
    """,
    re.VERBOSE,
)

_ESCAPES = {ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("b"): 8, ord("f"): 12}


@dataclass(frozen=True, slots=True)
class Name:
    """A PostScript name operand (``/space``)."""

    value: str


@dataclass(frozen=True, slots=True)
class Keyword:
    """An executable name of a CMap (``begincidrange``, ``def``)."""

    value: str


@dataclass(frozen=True, slots=True)
class Code:
    """A string operand: its bytes (a code or a UTF-16BE destination)."""

    data: bytes

    @property
    def value(self) -> int:
        return int.from_bytes(self.data, "big") if self.data else 0


_MARK_ARRAY = object()
_MARK_DICT = object()


def _read_literal(data: bytes, pos: int) -> tuple[bytes, int]:
    """A ``(...)`` string starting after the opening parenthesis; returns (bytes, end)."""
    out = bytearray()
    depth = 1
    n = len(data)
    while pos < n:
        c = data[pos]
        pos += 1
        if c == 0x5C and pos < n:  # backslash
            e = data[pos]
            pos += 1
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
            elif 0x30 <= e <= 0x37:
                digits = bytes([e])
                while len(digits) < 3 and pos < n and 0x30 <= data[pos] <= 0x37:
                    digits += bytes([data[pos]])
                    pos += 1
                out.append(int(digits, 8) & 0xFF)
            elif e in (0x0A, 0x0D):
                if e == 0x0D and pos < n and data[pos] == 0x0A:
                    pos += 1
            else:
                out.append(e)
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return bytes(out), pos
        out.append(c)
    return bytes(out), pos


_WHITESPACE = b" \t\r\n\f\x00"


def _hex_bytes(token: bytes) -> bytes:
    digits = token[1:-1].translate(None, _WHITESPACE)
    if len(digits) % 2:
        digits += b"0"  # ISO 32000-1 §7.3.4.3: a missing final digit is 0
    return bytes.fromhex(digits.decode("ascii"))


def tokenize(data: bytes) -> tuple[list[object], int]:
    """PostScript-ish tokens with arrays and dicts folded; returns (tokens, garbage count)."""
    tokens: list[object] = []
    stack: list[tuple[object, int]] = []  # (marker, index into tokens)
    garbage = 0
    pos = 0
    n = len(data)
    proc_depth = 0
    while pos < n:
        m = _TOKEN.match(data, pos)
        if m is None:
            garbage += 1
            pos += 1
            continue
        kind = m.lastgroup
        pos = m.end()
        if kind in ("ws", "comment"):
            continue
        if kind == "popen":
            proc_depth += 1
            continue
        if kind == "pclose":
            proc_depth = max(0, proc_depth - 1)
            continue
        if kind == "lit":
            raw, pos = _read_literal(data, pos)
            if not proc_depth:
                tokens.append(Code(raw))
            continue
        if proc_depth:  # procedure bodies never carry mappings
            continue
        text = m.group()
        if kind == "hex":
            tokens.append(Code(_hex_bytes(text)))
        elif kind == "name":
            tokens.append(Name(text[1:].decode("latin-1")))
        elif kind == "num":
            tokens.append(float(text) if b"." in text else int(text))
        elif kind in ("aopen", "dopen"):
            stack.append((_MARK_ARRAY if kind == "aopen" else _MARK_DICT, len(tokens)))
        elif kind in ("aclose", "dclose"):
            want = _MARK_ARRAY if kind == "aclose" else _MARK_DICT
            if not stack or stack[-1][0] is not want:
                garbage += 1
                continue
            _, start = stack.pop()
            items = tokens[start:]
            del tokens[start:]
            if want is _MARK_ARRAY:
                tokens.append(items)
            else:
                tokens.append(_fold_dict(items))
        else:
            tokens.append(Keyword(text.decode("latin-1")))
    return tokens, garbage


def _fold_dict(items: list[object]) -> dict[str, object]:
    out: dict[str, object] = {}
    for i in range(0, len(items) - 1, 2):
        key = items[i]
        if isinstance(key, Name):
            out[key.value] = items[i + 1]
    return out


def utf16_text(data: bytes) -> str:
    """A bfchar/bfrange destination as text (UTF-16BE, surrogate pairs joined)."""
    if len(data) == 1:
        return chr(data[0])  # broken producers write 1-byte destinations; read as Latin-1
    if len(data) % 2:
        data = b"\x00" + data
    try:
        return data.decode("utf-16-be")
    except UnicodeDecodeError:
        return data.decode("utf-16-be", "ignore")  # lone surrogates carry no text


def _is_mapping(text: str) -> bool:
    """U+0000 or nothing counts as no mapping (it would only hide the next chain step)."""
    return bool(text) and text != "\x00"


@dataclass(slots=True)
class ParsedCMap:
    """Everything read from one CMap stream. Codes are keyed by integer value."""

    codespace: list[tuple[int, int, int]] = field(default_factory=list)  # (nbytes, low, high)
    to_unicode: dict[int, str] = field(default_factory=dict)
    cid_single: dict[int, int] = field(default_factory=dict)
    cid_ranges: list[tuple[int, int, int]] = field(default_factory=list)  # (low, high, first cid), file order
    notdef_ranges: list[tuple[int, int, int]] = field(default_factory=list)
    wmode: int = 0
    name: str | None = None
    usecmap: str | None = None
    registry: str | None = None
    ordering: str | None = None
    problems: list[str] = field(default_factory=list)

    def cid(self, code: int) -> int | None:
        """CID for a code from cidchar/cidrange (later definitions win), else notdef, else None."""
        cid = self.cid_single.get(code)
        if cid is not None:
            return cid
        for low, high, first in reversed(self.cid_ranges):
            if low <= code <= high:
                return first + code - low
        for low, high, first in self.notdef_ranges:
            if low <= code <= high:
                return first
        return None

    @property
    def has_cids(self) -> bool:
        return bool(self.cid_single or self.cid_ranges)


_BLOCKS = {
    "begincodespacerange": ("endcodespacerange", 2),
    "beginbfchar": ("endbfchar", 2),
    "beginbfrange": ("endbfrange", 3),
    "begincidchar": ("endcidchar", 2),
    "begincidrange": ("endcidrange", 3),
    "beginnotdefchar": ("endnotdefchar", 2),
    "beginnotdefrange": ("endnotdefrange", 3),
}
_END_KEYWORDS = {end for end, _ in _BLOCKS.values()}


def parse_cmap(data: bytes) -> ParsedCMap:
    """Parse a CMap stream. Never raises; oddities land in ``problems``."""
    cmap = ParsedCMap()
    tokens, garbage = tokenize(data)
    if garbage:
        cmap.problems.append(f"{garbage} unreadable byte(s) skipped")
    operands: list[object] = []
    block: str | None = None
    for tok in tokens:
        if not isinstance(tok, Keyword):
            operands.append(tok)
            continue
        kw = tok.value
        if kw in _BLOCKS or kw in _END_KEYWORDS:
            if block is not None:
                _apply_block(cmap, block, operands)
                if kw != _BLOCKS[block][0]:
                    cmap.problems.append(f"{block} closed by {kw}")
            block = kw if kw in _BLOCKS else None
            operands = []
        elif block is not None:
            cmap.problems.append(f"unexpected keyword {kw!r} inside {block}")
        elif kw == "def":
            _apply_def(cmap, operands)
            operands = []
        elif kw == "usecmap":
            if operands and isinstance(operands[-1], Name):
                cmap.usecmap = operands[-1].value
            operands = []
        else:
            operands = []  # findresource, begin, dict, dup, pop ...: nothing we need
    if block is not None:
        cmap.problems.append(f"{block} not closed")
        _apply_block(cmap, block, operands)
    return cmap


def _apply_def(cmap: ParsedCMap, operands: list[object]) -> None:
    if len(operands) < 2 or not isinstance(operands[-2], Name):
        return
    key, value = operands[-2].value, operands[-1]
    if key == "WMode" and isinstance(value, int):
        cmap.wmode = 1 if value == 1 else 0
    elif key == "CMapName" and isinstance(value, Name):
        cmap.name = value.value
    elif key == "CIDSystemInfo" and isinstance(value, dict):
        cmap.registry = _text(value.get("Registry")) or cmap.registry
        cmap.ordering = _text(value.get("Ordering")) or cmap.ordering
    elif key == "Registry":
        cmap.registry = _text(value) or cmap.registry
    elif key == "Ordering":
        cmap.ordering = _text(value) or cmap.ordering


def _text(value: object) -> str | None:
    if isinstance(value, Code):
        return value.data.decode("latin-1")
    if isinstance(value, Name):
        return value.value
    return None


def _apply_block(cmap: ParsedCMap, block: str, operands: list[object]) -> None:
    arity = _BLOCKS[block][1]
    usable = len(operands) - len(operands) % arity
    if usable != len(operands):
        cmap.problems.append(f"{block}: {len(operands) - usable} dangling operand(s)")
    for i in range(0, usable, arity):
        group = operands[i : i + arity]
        if block == "begincodespacerange":
            _add_codespace(cmap, group[0], group[1])
        elif block == "beginbfchar":
            _add_bfchar(cmap, group[0], group[1])
        elif block == "beginbfrange":
            _add_bfrange(cmap, group[0], group[1], group[2])
        elif block == "begincidchar":
            _add_cid(cmap, cmap.cid_ranges, group[0], group[0], group[1], single=cmap.cid_single)
        elif block == "begincidrange":
            _add_cid(cmap, cmap.cid_ranges, group[0], group[1], group[2], single=cmap.cid_single)
        elif block == "beginnotdefchar":
            _add_cid(cmap, cmap.notdef_ranges, group[0], group[0], group[1], single=None)
        else:
            _add_cid(cmap, cmap.notdef_ranges, group[0], group[1], group[2], single=None)


def _add_codespace(cmap: ParsedCMap, low: object, high: object) -> None:
    if not (isinstance(low, Code) and isinstance(high, Code)) or not low.data or len(low.data) > 4:
        cmap.problems.append("codespace range with unusable bounds")
        return
    nbytes = len(low.data)
    hi = high.data
    if len(hi) != nbytes:  # tolerate <00> <FFFF>-style slips: pad/cut the high bound to the low's width
        hi = (hi + b"\xff" * nbytes)[:nbytes]
        cmap.problems.append("codespace range bounds of different lengths")
    lo_v, hi_v = low.value, int.from_bytes(hi, "big")
    if hi_v < lo_v:
        lo_v, hi_v = hi_v, lo_v
    cmap.codespace.append((nbytes, lo_v, hi_v))


def _destination(value: object) -> str | None:
    if isinstance(value, Code):
        return utf16_text(value.data)
    if isinstance(value, Name):
        return agl_to_unicode(value.value)
    if isinstance(value, int) and 0 <= value <= 0x10FFFF:
        return chr(value)
    return None


def _add_bfchar(cmap: ParsedCMap, src: object, dst: object) -> None:
    text = _destination(dst)
    if not isinstance(src, Code) or text is None:
        cmap.problems.append("bfchar entry with unusable operands")
        return
    if _is_mapping(text):
        cmap.to_unicode[src.value] = text


def _add_bfrange(cmap: ParsedCMap, low: object, high: object, dst: object) -> None:
    if not (isinstance(low, Code) and isinstance(high, Code)):
        cmap.problems.append("bfrange with unusable bounds")
        return
    lo, hi = low.value, high.value
    if hi < lo:
        cmap.problems.append(f"bfrange <{lo:X}> <{hi:X}> runs backwards")
        return
    if hi - lo >= MAX_RANGE_ENTRIES:
        cmap.problems.append(f"bfrange <{lo:X}> <{hi:X}> truncated to {MAX_RANGE_ENTRIES} entries")
        hi = lo + MAX_RANGE_ENTRIES - 1
    out = cmap.to_unicode
    if isinstance(dst, list):  # one destination per code
        for i, item in enumerate(dst[: hi - lo + 1]):
            text = _destination(item)
            if text is not None and _is_mapping(text):
                out[lo + i] = text
        return
    if isinstance(dst, Name):
        text = agl_to_unicode(dst.value)
        if _is_mapping(text):
            out[lo] = text
        return
    if not isinstance(dst, Code) or not dst.data:
        cmap.problems.append("bfrange with unusable destination")
        return
    base_text = utf16_text(dst.data)
    if len(base_text) == 1:
        # One code point (possibly a surrogate pair): step the code point, so ranges crossing a
        # surrogate boundary stay valid text.
        first = ord(base_text)
        for i in range(hi - lo + 1):
            cp = first + i
            if cp > 0x10FFFF:
                break
            if not 0xD800 <= cp <= 0xDFFF and cp:
                out[lo + i] = chr(cp)
        return
    # Several UTF-16 units (a ligature, or odd bytes): step the whole value as pdfminer does.
    base = int.from_bytes(dst.data, "big")
    width = len(dst.data)
    for i in range(hi - lo + 1):
        value = base + i
        if value.bit_length() > width * 8:
            break
        text = utf16_text(value.to_bytes(width, "big"))
        if _is_mapping(text):
            out[lo + i] = text


def _add_cid(
    cmap: ParsedCMap,
    ranges: list[tuple[int, int, int]],
    low: object,
    high: object,
    cid: object,
    single: dict[int, int] | None,
) -> None:
    if not (isinstance(low, Code) and isinstance(high, Code) and isinstance(cid, int)) or cid < 0:
        cmap.problems.append("cid entry with unusable operands")
        return
    lo, hi = low.value, high.value
    if hi < lo:
        cmap.problems.append(f"cidrange <{lo:X}> <{hi:X}> runs backwards")
        return
    if single is not None and lo == hi:
        single[lo] = cid  # singles are looked up before ranges: cidchar is the more specific entry
        return
    ranges.append((lo, hi, cid))
