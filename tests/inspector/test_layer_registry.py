"""The layer registry (inspector/layers/registry.py) and the rule that nothing a layer draws hides the letters.

Qt-free: every layer's shapes are built from a page's facts and inspected as numbers —
no filled shape over a glyph box, hatching sparse and faint, marks beside the glyphs they
mark, labels outside the box they name — on the demo and on dense real files.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES
from glyphscope.core.document import open_document
from glyphscope.core.geometry import Rect
from glyphscope.inspector.layers import registry as L
from glyphscope.inspector.layers.builders import MARK_LIFT
from glyphscope.inspector.layers.shapes import (
    HATCH_MAX_ALPHA,
    LABEL_GAP_PX,
    UNDERLINE_DROP,
    LayerShapes,
    Place,
    ScreenRect,
    label_box,
    quad_rect,
    screen_bounds,
)
from glyphscope.inspector.views.page_facts import PageFacts
from tests.conftest import DEMO, corpus_file

# Dense real files: a crop-report table (1,572 glyphs clipped), a form, fake-bold duplicates,
# a TeX page, a tagged page.
DENSE = (
    ("pdfplumber__nics-background-checks-2015-11.pdf", 1),
    ("pdfjs__issue6127.pdf", 1),
    ("pdfplumber__issue-71-duplicate-chars.pdf", 1),
    ("samplefiles__pdflatex-4-pages.pdf", 1),
    ("pdfplumber__mcid_example.pdf", 1),
)


@cache
def _facts(path: Path, page: int) -> PageFacts:
    facts = PageFacts(analyze_page(open_document(path), page))
    for mode in MODES:
        facts.modes.view(mode)  # every text assembled: every layer can be drawn and counted
    return facts


def _all_shapes(facts: PageFacts) -> dict[str, LayerShapes]:
    drawn = {}
    for spec in L.LAYERS:
        shapes = spec.shapes(facts, "plain")
        if shapes is not None:
            drawn[spec.key] = shapes
    return drawn


def _demo_pages() -> list[int]:
    return list(range(1, open_document(DEMO).page_count + 1)) if DEMO.exists() else []


def _overlaps(a: Rect, b: Rect, inset: float = 0.0) -> bool:
    """Whether two user-space boxes overlap by more than `inset` on both axes."""
    return min(a[2], b[2]) - max(a[0], b[0]) > inset and min(a[3], b[3]) - max(a[1], b[1]) > inset


# -- one declaration per layer --------------------------------------------------------------------


def test_each_layer_is_declared_once_with_everything_the_views_read() -> None:
    assert len(set(L.LAYER_KEYS)) == len(L.LAYERS) == 25
    for spec in L.LAYERS:
        assert spec.colour.startswith("#") and len(spec.colour) == 7, spec.key
        assert spec.label and spec.tooltip and callable(spec.build) and callable(spec.count)
        assert spec.texts in (None, L.SHOWN, *MODES) and spec.counted_on in (None, L.SHOWN, *MODES)
    # The texts a layer is counted on are the ones it is drawn from (actual_text counts the page's spans).
    assert [s.key for s in L.LAYERS if s.counted_on != s.texts] == ["actual_text"]
    assert L.COUNTED_ON_TEXTS == (
        "word_gaps",
        "line_breaks",
        "right_to_left",
        "reading_order",
        "structure_order",
        "columns",
        "baselines",
        "article_beads",
    )
    # Names the report and `render --layers` accept, from the registry: "forms" names two layers.
    assert L.layers_named("forms") == ("glyphs", "form_bboxes")
    assert L.layers_named("MCID") == L.layers_named("structure") == ("structure_order",)
    assert L.layers_named("word-gaps") == ("word_gaps",) and L.layers_named("nope") == ()
    assert L.layers_named("bidi") == ("right_to_left",)


@pytest.mark.parametrize("page", _demo_pages())
def test_counts_and_drawings_of_a_layer_agree(page: int) -> None:
    """Each layer's count (the legend's number) is what its drawing shows, on every demo page."""
    facts = _facts(DEMO, page)
    counts = facts.counts.layers("plain")
    shapes = _all_shapes(facts)
    quads = {key: sum(len(p.quads) // 8 for p in s.parts) for key, s in shapes.items()}
    lines = {key: sum(len(p.segments) // 4 for p in s.parts) for key, s in shapes.items()}
    glyphs = facts.page.glyphs
    assert counts["glyphs"] == quads["glyphs"] == len(glyphs)
    for key in ("culled", "unresolved", "fallback", *L.VISIBILITY_LAYERS):
        assert counts[key] == lines[key] and quads[key] == 0, key  # one underline a glyph
    assert counts["duplicates"] == len(shapes["duplicates"].markers) <= lines["duplicates"]
    assert counts["reading_order"] == shapes["reading_order"].arrows == len(shapes["reading_order"].labels)
    assert counts["baselines"] == len(shapes["baselines"].markers)
    assert counts["article_beads"] == len(shapes["article_beads"].labels)
    assert counts["page_boxes"] == quads["page_boxes"] - 1  # the visible box is drawn over the MediaBox
    # the comparison and the OCR check are not there: not drawn, the OCR layers not counted
    assert "compare" not in shapes and L.INK_DISAGREES not in shapes and L.INK_WITHOUT_GLYPHS not in shapes
    assert counts["compare"] == 0 and L.INK_DISAGREES not in counts


def test_a_layer_counted_on_a_text_is_pending_until_that_text_is_assembled() -> None:
    facts = _facts(DEMO, 1)
    for spec in L.LAYERS:
        assert L.texts_ready(facts, spec.counted_on, "plain")

    class NotAssembled:
        ready = staticmethod(lambda mode: mode == "plain")

    pending = PageFacts(analyze_page(open_document(DEMO), 1))
    pending.analysis.texts.ready = NotAssembled.ready  # type: ignore[attr-defined]
    counts = pending.counts.layers("plain")
    assert "word_gaps" in counts and "columns" not in counts and "structure_order" not in counts
    assert counts["glyphs"] == len(pending.page.glyphs)


# -- nothing drawn hides the letters --------------------------------------------------------------


def _glyph_boxes(facts: PageFacts) -> list[Rect]:
    return [quad_rect(g.quad) for g in facts.page.glyphs]


def _check_never_hides(facts: PageFacts) -> dict[str, int]:
    """Every rule on one page; returns the primitives checked per kind (so a test sees it checked some)."""
    boxes = _glyph_boxes(facts)
    seen = {"outlines": 0, "hatched": 0, "marks": 0, "labels": 0}
    for key, shapes in _all_shapes(facts).items():
        for part in shapes.parts:
            style = part.style
            shapes_n = len(part.quads) // 8 + len(part.polygons)
            if style.hatch:  # sparse and faint, thin lines
                assert style.hatch_alpha <= HATCH_MAX_ALPHA, key
                seen["hatched"] += shapes_n
            else:
                seen["outlines"] += shapes_n
            assert not style.disc or not part.quads, key  # only marks can be discs, never a shape
            m = part.marks
            for k in range(0, len(m), 3):
                seen["marks"] += 1
                if style.disc:  # a filled disc covers no glyph box
                    x, y, r = m[k], m[k + 1], m[k + 2]
                    assert not any(_overlaps((x - r, y - r, x + r, y + r), b, 0.01) for b in boxes), key
        for label in shapes.labels:
            seen["labels"] += 1
            x0, y0, x1, y1 = label.of
            assert x0 <= x1 and y0 <= y1, key
    return seen


@pytest.mark.parametrize("name, page", DENSE)
def test_nothing_drawn_hides_the_letters_of_dense_real_files(name: str, page: int) -> None:
    facts = _facts(corpus_file(name), page)
    seen = _check_never_hides(facts)
    assert seen["outlines"] >= len(facts.page.glyphs) > 90  # every glyph outlined at least once


@pytest.mark.parametrize("page", _demo_pages())
def test_nothing_drawn_hides_the_letters_of_the_demo(page: int) -> None:
    _check_never_hides(_facts(DEMO, page))


def test_duplicate_rings_sit_above_the_glyph_they_duplicate() -> None:
    facts = _facts(corpus_file("pdfplumber__issue-71-duplicate-chars.pdf"), 1)
    shapes = L.LAYER_BY_KEY["duplicates"].shapes(facts, "plain")
    assert shapes is not None
    glyphs = facts.page.glyphs
    rings = [p for p in shapes.parts if len(p.marks)]
    records = facts.classified.duplicates
    assert sum(len(p.marks) // 3 for p in rings) == len(records) > 100
    expected = set()
    for d in records:
        kept = glyphs[d.duplicate_of]
        r = max(abs(kept.height) * 0.08, 0.4)
        x0, _, x1, y1 = quad_rect(kept.quad)
        expected.add((round((x0 + x1) / 2, 6), round(y1 + r * MARK_LIFT, 6), round(r, 6)))
    drawn = set()
    for part in rings:
        assert not part.style.disc  # rings: the letters under a neighbour's ring stay readable
        m = part.marks
        drawn.update((round(m[k], 6), round(m[k + 1], 6), round(m[k + 2], 6)) for k in range(0, len(m), 3))
    assert drawn == expected
    assert MARK_LIFT - 1.0 >= 0.5  # so each ring's lowest point is half a radius above its glyph's top


def _screen(facts: PageFacts, zoom: float):  # user space → screen pixels (y down) at a zoom
    x0, y0, x1, y1 = facts.page.boxes.visible_box

    def to_screen(x: float, y: float) -> tuple[float, float]:
        return ((x - x0) * zoom, (y1 - y) * zoom)

    return to_screen


@pytest.mark.parametrize("zoom", [0.9, 2.0])  # about Fit page at 1280×800, and 200 %
def test_labels_sit_beside_the_box_they_name(zoom: float) -> None:
    """Reading-order numbers left of their line's first glyph, MCID, culled and ActualText labels
    above theirs: the label's box never meets the named box on screen, at Fit page or at 200 %."""
    checked = {Place.LEFT: 0, Place.ABOVE: 0}
    for page in _demo_pages():
        facts = _facts(DEMO, page)
        to_screen = _screen(facts, zoom)
        glyphs = facts.page.glyphs
        for key, shapes in _all_shapes(facts).items():
            for label in shapes.labels:
                x0, y0, x1, y1 = label.of
                named: ScreenRect = screen_bounds(to_screen(x, y) for x, y in ((x0, y0), (x1, y1)))
                width = 6.0 * len(label.text)  # an 8.5 pt font's advance, about
                box = label_box(label, named, width, 9.0, 3.0)
                gap = LABEL_GAP_PX - 1e-9
                if label.place is Place.LEFT:
                    assert box[2] <= named[0] - gap, (key, label.text)
                else:
                    assert box[3] <= named[1] - gap, (key, label.text)
                checked[label.place] += 1
            if key == "reading_order":  # each number names its line's first glyph
                lines = [line for line in facts.modes.view("plain").lines() if line]
                firsts = [quad_rect(glyphs[line[0]].quad) for line in lines]
                assert [lab.of for lab in shapes.labels] == firsts
    assert checked[Place.LEFT] > 50 and checked[Place.ABOVE] > 10


def test_reading_order_arrows_run_under_the_letters() -> None:
    """The arrow of a line lies below its glyphs' boxes (an underline), on every demo page's
    horizontal lines."""
    checked = 0
    for page in _demo_pages():
        facts = _facts(DEMO, page)
        shapes = L.LAYER_BY_KEY["reading_order"].shapes(facts, "plain")
        assert shapes is not None
        glyphs = facts.page.glyphs
        shafts = [p for p in shapes.parts if len(p.segments)]
        segs = [tuple(p.segments[k : k + 4]) for p in shafts for k in range(0, len(p.segments), 4)]
        for line in facts.modes.view("plain").lines():
            q = glyphs[line[0]].quad
            if abs(q[1][1] - q[0][1]) > 1e-6 or q[3][1] <= q[0][1]:
                continue  # not horizontal and upright
            first, last = quad_rect(q), quad_rect(glyphs[line[-1]].quad)
            start = (q[0][0], q[0][1] - (q[3][1] - q[0][1]) * 0.22)
            shaft = [s for s in segs if math.isclose(s[0], start[0]) and math.isclose(s[1], start[1])]
            assert shaft and shaft[0][1] < first[1] and shaft[0][3] < last[1]  # under the first and last
            checked += 1
    assert checked > 50


CLASS_LAYERS = ("culled", "unresolved", "fallback", *L.VISIBILITY_LAYERS)


def test_glyph_classes_are_underlines_under_the_glyph_box() -> None:
    """A class of glyphs (clipped, unresolved, culled, ...) is one line per glyph, UNDERLINE_DROP of
    its height under its box: at Fit page neighbouring outlines would merge into a fill."""
    facts = _facts(corpus_file("pdfjs__issue6127.pdf"), 1)
    glyphs = facts.page.glyphs
    checked = 0
    for key in CLASS_LAYERS:
        shapes = L.LAYER_BY_KEY[key].shapes(facts, "plain")
        assert shapes is not None
        drawn = sorted(
            tuple(round(v, 6) for v in p.segments[k : k + 4])
            for p in shapes.parts
            for k in range(0, len(p.segments), 4)
        )
        assert not any(len(p.quads) or p.polygons for p in shapes.parts), key
        expected = []
        for i in _members(facts, key):
            (x0, y0), (x1, y1), (x2, y2), (x3, y3) = glyphs[i].quad
            d = UNDERLINE_DROP
            expected.append(
                tuple(
                    round(v, 6)
                    for v in (x0 + (x0 - x3) * d, y0 + (y0 - y3) * d, x1 + (x1 - x2) * d, y1 + (y1 - y2) * d)
                )
            )
            if y3 > y0 and abs(y1 - y0) < 1e-9:  # upright: the line is under the box
                assert expected[-1][1] < quad_rect(glyphs[i].quad)[1]
        assert drawn == sorted(expected), key
        checked += len(expected)
    assert checked > 500  # 594 unresolved glyphs on the form


def _members(facts: PageFacts, key: str) -> list[int]:
    from glyphscope.core.glyph import DecodeSource

    if key == "culled":
        return [c.paint_index for c in facts.classified.culls]
    if key in ("unresolved", "fallback"):
        source = DecodeSource.UNRESOLVED if key == "unresolved" else DecodeSource.FALLBACK
        return [i for i, g in enumerate(facts.page.glyphs) if g.decode_source is source]
    vis = facts.classified.visibility
    return [r.paint_index for r in vis.records if r.kind == key] if vis is not None else []
