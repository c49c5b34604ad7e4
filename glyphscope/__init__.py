"""glyphscope: every glyph of a PDF page, and every decision that turned glyphs into text.

The engine is `glyphscope.core` (Qt-free); `glyphscope.inspector` holds the Qt-free
application layer and the command line, `glyphscope.inspector.gui` the window.

    >>> import glyphscope
    >>> doc = glyphscope.open_document(glyphscope.demo_pdf())
    >>> page = glyphscope.analyze_page(doc, 2)
    >>> page.texts["plain"].text.splitlines()[0]
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path


@cache
def _version() -> str:
    from importlib import metadata  # ~40 ms: only when a version is asked for

    try:
        return metadata.version("glyphscope")
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


def demo_pdf() -> Path:
    """The bundled demo document (one extraction phenomenon per page), shipped as package data."""
    from importlib.resources import as_file, files  # ~10 ms: only when the demo is asked for
    from pathlib import Path

    resource = files("glyphscope.assets") / "demo.pdf"
    with as_file(resource) as path:  # a real file for wheels and source trees alike
        return Path(path)


# The engine is imported on first use, so `glyphscope --version` and `import glyphscope` stay cheap.
_LAZY = {
    "PageAnalysis": "glyphscope.core.analysis",
    "analyze_page": "glyphscope.core.analysis",
    "Document": "glyphscope.core.document",
    "open_document": "glyphscope.core.document",
    "DEFAULT_PARAMETERS": "glyphscope.core.params",
    "Parameters": "glyphscope.core.params",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        return _version()
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'glyphscope' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "DEFAULT_PARAMETERS",
    "Document",
    "PageAnalysis",
    "Parameters",
    "__version__",
    "analyze_page",
    "demo_pdf",
    "open_document",
]
