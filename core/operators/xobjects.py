"""Do: Form XObjects run in their own frame; images are painted (they carry no text)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pikepdf

from glyphscope.core.budgets import BudgetExceeded
from glyphscope.core.diagnostics import DiagnosticKind, Severity
from glyphscope.core.fonts.pdfobj import object_id
from glyphscope.core.geometry import IDENTITY, Matrix, Rect, multiply, normalize_rect, transform_rect
from glyphscope.core.instructions import MAX_FORM_DEPTH, Instruction, OperatorTable, number
from glyphscope.core.page import FormUse, PaintKind

if TYPE_CHECKING:
    from glyphscope.core.interpreter import PageInterpreter

if TYPE_CHECKING:  # read from /Annots by the pages that have it (core/document.py)
    from glyphscope.core.annotations import DrawnAppearance


def op_Do(interp: PageInterpreter, o: list[Any]) -> None:
    name = o[0]
    frame = interp.frame
    res = frame.resources
    xobjects = res.get("/XObject") if res is not None else None
    xobj = xobjects.get(name) if isinstance(xobjects, pikepdf.Dictionary) else None
    if not isinstance(xobj, pikepdf.Stream):
        interp.note(
            DiagnosticKind.MISSING_XOBJECT,
            Severity.WARNING,
            f"XObject {name} is not in the resources",
            once_key=name,
        )
        return
    if xobj.get("/Subtype") != pikepdf.Name.Form:
        if xobj.get("/Subtype") == pikepdf.Name.Image:
            for image_drawn in interp.on_image_drawn:
                image_drawn(PaintKind.IMAGE, xobj)  # carries no text, but may cover it
        return  # images and PostScript XObjects carry no text
    ident = object_id(xobj, f"direct:{id(xobj)}")
    path = frame.form_path + (name,)
    interp.forms_left -= 1
    if interp.forms_left < 0:
        raise BudgetExceeded("page_form_invocations", interp.limits.page_form_invocations)
    if ident in frame.form_ids:
        chain = " → ".join(path)
        interp.note(
            DiagnosticKind.FORM_CYCLE,
            Severity.WARNING,
            f"form {name} draws itself ({chain}): the repeated Do was skipped, its text appears once",
            once_key=chain,
        )
        return
    if len(path) > MAX_FORM_DEPTH:
        interp.note(
            DiagnosticKind.FORM_DEPTH_CAP,
            Severity.WARNING,
            f"forms nested deeper than {MAX_FORM_DEPTH} levels: {name} not drawn",
            once_key="depth",
        )
        return
    form_ctm = multiply(_matrix(xobj.get("/Matrix")), interp.gs.ctm)
    bbox = _rect(xobj.get("/BBox"))
    form_resources = xobj.get("/Resources")
    if not isinstance(form_resources, pikepdf.Dictionary):
        form_resources = res  # §7.8.3: a form without resources borrows the caller's
    instructions = form_instructions(interp, ident, xobj, name, path)
    if instructions is None:
        return
    use = FormUse(
        path,
        ident,
        transform_rect(form_ctm, bbox) if bbox else transform_rect(form_ctm, (0, 0, 0, 0)),
        form_ctm,
        interp.token_index,
        0,
        0,
    )
    interp.run_form(instructions, use, ident, form_resources, bbox)


def _matrix(raw: object) -> Matrix:
    if isinstance(raw, pikepdf.Array) and len(raw) == 6:
        values = [number(v) for v in raw]
        if all(v is not None for v in values):
            return tuple(values)  # type: ignore[return-value]
    return IDENTITY


def _rect(raw: object) -> Rect | None:
    if isinstance(raw, pikepdf.Array) and len(raw) == 4:
        values = [number(v) for v in raw]
        if all(v is not None for v in values):
            return normalize_rect(*values)  # type: ignore[arg-type]
    return None


def form_instructions(
    interp: PageInterpreter, ident: str, xobj: pikepdf.Stream, name: str, path: tuple[str, ...]
) -> Sequence[Instruction] | None:
    """A form's instructions, parsed once per form object per page (every Do reuses them)."""
    cached = interp.form_cache.get(ident)
    if isinstance(cached, list):
        return cached
    if cached is not None:  # unreadable: said once per Do chain, like before
        interp.diag.add(
            DiagnosticKind.CONTENT_UNREADABLE,
            Severity.WARNING,
            f"form {name} could not be read: {cached}",
            token_index=interp.token_index,
            form_path=path,
            once_key=f"unreadable {ident}",
        )
        return None
    outer = interp.frame
    interp.frame = replace(outer, form_path=path)
    try:  # findings while reading name the form
        instructions = interp.read_content(xobj, [xobj], f"form {name}")
    finally:
        interp.frame = outer
    if instructions is None:
        interp.form_cache[ident] = "its content stream is unreadable"
        return None
    interp.form_cache[ident] = instructions
    return instructions


def draw_appearances(interp: PageInterpreter, appearances: Sequence[DrawnAppearance]) -> None:
    """The annotations' appearances, each a form placed on the page (§12.5.5) from the initial
    graphics state, after the page's content; each counts as a form invocation."""
    saved_marked, saved_token = interp.marked, interp.token_index
    interp.marked = None  # the page's open marked content does not reach into an appearance
    interp.token_index = -1  # no page instruction draws them
    try:
        for drawn in appearances:
            annotation = drawn.annotation
            interp.forms_left -= 1
            if interp.forms_left < 0:
                raise BudgetExceeded("page_form_invocations", interp.limits.page_form_invocations)
            ident = object_id(drawn.stream, f"direct:{id(drawn.stream)}")
            path = (annotation.label,)
            instructions = form_instructions(interp, ident, drawn.stream, annotation.label, path)
            if instructions is None:
                continue
            use = FormUse(path, ident, transform_rect(drawn.matrix, drawn.bbox), drawn.matrix, -1, 0, 0)
            interp.run_form(
                instructions, use, ident, drawn.resources, drawn.bbox, annotation=annotation.index
            )
    finally:
        interp.marked, interp.token_index = saved_marked, saved_token


XOBJECT_OPERATORS: OperatorTable = {"Do": (op_Do, "N")}
