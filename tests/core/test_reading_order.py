"""Auto's reading order for a scrambled content stream (spec §9): the scramble measure, column by
column, geometric only after structure and articles, plain order kept when the stream reads in
order."""

from __future__ import annotations

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly.auto import auto_order
from glyphscope.core.assembly.decisions import ReadingOrderDecision
from glyphscope.core.assembly.reading_order import SCRAMBLED_MIN_JUMPS, SCRAMBLED_SHARE
from glyphscope.core.document import open_document
from tests.pdfbuild import make_pdf, pdf_document, widget_page


def _lines(rows: list[tuple[float, float, str]], size: float = 12) -> bytes:
    """One BT…ET per (x, y, text), in the order given: the content stream's order."""
    return b"\n".join(f"BT /F1 {size:g} Tf {x:g} {y:g} Td ({t}) Tj ET".encode("latin-1") for x, y, t in rows)


# ------------------------------------------------------------------ auto reads a scrambled stream

# eight lines 20 pt apart, painted bottom, top, second from bottom, second from top…
_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight"]


_SCRAMBLED = [(72, 700 - 20 * k, _WORDS[k]) for k in (7, 0, 6, 1, 5, 2, 4, 3)]


def test_auto_reads_a_scrambled_stream_top_to_bottom_with_the_measure() -> None:
    page = analyze_page(pdf_document(make_pdf([_lines(_SCRAMBLED)])), 1)
    assert page.texts["plain"].text == "eight\none\nseven\ntwo\nsix\nthree\nfive\nfour"  # the stream's order
    auto = page.texts["auto"]
    assert auto.text == "\n".join(_WORDS) and auto.order == "geometric" and auto.structured is False
    (reading,) = auto.decisions_of(ReadingOrderDecision)
    # 8 lines, 7 pairs: 560→700, 580→680, 600→660, 620→640 go up: 4 backward, none interleaved
    assert (reading.lines, reading.backward, reading.interleaved) == (8, 4, 0)
    assert reading.value == 4 / 7 and reading.threshold == SCRAMBLED_SHARE == 0.25
    assert reading.verdict == "geometric" and reading.min_jumps == SCRAMBLED_MIN_JUMPS == 3
    assert (
        "scrambled (4 backward jump(s) + 0 interleaved line(s) in 7 line pairs = 0.57" in reading.describe()
    )
    assert auto.reason is not None and "columns, then lines top to bottom" in auto.reason
    assert page.texts["plain"].decisions_of(ReadingOrderDecision) == []  # plain stays stream order


def test_three_lines_with_one_jump_are_not_scrambled() -> None:
    rows = [(72, 660, "three"), (72, 700, "one"), (72, 680, "two")]  # a page number painted first
    page = analyze_page(pdf_document(make_pdf([_lines(rows)])), 1)
    assert page.texts["auto"].text == "three\none\ntwo" and page.texts["auto"].order == "plain"


def test_scrambled_two_column_prose_reads_column_by_column() -> None:
    left = [
        "Alpha beta gamma delta epsilon",
        "zeta eta theta iota kappa",
        "lambda mu nu xi omicron",
        "pi rho sigma tau upsilon",
        "phi chi psi omega alpha",
        "bravo charlie delta echo",
    ]
    right = [
        "one two three four five six",
        "seven eight nine ten eleven",
        "twelve thirteen fourteen",
        "fifteen sixteen seventeen",
        "eighteen nineteen twenty",
        "twentyone twentytwo three",
    ]
    rows: list[tuple[float, float, str]] = []
    for k in (5, 0, 4, 1, 3, 2):  # each row's two halves, rows out of order
        rows += [(300, 700 - 14 * k, right[k]), (72, 700 - 14 * k, left[k])]
    page = analyze_page(pdf_document(make_pdf([_lines(rows, 10)])), 1)
    auto = page.texts["auto"]
    assert auto.order == "geometric"
    assert auto.text == "\n".join(left + right)


def test_auto_order_reads_geometric_only_after_structure_and_articles() -> None:
    from types import SimpleNamespace

    scrambled = ReadingOrderDecision(8, 4, 0, SCRAMBLED_SHARE, SCRAMBLED_MIN_JUMPS)
    kept = ReadingOrderDecision(8, 1, 0, SCRAMBLED_SHARE, SCRAMBLED_MIN_JUMPS)
    trusted = SimpleNamespace(usable=True, trusted=True)
    none = SimpleNamespace(usable=False, trusted=False)
    beads = SimpleNamespace(usable=True)
    no_beads = SimpleNamespace(usable=False)
    assert auto_order(trusted, no_beads, scrambled) == "structure"  # type: ignore[arg-type]
    assert auto_order(none, beads, scrambled) == "articles"  # type: ignore[arg-type]
    assert auto_order(none, no_beads, scrambled) == "geometric"  # type: ignore[arg-type]
    assert auto_order(none, no_beads, kept) == "plain"  # type: ignore[arg-type]


def test_a_stream_in_reading_order_keeps_plain_order() -> None:
    rows = [(72, 700 - 20 * k, f"line{k}") for k in range(8)]
    page = analyze_page(pdf_document(make_pdf([_lines(rows)])), 1)
    assert page.texts["auto"].text == page.texts["plain"].text and page.texts["auto"].order == "plain"
    assert page.texts["auto"].decisions_of(ReadingOrderDecision) == []


# ------------------------------------------------------------------ the corpus


def test_corpus_matplotlib_axis_labels_read_top_to_bottom_in_auto() -> None:
    from tests import corpus

    corpus.require()
    page = analyze_page(open_document(str(corpus.CORPUS / "pdfminer__matplotlib.pdf")), 1)
    # the y-axis labels are painted bottom up: plain keeps that, auto reads them as pdftotext does
    assert page.texts["plain"].text == "0 2 4 6 8\n0\n2\n4\n6\n8"
    auto = page.texts["auto"]
    assert auto.text == "8\n6\n4\n2\n0\n0 2 4 6 8" and auto.order == "geometric"
    (reading,) = auto.decisions_of(ReadingOrderDecision)
    assert (reading.lines, reading.backward, reading.interleaved, reading.value) == (6, 5, 0, 1.0)


def test_corpus_pages_in_reading_order_keep_plain_order_in_auto() -> None:
    from tests import corpus

    corpus.require()
    for name, pages in (("samplefiles__latex-multicolumn.pdf", 3), ("pdfbox__cweb.pdf", 3)):
        doc = open_document(str(corpus.CORPUS / name))
        for n in range(1, pages + 1):
            page = analyze_page(doc, n)
            assert page.texts["auto"].order == "plain", (name, n)
            assert page.texts["auto"].text == page.texts["plain"].text


def test_geometric_order_places_annotation_text_between_words_too() -> None:
    from glyphscope.core.assembly.decisions import AnnotationPlacement

    rows = [(72, 700 - 20 * k, _WORDS[k]) for k in (7, 0, 6, 1, 5, 2, 4, 3)]
    stream = _lines(rows) + b"\nBT /F1 12 Tf 72 540 Td (Check Box) Tj ET"
    data = widget_page(stream, [95, 535, 115, 555], b"BT /F1 12 Tf 2 5 Td (X) Tj ET")
    auto = analyze_page(open_document(data), 1).texts["auto"]
    assert auto.order == "geometric"
    assert auto.text == "\n".join(_WORDS) + "\nCheck X Box"
    assert len(auto.decisions_of(AnnotationPlacement)) == 1
