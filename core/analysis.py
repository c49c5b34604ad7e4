"""One call for everything the inspector and the CLI show about a page.

Interpretation is the expensive part and is cached by the Document;
`reassemble` re-runs only the passes and assembly, for live tuning.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any

from glyphscope.core.assembly import MODES, PageText, assemble
from glyphscope.core.diagnostics import Diagnostic
from glyphscope.core.document import Document
from glyphscope.core.page import InterpretedPage
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.passes import ClassifiedGlyphs, classify
from glyphscope.core.structure import PageStructure


class PageAnalysis:
    """Everything one page produces: the only page product (CLI, triage, window, search).

    Glyphs and their classification are computed up front; texts, decisions and
    findings are made on first access, so a caller pays only for what it reads.
    """

    __slots__ = ("page", "classified", "structure", "texts", "params", "_findings", "_decisions")

    def __init__(
        self,
        page: InterpretedPage,
        classified: ClassifiedGlyphs,
        structure: PageStructure,
        texts: Mapping[str, PageText],
        params: Parameters,
    ) -> None:
        self.page = page
        self.classified = classified
        self.structure = structure
        self.texts = texts  # every mode of core.assembly.MODES, assembled on first access
        self.params = params
        self._findings: tuple[Diagnostic, ...] | None = None
        self._decisions: dict[str, tuple[Any, ...]] = {}

    @property
    def page_number(self) -> int:
        return self.page.page_number

    @property
    def findings(self) -> tuple[Diagnostic, ...]:
        """The interpreter's diagnostics, then the passes' and the structure's findings."""
        if self._findings is None:
            from glyphscope.core.findings import pass_findings, structure_findings

            self._findings = (
                *self.page.diagnostics,
                *pass_findings(self.page, self.classified),
                *structure_findings(self.page, self.classified, self.structure),
            )
        return self._findings

    def decisions(self, mode: str = "plain") -> tuple[Any, ...]:
        """Every decision that made the page text in `mode`: the passes' (cull, duplicate, ...)
        first, then assembly's, each a record with to_json() and describe()."""
        found = self._decisions.get(mode)
        if found is None:
            from glyphscope.core.decision_set import page_decisions

            found = self._decisions[mode] = tuple(
                page_decisions(self.page, self.classified, self.texts[mode], self.params)
            )
        return found


class LazyTexts(Mapping[str, PageText]):
    """The page text of every mode, each assembled on first access (thread-safe).

    A whole-document extraction or a search needs one mode per page; the window
    reads them all, from its worker thread, before it shows the page.
    """

    def __init__(
        self,
        page: InterpretedPage,
        classified: ClassifiedGlyphs,
        structure: PageStructure,
        params: Parameters,
    ) -> None:
        self._page = page
        self._classified = classified
        self._structure = structure
        self._params = params
        self._done: dict[str, PageText] = {}
        self._lock = threading.Lock()

    def __getitem__(self, mode: str) -> PageText:
        found = self._done.get(mode)
        if found is not None:
            return found
        if mode not in MODES:
            raise KeyError(mode)
        with self._lock:
            found = self._done.get(mode)
            if found is None:
                found = self._done[mode] = assemble(
                    self._classified.visible,
                    mode,
                    self._params,
                    visible_box=self._page.boxes.visible_box,
                    structure=self._structure,
                )
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(MODES)

    def __len__(self) -> int:
        return len(MODES)


def analyze_page(doc: Document, page_number: int, params: Parameters = DEFAULT_PARAMETERS) -> PageAnalysis:
    page = doc.interpret(page_number)
    structure = doc.structure(page_number)
    classified = classify(page, params)
    return PageAnalysis(page, classified, structure, LazyTexts(page, classified, structure, params), params)


def reassemble(analysis: PageAnalysis, params: Parameters) -> PageAnalysis:
    """Same page, other thresholds: no re-interpretation."""
    classified = classify(analysis.page, params)
    texts = LazyTexts(analysis.page, classified, analysis.structure, params)
    return PageAnalysis(analysis.page, classified, analysis.structure, texts, params)
