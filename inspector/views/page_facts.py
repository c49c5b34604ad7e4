"""What the views need from one mode's PageText, in one place (Qt-free).

core.assembly records its decisions and the character map as data; this
module is the single place that reads them, so the canvas, the panels, the
legend counts and the headless renderer cannot disagree. Records are kept as
they are (no copies, no wrappers) and described only when someone reads
them: a 20,000-glyph page has ~100,000 decisions.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeAlias

from glyphscope.core.annotations import AnnotationDecision
from glyphscope.core.assembly import (
    MODES,
    Baseline,
    ColumnChangeDecision,
    ColumnSplit,
    Decision,
    LineBreakDecision,
    Mode,
    PageText,
    TextColumn,
    VerticalColumn,
    WordGapDecision,
)
from glyphscope.core.assembly.decision_geometry import decision_point, is_near_miss
from glyphscope.core.assembly.modes import ReadingOrder
from glyphscope.core.decision_protocol import DecisionKind, Describable, describe
from glyphscope.core.decision_set import page_annotation_decisions
from glyphscope.core.geometry import Point, Rect
from glyphscope.core.glyph import DecodeSource, Glyph
from glyphscope.core.page import ClipRecord, InterpretedPage, PageBoxes
from glyphscope.core.params import Parameters
from glyphscope.core.passes import CullDecision, DuplicateDecision
from glyphscope.core.visibility import ClippedDecision, HiddenRecord, why_hidden
from glyphscope.core.visibility_class import VisibilityClass
from glyphscope.inspector.layers.registry import (
    INK_DISAGREES,
    INK_WITHOUT_GLYPHS,
    VISIBILITY_LAYERS,
    form_colour,
)
from glyphscope.inspector.verify.check import GlyphVerdict
from glyphscope.inspector.views.spatial import PointIndex

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.inspector.verify.check import VerifyResult

LineBreak: TypeAlias = LineBreakDecision | ColumnChangeDecision
Column: TypeAlias = TextColumn | VerticalColumn
MarkedDecision: TypeAlias = WordGapDecision | LineBreak
"""A decision the canvas marks at a point (`decision_point`)."""
PairDecision: TypeAlias = WordGapDecision | LineBreak | ColumnSplit
"""A decision between two glyphs, `before` and `after` (`TextView.decisions_for`)."""


@dataclass(slots=True)
class _DecisionKinds:
    """A mode's decision records sorted by what the views draw of them."""

    word_gaps: list[WordGapDecision] = field(default_factory=list)
    line_breaks: list[LineBreak] = field(default_factory=list)
    columns: list[Column] = field(default_factory=list)
    splits: list[ColumnSplit] = field(default_factory=list)
    baselines: list[Baseline] = field(default_factory=list)
    other: list[Decision] = field(default_factory=list)

    @classmethod
    def of(cls, decisions: Iterable[Decision]) -> _DecisionKinds:
        k = cls()
        for r in decisions:
            if isinstance(r, WordGapDecision):
                k.word_gaps.append(r)
            elif isinstance(r, (LineBreakDecision, ColumnChangeDecision)):
                k.line_breaks.append(r)
            elif isinstance(r, (TextColumn, VerticalColumn)):
                k.columns.append(r)
            elif isinstance(r, ColumnSplit):
                k.splits.append(r)
            elif isinstance(r, Baseline):
                k.baselines.append(r)
            else:
                k.other.append(r)
        return k


@dataclass(slots=True)
class TextView:
    """One mode's text with its decisions (engine records) and the character map."""

    mode: str
    page_text: PageText
    text: str  # "" when the mode has no text (structure without structure)
    available: bool
    # The decisions by kind, sorted on first use: a mode's decision records are made when first
    # read (core/assembly/decision_store.py), and a view nobody draws need not make them.
    _kinds: _DecisionKinds | None = None
    _order: list[int] | None = None
    _touching: dict[int, list[PairDecision]] | None = None

    @property
    def kinds(self) -> _DecisionKinds:
        if self._kinds is None:
            self._kinds = _DecisionKinds.of(self.page_text.decisions)
        return self._kinds

    @property
    def word_gaps(self) -> list[WordGapDecision]:
        return self.kinds.word_gaps

    @property
    def line_breaks(self) -> list[LineBreak]:
        return self.kinds.line_breaks

    @property
    def columns(self) -> list[Column]:
        return self.kinds.columns

    @property
    def splits(self) -> list[ColumnSplit]:
        return self.kinds.splits

    @property
    def baselines(self) -> list[Baseline]:
        return self.kinds.baselines

    @property
    def other(self) -> list[Decision]:  # grid, placements, structure order
        return self.kinds.other

    @property
    def structured(self) -> bool | None:
        return self.page_text.structured

    @property
    def untagged(self) -> int | None:
        return self.page_text.untagged

    @property
    def reason(self) -> str | None:
        return self.page_text.reason

    @property
    def char_glyphs(self) -> array[int]:
        return self.page_text.char_map.glyph

    @property
    def order(self) -> list[int]:
        """Paint indices in text order, each once."""
        if self._order is None:
            self._order = list(dict.fromkeys(i for i in self.page_text.char_map.glyph if i >= 0))
        return self._order

    def chars_for(self, paint_indices: Iterable[int]) -> list[int]:
        out: list[int] = []
        chars_of = self.page_text.char_map.chars_of_glyph
        for i in paint_indices:
            out.extend(chars_of(i))
        out.sort()
        return out

    def glyphs_for(self, start: int, end: int) -> list[int]:
        """Paint indices of the characters in [start, end)."""
        glyph = self.page_text.char_map.glyph
        return list(dict.fromkeys(i for i in glyph[max(0, start) : max(0, end)] if i >= 0))

    def lines(self) -> list[list[int]]:
        """Paint indices per line of the text, in text order; lines without glyphs are left out.

        The reading-order overlay draws one numbered arrow per entry.
        """
        glyph = self.page_text.char_map.glyph
        out: list[list[int]] = []
        start = 0
        for line in self.text.split("\n"):
            end = start + len(line)
            indices = list(dict.fromkeys(i for i in glyph[start:end] if i >= 0))
            if indices:
                out.append(indices)
            start = end + 1
        return out

    def decisions_for(self, paint_index: int) -> list[PairDecision]:
        if self._touching is None:
            touching: dict[int, list[PairDecision]] = {}
            for d in (*self.word_gaps, *self.line_breaks, *self.splits):
                touching.setdefault(d.before, []).append(d)
                touching.setdefault(d.after, []).append(d)
            self._touching = touching
        return self._touching.get(paint_index, [])


def text_view(mode: str, page_text: PageText) -> TextView:
    return TextView(mode, page_text, page_text.text or "", page_text.text is not None)


@dataclass(frozen=True, slots=True)
class TextRun:
    """Glyphs read as one line of text by the engine's own plain assembly, with that text."""

    text: str
    glyphs: tuple[int, ...]  # paint indices in text order


def glyph_runs(
    glyphs: Sequence[Glyph],
    indices: Iterable[int],
    params: Parameters | None = None,
    visible_box: Rect | None = None,
) -> list[TextRun]:
    """`indices` (paint indices of `glyphs`) as runs of text: each line of their plain text.

    Used for glyphs no text mode shows (culled, duplicates, a probed region) so that they
    read as strings; the words and lines are those of core's plain mode, not a rule of ours.
    """
    from glyphscope.core.assembly import assemble
    from glyphscope.core.params import DEFAULT_PARAMETERS

    chosen = [glyphs[i] for i in sorted(set(indices)) if 0 <= i < len(glyphs)]
    if not chosen:
        return []
    if visible_box is None:
        xs = [p[0] for g in chosen for p in g.quad]
        ys = [p[1] for g in chosen for p in g.quad]
        visible_box = (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)
    page_text = assemble(chosen, "plain", params or DEFAULT_PARAMETERS, visible_box=visible_box)
    view = text_view("plain", page_text)
    runs: list[TextRun] = []
    start = 0
    for line in view.text.split("\n"):
        end = start + len(line)
        members = view.glyphs_for(start, end)
        if members and line.strip():
            runs.append(TextRun(line.strip(), tuple(members)))
        start = end + 1
    return runs


class ModeTexts:
    """The page's text in every mode, by readiness: which modes are assembled, which is shown for
    a mode (structure without structure shows plain) and why, and their text views (built lazily)."""

    def __init__(self, analysis: PageAnalysis) -> None:
        self.analysis = analysis
        self._views: dict[str, TextView] = {}
        self.failures: dict[str, str] = {}  # mode → why its text could not be assembled

    def view(self, mode: str) -> TextView:
        view = self._views.get(mode)
        if view is None:
            view = self._views[mode] = text_view(mode, self.analysis.texts[mode])
        return view

    def ready(self, mode: str) -> bool:
        """Whether `mode`'s text is assembled. The window shows a page before its texts and
        assembles them in a worker (the mode on screen first); a panel that read a mode not
        ready would wait for it, so it shows that the text is coming instead."""
        texts = self.analysis.texts
        ready = getattr(texts, "ready", None)
        return mode in self._views or ready is None or bool(ready(mode))

    def shown_ready(self, mode: str) -> bool:
        """Whether `mode` and the mode shown for it (`shown_mode`) are both assembled."""
        return self.ready(mode) and self.ready(self.shown_mode(mode))

    def pending(self) -> tuple[str, ...]:
        """The modes still being assembled (in MODES order); a mode that failed is not pending."""
        return tuple(m for m in MODES if not self.ready(m) and m not in self.failures)

    def shown_mode(self, mode: str) -> str:
        """The mode whose text and decisions are shown for `mode`: structure mode on a page
        without usable structure falls back to plain (the text panel says why); every other
        mode is itself (auto chooses by itself)."""
        if mode not in MODES:
            return "plain"
        if mode == Mode.STRUCTURE and not self.view(mode).available:
            return "plain"
        return mode

    def fallback_reason(self, mode: str) -> str | None:
        """Why `mode` cannot give its own order on this page (and shows another), or None.

        Structure mode without usable structure shows plain text; a mode that reads in its own
        order when the page has it (articles without beads) says why it read in plain order.
        Auto chooses by itself, so it never falls back."""
        if mode not in MODES or mode == Mode.AUTO:
            return None
        view = self.view(mode)
        if self.shown_mode(mode) != mode:
            return view.reason or "the page has no structure tree"
        if mode != Mode.STRUCTURE and view.reason:
            return str(view.reason)
        return None

    def auto_order(self) -> str:
        """The order auto mode used on this page: structure, articles, geometric or plain."""
        view = self.view(Mode.AUTO)
        if view.page_text.order is not None:
            return view.page_text.order
        if view.structured:
            return ReadingOrder.STRUCTURE
        if any(getattr(d, "kind", "") == DecisionKind.ARTICLE_BEAD for d in view.other):
            return ReadingOrder.ARTICLES
        return ReadingOrder.PLAIN


class DecisionMarks:
    """The word-gap and line-break decisions of a mode where the canvas marks them: the mark
    nearest a point (hover, click) and the legend's summary of the word gaps."""

    def __init__(self, analysis: PageAnalysis, modes: ModeTexts) -> None:
        self.page, self.modes = analysis.page, modes
        self._index: dict[str, tuple[PointIndex, list[MarkedDecision]]] = {}
        self._gap_summary: dict[str, tuple[int, int, int]] = {}

    def word_gap_summary(self, mode: str) -> tuple[int, int, int]:
        """(gaps, spaces inserted, near misses) of the mode's word-gap decisions (cached: the
        legend asks on every revisit of the page)."""
        shown = self.modes.shown_mode(mode)
        cached = self._gap_summary.get(shown)
        if cached is None:
            gaps = self.modes.view(shown).word_gaps
            inserted = sum(1 for d in gaps if d.inserted)
            cached = self._gap_summary[shown] = (len(gaps), inserted, sum(1 for d in gaps if is_near_miss(d)))
        return cached

    def near(self, point: Point, mode: str, radius: float) -> MarkedDecision | None:
        """The word-gap or line-break decision of `mode` whose mark is nearest `point` within
        `radius` (user space), or None. Marks are where the overlays draw them (`decision_point`)."""
        shown = self.modes.shown_mode(mode)
        index = self._index.get(shown)
        if index is None:
            view = self.modes.view(shown)
            glyphs = self.page.glyphs
            n = len(glyphs)
            records: list[MarkedDecision] = []
            points: list[Point] = []
            for d in (*view.word_gaps, *view.line_breaks):
                if 0 <= d.before < n and 0 <= d.after < n:
                    p = decision_point(glyphs, d)
                    if p is not None:
                        records.append(d)
                        points.append(p)
            index = self._index[shown] = (PointIndex(points), records)
        found = index[0].nearest(point, radius) if index[1] else None
        return None if found is None else index[1][found]


class FormColours:
    """The colour of each Form XObject on the page: its glyphs and its BBox are drawn in it."""

    def __init__(self, page: InterpretedPage) -> None:
        self.page = page
        self._index: dict[tuple[str, ...], int] | None = None

    @property
    def index(self) -> dict[tuple[str, ...], int]:
        """Each distinct form path on the page (in order of first use) -> colour index."""
        if self._index is None:
            index: dict[tuple[str, ...], int] = {}
            for form in self.page.forms:
                index.setdefault(tuple(form.form_path), len(index))
            glyphs = self.page.glyphs
            runs = getattr(glyphs, "runs", None)  # a table's runs: one look per text-showing operator
            for g in runs if runs is not None else glyphs:
                if g.form_path and g.form_path not in index:
                    index[g.form_path] = len(index)
            self._index = index
        return self._index

    @property
    def colours(self) -> dict[tuple[str, ...], str]:
        """Each distinct form path on the page -> the colour its glyphs and BBox are drawn in."""
        return {path: form_colour(i) for path, i in self.index.items()}


class GlyphFates:
    """What happened to each glyph, in words and records: its status, visibility class and clip,
    the cull and duplicate records naming it, the annotations, and every decision that touched it."""

    def __init__(self, analysis: PageAnalysis, modes: ModeTexts) -> None:
        self.analysis, self.modes = analysis, modes
        self.page, self.classified = analysis.page, analysis.classified
        self._runs: dict[str, list[TextRun]] = {}
        self._hidden: dict[int, HiddenRecord] | None = None  # paint index → visibility record
        self._pass_records: (
            tuple[dict[int, list[CullDecision]], dict[int, list[DuplicateDecision]]] | None
        ) = None
        self._annotations: list[AnnotationDecision] | None = None

    @property
    def annotation_decisions(self) -> list[AnnotationDecision]:
        """One per annotation of the page (in /Annots order): drawn and in the text, or why not."""
        if self._annotations is None:
            self._annotations = page_annotation_decisions(self.page, self.analysis.params)
        return self._annotations

    @property
    def culled_runs(self) -> list[TextRun]:
        """The culled glyphs as lines of text (slug lines, crop-mark labels, a neighbouring page)."""
        runs = self._runs.get("culled")
        if runs is None:
            runs = self._runs["culled"] = self.runs_of(c.paint_index for c in self.classified.culls)
        return runs

    def runs_of(self, indices: Iterable[int]) -> list[TextRun]:
        return glyph_runs(self.page.glyphs, list(indices), getattr(self.analysis, "params", None))

    def visibility_of(self, paint_index: int) -> str:
        """The glyph's class: visible, invisible_mode, clipped, transparent, same_as_background, covered."""
        vis = self.classified.visibility
        if vis is None or not 0 <= paint_index < len(vis.classes):
            return VisibilityClass.VISIBLE
        return vis.classes[paint_index]

    def visibility_record(self, paint_index: int) -> HiddenRecord | None:
        """The glyph's visibility decision (core/visibility.py), None for a visible glyph."""
        if self._hidden is None:
            vis = self.classified.visibility
            self._hidden = {r.paint_index: r for r in vis.records} if vis is not None else {}
        return self._hidden.get(paint_index)

    def hidden_note(self, paint_index: int) -> str:
        """Why a reader cannot see the glyph, in words ("" when visible)."""
        record = self.visibility_record(paint_index)
        return why_hidden(record) if record is not None else ""

    def clip_of(self, paint_index: int) -> ClipRecord | None:
        """The clip record (core.page.ClipRecord) of a clipped glyph, else None."""
        record = self.visibility_record(paint_index)
        if not isinstance(record, ClippedDecision):  # None, or hidden some other way
            return None
        clips = self.page.clips
        return clips[record.clip_id] if 0 <= record.clip_id < len(clips) else None

    def status_of(self, paint_index: int) -> str:
        return str(self.classified.status[paint_index].value)

    def _passes_of(self, paint_index: int) -> tuple[list[CullDecision], list[DuplicateDecision]]:
        """The cull records and the duplicate records (as copy or as original) naming the glyph,
        in their lists' order; indexed once (a probe explains thousands of glyphs)."""
        if self._pass_records is None:
            culls: dict[int, list[CullDecision]] = {}
            for c in self.classified.culls:
                culls.setdefault(c.glyph, []).append(c)
            dups: dict[int, list[DuplicateDecision]] = {}
            for d in self.classified.duplicates:
                dups.setdefault(d.glyph, []).append(d)
                if d.duplicate_of != d.glyph:
                    dups.setdefault(d.duplicate_of, []).append(d)
            self._pass_records = culls, dups
        culls, dups = self._pass_records
        return culls.get(paint_index, []), dups.get(paint_index, [])

    def explain(self, paint_index: int, mode: str) -> list[str]:
        """Every decision that touched the glyph, as sentences with numbers."""
        lines: list[str] = []
        culls, dups = self._passes_of(paint_index)
        d: DuplicateDecision | PairDecision
        for c in culls:
            lines.append(describe(c))
        hidden = self.visibility_record(paint_index)
        if hidden is not None:
            lines.append(f"visibility {hidden.kind}: {describe(hidden)}")
        for d in dups:
            if d.glyph == paint_index:
                lines.append(describe(d))
            elif d.duplicate_of == paint_index:
                lines.append(f"kept; glyph #{d.paint_index} was dropped as its duplicate")
        glyphs = self.page.glyphs
        mode = self.modes.shown_mode(mode)
        for m in (mode, Mode.PLAIN) if mode != Mode.PLAIN else (mode,):
            for d in self.modes.view(m).decisions_for(paint_index):
                if d.after == paint_index:
                    where = f"after #{d.before} {_char(glyphs, d.before)}"
                else:
                    where = f"before #{d.after} {_char(glyphs, d.after)}"
                lines.append(f"{m}, {where}: {describe(d)}")
        return lines


class LegendCounts:
    """The numbers the legend shows: every layer's count (each made by its entry of the layer
    registry), glyphs per decode source and per hidden class, the OCR layers' counts."""

    def __init__(self, facts: PageFacts) -> None:
        self.facts = facts
        self._by_mode: dict[str, dict[str, int]] = {}
        self._sources: Counter[DecodeSource] | None = None  # counted once: the page never changes
        self._hidden: dict[str, int] | None = None

    def layers(self, mode: str) -> dict[str, int]:
        """The number the legend shows for every layer, each counted by its own entry of the layer
        registry (inspector.layers.registry) on the engine's records.

        A layer counted on a mode's text (LayerSpec.counted_on) is left out while that text is
        still being assembled: the legend shows it as pending. Each count is made once (the
        legend asks on every stage of the page); live ones (compare, OCR) every time."""
        from glyphscope.inspector.layers.registry import count_layers

        counts = self._by_mode.setdefault(mode, {})
        count_layers(self.facts, mode, live=False, into=counts)
        return {**counts, **count_layers(self.facts, mode, live=True)}

    def decode_sources(self) -> dict[DecodeSource, int]:
        """Glyphs per decode source, off the page's column when it has one."""
        if self._sources is None:
            glyphs = self.facts.page.glyphs
            column = getattr(glyphs, "source", None)
            self._sources = Counter(column if column is not None else (g.decode_source for g in glyphs))
        return self._sources

    def verify(self) -> dict[str, int]:
        """The OCR layers' counts (glyphs whose ink reads other, regions of ink without glyphs);
        none until the page is verified (the legend shows them as not run)."""
        result = self.facts.verification
        if result is None or not result.pages:
            return {}
        page = result.pages[0]
        return {
            INK_DISAGREES: sum(1 for g in page.glyphs if g.verdict is GlyphVerdict.INK_READS_OTHER),
            INK_WITHOUT_GLYPHS: len(page.ink_without_glyphs),
        }

    def visibility(self) -> dict[str, int]:
        """Glyphs per hidden class (the legend's counts of the visibility layers)."""
        if self._hidden is None:
            counts = dict.fromkeys(VISIBILITY_LAYERS, 0)
            vis = self.facts.classified.visibility
            if vis is not None:
                for r in vis.records:
                    counts[r.kind] += 1
            self._hidden = counts
        return self._hidden


class PageFacts:
    """One analysed page as the views see it, by job: the text of every mode and its readiness
    (`modes`), each glyph's fate (`fates`), the decision marks (`marks`), the forms' colours
    (`forms`) and the legend's numbers (`counts`); the OCR cross-check once the page is verified."""

    def __init__(self, analysis: PageAnalysis) -> None:
        self.analysis = analysis
        self.page = analysis.page
        self.classified = analysis.classified
        self.modes = ModeTexts(analysis)
        self.fates = GlyphFates(analysis, self.modes)
        self.marks = DecisionMarks(analysis, self.modes)
        self.forms = FormColours(analysis.page)
        self.counts = LegendCounts(self)
        # The OCR cross-check of this page (Session.set_verification), None until verified
        self.verification: VerifyResult | None = None


class ShownImage(Protocol):
    """The rendered page as the window holds it (a QImage): Qt is not nameable in this layer."""

    def width(self) -> int: ...

    def height(self) -> int: ...


class OverlayDrawing(Protocol):
    """The window's drawing of the page's layers (gui.overlays.PageOverlays), made from `facts`."""

    @property
    def facts(self) -> PageFacts: ...

    @property
    def hit_index(self) -> object:
        """Which glyph is under the pointer (built on first use)."""


@dataclass(slots=True)
class PageBundle:
    """The current page's view model: what the session holds and emits to every view
    (`page_view.page_state` says which stage it is at for a view).

    `analysis` and `facts` are the page's data; `image` and `overlays` are the window's
    drawing of it (a QImage and gui.overlays.PageOverlays), opaque at this layer. A preview
    carries the image only, while the page is still being analysed.
    """

    page_number: int
    boxes: PageBoxes
    analysis: PageAnalysis | None = None
    facts: PageFacts | None = None
    overlays: OverlayDrawing | None = None
    image: ShownImage | None = None
    render_scale: float = 1.0  # pixels of `image` per point
    error: str | None = None  # why the page could not be interpreted
    render_error: str | None = None
    preview: bool = False  # the rendered image only; the analysed page follows
    # Every mode's text is in and the window was told (set on the GUI thread when the worker's
    # last word arrives: `PageFacts.ready` may turn true in the worker before that)
    texts_complete: bool = False
    timings: dict[str, float] = field(default_factory=dict)


def counterpart(facts: PageFacts, record: Describable) -> Describable | None:
    """The record of `facts` that stands where `record` stood in an earlier analysis of the page
    (the same annotation's decision after the annotation switch changed it); `record` itself when
    the analysis does not remake records of its kind, None when it has no counterpart now."""
    if isinstance(record, AnnotationDecision):
        index = record.annotation.index
        return next((d for d in facts.fates.annotation_decisions if d.annotation.index == index), None)
    return record


def decision_numbers(d: object) -> str:
    """The record's verdict, value and threshold as one line (the numbers its rule compared)."""

    def num(v: object) -> str:
        if isinstance(v, float):
            return f"{v:.3f}".rstrip("0").rstrip(".")
        if isinstance(v, tuple):
            return "(" + ", ".join(num(x) for x in v) + ")"
        return "—" if v is None else str(v)

    kind = getattr(d, "kind", type(d).__name__)
    return f"{kind}: verdict {getattr(d, 'verdict', '?')}, value {num(getattr(d, 'value', None))}, threshold {num(getattr(d, 'threshold', None))}"


def _char(glyphs: Sequence[Glyph], i: int) -> str:
    if 0 <= i < len(glyphs):
        return repr(glyphs[i].unicode) if glyphs[i].unicode else "(unresolved)"
    return "?"
