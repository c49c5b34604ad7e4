"""The window's dock sizes come from the registry: the right column's groups share its height
as registry.PANELS declares, at 1280×800 and 1600×1000."""

from __future__ import annotations

import pytest

from glyphscope.inspector.gui.main_window import MainWindow, make_settings
from glyphscope.inspector.gui.panels import registry


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_right_column_heights_are_the_registry_shares(qtbot, size) -> None:
    w = MainWindow(settings=make_settings())
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    qtbot.wait(50)  # the second sizing pass runs once laid out
    shares = {s.name: s.height for s in registry.PANELS if s.height is not None and s.height < 1}
    assert shares == {"text": 0.34, "details": 0.30, "glyph_table": 0.36}
    heights = {name: w.panels[name].height() for name in shares}
    total = sum(heights.values())
    for name, share in shares.items():
        assert abs(heights[name] / total - share) < 0.015, (name, heights)
