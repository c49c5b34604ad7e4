"""Reading content streams within a byte budget: a decompression bomb is measured, never inflated.

qpdf decodes a stream completely in memory and pikepdf offers no size limit, so
before a content stream is tokenised its decoded length is measured here:

* leading ASCIIHexDecode / ASCII85Decode layers are decoded in Python (their
  output is smaller than their input, which is in the file);
* FlateDecode layers (any number of them: double Flate is the classic bomb) are
  inflated as a pipeline of `zlib.decompressobj`s, each asked for at most
  `CHUNK` bytes at a time, and counting stops as soon as the budget is passed;
* a chain with one other expanding filter (LZWDecode, RunLengthDecode) is
  decoded by qpdf — one level expands at most a few thousand times the bytes
  that are in the file — and a chain with two or more that are not all Flate
  cannot be bounded and is refused;
* a predictor (/DecodeParms /Predictor) holds one row and writes the last one out
  whole, so a stream whose declared row is larger than the budget left is refused
  before anything is decoded (77 bytes with /Columns 1000000000 are a gigabyte).

Within the budget the caller lets pikepdf parse the stream as usual (qpdf's
tolerant decoding is unchanged; `parse_instructions` keeps its warnings in).
Over it, the measured prefix (at most the budget) is what is left to tokenise.
"""

from __future__ import annotations

import base64
import binascii
import re
import threading
import warnings
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import pikepdf
from pikepdf.models import ContentStreamInstructions

from glyphscope.core.fonts.pdfobj import object_id, pdf_text, predictor_problem

CHUNK = 1 << 16
_FLATE = frozenset(("/FlateDecode", "/Fl"))
_ASCII_HEX = frozenset(("/ASCIIHexDecode", "/AHx"))
_ASCII_85 = frozenset(("/ASCII85Decode", "/A85"))
_EXPANDING = _FLATE | frozenset(("/LZWDecode", "/LZW", "/RunLengthDecode", "/RL"))
_WHITESPACE = rb"[\x00\t\n\x0c\r ]+"  # compiled on first use (re's cache): start-up


@dataclass(frozen=True, slots=True)
class Measured:
    """The decoded size of one or more content streams, as far as the budget let it be counted."""

    decoded_bytes: int  # counted; past the budget counting stopped, so this is a lower bound
    over_budget: bool
    prefix: bytes  # the decoded bytes up to the budget (all of them when within it)
    culprit: str  # the stream (object id or "direct") that passed the budget, or was refused
    refused: str = ""  # why a stream could not be bounded at all
    # Every stream was decoded here as qpdf decodes it, to its end and without a fault (no filter
    # or FlateDecode layers only, no predictor): `prefix` is what pikepdf would tokenise.
    clean: bool = False


def content_streams(page_obj: pikepdf.Object) -> list[pikepdf.Stream]:
    """The page's /Contents as a list of streams (a single stream, an array, or nothing)."""
    contents = page_obj.get("/Contents")
    if isinstance(contents, pikepdf.Array):
        return [s for s in contents if isinstance(s, pikepdf.Stream)]
    return [contents] if isinstance(contents, pikepdf.Stream) else []


def contents_are_streams(target: pikepdf.Object, streams: Sequence[pikepdf.Stream]) -> bool:
    """Whether `streams` are all of `target`'s content: the form stream itself, or every entry of
    the page's /Contents (qpdf warns about an entry that is not a stream)."""
    if len(streams) == 1 and streams[0] is target:
        return True
    try:
        contents = target.get("/Contents")
    except (pikepdf.PdfError, AttributeError, TypeError, ValueError):
        return False
    if isinstance(contents, pikepdf.Array):
        return len(contents) == len(streams)
    return len(streams) == 1


def _names(value: pikepdf.Object | None) -> list[str]:
    if isinstance(value, pikepdf.Name):
        return [pdf_text(value)]
    if isinstance(value, pikepdf.Array):
        return [pdf_text(v) for v in value if isinstance(v, pikepdf.Name)]
    return []


def _ascii_hex(data: bytes) -> bytes:
    data = re.sub(_WHITESPACE, b"", data).split(b">", 1)[0]
    if len(data) % 2:
        data += b"0"
    return binascii.unhexlify(data)


def _ascii_85(data: bytes) -> bytes:
    data = re.sub(_WHITESPACE, b"", data)
    if data.startswith(b"<~"):
        data = data[2:]
    data = data.split(b"~>", 1)[0]
    return base64.a85decode(data)


def _slices(data: bytes) -> Iterator[bytes]:
    view = memoryview(data)
    for start in range(0, len(data), CHUNK):
        yield bytes(view[start : start + CHUNK])


class _Faults:
    """Whether decoding found anything qpdf would warn about (or decode otherwise)."""

    __slots__ = ("found",)

    def __init__(self) -> None:
        self.found = False


def _inflated(chunks: Iterable[bytes], faults: _Faults) -> Iterator[bytes]:
    """One FlateDecode layer, never producing more than CHUNK bytes per step."""
    inflater = zlib.decompressobj()
    try:
        for chunk in chunks:
            pending = chunk
            while pending and not inflater.eof:
                out = inflater.decompress(pending, CHUNK)
                if out:
                    yield out
                pending = inflater.unconsumed_tail
            if inflater.eof:
                if pending or inflater.unused_data or next(iter(chunks), b""):
                    faults.found = True  # bytes after the end of the data
                return
        while not inflater.eof:
            out = inflater.decompress(inflater.unconsumed_tail, CHUNK)
            if not out:
                faults.found = True  # the data ends before its end
                return
            yield out
    except zlib.error:
        faults.found = True
        return  # damaged data: qpdf decodes what it can; what came before is counted


def _decoded_chunks(stream: pikepdf.Stream, faults: _Faults) -> Iterator[bytes] | None:
    """The stream's decoded bytes in bounded chunks, or None when qpdf must decode it."""
    filters = _names(stream.get("/Filter"))
    raw = stream.read_raw_bytes()
    position = 0
    try:
        while position < len(filters) and filters[position] in _ASCII_HEX | _ASCII_85:
            raw = _ascii_hex(raw) if filters[position] in _ASCII_HEX else _ascii_85(raw)
            position += 1
            faults.found = True  # decoded here, but not necessarily byte for byte as qpdf does
    except (ValueError, binascii.Error):
        return None
    rest = filters[position:]
    if not all(f in _FLATE for f in rest):
        return None
    if rest and "/DecodeParms" in stream:
        faults.found = True  # a predictor is qpdf's to apply
    chunks: Iterable[bytes] = _slices(raw)
    for _ in rest:
        chunks = _inflated(chunks, faults)
    return iter(chunks)


def measure(streams: Sequence[pikepdf.Stream], budget: int) -> Measured:
    """Count the decoded bytes of `streams` (in order) up to `budget`, keeping them.

    Streams are joined by a newline, as when qpdf coalesces a page's content array.
    """
    kept = bytearray()
    total = 0
    faults = _Faults()
    for stream in streams:
        label = object_id(stream, "direct")
        if kept:
            kept += b"\n"
            total += 1
        try:
            # a predictor writes out its last row whole: that row counts before anything decodes
            problem = predictor_problem(stream, max(budget - len(kept), 0))
            if problem is not None:
                return Measured(total, True, bytes(kept), label, problem)
            chunks = _decoded_chunks(stream, faults)
            if chunks is None:
                faults.found = True
                filters = _names(stream.get("/Filter"))
                if sum(f in _EXPANDING for f in filters) > 1:
                    chain = " ".join(filters)
                    return Measured(
                        total, True, bytes(kept), label, f"filter chain {chain} cannot be bounded"
                    )
                chunks = iter((stream.read_bytes(),))  # one expanding level: qpdf decodes it
            for chunk in chunks:
                total += len(chunk)
                room = budget - len(kept)
                if len(chunk) > room:
                    kept += chunk[: max(room, 0)]
                    return Measured(total, True, bytes(kept), label)
                kept += chunk
        except pikepdf.PdfError:
            faults.found = True
            continue  # unreadable: the parse that follows reports it
    return Measured(total, False, bytes(kept), "", clean=bool(streams) and not faults.found)


_PARSE_LOCK = threading.Lock()


def parse_instructions(target: pikepdf.Object | pikepdf.Page) -> list[ContentStreamInstructions]:
    """Tokenise a page's or a stream's content, pikepdf's warnings kept in.

    Reading a form that ends inside a string, array or dictionary, pikepdf warns
    "Unexpected end of stream" (and drops the unfinished object with all that follows);
    qpdf records the same damage on the document ("EOF while reading token"), which
    becomes the page's finding. The warning would only reach whoever watches stderr.
    `catch_warnings` swaps process-wide state, so readers take turns (the window
    interprets in several threads); a warning that is not the parser's (another
    thread's, meanwhile) is passed on as it came.
    """
    with _PARSE_LOCK, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        instructions = list(pikepdf.parse_content_stream(target))
    for w in caught:
        if not w.filename.endswith("_content_stream.py"):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return instructions


def truncated_instructions(prefix: bytes, scratch: pikepdf.Pdf) -> list[ContentStreamInstructions]:
    """Tokenise the prefix of an over-budget content stream, cut after its last whitespace.

    A predictor (/DecodeParms) is not applied to a prefix: such content streams are
    rare, and their prefix parses as junk that the interpreter skips with findings.
    """
    cut = max(prefix.rfind(b"\n"), prefix.rfind(b"\r"), prefix.rfind(b" "))
    data = prefix[: cut + 1] if cut >= 0 else b""
    if not data:
        return []
    return parse_instructions(pikepdf.Stream(scratch, data))
