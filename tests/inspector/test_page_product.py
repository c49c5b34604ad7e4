"""The page product (core/analysis.py): one rule per fact, and every consumer reads the same numbers.

Structure use at the trust boundary reaches auto mode, structure mode, the
findings and triage unchanged; counts reach triage; whole-document text is the
per-page texts joined; diagnostics and search go through `analyze_page`.
"""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest

import glyphscope.core.analysis as analysis_module
from glyphscope.core.analysis import (
    PageAnalysis,
    analyze_page,
    document_analyses,
    document_texts,
    page_findings,
)
from glyphscope.core.assembly import MODES, StructureOrder
from glyphscope.core.assembly.document_join import BOM, join_page_texts
from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import Document, open_document
from glyphscope.core.structure_use import UNTAGGED_TRUST_RATIO, structure_use
from glyphscope.core.textops import document_pages_text, write_document_pages
from glyphscope.core.triage import PageCollector, triage_file
from glyphscope.inspector.jobs import CancelToken
from glyphscope.inspector.views.search import search_document_job
from tests.pdfbuild import helvetica, identity_h_font, make_pdf, to_bytes

K = DiagnosticKind


def tagged_page(tagged: str, untagged: str) -> pikepdf.Pdf:
    """One page: `tagged` inside MCID 0 (referenced by the tree), `untagged` outside any marked content."""
    content = (
        b"/P <</MCID 0>> BDC BT /F1 10 Tf 72 700 Td (" + tagged.encode() + b") Tj ET EMC "
        b"BT /F1 10 Tf 72 600 Td (" + untagged.encode() + b") Tj ET"
    )
    pdf = make_pdf([content])
    page = pdf.pages[0].obj
    page.StructParents = 0
    root = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot))
    kid = pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.P, P=root, Pg=page, K=0)
    root.K = pikepdf.Array([pdf.make_indirect(kid)])
    pdf.Root.StructTreeRoot = root
    return pdf


def doc_of(pdf: pikepdf.Pdf) -> Document:
    return open_document(to_bytes(pdf))


def run(job):
    """Drive a generator job to its result."""
    try:
        while True:
            next(job)
    except StopIteration as stop:
        return stop.value


# ---------------------------------------------------------------- the structure rule, once


# 6 tagged glyphs: 2 untagged is exactly a quarter of 8 (trusted), 3 is one more (not).
BOUNDARY = [("abcdef", "gh", True), ("abcdef", "ghi", False)]


@pytest.mark.parametrize(("tagged", "untagged", "trusted"), BOUNDARY)
def test_structure_use_at_the_trust_boundary(tagged: str, untagged: str, trusted: bool) -> None:
    a = analyze_page(doc_of(tagged_page(tagged, untagged)), 1)
    use = a.structure_use
    total = len(tagged) + len(untagged)
    assert use.has_tree and use.usable
    assert use.total == total and len(use.tagged) == len(tagged) and len(use.untagged) == len(untagged)
    assert use.tagged == tuple(range(len(tagged)))  # paint indices, structure order
    assert use.untagged == tuple(range(len(tagged), total))
    assert use.buckets == ((0, use.tagged),)
    assert use.trusted is trusted
    assert (len(untagged) * UNTAGGED_TRUST_RATIO <= total) is trusted
    if trusted:
        assert use.reason is None
    else:
        assert use.reason == f"too much untagged text: {len(untagged)} × 4 > {total} visible glyphs"
    assert a.structure_use is use  # lazy, made once
    assert structure_use(a.structure, a.classified.visible) == use


@pytest.mark.parametrize(("tagged", "untagged", "trusted"), BOUNDARY)
def test_the_same_numbers_reach_auto_structure_findings_and_triage(
    tagged: str, untagged: str, trusted: bool, tmp_path: Path
) -> None:
    pdf = tagged_page(tagged, untagged)
    a = analyze_page(doc_of(pdf), 1)
    use = a.structure_use
    # auto mode: structure order iff trusted, with the same untagged count and reason
    auto = a.texts["auto"]
    assert auto.structured is trusted
    assert auto.untagged == len(use.untagged)
    assert auto.reason == use.reason
    assert auto.text == (f"{tagged}\n{untagged}" if trusted else a.texts["plain"].text)
    # structure mode: the same split, whatever the trust
    structure = a.texts["structure"]
    (order,) = structure.decisions_of(StructureOrder)
    assert (order.tagged, order.untagged, order.total) == (len(use.tagged), len(use.untagged), use.total)
    assert structure.untagged == len(use.untagged)
    # findings: UNTAGGED_SHARE exactly when not trusted, pointing at the untagged glyphs
    shares = [d for d in a.findings if d.kind is K.UNTAGGED_SHARE]
    if trusted:
        assert shares == []
    else:
        (d,) = shares
        assert d.glyphs == use.untagged and d.count == len(use.untagged)
    # triage: the same untagged share, and structure usable iff trusted (one page)
    path = tmp_path / "tagged.pdf"
    path.write_bytes(to_bytes(pdf))
    row = triage_file(path)
    assert row.structure_usable is trusted
    assert row.pct_untagged == round(100.0 * len(use.untagged) / use.total, 2)


def test_structure_use_without_a_tree_and_with_a_tree_that_misses_the_page() -> None:
    plain = analyze_page(doc_of(make_pdf([b"BT /F1 10 Tf 72 700 Td (abc) Tj ET"])), 1)
    use = plain.structure_use
    assert not use.has_tree and not use.usable and not use.trusted
    assert use.untagged == (0, 1, 2) and use.total == 3
    assert plain.texts["structure"].text is None and plain.texts["structure"].reason == use.reason
    assert plain.texts["auto"].reason == use.reason and plain.texts["auto"].untagged is None

    missed = tagged_page("", "abc")  # the tree references MCID 0, which marks no glyph
    a = analyze_page(doc_of(missed), 1)
    assert a.structure_use.has_tree and not a.structure_use.usable
    assert (
        a.structure_use.reason
        == "no structure: no visible glyph carries an MCID the structure tree references"
    )
    (d,) = [d for d in a.findings if d.kind is K.STRUCTURE_UNUSABLE]
    assert d.glyphs == a.structure_use.untagged == (0, 1, 2)


# ---------------------------------------------------------------- counts


def counts_pdf() -> pikepdf.Pdf:
    """Culled slug, fake-bold duplicates, a form and unresolved glyphs on one page."""
    pdf = pikepdf.new()
    form = pdf.make_stream(b"BT /F1 10 Tf 72 500 Td (form) Tj ET")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 612, 792]
    content = (
        b"BT /F1 10 Tf 72 700 Td (Bold) Tj ET BT /F1 10 Tf 72.3 700 Td (Bold) Tj ET "
        b"BT /F1 6 Tf 72 10 Td (slug) Tj ET /Fm Do "
        b"BT /F2 10 Tf 72 400 Td <000100020003> Tj ET"
    )
    return make_pdf(
        [content],
        fonts={"/F1": helvetica, "/F2": lambda p: identity_h_font(p, tounicode=CODESPACE_ONLY)},
        xobjects={"/Fm": pdf.make_indirect(form)},
        crop_box=[36, 36, 576, 756],
        pdf=pdf,
    )


CODESPACE_ONLY = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)


def test_counts_of_a_page() -> None:
    a = analyze_page(doc_of(counts_pdf()), 1)
    c = a.counts
    assert c.glyphs == 4 + 4 + 4 + 4 + 3 == len(a.page.glyphs)
    assert c.duplicates == 4 and c.culled == 4 and c.from_forms == 4 and c.unresolved == 3
    assert c.visible == c.glyphs - c.duplicates - c.culled == len(a.classified.visible)
    assert c.fallback == 0 and len(c.fonts_used) == 2 and len(c.fonts_lost) == 1
    assert a.counts is c  # lazy, made once


def test_triage_of_a_file_reads_the_page_product(tmp_path: Path, monkeypatch) -> None:
    seen: list[PageAnalysis] = []
    real_add = PageCollector.add

    def spy(self: PageCollector, analysis: PageAnalysis) -> None:
        seen.append(analysis)
        real_add(self, analysis)

    monkeypatch.setattr(PageCollector, "add", spy)
    pdf = counts_pdf()
    path = tmp_path / "counts.pdf"
    path.write_bytes(to_bytes(pdf))
    row = triage_file(path)
    assert [a.page_number for a in seen] == [1]
    c = analyze_page(doc_of(pdf), 1).counts  # a fresh page product of the same page
    assert seen[0].counts == c
    assert (row.glyphs, row.visible_glyphs) == (c.glyphs, c.visible)
    assert row.pct_culled == round(100 * c.culled / c.glyphs, 2)
    assert row.pct_duplicates == round(100 * c.duplicates / c.glyphs, 2)
    assert row.pct_from_forms == round(100 * c.from_forms / c.glyphs, 2)
    assert row.pct_unresolved == round(100 * c.unresolved / c.glyphs, 2)
    assert row.fonts == len(c.fonts_used)
    # the row's findings are the page product's findings, kind for kind
    assert sorted(f.kind for f in row.findings) == sorted(d.kind.value for d in seen[0].findings)


def test_page_findings_is_the_page_products_findings() -> None:
    doc = doc_of(counts_pdf())
    found = page_findings(doc, 1)
    assert isinstance(found, list)
    assert [d.to_json() for d in found] == [d.to_json() for d in analyze_page(doc, 1).findings]
    assert {K.CULLED_GLYPHS, K.DUPLICATE_GLYPHS} <= {d.kind for d in found}


# ---------------------------------------------------------------- whole-document text

PAGES = [
    b"BT /F1 10 Tf 72 700 Td (first page) Tj 0 -14 Td (second line) Tj ET",
    b"",
    b"BT /F1 10 Tf 72 700 Td (third page) Tj ET",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("separator", "bom"), [("\f", False), ("\n--\n", True)])
def test_whole_document_text_is_the_page_texts_joined(mode: str, separator: str, bom: bool) -> None:
    doc = doc_of(make_pdf(PAGES))
    per_page = [analyze_page(doc, n).texts[mode].text or "" for n in (1, 2, 3)]
    expected = (BOM if bom else "") + separator.join(per_page)
    out = io.StringIO()
    assert write_document_pages(out, doc, [1, 2, 3], mode, separator=separator, bom=bom) == 3
    assert out.getvalue() == expected
    texts = list(document_texts(doc, [1, 2, 3], mode))
    assert [n for n, _ in texts] == [1, 2, 3]
    assert join_page_texts((t.text for _, t in texts), separator, bom) == expected
    assert [(n, t.text) for n, t in document_pages_text(doc, [1, 2, 3], mode)] == [
        (n, t.text) for n, t in texts
    ]


def test_default_separator_is_a_form_feed_without_trailing_one() -> None:
    doc = doc_of(make_pdf(PAGES))
    out = io.StringIO()
    write_document_pages(out, doc, [3, 1], "plain")
    assert out.getvalue() == "third page\ffirst page\nsecond line"


def test_document_iterator_stops_and_reports_failing_pages(monkeypatch) -> None:
    doc = doc_of(make_pdf(PAGES))
    real = analysis_module.analyze_page

    def failing(d, n, params=analysis_module.DEFAULT_PARAMETERS):
        if n == 2:
            raise RuntimeError("page two is broken")
        return real(d, n, params)

    monkeypatch.setattr(analysis_module, "analyze_page", failing)
    with pytest.raises(RuntimeError, match="page two"):
        list(document_texts(doc, [1, 2, 3], "plain"))
    events: list[object] = []
    for n, _text in document_texts(
        doc, [1, 2, 3], "plain", on_error=lambda n, exc: events.append((n, str(exc)))
    ):
        events.append(n)
    assert events == [1, (2, "page two is broken"), 3]  # errors are reported in page order
    stop_after_one = iter([False, True])
    assert [
        a.page_number for a in document_analyses(doc, [1, 2, 3], should_stop=lambda: next(stop_after_one))
    ] == [1]
    with pytest.raises(ValueError, match="unknown text mode"):
        list(document_texts(doc, [1], "nope"))


# ---------------------------------------------------------------- search


def test_whole_document_search_goes_through_the_page_product(monkeypatch) -> None:
    doc = doc_of(make_pdf(PAGES))
    analysed: list[int] = []
    real = analysis_module.analyze_page

    def counting(d, n, params=analysis_module.DEFAULT_PARAMETERS):
        analysed.append(n)
        if n == 3:
            raise RuntimeError("broken page")
        return real(d, n, params)

    monkeypatch.setattr(analysis_module, "analyze_page", counting)
    result = run(
        search_document_job(
            doc, "second line", "plain", analysis_module.DEFAULT_PARAMETERS, False, 2, token=CancelToken()
        )
    )
    assert analysed == [1, 3]  # page 2 was searched by the window already
    assert result.pages_searched == 1  # the broken page is skipped, not fatal
    assert [(h.page, h.context) for h in result.hits] == [(1, "first page ⏎ «second line»")]


def test_a_glyphs_explanation_names_its_cull_and_every_copy_dropped_as_its_duplicate():
    from glyphscope.inspector.views.page_facts import PageFacts

    # "A" struck three times (a triple-strike bold), then "B" outside the media box
    content = b"BT /F1 10 Tf 100 700 Td (A) Tj ET BT /F1 10 Tf 100.2 700 Td (A) Tj ET "
    content += b"BT /F1 10 Tf 100.4 700 Td (A) Tj ET BT /F1 10 Tf 900 700 Td (B) Tj ET"
    facts = PageFacts(analyze_page(open_document(to_bytes(make_pdf([content]))), 1))
    kept = facts.fates.explain(0, "plain")
    assert kept[:2] == [
        "kept; glyph #1 was dropped as its duplicate",
        "kept; glyph #2 was dropped as its duplicate",
    ]
    assert facts.fates.explain(2, "plain")[0] == (
        "glyph #2 dropped as a duplicate of glyph #0: offset 0.40 pt along ≤ 0.93 pt and 0.00 pt across ≤ 1.85 pt"
    )
    assert facts.fates.explain(3, "plain")[0].startswith("culled: box centre (")
