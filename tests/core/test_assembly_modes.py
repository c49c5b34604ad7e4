"""Modes (spec §8, §9 Text): layout grid, columns, structure, auto; char map; determinism."""

from __future__ import annotations

import pytest

from glyphscope.core.assembly import (
    MODES,
    Baseline,
    ColumnSplit,
    GridPlacement,
    LayoutGrid,
    TextColumn,
    assemble,
)
from glyphscope.core.glyph import Glyph
from glyphscope.core.structure import PageStructure
from tests.glyph_factory import GlyphFactory

BOX = (0.0, 0.0, 612.0, 792.0)


def two_column_page() -> list[Glyph]:
    """Two columns sharing baselines, painted line by line across both (stream interleaves)."""
    f = GlyphFactory()
    for i in range(3):
        y = 700 - 14 * i
        f.run(f"left {i}", 72, y)
        f.run(f"right {i}", 320, y)
    return f.glyphs


def tree(*mcids: int) -> PageStructure:
    return PageStructure(
        has_tree=True, mcid_order=mcids, page_has_struct_parents=True, depth_capped=False, problems=()
    )


# ------------------------------------------------------------------ layout


def test_layout_places_words_on_the_grid_with_runs_of_spaces() -> None:
    f = GlyphFactory()
    f.run("ab", 0, 700)  # advance 6 pt → cell 6 pt
    f.run("cd", 60, 700)  # column 10
    text = assemble(f.glyphs, "layout", visible_box=BOX)
    assert text.text == "ab" + " " * 8 + "cd"
    grid = text.decisions_of(LayoutGrid)[0]
    assert grid.cell == pytest.approx(6.0)


def test_layout_columns_count_from_the_visible_box_left() -> None:
    f = GlyphFactory()
    f.run("x", 112, 700)
    assert assemble(f.glyphs, "layout", visible_box=(100, 0, 612, 792)).text == "  x"


def test_layout_blank_lines_from_row_pitch() -> None:
    f = GlyphFactory()
    for y in (700, 686, 672):
        f.run("line", 0, y)
    f.run("after gap", 0, 630)  # 42 pt = 3 pitches → 2 blank lines
    text = assemble(f.glyphs, "layout", visible_box=BOX)
    assert text.text == "line\nline\nline\n\n\nafter gap"
    rows = [b.row for b in text.decisions_of(Baseline)]
    assert rows == [0, 1, 2, 5]


def test_layout_pads_at_most_to_max_column_and_writes_at_most_max_blank_rows() -> None:
    from glyphscope.core.assembly.layout import MAX_BLANK_ROWS, MAX_COLUMN

    f = GlyphFactory()
    for y in (700, 686, 672):
        f.run("ab", 0, y)  # cell 6 pt, pitch 14 pt (the median distance)
    f.run("far", 9e14, 672)  # 1.5e14 cells out: a line of that many spaces without the cap
    f.run("low", 0, -1e12)  # ~7e10 pitches below
    text = assemble(f.glyphs, "layout", visible_box=BOX)
    far = [p for p in text.decisions_of(GridPlacement) if p.column > 0]
    assert [(p.column, p.cursor, p.pad) for p in far] == [(MAX_COLUMN, 2, MAX_COLUMN - 2)]
    assert far[0].position == pytest.approx(9e14)  # the record keeps where the word really is
    assert text.decisions_of(Baseline)[-1].blank_lines == MAX_BLANK_ROWS
    assert text.text == "ab\nab\nab" + " " * (MAX_COLUMN - 2) + "far" + "\n" * (MAX_BLANK_ROWS + 1) + "low"


def test_layout_single_line_uses_the_fallback_pitch() -> None:
    f = GlyphFactory()
    f.run("only", 0, 700)
    grid = assemble(f.glyphs, "layout", visible_box=BOX).decisions_of(LayoutGrid)[0]
    assert grid.pitch_source == "fallback" and grid.pitch == pytest.approx(14.4)


def test_layout_keeps_close_words_apart_and_letters_together() -> None:
    f = GlyphFactory()
    end = f.run("PDF", 0, 700, advance=9.0)  # wider than the mean advance: still one word
    f.run("Reference", end + 2.0, 700, advance=5.0)
    text = assemble(f.glyphs, "layout", visible_box=BOX).text
    assert text is not None and text.split() == ["PDF", "Reference"]


def test_layout_of_a_rotated_page_clusters_in_the_dominant_direction() -> None:
    f = GlyphFactory()
    f.run("first line", 100, 100, angle=90.0)
    f.run("second line", 114, 100, angle=90.0)  # next line of upward text lies to the right
    text = assemble(f.glyphs, "layout", visible_box=BOX).text
    assert text is not None
    assert [line.strip() for line in text.split("\n")] == ["first line", "second line"]


# ------------------------------------------------------------------ columns


def test_plain_interleaves_and_columns_separates() -> None:
    glyphs = two_column_page()
    assert assemble(glyphs, "plain", visible_box=BOX).text == "left 0 right 0\nleft 1 right 1\nleft 2 right 2"
    text = assemble(glyphs, "columns", visible_box=BOX)
    assert text.text == "left 0\nleft 1\nleft 2\n\nright 0\nright 1\nright 2"
    assert len(text.decisions_of(ColumnSplit)) == 3
    assert [c.segments for c in text.decisions_of(TextColumn)] == [3, 3]


def test_columns_full_width_heading_goes_first() -> None:
    f = GlyphFactory()
    f.run("A heading that spans the whole page width here", 72, 740)
    for i in range(2):
        f.run(f"left {i}", 72, 700 - 14 * i)
        f.run(f"right {i}", 320, 700 - 14 * i)
    text = assemble(f.glyphs, "columns", visible_box=BOX).text
    assert text is not None
    assert text.startswith("A heading that spans the whole page width here\nleft 0\nleft 1\n\nright 0")


# ---------------------------------------------------------------- structure


def test_structure_order_differs_from_stream_order() -> None:
    f = GlyphFactory()
    f.run("second", 72, 680, mcid=1)
    f.run("first", 72, 700, mcid=0)
    glyphs = f.glyphs
    assert assemble(glyphs, "plain", visible_box=BOX).text == "second\nfirst"
    text = assemble(glyphs, "structure", visible_box=BOX, structure=tree(0, 1))
    assert text.text == "first\nsecond"
    assert text.untagged == 0


def test_structure_buckets_joined_by_word_gap_rule_on_one_line() -> None:
    f = GlyphFactory()
    end = f.run("Hello", 72, 700, mcid=3)
    f.run("world", 72 + end + 3.0, 700, mcid=4)
    text = assemble(f.glyphs, "structure", visible_box=BOX, structure=tree(3, 4))
    assert text.text == "Hello world"


def test_partial_tagging_counts_untagged_and_appends_them_geometrically() -> None:
    f = GlyphFactory()
    f.run("footer", 72, 50)  # no MCID, painted first
    f.run("body", 72, 700, mcid=0)
    f.run("artifact", 72, 760, mcid=9)  # MCID the tree never references
    text = assemble(f.glyphs, "structure", visible_box=BOX, structure=tree(0))
    assert text.text == "body\nartifact\nfooter"
    assert text.untagged == len("footer") + len("artifact")


def test_no_usable_structure() -> None:
    f = GlyphFactory()
    f.run("text", 72, 700, mcid=5)
    for structure, words in (
        (None, "StructTreeRoot"),
        (PageStructure(False, (), False, False, ()), "StructTreeRoot"),
        (tree(), "references no marked content"),
        (tree(1, 2), "no visible glyph"),
    ):
        text = assemble(f.glyphs, "structure", visible_box=BOX, structure=structure)
        assert text.text is None and text.reason is not None and words in text.reason
        auto = assemble(f.glyphs, "auto", visible_box=BOX, structure=structure)
        assert auto.text == "text" and auto.structured is False and auto.reason == text.reason


def test_auto_uses_structure_only_when_at_most_a_quarter_is_untagged() -> None:
    f = GlyphFactory()
    f.run("bbb", 72, 680, mcid=1)
    f.run("aaa", 72, 700, mcid=0)
    f.run("u", 72, 600)  # 1 × 4 ≤ 7
    auto = assemble(f.glyphs, "auto", visible_box=BOX, structure=tree(0, 1))
    assert auto.structured is True and auto.text == "aaa\nbbb\nu" and auto.untagged == 1
    f.run("vv", 72, 580)  # 3 × 4 > 9
    auto = assemble(f.glyphs, "auto", visible_box=BOX, structure=tree(0, 1))
    assert auto.structured is False and auto.text == "bbb\naaa\nu\nvv" and auto.untagged == 3
    assert auto.reason is not None and "untagged" in auto.reason


# ------------------------------------------------------- char map & general


@pytest.mark.parametrize("mode", MODES)
def test_char_map_round_trips(mode: str) -> None:
    f = GlyphFactory()
    f.run("left", 72, 700, mcid=0)
    f.glyph("ﬃ", 120, 700, mcid=0)  # a ligature glyph: one glyph, one char
    g = f.glyphs[-1]
    f.glyphs[-1] = g._replace(unicode="ffi")
    f.run("right", 320, 700)
    f.run("below", 72, 600, mcid=1)
    f.glyph("?", 200, 600, unresolved=True)
    glyphs = f.glyphs
    text = assemble(glyphs, mode, visible_box=BOX, structure=tree(0, 1))
    assert text.text is not None
    cmap = text.char_map
    assert len(cmap) == len(text.text)
    by_index = {g.paint_index: g for g in glyphs}
    for i, ch in enumerate(text.text):
        p = cmap.glyph[i]
        if p >= 0:
            assert ch in (by_index[p].unicode or " ")
            assert i in text.chars_of_glyph(p)
            assert cmap.decision[i] == -1
        else:
            d = text.decision_of_char(i)
            assert d is not None and ch in " \n"
    for g in glyphs:
        chars = text.chars_of_glyph(g.paint_index)
        assert "".join(text.text[i] for i in chars) == (g.unicode or " ")
    ffi = text.chars_of_glyph(4)
    assert len(ffi) == 3


@pytest.mark.parametrize("mode", MODES)
def test_empty_page(mode: str) -> None:
    text = assemble([], mode, visible_box=BOX, structure=tree(0))
    assert text.text == ("" if mode != "structure" else None)


@pytest.mark.parametrize("mode", MODES)
def test_deterministic(mode: str) -> None:
    glyphs = two_column_page()
    a = assemble(glyphs, mode, visible_box=BOX, structure=tree(0))
    b = assemble(list(glyphs), mode, visible_box=BOX, structure=tree(0))
    assert a.text == b.text
    assert a.char_map.glyph == b.char_map.glyph and a.char_map.decision == b.char_map.decision
    assert [d.to_json() for d in a.decisions] == [d.to_json() for d in b.decisions]


def test_unknown_mode() -> None:
    with pytest.raises(ValueError, match="unknown text mode"):
        assemble([], "fancy", visible_box=BOX)
