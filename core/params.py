"""Every threshold of the engine in one validated object (like pdfminer's LAParams).

The inspector re-runs the passes and assembly with other values without
interpreting the page again, so nothing here may influence interpretation.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace


@dataclass(frozen=True, slots=True)
class Parameters:
    word_gap: float = 0.15
    """Insert a space when the gap after a glyph's own advance exceeds this
    fraction of the next glyph's box height (spec §3). Height, not Tfs,
    because producers write `1 Tf` and scale through Tm."""

    line_break: float = 0.5
    """Start a new line when the origin moves across the writing direction by
    more than this fraction of the larger of the two box heights (spec §4):
    the larger height keeps a big word and its small caption on one line."""

    dedupe_size: float = 0.05
    """Two glyphs can be one painted glyph only if their box heights differ
    by at most this fraction of the larger (spec §7)."""

    dedupe_along: float = 0.1
    """... and their origins differ by at most this fraction of the size
    along the baseline (fake bold offsets are a few hundredths of an em)."""

    dedupe_across: float = 0.2
    """... and at most this fraction across the baseline."""

    dedupe_scan: float = 0.25
    """Window of the sorted dedupe scan in x, as a fraction of the size. Must
    not be smaller than the tolerances it has to find."""

    columns_gap: float = 3.0
    """Columns mode splits a baseline where the horizontal gap exceeds this
    many mean glyph advances (spec §8)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ValueError(f"{f.name} must be a number, not {value!r}")
            if not (value >= 0.0) or value != value or value == float("inf"):
                raise ValueError(f"{f.name} must be a finite number ≥ 0, not {value!r}")
        if self.line_break <= 0:
            raise ValueError("line_break must be > 0")
        if self.columns_gap <= 0:
            raise ValueError("columns_gap must be > 0")

    def with_changes(self, **changes: float) -> Parameters:
        return replace(self, **changes)

    def to_json(self) -> dict[str, float]:
        return asdict(self)


DEFAULT_PARAMETERS = Parameters()
