"""Live threshold tuning with its diff, and Find with the explanation of a failed search."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from glyphscope.core.analysis import analyze_page
from glyphscope.core.glyph import GlyphStatus
from glyphscope.core.params import DEFAULT_PARAMETERS
from glyphscope.inspector.gui.main_window import MainWindow
from glyphscope.inspector.gui.panels.tuning import ParameterRow, field_docs, text_diff
from tests.gui_helpers import TIMEOUT, open_file


def search(qtbot, w: MainWindow, query: str) -> None:
    with qtbot.waitSignal(w.find_panel.search_finished, timeout=TIMEOUT):
        w.find_panel.search(query)


def test_tuning_word_gap_changes_text_live_with_a_diff_and_reset_restores(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    plain = w.text_panels["plain"]
    page_before = w.bundle.analysis.page
    assert "PDF Reference Manual" in plain.editor.toPlainText().splitlines()
    assert w.tuning.diff is not None and w.tuning.diff.equal
    inserted_before = sum(1 for d in w.bundle.facts.modes.view("plain").word_gaps if d.inserted)

    # The user types 0.5 in the spin box: applied after the debounce, without re-interpreting.
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.tuning.rows["word_gap"].spin.setValue(0.5)
    assert w.session.params.word_gap == 0.5
    assert w.bundle.analysis.page is page_before  # same interpreted page: re-assembled only
    lines = plain.editor.toPlainText().splitlines()
    assert "PDFReferenceManual" in lines and "PDF Reference Manual" not in lines
    assert w.tuning.rows["word_gap"].slider.value() == round(0.5 / 1.5 * 1000)
    diff = w.tuning.diff
    assert diff is not None and not diff.equal and diff.spaces_removed > 20
    assert "-PDF Reference Manual" in diff.unified and "+PDFReferenceManual" in diff.unified
    assert (
        "spaces removed" in w.tuning.diff_label.text() and "word_gap 0.15 → 0.5" in w.tuning.diff_label.text()
    )
    assert "line-through" in w.tuning.diff_view.toHtml() or "#ffcdd2" in w.tuning.diff_view.toHtml()
    # The diff's left side is the page product under the default thresholds.
    assert w.tuning.default_text("plain") == analyze_page(w.session.document, 2).texts["plain"].text
    # Canvas layers and legend follow the new decisions.
    inserted_after = sum(1 for d in w.bundle.facts.modes.view("plain").word_gaps if d.inserted)
    assert inserted_after < inserted_before
    assert f"space inserted ({inserted_after})" in w.legend.keys.text()
    # Other modes re-assembled too; the diff follows the mode.
    w.session.set_mode("layout")
    assert "PDFReferenceManual" in w.text_panels["layout"].editor.toPlainText().split()
    assert not w.tuning.diff.equal
    w.session.set_mode("plain")

    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.tuning.reset_button.click()
    assert w.session.params == DEFAULT_PARAMETERS
    assert "PDF Reference Manual" in plain.editor.toPlainText().splitlines()
    assert w.tuning.diff.equal
    assert w.tuning.rows["word_gap"].spin.value() == pytest.approx(0.15)


def test_tuning_controls_cover_every_parameter_with_ranges_and_docs(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=8)
    docs = field_docs()
    for name, row in w.tuning.rows.items():
        assert docs[name].split()[0] in row.tooltip()  # the field's docstring is the tooltip
        assert f"<b>{name}</b>" in row.tooltip()  # the raw name there, a readable label on the row
        assert row.label.text() != name
        if isinstance(row, ParameterRow):
            assert row.spin.minimum() >= 0
    assert w.tuning.rows["line_break"].spin.minimum() > 0  # 0 would be invalid: impossible to enter
    dups_before = len(w.bundle.analysis.classified.duplicates)
    # A tolerance the scan window cannot reach is reported inline; a tighter dedupe drops fewer glyphs
    # (fake bold is offset 0.3 pt along the baseline: with no tolerance along, it stays).
    w.tuning.rows["dedupe_scan"].spin.setValue(0.05)
    w.tuning.rows["dedupe_along"].spin.setValue(0.0)
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        assert w.tuning.apply_now()
    assert "scan window" in w.tuning.message.text()
    assert len(w.bundle.analysis.classified.duplicates) < dups_before
    assert w.legend.count("duplicates") == len(w.bundle.analysis.classified.duplicates)
    # Slider and spin box stay in step.
    w.tuning.rows["columns_gap"].slider.setValue(500)
    assert w.tuning.rows["columns_gap"].spin.value() == pytest.approx(10.0, abs=0.25)


def test_switches_are_checkboxes_built_from_the_parameters_fields(
    qtbot, window, demo_pdf, monkeypatch
) -> None:
    from dataclasses import fields

    from glyphscope.core.params import SWITCHES, Parameters, Range
    from glyphscope.inspector.gui.panels import tuning

    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    assert set(w.tuning.rows) == {f.name for f in fields(Parameters)}
    switches = {name for name, row in w.tuning.rows.items() if isinstance(row, tuning.SwitchRow)}
    assert switches == set(SWITCHES)  # every switch a checkbox, every threshold a slider and spin box
    row = w.tuning.rows["keep_ligatures"]
    assert row.check.text() == "Keep ligatures (ﬁ ﬂ) as they are" and not row.check.isChecked()
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        row.check.setChecked(True)  # debounced, then applied like a slider
    assert w.session.params.keep_ligatures is True and row.check.font().bold()
    assert "keep_ligatures off → on" in w.tuning.diff_label.text()
    w.session.set_params(w.session.params.with_changes(keep_ligatures=False))  # and back from elsewhere
    assert not row.check.isChecked()
    # Each row's label and range are the field's row of core.params.PARAMETER_SPECS.
    assert tuning.label_of("cjk_gap") == "CJK gap (× height)"
    assert w.tuning.rows["cjk_gap"].range == Range(0.0, 4.0, 0.01)


def test_text_diff_counts_spaces_and_breaks() -> None:
    d = text_diff("a b\nc d", "ab\nc\nd")
    assert d.spaces_removed == 2 and d.breaks_added == 1 and d.changed_lines == 3  # max(2 old, 3 new)
    assert text_diff("same", "same").equal


def test_find_highlights_hits_and_f3_steps_across_pages(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    qtbot.keyClick(w, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert w.panels["find"].isVisible()
    assert w.find_panel.edit.hasFocus() or w.find_panel.edit.isVisible()
    search(qtbot, w, "correct extractor")
    panel = w.find_panel
    assert len({h.page for h in panel.hits}) >= 3
    hit = panel.current_hit()
    assert hit is not None and hit.page == 2
    view = w.bundle.facts.modes.view("plain")
    assert view.text[hit.start : hit.end].lower() == "correct extractor"
    assert w.session.selection == set(view.glyphs_for(hit.start, hit.end))
    assert w.session.selection_source == "find"
    assert w.text_panels["plain"].highlighted_chars() == list(range(hit.start, hit.end))
    assert not w.canvas.selection_item.selection.isEmpty()
    # F3 steps to the next hit, on the next page that has one; Shift+F3 comes back.
    first = panel.current
    nxt = panel.hits[(first + 1) % len(panel.hits)]
    if nxt.page != 2:
        with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
            qtbot.keyClick(w, Qt.Key.Key_F3)
    else:
        qtbot.keyClick(w, Qt.Key.Key_F3)
    assert panel.current == first + 1
    assert w.session.page_number == nxt.page
    view = w.bundle.facts.modes.view("plain")
    qtbot.waitUntil(lambda: w.session.selection == set(view.glyphs_for(nxt.start, nxt.end)), timeout=TIMEOUT)
    if nxt.page != 2:
        with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
            qtbot.keyClick(w, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    else:
        qtbot.keyClick(w, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert panel.current == first and w.session.page_number == 2


def test_find_explains_a_miss_that_is_in_the_glyphs(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    panel = w.find_panel
    # A space the engine inserted (the user typed the words glued together).
    search(qtbot, w, "Justifiedtext")
    assert not panel.hits
    status = panel.status.text()
    assert "found in the glyphs but not in the" in status and "a space was inserted between" in status
    assert "gap" in status and "&gt;" in status  # the measured gap against the threshold
    assert w.session.selection == set(panel.explanations[0].glyphs)
    # A space the engine did not insert under a larger word-gap threshold.
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.tuning.set_value("word_gap", 0.5, immediate=True)
    search(qtbot, w, "Justified text is often")
    assert not panel.hits
    assert "a space was not inserted between" in panel.status.text()
    assert "0.50 ×" in panel.status.text()
    # Slug text culled outside the CropBox (page 7), found from another page.
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.tuning.reset()
    search(qtbot, w, "Plate K")
    assert not panel.hits
    assert "culled" in panel.status.text() and "page 7" in panel.status.text()
    e = panel.explanations[0]
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        panel.results.itemClicked.emit(panel.results.topLevelItem(0), 0)  # as a click on the row
    qtbot.waitUntil(lambda: w.session.selection == set(e.glyphs), timeout=TIMEOUT)
    status = w.bundle.analysis.classified.status
    assert all(status[i] is GlyphStatus.CULLED for i in w.session.selection)
    # A word that is nowhere.
    search(qtbot, w, "xylophone")
    assert "No match" in panel.status.text() and not panel.explanations


def test_tuning_big_pages_reassemble_in_a_worker(qtbot, window, demo_pdf, monkeypatch) -> None:
    import glyphscope.inspector.gui.controller as controller

    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    monkeypatch.setattr(controller, "LIVE_REASSEMBLY_GLYPHS", 0)  # every page counts as big
    page_before = w.bundle.analysis.page
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.tuning.set_value("word_gap", 0.5, immediate=True)
        assert w.bundle.analysis.params.word_gap == 0.15  # not yet: the worker is running
    assert w.bundle.analysis.params.word_gap == 0.5 and w.bundle.analysis.page is page_before
    assert "PDFReferenceManual" in w.text_panels["plain"].editor.toPlainText().splitlines()
