"""glyphscope: every glyph of a PDF page, and every decision that turned glyphs into text.

The engine is `glyphscope.core` (Qt-free); `glyphscope.inspector` holds the Qt-free
application layer and the command line, `glyphscope.inspector.gui` the window.

    >>> import glyphscope
    >>> with glyphscope.open(glyphscope.demo_pdf()) as doc:
    ...     page = doc.pages[1]  # indexed from 0; page.page_number == 2
    ...     words = page.words  # pdfplumber's keys (w["text"], w.x0, w.top), beside the quad
    ...     text = page.crop((0, 0, page.width, page.height / 2)).extract_text()

The engine's own entry points stay: `open_document(path)`, `analyze_page(doc, n)` (1-based).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # What type checkers and IDEs see; at run time the same names are imported on first use
    # (`__getattr__` below), so `import glyphscope` and `glyphscope --version` stay cheap.
    from pathlib import Path

    from glyphscope.core.analysis import PageAnalysis as PageAnalysis
    from glyphscope.core.analysis import analyze_page as analyze_page
    from glyphscope.core.document import Document as Document
    from glyphscope.core.document import open_document as open_document
    from glyphscope.core.params import DEFAULT_PARAMETERS as DEFAULT_PARAMETERS
    from glyphscope.core.params import Parameters as Parameters
    from glyphscope.image import PageImage as PageImage
    from glyphscope.model import PDF as PDF
    from glyphscope.model import Line as Line
    from glyphscope.model import Page as Page
    from glyphscope.model import open as open  # noqa: A004 - pdfplumber's name for it
    from glyphscope.records import Annot as Annot
    from glyphscope.records import Char as Char
    from glyphscope.records import ImageRecord as ImageRecord
    from glyphscope.records import Match as Match
    from glyphscope.records import Shape as Shape
    from glyphscope.records import TextLine as TextLine
    from glyphscope.records import Word as Word

    __version__: str


def demo_pdf() -> Path:
    """The bundled demo document (one extraction phenomenon per page), shipped as package data."""
    from importlib.resources import as_file, files  # ~10 ms: only when the demo is asked for
    from pathlib import Path

    resource = files("glyphscope.assets") / "demo.pdf"
    with as_file(resource) as path:  # a real file for wheels and source trees alike
        return Path(path)


# Name → module, for the names of the TYPE_CHECKING block (a test keeps the two in step).
_LAZY = {
    "PageAnalysis": "glyphscope.core.analysis",
    "analyze_page": "glyphscope.core.analysis",
    "Document": "glyphscope.core.document",
    "open_document": "glyphscope.core.document",
    "DEFAULT_PARAMETERS": "glyphscope.core.params",
    "Parameters": "glyphscope.core.params",
    "PageImage": "glyphscope.image",
    "PDF": "glyphscope.model",
    "Line": "glyphscope.model",
    "Page": "glyphscope.model",
    "open": "glyphscope.model",
    "Annot": "glyphscope.records",
    "Char": "glyphscope.records",
    "ImageRecord": "glyphscope.records",
    "Match": "glyphscope.records",
    "Shape": "glyphscope.records",
    "TextLine": "glyphscope.records",
    "Word": "glyphscope.records",
}


def __getattr__(name: str) -> Any:
    if name == "Line":
        import warnings

        warnings.warn(
            "glyphscope.Line is now glyphscope.TextLine (page.text_lines); page.lines are drawn lines, "
            "as pdfplumber's",
            DeprecationWarning,
            stacklevel=2,
        )
    if name == "__version__":
        from glyphscope.core.version import package_version

        return package_version()
    from glyphscope.core.lazy import lazy_names

    return lazy_names(__name__, _LAZY)(name)


def __dir__() -> list[str]:
    """The lazy names too, so `dir()` and completion (Jupyter, IDEs) list the whole API."""
    return sorted({*globals(), *__all__})


__all__ = [
    "DEFAULT_PARAMETERS",
    "PDF",
    "Annot",
    "Char",
    "Document",
    "ImageRecord",
    "Line",
    "Match",
    "Page",
    "PageAnalysis",
    "PageImage",
    "Parameters",
    "Shape",
    "TextLine",
    "Word",
    "__version__",
    "analyze_page",
    "demo_pdf",
    "open",
    "open_document",
]
