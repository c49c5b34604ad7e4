"""The page renderer's own process: QtPdf runs here, never in the window or in `render`.

    python -m glyphscope.inspector.gui.render_worker

QtPdf (PDFium) can abort the process (std::bad_alloc on 100,000 nested marked-content
sections), hang (a Type3 glyph drawing a form that uses the same font), or die at start-up
under an address-space limit (it reserves more than 32 GB). Run in a child, each of
those costs one page image, and `rendering.RenderProcess` turns it into a one-line reason.

The protocol is a sequence of messages on stdin/stdout, each a 4-byte big-endian length,
a JSON header of that length and `header["size"]` bytes of payload:

* request: `{"width": W, "height": H, "size": N}` + a one-page PDF of N bytes;
* reply: `{"ok": true, "width", "height", "bytes_per_line", "format", "size"}` + the pixels,
  or `{"ok": false, "reason": "..."}` with no payload.

The process renders one request at a time and exits when stdin closes. Qt's own messages
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
    from PySide6.QtCore import QCoreApplication

_LENGTH = struct.Struct(">I")
MAX_HEADER = 1 << 16
# Heap the renderer may take (RLIMIT_DATA, Linux): past it PDFium's allocations fail with
# std::bad_alloc in this process, instead of the machine swapping until the kernel kills a
# process it picks (maybe the window). Address space is not limited: QtPdf reserves > 32 GB.
MEMORY_LIMIT = 4 << 30


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


def _render(
    app_holder: list[QCoreApplication], pdf: bytes, width: int, height: int
) -> tuple[dict[str, object], bytes]:
    from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QSize
    from PySide6.QtPdf import QPdfDocument, QPdfDocumentRenderOptions

    if not app_holder:
        # QtPdf needs an application object; no window system is involved.
        app_holder.append(QCoreApplication.instance() or QCoreApplication(["glyphscope-render"]))
    array = QByteArray(pdf)
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    document = QPdfDocument()
    try:
        document.load(buffer)
        if document.status() != QPdfDocument.Status.Ready or document.pageCount() < 1:
            return {"ok": False, "reason": f"QtPdf could not load the page ({document.error().name})"}, b""
        options = QPdfDocumentRenderOptions()
        options.setRenderFlags(QPdfDocumentRenderOptions.RenderFlag.Annotations)
        image = document.render(0, QSize(width, height), options)
        if image.isNull():
            return {"ok": False, "reason": "QtPdf returned no image"}, b""
        header: dict[str, object] = {
            "ok": True,
            "width": image.width(),
            "height": image.height(),
            "bytes_per_line": image.bytesPerLine(),
            "format": image.format().value,
        }
        return header, bytes(image.constBits())
    finally:
        document.close()
        buffer.close()


def _warm_up(app_holder: list[QCoreApplication]) -> None:
    """Load QtPdf and PDFium before the first request, so the first page is as fast as the next."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtPdf import QPdfDocument

    app_holder.append(QCoreApplication.instance() or QCoreApplication(["glyphscope-render"]))
    QPdfDocument().close()


def serve(requests: IO[bytes], replies: IO[bytes]) -> int:
    """Answer render requests until `requests` ends."""
    app_holder: list[QCoreApplication] = []
    _warm_up(app_holder)
    while True:
        message = read_message(requests)
        if message is None:
            return 0
        header, pdf = message
        try:
            width, height = int(header["width"]), int(header["height"])
            if not (0 < width <= 1 << 16 and 0 < height <= 1 << 16):
                raise ValueError(f"image size {width}×{height} px is out of range")
            reply, pixels = _render(app_holder, pdf, width, height)
        except Exception as exc:  # one bad request is one failed page, not a dead renderer
            reply, pixels = {"ok": False, "reason": f"{type(exc).__name__}: {exc}"}, b""
        write_message(replies, reply, pixels)


def limit_memory(limit: int = MEMORY_LIMIT) -> None:
    """Lower this process's data-size limit to `limit` bytes (never raise it); no-op off Unix."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    new = limit if soft == resource.RLIM_INFINITY else min(soft, limit)
    if hard != resource.RLIM_INFINITY:
        new = min(new, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_DATA, (new, hard))


def main() -> int:
    limit_memory()
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # stray prints (Qt, PDFium) cannot corrupt replies
    return serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    sys.exit(main())
