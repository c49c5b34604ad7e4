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
keeps only what can hide text (the fill). It is fed by the interpreter's events, not by
reading instructions a second time: `colour_set` (fill and stroke, with the space as
the stream names it and its family), `ext_gstate_applied` (the resource `gs` applied),
`state_saved` / `state_restored` (q/Q: the paint state has its own stack beside the
interpreter's), and `form_begun` / `form_ended` (a form's implicit q…Q).

Each step names the frame it runs in (`form_path`, `form_use`, `depth`: the page's, or a
form's child frame), so a glyph's step says which form painted it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

import pikepdf

from glyphscope.core.document import Document, format_operand
from glyphscope.core.fonts.pdfobj import pdf_text
from glyphscope.core.geometry import Matrix, Rect, multiply
from glyphscope.core.instructions import Instruction, number
from glyphscope.core.operators.graphics import soft_mask
from glyphscope.core.page import FormUse
from glyphscope.core.recorders import Recorder, VisibilityRecorder
from glyphscope.core.recorders.base import InterpreterView
from glyphscope.core.state import MarkedContent

TEXT_SHOWING = frozenset(("Tj", "TJ", "'", '"'))
MAX_TRACE_STEPS = 2_000_000  # a hostile stream: stop recording rather than exhaust memory
MAX_EXT_GSTATES = 8  # ExtGState names kept per state: a stream of 100,000 gs must not build long tuples


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
    form_use: int = -1  # the form use whose frame it runs in (FormUse, GlyphRun.form_use); -1: the page

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
        self._marked_of: MarkedContent | None | object = object()  # the section `_marked` was made from
        self._marked: tuple[tuple[str, int | None], ...] = ()
        self.paint = INITIAL_PAINT
        self._saved_paint: list[PaintState] = []  # beside the interpreter's stack: one per q
        self._form_paint: list[tuple[PaintState, int]] = []  # per open form: the caller's, its q count

    def start(self, interp: InterpreterView) -> None:
        self.interp = interp
        self.visibility = next((r for r in interp.recorders if isinstance(r, VisibilityRecorder)), None)

    def observe(self, instructions: Iterable[Instruction]) -> Iterator[Instruction]:
        glyphs = self.interp.glyph_table
        for index, ins in enumerate(instructions):
            step = self._record(index, ins)
            yield ins
            # Resumed: the loop body of `ins` (and any form it drew) has run.
            if step is not None:
                step.glyphs_after = len(glyphs)

    def form_begun(self, use: FormUse, bbox: Rect | None, inverse: Matrix | None) -> None:
        """A form's implicit q (its frame is already current); an annotation's appearance starts
        from the initial paint state."""
        self._form_paint.append((self.paint, len(self._saved_paint)))
        frame = self.interp.frame
        if frame.annotation >= 0 and (frame.parent is None or frame.parent.annotation < 0):
            self.paint = INITIAL_PAINT

    def form_ended(self, use_index: int) -> None:
        """The form's implicit Q: its unmatched q are dropped with it (as the interpreter's stack)."""
        if self._form_paint:
            self.paint, depth = self._form_paint.pop()
            del self._saved_paint[depth:]

    # -- the paint state, from the interpreter's events --------------------------------------------
    def state_saved(self) -> None:
        self._saved_paint.append(self.paint)

    def state_restored(self) -> None:
        if self._saved_paint:
            self.paint = self._saved_paint.pop()

    def colour_set(
        self, stroke: bool, space: str | None, family: str | None, components: tuple[float, ...], pattern: str
    ) -> None:
        current = self.paint.stroke if stroke else self.paint.fill
        if space is None or family is None:  # sc/scn: new components in the current space
            colour = replace(current, components=components, pattern=pattern)
        else:
            colour = TraceColour(space, family, components, pattern)
        self.paint = replace(self.paint, stroke=colour) if stroke else replace(self.paint, fill=colour)

    def ext_gstate_applied(self, name: str, ext: pikepdf.Dictionary | None) -> None:
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
        frame = interp.frame
        step = TraceStep(
            len(self.steps),
            frame.form_path,
            index,
            index if frame.depth == 0 else interp.token_index,
            op,
            operands,
            self.snapshot(),
            interp.glyph_count,
            depth=frame.depth,
            form_use=frame.form_use_index,
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
            interp.stack_depth,
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
