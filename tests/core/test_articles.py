"""Article threads (spec §8) and auto's one order rule: beads in thread order, the rest after, broken
chains and beads skipped with a problem."""

from __future__ import annotations

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly.articles import ARTICLE_SHARE, article_use
from glyphscope.core.assembly.auto import auto_order
from glyphscope.core.assembly.decisions import (
    ArticleBeadRecord,
    ArticleOrderDecision,
)
from glyphscope.core.document import open_document
from glyphscope.core.structure_use import structure_use
from tests import corpus
from tests.pdfbuild import (
    make_pdf,
    pdf_document,
)


def _articles_pdf(bead_rects: list[list[float]]) -> pikepdf.Pdf:
    content = (
        b"BT /F1 12 Tf 72 700 Td (Alpha) Tj ET "
        b"BT /F1 12 Tf 300 700 Td (Beta) Tj ET "
        b"BT /F1 12 Tf 72 500 Td (Gamma) Tj ET"
    )
    pdf = make_pdf([content])
    page = pdf.pages[0].obj
    thread = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.Thread, I=pikepdf.Dictionary(Title="Story"))
    )
    beads = [
        pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Bead, T=thread, P=page, R=rect))
        for rect in bead_rects
    ]
    for i, bead in enumerate(beads):
        bead.N = beads[(i + 1) % len(beads)]
        bead.V = beads[i - 1]
    thread.F = beads[0]
    pdf.Root.Threads = pikepdf.Array([thread])
    page.B = pikepdf.Array(beads)
    return pdf


def test_articles_mode_reads_beads_in_thread_order_then_the_rest() -> None:
    doc = pdf_document(_articles_pdf([[60, 480, 200, 530], [60, 680, 200, 730]]))  # Gamma first, then Alpha
    page = analyze_page(doc, 1)
    assert page.texts["plain"].text == "Alpha Beta\nGamma"
    text = page.texts["articles"]
    assert text.text == "Gamma\nAlpha\nBeta"
    beads = text.decisions_of(ArticleBeadRecord)
    assert [(b.number, b.thread, b.index, len(b.glyphs)) for b in beads] == [(1, 0, 0, 5), (2, 0, 1, 5)]
    assert beads[0].quad == ((60.0, 480.0), (200.0, 480.0), (200.0, 530.0), (60.0, 530.0))
    order = text.decisions_of(ArticleOrderDecision)[0]
    assert (order.value, order.threshold, order.verdict) == (10.0, ARTICLE_SHARE * 14, "articles")
    # auto: no structure tree, beads hold 10 of 14 glyphs ≥ 7 → article order
    auto = page.texts["auto"]
    assert auto.text == "Gamma\nAlpha\nBeta" and auto.structured is False and auto.order == "articles"
    assert auto.reason is not None and "article order" in auto.reason
    assert page.structure.beads[0].title == "Story"


def test_auto_keeps_plain_when_beads_hold_less_than_half() -> None:
    doc = pdf_document(_articles_pdf([[60, 480, 200, 530]]))  # only Gamma: 5 of 14 < 7
    page = analyze_page(doc, 1)
    assert page.texts["articles"].text == "Gamma\nAlpha Beta"
    order = page.texts["articles"].decisions_of(ArticleOrderDecision)[0]
    assert (order.value, order.threshold, order.verdict) == (5.0, 7.0, "too_few")
    assert page.texts["auto"].text == "Alpha Beta\nGamma" and page.texts["auto"].order == "plain"
    use = structure_use(page.structure, page.classified.visible)
    assert auto_order(use, article_use(page.structure, page.classified.visible)) == "plain"


def test_articles_without_threads_is_plain_order_with_a_reason() -> None:
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td (Alpha) Tj ET"])
    text = analyze_page(pdf_document(pdf), 1).texts["articles"]
    assert text.text == "Alpha" and text.reason == "no article beads on this page"


def test_a_looping_bead_chain_ends() -> None:
    pdf = _articles_pdf([[60, 480, 200, 530], [60, 680, 200, 730]])
    bead = pdf.Root.Threads[0].F
    bead.N.N = bead.N  # the second bead points at itself: the walk stops there
    page = analyze_page(pdf_document(pdf), 1)
    assert len(page.structure.beads) == 2


def test_corpus_poems_read_german_first() -> None:
    corpus.require()
    doc = open_document(str(corpus.CORPUS / "pdfbox__PDFBOX-3110-poems-beads-cropbox.pdf"))
    page = analyze_page(doc, 1)
    assert (page.texts["plain"].text or "").startswith("ARGAN")
    for mode in ("articles", "auto"):
        assert (page.texts[mode].text or "").startswith("Wer reitet so spät durch Nacht und Wind?"), mode


def test_beads_without_page_or_rect_are_skipped_with_a_problem() -> None:
    pdf = _articles_pdf([[60, 480, 200, 530], [60, 680, 200, 730]])
    del pdf.Root.Threads[0].F.N.R  # the second bead loses its rectangle
    page = analyze_page(pdf_document(pdf), 1)
    assert len(page.structure.beads) == 1
    assert page.structure.bead_problems == ("thread 1, bead 2: no page or no rectangle (skipped)",)
    assert page.texts["articles"].text == "Gamma\nAlpha Beta"


@pytest.mark.parametrize(
    ("usable", "trusted", "beads_usable", "expected"),
    [
        (True, True, True, "structure"),  # trusted structure wins over beads
        (True, False, True, "articles"),  # usable but untrusted: beads
        (False, False, True, "articles"),
        (True, False, False, "plain"),
        (False, False, False, "plain"),
    ],
)
def test_auto_order_is_one_rule(usable: bool, trusted: bool, beads_usable: bool, expected: str) -> None:
    from types import SimpleNamespace

    structure = SimpleNamespace(usable=usable, trusted=trusted)
    articles = SimpleNamespace(usable=beads_usable)
    assert auto_order(structure, articles) == expected  # type: ignore[arg-type]
