"""Small things a support engineer trips over: the Pages list says what each page seen holds, Find's
status names the page of the match on screen, Fit page shows no scroll bar."""

from __future__ import annotations

from typing import Any

from tests.gui_helpers import TIMEOUT, open_file


def test_the_pages_list_says_what_a_page_seen_holds(qtbot: Any, window: Any, demo_pdf: Any) -> None:
    w = window
    open_file(qtbot, w, demo_pdf)
    model = w.page_list.model
    glyphs = len(w.bundle.analysis.page.glyphs)
    assert model.data(model.index(0)) == f"Page 1 — {glyphs} glyphs"
    assert model.data(model.index(1)) == "Page 2"  # not seen yet: nothing guessed


def test_finds_status_names_the_page_of_the_match_it_shows(qtbot: Any, window: Any, demo_pdf: Any) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    panel = w.find_panel
    with qtbot.waitSignal(panel.search_finished, timeout=TIMEOUT):
        panel.search("Printer slug outside")  # on page 1 (the overview) and page 7 (its title)
    qtbot.waitUntil(lambda: w.session.page_number == 7, timeout=TIMEOUT)
    status = panel.status.text()
    assert "page 7" in status and "page 2" not in status
    assert {h.page for h in panel.hits} == {1, 7}
    panel.next()  # wraps round to page 1
    qtbot.waitUntil(lambda: w.session.page_number == 1, timeout=TIMEOUT)
    assert "<b>page 1</b>" in panel.status.text()


def test_fit_page_shows_no_scroll_bar(qtbot: Any, window: Any, demo_pdf: Any) -> None:
    w = window
    open_file(qtbot, w, demo_pdf)
    for size in ((1280, 800), (1600, 1000), (1400, 900)):
        w.resize(*size)
        w.canvas.fit_page()
        qtbot.wait(50)
        canvas = w.canvas
        assert canvas.horizontalScrollBar().maximum() <= 0 and not canvas.horizontalScrollBar().isVisible(), (
            size
        )
        assert canvas.verticalScrollBar().maximum() <= 0 and not canvas.verticalScrollBar().isVisible(), size
