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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from glyphscope.core.assembly.actual_text import ActualTextDecision, ActualTextSpans, written_text
from glyphscope.core.assembly.chars import (
    LIGATURES,
    RTL_ENDS,
    TextInfo,
    expand_ligatures,
    glyph_text,
    info_lookup,
    is_cjk,
    text_info,
)
from glyphscope.core.assembly.decision_store import (
    BELOW,
    CJK_GAP,
    CJK_PAIR,
    EMPTY_DECISIONS,
    EXISTING,
    INSERTED,
    LINE_BREAK,
    NEGATIVE,
    PAIR,
    SAME,
    SPECIAL,
    THREE_INSERTED,
    DecisionColumns,
    DecisionList,
    one_row,
)
from glyphscope.core.assembly.lines import BACKWARD_JUMP, line_break_measure
from glyphscope.core.assembly.tracking import letter_spaced, letter_spacing
from glyphscope.core.assembly.verdicts import LB_JOINED, LB_SAME_LINE, WG_SPACE
from glyphscope.core.assembly.words import word_gap_measure
from glyphscope.core.geometry import Point
from glyphscope.core.glyph import FlowFields, FlowGlyph, is_space_like
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters

if TYPE_CHECKING:
    from glyphscope.core.assembly.decisions import Decision
    from glyphscope.core.assembly.lines import LineBreakMeasure
    from glyphscope.core.assembly.words import WordGapMeasure


FlowRow = tuple[int, str, Point, Point, float, Point]
"""What the pair rules read of a glyph: paint_index, unicode, origin, glyph_end, height, direction
(a FlowGlyph's first six fields), as `join_run` reads a run."""

_DECISIONS_OF_CODE = bytes(2 if code & 3 else 1 for code in range(256))
"""How many decisions a pair's row holds, by its code (bytes.translate): a line break one, a pair
read on along the line (PAIR, SPECIAL) two."""


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

    def join_run(self, paints: list[int], rows: Iterable[FlowRow], params: Parameters, first: int) -> bool:
        """Join a run in one pass: both pair rules for every pair of consecutive `rows` (the
        values `line_break_measure` and `word_gap_measure` read; `paints`: the same glyphs' paint
        indices), each pair's decisions, the line break or space they make, and the glyphs'
        text, from glyph `first` on (1: glyph 0 is the previous part's last, written already).

        What a flow writes when it measures every pair with the rules and then calls
        `decide_pair`, `newline`, `generated` and `glyph` in turn (flow._join_measured), decision
        for decision and character for character: the common pair measured inline with the rules' own
        expressions (the same doubles), the rest by the rules themselves on `FlowGlyph`s made
        for the pair (the row codes: core/assembly/decision_store.py); the run's text, character map and decision
        rows kept in lists and handed to the builder and the store at the end, in bulk between
        the few decisions recorded one by one (a pair kept in two rows, a ligature's record).

        Returns False, having written nothing, when a letter-spaced stretch is there
        (core/assembly/tracking.py: its pairs are re-decided once every pair is measured):
        the caller then measures, tracks and emits the run the long way.
        """
        if self.actual is not None:
            raise ValueError("join_run is for text without replacement spans")
        if not paints:
            return True
        decisions = self._decisions
        top = max(paints)
        if top >= len(self._start):
            self._grow(top)
        starts, lengths = self._start, self._length
        expand = self._expand
        ligatures = LIGATURES if expand else {}
        pos = len(self._glyph)  # where the next character goes
        d = decisions.count  # the next decision's index
        # the run's rows of the store, one per pair (pair j: glyphs j, j + 1)
        codes: list[int] = []
        gaps: list[float] = []
        displacements: list[float] = []
        line_heights: list[float] = []
        word_heights: list[float] = []  # the glyph's own height; 0.0 after a break (set in `breaks`)
        breaks: list[int] = []  # pairs that break the line
        events: list[tuple[int, Decision | None]] = []  # (pair, record before it | None: the pair is SPECIAL)
        special: dict[int, tuple[LineBreakMeasure, WordGapMeasure]] = {}
        infos: list[TextInfo] = []
        pieces: list[str] = []  # the run's text
        char_map: list[int] = []
        generated: list[int] = []  # (first character, count, decision) of each generated one, flat
        code_add, gap_add, displacement_add = codes.append, gaps.append, displacements.append
        line_height_add, word_height_add = line_heights.append, word_heights.append
        info_add, piece_add, char_add, generated_extend = (
            infos.append,
            pieces.append,
            char_map.append,
            generated.extend,
        )
        get, info_of = info_lookup()
        rtl_ends = RTL_ENDS
        line_break, word_gap, cjk_gap = params.line_break, params.word_gap, params.cjk_gap
        back = -BACKWARD_JUMP
        it = iter(rows)
        p0, u0, (ox0, oy0), (ex0, ey0), h0, (ux0, uy0) = next(it)
        info0 = get(u0) or info_of(u0)
        info_add(info0)
        t0, _, ls0, _, lc0 = info0
        if first == 0:
            pos, d = self._run_text(p0, t0, 0, pos, d, pieces, char_map, events)
        k = 1
        for p1, u1, (ox1, oy1), (ex1, ey1), h1, (ux1, uy1) in it:
            info1 = get(u1) or info_of(u1)
            info_add(info1)
            t1, fs1, ls1, fc1, lc1 = info1
            # line_break_measure, inline
            displacement = (oy1 - oy0) * ux0 - (ox1 - ox0) * uy0
            height = h0 if h0 > h1 else h1
            gap = (ox1 - ex0) * ux0 + (oy1 - ey0) * uy0
            ruled: LineBreakMeasure | None = None  # a pair on one line the word-gap rule measures itself
            if abs(displacement) > line_break * height or (height > 0.0 and gap < back * height):
                # a break or a backward jump, unless the rule's exceptions hold: the rule decides
                a = FlowGlyph(p0, u0, (ox0, oy0), (ex0, ey0), h0, (ux0, uy0), 0)
                b = FlowGlyph(p1, u1, (ox1, oy1), (ex1, ey1), h1, (ux1, uy1), 0)
                lb = line_break_measure(a, b, line_break)
                if lb[0] in LB_JOINED:
                    ruled = lb
                else:
                    code = LINE_BREAK + 4 * lb[0]
                    breaks.append(k - 1)
                    if pos:  # no line break at the start of the text
                        piece_add("\n")
                        char_add(-1)
                        generated_extend((pos, 1, d))
                        pos += 1
                    d += 1
            # word_gap_measure, inline (on the same line: the same gap, the glyph's own height)
            elif ls0 or fs1:
                code = EXISTING
                d += 2
            elif lc0 and fc1:
                if gap > cjk_gap * h1:
                    code = CJK_GAP
                    piece_add(" ")
                    char_add(-1)
                    generated_extend((pos, 1, d + 1))
                    pos += 1
                else:
                    code = CJK_PAIR
                d += 2
            elif gap > word_gap * h1:
                code = INSERTED
                piece_add(" ")
                char_add(-1)
                generated_extend((pos, 1, d + 1))
                pos += 1
                d += 2
            elif gap >= 0.0 or gap != gap:  # below the threshold (NaN too, as the rule finds)
                code = BELOW
                d += 2
            elif (
                rtl_ends[t0][1] or rtl_ends[t1][0]
            ):  # rtl_sides: the rule measures the gap on its reading side
                a = FlowGlyph(p0, u0, (ox0, oy0), (ex0, ey0), h0, (ux0, uy0), 0)
                b = FlowGlyph(p1, u1, (ox1, oy1), (ex1, ey1), h1, (ux1, uy1), 0)
                ruled = (LB_SAME_LINE, displacement, height, gap)
            else:
                code = NEGATIVE
                d += 2
            if ruled is not None:
                wg = word_gap_measure(a, b, params, info0, info1)
                code = SAME + 16 * wg[0] if one_row(ruled, wg) else SPECIAL
                if code == SPECIAL:
                    special[k - 1] = (ruled, wg)
                    events.append((k - 1, None))
                if wg[0] in WG_SPACE:
                    piece_add(" ")
                    char_add(-1)
                    generated_extend((pos, 1, d + 1))
                    pos += 1
                d += 2
            code_add(code)
            gap_add(gap)
            displacement_add(displacement)
            line_height_add(height)
            word_height_add(h1)
            if len(t1) == 1 and t1 not in ligatures:
                starts[p1] = pos
                lengths[p1] = 1
                piece_add(t1)
                char_add(p1)
                pos += 1
            else:
                pos, d = self._run_text(p1, t1, k, pos, d, pieces, char_map, events)
            p0 = p1
            u0 = u1
            ox0 = ox1
            oy0 = oy1
            ex0 = ex1
            ey0 = ey1
            h0 = h1
            ux0 = ux1
            uy0 = uy1
            info0 = info1
            t0 = t1
            ls0 = ls1
            lc0 = lc1
            k += 1
        if params.tracking:
            code_bytes = bytes(codes)
            if code_bytes.find(THREE_INSERTED) >= 0 or special:
                for j in breaks:
                    word_heights[j] = 0.0
                if special:  # a pair in two rows (rare): the whole run asked
                    measured: list[WordGapMeasure | None] = [
                        special[j][1] if c == SPECIAL else (c >> 4, g, h, 0.0) if c & 3 == PAIR else None
                        for j, (c, g, h) in enumerate(zip(codes, gaps, word_heights))
                    ]
                    tracked = letter_spacing(measured, infos) is not None
                else:
                    tracked = letter_spaced(code_bytes, gaps, word_heights, infos)
                if tracked:
                    return False  # nothing written but the characters' places, which the long way rewrites
        # the run, written
        if top >= self._size:
            self._size = top + 1
        self._parts.append("".join(pieces))
        self._glyph.fromlist(char_map)  # one C loop (extend takes the iterator protocol, 4× slower)
        self._generated.fromlist(generated)
        for j in breaks:
            word_heights[j] = 0.0
        widths = bytes(codes).translate(_DECISIONS_OF_CODE)
        columns = (paints, codes, gaps, displacements, line_heights, word_heights, widths)
        done = 0  # the first pair not in the store yet
        for j, record in events:
            self._pairs(done, j, *columns)
            if record is None:
                lb, wg = special[j]
                decisions.add_pair(paints[j], paints[j + 1], lb, wg)
                done = j + 1
            else:
                decisions.add(record)
                done = j
        self._pairs(done, len(codes), *columns)
        return True

    def _run_text(
        self,
        p: int,
        text: str,
        k: int,
        pos: int,
        d: int,
        pieces: list[str],
        char_map: list[int],
        events: list[tuple[int, Decision | None]],
    ) -> tuple[int, int]:
        """Glyph k (paint index p) of a run writes `text` at character `pos` (`join_run`): its
        ligatures as letters, their record before pair k; returns the next character and decision."""
        if self._expand and (text in LIGATURES or (len(text) > 1 and expand_ligatures(text) is not None)):
            from glyphscope.core.assembly.decisions import LigatureDecision  # a page with ligatures

            letters = expand_ligatures(text) or text
            events.append((k, LigatureDecision(p, text, letters)))
            d += 1
            text = letters  # several characters, one glyph: the char map links each to it
        n = len(text)
        self._start[p] = pos
        self._length[p] = n
        pieces.append(text)
        char_map.extend([p] * n)
        return pos + n, d

    def _pairs(
        self,
        a: int,
        b: int,
        paints: list[int],
        codes: list[int],
        gaps: list[float],
        displacements: list[float],
        line_heights: list[float],
        word_heights: list[float],
        widths: bytes,
    ) -> None:
        """Pairs a … b − 1 of a run (`join_run`) into the store, in bulk; `widths`: how many
        decisions each pair's row holds."""
        if b > a:
            self._decisions.extend_pairs(
                list(accumulate(widths[a : b - 1], initial=self._decisions.count)),
                codes[a:b],
                paints[a:b],
                paints[a + 1 : b + 1],
                gaps[a:b],
                displacements[a:b],
                line_heights[a:b],
                word_heights[a:b],
            )

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
        for first, n, index in zip(runs[0::3], runs[1::3], runs[2::3]):
            if n == 1:  # a space or a line break: most of them
                decision[first] = index
            else:
                decision[first : first + n] = array("i", [index]) * n
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
