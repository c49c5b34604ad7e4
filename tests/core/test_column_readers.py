"""The window's readers of a page's columns (no record made) give what the record readers give:
each is run on the page's GlyphTable and on the same glyphs as a plain list of records."""

from __future__ import annotations

import math
from typing import Any

import pytest

pytest.importorskip("PySide6")

from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.core.glyph_table import GlyphTable, paint_indices, subset  # noqa: E402
from glyphscope.inspector.views.spatial import GlyphHitIndex, glyph_bounds  # noqa: E402
from tests.glyph_factory import make_glyph  # noqa: E402


@pytest.fixture(scope="module")
def demo_pages(demo_pdf: Any) -> list[Any]:
    doc = open_document(demo_pdf)
    return [doc.interpret(n) for n in range(1, doc.page_count + 1)]


class _Page:
    """A page whose glyphs are a table rebuilt from its records, one run per glyph (the one
    representation a page has): what the readers find must not depend on how runs group glyphs."""

    def __init__(self, page: Any) -> None:
        self.glyphs = GlyphTable.of(list(page.glyphs))
        self.forms = page.forms
        self.fonts = page.fonts


def test_bounds_paint_indices_and_sources_off_the_columns(demo_pages: list[Any]) -> None:
    from collections import Counter

    for page in demo_pages:
        table = page.glyphs
        assert isinstance(table, GlyphTable)
        records = list(table)
        bounds = glyph_bounds(table)
        assert bounds == GlyphHitIndex([g.quad for g in records]).bounds == glyph_bounds(records)
        assert bounds is not None and bounds[0] < bounds[2] and bounds[1] < bounds[3]
        assert paint_indices(table) == tuple(range(len(records)))
        some = [i for i in range(len(records)) if i % 3 == 0]
        assert paint_indices(subset(table, some)) == tuple(some)
        assert Counter(table.source) == Counter(g.decode_source for g in records)


def test_bounds_leave_out_a_glyph_painted_nowhere() -> None:
    glyphs = [make_glyph(0, "a", 10.0, 20.0), make_glyph(1, "b", 300.0, 400.0)]
    far = make_glyph(2, "c", 50.0, 60.0)
    nan_quad = tuple((math.nan, y) for _, y in far.quad)
    glyphs.append(far._replace(quad=nan_quad))
    table = GlyphTable.of(glyphs)
    expected = GlyphHitIndex([g.quad for g in glyphs[:2]]).bounds
    assert glyph_bounds(table) == expected == glyph_bounds(glyphs)
    assert expected[0] == min(x for g in glyphs[:2] for x, _ in g.quad)
    assert glyph_bounds(GlyphTable()) is None


def test_panel_statistics_off_the_runs(demo_pages: list[Any]) -> None:
    from glyphscope.core.font_stats import font_statistics
    from glyphscope.inspector.gui.panels.content_stream import chain_tokens

    with_forms = 0
    for page in demo_pages:
        plain = _Page(page)
        assert chain_tokens(page) == chain_tokens(plain)
        assert font_statistics(page) == font_statistics(plain)
        with_forms += bool(page.forms)
    assert with_forms  # a form's glyphs are counted against the Do that painted them


def test_filter_choices_structure_index_and_form_colours_off_the_runs(demo_pages: list[Any]) -> None:
    from types import SimpleNamespace

    from glyphscope.inspector.gui.panels.glyph_table import _origin, filter_choices
    from glyphscope.inspector.views.page_facts import PageFacts

    for page in demo_pages:
        records = list(page.glyphs)
        # off the runs, the values each record gives
        by_record = sorted({g.font_key for g in records}), sorted({_origin(g) for g in records})
        assert filter_choices(SimpleNamespace(glyphs=page.glyphs)) == by_record
        facts = PageFacts(SimpleNamespace(page=page, classified=None))
        plain = PageFacts(SimpleNamespace(page=_Page(page), classified=None))
        assert facts.forms.index == plain.forms.index
        assert facts.counts.decode_sources() == plain.counts.decode_sources()


def test_structure_index_and_glyph_layers_off_the_columns(demo_pages: list[Any]) -> None:
    from types import SimpleNamespace

    from glyphscope.inspector.layers.registry import LAYER_BY_KEY
    from glyphscope.inspector.views.page_facts import PageFacts
    from glyphscope.inspector.views.structure import glyphs_of_mcid

    tagged = 0
    for page in demo_pages:
        by_runs = glyphs_of_mcid(page.glyphs)  # off the runs
        by_record: dict[int, list[int]] = {}
        for g in page.glyphs:
            if g.mcid is not None:
                by_record.setdefault(g.mcid, []).append(g.paint_index)
        assert by_runs == by_record
        tagged += bool(by_runs)
        facts = PageFacts(SimpleNamespace(page=page, classified=None))
        plain = PageFacts(SimpleNamespace(page=_Page(page), classified=None))
        plain.page.boxes = page.boxes
        for key in ("glyphs", "unresolved", "fallback"):
            a = LAYER_BY_KEY[key].shapes(facts, "plain")
            b = LAYER_BY_KEY[key].shapes(plain, "plain")
            assert a is not None and b is not None
            assert [(p.style, p.quads) for p in a.parts] == [(p.style, p.quads) for p in b.parts], key
            assert a.fade_height == b.fade_height
    assert tagged  # page 11 is tagged
