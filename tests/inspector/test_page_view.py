"""The page-view contract (inspector.views.page_view): each stage of a page, read without a window."""

from __future__ import annotations

from pathlib import Path

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES
from glyphscope.core.document import open_document
from glyphscope.inspector.views.page_facts import ModeTexts, PageBundle, PageFacts
from glyphscope.inspector.views.page_view import NO_PAGE, Stage, page_state


def _facts(demo_pdf: Path, page: int) -> tuple[PageBundle, PageFacts]:
    doc = open_document(demo_pdf)
    analysis = analyze_page(doc, page)
    for mode in MODES:  # assembled here as the page worker does (texts are lazy)
        assert analysis.texts[mode] is not None
    facts = PageFacts(analysis)
    return PageBundle(page, analysis.page.boxes, analysis, facts), facts


def test_nothing_open_then_loading_then_error() -> None:
    assert page_state(None, None, 0) is NO_PAGE and NO_PAGE.message == "No page loaded."
    loading = page_state(None, "plain", 3)
    assert (
        loading.stage is Stage.LOADING and loading.page_number == 3 and loading.message == "Loading page 3…"
    )
    assert not loading.ready and not loading.failed and loading.facts is None


def test_preview_and_error_bundles(demo_pdf: Path) -> None:
    bundle, _ = _facts(demo_pdf, 2)
    preview = PageBundle(2, bundle.boxes, preview=True)
    state = page_state(preview, None, 2)
    assert state.stage is Stage.LOADING and state.message == "Loading page 2…"
    broken = PageBundle(2, bundle.boxes, error="page 2: content stream is damaged")
    state = page_state(broken, "plain", 2)
    assert (
        state.stage is Stage.ERROR and state.failed and state.message == "page 2: content stream is damaged"
    )


def test_page_only_is_ready_with_the_facts(demo_pdf: Path) -> None:
    bundle, facts = _facts(demo_pdf, 2)
    state = page_state(bundle, None, 2)
    assert state.stage is Stage.READY and state.facts is facts and state.shown_mode is None
    assert state.message == "" and state.fallback is None


def test_a_mode_ready_with_its_fallback(demo_pdf: Path) -> None:
    bundle, facts = _facts(demo_pdf, 2)  # page 2 of the demo has no structure tree
    plain = page_state(bundle, "plain", 2)
    assert plain.ready and plain.shown_mode == "plain" and plain.fallback is None
    structure = page_state(bundle, "structure", 2)
    reason = facts.analysis.texts["structure"].reason
    assert reason and structure.ready and structure.shown_mode == "plain" and structure.fallback == reason


def test_a_mode_pending_then_failed(demo_pdf: Path, monkeypatch) -> None:
    bundle, facts = _facts(demo_pdf, 2)
    monkeypatch.setattr(ModeTexts, "shown_ready", lambda self, mode: mode != "layout")
    pending = page_state(bundle, "layout", 2)
    assert pending.stage is Stage.TEXT_PENDING and pending.facts is facts and not pending.ready
    assert pending.message.startswith("Assembling the Layout text…")
    assert page_state(bundle, "plain", 2).ready  # another mode is not held up
    facts.modes.failures["layout"] = "layout: the grid needs 40,000 columns (budget 10,000)"
    failed = page_state(bundle, "layout", 2)
    assert failed.stage is Stage.TEXT_FAILED and failed.failed
    assert failed.message == "layout: the grid needs 40,000 columns (budget 10,000)"
