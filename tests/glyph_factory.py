"""Synthetic Glyph records for assembly unit tests.

`GlyphFactory` hands out paint indices in call order. Geometry is derived
like the interpreter does: the quad spans descent (−0.2 h) to ascent
(0.8 h) across the writing direction, `glyph_end` = origin + own advance,
`pen_end` = glyph_end + extra (Tc/Tw/TJ given back).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from glyphscope.core.glyph import DecodeSource, Glyph

ADVANCE = 0.5  # default own advance per glyph, in em


def _pt(ox: float, oy: float, ux: float, uy: float, along: float, across: float) -> tuple[float, float]:
    return (ox + ux * along - uy * across, oy + uy * along + ux * across)


def make_glyph(
    paint_index: int,
    text: str,
    x: float,
    y: float,
    *,
    height: float = 12.0,
    advance: float | None = None,
    angle: float = 0.0,
    pen_extra: float = 0.0,
    font_size: float | None = None,
    mcid: int | None = None,
    unresolved: bool = False,
    rise: float = 0.0,
) -> Glyph:
    """One horizontal-mode glyph at origin (x, y) written along `angle` degrees."""
    rad = math.radians(angle)
    ux, uy = round(math.cos(rad), 12), round(math.sin(rad), 12)
    adv = ADVANCE * height if advance is None else advance
    end = _pt(x, y, ux, uy, adv, 0.0)
    pen = _pt(x, y, ux, uy, adv + pen_extra, 0.0)
    lo, hi = -0.2 * height, 0.8 * height
    quad = (
        _pt(x, y, ux, uy, 0, lo),
        _pt(x, y, ux, uy, adv, lo),
        _pt(x, y, ux, uy, adv, hi),
        _pt(x, y, ux, uy, 0, hi),
    )
    return Glyph(
        paint_index=paint_index,
        unicode="" if unresolved else text,
        code=ord(text[0]) if text else 0,
        code_bytes=1,
        font_key="/F1",
        font_size=height if font_size is None else font_size,
        origin=(x, y),
        glyph_end=end,
        pen_end=pen,
        quad=quad,
        height=height,
        direction=(ux, uy),
        wmode=0,
        token_index=paint_index,
        form_path=(),
        mcid=mcid,
        decode_source=DecodeSource.UNRESOLVED if unresolved else DecodeSource.TOUNICODE,
        render_mode=0,
        rise=rise,
        font_id="1 0 R",
    )


def make_vertical_glyph(paint_index: int, text: str, x: float, y: float, *, size: float = 12.0) -> Glyph:
    """A wmode-1 glyph: box centred on x, from y down by one em (writing direction downwards)."""
    quad = ((x - size / 2, y - size), (x + size / 2, y - size), (x + size / 2, y), (x - size / 2, y))
    return Glyph(
        paint_index=paint_index,
        unicode=text,
        code=ord(text[0]),
        code_bytes=2,
        font_key="/F1",
        font_size=size,
        origin=(x, y),
        glyph_end=(x, y - size),
        pen_end=(x, y - size),
        quad=quad,
        height=size,
        direction=(0.0, -1.0),
        wmode=1,
        token_index=paint_index,
        form_path=(),
        mcid=None,
        decode_source=DecodeSource.TOUNICODE,
        render_mode=0,
        rise=0.0,
        font_id="1 0 R",
    )


@dataclass
class GlyphFactory:
    """Builds a paint-ordered glyph list; `run` lays out a string glyph by glyph."""

    glyphs: list[Glyph] = field(default_factory=list)

    def glyph(self, text: str, x: float, y: float, **kw: object) -> Glyph:
        g = make_glyph(len(self.glyphs), text, x, y, **kw)  # type: ignore[arg-type]
        self.glyphs.append(g)
        return g

    def vertical(self, text: str, x: float, y: float, size: float = 12.0) -> list[Glyph]:
        """A vertical column of glyphs from (x, y) downwards."""
        out = []
        for i, ch in enumerate(text):
            g = make_vertical_glyph(len(self.glyphs), ch, x, y - i * size, size=size)
            self.glyphs.append(g)
            out.append(g)
        return out

    def run(
        self,
        text: str,
        x: float,
        y: float,
        *,
        height: float = 12.0,
        advance: float | None = None,
        angle: float = 0.0,
        pen_extra: float = 0.0,
        extra_gap: float = 0.0,
        **kw: object,
    ) -> float:
        """Glyphs of `text` one after the other along `angle`; each next origin is the previous
        pen_end plus `extra_gap`. Returns the position along the line after the last glyph."""
        rad = math.radians(angle)
        ux, uy = math.cos(rad), math.sin(rad)
        adv = ADVANCE * height if advance is None else advance
        pos = 0.0
        for ch in text:
            self.glyph(
                ch,
                x + ux * pos,
                y + uy * pos,
                height=height,
                advance=adv,
                angle=angle,
                pen_extra=pen_extra,
                **kw,
            )
            pos += adv + pen_extra + extra_gap
        return pos
