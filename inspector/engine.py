"""What the views need from one mode's PageText, in one normalised shape (Qt-free).

core.assembly records its decisions and the character map as data; this
module is the single place that reads them, so the canvas, the panels, the
legend counts and the headless renderer cannot disagree, and a change of
the assembly records touches one file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.geometry import Point, Quad
from inspector.layers import NEAR_MISS


@dataclass(frozen=True, slots=True)
class WordGap:
    index: int  # position in the mode's decision list
    before: int  # paint index of the glyph before the gap
    after: int  # paint index of the glyph after it
    gap: float
    threshold: float
    verdict: str
    inserted: bool
    text: str  # the engine's own sentence

    @property
    def near_miss(self) -> bool:
        if self.verdict not in ("inserted", "below_threshold") or self.threshold <= 0:
            return False
        return abs(self.gap - self.threshold) <= NEAR_MISS * self.threshold


@dataclass(frozen=True, slots=True)
class LineBreak:
    index: int
    before: int
    after: int
    displacement: float
    threshold: float
    verdict: str
    new_line: bool
    text: str


@dataclass(frozen=True, slots=True)
class ColumnBox:
    index: int
    quad: Quad
    text: str


@dataclass(frozen=True, slots=True)
class Split:
    """Columns mode: a baseline split between two glyphs."""

    index: int
    before: int
    after: int
    text: str


@dataclass(frozen=True, slots=True)
class Baseline:
    index: int
    start: Point
    end: Point
    text: str


@dataclass(slots=True)
class TextView:
    """One mode's text with its decisions and both directions of the character map."""

    mode: str
    text: str  # "" when the mode has no text (structure without structure)
    available: bool
    structured: bool | None
    untagged: int | None
    reason: str | None
    char_glyphs: Any  # per character: paint index, or -1 for a generated character (array('i'))
    char_map: Any  # core.assembly.CharMap: paint index -> its character range
    word_gaps: list[WordGap] = field(default_factory=list)
    line_breaks: list[LineBreak] = field(default_factory=list)
    columns: list[ColumnBox] = field(default_factory=list)
    baselines: list[Baseline] = field(default_factory=list)
    splits: list[Split] = field(default_factory=list)
    other: list[str] = field(default_factory=list)  # sentences of the remaining decisions (grid, order)
    order: list[int] = field(default_factory=list)  # paint indices in text order, each once

    def chars_for(self, paint_indices: Any) -> list[int]:
        out: list[int] = []
        chars_of = self.char_map.chars_of_glyph
        for i in paint_indices:
            out.extend(chars_of(i))
        out.sort()
        return out

    def glyphs_for(self, start: int, end: int) -> list[int]:
        """Paint indices of the characters in [start, end)."""
        seen: dict[int, None] = {}
        for i in self.char_glyphs[max(0, start) : max(0, end)]:
            if i >= 0:
                seen[i] = None
        return list(seen)

    def decisions_for(self, paint_index: int) -> list[WordGap | LineBreak]:
        out: list[WordGap | LineBreak] = []
        for d in self.word_gaps:
            if d.before == paint_index or d.after == paint_index:
                out.append(d)
        for d in self.line_breaks:
            if d.before == paint_index or d.after == paint_index:
                out.append(d)
        return out


def _describe(record: Any) -> str:
    try:
        return str(record.describe())
    except Exception as exc:  # a broken sentence must not hide the record
        return f"{type(record).__name__} (describe() failed: {type(exc).__name__}: {exc})"


def _baseline_ends(b: Any) -> tuple[Point, Point]:
    """The baseline as a segment: the line's box quad runs along the frame; `y` is its across position."""
    q = b.quad
    ux, uy = q[1][0] - q[0][0], q[1][1] - q[0][1]
    n = (ux * ux + uy * uy) ** 0.5
    if n == 0:
        return (q[0], q[1])
    ux, uy = ux / n, uy / n
    a0 = q[0][0] * ux + q[0][1] * uy
    a1 = q[1][0] * ux + q[1][1] * uy
    y = b.y
    return ((a0 * ux - y * uy, a0 * uy + y * ux), (a1 * ux - y * uy, a1 * uy + y * ux))


def text_view(mode: str, page_text: Any) -> TextView:
    from core.assembly import (
        Baseline as BaselineRecord,
    )
    from core.assembly import (
        ColumnChangeDecision,
        ColumnSplit,
        LineBreakDecision,
        TextColumn,
        VerticalColumn,
        WordGapDecision,
    )

    text = page_text.text or ""
    cmap = page_text.char_map
    char_glyphs = cmap.glyph  # array('i'): indexed, never copied
    view = TextView(
        mode=mode,
        text=text,
        available=page_text.text is not None,
        structured=page_text.structured,
        untagged=page_text.untagged,
        reason=page_text.reason,
        char_glyphs=char_glyphs,
        char_map=cmap,
    )
    for i, r in enumerate(page_text.decisions):
        if isinstance(r, WordGapDecision):
            view.word_gaps.append(
                WordGap(i, r.before, r.after, r.gap, r.threshold, str(r.verdict), r.inserted, _describe(r))
            )
        elif isinstance(r, LineBreakDecision):
            view.line_breaks.append(
                LineBreak(i, r.before, r.after, r.displacement, r.threshold, str(r.verdict), r.is_break, _describe(r))
            )
        elif isinstance(r, ColumnChangeDecision):
            view.line_breaks.append(
                LineBreak(i, r.before, r.after, 0.0, 0.0, str(r.verdict), r.is_break, _describe(r))
            )
        elif isinstance(r, (TextColumn, VerticalColumn)):
            view.columns.append(ColumnBox(r.column, r.quad, _describe(r)))
        elif isinstance(r, ColumnSplit):
            view.splits.append(Split(i, r.before, r.after, _describe(r)))
        elif isinstance(r, BaselineRecord):
            start, end = _baseline_ends(r)
            view.baselines.append(Baseline(r.line, start, end, _describe(r)))
        else:
            view.other.append(_describe(r))
    seen: dict[int, None] = {}
    for gi in char_glyphs:
        if gi >= 0 and gi not in seen:
            seen[gi] = None
    view.order = list(seen)
    return view


class PageFacts:
    """One analysed page as the views see it: text views per mode (built lazily), counts, explanations."""

    def __init__(self, analysis: Any) -> None:
        self.analysis = analysis
        self.page = analysis.page
        self.classified = analysis.classified
        self._views: dict[str, TextView] = {}
        self._form_index: dict[tuple[str, ...], int] | None = None

    def view(self, mode: str) -> TextView:
        view = self._views.get(mode)
        if view is None:
            view = text_view(mode, self.analysis.texts[mode])
            self._views[mode] = view
        return view

    @property
    def form_index(self) -> dict[tuple[str, ...], int]:
        """Each distinct form path on the page (in order of first use) -> colour index."""
        if self._form_index is None:
            index: dict[tuple[str, ...], int] = {}
            for form in self.page.forms:
                index.setdefault(tuple(form.form_path), len(index))
            for g in self.page.glyphs:
                if g.form_path and g.form_path not in index:
                    index[g.form_path] = len(index)
            self._form_index = index
        return self._form_index

    def layer_counts(self, mode: str) -> dict[str, int]:
        """The number the legend shows for every layer, straight from the engine's records."""
        from core.glyph import DecodeSource

        page, classified = self.page, self.classified
        boxes = page.boxes
        view = self.view(mode)
        structure_view = self.view("structure")
        extra_boxes = sum(1 for b in (boxes.bleed_box, boxes.trim_box, boxes.art_box) if b is not None)
        return {
            "page_boxes": 1 + extra_boxes,
            "glyphs": len(page.glyphs),
            "form_bboxes": len(page.forms),
            "culled": len(classified.culls),
            "duplicates": len(classified.duplicates),
            "unresolved": sum(1 for g in page.glyphs if g.decode_source is DecodeSource.UNRESOLVED),
            "fallback": sum(1 for g in page.glyphs if g.decode_source is DecodeSource.FALLBACK),
            "word_gaps": len(view.word_gaps),
            "line_breaks": sum(1 for d in view.line_breaks if d.new_line),
            "reading_order": len(view.order),
            "structure_order": sum(1 for g in classified.visible if g.mcid is not None)
            if structure_view.available
            else 0,
            "columns": len(self.view("columns").columns),
            "baselines": len(self.view("layout").baselines),
        }

    # -- explanations ----------------------------------------------------------------------
    def status_of(self, paint_index: int) -> str:
        return str(self.classified.status[paint_index].value)

    def explain(self, paint_index: int, mode: str) -> list[str]:
        """Every decision that touched the glyph, as sentences with numbers."""
        lines: list[str] = []
        for c in self.classified.culls:
            if c.paint_index == paint_index:
                x0, y0, x1, y1 = c.visible_box
                lines.append(
                    f"culled: box centre ({c.center[0]:.2f}, {c.center[1]:.2f}) lies outside the visible box "
                    f"[{x0:.2f} {y0:.2f} {x1:.2f} {y1:.2f}], so no text mode reads it"
                )
        for d in self.classified.duplicates:
            if d.paint_index == paint_index:
                lines.append(
                    f"dropped as a duplicate of glyph #{d.duplicate_of}: offset {d.along:.2f} pt along and "
                    f"{d.across:.2f} pt across its baseline, size {d.size:.2f} pt"
                )
            elif d.duplicate_of == paint_index:
                lines.append(f"kept; glyph #{d.paint_index} was dropped as its duplicate")
        view = self.view(mode)
        for d in view.decisions_for(paint_index):
            lines.append(f"{mode}: {d.text}")
        if mode != "plain":
            for d in self.view("plain").decisions_for(paint_index):
                lines.append(f"plain: {d.text}")
        return lines
