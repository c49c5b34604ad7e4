"""One call for everything the inspector and the CLI show about a page.

Interpretation is the expensive part and is cached by the Document;
`reassemble` re-runs only the passes and assembly, for live tuning.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from glyphscope.core.assembly import MODES, PageText, assemble
from glyphscope.core.document import Document
from glyphscope.core.page import InterpretedPage
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.passes import ClassifiedGlyphs, classify
from glyphscope.core.structure import PageStructure


@dataclass(frozen=True, slots=True)
class PageAnalysis:
    page: InterpretedPage
    classified: ClassifiedGlyphs
    structure: PageStructure
    texts: Mapping[str, PageText]  # every mode of core.assembly.MODES, assembled on first access
    params: Parameters

    @property
    def page_number(self) -> int:
        return self.page.page_number


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
