"""Text objects, text state and text showing (ISO 32000-1 §9.3, §9.4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pikepdf

from glyphscope.core.diagnostics import DiagnosticKind, Severity
from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.geometry import IDENTITY
from glyphscope.core.glyph_layout import GlyphCapReached
from glyphscope.core.instructions import NO_OPERANDS, OperatorTable, QpdfError, number

if TYPE_CHECKING:
    from glyphscope.core.interpreter import PageInterpreter


def op_BT(interp: PageInterpreter, _: list[Any]) -> None:
    interp.in_text = True
    interp.tm = interp.tlm = IDENTITY


def op_ET(interp: PageInterpreter, _: list[Any]) -> None:
    interp.in_text = False


def op_Tf(interp: PageInterpreter, o: list[Any]) -> None:
    key, size = o
    ts = interp.ts
    ts.font_key = key
    ts.font_size = size
    ts.font = font_of(interp, key)


def op_Tc(interp: PageInterpreter, o: list[Any]) -> None:
    interp.ts.char_spacing = o[0]


def op_Tw(interp: PageInterpreter, o: list[Any]) -> None:
    interp.ts.word_spacing = o[0]


def op_Tz(interp: PageInterpreter, o: list[Any]) -> None:
    interp.ts.horizontal_scaling = o[0]


def op_TL(interp: PageInterpreter, o: list[Any]) -> None:
    interp.ts.leading = o[0]


def op_Ts(interp: PageInterpreter, o: list[Any]) -> None:
    interp.ts.rise = o[0]


def op_Tr(interp: PageInterpreter, o: list[Any]) -> None:
    interp.ts.render_mode = int(o[0])


def op_Td(interp: PageInterpreter, o: list[Any]) -> None:
    tx, ty = o
    a, b, c, d, e, f = interp.tlm
    interp.tlm = (a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f)
    interp.tm = interp.tlm


def op_TD(interp: PageInterpreter, o: list[Any]) -> None:
    interp.ts.leading = -o[1]
    op_Td(interp, o)


def op_Tm(interp: PageInterpreter, o: list[Any]) -> None:
    interp.tm = interp.tlm = (o[0], o[1], o[2], o[3], o[4], o[5])


def op_Tstar(interp: PageInterpreter, _: list[Any]) -> None:
    op_Td(interp, [0.0, -interp.ts.leading])


def op_Tj(interp: PageInterpreter, o: list[Any]) -> None:
    show(interp, (o[0],))


def op_quote(interp: PageInterpreter, o: list[Any]) -> None:
    op_Tstar(interp, [])
    show(interp, (o[0],))


def op_dquote(interp: PageInterpreter, o: list[Any]) -> None:
    interp.ts.word_spacing = o[0]
    interp.ts.char_spacing = o[1]
    op_Tstar(interp, [])
    show(interp, (o[2],))


def op_TJ(interp: PageInterpreter, o: list[Any]) -> None:
    items = o[0]
    if items.__class__ is list:  # read by the content lexer: already its strings and numbers
        show(interp, items)
        return
    parts: list[bytes | float] = []
    for item in items:
        if isinstance(item, pikepdf.String):
            parts.append(bytes(item))
        else:
            num = number(item)
            if num is not None:  # junk inside TJ arrays is common and harmless
                parts.append(num)
    show(interp, parts)


def show(interp: PageInterpreter, parts: Sequence[bytes | float]) -> None:
    """Text shown: the interpreter's layout places it and moves the pen, then recorders hear which
    glyphs it painted; without a usable font only TJ offsets move the pen."""
    ts = interp.ts
    if not interp.in_text:
        interp.note(
            DiagnosticKind.TEXT_OUTSIDE_BT,
            Severity.INFO,
            "text shown outside BT…ET; interpreted with the current text matrix",
            once_key="BT",
        )
    font = ts.font
    if font is not None:
        table = interp.layout.table
        first = len(table)
        try:
            interp.tm = interp.layout.show(interp, font, parts)
        except GlyphCapReached as cut:
            interp.tm = cut.tm  # where the pen stopped
            raise
        finally:
            if interp.on_text_shown and len(table) > first:
                for text_shown in interp.on_text_shown:
                    text_shown(first, len(table))
        return
    interp.diag.add(
        DiagnosticKind.NO_FONT_SET,
        Severity.WARNING,
        f"text shown without a usable font ({ts.font_key or 'no Tf'}): its glyphs are lost",
        token_index=interp.token_index,
        font_key=ts.font_key or None,
        form_path=interp.frame.form_path,
        once_key=f"{ts.font_key}",
    )
    for part in parts:  # nothing is painted, but TJ offsets still move the pen
        if part.__class__ is float:
            tx = -part / 1000.0 * ts.font_size * ts.horizontal_scaling / 100.0  # type: ignore[operator]
            a, b, c, d, e, f = interp.tm
            ty = 0.0  # written out: the same doubles (and signs of zero) as a full Td-like move
            interp.tm = (a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f)


def font_of(interp: PageInterpreter, key: str) -> LoadedFont | None:
    """The font named `key` in the resources of the stream being run (a finding when there is none)."""
    frame = interp.frame
    resources = frame.resources
    font_obj = None
    try:
        fonts = resources.get("/Font") if resources is not None else None
        if fonts is not None:
            font_obj = fonts.get(key)
    except (QpdfError, AttributeError, TypeError, ValueError):
        font_obj = None
    if font_obj is None or not isinstance(font_obj, pikepdf.Dictionary):
        interp.diag.add(
            DiagnosticKind.MISSING_FONT,
            Severity.ERROR,
            f"font {key} is not in the resources: text shown with it is lost",
            token_index=interp.token_index,
            font_key=key,
            form_path=frame.form_path,
            once_key=key,
        )
        return None
    font = interp.fonts.get(font_obj, key)
    for font_selected in interp.on_font_selected:
        font_selected(key, font)
    return font


TEXT_OPERATORS: OperatorTable = {
    "BT": (op_BT, NO_OPERANDS),
    "ET": (op_ET, NO_OPERANDS),
    "Tf": (op_Tf, "Nn"),
    "Tc": (op_Tc, "n"),
    "Tw": (op_Tw, "n"),
    "Tz": (op_Tz, "n"),
    "TL": (op_TL, "n"),
    "Ts": (op_Ts, "n"),
    "Tr": (op_Tr, "n"),
    "Td": (op_Td, "nn"),
    "TD": (op_TD, "nn"),
    "Tm": (op_Tm, "nnnnnn"),
    "T*": (op_Tstar, NO_OPERANDS),
    "Tj": (op_Tj, "s"),
    "TJ": (op_TJ, "a"),
    "'": (op_quote, "s"),
    '"': (op_dquote, "nns"),
}
