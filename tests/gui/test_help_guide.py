"""Help › How to read the page: the guide inside the app lists the legend, the decisions and the keys."""

from __future__ import annotations

from typing import Any

from glyphscope.inspector.gui.panels.help import HelpGuide
from glyphscope.inspector.layers.registry import LAYERS


def test_help_menu_opens_the_guide_with_legend_decisions_and_keys(qtbot: Any, window: Any) -> None:
    action = next(a for a in window.findChildren(type(window.act_open)) if a.objectName() == "help_guide")
    assert action.shortcut().toString() == "F1"
    action.trigger()
    guide = window.findChild(HelpGuide, "help_guide")
    assert guide.isVisible()
    text = guide.browser.toPlainText()
    for layer in LAYERS:  # the legend is the layer table itself
        assert layer.label in text and layer.tooltip in text
    assert (
        "0.15 × the next glyph's box height" in text
        and "near misses" in text
        and "0.5 × the glyph height" in text
    )
    # Keyboard shortcuts come from the window's actions and the stepper's keys.
    assert "F1" in text and "How to read the page" in text
    assert window.act_open.shortcut().toString() in text
    assert "Stepper: step back" in text and "Shift+F10" in text
    action.trigger()  # a second time raises the same guide
    assert window.findChild(HelpGuide, "help_guide") is guide
    guide.close()
