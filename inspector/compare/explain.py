"""Why another extraction differs from glyphscope's at one place: a cause, its numbers, a sentence (Qt-free).

Each difference run gets one cause of the documented set (inspector/compare/causes.py),
the decision record that decided it where one did, the numbers a rule compared
(`numbers`) and, where glyphscope knows, what to change (`fix`). The records come
from `PageAnalysis.decisions(mode)` and the sentences are made from their
protocol fields (`verdict`, `value`, `threshold`; `describe()` where no better
wording exists), never from message text; decoding causes come from the glyphs'
decode sources and the fonts' plausibility verdicts (`PageContext`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from glyphscope.core.assembly.verdicts import LineBreakVerdict
from glyphscope.core.decision_protocol import DecisionKind, DecisionRecord, fmt
from glyphscope.core.glyph import DecodeSource, GlyphStatus
from glyphscope.core.visibility_class import DROPPABLE_HIDDEN, HIDDEN_CLASSES, VisibilityClass
from glyphscope.inspector.compare.align import CHANGED, EXTRA, MISSING, ORDER, SPACE, Run
from glyphscope.inspector.compare.causes import Cause

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.assembly.decision_store import DecisionList
    from glyphscope.core.garbled import Verdict
    from glyphscope.core.glyph import Glyph

Record = Any
"""A decision record of any kind: the protocol's fields (core/decision_protocol.py) and the kind's own
(a word gap's `gap` and `height`, an ActualText span's `written`, …), read by kind."""

SNIPPET = 40
"""Characters of a difference's text quoted in its sentence."""

CID_TEXT = re.compile(r"\(cid:\d+\)")
"""How pdfminer.six writes a code it cannot map: `(cid:12)`."""

_CODE_PAGE_NAMES = {
    "gbk": "GBK",
    "big5": "Big5",
    "shift_jis": "Shift-JIS",
    "euc_kr": "EUC-KR",
    "johab": "Johab",
}
_HIDDEN_KINDS = tuple(str(c) for c in HIDDEN_CLASSES)
HYPHENS = frozenset("-\u00ad\u2010\u2011")


class DecisionIndex:
    """A page's decision records of one mode, by the glyph and by the glyph pair they concern.

    `pairs`: the page text's DecisionList, whose pair-rule records (line break, word gap; one
    or two per glyph pair, the bulk of a page's decisions) are then made only for the pairs
    asked about (`DecisionIndex.of_analysis`); `decisions` holds the other records."""

    def __init__(self, decisions: Iterable[Record], pairs: DecisionList | None = None) -> None:
        self.by_glyph: dict[int, list[Record]] = {}
        self.by_pair: dict[tuple[int, int], list[Record]] = {}
        self.by_after: dict[int, list[Record]] = {}
        self._by_before: dict[int, list[Record]] | None = None
        self._lazy = pairs
        for d in decisions:
            self._add(d)

    @classmethod
    def of_analysis(cls, analysis: PageAnalysis, mode: str) -> DecisionIndex:
        """The index of `analysis.decisions(mode)`, making the pair rules' records only on demand."""
        text = analysis.texts[mode]
        classified = analysis.classified
        annotations: list[Record] = []
        if analysis.page.annotations:  # most pages have none: the module is not even imported
            from glyphscope.core.decision_set import page_annotation_decisions

            annotations = list(page_annotation_decisions(analysis.page, analysis.params))
        others = [
            *classified.culls,
            *annotations,
            *(classified.visibility.records if classified.visibility is not None else ()),
            *classified.duplicates,
        ]
        decisions = text.decisions
        if not hasattr(decisions, "pairs_of"):  # a plain sequence: index it all
            return cls([*others, *decisions])
        return cls([*others, *decisions.held_records()], decisions)

    def _add(self, d: Record) -> None:
        before, after = getattr(d, "before", None), getattr(d, "after", None)
        if isinstance(before, int) and isinstance(after, int):
            self.by_pair.setdefault((before, after), []).append(d)
            self.by_after.setdefault(after, []).append(d)
        glyph = getattr(d, "glyph", None)
        if isinstance(glyph, int):
            self.by_glyph.setdefault(glyph, []).append(d)
        if d.kind in (
            DecisionKind.ACTUAL_TEXT,
            DecisionKind.ANNOTATION,
        ):  # it decides every glyph of its span
            for g in d.glyphs:
                if g != glyph:
                    self.by_glyph.setdefault(g, []).append(d)

    def pair_records(self, before: int, after: int) -> list[Record]:
        """Every record of the glyph pair (before, after)."""
        found = list(self.by_pair.get((before, after), ()))
        if self._lazy is not None:
            found.extend(self._lazy.pairs_of(before, after))
        return found

    def records_after(self, after: int) -> list[Record]:
        """The pair records whose second glyph is `after`."""
        found = list(self.by_after.get(after, ()))
        if self._lazy is not None:
            found.extend(self._lazy.pairs_of(None, after))
        return found

    def by_pair_before(self, before: int) -> list[Record]:
        """The records held as such (not the pair rules' made on demand) whose first glyph is `before`."""
        if self._by_before is None:
            self._by_before = {}
            for (b, _a), records in self.by_pair.items():
                self._by_before.setdefault(b, []).extend(records)
        return list(self._by_before.get(before, []))

    def of_glyph(self, paint_index: int, *kinds: str) -> Record:
        for d in self.by_glyph.get(paint_index, ()):
            if not kinds or d.kind in kinds:
                return d
        return None

    def of_pair(self, before: int, after: int, *kinds: str) -> Record:
        records = self.pair_records(before, after)
        for kind in kinds:
            for d in records:
                if d.kind == kind:
                    return d
        return None


_NOT_READ = object()


class PageContext:
    """What the decoding causes read of a page: each glyph's record and each font's verdict (lazy)."""

    def __init__(self, analysis: PageAnalysis) -> None:
        self._analysis = analysis
        self._verdicts: dict[str, Verdict] | None = None
        self._lost: tuple[float, Glyph | None] | None = None
        self._glyphs: dict[int, Glyph | None] = {}

    def glyph(self, paint_index: int) -> Glyph | None:
        found = self._glyphs.get(paint_index, _NOT_READ)
        if found is not _NOT_READ:
            return found  # type: ignore[return-value]
        glyphs = self._analysis.classified.glyphs
        g = glyphs[paint_index] if 0 <= paint_index < len(glyphs) else None
        if g is not None and g.paint_index != paint_index:
            g = None
        self._glyphs[paint_index] = g  # records are made from the page's columns: each once
        return g

    def lost_share(self) -> tuple[float, Glyph | None]:
        """Share of the page's glyphs with no character (unresolved), and the first of them."""
        if self._lost is None:
            glyphs = self._analysis.classified.glyphs
            sources = getattr(glyphs, "source", None)  # a GlyphTable's column: no record made per glyph
            if sources is None or len(sources) != len(glyphs):
                sources = [g.decode_source for g in glyphs]
            unresolved = DecodeSource.UNRESOLVED
            lost = [i for i, s in enumerate(sources) if s is unresolved]
            first = glyphs[lost[0]] if lost else None
            self._lost = (len(lost) / len(glyphs) if len(glyphs) else 0.0, first)
        return self._lost

    def verdict(self, font_id: str) -> Verdict | None:
        if self._verdicts is None:
            try:
                self._verdicts = dict(self._analysis.fonts.verdicts)
            except (ValueError, KeyError, TypeError, AttributeError):  # evidence only: none is no error
                self._verdicts = {}
        return self._verdicts.get(font_id)


@dataclass(frozen=True, slots=True)
class Explanation:
    decision: DecisionRecord | None  # None when no decision of ours concerns it
    sentence: str
    cause: str = Cause.UNEXPLAINED.value
    numbers: dict[str, float] = field(default_factory=dict)  # what a rule compared, named
    fix: str = ""  # what to change, where glyphscope knows ("" otherwise)


def quote(text: str) -> str:
    flat = " ".join(text.split())
    return "'" + (flat if len(flat) <= SNIPPET else flat[: SNIPPET - 1] + "…") + "'"


def distance_outside(point: Sequence[float], box: Sequence[float]) -> float:
    """How far a point lies outside a box [x0, y0, x1, y1] (0 inside): the cull rule's margin."""
    x, y = point
    x0, y0, x1, y1 = box
    dx = max(x0 - x, 0.0, x - x1)
    dy = max(y0 - y, 0.0, y - y1)
    return float((dx * dx + dy * dy) ** 0.5)


def explain(
    run: Run,
    engine: str,
    index: DecisionIndex,
    their_text: str,
    our_text: str,
    context: PageContext | None = None,
) -> Explanation:
    """The cause and sentence of one difference run of `engine` (its label), with the record that decided it."""
    theirs = their_text[run.their_start : run.their_end]
    ours = our_text[run.our_start : run.our_end]
    if run.kind == SPACE:
        return _space(run, engine, index, ours, context)
    if run.kind == EXTRA:
        return _extra(run, engine, index, theirs)
    if run.kind == ORDER:
        return _order(run, engine, index, theirs)
    if run.kind == MISSING:
        return _missing(run, engine, index, ours, context)
    if run.kind == CHANGED:
        return _changed(run, engine, index, theirs, ours, context)
    return Explanation(None, f"{engine} differs here")


# -- spaces -----------------------------------------------------------------------------------------


def _gap_numbers(d: Record) -> dict[str, float]:
    out = {"gap": round(float(d.gap), 3), "factor": float(d.factor), "height": round(float(d.height), 3)}
    if d.threshold is not None:
        out["threshold"] = round(float(d.threshold), 3)
    if d.height > 0:
        out["gap_ratio"] = round(float(d.gap) / float(d.height), 4)
    return out


def _space(run: Run, engine: str, index: DecisionIndex, ours: str, ctx: PageContext | None) -> Explanation:
    before, after = run.pair or (-1, -1)
    where = f"between glyph #{before} and #{after}"
    W, L = Cause.WORD_GAP.value, Cause.LINE_BREAK.value
    if run.their_has_space:
        d = index.of_glyph(before, DecisionKind.ACTUAL_TEXT) or index.of_glyph(
            after, DecisionKind.ACTUAL_TEXT
        )
        if d is not None:  # the span's text stands for its glyphs, space glyphs included
            return Explanation(
                d,
                f"{engine} inserts a space {where}; glyphscope writes the span's text: {d.describe()}",
                Cause.ACTUAL_TEXT.value,
            )
        turned = _turned((before, after), ctx)
        if turned:
            return Explanation(
                index.of_pair(before, after, DecisionKind.WORD_GAP),
                f"{engine} breaks the word {where}, whose glyphs are {turned}: it reads such text letter by letter "
                "or in another order",
                Cause.READING_ORDER.value,
            )
        d = index.of_pair(before, after, DecisionKind.WORD_GAP)
        if d is not None and d.value is not None and d.threshold is not None:
            n = _gap_numbers(d)
            return Explanation(
                d,
                f"{engine} inserts a space here: gap {fmt(d.value)} pt, our threshold {fmt(d.threshold)} pt",
                W,
                n,
                f"the gap is {fmt(n.get('gap_ratio', 0.0))} × the glyph height: a word-gap factor below that "
                f"splits here (glyphscope's --word-gap is {fmt(d.factor)}); to keep the word whole, the other "
                "extractor's word margin must be above it",
            )
        if d is not None:
            return Explanation(
                d,
                f"{engine} inserts a space {where}; glyphscope does not: {d.describe()}",
                W,
                _gap_numbers(d),
            )
        d = index.of_pair(before, after, DecisionKind.LINE_BREAK, DecisionKind.COLUMN_CHANGE)
        if d is not None:
            return Explanation(d, f"{engine} splits here; glyphscope: {d.describe()}", L, _line_numbers(d))
        lig = _ligature_of((before, after), index, ctx)
        if lig is not None:
            return Explanation(
                lig,
                f"{engine} writes a space inside a ligature's letters: {lig.describe()}",
                Cause.LIGATURE.value,
            )
        if ctx is not None and (_is_cjk_glyph(ctx, before) or _is_cjk_glyph(ctx, after)):
            return Explanation(
                None,
                f"{engine} inserts a space {where}, between CJK characters glyphscope reads as one word",
                W,
            )
        return Explanation(
            None, f"{engine} inserts a space {where}; glyphscope took no word-gap decision there"
        )
    d = index.of_pair(before, after, DecisionKind.LINE_BREAK, DecisionKind.COLUMN_CHANGE)
    if d is not None and d.value is not None and d.threshold is not None:
        joins = "joins these lines" if "\n" in ours else "reads these glyphs on one line"
        return Explanation(
            d,
            f"{engine} {joins}: glyphscope breaks the line, displacement {fmt(_first(d.value))} pt "
            f"vs threshold {fmt(_first(d.threshold))} pt",
            L,
            _line_numbers(d),
            "a line-break factor above the displacement / height joins them (glyphscope's --line-break)",
        )
    d = index.of_pair(before, after, DecisionKind.WORD_GAP)
    if d is not None and d.inserted and d.value is not None and d.threshold is not None:
        n = _gap_numbers(d)
        return Explanation(
            d,
            f"{engine} joins these words: gap {fmt(d.value)} pt, our threshold {fmt(d.threshold)} pt",
            W,
            n,
            f"the gap is {fmt(n.get('gap_ratio', 0.0))} × the glyph height: the other extractor's word margin "
            "must be below that to see the space (tight kerning or letter spacing)",
        )
    d = index.of_pair(
        before, after, DecisionKind.LINE_BREAK, DecisionKind.COLUMN_CHANGE, DecisionKind.WORD_GAP
    )
    if d is not None:
        cause = W if d.kind == DecisionKind.WORD_GAP else L
        numbers = _gap_numbers(d) if d.kind == DecisionKind.WORD_GAP else _line_numbers(d)
        if d.kind == DecisionKind.WORD_GAP and d.value is None:  # next to a painted space glyph
            return Explanation(
                d,
                f"{engine} drops the space the page paints {where} (gap {fmt(d.gap)} pt): {d.describe()}",
                cause,
                numbers,
            )
        return Explanation(
            d, f"{engine} has no space {where}; glyphscope does: {d.describe()}", cause, numbers
        )
    lost = _lost_between(ctx, before, after)
    if lost is not None:
        return Explanation(
            None,
            f"glyphscope reads glyph #{lost.paint_index} {where} as a space: code "
            f"<{lost.code:0{2 * max(lost.code_bytes, 1)}X}> of font {lost.font_key} is {lost.decode_source.value} "
            f"(no ToUnicode, encoding or glyph name gives it a character); {engine} writes no space there",
            Cause.DECODING.value,
            {},
            f"the font {lost.font_key} needs a /ToUnicode (glyphscope repair proposes one where the evidence allows)",
        )
    if ctx is not None and _paints_space(ctx, run, before, after):
        return Explanation(None, f"{engine} drops the space glyph the page paints {where}", W)
    return Explanation(None, f"{engine} has no space {where}; glyphscope reads one (a space glyph or layout)")


def _line_numbers(d: Record) -> dict[str, float]:
    out: dict[str, float] = {}
    if d.value is not None:
        out["displacement"] = round(_first(d.value), 3)
    if d.threshold is not None:
        out["threshold"] = round(_first(d.threshold), 3)
    return out


def _paints_space(ctx: PageContext, run: Run, before: int, after: int) -> bool:
    """A painted space glyph (a character, not an unresolved code) lies between `before` and `after`."""
    if before < 0 or after < 0 or abs(after - before) > 8:
        return False
    lo, hi = sorted((before, after))
    for i in range(lo + 1, hi):
        g = ctx.glyph(i)
        if g is not None and g.unicode and g.is_space:
            return True
    return False


def _lost_between(ctx: PageContext | None, before: int, after: int) -> Glyph | None:
    """A glyph without a character (unresolved, or a fallback guess of nothing) between `before` and
    `after`: glyphscope's text has a space for it."""
    if ctx is None or before < 0 or after < 0 or abs(after - before) > 8:
        return None
    lo, hi = sorted((before, after))
    for i in range(lo + 1, hi):
        g = ctx.glyph(i)
        if (
            g is not None
            and not g.unicode.strip()
            and g.decode_source
            in (
                DecodeSource.UNRESOLVED,
                DecodeSource.FALLBACK,
            )
        ):
            return g
    return None


def _is_cjk_glyph(ctx: PageContext, paint_index: int) -> bool:
    g = ctx.glyph(paint_index)
    return g is not None and any(unicodedata.east_asian_width(c) in ("W", "F") for c in g.unicode)


def _first(v: float | tuple[float, ...]) -> float:
    return float(v[0] if isinstance(v, tuple) else v)


# -- text only theirs has ---------------------------------------------------------------------------


def _extra(run: Run, engine: str, index: DecisionIndex, theirs: str) -> Explanation:
    q = quote(theirs)
    first = run.glyphs[0] if run.glyphs else -1
    if run.hidden_status == GlyphStatus.CULLED:
        d = index.of_glyph(first, DecisionKind.CULL)
        if d is not None:
            dist = distance_outside(d.value, d.threshold)
            return Explanation(
                d,
                f"{engine} keeps {q}, which glyphscope culled: glyph #{first}'s centre lies "
                f"{fmt(dist)} pt outside the visible box "
                f"[{', '.join(fmt(v) for v in d.threshold)}]",
                Cause.CULLED.value,
                {"distance_outside": round(dist, 3)},
                "the text lies outside the CropBox, where a viewer does not show it: crop the extraction to "
                "the visible box (pdftotext -cropbox, pdfplumber page.within_bbox)",
            )
    if run.hidden_status == GlyphStatus.DUPLICATE:
        d = index.of_glyph(first, DecisionKind.DUPLICATE)
        if d is not None:
            along, across = d.value
            along_max, across_max = d.threshold
            return Explanation(
                d,
                f"{engine} keeps {q}, which glyphscope dropped as a duplicate: glyph #{first} lies "
                f"{fmt(along)} pt along (≤ {fmt(along_max)}) and {fmt(across)} pt across (≤ {fmt(across_max)}) "
                f"from glyph #{d.before}",
                Cause.DUPLICATE.value,
                {
                    "along": float(along),
                    "across": float(across),
                    "along_max": float(along_max),
                    "across_max": float(across_max),
                },
                "the page paints the text twice (fake bold): drop overlapping duplicate characters "
                "(pdfplumber dedupe_chars, PDFBox setSuppressDuplicateOverlappingText)",
            )
    if run.hidden_status == GlyphStatus.EXCLUDED:
        d = index.of_glyph(first, DecisionKind.ANNOTATION)
        if d is not None:
            return Explanation(
                d, f"{engine} keeps {q}, which glyphscope left out: {d.describe()}", Cause.ANNOTATION.value
            )
        return Explanation(
            None,
            f"{engine} keeps {q}, the page's own content, which --annotations only leaves out",
            Cause.ANNOTATION.value,
        )
    if run.hidden_status in (GlyphStatus.CLIPPED, GlyphStatus.HIDDEN):
        d = index.of_glyph(first, VisibilityClass.CLIPPED, *DROPPABLE_HIDDEN)
        return Explanation(
            d,
            f"{engine} keeps {q}, which glyphscope left out of the text"
            + (f": {d.describe()}" if d is not None else f" as {run.hidden_status}"),
            Cause.HIDDEN.value,
            {},
            "a reader cannot see this text: leave out clipped and hidden text",
        )
    if CID_TEXT.search(theirs):
        return Explanation(
            None,
            f"{engine} writes codes it cannot map as {q}: the font has no usable /ToUnicode",
            Cause.DECODING.value,
            {},
            "glyphscope repair writes a copy with a /ToUnicode where the font program or a code page knows",
        )
    if "\ufffd" in theirs:
        return Explanation(
            None,
            f"{engine} has {q}: U+FFFD replacement characters (bytes that were not text, or codes it could not decode)",
            Cause.DECODING.value,
        )
    return Explanation(
        None,
        f"{engine} has {q}, which is in no glyph of this page",
        Cause.NOT_ON_PAGE.value,
        {},
        "text on no glyph of this page: another page's text, or text the extractor generated",
    )


# -- text at another place --------------------------------------------------------------------------


def _order(run: Run, engine: str, index: DecisionIndex, theirs: str) -> Explanation:
    q = quote(theirs)
    first = run.glyphs[0] if run.glyphs else -1
    records = index.records_after(first)
    for kind in (DecisionKind.COLUMN_CHANGE, DecisionKind.LINE_BREAK, DecisionKind.WORD_GAP):
        for d in records:
            if d.kind == kind:
                return Explanation(
                    d,
                    f"{engine} reads {q} at another place; glyphscope reads it right after glyph #{d.before}: "
                    f"{d.describe()}",
                    Cause.READING_ORDER.value,
                    {},
                    "the two read the page in another order: try glyphscope's columns or structure mode, or "
                    "the other extractor's sorting option (pdftotext -layout, PyMuPDF sort=True)",
                )
    return Explanation(
        None,
        f"{engine} reads {q} at another place than glyphscope",
        Cause.READING_ORDER.value,
        {},
        "the two read the page in another order",
    )


# -- text only ours has -----------------------------------------------------------------------------


def _missing(run: Run, engine: str, index: DecisionIndex, ours: str, ctx: PageContext | None) -> Explanation:
    q = quote(ours)
    for g in run.glyphs:
        d = index.of_glyph(g, DecisionKind.ANNOTATION)
        if d is not None:
            return Explanation(
                d,
                f"{engine} leaves out {q}, text of an annotation's appearance that a viewer shows: {d.describe()}",
                Cause.ANNOTATION.value,
                {},
                "form field values and stamps live in annotations: read their appearance streams (pdftotext and "
                "pdfminer.six read the page's content only), or flatten the form",
            )
    for g in run.glyphs:
        d = index.of_glyph(g, DecisionKind.ACTUAL_TEXT)
        if d is not None:
            return Explanation(
                d,
                f"{engine} ignores ActualText: glyphscope writes the span's /ActualText {quote(d.written)} "
                f"for {quote(d.replaced)}",
                Cause.ACTUAL_TEXT.value,
            )
    hidden = [index.of_glyph(g, *_HIDDEN_KINDS) for g in run.glyphs]
    if run.glyphs and all(h is not None for h in hidden):
        h = hidden[0]
        return Explanation(
            h,
            f"{engine} leaves out {q}, text a reader cannot see: {h.describe()}",
            Cause.HIDDEN.value,
        )
    dec = _decoding(run.glyphs, engine, ctx, index, verdicts=False)
    if dec is not None:
        return Explanation(dec[0], f"{engine} leaves out {q}: {dec[1]}", Cause.DECODING.value, {}, dec[2])
    if ours.strip() and all(c in HYPHENS or c.isspace() for c in ours) and run.glyphs:
        last = run.glyphs[-1]
        d = index.of_pair(last, last + 1, DecisionKind.LINE_BREAK, DecisionKind.COLUMN_CHANGE) or next(
            (
                x
                for x in index.by_pair_before(last)
                if x.kind in (DecisionKind.LINE_BREAK, DecisionKind.COLUMN_CHANGE)
            ),
            None,
        )
        if d is not None and d.verdict != LineBreakVerdict.SAME_LINE:
            return Explanation(
                d,
                f"{engine} joins the hyphenated word across the line break and drops the hyphen {q} "
                f"(glyph #{last} ends its line: {d.describe()})",
                Cause.LINE_BREAK.value,
                _line_numbers(d),
                "the other extractor de-hyphenates at line ends; glyphscope keeps the hyphen the page paints",
            )
    turned = _turned(run.glyphs, ctx)
    if turned:
        return Explanation(
            None,
            f"{engine} does not read {q} where glyphscope does: its glyphs are {turned}, which {engine} reads "
            "in another order or letter by letter",
            Cause.READING_ORDER.value,
        )
    lig = _ligature_of(run.glyphs, index, ctx)
    if lig is not None and len(ours.strip()) <= 4:
        return Explanation(lig, f"{engine} leaves out {q}: {lig.describe()}", Cause.LIGATURE.value)
    if ctx is not None and run.glyphs and all(_invisible_or_tiny(ctx, g) for g in run.glyphs):
        return Explanation(
            None,
            f"{engine} leaves out {q}, glyphs a reader cannot see (render mode or size)",
            Cause.HIDDEN.value,
        )
    span = f"glyph #{run.glyphs[0]}" if len(run.glyphs) == 1 else f"{len(run.glyphs)} glyphs"
    if run.glyphs:
        span += f" from #{run.glyphs[0]}" if len(run.glyphs) > 1 else ""
    return Explanation(None, f"{engine} leaves out {q} ({span}); no glyphscope decision concerns them")


def _turned(glyphs: Sequence[int], ctx: PageContext | None) -> str:
    """ "written vertically" / "rotated by N°" when most of the glyphs do not run left to right ("" otherwise)."""
    if ctx is None or not glyphs:
        return ""
    records = [g for g in (ctx.glyph(i) for i in glyphs) if g is not None]
    if not records:
        return ""
    vertical = sum(1 for g in records if g.wmode == 1)
    if 2 * vertical > len(records):
        return "written vertically"
    angles = Counter(round(math.degrees(math.atan2(g.direction[1], g.direction[0]))) % 360 for g in records)
    angle, k = angles.most_common(1)[0]
    if 2 * k > len(records) and min(angle, 360 - angle) > 20:
        return f"rotated by {angle}°"
    return ""


def _invisible_or_tiny(ctx: PageContext, paint_index: int) -> bool:
    g = ctx.glyph(paint_index)
    return g is not None and (g.render_mode in (3, 7) or g.height < 0.5)


# -- the same glyphs, other characters --------------------------------------------------------------


def _changed(
    run: Run, engine: str, index: DecisionIndex, theirs: str, ours: str, ctx: PageContext | None
) -> Explanation:
    qt, qo = quote(theirs), quote(ours)
    for g in run.glyphs:
        d = index.of_glyph(g, DecisionKind.ACTUAL_TEXT)
        if d is not None:
            if _norm(theirs) and _norm(theirs) in _norm(d.replaced):
                sentence = (
                    f"{engine} ignores ActualText: it reads the glyphs {qt}, the span's /ActualText says {qo}"
                )
            else:
                sentence = f"{engine} reads {qt} where glyphscope reads {qo}: {d.describe()}"
            return Explanation(d, sentence, Cause.ACTUAL_TEXT.value)
    lig = _ligature_of(run.glyphs, index, ctx)
    if lig is not None:
        return Explanation(
            lig, f"{engine} reads {qt} where glyphscope reads {qo}: {lig.describe()}", Cause.LIGATURE.value
        )
    if CID_TEXT.search(theirs):
        return Explanation(
            None,
            f"{engine} writes {qt} for codes glyphscope reads as {qo}: it has no mapping for them",
            Cause.DECODING.value,
        )
    dec = _decoding(run.glyphs, engine, ctx, index)
    if dec is not None:
        return Explanation(
            dec[0],
            f"{engine} reads {qt} where glyphscope reads {qo}: {dec[1]}",
            Cause.DECODING.value,
            {},
            dec[2],
        )
    k = _constant_shift(theirs, ours)
    if k is not None and abs(k) == 32 and _norm(theirs).isalpha():
        return _case_difference(engine, qt, qo)
    if k is not None:
        return Explanation(
            None,
            f"{engine} reads the code as a glyph id: its {qt}, each character shifted by {k:+d}, is "
            f"glyphscope's {qo} (the font has no usable /ToUnicode; the codes are glyph ids)",
            Cause.DECODING.value,
            {"shift": float(k)},
            "the producer's font needs a /ToUnicode: glyphscope repair writes one",
        )
    if _norm(theirs) == _norm(ours):
        return Explanation(
            None, f"{engine} writes {qt} with other code points than glyphscope's {qo}", Cause.DECODING.value
        )
    if ctx is not None and run.glyphs:
        sources = {g.decode_source for g in (ctx.glyph(i) for i in run.glyphs) if g is not None}
        if sources:
            names = ", ".join(sorted(s.value for s in sources))
            return Explanation(
                None,
                f"{engine} reads {qt} where glyphscope reads {qo} from the same glyphs (decoded by {names})",
                Cause.DECODING.value,
            )
    return Explanation(None, f"{engine} reads {qt} where glyphscope reads {qo} (the same glyphs)")


def _case_difference(engine: str, theirs: str, ours: str) -> Explanation:
    return Explanation(
        None,
        f"{engine} reads {theirs} where glyphscope reads {ours}: the same letters in the other case (small "
        "capitals, or a font whose glyph names and codes disagree about case)",
        Cause.DECODING.value,
    )


def _constant_shift(theirs: str, ours: str) -> int | None:
    """k ≠ 0 when every character of `theirs` shifted by k is the character of `ours` at its place (the sign
    of core.garbled's offset: chr(theirs + k) reads right)."""
    a = [c for c in theirs if not c.isspace()]
    b = [c for c in ours if not c.isspace()]
    if len(a) != len(b) or len(a) < MIN_SHIFTED:
        return None
    shifts = {ord(y) - ord(x) for x, y in zip(a, b)}
    if len(shifts) != 1:
        return None
    k = shifts.pop()
    return k if k != 0 and abs(k) <= MAX_SHIFT else None


def _norm(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


def _ligature_of(glyphs: Iterable[int], index: DecisionIndex, ctx: PageContext | None) -> Record:
    for g in glyphs:
        d = index.of_glyph(g, DecisionKind.LIGATURE)
        if d is not None:
            return d
    return None


def _decoding(
    glyphs: Sequence[int], engine: str, ctx: PageContext | None, index: DecisionIndex, verdicts: bool = True
) -> tuple[DecisionRecord | None, str, str] | None:
    """(decision, why, fix) when the glyphs' characters come from a decoding another engine may not share;
    `verdicts`: also a font whose text is garbled on the page (its plausibility verdict, made once a page)."""
    if ctx is None or not glyphs:
        return None
    records = [g for g in (ctx.glyph(i) for i in glyphs) if g is not None]
    if not records:
        return None
    for src in (
        DecodeSource.CODE_PAGE,
        DecodeSource.FONT_PROGRAM,
        DecodeSource.CID_COLLECTION,
        DecodeSource.ENCODING_CMAP,
        DecodeSource.FALLBACK,
        DecodeSource.UNRESOLVED,
    ):
        hit = next((g for g in records if g.decode_source is src), None)
        if hit is None:
            continue
        d = index.of_glyph(hit.paint_index, DecisionKind.DECODE_FALLBACK)
        if d is None and src in (DecodeSource.FALLBACK, DecodeSource.UNRESOLVED):
            from glyphscope.core.decision_set import DecodeFallbackDecision

            d = DecodeFallbackDecision(
                hit.paint_index, hit.decode_source, hit.font_key, hit.code, hit.code_bytes, hit.unicode
            )
        font = hit.font_key
        if src is DecodeSource.CODE_PAGE:
            cp = _code_page_of(hit)
            return (
                d,
                f"{engine} reads the {cp} pairs one byte at a time: font {font} is a simple TrueType font "
                f"declared with a Latin encoding whose byte pairs are {cp} codes (glyphscope reads them as {cp})",
                f"the producer's font ({font}) needs a /ToUnicode: glyphscope repair writes a copy with ActualText "
                "the other extractor reads",
            )
        if src is DecodeSource.FONT_PROGRAM:
            return (
                d,
                f"font {font} is an Identity font without /ToUnicode: {engine} reads the code as a glyph id "
                "(or CID) with no character; glyphscope maps it through the embedded font program's cmap",
                f"glyphscope repair writes a /ToUnicode for {font} from its font program",
            )
        if src in (DecodeSource.CID_COLLECTION, DecodeSource.ENCODING_CMAP):
            return (
                d,
                f"font {font} has no /ToUnicode; glyphscope reads its codes through the predefined CMap's "
                f"character collection, which {engine} does not",
                "the producer should embed a /ToUnicode",
            )
        return (
            d,
            f"no declared mapping of font {font} answered: glyphscope's fallback guess reads {hit.unicode!r}, "
            f"{engine} guesses otherwise or not at all",
            f"the font {font} needs a /ToUnicode (glyphscope repair proposes one where the evidence allows)",
        )
    for g in records if verdicts else ():
        v = ctx.verdict(g.font_id)
        if v is not None and v.garbled:
            why = v.cause()
            return (
                None,
                f"font {g.font_key}'s text is garbled on this page ({v.summary()}): {why}",
                f"the producer's font {g.font_key}: its encoding or /ToUnicode is wrong; glyphscope repair proposes "
                "a corrected /ToUnicode",
            )
    return None


def _code_page_of(g: Glyph) -> str:
    data = g.code.to_bytes(max(g.code_bytes, 1), "big")
    for name, label in _CODE_PAGE_NAMES.items():
        try:
            if data.decode(name) == g.unicode:
                return label
        except (UnicodeDecodeError, LookupError):
            continue
    return "code-page"


# -- what single runs do not explain, seen over the whole page -----------------------------------------

MIN_SHIFTED = 3
"""Non-space characters an engine-only stretch needs before a constant shift of its code points is tried."""
MAX_SHIFT = 128
"""Largest shift tried (codes that are glyph ids are typically 29 or 31 below the letters)."""


def explain_leftovers(
    runs: Sequence[Run],
    explanations: list[Explanation],
    engine: str,
    their_text: str,
    our_text: str,
    their_glyph: Sequence[int] = (),
    context: PageContext | None = None,
) -> list[Explanation]:
    """Causes that only the page as a whole shows, for runs still `not_on_page` or `unexplained`:
    their text read backwards (mirrored or right-to-left glyphs), shifted by a constant (codes read as
    glyph ids), or letters of ours scattered in pieces too small to align (rotated or vertical text)."""
    out = list(explanations)
    ours_flat = "".join(_norm(our_text).split())
    missing_bag: Counter[str] = Counter()
    for r, ex in zip(runs, out):
        if r.kind == MISSING and ex.cause in (Cause.UNEXPLAINED.value, Cause.READING_ORDER.value):
            missing_bag.update(c for c in _norm(our_text[r.our_start : r.our_end]) if not c.isspace())
    used: Counter[str] = Counter()
    for k, (r, ex) in enumerate(zip(runs, out)):
        if r.kind != EXTRA or ex.cause != Cause.NOT_ON_PAGE.value:
            continue
        theirs = their_text[r.their_start : r.their_end]
        flat = "".join(c for c in _norm(theirs) if not c.isspace() and unicodedata.category(c) != "Cc")
        if not flat:
            continue
        q = quote(theirs)
        lost = _unresolved_near(r, their_glyph, context)
        if lost is not None:
            out[k] = Explanation(
                None,
                f"{engine} reads {q} where glyphscope has no character: glyph #{lost.paint_index}, code "
                f"<{lost.code:0{2 * max(lost.code_bytes, 1)}X}> of font {lost.font_key}, is "
                f"{lost.decode_source.value} (no ToUnicode, encoding or glyph name gives it a character)",
                Cause.DECODING.value,
                {},
                f"the font {lost.font_key} needs a /ToUnicode (glyphscope repair proposes one where the evidence allows)",
            )
            continue
        share, first = context.lost_share() if context is not None else (0.0, None)
        if lost is None and first is not None and share >= LOST_PAGE_SHARE:
            out[k] = Explanation(
                None,
                f"{engine} has {q} where glyphscope reads no character: {100 * share:.0f} % of this page's glyphs "
                f"are unresolved (font {first.font_key} first: no ToUnicode, encoding or glyph name gives its "
                f"codes a character), and {engine} reads those codes as characters of its own",
                Cause.DECODING.value,
                {"unresolved_share": round(share, 4)},
                f"the font {first.font_key} needs a /ToUnicode (glyphscope repair proposes one where the evidence allows)",
            )
            continue
        if len(flat) >= MIN_SHIFTED and flat[::-1] in ours_flat and flat[::-1] != flat:
            out[k] = Explanation(
                None,
                f"{engine} reads {q} backwards: glyphscope reads {quote(flat[::-1])} (glyphs painted right to "
                "left or mirrored)",
                Cause.READING_ORDER.value,
            )
            continue
        shift = _shift_found(theirs, ours_flat)
        if shift is not None:
            k_shift, shifted = shift
            if abs(k_shift) == 32 and flat.isalpha():
                out[k] = _case_difference(engine, q, quote(shifted))
                continue
            out[k] = Explanation(
                None,
                f"{engine} reads the code as a glyph id: its {q}, each character shifted by {k_shift:+d}, is "
                f"glyphscope's {quote(shifted)} (the font has no usable /ToUnicode; the codes are glyph ids)",
                Cause.DECODING.value,
                {"shift": float(k_shift)},
                "the producer's font needs a /ToUnicode: glyphscope repair writes one",
            )
            continue
        need = Counter(flat)
        if all(missing_bag[c] - used[c] >= n for c, n in need.items()):
            used.update(need)
            out[k] = Explanation(
                None,
                f"{engine} has {q}, letters glyphscope reads at other places on this page (text read in another "
                "order, in pieces too small to align)",
                Cause.READING_ORDER.value,
            )
    if used:
        for k, (r, ex) in enumerate(zip(runs, out)):
            if r.kind != MISSING or ex.cause != Cause.UNEXPLAINED.value:
                continue
            letters = Counter(c for c in _norm(our_text[r.our_start : r.our_end]) if not c.isspace())
            if letters and all(used[c] >= n for c, n in letters.items()):
                used.subtract(letters)
                ours = quote(our_text[r.our_start : r.our_end])
                out[k] = Explanation(
                    None,
                    f"{engine} has the letters of {ours} at other places on this page (read in another order, "
                    "in pieces too small to align)",
                    Cause.READING_ORDER.value,
                )
    return out


_ASCII_PUNCTUATION = frozenset(".,;:!?'\"()[]-/")
"""Left out of a shift test: an engine writes a real comma between codes it reads as glyph ids."""

LOST_PAGE_SHARE = 0.5
"""Share of a page's glyphs without a character above which an engine's text in no glyph is put down to
how it reads those codes."""

UNRESOLVED_REACH = 3
"""Paint indices around an engine-only stretch searched for a glyph glyphscope could not decode."""


def _unresolved_near(run: Run, their_glyph: Sequence[int], ctx: PageContext | None) -> Glyph | None:
    """A glyph without Unicode (or with a fallback guess) next to where an engine-only stretch stands:
    between the glyphs of the engine characters before and after it (and a few either side)."""
    if ctx is None or not their_glyph:
        return None
    before = next((their_glyph[i] for i in range(run.their_start - 1, -1, -1) if their_glyph[i] >= 0), -1)
    after = next((their_glyph[i] for i in range(run.their_end, len(their_glyph)) if their_glyph[i] >= 0), -1)
    if before < 0 and after < 0:
        return None
    lo = min(g for g in (before, after) if g >= 0) - UNRESOLVED_REACH
    hi = max(before, after) + UNRESOLVED_REACH
    if hi - lo > 4 * UNRESOLVED_REACH + 8:  # the neighbours are far apart: no place to speak of
        return None
    for i in range(max(0, lo), hi + 1):
        g = ctx.glyph(i)
        if (
            g is not None
            and g.decode_source in (DecodeSource.UNRESOLVED, DecodeSource.FALLBACK)
            and not (g.unicode.strip())
        ):
            return g
    return None


def _shift_found(theirs: str, ours_flat: str) -> tuple[int, str] | None:
    """(k, their text shifted by k) when shifting every code point of `theirs` by one constant k gives
    a piece of our text (spaces and controls dropped after the shift)."""
    codes = [ord(c) for c in theirs if not c.isspace() and c not in _ASCII_PUNCTUATION]
    if len(codes) < MIN_SHIFTED or len(codes) > 400:
        return None
    anchor = next((c for c in codes if chr(c).isalnum()), None)
    if anchor is None:
        return None
    present = set(ours_flat)
    sample = list(dict.fromkeys(codes))[:12]
    candidates = sorted({ord(c) - anchor for c in present})
    for k in candidates:
        if k == 0 or abs(k) > MAX_SHIFT:
            continue
        if any(
            0 <= c + k < 0x110000
            and chr(c + k) not in present
            and chr(c + k).isprintable()
            and not chr(c + k).isspace()
            for c in sample
        ):
            continue  # a shifted character that our text does not have at all
        try:
            shifted = "".join(chr(c + k) for c in codes)
        except ValueError:
            continue
        flat = "".join(c for c in shifted if not c.isspace() and c.isprintable())
        if len(flat) >= MIN_SHIFTED and flat in ours_flat:
            return k, shifted
    return None
