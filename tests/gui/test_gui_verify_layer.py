"""The OCR layer and the glyphs not judged in the window: the Verify panel's rows and the
Diagnostics panel's error once the page is verified."""

from __future__ import annotations

from pathlib import Path

import pytest

from glyphscope.core.diagnostics import DiagnosticKind, Severity
from glyphscope.inspector.verify import ocr
from tests import ocr_pdfs
from tests.gui_helpers import TIMEOUT, open_file

pytestmark = pytest.mark.skipif(
    not ocr.ocr_status().available or not ocr_pdfs.DEJAVU_SANS.is_file(),
    reason="needs Tesseract and DejaVu Sans",
)


def _verify(qtbot, window, path: Path):  # type: ignore[no-untyped-def]
    open_file(qtbot, window, path)
    panel = window.verify_panel
    assert panel.verify() is not None
    qtbot.waitUntil(lambda: window.session.verification is not None, timeout=TIMEOUT * 4)
    return panel


def test_a_wrong_layer_in_the_verify_panel_and_diagnostics(qtbot, window, tmp_path):
    path = tmp_path / "scan.pdf"
    data = ocr_pdfs.scan_with_layer("shifted")
    assert data is not None
    path.write_bytes(data)
    panel = _verify(qtbot, window, path)
    layer = window.session.verification.pages[0].ocr_layer
    assert layer is not None and layer.verdict.value == "wrong"
    top = panel.tree.topLevelItem(0)
    assert top.text(0) == (
        f"OCR layer: wrong — {layer.reason} · {layer.glyphs} hidden glyphs over the scan, {layer.checked} "
        f"checked in {len(layer.words)} words · taken for a layer: {layer.glyphs} glyphs invisible by render "
        "mode (Tr 3 or 7) over an image"
    )
    assert top.childCount() == len(layer.disagreeing) and top.isExpanded()
    assert top.child(0).text(1) == "layer “Eftjsjoh” → scan “Desiring”"
    panel.tree.setCurrentItem(top.child(0))  # a click on a word selects its layer glyphs on the page
    assert set(window.session.selection) == set(layer.disagreeing[0].glyphs)
    assert f"<b>{layer.checked}</b> glyphs judged" in panel.counts.text()
    findings = window.diagnostics.findings
    assert findings[0].kind is DiagnosticKind.OCR_LAYER_WRONG and findings[0].severity is Severity.ERROR
    assert window.diagnostics.tree.topLevelItem(0).text(2) == findings[0].message


def test_glyphs_not_judged_are_listed_by_reason(qtbot, window, tmp_path):
    path = tmp_path / "off.pdf"
    path.write_bytes(ocr_pdfs.off_by_one(ocr_pdfs.PANGRAMS[:3]))
    panel = _verify(qtbot, window, path)
    page = window.session.verification.pages[0]
    reasons = page.not_judged()
    assert reasons["space"] == sum(line.count(" ") for line in ocr_pdfs.PANGRAMS[:3])
    group = next(i for i in panel.items() if i.text(0).startswith("Not judged ("))
    assert group.text(0) == f"Not judged ({sum(reasons.values())} of {page.glyphs_total} glyphs)"
    rows = {group.child(i).text(0): group.child(i).text(2) for i in range(group.childCount())}
    assert rows == {key.replace("_", " "): str(n) for key, n in reasons.items()}
