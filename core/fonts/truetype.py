"""Last resort for Identity-encoded TrueType CID fonts without /ToUnicode: the font's own cmap.

CID → GID through /CIDToGIDMap (Identity or a stream of big-endian uint16), then GID →
Unicode by inverting the embedded font's best cmap subtable (fontTools). This is an
inference, not a text mapping the PDF declares (one glyph may serve several code
points; glyphs reached only through ligature substitution have no entry), so its
answers are tagged FONT_PROGRAM, apart from what the PDF declares. Loaded lazily: only fonts that reach this step pay.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

from glyphscope.core.fonts.pdfobj import as_name, dget, stream_bytes


def _is_private_use(cp: int) -> bool:
    return 0xE000 <= cp <= 0xF8FF or cp >= 0xF0000


def glyph_unicode_map(font_program: bytes) -> dict[int, str]:
    """GID → text from the font's cmap; raises what fontTools raises on a broken program."""
    from fontTools.ttLib import TTFont  # imported on first use: most runs never read a font program

    font = TTFont(io.BytesIO(font_program), lazy=True, fontNumber=0)
    best = font.getBestCmap() or {}
    out: dict[int, str] = {}
    for cp, glyph_name in sorted(best.items(), key=lambda item: (_is_private_use(item[0]), item[0])):
        gid = font.getGlyphID(glyph_name)
        if gid and gid not in out and cp >= 0x20:
            out[gid] = chr(cp)
    return out


def cid_to_gid_map(descendant: object) -> Mapping[int, int] | None:
    """CIDToGIDMap as a mapping, or None for Identity (and for anything unreadable)."""
    obj = dget(descendant, "/CIDToGIDMap")
    if obj is None or as_name(obj) == "Identity":
        return None
    data, _ = stream_bytes(obj)
    if not data:
        return None
    return {cid: (data[2 * cid] << 8) | data[2 * cid + 1] for cid in range(len(data) // 2)}
