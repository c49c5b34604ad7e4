"""Fonts: every font the page uses, how its glyphs were decoded, and its problems.

Selecting a font selects (highlights) its glyphs; selecting glyphs of a
single font selects its row.
"""

from __future__ import annotations

import html
import unicodedata
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.font_stats import FontStats, PageFontStats
from glyphscope.core.fonts.explain import code_hex
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.page import PageFont
from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.gui.panels.in_front import InFrontPanel
from glyphscope.inspector.gui.panels.shared import VERDICT_COLOURS
from glyphscope.inspector.gui.table_model import RowsModel, fit_columns
from glyphscope.inspector.verify.check import FontCheck, FontVerdict, VerifyResult
from glyphscope.inspector.verify.evidence import Source
from glyphscope.inspector.verify.view import (
    PREVIEW_CHANGED,
    PREVIEW_UNKNOWN,
    FontProposal,
    ProposalRow,
    ProposalSource,
    font_proposals,
    preview_segments,
)
from glyphscope.inspector.views.fonts import HEADERS as CODE_HEADERS
from glyphscope.inspector.views.fonts import (
    SOURCE_WORDS,
    FontCodeRow,
    font_code_rows,
    text_verdict,
    uniform_columns,
)
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.inspector.views.page_facts import PageFacts

CARD_ONLY = (  # the panel's summary line counts the fonts without ToUnicode
    "Unresolved",  # "Decoded by" says UNRESOLVED (in red) with the count
    "ToUnicode",
    "Type",
    "Base font",
    "Encoding",
    "Widths",
    "Embedded",
)  # in the Font card; the header menu shows them
CHAIN_HEIGHT = 64  # px of decoding chain kept above a long code table (its steps scroll)
MAX_COLUMN = 220  # px, before the columns are fitted to the panel (table_model.fit_columns)
HEADERS = (  # what triage needs first, then the font's identity
    "Key",
    "Form",
    "Glyphs",
    "Unresolved",
    "Decoded by",
    "Text",
    "OCR",
    "ToUnicode",
    "Problems",
    "Type",
    "Base font",
    "Encoding",
    "Widths",
    "Embedded",
)


class FontTableModel(RowsModel):
    """Rows are the page product's per-font statistics (`PageAnalysis.fonts.entries`, not copied):
    one per resource entry, with the glyphs selected through it."""

    HEADERS = HEADERS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.entries: tuple[FontStats, ...] = ()
        self.stats: PageFontStats | None = None
        self.checks: dict[str, FontCheck] = {}  # font id → the OCR cross-check of this page

    def set_checks(self, result: VerifyResult | None) -> None:
        checks = {f.font_id: f for f in result.fonts} if result is not None else {}
        if checks != self.checks:
            self.checks = checks
            self.rows_changed(0, self.row_count() - 1)

    def set_fonts(self, stats: PageFontStats | None) -> None:
        self.beginResetModel()
        self.entries = stats.entries if stats is not None else ()
        self.stats = stats
        self.endResetModel()

    @property
    def fonts(self) -> tuple[PageFont, ...]:
        return tuple(e.page_font for e in self.entries)

    def glyphs_of(self, row: int) -> tuple[int, ...]:
        return self.entries[row].selected.glyphs

    def row_count(self) -> int:
        return len(self.entries)

    def unresolved(self, row: int) -> int:
        return len(self.entries[row].selected.unresolved)

    def cell(self, row: int, column: int) -> str:
        f = self.entries[row].page_font
        info = f.info
        sources = self.entries[row].selected.sources
        name = HEADERS[column]
        if name == "Key":
            return f.font_key
        if name == "Form":
            return " › ".join(f.form_path) if f.form_path else "page"
        if name == "Type":
            return info.subtype + (f" / {info.descendant_subtype}" if info.descendant_subtype else "")
        if name == "Base font":
            return info.base_font
        if name == "Encoding":
            return info.encoding + (f" ({info.cid_collection})" if info.cid_collection else "")
        if name == "ToUnicode":
            return f"yes ({info.tounicode_entries})" if info.has_tounicode else "no"
        if name == "Widths":
            return info.widths_source
        if name == "Embedded":
            return "yes" if info.embedded else "no"
        if name == "Glyphs":
            return str(self.entries[row].selected.count)
        if name == "Decoded by":  # most first; equal counts in the order the page first used them
            most = sorted(sources.items(), key=lambda kv: kv[1], reverse=True)
            return ", ".join(f"{SOURCE_WORDS.get(s, s.value)} {n}" for s, n in most)
        if name == "Unresolved":
            n = self.unresolved(row)
            return str(n) if n else ""
        if name == "Problems":
            return "; ".join(p.message for p in info.problems)
        if name == "Text":
            return text_verdict(self.stats, info.font_id) if self.stats is not None else ""
        if name == "OCR":
            check = self.checks.get(info.font_id)
            return "" if check is None else ocr_cell(check)
        return ""

    def shown(self, row: int, column: int) -> str:
        """The cell as the table shows it in a narrow dock: the whole value (`cell`) where it is
        short; a count of problems, the verdict's first word, the decoding step without its count
        when it is the only one. The tooltip and the Font card have the whole value."""
        name = HEADERS[column]
        if name == "Decoded by":
            sources = self.entries[row].selected.sources
            if len(sources) == 1:
                return SOURCE_WORDS.get(next(iter(sources)), next(iter(sources)).value)
        if name == "Problems":
            n = len(self.entries[row].page_font.info.problems)
            return f"{n} problem{'s' if n != 1 else ''}" if n else ""
        if name == "Text":
            return self.cell(row, column).split(":", 1)[0]
        return self.cell(row, column)

    def cell_data(self, row: int, column: int, role: int) -> str | QColor | None:
        if role == Qt.ItemDataRole.DisplayRole:
            return self.shown(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            text = self.cell(row, column)
            info = self.entries[row].page_font.info
            check = self.checks.get(info.font_id)
            if HEADERS[column] == "OCR" and check is not None:
                return f"OCR cross-check: {check.verdict.value} — {check.reason}"
            if HEADERS[column] == "Problems":
                return "\n".join(f"• {p.message}" for p in info.problems) or None
            return f"{text}\n\nobject {info.font_id}"
        if role == Qt.ItemDataRole.ForegroundRole:
            name = HEADERS[column]
            if name == "Unresolved" and self.unresolved(row):
                return QColor("#c62828")
            info = self.entries[row].page_font.info
            if name == "Problems" and info.problems:
                return QColor("#b25e00")
            if name == "Decoded by" and self.unresolved(row):
                return QColor("#c62828")
            if name == "Decoded by" and self.entries[row].selected.fallback:
                return QColor("#b25e00")
            if name == "Text" and self.cell(row, column).startswith("garbled"):
                return QColor("#c62828")
            if name == "ToUnicode" and not info.has_tounicode:
                return QColor("#757575")
            check = self.checks.get(info.font_id)
            if name == "OCR" and check is not None:
                return QColor(VERDICT_COLOURS[check.verdict])
        return None


VERDICT_WORDS = {
    FontVerdict.MAPPING_RIGHT: "right",
    FontVerdict.MAPPING_WRONG: "wrong",
    FontVerdict.CANNOT_TELL: "can't tell",
}
"""The OCR column's word for each font verdict (the cell is narrow; its tooltip has the reason)."""


def ocr_cell(check: FontCheck) -> str:
    """The Fonts table's "OCR" cell: the page's agreement and the font's verdict."""
    agreement = "–" if check.agreement is None else f"{100 * check.agreement:.0f} %"
    return f"{agreement} {VERDICT_WORDS[check.verdict]}"


class ProposalPane(QWidget):
    """The mapping editor: a font's proposed mapping, every code with its evidence (code → current
    → proposed, supported or doubtful, and what it rests on). Accept / Reject keep or drop the
    font for File › Save repaired copy (per document, in the session); per code the user confirms
    a doubtful proposal, leaves a code out, or types the right character in the Proposed cell.
    The preview under the table is the page's text as the repaired copy will read it."""

    HEADERS = ("Code", "Current", "Proposed", "Status", "Evidence")
    PROPOSED = 2

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.proposal: FontProposal | None = None
        self.analysis: PageAnalysis | None = None
        self._filling = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel("")
        self.label.setObjectName("fonts.proposal.label")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        row = QHBoxLayout()  # the buttons first: in a short dock they stay in view
        self.accept_button = QPushButton("Accept")
        self.accept_button.setObjectName("fonts.proposal.accept")
        self.accept_button.setToolTip(
            "Keep this font's mapping (supported codes and your decisions) for File › Save repaired copy"
        )
        self.accept_button.clicked.connect(lambda: self.decide(True))
        self.reject_button = QPushButton("Reject")
        self.reject_button.setObjectName("fonts.proposal.reject")
        self.reject_button.setToolTip("Leave this font as it is in a repaired copy")
        self.reject_button.clicked.connect(lambda: self.decide(False))
        self.confirm_button = QPushButton("Confirm")
        self.confirm_button.setObjectName("fonts.proposal.confirm")
        self.confirm_button.setToolTip("Write the proposed character of the selected codes, doubtful or not")
        self.confirm_button.clicked.connect(self.confirm_selected)
        self.leave_out_button = QPushButton("Leave out")
        self.leave_out_button.setObjectName("fonts.proposal.leave_out")
        self.leave_out_button.setToolTip("Write no character for the selected codes (readers show �)")
        self.leave_out_button.clicked.connect(self.leave_out_selected)
        self.reset_button = QPushButton("Reset")
        self.reset_button.setObjectName("fonts.proposal.reset")
        self.reset_button.setToolTip("Forget your decision on the selected codes: the evidence decides")
        self.reset_button.clicked.connect(self.reset_selected)
        row.addWidget(self.accept_button)
        row.addWidget(self.reject_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.label)
        codes_row = QHBoxLayout()  # a narrow dock holds three buttons a row
        for w in (self.confirm_button, self.leave_out_button, self.reset_button):
            codes_row.addWidget(w)
        codes_row.addStretch(1)
        self.table = QTableWidget(0, len(self.HEADERS))
        self.table.setObjectName("fonts.proposal.table")
        self.table.setHorizontalHeaderLabels(list(self.HEADERS))
        proposed_header = self.table.horizontalHeaderItem(self.PROPOSED)
        if proposed_header is not None:
            proposed_header.setToolTip("Double-click to type the right character")
        self.table.setToolTip(
            "Select codes to Confirm or Leave out; double-click a Proposed cell to type the right character"
        )
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        header = self.table.horizontalHeader()
        for c in range(len(self.HEADERS) - 1):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(self.HEADERS) - 1, QHeaderView.ResizeMode.Stretch)
        self.table.itemChanged.connect(self._typed)
        self.table.setMinimumHeight(120)  # its header and five codes
        self.table.itemSelectionChanged.connect(self._show_selected)
        layout.addLayout(codes_row)
        self.selected = QLabel("")
        self.selected.setObjectName("fonts.proposal.selected")
        self.selected.setWordWrap(True)
        self.selected.setTextFormat(Qt.TextFormat.RichText)
        self.preview = QTextBrowser()
        self.preview.setObjectName("fonts.proposal.preview")
        self.preview.setToolTip("This page's text as the repaired copy will read it")
        self.preview.setMinimumHeight(60)
        below = QWidget()  # under the table: the selected code's evidence, then the preview
        below_layout = QVBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        below_layout.addWidget(self.selected)
        below_layout.addWidget(self.preview, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(below)
        split.setChildrenCollapsible(False)
        split.setSizes([180, 160])
        layout.addWidget(split, 1)
        session.events.proposals.connect(lambda font_id: self.set_proposal(self.proposal, self.analysis))
        self.set_proposal(None)

    def decide(self, accept: bool) -> None:
        if self.proposal is not None:
            self.session.decide(self.proposal, accept)

    def decisions(self) -> dict[int, str | None]:
        """The user's decisions on the shown font's codes."""
        p = self.proposal
        return dict(self.session.code_decisions.get(p.font_id, {})) if p is not None else {}

    def state(self) -> str:
        """accepted, rejected or "not decided" for the proposal shown (one accepted before the page
        was verified differs from the one shown now: accepting again takes the new one)."""
        p = self.proposal
        if p is None:
            return ""
        accepted = self.session.accepted.get(p.font_id)
        if accepted == p:
            return "accepted"
        if accepted is not None:
            return "not decided (an earlier proposal is accepted)"
        return "rejected" if p.font_id in self.session.rejected else "not decided"

    def row_state(self, row: ProposalRow) -> str:
        """What the copy does with one code: typed, confirmed, left out (the user's), supported or
        doubtful (the evidence's)."""
        decisions = self.decisions()
        if row.code in decisions:
            text = decisions[row.code]
            if not text:
                return "left out"
            return "confirmed" if text == row.proposed else "typed"
        return row.status.value

    def selected_codes(self) -> list[int]:
        p = self.proposal
        if p is None:
            return []
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [p.rows[r].code for r in rows if 0 <= r < len(p.rows)]

    def code_bytes(self) -> int:
        """Bytes of the shown font's codes (a Type0 font's are two)."""
        ev = self.proposal.evidence if self.proposal is not None else None
        if ev is None:
            return 1
        return 2 if ev.subtype == "Type0" else ev.code_bytes

    def _editable(self) -> bool:
        return self.proposal is not None and self.proposal.code_page is None

    def confirm_selected(self) -> None:
        p = self.proposal
        if p is None or not self._editable():
            return
        for code in self.selected_codes():
            row = p.row(code)
            if row is not None and row.proposed:
                self.session.decide_code(p.font_id, code, row.proposed)

    def leave_out_selected(self) -> None:
        p = self.proposal
        if p is not None and self._editable():
            for code in self.selected_codes():
                self.session.decide_code(p.font_id, code, None)

    def reset_selected(self) -> None:
        p = self.proposal
        if p is not None:
            for code in self.selected_codes():
                self.session.decide_code(p.font_id, code, False)

    def type_code(self, code: int, text: str) -> None:
        """Type the right character for a code, as a user edits its Proposed cell."""
        p = self.proposal
        if p is None or not self._editable():
            return
        r = next((i for i, row in enumerate(p.rows) if row.code == code), None)
        if r is not None:
            item = self.table.item(r, self.PROPOSED)
            if item is not None:
                item.setText(text)  # _typed records it

    def _typed(self, item: QTableWidgetItem) -> None:
        p = self.proposal
        if self._filling or p is None or item.column() != self.PROPOSED or not 0 <= item.row() < len(p.rows):
            return
        row = p.rows[item.row()]
        text = item.text()
        if text == row.proposed and not row.doubtful:
            self.session.decide_code(p.font_id, row.code, False)  # back to what the evidence says
        else:
            self.session.decide_code(p.font_id, row.code, text or None)

    def preview_text(self) -> str:
        """The preview's text (what the repaired copy will read on this page)."""
        return self.preview.toPlainText()

    def set_proposal(self, proposal: FontProposal | None, analysis: PageAnalysis | None = None) -> None:
        self.proposal = proposal
        self.analysis = analysis
        for button in (self.accept_button, self.reject_button):
            button.setEnabled(proposal is not None)
        editable = self._editable()
        for button in (self.confirm_button, self.leave_out_button, self.reset_button):
            button.setEnabled(editable)
        self._filling = True
        try:
            selected = self.selected_codes() if proposal is not None else []
            self._fill(proposal)
            self._reselect(selected)
            self.selected.setVisible(self._editable() or bool(selected))
        finally:
            self._filling = False
        self._show_selected()
        self._show_preview()

    def _reselect(self, codes: list[int]) -> None:
        """The rows of `codes` selected again after the table was filled anew (a decision refills it)."""
        p = self.proposal
        if p is None or not codes:
            return
        model = self.table.selectionModel()
        for r, row in enumerate(p.rows):
            if row.code in codes:
                model.select(
                    self.table.model().index(r, 0),
                    QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
                )

    def _fill(self, proposal: FontProposal | None) -> None:
        if proposal is None:
            self.table.setRowCount(0)
            self.label.setText(
                "No mapping proposed for this font: glyphscope proposes one for a font whose text is "
                "garbled (the Text column), whose codes are byte pairs of a code page, or whose ink "
                "disagrees (Verify panel)."
            )
            return
        state = self.state()
        colour = STATE_COLOURS.get(state, STATE_COLOURS["not decided"])
        head = (
            f"<b style='color:{colour}'>{state}</b> · <b>{html.escape(proposal.font_key)}</b> "
            f"{html.escape(proposal.base_font)} ({html.escape(proposal.font_id)}): "
        )
        ev = proposal.evidence
        if proposal.code_page is not None:
            self.label.setText(
                head + f"byte pairs of the <b>{html.escape(proposal.code_page)}</b> code page — a simple "
                "font's ToUnicode cannot map pairs, so the copy gives their text as ActualText"
            )
        else:
            states = [self.row_state(r) for r in proposal.rows]
            counts = ", ".join(
                f"<span style='color:{ROW_COLOURS[name][0]}'>{states.count(name)} {name}</span>"
                for name in ROW_STATES
                if states.count(name)
            )
            sources = " and ".join(SOURCE_TITLES.get(s, s.value) for s in proposal.sources)
            extra = ""
            if ev is not None and ev.offset is not None:
                extra += f"<br>{html.escape(ev.offset.sentence())}"
                self.label.setToolTip(ev.offset.sentence())
            if ev is not None and ev.ink_is_substitute and proposal.ocr:
                extra += (
                    "<br><span style='color:#b25e00'>The font is not embedded: the page's ink is the "
                    "renderer's substitute, its OCR votes do not count.</span>"
                )
            self.label.setText(f"{head}{len(proposal.rows)} codes from {sources}: {counts}{extra}")
        self.table.setRowCount(len(proposal.rows))
        nbytes = self.code_bytes()
        for r, row in enumerate(proposal.rows):
            state = self.row_state(row)
            decided = self.decisions().get(row.code)
            proposed = decided if state in ("typed", "confirmed") and decided else row.proposed
            cells = (
                code_label(row.code, nbytes),
                shown_text(row.current),
                shown_text(proposed) if proposed else "",
                state,
                evidence_cell(row),
            )
            fg, bg = ROW_COLOURS.get(state, ("", ""))
            tip = "\n".join([row.reason, *(e.detail for e in row.evidence)]) or "no source reads this code"
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                flags = item.flags()
                if c != self.PROPOSED or proposal.code_page is not None:
                    item.setFlags(flags & ~Qt.ItemFlag.ItemIsEditable)
                if fg:
                    item.setForeground(QColor(fg))
                if bg:
                    item.setBackground(QColor(bg))
                item.setToolTip(tip)
                self.table.setItem(r, c, item)

    def _show_selected(self) -> None:
        """The selected code's evidence in whole sentences (the Evidence column is narrow)."""
        p = self.proposal
        codes = self.selected_codes()
        row = p.row(codes[0]) if p is not None and len(codes) == 1 else None
        if row is None:
            self.selected.setText(
                f"{len(codes)} codes selected"
                if len(codes) > 1
                else "Select a code to see its evidence; double-click Proposed to type the right character."
            )
            return
        state = self.row_state(row)
        colour = ROW_COLOURS.get(state, ("", ""))[0] or "#212121"
        self.selected.setText(
            f"<b>{html.escape(code_label(row.code, self.code_bytes()))}</b> {html.escape(shown_text(row.current))} → "
            f"<b>{html.escape(row.proposed or '—')}</b> <span style='color:{colour}'>{html.escape(state)}</span>: "
            f"{html.escape(row.reason)}"
        )
        self.selected.setToolTip(
            "\n".join(e.detail + ("" if e.counts else " (not counted)") for e in row.evidence)
        )

    def _show_preview(self) -> None:
        p, analysis = self.proposal, self.analysis
        if p is None or analysis is None:
            self.preview.setHtml("")
            return
        if p.code_page is not None:
            written = {r.code: r.proposed for r in p.rows}
        else:
            written = p.written(self.decisions())
        mode = self.session.mode if analysis.texts[self.session.mode].text is not None else "plain"
        segments = preview_segments(analysis, p.font_id, written, mode)
        parts = []
        for text, kind in segments:
            escaped = html.escape(text)
            style = PREVIEW_STYLES.get(kind)
            parts.append(f"<span style='{style}'>{escaped}</span>" if style else escaped)
        self.preview.setHtml(
            "<div style='color:#616161'>Preview of the copy (<span style='color:#1565c0'>changed</span>, "
            "<span style='color:#b25e00; background:#fff3e0'>left out �</span>):</div>"
            f"<pre style='white-space:pre-wrap; margin-top:2px'>{''.join(parts)}</pre>"
        )


def shown_text(text: str) -> str:
    """A code's text as a cell shows it: control characters and blanks by their code point."""
    if not text:
        return "—"
    if text == " ":
        return "space"
    if all(c.isprintable() and not c.isspace() for c in text):
        return text
    return " ".join(f"U+{ord(c):04X}" for c in text)


def code_label(code: int, code_bytes: int = 1) -> str:
    """A code as the editor lists it, as the Codes tab does: `<E3>`, `<0108>`."""
    return code_hex(code, 2 if code > 0xFF else code_bytes)


def evidence_cell(row: ProposalRow) -> str:
    """The Evidence column: each source in a few words (the tooltip has the sentences)."""
    words = []
    for e in row.evidence:
        name = EVIDENCE_WORDS.get(e.source, e.source.value)
        if e.source is Source.OCR:
            name += " " + e.detail.split(":", 1)[1].split("—", 1)[0].strip()
        words.append(f"{name} “{e.text}”" + ("" if e.counts else " (not counted)"))
    return "; ".join(words) or row.reason


SOURCE_TITLES = {
    ProposalSource.OFFSET: "glyphscope's offset (garbled text)",
    ProposalSource.OCR: "the OCR cross-check",
    ProposalSource.FONT_PROGRAM: "the font program",
    ProposalSource.CODE_PAGE: "the code page",
}
"""Where a proposal comes from, in the pane's sentence."""
EVIDENCE_WORDS = {
    Source.OFFSET: "offset",
    Source.OCR: "OCR",
    Source.FONT_PROGRAM: "font program",
    Source.CODE_PAGE: "code page",
    Source.USER: "typed",
}
GREY_ITEM = " style='color:#757575'"  # evidence shown but not counted
STATE_COLOURS = {"accepted": "#2e7d32", "rejected": "#757575", "not decided": "#b25e00"}
ROW_STATES = ("supported", "doubtful", "confirmed", "typed", "left out")
ROW_COLOURS = {  # (text, background) of a code's row by what the copy does with it
    "supported": ("", ""),
    "doubtful": ("#b25e00", "#fff3e0"),
    "confirmed": ("#2e7d32", "#e8f5e9"),
    "typed": ("#1565c0", "#e3f2fd"),
    "left out": ("#757575", "#eeeeee"),
}
PREVIEW_STYLES = {
    PREVIEW_CHANGED: "color:#1565c0",
    PREVIEW_UNKNOWN: "color:#b25e00; background:#fff3e0",
}


class CodeTableModel(RowsModel):
    """One row per distinct code the selected font painted (inspector.views.fonts rows)."""

    HEADERS = CODE_HEADERS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[FontCodeRow] = []
        self._cells: list[tuple[str, ...]] = []

    def set_rows(self, rows: list[FontCodeRow]) -> None:
        self.beginResetModel()
        self.rows = rows
        self._cells = [r.cells() for r in rows]
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.rows)

    def cell_data(self, r: int, column: int, role: int) -> str | QColor | None:
        row = self.rows[r]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cells[r][column]
        if role == Qt.ItemDataRole.ToolTipRole:
            whole = self._cells[r][column]
            if CODE_HEADERS[column] == "Unicode" and row.engine_unicode:
                whole += " " + " + ".join(unicodedata.name(c, f"U+{ord(c):04X}") for c in row.engine_unicode)
            source = row.sources()[column]
            head = f"{CODE_HEADERS[column]}: {whole}" + (f", from {source}" if source else "")
            return "\n".join([head, "", *row.chain_text()])
        if role == Qt.ItemDataRole.ForegroundRole:
            if row.engine_source is DecodeSource.UNRESOLVED:
                return QColor("#c62828")
            if row.engine_source is DecodeSource.FALLBACK:
                return QColor("#b25e00")
        return None

    def row_of_glyph(self, paint_index: int) -> int | None:
        for r, row in enumerate(self.rows):
            if paint_index in row.paint_indices:
                return r
        return None


def _size_columns(view: QTableView) -> None:
    """Columns as wide as their contents (up to MAX_COLUMN), then fitted into the view: cells that
    do not fit elide in the middle (their tooltip is whole), the panel never scrolls sideways."""
    header = view.horizontalHeader()
    for col in range(header.count()):  # not the stretching one: sized to its contents, it would stay so
        if header.sectionResizeMode(col) != QHeaderView.ResizeMode.Stretch and not view.isColumnHidden(col):
            view.resizeColumnToContents(col)
            if view.columnWidth(col) > MAX_COLUMN:
                view.setColumnWidth(col, MAX_COLUMN)
    fit_columns(view)


class FontsPanel(InFrontPanel, PagePanel):
    source = "fonts"

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self._updating = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.label = QLabel("No page loaded.")
        self.state_label = self.label
        self.label.setObjectName("fonts.label")
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        self.model = FontTableModel(self)
        self.table = QTableView()
        self.table.setObjectName("fonts.view")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.setMinimumHeight(44)  # its header and one font (the Codes tab folds it so)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(HEADERS.index("Problems"), QHeaderView.ResizeMode.Stretch)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        header.setToolTip("Right-click to show or hide columns")
        self.column_actions: list[QAction] = []  # the header menu: the columns a user wants
        for name in HEADERS:
            action = QAction(name, header, checkable=True)
            action.setChecked(name not in CARD_ONLY)
            action.toggled.connect(lambda on: self._columns_changed())
            header.addAction(action)
            self.column_actions.append(action)
        self._apply_columns()
        self.card = QTextBrowser()
        self.card.setObjectName("fonts.card")
        # Codes → Unicode of the selected font, and the decoding chain of the selected code.
        self.codes_model = CodeTableModel(self)
        self.codes = QTableView()
        self.codes.setObjectName("fonts.codes")
        self.codes.setModel(self.codes_model)
        self.codes.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.codes.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.codes.verticalHeader().setVisible(False)
        self.codes.verticalHeader().setDefaultSectionSize(20)
        self.codes.setWordWrap(False)
        self.codes.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.codes.horizontalHeader().setSectionResizeMode(
            CODE_HEADERS.index("Unicode"), QHeaderView.ResizeMode.Stretch
        )
        self.chain = QTextBrowser()
        self.chain.setObjectName("fonts.chain")
        self.chain.setMinimumHeight(60)
        self.codes_split = codes_split = QSplitter(Qt.Orientation.Vertical)
        codes_split.addWidget(self.chain)  # first: in a short dock the chain must stay in view
        codes_split.addWidget(self.codes)
        codes_split.setChildrenCollapsible(False)
        codes_split.setSizes([70, 290])
        self.tabs = QTabWidget()
        self.tabs.setObjectName("fonts.tabs")
        self.tabs.addTab(self.card, "Font")
        self.tabs.addTab(codes_split, "Codes → Unicode")
        self.proposal = ProposalPane(session)
        self.tabs.addTab(self.proposal, "Proposed")
        self.tabs.currentChanged.connect(lambda index: self._fold())
        self._folded = False  # the font list shows its selected row only (the codes are shown)
        self._list_sizes: list[int] = []  # the font list's share before it folded
        self._proposals: dict[str, FontProposal] | None = None  # None: not made for this page yet
        self.splitter = splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([160, 280])  # eight fonts, then the card (the codes fold the list)
        layout.addWidget(splitter)
        self.table.selectionModel().selectionChanged.connect(self._on_rows_selected)
        self.codes.selectionModel().selectionChanged.connect(self._on_code_selected)
        # The codes table is sized while its tab may be hidden (no real width yet): fit it again
        # whenever its viewport gets a size, so it never scrolls sideways.
        self.codes.viewport().installEventFilter(self)
        codes_split.installEventFilter(self)  # a few codes leave their room to the chain
        self._fit_split = QTimer(self)
        self._fit_split.setSingleShot(True)
        self._fit_split.setInterval(0)
        self._fit_split.timeout.connect(self._fit_codes_split)
        self._codes_font: FontStats | None = None  # the font entry whose codes are listed
        self._analysis: PageAnalysis | None = None
        session.events.selection.connect(self._on_selection)
        session.events.verified.connect(lambda page: self._on_verified())

    def _on_verified(self) -> None:
        self.model.set_checks(self.session.verification)
        self._columns_changed()
        self._update_proposals()

    def _columns_changed(self) -> None:
        if self._apply_columns():
            _size_columns(self.table)

    def _apply_columns(self) -> bool:
        """The columns a user wants (the header menu), less those that would say nothing on this
        page: OCR before the page is verified, Form when every font is the page's own. Whether
        a column came or went (the table is then sized again by the caller)."""
        m = self.model
        idle = {
            "OCR": not m.checks,
            "Form": all(not f.form_path for f in m.fonts),
        }
        changed = False
        for column, (name, action) in enumerate(zip(HEADERS, self.column_actions, strict=True)):
            hidden = not action.isChecked() or idle.get(name, False)
            if self.table.isColumnHidden(column) != hidden:
                self.table.setColumnHidden(column, hidden)
                changed = True
        return changed

    @property
    def proposals(self) -> dict[str, FontProposal]:
        """The page's proposed mappings (garbled-text offsets, the OCR votes when verified), made
        when first needed: ~0.1 s on a 20,000-glyph page, not spent while the panel is behind a tab."""
        if self._proposals is None:
            analysis = self._analysis
            self._proposals = (
                font_proposals(self.session.document, analysis, self.session.verification)
                if analysis is not None
                else {}
            )
        return self._proposals

    @property
    def proposals_made(self) -> bool:
        """Whether this page's proposals are made (when the panel came to the front or was asked)."""
        return self._proposals is not None

    def _update_proposals(self) -> None:
        """The page or its verification changed: the proposals are made again, now if the panel
        is in front, else when it comes to the front (or when something asks for them)."""
        self._proposals = None
        if self.in_front():
            self._show_proposal(self.selected_rows())
        else:
            self.proposal.set_proposal(None)

    def came_to_front(self) -> None:
        self._show_proposal(self.selected_rows())
        self._fold()

    def went_behind(self) -> None:
        self._fold_list(False)

    def _fold(self) -> None:
        """With the codes (or the mapping editor) shown the font list folds to its selected row (the dock has most of the
        column then: docks.Docks.settle_room); it unfolds when the panel goes behind."""
        self._fold_list(self.in_front() and self.tabs.currentWidget() in (self.codes_split, self.proposal))

    def _fold_list(self, fold: bool) -> None:
        if fold == self._folded:
            return
        self._folded = fold
        sizes = self.splitter.sizes()
        if fold:  # the font list down to its selected row: the codes and the chain get the rest
            self._list_sizes = sizes
            rows = self.table.verticalHeader().defaultSectionSize()
            keep = self.table.horizontalHeader().height() + rows + 2 * self.table.frameWidth()
            self.splitter.setStretchFactor(0, 0)  # when the dock grows, the codes take it all
            self.splitter.setSizes([keep, sum(sizes) - keep])
            self.table.scrollTo(self.table.currentIndex())
        else:
            self.splitter.setStretchFactor(0, 1)
            if self._list_sizes:
                self.splitter.setSizes(self._list_sizes)

    def _show_proposal(self, rows: list[int]) -> None:
        """The selected font's proposal; with no font selected, the first font that has one."""
        fonts = self.model.fonts
        ids = [fonts[r].info.font_id for r in rows if 0 <= r < len(fonts)]
        if not ids:
            ids = [f.info.font_id for f in fonts if f.info.font_id in self.proposals][:1]
        self.proposal.set_proposal(self.proposals.get(ids[0]) if ids else None, self._analysis)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 -- Qt's name
        if event.type() == QEvent.Type.Resize and watched is self.codes.viewport():
            _size_columns(self.codes)
        if event.type() == QEvent.Type.Resize and watched is self.codes_split:
            self._fit_split.start()  # after the splitter has shared out its new size

        return False

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 -- Qt's name
        super().resizeEvent(event)
        for view in (self.table, self.codes):  # column widths never change the panel's size: no loop
            _size_columns(view)

    def show_page(self, state: PageState) -> None:
        self._show_facts(state.facts)

    def show_no_page(self, state: PageState) -> None:
        self._show_facts(None)

    def _show_facts(self, facts: PageFacts | None) -> None:
        self._updating = True
        try:
            self._analysis = facts.analysis if facts is not None else None
            self._show_codes(None)
            self.model.set_fonts(self._analysis.fonts if self._analysis is not None else None)
            self._show_card([])  # the table's selection handler is muted here: the card says what to do
            self.model.set_checks(facts.verification if facts is not None else None)
            self._apply_columns()
            self._update_proposals()
            _size_columns(self.table)
        finally:
            self._updating = False

        if facts is None:
            return  # the label says why (PagePanel.state_label)
        n = len(self.model.fonts)
        unresolved = sum(self.model.unresolved(r) for r in range(n))
        missing = sum(1 for f in self.model.fonts if not f.info.has_tounicode)
        problems = sum(1 for f in self.model.fonts if f.info.problems)
        parts = [f"<b>{n} font{'s' if n != 1 else ''}</b> on page {facts.page.page_number}"]
        if missing:
            parts.append(f"{missing} without ToUnicode")
        if problems:
            parts.append(f"<span style='color:#b25e00'>{problems} with problems</span>")
        if unresolved:
            parts.append(f"<span style='color:#c62828'>{unresolved} unresolved glyphs</span>")
        self.label.setText(" · ".join(parts))
        self._on_selection(self.session.selection, "")

    def _show_card(self, rows: list[int]) -> None:
        """Every fact of the (first) selected font, readable however narrow the dock is."""
        if not rows:
            self.card.setHtml(
                "<span style='color:#616161'>Select a font to highlight its glyphs on the page, see "
                "its facts here and its codes under Codes → Unicode.</span>"
                if self.model.fonts
                else ""
            )
            return
        m = self.model
        r = rows[0]
        info = m.fonts[r].info
        facts = [(HEADERS[c], m.cell(r, c)) for c in range(len(HEADERS))]
        facts.insert(2, ("Object", info.font_id))
        if info.cid_collection:
            facts.append(("Collection", info.cid_collection))
        facts.append(("Writing mode", "vertical" if info.wmode else "horizontal"))
        body = "".join(
            f"<tr><td style='color:#616161; padding-right:8px'>{html.escape(k)}</td><td>{html.escape(v) or '—'}</td></tr>"
            for k, v in facts
        )
        more = f" (+{len(rows) - 1} more selected)" if len(rows) > 1 else ""
        self.card.setHtml(f"<b>{html.escape(m.fonts[r].font_key)}</b>{more}<table>{body}</table>")

    def _show_codes(self, row: int | None) -> None:
        """The code table of one font row (computed when the row is selected)."""
        entries = self.model.entries
        entry = entries[row] if row is not None and 0 <= row < len(entries) else None
        if entry is self._codes_font:
            return
        self._codes_font = entry
        self.chain.setHtml("")
        if entry is None or self._analysis is None or self.session.document is None:
            self.codes_model.set_rows([])
            return
        page_font = entry.page_font
        try:
            rows, problem = font_code_rows(self.session.document, self._analysis, entry)
        except Exception as exc:  # noqa: BLE001 -- a broken font object must not break the panel
            rows, problem = [], f"{type(exc).__name__}: {exc}"
        self.codes_model.set_rows(rows)
        self._fit_codes_split()
        uniform = uniform_columns(rows)  # said once here instead of in every row
        for column, name in enumerate(CODE_HEADERS):
            self.codes.setColumnHidden(column, name in uniform)
        _size_columns(self.codes)
        unresolved = sum(1 for r in rows if r.engine_source is DecodeSource.UNRESOLVED)
        summary = f"<b>{html.escape(page_font.font_key)}</b>: {len(rows)} distinct codes on this page"
        if unresolved:
            every = "all" if unresolved == len(rows) else str(unresolved)
            summary += f", <span style='color:#c62828'>{every} unresolved</span>"
        elif "Decoded by" in uniform:
            summary += f", all decoded by <b>{html.escape(uniform['Decoded by'])}</b>"
        if problem:
            summary += f"<br><span style='color:#b71c1c'>{html.escape(problem)}</span>"
        self.chain.setHtml(summary + ". Select a code to see every step of its decoding chain.")

    def _fit_codes_split(self) -> None:
        """The code table as tall as its rows (all of them, if they fit beside CHAIN_HEIGHT of
        chain); the chain takes the rest. A handle the user drags stays where it is put until the
        tab is resized or another font listed."""
        total = sum(self.codes_split.sizes())
        if total <= 0:
            return
        codes = self.codes
        rows = codes.verticalHeader().length() + codes.horizontalHeader().height() + 2 * codes.frameWidth()
        height = max(min(rows, total - CHAIN_HEIGHT), codes.minimumSizeHint().height())
        self.codes_split.setSizes([total - height, height])

    def _on_code_selected(self, *_: object) -> None:
        rows = sorted({i.row() for i in self.codes.selectionModel().selectedRows()})
        if not rows:
            return
        row = self.codes_model.rows[rows[0]]
        self._show_chain(row)
        if not self._updating:
            self.session.select(row.paint_indices, self.source)

    def _show_chain(self, row: FontCodeRow) -> None:
        e = row.explanation
        items = "".join(
            f"<li style='color:{'#2e7d32' if s.answered else '#616161'}'><b>{html.escape(s.name)}</b>: "
            f"{html.escape(s.outcome)}</li>"
            for s in e.steps
        )
        verdict = (
            "<span style='color:#c62828'>UNRESOLVED: every step of the chain failed</span>"
            if e.unresolved
            else f"decoded by <b>{html.escape(e.source.value)}</b>"
        )
        self.chain.setHtml(
            f"<b>{html.escape(row.code)}</b> ({row.count} glyph{'s' if row.count != 1 else ''}): {verdict}"
            f"<ol>{items}</ol>Width used: {e.width * 1000:g}/1000 em ({html.escape(e.width_source)})"
        )

    def select_code(self, paint_index: int) -> int | None:
        """Show the code row (and its chain) of one glyph of the listed font; returns the row."""
        r = self.codes_model.row_of_glyph(paint_index)
        if r is not None:
            index = self.codes_model.index(r, 0)
            self.codes.selectionModel().setCurrentIndex(
                index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
            self.codes.scrollTo(index)
        return r

    def _on_rows_selected(self, *_: object) -> None:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        self._show_card(rows)
        self._show_codes(rows[0] if len(rows) == 1 else None)
        self._show_proposal(rows)
        if self._updating:
            return
        glyphs = [i for r in rows for i in self.model.glyphs_of(r)]
        self.session.select(glyphs, self.source)

    def select_font(self, font_key: str, form_path: tuple[str, ...] = ()) -> int | None:
        """Select a font's row as a user's click would; returns the row."""
        for row, f in enumerate(self.model.fonts):
            if f.font_key == font_key and tuple(f.form_path) == tuple(form_path):
                _select_row(self.table, row)
                return row
        return None

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        if source == self.source:
            return
        rows = {
            r
            for r, entry in enumerate(self.model.entries)
            if selection and not selection.isdisjoint(entry.selected.glyphs)
        }
        self._updating = True
        try:
            sm = self.table.selectionModel()
            sm.clearSelection()
            for r in sorted(rows):
                sm.select(
                    self.model.index(r, 0),
                    QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
                )
            if rows:
                self.table.scrollTo(self.model.index(min(rows), 0))
            self._show_codes(min(rows) if len(rows) == 1 else None)
            if len(rows) == 1 and len(selection) == 1:  # one glyph: its code and chain
                code_row = self.select_code(next(iter(selection)))
                if code_row is not None and self.codes_model.rows[code_row].engine_source in (
                    DecodeSource.UNRESOLVED,
                    DecodeSource.FALLBACK,
                ):
                    self.tabs.setCurrentIndex(1)  # why it decoded so is the question: show the chain
        finally:
            self._updating = False

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.table.selectionModel().selectedRows()})

    def row_glyphs(self, row: int) -> list[int]:
        return list(self.model.glyphs_of(row))


def _select_row(view: QTableView, row: int) -> None:
    """Select one row as a click would, independent of the keyboard modifiers held (unlike selectRow)."""
    index = view.model().index(row, 0)
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    view.selectionModel().setCurrentIndex(index, flags)
    view.scrollTo(index)
