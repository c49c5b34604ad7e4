"""Edit › Engine budgets…: the `Limits` of core/limits.py, raised or lowered for this session.

The same budgets as the command line's `--max-*` options. Unlike the Tuning
thresholds they change interpretation, so applying them re-interprets the pages
of the open document (and later documents open with them).
"""

from __future__ import annotations

import html
from dataclasses import fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from glyphscope.inspector.views.session import Session

from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.attribute_docs import attribute_docs
from glyphscope.core.limits import BUDGET_LABELS, DEFAULT_LIMITS, Limits, option_name

INT_MAX = 2**31 - 1  # QSpinBox holds a C int


class LimitsDialog(QDialog):
    def __init__(self, limits: Limits, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Engine budgets")
        self.setObjectName("limits_dialog")
        intro = QLabel(
            "A page that spends one of these budgets stops where it is, with a finding naming the "
            "budget and the instruction; the rest of the document goes on. Raise a budget to read "
            "a page it stopped. Applying re-interprets the open document."
        )
        intro.setWordWrap(True)
        form = QFormLayout()
        self.editors: dict[str, QSpinBox | QDoubleSpinBox] = {}
        docs = attribute_docs(Limits)
        for f in fields(Limits):
            default = getattr(DEFAULT_LIMITS, f.name)
            editor: QSpinBox | QDoubleSpinBox
            if isinstance(default, int):
                editor = QSpinBox()
                editor.setRange(1, INT_MAX)
                editor.setGroupSeparatorShown(True)
            else:
                editor = QDoubleSpinBox()
                editor.setRange(0.1, 1e7)
                editor.setDecimals(1)
            editor.setObjectName(f"limits.{f.name}")
            editor.setStepType(QAbstractSpinBox.StepType.AdaptiveDecimalStepType)
            editor.setValue(getattr(limits, f.name))
            tip = (
                f"<b>{option_name(f.name)}</b> on the command line (default {default:,})"
                f"<br>{html.escape(docs.get(f.name, ''))}"
            )
            editor.setToolTip(tip)
            label = QLabel(BUDGET_LABELS[f.name].capitalize())
            label.setToolTip(tip)
            form.addRow(label, editor)
            self.editors[f.name] = editor
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self.restore_defaults)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def restore_defaults(self) -> None:
        for name, editor in self.editors.items():
            editor.setValue(getattr(DEFAULT_LIMITS, name))

    def limits(self) -> Limits:
        """The budgets as edited (the editors' ranges keep every value valid)."""
        return DEFAULT_LIMITS.with_changes(**{name: editor.value() for name, editor in self.editors.items()})


def edit_limits(limits: Limits, parent: QWidget | None = None) -> Limits | None:
    """The budgets the user chose, or None when the dialog was cancelled."""
    dialog = LimitsDialog(limits, parent)
    return dialog.limits() if dialog.exec() == QDialog.DialogCode.Accepted else None


def edit_session_limits(session: Session, parent: QWidget | None = None) -> None:
    """Edit › Engine budgets… and the Tuning panel's button: the session takes what the user chose."""
    limits = edit_limits(session.limits, parent)
    if limits is not None:
        session.set_limits(limits)
