"""Is a font's text the right characters? A plausibility check without OCR (finding `garbled_text`).

"The copied text is gibberish" has three common causes that no decoding step notices,
because every code *does* decode — to the wrong character:

* CJK double-byte text (GBK, Big5, Shift-JIS …) in a simple font declared WinAnsiEncoding:
  each byte becomes one Latin-1 character, `Ä¿ ¡¡ Â¼`;
* a subset font whose codes are glyph ids read through a Latin encoding, or a ToUnicode
  off by a constant: `*UXSD 5R]NãDG`, `Uif!rvjdl!cspxo!gpy` — every character is the right
  one shifted by one k;
* any other encoding that does not describe the glyphs.

Per font and page, over the font's glyphs (words cut where the pen jumps), three shares:

* **suspicious**: control, private-use and U+FFFD characters, and Latin-1 Supplement
  characters standing next to another one where either is a symbol (`Ä¿`, `Ã©`): the trace
  of multi-byte text read a byte at a time. Accented letters between ASCII letters (`café`,
  `Größe`) are not suspicious.
* **improbable**: runs of 3+ Latin letters (`Uif!rvjdl` gives two, `\\chardef` one) whose mean
  letter-bigram log10 probability (core/letter_bigrams.py, built from wordfreq's word
  frequencies of 26 Latin-script languages, not from any file glyphscope is tested on) is below WORD_LOG10_MIN; all-capital runs up to SHORT_ACRONYM letters
  are not judged.
* **foreign**: letters of a script the page's other fonts do not use — reported as evidence,
  not scored: a Chinese page with Latin page numbers is not garbled.

The score is the larger of the first two; at GARBLED_SCORE or more, over at least MIN_GLYPHS glyphs,
the font is garbled. The **offset signature** then tries every k in ±MAX_OFFSET on the
characters (chr(u + k)): the k whose text has the fewest improbable words, when that is at
most OFFSET_MAX_IMPROBABLE, is proposed with the text it gives. Symbol and math fonts are
not judged (their glyphs are symbols, not words).
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from glyphscope.core.glyph_table import GEOM_STRIDE, GlyphTable
from glyphscope.core.letter_bigrams import BIGRAM_LOG10, UNSEEN_LOG10

MIN_GLYPHS = 20
"""Fewer non-space glyphs of a font on a page: no verdict (a label, a page number, a bullet)."""
MIN_WORDS = 4
"""Fewer Latin words (3+ letters): the improbable share is not measured (0)."""
GARBLED_SCORE = 0.5
"""A font whose score (its largest share) reaches this is garbled."""
WORD_LOG10_MIN = -1.9
"""A word whose letter bigrams average below this log10 probability is improbable: English,
French, German and Polish words average −0.8 to −1.4; `rvjdl`, `cspxo` about −2.4."""
SHORT_ACRONYM = 5
"""All-capital words up to this length are not judged (acronyms: NICS, PDFA)."""
MAX_OFFSET = 96
"""The offset signature tries k in −MAX_OFFSET … +MAX_OFFSET (k ≠ 0)."""
OFFSET_MAX_IMPROBABLE = 0.2
"""An offset is proposed when the shifted text has at most this share of improbable words."""
OFFSET_MIN_WORDS = 0.8
"""… and keeps at least this share of the text's words (a shift that turns letters into symbols
leaves few words, all of them short and plausible by chance)."""
OFFSET_MAX_ODD = 0.05
"""… and has at most this share of odd characters (neither letters, digits, spaces nor TEXT_PUNCTUATION:
`\\ ^ _ ` { | } < = >` and Latin-1 symbols), as text shifted back to the right characters does: a
shift that only turns a jumble into other short runs of letters between symbols is no signature."""
TEXT_PUNCTUATION = frozenset(".,;:!?'\"()[]-–—/&%+*#@«»„“”‘’…°§$€£")
"""Punctuation of running text (not odd in a shifted text)."""
OFFSET_TRY = 0.25
"""A font with at least this share of improbable words is tried for an offset even below GARBLED_SCORE
(gid-shifted lower case reads as capitals, whose short runs are not judged)."""
OFFSET_GAIN = 0.25
"""The offset signature counts when the shift makes at least this share of the plausible words
(1 − before / after) …"""
OFFSET_WEIGHT = 2.0
"""… and adds OFFSET_WEIGHT × that share to the score: a gain of OFFSET_GAIN scores GARBLED_SCORE."""
OFFSET_SAMPLE = 600
"""Glyphs of a font the offset search reads (the first ones): enough words, bounded time."""
WORD_GAP = 0.15
"""A gap wider than this × the glyph height (or a step back) ends a word, as the word-gap rule."""
EXAMPLES = 3
SAMPLE_CHARS = 60
SYMBOL_FONT_HINTS = ("symbol", "dingbat", "math", "cmsy", "cmmi", "cmex", "msam", "msbm", "wingding")
"""Base-font name parts of fonts whose glyphs are symbols: not judged."""
CODE_PAGES = ("gbk", "big5", "shift_jis", "euc_kr")
"""Code pages tried on a garbled simple font's byte pairs, to name the likely cause."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The plausibility of one font's text on one page."""

    glyphs: int  # non-space glyphs judged
    score: float
    suspicious_share: float
    improbable_share: float
    foreign_share: float
    words: int
    examples: tuple[str, ...] = ()
    offset: int | None = None  # the proposed k (chr(u + k) reads right)
    offset_sample: str = ""
    code_page: str | None = None  # the code page whose byte pairs read as CJK text
    code_page_sample: str = ""
    reasons: tuple[str, ...] = field(default=())

    @property
    def garbled(self) -> bool:
        return self.glyphs >= MIN_GLYPHS and self.score >= GARBLED_SCORE

    def cause(self) -> str:
        if self.code_page:
            return (
                f"the codes are {self.code_page.upper()} double-byte pairs read one byte at a time through a "
                f"Latin encoding; as {self.code_page} they read “{self.code_page_sample}”"
            )
        if self.offset is not None:
            return (
                f"every character is the right one shifted by {self.offset:+d} (codes are glyph ids, or the "
                f"ToUnicode is off by a constant); shifted back it reads “{self.offset_sample}”"
            )
        return "the font's encoding or ToUnicode does not describe its glyphs"

    def summary(self) -> str:
        """`plausible`, or `garbled: <reason>` (the Fonts table's verdict)."""
        if self.glyphs < MIN_GLYPHS:
            return ""
        if not self.garbled:
            return "plausible"
        if self.code_page:
            return f"garbled: {self.code_page} pairs"
        if self.offset is not None:
            return f"garbled: offset {self.offset:+d}"
        return f"garbled: {', '.join(self.reasons)}"

    def to_json(self) -> dict[str, object]:
        return {
            "glyphs": self.glyphs,
            "score": round(self.score, 4),
            "suspicious_share": round(self.suspicious_share, 4),
            "improbable_share": round(self.improbable_share, 4),
            "foreign_share": round(self.foreign_share, 4),
            "words": self.words,
            "examples": list(self.examples),
            "offset": self.offset,
            "offset_sample": self.offset_sample,
            "code_page": self.code_page,
            "code_page_sample": self.code_page_sample,
        }


def is_symbol_font(base_font: str) -> bool:
    name = base_font.lower()
    return any(h in name for h in SYMBOL_FONT_HINTS)


def _is_suspicious_char(c: str) -> bool:
    o = ord(c)
    return (
        (o < 0x20 and c not in "\t\n\r")
        or 0x7F <= o < 0xA0
        or 0xE000 <= o <= 0xF8FF
        or o >= 0xF0000
        or o == 0xFFFD
    )


def _is_latin1_symbol(c: str) -> bool:
    o = ord(c)
    return 0xA0 <= o <= 0xBF or o in (0xD7, 0xF7)


def _latin1(c: str) -> bool:
    return 0x80 <= ord(c) <= 0xFF


@lru_cache(maxsize=4096)
def script_of(c: str) -> str:
    """The first word of the character's Unicode name for letters (LATIN, CJK, GREEK …), else ""."""
    if not c.isalpha():
        return ""
    name = unicodedata.name(c, "")
    first = name.split(" ", 1)[0]
    return "CJK" if first in ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "HALFWIDTH", "FULLWIDTH") else first


def _latin_word(word: str) -> bool:
    return all(c.isascii() or "\u00c0" <= c <= "\u024f" for c in word if c.isalpha())


@lru_cache(maxsize=65536)
def word_log10(word: str) -> float:
    """Mean letter-bigram log10 probability of a word (start and end included)."""
    w = "^" + word.lower() + "$"
    total = 0.0
    for i in range(len(w) - 1):
        pair = w[i : i + 2]
        p = BIGRAM_LOG10.get(pair)
        total += p if p is not None else UNSEEN_LOG10
    return total / (len(w) - 1)


def improbable(word: str, acronyms: bool = False) -> bool:
    """A Latin word unlikely in text: its letter pairs are improbable (acronyms excepted unless
    `acronyms`: the offset search judges them too, as gid-shifted lower case reads as capitals)."""
    letters = "".join(c for c in word if c.isalpha())
    if len(letters) < 3 or (not acronyms and letters.isupper() and len(letters) <= SHORT_ACRONYM):
        return False
    return word_log10(letters) < WORD_LOG10_MIN


_LETTER_RUN = re.compile(r"[^\W\d_]{3,}")


def _words(text: str) -> list[str]:
    """Runs of 3+ Latin-script letters (what the bigram model can judge): `\\chardef` gives
    `chardef`, `Uif!rvjdl` gives `Uif` and `rvjdl`."""
    return [w for w in _LETTER_RUN.findall(text) if _latin_word(w)]


def improbable_share(text: str, acronyms: bool = False) -> tuple[float, int, list[str]]:
    """(share of improbable words, words judged, the improbable ones)."""
    words = _words(text)
    if len(words) < MIN_WORDS:
        return 0.0, len(words), []
    bad = [w for w in words if improbable(w, acronyms)]
    return len(bad) / len(words), len(words), bad


def _shift(text: str, k: int) -> str:
    out = []
    for c in text:
        if c == " ":
            out.append(c)
            continue
        o = ord(c) + k
        out.append(chr(o) if 0x20 <= o < 0xD800 and not 0x7F <= o < 0xA0 else "\ufffd")
    return "".join(out)


def _odd_share(text: str) -> float:
    """Share of the non-space characters that are neither letters, digits nor TEXT_PUNCTUATION."""
    chars = [c for c in text if not c.isspace()]
    odd = sum(1 for c in chars if not c.isalnum() and c not in TEXT_PUNCTUATION)
    return odd / len(chars) if chars else 0.0


def best_offset(text: str) -> tuple[int, str, float] | None:
    """The k for which chr(u + k) over `text` reads as the most plausible words — when at most
    OFFSET_MAX_IMPROBABLE of them are improbable and it keeps OFFSET_MIN_WORDS of the words —
    with the shifted text and the offset share (1 − plausible words before / after); else None.
    Capitals are judged as words on both sides: `UXSD` is `Grupa` shifted, not an acronym, and a
    shift into accented capitals (`ÙÈ`) must not pass as a text of acronyms."""
    _, words_before, bad_before = improbable_share(text, acronyms=True)
    plausible_before = words_before - len(bad_before)
    best: tuple[int, float, int, int] | None = None  # (-plausible words, share, |k|, k)
    needed = max(MIN_WORDS, int(OFFSET_MIN_WORDS * len(_words(text))))
    for k in range(-MAX_OFFSET, MAX_OFFSET + 1):
        if k == 0:
            continue
        shifted = _shift(text, k)
        share, words, bad = improbable_share(shifted, acronyms=True)
        if words < needed or share > OFFSET_MAX_IMPROBABLE or _odd_share(shifted) > OFFSET_MAX_ODD:
            continue
        key = (len(bad) - words, share, abs(k), k)
        if best is None or key < best:
            best = key
    if best is None or -best[0] <= plausible_before:
        return None
    return best[3], _shift(text, best[3]), 1.0 - plausible_before / -best[0]


def code_page_reading(codes: Sequence[int]) -> tuple[str, str] | None:
    """The code page whose byte pairs turn a simple font's codes (high bytes) into CJK text."""
    data = bytes(c for c in codes if 0 <= c < 256)
    high = sum(1 for b in data if b >= 0x80)
    if high < 4:
        return None
    for name in CODE_PAGES:
        text = codecs.decode(data, name, errors="replace")
        cjk = sum(1 for c in text if script_of(c) == "CJK")
        bad = text.count("\ufffd")
        if cjk >= high // 2 * 0.8 and bad <= cjk // 10:
            return name, text
    return None


def _sample(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SAMPLE_CHARS else text[: SAMPLE_CHARS - 1] + "…"


def font_text(
    table: GlyphTable, indices: Sequence[int], heights: Sequence[float] | None = None
) -> tuple[str, list[int]]:
    """The glyphs' text in paint order, a space where the pen jumps; and their one-byte codes.
    `heights`: every glyph's run height (`table.spread(...)`), when the caller has it."""
    geom, uni, code, code_bytes = table.geom, table.unicode, table.code, table.code_bytes
    if heights is None:
        heights = table.spread(run.height for run in table.runs)
    parts: list[str] = []
    codes: list[int] = []
    prev = -1
    for i in indices:
        if prev >= 0:
            b = i * GEOM_STRIDE
            p = prev * GEOM_STRIDE
            dx, dy = geom[b] - geom[p + 2], geom[b + 1] - geom[p + 3]
            limit = WORD_GAP * (heights[i] or 1.0)
            if i != prev + 1 or dx * dx + dy * dy > limit * limit:
                parts.append(" ")
        parts.append(uni[i] or " ")
        if code_bytes[i] == 1:
            codes.append(code[i])
        prev = i
    return "".join(parts), codes


def judge(text: str, codes: Sequence[int], page_scripts: set[str]) -> Verdict:
    """The verdict on one font's text (`font_text`), `page_scripts`: scripts the page's other fonts use."""
    chars = [c for c in text if not c.isspace()]
    n = len(chars)
    if n < MIN_GLYPHS:
        return Verdict(n, 0.0, 0.0, 0.0, 0.0, 0)
    flagged = {i for i, c in enumerate(text) if (c < " " or c > "~") and _is_suspicious_char(c)}
    for i in range(len(text) - 1) if not text.isascii() else ():
        a, b = text[i], text[i + 1]
        if _latin1(a) and _latin1(b) and (_is_latin1_symbol(a) or _is_latin1_symbol(b)):
            flagged.update((i, i + 1))
    suspicious_share = min(1.0, len(flagged) / n)
    improbable_part, words, bad = improbable_share(text)
    letters = [script_of(c) for c in chars if c.isalpha()]
    foreign = 0.0
    if page_scripts and letters:
        foreign = sum(1 for s in letters if s not in page_scripts) / len(letters)
    score = max(suspicious_share, improbable_part)  # foreign letters alone are no evidence (see docstring)
    reasons = tuple(
        name
        for name, value in (
            (f"{suspicious_share:.0%} suspicious characters", suspicious_share),
            (f"{improbable_part:.0%} of words improbable", improbable_part),
        )
        if value >= GARBLED_SCORE
    )
    examples = tuple(bad[:EXAMPLES])
    if not examples and suspicious_share >= GARBLED_SCORE:  # quote the words with suspicious characters
        suspect = (w for w in text.split() if any(_is_suspicious_char(c) or _is_latin1_symbol(c) for c in w))
        examples = tuple(suspect)[:EXAMPLES]
    verdict = Verdict(n, score, suspicious_share, improbable_part, foreign, words, examples, reasons=reasons)
    if not verdict.garbled and improbable_part < OFFSET_TRY:
        return verdict
    offset = None
    code_page = code_page_reading(codes[: OFFSET_SAMPLE * 2])
    if code_page is None:
        offset = best_offset(" ".join(text[: OFFSET_SAMPLE * 2].split()))
    if offset is not None and offset[2] >= OFFSET_GAIN:
        score = max(score, min(1.0, OFFSET_WEIGHT * offset[2]))
        reasons = (*reasons, f"shifted by {offset[0]:+d}, {offset[2]:.0%} more words read as words")
    elif not verdict.garbled:
        return verdict
    return Verdict(
        n,
        score,
        suspicious_share,
        improbable_part,
        foreign,
        words,
        examples,
        offset=offset[0] if offset else None,
        offset_sample=_sample(offset[1]) if offset else "",
        code_page=code_page[0] if code_page else None,
        code_page_sample=_sample(code_page[1]) if code_page else "",
        reasons=reasons,
    )


def page_verdicts(
    table: GlyphTable,
    fonts: Mapping[str, Sequence[int]],
    base_fonts: Mapping[str, str],
    pair_fonts: Collection[str] | None = None,
) -> dict[str, Verdict]:
    """A verdict per font object of a page: {font id: its glyph indices}, {font id: base font};
    `pair_fonts`: the fonts whose codes may be CJK byte pairs (simple TrueType fonts, what
    producers write them in; None: every font) — a Type3 or Type1 font's codes that happen to
    read as Shift-JIS are not named a code page."""
    heights = table.spread(run.height for run in table.runs)
    texts = {
        fid: font_text(table, idx, heights)
        for fid, idx in fonts.items()
        if not is_symbol_font(base_fonts.get(fid, ""))
    }
    scripts_of = {fid: {s for s in (script_of(c) for c in text) if s} for fid, (text, _) in texts.items()}
    out: dict[str, Verdict] = {}
    for fid, (text, codes) in texts.items():
        others: set[str] = set()
        for other, scripts in scripts_of.items():
            if other != fid:
                others |= scripts
        out[fid] = judge(text, codes if pair_fonts is None or fid in pair_fonts else (), others)
    return out
