"""Another engine's page text aligned to glyphscope's glyphs, character by character (Qt-free).

Both texts are normalised first (NFKC, so a ligature "ﬁ" is "f" "i"; every run
of whitespace — spaces, line breaks, tabs, layout padding — is one space token;
soft hyphens, zero-width characters and form feeds are dropped), each token
remembering the characters it came from. `difflib.SequenceMatcher` then aligns
the two token strings, and three passes place what it could not:

1. text both sides have but at different places ("order differs": a block of at
   least `MIN_MOVED` characters found among our unmatched text),
2. text only the engine has that glyphscope left out of its text on purpose
   (culled or duplicate glyphs, matched against those glyphs in paint order),
3. the rest: the engine's text in no glyph, and our text the engine lacks.

A whitespace-only difference is a "space differs" run between two glyphs. The
result gives every engine character the paint index of the glyph it came from,
or −1 ("not in any glyph": an invented space, text from nowhere).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from glyphscope.core.glyph import is_space_like
from glyphscope.inspector.compare.causes import RunKind

MIN_MOVED = 3
"""Non-space characters a block needs to count as moved: shorter common pieces are coincidence."""

MIN_HIDDEN = 2
"""Non-space characters an engine-only piece must share with culled/duplicate glyphs (1 for a lone character)."""

CHAR_ALIGN_LIMIT = 2_000_000
"""Largest product of two lengths aligned character by character (difflib is quadratic on text with
few distinct characters: a 16,000-character page read in another order took a minute). Longer
stretches are aligned word by word first; what stays too long is left to the word pass."""

# Run kinds: what the engine did differently from glyphscope (compare/causes.py RunKind).
MISSING = RunKind.MISSING
EXTRA = RunKind.EXTRA
SPACE = RunKind.SPACE
ORDER = RunKind.ORDER
CHANGED = RunKind.CHANGED
KINDS: tuple[str, ...] = tuple(RunKind)

DIRECT_CHAR_LIMIT = 250_000
"""Largest product of two lengths aligned character by character straight away; longer texts are
aligned word by word first (linear in practice), then character by character between matched
words where the stretch is below this (a page of 3,000 characters each side took 0.1 s by
characters, a few milliseconds by words)."""

MATCH_LIMIT = 500_000
"""Largest product of an unplaced stretch and the pool it is looked for in (passes 2–4): beyond it
the word pass has placed what it could, and character matching would cost seconds a page."""

_DROPPED = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff\f\x00")


@dataclass(frozen=True, slots=True)
class Tokens:
    """A normalised text: one token per character, each with the span of source characters it came from."""

    chars: str
    start: tuple[int, ...]
    end: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.chars)


_ASCII_SPACE_RUNS = re.compile(r"[\x01-\x20]+")
_ASCII_SLOW = re.compile(r"[\x00\x0c\x7f]")
# What `is_space_like` calls a space (str.isspace or ≤ U+0020), less the dropped form feed and NUL,
# is group 1 of _RUNS: a run of them is one space token.
_RUNS = re.compile(r"((?:[^\S\x0c]|[\x01-\x0b\x0d-\x20])+)|([^\s\x00-\x20]+)|(.)", re.DOTALL)
"""A text as runs: whitespace (group 1), other characters (group 2), or one dropped character (3)."""


def normalise(text: str) -> Tokens:
    """NFKC, whitespace runs → one " ", invisible characters dropped; no leading/trailing space."""
    if text.isascii() and not _ASCII_SLOW.search(text):
        return _normalise_ascii(text)
    chars: list[str] = []
    start: list[int] = []
    end: list[int] = []
    space_from = -1
    space_to = -1
    classes: dict[str, str | None] = {}  # character → its tokens; None dropped
    for m in _RUNS.finditer(text):
        pos, stop = m.span()
        if m.lastindex == 1:  # a whitespace run (form feeds are dropped, not spaces)
            if space_from < 0:
                space_from = pos
            space_to = stop
            continue
        chunk = m.group()
        if m.lastindex == 2 and chunk.isascii() and "\x7f" not in chunk:  # each character its own token
            if space_from >= 0:
                if chars:
                    chars.append(" ")
                    start.append(space_from)
                    end.append(space_to)
                space_from = -1
            chars.append(chunk)
            start.extend(range(pos, stop))
            end.extend(range(pos + 1, stop + 1))
            continue
        for i in range(pos, stop):
            ch = text[i]
            if ch in classes:
                norm = classes[ch]
            else:
                norm = classes[ch] = _char_class(ch)
            if not norm:
                continue
            if norm == " ":  # a space `_RUNS` does not know: as in a run
                if space_from < 0:
                    space_from = i
                space_to = i + 1
                continue
            if space_from >= 0:
                if chars:
                    chars.append(" ")
                    start.append(space_from)
                    end.append(space_to)
                space_from = -1
            for c in norm:
                chars.append(c)
                start.append(i)
                end.append(i + 1)
    return Tokens("".join(chars), tuple(start), tuple(end))


def _char_class(ch: str) -> str | None:
    """One character's part in `normalise`: " " (a space), None (dropped) or its NFKC tokens."""
    if is_space_like(ch) and ch not in _DROPPED:
        return " "
    if ch in _DROPPED or unicodedata.category(ch) == "Cc":
        return None
    norm = ch if ch.isascii() else unicodedata.normalize("NFKC", ch)
    return "".join(c for c in norm if not is_space_like(c)) or ch


def _normalise_ascii(text: str) -> Tokens:
    """`normalise` of ASCII text without NUL, form feed or DEL: every character ≤ U+0020 is a space,
    nothing is dropped or decomposed, so only whitespace runs change (the same tokens, faster)."""
    chars: list[str] = []
    start: list[int] = []
    end: list[int] = []
    pos = space_from = space_to = 0
    for m in _ASCII_SPACE_RUNS.finditer(text):
        a, b = m.span()
        if a > pos:
            if chars:
                chars.append(" ")
                start.append(space_from)
                end.append(space_to)
            chars.append(text[pos:a])
            start.extend(range(pos, a))
            end.extend(range(pos + 1, a + 1))
        space_from, space_to = a, b
        pos = b
    if pos < len(text):
        if chars:
            chars.append(" ")
            start.append(space_from)
            end.append(space_to)
        chars.append(text[pos:])
        start.extend(range(pos, len(text)))
        end.extend(range(pos + 1, len(text) + 1))
    return Tokens("".join(chars), tuple(start), tuple(end))


@dataclass(frozen=True, slots=True)
class Run:
    """One difference: a stretch of the engine's text, of ours, or a space between two glyphs.

    `their_*` are character offsets in the engine's original text, `our_*` in our
    mode's text (empty ranges where a side has nothing). `glyphs` are the paint
    indices concerned; `pair` is the (before, after) glyph pair a space run lies
    between (None otherwise); `hidden_status` is "culled", "duplicate", "clipped" or "hidden" for
    engine text matched to glyphs glyphscope left out.
    """

    kind: str
    their_start: int
    their_end: int
    our_start: int
    our_end: int
    glyphs: tuple[int, ...]
    pair: tuple[int, int] | None = None
    hidden_status: str | None = None
    their_has_space: bool = False  # space runs: True when the engine has the space and we do not


@dataclass(slots=True)
class Alignment:
    """The engine's text against ours: per engine character its glyph, and the difference runs."""

    their_text: str
    our_text: str
    glyph: list[int]  # per engine character: paint index, −1 for none
    our_char: list[int]  # per engine character: the character of our text it matched, −1 for none
    runs: list[Run] = field(default_factory=list)
    tokens_ours: int = 0
    tokens_theirs: int = 0
    tokens_equal: int = 0  # tokens (spaces included) in place on both sides
    chars_equal: int = 0  # non-space characters in place on both sides

    @property
    def agreement(self) -> float:
        """2 × tokens in place / all tokens (difflib's ratio on the normalised texts): 1.0 = same text."""
        total = self.tokens_ours + self.tokens_theirs
        return 1.0 if total == 0 else 2.0 * self.tokens_equal / total

    def count(self, kind: str) -> int:
        return sum(1 for r in self.runs if r.kind == kind)

    def chars_of(self, kind: str) -> int:
        """Non-space engine characters (extra, order, changed) or our characters (missing) in runs of `kind`."""
        if kind == MISSING:
            text = self.our_text
            return sum(non_space_count(text[r.our_start : r.our_end]) for r in self.runs if r.kind == kind)
        text = self.their_text
        return sum(non_space_count(text[r.their_start : r.their_end]) for r in self.runs if r.kind == kind)


_SPACE_LIKE = re.compile(r"[\s\x00-\x20]+")
"""What `is_space_like` calls a space, one character at a time (`\\s` is str.isspace's whitespace)."""


def non_space_count(text: str) -> int:
    """Characters of `text` that are not space-like (`is_space_like`), counted in one pass."""
    return len(_SPACE_LIKE.sub("", text))


# Token fates on each side.
_EQUAL, _MOVED, _HIDDEN, _CHANGED, _NONE = range(5)


def align(
    their_text: str,
    our_text: str,
    our_glyph: Sequence[int],
    hidden: Iterable[tuple[int, str, str]] = (),
) -> Alignment:
    """Align `their_text` to `our_text`, whose character i came from glyph `our_glyph[i]` (−1: generated).

    `hidden`: (paint index, text, status) of the glyphs glyphscope left out of its
    text (culled, duplicate), in paint order.
    """
    a = normalise(our_text)
    b = normalise(their_text)
    out = Alignment(their_text, our_text, [-1] * len(their_text), [-1] * len(their_text))
    out.tokens_ours, out.tokens_theirs = len(a), len(b)
    a_fate = [_NONE] * len(a)
    b_fate = [_NONE] * len(b)
    b_glyph = [-1] * len(b)
    b_our = [-1] * len(b)  # token of `a` matched
    b_status: list[str | None] = [None] * len(b)
    theirs_only: list[list[int]] = []  # token indices of b, per content segment
    ours_only: list[list[int]] = []

    n_glyph = len(our_glyph)
    a_glyph = [our_glyph[s] if 0 <= s < n_glyph else -1 for s in a.start]

    def our_glyph_of(token: int) -> int:
        return a_glyph[token] if 0 <= token < len(a_glyph) else -1

    def neighbour_glyph(token: int, step: int) -> int:
        t = token
        while 0 <= t < len(a):
            g = our_glyph_of(t)
            if g >= 0 and a.chars[t] != " ":
                return g
            t += step
        return -1

    for op, i1, i2, j1, j2 in _opcodes(a.chars, b.chars):
        if op == "equal":  # whole slices at once: most of a page is equal
            size = i2 - i1
            a_fate[i1:i2] = [_EQUAL] * size
            b_fate[j1:j2] = [_EQUAL] * size
            b_our[j1:j2] = range(i1, i2)
            b_glyph[j1:j2] = a_glyph[i1:i2]
            out.tokens_equal += size
            out.chars_equal += size - a.chars.count(" ", i1, i2)
            continue
        a_seg, b_seg = list(range(i1, i2)), list(range(j1, j2))
        a_text, b_text = a.chars[i1:i2], b.chars[j1:j2]
        if op == "replace" and len(a_seg) == len(b_seg) and " " not in a_text and " " not in b_text:
            for i, j in zip(a_seg, b_seg):  # the same glyphs, read as other characters
                a_fate[i] = b_fate[j] = _CHANGED
                b_our[j] = i
                b_glyph[j] = our_glyph_of(i)
            g = [our_glyph_of(i) for i in a_seg]
            out.runs.append(
                Run(
                    CHANGED,
                    b.start[j1],
                    b.end[j2 - 1],
                    a.start[i1],
                    a.end[i2 - 1],
                    tuple(dict.fromkeys(x for x in g if x >= 0)),
                )
            )
            continue
        if a_seg:
            if a_text == " ":  # our space, none in theirs
                a_fate[i1] = _EQUAL  # accounted for by the run below
                before, after = neighbour_glyph(i1 - 1, -1), neighbour_glyph(i1 + 1, 1)
                at = b.start[j1] if j1 < len(b) else len(their_text)
                out.runs.append(
                    Run(SPACE, at, at, a.start[i1], a.end[i1], _pair_glyphs(before, after), (before, after))
                )
            else:
                ours_only.append(a_seg)
        if b_seg:
            if b_text == " ":  # their space, none in ours
                before, after = neighbour_glyph(i1 - 1, -1), neighbour_glyph(i1, 1)
                at = a.start[i1] if i1 < len(a) else len(our_text)
                out.runs.append(
                    Run(
                        SPACE,
                        b.start[j1],
                        b.end[j1],
                        at,
                        at,
                        _pair_glyphs(before, after),
                        (before, after),
                        their_has_space=True,
                    )
                )
                b_fate[j1] = _EQUAL
            else:
                theirs_only.append(b_seg)

    # Pass 1: whole words both sides lack at their own places (a table read in another order,
    # a column elsewhere): the n-th such occurrence of a word in their text is the n-th in ours.
    # Linear, so it also does the bulk on long pages.
    theirs_words = _loose_words(b.chars, theirs_only, b_fate)
    ours_words = _loose_words(a.chars, ours_only, a_fate)
    for word, occurrences in theirs_words.items():
        for js, is_ in zip(occurrences, ours_words.get(word, ())):
            for j, i in zip(js, is_):
                b_fate[j], a_fate[i] = _MOVED, _MOVED
                b_our[j] = i
                b_glyph[j] = our_glyph_of(i)

    # Pass 2: longer pieces both sides have, at other places.
    pool = [i for seg in ours_only for i in seg if a.chars[i] != " " and a_fate[i] == _NONE]
    rest = [[j for j in seg if b_fate[j] == _NONE] for seg in theirs_only]
    matched = _match_segments(b.chars, rest, [a.chars[i] for i in pool], MIN_MOVED)
    for j, p in matched.items():
        i = pool[p]
        b_fate[j], a_fate[i] = _MOVED, _MOVED
        b_our[j] = i
        b_glyph[j] = our_glyph_of(i)
    # Pass 3: engine text from the glyphs glyphscope culled or dropped as duplicates.
    h_chars: list[str] = []
    h_glyph: list[int] = []
    h_status: list[str] = []
    rest = [[j for j in seg if b_fate[j] == _NONE] for seg in theirs_only]
    seen: dict[str, str] = {}
    for paint_index, text, status in hidden if any(rest) else ():
        chars = seen.get(text)
        if chars is None:
            chars = seen[text] = normalise(text).chars.replace(" ", "")
        for c in chars:
            h_chars.append(c)
            h_glyph.append(paint_index)
            h_status.append(status)
    for j, p in _match_segments(b.chars, rest, h_chars, MIN_HIDDEN).items():
        b_fate[j] = _HIDDEN
        b_glyph[j] = h_glyph[p]
        b_status[j] = h_status[p]

    # Pass 4: what is left on both sides, down to single characters (pieces of words split by
    # the passes above); only then is text "missing" or "in no glyph".
    rest_b = [[j for j in seg if b_fate[j] == _NONE] for seg in theirs_only]
    pool = [i for seg in ours_only for i in seg if a.chars[i] != " " and a_fate[i] == _NONE]
    for j, p in _match_segments(b.chars, rest_b, [a.chars[i] for i in pool], 1).items():
        i = pool[p]
        b_fate[j], a_fate[i] = _MOVED, _MOVED
        b_our[j] = i
        b_glyph[j] = our_glyph_of(i)

    out.runs.extend(_their_runs(b, b_fate, b_glyph, b_our, b_status, a))
    a_to_b = [-1] * len(a)
    for j, i in enumerate(b_our):
        if i >= 0 and b_fate[j] == _EQUAL:
            a_to_b[i] = j
    # Where our token i would be in the engine's text: after the engine's copy of what precedes it
    # (the end of the last of our tokens before i that is in place in theirs; 0 for none).
    placed_end: list[int] = []
    at, b_end = 0, b.end
    for j in a_to_b:
        placed_end.append(at)
        if j >= 0:
            at = b_end[j]

    def their_position(i: int) -> int:
        return 0 if i <= 0 else placed_end[i] if i < len(placed_end) else at

    out.runs.extend(_our_runs(a, a_fate, ours_only, our_glyph_of, their_position))
    out.runs = _pair_replacements(out.runs, their_text)
    out.runs.sort(key=lambda r: (r.their_start, r.our_start))
    glyph_out, our_out, a_start = out.glyph, out.our_char, a.start
    for t0, t1, tg, ti in zip(b.start, b.end, b_glyph, b_our):  # in token order: a later token's wins
        if t1 - t0 == 1:  # most tokens are one character
            glyph_out[t0] = tg
            if ti >= 0:
                our_out[t0] = a_start[ti]
        else:
            glyph_out[t0:t1] = [tg] * (t1 - t0)
            if ti >= 0:
                our_out[t0:t1] = [a_start[ti]] * (t1 - t0)
    return out


Opcode = tuple[str, int, int, int, int]


def _opcodes(a: str, b: str) -> list[Opcode]:
    """difflib opcodes of `a` → `b` (normalised token strings): whole words matched first (fast,
    popular words ignored as anchors), then the characters between two anchors when that stretch
    is small enough; a stretch too long stays one "replace" for the later passes."""
    if a == b:
        return [("equal", 0, len(a), 0, len(b))] if a else []
    if len(a) * len(b) <= DIRECT_CHAR_LIMIT:
        return list(SequenceMatcher(None, a, b, autojunk=False).get_opcodes())
    a_words, b_words = _word_spans(a), _word_spans(b)
    words = SequenceMatcher(None, [a[s:e] for s, e in a_words], [b[s:e] for s, e in b_words], autojunk=True)
    out: list[Opcode] = []
    i = j = 0  # characters aligned so far
    for blk in words.get_matching_blocks():
        if blk.size == 0:
            ai, bj = len(a), len(b)
        else:
            ai, bj = a_words[blk.a][0], b_words[blk.b][0]
        out.extend(_gap_opcodes(a, b, i, ai, j, bj))
        if blk.size:
            ae, be = a_words[blk.a + blk.size - 1][1], b_words[blk.b + blk.size - 1][1]
            out.append(("equal", ai, ae, bj, be))  # the same words, single spaces between them
            i, j = ae, be
    return out


def _gap_opcodes(a: str, b: str, i1: int, i2: int, j1: int, j2: int) -> list[Opcode]:
    if i1 == i2 and j1 == j2:
        return []
    if i1 == i2:
        return [("insert", i1, i2, j1, j2)]
    if j1 == j2:
        return [("delete", i1, i2, j1, j2)]
    if (i2 - i1) * (j2 - j1) > DIRECT_CHAR_LIMIT:
        return [("replace", i1, i2, j1, j2)]
    sub = SequenceMatcher(None, a[i1:i2], b[j1:j2], autojunk=False).get_opcodes()
    return [(op, i1 + x1, i1 + x2, j1 + y1, j1 + y2) for op, x1, x2, y1, y2 in sub]


def _word_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _WORD.finditer(text)]


_WORD = re.compile(r"[^ ]+")


def _pair_glyphs(before: int, after: int) -> tuple[int, ...]:
    return tuple(g for g in (before, after) if g >= 0)


def _match_segments(
    chars: str, segments: Sequence[Sequence[int]], pool: Sequence[str], min_block: int
) -> dict[int, int]:
    """Token → pool position for the non-space tokens of `segments` found in `pool` (each pool
    character used once), in blocks of at least `min_block` characters (1 for a lone character).

    First all segments at once, in order (engines mostly keep the content order), then each
    segment still unplaced on its own (for text an engine moved around).
    """
    found: dict[int, int] = {}
    if not pool:
        return found
    free = list(pool)
    everything = [j for seg in segments for j in seg if chars[j] != " "]
    _match_into(chars, everything, free, min_block, found)
    for seg in segments:
        rest = [j for j in seg if chars[j] != " " and j not in found]
        if rest:
            _match_into(chars, rest, free, min(min_block, len(rest)), found)
    return found


def _match_into(chars: str, tokens: list[int], free: list[str], need: int, found: dict[int, int]) -> None:
    if not tokens or len(tokens) * len(free) > MATCH_LIMIT:
        return  # too long to match character by character: the word pass has done what it could
    text = "".join(chars[j] for j in tokens)
    matcher = SequenceMatcher(None, text, "".join(free), autojunk=False)
    for blk in matcher.get_matching_blocks():
        if blk.size < need:
            continue
        for k in range(blk.size):
            found[tokens[blk.a + k]] = blk.b + k
            free[blk.b + k] = "\x00"  # used


def _loose_words(
    chars: str, segments: Sequence[Sequence[int]], fate: list[int]
) -> dict[str, list[list[int]]]:
    """Words (runs of unplaced non-space tokens, whole between spaces or segment ends) → their token
    lists, in text order."""
    words: dict[str, list[list[int]]] = {}
    for seg in segments:
        word: list[int] = []
        whole = True
        for t in [*seg, -1]:
            if t >= 0 and chars[t] != " " and fate[t] == _NONE:
                word.append(t)
                continue
            if t >= 0 and chars[t] != " ":
                whole = False  # a placed token inside: only a piece of a word is loose
            if word and whole:
                words.setdefault("".join(chars[k] for k in word), []).append(word)
            word = []
            whole = t < 0 or chars[t] == " "
    return words


def _their_runs(
    b: Tokens,
    fate: list[int],
    glyph: list[int],
    our: list[int],
    status: list[str | None],
    a: Tokens,
) -> list[Run]:
    """Consecutive engine tokens with one fate (spaces between them join the run)."""
    runs: list[Run] = []
    cur: list[int] = []

    def key(j: int) -> tuple[int, str | None]:
        return (fate[j], status[j])

    def flush() -> None:
        if not cur:
            return
        f, st = key(cur[0])
        kind = ORDER if f == _MOVED else EXTRA
        g = tuple(dict.fromkeys(glyph[j] for j in cur if glyph[j] >= 0))
        ours = [our[j] for j in cur if our[j] >= 0]
        o0 = a.start[min(ours)] if ours else 0
        o1 = a.end[max(ours)] if ours else 0
        runs.append(Run(kind, b.start[cur[0]], b.end[cur[-1]], o0, o1, g, hidden_status=st))
        cur.clear()

    chars = b.chars
    # Only the tokens that are neither in place nor read differently (most of a page is in place):
    # two of them are in one run when nothing but spaces lies between them.
    for j in [j for j, f in enumerate(fate) if f != _EQUAL and f != _CHANGED and chars[j] != " "]:
        if cur and (key(cur[-1]) != key(j) or not _adjacent(b, fate, cur[-1], j)):
            flush()
        cur.append(j)
    flush()
    return runs


MAX_REPLACEMENT_RATIO = 4
"""Longest side / shortest side of a missing and an extra stretch at one place that are read as the same
glyphs in other characters (a GBK pair read byte by byte is 2 characters for 1; `(cid:12)` is 8 for 1)."""


def _pair_replacements(runs: list[Run], their_text: str) -> list[Run]:
    """A stretch only we have and a stretch only they have at the same place are the same glyphs read
    as other characters (mojibake, `(cid:N)`, another decoding): one CHANGED run instead of two."""
    extras = [r for r in runs if r.kind == EXTRA and r.hidden_status is None and not r.glyphs]
    if not extras:
        return runs
    used: set[int] = set()
    out: list[Run] = []
    paired: set[int] = set()
    # Only two extras can be near a point of their text: the last that ends at or before it and the
    # first that starts at or after it (the extras are in text order, apart, each with a non-space
    # character, so any other has one between). Looked up by bisection, in that order; extras not in
    # order (never, from `_their_runs`) are all tried, as they come.
    starts = [e.their_start for e in extras]
    ends = [e.their_end for e in extras]
    ordered = all(ends[i] <= starts[i + 1] for i in range(len(extras) - 1))
    every = range(len(extras))
    for k, m in enumerate(runs):
        if m.kind != MISSING or not m.glyphs:
            continue
        p = m.their_start
        candidates = (bisect_right(ends, p) - 1, bisect_left(starts, p)) if ordered else every
        for e_id in candidates:
            if e_id < 0 or e_id >= len(extras) or e_id in used:
                continue
            e = extras[e_id]
            near = (e.their_end <= m.their_start and not their_text[e.their_end : m.their_start].strip()) or (
                m.their_start <= e.their_start and not their_text[m.their_start : e.their_start].strip()
            )
            if not near:
                continue
            n_ours = max(1, m.our_end - m.our_start)
            n_theirs = max(1, e.their_end - e.their_start)
            if (
                max(n_ours, n_theirs) > MAX_REPLACEMENT_RATIO * min(n_ours, n_theirs)
                and "(cid:" not in (their_text[e.their_start : e.their_end])
            ):
                continue
            used.add(e_id)
            paired.add(k)
            out.append(Run(CHANGED, e.their_start, e.their_end, m.our_start, m.our_end, m.glyphs))
            break
    gone = {id(extras[i]) for i in used}
    out.extend(r for k, r in enumerate(runs) if k not in paired and id(r) not in gone)
    return out


def _adjacent(b: Tokens, fate: list[int], j0: int, j1: int) -> bool:
    """Nothing but spaces between tokens j0 < j1."""
    return all(b.chars[k] == " " for k in range(j0 + 1, j1))


def _our_runs(
    a: Tokens,
    fate: list[int],
    segments: list[list[int]],
    glyph_of: Callable[[int], int],
    their_position: Callable[[int], int],
) -> list[Run]:
    runs: list[Run] = []
    for seg in segments:
        cur: list[int] = []
        for i in [*seg, -1]:
            if i >= 0 and a.chars[i] == " ":
                continue
            if i >= 0 and fate[i] == _NONE:
                cur.append(i)
                continue
            if cur:
                g = tuple(dict.fromkeys(x for x in (glyph_of(t) for t in cur) if x >= 0))
                at = their_position(cur[0])
                runs.append(Run(MISSING, at, at, a.start[cur[0]], a.end[cur[-1]], g))
                cur = []
    return runs
