"""Character classes for the word-gap rule (spec §9) and the text a glyph contributes."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping
from typing import NamedTuple

from glyphscope.core.glyph import FlowFields, is_space_like

# Inclusive code-point ranges counted as CJK for the no-space rule (spec §9). Kangxi and CJK
# radicals are added on purpose: broken fonts often map ideographs to them. Hangul is NOT here:
# Korean separates words with spaces, so Hangul pairs take the ordinary §3 rule.
_CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x2E80, 0x2FDF),  # CJK Radicals Supplement, Kangxi Radicals
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31BF),  # Bopomofo Extended
    (0x31F0, 0x31FF),  # Katakana Phonetic Extensions
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms (incl. half-width Katakana)
    (0x20000, 0x2FA1F),  # Extensions B–F, compatibility supplement
    (0x30000, 0x323AF),  # Extensions G, H
)
_STARTS = tuple(r[0] for r in _CJK_RANGES)

RTL_CANDIDATE = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
"""Blocks holding the R/AL characters (Hebrew, Arabic, Syriac, Thaana, N'Ko, … and their
presentation forms): a page without any is left alone without a per-character test, and
without importing the right-to-left pass (core/assembly/bidi.py)."""

# Control characters that would fake a line break (spec §9: a line break is exactly one "\n"
# and only assembly decides them), shown as a space instead.
_CONTROL_TO_SPACE = {c: " " for c in (0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x85, 0x2028, 0x2029)}


def is_cjk(ch: str) -> bool:
    cp = ord(ch)
    i = bisect_right(_STARTS, cp) - 1
    return i >= 0 and cp <= _CJK_RANGES[i][1]


def _text_of(unicode: str) -> str:
    if not unicode:
        return " "
    if unicode.isprintable():
        return unicode
    return unicode.translate(_CONTROL_TO_SPACE)


class TextInfo(NamedTuple):
    """What the pair rules need to know about a glyph's text, computed once per distinct string."""

    text: str
    first_space: bool
    last_space: bool
    first_cjk: bool
    last_cjk: bool


_INFO_CACHE: dict[str, TextInfo] = {}
_INFO_CACHE_LIMIT = 200_000  # distinct glyph strings; hostile files cannot grow it without bound


def text_info(g: FlowFields) -> TextInfo:
    found = _INFO_CACHE.get(g.unicode)
    return found if found is not None else text_info_of(g.unicode)


def text_info_of(unicode: str) -> TextInfo:
    """`text_info` of a glyph whose `unicode` is this (a run's columns hold no glyph records)."""
    found = _INFO_CACHE.get(unicode)
    if found is None:
        text = _text_of(unicode)
        first, last = text[0], text[-1]
        found = TextInfo(text, is_space_like(first), is_space_like(last), is_cjk(first), is_cjk(last))
        if len(_INFO_CACHE) < _INFO_CACHE_LIMIT:
            _INFO_CACHE[unicode] = found
    return found


def info_lookup() -> tuple[Callable[[str], TextInfo | None], Callable[[str], TextInfo]]:
    """The cache's own `get` and `text_info_of`, for a loop over many glyphs' strings: a hit
    costs one C call (`get(u) or text_info_of(u)`; a TextInfo is never false)."""
    return _INFO_CACHE.get, text_info_of


class _SpaceLike(dict[str, bool]):
    """is_space_like by text, remembered (a geometric mode asks it of every glyph, several times)."""

    def __missing__(self, text: str) -> bool:
        found = is_space_like(text)
        if len(self) < _INFO_CACHE_LIMIT:
            self[text] = found
        return found


SPACE_LIKE: Mapping[str, bool] = _SpaceLike()
"""`SPACE_LIKE[g.unicode]` is `g.is_space` (core/glyph.py: is_space_like) at the cost of one dict
lookup, instead of a property's call and a function's."""


class _RtlEnds(dict[str, tuple[bool, bool]]):
    """Whether a text's first and last characters are right-to-left candidates, remembered."""

    def __missing__(self, text: str) -> tuple[bool, bool]:
        found = (
            bool(text and RTL_CANDIDATE.match(text[0])),
            bool(text and RTL_CANDIDATE.match(text[-1])),
        )
        if len(self) < _INFO_CACHE_LIMIT:
            self[text] = found
        return found


RTL_ENDS: Mapping[str, tuple[bool, bool]] = _RtlEnds()
"""`RTL_ENDS[text]`: (first character, last character) of `text` matched by RTL_CANDIDATE — what
words.rtl_sides asks of a pair's facing ends, at the cost of a dict lookup."""


LIGATURES: dict[str, str] = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",  # long s + t (NFKC)
    "\ufb06": "st",
}
"""Latin ligature code points (U+FB00–FB06) and the letters text modes write for them."""


def expand_ligatures(text: str) -> str | None:
    """`text` with its ligature code points written as letters; None when it holds none."""
    if not any(ch in LIGATURES for ch in text):
        return None
    return "".join(LIGATURES.get(ch, ch) for ch in text)


def glyph_text(g: FlowFields) -> str:
    """What the glyph contributes: unresolved is one space; control breaks become spaces."""
    return text_info(g).text
