"""Fonts: the decoding chain (spec §6), widths and vertical metrics."""

from glyphscope.core.fonts.base import FontInfo, LoadedFont
from glyphscope.core.fonts.loader import FontCache, load_font

__all__ = ["FontCache", "FontInfo", "LoadedFont", "load_font"]
