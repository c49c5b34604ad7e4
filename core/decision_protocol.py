"""The one protocol every decision record follows (passes, assembly, form membership, decoding).

A record says which glyphs it concerns, what was decided and the very numbers the
rule compared, so nothing downstream guesses them from dict keys or message text:

* `kind`: class-level constant naming the rule ("word_gap", "line_break", "cull", ...).
* `before` + `after` (paint indices of a glyph pair, in reading order) or `glyph`
  (the one glyph it concerns; None for page-level records such as the layout grid).
* `verdict`: what the rule decided (a short snake_case word, per kind).
* `value`: the measured number the rule compared (a float, a point [x, y], ...).
* `threshold`: what `value` was compared against (a float, an interval [lo, hi], a
  box [x0, y0, x1, y1], a quad [[x, y] × 4], ...).
  Both are None only where no number applies (a word gap next to a space glyph,
  an unresolved glyph, an information record such as a text column).
* `to_json()`: plain JSON with at least kind, verdict, value, threshold and
  before/after or glyph; other numbers of the rule follow as extra fields.
* `describe()`: one English sentence with the numbers (2 decimals).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, Protocol, TypeAlias, runtime_checkable

from glyphscope.core.geometry import Quad

Number: TypeAlias = float | tuple[float, ...] | Quad | None
"""A decision's value or threshold: a number, a point/interval/box, a quad, or None."""


class DecisionKind(StrEnum):
    """The rule a record reports (`DecisionRecord.kind`); its word is what JSON and the command line
    say. The visibility records' kinds are their VisibilityClass (core/visibility_class.py)."""

    BIDI = "bidi"
    WORD_GAP = "word_gap"
    LINE_BREAK = "line_break"
    COLUMN_CHANGE = "column_change"
    LIGATURE = "ligature"
    VERTICAL_COLUMN = "vertical_column"
    LAYOUT_GRID = "layout_grid"
    BASELINE = "baseline"
    GRID_PLACEMENT = "grid_placement"
    COLUMN_SPLIT = "column_split"
    TEXT_COLUMN = "text_column"
    STRUCTURE_ORDER = "structure_order"
    ARTICLE_BEAD = "article_bead"
    ARTICLE_ORDER = "article_order"
    ACTUAL_TEXT = "actual_text"
    ANNOTATION = "annotation"
    FORM_MEMBERSHIP = "form_membership"
    DECODE_FALLBACK = "decode_fallback"
    CULL = "cull"
    DUPLICATE = "duplicate"


@runtime_checkable
class DecisionRecord(Protocol):
    """What every record in a page's decision list provides (see the module docstring)."""

    kind: ClassVar[str]

    @property
    def verdict(self) -> str: ...

    @property
    def value(self) -> Number: ...

    @property
    def threshold(self) -> Number: ...

    def to_json(self) -> dict[str, Any]: ...

    def describe(self) -> str: ...


class NothingCompared:
    """Mixin of records whose rule compared no number (information records, a ligature
    written as letters, a decoding fallback): value and threshold are None."""

    __slots__ = ()

    @property
    def value(self) -> None:
        return None

    @property
    def threshold(self) -> None:
        return None


def fmt(x: float) -> str:
    """A number in a sentence: 2 decimals."""
    return f"{x:.2f}"


def rounded(x: float) -> float:
    """A number in JSON: 4 decimals (sub-micrometre in user space)."""
    return round(x, 4)


def number_json(n: Number) -> Any:
    """A value or threshold as JSON: floats rounded, points and boxes as lists, None kept."""
    if n is None:
        return None
    if isinstance(n, tuple):
        return [number_json(v) for v in n]
    return rounded(n)


def pair_json(record: DecisionRecord, before: int, after: int, **extra: Any) -> dict[str, Any]:
    """The protocol fields of a record about a glyph pair, then its own extra fields."""
    return {
        "kind": record.kind,
        "before": before,
        "after": after,
        "verdict": record.verdict,
        "value": number_json(record.value),
        "threshold": number_json(record.threshold),
        **extra,
    }


def glyph_json(record: DecisionRecord, glyph: int | None, **extra: Any) -> dict[str, Any]:
    """The protocol fields of a record about one glyph (or the page: glyph None), then extras."""
    return {
        "kind": record.kind,
        "glyph": glyph,
        "verdict": record.verdict,
        "value": number_json(record.value),
        "threshold": number_json(record.threshold),
        **extra,
    }


class Describable(Protocol):
    """Any record of the engine: it says what it decided in one sentence."""

    def describe(self) -> str: ...


def describe(record: Describable) -> str:
    """The record's own sentence; a record whose sentence fails is named, never hidden."""
    try:
        return str(record.describe())
    except Exception as exc:  # a broken sentence must not hide the record
        return f"{type(record).__name__} (describe() failed: {type(exc).__name__}: {exc})"
