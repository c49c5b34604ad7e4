"""Recorders: the consumers of the interpreter's events (core/interpreter.py dispatches).

The interpreter runs the operators and keeps the graphics and text state, and its text
layout (core/glyph_layout.py) places the glyphs of shown text; what else a page
*is* — the fonts it chose, the forms it drew, its clips, colours and paint objects, its
ActualText spans, the stepper's trace — is written down by recorders, each in its own
module. A recorder overrides the events of `Recorder` it needs; the interpreter calls
only the overridden ones, so an event nobody listens to costs nothing (and an operator
group whose events nobody listens to is not even run: core/operators/__init__.py).

`PageRecorders` is the registration of a page's interpretation; a new consumer is a
new module here with a `Recorder` subclass, added there (or handed to
`Document.record_page` for one run, as the stepper's trace is).
"""

from __future__ import annotations

from dataclasses import dataclass

from glyphscope.core.recorders.base import EVENTS, Recorder
from glyphscope.core.recorders.fonts import FontRecorder
from glyphscope.core.recorders.forms import FormRecorder
from glyphscope.core.recorders.marked import ActualTextRecorder
from glyphscope.core.recorders.visibility import VisibilityRecorder

TRACK_VISIBILITY = True
"""Register the visibility recorder (clips, fill colour and alpha, opaque paint objects). Off,
the operators that serve only it are skipped (benchmarks/bench_visibility.py times both)."""


@dataclass(frozen=True, slots=True)
class PageRecorders:
    """The recorders of a page's interpretation: what `Document` makes an `InterpretedPage` of."""

    fonts: FontRecorder
    forms: FormRecorder
    actual_text: ActualTextRecorder
    visibility: VisibilityRecorder | None

    @classmethod
    def new(cls) -> PageRecorders:
        return cls(
            FontRecorder(),
            FormRecorder(),
            ActualTextRecorder(),
            VisibilityRecorder() if TRACK_VISIBILITY else None,
        )

    def all(self) -> list[Recorder]:
        """Registration order: the order in which each event reaches them."""
        found = [self.fonts, self.forms, self.actual_text, self.visibility]
        return [r for r in found if r is not None]


__all__ = [
    "EVENTS",
    "TRACK_VISIBILITY",
    "ActualTextRecorder",
    "FormRecorder",
    "FontRecorder",
    "Recorder",
    "VisibilityRecorder",
    "PageRecorders",
]
