"""The one base class of the page-scoped panels: the staged page's states, implemented once.

A page reaches the window in stages (inspector.views.page_view): loading, an error, the page
without the text of a mode, a mode whose text failed, then ready (maybe with a fallback
reason). `PagePanel` subscribes to the session's `view` and `texts` events (and `mode` when
it follows the session's mode), reduces the view to a `PageState`, shows the waiting or
failure line in the panel's `state_label` and calls `show_page(state)` only when the state is
READY (the label is the panel's again, styled when its mode falls back); otherwise
`show_no_page(state)` clears the panel. A panel reads the page through `self.page_state` (and its
`facts`), nothing else.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import QLabel, QWidget

from glyphscope.inspector.views import page_view
from glyphscope.inspector.views.page_facts import PageBundle, PageFacts
from glyphscope.inspector.views.page_view import NO_PAGE, PageState, Stage
from glyphscope.inspector.views.session import Session

FAILURE_COLOUR = "#b71c1c"
FALLBACK_STYLE = "background:#fff3cd; color:#5d4037; padding:3px; border:1px solid #ffe08a"


def state_html(state: PageState) -> str:
    """The line a panel shows for a state that is not ready (a failure in red, a wait in italics),
    or the fallback reason of a ready one ("" when there is nothing to say)."""
    if state.failed:
        return f"<span style='color:{FAILURE_COLOUR}'>{html.escape(state.message)}</span>"
    if state.stage is Stage.READY:
        return html.escape(state.fallback) if state.fallback else ""
    return f"<i>{html.escape(state.message)}</i>"


class PagePanel(QWidget):
    """A panel that shows the current page once the data it needs is in.

    Subclasses set `follows_mode` (they need the text of the session's mode) or override
    `text_mode()` (the text of a mode of their own); they implement `show_page` and may
    override `show_no_page`. `state_label` is the panel's heading label that shows the waiting
    or failure line while the page is not ready (None: the panel words nothing)."""

    follows_mode = False  # the panel shows the text of the session's mode: it waits for that text

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.page_state: PageState = NO_PAGE
        self._shown: tuple[PageFacts | None, str | None] | None = None  # what show_page last showed
        self.state_label: QLabel | None = None  # set by the subclass once it has built its widgets
        session.events.view.connect(self._on_view)
        session.events.texts.connect(self._on_texts)
        if self.follows_mode:
            session.events.mode.connect(lambda mode: self.refresh_page())

    # -- what a subclass reads and implements ---------------------------------------------------
    @property
    def facts(self) -> PageFacts | None:
        """The analysed page, or None before it is in (or when it failed)."""
        return self.page_state.facts

    def text_mode(self) -> str | None:
        """The mode whose text the panel needs, or None when it needs the page only."""
        return self.session.mode if self.follows_mode else None

    def show_page(self, state: PageState) -> None:
        """Show a READY state (`state.facts` is set; with a mode, its text is assembled)."""
        raise NotImplementedError

    def show_no_page(self, state: PageState) -> None:
        """Clear the panel: the page (or the mode's text) is not in, or it failed (`state.message`)."""

    # -- the staged states, once -----------------------------------------------------------------
    def refresh_page(self) -> None:
        """Take the session's current view again (a subclass calls it once its widgets exist)."""
        self._apply(
            page_view.page_state(self.session.view, self.text_mode(), self.session.page_number), force=True
        )

    def _on_view(self, view: PageBundle | None) -> None:
        self._apply(page_view.page_state(view, self.text_mode(), self.session.page_number), force=True)

    def _on_texts(self, view: PageBundle) -> None:
        if view is self.session.view:
            self._apply(page_view.page_state(view, self.text_mode(), self.session.page_number), force=False)

    def _apply(self, state: PageState, *, force: bool) -> None:
        """Show `state`; `force` False (more texts came in): only when this panel's data changed."""
        shown = (state.facts, state.shown_mode) if state.ready else None
        if not force and shown == self._shown and state.stage is self.page_state.stage:
            return
        self.page_state = state
        label = self.state_label
        if label is not None:
            label.setStyleSheet(FALLBACK_STYLE if state.ready and state.fallback else "")
            if not state.ready:
                label.setText(state_html(state))
        self._shown = shown
        if state.ready:
            self.show_page(state)
        else:
            self.show_no_page(state)
