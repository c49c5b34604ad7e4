"""The window's controller: documents open and close, pages load, complete and re-assemble.

No widget here: `PageController` drives the Session (the model) from the worker pool and the
page loader, and says what happened through signals; the window shows them (status bar,
canvas, dialogs). Tests drive it with a Session and a pool alone, no QMainWindow.

The stages of a page (inspector.views.page_view): `open_path` → `Session.set_document` → `set_page`
→ the loader's preview (image only) → the analysed page (`page_shown`) → the text of every
mode (`page_complete`), then the neighbours are prefetched. New thresholds re-assemble the
page on screen (on this thread for small pages, in a worker for big ones); new budgets
re-interpret it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from glyphscope.core.errors import PasswordRequired, WrongPassword
from glyphscope.core.limits import DEFAULT_LIMITS, Limits
from glyphscope.core.params import Parameters
from glyphscope.inspector.gui import dialogs
from glyphscope.inspector.gui.workers import (
    PageLoader,
    Worker,
    WorkerPool,
    alive,
    reassemble_bundle,
    render_job,
)
from glyphscope.inspector.jobs import CancelToken
from glyphscope.inspector.views.page_facts import PageBundle
from glyphscope.inspector.views.session import Session

if TYPE_CHECKING:
    from PySide6.QtGui import QImage

    from glyphscope.core.document import Document
    from glyphscope.inspector.gui.rendering import QtPageRenderer

LIVE_REASSEMBLY_GLYPHS = 4000  # pages up to this size re-assemble on the GUI thread (well under 100 ms)
CLOSE_RETRY_MS, CLOSE_ATTEMPTS = 100, 50  # a closed document waits this long for workers that hold it


class _Closable(Protocol):
    def close(self) -> None: ...


def close_quietly(*things: _Closable | None) -> None:
    """Close documents and renderers; a file that is already broken must not stop the window."""
    for thing in things:
        if thing is None:
            continue
        try:
            thing.close()
        except (OSError, RuntimeError, ValueError) as exc:  # pikepdf/PDFium on a damaged file
            print(f"glyphscope: closing {thing!r} failed: {exc}", file=sys.stderr)


def opened_message(path: str | Path, pages: int) -> str:
    """The status bar's word on an opened file: its name (the folder is in the window's title; a
    whole path was cut off at 1280 px) and how many pages."""
    return f"Opened {Path(path).name} ({pages} page{'s' if pages != 1 else ''})"


def open_job(
    source: str, password: str | None, limits: Limits = DEFAULT_LIMITS, *, token: CancelToken
) -> Document:
    from glyphscope.core.document import open_document

    return open_document(source, password, limits=limits)


def make_renderer(path: str, password: str | None) -> QtPageRenderer:
    from glyphscope.inspector.gui.rendering import QtPageRenderer

    return QtPageRenderer(path, password)


AskPassword = Callable[[str, bool], "str | None"]  # (file name, the last one was wrong) → password
ShowError = Callable[[str, str], object]  # (title, message); what it returns is not used


class PageController(QObject):
    """Opens documents and brings the session's current page to it, stage by stage."""

    document_opened = Signal(str)  # path
    open_failed = Signal(str)  # message
    page_painted = Signal(int)  # the rendered page is on screen (its analysis may still be running)
    page_shown = Signal(int)  # the page with its glyphs, their classes and overlays is on screen
    page_complete = Signal(int)  # … and the text of every mode too (they follow the page)
    loading = Signal(int)  # a page was asked for and is not cached: its loading state until it comes
    timing = Signal(str)  # the line of the status bar that says how long the page took
    message = Signal(str, int)  # (text, milliseconds): a status-bar message
    sharper = Signal(int, float, object)  # (page, scale, QImage): a sharper image of the page on screen

    def __init__(
        self,
        session: Session,
        pool: WorkerPool,
        *,
        ask_password: AskPassword,
        show_error: ShowError,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.pool = pool
        self.loader = PageLoader(pool, self)
        self.renderer: QtPageRenderer | None = None
        self.ask_password = ask_password
        self.show_error = show_error
        self.complete_view: PageBundle | None = None  # the last view shown with every mode's text
        self._prefetched: PageBundle | None = None  # the last view whose neighbours were prefetched
        self._open_worker: Worker | None = None
        self._tuning_worker: Worker | None = None
        self._pending_page: int | None = None
        self._requested_at = 0.0
        self._timing = ""

        self.loader.page_ready.connect(self.session.set_view)
        self.loader.page_preview.connect(self._on_preview)
        self.loader.texts_ready.connect(self.session.texts_ready)
        self.loader.page_progress.connect(self._on_page_progress)
        self._update_prebuild()

    def attach(self) -> None:
        """Subscribe to the session once every view has: a page is requested after the panels
        took the page change, and `page_shown` means they all show the page."""
        s = self.session.events
        s.page.connect(self._on_page)
        s.view.connect(self._on_view)
        s.mode.connect(self._on_mode)
        s.params.connect(self._on_params)
        s.limits.connect(self._on_limits)
        s.texts.connect(self._prefetch_after)
        s.texts.connect(lambda view: self._complete(view, late=True))
        s.layers.connect(lambda key, on: self._update_prebuild())

    @property
    def bundle(self) -> PageBundle | None:
        """The analysed page on screen (None while it loads: its preview does not count)."""
        view = self.session.view
        return view if view is not None and not view.preview else None

    def _say_timing(self, text: str) -> None:
        self._timing = text
        self.timing.emit(text)

    # -- documents ------------------------------------------------------------------------------
    def open_path(self, path: str | Path, password: str | None = None, page: int | None = None) -> Worker:
        """Open a file in a worker; the password question and errors follow on the GUI thread."""
        path = str(path)
        if self._open_worker is not None:
            self._open_worker.cancel()
        self._pending_page = page
        self.message.emit(f"Opening {path}…", 0)
        worker = Worker(open_job, path, password, self.session.limits)
        worker.signals.result.connect(alive(self, lambda doc, p=path, pw=password: self._opened(doc, p, pw)))
        worker.signals.error.connect(
            alive(self, lambda message, exc, p=path, pw=password: self._open_error(p, pw, message, exc))
        )
        worker.signals.finished.connect(alive(self, lambda w=worker: self._open_finished(w)))
        self._open_worker = worker
        self.pool.start(worker, priority=20)
        return worker

    def _open_finished(self, worker: Worker) -> None:
        if self._open_worker is worker:
            self._open_worker = None

    def _open_error(self, path: str, password: str | None, message: str, exc: BaseException) -> None:
        if isinstance(exc, (PasswordRequired, WrongPassword)):
            new_password = self.ask_password(Path(path).name, isinstance(exc, WrongPassword))
            if new_password is not None:
                self.open_path(path, new_password, self._pending_page)
                return
            text = f"{Path(path).name} was not opened: it needs a password."
            self.message.emit(text, 8000)
            self.open_failed.emit(text)
            return
        text = dialogs.error_message(exc, path)
        self.show_error(dialogs.error_title(exc, path), text)
        self.message.emit(text, 10000)
        self.open_failed.emit(text)

    def _opened(self, document: Document, path: str, password: str | None) -> None:
        self.close_document()
        self.renderer = make_renderer(path, password)
        self.loader.set_document(document, self.renderer, self.session.params)
        self.loader.mode = self.session.mode
        self.session.set_document(document, Path(path), password)
        self.document_opened.emit(path)
        count = document.page_count
        if count == 0:
            return
        page = self._pending_page or 1
        self._pending_page = None
        self.session.set_page(max(1, min(page, count)))

    def close_document(self) -> None:
        if self.session.document is None:
            return
        old_doc, old_renderer = self.session.document, self.renderer
        self.loader.set_document(None, None, self.session.params)
        self.session.set_document(None)
        self.renderer = None
        # Workers may still hold them; close once they are done.
        QTimer.singleShot(0, lambda: self._close_later(old_doc, old_renderer))

    def _close_later(
        self, document: Document | None, renderer: QtPageRenderer | None, attempts: int = 0
    ) -> None:
        if self.pool.active and attempts < CLOSE_ATTEMPTS:
            QTimer.singleShot(CLOSE_RETRY_MS, lambda: self._close_later(document, renderer, attempts + 1))
            return
        close_quietly(renderer, document)

    def shut_down(self, timeout_ms: int = 3000) -> None:
        """The window closes: loads are cancelled, the workers finish, the file and renderer close."""
        self.loader.close()
        self.pool.shutdown(timeout_ms)
        close_quietly(self.renderer, self.session.document)

    # -- pages ----------------------------------------------------------------------------------
    def _on_page(self, page: int) -> None:
        self.request_page(page, f"loading page {page}…")

    def request_page(self, page: int, waiting: str) -> None:
        """Show `page` from the loader's cache, or its loading state and `waiting` until it comes."""
        self._requested_at = time.perf_counter()
        cached = self.loader.request(page)
        if cached is not None:
            self.session.set_view(cached)
        else:
            self.loading.emit(page)
            self._say_timing(waiting)

    def _on_page_progress(self, page: int, done: int, total: int, message: str) -> None:
        if page == self.session.page_number and self.bundle is None:
            self._say_timing(message + "…")

    def _update_prebuild(self) -> None:
        self.loader.prebuild = tuple(k for k, on in self.session.layers.items() if on)

    def _on_preview(self, bundle: PageBundle) -> None:
        """The rendered page arrives before its analysis: show it at once."""
        if self.session.view is None:
            self.session.set_view(bundle)

    def _on_view(self, view: PageBundle | None) -> None:
        """A new view is on screen (the views did their part): timings, signals, prefetching."""
        self.complete_view = None
        if view is None:
            return
        if view.image is not None:
            self.page_painted.emit(view.page_number)
        if view.preview:
            return
        elapsed = (time.perf_counter() - self._requested_at) * 1000
        timings = view.timings
        detail = (
            f" (analyse {timings.get('analyse', 0) * 1000:.0f} ms, render {timings.get('render', 0) * 1000:.0f} ms)"
            if timings.get("total")
            else ""
        )
        self._say_timing(f"page {view.page_number}: {elapsed:.0f} ms{detail}")
        if view.error:
            self.message.emit(view.error, 10000)
        self.page_shown.emit(view.page_number)
        self._prefetch_after(view)
        self._complete(view)

    def _prefetch_after(self, view: PageBundle) -> None:
        """Prefetch the neighbours of `view` once it has every mode's text: before, they would take
        the CPU from the page on screen."""
        if view is not self.session.view or self._prefetched is view:
            return
        if view.facts is not None and not view.texts_complete:
            return  # again on `texts`
        self._prefetched = view
        n = view.page_number
        neighbours = [p for p in (n + 1, n - 1) if 1 <= p <= self.session.page_count]
        self.loader.later(lambda: self.loader.prefetch(neighbours) if self.session.page_number == n else None)

    def _complete(self, view: PageBundle, late: bool = False) -> None:
        """page_complete, once the view on screen has the text of every mode (`late`: they came
        after the page, and the status bar says when)."""
        if view.facts is not None and not view.texts_complete:
            return  # the worker's last word is still to come (its modes may be ready already)
        if view is self.session.view and self.complete_view is not view:  # once per view shown
            self.complete_view = view
            if late:
                elapsed = (time.perf_counter() - self._requested_at) * 1000
                self._say_timing(f"{self._timing} · every mode's text at {elapsed:.0f} ms")
            self.page_complete.emit(view.page_number)

    def _on_mode(self, mode: str) -> None:
        self.loader.mode = mode

    def render_sharper(self, page: int, scale: float) -> None:
        """A sharper image of the page on screen (`sharper` when it is in)."""
        bundle = self.bundle
        if self.renderer is None or bundle is None or bundle.page_number != page:
            return
        worker = Worker(render_job, self.renderer, page, bundle.boxes, scale)
        worker.signals.result.connect(alive(self, self._on_sharper))
        self.pool.start(worker, priority=-5)

    def _on_sharper(self, result: tuple[int, float, QImage | None]) -> None:
        self.sharper.emit(*result)

    # -- live tuning and budgets ----------------------------------------------------------------
    def _on_params(self, params: Parameters) -> None:
        """New thresholds: re-assemble the page on screen (no re-interpretation); other pages reload."""
        self.loader.set_params(params)
        if self._tuning_worker is not None:
            self._tuning_worker.cancel()
            self._tuning_worker = None
        bundle = self.bundle
        page = self.session.page_number
        if bundle is None or bundle.analysis is None or bundle.page_number != page:
            cached = self.loader.request(page) if page else None
            if cached is not None:
                self.session.set_view(cached)
            return
        mode, prebuild = self.session.mode, self.loader.prebuild
        self._requested_at = time.perf_counter()
        if len(bundle.analysis.page.glyphs) <= LIVE_REASSEMBLY_GLYPHS:
            try:
                fresh = reassemble_bundle(bundle, params, mode, prebuild, token=CancelToken())
            except Exception as exc:  # never crash the window over a threshold
                self.show_error("Re-assembly failed", dialogs.error_message(exc))
                return
            self._reassembled(fresh, params)
            return
        self._say_timing(f"re-assembling page {page}…")
        worker = Worker(reassemble_bundle, bundle, params, mode, prebuild)
        worker.signals.result.connect(alive(self, lambda fresh, p=params: self._reassembled(fresh, p)))
        worker.signals.error.connect(
            alive(self, lambda message, exc: self.show_error("Re-assembly failed", message))
        )
        self._tuning_worker = worker
        self.pool.start(worker, priority=15)

    def _reassembled(self, bundle: PageBundle, params: Parameters) -> None:
        if params != self.session.params or bundle.page_number != self.session.page_number:
            return
        self.loader.cache.put(bundle)
        self.session.set_view(bundle)

    def _on_limits(self, limits: Limits) -> None:
        """New budgets: the document re-interprets its pages (Session.set_limits); reload this one."""
        self.loader.invalidate()
        page = self.session.page_number
        if not page:
            return
        self.session.set_view(None)
        self.request_page(page, f"re-interpreting page {page}…")
