"""The table finder (glyphscope/tables.py; page.find_tables and kin in glyphscope/model.py).

Small PDFs built with pikepdf: a ruled 3×3 table, one with a merged cell, an unruled one read
by the "text" strategy, borders drawn a little apart that snapping puts on one line. Cells and
texts are worked out by hand from the content streams (Helvetica 10 pt: a char's box runs from
2.07 pt below the baseline, the font's descent, to one em above that); where pdfplumber is
installed the same bytes are read by it too and must give the same cells and texts.
"""

from __future__ import annotations

import io

import pytest

import glyphscope
from glyphscope.tables import (
    Edge,
    TableSettings,
    cells,
    edge,
    group_cells,
    intersections,
    join_edges,
    merge_edges,
)
from glyphscope.words import cluster_values, text_of
from tests.pdfbuild import make_pdf, to_bytes

H = 792.0  # the page height: top = H − y
XS = (100, 200, 300, 400)
YS = (700, 670, 640, 610)  # tops 92, 122, 152, 182


def _line(x0: float, y0: float, x1: float, y1: float) -> bytes:
    return f"{x0} {y0} m {x1} {y1} l S ".encode()


def _text(x: float, y: float, s: str) -> bytes:
    return f"BT /F1 10 Tf {x} {y} Td ({s}) Tj ET ".encode()


def _grid_text() -> bytes:
    out = b""
    for r, y in enumerate(YS[:-1]):
        for c, x in enumerate(XS[:-1]):
            out += _text(x + 10, y - 20, f"{'ABC'[c]}{r + 1}")
    return out


def ruled_3x3() -> bytes:
    content = b"0.5 w "
    for x in XS:
        content += _line(x, YS[0], x, YS[-1])
    for y in YS:
        content += _line(XS[0], y, XS[-1], y)
    return to_bytes(make_pdf([content + _grid_text()]))


def _plumber_tables(data: bytes, settings: dict | None = None) -> list:
    plumber = pytest.importorskip("pdfplumber")
    with plumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        return [(list(t.cells), t.extract()) for t in page.find_tables(settings)]


def _same_as_plumber(data: bytes, settings: dict | None = None) -> None:
    theirs = _plumber_tables(data, settings)
    with glyphscope.open(data, coordinates="pdfplumber") as doc:
        ours = [(t.cells, t.extract()) for t in doc.pages[0].find_tables(settings)]
    assert len(ours) == len(theirs)
    for (our_cells, our_text), (their_cells, their_text) in zip(ours, theirs, strict=True):
        assert len(our_cells) == len(their_cells)
        for a, b in zip(sorted(our_cells), sorted(their_cells), strict=True):
            assert a == pytest.approx(b, abs=0.01)
        assert our_text == their_text


# ---------------------------------------------------------------- a ruled 3×3 table


def test_a_ruled_3x3_table_has_nine_cells_on_its_lines_and_their_texts() -> None:
    with glyphscope.open(ruled_3x3()) as doc:
        page = doc.pages[0]
        tables = page.find_tables()
        assert len(tables) == 1
        table = tables[0]
        tops = [H - y for y in YS]  # 92, 122, 152, 182
        expected = sorted(
            (float(XS[c]), tops[r], float(XS[c + 1]), tops[r + 1]) for r in range(3) for c in range(3)
        )
        assert sorted(table.cells) == expected
        assert table.bbox == (100.0, 92.0, 400.0, 182.0)
        assert [row.bbox for row in table.rows] == [(100.0, t, 400.0, b) for t, b in zip(tops, tops[1:])]
        assert [col.bbox for col in table.columns] == [
            (float(x0), 92.0, float(x1), 182.0) for x0, x1 in zip(XS, XS[1:])
        ]
        assert all(None not in row.cells for row in table.rows)
        rows = [["A1", "B1", "C1"], ["A2", "B2", "C2"], ["A3", "B3", "C3"]]
        assert table.extract() == rows
        assert page.extract_tables() == [rows]
        assert page.extract_table() == rows
        assert page.find_table() is not None and page.find_table().cells == table.cells


def test_the_finders_steps_are_there_to_read() -> None:
    with glyphscope.open(ruled_3x3()) as doc:
        finder = doc.pages[0].debug_tablefinder()
    # 4 vertical and 4 horizontal lines, each one edge; 16 crossings; 9 cells
    assert sorted((e.orientation, e.position, e.length) for e in finder.edges) == sorted(
        [("v", float(x), 90.0) for x in XS] + [("h", H - y, 300.0) for y in YS]
    )
    assert all(e.object_type == "line" for e in finder.edges)
    assert sorted(finder.intersections) == sorted((float(x), H - y) for x in XS for y in YS)
    assert len(finder.cells) == 9 and len(finder.tables) == 1
    assert finder.settings.snap_x_tolerance == 3 and finder.settings.text_settings["x_tolerance"] == 3


def test_the_ruled_table_is_pdfplumbers() -> None:
    _same_as_plumber(ruled_3x3())


def test_a_cropped_page_finds_the_table_inside_the_crop_only() -> None:
    with glyphscope.open(ruled_3x3()) as doc:
        crop = doc.pages[0].crop((90, 85, 410, 130))  # the first row and the line under it
        table = crop.find_table()
        assert table is not None
        # the verticals are cut at the crop's bottom (130), which is no line: one row of cells
        assert sorted(table.cells) == [
            (100.0, 92.0, 200.0, 122.0),
            (200.0, 92.0, 300.0, 122.0),
            (300.0, 92.0, 400.0, 122.0),
        ]
        assert crop.extract_table() == [["A1", "B1", "C1"]]


# ---------------------------------------------------------------- a merged cell


def merged() -> bytes:
    """The ruled 3×3 table without the line between the first two cells of the first row."""
    content = b"0.5 w "
    for x in XS:
        if x == 200:
            content += _line(x, YS[1], x, YS[-1])  # starts at the second row
        else:
            content += _line(x, YS[0], x, YS[-1])
    for y in YS:
        content += _line(XS[0], y, XS[-1], y)
    content += _text(110, 680, "Merged") + _text(310, 680, "C1")
    for r, y in enumerate(YS[1:-1]):
        for c, x in enumerate(XS[:-1]):
            content += _text(x + 10, y - 20, f"{'ABC'[c]}{r + 2}")
    return to_bytes(make_pdf([content]))


def test_a_merged_cell_spans_two_columns_and_leaves_a_gap_in_its_row() -> None:
    with glyphscope.open(merged()) as doc:
        table = doc.pages[0].find_table()
        assert table is not None
        assert len(table.cells) == 8
        assert (100.0, 92.0, 300.0, 122.0) in table.cells
        first = table.rows[0]
        assert first.cells == [(100.0, 92.0, 300.0, 122.0), None, (300.0, 92.0, 400.0, 122.0)]
        assert table.extract() == [["Merged", None, "C1"], ["A2", "B2", "C2"], ["A3", "B3", "C3"]]
        # the column of x 200 has no cell in the first row
        assert table.columns[1].cells == [None, (200.0, 122.0, 300.0, 152.0), (200.0, 152.0, 300.0, 182.0)]


def test_the_merged_cell_is_pdfplumbers() -> None:
    _same_as_plumber(merged())


# ---------------------------------------------------------------- the text strategy

WORDS = [("Name", "Qty", "Price"), ("Apple", "3", "1.20"), ("Pear", "12", "0.80"), ("Fig", "7", "2.50")]
COLUMNS = (100, 220, 340)
BASELINES = (700, 688, 676, 664)


def unruled() -> bytes:
    content = b""
    for words, y in zip(WORDS, BASELINES, strict=True):
        for word, x in zip(words, COLUMNS, strict=True):
            content += _text(x, y, word)
    return to_bytes(make_pdf([content]))


TEXT = {"vertical_strategy": "text", "horizontal_strategy": "text"}


def test_the_text_strategy_reads_an_unruled_table_from_its_aligned_words() -> None:
    with glyphscope.open(unruled()) as doc:
        page = doc.pages[0]
        finder = page.debug_tablefinder(TEXT)
        words = page.extract_words(x_tolerance=3, y_tolerance=3)
        right = max(w.x1 for w in words if w.x0 == 340)
        # a vertical edge at each column's left end, one at the right of the last column
        verticals = sorted(e.x0 for e in finder.edges if e.orientation == "v")
        assert verticals == pytest.approx([100, 220, 340, right])
        # each line's top and bottom: a line's bottom and the next one's top are 2 pt apart, so
        # they snap to their middle; the char box runs from 7.93 pt above the baseline to 2.07 below
        horizontals = sorted(e.top for e in finder.edges if e.orientation == "h")
        first_top = H - 700 - 7.93
        assert horizontals == pytest.approx(
            [first_top + 12 * k - (0 if k == 0 else 1) for k in range(4)] + [H - 664 + 2.07], abs=1e-3
        )
        assert page.extract_table(TEXT) == [list(w) for w in WORDS]


def test_the_text_strategy_is_pdfplumbers() -> None:
    _same_as_plumber(unruled(), TEXT)


def test_min_words_vertical_asks_for_more_aligned_words() -> None:
    with glyphscope.open(unruled()) as doc:
        assert doc.pages[0].find_tables({**TEXT, "min_words_vertical": 5}) == []


# ---------------------------------------------------------------- snapping


def nearly_aligned() -> bytes:
    """The 3×3 table with its inner verticals drawn row by row, 1.5 pt apart at most."""
    content = b"0.5 w "
    offsets = (0.0, 1.5, -1.0)  # per row
    for x in XS:
        for r in range(3):
            dx = offsets[r] if x in (200, 300) else 0.0
            content += _line(x + dx, YS[r], x + dx, YS[r + 1])
    for y in YS:
        content += _line(XS[0], y, XS[-1], y)
    return to_bytes(make_pdf([content + _grid_text()]))


def test_nearly_aligned_lines_snap_to_their_mean_and_join_into_one() -> None:
    mean = (0.0 + 1.5 - 1.0) / 3
    with glyphscope.open(nearly_aligned()) as doc:
        page = doc.pages[0]
        finder = page.debug_tablefinder()
        inner = [e for e in finder.edges if e.orientation == "v" and 150 < e.x0 < 350]
        # three segments each, moved to their mean x and joined top to bottom
        assert [(e.x0, e.top, e.bottom) for e in inner] == [
            pytest.approx((200 + mean, 92.0, 182.0)),
            pytest.approx((300 + mean, 92.0, 182.0)),
        ]
        table = page.find_table()
        assert table is not None and len(table.cells) == 9
        assert all(None not in row.cells for row in table.rows)
        assert table.extract() == [["A1", "B1", "C1"], ["A2", "B2", "C2"], ["A3", "B3", "C3"]]


def test_without_snapping_the_rows_do_not_line_up() -> None:
    with glyphscope.open(nearly_aligned()) as doc:
        table = doc.pages[0].find_table({"snap_x_tolerance": 0})
        assert table is not None and len(table.cells) == 9
        # the cells' left ends are at 100, and 198.5 … 301.5: seven places, each row has gaps
        assert len(table.rows[0].cells) == 7
        assert [sum(c is not None for c in row.cells) for row in table.rows] == [3, 3, 3]


def test_snapping_is_pdfplumbers() -> None:
    _same_as_plumber(nearly_aligned())
    _same_as_plumber(nearly_aligned(), {"snap_x_tolerance": 0})


# ---------------------------------------------------------------- explicit lines and settings


def test_explicit_lines_make_a_table_where_nothing_is_drawn() -> None:
    settings = {
        "vertical_strategy": "explicit",
        "horizontal_strategy": "explicit",
        "explicit_vertical_lines": [95, 210, 330, 420],
        "explicit_horizontal_lines": [80, 95.07, 107.07, 119.07, 135],
    }
    with glyphscope.open(unruled()) as doc:
        page = doc.pages[0]
        table = page.find_table(settings)
        assert table is not None
        # lines across the page: the table spans between them
        assert table.bbox == (95.0, 80.0, 420.0, 135.0)
        assert table.extract() == [list(w) for w in WORDS]


def test_explicit_lines_may_be_the_pages_own_records() -> None:
    with glyphscope.open(ruled_3x3()) as doc:
        page = doc.pages[0]
        # every drawn line given as explicit: only the vertical ones count as vertical lines
        settings = {"vertical_strategy": "explicit", "explicit_vertical_lines": list(page.lines)}
        finder = page.debug_tablefinder(settings)
        assert sorted(e.x0 for e in finder.edges if e.orientation == "v") == [100.0, 200.0, 300.0, 400.0]
        assert page.extract_table(settings) == [["A1", "B1", "C1"], ["A2", "B2", "C2"], ["A3", "B3", "C3"]]
        # two numbers: vertical lines across the page at x 100 and 400, one column of three rows
        one_column = {"vertical_strategy": "explicit", "explicit_vertical_lines": [100, 400]}
        table = page.find_table(one_column)
        assert table is not None
        assert sorted(table.cells) == [
            (100.0, 92.0, 400.0, 122.0),
            (100.0, 122.0, 400.0, 152.0),
            (100.0, 152.0, 400.0, 182.0),
        ]
        assert table.extract() == [["A1 B1 C1"], ["A2 B2 C2"], ["A3 B3 C3"]]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"vertical_strategy": "rulers"}, "vertical_strategy must be one of"),
        ({"snap_tolerance": -1}, "cannot be negative"),
        ({"no_such_setting": 1}, "unknown table setting 'no_such_setting'"),
        ({"vertical_strategy": "explicit", "explicit_vertical_lines": [10]}, "two or more"),
        ({"text_layout": True}, "unsupported text setting(s) text_layout"),
        ({"join_tolerance": "3"}, "must be a number"),
    ],
)
def test_bad_settings_say_which_one(settings: dict, message: str) -> None:
    with (
        glyphscope.open(ruled_3x3()) as doc,
        pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")),
    ):
        doc.pages[0].find_tables(settings)


def test_settings_resolve_pdfplumbers_fallbacks() -> None:
    s = TableSettings.resolve(
        {"snap_tolerance": 5, "snap_y_tolerance": 1, "text_tolerance": 2, "text_y_tolerance": 4}
    )
    assert (s.snap_x_tolerance, s.snap_y_tolerance) == (5, 1)
    assert (s.join_x_tolerance, s.intersection_y_tolerance) == (3, 3)
    assert s.text_settings == {"x_tolerance": 2, "y_tolerance": 4}


def test_a_page_without_lines_has_no_table() -> None:
    with glyphscope.open(unruled()) as doc:
        page = doc.pages[0]
        assert page.find_tables() == [] and page.find_table() is None
        assert page.extract_tables() == [] and page.extract_table() is None


# ---------------------------------------------------------------- the pure steps


def test_clusters_chain_values_within_the_tolerance() -> None:
    assert cluster_values([1, 3.5, 6, 10, 2], 2.5) == {1: 0, 2: 0, 3.5: 0, 6: 0, 10: 1}
    assert cluster_values([1, 1, 2], 0) == {1: 0, 2: 1}


def test_collinear_edges_join_within_the_tolerance() -> None:
    parts = [edge("h", 0, 5, 10, 5, "line"), edge("h", 12, 5, 20, 5, "line"), edge("h", 30, 5, 40, 5, "line")]
    joined = join_edges(parts, 3)
    assert [(e.x0, e.x1) for e in joined] == [(0, 20), (30, 40)]
    # merging snaps first: a horizontal edge 1 pt lower joins its neighbour's line
    merged = merge_edges([*parts[:2], edge("h", 19, 6, 25, 6, "line")], 3, 3, 3, 3)
    assert [(e.x0, e.x1, round(e.top, 3)) for e in merged] == [(0, 25, 5.333)]


def test_cells_need_edges_along_all_four_sides() -> None:
    edges: list[Edge] = [
        edge("v", 0, 0, 0, 20, "line"),
        edge("v", 10, 0, 10, 20, "line"),
        edge("v", 20, 0, 20, 10, "line"),  # the right column has no lower half
        edge("h", 0, 0, 20, 0, "line"),
        edge("h", 0, 10, 20, 10, "line"),
        edge("h", 0, 20, 10, 20, "line"),
    ]
    points = intersections(edges, 3, 3)
    found = cells(points)
    assert sorted(found) == [(0, 0, 10, 10), (0, 10, 10, 20), (10, 0, 20, 10)]
    assert group_cells(found) == [found]
    assert group_cells([(0, 0, 1, 1), (5, 5, 6, 6)]) == []  # single cells are no tables


def test_a_cells_text_is_written_line_by_line_and_ligatures_spelt_out() -> None:
    def char(text: str, x0: float, top: float) -> dict:
        return {"text": text, "x0": x0, "x1": x0 + 5, "top": top, "bottom": top + 10, "upright": True}

    chars = [
        char("b", 20, 0),
        char("a", 15, 0),
        char("ﬁ", 35, 1),
        char("c", 0, 14),
        char(" ", 5, 14),
        char("d", 10, 14),
    ]
    assert text_of(chars) == "ab ﬁ\nc d".replace("ﬁ", "fi")
    assert text_of(chars, expand_ligatures=False) == "ab ﬁ\nc d"
    assert text_of(chars, x_tolerance=15) == "abfi\nc d"


# ---------------------------------------------------------------- the debug image


def test_debug_tablefinder_draws_cells_edges_and_intersections() -> None:
    with glyphscope.open(ruled_3x3()) as doc:
        page = doc.pages[0]
        image = page.to_image(resolution=72).debug_tablefinder()
        plain = page.to_image(resolution=72).annotated
        drawn = image.annotated
        # inside a cell, away from its text: white tinted by the translucent blue fill
        r, g, b = drawn.getpixel((180, 170))
        assert plain.getpixel((180, 170)) == (255, 255, 255)
        assert b == 255 and r == g and 190 < r < 220  # 50/255 of blue over white
        # on the vertical line at x 200, between crossings: the red edge
        assert drawn.getpixel((200, 140)) == (255, 0, 0)
        # a crossing's circle (radius 3) around (300, 152): its rim is blue-ish
        rim = drawn.getpixel((303, 152))
        assert rim[2] > rim[0]
