"""Word spaces (spec §3), line breaks (§4), vertical writing and the §9 conventions, on synthetic glyphs."""

from __future__ import annotations

import json

import pytest

from glyphscope.core.assembly import LineBreakDecision, PageText, WordGapDecision, assemble
from glyphscope.core.assembly.chars import is_cjk, text_info
from glyphscope.core.assembly.lines import BACKWARD_JUMP
from glyphscope.core.glyph import Glyph, is_space_like
from glyphscope.core.params import Parameters
from tests.glyph_factory import GlyphFactory, make_glyph

BOX = (0.0, 0.0, 612.0, 792.0)


def plain(glyphs: list[Glyph], params: Parameters | None = None) -> PageText:
    return assemble(glyphs, "plain", params or Parameters(), visible_box=BOX)


def test_tj_offset_gap_gives_a_space() -> None:
    f = GlyphFactory()
    end = f.run("PDF", 72, 700)
    f.run("Reference", 72 + end + 3.0, 700)  # TJ offset of 3 pt > 0.15 × 12 = 1.8
    assert plain(f.glyphs).text == "PDF Reference"


def test_small_gap_is_glued() -> None:
    f = GlyphFactory()
    end = f.run("PDF", 72, 700)
    f.run("Reference", 72 + end + 1.5, 700)  # kerning-sized gap below 1.8
    assert plain(f.glyphs).text == "PDFReference"


def test_negative_tc_given_back_by_tj_keeps_95hou_unspaced() -> None:
    # Tc = −3 tightens the pen (pen_end 3 pt before glyph_end); TJ gives the 3 pt back, so the next
    # origin is exactly at glyph_end. Measured from pen_end the gap would be 3 pt > 1.8 pt.
    f = GlyphFactory()
    f.run("95后", 72, 700, pen_extra=-3.0, extra_gap=3.0)
    text = plain(f.glyphs)
    assert text.text == "95后"
    gaps = text.decisions_of(WordGapDecision)
    assert [d.verdict for d in gaps] == ["below_threshold", "below_threshold"]
    assert all(abs(d.gap) < 1e-9 for d in gaps)


def test_threshold_uses_box_height_not_tf_operand() -> None:
    def build(font_size: float) -> str | None:
        f = GlyphFactory()
        end = f.run("Word", 72, 700, font_size=font_size)
        f.run("Sized", 72 + end + 1.0, 700, font_size=font_size)  # 1 pt: < 1.8 but > 0.15 × 1
        end2 = f.run("next", 72, 680, font_size=font_size)
        f.run("word", 72 + end2 + 2.5, 680, font_size=font_size)
        return plain(f.glyphs).text

    assert build(1.0) == build(12.0) == "WordSized\nnext word"


def test_superscript_by_rise_stays_on_its_line() -> None:
    f = GlyphFactory()
    end = f.run("E = mc", 72, 700)
    f.glyph("2", 72 + end, 704.0, height=8.0, rise=4.0)
    f.run(" is the mass-energy equivalence.", 72 + end + 4.0, 700)
    assert plain(f.glyphs).text == "E = mc2 is the mass-energy equivalence."


def test_rotated_runs_are_one_line_each() -> None:
    f = GlyphFactory()
    f.run("Diagonal", 100, 100, angle=45.0)
    f.run("Upwards", 400, 100, angle=90.0)
    text = plain(f.glyphs)
    assert text.text == "Diagonal\nUpwards"
    breaks = [d for d in text.decisions_of(LineBreakDecision) if d.is_break]
    assert len(breaks) == 1


def test_big_word_and_tiny_caption_on_one_baseline_are_one_line() -> None:
    f = GlyphFactory()
    end = f.run("BIG", 72, 700, height=40.0)
    f.run("caption", 72 + end + 10.0, 696.0, height=6.0)  # 4 pt lower: > 0.5 × 6, < 0.5 × 40
    assert plain(f.glyphs).text == "BIG caption"


def test_line_break_is_exactly_one_newline_and_no_trailing_newline() -> None:
    f = GlyphFactory()
    f.run("one", 72, 700)
    f.run("two", 72, 600)  # far below: still exactly one "\n" in plain mode
    f.glyph(" ", 72, 500)
    text = plain(f.glyphs)
    assert text.text == "one\ntwo\n "
    f2 = GlyphFactory()
    f2.run("alone", 72, 700)
    assert not plain(f2.glyphs).text.endswith("\n")


def test_big_backward_jump_on_the_same_baseline_is_a_line_break() -> None:
    f = GlyphFactory()
    f.run("right cell", 300, 700)
    f.run("left cell", 72, 700)
    text = plain(f.glyphs)
    assert text.text == "right cell\nleft cell"
    jumps = [d for d in text.decisions_of(LineBreakDecision) if d.verdict == "backward_jump"]
    assert len(jumps) == 1 and jumps[0].gap < -BACKWARD_JUMP * 12.0
    assert "jump back" in jumps[0].describe()


def test_small_negative_gap_is_glued() -> None:
    f = GlyphFactory()
    end = f.run("ab", 72, 700)
    f.run("cd", 72 + end - 2.0, 700)
    text = plain(f.glyphs)
    assert text.text == "abcd"
    assert [d.verdict for d in text.decisions_of(WordGapDecision)][1] == "negative_gap"


def test_unresolved_glyph_is_one_space_and_counts_as_a_space() -> None:
    f = GlyphFactory()
    f.glyph("a", 72, 700)
    f.glyph("?", 82, 700, unresolved=True)  # gaps on both sides
    f.glyph("b", 92, 700)
    text = plain(f.glyphs)
    assert text.text == "a b"
    assert [d.verdict for d in text.decisions_of(WordGapDecision)] == ["existing_space", "existing_space"]


def test_no_space_next_to_an_existing_space() -> None:
    f = GlyphFactory()
    f.glyph("a", 72, 700)
    f.glyph(" ", 90, 700)
    f.glyph("b", 110, 700)
    assert plain(f.glyphs).text == "a b"


def test_cjk_pair_gets_no_space_but_cjk_latin_pair_does() -> None:
    f = GlyphFactory()
    f.glyph("日", 72, 700)
    f.glyph("本", 90, 700)  # 12 pt advance? no: 6 pt advance, 12 pt gap
    f.glyph("A", 110, 700)
    f.glyph("語", 130, 700)
    text = plain(f.glyphs)
    assert text.text == "日本 A 語"
    assert [d.verdict for d in text.decisions_of(WordGapDecision)] == ["cjk_pair", "inserted", "inserted"]


def test_cjk_definition() -> None:
    for ch in "日本語テストㄅ、（ｶ\u3000":
        assert is_cjk(ch), ch
    for ch in "Aé9—Ω한글ㄱ":  # spec §9: Hangul takes the ordinary §3 rule
        assert not is_cjk(ch), ch


def test_vertical_columns_right_to_left_top_to_bottom() -> None:
    f = GlyphFactory()
    f.vertical("語テ", 180, 700)  # left column painted first
    f.vertical("日本", 200, 700)
    f.vertical("ス", 200, 670)  # further down the right column, after a gap: no space
    text = plain(f.glyphs)
    assert text.text == "日本ス\n語テ"
    # the CJK rule along the column: a 6 pt gap is under a full ideograph (cjk_gap 1.0 × 12 pt)
    gaps = [(d.before, d.after, d.verdict, d.gap, d.threshold) for d in text.decisions_of(WordGapDecision)]
    assert gaps == [
        (2, 3, "cjk_pair", 0.0, 12.0),
        (3, 4, "cjk_pair", 6.0, 12.0),
        (0, 1, "cjk_pair", 0.0, 12.0),
    ]


def test_word_gaps_along_a_vertical_column_follow_the_section_3_rule() -> None:
    # letters 40 pt apart down one column: the gap from one glyph's end to the next origin, in
    # the writing direction (28 pt), against word_gap × the glyph size (0.15 × 12 = 1.8 pt)
    f = GlyphFactory()
    for i, ch in enumerate("ABCDE"):
        f.vertical(ch, 200, 700 - 40 * i)
    f.vertical("FG", 200, 500)  # touching: 0 pt, no space
    text = plain(f.glyphs)
    assert text.text == "A B C D E FG"
    gaps = [(d.verdict, d.gap, d.threshold) for d in text.decisions_of(WordGapDecision)]
    assert gaps[:4] == [("inserted", 28.0, pytest.approx(1.8))] * 4
    assert gaps[4] == ("inserted", 28.0, pytest.approx(1.8)) and gaps[5] == (
        "below_threshold",
        0.0,
        pytest.approx(1.8),
    )


def test_vertical_font_placed_along_horizontal_lines_reads_as_lines() -> None:
    f = GlyphFactory()
    for row, word in enumerate(("South", "Carolina")):
        for i, ch in enumerate(word):
            f.vertical(ch, 100 + 6 * row + 12 * i, 700 - 20 * row)  # one glyph per "column"
    assert plain(f.glyphs).text == "South\nCarolina"


def test_vertical_run_inside_horizontal_text() -> None:
    f = GlyphFactory()
    f.run("Title", 72, 750)
    f.vertical("縦書", 300, 700)
    f.run("After", 72, 500)
    assert plain(f.glyphs).text == "Title\n縦書\nAfter"


def test_every_pair_has_a_line_decision_and_same_line_pairs_a_word_decision() -> None:
    f = GlyphFactory()
    f.run("ab cd", 72, 700)
    f.run("ef", 72, 680)
    text = plain(f.glyphs)
    lines = text.decisions_of(LineBreakDecision)
    words = text.decisions_of(WordGapDecision)
    assert [(d.before, d.after) for d in lines] == [(i, i + 1) for i in range(len(f.glyphs) - 1)]
    assert [(d.before, d.after) for d in words] == [(d.before, d.after) for d in lines if not d.is_break]


def test_describe_gives_the_numbers() -> None:
    f = GlyphFactory()
    end = f.run("PDF", 72, 700, height=11.2)
    f.run("Reference", 72 + end + 2.31, 700, height=11.2)
    text = plain(f.glyphs)
    inserted = [d for d in text.decisions_of(WordGapDecision) if d.inserted]
    assert inserted[0].describe() == "space inserted: gap 2.31 pt > 0.15 × 11.20 pt = 1.68 pt"
    assert text.decisions_of(LineBreakDecision)[0].describe().startswith("same line: displacement 0.00 pt")


def test_parameters_change_the_decisions() -> None:
    f = GlyphFactory()
    end = f.run("PDF", 72, 700)
    f.run("Reference", 72 + end + 1.5, 700)
    assert plain(f.glyphs, Parameters(word_gap=0.1)).text == "PDF Reference"
    assert plain(f.glyphs, Parameters(word_gap=0.15)).text == "PDFReference"


def test_decisions_serialise_to_json_in_every_mode() -> None:
    from tests.core.test_assembly_modes import two_column_page

    glyphs = two_column_page()
    for mode in ("plain", "layout", "columns"):
        text = assemble(glyphs, mode, visible_box=BOX)
        for d in text.decisions:
            json.dumps(d.to_json())
            assert d.describe()
        json.dumps(text.to_json(char_map=True))


@pytest.mark.parametrize(
    ("text", "space_like"),
    [
        ("", True),  # unresolved: "already a space" (spec §9)
        ("\x00", True),
        ("\x1f", True),
        (" ", True),  # U+0020 itself: code points ≤ U+0020 (spec §7)
        ("!", False),  # U+0021, the first above it
        ("\u00a0", True),
        ("\u3000", True),
        ("\u2009", True),  # other Unicode whitespace
        ("\x7f", False),
        ("a", False),
        ("  ", True),
        ("a ", False),
    ],
)
def test_space_like_is_one_rule_at_the_u0020_boundary(text, space_like):
    glyph = make_glyph(0, text, 0.0, 0.0, unresolved=not text)
    assert is_space_like(text) is space_like
    assert glyph.is_space is space_like
    if len(text) <= 1:  # the word-gap rule reads the first and last character of a glyph's text
        assert text_info(glyph).first_space is text_info(glyph).last_space is space_like
