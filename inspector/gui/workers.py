"""Long work off the GUI thread: Qt-free generators run by a QRunnable with typed signals.

A job is a generator function. It yields progress as `Progress(done, total,
message)` and returns its result (`StopIteration.value`); it receives a
`CancelToken` and calls `token.check()` between steps. The worker turns that
into `started / progress / result / error / finished` signals delivered on the
GUI thread.
"""

from __future__ import annotations

import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, NoReturn

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal
from PySide6.QtGui import QImage

from glyphscope.core.limits import Limits
from glyphscope.inspector.jobs import Cancelled, CancelToken, JobFunction, Partial, Progress
from glyphscope.inspector.views.page_facts import PageBundle

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.document import Document
    from glyphscope.core.page import PageBoxes
    from glyphscope.core.params import Parameters
    from glyphscope.inspector.gui.rendering import QtPageRenderer

RENDER_SCALE = 2.0  # pixels per point of the page image (144 dpi); zooming further re-renders
PAGE_CACHE_SIZE = 24
CACHE_MAX_GLYPHS = 250_000  # ≈ 600 MB of analyses, overlays and images at the densest
# The most glyphs of one page the window analyses and draws (≈ 500 MB of analysis, texts and
# overlays); a page with more shows its first ones and says so. The engine's own cap is higher.
WINDOW_GLYPH_BUDGET = 200_000


class WorkerSignals(QObject):
    started = Signal()
    progress = Signal(int, int, str)
    partial = Signal(object)
    result = Signal(object)
    error = Signal(str, object)  # one-line message, the exception
    finished = Signal()
    cancelled = Signal()


class Worker(QRunnable):
    """Runs one job in the global thread pool; keep a reference until `finished`."""

    def __init__(self, job: JobFunction, *args: object, **kwargs: object) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.job = job
        self.args = args
        self.kwargs = kwargs
        self.token = CancelToken()
        self.signals = WorkerSignals()

    def cancel(self) -> None:
        self.token.cancel()

    @property
    def is_cancelled(self) -> bool:
        return self.token.cancelled

    def run(self) -> None:  # worker thread
        report = self._report
        report("started")
        try:
            self.token.check()
            outcome = self.job(*self.args, token=self.token, **self.kwargs)
            if isinstance(outcome, Generator):
                while True:
                    try:
                        step = next(outcome)
                    except StopIteration as stop:
                        outcome = stop.value
                        break
                    self.token.check()
                    if isinstance(step, Progress):
                        report("progress", step.done, step.total, step.message)
                    elif isinstance(step, Partial):
                        report("partial", step.value)
            self.token.check()
            report("result", outcome)
        except Cancelled:
            report("cancelled")
        except Exception as exc:  # every failure becomes an `error` signal, never a dead thread
            message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            exc.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            report("error", message, exc)
        finally:
            report("finished")

    def _report(self, name: str, *args: object) -> None:
        """Emit one signal; a job outliving its window (closed while a page was still being
        analysed, the application exiting) has nobody to report to and ends quietly."""
        try:
            getattr(self.signals, name).emit(*args)
        except RuntimeError:  # "Signal source has been deleted": the signals went with the window
            self.token.cancel()

    def release(self) -> None:
        """After `finished`: let go of the job, its arguments and every slot connected to the
        signals. Those slots are often closures over a page or a document; Qt holds the
        connections, where Python's collector cannot see the cycle back to this worker, so
        without this every page and document the window ever opened stayed in memory."""
        self.job = _released
        self.args, self.kwargs = (), {}
        if shiboken6.isValid(self.signals):
            self.signals.deleteLater()  # its connections, and what their slots hold, go with it

    def detach(self) -> None:
        """Cancel, and silence the signals: nothing this job still reports reaches a panel."""
        self.token.cancel()
        if shiboken6.isValid(self.signals):
            self.signals.blockSignals(True)


def _released(*_: object, **__: object) -> NoReturn:
    raise RuntimeError("this worker has finished and let go of its job")


def alive(owner: QObject, fn: Callable[..., object]) -> Callable[..., None]:
    """`fn`, called only while `owner` still exists: a worker may report after its window closed."""

    def call(*args: object) -> None:
        if shiboken6.isValid(owner):
            fn(*args)

    return call


class WorkerPool(QObject):
    """Starts workers and keeps them alive until they finish."""

    def __init__(self, parent: QObject | None = None, max_threads: int = 3) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self.active: set[Worker] = set()

    def start(self, worker: Worker, priority: int = 0) -> Worker:
        self.active.add(worker)
        worker.signals.finished.connect(lambda w=worker: self._finished(w))
        self.pool.start(worker, priority)
        return worker

    def _finished(self, worker: Worker) -> None:
        self.active.discard(worker)
        # Released once every slot of `finished` has run (this one may be the first of them).
        QTimer.singleShot(0, worker.release)

    def shutdown(self, timeout_ms: int = 3000) -> None:
        """The window closes: every job is cancelled and cut off from the panels, the queue dropped,
        and running jobs get `timeout_ms` to stop (one still inside a long page reports to nobody)."""
        workers = list(self.active)
        for worker in workers:
            worker.detach()
        self.pool.clear()
        self.pool.waitForDone(timeout_ms)
        self.active.difference_update(workers)


# ---------------------------------------------------------------------------------------------
# Pages


def engine_boxes(document: Document, page_number: int) -> PageBoxes:
    """The page's boxes as the engine read them; US Letter when even that fails."""
    from glyphscope.core.document import DEFAULT_MEDIA_BOX
    from glyphscope.core.page import PageBoxes

    try:
        return document.interpret(page_number).boxes
    except Exception:  # noqa: BLE001 -- the page area must show something and say why
        return PageBoxes(DEFAULT_MEDIA_BOX, DEFAULT_MEDIA_BOX, DEFAULT_MEDIA_BOX, 0)


def load_page_job(
    document: Document,
    renderer: QtPageRenderer,
    page_number: int,
    params: Parameters,
    mode: str,
    scale: float,
    prebuild: tuple[str, ...] = (),
    *,
    token: CancelToken,
) -> Generator[Progress | Partial, None, PageBundle]:
    """Render (shown at once as a preview), then interpret, analyse and draw the overlays of one page.

    Errors land in the bundle: a broken page shows its error in the page area, a page the
    renderer cannot draw is a blank page with its overlays and the reason
    (`render_error`), a page over WINDOW_GLYPH_BUDGET shows its first glyphs and says so.
    """
    from glyphscope.inspector.gui.overlays import build_overlays
    from glyphscope.inspector.gui.rendering import frame_boxes, media_display_size, render_failure
    from glyphscope.inspector.views.page_facts import PageFacts

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    unreadable: Exception | None = None
    try:
        boxes = renderer.boxes(page_number)
    except Exception as exc:  # the renderer's own handle cannot read the page: blank, with overlays
        token.check()
        boxes, unreadable = engine_boxes(document, page_number), exc
    frame = frame_boxes(boxes)  # every size the window gives Qt is a checked one
    bundle = PageBundle(page_number, frame, render_scale=RENDER_SCALE, timings=timings)
    yield Progress(0, 3, f"rendering page {page_number}")
    try:
        if unreadable is not None:
            raise unreadable
        bundle.image = renderer.render(page_number, boxes, scale, should_stop=lambda: token.cancelled)
        bundle.render_scale = bundle.image.width() / max(1e-6, media_display_size(frame)[0])
    except Exception as exc:  # RenderFailed, or anything else: the page is drawn blank
        token.check()
        bundle.render_error = render_failure(exc)
    timings["render"] = time.perf_counter() - t0
    yield Partial(
        PageBundle(
            page_number,
            frame,
            image=bundle.image,
            render_scale=bundle.render_scale,
            render_error=bundle.render_error,
            preview=True,
            timings=dict(timings),
        )
    )
    token.check()
    yield Progress(1, 3, f"interpreting page {page_number}")
    t1 = time.perf_counter()
    notes: list[str] = []
    try:
        analysis, budget_note = budgeted_analysis(document, page_number, params)
        prepare_findings(analysis)
        bundle.analysis = analysis
        bundle.boxes = frame_boxes(analysis.page.boxes)
        notes.extend(analysis.page.errors)
        if budget_note:
            notes.append(budget_note)
    except Exception as exc:  # a broken page shows its error in the page area, never crashes
        notes.append(f"page {page_number} could not be analysed: {type(exc).__name__}: {exc}")
    if notes:
        bundle.error = "; ".join(notes)
    timings["analyse"] = time.perf_counter() - t1
    token.check()
    if bundle.analysis is not None:
        yield Progress(2, 3, f"drawing overlays of page {page_number}")
        t2 = time.perf_counter()
        try:
            # The page is shown with its glyphs and their classes first; its texts follow
            # (complete_page_job, once the page is on screen: a worker sharing the interpreter
            # lock with the GUI thread while it paints would halve the painting's speed).
            facts = PageFacts(bundle.analysis)
            facts.counts.layers(mode)
            bundle.overlays = build_overlays(facts, mode, prebuild)
            bundle.facts = facts
        except Exception as exc:
            bundle.error = f"overlays could not be built: {type(exc).__name__}: {exc}"
        timings["overlays"] = time.perf_counter() - t2
    timings["total"] = time.perf_counter() - t0
    return bundle


def complete_page_job(
    bundle: PageBundle, mode: str, prebuild: tuple[str, ...] = (), *, token: CancelToken
) -> Generator[Partial, None, PageBundle]:
    """The texts of a page already on screen: first the mode shown (and plain, which a glyph's
    explanation cites) with the layers drawn from it (a Partial), then every other mode, and the
    glyph hit index. Decision records are made here, not on the GUI thread."""
    from glyphscope.inspector.gui.overlays import PageOverlays, prebuild_ready

    facts, overlays, timings = bundle.facts, bundle.overlays, bundle.timings
    t = time.perf_counter()
    if facts is None:
        return bundle
    glyphs = facts.page.glyphs
    if hasattr(glyphs, "keep_records"):
        glyphs.keep_records()  # the views and panels read records over and over: all made here, once
    first = [m for m in dict.fromkeys(("plain", facts.modes.shown_mode(mode))) if not facts.modes.ready(m)]
    for group in (first, None):
        for m in facts.modes.pending() if group is None else group:
            token.check()
            try:
                _ = facts.modes.view(m).kinds
            except Exception as exc:  # that mode's panel says so; the page and its other modes stand
                facts.modes.failures[m] = f"{m} text could not be assembled: {type(exc).__name__}: {exc}"
        token.check()
        if isinstance(overlays, PageOverlays):
            prebuild_ready(overlays, mode, prebuild)
        if facts.modes.shown_ready(mode):  # the legend's numbers, counted here rather than on the GUI thread
            facts.marks.word_gap_summary(mode)
            facts.counts.layers(mode)
        if group is not None:
            timings["own mode"] = time.perf_counter() - t
            yield Partial(bundle)  # the page's own text, decisions and their layers are in
    if overlays is not None:
        _ = overlays.hit_index  # the first hover does not wait for it either
    timings["all modes"] = time.perf_counter() - t
    return bundle


def prepare_findings(analysis: PageAnalysis) -> None:
    """Make the page's findings in the worker, so the Diagnostics panel only lists them on the GUI
    thread. A finding that fails to be made must not cost the page its glyphs: the panel asks
    again and shows that failure in its place."""
    try:
        _ = analysis.findings
    except Exception:  # noqa: BLE001 -- reported by the Diagnostics panel, which reads them again
        return


def budgeted_analysis(
    document: Document, page_number: int, params: Parameters
) -> tuple[PageAnalysis, str | None]:
    """The page product under the window's glyph budget (WINDOW_GLYPH_BUDGET, a `Limits` budget
    of `analyze_page`), with the sentence the page shows when the page painted more; (analysis,
    None) otherwise.

    The product then covers the first glyphs in paint order: passes, texts, decisions, findings
    and overlays all see the same ones, and the window's memory stays bounded by the budget.
    """
    from glyphscope.core.analysis import analyze_page

    analysis = analyze_page(document, page_number, params, limits=Limits(page_glyphs=WINDOW_GLYPH_BUDGET))
    if not analysis.truncated:
        return analysis, None
    note = (
        f"page {page_number} has {analysis.glyphs_painted:,} glyphs, over the window's budget of "
        f"{WINDOW_GLYPH_BUDGET:,}: overlays, text and decisions show the first {WINDOW_GLYPH_BUDGET:,} "
        "in paint order (glyphscope text / glyphs read the whole page)"
    )
    return analysis, note


def reassemble_bundle(
    bundle: PageBundle, params: Parameters, mode: str, prebuild: tuple[str, ...] = (), *, token: CancelToken
) -> PageBundle:
    """The same page under other thresholds: passes and assembly re-run, no re-interpretation,
    no re-rendering (live tuning). Fast pages run this on the GUI thread, big ones in a worker."""
    from glyphscope.core.analysis import reassemble
    from glyphscope.inspector.gui.overlays import build_overlays
    from glyphscope.inspector.views.page_facts import PageFacts

    t0 = time.perf_counter()
    if bundle.analysis is None:
        raise ValueError(f"page {bundle.page_number} has no analysis to re-assemble")
    analysis = reassemble(bundle.analysis, params)
    token.check()
    facts = PageFacts(analysis)
    for m in facts.modes.pending():  # every mode at once: tuning shows its effect on all of them
        facts.modes.view(m)
    facts.counts.layers(mode)
    overlays = build_overlays(facts, mode, prebuild)
    timings = {"reassemble": time.perf_counter() - t0}
    timings["total"] = timings["reassemble"]
    return PageBundle(
        bundle.page_number,
        bundle.boxes,
        texts_complete=True,  # every mode was assembled above
        analysis=analysis,
        facts=facts,
        overlays=overlays,
        image=bundle.image,
        render_scale=bundle.render_scale,
        error=bundle.error,
        render_error=bundle.render_error,
        timings=timings,
    )


def render_job(
    renderer: QtPageRenderer, page_number: int, boxes: PageBoxes, scale: float, *, token: CancelToken
) -> tuple[int, float, QImage | None]:
    """A sharper image of a page on screen; None when the renderer fails (the page keeps its image)."""
    token.check()
    try:
        image = renderer.render(page_number, boxes, scale, should_stop=lambda: token.cancelled)
    except Exception:
        token.check()
        image = None
    return page_number, scale, image


class PageCache:
    """LRU of PageBundles by page number, bounded in pages and in glyphs.

    A dense page's analysis, overlays and image take ~50 MB per 20,000 glyphs, so a
    count of pages alone would let 24 dense pages take over a gigabyte.
    """

    def __init__(self, size: int = PAGE_CACHE_SIZE, max_glyphs: int = CACHE_MAX_GLYPHS) -> None:
        self.size = size
        self.max_glyphs = max_glyphs
        self._items: OrderedDict[int, PageBundle] = OrderedDict()
        self._glyphs = 0

    @staticmethod
    def _weight(bundle: PageBundle) -> int:
        analysis = bundle.analysis
        return len(analysis.page.glyphs) if analysis is not None else 0

    def get(self, page_number: int) -> PageBundle | None:
        bundle = self._items.get(page_number)
        if bundle is not None:
            self._items.move_to_end(page_number)
        return bundle

    def put(self, bundle: PageBundle) -> None:
        old = self._items.get(bundle.page_number)
        if old is not None:
            self._glyphs -= self._weight(old)
        self._items[bundle.page_number] = bundle
        self._items.move_to_end(bundle.page_number)
        self._glyphs += self._weight(bundle)
        while len(self._items) > 1 and (len(self._items) > self.size or self._glyphs > self.max_glyphs):
            _, dropped = self._items.popitem(last=False)
            self._glyphs -= self._weight(dropped)

    def clear(self) -> None:
        self._items.clear()
        self._glyphs = 0

    def __contains__(self, page_number: int) -> bool:
        return page_number in self._items

    def __len__(self) -> int:
        return len(self._items)


class PageLoader(QObject):
    """Loads pages on demand through workers, caches them, and prefetches the neighbours."""

    page_ready = Signal(object)  # PageBundle
    page_preview = Signal(object)  # PageBundle with the rendered image only
    # (PageBundle) a page sent by page_ready before its texts: more of them are assembled now
    # (PageFacts.ready; the mode on screen first, then every mode), in the same bundle
    texts_ready = Signal(object)
    page_progress = Signal(int, int, int, str)  # page, done, total, message

    def __init__(self, pool: WorkerPool, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = pool
        self.cache = PageCache()
        self.document: Document | None = None
        self.renderer: QtPageRenderer | None = None
        self.params: Parameters | None = None
        self.mode = "plain"
        self.prebuild: tuple[str, ...] = ()  # layers to draw in the worker (the visible ones)
        self.generation = 0
        self.in_flight: dict[int, Worker] = {}
        self.completing: dict[int, Worker] = {}  # pages shown, their texts being assembled
        self._scheduled = 0  # `later` calls not run yet
        from glyphscope.inspector.gui.rendering import render_service

        render_service().prestart()  # the renderer process starts while the window opens

    def set_document(
        self, document: Document | None, renderer: QtPageRenderer | None, params: Parameters
    ) -> None:
        self.invalidate()
        self.document = document
        self.renderer = renderer
        self.params = params

    def set_params(self, params: Parameters) -> None:
        if params == self.params:
            return
        self.params = params
        self.invalidate()

    def invalidate(self) -> None:
        """Forget every loaded page (new thresholds or budgets); loads under way are cancelled."""
        self.cache.clear()
        self.generation += 1
        for workers in (self.in_flight, self.completing):
            for worker in workers.values():
                worker.cancel()
            workers.clear()

    def close(self) -> None:
        """The window closes: loads under way are cancelled, nothing new starts."""
        self.invalidate()
        self.document = None

    def request(self, page_number: int, prefetch: bool = False) -> PageBundle | None:
        """The cached bundle now, or None and `page_ready` later."""
        cached = self.cache.get(page_number)
        if cached is not None:
            return cached
        if self.document is None or page_number in self.in_flight:
            return None
        if not 1 <= page_number <= self.document.page_count:
            return None
        worker = Worker(
            load_page_job,
            self.document,
            self.renderer,
            page_number,
            self.params,
            self.mode,
            RENDER_SCALE,
            self.prebuild,
        )
        generation = self.generation
        worker.signals.partial.connect(alive(self, lambda bundle, g=generation: self._partial(bundle, g)))
        worker.signals.result.connect(alive(self, lambda bundle, g=generation: self._done(bundle, g)))
        worker.signals.error.connect(
            alive(self, lambda message, exc, n=page_number, g=generation: self._failed(n, message, g))
        )
        worker.signals.progress.connect(
            alive(self, lambda d, t, m, n=page_number: self.page_progress.emit(n, d, t, m))
        )
        worker.signals.finished.connect(alive(self, lambda n=page_number, w=worker: self._finished(n, w)))
        self.in_flight[page_number] = worker
        self.pool.start(worker, priority=0 if prefetch else 10)
        return None

    def _finished(self, page_number: int, worker: Worker) -> None:
        if self.in_flight.get(page_number) is worker:
            del self.in_flight[page_number]

    def _partial(self, bundle: PageBundle, generation: int) -> None:
        if generation == self.generation:
            self.page_preview.emit(bundle)

    def _done(self, bundle: PageBundle, generation: int) -> None:
        if generation != self.generation:
            return
        pending = bundle.facts is not None and bool(bundle.facts.modes.pending())
        bundle.texts_complete = not pending
        self.cache.put(bundle)
        self.page_ready.emit(bundle)
        if pending:
            self.later(lambda: self._complete(bundle, generation))

    def later(self, start: Callable[[], None]) -> None:
        """Start work once the page just shown is painted (a zero timer runs after the posted paint
        events): a worker started now would share the interpreter lock with the painting and halve
        its speed. Counted by `busy` from now on."""

        def run() -> None:
            self._scheduled -= 1
            start()

        self._scheduled += 1
        QTimer.singleShot(0, alive(self, run))

    def _complete(self, bundle: PageBundle, generation: int) -> None:
        """Assemble the texts of a page sent by page_ready; texts_ready as they come in."""
        n = bundle.page_number
        if generation != self.generation or n in self.completing:
            return
        worker = Worker(complete_page_job, bundle, self.mode, self.prebuild)
        worker.signals.partial.connect(  # the page's own mode
            alive(self, lambda b, g=generation: self.texts_ready.emit(b) if g == self.generation else None)
        )
        worker.signals.result.connect(alive(self, lambda b, g=generation: self.texts_completed(b, g)))
        worker.signals.error.connect(
            alive(self, lambda message, exc, g=generation: self._not_completed(bundle, message, g))
        )
        worker.signals.finished.connect(
            alive(self, lambda w=worker: self.completing.pop(n) if self.completing.get(n) is w else None)
        )
        self.completing[n] = worker
        self.pool.start(worker, priority=5)  # after the page asked for (10), before prefetching (0)

    def texts_completed(self, bundle: PageBundle, generation: int) -> None:
        """The worker's last word: every mode is in (the panels that saw one still coming update now)."""
        if generation == self.generation:
            bundle.texts_complete = True
            self.texts_ready.emit(bundle)

    def _not_completed(self, bundle: PageBundle, message: str, generation: int) -> None:
        """The completion itself broke: the modes it left say why, instead of waiting forever."""
        facts = bundle.facts
        if generation != self.generation or facts is None:
            return
        for m in facts.modes.pending():
            facts.modes.failures[m] = f"{m} text could not be assembled: {message}"
        self.texts_completed(bundle, generation)

    def _failed(self, page_number: int, message: str, generation: int) -> None:
        if generation != self.generation or self.document is None:
            return
        from glyphscope.inspector.gui.rendering import frame_boxes

        renderer = self.renderer
        try:
            boxes = frame_boxes(renderer.boxes(page_number)) if renderer is not None else None
        except Exception:  # the page still leaves "loading": its error on a page of the engine's size
            boxes = None
        if boxes is None:
            boxes = frame_boxes(engine_boxes(self.document, page_number))
        bundle = PageBundle(page_number, boxes, render_scale=RENDER_SCALE, error=message, texts_complete=True)
        self.page_ready.emit(bundle)

    def prefetch(self, page_numbers: list[int]) -> None:
        for n in page_numbers:
            if n not in self.cache and n not in self.in_flight:
                self.request(n, prefetch=True)

    def busy(self) -> bool:
        return bool(self.in_flight or self.completing or self._scheduled)
