"""The inspector's Qt-free model: what is open, which page, what is selected.

Views subscribe to the events below and never talk to each other; every
setter emits only when the value really changes (napari's evented model,
without Qt, so the model can be tested and reused headless).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from glyphscope.core.assembly import MODES
from glyphscope.core.limits import DEFAULT_LIMITS, Limits
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.inspector.layers.registry import LAYERS
from glyphscope.inspector.views.page_facts import counterpart

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.decision_protocol import Describable
    from glyphscope.core.document import Document
    from glyphscope.core.glyph import Glyph
    from glyphscope.inspector.verify.check import VerifyResult
    from glyphscope.inspector.verify.view import FontProposal
    from glyphscope.inspector.views.page_facts import PageBundle, PageFacts

__all__ = ["MODES", "Event", "Session", "SessionEvents"]

Callback = TypeVar("Callback", bound=Callable[..., object])


class Event:
    """A list of callbacks; `emit` calls them in connection order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._callbacks: list[Callable[..., object]] = []

    def connect(self, callback: Callback) -> Callback:
        if callback not in self._callbacks:
            self._callbacks.append(callback)
        return callback

    def disconnect(self, callback: Callable[..., object]) -> None:
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def emit(self, *args: object) -> None:
        for callback in list(self._callbacks):
            callback(*args)

    def __len__(self) -> int:
        return len(self._callbacks)


class SessionEvents:
    def __init__(self) -> None:
        self.document = Event("document")  # (document | None)
        self.page = Event("page")  # (page_number)
        # (engine.PageBundle | None): the current page as the views show it; the one channel
        # through which page data reaches the panels.
        self.view = Event("view")
        # (engine.PageBundle): more of the current view's texts are assembled (PageFacts.ready);
        # a page is shown before its texts
        self.texts = Event("texts")
        self.selection = Event("selection")  # (frozenset[int], source)
        # (decision record | None): a decision mark clicked on the canvas; its glyphs are the selection
        self.decision = Event("decision")
        self.hovered = Event("hovered")  # (paint_index | None)
        self.layers = Event("layers")  # (key, visible)
        self.mode = Event("mode")  # (mode)
        self.params = Event("params")  # (Parameters)
        self.limits = Event("limits")  # (core.limits.Limits): pages must be interpreted again
        self.status = Event("status")  # (message)
        self.notes = Event("notes")  # (text): the user's notes on the document, for the report
        # (page_number): the OCR cross-check of that page is in (Session.verified), or was dropped
        self.verified = Event("verified")
        # (font_id): a proposed mapping was accepted or rejected (Session.accepted / rejected)
        self.proposals = Event("proposals")


class Session:
    """One open document and everything the views show about it."""

    def __init__(self) -> None:
        self.events = SessionEvents()
        self.document: Document | None = None
        self.source: Path | None = None
        self.password: str | None = None
        self.page_count = 0
        self.page_number = 0  # 1-based; 0 when nothing is open
        self.view: PageBundle | None = None  # the current page's view model
        self.selection: frozenset[int] = frozenset()
        self.selection_source = ""
        self.decision: Describable | None = None  # the selected decision record
        self.hovered: int | None = None
        self.layers: dict[str, bool] = {layer.key: layer.default_visible for layer in LAYERS}
        self.mode = "plain"
        self.params: Parameters = DEFAULT_PARAMETERS
        self.limits: Limits = DEFAULT_LIMITS  # the engine's budgets, for this and later documents
        self.notes = ""  # what the user wrote about this document (the HTML report's Notes)
        # The OCR cross-check and the repair, per document: page → its verify result, and per font
        # id the proposed mapping a user accepted (what File › Save repaired copy writes) or rejected.
        self.verified: dict[int, VerifyResult] = {}
        self.accepted: dict[str, FontProposal] = {}
        self.rejected: set[str] = set()
        # font id → code → the user's decision in the mapping editor: text typed or confirmed,
        # None left out (what the repaired copy writes for the code, whatever the evidence)
        self.code_decisions: dict[str, dict[int, str | None]] = {}

    # -- document and page ---------------------------------------------------------------
    def set_document(
        self, document: Document | None, source: Path | None = None, password: str | None = None
    ) -> None:
        if document is self.document:
            return
        self.document = document
        self.source = source
        self.password = password
        self.page_count = int(getattr(document, "page_count", 0) or 0) if document is not None else 0
        self.page_number = 0
        had_view, self.view = self.view is not None, None
        self.selection = frozenset()
        self.hovered = None
        self.verified = {}
        self.accepted = {}
        self.rejected = set()
        self.code_decisions = {}
        self._drop_decision()
        self.events.document.emit(document)
        self.set_notes("")  # notes are about one document
        if had_view:
            self.events.view.emit(None)

    def set_notes(self, text: str) -> None:
        if text != self.notes:
            self.notes = text
            self.events.notes.emit(text)

    def set_page(self, page_number: int) -> None:
        if self.page_count <= 0:
            return
        page_number = max(1, min(int(page_number), self.page_count))
        if page_number == self.page_number:
            return
        self.page_number = page_number
        had_view, self.view = self.view is not None, None
        self.hovered = None
        self._drop_decision()
        if self.selection:
            self.selection = frozenset()
            self.selection_source = ""
            self.events.selection.emit(self.selection, "")
        if had_view:
            self.events.view.emit(None)
        self.events.page.emit(page_number)

    def set_view(self, view: PageBundle | None) -> None:
        """Show `view` (a preview, the analysed page, or the same page re-assembled).

        Ignored when it belongs to a page that is no longer current (a late worker result);
        emits only when the view model really changes.
        """
        if view is not None and view.page_number != self.page_number:
            return
        if view is self.view:
            return
        self.view = view
        decision = self.decision
        if view is not None and view.facts is not None:
            view.facts.verification = self.verified.get(view.page_number)
            if decision is not None:  # the page analysed again (a switch): the record as it is now
                self.decision = counterpart(view.facts, decision)
        self.events.view.emit(view)
        if self.decision is not decision:
            self.events.decision.emit(self.decision)

    def texts_ready(self, view: PageBundle) -> None:
        """The worker has assembled more texts of `view`; the panels that waited show them."""
        if view is self.view:
            self.events.texts.emit(view)

    @property
    def facts(self) -> PageFacts | None:
        """The current page's facts, or None while it loads, when it failed or nothing is open."""
        return self.view.facts if self.view is not None else None

    @property
    def analysis(self) -> PageAnalysis | None:
        """core.analysis.PageAnalysis of the current page, or None."""
        return self.view.analysis if self.view is not None else None

    @property
    def page_error(self) -> str | None:
        return self.view.error if self.view is not None else None

    # -- selection and hover -------------------------------------------------------------
    def select(self, paint_indices: Iterable[int], source: str = "", *, keep_decision: bool = False) -> None:
        selection = frozenset(int(i) for i in paint_indices)
        if not keep_decision:
            self._drop_decision()
        if selection == self.selection:
            return
        self.selection = selection
        self.selection_source = source
        self.events.selection.emit(selection, source)

    def clear_selection(self, source: str = "") -> None:
        self.select((), source)

    def select_decision(self, record: Describable | None, source: str = "") -> None:
        """Select a decision record: its glyphs become the selection and views show its numbers."""
        glyphs = [
            int(i)
            for i in (
                getattr(record, "before", None),
                getattr(record, "after", None),
                getattr(record, "glyph", None),
            )
            if isinstance(i, int) and i >= 0
        ]
        changed = record is not self.decision
        self.decision = record
        self.select(glyphs, source, keep_decision=True)
        if changed:
            self.events.decision.emit(record)

    def _drop_decision(self) -> None:
        if self.decision is not None:
            self.decision = None
            self.events.decision.emit(None)

    def set_hovered(self, paint_index: int | None) -> None:
        if paint_index == self.hovered:
            return
        self.hovered = paint_index
        self.events.hovered.emit(paint_index)

    # -- view options --------------------------------------------------------------------
    def set_layer_visible(self, key: str, visible: bool) -> None:
        if key not in self.layers:
            raise KeyError(f"unknown layer {key!r}")
        visible = bool(visible)
        if self.layers[key] == visible:
            return
        self.layers[key] = visible
        self.events.layers.emit(key, visible)

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
        if mode == self.mode:
            return
        self.mode = mode
        self.events.mode.emit(mode)

    def set_params(self, params: Parameters) -> None:
        if params == self.params:
            return
        self.params = params
        self.events.params.emit(params)

    def set_limits(self, limits: Limits) -> None:
        """New budgets: the open document drops its interpreted pages; later documents open with them."""
        if limits == self.limits:
            return
        self.limits = limits
        if self.document is not None and hasattr(self.document, "set_limits"):
            self.document.set_limits(limits)
        self.events.limits.emit(limits)

    # -- the OCR cross-check and the repair ----------------------------------------------------
    def set_verification(self, page_number: int, result: VerifyResult | None) -> None:
        """Keep (None: drop) the verify result of a page of the open document; the current page's
        facts carry it for the canvas layers and the legend."""
        if result is None:
            self.verified.pop(page_number, None)
        else:
            self.verified[page_number] = result
        if self.view is not None and self.view.page_number == page_number and self.view.facts is not None:
            self.view.facts.verification = result
        self.events.verified.emit(page_number)

    @property
    def verification(self) -> VerifyResult | None:
        """The current page's verify result, or None (not verified)."""
        return self.verified.get(self.page_number)

    def decide(self, proposal: FontProposal, accept: bool) -> None:
        """Accept (kept for File › Save repaired copy) or reject a font's proposed mapping."""
        font_id = proposal.font_id
        if accept:
            self.accepted[font_id] = proposal
            self.rejected.discard(font_id)
        else:
            self.accepted.pop(font_id, None)
            self.rejected.add(font_id)
        self.events.proposals.emit(font_id)

    def decide_code(self, font_id: str, code: int, text: str | None | Literal[False]) -> None:
        """The user's decision on one code of a font's mapping: `text` (typed, or the proposal
        confirmed) is written; None leaves the code out; False forgets the decision (the evidence
        decides again)."""
        codes = self.code_decisions.setdefault(font_id, {})
        if text is False:
            codes.pop(code, None)
        else:
            codes[code] = text
        if not codes:
            self.code_decisions.pop(font_id, None)
        self.events.proposals.emit(font_id)

    def report(self, message: str) -> None:
        self.events.status.emit(message)

    # -- convenience for views -----------------------------------------------------------
    def glyph(self, paint_index: int) -> Glyph | None:
        if self.analysis is None:
            return None
        glyphs = self.analysis.page.glyphs
        if 0 <= paint_index < len(glyphs):
            return glyphs[paint_index]
        return None
