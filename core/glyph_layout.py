"""The text layout: shown strings become glyphs in the page's `GlyphTable`, and the pen moves.

Placing a string's glyphs is what tells how far the pen moved, so the layout is a
collaborator of the interpreter, not a recorder: the interpreter owns one per page,
hands it every string shown with a usable font, and sets the text matrix it answers.
Recorders then hear `text_shown` with the glyphs it placed (they never move the pen).
The loop writes straight into the table's columns (no record per glyph, no event per
glyph): it is the engine's hottest code.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING

from glyphscope.core.budgets import BudgetExceeded
from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.geometry import Matrix, multiply
from glyphscope.core.glyph_table import GEOM_STRIDE, GlyphRun, GlyphTable

if TYPE_CHECKING:
    from glyphscope.core.interpreter import PageInterpreter

MAX_CODE_BYTES = 4  # the longest character code of any font (CMap codespaces are 1–4 bytes)

_PACK_GEOM = struct.Struct(f"{GEOM_STRIDE}d").pack
"""A glyph's geometry as the bytes of `GlyphTable.geom` (native doubles, as `array('d')` holds them):
packing and `frombytes` cost a third of `array.extend` with a tuple."""


class GlyphCapReached(BudgetExceeded):
    """The page's glyph budget is spent inside a string: `tm` is where the pen stopped."""

    def __init__(self, cap: int, tm: Matrix) -> None:
        super().__init__("page_glyphs", cap)
        self.tm = tm


class GlyphLayout:
    """Every glyph painted on the page, in paint order: the table the interpreter's layout fills."""

    __slots__ = ("table",)

    def __init__(self) -> None:
        self.table = GlyphTable()

    def show(self, interp: PageInterpreter, font: LoadedFont, parts: Sequence[bytes | float]) -> Matrix:
        """Paint strings in the interpreter's current state; numbers between them are TJ adjustments
        in thousandths of text space. Returns the text matrix once the pen has moved past them
        (raises `GlyphCapReached`, with the matrix where it stopped, when the page's cap is hit)."""
        gs = interp.gs
        ts = gs.text
        assert ts is not None
        size = ts.font_size
        th = ts.horizontal_scaling / 100.0
        tc = ts.char_spacing
        tw = ts.word_spacing
        rise = ts.rise
        vertical = font.wmode == 1
        ascent, descent = font.ascent, font.descent
        if ascent <= descent:
            ascent, descent = 0.8, -0.2
        frame = interp.frame
        form_path = frame.form_path
        token_index = interp.token_index if not form_path else -1
        stream_index = interp.stream_index
        marked = interp.marked
        mcid = marked.active_mcid if marked is not None else None
        tags = marked.tags if marked is not None else ()
        font_key = ts.font_key
        font_id = font.info.font_id or font_key
        render_mode = ts.render_mode
        table = self.table
        tm = interp.tm

        # M = Tm × CTM, kept up to date as the pen advances (only its translation changes),
        # so everything but the pen position is the same for every glyph of the string.
        a, b, c, d, e, f = multiply(tm, gs.ctm)
        # The text rendering matrix is [size*th 0 0 size 0 rise] × M.
        sa, sb, sc, sd = size * th * a, size * th * b, size * c, size * d
        rc, rd = rise * c, rise * d
        if vertical:
            dx, dy = -c, -d  # writing goes down the text space y axis
        else:
            dx, dy = sa, sb
        norm = (dx * dx + dy * dy) ** 0.5
        direction = (dx / norm, dy / norm) if norm else (1.0, 0.0)
        height = (ascent - descent) * (sc * sc + sd * sd) ** 0.5
        asc_x, asc_y, desc_x, desc_y = ascent * sc, ascent * sd, descent * sc, descent * sd
        space_spacing = tc + tw  # Tw applies to the single-byte code 32 only (§9.3.3)
        index = len(table)
        run: GlyphRun | None = None  # started with the string's first glyph: runs are never empty
        geom_add = table.geom.frombytes
        pack = _PACK_GEOM
        unicode_append = table.unicode.append
        code_append = table.code.append
        bytes_append = table.code_bytes.append
        source_append = table.source.append
        cap = interp.limits.page_glyphs
        moved = 0.0  # total pen advance in text space, along x (horizontal) or y (vertical)
        for part in parts:
            if part.__class__ is float:
                adjust = -part / 1000.0 * size  # type: ignore[operator]
                if not vertical:
                    adjust *= th
                    e += adjust * a
                    f += adjust * b
                else:
                    e += adjust * c
                    f += adjust * d
                moved += adjust
                continue
            room = (cap - index + 1) * MAX_CODE_BYTES
            if len(part) > room:  # type: ignore[arg-type]
                part = part[:room]  # type: ignore[index]  # never decode more codes than the cap allows
            for code, nbytes, uni, source, w0 in font.decode(part):  # type: ignore[arg-type]
                if index >= cap:
                    raise GlyphCapReached(cap, moved_matrix(tm, moved, vertical))
                ox, oy = e + rc, f + rd
                wx, wy = w0 * sa, w0 * sb
                spacing = space_spacing if code == 32 and nbytes == 1 else tc
                if not vertical:
                    tx = (w0 * size + spacing) * th
                    ax, ay = tx * a, tx * b
                    x0, y0 = ox + desc_x, oy + desc_y
                    x3, y3 = ox + asc_x, oy + asc_y
                    glyph_end_x, glyph_end_y = ox + wx, oy + wy
                else:
                    w1y, vx, vy = font.vertical(code)
                    # The glyph is drawn with its position vector v at the pen (ISO 32000-1 §9.7.4.3):
                    # its box spans x ∈ [-vx, w0 - vx], y ∈ [descent - vy, ascent - vy] in glyph units.
                    tx = w1y * size + spacing
                    ax, ay = tx * c, tx * d
                    bx, by0, by1 = -vx, descent - vy, ascent - vy
                    x0, y0 = ox + bx * sa + by0 * sc, oy + bx * sb + by0 * sd
                    x3, y3 = ox + bx * sa + by1 * sc, oy + bx * sb + by1 * sd
                    glyph_end_x, glyph_end_y = ox + w1y * size * c, oy + w1y * size * d
                moved += tx
                e += ax
                f += ay
                if run is None:
                    run = GlyphRun(
                        font_key=font_key,
                        font_size=size,
                        height=height,
                        direction=direction,
                        wmode=1 if vertical else 0,
                        form_path=form_path,
                        mcid=mcid,
                        render_mode=render_mode,
                        rise=rise,
                        font_id=font_id,
                        char_spacing=tc,
                        word_spacing=tw,
                        horizontal_scaling=ts.horizontal_scaling,
                        marked_tags=tags,
                        form_use=frame.form_use_index if form_path else -1,
                        clip_id=gs.clip,
                        fill_id=gs.fill,
                        annotation=frame.annotation,
                        text_matrix=(a, b, c, d),
                    )
                    table.start_run(run, token_index, stream_index)
                geom_add(
                    pack(
                        ox,
                        oy,
                        glyph_end_x,
                        glyph_end_y,
                        ox + ax,
                        oy + ay,
                        x0,
                        y0,
                        x0 + wx,
                        y0 + wy,
                        x3 + wx,
                        y3 + wy,
                        x3,
                        y3,
                    )
                )
                unicode_append(uni)
                code_append(code)
                bytes_append(nbytes)
                source_append(source)
                index += 1
        return moved_matrix(tm, moved, vertical)


def moved_matrix(tm: Matrix, moved: float, vertical: bool) -> Matrix:
    """Tm' = T(moved) × Tm: along its x axis for horizontal writing, y for vertical."""
    tma, tmb, tmc, tmd, tme, tmf = tm
    if vertical:
        return (tma, tmb, tmc, tmd, tme + moved * tmc, tmf + moved * tmd)
    return (tma, tmb, tmc, tmd, tme + moved * tma, tmf + moved * tmb)
