"""The window: annotation text switched from the View menu and from Tuning, kept in step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf
import pytest
from PySide6.QtCore import QPointF, Qt

from tests.core.test_annotations import TEXT_FIELD, _form
from tests.gui_helpers import TIMEOUT, open_file

pytest.importorskip("pytestqt")


def test_annotation_text_is_switched_from_the_view_menu_and_tuning_follows(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    w = window
    path = tmp_path / "form.pdf"
    path.write_bytes(_form([TEXT_FIELD]))
    open_file(qtbot, w, path)
    plain = w.text_panels["plain"]
    assert plain.editor.toPlainText() == "Name: Jane Doe"
    menu = {a.objectName(): a for a in w.annotation_group.actions()}
    assert menu["annotations.include"].isChecked()
    menu["annotations.exclude"].trigger()
    qtbot.waitUntil(lambda: plain.editor.toPlainText() == "Name:", timeout=TIMEOUT)
    assert w.session.params.annotations == "exclude"
    assert w.tuning.rows["annotations"].value() == "exclude"
    w.tuning.set_value("annotations", "only", immediate=True)
    qtbot.waitUntil(lambda: plain.editor.toPlainText() == "Jane Doe", timeout=TIMEOUT)
    assert menu["annotations.only"].isChecked() and not menu["annotations.exclude"].isChecked()


HIDDEN_NOTE = {
    "Subtype": pikepdf.Name.FreeText,
    "Rect": [300, 600, 400, 620],
    "F": 2,  # Hidden
    "Contents": pikepdf.String("draft"),
    "ap": b"BT /F1 10 Tf 2 5 Td (Draft) Tj ET",
}


def _click_user_point(qtbot: Any, canvas: Any, point: tuple[float, float]) -> None:
    canvas.set_zoom(4.0)
    scene = canvas.page_to_scene.map(QPointF(*point))
    canvas.centerOn(scene)
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(scene))


def test_the_annotations_layer_outlines_each_rect_and_a_label_click_shows_field_and_appearance(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    w = window
    path = tmp_path / "form.pdf"
    path.write_bytes(_form([TEXT_FIELD, HIDDEN_NOTE]))
    open_file(qtbot, w, path)
    assert w.session.layers["annotations"]  # on by default: the answer to "where is my field?"
    assert w.bundle.facts.counts.layers(w.session.mode)["annotations"] == 2
    drawing = w.canvas.layer_items["annotations"].drawing
    labels = {label.of[0::3]: label.text for label in drawing.labels}  # above each /Rect's top-left
    assert labels == {
        (120.0, 715.0): "Widget name (Tx) “Jane Doe”",
        (300.0, 600.0 + 20.0): "FreeText — hidden flag",
    }
    drawn, hidden = drawing.markers
    assert (drawn.source.verdict, drawn.glyphs) == ("included", tuple(range(5, 13)))  # "Jane Doe"
    assert (hidden.source.verdict, hidden.glyphs) == ("excluded", ())

    _click_user_point(qtbot, w.canvas, (120.0, 715.0))
    assert w.session.decision is drawn.source
    text = w.details.text()
    assert "Decision: Widget 2 0 R (name): a viewer draws its appearance" in text
    assert "field\nname — type Tx\n" in text and "value\n“Jane Doe”\n" in text
    assert "% drawn appearance: /AP /N" in text and "(Jane Doe) Tj" in text  # the stream itself
    w.reveal("objects")
    qtbot.waitUntil(lambda: w.objects_panel.root is not None, timeout=TIMEOUT)
    w.session.select_decision(None)
    _click_user_point(qtbot, w.canvas, (120.0, 715.0))
    assert w.objects_panel.selected_node().annotation == 0  # Objects follows: the widget's dictionary

    # the hidden note has no glyphs: its decision alone answers, with why a viewer shows nothing
    w.session.select_decision(None)
    _click_user_point(qtbot, w.canvas, (300.0, 620.0))
    assert w.session.decision is hidden.source and w.session.selection == frozenset()
    text = w.details.text()
    assert "its /F Hidden flag is set: a viewer shows nothing of it (0 glyphs)" in text
    assert "(Draft) Tj" in text


def test_a_click_inside_a_field_or_on_its_label_selects_its_decision(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    w = window
    path = tmp_path / "form.pdf"
    path.write_bytes(_form([TEXT_FIELD, HIDDEN_NOTE]))
    open_file(qtbot, w, path)
    drawn, hidden = w.canvas.layer_items["annotations"].drawing.markers
    # inside the field's rect, on its text and in its empty right half: its decision
    for point in ((125.0, 702.0), (200.0, 705.0)):
        w.session.select_decision(None)
        _click_user_point(qtbot, w.canvas, point)
        assert w.session.decision is drawn.source, point
        assert w.session.selection == {drawn.glyphs[0]}  # its first glyph, with the record
    w.session.select_decision(None)
    _click_user_point(qtbot, w.canvas, (350.0, 610.0))  # the middle of the hidden note
    assert w.session.decision is hidden.source
    # on the label drawn above the field (wherever the label space put it)
    w.session.select_decision(None)
    w.session.clear_selection()
    canvas = w.canvas
    canvas.viewport().repaint()
    targets = [(box, m) for box, m in canvas.label_targets() if m is drawn]
    assert targets, "the field's label is drawn and is a click target"
    (x0, y0, x1, y1), _ = targets[0]
    field = canvas.mapFromScene(canvas.page_to_scene.map(QPointF(120.0, 715.0)))
    assert y1 <= field.y() + 1  # the label is above the field, off its rect
    from PySide6.QtCore import QPoint

    qtbot.mouseClick(
        canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(int(x0 + 3), int((y0 + y1) / 2))
    )
    assert w.session.decision is drawn.source


def test_glyph_details_follow_the_annotation_switch_at_once(qtbot: Any, window: Any, tmp_path: Path) -> None:
    w = window
    path = tmp_path / "form.pdf"
    path.write_bytes(_form([TEXT_FIELD]))
    open_file(qtbot, w, path)
    _click_user_point(qtbot, w.canvas, (200.0, 705.0))
    assert "verdict\nincluded" in w.details.text()
    menu = {a.objectName(): a for a in w.annotation_group.actions()}
    expected = {
        "annotations.exclude": "verdict\nexcluded",
        "annotations.only": "verdict\nincluded",
        "annotations.include": "verdict\nincluded",
    }
    for choice in ("annotations.exclude", "annotations.only", "annotations.exclude", "annotations.include"):
        before = w.session.view
        menu[choice].trigger()
        qtbot.waitUntil(
            lambda before=before: w.session.view is not before and w.session.view.facts is not None,
            timeout=TIMEOUT,
        )
        decision = w.session.decision
        assert decision is not None and decision in w.bundle.facts.fates.annotation_decisions
        text = w.details.text()
        assert expected[choice] in text, (choice, text[:300])
        assert ("verdict\nexcluded" in text) == (choice == "annotations.exclude")
