"""Edit › Engine budgets…: the window's override of core.limits.Limits."""

from __future__ import annotations

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.limits import DEFAULT_LIMITS, Limits
from tests.gui_helpers import TIMEOUT, open_file
from tests.pdfbuild import make_pdf, to_bytes


def _dense(tmp_path):
    path = tmp_path / "dense.pdf"
    path.write_bytes(to_bytes(make_pdf([b"BT /F1 12 Tf 72 700 Td " + b"(x) Tj " * 100 + b"ET"])))
    return path


def _budget_findings(w):
    page = w.bundle.facts.page
    return [d for d in page.diagnostics if d.kind is DiagnosticKind.BUDGET_EXCEEDED]


def test_lowering_a_budget_reinterprets_the_page_and_raising_it_restores_it(qtbot, window, tmp_path):
    w = window
    open_file(qtbot, w, _dense(tmp_path))
    assert len(w.bundle.facts.page.glyphs) == 100 and not _budget_findings(w)
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.session.set_limits(Limits(page_glyphs=7))
    assert w.session.document.limits.page_glyphs == 7
    assert len(w.bundle.facts.page.glyphs) == 7
    (finding,) = _budget_findings(w)
    assert "'glyphs per page' (7)" in finding.message
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.session.set_limits(DEFAULT_LIMITS)
    assert len(w.bundle.facts.page.glyphs) == 100 and not _budget_findings(w)


def test_later_documents_open_with_the_session_budgets(qtbot, window, tmp_path):
    w = window
    w.session.set_limits(Limits(page_glyphs=9))
    open_file(qtbot, w, _dense(tmp_path))
    assert len(w.bundle.facts.page.glyphs) == 9


def test_the_dialog_edits_every_budget_and_restores_the_defaults(qtbot):
    from glyphscope.inspector.gui.limits_dialog import LimitsDialog

    dialog = LimitsDialog(Limits(page_glyphs=7, page_seconds=2.5))
    qtbot.addWidget(dialog)
    assert set(dialog.editors) == set(Limits.__dataclass_fields__)
    assert dialog.editors["page_glyphs"].value() == 7
    assert "--max-page-glyphs" in dialog.editors["page_glyphs"].toolTip()
    dialog.editors["page_form_invocations"].setValue(123)
    assert dialog.limits() == Limits(page_glyphs=7, page_seconds=2.5, page_form_invocations=123)
    dialog.restore_defaults()
    assert dialog.limits() == DEFAULT_LIMITS


def test_the_tuning_panel_opens_the_budgets_too(qtbot, window, tmp_path, monkeypatch):
    from glyphscope.inspector.gui import limits_dialog

    w = window
    open_file(qtbot, w, _dense(tmp_path))
    monkeypatch.setattr(limits_dialog, "edit_limits", lambda limits, parent=None: Limits(page_glyphs=5))
    tuning = w.panel_widgets["tuning"]
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        tuning.limits_button.click()
    assert w.session.limits.page_glyphs == 5 and len(w.bundle.facts.page.glyphs) == 5
