"""The page's view model split by job (issue 28, point 2): `PageFacts` holds the page and five
facets, each with one job, and no method of its own; compare counts come from the compare feature."""

from __future__ import annotations

from pathlib import Path

from glyphscope.core.analysis import analyze_page
from glyphscope.core.document import open_document
from glyphscope.inspector.compare.compared_page import compare_count
from glyphscope.inspector.views import page_facts as engine
from glyphscope.inspector.views.page_facts import (
    DecisionMarks,
    FormColours,
    GlyphFates,
    LegendCounts,
    ModeTexts,
    PageFacts,
)


def test_page_facts_has_one_facet_per_job_and_no_methods_of_its_own(demo_pdf: Path) -> None:
    own = [name for name, value in vars(PageFacts).items() if callable(value) and not name.startswith("__")]
    assert own == []
    facts = PageFacts(analyze_page(open_document(demo_pdf), 6))
    assert (
        type(facts.modes),
        type(facts.fates),
        type(facts.marks),
        type(facts.forms),
        type(facts.counts),
    ) == (
        ModeTexts,
        GlyphFates,
        DecisionMarks,
        FormColours,
        LegendCounts,
    )
    assert not hasattr(engine.PageFacts, "compare_count")


def test_each_facet_answers_from_the_page(demo_pdf: Path) -> None:
    analysis = analyze_page(open_document(demo_pdf), 6)  # page 6: text inside five Form XObjects
    facts = PageFacts(analysis)
    glyphs = analysis.page.glyphs
    # modes: the demo has no structure tree, so structure shows plain and says why
    assert facts.modes.shown_mode("structure") == "plain" and facts.modes.fallback_reason("structure")
    assert (
        facts.modes.view("plain").text == analysis.texts["plain"].text
        and "plain" not in facts.modes.pending()
    )
    facts.modes.view("layout")  # a mode's view built: it is ready, no longer pending
    assert facts.modes.ready("layout") and "layout" not in facts.modes.pending()
    # forms: one colour per form path, in order of first use
    paths = {g.form_path for g in glyphs if g.form_path}
    assert set(facts.forms.colours) >= paths and len(set(facts.forms.colours.values())) == len(
        facts.forms.colours
    )
    # counts: the legend's numbers off the records
    assert facts.counts.layers("plain")["glyphs"] == len(glyphs)
    assert sum(facts.counts.decode_sources().values()) == len(glyphs)
    assert facts.counts.verify() == {}  # not verified
    # fates: a glyph's status in words, marks: the word-gap summary of the mode
    assert facts.fates.status_of(0) == analysis.classified.status[0].value
    gaps, inserted, _ = facts.marks.word_gap_summary("plain")
    assert gaps == len(facts.modes.view("plain").word_gaps) and 0 <= inserted <= gaps
    # the Compare panel has not compared this page: its layer counts 0, from the compare feature
    assert compare_count(facts) == 0
