"""Findings about a document or page, kept as data for the inspector and triage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum


class Severity(str, Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class DiagnosticKind(str, Enum):
    """Every kind of finding the engine records. Values are stable (JSON, tests)."""

    DAMAGED_FILE_REPAIRED = "damaged_file_repaired"
    PAGE_TREE_REPAIRED = "page_tree_repaired"  # qpdf refused the page tree: pages recovered by a walk or scan
    PAGE_FAILED = "page_failed"  # the page could not be interpreted at all
    NO_CONTENT = "no_content"
    CONTENT_UNREADABLE = "content_unreadable"
    MALFORMED_OPERATOR = "malformed_operator"
    UNKNOWN_OPERATOR = "unknown_operator"
    Q_UNDERFLOW = "q_underflow"
    UNBALANCED_Q = "unbalanced_q"
    TEXT_OUTSIDE_BT = "text_outside_bt"
    MISSING_FONT = "missing_font"
    NO_FONT_SET = "no_font_set"
    FONT_FAILED = "font_failed"
    FONT_WITHOUT_TOUNICODE = "font_without_tounicode"
    TOUNICODE_BROKEN = "tounicode_broken"
    UNRESOLVED_GLYPHS = "unresolved_glyphs"
    FALLBACK_DECODING = "fallback_decoding"
    # A font's text decodes but is not plausible text (core/garbled.py): wrong characters, with
    # the evidence (score, shares, examples) and the likely cause (offset k, CJK code page) in `data`.
    GARBLED_TEXT = "garbled_text"
    # The page's (or, over the pages read, the document's) share of glyphs in garbled fonts.
    GARBLED_PAGE = "garbled_page"
    GARBLED_DOCUMENT = "garbled_document"
    UNSORTED_W = "unsorted_w"
    OVERLAPPING_W = "overlapping_w"
    MISSING_WIDTHS = "missing_widths"
    FORM_CYCLE = "form_cycle"
    FORM_DEPTH_CAP = "form_depth_cap"
    MISSING_XOBJECT = "missing_xobject"
    GLYPHS_OUTSIDE_FORM_BBOX = "glyphs_outside_form_bbox"
    TEXT_FROM_FORMS = "text_from_forms"
    TEXT_FROM_ANNOTATIONS = (
        "text_from_annotations"  # glyphs of form fields, comments, stamps (their appearances)
    )
    FIELD_VALUE_NOT_DRAWN = (
        "field_value_not_drawn"  # a viewer draws the value itself: the file has no glyphs for it
    )
    IMAGE_ONLY_PAGE = "image_only_page"  # images cover the page and no text is painted: it needs OCR
    OCR_LAYER_ONLY = "ocr_layer_only"  # the page's only text is invisible, over an image: an OCR layer
    # The OCR cross-check (`glyphscope verify`): the invisible OCR layer does not read what the scan shows.
    OCR_LAYER_WRONG = "ocr_layer_wrong"
    CULLED_GLYPHS = "culled_glyphs"
    DUPLICATE_GLYPHS = "duplicate_glyphs"
    TF_ONE_SCALED_TM = "tf_one_scaled_tm"
    INVISIBLE_TEXT = "invisible_text"
    MARKED_CONTENT_UNBALANCED = "marked_content_unbalanced"
    UNTAGGED_SHARE = "untagged_share"
    STRUCTURE_UNUSABLE = "structure_unusable"
    STRUCTURE_DEPTH_CAP = "structure_depth_cap"
    NO_TEXT = "no_text"
    BUDGET_EXCEEDED = "budget_exceeded"  # a budget of core.limits.Limits stopped the page
    # Problems the text shows although no single glyph or operator is wrong (core/triage/page_checks.py):
    PAINTED_SPACE_IN_WORD = "painted_space_in_word"  # the page shows one word, every text reads two
    HIDDEN_TEXT_INVISIBLE_MODE = "hidden_text_invisible_mode"  # one per visibility class on the page
    HIDDEN_TEXT_CLIPPED = "hidden_text_clipped"
    HIDDEN_TEXT_TRANSPARENT = "hidden_text_transparent"
    HIDDEN_TEXT_SAME_AS_BACKGROUND = "hidden_text_same_as_background"
    HIDDEN_TEXT_COVERED = "hidden_text_covered"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: its kind, severity, message and where it was found."""

    kind: DiagnosticKind
    severity: Severity
    message: str  # one line a support engineer understands
    page: int | None = None  # 1-based; None for document-level findings
    token_index: int | None = None  # page-stream instruction it concerns, if any
    font_key: str | None = None
    form_path: tuple[str, ...] = ()
    glyphs: tuple[int, ...] = field(default=())  # paint indices of the glyphs it concerns
    count: int | None = None
    # What repeats of this finding were counted under (the operator, font key, form chain, ...
    # with `kind`): structured, so a count never attaches to a finding by matching its message.
    repeat_key: str | None = None
    # The number the rule measured and the threshold it compared it with, when it compared one
    # (e.g. a painted space: the gap between the letters either side, and word gap × height).
    measured: float | None = None
    threshold: float | None = None
    # The rule's own numbers when it has more than one (garbled_text: score, shares, examples,
    # proposed offset and the text it gives): JSON values, written as "data".
    data: Mapping[str, object] | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind.value,
            "severity": self.severity.value,
            "message": self.message,
            "page": self.page,
            "token_index": self.token_index,
            "font_key": self.font_key,
            "form_path": list(self.form_path),
            "glyphs": list(self.glyphs),
            "count": self.count,
        }
        if self.measured is not None:
            out["measured"] = self.measured
            out["threshold"] = self.threshold
        if self.data is not None:
            out["data"] = dict(self.data)
        return out
