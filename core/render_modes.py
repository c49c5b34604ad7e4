"""Text render modes (the Tr operand, ISO 32000-1 §9.3.6, Table 106): whether a glyph is filled,
stroked, neither, and whether it adds to the clipping path."""

from __future__ import annotations

from enum import IntEnum


class TextRenderMode(IntEnum):
    FILL = 0
    STROKE = 1
    FILL_STROKE = 2
    INVISIBLE = 3
    FILL_CLIP = 4
    STROKE_CLIP = 5
    FILL_STROKE_CLIP = 6
    CLIP = 7


INVISIBLE_RENDER_MODES: frozenset[int] = frozenset({TextRenderMode.INVISIBLE, TextRenderMode.CLIP})
"""Neither filled nor stroked: the text is there for search and copy (OCR layers, hidden text)
but nothing is painted."""

FILL_ONLY_RENDER_MODES: frozenset[int] = frozenset({TextRenderMode.FILL, TextRenderMode.FILL_CLIP})
"""Filled, not stroked: the fill colour and its alpha alone decide whether the glyph shows."""
