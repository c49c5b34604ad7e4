"""A step-by-step trace of one page's content stream, for the inspector's stepper.

The page is run once more by the interpreter itself (a `PageInterpreter` subclass:
no copy of its rules), with every instruction of the page and of the forms it
draws recorded in execution order as a `TraceStep`: where it is (stream, index),
what it is (operator, operands), the full graphics and text state in which it
runs (`TraceState`), and how many glyphs had been painted before and after it.

The instruction loop is observed without changing it: `_run` is handed the
instructions through a generator, which resumes exactly when the loop body of
the previous instruction is done. So the state before an instruction is taken
when it is handed out, the glyph count after it when the next one is asked for.

The clip is the interpreter's own (issue 12's clip records): its bounding box and
the instruction that set it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pikepdf

from glyphscope.core.document import Document, _format_operand, _inherited
from glyphscope.core.fonts.loader import FontCache
from glyphscope.core.fonts.pdfobj import pdf_text
from glyphscope.core.geometry import Matrix, Rect, multiply
from glyphscope.core.interpreter import PageInterpreter

TEXT_SHOWING = frozenset(("Tj", "TJ", "'", '"'))
MAX_TRACE_STEPS = 2_000_000  # a hostile stream: stop recording rather than exhaust memory


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


class TracingInterpreter(PageInterpreter):
    """The page interpreter, recording each instruction it is handed (see the module docstring)."""

    def __init__(self, page_number: int, fonts: FontCache) -> None:
        super().__init__(page_number, fonts)
        self.steps: list[TraceStep] = []
        self.truncated = False
        self._depth = 0
        self._marked_of: Any = object()  # the marked-content state `_marked` was made from
        self._marked: tuple[tuple[str, int | None], ...] = ()

    # -- observing the loop -------------------------------------------------------------------
    def _run(self, instructions: Sequence[Any], page_level: bool) -> None:
        super()._run(_Observed(self, instructions), page_level)  # type: ignore[arg-type]

    def _record(self, index: int, ins: Any) -> TraceStep | None:
        if len(self.steps) >= MAX_TRACE_STEPS:
            self.truncated = True
            return None
        op = pdf_text(ins.operator)
        if isinstance(ins, pikepdf.ContentStreamInlineImage):
            op, operands = "BI…EI", "(inline image)"
        else:
            operands = " ".join(_format_operand(v) for v in ins.operands)
        step = TraceStep(
            len(self.steps),
            self.frame.form_path,
            index,
            index if self._depth == 0 else self.token_index,
            op,
            operands,
            self.snapshot(),
            len(self.glyphs),
            depth=self._depth,
        )
        self.steps.append(step)
        return step

    def snapshot(self) -> TraceState:
        gs = self.gs
        ts = gs.text
        assert ts is not None
        font = ts.font
        clip, clip_source = self._clip_now(gs.clip)
        return TraceState(
            gs.ctm,
            self.tm,
            self.tlm,
            ts.font_key,
            font.info.font_id if font is not None else "",
            ts.font_size,
            ts.char_spacing,
            ts.word_spacing,
            ts.horizontal_scaling,
            ts.leading,
            ts.rise,
            ts.render_mode,
            self.in_text,
            clip,
            self._marked_stack(),
            len(self.stack),
            clip_source,
        )

    def _clip_now(self, index: int) -> tuple[Rect | None, str]:
        """The clip's bounding box (an empty clip: a zero box) and what set it."""
        if not 0 <= index < len(self.clips):
            return None, ""
        record = self.clips[index]
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
        marked: Any = self.marked
        if marked is self._marked_of:
            return self._marked
        if marked is None:
            found: tuple[tuple[str, int | None], ...] = ()
        elif isinstance(marked, list):  # (tag, mcid) pairs
            found = tuple(marked)
        else:  # the innermost section, linked to its parents
            found = tuple((m.tag, m.mcid) for m in reversed(marked.sections()))
        self._marked_of, self._marked = marked, found
        return found

    def op_Do(self, o: list[Any]) -> None:
        self._depth += 1
        try:
            super().op_Do(o)
        finally:
            self._depth -= 1


class _Observed:
    """The instructions of one stream, handed to the interpreter's loop one at a time."""

    def __init__(self, tracer: TracingInterpreter, instructions: Sequence[Any]) -> None:
        self.tracer = tracer
        self.instructions = instructions

    def __len__(self) -> int:
        return len(self.instructions)

    def __iter__(self) -> Iterator[Any]:
        tracer = self.tracer
        glyphs = tracer.glyphs
        for index, ins in enumerate(self.instructions):
            step = tracer._record(index, ins)
            yield ins
            # Resumed: the loop body of `ins` (and any form it drew) has run.
            if step is not None:
                step.glyphs_after = len(glyphs)


def trace_page(doc: Document, page_number: int) -> PageTrace:
    """Run one page again, recording every instruction (page and forms) with its state.

    Never raises for a broken page: what ran before the failure is the trace.
    Raises `PageOutOfRange` for a page that does not exist.
    """
    # The document's lock and font cache: the trace reads pikepdf objects like `interpret` does.
    with doc._lock:
        page_obj = doc._page_obj(page_number)
        tracer = TracingInterpreter(page_number, doc._fonts)
        try:
            resources = _inherited(page_obj, "/Resources")
            if not isinstance(resources, pikepdf.Dictionary):
                resources = None
            tracer.run_page(page_obj, resources)
        except (pikepdf.PdfError, RuntimeError, TypeError, ValueError, AttributeError, KeyError):
            pass  # the trace up to the failure is still worth stepping through
    steps = tracer.steps
    count = len(tracer.glyphs)
    for step in steps:
        if step.glyphs_after < 0:
            step.glyphs_after = step.glyphs_before  # the loop stopped early (glyph cap)
    glyph_step = [-1] * count
    for step in steps:
        if step.operator in TEXT_SHOWING:
            for i in range(step.glyphs_before, min(step.glyphs_after, count)):
                glyph_step[i] = step.index
    return PageTrace(page_number, tuple(steps), count, tuple(glyph_step), tracer.truncated)
