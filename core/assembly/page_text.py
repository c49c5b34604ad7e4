"""The result of assembling one page: text, decisions and the character map.

Character map (compact, `array('i')`, one entry per character of `text`):

* `glyph[i]`    — paint_index of the glyph character i came from, −1 when generated;
  a ligature glyph "ffi" gives three characters with the same paint index.
* `decision[i]` — for generated characters (inserted spaces, line breaks, layout
  padding, column separators): index into `PageText.decisions` of the decision
  that generated it, −1 otherwise.
* `chars_of_glyph(p)` — the range of characters glyph p produced (empty range
  when it is not in the text); every glyph's characters are contiguous.

A marked-content span with a replacement text (/ActualText, /E) writes its text
once: `glyph[i]` of each replacement character is the span's first emitted glyph,
and `chars_of_glyph(p)` is that same range for every visible glyph p of the span
(core/assembly/actual_text.py).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from glyphscope.core.assembly.actual_text import ActualTextDecision, ActualTextSpans, written_text
from glyphscope.core.assembly.chars import (
    LIGATURES,
    TextInfo,
    expand_ligatures,
    glyph_text,
    is_cjk,
    text_info,
)
from glyphscope.core.assembly.decision_store import EMPTY_DECISIONS, DecisionColumns, DecisionList
from glyphscope.core.assembly.pair_runs import SPECIAL
from glyphscope.core.assembly.verdicts import WG_SPACE
from glyphscope.core.glyph import FlowFields, is_space_like
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters

if TYPE_CHECKING:
    from glyphscope.core.assembly.decisions import Decision
    from glyphscope.core.assembly.lines import LineBreakMeasure
    from glyphscope.core.assembly.pair_runs import RunMeasures
    from glyphscope.core.assembly.words import WordGapMeasure


@dataclass(frozen=True, slots=True, eq=False)
class CharMap:
    """Which glyph or decision each character of a page text came from (see the module)."""

    glyph: array  # array('i'), see module docstring
    decision: array  # array('i')
    glyph_start: array  # array('i') indexed by paint_index: first character, −1 when absent
    glyph_length: array  # array('i') indexed by paint_index: number of characters

    def __len__(self) -> int:
        return len(self.glyph)

    def chars_of_glyph(self, paint_index: int) -> range:
        if 0 <= paint_index < len(self.glyph_start):
            start = self.glyph_start[paint_index]
            if start >= 0:
                return range(start, start + self.glyph_length[paint_index])
        return range(0)

    def glyph_of_char(self, char_index: int) -> int:
        return self.glyph[char_index]

    def decision_of_char(self, char_index: int) -> int:
        return self.decision[char_index]

    def to_json(self) -> dict[str, list[int]]:
        return {"glyph": self.glyph.tolist(), "decision": self.decision.tolist()}


EMPTY_CHAR_MAP = CharMap(array("i"), array("i"), array("i"), array("i"))


@dataclass(frozen=True, slots=True, eq=False)
class PageText:
    """One page's text in one mode: the text, its character map and its decisions."""

    mode: str  # one of core.assembly.MODES
    text: str | None  # None only when structure mode finds no usable structure
    char_map: CharMap
    decisions: DecisionList  # a Sequence[Decision], held as columns (core/assembly/decision_store.py)
    structured: bool | None = None  # auto: whether structure order was used
    untagged: int | None = None  # structure / auto: visible glyphs outside the tree's MCIDs
    reason: str | None = None  # why structure order was not (or could not be) used
    order: str | None = None  # auto: the reading order it chose ("structure", "articles", "plain")

    def chars_of_glyph(self, paint_index: int) -> range:
        return self.char_map.chars_of_glyph(paint_index)

    def glyph_of_char(self, char_index: int) -> int:
        return self.char_map.glyph[char_index]

    def decision_of_char(self, char_index: int) -> Decision | None:
        i = self.char_map.decision[char_index]
        return self.decisions[i] if i >= 0 else None

    def decisions_of(self, kind: type | tuple[type, ...]) -> list[Any]:
        return self.decisions.of_kind(kind)

    def to_json(self, *, decisions: bool = True, char_map: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": self.mode,
            "text": self.text,
            "structured": self.structured,
            "untagged": self.untagged,
            "reason": self.reason,
        }
        if decisions:
            out["decisions"] = [d.to_json() for d in self.decisions]
        if char_map:
            out["char_map"] = self.char_map.to_json()
        return out


def _text_facts(text: str) -> TextInfo | None:
    if not text:
        return None
    first, last = text[0], text[-1]
    return TextInfo(text, is_space_like(first), is_space_like(last), is_cjk(first), is_cjk(last))


@dataclass(slots=True)
class _WrittenSpan:
    """Where one replacement span was written, and the glyphs it stands for so far."""

    text: str
    start: int  # first character
    decision: int  # index of its ActualTextDecision
    replaced: list[str]  # the glyphs' own text, in emission order
    glyphs: list[int]


class TextBuilder:
    """Accumulates text, the character map and decisions (one builder per assembly).

    `params` are the Parameters of the assembly (ligatures kept or not, and the factors
    the pair rules used, which the decision list's records are made with).
    """

    __slots__ = (
        "_parts",
        "_glyph",
        "_generated",
        "_decisions",
        "_start",
        "_length",
        "_size",
        "_expand",
        "actual",
        "_written",
        "_span_info",
    )

    def __init__(
        self, params: Parameters = DEFAULT_PARAMETERS, *, actual_text: ActualTextSpans | None = None
    ) -> None:
        self._expand = not params.keep_ligatures
        # None: glyphs write their own text (Parameters.actual_text off, or no span on the page)
        self.actual = actual_text
        self._written: dict[int, _WrittenSpan] = {}  # span index → where its replacement was written
        self._span_info: dict[int, TextInfo | None] = {}  # span index → its text facts (None: writes nothing)
        self._parts: list[str] = []
        self._glyph = array("i")
        # (first character, count, decision index) of each generated run, flat: CharMap.decision
        # is −1 everywhere else, so it is made in build()
        self._generated = array("i")
        self._decisions = DecisionColumns(params.line_break, params.word_gap, params.cjk_gap)
        # by paint index: first character and length of what the glyph wrote (CharMap.glyph_start,
        # glyph_length); grown ahead, cut to `_size` entries in build()
        self._start = array("i")
        self._length = array("i")
        self._size = 0

    @property
    def empty(self) -> bool:
        return not self._glyph

    def decide(self, decision: Decision) -> int:
        """Record a decision; returns its index (for the characters it generates)."""
        return self._decisions.add(decision)

    def decide_line_break(self, before: int, after: int, measure: LineBreakMeasure) -> int:
        """The line-break rule's measure of pair (before, after), recorded compactly; its index."""
        return self._decisions.add_line_break(before, after, measure)

    def decide_word_gap(self, before: int, after: int, measure: WordGapMeasure) -> int:
        """The word-gap rule's measure of pair (before, after), recorded compactly; its index."""
        return self._decisions.add_word_gap(before, after, measure)

    def decide_pair(self, before: int, after: int, lb: LineBreakMeasure, wg: WordGapMeasure | None) -> int:
        """A pair's line-break measure and, on the same line, its word-gap measure (None after
        a break); returns the line-break decision's index (the word gap's is the next one)."""
        return self._decisions.add_pair(before, after, lb, wg)

    def _grow(self, p: int) -> None:
        """Make room for paint index p in the glyph-to-characters arrays."""
        grow = max(p + 1, 2 * len(self._start), 64) - len(self._start)
        self._start.extend(array("i", [-1]) * grow)
        self._length.extend(array("i", [0]) * grow)

    def _place(self, p: int, start: int, n: int) -> None:
        """Glyph p wrote characters [start, start + n)."""
        if p >= self._size:
            self._size = p + 1
            if p >= len(self._start):
                self._grow(p)
        self._start[p] = start
        self._length[p] = n

    def glyph(self, g: FlowFields, text: str | None = None) -> int:
        """Emit the glyph's text (`text` when the caller already has it); returns its length."""
        if self.actual is not None:
            s = self.actual.span_of(g.paint_index)
            if s >= 0:
                return self._span_glyph(g, s)
        return self._text(g.paint_index, glyph_text(g) if text is None else text)

    def _text(self, p: int, text: str) -> int:
        """Glyph p writes `text` (its ligatures as letters, with their record); returns its length."""
        if self._expand and (text in LIGATURES or (len(text) > 1 and expand_ligatures(text) is not None)):
            from glyphscope.core.assembly.decisions import LigatureDecision  # a page with ligatures

            letters = expand_ligatures(text) or text
            self._decisions.add(LigatureDecision(p, text, letters))
            text = letters  # several characters, one glyph: the char map links each to it
        n = len(text)
        chars = self._glyph
        if p >= self._size:  # _place, inline: once per glyph
            self._size = p + 1
            if p >= len(self._start):
                self._grow(p)
        self._start[p] = len(chars)
        self._length[p] = n
        self._parts.append(text)
        if n == 1:
            chars.append(p)
        else:
            chars.extend(array("i", [p]) * n)
        return n

    def emit_measured(
        self,
        glyphs: Sequence[FlowFields],
        infos: Sequence[TextInfo],
        breaks: Sequence[LineBreakMeasure | None],
        gaps: Sequence[WordGapMeasure | None],
        first: int,
    ) -> None:
        """Glyphs `first` … of a run whose pairs are measured (`breaks[k - 1]`, `gaps[k - 1]`:
        pair k − 1, k), written in order: each pair's decisions (`decide_pair`), the line break
        or inserted space they make, then the glyph's text (`infos[k].text`).

        What `decide_pair`, `newline`, `generated` and `glyph` do in turn, in one loop: the
        join's hottest code (a call less per pair, three per glyph). A page with replacement
        spans, a glyph without a single-character text of its own or with a ligature takes
        the methods themselves.
        """
        if self.actual is not None:
            raise ValueError("emit_measured is for text without replacement spans")
        add_pair = self._decisions.add_pair
        parts_append = self._parts.append
        chars = self._glyph
        chars_append = chars.append
        runs_extend = self._generated.extend
        starts, lengths = self._start, self._length
        expand = self._expand
        for k in range(first, len(glyphs)):
            g = glyphs[k]
            if k:
                measure = breaks[k - 1]
                if measure is not None:
                    wg = gaps[k - 1]  # None exactly when the measure is a break
                    i = add_pair(glyphs[k - 1].paint_index, g.paint_index, measure, wg)
                    if wg is None:
                        if chars:  # newline(i): none at the start of the text
                            parts_append("\n")
                            runs_extend((len(chars), 1, i))
                            chars_append(-1)
                    elif wg[0] in WG_SPACE:  # generated(" ", i + 1)
                        parts_append(" ")
                        runs_extend((len(chars), 1, i + 1))
                        chars_append(-1)
            text = infos[k].text
            if text is None or len(text) != 1 or (expand and text in LIGATURES):
                self.glyph(g, text)
                continue
            p = g.paint_index
            if p >= self._size:  # _place, inline
                self._size = p + 1
                if p >= len(starts):
                    self._grow(p)  # grows the arrays in place
            starts[p] = len(chars)
            lengths[p] = 1
            parts_append(text)
            chars_append(p)

    def emit_run(self, paints: list[int], measures: RunMeasures, first: int) -> None:
        """Glyphs `first` … of a run (`paints`: their paint indices) measured by `measure_run`
        (core/assembly/pair_runs.py): what `emit_measured` writes, with the pairs' decisions
        taken by the store in bulk between the few it records one by one (a SPECIAL pair, a
        glyph's ligature record)."""
        if self.actual is not None:
            raise ValueError("emit_run is for text without replacement spans")
        decisions = self._decisions
        codes, seps, infos = measures.codes, measures.seps, measures.infos
        parts_append = self._parts.append
        chars = self._glyph
        chars_append = chars.append
        runs_extend = self._generated.extend
        starts, lengths = self._start, self._length
        expand = self._expand
        count = decisions.count
        firsts: list[int] = []  # the first decision of each pair not yet in the store
        firsts_append = firsts.append
        pending = first  # pairs pending − 1 … are not in the store yet

        def flush(upto: int) -> None:
            """Pairs `pending − 1` … `upto − 1` (those ending at glyphs pending … upto) into the store."""
            if upto > pending:
                a, b = pending - 1 if pending else 0, upto - 1
                decisions.extend_pairs(
                    firsts,
                    codes[a:b],
                    paints[a:b],
                    paints[a + 1 : b + 1],
                    measures.gaps[a:b],
                    measures.displacements[a:b],
                    measures.line_heights[a:b],
                    measures.word_heights[a:b],
                )
                firsts.clear()

        size = self._size
        for k in range(first, len(paints)):
            p = paints[k]
            if k:
                code = codes[k - 1]
                if code == SPECIAL:
                    flush(k)
                    lb, wg = measures.special[k - 1]
                    i = decisions.add_pair(paints[k - 1], p, lb, wg)
                    count = decisions.count
                    pending = k + 1
                    if wg is None:
                        if chars:
                            parts_append("\n")
                            runs_extend((len(chars), 1, i))
                            chars_append(-1)
                    elif wg[0] in WG_SPACE:
                        parts_append(" ")
                        runs_extend((len(chars), 1, i + 1))
                        chars_append(-1)
                else:
                    firsts_append(count)
                    if code & 3:  # PAIR: the line-break decision, then the word gap's
                        count += 2
                        if seps[k - 1]:
                            parts_append(" ")
                            runs_extend((len(chars), 1, count - 1))
                            chars_append(-1)
                    else:  # a break
                        count += 1
                        if chars:
                            parts_append("\n")
                            runs_extend((len(chars), 1, count - 1))
                            chars_append(-1)
            text = infos[k][0]
            if len(text) != 1 or (expand and text in LIGATURES):
                flush(k + 1)
                pending = k + 1
                self._size = size
                self._text(p, text)
                size = self._size
                count = decisions.count
                continue
            if p >= size:  # _place, inline
                size = p + 1
                if p >= len(starts):
                    self._grow(p)  # grows the arrays in place
            starts[p] = len(chars)
            lengths[p] = 1
            parts_append(text)
            chars_append(p)
        self._size = size
        flush(len(paints))

    # ------------------------------------------------------------ ActualText spans

    def same_span(self, a: FlowFields, b: FlowFields) -> bool:
        """Both glyphs in one replacement span: no pair decision is taken between them."""
        if self.actual is None:
            return False
        s = self.actual.span_of(a.paint_index)
        return s >= 0 and s == self.actual.span_of(b.paint_index)

    def info(self, g: FlowFields) -> TextInfo:
        """The text facts the pair rules use for g: its span's replacement when it is in one."""
        if self.actual is not None:
            s = self.actual.span_of(g.paint_index)
            if s >= 0:
                if s not in self._span_info:
                    self._span_info[s] = _text_facts(
                        written_text(self.actual.spans[s].text, expand=self._expand)
                    )
                info = self._span_info[s]
                if info is not None:  # a replacement that writes nothing leaves the glyph's own facts
                    return info
        return text_info(g)

    def _span_glyph(self, g: FlowFields, s: int) -> int:
        """The span's text at its first emitted glyph; nothing for its other glyphs."""
        raw = glyph_text(g)  # what the glyph would have written (callers may pass the span's text)
        p = g.paint_index
        found = self._written.get(s)
        if found is not None:
            found.replaced.append(raw)
            found.glyphs.append(p)
            self._place(p, found.start, len(found.text))
            return 0
        assert self.actual is not None
        span = self.actual.spans[s]
        written = written_text(span.text, expand=self._expand)
        start = len(self._glyph)
        index = self._decisions.add(ActualTextDecision(p, span, written, raw, (p,)))  # completed in build()
        self._written[s] = _WrittenSpan(written, start, index, [raw], [p])
        self._place(p, start, len(written))
        if written:
            self._parts.append(written)
            self._glyph.extend(array("i", [p]) * len(written))
        return len(written)

    def generated(self, text: str, decision_index: int) -> None:
        if not text:
            return
        self._parts.append(text)
        n = len(text)
        self._generated.extend((len(self._glyph), n, decision_index))
        self._glyph.extend(array("i", [-1]) * n)

    def newline(self, decision_index: int, count: int = 1) -> None:
        """Line break(s); none at the start of the text (no leading empty lines)."""
        if self._glyph:
            self.generated("\n" * count, decision_index)

    def build(self, mode: str, **extra: Any) -> PageText:
        for w in self._written.values():  # the spans' records, now that all their glyphs are known
            d = self._decisions.get(w.decision)
            if isinstance(d, ActualTextDecision):
                self._decisions.set_record(
                    w.decision,
                    ActualTextDecision(d.emitted_at, d.span, d.written, "".join(w.replaced), tuple(w.glyphs)),
                )
        text = "".join(self._parts)
        glyph = self._glyph
        decision = array("i", [-1]) * len(glyph)
        runs = self._generated
        for k in range(0, len(runs), 3):
            first, n = runs[k], runs[k + 1]
            decision[first : first + n] = array("i", [runs[k + 2]]) * n
        cut = len(text)
        while cut and text[cut - 1] == "\n" and glyph[cut - 1] < 0:
            cut -= 1  # no trailing newline (spec §9)
        if cut != len(text):
            text = text[:cut]
            glyph = glyph[:cut]
            decision = decision[:cut]
        size = self._size
        start, length = self._start[:size], self._length[:size]
        return PageText(
            mode=mode,
            text=text,
            char_map=CharMap(glyph, decision, start, length),
            decisions=DecisionList(self._decisions),
            **extra,
        )


def no_text(mode: str, reason: str, decisions: Sequence[Decision] = (), **extra: Any) -> PageText:
    return PageText(
        mode=mode,
        text=None,
        char_map=EMPTY_CHAR_MAP,
        decisions=DecisionList.of(decisions) if decisions else EMPTY_DECISIONS,
        reason=reason,
        **extra,
    )
