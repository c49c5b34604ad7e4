"""A content-stream lexer for the plain cases, with pikepdf's parser for everything else.

pikepdf's `parse_content_stream` makes a C++ object per operand and a Python object per
access; over real files that is about half of the interpreter's time (parse, then
`ins.operator`, `list(ins.operands)`, numbers as `Decimal`, every TJ array item). This module
reads the decoded bytes of a content stream with one regular expression and hands the
interpreter each operator with its operands already checked and converted the way
core/operators/operands.py would (numbers as floats, strings as bytes, names as text,
a TJ array as its strings and numbers).

It takes only what it reads exactly as qpdf does, and gives up — `lex` returns None, and
the caller asks pikepdf — on anything else: an operator it does not know (or BI…EI
inline images), a token qpdf would read otherwise or warn about (`1.2.3`, a name with
`#` or non-ASCII bytes, an integer of 16 digits or more, `true`/`false`/`null`, braces,
a string nested more than one level, an unbalanced array or dictionary), and every
operand that the operator table would refuse (too few, wrong type) — so no finding,
no skipped operator, no diagnostic ever depends on which reader read the stream.
The tests compare both readers over the corpus's streams and over the edge cases.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import TypeAlias

import pikepdf

from glyphscope.core.instructions import NO_OPERANDS, Lexed, Operand

_new_lexed = tuple.__new__  # a Lexed without its Python-level __new__: one C call

_REGULAR = rb"[^\x00\t\n\x0c\r ()<>\[\]{}/%]"
# An integer of 16 digits or more, or a real of more than 300 before its point, matches no
# number: qpdf reads the first otherwise (out of range), and the second is past a double.
_NUMBER = rb"[+-]?+(?:\d{1,300}+\.\d*+|\.\d++|\d{1,15}+)"  # possessive: read once, never re-read
_TOKEN = re.compile(
    rb"[\x00\t\n\x0c\r ]*+(?:"
    # 1, 2: numbers separated by whitespace, then an operator (most instructions: one match)
    rb"((?:" + _NUMBER + rb"[\x00\t\n\x0c\r ]++)*+)([A-Za-z'\"][A-Za-z0-9*']*+)(?!" + _REGULAR + rb")"
    rb"|(" + _NUMBER + rb")(?!" + _REGULAR + rb")"  # 3: a number before a delimiter
    rb"|(/[!-$&-'*-.0-;=?-Z\\^-z|~]*+)"  # 4: a name (printable ASCII; anything else after it is `bad`)
    rb"|(\((?:[^()\\]++|\\[\s\S]|\((?:[^()\\]++|\\[\s\S])*+\))*+\))"  # 5: a string (nested one level)
    rb"|(<[0-9A-Fa-f\x00\t\n\x0c\r ]*+>)"  # 6: a hexadecimal string
    rb"|(\[|\]|<<|>>)"  # 7: array and dictionary brackets
    rb"|(%[^\r\n]*+)"  # 8: a comment
    rb"|([^\x00\t\n\x0c\r ])"  # 9: anything else: not ours to read
    rb")"
)
_ESCAPE = re.compile(rb"\\(?:([0-7]{1,3})|(\r\n|[\s\S]))|\r\n?")
_ESCAPED = {
    b"n": b"\n",
    b"r": b"\r",
    b"t": b"\t",
    b"b": b"\b",
    b"f": b"\f",
    b"\r\n": b"",
    b"\r": b"",
    b"\n": b"",
}
_WHITESPACE = re.compile(rb"[\x00\t\n\x0c\r ]+")

_UNREAD, _AS_READ, _NUMBERS, _CHECKED = 0, 1, 2, 3  # how an operator's operands are handed on

Vocabulary: TypeAlias = dict[bytes, tuple[str, int, str, int]]
"""Operator keyword → (its text, how its operands are handed on, its signature, how many)."""


def vocabulary(signatures: dict[str, str | None], read_back: frozenset[str]) -> Vocabulary:
    """The operators `lex` reads, from their signatures (None: operands not checked by the table,
    as for path construction and the operators skipped unread; "" numbers only, any count).
    Operators without a signature have their operands converted only when they are `read_back`
    (the path a painting operator reads); no one reads the others'."""
    vocab: Vocabulary = {}
    for op, sig in signatures.items():
        if sig is None or sig == NO_OPERANDS:
            vocab[op.encode("ascii")] = (op, _AS_READ if op in read_back else _UNREAD, "", 0)
        elif sig == "":
            vocab[op.encode("ascii")] = (op, _NUMBERS, sig, -1)
        elif set(sig) == {"n"}:
            vocab[op.encode("ascii")] = (op, _NUMBERS, sig, len(sig))
        elif set(sig) <= _READ_KINDS and ("a" not in sig or op == "TJ") and ("*" not in sig or op == "BDC"):
            vocab[op.encode("ascii")] = (op, _CHECKED, sig, len(sig))
        # else: an operand kind this lexer does not hand on as its handler expects: pikepdf's
    return vocab


_READ_KINDS = frozenset("nsNa*")
"""The signature letters `_checked` hands on: an array only as TJ reads it, "anything" only as
BDC's property list."""


class _GiveUp(Exception):
    """Something this lexer does not read exactly as qpdf: the caller asks pikepdf."""


class _Integer(float):
    """A number inside a dictionary written without a point (an integer for pikepdf)."""


def _unescape(m: re.Match[bytes]) -> bytes:
    octal, char = m.group(1), m.group(2)
    if octal is not None:
        return bytes((int(octal, 8) & 0xFF,))  # qpdf keeps the low byte of \\777
    if char is None:
        return b"\n"  # a bare CR or CR LF inside a string reads as LF
    return _ESCAPED.get(char, char)  # an unknown escape is the character itself


_SIGNED_ZERO = re.compile(rb"(?<![^\x00\t\n\x0c\r ])-0+(?![^\x00\t\n\x0c\r ])")


def _numbers(text: bytes) -> list[float]:
    if text.find(b"\x00") >= 0:
        text = text.replace(b"\x00", b" ")  # NUL is white space in PDF, not to bytes.split
    values = list(map(float, text.split()))
    # An integer zero has no sign (qpdf reads -0 as 0). `find`, not `in`: on bytes, `in` first
    # tries its operand as an integer, and pays for the exception.
    if text.find(b"-0") >= 0 and _SIGNED_ZERO.search(text):
        values = [0.0 if v == 0.0 and p.find(b".") < 0 else v for v, p in zip(values, text.split())]
    return values


class Numbers(bytes):
    """The numbers of a path construction operator, as written: converted only when a painting
    operator reads its path back (most paths are stroked, and never read)."""

    __slots__ = ()

    def __iter__(self) -> Iterator[float]:  # type: ignore[override]
        return iter(_numbers(self))


def _name(token: bytes) -> str:
    if token.find(b"#") >= 0:
        raise _GiveUp  # qpdf decodes #xx
    return token.decode("ascii")


def _dictionary(items: list[Operand]) -> dict[str, Operand]:
    if len(items) % 2:
        raise _GiveUp
    out: dict[str, Operand] = {}
    for i in range(0, len(items), 2):
        key = items[i]
        if key.__class__ is not str or key in out:
            raise _GiveUp
        out[key] = items[i + 1]
    return out


def _pikepdf_dictionary(d: dict[str, Operand]) -> pikepdf.Dictionary:
    """A marked-content property list as pikepdf would have parsed it (integers, names and
    strings; anything else is left to pikepdf)."""
    values: dict[str, object] = {}
    for key, value in d.items():
        if isinstance(value, bytes):
            values[key] = pikepdf.String(value)
        elif isinstance(value, str):
            values[key] = pikepdf.Name(value)
        elif isinstance(value, _Integer):
            values[key] = int(value)
        else:
            raise _GiveUp
    return pikepdf.Dictionary(values)


def _checked(operands: Sequence[Operand], how: int, signature: str, need: int) -> Sequence[Operand]:
    """The operands the interpreter's check would hand the handler; _GiveUp where it would not run
    the operator as is (it would write a finding)."""
    if how == _AS_READ:
        for v in operands:
            if v.__class__ is dict:
                raise _GiveUp  # dictionaries only where a handler reads them (BDC)
        return operands
    if how == _NUMBERS:
        for v in operands:
            if v.__class__ is not float:
                raise _GiveUp
        if need < 0:
            return operands
    if len(operands) < need:
        raise _GiveUp
    if len(operands) > need:
        operands = operands[-need:]  # extra leading operands are ignored, as the table does
    if how == _NUMBERS:
        return operands
    out: list[Operand] = []
    for kind, v in zip(signature, operands):
        cls = v.__class__
        if kind == "n":
            if cls is not float:
                raise _GiveUp
        elif kind == "s":
            if cls is not bytes:
                raise _GiveUp
        elif kind == "N":
            if cls is not str:
                raise _GiveUp
        elif kind == "a":
            if not isinstance(v, list):
                raise _GiveUp
            v = _tj_parts(v)
        elif isinstance(v, dict):  # "*": BDC's property list
            v = _pikepdf_dictionary(v)
        elif cls is list:
            raise _GiveUp
        out.append(v)
    return out


def _tj_parts(items: list[Operand]) -> list[Operand]:
    """A TJ array as op_TJ reads it: strings and numbers; names are junk it skips."""
    for item in items:
        cls = item.__class__
        if cls is not bytes and cls is not float:
            if cls is not str:
                raise _GiveUp  # an array or dictionary inside: pikepdf's to read
            return [item for item in items if item.__class__ is not str]
    return items


_UNREAD_OPERANDS: list[Operand] = []  # shared: an operator whose operands no one reads


WINDOW = 1 << 18
"""Bytes tokenised at a time (the tokens of a window are held at once: ~13 bytes each per byte)."""


def lex(data: bytes, vocab: Vocabulary) -> list[Lexed] | None:
    """The instructions of decoded content `data`, or None when pikepdf must read it."""
    try:
        return _lex(data, vocab)
    except (_GiveUp, ValueError, IndexError):
        return None


def _windows(data: bytes) -> Iterator[list[tuple[bytes, ...]]]:
    """The tokens of `data`, a window at a time. A window ends after a line feed: no number, name
    or operator spans one, and a string or hexadecimal string cut by it does not close in its
    window, so its opening bracket is `bad` there and the stream goes to pikepdf — a cut never
    changes a token."""
    pos, n = 0, len(data)
    while pos < n:
        end = data.find(b"\n", pos + WINDOW) + 1 if pos + WINDOW < n else 0
        if end <= 0:
            end = n
        yield _TOKEN.findall(data, pos, end)
        pos = end


def _lex(data: bytes, vocab: Vocabulary) -> list[Lexed]:
    out: list[Lexed] = []
    append = out.append
    operands: list[Operand] = []
    stack: list[tuple[list[Operand], bool]] = []  # enclosing operand lists; True where a dictionary opened
    in_dict = False
    for nums, op, num, name, string, hexa, bracket, comment, _bad in chain.from_iterable(_windows(data)):
        if op:
            entry = vocab.get(op)
            if entry is None or stack:
                raise _GiveUp  # an operator we do not know, or one inside an array or dictionary
            word, how, signature, need = entry
            if how == _UNREAD:
                append(_new_lexed(Lexed, (word, _UNREAD_OPERANDS)))
                operands = []
                continue
            if operands:
                if nums:
                    operands.extend(_numbers(nums))
                append(_new_lexed(Lexed, (word, _checked(operands, how, signature, need))))
                operands = []
                continue
            if how == _AS_READ:
                append(_new_lexed(Lexed, (word, Numbers(nums) if nums else _UNREAD_OPERANDS)))
                continue
            if nums:  # _numbers, inlined: most instructions come this way
                values = list(map(float, nums.split()))
                if nums.find(b"-0") >= 0 and _SIGNED_ZERO.search(nums):
                    values = _numbers(nums)
            else:
                values = []
            if how == _NUMBERS and need >= 0 and len(values) != need:
                if len(values) < need:
                    raise _GiveUp
                values = values[-need:]
            append(
                _new_lexed(
                    Lexed, (word, _checked(values, how, signature, need) if how == _CHECKED else values)
                )
            )
        elif num:
            value = _numbers(num)[0]
            operands.append(_Integer(value) if in_dict and num.find(b".") < 0 else value)
        elif string:
            body = string[1:-1]
            operands.append(
                _ESCAPE.sub(_unescape, body) if body.find(b"\\") >= 0 or body.find(b"\r") >= 0 else body
            )
        elif name:
            operands.append(_name(name))
        elif hexa:
            digits = _WHITESPACE.sub(b"", hexa[1:-1])
            if len(digits) % 2:
                digits += b"0"  # qpdf reads a missing last digit as 0
            operands.append(bytes.fromhex(digits.decode("ascii")))
        elif bracket:
            if bracket == b"[" or bracket == b"<<":
                stack.append((operands, in_dict))
                operands = []
                in_dict = bracket == b"<<"
            else:
                if not stack or in_dict != (bracket == b">>"):
                    raise _GiveUp
                inner = _dictionary(operands) if in_dict else operands
                operands, in_dict = stack.pop()
                operands.append(inner)
        elif not comment:
            raise _GiveUp  # a character no token of ours starts with
    if stack or operands:
        raise _GiveUp  # an unfinished object, or operands without an operator, at the end
    return out
