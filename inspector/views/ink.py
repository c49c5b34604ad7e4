"""Where a glyph's ink lies inside its box, for hit-testing (Qt-free).

A glyph's quad spans the font's whole ascent and descent: on display type set solid, the box
of a "“" or an "F" of one line reaches far over the letters of the next. The ink of a letter
is much smaller and depends on the letter: an "a" stands between the baseline and the
x-height, an "F" reaches the cap height, a "“" hangs near it, a "," sits on the baseline, a
space has none. The band of each kind is given in ems above the baseline (typical Latin
metrics: x-height 0.5, cap height 0.7, descenders to -0.22); the em is read off the quad with
the font's own ascent and descent. Glyphs whose shape these bands do not describe (other
scripts, vertical writing, Type3 glyph procedures) keep their whole quad as their ink.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from glyphscope.core.geometry import Point, Quad

if TYPE_CHECKING:
    from glyphscope.core.glyph import Glyph
    from glyphscope.core.page import PageFont

X_HEIGHT = 0.5
CAP_HEIGHT = 0.7
ASCENDER = 0.74
DESCENDER = -0.22
DEFAULT_ASCENT = 0.8
"""The ascent (ems) assumed when the font states none: the quad then stands for 0.8 em above the baseline."""

ASCENDING = frozenset("bdfhklt")
DESCENDING = frozenset("gpqy")
HIGH_MARKS = frozenset("'\"`´^°*‘’‚“”„‹›«»ʼ˜¨ˆ")
"""Marks that hang near the cap height (quotes, primes, the degree sign)."""
LOW_MARKS = frozenset(".,…")
DASHES = frozenset("-‐‑‒–—―−~=+·•")
TALL_MARKS = frozenset("()[]{}/\\|!?&@$%#§¶†‡")

Band = tuple[float, float]
"""(bottom, top) of the ink in ems above the baseline."""


def _latin_base(ch: str) -> tuple[str, bool]:
    """The base letter of a precomposed Latin letter and whether a mark sits above it ("é" → "e", True)."""
    decomposed = unicodedata.normalize("NFD", ch)
    if len(decomposed) > 1 and decomposed[0].isascii():
        above = any(unicodedata.combining(m) and m not in "\u0323\u0327\u0328" for m in decomposed[1:])
        return decomposed[0], above
    return ch, False


def ink_band(text: str) -> Band | None:
    """The band of a glyph's ink in ems (bottom, top); None: no ink (a space); the whole
    box is wanted when the text is not one character these bands describe (`WHOLE_BOX`)."""
    if not text or text.isspace():
        return None
    if len(text) != 1:
        return WHOLE_BOX if not all(c in "fil" for c in text) else (0.0, ASCENDER)  # "fi", "ffl"
    ch, above = _latin_base(text)
    top_extra = 0.2 if above else 0.0
    if ch in HIGH_MARKS:
        return (CAP_HEIGHT - 0.3, CAP_HEIGHT + 0.02)
    if ch in LOW_MARKS:
        return (-0.15, 0.15)
    if ch in ":;":
        return (-0.15, X_HEIGHT)
    if ch == "_":
        return (DESCENDER, 0.0)
    if ch in DASHES:
        return (0.1, 0.45)
    if ch in TALL_MARKS:
        return (DESCENDER, ASCENDER)
    if not ch.isascii() or not ch.isalnum():
        return WHOLE_BOX
    if ch.isdigit() or ch.isupper():
        return (0.0, CAP_HEIGHT + top_extra)
    if ch in ("i", "j"):
        return (DESCENDER if ch == "j" else 0.0, ASCENDER)
    if ch in ASCENDING:
        return (0.0, ASCENDER + top_extra)
    if ch in DESCENDING:
        return (DESCENDER, X_HEIGHT + top_extra)
    return (0.0, X_HEIGHT + top_extra)


WHOLE_BOX: Band = (-math.inf, math.inf)
"""The band that keeps the glyph's whole quad (cut to its ascent and descent)."""


def ink_quad(glyph: Glyph, ascent: float = 0.0) -> Quad | None:
    """The quad of a glyph's ink: its own quad cut to the band of its character; None: no ink.

    `ascent` is the font's ascent in ems (FontInfo.ascent; 0: not stated; below 0: a font
    whose glyphs these bands do not describe, a Type3 font). Horizontal glyphs only: a vertical
    glyph (wmode 1) keeps its quad."""
    quad: Quad = glyph.quad
    band = ink_band(glyph.unicode)
    if band is None:
        return None
    if band == WHOLE_BOX or glyph.wmode or ascent < 0:
        return quad
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
    ox, oy = glyph.origin
    up_x, up_y = x3 - x0, y3 - y0  # from the descent to the ascent edge
    height = math.hypot(up_x, up_y)
    if height == 0.0 or not math.isfinite(height):
        return quad
    ux, uy = up_x / height, up_y / height
    above = (x3 - ox) * ux + (y3 - oy) * uy  # how far the ascent edge lies above the origin
    below = (ox - x0) * ux + (oy - y0) * uy  # how far the descent edge lies below it
    em = above / (ascent if ascent > 0.05 else DEFAULT_ASCENT)
    if em <= 0.0:
        return quad
    bottom = max(band[0] * em, -below)
    top = min(band[1] * em, above)
    if top <= bottom:
        return quad
    # the quad's bottom edge runs along the advance at the descent: move it to `bottom` and `top`
    b0 = (x0 + ux * (below + bottom), y0 + uy * (below + bottom))
    b1 = (x1 + ux * (below + bottom), y1 + uy * (below + bottom))
    return (
        b0,
        b1,
        (b1[0] + ux * (top - bottom), b1[1] + uy * (top - bottom)),
        (b0[0] + ux * (top - bottom), b0[1] + uy * (top - bottom)),
    )


def ink_quads(glyphs: Sequence[Glyph], ascents: Mapping[str, float] | None = None) -> list[Quad | None]:
    """`ink_quad` of every glyph; `ascents` maps a font id to its ascent in ems."""
    ascents = ascents or {}
    return [ink_quad(g, ascents.get(g.font_id, 0.0)) for g in glyphs]


def font_ascents(fonts: Iterable[PageFont]) -> dict[str, float]:
    """{font id: ascent in ems} of a page's fonts (`InterpretedPage.fonts`), where stated
    (-1 for a Type3 font)."""
    out: dict[str, float] = {}
    for page_font in fonts:
        info = page_font.info
        if info.subtype == "Type3":
            out[info.font_id] = -1.0  # its glyphs are drawings of any shape: the whole box
        elif info.ascent > 0:
            out[info.font_id] = info.ascent
    return out


def ink_centre(quad: Quad) -> Point:
    return ((quad[0][0] + quad[2][0]) * 0.5, (quad[0][1] + quad[2][1]) * 0.5)
