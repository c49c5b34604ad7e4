"""The panel registry (gui/panels/registry.py): every registered panel shows the page the session
emits, and a panel is added by one line (pytest-qt)."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtWidgets import QLabel

from glyphscope.core.analysis import analyze_page
from glyphscope.inspector.gui.main_window import MainWindow, make_settings
from glyphscope.inspector.gui.panels import registry
from glyphscope.inspector.gui.panels.registry import PanelSpec
from tests.gui_helpers import go_to, open_file


def _until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Run the event loop until `condition` holds (a panel that catches up when it comes forward)."""
    from PySide6.QtTest import QTest

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the panel did not catch up"
        QTest.qWait(20)


def shows_page(w: MainWindow, name: str, page: int) -> None:
    """Assert that the registered panel `name` shows `page`, by values computed here from the engine."""
    panel = w.panel_widgets[name]
    analysis = analyze_page(w.session.document, page)
    glyphs = analysis.page.glyphs
    if name == "legend":
        assert panel.count("glyphs") == len(glyphs)
        assert panel.count("culled") == len(analysis.classified.culls)
    elif name == "pages":
        assert panel.view.currentIndex().row() + 1 == page
    elif name == "text":
        for mode, text_panel in panel.panels.items():  # a mode without its text shows plain's
            shown = mode if analysis.texts[mode].text is not None else "plain"
            assert text_panel.editor.toPlainText() == analysis.texts[shown].text, mode
        assert panel.current_mode == w.session.mode == w.mode_combo.currentData()
    elif name == "details":
        w.session.select({0}, "test")
        assert "Glyph #0" in panel.text() and glyphs[0].font_key in panel.text()
        w.session.clear_selection("test")
    elif name == "diagnostics":
        assert panel.tree.topLevelItemCount() == len(analysis.findings)
        assert f"Page {page}" in panel.page_label.text()
    elif name == "fonts":
        assert panel.model.rowCount() == len(analysis.page.fonts)
    elif name == "glyph_table":
        assert panel.model.rowCount() == len(glyphs)
    elif name == "content_stream":  # a tool: read only while in front (opened from Tools)
        w.reveal(name)
        _until(lambda: panel.page is not None and panel.page.page_number == page)
        assert panel.page.page_number == page and len(panel.page.glyphs) == len(glyphs)
    elif name in ("probe", "find"):
        assert panel.facts.page.page_number == page and len(panel.facts.page.glyphs) == len(glyphs)
    elif name == "tuning":
        assert panel.diff_label.text().startswith(f"<b>Page {page}, ")
        mode = w.session.mode
        assert panel.default_text(mode) == (analysis.texts[mode].text or "")
    elif name in CHECKED_ELSEWHERE:
        return
    else:
        raise AssertionError(f"panel {name!r} has no check here")


# Panels whose page checks live in their own test files (added by the issues that made them).
CHECKED_ELSEWHERE = {
    "stepper",
    "compare",
    "structure_tree",
    "objects",
    "object_browser",
    "font_table",
    "help",
    "verify",  # tests/gui/test_gui_verify.py: a page's result shown per page, reset with the document
}


# Panels that show the whole document, not the current page.
DOCUMENT_PANELS = {"document_text"}


def test_every_registered_panel_shows_the_page_the_session_emits(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=7)
    assert w.session.view is w.bundle and w.bundle.page_number == 7
    assert len(analyze_page(w.session.document, 7).findings) > 0  # slugs culled: the count means something
    page_panels = [spec.name for spec in registry.PANELS if spec.name not in DOCUMENT_PANELS]
    assert set(page_panels) | DOCUMENT_PANELS == set(w.panel_widgets)
    for name in page_panels:
        shows_page(w, name, 7)
    # One emission per real change: the page going (None), then each new model of the next page.
    views = []
    w.session.events.view.connect(views.append)
    go_to(qtbot, w, 8)
    assert views[0] is None and views[-1] is w.session.view is w.bundle
    assert all(v.page_number == 8 for v in views[1:])
    assert len({id(v) for v in views}) == len(views)  # never the same model twice
    for name in page_panels:
        shows_page(w, name, 8)
    assert w.panel_widgets["diagnostics"].tree.topLevelItemCount() == len(
        analyze_page(w.session.document, 8).findings
    )


class PageEcho(QLabel):
    """A panel as small as one can be: it follows the session's view model, nothing else."""

    def __init__(self, session) -> None:
        super().__init__()
        session.events.view.connect(lambda view: self.show_facts(session.facts))

    def show_facts(self, facts) -> None:
        page = facts.page if facts is not None else None
        self.setText(f"page {page.page_number}: {len(page.glyphs)} glyphs" if page is not None else "")


def test_a_panel_is_added_by_one_line_of_the_registry(qtbot, demo_pdf, monkeypatch) -> None:
    echo_spec = PanelSpec("echo", "Page echo", PageEcho, "bottom", tab_with="glyph_table")
    monkeypatch.setattr(registry, "PANELS", (*registry.PANELS, echo_spec))
    w = MainWindow(settings=make_settings())
    qtbot.addWidget(w)
    w.show()
    dock = w.panels["echo"]
    assert dock.objectName() == "dock.echo" and dock.windowTitle() == "Page echo"
    action = next(a for a in w.panels_menu.actions() if a.text() == "Page echo")
    echo = w.panel_widgets["echo"]
    assert echo.objectName() == "panel.echo" and dock.widget().widget().panel is echo  # in its scroll area
    open_file(qtbot, w, demo_pdf, page=3)
    assert echo.text() == f"page 3: {len(analyze_page(w.session.document, 3).page.glyphs)} glyphs"
    go_to(qtbot, w, 6)
    assert echo.text() == f"page 6: {len(analyze_page(w.session.document, 6).page.glyphs)} glyphs"
    action.trigger()  # View › Panels toggles it like any other dock
    assert not dock.isVisible()
    w.close_document()
    assert echo.text() == ""
    w.close()
