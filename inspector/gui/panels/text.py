"""One text panel per mode, linked both ways with the canvas through the session."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor, QFontDatabase, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from glyphscope.inspector.session import Session

MODE_TITLES = {
    "plain": "Plain",
    "layout": "Layout",
    "columns": "Columns",
    "structure": "Structure",
    "auto": "Auto",
}


def highlight_format() -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setBackground(QColor("#ffeb3b"))
    fmt.setForeground(QColor("#000000"))
    return fmt


class TextPanel(QWidget):
    """The text of one mode; selecting text selects its glyphs, selected glyphs are highlighted here."""

    def __init__(self, session: Session, mode: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.mode = mode
        self.source = f"text:{mode}"
        self.view: Any = None
        self._updating = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.header = QLabel()
        self.header.setObjectName(f"text.{mode}.header")
        self.header.setWordWrap(True)
        layout.addWidget(self.header)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName(f"text.{mode}.editor")
        self.editor.setReadOnly(True)
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setTextInteractionFlags(self.editor.textInteractionFlags())
        layout.addWidget(self.editor)
        self.editor.selectionChanged.connect(self._on_text_selection)
        session.events.selection.connect(self._on_selection)
        session.events.view.connect(self._on_view)

    # -- content ------------------------------------------------------------------------------
    def _on_view(self, view: Any) -> None:
        if view is not None and view.facts is None and view.error:
            self.show_error(view.error)
        else:
            self.set_facts(view.facts if view is not None else None)

    def set_facts(self, facts: Any) -> None:
        self._updating = True
        try:
            if facts is None:
                self.view = None
                self.editor.setPlainText("")
                self.header.setText("")
                return
            self.view = facts.view(self.mode)
            self.editor.setPlainText(self.view.text)
            self.header.setText(self.describe(facts))
        finally:
            self._updating = False
        self._on_selection(self.session.selection, "")

    def show_error(self, message: str) -> None:
        self.view = None
        self._updating = True
        self.editor.setPlainText("")
        self._updating = False
        self.header.setText(f"<span style='color:#b71c1c'>{message}</span>")

    def describe(self, facts: Any) -> str:
        view = self.view
        visible = len(facts.classified.visible)
        lines = view.text.count("\n") + 1 if view.text else 0
        base = f"{len(view.text)} characters, {lines} lines from {visible} visible glyphs"
        if self.mode == "structure":
            if not view.available:
                return f"<b>No usable structure</b>: {view.reason or 'the page has no structure tree'}"
            untagged = view.untagged or 0
            trust = "trusted" if untagged * 4 <= visible else "not trusted: untagged × 4 > total"
            return f"<b>{untagged}</b> of {visible} glyphs untagged ({trust}) · {base}"
        if self.mode == "auto":
            used = "structure order" if view.structured else "plain reading flow"
            why = f" ({view.reason})" if view.reason else ""
            return f"Auto used <b>{used}</b>{why} · {base}"
        if self.mode == "columns":
            return f"{len(view.columns)} columns · {base}"
        if self.mode == "layout":
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
