"""The legend: one row per layer with its colour, an on/off box and its count on this page."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPixmap
from PySide6.QtWidgets import QAbstractScrollArea, QCheckBox, QGridLayout, QLabel, QVBoxLayout, QWidget

from glyphscope.inspector.layers import registry as L
from glyphscope.inspector.views.page_facts import PageFacts
from glyphscope.inspector.views.session import Session

COUNT_MIN_WIDTH = 26  # px: three digits; a count with more widens its label, and the column follows


def count_width(label: QLabel, text: str) -> int:
    """Pixels a count label needs to show `text` in full (font metrics)."""
    return max(COUNT_MIN_WIDTH, label.fontMetrics().horizontalAdvance(text) + 4)


def swatch(colour: str, size: int = 14, fill_alpha: int = 110) -> QPixmap:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    from PySide6.QtGui import QPainter, QPen

    painter = QPainter(pixmap)
    fill = QColor(colour)
    fill.setAlpha(fill_alpha)
    painter.setBrush(fill)
    painter.setPen(QPen(QColor(colour), 2))
    painter.drawRect(1, 1, size - 3, size - 3)
    painter.end()
    return pixmap


class LegendPanel(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.checks: dict[str, QCheckBox] = {}
        self.counts: dict[str, QLabel] = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(1)
        for row, spec in enumerate(L.LAYERS):
            sw = QLabel()
            sw.setPixmap(swatch(spec.colour))
            check = QCheckBox(spec.label)
            check.setObjectName(f"legend.{spec.key}")
            check.setToolTip(spec.tooltip)
            check.setChecked(session.layers[spec.key])
            check.toggled.connect(lambda on, key=spec.key: self.session.set_layer_visible(key, on))
            count = QLabel("–")
            count.setObjectName(f"legend.{spec.key}.count")
            count.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            count.setMinimumWidth(COUNT_MIN_WIDTH)
            grid.addWidget(sw, row, 0)
            grid.addWidget(check, row, 1)
            grid.addWidget(count, row, 2)
            self.checks[spec.key] = check
            self.counts[spec.key] = count
        outer.addLayout(grid)
        self.keys = QLabel()
        self.keys.setObjectName("legend.key")
        self.keys.setWordWrap(True)
        self.keys.setTextFormat(Qt.TextFormat.RichText)
        outer.addWidget(self.keys)
        outer.addStretch(1)
        self._facts: PageFacts | None = None
        session.events.layers.connect(self._on_layer)
        session.events.mode.connect(lambda mode: self.set_counts(self._facts))
        session.events.view.connect(lambda view: self.set_counts(session.facts))
        session.events.texts.connect(lambda view: self.set_counts(session.facts))
        session.events.verified.connect(lambda page: self.set_counts(session.facts))
        self.set_counts(None)

    def _on_layer(self, key: str, visible: bool) -> None:
        check = self.checks.get(key)
        if check is not None and check.isChecked() != visible:
            check.setChecked(visible)
        if key == "compare" and self._facts is not None and key in self.counts:
            # The comparison arrives after the page (the Compare panel redraws the layer): recount.
            count = self._facts.counts.layers(self.session.mode).get(key, 0)
            if self._show(self.counts[key], str(count)):
                self._column_follows()

    @staticmethod
    def _show(label: QLabel, text: str) -> bool:
        """A count shown whole: the label widened first when it has more digits than so far;
        whether it was."""
        width = count_width(label, text)
        wider = width > label.minimumWidth()
        if wider:
            label.setMinimumWidth(width)
        label.setText(text)
        return wider

    def _column_follows(self) -> None:
        """The panel's minimum width grew (a wider count): the scroll area it sits in asks its dock
        for it again (a scroll area does not pass its widget's layout requests on by itself), so a
        "20000" is never cut to "000"."""
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QAbstractScrollArea):
            parent = parent.parentWidget()
        if parent is not None:
            parent.updateGeometry()

    def count(self, key: str) -> int | None:
        text = self.counts[key].text()
        return int(text) if text.isdigit() else None

    def set_counts(self, facts: PageFacts | None) -> None:
        """Counts of the current page from the engine's records (`PageFacts.counts.layers`)."""
        self._facts = facts
        if facts is None:
            for label in self.counts.values():
                label.setText("–")
            self.keys.setText("")
            return
        counts = facts.counts.layers(self.session.mode)
        widened = False
        for key, label in self.counts.items():
            pending = key in L.COUNTED_ON_TEXTS and key not in counts
            not_run = key in L.VERIFY_LAYERS and key not in counts
            text = "…" if pending else "–" if not_run else str(counts.get(key, 0))
            widened = self._show(label, text) or widened
            label.setToolTip(
                "counted once the text this layer is read from is assembled (a moment)"
                if pending
                else "the page is not verified: Verify panel › Verify this page"
                if not_run
                else ""
            )
        if widened:
            self._column_follows()
        rows = ["<b>Glyph origins</b>"]
        rows.append(_key_row(L.PAGE_STREAM_COLOUR, "page stream"))
        for path, colour in facts.forms.colours.items():
            rows.append(_key_row(colour, "form " + " › ".join(path)))
        rows.append(f"<b>Word gaps ({self.session.mode})</b>")
        if facts.modes.shown_ready(self.session.mode):
            gaps, inserted, near = facts.marks.word_gap_summary(self.session.mode)
            counted = (f" ({inserted})", f" ({gaps - inserted})", f" ({near})")
        else:
            counted = (" (…)",) * 3  # the mode's text is being assembled
        rows.append(_key_row(L.GAP_INSERTED_COLOUR, f"space inserted{counted[0]}"))
        rows.append(_key_row(L.GAP_NOT_INSERTED_COLOUR, f"no space{counted[1]}"))
        rows.append(_key_row(L.GAP_NEAR_MISS_COLOUR, f"near miss, within ±20 % of the threshold{counted[2]}"))
        self.keys.setText("<br>".join(rows))


def _key_row(colour: str, text: str) -> str:
    return f'<span style="color:{colour}; font-size:14px">■</span> {text}'
