"""The page renderer's own process: PDFium (pypdfium2) runs here, never in the window,
in `render` or in `triage --html`. No Qt: the pixels go back as raw RGBA bytes.

    python -m glyphscope.inspector.render.worker

PDFium can abort the process (std::bad_alloc on 100,000 nested marked-content sections),
hang (a Type3 glyph drawing a form that uses the same font) or run out of memory on a
hostile page. Run in a child with an address-space limit, each of those costs one page
image, and `rendering.RenderProcess` turns it into a one-line reason.

The protocol is a sequence of messages on stdin/stdout, each a 4-byte big-endian length,
a JSON header of that length and `header["size"]` bytes of payload:

* request: `{"width": W, "height": H, "size": N}` + a one-page PDF of N bytes;
* or a page of a document the process keeps open: `{"width", "height", "doc": KEY, "page": n
  (1-based), "pages": count, "media": [x0, y0, x1, y1], "rotate": r, "password": p|null}` with
  `"path": "..."` (the file is opened here), or the document's bytes as payload, or neither
  when this process already holds KEY (the last DOCUMENTS_KEPT documents are kept). A
  document whose page count is not `pages` (PDFium reads its page tree differently from the
  engine) is refused with `"mismatch": true`, an unknown KEY without its bytes with
  `"missing": true`: the caller sends the one-page copy or the bytes instead. The page is drawn
  with its MediaBox and CropBox set to `media` and its rotation to `rotate`, as the copy is;
* reply: `{"ok": true, "width", "height", "bytes_per_line", "format", "size"}` + the pixels,
  or `{"ok": false, "reason": "..."}` with no payload.

The pixels are `format` "RGBA" (byte order R, G, B, A; opaque: the page is drawn on white).
The process renders one request at a time and exits when stdin closes. PDFium's own messages
go to stderr (file descriptor 1 is pointed there, so nothing can corrupt the replies).
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
import sys
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pypdfium2 import PdfDocument

_LENGTH = struct.Struct(">I")
MAX_HEADER = 1 << 16
# Address space the renderer may take (RLIMIT_AS, Unix): past it PDFium's allocations fail
# (std::bad_alloc, MemoryError) in this process, instead of the machine swapping until the
# kernel kills a process it picks (maybe the window). pypdfium2's PDFium, unlike QtPdf's,
# does not reserve tens of GB up front, so the whole address space can be limited.
MEMORY_LIMIT = 4 << 30
DOCUMENTS_KEPT = 2  # open documents a renderer process keeps for `doc` requests (RenderProcess mirrors it)


def write_message(stream: IO[bytes], header: dict[str, object], payload: bytes | memoryview = b"") -> None:
    """One message: length, JSON header (with "size" set to the payload's length), payload."""
    header = dict(header, size=len(payload))
    data = json.dumps(header).encode()
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    if len(payload):
        stream.write(payload)
    stream.flush()


def read_message(stream: IO[bytes]) -> tuple[dict[str, Any], bytes] | None:
    """The next message, or None at the end of the stream (also for a truncated message)."""
    prefix = _read_exactly(stream, _LENGTH.size)
    if prefix is None:
        return None
    (length,) = _LENGTH.unpack(prefix)
    if length > MAX_HEADER:
        return None
    raw = _read_exactly(stream, length)
    if raw is None:
        return None
    try:
        header = json.loads(raw)
        size = int(header.get("size", 0))
    except (ValueError, TypeError, AttributeError):
        return None
    payload = _read_exactly(stream, size) if size > 0 else b""
    if payload is None:
        return None
    return header, payload


def _read_exactly(stream: IO[bytes], n: int) -> bytes | None:
    chunks = []
    while n > 0:
        chunk = stream.read(n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _render(pdf: bytes, width: int, height: int) -> tuple[dict[str, object], bytes]:
    """Page 1 of `pdf` drawn by PDFium into a width × height RGBA image, form fields included."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(pdf)
    except pypdfium2.PdfiumError as exc:
        return {"ok": False, "reason": f"PDFium could not load the page ({exc})"}, b""
    try:
        # Form fields are drawn (FPDF_FFLDraw) only with a form environment, made before the page loads.
        document.init_forms()
        if len(document) < 1:
            return {"ok": False, "reason": "PDFium found no page"}, b""
        return _draw(document, 0, width, height)
    finally:
        document.close()


class _Documents:
    """The documents this process keeps open for `doc` requests, least recently used first."""

    def __init__(self) -> None:
        from collections import OrderedDict

        self.open: OrderedDict[str, PdfDocument] = OrderedDict()

    def get(
        self, header: dict[str, Any], payload: bytes
    ) -> tuple[PdfDocument | None, dict[str, object] | None]:
        import pypdfium2

        key = str(header["doc"])
        document = self.open.get(key)
        if document is not None and not payload:
            self.open.move_to_end(key)
            return document, None
        source: bytes | str | None = payload if payload else header.get("path")
        if source is None:
            return None, {"ok": False, "missing": True, "reason": "the document is not open here"}
        if document is not None:
            self.open.pop(key).close()
        try:
            document = pypdfium2.PdfDocument(source, password=header.get("password") or None)
        except pypdfium2.PdfiumError as exc:
            return None, {"ok": False, "reason": f"PDFium could not load the document ({exc})"}
        document.init_forms()
        self.open[key] = document
        while len(self.open) > DOCUMENTS_KEPT:
            self.open.popitem(last=False)[1].close()
        return document, None


def _render_document_page(
    documents: _Documents, header: dict[str, Any], payload: bytes, width: int, height: int
) -> tuple[dict[str, object], bytes]:
    """Page `header["page"]` of a kept document, framed as the one-page copy would be."""
    document, refusal = documents.get(header, payload)
    if refusal is not None or document is None:
        return refusal or {"ok": False, "reason": "the document is not open here"}, b""
    if len(document) != int(header["pages"]):
        return {"ok": False, "mismatch": True, "reason": "PDFium reads another page count"}, b""
    x0, y0, x1, y1 = (float(v) for v in header["media"])
    return _draw(document, int(header["page"]) - 1, width, height, (x0, y0, x1, y1), int(header["rotate"]))


def _draw(
    document: PdfDocument,
    index: int,
    width: int,
    height: int,
    media: tuple[float, float, float, float] | None = None,
    rotate: int | None = None,
) -> tuple[dict[str, object], bytes]:
    """Page `index` of an open PDFium document into a width × height RGBA image (form fields
    drawn); `media`/`rotate` set its MediaBox, CropBox and rotation first (the kept documents)."""
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    page = document[index]
    try:
        if media is not None:
            page.set_mediabox(*media)
            page.set_cropbox(*media)
        if rotate is not None:
            page.set_rotation(rotate % 360)
        bitmap = pypdfium2.PdfBitmap.new_native(
            width, height, format=pdfium_c.FPDFBitmap_BGRA, rev_byteorder=True
        )
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
        # The page's /Rotate is applied by PDFium; the CropBox is the whole MediaBox.
        flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER
        args = (bitmap, page, 0, 0, width, height, 0, flags)
        pdfium_c.FPDF_RenderPageBitmap(*args)
        if page.formenv:
            pdfium_c.FPDF_FFLDraw(page.formenv, *args)
        header: dict[str, object] = {
            "ok": True,
            "width": width,
            "height": height,
            "bytes_per_line": bitmap.stride,
            "format": "RGBA",
        }
        pixels = bytes(bitmap.buffer)
        bitmap.close()
        return header, pixels
    finally:
        page.close()


def _warm_up() -> None:
    """Load PDFium before the first request, so the first page is as fast as the next."""
    import pypdfium2

    pypdfium2.PdfDocument.new().close()


def serve(requests: IO[bytes], replies: IO[bytes]) -> int:
    """Answer render requests until `requests` ends."""
    _warm_up()
    documents = _Documents()
    while True:
        message = read_message(requests)
        if message is None:
            return 0
        header, pdf = message
        try:
            width, height = int(header["width"]), int(header["height"])
            if not (0 < width <= 1 << 16 and 0 < height <= 1 << 16):
                raise ValueError(f"image size {width}×{height} px is out of range")
            if "doc" in header:
                reply, pixels = _render_document_page(documents, header, pdf, width, height)
            else:
                reply, pixels = _render(pdf, width, height)
        except Exception as exc:  # one bad request is one failed page, not a dead renderer
            reply, pixels = {"ok": False, "reason": f"{type(exc).__name__}: {exc}"}, b""
        write_message(replies, reply, pixels)


def limit_memory(limit: int = MEMORY_LIMIT) -> None:
    """Lower this process's address-space limit to `limit` bytes (never raise it); no-op off Unix."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    new = limit if soft == resource.RLIM_INFINITY else min(soft, limit)
    if hard != resource.RLIM_INFINITY:
        new = min(new, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (new, hard))


def main() -> int:
    limit_memory()
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # stray prints (PDFium) cannot corrupt replies
    return serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    sys.exit(main())
