"""PagePanel: the staged page's states implemented once, driven by a Session alone (no window)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLabel, QVBoxLayout

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES
from glyphscope.core.document import open_document
from glyphscope.inspector.gui.panels.base import FALLBACK_STYLE, PagePanel
from glyphscope.inspector.views.page_facts import ModeTexts, PageBundle, PageFacts
from glyphscope.inspector.views.page_view import PageState, Stage
from glyphscope.inspector.views.session import Session


class Recorder(PagePanel):
    """A panel that records what the base class asks it to show."""

    def __init__(self, session: Session, follows_mode: bool = False) -> None:
        self.follows_mode = follows_mode
        super().__init__(session)
        self.calls: list[tuple[str, Stage, int]] = []
        self.heading = QLabel("")
        QVBoxLayout(self).addWidget(self.heading)
        self.state_label = self.heading

    def show_page(self, state: PageState) -> None:
        self.calls.append(("page", state.stage, state.page_number))
        self.heading.setText(f"{state.page_number} shown")

    def show_no_page(self, state: PageState) -> None:
        self.calls.append(("none", state.stage, state.page_number))


def _bundle(doc, page: int) -> PageBundle:
    analysis = analyze_page(doc, page)
    for mode in MODES:
        assert analysis.texts[mode] is not None
    return PageBundle(page, analysis.page.boxes, analysis, PageFacts(analysis))


def test_page_panel_stages_from_the_session(qtbot, demo_pdf: Path) -> None:
    session = Session()
    panel = Recorder(session)
    qtbot.addWidget(panel)
    doc = open_document(demo_pdf)
    session.set_document(doc, demo_pdf)
    session.set_page(2)
    assert panel.page_state.stage is Stage.NO_PAGE  # no view was emitted yet: nothing to say
    bundle = _bundle(doc, 2)
    session.set_view(PageBundle(2, bundle.boxes, preview=True))
    assert panel.calls[-1] == ("none", Stage.LOADING, 2) and panel.heading.text() == "<i>Loading page 2…</i>"
    session.set_view(bundle)
    assert panel.calls[-1] == ("page", Stage.READY, 2) and panel.facts is bundle.facts
    assert panel.heading.text() == "2 shown" and panel.heading.styleSheet() == ""
    n = len(panel.calls)
    session.texts_ready(bundle)  # more texts: a panel of the page only has nothing new to show
    assert len(panel.calls) == n
    session.set_page(3)
    assert panel.calls[-1] == ("none", Stage.LOADING, 3) and panel.facts is None
    session.set_view(PageBundle(3, bundle.boxes, error="page 3: broken content"))
    assert panel.calls[-1] == ("none", Stage.ERROR, 3)
    assert panel.heading.text() == "<span style='color:#b71c1c'>page 3: broken content</span>"


def test_page_panel_waits_for_its_mode_and_shows_the_fallback(qtbot, demo_pdf: Path, monkeypatch) -> None:
    session = Session()
    panel = Recorder(session, follows_mode=True)
    qtbot.addWidget(panel)
    doc = open_document(demo_pdf)
    session.set_document(doc, demo_pdf)
    session.set_page(2)
    bundle = _bundle(doc, 2)
    pending = {"structure"}
    monkeypatch.setattr(ModeTexts, "shown_ready", lambda self, mode: mode not in pending)
    session.set_mode("structure")
    session.set_view(bundle)
    assert panel.calls[-1] == ("none", Stage.TEXT_PENDING, 2) and panel.facts is bundle.facts
    assert panel.heading.text().startswith("<i>Assembling the Structure text…")
    pending.clear()
    session.texts_ready(bundle)  # its text came: shown once, with the fallback styling
    assert panel.calls[-1] == ("page", Stage.READY, 2)
    assert panel.page_state.fallback and panel.heading.styleSheet() == FALLBACK_STYLE
    n = len(panel.calls)
    session.texts_ready(bundle)
    assert len(panel.calls) == n  # nothing new for this panel
    session.set_mode("plain")  # it follows the session's mode
    assert panel.calls[-1] == ("page", Stage.READY, 2) and panel.page_state.shown_mode == "plain"
    assert panel.page_state.fallback is None and panel.heading.styleSheet() == ""
