"""A step-by-step trace of one page's content stream, for the inspector's stepper.

The page is run once more by the interpreter itself, with a `TraceRecorder` among
its recorders (no copy of its rules): every instruction of the page and of the forms
it draws is recorded in execution order as a `TraceStep` — where it is (stream,
index), what it is (operator, operands), the full graphics and text state in which it
runs (`TraceState`), and how many glyphs had been painted before and after it.

The recorder follows the instruction loop through the `observe` event: it hands the
loop each stream's instructions through a generator, which resumes exactly when the
loop body of the previous instruction is done. So the state before an instruction is
taken when it is handed out, the glyph count after it when the next one is asked for.

The clip is the visibility recorder's: its bounding box and the instruction that set it.

The paint state (fill and stroke colour with their colour spaces, alphas, blend mode,
overprint, soft mask, the ExtGState resources applied) is the trace's own: the engine
keeps only what can hide text (the fill), so the recorder reads the colour and `gs`
instructions it hands out, resolving colour spaces with the engine's own reader. It
follows q/Q through the interpreter's state objects: a `q` leaves a copy on the stack,
which becomes the state again at its `Q`, so the paint state is kept per copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

import pikepdf

from glyphscope.core.document import Document, format_operand
from glyphscope.core.fonts.pdfobj import pdf_text
from glyphscope.core.geometry import Matrix, Rect, multiply
from glyphscope.core.instructions import Instruction, number
from glyphscope.core.interpreter import PageInterpreter
from glyphscope.core.operators.graphics import INITIAL_COLOUR, colour_space_family, soft_mask
from glyphscope.core.page import FormUse
from glyphscope.core.recorders import Recorder, VisibilityRecorder
from glyphscope.core.state import GraphicsState, MarkedContent

TEXT_SHOWING = frozenset(("Tj", "TJ", "'", '"'))
MAX_TRACE_STEPS = 2_000_000  # a hostile stream: stop recording rather than exhaust memory
MAX_EXT_GSTATES = 8  # ExtGState names kept per state: a stream of 100,000 gs must not build long tuples

# The colour operators: (applies to the stroke, the device space it sets or None for the current one).
_DEVICE_COLOUR_OPS = {
    "g": (False, "DeviceGray", "gray", 1),
    "G": (True, "DeviceGray", "gray", 1),
    "rg": (False, "DeviceRGB", "rgb", 3),
    "RG": (True, "DeviceRGB", "rgb", 3),
    "k": (False, "DeviceCMYK", "cmyk", 4),
    "K": (True, "DeviceCMYK", "cmyk", 4),
}
_COMPONENT_OPS = {"sc": False, "scn": False, "SC": True, "SCN": True}
_SPACE_OPS = {"cs": False, "CS": True}


@dataclass(frozen=True, slots=True)
class TraceColour:
    """A fill or stroke colour as the content stream set it."""

    space: str  # as named in the stream: "DeviceRGB", or a /ColorSpace resource name such as "CS0"
    family: str  # what the space is: gray rgb cmyk lab indexed separation devicen pattern unknown
    components: tuple[float, ...]
    pattern: str = ""  # scn/SCN with a pattern name: the pattern resource


BLACK = TraceColour("DeviceGray", "gray", (0.0,))


@dataclass(frozen=True, slots=True)
class PaintState:
    """The colours and the ExtGState parameters in which an instruction runs (ISO 32000-1 §8.4)."""

    fill: TraceColour = BLACK
    stroke: TraceColour = BLACK
    fill_alpha: float = 1.0  # /ca
    stroke_alpha: float = 1.0  # /CA
    blend_mode: str = "Normal"  # /BM
    overprint_fill: bool = False  # /op (defaults to /OP)
    overprint_stroke: bool = False  # /OP
    overprint_mode: int = 0  # /OPM
    soft_mask: str = ""  # /SMask: "" none, "present", "empty" (nothing shows through)
    ext_gstates: tuple[str, ...] = ()  # the gs resources applied in this state, oldest first


INITIAL_PAINT = PaintState()


@dataclass(frozen=True, slots=True)
class TraceState:
    """The graphics and text state in which one instruction runs."""

    ctm: Matrix
    tm: Matrix
    tlm: Matrix
    font_key: str
    font_id: str  # "12 0 R", "" when no usable font is set
    font_size: float
    char_spacing: float  # Tc
    word_spacing: float  # Tw
    horizontal_scaling: float  # Tz, percent
    leading: float  # TL
    rise: float  # Ts
    render_mode: int  # Tr
    in_text: bool  # inside BT…ET
    clip: Rect | None  # bounding box of the clip in user space; None: not clipped (beyond the page)
    marked: tuple[tuple[str, int | None], ...]  # open marked-content sections (tag, MCID), outer first
    stack_depth: int  # q depth
    clip_source: str = ""  # what set the clip: "W at instruction 12 (2 paths)", "" when none
    paint: PaintState = INITIAL_PAINT

    @property
    def text_rendering_origin(self) -> tuple[float, float]:
        """Where the next glyph's origin lies in user space: (0, Ts) in text space through Tm × CTM."""
        a, b, c, d, e, f = multiply(self.tm, self.ctm)
        return (e + self.rise * c, f + self.rise * d)


@dataclass(slots=True)
class TraceStep:
    """One executed instruction of the page or of a form it draws."""

    index: int  # position in execution order
    form_path: tuple[str, ...]  # () for the page stream
    stream_index: int  # index of the instruction in its own stream
    page_token: int  # the page instruction being run (for forms: the Do that started the chain)
    operator: str
    operands: str  # compact PDF-like text
    before: TraceState
    glyphs_before: int  # glyphs painted before this instruction ran
    glyphs_after: int = -1  # after it (for a Do: including everything its form painted)
    depth: int = 0  # form nesting depth

    @property
    def painted(self) -> range:
        """Paint indices of the glyphs this instruction painted (for a Do: its whole form chain)."""
        return range(self.glyphs_before, max(self.glyphs_before, self.glyphs_after))

    @property
    def shows_text(self) -> bool:
        return self.operator in TEXT_SHOWING


@dataclass(frozen=True, slots=True)
class PageTrace:
    page_number: int
    steps: tuple[TraceStep, ...]
    glyph_count: int  # glyphs the traced run painted (equals the page's interpretation)
    glyph_step: tuple[int, ...]  # per paint index: the text-showing step that painted it
    truncated: bool = False  # more than MAX_TRACE_STEPS instructions: the rest is not recorded

    def after(self, k: int) -> TraceState:
        """The state once step k has run: the next step's state in the same stream, else k's own."""
        steps = self.steps
        step = steps[k]
        for j in range(k + 1, len(steps)):
            nxt = steps[j]
            if nxt.depth == step.depth and nxt.form_path == step.form_path:
                return nxt.before
            if nxt.depth < step.depth:
                break
        return step.before


class TraceRecorder(Recorder):
    """Records each instruction the interpreter is handed (see the module docstring)."""

    def __init__(self) -> None:
        self.steps: list[TraceStep] = []
        self.truncated = False
        self.glyph_count = 0  # glyphs the traced run painted
        self._depth = 0
        self._marked_of: MarkedContent | None | object = object()  # the section `_marked` was made from
        self._marked: tuple[tuple[str, int | None], ...] = ()
        self.paint = INITIAL_PAINT
        self._paint_gs: GraphicsState | None = None  # the interpreter state `paint` belongs to
        self._saved_paint: dict[int, tuple[GraphicsState, PaintState]] = {}  # q copies on the stack
        self._form_paint: list[tuple[GraphicsState | None, PaintState, int]] = []  # per form: the caller's

    def start(self, interp: PageInterpreter) -> None:
        self.interp = interp
        self.visibility = next((r for r in interp.recorders if isinstance(r, VisibilityRecorder)), None)

    def observe(self, instructions: Iterable[Instruction]) -> Iterator[Instruction]:
        glyphs = self.interp.glyph_table
        if self._form_paint and self.interp.frame.annotation >= 0 > self._form_paint[-1][2]:
            self.paint = INITIAL_PAINT  # an annotation's appearance starts from the initial state
        self._paint_gs = self.interp.gs
        for index, ins in enumerate(instructions):
            step = self._record(index, ins)
            yield ins
            # Resumed: the loop body of `ins` (and any form it drew) has run.
            if step is not None:
                step.glyphs_after = len(glyphs)
                self._paint_after(step.operator, ins)

    def form_begun(self, use: FormUse, bbox: Rect | None, inverse: Matrix | None) -> None:
        self._depth += 1
        self._form_paint.append((self._paint_gs, self.paint, self.interp.frame.annotation))

    def form_ended(self, use_index: int) -> None:
        self._depth -= 1
        if self._form_paint:
            self._paint_gs, self.paint, _ = self._form_paint.pop()

    # -- the paint state ---------------------------------------------------------------------------
    def _paint_after(self, op: str, ins: Instruction) -> None:
        """Follow the paint state over one instruction that has just run."""
        interp = self.interp
        if op == "q":
            if interp.stack:
                top = interp.stack[-1]
                self._saved_paint[id(top)] = (top, self.paint)
            return
        if op == "Q":
            gs = interp.gs
            if gs is not self._paint_gs:
                saved = self._saved_paint.pop(id(gs), None)
                if saved is not None and saved[0] is gs:
                    self.paint = saved[1]
                self._paint_gs = gs
            return
        if op in _DEVICE_COLOUR_OPS:
            stroke, space, family, count = _DEVICE_COLOUR_OPS[op]
            values = _numbers(ins.operands)
            if len(values) == count:
                self._set_colour(stroke, TraceColour(space, family, values))
        elif op in _SPACE_OPS:
            self._set_space(_SPACE_OPS[op], list(ins.operands))
        elif op in _COMPONENT_OPS:
            self._set_components(_COMPONENT_OPS[op], list(ins.operands))
        elif op == "gs" and len(ins.operands) == 1 and isinstance(ins.operands[0], pikepdf.Name):
            self._apply_ext_gstate(pdf_text(ins.operands[0]))

    def _set_colour(self, stroke: bool, colour: TraceColour) -> None:
        self.paint = replace(self.paint, stroke=colour) if stroke else replace(self.paint, fill=colour)

    def _set_space(self, stroke: bool, operands: Sequence[object]) -> None:
        if len(operands) != 1 or not isinstance(operands[0], pikepdf.Name):
            return
        name = operands[0]
        family = colour_space_family(self.interp.frame.resources, name, 0)
        self._set_colour(
            stroke, TraceColour(pdf_text(name).lstrip("/"), family, INITIAL_COLOUR.get(family, ()))
        )

    def _set_components(self, stroke: bool, operands: Sequence[object]) -> None:
        current = self.paint.stroke if stroke else self.paint.fill
        pattern = (
            pdf_text(operands[-1]).lstrip("/") if operands and isinstance(operands[-1], pikepdf.Name) else ""
        )
        self._set_colour(stroke, replace(current, components=_numbers(operands), pattern=pattern))

    def _apply_ext_gstate(self, name: str) -> None:
        res = self.interp.frame.resources
        states = res.get("/ExtGState") if res is not None else None
        ext = states.get(name) if isinstance(states, pikepdf.Dictionary) else None
        paint = self.paint
        names = (paint.ext_gstates + (name.lstrip("/"),))[-MAX_EXT_GSTATES:]
        if not isinstance(ext, pikepdf.Dictionary):
            self.paint = replace(paint, ext_gstates=names)
            return
        ca, big_ca, opm = number(ext.get("/ca")), number(ext.get("/CA")), number(ext.get("/OPM"))
        op_stroke = ext.get("/OP")
        op_fill = ext.get("/op", op_stroke)
        self.paint = replace(
            paint,
            fill_alpha=min(max(ca, 0.0), 1.0) if ca is not None else paint.fill_alpha,
            stroke_alpha=min(max(big_ca, 0.0), 1.0) if big_ca is not None else paint.stroke_alpha,
            blend_mode=_blend_mode(ext.get("/BM")) or paint.blend_mode,
            overprint_stroke=bool(op_stroke) if isinstance(op_stroke, bool) else paint.overprint_stroke,
            overprint_fill=bool(op_fill) if isinstance(op_fill, bool) else paint.overprint_fill,
            overprint_mode=int(opm) if opm is not None else paint.overprint_mode,
            soft_mask=soft_mask(ext.get("/SMask")) if "/SMask" in ext else paint.soft_mask,
            ext_gstates=names,
        )

    def page_ended(self) -> None:
        self.glyph_count = self.interp.glyph_count

    def _record(self, index: int, ins: Instruction) -> TraceStep | None:
        if len(self.steps) >= MAX_TRACE_STEPS:
            self.truncated = True
            return None
        op = pdf_text(ins.operator)
        if isinstance(ins, pikepdf.ContentStreamInlineImage):
            op, operands = "BI…EI", "(inline image)"
        else:
            operands = " ".join(format_operand(v) for v in ins.operands)
        interp = self.interp
        step = TraceStep(
            len(self.steps),
            interp.frame.form_path,
            index,
            index if self._depth == 0 else interp.token_index,
            op,
            operands,
            self.snapshot(),
            interp.glyph_count,
            depth=self._depth,
        )
        self.steps.append(step)
        return step

    def snapshot(self) -> TraceState:
        interp = self.interp
        gs = interp.gs
        ts = gs.text
        assert ts is not None
        font = ts.font
        clip, clip_source = self._clip_now(gs.clip)
        return TraceState(
            gs.ctm,
            interp.tm,
            interp.tlm,
            ts.font_key,
            font.info.font_id if font is not None else "",
            ts.font_size,
            ts.char_spacing,
            ts.word_spacing,
            ts.horizontal_scaling,
            ts.leading,
            ts.rise,
            ts.render_mode,
            interp.in_text,
            clip,
            self._marked_stack(),
            len(interp.stack),
            clip_source,
            self.paint,
        )

    def _clip_now(self, index: int) -> tuple[Rect | None, str]:
        """The clip's bounding box (an empty clip: a zero box) and what set it."""
        clips = self.visibility.clips if self.visibility is not None else []
        if not 0 <= index < len(clips):
            return None, ""
        record = clips[index]
        path = record.path
        where = f" of {' › '.join(path.form_path)}" if path.form_path else ""
        what = (
            "the form's /BBox"
            if path.source == "BBox"
            else f"{path.source} at instruction {path.stream_index}"
        )
        paths = f" ({record.depth} paths)" if record.depth > 1 else ""
        return (0.0, 0.0, 0.0, 0.0) if record.empty else record.bbox, f"{what}{where}{paths}"

    def _marked_stack(self) -> tuple[tuple[str, int | None], ...]:
        """The open marked-content sections, outer first (cached while the innermost one stays open)."""
        marked = self.interp.marked
        if marked is self._marked_of:
            return self._marked
        found = () if marked is None else tuple((m.tag, m.mcid) for m in reversed(marked.sections()))
        self._marked_of, self._marked = marked, found
        return found


def _numbers(operands: Iterable[object]) -> tuple[float, ...]:
    return tuple(v for v in (number(x) for x in operands) if v is not None)


def _blend_mode(raw: object) -> str:
    """/BM: a name, or an array whose first known name applies (""  when neither)."""
    if isinstance(raw, pikepdf.Array):
        raw = raw[0] if len(raw) else None
    return pdf_text(raw).lstrip("/") if isinstance(raw, pikepdf.Name) else ""


def trace_page(doc: Document, page_number: int) -> PageTrace:
    """Run one page again, recording every instruction (page and forms) with its state.

    Never raises for a broken page: what ran before the failure is the trace.
    Raises `PageOutOfRange` for a page that does not exist.
    """
    tracer = TraceRecorder()
    doc.page_object(page_number)  # PageOutOfRange before anything runs
    try:
        doc.record_page(page_number, [tracer])
    except (pikepdf.PdfError, RuntimeError, TypeError, ValueError, AttributeError, KeyError):
        tracer.glyph_count = len(
            tracer.interp.glyph_table
        )  # the trace up to the failure is still worth stepping through
    steps = tracer.steps
    count = tracer.glyph_count
    for step in steps:
        if step.glyphs_after < 0:
            step.glyphs_after = step.glyphs_before  # the loop stopped early (glyph cap)
    glyph_step = [-1] * count
    for step in steps:
        if step.operator in TEXT_SHOWING:
            for i in range(step.glyphs_before, min(step.glyphs_after, count)):
                glyph_step[i] = step.index
    return PageTrace(page_number, tuple(steps), count, tuple(glyph_step), tracer.truncated)
