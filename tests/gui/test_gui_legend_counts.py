"""The legend's counts: every layer, including "Other engines differ", whose comparison arrives after
the page (the Compare panel's job)."""

from __future__ import annotations

from tests.gui.test_compare_gui import SLUG_PAGE, TJ_GAP_PAGE
from tests.gui_helpers import TIMEOUT, go_to, open_file
from tests.pdfbuild import make_pdf


def test_legend_counts_the_compare_layer_once_the_comparison_is_there(qtbot, window, tmp_path) -> None:
    path = tmp_path / "two.pdf"
    make_pdf([SLUG_PAGE, TJ_GAP_PAGE], crop_box=[50, 50, 562, 742]).save(path)
    w = window
    for key, check in w.compare_panel.checks.items():
        check.setChecked(key == "pdfminer")  # the one engine every machine has
    w.session.set_layer_visible("compare", True)
    open_file(qtbot, w, path, page=1)
    panel = w.compare_panel
    legend = w.panel_widgets["legend"]
    qtbot.waitUntil(lambda: panel.comparison is not None and panel.worker is None, timeout=TIMEOUT)
    assert len(panel.differences()) == 1  # pdfminer keeps the culled slug
    assert legend.count("compare") == 1 == w.bundle.facts.counts.layers(w.session.mode)["compare"]
    assert legend.count("culled") == len(w.bundle.analysis.classified.culls)
    go_to(qtbot, w, 2)
    assert legend.count("compare") == 0  # not compared yet: nothing to count
    qtbot.waitUntil(lambda: panel.comparison is not None and panel.worker is None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: legend.count("compare") == 1, timeout=TIMEOUT)  # the TJ gap's space
