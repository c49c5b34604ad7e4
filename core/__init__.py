"""glyphscope's text-extraction engine. Qt-free: the inspector only reads it."""

from glyphscope.core.document import Document, open_document
from glyphscope.core.errors import DocumentNotFound, GlyphscopeError, NotAPdf, PasswordRequired, WrongPassword
from glyphscope.core.glyph import DecodeSource, Glyph, GlyphStatus
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters

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
