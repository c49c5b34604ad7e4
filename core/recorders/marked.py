"""The ActualText recorder: the outermost /ActualText and /E spans that painted glyphs."""

from __future__ import annotations

from dataclasses import replace

from glyphscope.core.actual_text import ActualTextSpan, replacement_of
from glyphscope.core.recorders.base import InterpreterView, Recorder
from glyphscope.core.state import MarkedContent


class ActualTextRecorder(Recorder):
    """Spans in paint order; nested spans inside an open one are not spans of their own (the
    outermost replacement wins, as a viewer copies it)."""

    def __init__(self) -> None:
        self.spans: list[ActualTextSpan] = []
        # The open outermost span: (its section, glyphs painted before its BDC, the span so far).
        self._open: tuple[MarkedContent, int, ActualTextSpan] | None = None

    def start(self, interp: InterpreterView) -> None:
        self.interp = interp

    def marked_begun(self, section: MarkedContent) -> None:
        """A BDC whose properties declare /ActualText or /E: remember where its glyphs start."""
        if section.properties is None or self._open is not None:
            return
        found = replacement_of(section.properties)
        if found is None:
            return
        interp = self.interp
        form_path = interp.frame.form_path
        token = interp.token_index if not form_path else -1
        span = ActualTextSpan(
            -1, -1, found[0], found[1], str(section.tag), token, interp.stream_index, form_path
        )
        self._open = (section, interp.glyph_count, span)

    def marked_ended(self, section: MarkedContent) -> None:
        if self._open is not None and self._open[0] is section:
            self._close()

    def page_ended(self) -> None:
        if self._open is not None:
            self._close()  # a span left open runs to the end of the page

    def _close(self) -> None:
        """Record the span over the glyphs painted since its BDC (none: nothing to replace)."""
        assert self._open is not None
        _, start, span = self._open
        self._open = None
        end = self.interp.glyph_count
        if end > start:
            self.spans.append(replace(span, first=start, last=end - 1))
