"""Tolerant readers for font dictionaries: a wrong type yields None, never an exception."""

from __future__ import annotations

import math
import re
from decimal import Decimal

import pikepdf

_NAME_ESCAPE = rb"#([0-9A-Fa-f]{2})"  # compiled on first use (re's cache): start-up
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
            raw = re.sub(_NAME_ESCAPE, lambda m: bytes([int(m.group(1), 16)]), obj.unparse()[1:])
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


PREDICTOR_ROW_MAX = 1 << 24
"""Bytes of one predictor row (/DecodeParms /Columns × /Colors × /BitsPerComponent) a stream
may declare before it is decoded. qpdf's predictors hold one row in memory and write the last
one out whole, so a 77-byte stream with /Columns 1000000000 decodes to a gigabyte; real
images and streams have rows of a few kilobytes (16 MB is a 4-million-pixel RGBA row)."""


def predictor_row_bytes(stream: pikepdf.Stream) -> int:
    """The largest predictor row the stream's /DecodeParms declare, in bytes (0: no predictor)."""
    parms = stream.get("/DecodeParms")
    largest = 0
    for p in as_list(parms) if isinstance(parms, pikepdf.Array) else [parms]:
        predictor = as_number(dget(p, "/Predictor")) if isinstance(p, pikepdf.Dictionary) else None
        if predictor is None or predictor <= 1:
            continue
        columns, colors, bits = (
            as_number(dget(p, key)) or default
            for key, default in (("/Columns", 1), ("/Colors", 1), ("/BitsPerComponent", 8))
        )
        if columns > 0 and colors > 0 and bits > 0:
            row = -(-columns * colors * bits // 8)
            largest = max(largest, int(row) if math.isfinite(row) else 1 << 62)  # 1e308 columns: no row fits
    return largest


def predictor_problem(stream: pikepdf.Stream, room: int = PREDICTOR_ROW_MAX) -> str | None:
    """Why the stream must not be decoded (its predictor row is over `room` bytes), or None."""
    row = predictor_row_bytes(stream)
    if row > room:
        return (
            f"its predictor rows are {row:,} bytes (/DecodeParms), over the {room:,} bytes it may decode to"
        )
    return None


def stream_bytes(obj: object) -> tuple[bytes | None, str | None]:
    """Decoded stream data, or (None, reason) when it cannot be read (or would decode to a
    predictor row over PREDICTOR_ROW_MAX: a decompression bomb qpdf cannot bound)."""
    if not isinstance(obj, pikepdf.Stream):
        return None, "not a stream"
    try:
        problem = predictor_problem(obj)
        if problem is not None:
            return None, problem
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
