"""One call for everything the inspector and the CLI show about a page.

Interpretation is the expensive part and is cached by the Document;
`reassemble` re-runs only the passes and assembly, for live tuning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from core.assembly import MODES, PageText, assemble
from core.document import Document
from core.page import InterpretedPage
from core.params import DEFAULT_PARAMETERS, Parameters
from core.passes import ClassifiedGlyphs, classify
from core.structure import PageStructure


@dataclass(frozen=True, slots=True)
class PageAnalysis:
    page: InterpretedPage
    classified: ClassifiedGlyphs
    structure: PageStructure
    texts: Mapping[str, PageText]  # every mode of core.assembly.MODES
    params: Parameters

    @property
    def page_number(self) -> int:
        return self.page.page_number


def _assemble_all(
    page: InterpretedPage, classified: ClassifiedGlyphs, structure: PageStructure, params: Parameters
) -> Mapping[str, PageText]:
    texts = {
        mode: assemble(
            classified.visible, mode, params, visible_box=page.boxes.visible_box, structure=structure
        )
        for mode in MODES
    }
    return MappingProxyType(texts)


def analyze_page(doc: Document, page_number: int, params: Parameters = DEFAULT_PARAMETERS) -> PageAnalysis:
    page = doc.interpret(page_number)
    structure = doc.structure(page_number)
    classified = classify(page, params)
    return PageAnalysis(
        page, classified, structure, _assemble_all(page, classified, structure, params), params
    )


def reassemble(analysis: PageAnalysis, params: Parameters) -> PageAnalysis:
    """Same page, other thresholds: no re-interpretation."""
    classified = classify(analysis.page, params)
    texts = _assemble_all(analysis.page, classified, analysis.structure, params)
    return PageAnalysis(analysis.page, classified, analysis.structure, texts, params)
