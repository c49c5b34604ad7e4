"""The text of every mode behind one tab bar that is the mode selector, linked both ways with the canvas.

`TextTabs` is the "Text" dock: its tabs are core.assembly.MODES, a tab click sets the
session's mode and a mode chosen anywhere else (toolbar, View menu) selects its tab,
so the two can never disagree. A mode that has no text on the page (structure mode
without usable structure) shows the plain text with the reason, on that page only.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontDatabase, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QStackedWidget,
    QTabBar,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.assembly.modes import Mode
from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import MODES, Session

if TYPE_CHECKING:
    from glyphscope.inspector.views.page_facts import PageFacts, TextView

MODE_TITLES: dict[str, str] = {
    Mode.PLAIN: "Plain",
    Mode.LAYOUT: "Layout",
    Mode.COLUMNS: "Columns",
    Mode.STRUCTURE: "Structure",
    Mode.ARTICLES: "Articles",
    Mode.AUTO: "Auto",
}
MODE_TIPS: dict[str, str] = {
    Mode.PLAIN: "Reading flow: glyphs in paint order, words and lines from the gaps",
    Mode.LAYOUT: "Lines placed on a character grid, like pdftotext -layout (never wrapped)",
    Mode.COLUMNS: "Columns found from vertical gaps, each read top to bottom",
    Mode.STRUCTURE: "Order of the structure tree's marked content (tagged PDF)",
    Mode.ARTICLES: "Order of the article threads' beads (/Threads), the rest in plain order",
    Mode.AUTO: "Structure order when the page's tags are usable and trusted, else article beads, "
    "else reading order (columns, then lines top to bottom) when the content stream is scrambled, else plain",
}
FALLBACK_TAB_COLOUR = "#b26a00"  # a tab whose mode shows another mode's text on this page


def mode_title(mode: str) -> str:
    """Short tab and menu name of a mode (modes added to core later get their own name)."""
    return MODE_TITLES.get(mode, mode.replace("_", " ").capitalize())


def highlight_format() -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setBackground(QColor("#ffeb3b"))
    fmt.setForeground(QColor("#000000"))
    return fmt


class TextPanel(PagePanel):
    """The text of one mode; selecting text selects its glyphs, selected glyphs are highlighted here."""

    def __init__(self, session: Session, mode: str, parent: QWidget | None = None) -> None:
        self.mode = mode  # before the base class asks text_mode()
        super().__init__(session, parent)
        self.source = f"text:{mode}"
        self.view: TextView | None = None
        self.fallback: str | None = None  # why this mode shows another mode's text on this page
        self._updating = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.header = QLabel()
        self.header.setObjectName(f"text.{mode}.header")
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.header)
        self.state_label = self.header
        self.editor = QPlainTextEdit()
        self.editor.setObjectName(f"text.{mode}.editor")
        self.editor.setReadOnly(True)
        self.set_wrap(True)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setTextInteractionFlags(self.editor.textInteractionFlags())
        layout.addWidget(self.editor)
        self.editor.selectionChanged.connect(self._on_text_selection)
        session.events.selection.connect(self._on_selection)

    def set_wrap(self, wrap: bool) -> None:
        """Wrap long lines at the panel's width (layout mode never wraps: its columns are the point)."""
        wrap = wrap and self.mode != Mode.LAYOUT
        self.editor.setLineWrapMode(
            QPlainTextEdit.LineWrapMode.WidgetWidth if wrap else QPlainTextEdit.LineWrapMode.NoWrap
        )

    # -- content ------------------------------------------------------------------------------
    def text_mode(self) -> str:
        return self.mode

    def show_no_page(self, state: PageState) -> None:
        """No text yet (loading, assembling) or none (the page or this mode failed): the line says which."""
        self._updating = True
        try:
            self.view = None
            self.fallback = None
            self.editor.setPlainText("")
        finally:
            self._updating = False

    def show_page(self, state: PageState) -> None:
        facts, shown = state.facts, state.shown_mode
        assert facts is not None and shown is not None  # READY with a mode
        self._updating = True
        try:
            self.view = facts.modes.view(shown)
            self.editor.setPlainText(self.view.text)
            self.header.setText(self.describe(facts))
            self.fallback = state.fallback
        finally:
            self._updating = False
        self._on_selection(self.session.selection, "")

    def describe(self, facts: PageFacts) -> str:
        view = self.view
        assert view is not None  # shown
        visible = len(facts.classified.visible)
        lines = view.text.count("\n") + 1 if view.text else 0
        base = f"{len(view.text)} characters, {lines} lines from {visible} visible glyphs"
        reason = facts.modes.fallback_reason(self.mode)
        if reason is not None:
            shown = facts.modes.shown_mode(self.mode)
            what = (
                "No usable structure" if self.mode == Mode.STRUCTURE else f"No {mode_title(self.mode)} order"
            )
            instead = (
                f"<b>{mode_title(shown)}</b> text" if shown != self.mode else "<b>plain</b> reading order"
            )
            why = reason.removeprefix("no structure: ")  # the heading already says there is none
            return f"<b>{what}</b> on this page: {html.escape(why)}. Showing {instead} instead · {base}"
        if self.mode == Mode.STRUCTURE:
            untagged = view.untagged or 0
            trust = "trusted" if untagged * 4 <= visible else "not trusted: untagged × 4 > total"
            return f"<b>{untagged}</b> of {visible} glyphs untagged ({trust}) · {base}"
        if self.mode == Mode.AUTO:
            used = "structure order" if view.structured else "plain reading flow"
            why = f" ({view.reason})" if view.reason else ""
            return f"Auto used <b>{used}</b>{why} · {base}"
        if self.mode == Mode.COLUMNS:
            return f"{len(view.columns)} columns · {base}"
        if self.mode == Mode.LAYOUT:
            return f"{len(view.baselines)} baselines · {base}"
        return base

    # -- linking ------------------------------------------------------------------------------
    def _on_text_selection(self) -> None:
        if self._updating or self.view is None:
            return
        cursor = self.editor.textCursor()
        if not cursor.hasSelection():
            return
        glyphs = self.view.glyphs_for(cursor.selectionStart(), cursor.selectionEnd())
        self.session.select(glyphs, self.source)

    def select_chars(self, start: int, end: int) -> None:
        """Select characters [start, end) as a user would (drives the glyph selection)."""
        cursor = self.editor.textCursor()
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        self.editor.setTextCursor(cursor)

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        if self.view is None or source == self.source:
            return
        chars = self.view.chars_for(selection) if selection else []
        fmt = highlight_format()
        extras = []
        for start, end in _runs(chars):
            sel = QTextEdit.ExtraSelection()
            cursor = self.editor.textCursor()
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            sel.format = fmt
            extras.append(sel)
        self._updating = True
        try:
            self.editor.setExtraSelections(extras)
            cursor = self.editor.textCursor()
            if chars:
                first_run = next(iter(_runs(chars)))
                cursor.setPosition(first_run[0])
                cursor.setPosition(first_run[1], QTextCursor.MoveMode.KeepAnchor)
            else:
                cursor.clearSelection()
            self.editor.setTextCursor(cursor)
            if chars:
                self.editor.ensureCursorVisible()
        finally:
            self._updating = False

    def selected_text(self) -> str:
        return self.editor.textCursor().selectedText()

    def highlighted_chars(self) -> list[int]:
        out: list[int] = []
        for sel in self.editor.extraSelections():
            out.extend(range(sel.cursor.selectionStart(), sel.cursor.selectionEnd()))
        return out


def _runs(chars: list[int]) -> list[tuple[int, int]]:
    """Sorted character indices as [start, end) runs."""
    runs: list[tuple[int, int]] = []
    for c in chars:
        if runs and c <= runs[-1][1]:
            runs[-1] = (runs[-1][0], max(runs[-1][1], c + 1))
        else:
            runs.append((c, c + 1))
    return runs


class TextTabs(PagePanel):
    """The "Text" dock: one tab per mode of core.assembly.MODES, which is also the mode selector."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.modes: tuple[str, ...] = tuple(MODES)
        self._updating = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        bar = QHBoxLayout()
        bar.setContentsMargins(2, 2, 2, 0)
        self.tabs = QTabBar()
        self.tabs.setObjectName("text.tabs")
        self.tabs.setExpanding(False)
        self.tabs.setElideMode(Qt.TextElideMode.ElideNone)
        self.tabs.setUsesScrollButtons(True)
        self.tabs.setDrawBase(False)
        self.tabs.setStyleSheet("QTabBar::tab { padding: 3px 5px; }")  # six modes fit a 350 px column
        self.stack = QStackedWidget()
        self.panels: dict[str, TextPanel] = {}
        for mode in self.modes:
            index = self.tabs.addTab(mode_title(mode))
            self.tabs.setTabToolTip(index, MODE_TIPS.get(mode, mode))
            panel = TextPanel(session, mode)
            self.panels[mode] = panel
            self.stack.addWidget(panel)
        self.wrap = QToolButton()  # a symbol, not a labelled checkbox: the six tabs keep the row
        self.wrap.setText("\u21b5")
        self.wrap.setCheckable(True)
        self.wrap.setAutoRaise(True)
        self.wrap.setObjectName("text.wrap")
        self.wrap.setChecked(True)
        self.wrap.setToolTip("Wrap long lines at the panel's width (layout mode never wraps)")
        self.wrap.toggled.connect(self._set_wrap)
        bar.addWidget(self.tabs, 1)
        bar.addWidget(self.wrap)
        layout.addLayout(bar)
        layout.addWidget(self.stack, 1)
        self.tabs.currentChanged.connect(self._on_tab)
        session.events.mode.connect(self._on_mode)
        session.events.texts.connect(lambda view: self._update_titles(self.facts))  # per mode
        self._on_mode(session.mode)

    def _set_wrap(self, wrap: bool) -> None:
        for panel in self.panels.values():
            panel.set_wrap(wrap)

    def show_page(self, state: PageState) -> None:
        self._update_titles(state.facts)

    def show_no_page(self, state: PageState) -> None:
        self._update_titles(None)

    @property
    def current_mode(self) -> str:
        return self.modes[self.tabs.currentIndex()]

    def _on_tab(self, index: int) -> None:
        if 0 <= index < len(self.modes):
            self.stack.setCurrentIndex(index)
            if not self._updating:
                self.session.set_mode(self.modes[index])

    def _on_mode(self, mode: str) -> None:
        if mode not in self.panels:
            return
        index = self.modes.index(mode)
        self._updating = True
        try:
            self.tabs.setCurrentIndex(index)
            self.stack.setCurrentIndex(index)
        finally:
            self._updating = False

    def _update_titles(self, facts: PageFacts | None) -> None:
        """Titles stay the short mode names (they must fit a side column); a mode that falls back on
        this page is drawn in amber with the reason in its tooltip (the panel's header says it in full),
        and Auto's tooltip says which order it used."""
        default = self.tabs.palette().color(QPalette.ColorRole.WindowText)
        for i, mode in enumerate(self.modes):
            if not (0 <= i < self.tabs.count()):
                break
            tip, colour = MODE_TIPS.get(mode, mode), default
            if facts is not None and not facts.modes.shown_ready(mode):
                tip = f"{tip}\nOn this page: being assembled (the page is shown first, its texts follow)"
            elif facts is not None:
                reason = facts.modes.fallback_reason(mode)
                if reason is not None:
                    shown = mode_title(facts.modes.shown_mode(mode))
                    tip = f"{tip}\nOn this page: {reason} (showing {shown} text instead)"
                    colour = QColor(FALLBACK_TAB_COLOUR)
                elif mode == Mode.AUTO:
                    tip = f"{tip}\nOn this page: {mode_title(facts.modes.auto_order())} order"
            self.tabs.setTabText(i, mode_title(mode))
            self.tabs.setTabToolTip(i, tip)
            self.tabs.setTabTextColor(i, colour)

    def tab_falls_back(self, mode: str) -> bool:
        """Whether the mode's tab is marked as showing another mode's text on this page."""
        index = self.modes.index(mode)
        return self.tabs.tabTextColor(index) == QColor(FALLBACK_TAB_COLOUR)
