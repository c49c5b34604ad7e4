"""The Qt-free session model: events fire once per real change, and never import Qt."""

from __future__ import annotations

import subprocess
import sys

import pytest

from glyphscope.inspector.layers.registry import LAYER_KEYS
from glyphscope.inspector.views.page_facts import PageBundle
from glyphscope.inspector.views.session import Session


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


def test_page_change_clears_selection_and_ignores_stale_views() -> None:
    s = Session()
    s.set_document(Doc())
    s.set_page(1)
    s.select([1], "canvas")
    views = record(s.events.view)
    s.set_page(2)
    assert s.selection == frozenset()
    s.set_view(PageBundle(1, None))  # a late result for the page we left
    assert views == [] and s.view is None and s.analysis is None
    view = PageBundle(2, None, analysis=object(), error="broken")
    s.set_view(view)
    assert s.view is view and s.analysis is view.analysis and s.page_error == "broken"
    assert views == [(view,)]


def test_view_is_emitted_once_per_real_change() -> None:
    """The current page's view model: one event per new model, None when the page or document goes."""
    s = Session()
    views = record(s.events.view)
    order = []
    s.events.page.connect(lambda n: order.append(("page", n)))
    s.events.view.connect(lambda v: order.append(("view", v.page_number if v else None)))
    s.set_document(Doc())
    s.set_page(1)
    assert views == []  # nothing was shown, so nothing to take back
    preview = PageBundle(1, None, preview=True)
    analysed = PageBundle(1, None, analysis=object())
    for view in (preview, preview, analysed, analysed):
        s.set_view(view)
    assert views == [(preview,), (analysed,)]
    s.set_page(1)  # the same page: no change
    s.set_page(2)
    assert views[-1] == (None,) and s.view is None and s.facts is None
    assert order[-2:] == [("view", None), ("page", 2)]  # views are empty before the page event
    s.set_view(None)
    assert len(views) == 3
    s.set_view(PageBundle(2, None))
    s.set_document(None)
    assert views[-1] == (None,) and len(views) == 5


def test_session_module_does_not_import_qt() -> None:
    code = "import sys, glyphscope.inspector.views.session, glyphscope.inspector.views.page_facts, "
    code += "glyphscope.inspector.layers.registry, glyphscope.inspector.views.spatial; "
    code += "print([m for m in sys.modules if m.startswith('PySide6')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
