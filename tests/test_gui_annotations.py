"""The window: annotation text switched from the View menu and from Tuning, kept in step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.gui import TIMEOUT, open_file
from tests.test_annotations import TEXT_FIELD, _form

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
