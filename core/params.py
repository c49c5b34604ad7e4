"""Every threshold of the engine in one validated object (like pdfminer's LAParams), and each
one's metadata in one table (`PARAMETER_SPECS`).

The inspector re-runs the passes and assembly with other values without
interpreting the page again, so nothing here may influence interpretation.

Adding a threshold is one change here plus its rule: the field (with its docstring, which the
API reference and Tuning's tooltip show) and its row in PARAMETER_SPECS (the command-line
option and its help, Tuning's label and range, whether it is a switch or takes a word). The
command line (inspector/cli/shared.py `add_thresholds`), Tuning (gui/panels/tuning.py), the
JSON schemas' `params` (inspector/cli/docs.py `params_schema`) and the man page are made from
them; tests/core/test_params_table.py adds one to a copy of the package and sees it everywhere.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum


class AnnotationText(StrEnum):
    """What text modes do with the text of annotation appearances (`Parameters.annotations`)."""

    INCLUDE = "include"  # in the text where it stands, as a viewer shows it
    EXCLUDE = "exclude"  # the page's own content only
    ONLY = "only"  # only the annotations


@dataclass(frozen=True, slots=True)
class Parameters:
    """The thresholds and switches of the passes and text modes (see the fields' docstrings)."""

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

    # --- fidelity: what text is read where the reference reads none or glues it ---
    cjk_gap: float = 1.0
    """Two CJK characters get a space after all when the gap between them
    exceeds this fraction of the next glyph's box height (spec §9): a full
    ideograph of empty space is more than justification spreads, so separate
    table cells and fields of CJK text do not glue together."""

    keep_ligatures: bool = False
    """Keep ligature glyphs U+FB00–FB06 as they are in the text (off: text modes
    write their letters, so a search for "Profile" finds "Proﬁle"; the glyph
    records always keep the raw code point)."""

    actual_text: bool = True
    """Write the /ActualText (or /E expansion) of a marked-content span in place of the
    text of its glyphs, once, where its first glyph stands (ISO 32000-1 §14.9.4): the
    producer's own statement of what the glyphs say (digits whose font maps them to
    U+0000, a soft hyphen painted as a space). Off: the glyphs' own text, as decoded.
    The glyph records always keep their own Unicode."""

    # --- visibility: what text modes do with glyphs a reader cannot see ---
    keep_clipped: bool = False
    """Keep glyphs wholly outside the clipping path (no part of the box meets it) in the text (off: they
    are dropped like culled glyphs, as MuPDF does; each keeps its `clipped` decision)."""

    drop_hidden: bool = False
    """Drop text a reader cannot see from the text: fully transparent, same colour as the
    background, or covered by a later opaque image or fill (off: kept and flagged).
    Render mode 3/7 text is kept either way: OCR layers depend on it."""

    # --- right to left and letter spacing ---
    tracking: bool = True
    """Read letter-spaced runs as words: on a line, a run of at least 4 single glyphs whose
    gaps are all above the word-gap threshold and nearly equal (spread ≤ 20 % of their
    mean) is tracked; its median gap is the tracking, and in its stretch only gaps wider
    than tracking + word_gap × height are spaces (`A N E X O` painted with Tc reads
    `ANEXO`). Off: every gap above the threshold is a space (the seeds' behaviour)."""

    annotations: AnnotationText = AnnotationText.INCLUDE
    """Text of annotation appearances (form fields, comments, stamps) a viewer draws on the
    page: "include" (in the text where it stands, as MuPDF and pdftotext read it), "exclude"
    (only the page's content), or "only" (only the annotations). Each annotation keeps its
    `annotation` decision, and the left-out glyphs their `excluded` status."""

    visual_order: bool = False
    """Keep right-to-left lines in visual (painted) order. Off: a line whose strong
    characters are mostly right-to-left (Hebrew, Arabic: bidi classes R and AL) is
    written in logical order by the Unicode bidirectional algorithm, numbers and Latin
    runs inside it left to right; glyph records always keep paint order."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in CHOICES:
                if value not in CHOICES[f.name]:
                    raise ValueError(f"{f.name} must be one of {', '.join(CHOICES[f.name])}, not {value!r}")
                object.__setattr__(self, f.name, _VOCABULARIES[f.name](value))  # "only" → AnnotationText.ONLY
                continue
            if f.name in SWITCHES:
                if value not in (0, 1):  # a Tuning control may hand over 0.0 / 1.0
                    raise ValueError(f"{f.name} must be true or false, not {value!r}")
                object.__setattr__(self, f.name, bool(value))
                continue
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ValueError(f"{f.name} must be a number, not {value!r}")
            if not (value >= 0.0) or value != value or value == float("inf"):
                raise ValueError(f"{f.name} must be a finite number ≥ 0, not {value!r}")
        if self.line_break <= 0:
            raise ValueError("line_break must be > 0")
        if self.columns_gap <= 0:
            raise ValueError("columns_gap must be > 0")

    def with_changes(self, **changes: float | bool | str) -> Parameters:
        return replace(self, **changes)  # type: ignore[arg-type]  # __post_init__ validates each field

    def to_json(self) -> dict[str, float | bool | str]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Range:
    """A threshold's range in Tuning: slider and spin box from `low` to `high` by `step`."""

    low: float
    high: float
    step: float
    decimals: int = 2


@dataclass(frozen=True, slots=True)
class ParameterSpec:
    """One field of Parameters as the command line and Tuning show it."""

    name: str  # the Parameters field
    label: str  # Tuning's row (a switch's checkbox text)
    option: str | None = None  # the command line's; a default-on switch's is "--no-…"; None: none
    help: str = ""  # the option's help
    range: Range | None = None  # a threshold's range in Tuning
    switch: bool = False  # on/off (a checkbox; the option flips the default)
    choices: tuple[str, ...] = ()  # the words a field of a closed vocabulary takes (the first is the default)


PARAMETER_SPECS: tuple[ParameterSpec, ...] = (
    # in the command line's order (its --help); Tuning shows the fields in Parameters' order
    ParameterSpec(
        "word_gap",
        "Word gap (× height)",
        "--word-gap",
        "word-gap threshold × glyph height",
        Range(0.0, 1.5, 0.01),
    ),
    ParameterSpec(
        "line_break",
        "Line break (× height)",
        "--line-break",
        "line-break threshold × height",
        Range(0.05, 3.0, 0.05),
    ),
    ParameterSpec(
        "columns_gap",
        "Columns gap (× advance)",
        "--columns-gap",
        "columns split × mean advance",
        Range(0.25, 20.0, 0.25),
    ),
    ParameterSpec(
        "cjk_gap",
        "CJK gap (× height)",
        "--cjk-gap",
        "space between CJK characters farther apart than this × height",
        Range(0.0, 4.0, 0.01),
    ),
    ParameterSpec(
        "keep_ligatures",
        "Keep ligatures (ﬁ ﬂ) as they are",
        "--keep-ligatures",
        "keep ligature glyphs U+FB00–FB06 in the text instead of their letters",
        switch=True,
    ),
    ParameterSpec(
        "keep_clipped",
        "Keep text outside the clip",
        "--keep-clipped",
        "keep glyphs outside the clipping path in the text (default: dropped like culled ones)",
        switch=True,
    ),
    ParameterSpec(
        "drop_hidden",
        "Drop hidden text",
        "--drop-hidden",
        "drop transparent, white-on-white and covered text (default: kept and flagged; "
        "render mode 3/7 text is always kept)",
        switch=True,
    ),
    ParameterSpec(
        "actual_text",
        "Write /ActualText replacements",
        "--no-actual-text",
        "write the glyphs' own text instead of a marked-content span's /ActualText (or /E)",
        switch=True,
    ),
    ParameterSpec(
        "tracking",
        "Read letter-spaced runs as words",
        "--no-tracking",
        "letter-spaced runs (`A N E X O`) keep a space at every gap above the word-gap threshold",
        switch=True,
    ),
    ParameterSpec(
        "visual_order",
        "Right-to-left lines in visual order",
        "--visual-order",
        "keep right-to-left lines (Hebrew, Arabic) in painted, visual order instead of logical order",
        switch=True,
    ),
    ParameterSpec(
        "annotations",
        "Annotations",
        "--annotations",
        "text of annotation appearances (form fields, comments, stamps): include it where it "
        "stands, exclude it (the page's own content only), or only it",
        choices=tuple(a.value for a in AnnotationText),
    ),
    # in Tuning only
    ParameterSpec("dedupe_size", "Dedupe: size difference", range=Range(0.0, 0.5, 0.01)),
    ParameterSpec("dedupe_along", "Dedupe: offset along", range=Range(0.0, 1.0, 0.01)),
    ParameterSpec("dedupe_across", "Dedupe: offset across", range=Range(0.0, 1.0, 0.01)),
    ParameterSpec("dedupe_scan", "Dedupe: scan window", range=Range(0.0, 2.0, 0.01)),
)

SPEC_BY_NAME: dict[str, ParameterSpec] = {spec.name: spec for spec in PARAMETER_SPECS}

SWITCHES = frozenset(spec.name for spec in PARAMETER_SPECS if spec.switch)
"""Fields that are on/off switches rather than thresholds."""

CHOICES: dict[str, tuple[str, ...]] = {spec.name: spec.choices for spec in PARAMETER_SPECS if spec.choices}
"""Fields that take one of a few words (the first is the default)."""

_VOCABULARIES = {"annotations": AnnotationText}
"""The enum each field of CHOICES is read into."""

DEFAULT_PARAMETERS = Parameters()
