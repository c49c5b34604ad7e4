"""Panels that read or trace the page work only in front: Qt calls a dock tab behind another one
visible, so they ask whether they are in front, and catch up when their tab comes forward."""

from __future__ import annotations

from tests.gui_helpers import TIMEOUT, go_to, open_file


def test_panels_behind_a_tab_wait_until_they_come_to_the_front(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=1)
    objects, stepper, tree = w.objects_panel, w.stepper_panel, w.structure_tree
    for panel in (objects, tree):
        assert panel.isVisible() and not panel.in_front()  # what Qt says of a tab behind another
    assert not stepper.isVisible() and not stepper.in_front()  # closed until opened from Tools
    go_to(qtbot, w, 11)
    qtbot.wait(100)
    assert objects.page_number != 11
    assert stepper.stepper.trace is None and "when this panel is shown" in stepper.label.text()
    assert "when this panel is shown" in tree.label.text()
    w.reveal("objects")  # a click on its tab
    qtbot.waitUntil(lambda: objects.page_number == 11 and objects.root is not None, timeout=TIMEOUT)
    w.reveal("stepper")
    qtbot.waitUntil(
        lambda: stepper.stepper.trace is not None and stepper.stepper.page_number == 11, timeout=TIMEOUT
    )
    w.reveal("structure_tree")
    qtbot.waitUntil(lambda: tree.page_number == 11 and tree.tree.topLevelItemCount() > 0, timeout=TIMEOUT)
    assert objects.in_front() is False  # the structure tree took its place in that dock group
    go_to(qtbot, w, 10)
    assert objects.page_number == 11  # behind again: not re-read for page 10
