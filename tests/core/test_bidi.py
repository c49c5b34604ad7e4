"""Right-to-left lines in logical order (core/assembly/bidi.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES
from glyphscope.core.assembly.bidi import RTL_SHARE, BidiDecision, embedding_levels, l2_order
from glyphscope.core.assembly.decisions import WordGapDecision
from glyphscope.core.decision_set import DECISION_RECORDS
from glyphscope.core.document import open_document
from glyphscope.core.params import DEFAULT_PARAMETERS, SWITCHES, Parameters
from tests.gui_helpers import open_file
from tests.pdfbuild import identity_h_font, make_pdf, pdf_document, to_bytes

# CIDs are Unicode code points (Identity-H); the ToUnicode maps ASCII, Hebrew and Arabic to
# themselves and one code to the two letters lam-alef, as fonts map their lam-alef ligature.
_TOUNICODE = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"/CMapName /Bidi-UCS def /CMapType 2 def\n"
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"2 beginbfrange <0020> <007E> <0020> <0590> <06FF> <0590> endbfrange\n"
    b"1 beginbfchar <FEFB> <06440627> endbfchar\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)

# Logical text and the order a producer paints it (visual, left to right on the page).
HEBREW = "שלום 123 עולם"
HEBREW_PAINTED = "םלוע 123 םולש"
ARABIC = "عدد 25 كتابا في 2024"
ARABIC_PAINTED = "2024 يف اباتك 25 ددع"
MIXED = "גרסה 3.11 של Python עובדת"
MIXED_PAINTED = "תדבוע Python לש 3.11 הסרג"
LATIN = "Hello שלום world"  # mostly left to right: the Hebrew word stays as painted
LATIN_PAINTED = "Hello םולש world"


def _hex(s: str) -> bytes:
    return b"<" + "".join(f"{ord(c):04X}" for c in s).encode() + b">"


def _content(*painted: str | bytes) -> bytes:
    body = b"BT /F1 12 Tf 72 700 Td 16 TL "
    for line in painted:
        body += (line if isinstance(line, bytes) else _hex(line) + b" Tj") + b" T* "
    return body + b"ET"


def _pdf(content: bytes) -> pikepdf.Pdf:
    return make_pdf([content], {"/F1": lambda pdf: identity_h_font(pdf, tounicode=_TOUNICODE)})


def _page(content: bytes, params: Parameters = DEFAULT_PARAMETERS) -> Any:
    return analyze_page(open_document(to_bytes(_pdf(content))), 1, params)


LINES = _content(HEBREW_PAINTED, ARABIC_PAINTED, MIXED_PAINTED, LATIN_PAINTED)


def test_the_switch_and_the_threshold() -> None:
    from bidi import get_display

    assert RTL_SHARE == 0.5
    # the painted strings are what a right-to-left display of the logical text shows
    for logical, painted in ((HEBREW, HEBREW_PAINTED), (ARABIC, ARABIC_PAINTED), (MIXED, MIXED_PAINTED)):
        assert get_display(logical, base_dir="R") == painted
    assert "visual_order" in SWITCHES and DEFAULT_PARAMETERS.visual_order is False
    assert BidiDecision in DECISION_RECORDS


def test_right_to_left_lines_are_written_in_logical_order_in_every_mode() -> None:
    page = _page(LINES)
    expected = [HEBREW, ARABIC, MIXED, LATIN_PAINTED]
    for mode in MODES:
        if mode == "structure":  # no structure tree: structure mode has no text
            continue
        lines = (page.texts[mode].text or "").split("\n")
        assert [line.strip() for line in lines] == expected, mode
    # glyph records keep paint order
    assert "".join(g.unicode for g in page.page.glyphs) == (
        HEBREW_PAINTED + ARABIC_PAINTED + MIXED_PAINTED + LATIN_PAINTED
    )
    assert [g.paint_index for g in page.classified.visible] == sorted(
        g.paint_index for g in page.classified.visible
    )


def test_visual_order_keeps_the_painted_order() -> None:
    page = _page(LINES, Parameters(visual_order=True))
    painted = [HEBREW_PAINTED, ARABIC_PAINTED, MIXED_PAINTED, LATIN_PAINTED]
    for mode in ("plain", "columns", "auto"):
        assert (page.texts[mode].text or "").split("\n") == painted, mode
    assert not page.texts["plain"].decisions_of(BidiDecision)


def test_a_decision_per_line_with_right_to_left_characters() -> None:
    page = _page(LINES)
    text = page.texts["plain"]
    records = text.decisions_of(BidiDecision)
    assert [(d.line, d.verdict, d.rtl, d.strong) for d in records] == [
        (0, "reordered", 8, 8),
        (1, "reordered", 10, 10),
        (2, "reordered", 11, 17),
        (3, "visual", 4, 14),
    ]
    hebrew, arabic, mixed, latin = records
    assert hebrew.value == 1.0 and hebrew.threshold == 0.5
    assert mixed.value == pytest.approx(11 / 17) and latin.value == pytest.approx(4 / 14)
    # the record's glyph is the one written first: the line's last painted glyph
    assert hebrew.glyph == len(HEBREW_PAINTED) - 1
    assert (hebrew.start, hebrew.length) == (0, len(HEBREW))
    assert (arabic.start, arabic.length) == (len(HEBREW) + 1, len(ARABIC))
    assert hebrew.to_json() == {
        "kind": "bidi",
        "glyph": len(HEBREW_PAINTED) - 1,
        "verdict": "reordered",
        "value": 1.0,
        "threshold": 0.5,
        "line": 0,
        "start": 0,
        "length": 13,
        "rtl": 8,
        "strong": 8,
        "share": 1.0,
        "rtl_ends": True,
        "steps": 6,  # successive Hebrew glyphs (within its two words), all stepping rightwards
        "steps_back": 0,
    }
    assert mixed.describe() == (
        "line 3 written in logical order: 11 of its 17 strong characters are right to left "
        "(share 0.65 > 0.50); Unicode bidirectional algorithm, numbers and Latin runs kept left to right"
    )
    assert latin.describe() == (
        "line 4 kept in visual order: 4 of its 14 strong characters are right to left (share 0.29 ≤ 0.50)"
    )
    assert [d for d in page.decisions("plain") if d.kind == "bidi"] == records


def test_the_character_map_stays_exact_both_ways() -> None:
    page = _page(LINES)
    glyphs = {g.paint_index: g for g in page.classified.visible}
    for mode in MODES:
        text = page.texts[mode]
        if text.text is None:
            continue
        for i, ch in enumerate(text.text):
            p = text.glyph_of_char(i)
            if p >= 0:
                assert glyphs[p].unicode == ch and i in text.chars_of_glyph(p), (mode, i)
        for p, g in glyphs.items():
            chars = text.chars_of_glyph(p)
            assert [text.text[i] for i in chars] == [g.unicode], (mode, p)


def test_clicking_every_character_of_the_arabic_line_gives_its_glyph() -> None:
    page = _page(LINES)
    text = page.texts["plain"]
    assert text.text is not None
    start = text.text.index(ARABIC)
    first = len(HEBREW_PAINTED)  # paint index of the Arabic line's first (leftmost) glyph
    n = len(ARABIC)
    for i, ch in enumerate(ARABIC):
        p = text.glyph_of_char(start + i)
        # paint order is visual: the logical character i was painted at ARABIC_PAINTED's mirror
        # position, except inside the numbers, which read left to right in both
        assert page.page.glyphs[p].unicode == ch
        assert list(text.chars_of_glyph(p)) == [start + i]
        assert first <= p < first + n
    assert [text.glyph_of_char(start + i) - first for i in range(4)] == [19, 18, 17, 16]  # عدد and a space
    assert [text.glyph_of_char(start + i) - first for i in (4, 5)] == [14, 15]  # 25 stays left to right


def test_generated_spaces_move_with_their_decisions() -> None:
    # words positioned by TJ, no space glyphs: the spaces are generated by word-gap decisions
    words = [w[::-1] for w in ["שלום", "עולם", "גדול"]][::-1]  # painted left to right
    tj = b"[" + b" -400 ".join(_hex(w) for w in words) + b"] TJ"
    page = _page(_content(tj))
    text = page.texts["plain"]
    assert text.text == "שלום עולם גדול"
    for i in (4, 9):
        d = text.decision_of_char(i)
        assert isinstance(d, WordGapDecision) and d.inserted and text.glyph_of_char(i) == -1
    assert page.texts["layout"].text is not None and page.texts["layout"].text.strip() == "שלום עולם גדול"


def test_a_glyph_with_two_letters_keeps_them_in_order() -> None:
    # one glyph (lam-alef) for the two letters "لا": reversing the line must not reverse them
    page = _page(_content("\ufefb" + "ب"[::-1] + " " + "سلام"[::-1]))
    text = page.texts["plain"]
    assert text.text == "سلام بلا"
    ligature = next(g for g in page.classified.visible if g.unicode == "لا")
    assert [text.text[i] for i in text.chars_of_glyph(ligature.paint_index)] == ["ل", "ا"]
    assert list(text.chars_of_glyph(ligature.paint_index)) == [6, 7]


def test_levels_and_rule_l2() -> None:
    # the painted Hebrew line: letters at level 1, the number at level 2 (read left to right)
    assert embedding_levels(HEBREW_PAINTED) == [1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1]
    order = l2_order([1, 1, 2, 2, 1])
    assert order == [4, 2, 3, 1, 0]
    assert l2_order([]) == [] and l2_order([0, 0]) == [0, 1]


def test_cli_visual_order_and_no_tracking() -> None:
    from glyphscope.inspector.cli.parser import build_parser
    from glyphscope.inspector.cli.shared import parameters

    params = parameters(build_parser().parse_args(["text", "x.pdf", "--visual-order", "--no-tracking"]))
    assert params.visual_order is True and params.tracking is False
    defaults = parameters(build_parser().parse_args(["text", "x.pdf"]))
    assert defaults.visual_order is False and defaults.tracking is True


def test_selecting_each_character_of_the_arabic_line_selects_its_glyph(qtbot, window, tmp_path: Path) -> None:
    path = tmp_path / "rtl.pdf"
    path.write_bytes(to_bytes(_pdf(LINES)))
    open_file(qtbot, window, path)
    panel = window.text_panels["plain"]
    text = window.bundle.analysis.texts["plain"]
    start = text.text.index(ARABIC)
    for i in range(len(ARABIC)):
        panel.select_chars(start + i, start + i + 1)
        assert window.session.selection == frozenset({text.glyph_of_char(start + i)}), i
        assert panel.selected_text() == ARABIC[i]
    # and back: selecting a glyph highlights its one character in logical order
    p = text.glyph_of_char(start)
    window.session.select([p], "test")
    assert window.text_panels["plain"].highlighted_chars() == [start]


def test_a_lone_surrogate_does_not_stop_the_line() -> None:
    """A broken ToUnicode's lone surrogate (bidi class L, as Python's unicodedata gives it) is
    one more left-to-right character: the line is still turned to logical order."""
    from glyphscope.core.assembly import assemble
    from tests.glyph_factory import make_glyph

    painted = "םולש\ud800"
    glyphs = [make_glyph(i, ch, 72 + 6 * i, 700) for i, ch in enumerate(painted)]
    text = assemble(glyphs, "plain", visible_box=(0, 0, 612, 792))
    assert text.text == "\ud800שלום"
    (d,) = text.decisions_of(BidiDecision)
    assert (d.verdict, d.value, d.threshold, d.glyph) == ("reordered", 0.8, 0.5, 4)


def test_a_replacement_span_in_a_right_to_left_line_moves_whole() -> None:
    # the producer says the three painted digits read "456": the span is one cluster
    content = (
        b"BT /F1 12 Tf 72 700 Td "
        + _hex("םלוע ")
        + b" Tj /Span <</ActualText (456)>> BDC "
        + _hex("123")
        + b" Tj EMC "
        + _hex(" םולש")
        + b" Tj ET"
    )
    page = _page(content)
    text = page.texts["plain"]
    assert text.text == "שלום 456 עולם"
    digits = [g.paint_index for g in page.classified.visible if g.unicode in "123"]
    assert len(digits) == 3
    for p in digits:  # every glyph of the span selects the span's text, in logical order
        assert list(text.chars_of_glyph(p)) == [5, 6, 7]
    assert {text.glyph_of_char(i) for i in (5, 6, 7)} == {digits[0]}
    assert page.texts["plain"].decisions_of(BidiDecision)[0].verdict == "reordered"


def test_the_levels_come_from_python_bidis_public_steps() -> None:
    """bidi.algorithm's public steps (explicit, weak, neutral, implicit) give the resolved
    levels; the Rust binding's get_display, reordering by them, gives the same painted strings."""
    import bidi.algorithm

    storage = bidi.algorithm.get_empty_storage()
    storage["base_level"] = 1
    bidi.algorithm.get_embedding_levels(HEBREW_PAINTED, storage)
    assert {c["level"] for c in storage["chars"]} == {1}  # the first step alone resolves nothing
    assert embedding_levels(HEBREW_PAINTED) == [1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1]
    from bidi import get_display

    for logical in (HEBREW, ARABIC, MIXED, "عدد (25) كتابا", "גרסה (Python 3.11) עובדת", "قال habibi لي"):
        painted = get_display(logical, base_dir="R")
        levels = embedding_levels(painted)
        assert levels is not None and "".join(painted[i] for i in l2_order(levels)) == logical


@pytest.mark.parametrize("broken", ["missing", "raises", "short"])
def test_a_python_bidi_without_the_steps_is_no_levels_not_a_misreading(
    monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    import bidi.algorithm

    if broken == "missing":
        monkeypatch.delattr(bidi.algorithm, "resolve_implicit_levels")
    elif broken == "raises":
        monkeypatch.setattr(bidi.algorithm, "resolve_weak_types", lambda storage: 1 / 0)
    else:
        monkeypatch.setattr(bidi.algorithm, "resolve_implicit_levels", lambda s, d: s["chars"].pop())
    assert embedding_levels(HEBREW_PAINTED) is None
    page = _page(_content(HEBREW_PAINTED))
    (d,) = page.texts["plain"].decisions_of(BidiDecision)
    assert d.verdict == "no_levels" and page.texts["plain"].text == HEBREW_PAINTED


def test_a_latin_word_inside_a_right_to_left_line_stays_whole_in_logical_order() -> None:
    """`قال habibi لي`: 5 of its 11 strong characters are right to left (share ≤ 0.5), but Arabic
    begins and ends it: a Latin word inside a right-to-left line, turned to logical order with the
    word whole. `مرحبا habibi` (a Latin end) keeps the share rule; an English line with a Hebrew
    word inside stays as painted."""
    from bidi import get_display

    inside, at_end = "قال habibi لي", "مرحبا habibi"
    page = _page(
        _content(get_display(inside, base_dir="R"), get_display(at_end, base_dir="R"), LATIN_PAINTED)
    )
    for mode in ("plain", "layout"):
        assert [line.strip() for line in page.texts[mode].text.strip().split("\n")] == [
            inside,
            get_display(at_end, base_dir="R"),
            LATIN_PAINTED,
        ]
    first, second, third = page.texts["plain"].decisions_of(BidiDecision)
    assert (first.rtl, first.strong, first.rtl_ends, first.verdict) == (5, 11, True, "reordered")
    assert first.value == 5 / 11 and first.threshold == RTL_SHARE
    assert "first and last strong characters are right to left" in first.describe()
    assert (second.rtl, second.strong, second.rtl_ends, second.verdict) == (5, 11, False, "visual")
    assert (third.rtl_ends, third.verdict) == (False, "visual")


def _painted_in_reading_order(logical: str) -> bytes:
    """Each character shown on its own at its visual place, in logical (reading) order, as some
    producers paint right-to-left text: the Hebrew glyphs step leftwards."""
    from bidi import get_display

    painted = get_display(logical, base_dir="R")
    order = l2_order(embedding_levels(logical) or [])  # visual position k shows logical character order[k]
    assert "".join(logical[i] for i in order) == painted
    place = {i: k for k, i in enumerate(order)}
    ops = [b"BT /F1 12 Tf"]
    for i, ch in enumerate(logical):
        ops.append(f"1 0 0 1 {72 + 12 * place[i]} 700 Tm ".encode() + _hex(ch) + b" Tj")
    return b"\n".join([*ops, b"ET"])


def test_a_line_painted_in_reading_order_is_kept_as_it_reads() -> None:
    """Glyphs painted in logical order stand right to left: plain mode's text already reads
    right, and reversing it would garble it; layout mode (sorted by position) reads them
    visually and is reordered. (A number inside such a line makes plain mode's backward-jump
    rule break the line: left as it is.)"""
    words = "שלום עולם טוב"
    page = _page(_painted_in_reading_order(words))
    plain = page.texts["plain"]
    assert plain.text == words
    (d,) = plain.decisions_of(BidiDecision)
    assert (d.verdict, d.steps, d.steps_back) == ("painted_logical", 8, 8)
    assert "8 of the 8 steps between its right-to-left glyphs go right to left" in d.describe()
    layout = page.texts["layout"]
    assert layout.text.strip() == words
    (d,) = layout.decisions_of(BidiDecision)
    assert (d.verdict, d.steps, d.steps_back) == ("reordered", 8, 0)


# ------------------------------------------------------------------ Arabic: word gaps, backward jumps, ActualText

_ARABIC_TOUNICODE = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Ar def /CMapType 2 def\n"
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"3 beginbfrange <0020> <00FF> <0020> <0600> <06FF> <0600> <FE70> <FEFF> <FE70> endbfrange\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)


_MARHABA = "\ufee3\u0631\ufea3\ufe91\ufe8e"  # ﻣرﺣﺑﺎ, presentation forms, logical order


_BILALAM = "\ufe91\ufe8e\ufedf\ufecc\ufe8e\ufedf\u0645"  # ﺑﺎﻟﻌﺎﻟم


def _hex_text(text: str) -> str:
    return "<" + "".join(f"{ord(c):04X}" for c in text) + ">"


def _arabic_page(content: str) -> Any:
    from tests.pdfbuild import identity_h_font

    pdf = make_pdf([content.encode()], {"/F1": lambda p: identity_h_font(p, tounicode=_ARABIC_TOUNICODE)})
    return analyze_page(pdf_document(pdf), 1)


def test_presentation_form_arabic_painted_leftwards_keeps_its_word_gap() -> None:
    from glyphscope.core.assembly.decisions import WordGapDecision

    # reading order, glyph by glyph leftwards (each 10 pt wide), 4 pt between the words, no space glyph
    parts, x = [], 400
    for word in (_MARHABA, _BILALAM):
        for ch in word:
            x -= 10
            parts.append(f"1 0 0 1 {x} 700 Tm {_hex_text(ch)} Tj")
        x -= 4
    plain = _arabic_page("BT /F1 10 Tf " + " ".join(parts) + " ET").texts["plain"]
    assert plain.text == f"{_MARHABA} {_BILALAM}"  # was the two words glued
    (gap,) = [d for d in plain.decisions_of(WordGapDecision) if d.inserted]
    assert (gap.verdict, gap.value, round(gap.threshold, 2)) == ("rtl_gap", 4.0, 1.68)
    assert "right-to-left letters painted leftwards" in gap.describe()


def test_an_arabic_line_with_a_latin_word_under_actual_text_is_one_line_in_reading_order() -> None:
    from glyphscope.core.assembly.decisions import LineBreakDecision

    logical = "\u062d\u064e\u0628\u064a\u0628\u064a"  # حَبيبي
    forms = "\ufea3\u064e\ufe92\ufef4\ufe92\ufef2"
    actual = "<FEFF" + "".join(f"{ord(c):04X}" for c in logical) + ">"
    # an RTL line painted in reading order: the Arabic word (ActualText) at the right, then the
    # Latin word to its left — 130 pt back, past the backward-jump distance of 3 heights
    content = (
        f"BT /F1 10 Tf 1 0 0 1 300 700 Tm /Span <</ActualText {actual}>> BDC {_hex_text(forms[::-1])} Tj EMC "
        f"1 0 0 1 230 700 Tm {_hex_text('habibi')} Tj ET"
    )
    plain = _arabic_page(content).texts["plain"]
    assert plain.text == f"{logical} habibi"  # was "حَبيبي\nhabibi": split by the backward-jump rule
    assert [d.verdict for d in plain.decisions_of(LineBreakDecision)] == ["same_line"] * 6


def test_arabic_words_painted_leftwards_each_in_visual_order_read_in_reading_order() -> None:
    from glyphscope.core.assembly.decisions import RtlRunOrder

    # each word one instruction, its glyphs left to right (visual order); the words step
    # leftwards (reading order), 5 pt apart: in paint order they would glue and turn round
    parts, x = [], 400
    for word in (_MARHABA, _BILALAM):
        x -= 10 * len(word)
        parts.append(f"1 0 0 1 {x} 700 Tm {_hex_text(word[::-1])} Tj")
        x -= 5
    plain = _arabic_page("BT /F1 10 Tf " + " ".join(parts) + " ET").texts["plain"]
    assert plain.text == f"{_MARHABA} {_BILALAM}"  # was the two words glued, second first
    (run,) = plain.decisions_of(RtlRunOrder)
    assert (run.count, run.steps_back, run.verdict) == (12, 1, "visual_order")
