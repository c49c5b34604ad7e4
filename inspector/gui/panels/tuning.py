"""Tuning: every threshold of `core.params.Parameters` live, with the text change shown as a diff.

A change is applied through `Session.set_params` after a short debounce; the
window re-assembles the page (no re-interpretation) and every view follows.
The diff compares the current mode's text of this page with the text the
default thresholds give.
"""

from __future__ import annotations

import difflib
import html
from collections.abc import Callable
from dataclasses import dataclass, fields

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.analysis import PageAnalysis, reassemble
from glyphscope.core.attribute_docs import attribute_docs
from glyphscope.core.params import CHOICES, DEFAULT_PARAMETERS, SPEC_BY_NAME, SWITCHES, Parameters, Range
from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session

DEBOUNCE_MS = 150
MAX_DEFAULTS = 4  # pages whose default-threshold product is kept (each holds its classification)
SLIDER_STEPS = 1000


def field_docs() -> dict[str, str]:
    """The attribute docstrings of Parameters (read from the source: see core/attribute_docs.py)."""
    return attribute_docs(Parameters)


def is_switch(name: str) -> bool:
    """An on/off field (core.params.SWITCHES): a checkbox, not a slider."""
    return name in SWITCHES


def label_of(name: str) -> str:
    """The row's readable name (core.params.PARAMETER_SPECS; its docstring, and the raw name,
    are the row's tooltip)."""
    return SPEC_BY_NAME[name].label


def tooltip_of(name: str) -> str:
    shown = _shown(getattr(DEFAULT_PARAMETERS, name))
    return f"<b>{name}</b> (default {shown})<br>{html.escape(field_docs().get(name, ''))}"


def range_of(name: str) -> Range:
    """A threshold's slider and spin box (core.params.PARAMETER_SPECS)."""
    found = SPEC_BY_NAME[name].range
    if found is None:
        raise ValueError(f"{name} is not a threshold: it has no range")
    return found


# ---------------------------------------------------------------------------------------------
# The diff


@dataclass(frozen=True, slots=True)
class TextDiff:
    unified: str  # line-based unified diff, "" when the texts are equal
    html: str  # the changed lines with inline character changes
    changed_lines: int
    spaces_added: int
    spaces_removed: int
    breaks_added: int
    breaks_removed: int

    @property
    def equal(self) -> bool:
        return not self.unified

    def summary(self) -> str:
        if self.equal:
            return "No change against the default thresholds."
        parts = [f"{self.changed_lines} line{'s' if self.changed_lines != 1 else ''} changed"]
        for n, what in (
            (self.spaces_removed, "spaces removed"),
            (self.spaces_added, "spaces inserted"),
            (self.breaks_removed, "line breaks removed"),
            (self.breaks_added, "line breaks added"),
        ):
            if n:
                parts.append(f"{n} {what}")
        return ", ".join(parts)


def _visible(s: str) -> str:
    return html.escape(s).replace(" ", "␣").replace("\n", "⏎")


def text_diff(default: str, current: str, context: int = 1) -> TextDiff:
    """Unified line diff plus an inline, colour-marked character diff of the replaced lines.

    Character-level matching runs only inside changed hunks: over a whole 20,000-glyph page
    difflib is quadratic enough to freeze the window for seconds.
    """
    if default == current:
        return TextDiff("", "", 0, 0, 0, 0, 0)
    a, b = default.splitlines(), current.splitlines()
    unified = "\n".join(
        difflib.unified_diff(a, b, "default thresholds", "current thresholds", n=context, lineterm="")
    )
    spaces_added = spaces_removed = breaks_added = breaks_removed = 0
    rows: list[str] = []
    changed = 0
    lines = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in lines.get_opcodes():
        if tag == "equal":
            continue
        changed += max(i2 - i1, j2 - j1)
        old, new = "\n".join(a[i1:i2]), "\n".join(b[j1:j2])
        breaks_removed += max(0, (i2 - i1) - (j2 - j1))
        breaks_added += max(0, (j2 - j1) - (i2 - i1))
        for op, k1, k2, m1, m2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if op in ("delete", "replace"):
                spaces_removed += old[k1:k2].count(" ")
            if op in ("insert", "replace"):
                spaces_added += new[m1:m2].count(" ")
        rows.append(f"<div class='hunk'>line {i1 + 1}{'–' + str(i2) if i2 - i1 > 1 else ''}:</div>")
        rows.append("<pre>" + _inline(old, new) + "</pre>")
    return TextDiff(
        unified, "".join(rows), changed, spaces_added, spaces_removed, breaks_added, breaks_removed
    )


def _inline(old: str, new: str) -> str:
    out: list[str] = []
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            out.append(html.escape(old[i1:i2]))
            continue
        if i2 > i1:
            out.append(
                f"<span style='background:#ffcdd2;color:#b71c1c;text-decoration:line-through'>{_visible(old[i1:i2])}</span>"
            )
        if j2 > j1:
            out.append(f"<span style='background:#c8e6c9;color:#1b5e20'>{_visible(new[j1:j2])}</span>")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# The panel


class SwitchRow:
    """A checkbox for one on/off field (the label is the checkbox's own text)."""

    def __init__(self, name: str, on_change: Callable[[], object]) -> None:
        self.name = name
        self.check = QCheckBox(label_of(name))
        self.check.setObjectName(f"tuning.{name}")
        self.check.setToolTip(tooltip_of(name))
        self.label = self.check
        self.set_value(getattr(DEFAULT_PARAMETERS, name))
        self.check.toggled.connect(lambda on: self._changed(on_change))

    def tooltip(self) -> str:
        return self.check.toolTip()

    def set_value(self, value: object) -> None:
        self.check.blockSignals(True)
        self.check.setChecked(bool(value))
        self.check.blockSignals(False)
        self._mark()

    def value(self) -> bool:
        return self.check.isChecked()

    def _changed(self, on_change: Callable[[], object]) -> None:
        self._mark()
        on_change()

    def _mark(self) -> None:
        font = self.check.font()
        font.setBold(self.value() != getattr(DEFAULT_PARAMETERS, self.name))
        self.check.setFont(font)


class ChoiceRow:
    """A drop-down for a field that takes one of a few words (core.params CHOICES)."""

    def __init__(self, name: str, on_change: Callable[[], object]) -> None:
        self.name = name
        self.label = QLabel(label_of(name))
        self.label.setToolTip(tooltip_of(name))
        self.combo = QComboBox()
        self.combo.setObjectName(f"tuning.{name}")
        self.combo.setToolTip(tooltip_of(name))
        self.combo.addItems(list(CHOICES[name]))
        self.set_value(getattr(DEFAULT_PARAMETERS, name))
        self.combo.currentTextChanged.connect(lambda _: self._changed(on_change))

    def tooltip(self) -> str:
        return self.combo.toolTip()

    def set_value(self, value: object) -> None:
        self.combo.blockSignals(True)
        self.combo.setCurrentText(str(value))
        self.combo.blockSignals(False)
        self._mark()

    def value(self) -> str:
        return self.combo.currentText()

    def _changed(self, on_change: Callable[[], object]) -> None:
        self._mark()
        on_change()

    def _mark(self) -> None:
        font = self.label.font()
        font.setBold(self.value() != getattr(DEFAULT_PARAMETERS, self.name))
        self.label.setFont(font)


class ParameterRow:
    """A spin box and a slider for one field, kept in step."""

    def __init__(self, name: str, on_change: Callable[[], object]) -> None:
        self.name = name
        self.range = r = range_of(name)
        tip = tooltip_of(name)
        self.label = QLabel(label_of(name))
        self.label.setToolTip(tip)
        self.spin = QDoubleSpinBox()
        self.spin.setObjectName(f"tuning.{name}")
        self.spin.setRange(r.low, r.high)
        self.spin.setSingleStep(r.step)
        self.spin.setDecimals(r.decimals)
        self.spin.setKeyboardTracking(False)
        self.spin.setToolTip(tip)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName(f"tuning.{name}.slider")
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setMinimumWidth(70)
        self.slider.setToolTip(tip)
        self.set_value(float(getattr(DEFAULT_PARAMETERS, name)))
        self.spin.valueChanged.connect(self._from_spin)
        self.slider.valueChanged.connect(self._from_slider)
        self.on_change = on_change

    def _to_slider(self, value: float) -> int:
        r = self.range
        return round((value - r.low) / (r.high - r.low) * SLIDER_STEPS)

    def set_value(self, value: float) -> None:
        for w in (self.spin, self.slider):
            w.blockSignals(True)
        self.spin.setValue(value)
        self.slider.setValue(self._to_slider(value))
        for w in (self.spin, self.slider):
            w.blockSignals(False)
        self._mark()

    def value(self) -> float:
        return float(self.spin.value())

    def tooltip(self) -> str:
        return self.spin.toolTip()

    def _from_spin(self, value: float) -> None:
        self.slider.blockSignals(True)
        self.slider.setValue(self._to_slider(value))
        self.slider.blockSignals(False)
        self._mark()
        self.on_change()

    def _from_slider(self, position: int) -> None:
        r = self.range
        value = r.low + (r.high - r.low) * position / SLIDER_STEPS
        value = round(round(value / r.step) * r.step, r.decimals)
        self.spin.blockSignals(True)
        self.spin.setValue(value)
        self.spin.blockSignals(False)
        self._mark()
        self.on_change()

    def _mark(self) -> None:
        changed = abs(self.value() - float(getattr(DEFAULT_PARAMETERS, self.name))) > 1e-9
        font = self.label.font()
        font.setBold(changed)
        self.label.setFont(font)


class TuningPanel(PagePanel):
    applied = Signal(object)  # Parameters handed to the session

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        # The page product under the default thresholds, by (page, id of its InterpretedPage).
        self._defaults: dict[tuple[int, int], PageAnalysis] = {}
        self.diff: TextDiff | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.apply_now)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        splitter = QSplitter(Qt.Orientation.Vertical)  # controls above the diff: fits a side column
        layout.addWidget(splitter)
        controls = QWidget()
        outer = QVBoxLayout(controls)
        outer.setContentsMargins(4, 0, 4, 0)
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        self.rows: dict[str, ParameterRow | SwitchRow | ChoiceRow] = {}
        for r, f in enumerate(fields(Parameters)):  # a field added to Parameters gets its row here
            if f.name in CHOICES:
                choice = ChoiceRow(f.name, self._changed)
                self.rows[f.name] = choice
                grid.addWidget(choice.label, r, 0)
                grid.addWidget(choice.combo, r, 1, 1, 2)
                continue
            if is_switch(f.name):
                switch = SwitchRow(f.name, self._changed)
                self.rows[f.name] = switch
                grid.addWidget(switch.check, r, 0, 1, 3)
                continue
            row = ParameterRow(f.name, self._changed)
            self.rows[f.name] = row
            grid.addWidget(row.label, r, 0)
            grid.addWidget(row.slider, r, 1)
            grid.addWidget(row.spin, r, 2)
        grid.setColumnStretch(1, 1)
        outer.addLayout(grid)
        bottom = QHBoxLayout()
        self.reset_button = QPushButton("Reset to defaults")
        self.reset_button.setObjectName("tuning.reset")
        self.reset_button.clicked.connect(self.reset)
        self.message = QLabel("")
        self.message.setObjectName("tuning.message")
        self.message.setWordWrap(True)
        bottom.addWidget(self.reset_button)
        bottom.addWidget(self.message, 1)
        outer.addLayout(bottom)
        # The engine's budgets change interpretation, not assembly: their own dialog (Edit menu),
        # reached from here too because this is where a user looks for what the engine may do.
        self.limits_button = QPushButton("Engine budgets…")
        self.limits_button.setObjectName("tuning.limits")
        self.limits_button.setToolTip(
            "Operators, forms, glyphs, content bytes and seconds a page may cost "
            "(the --max-* options); changing them re-interprets the document"
        )
        self.limits_button.clicked.connect(self._edit_limits)
        outer.addWidget(self.limits_button)
        outer.addStretch(1)
        splitter.addWidget(controls)

        diff_box = QWidget()
        diff_layout = QVBoxLayout(diff_box)
        diff_layout.setContentsMargins(0, 0, 0, 0)
        self.diff_label = QLabel("")
        self.state_label = self.diff_label
        self.diff_label.setObjectName("tuning.diff_label")
        self.diff_label.setWordWrap(True)
        diff_layout.addWidget(self.diff_label)
        self.diff_view = QTextBrowser()
        self.diff_view.setObjectName("tuning.diff")
        self.diff_view.document().setDefaultStyleSheet(
            "pre { margin: 0 0 4px 0; } .hunk { color: #616161; font-size: small; }"
        )
        diff_layout.addWidget(self.diff_view)
        splitter.addWidget(diff_box)
        splitter.setSizes([360, 300])

        session.events.params.connect(self._on_params)
        session.events.mode.connect(lambda mode: self.refresh_diff())
        session.events.document.connect(lambda doc: self._defaults.clear())
        session.events.texts.connect(lambda view: self.refresh_diff())  # the diff of the mode's text

    # -- values -------------------------------------------------------------------------------
    def _changed(self) -> None:
        self.timer.start()

    def values(self) -> dict[str, float | bool | str]:
        return {name: row.value() for name, row in self.rows.items()}

    def set_value(self, name: str, value: float | bool | str, *, immediate: bool = False) -> None:
        """Set one threshold, switch or choice as the user would (debounced unless `immediate`)."""
        row = self.rows[name]
        if isinstance(row, ChoiceRow):
            row.combo.setCurrentText(str(value))
        elif isinstance(row, SwitchRow):
            row.check.setChecked(bool(value))
        else:
            row.spin.setValue(float(value))
        if immediate:
            self.apply_now()

    def apply_now(self) -> bool:
        self.timer.stop()
        values = self.values()
        try:
            params = Parameters(**values)  # type: ignore[arg-type]  # each row hands its field's type
        except ValueError as exc:
            self.message.setText(f"<span style='color:#b71c1c'>Not applied: {html.escape(str(exc))}</span>")
            return False
        warnings = []
        if params.dedupe_scan < max(params.dedupe_along, params.dedupe_across):
            warnings.append(
                "dedupe scan window is smaller than the along/across tolerances: some duplicates cannot be found"
            )
        self.message.setText(
            "<span style='color:#b25e00'>" + html.escape("; ".join(warnings)) + "</span>" if warnings else ""
        )
        self.session.set_params(params)
        self.applied.emit(params)
        return True

    def _edit_limits(self) -> None:
        from glyphscope.inspector.gui.limits_dialog import edit_session_limits

        edit_session_limits(self.session, self)

    def reset(self) -> None:
        self.timer.stop()
        for name, row in self.rows.items():
            row.set_value(getattr(DEFAULT_PARAMETERS, name))
        self.apply_now()

    def _on_params(self, params: Parameters) -> None:
        for name, row in self.rows.items():
            value = getattr(params, name)
            if isinstance(row, ChoiceRow):
                if row.value() != value:
                    row.set_value(value)
            elif abs(float(row.value()) - float(value)) > 1e-9:
                row.set_value(value)

    # -- diff ---------------------------------------------------------------------------------
    def show_page(self, state: PageState) -> None:
        self.refresh_diff()

    def show_no_page(self, state: PageState) -> None:
        self.refresh_diff()

    def default_text(self, mode: str) -> str | None:
        """The page's text in `mode` under the default thresholds (the page product re-assembled)."""
        facts = self.facts
        if facts is None:
            return None
        analysis = facts.analysis
        if analysis.params == DEFAULT_PARAMETERS:
            return analysis.texts[mode].text or ""
        key = (facts.page.page_number, id(facts.page))
        default = self._defaults.get(key)
        if default is None:
            if len(self._defaults) >= MAX_DEFAULTS:
                self._defaults.clear()
            default = self._defaults[key] = reassemble(analysis, DEFAULT_PARAMETERS)
        return default.texts[mode].text or ""

    def refresh_diff(self) -> None:
        facts = self.facts
        if facts is None:
            self.diff = None
            self.diff_view.setHtml("")
            return
        mode = self.session.mode
        if not facts.modes.ready(mode):
            self.diff = None
            self.diff_label.setText(
                f"<b>Page {facts.page.page_number}, {mode} mode</b>: assembling its text…"
            )
            self.diff_view.setHtml("")
            return
        current = facts.modes.view(mode).text
        default = self.default_text(mode) or ""
        self.diff = text_diff(default, current)
        params = facts.analysis.params
        changed = [
            f"{f.name} {_shown(getattr(DEFAULT_PARAMETERS, f.name))} → {_shown(getattr(params, f.name))}"
            for f in fields(Parameters)
            if getattr(params, f.name) != getattr(DEFAULT_PARAMETERS, f.name)
        ]
        head = f"<b>Page {facts.page.page_number}, {mode} mode</b>: "
        if not changed:
            self.diff_label.setText(head + "default thresholds.")
            self.diff_view.setHtml(
                "<p style='color:#616161'>Move a slider: the text panels re-assemble live and the "
                "changes against the default thresholds appear here (removed in red, inserted in green, "
                "spaces shown as ␣, line ends as ⏎).</p>"
            )
            return
        self.diff_label.setText(
            head + html.escape(", ".join(changed)) + " — " + html.escape(self.diff.summary())
        )
        self.diff_view.setHtml(
            self.diff.html or "<p>The text of this page is the same as with the defaults.</p>"
        )


def _shown(value: float | bool | str) -> str:
    if isinstance(value, str):
        return value
    return ("on" if value else "off") if isinstance(value, bool) else f"{value:g}"
