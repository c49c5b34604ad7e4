"""Which glyphscope decision explains a difference with another engine, in one sentence (Qt-free).

The records come from `PageAnalysis.decisions(mode)` and the sentences are made
from their protocol fields (`verdict`, `value`, `threshold`; `describe()` where
no better wording exists), never from message text: a cull gives the distance
of the glyph's centre outside the visible box, a word gap the gap and our
threshold, a duplicate the offsets and the tolerances.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from glyphscope.core.decision_protocol import DecisionRecord, fmt
from glyphscope.core.visibility_class import DROPPABLE_HIDDEN, VisibilityClass
from glyphscope.inspector.compare.align import CHANGED, EXTRA, MISSING, ORDER, SPACE, Run

SNIPPET = 40
"""Characters of a difference's text quoted in its sentence."""


class DecisionIndex:
    """A page's decision records of one mode, by the glyph and by the glyph pair they concern."""

    def __init__(self, decisions: Iterable[Any]) -> None:
        self.by_glyph: dict[int, list[Any]] = {}
        self.by_pair: dict[tuple[int, int], list[Any]] = {}
        for d in decisions:
            before, after = getattr(d, "before", None), getattr(d, "after", None)
            if isinstance(before, int) and isinstance(after, int):
                self.by_pair.setdefault((before, after), []).append(d)
            glyph = getattr(d, "glyph", None)
            if isinstance(glyph, int):
                self.by_glyph.setdefault(glyph, []).append(d)
            if d.kind in ("actual_text", "annotation"):  # it decides every glyph of its span
                for g in d.glyphs:
                    if g != glyph:
                        self.by_glyph.setdefault(g, []).append(d)

    def of_glyph(self, paint_index: int, *kinds: str) -> Any:
        for d in self.by_glyph.get(paint_index, ()):
            if not kinds or d.kind in kinds:
                return d
        return None

    def of_pair(self, before: int, after: int, *kinds: str) -> Any:
        for kind in kinds:
            for d in self.by_pair.get((before, after), ()):
                if d.kind == kind:
                    return d
        return None


@dataclass(frozen=True, slots=True)
class Explanation:
    decision: DecisionRecord | None  # None when no decision of ours concerns it
    sentence: str


def quote(text: str) -> str:
    flat = " ".join(text.split())
    return "'" + (flat if len(flat) <= SNIPPET else flat[: SNIPPET - 1] + "…") + "'"


def distance_outside(point: Any, box: Any) -> float:
    """How far a point lies outside a box [x0, y0, x1, y1] (0 inside): the cull rule's margin."""
    x, y = point
    x0, y0, x1, y1 = box
    dx = max(x0 - x, 0.0, x - x1)
    dy = max(y0 - y, 0.0, y - y1)
    return float((dx * dx + dy * dy) ** 0.5)


def explain(run: Run, engine: str, index: DecisionIndex, their_text: str, our_text: str) -> Explanation:
    """The sentence for one difference run of `engine` (its label), with the record that decided it."""
    theirs = their_text[run.their_start : run.their_end]
    ours = our_text[run.our_start : run.our_end]
    if run.kind == SPACE:
        return _space(run, engine, index, ours)
    if run.kind == EXTRA:
        return _extra(run, engine, index, theirs)
    if run.kind == ORDER:
        return _order(run, engine, index, theirs)
    if run.kind == MISSING:
        return _missing(run, engine, index, ours)
    if run.kind == CHANGED:
        return _changed(run, engine, index, theirs, ours)
    return Explanation(None, f"{engine} differs here")


def _space(run: Run, engine: str, index: DecisionIndex, ours: str) -> Explanation:
    before, after = run.pair or (-1, -1)
    where = f"between glyph #{before} and #{after}"
    if run.their_has_space:
        d = index.of_glyph(before, "actual_text") or index.of_glyph(after, "actual_text")
        if d is not None:  # the span's text stands for its glyphs, space glyphs included
            return Explanation(
                d, f"{engine} inserts a space {where}; glyphscope writes the span's text: {d.describe()}"
            )
        d = index.of_pair(before, after, "word_gap")
        if d is not None and d.value is not None and d.threshold is not None:
            return Explanation(
                d,
                f"{engine} inserts a space here: gap {fmt(d.value)} pt, our threshold {fmt(d.threshold)} pt",
            )
        if d is not None:
            return Explanation(d, f"{engine} inserts a space {where}; glyphscope does not: {d.describe()}")
        return Explanation(
            None, f"{engine} inserts a space {where}; glyphscope took no word-gap decision there"
        )
    d = index.of_pair(before, after, "line_break", "column_change")
    if d is not None and "\n" in ours and d.value is not None and d.threshold is not None:
        return Explanation(
            d,
            f"{engine} joins these lines: glyphscope breaks the line, displacement {fmt(_first(d.value))} pt "
            f"vs threshold {fmt(_first(d.threshold))} pt",
        )
    d = index.of_pair(before, after, "word_gap")
    if d is not None and d.inserted and d.value is not None and d.threshold is not None:
        return Explanation(
            d, f"{engine} joins these words: gap {fmt(d.value)} pt, our threshold {fmt(d.threshold)} pt"
        )
    d = index.of_pair(before, after, "line_break", "column_change", "word_gap")
    if d is not None:
        return Explanation(d, f"{engine} has no space {where}; glyphscope does: {d.describe()}")
    return Explanation(None, f"{engine} has no space {where}; glyphscope reads one (a space glyph or layout)")


def _first(v: float | tuple[float, ...]) -> float:
    return float(v[0] if isinstance(v, tuple) else v)


def _extra(run: Run, engine: str, index: DecisionIndex, theirs: str) -> Explanation:
    q = quote(theirs)
    first = run.glyphs[0] if run.glyphs else -1
    if run.hidden_status == "culled":
        d = index.of_glyph(first, "cull")
        if d is not None:
            return Explanation(
                d,
                f"{engine} keeps {q}, which glyphscope culled: glyph #{first}'s centre lies "
                f"{fmt(distance_outside(d.value, d.threshold))} pt outside the visible box "
                f"[{', '.join(fmt(v) for v in d.threshold)}]",
            )
    if run.hidden_status == "duplicate":
        d = index.of_glyph(first, "duplicate")
        if d is not None:
            along, across = d.value
            along_max, across_max = d.threshold
            return Explanation(
                d,
                f"{engine} keeps {q}, which glyphscope dropped as a duplicate: glyph #{first} lies "
                f"{fmt(along)} pt along (≤ {fmt(along_max)}) and {fmt(across)} pt across (≤ {fmt(across_max)}) "
                f"from glyph #{d.before}",
            )
    if run.hidden_status == "excluded":
        d = index.of_glyph(first, "annotation")
        if d is not None:
            return Explanation(d, f"{engine} keeps {q}, which glyphscope left out: {d.describe()}")
        return Explanation(
            None, f"{engine} keeps {q}, the page's own content, which --annotations only leaves out"
        )
    if run.hidden_status in ("clipped", "hidden"):
        d = index.of_glyph(first, VisibilityClass.CLIPPED, *DROPPABLE_HIDDEN)
        if d is not None:
            return Explanation(
                d, f"{engine} keeps {q}, which glyphscope left out of the text: {d.describe()}"
            )
    return Explanation(None, f"{engine} has {q}, which is in no glyph of this page")


def _order(run: Run, engine: str, index: DecisionIndex, theirs: str) -> Explanation:
    q = quote(theirs)
    first = run.glyphs[0] if run.glyphs else -1
    for (before, after), records in index.by_pair.items():
        if after != first:
            continue
        for kind in ("line_break", "column_change", "word_gap"):
            for d in records:
                if d.kind == kind:
                    return Explanation(
                        d,
                        f"{engine} reads {q} at another place; glyphscope reads it right after glyph #{before}: "
                        f"{d.describe()}",
                    )
    return Explanation(None, f"{engine} reads {q} at another place than glyphscope")


def _missing(run: Run, engine: str, index: DecisionIndex, ours: str) -> Explanation:
    q = quote(ours)
    for g in run.glyphs:
        d = index.of_glyph(g, "annotation")
        if d is not None:
            return Explanation(
                d,
                f"{engine} leaves out {q}, text of an annotation's appearance that a viewer shows: {d.describe()}",
            )
    for g in run.glyphs:
        d = index.of_glyph(g, "decode_fallback", "form_membership")
        if d is not None:
            return Explanation(d, f"{engine} leaves out {q}; glyph #{g}: {d.describe()}")
    span = f"glyph #{run.glyphs[0]}" if len(run.glyphs) == 1 else f"{len(run.glyphs)} glyphs"
    if run.glyphs:
        span += f" from #{run.glyphs[0]}" if len(run.glyphs) > 1 else ""
    return Explanation(None, f"{engine} leaves out {q} ({span}); no glyphscope decision concerns them")


def _changed(run: Run, engine: str, index: DecisionIndex, theirs: str, ours: str) -> Explanation:
    for g in run.glyphs:
        d = index.of_glyph(g, "actual_text", "decode_fallback")
        if d is not None:
            return Explanation(
                d, f"{engine} reads {quote(theirs)} where glyphscope reads {quote(ours)}: {d.describe()}"
            )
    return Explanation(
        None, f"{engine} reads {quote(theirs)} where glyphscope reads {quote(ours)} (the same glyphs)"
    )
