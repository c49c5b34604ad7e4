"""The page is shown in stages: glyphs and their classes first, then the
text and decisions of the mode on screen, then every other mode — none of it assembled on the GUI
thread, each panel showing what it waits for until it comes."""

from __future__ import annotations

import threading
from typing import Any

import pytest

pytest.importorskip("pytestqt")

from glyphscope.core.analysis import LazyTexts  # noqa: E402
from glyphscope.core.assembly import MODES, WordGapDecision  # noqa: E402
from tests.gui_helpers import TIMEOUT, go_to, open_file  # noqa: E402


@pytest.fixture
def gui_thread_assemblies(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The modes the GUI thread asked for before they were assembled (it would have waited)."""
    asked: list[str] = []
    original = LazyTexts.__getitem__

    def getitem(self: LazyTexts, mode: str) -> Any:
        if threading.current_thread() is threading.main_thread() and not self.ready(mode):
            asked.append(mode)
        return original(self, mode)

    monkeypatch.setattr(LazyTexts, "__getitem__", getitem)
    return asked


def held_back(monkeypatch: pytest.MonkeyPatch, w: Any) -> list[Any]:
    """What the loader starts once a page is painted (its texts, the neighbours), held until the
    test lets it go: the state in between is then certain."""
    held: list[Any] = []
    monkeypatch.setattr(w.loader, "later", held.append)
    return held


def let_go(qtbot: Any, w: Any, held: list[Any]) -> None:
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        while held:
            held.pop(0)()


def test_glyphs_first_then_the_mode_on_screen_then_every_mode(
    qtbot: Any, window: Any, demo_pdf: Any, gui_thread_assemblies: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    w = window
    held = held_back(monkeypatch, w)
    w.session.set_layer_visible("word_gaps", True)  # a layer drawn from the mode's text (off by default)
    with qtbot.waitSignal(w.page_shown, timeout=TIMEOUT):
        w.open_path(demo_pdf, page=10)  # unresolved and fallback glyphs: layers that need no text
    # Shown, before any text: the loader starts on them once the page is painted.
    assert len(held) == 1
    facts = w.bundle.facts
    glyphs = w.bundle.analysis.page.glyphs
    assert facts.modes.pending() == MODES
    assert w.complete_view is None
    legend = w.legend
    assert legend.count("glyphs") == len(glyphs)
    assert legend.count("unresolved") == sum(1 for g in glyphs if g.decode_source.value == "unresolved") > 0
    for key in ("word_gaps", "line_breaks", "reading_order", "columns", "baselines"):
        assert legend.counts[key].text() == "…", key  # pending, never a wrong 0
    plain = w.text_panels["plain"]
    assert plain.view is None and plain.editor.toPlainText() == ""
    assert "Assembling the Plain text" in plain.header.text()
    items = w.canvas.layer_items
    assert items["glyphs"].drawing is not None and items["unresolved"].drawing is not None
    assert items["word_gaps"].drawing is None  # drawn once the plain text is in

    assert "every mode's text" not in w.timing_label.text()
    let_go(qtbot, w, held)
    assert facts.modes.pending() == ()
    qtbot.waitUntil(lambda: 10 not in w.loader.completing, timeout=TIMEOUT)  # its worker's `finished`
    assert "every mode's text at" in w.timing_label.text()  # the status bar says when they came
    texts = w.bundle.analysis.texts
    for mode in MODES:
        panel = w.text_panels[mode]
        shown = facts.modes.shown_mode(mode)
        assert panel.view is not None and panel.editor.toPlainText() == texts[shown].text, mode
    gaps = [d for d in texts["plain"].decisions if isinstance(d, WordGapDecision)]
    assert legend.count("word_gaps") == len(gaps) > 0
    assert len(items["word_gaps"].drawing.markers) == len(gaps)
    assert legend.count("columns") == facts.counts.layers("plain")["columns"]
    assert gui_thread_assemblies == []  # the worker assembled every mode; the GUI thread only read


def test_a_mode_chosen_while_its_text_is_assembled_fills_in_when_it_comes(
    qtbot: Any, window: Any, demo_pdf: Any, gui_thread_assemblies: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    w = window
    held = held_back(monkeypatch, w)
    w.session.set_layer_visible("word_gaps", True)
    with qtbot.waitSignal(w.page_shown, timeout=TIMEOUT):
        w.open_path(demo_pdf, page=3)
    w.session.set_mode("layout")  # before the completion has started
    panel = w.text_panels["layout"]
    assert panel.view is None and "Assembling the Layout text" in panel.header.text()
    assert w.canvas.layer_items["word_gaps"].drawing is None
    let_go(qtbot, w, held)
    assert panel.editor.toPlainText() == w.bundle.analysis.texts["layout"].text
    assert w.canvas.layer_items["word_gaps"].drawing is not None
    assert gui_thread_assemblies == []


def test_a_revisited_page_is_complete_at_once(qtbot: Any, window: Any, demo_pdf: Any) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=1)
    first = w.bundle
    go_to(qtbot, w, 2)
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT, check_params_cb=lambda n: n == 1):
        w.session.set_page(1)  # from the cache: shown and complete in the same call
    assert w.bundle is first and w.complete_view is first


def test_texts_that_cannot_be_assembled_say_so_instead_of_waiting(
    qtbot: Any, window: Any, demo_pdf: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from glyphscope.inspector.gui import workers

    def broken(bundle: Any, mode: str, prebuild: Any = (), *, token: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(workers, "complete_page_job", broken)
    w = window
    open_file(qtbot, w, demo_pdf, page=2)  # page_complete: nothing is left waiting
    for mode in MODES:
        panel = w.text_panels[mode]
        assert panel.view is None and "text could not be assembled: RuntimeError: boom" in panel.header.text()
    assert w.bundle.facts.modes.pending() == ()
    assert w.legend.count("glyphs") == len(w.bundle.analysis.page.glyphs)  # the page itself stands


def test_the_page_is_complete_on_the_workers_last_word_not_when_its_modes_look_ready(
    qtbot: Any, window: Any, demo_pdf: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker runs ahead of the signals it sent: every mode may be ready while the GUI thread
    still handles the `texts` of the first one. page_complete waits for the worker's result."""
    w = window
    held = held_back(monkeypatch, w)
    with qtbot.waitSignal(w.page_shown, timeout=TIMEOUT):
        w.open_path(demo_pdf, page=2)
    bundle, facts = w.bundle, w.bundle.facts
    for mode in MODES:  # as a worker that ran ahead would have
        facts.modes.view(mode)
    assert facts.modes.pending() == () and not bundle.texts_complete
    with qtbot.assertNotEmitted(w.page_complete):
        w.session.texts_ready(bundle)  # the first `texts`: panels fill in, the page is not complete yet
    assert w.complete_view is None and w.text_panels["layout"].view is not None
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.loader.texts_completed(bundle, w.loader.generation)  # the worker's result
    assert bundle.texts_complete and w.complete_view is bundle
    held.clear()
