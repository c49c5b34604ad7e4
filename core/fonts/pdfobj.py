"""Tolerant readers for font dictionaries: a wrong type yields None, never an exception."""

from __future__ import annotations

import re
from decimal import Decimal

import pikepdf

_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_READ_ERRORS = (pikepdf.PdfError, pikepdf.DataDecodingError, ValueError, RuntimeError)


def dget(obj: object, key: str) -> object | None:
    """``obj[key]`` for dictionaries and stream dictionaries, else None."""
    if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
        try:
            return obj.get(key)
        except _READ_ERRORS:
            return None
    return None


def is_dict(obj: object) -> bool:
    return isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream))


def as_name(obj: object) -> str | None:
    """A PDF name without its slash, or None. Names that are not UTF-8 are read as Latin-1."""
    if isinstance(obj, pikepdf.Name):
        try:
            return str(obj)[1:]
        except UnicodeDecodeError:
            raw = _NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), obj.unparse()[1:])
            return raw.decode("latin-1")
    return None


def pdf_text(obj: object) -> str:
    """`str(obj)` of a pikepdf object (a name with its slash, an operator's keyword, a
    dictionary); when its bytes are not UTF-8, the object as the file writes it (`/G#ff`)."""
    try:
        return str(obj)
    except UnicodeDecodeError:
        return obj.unparse().decode("latin-1")  # type: ignore[attr-defined]


def as_number(obj: object) -> float | None:
    if isinstance(obj, bool):
        return None
    if isinstance(obj, (int, float, Decimal)):
        return float(obj)
    return None


def as_int(obj: object) -> int | None:
    n = as_number(obj)
    if n is None or n != n or abs(n) > 2**31:
        return None
    return int(n)


def as_list(obj: object) -> list[object]:
    """The items of an array (empty list for anything else)."""
    if isinstance(obj, pikepdf.Array):
        try:
            return list(obj)
        except _READ_ERRORS:
            return []
    return []


def as_numbers(obj: object) -> list[float] | None:
    """An array of numbers, or None when it is not one."""
    items = as_list(obj)
    if not items:
        return None
    out = [as_number(x) for x in items]
    if any(x is None for x in out):
        return None
    return [x for x in out if x is not None]


def as_text(obj: object) -> str | None:
    """A PDF string or name as text (for /Registry, /BaseFont ...)."""
    if isinstance(obj, pikepdf.Name):
        return as_name(obj)
    if isinstance(obj, pikepdf.String):
        return bytes(obj).decode("latin-1")
    return None


def stream_bytes(obj: object) -> tuple[bytes | None, str | None]:
    """Decoded stream data, or (None, reason) when it cannot be read."""
    if not isinstance(obj, pikepdf.Stream):
        return None, "not a stream"
    try:
        return obj.read_bytes(), None
    except _READ_ERRORS as exc:
        return None, f"{type(exc).__name__}: {exc}"


def object_id(obj: object, fallback: str) -> str:
    """ "12 0 R" for an indirect object, else the fallback."""
    if isinstance(obj, pikepdf.Object):
        try:
            if obj.is_indirect:
                num, gen = obj.objgen
                return f"{num} {gen} R"
        except _READ_ERRORS:
            return fallback
    return fallback
