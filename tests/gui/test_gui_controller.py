"""The PageController without a window: a Session, a worker pool and the controller alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.document import open_document
from glyphscope.core.limits import DEFAULT_LIMITS
from glyphscope.inspector.gui import controller as controller_module
from glyphscope.inspector.gui.controller import PageController
from glyphscope.inspector.gui.workers import WorkerPool
from glyphscope.inspector.views.session import Session
from tests.conftest import corpus_file
from tests.gui_helpers import TIMEOUT


@pytest.fixture
def ctl(qtbot):
    """A controller whose dialogs are recorded: (controller, passwords asked, errors shown)."""
    session = Session()
    pool = WorkerPool()
    asked: list[tuple[str, bool]] = []
    answers: list[str | None] = []
    errors: list[tuple[str, str]] = []

    def ask(name: str, wrong: bool) -> str | None:
        asked.append((name, wrong))
        return answers.pop(0) if answers else None

    c = PageController(session, pool, ask_password=ask, show_error=lambda t, m: errors.append((t, m)))
    c.attach()
    yield c, asked, answers, errors
    c.shut_down(3000)


def test_opens_loads_completes_and_prefetches(qtbot, ctl, demo_pdf: Path) -> None:
    c, _, _, errors = ctl
    s = c.session
    shown: list[int] = []
    c.page_shown.connect(shown.append)
    timings: list[str] = []
    c.timing.connect(timings.append)
    with qtbot.waitSignal(c.page_complete, timeout=TIMEOUT) as blocker:
        c.open_path(demo_pdf, page=3)
    assert blocker.args == [3] and shown == [3] and not errors
    view = s.view
    assert view is c.bundle is c.complete_view and view.page_number == 3 and view.texts_complete
    assert len(view.facts.page.glyphs) == len(analyze_page(open_document(demo_pdf), 3).page.glyphs)
    assert timings[0] == "loading page 3…" and timings[-1].startswith("page 3: ")
    # The neighbours are prefetched once the page is complete: going there takes the cache.
    qtbot.waitUntil(lambda: 2 in c.loader.cache and 4 in c.loader.cache, timeout=TIMEOUT)
    prefetched = c.loader.cache.get(4)
    with qtbot.waitSignal(c.page_complete, timeout=TIMEOUT):
        s.set_page(4)
    assert s.view is prefetched and c.complete_view is prefetched
    c.close_document()
    assert s.document is None and s.view is None and c.renderer is None and c.complete_view is None


def test_thresholds_reassemble_the_page_on_screen(qtbot, ctl, demo_pdf: Path, monkeypatch) -> None:
    c, _, _, _ = ctl
    s = c.session
    with qtbot.waitSignal(c.page_complete, timeout=TIMEOUT):
        c.open_path(demo_pdf, page=2)
    before = s.view
    # Small pages re-assemble on this thread, at once.
    s.set_params(s.params.with_changes(word_gap=0.5))
    fresh = s.view
    assert fresh is not before and fresh.analysis.params.word_gap == 0.5
    assert fresh.analysis.page is before.analysis.page  # not interpreted again
    assert c.loader.cache.get(2) is fresh
    # Big pages in a worker: the view changes when it is done.
    monkeypatch.setattr(controller_module, "LIVE_REASSEMBLY_GLYPHS", 0)
    with qtbot.waitSignal(c.page_complete, timeout=TIMEOUT):
        s.set_params(s.params.with_changes(word_gap=0.3))
        assert s.view is fresh  # not yet
    assert s.view.analysis.params.word_gap == 0.3
    # New budgets: the page is interpreted again.
    with qtbot.waitSignal(c.page_complete, timeout=TIMEOUT):
        s.set_limits(DEFAULT_LIMITS.with_changes(page_glyphs=DEFAULT_LIMITS.page_glyphs - 1))
    assert s.view.analysis.page is not fresh.analysis.page and s.view.page_number == 2


def test_password_asked_again_when_wrong_and_errors_reported(qtbot, ctl, tmp_path: Path) -> None:
    c, asked, answers, errors = ctl
    path = corpus_file("samplefiles__libreoffice-writer-password.pdf")
    answers.extend(["not-it", "openpassword"])
    with qtbot.waitSignal(c.document_opened, timeout=TIMEOUT):
        c.open_path(path)
    assert [wrong for _, wrong in asked] == [False, True] and c.session.password == "openpassword"
    bad = tmp_path / "not.pdf"
    bad.write_text("hello")
    with qtbot.waitSignal(c.open_failed, timeout=TIMEOUT) as blocker:
        c.open_path(bad)
    assert errors and errors[-1][0] == "Not a PDF" and blocker.args == [errors[-1][1]]
    assert c.session.source == Path(path)  # the open document stays
