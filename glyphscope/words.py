"""pdfplumber's word rule and its text of a few chars, over any records with its keys.

`page.extract_words(x_tolerance=…)` (glyphscope/model.py) groups the page's chars by
`word_groups`, and a table's cells (glyphscope/tables.py) are written by `text_of`, so the words
of the "text" table strategy and of the cells are made by one rule, pdfplumber's (0.11):

* the chars in runs of the same `upright` (and `extra_attrs`), in their order;
* within a run, lines: chars whose `top` are within `y_tolerance` of each other, chained
  (`x0` within `x_tolerance` for text that is not upright), each line in x order (top order),
  unless `use_text_flow` keeps the run as it is;
* a word ends at a blank char (unless `keep_blank_chars`), and where a char starts more than
  `x_tolerance` after the previous one ends, before the previous one starts, or more than
  `y_tolerance` above or below it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
C = TypeVar("C", bound=Mapping[str, Any])

DEFAULT_TEXT_TOLERANCE = 3.0
LIGATURES = {"ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "ﬁ": "fi", "ﬂ": "fl", "ﬆ": "st", "ﬅ": "st"}
"""What `text_of` writes for a ligature char (pdfplumber's `expand_ligatures`, on by default)."""


def cluster_values(values: Iterable[float], tolerance: float) -> dict[float, int]:
    """Each distinct value → its cluster's number: the values in order, a new cluster where one
    is more than `tolerance` above the previous (so a cluster may chain wider than it)."""
    out: dict[float, int] = {}
    last: float | None = None
    n = -1
    for v in sorted(set(values)):
        if last is None or v > last + tolerance:
            n += 1
        out[v] = n
        last = v
    return out


def cluster(items: Sequence[T], key: Callable[[T], float], tolerance: float) -> list[list[T]]:
    """`items` grouped by `cluster_values` of their keys, clusters in key order, items in their
    own order within each."""
    keys = [key(item) for item in items]
    numbers = cluster_values(keys, tolerance)
    groups: dict[int, list[T]] = {}
    for item, k in zip(items, keys, strict=True):
        groups.setdefault(numbers[k], []).append(item)
    return [groups[n] for n in sorted(groups)]


def _new_word(
    prev: Mapping[str, Any], char: Mapping[str, Any], upright: bool, x_tol: float, y_tol: float
) -> bool:
    if upright:  # left to right: back past the previous start, a gap, or another line
        return (
            char["x0"] < prev["x0"]
            or char["x0"] > prev["x1"] + x_tol
            or abs(char["top"] - prev["top"]) > y_tol
        )
    # top to bottom, the tolerances turned with the text
    return (
        char["top"] < prev["top"]
        or char["top"] > prev["bottom"] + y_tol
        or abs(char["x0"] - prev["x0"]) > x_tol
    )


def word_groups(
    chars: Sequence[C],
    x_tolerance: float = DEFAULT_TEXT_TOLERANCE,
    y_tolerance: float = DEFAULT_TEXT_TOLERANCE,
    keep_blank_chars: bool = False,
    use_text_flow: bool = False,
    extra_attrs: Sequence[str] = (),
) -> list[list[C]]:
    """The chars of each word, words in order (the module docstring says how)."""
    attrs = ("upright", *extra_attrs)
    runs: list[list[C]] = []
    for c in chars:
        if runs and all(c[a] == runs[-1][-1][a] for a in attrs):
            runs[-1].append(c)
        else:
            runs.append([c])
    words: list[list[C]] = []
    for run in runs:
        upright = bool(run[0]["upright"])
        if use_text_flow:
            lines = [run]
        elif upright:
            lines = [sorted(g, key=lambda c: c["x0"]) for g in cluster(run, lambda c: c["top"], y_tolerance)]
        else:
            lines = [sorted(g, key=lambda c: c["top"]) for g in cluster(run, lambda c: c["x0"], x_tolerance)]
        for line in lines:
            current: list[C] = []
            for c in line:
                if not keep_blank_chars and str(c["text"]).isspace():
                    new, keep = True, False
                else:
                    new = bool(current) and _new_word(current[-1], c, upright, x_tolerance, y_tolerance)
                    keep = True
                if new and current:
                    words.append(current)
                    current = []
                if keep:
                    current.append(c)
            if current:
                words.append(current)
    return words


def spelled(chars: Iterable[Mapping[str, Any]], expand_ligatures: bool = True) -> str:
    """The chars' texts joined, a ligature char as its letters unless `expand_ligatures` is false."""
    text = "".join(str(c["text"]) for c in chars)
    return "".join(LIGATURES.get(ch, ch) for ch in text) if expand_ligatures else text


def text_of(
    chars: Sequence[Mapping[str, Any]],
    x_tolerance: float = DEFAULT_TEXT_TOLERANCE,
    y_tolerance: float = DEFAULT_TEXT_TOLERANCE,
    keep_blank_chars: bool = False,
    use_text_flow: bool = False,
    extra_attrs: Sequence[str] = (),
    expand_ligatures: bool = True,
) -> str:
    """The text of `chars` as pdfplumber's `extract_text` writes it (not its layout mode): the
    words of `word_groups` in lines by their top (the least of their chars', within
    `y_tolerance`, chained), joined by spaces, the lines by line breaks; ligatures spelt out
    unless `expand_ligatures` is false."""
    groups = word_groups(chars, x_tolerance, y_tolerance, keep_blank_chars, use_text_flow, extra_attrs)
    words = [(spelled(g, expand_ligatures), min(float(c["top"]) for c in g)) for g in groups]
    by_line = cluster(words, lambda w: w[1], y_tolerance)
    return "\n".join(" ".join(w[0] for w in line) for line in by_line)


__all__ = [
    "DEFAULT_TEXT_TOLERANCE",
    "LIGATURES",
    "cluster",
    "cluster_values",
    "spelled",
    "text_of",
    "word_groups",
]
