"""The Qt-free session model: events fire once per real change, and never import Qt."""

from __future__ import annotations

import subprocess
import sys

import pytest

from glyphscope.inspector.layers import LAYER_KEYS
from glyphscope.inspector.session import Session


class Doc:
    page_count = 5


def record(event):
    calls = []
    event.connect(lambda *args: calls.append(args))
    return calls


def test_events_fire_only_on_real_changes() -> None:
    s = Session()
    pages = record(s.events.page)
    selection = record(s.events.selection)
    layers = record(s.events.layers)
    mode = record(s.events.mode)
    s.set_document(Doc())
    s.set_page(2)
    s.set_page(2)
    s.set_page(99)  # clamped to the last page
    assert pages == [(2,), (5,)]
    s.select([3, 4], "canvas")
    s.select({4, 3}, "table")
    assert selection == [(frozenset({3, 4}), "canvas")]
    key = LAYER_KEYS[0]
    s.set_layer_visible(key, not s.layers[key])
    s.set_layer_visible(key, s.layers[key])
    assert len(layers) == 1
    s.set_mode("layout")
    s.set_mode("layout")
    assert mode == [("layout",)]
    with pytest.raises(ValueError):
        s.set_mode("nonsense")
    with pytest.raises(KeyError):
        s.set_layer_visible("nonsense", True)


def test_page_change_clears_selection_and_ignores_stale_analysis() -> None:
    s = Session()
    s.set_document(Doc())
    s.set_page(1)
    s.select([1], "canvas")
    analyses = record(s.events.analysis)
    s.set_page(2)
    assert s.selection == frozenset()
    s.set_analysis(1, object())  # a late result for the page we left
    assert analyses == [] and s.analysis is None
    marker = object()
    s.set_analysis(2, marker)
    assert s.analysis is marker and len(analyses) == 1


def test_session_module_does_not_import_qt() -> None:
    code = "import sys, inspector.session, inspector.engine, inspector.layers, inspector.spatial; "
    code += "print([m for m in sys.modules if m.startswith('PySide6')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
