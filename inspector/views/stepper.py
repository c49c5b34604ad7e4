"""The content-stream stepper's model (Qt-free): where the user is in a page trace, and breakpoints.

A `Stepper` holds one `core.trace.PageTrace` and a current step. Moving is O(1)
(the trace keeps every step's state), running to a breakpoint is a scan over the
steps. Breakpoints: an operator name (every `Tf`), one step (this `Do`), or a
glyph (the text-showing step that painted it). The window's canvas and the
stepper panel share one Stepper per session through `stepper_for(session)`,
and repaint on its `changed` event.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from glyphscope.core.colours import rgb
from glyphscope.core.geometry import Matrix
from glyphscope.core.page import FillState
from glyphscope.core.trace import PageTrace, TraceColour, TraceState, TraceStep
from glyphscope.inspector.views.session import Event, Session

RENDER_MODES = (
    "fill",
    "stroke",
    "fill + stroke",
    "invisible",
    "fill, clip",
    "stroke, clip",
    "fill + stroke, clip",
    "clip",
)

STATE_FIELDS = (  # (label, TraceState attribute or "paint." + PaintState attribute), in the panel's order
    ("Fill colour", "paint.fill"),
    ("Stroke colour", "paint.stroke"),
    ("Alpha fill (ca)", "paint.fill_alpha"),
    ("Alpha stroke (CA)", "paint.stroke_alpha"),
    ("Blend mode", "paint.blend_mode"),
    ("Overprint fill (op)", "paint.overprint_fill"),
    ("Overprint stroke (OP)", "paint.overprint_stroke"),
    ("Overprint mode", "paint.overprint_mode"),
    ("Soft mask", "paint.soft_mask"),
    ("ExtGState (gs)", "paint.ext_gstates"),
    ("CTM", "ctm"),
    ("Tm", "tm"),
    ("Tlm", "tlm"),
    ("Font", "font_key"),
    ("Size (Tf)", "font_size"),
    ("Tc", "char_spacing"),
    ("Tw", "word_spacing"),
    ("Tz", "horizontal_scaling"),
    ("TL", "leading"),
    ("Ts", "rise"),
    ("Tr", "render_mode"),
    ("In BT…ET", "in_text"),
    ("Clip", "clip"),
    ("Marked content", "marked"),
    ("q depth", "stack_depth"),
)


def _num(x: float) -> str:
    return f"{x:.4g}" if x != int(x) or abs(x) >= 1e6 else str(int(x))


def format_matrix(m: Matrix) -> str:
    return "[" + " ".join(_num(v) for v in m) + "]"


def state_value(state: TraceState, attribute: str) -> object:
    """One field of STATE_FIELDS read off a state."""
    if attribute.startswith("paint."):
        return getattr(state.paint, attribute.removeprefix("paint."))
    return getattr(state, attribute)


def colour_rgb(colour: TraceColour) -> tuple[float, float, float] | None:
    """The colour as RGB 0–1 for a swatch (the engine's naive device conversion; None when unknown)."""
    return rgb(FillState(colour.family, colour.components))


def format_colour(colour: TraceColour) -> str:
    """ "DeviceRGB 1 0 0", "CS0 (rgb) 0.2 0.4 0.6", "P0 (pattern) pattern /P1": the space, then the numbers."""
    device = colour.space.removeprefix("Device").lower() == colour.family
    parts = [colour.space if device else f"{colour.space} ({colour.family})"]
    parts.extend(_num(v) for v in colour.components)
    if colour.pattern:
        parts.append(f"pattern {colour.pattern}")
    return " ".join(parts)


def format_value(state: TraceState, attribute: str) -> str:
    """One state field as the panel shows it."""
    value = state_value(state, attribute)
    if isinstance(value, TraceColour):
        return format_colour(value)
    if attribute == "paint.soft_mask":
        return {"": "none", "empty": "empty (nothing shows through)"}.get(str(value), str(value))
    if attribute == "paint.ext_gstates":
        return ", ".join(str(v) for v in value) if isinstance(value, tuple) and value else "none"
    if attribute in ("ctm", "tm", "tlm"):
        return format_matrix(getattr(state, attribute))
    if attribute == "font_key":
        if not value:
            return "none (no Tf yet)"
        return f"{value} ({state.font_id})" if state.font_id else f"{value} (not usable)"
    if attribute == "render_mode":
        mode = state.render_mode
        name = RENDER_MODES[mode] if 0 <= mode < len(RENDER_MODES) else "invalid"
        return f"{mode} ({name})"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if attribute == "clip":
        if state.clip is None:
            return "none"
        box = "[" + " ".join(_num(v) for v in state.clip) + "] (bounding box)"
        return f"{box}, set by {state.clip_source}" if state.clip_source else box
    if attribute == "marked":
        if not state.marked:
            return "none"
        return " › ".join(tag + (f" MCID {mcid}" if mcid is not None else "") for tag, mcid in state.marked)
    if isinstance(value, float):
        return _num(value)
    return str(value)


def frame_label(step: TraceStep) -> str:
    """The frame a step runs in: "page", or a form's child frame by its path and use."""
    if step.form_use < 0:
        return "page"
    return f"form {' › '.join(step.form_path)}, use {step.form_use}"


class StateRow(NamedTuple):
    label: str
    value: str  # when the step runs
    changed: str  # once it ran; "" when unchanged
    colour: TraceColour | None = None  # a colour field: what the value names (for a swatch)
    changed_colour: TraceColour | None = None


class Stepper:
    """The current position in a page trace, and the breakpoints."""

    def __init__(self) -> None:
        self.trace: PageTrace | None = None
        self.current = -1  # -1: before the first instruction (nothing painted)
        self.operator_breaks: set[str] = set()
        self.step_breaks: set[int] = set()
        self.glyph_breaks: set[int] = set()
        self.changed = Event("stepper")  # (stepper): the trace or the current step changed

    # -- content -------------------------------------------------------------------------------
    def load(self, trace: PageTrace | None) -> None:
        """A new trace (or None): starts before its first instruction; glyph and step breakpoints go."""
        self.trace = trace
        self.current = -1
        self.step_breaks.clear()
        self.glyph_breaks.clear()
        self.changed.emit(self)

    @property
    def page_number(self) -> int | None:
        return self.trace.page_number if self.trace is not None else None

    @property
    def count(self) -> int:
        return len(self.trace.steps) if self.trace is not None else 0

    @property
    def step(self) -> TraceStep | None:
        if self.trace is None or not 0 <= self.current < len(self.trace.steps):
            return None
        return self.trace.steps[self.current]

    @property
    def painted(self) -> int:
        """Glyphs painted once the current step has run."""
        step = self.step
        return step.glyphs_after if step is not None else 0

    @property
    def current_glyphs(self) -> range:
        step = self.step
        return step.painted if step is not None else range(0)

    def frame_of(self, paint_index: int) -> str:
        """Which stream painted the glyph: "page", or the form's frame ("form /Fm0 › /Fm1, use 1")."""
        trace = self.trace
        if trace is None or not 0 <= paint_index < len(trace.glyph_step) or trace.glyph_step[paint_index] < 0:
            return ""
        return frame_label(trace.steps[trace.glyph_step[paint_index]])

    def state_after(self) -> TraceState | None:
        if self.trace is None or self.step is None:
            return None
        return self.trace.after(self.current)

    def state_rows(self) -> list[StateRow]:
        """Every field of STATE_FIELDS: its value when the step runs and once it ran."""
        step = self.step
        if step is None:
            return []
        after = self.state_after() or step.before
        rows = []
        for label, attribute in STATE_FIELDS:
            before_value, after_value = state_value(step.before, attribute), state_value(after, attribute)
            rows.append(
                StateRow(
                    label,
                    format_value(step.before, attribute),
                    format_value(after, attribute) if after_value != before_value else "",
                    before_value if isinstance(before_value, TraceColour) else None,
                    after_value
                    if isinstance(after_value, TraceColour) and after_value != before_value
                    else None,
                )
            )
        return rows

    # -- moving --------------------------------------------------------------------------------
    def go(self, index: int) -> None:
        index = max(-1, min(int(index), self.count - 1))
        if index == self.current:
            return
        self.current = index
        self.changed.emit(self)

    def forward(self) -> None:
        self.go(self.current + 1)

    def back(self) -> None:
        self.go(self.current - 1)

    def to_start(self) -> None:
        self.go(-1)

    def to_end(self) -> None:
        self.go(self.count - 1)

    def step_of_glyph(self, paint_index: int) -> int | None:
        if self.trace is None or not 0 <= paint_index < len(self.trace.glyph_step):
            return None
        found = self.trace.glyph_step[paint_index]
        return found if found >= 0 else None

    def go_to_glyph(self, paint_index: int) -> bool:
        found = self.step_of_glyph(paint_index)
        if found is None:
            return False
        self.go(found)
        return True

    # -- breakpoints ---------------------------------------------------------------------------
    def set_operator_breaks(self, operators: Iterable[str]) -> None:
        self.operator_breaks = {o.strip() for o in operators if o.strip()}

    def toggle_step_break(self, index: int | None = None) -> bool:
        """Toggle a breakpoint on a step (the current one by default); True when it is now set."""
        index = self.current if index is None else index
        if not 0 <= index < self.count:
            return False
        if index in self.step_breaks:
            self.step_breaks.discard(index)
            on = False
        else:
            self.step_breaks.add(index)
            on = True
        self.changed.emit(self)
        return on

    def toggle_glyph_break(self, paint_index: int) -> bool:
        if paint_index in self.glyph_breaks:
            self.glyph_breaks.discard(paint_index)
            on = False
        else:
            self.glyph_breaks.add(paint_index)
            on = True
        self.changed.emit(self)
        return on

    def breaks_at(self, index: int) -> list[str]:
        """Why step `index` is a breakpoint ([] when it is not)."""
        if self.trace is None or not 0 <= index < self.count:
            return []
        step = self.trace.steps[index]
        why = []
        if index in self.step_breaks:
            why.append("breakpoint on this instruction")
        if step.operator in self.operator_breaks:
            why.append(f"breakpoint on every {step.operator}")
        if step.shows_text:
            hit = sorted(g for g in self.glyph_breaks if step.glyphs_before <= g < step.glyphs_after)
            if hit:
                why.append("breakpoint on glyph " + ", ".join(f"#{g}" for g in hit))
        return why

    def _glyph_break_steps(self) -> set[int]:
        out = set()
        for g in self.glyph_breaks:
            found = self.step_of_glyph(g)
            if found is not None:
                out.add(found)
        return out

    def _is_break(self, index: int, glyph_steps: set[int], steps: Sequence[TraceStep]) -> bool:
        return (
            index in self.step_breaks or index in glyph_steps or steps[index].operator in self.operator_breaks
        )

    def run_forward(self) -> bool:
        """Run to the next breakpoint (True), or to the last step when none is met (False)."""
        if self.trace is None:
            return False
        steps = self.trace.steps
        glyph_steps = self._glyph_break_steps()
        for j in range(self.current + 1, len(steps)):
            if self._is_break(j, glyph_steps, steps):
                self.go(j)
                return True
        self.to_end()
        return False

    def run_back(self) -> bool:
        """Run backwards to the previous breakpoint (True), or to the start when none is met (False)."""
        if self.trace is None:
            return False
        steps = self.trace.steps
        glyph_steps = self._glyph_break_steps()
        for j in range(min(self.current, len(steps)) - 1, -1, -1):
            if self._is_break(j, glyph_steps, steps):
                self.go(j)
                return True
        self.to_start()
        return False


_STEPPERS: weakref.WeakKeyDictionary[Session, Stepper] = weakref.WeakKeyDictionary()


def stepper_for(session: Session) -> Stepper:
    """The one Stepper of a session (the stepper panel drives it, the canvas draws it)."""
    found = _STEPPERS.get(session)
    if found is None:
        found = _STEPPERS[session] = Stepper()
    return found
