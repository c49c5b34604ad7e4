"""The one page renderer (PDFium through pypdfium2, no Qt), and the user-space → pixel mapping.

PDFium draws the CropBox only. To show glyphs that the visible box culls, we render an
in-memory one-page copy whose CropBox is widened to the MediaBox (pikepdf → bytes), with
the document's form defaults so fields are drawn. /Rotate stays on the copy, so PDFium
rotates; `page_matrix` applies the same rotation to user space, and the canvas, the
overlays, `render`, the HTML report and `page.to_image()` all use it.

PDFium itself runs in a child process (`render_worker`, address space limited to 4 GiB),
never here: a page that crashes, hangs or exhausts memory inside PDFium costs its image,
and the caller gets `RenderFailed` with a one-line reason. Page sizes are checked before
anything reaches PDFium (`page_size_problem`, `frame_boxes`, `render_pixels`). The pixels
come back as `Pixels` (RGBA bytes): the window wraps them in a QImage (gui.rendering),
the headless commands in a Pillow image.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import math
import queue
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pikepdf

from glyphscope.core.geometry import Matrix, Rect
from glyphscope.core.page import PageBoxes
from glyphscope.core.page_space import display_matrix
from glyphscope.core.page_tree_repair import open_pdf

if TYPE_CHECKING:
    from PIL import Image

MAX_RENDER_PIXELS = 40_000_000  # width × height cap of one rendered page image (~160 MB ARGB)
MAX_PAGE_SIDE = 14_400.0  # pt: the largest page side in default user space (ISO 32000-1, Annex C)
MIN_RENDER_SCALE = 0.05  # pixels per point
RENDER_TIME_LIMIT = 20.0  # seconds one page may take in the renderer before it is stopped
ACQUIRE_LIMITS = 3  # a render waits for a free renderer at most this many render time limits
CANCEL_GRACE = 1.0  # seconds a cancelled render may still finish before its process is killed
RENDER_PROCESSES = 2  # warm renderer processes at most (a hung page must not block the next one)
FALLBACK_FRAME: Rect = (0.0, 0.0, 612.0, 792.0)  # the frame of a page whose MediaBox is unusable


class DocumentMismatch(Exception):
    """The renderer reads the document's pages differently from the engine: draw the page from
    its one-page copy instead."""


@dataclass(frozen=True)
class DocumentPage:
    """A page of a document the renderer process keeps open (RenderProcess.render_document):
    `key` names the document for its whole life; the renderer opens `path`, or reads `data`."""

    key: str
    path: str | None
    data: bytes | None
    password: str | None
    page_number: int
    page_count: int
    media_box: Rect
    rotate: int


class RenderFailed(Exception):
    """The page has no image; `str(exc)` is the one-line reason (the window shows it on the page)."""


def render_failure(exc: BaseException) -> str:
    """The page's one-line "could not be rendered: <reason>"."""
    reason = str(exc) if isinstance(exc, RenderFailed) else f"{type(exc).__name__}: {exc}"
    return f"could not be rendered: {reason or type(exc).__name__}"


# ---------------------------------------------------------------------------------------------
# Geometry


def media_display_size(boxes: PageBoxes, scale: float = 1.0) -> tuple[float, float]:
    """Width and height of the displayed (rotated) MediaBox at `scale` pixels per point."""
    x0, y0, x1, y1 = boxes.media_box
    w, h = (x1 - x0) * scale, (y1 - y0) * scale
    return (h, w) if boxes.rotate % 180 == 90 else (w, h)


def page_matrix(boxes: PageBoxes, scale: float = 1.0) -> Matrix:
    """User space → pixels of the displayed MediaBox (y down), /Rotate applied clockwise."""
    return display_matrix(boxes.media_box, boxes.rotate, scale)


def page_size_problem(boxes: PageBoxes) -> str | None:
    """Why the page's MediaBox cannot be rendered as it is (not finite, empty, or larger than
    PDF allows), or None. Such a page is shown blank in `frame_boxes`, with its overlays."""
    x0, y0, x1, y1 = boxes.media_box
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        return "its MediaBox is not a finite rectangle"
    w, h = x1 - x0, y1 - y0
    if not (w > 0 and h > 0):
        return "its MediaBox is empty"
    if w > MAX_PAGE_SIDE or h > MAX_PAGE_SIDE:
        return f"its MediaBox is {w:.4g} × {h:.4g} pt, over the PDF limit of {MAX_PAGE_SIDE:,.0f} pt a side"
    return None


def _clamp_span(a: float, b: float) -> tuple[float, float] | None:
    """[a, b] cut to at most MAX_PAGE_SIDE, kept near the origin where content usually is."""
    if not (math.isfinite(a) and math.isfinite(b)):
        a = a if math.isfinite(a) else -MAX_PAGE_SIDE
        b = b if math.isfinite(b) else MAX_PAGE_SIDE
    a, b = max(a, -MAX_PAGE_SIDE), min(b, 2 * MAX_PAGE_SIDE)
    if b - a > MAX_PAGE_SIDE:
        a = max(a, min(0.0, b - MAX_PAGE_SIDE))
        b = a + MAX_PAGE_SIDE
    return (a, b) if b - a >= 1.0 else None


def frame_boxes(boxes: PageBoxes) -> PageBoxes:
    """The boxes the window lays the page out with: `boxes` itself when renderable, else a
    MediaBox cut to MAX_PAGE_SIDE a side (lower-left part near the origin), or Letter when
    nothing usable is left. Every size that reaches the renderer comes from a frame."""
    if page_size_problem(boxes) is None:
        return boxes
    x0, y0, x1, y1 = boxes.media_box
    xs, ys = _clamp_span(x0, x1), _clamp_span(y0, y1)
    media: Rect = (xs[0], ys[0], xs[1], ys[1]) if xs and ys else FALLBACK_FRAME
    return PageBoxes(media, media, media, boxes.rotate % 360)


def clamp_scale(boxes: PageBoxes, scale: float) -> float:
    """`scale` (pixels per point) made finite, ≥ MIN_RENDER_SCALE and within MAX_RENDER_PIXELS."""
    if not math.isfinite(scale) or scale <= 0:
        scale = 1.0
    w, h = media_display_size(frame_boxes(boxes), scale)
    if w * h > MAX_RENDER_PIXELS:
        scale *= (MAX_RENDER_PIXELS / (w * h)) ** 0.5
    return max(scale, MIN_RENDER_SCALE)


def render_pixels(boxes: PageBoxes, scale: float) -> tuple[int, int]:
    """The pixel size of the page image at `scale` (after `clamp_scale`), ≥ 1 each way."""
    w, h = media_display_size(frame_boxes(boxes), clamp_scale(boxes, scale))
    return max(1, min(65_536, round(w))), max(1, min(65_536, round(h)))


def _normalized(r: Rect) -> list[float]:
    return [min(r[0], r[2]), min(r[1], r[3]), max(r[0], r[2]), max(r[1], r[3])]


def single_page_pdf(pdf: pikepdf.Pdf, page_number: int, boxes: PageBoxes) -> bytes:
    """A one-page PDF of `page_number` whose CropBox is the whole MediaBox.

    Streams are copied as they are (no decoding): a decompression bomb stays compressed here.
    """
    out = pikepdf.new()
    out.pages.append(pdf.pages[page_number - 1])
    page = out.pages[0].obj
    media = pikepdf.Array(_normalized(boxes.media_box))
    page["/MediaBox"] = media
    page["/CropBox"] = media
    page["/Rotate"] = int(boxes.rotate) % 360
    for key in ("/BleedBox", "/TrimBox", "/ArtBox"):
        if key in page:
            del page[key]
    _copy_form_defaults(pdf, out, page)
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        # pikepdf warns that copied widget annotations are unreachable from /AcroForm: irrelevant
        # for a throwaway copy that is only rendered.
        warnings.simplefilter("ignore")
        out.save(
            buffer,
            compress_streams=False,
            stream_decode_level=pikepdf.StreamDecodeLevel.none,
            object_stream_mode=pikepdf.ObjectStreamMode.disable,
        )
    out.close()
    return buffer.getvalue()


def _copy_form_defaults(source: pikepdf.Pdf, out: pikepdf.Pdf, page: pikepdf.Dictionary) -> None:
    """Give the copy an /AcroForm: the source's default resources and appearance, and the fields
    whose widgets are on the page. PDFium then draws the fields (a field without an appearance
    stream included) as a viewer does. A malformed form costs the fields' drawing, never the page."""
    errors = (pikepdf.PdfError, pikepdf.ForeignObjectError, RuntimeError, ValueError, TypeError, KeyError)
    with contextlib.suppress(*errors, AttributeError):
        form = source.Root.get("/AcroForm")
        if not isinstance(form, pikepdf.Dictionary):
            return
        fields: list[pikepdf.Object] = []
        seen: set[tuple[int, int]] = set()
        annots = page.get("/Annots")
        for annot in annots if isinstance(annots, pikepdf.Array) else []:
            if not isinstance(annot, pikepdf.Dictionary) or annot.get("/Subtype") != pikepdf.Name.Widget:
                continue
            node = annot
            for _ in range(32):  # the field tree's root; a /Parent cycle stops here
                parent = node.get("/Parent")
                if not isinstance(parent, pikepdf.Dictionary):
                    break
                node = parent
            if node.is_indirect and node.objgen not in seen:
                seen.add(node.objgen)
                fields.append(node)
        if not fields:
            return
        copied = pikepdf.Dictionary(Fields=pikepdf.Array(fields))
        for key in ("/DA", "/NeedAppearances", "/Q", "/DR"):
            if key in form:
                copied[key] = _foreign(out, form[key])
        out.Root["/AcroForm"] = copied


def _foreign(out: pikepdf.Pdf, obj: Any, depth: int = 0) -> Any:
    """`obj` of another file made usable in `out`: indirect objects copied (with what they
    reference), direct dictionaries and arrays rebuilt around them; scalars (pikepdf gives
    booleans and numbers as Python values) as they are."""
    if not isinstance(obj, pikepdf.Object):
        return obj
    if obj.is_indirect:
        return out.copy_foreign(obj)
    if depth < 8 and isinstance(obj, pikepdf.Dictionary):
        return pikepdf.Dictionary({k: _foreign(out, v, depth + 1) for k, v in obj.items()})
    if depth < 8 and isinstance(obj, pikepdf.Array):
        return pikepdf.Array([_foreign(out, v, depth + 1) for v in obj])
    return obj


@dataclass(frozen=True)
class Pixels:
    """A rendered page: `height` rows of `bytes_per_line` bytes, RGBA (opaque), from the renderer."""

    width: int
    height: int
    bytes_per_line: int
    data: bytes

    def to_pil(self) -> Image.Image:
        """The pixels as a Pillow RGBA image (its own copy)."""
        from PIL import Image

        return Image.frombuffer(
            "RGBA", (self.width, self.height), self.data, "raw", "RGBA", self.bytes_per_line, 1
        ).copy()


# ---------------------------------------------------------------------------------------------
# The renderer processes

WORKER_COMMAND = (sys.executable, "-m", "glyphscope.inspector.render.worker")
STDERR_TAIL = 4096  # bytes of the child's stderr kept to explain a crash


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _address_space_limited() -> bool:
    try:
        import resource
    except ImportError:  # not on Unix
        return False
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return soft != resource.RLIM_INFINITY


def _crash_reason(returncode: int | None, stderr_tail: str) -> str:
    """One line saying how the renderer died, from its exit status and its last words."""
    if "bad_alloc" in stderr_tail or "Out of memory" in stderr_tail or "MemoryError" in stderr_tail:
        return "the renderer ran out of memory"
    if returncode is None:
        return "the renderer stopped answering"
    if returncode >= 0:
        return f"the renderer exited with status {returncode}"
    detail = f"the renderer crashed ({_signal_name(-returncode)})"
    if returncode in (-signal.SIGTRAP, -signal.SIGSEGV, -signal.SIGABRT) and _address_space_limited():
        detail += ": the address-space limit (ulimit -v) may be too low for PDFium"
    elif returncode == -signal.SIGKILL:
        detail += ", perhaps out of memory"
    return detail


class RenderProcess:
    """One renderer child (`render_worker`), one request at a time; restarted after it dies.

    `command` is the child's argv (tests pass a stand-in that crashes or sleeps).
    """

    def __init__(self, command: tuple[str, ...] | list[str] = WORKER_COMMAND) -> None:
        self.command = list(command)
        self._proc: subprocess.Popen[bytes] | None = None
        self._replies: queue.Queue[tuple[dict[str, Any], bytes] | None] = queue.Queue()
        self._stderr: deque[bytes] = deque()
        self._stderr_reader: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.starts = 0  # how many children were started (tests, benchmarks)
        self.loaded: OrderedDict[str, None] = OrderedDict()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Start the child now (idempotent), so its start-up overlaps other work."""
        with self._start_lock:
            if not self.alive():
                self.stop()
                self._spawn()

    def _spawn(self) -> None:
        from glyphscope.inspector.render.worker import read_message

        proc = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            close_fds=True,
        )
        self._proc = proc
        self.starts += 1
        self.loaded = OrderedDict()  # documents the new child holds (none yet; its LRU's mirror)
        replies: queue.Queue[tuple[dict[str, Any], bytes] | None] = queue.Queue()
        tail: deque[bytes] = deque()
        self._replies, self._stderr = replies, tail

        def read_replies() -> None:
            assert proc.stdout is not None
            try:
                while True:
                    message = read_message(proc.stdout)
                    replies.put(message)
                    if message is None:
                        return
            except (OSError, ValueError):
                replies.put(None)

        def read_stderr() -> None:
            assert proc.stderr is not None
            size = 0
            try:
                for line in iter(proc.stderr.readline, b""):
                    tail.append(line)
                    size += len(line)
                    while size > STDERR_TAIL and len(tail) > 1:
                        size -= len(tail.popleft())
            except (OSError, ValueError):
                pass

        threading.Thread(target=read_replies, name="glyphscope-render-replies", daemon=True).start()
        self._stderr_reader = threading.Thread(
            target=read_stderr, name="glyphscope-render-stderr", daemon=True
        )
        self._stderr_reader.start()

    def render(
        self,
        pdf: bytes,
        width: int,
        height: int,
        time_limit: float = RENDER_TIME_LIMIT,
        should_stop: Callable[[], bool] | None = None,
    ) -> Pixels:
        """`pdf` page 1 as a width × height image; RenderFailed with the reason otherwise.

        On overrun (or when `should_stop()` is true after CANCEL_GRACE) the child is
        killed; the next call starts a new one.
        """
        header, pixels = self._exchange({"width": width, "height": height}, pdf, time_limit, should_stop)
        if not header.get("ok"):
            raise RenderFailed(str(header.get("reason") or "the renderer gave no reason"))
        return _pixels(header, pixels)

    def render_document(
        self,
        page: DocumentPage,
        width: int,
        height: int,
        time_limit: float = RENDER_TIME_LIMIT,
        should_stop: Callable[[], bool] | None = None,
    ) -> Pixels:
        """A page of a document the child keeps open (sent once: its path, or its bytes), framed
        as the one-page copy is; DocumentMismatch when PDFium counts other pages."""
        from glyphscope.inspector.render.worker import DOCUMENTS_KEPT

        header: dict[str, object] = {
            "width": width,
            "height": height,
            "doc": page.key,
            "page": page.page_number,
            "pages": page.page_count,
            "media": _normalized(page.media_box),
            "rotate": int(page.rotate) % 360,
            "password": page.password,
        }
        if page.path is not None:
            header["path"] = page.path
        for attempt in range(2):
            self.start()
            send = page.data if page.data is not None and (attempt or page.key not in self.loaded) else b""
            reply, pixels = self._exchange(header, send or b"", time_limit, should_stop)
            if reply.get("missing") and attempt == 0 and page.data is not None:
                self.loaded.pop(page.key, None)
                continue
            break
        self.loaded[page.key] = None
        self.loaded.move_to_end(page.key)
        while len(self.loaded) > DOCUMENTS_KEPT:
            self.loaded.popitem(last=False)
        if reply.get("mismatch"):
            raise DocumentMismatch(str(reply.get("reason") or "page count"))
        if not reply.get("ok"):
            raise RenderFailed(str(reply.get("reason") or "the renderer gave no reason"))
        return _pixels(reply, pixels)

    def _exchange(
        self,
        header: dict[str, object],
        payload: bytes,
        time_limit: float,
        should_stop: Callable[[], bool] | None,
    ) -> tuple[dict[str, Any], bytes]:
        """One request and its reply; RenderFailed when the child dies, overruns or is cancelled."""
        from glyphscope.inspector.render.worker import write_message

        self.start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            write_message(proc.stdin, header, payload)
        except (BrokenPipeError, OSError, ValueError):
            raise RenderFailed(self._died()) from None
        deadline = time.monotonic() + time_limit
        cancel_after = time.monotonic() + CANCEL_GRACE  # a page nearly done is cheaper than a restart
        while True:
            try:
                reply = self._replies.get(timeout=0.05 if should_stop is not None else time_limit)
                break
            except queue.Empty:
                if should_stop is not None and should_stop() and time.monotonic() > cancel_after:
                    self.stop()
                    raise RenderFailed("rendering was cancelled") from None
                if time.monotonic() >= deadline:
                    self.stop()
                    raise RenderFailed(f"the renderer took longer than {time_limit:g} s") from None
        if reply is None:
            raise RenderFailed(self._died())
        return reply

    def _died(self) -> str:
        proc, self._proc = self._proc, None
        returncode = None
        if proc is not None:
            try:
                returncode = proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self._stderr_reader is not None:
            self._stderr_reader.join(0.5)  # the child's last words explain the crash
        if proc is not None:
            _close_pipes(proc)
        tail = b"".join(self._stderr).decode("utf-8", "replace")
        return _crash_reason(returncode, tail)

    def stop(self) -> None:
        """Kill the child (if any) and forget it."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5.0)
        _close_pipes(proc)


def _close_pipes(proc: subprocess.Popen[bytes]) -> None:
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.close()


def _pixels(header: dict[str, Any], pixels: bytes) -> Pixels:
    try:
        w, h, bpl = int(header["width"]), int(header["height"]), int(header["bytes_per_line"])
        fmt = str(header["format"])
    except (KeyError, TypeError, ValueError) as exc:
        raise RenderFailed(f"the renderer's reply is malformed ({exc})") from None
    if fmt != "RGBA":
        raise RenderFailed(f"the renderer's reply is malformed (pixel format {fmt!r})")
    if w <= 0 or h <= 0 or bpl < 4 * w or bpl * h != len(pixels):
        raise RenderFailed("the renderer's reply is malformed (image size)")
    return Pixels(w, h, bpl, pixels)


class RenderService:
    """Up to `processes` warm renderer children, shared by the threads of one process."""

    def __init__(
        self,
        command: tuple[str, ...] | list[str] = WORKER_COMMAND,
        processes: int = RENDER_PROCESSES,
        time_limit: float = RENDER_TIME_LIMIT,
    ) -> None:
        self.command = tuple(command)
        self.max_processes = max(1, processes)
        self.time_limit = time_limit
        self._idle: list[RenderProcess] = []
        self._count = 0
        self._closed = False
        self._condition = threading.Condition()

    def prestart(self) -> None:
        """Start one child now if none exists (its start-up then overlaps opening a file)."""
        with self._condition:
            if self._count or self._closed:
                return
            process = RenderProcess(self.command)
            self._count += 1
            self._idle.append(process)
        process.start()

    def _acquire(self) -> RenderProcess:
        """An idle child, a new one while fewer than `max_processes` exist, or the first one
        released. Every render is bounded by its time limit, so a wait longer than
        ACQUIRE_LIMITS of them means the children are stuck: that is a failure with its reason,
        never a thread waiting for ever."""
        limit = ACQUIRE_LIMITS * self.time_limit
        deadline = time.monotonic() + limit
        with self._condition:
            while True:
                if self._closed:
                    raise RenderFailed("the renderer is shut down")
                if self._idle:
                    return self._idle.pop()
                if self._count < self.max_processes:
                    self._count += 1
                    return RenderProcess(self.command)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RenderFailed(
                        f"all {self.max_processes} renderer processes stayed busy for {limit:g} s"
                    )
                self._condition.wait(left)

    def _release(self, process: RenderProcess) -> None:
        with self._condition:
            if self._closed:
                process.stop()
            else:
                self._idle.append(process)
            self._condition.notify()

    @contextlib.contextmanager
    def holding(self) -> Iterator[RenderProcess]:
        """One child held for the caller until the block ends (a render meanwhile takes another,
        or waits its bounded time): several requests in one process, or a busy service to test."""
        process = self._acquire()
        try:
            yield process
        finally:
            self._release(process)

    def idle(self) -> list[RenderProcess]:
        """The children waiting for the next render (started or not), a snapshot."""
        with self._condition:
            return list(self._idle)

    def render(
        self,
        pdf: bytes,
        width: int,
        height: int,
        time_limit: float | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> Pixels:
        with self.holding() as process:
            return process.render(pdf, width, height, time_limit or self.time_limit, should_stop)

    def render_document(
        self,
        page: DocumentPage,
        width: int,
        height: int,
        time_limit: float | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> Pixels:
        """A page of a document kept open by the renderer (see RenderProcess.render_document)."""
        with self.holding() as process:
            return process.render_document(page, width, height, time_limit or self.time_limit, should_stop)

    def close(self) -> None:
        with self._condition:
            self._closed = True
            idle, self._idle = self._idle, []
            self._condition.notify_all()
        for process in idle:
            process.stop()


_service: RenderService | None = None
_service_lock = threading.Lock()


def render_service() -> RenderService:
    """This process's renderer service (started on first use, stopped at exit)."""
    global _service
    with _service_lock:
        if _service is None:
            _service = RenderService()
            atexit.register(_service.close)
        return _service


def render_pdf_bytes(
    data: bytes, boxes: PageBoxes, scale: float, should_stop: Callable[[], bool] | None = None
) -> Pixels:
    """Render page 1 of `data` to an image of the displayed MediaBox at `scale` px/pt (clamped).

    RenderFailed with a one-line reason when the page cannot be rendered: a MediaBox that is
    not finite, empty or over the PDF size limit never reaches PDFium.
    """
    problem = page_size_problem(boxes)
    if problem is not None:
        raise RenderFailed(problem)
    width, height = render_pixels(boxes, scale)
    return render_service().render(data, width, height, should_stop=should_stop)


class PageRenderer:
    """Renders pages of one file from its own pikepdf handle.

    The engine's Document holds its pikepdf.Pdf under its own lock while a
    worker interprets; opening the file a second time here lets rendering run
    in parallel without touching that object from another thread. The pixels
    come from the renderer processes (`render_service`).
    """

    def __init__(self, source: str | Path | bytes, password: str | None = None) -> None:
        self._source = source
        self._password = password
        self._pdf: pikepdf.Pdf | None = None
        self._lock = threading.Lock()
        render_service().prestart()

    def _open(self) -> pikepdf.Pdf:
        if self._pdf is None:
            source: Any = self._source
            if isinstance(source, (bytes, bytearray)):
                source = io.BytesIO(bytes(source))
            # the engine's opener: a page tree qpdf refuses is recovered the same way, same pages
            self._pdf = open_pdf(source, self._password or "")
        return self._pdf

    def boxes(self, page_number: int) -> PageBoxes:
        """The page's boxes read from this handle (same rules as the engine: core.document.read_page_boxes)."""
        from glyphscope.core.document import read_page_boxes

        with self._lock:
            return read_page_boxes(self._open().pages[page_number - 1].obj)

    def page_bytes(self, page_number: int, boxes: PageBoxes) -> bytes:
        with self._lock:
            return single_page_pdf(self._open(), page_number, boxes)

    def render(
        self, page_number: int, boxes: PageBoxes, scale: float, should_stop: Callable[[], bool] | None = None
    ) -> Pixels:
        """The page image, or RenderFailed with the reason (the size is checked before the file is read)."""
        problem = page_size_problem(boxes)
        if problem is not None:
            raise RenderFailed(problem)
        try:
            data = self.page_bytes(page_number, boxes)
        except (pikepdf.PdfError, RuntimeError, ValueError, TypeError, KeyError, IndexError) as exc:
            raise RenderFailed(
                f"the page could not be copied for rendering ({type(exc).__name__}: {exc})"
            ) from None
        return render_pdf_bytes(data, boxes, scale, should_stop)

    def close(self) -> None:
        with self._lock:
            if self._pdf is not None:
                self._pdf.close()
                self._pdf = None
