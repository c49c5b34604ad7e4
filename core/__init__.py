"""glyphscope's text-extraction engine. Qt-free: the inspector only reads it.

The names below are imported on first use (PEP 562): importing any module of the engine
runs this file first, and a command that needs `core.limits` or `core.gcpause` must not
pay for the interpreter, the fonts and pikepdf at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from glyphscope.core.lazy import lazy_names

if TYPE_CHECKING:
    from glyphscope.core.document import Document, open_document
    from glyphscope.core.errors import (
        DocumentNotFound,
        GlyphscopeError,
        NotAPdf,
        PasswordRequired,
        WrongPassword,
    )
    from glyphscope.core.glyph import DecodeSource, Glyph, GlyphStatus
    from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters

_LAZY = {
    "DEFAULT_PARAMETERS": "glyphscope.core.params",
    "DecodeSource": "glyphscope.core.glyph",
    "Document": "glyphscope.core.document",
    "DocumentNotFound": "glyphscope.core.errors",
    "Glyph": "glyphscope.core.glyph",
    "GlyphStatus": "glyphscope.core.glyph",
    "GlyphscopeError": "glyphscope.core.errors",
    "NotAPdf": "glyphscope.core.errors",
    "Parameters": "glyphscope.core.params",
    "PasswordRequired": "glyphscope.core.errors",
    "WrongPassword": "glyphscope.core.errors",
    "open_document": "glyphscope.core.document",
}


_find = lazy_names(__name__, _LAZY)


def __getattr__(name: str) -> Any:
    return _find(name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "DEFAULT_PARAMETERS",
    "DecodeSource",
    "Document",
    "DocumentNotFound",
    "Glyph",
    "GlyphStatus",
    "GlyphscopeError",
    "NotAPdf",
    "Parameters",
    "PasswordRequired",
    "WrongPassword",
    "open_document",
]
