"""Letter-spaced runs (core/assembly/tracking.py) read as words."""

from __future__ import annotations

from typing import Any

import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES
from glyphscope.core.assembly.decisions import WordGapDecision
from glyphscope.core.assembly.tracking import TRACKING_MAX, TRACKING_MIN_GAPS, TRACKING_SPREAD
from glyphscope.core.document import open_document
from glyphscope.core.params import DEFAULT_PARAMETERS, SWITCHES, Parameters
from tests.pdfbuild import make_pdf, to_bytes

# Helvetica 12 pt: every glyph box is 11.10 pt high (FontBBox-less standard-14 metrics),
# so the word-gap threshold is 0.15 × 11.10 = 1.665 pt and `3 Tc` leaves 3 pt gaps.
HEIGHT = 11.1
WORD_GAP = 0.15 * HEIGHT


def _page(content: bytes, params: Parameters = DEFAULT_PARAMETERS) -> Any:
    doc = open_document(to_bytes(make_pdf([content])))
    return analyze_page(doc, 1, params)


def _gaps(page: Any, mode: str = "plain") -> list[WordGapDecision]:
    return page.texts[mode].decisions_of(WordGapDecision)


def _text(page: Any, mode: str) -> str:
    return (page.texts[mode].text or "").strip()  # layout pads the line start to its grid column


ANEXO = b"BT /F1 12 Tf 72 700 Td 3 Tc (ANEXO) Tj ET"
BIG_WORD = b"BT /F1 12 Tf 72 700 Td 3 Tc [(BIG) -600 (WORD)] TJ ET"


def test_the_rule_constants() -> None:
    assert (TRACKING_SPREAD, TRACKING_MIN_GAPS, TRACKING_MAX) == (0.20, 3, 1.0)
    assert "tracking" in SWITCHES and DEFAULT_PARAMETERS.tracking is True
    assert Parameters(tracking=0.0).tracking is False  # a Tuning checkbox hands over 0.0 / 1.0


def test_anexo_painted_with_tc_reads_as_one_word_in_every_mode() -> None:
    page = _page(ANEXO)
    for mode in MODES:
        if mode != "structure":  # no structure tree: structure mode has no text
            assert _text(page, mode) == "ANEXO", mode
    gaps = _gaps(page)
    assert [d.verdict for d in gaps] == ["tracking"] * 4
    for d in gaps:
        assert not d.inserted  # the GUI's "a space was written"
        assert d.gap == pytest.approx(3.0) and d.tracking == pytest.approx(3.0)
        assert d.value == pytest.approx(3.0)
        assert d.threshold == pytest.approx(3.0 + WORD_GAP)  # tracking + word_gap × height
        assert d.space_threshold == pytest.approx(WORD_GAP) and d.height == pytest.approx(HEIGHT)
    j = gaps[0].to_json()
    assert j["verdict"] == "tracking" and j["tracking"] == 3.0 and j["gap"] == 3.0
    assert j["threshold"] == pytest.approx(4.665) and j["space_threshold"] == pytest.approx(1.665)
    assert gaps[0].describe() == (
        "no space: letter-spaced run, gap 3.00 pt ≤ tracking 3.00 pt + 0.15 × 11.10 pt = 4.67 pt "
        "(the run's common gap is its letter spacing, not a word space)"
    )
    assert any(d.kind == "word_gap" and d.verdict == "tracking" for d in page.decisions("plain"))


def test_switch_off_gives_the_seeds_spaced_text() -> None:
    page = _page(ANEXO, Parameters(tracking=False))
    assert _text(page, "plain") == "A N E X O"
    assert _text(page, "layout") == "A N E X O"
    gaps = _gaps(page)
    assert [d.verdict for d in gaps] == ["inserted"] * 4
    assert all(d.inserted and d.tracking == 0.0 for d in gaps)
    assert gaps[0].threshold == pytest.approx(WORD_GAP)
    assert gaps[0].describe() == "space inserted: gap 3.00 pt > 0.15 × 11.10 pt = 1.66 pt"


def test_big_word_keeps_the_one_wider_gap() -> None:
    page = _page(BIG_WORD)
    for mode in ("plain", "layout", "columns", "auto"):
        assert _text(page, mode) == "BIG WORD", mode
    gaps = _gaps(page)
    # B I G: too few gaps for a run of their own, they take the tracking of W O R D
    assert [d.verdict for d in gaps] == [
        "tracking",
        "tracking",
        "inserted",
        "tracking",
        "tracking",
        "tracking",
    ]
    wide = gaps[2]
    assert wide.inserted and wide.gap == pytest.approx(3.0 + 0.6 * 12)  # Tc + the TJ shift
    assert wide.tracking == pytest.approx(3.0) and wide.threshold == pytest.approx(3.0 + WORD_GAP)
    assert wide.describe() == (
        "space inserted in a letter-spaced run: gap 10.20 pt > tracking 3.00 pt + 0.15 × 11.10 pt = 4.67 pt"
    )
    assert _text(_page(BIG_WORD, Parameters(tracking=False)), "plain") == "B I G W O R D"


def test_a_kerned_gap_stays_in_the_run() -> None:
    # gaps 3, 3.5, 3, 3: spread 0.5 / 3.125 = 0.16 ≤ 0.20, one run; tracking = median = 3
    page = _page(b"BT /F1 12 Tf 72 700 Td 3 Tc [(AB) -41.667 (CDE)] TJ ET")
    assert _text(page, "plain") == "ABCDE"
    gaps = _gaps(page)
    assert [d.verdict for d in gaps] == ["tracking"] * 4
    assert gaps[1].gap == pytest.approx(3.5, abs=0.01) and gaps[1].tracking == pytest.approx(3.0)
    # 1 pt wider (spread 1 / 3.25 = 0.31): the wider gap breaks the run, A B C D E stay letters
    assert _text(_page(b"BT /F1 12 Tf 72 700 Td 3 Tc [(AB) -83.333 (CDE)] TJ ET"), "plain") == "A B C D E"


def test_space_glyphs_inside_a_tracked_line_keep_the_words() -> None:
    # `200 120 (…) "` in pypdf's toy.pdf: Tc applies to every glyph, the words keep their space glyphs
    page = _page(b"BT /F1 12 Tf 72 700 Td 3 Tc (WORD IS A) Tj ET")
    assert _text(page, "plain") == "WORD IS A"
    verdicts = [d.verdict for d in _gaps(page)]
    assert verdicts == ["tracking"] * 3 + ["existing_space"] * 2 + ["tracking"] + ["existing_space"] * 2


JUSTIFIED = (
    b"BT /F1 12 Tf 72 700 Td 14 TL "
    b"[(The) -400 (quick) -400 (brown) -400 (fox) -400 (jumps) -400 (A) -400 (B) -400 (C) -400 (dog)] TJ T* "
    b"[(over) -350 (a) -350 (lazy) -350 (dog) -350 (and) -350 (a) -350 (cat) -350 (by) -350 (the) -350 (sea)] TJ T* "
    b"[(I) -380 (a) -380 (m) -380 (Ann) -380 (from) -380 (Rome)] TJ ET"
)


def test_ordinary_justified_text_is_unchanged() -> None:
    on, off = _page(JUSTIFIED), _page(JUSTIFIED, Parameters(tracking=False))
    expected = (
        "The quick brown fox jumps A B C dog\nover a lazy dog and a cat by the sea\nI a m Ann from Rome"
    )
    for mode in ("plain", "columns", "auto"):
        assert on.texts[mode].text == off.texts[mode].text == expected, mode
    assert on.texts["layout"].text == off.texts["layout"].text
    assert not [d for d in _gaps(on) if d.tracking or d.verdict == "tracking"]


def test_dot_leaders_and_one_digit_table_cells_are_not_letter_spacing() -> None:
    leaders = (
        b"BT /F1 12 Tf 72 700 Td [(Intro) -1500 (.) -1500 (.) -1500 (.) -1500 (.) -1500 (.) -1500 (3)] TJ ET"
    )
    table = b"BT /F1 8 Tf 72 700 Td [(Guam) -4000 (0) -4000 (1) -4000 (5) -4000 (0) -4000 (3)] TJ ET"
    for content in (leaders, table):
        on, off = _page(content), _page(content, Parameters(tracking=False))
        assert on.texts["plain"].text == off.texts["plain"].text
        assert not [d for d in _gaps(on) if d.verdict == "tracking"]
    assert _page(table).texts["plain"].text == "Guam 0 1 5 0 3"


def test_unequal_gaps_are_no_run() -> None:
    # spread (max − min) / mean = (6 − 3) / 4.5 = 0.67 > 0.20: single letters, not a tracked word
    content = b"BT /F1 12 Tf 72 700 Td [(A) -250 (B) -500 (C) -250 (D) -500 (E)] TJ ET"
    page = _page(content)
    assert page.texts["plain"].text == "A B C D E"
    assert all(d.verdict == "inserted" and d.tracking == 0.0 for d in _gaps(page))
