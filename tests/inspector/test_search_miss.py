"""Why a search misses (inspector/views/search.py): each explanation states its kind as a MissKind, and
the document search decides on the kind, never on the message's wording."""

from __future__ import annotations

from glyphscope.core.analysis import DEFAULT_PARAMETERS, analyze_page
from glyphscope.core.document import open_document
from glyphscope.inspector.jobs import CancelToken
from glyphscope.inspector.views.page_facts import PageFacts
from glyphscope.inspector.views.search import MissKind, explain_miss, search_document_job
from tests.pdfbuild import helvetica, identity_h_font, make_pdf, to_bytes

PAGE = (
    b"BT /F1 12 Tf 72 700 Td [(Inv) ( ) 278 (oice)] TJ ET "  # a space the page paints inside a word
    b"BT /F1 12 Tf 72 660 Td [(Hello) -600 (world)] TJ ET "  # a word gap the engine turns into a space
    b"BT /F1 12 Tf 72 620 Td (Bold) Tj ET BT /F1 12 Tf 72.3 620 Td (Bold) Tj ET "  # fake bold
    b"BT /F1 12 Tf 72 900 Td (Slug) Tj ET "  # above the media box: culled
    b"BT /F2 12 Tf 72 580 Td <006401010102> Tj ET"  # "d" then two codes the font cannot map
)


def doc():
    pdf = make_pdf([PAGE], fonts={"/F1": helvetica, "/F2": identity_h_font})
    return open_document(to_bytes(pdf))


def miss(query: str):
    a = analyze_page(doc(), 1, DEFAULT_PARAMETERS)
    return explain_miss(1, a.page.glyphs, a.classified, PageFacts(a).modes.view("plain"), query)


def test_each_miss_states_its_kind():
    assert miss("Invoice").kind is MissKind.SPACING  # the painted space
    assert miss("Helloworld").kind is MissKind.SPACING  # the inserted one
    assert miss("BoldBold").kind is MissKind.DUPLICATE
    assert miss("Slug").kind is MissKind.CULLED
    assert miss("dzz").kind is MissKind.UNRESOLVED_IN_PLACE
    assert miss("xylophone").kind is MissKind.UNRESOLVED_ON_PAGE
    assert miss("xylophone").found_in_glyphs is False and miss("Slug").found_in_glyphs is True


def test_an_engine_decision_is_preferred_to_a_space_the_page_paints():
    painted = miss("Invoice")
    assert "the page itself paints a space character" in painted.message
    inserted = miss("Helloworld")
    assert "a space was inserted" in inserted.message


def test_the_document_search_lists_misses_found_in_the_glyphs_only():
    def run(query: str):
        job = search_document_job(doc(), query, "plain", DEFAULT_PARAMETERS, False, token=CancelToken())
        while True:
            try:
                next(job)
            except StopIteration as stop:
                return stop.value

    assert [e.kind for e in run("Slug").explanations] == [MissKind.CULLED]
    assert run("xylophone").explanations == ()  # "not found, but …": no place to show
