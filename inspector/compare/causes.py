"""The one documented set of causes a difference with another extraction is put down to (Qt-free).

Every difference `glyphscope compare` finds — with a built-in engine or with the
customer's own text — gets exactly one of these causes, the numbers that decided
it where a rule compared numbers, and a sentence. `unexplained` is said when no
evidence of the page supports any other cause: it is counted, never hidden.

The set, in the order reports list it:

* `word_gap` — the two sides split or glue words at a gap our word-gap rule
  measured (the gap, the threshold, the factor and the height are the numbers);
* `line_break` — one side starts a new line where the other joins the lines;
* `reading_order` — the same text, read at another place (columns, tables,
  content order);
* `culled` — text whose glyphs lie outside the visible box (slug lines,
  spreads): a viewer does not show it;
* `hidden` — glyphs a reader cannot see: clipped away, invisible render mode
  (3, 7: OCR layers), transparent, painted in the background colour, covered;
* `duplicate` — a glyph painted twice (fake bold) that dedupe dropped;
* `annotation` — text of an annotation's appearance (form field values,
  stamps, comments): one side reads it, the other does not;
* `decoding` — the glyphs' characters come from a different decoding: a
  garbled font, CJK byte pairs of a code page, an Identity font read through
  its font program, a fallback guess, codes an engine writes as `(cid:N)`,
  bytes that were not UTF-8;
* `actual_text` — a marked-content /ActualText replaces the glyphs' text on one
  side and not on the other;
* `ligature` — a ligature glyph written as one character or as its letters;
* `not_on_page` — text in no glyph of this page (another page's text, a
  header the extractor invented);
* `unexplained` — none of the above is supported by the page.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from typing import Any

JsonObject = dict[str, Any]
"""A JSON object as `compare --json` writes it (a page, an engine's page, a difference, a summary)."""


class RunKind(StrEnum):
    """What an engine did differently from glyphscope over one run of the alignment (`Run.kind`)."""

    MISSING = "missing"  # our text, not in theirs
    EXTRA = "extra"  # their text, not in ours
    SPACE = "space"  # whitespace on one side only
    ORDER = "order"  # in both, at another place
    CHANGED = "changed"  # the same glyphs read as other characters


class DifferenceKind(StrEnum):
    """A difference's kind as `compare --json` names it: a run's kind, a space run told apart by side."""

    MISSING = "missing"
    EXTRA = "extra"
    CHANGED = "changed"
    ORDER = "order"
    SPLIT = "split"  # their text has a space glyphscope does not
    GLUED = "glued"  # their text lacks a space glyphscope has


class Cause(str, Enum):
    """Why another extraction differs from glyphscope's at one place (see the module docstring)."""

    WORD_GAP = "word_gap"
    LINE_BREAK = "line_break"
    READING_ORDER = "reading_order"
    CULLED = "culled"
    HIDDEN = "hidden"
    DUPLICATE = "duplicate"
    ANNOTATION = "annotation"
    DECODING = "decoding"
    ACTUAL_TEXT = "actual_text"
    LIGATURE = "ligature"
    NOT_ON_PAGE = "not_on_page"
    UNEXPLAINED = "unexplained"


CAUSES: tuple[str, ...] = tuple(c.value for c in Cause)
"""Every cause, in report order."""

CAUSE_TITLES: dict[str, str] = {
    Cause.WORD_GAP.value: "words split or glued at a word gap",
    Cause.LINE_BREAK.value: "lines joined or broken",
    Cause.READING_ORDER.value: "text read in another order",
    Cause.CULLED.value: "text outside the visible page",
    Cause.HIDDEN.value: "text a reader cannot see (clipped, invisible, covered)",
    Cause.DUPLICATE.value: "text painted twice (fake bold)",
    Cause.ANNOTATION.value: "form values and annotations",
    Cause.DECODING.value: "garbled fonts and decoding",
    Cause.ACTUAL_TEXT.value: "ActualText used on one side only",
    Cause.LIGATURE.value: "ligatures",
    Cause.NOT_ON_PAGE.value: "text that is not on the page",
    Cause.UNEXPLAINED.value: "unexplained",
}
"""Each cause as reports and the window group by it (a plural noun phrase)."""

KIND_NAMES: dict[str, str] = {
    DifferenceKind.MISSING: "missing in theirs",
    DifferenceKind.EXTRA: "extra in theirs",
    DifferenceKind.CHANGED: "read differently",
    DifferenceKind.ORDER: "order differs",
    DifferenceKind.SPLIT: "word split in theirs",
    DifferenceKind.GLUED: "words glued in theirs",
}
"""The public difference kinds of `compare --json`: a space difference is `split` when their text
has a space glyphscope does not, `glued` when it lacks one glyphscope has."""
PUBLIC_KINDS: tuple[str, ...] = tuple(KIND_NAMES)


def public_kind(kind: str, their_has_space: bool) -> DifferenceKind:
    """An alignment run's kind as `compare --json` names it (`space` → `split` / `glued`)."""
    if kind == RunKind.SPACE:
        return DifferenceKind.SPLIT if their_has_space else DifferenceKind.GLUED
    return DifferenceKind(kind)


CAUSE_COLOURS: dict[str, str] = {
    Cause.WORD_GAP.value: "#0277bd",
    Cause.LINE_BREAK.value: "#00838f",
    Cause.READING_ORDER.value: "#6a1b9a",
    Cause.CULLED.value: "#8d6e63",
    Cause.HIDDEN.value: "#546e7a",
    Cause.DUPLICATE.value: "#ef6c00",
    Cause.ANNOTATION.value: "#2e7d32",
    Cause.DECODING.value: "#c62828",
    Cause.ACTUAL_TEXT.value: "#ad1457",
    Cause.LIGATURE.value: "#9e9d24",
    Cause.NOT_ON_PAGE.value: "#4e342e",
    Cause.UNEXPLAINED.value: "#757575",
}
"""One colour per cause: the window's Compare drawing and the ticket report mark differences with it."""
