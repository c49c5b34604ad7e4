"""Closing the window while background jobs run (whole-document text, triage scan, a page still being
analysed) prints nothing: jobs are cancelled and silenced, and one that outlives the window (its
signals deleted, as at application exit) ends quietly instead of printing "Signal source has been
deleted" tracebacks."""

from __future__ import annotations

import gc
import threading

import pikepdf
import shiboken6

from glyphscope.inspector.gui.main_window import MainWindow, make_settings
from glyphscope.inspector.gui.workers import Worker
from tests.gui_helpers import open_file
from tests.pdfbuild import make_pdf, to_bytes


def long_pdf(src, path, copies: int = 12) -> None:
    with pikepdf.open(src) as demo:
        out = pikepdf.new()
        for _ in range(copies):
            out.pages.extend(demo.pages)
        out.save(path)


def test_closing_cancels_and_silences_running_jobs(qtbot, demo_pdf, tmp_path, capfd) -> None:
    path = tmp_path / "long.pdf"
    long_pdf(demo_pdf, path)
    w = MainWindow(settings=make_settings())
    w.resize(1280, 800)
    w.show()
    open_file(qtbot, w, path)
    text_panel = w.panel_widgets["document_text"]
    text_worker = text_panel.extract()
    scan_worker = w.diagnostics.scan_document()
    assert text_worker is not None and scan_worker is not None
    qtbot.waitUntil(
        lambda: text_worker.signals is not None and text_panel.progress.value() > 0, timeout=30_000
    )
    capfd.readouterr()
    w.close()
    assert text_worker.is_cancelled and scan_worker.is_cancelled
    assert text_worker.signals.signalsBlocked() and scan_worker.signals.signalsBlocked()
    assert not w.pool.active
    w.deleteLater()
    qtbot.wait(50)
    text_panel = None
    del w
    gc.collect()
    qtbot.wait(300)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "has been deleted" not in err, err


def test_a_job_outliving_its_window_ends_quietly(qtbot, demo_pdf, capfd) -> None:
    """A page analysis takes longer than the close waits (3 s); then its signals go (application exit)."""
    started, release, ended = threading.Event(), threading.Event(), threading.Event()

    def long_page(*, token) -> str:  # ignores cancellation, like one page deep in the interpreter
        started.set()
        try:
            release.wait(20)
            return "late"
        finally:
            ended.set()

    w = MainWindow(settings=make_settings())
    w.show()
    open_file(qtbot, w, demo_pdf)
    worker = w.pool.start(Worker(long_page))
    results: list[str] = []
    worker.signals.result.connect(results.append)
    assert started.wait(10)
    capfd.readouterr()
    w.close()  # waits 3 s for the job, which is still running
    assert worker.is_cancelled and not ended.is_set()
    shiboken6.delete(worker.signals)  # what shiboken's clean-up at exit does
    release.set()
    assert ended.wait(10)
    qtbot.wait(200)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "has been deleted" not in err, err
    assert results == []


def test_a_file_opened_before_is_let_go(qtbot, window, tmp_path) -> None:
    """Workers let go of their job, its arguments and the slots connected to them when they finish:
    those slots close over pages and documents, and Qt's connections kept every file ever opened."""
    import weakref

    from PySide6.QtCore import QCoreApplication, QEvent

    paths = []
    for k in range(3):
        path = tmp_path / f"f{k}.pdf"
        path.write_bytes(to_bytes(make_pdf([b"BT /F1 12 Tf 72 700 Td (file %d) Tj ET" % k])))
        paths.append(path)
    open_file(qtbot, window, paths[0])
    first = weakref.ref(window.session.document)
    for path in paths[1:]:
        open_file(qtbot, window, path)
    qtbot.waitUntil(lambda: not window.pool.active and not window.loader.busy(), timeout=30_000)

    def let_go() -> bool:  # the zero-timer releases, then the signals' deferred deletion
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        gc.collect()
        return first() is None

    qtbot.waitUntil(let_go, timeout=10_000)
    from glyphscope.inspector.views.page_facts import PageBundle

    texts = [
        "".join(g.unicode for g in b.analysis.page.glyphs)
        for b in gc.get_objects()
        if isinstance(b, PageBundle) and b.analysis is not None
    ]
    assert [t for t in texts if t.startswith("file")] == ["file 2"]  # on screen; nothing of those before
    assert "file 2" in window.text_panels["plain"].editor.toPlainText()  # the file on screen is kept
