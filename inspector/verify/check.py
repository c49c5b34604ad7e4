"""The ink as ground truth: OCR characters aligned to glyphs by position, verdicts per glyph,
font and page, and the code → Unicode mapping the ink proposes (issue 26). No Qt.

Every glyph of a page is either judged or counted under the reason it is not (NOT_JUDGED):
visible glyphs are compared with the ink on them (below); glyphs a reader cannot see that lie
on an image are an OCR layer, compared word by word with the scan (inspector/verify/layer.py);
the ink is ground truth only where it shows the encoded letters: a font that is not embedded is
drawn with the renderer's substitute, which draws the encoded letters of a plain text font with a
standard encoding (its ink is evidence), but other letters for a symbolic font, glyph names with
no standard meaning or a composite font: their verdict is cannot tell (`ink_is_substitute`, the
one rule core.fonts.common.substitute_reason).

An OCR character (a Tesseract symbol with its pixel box) belongs to the visible glyph whose box
covers the largest share of it (at least SYMBOL_MIN_OVERLAP): positions decide, never text.
A glyph's ink is its characters in reading order, so a ligature glyph "ﬁ" reads "fi". The
glyph's decoded text and its ink are compared case-sensitively after `equivalent_text`
(NFKC, which expands ligatures, and one form for quotes and dashes).

Thresholds (every one is named here, used once, and listed in the README):
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.fonts.common import drawn_by_substitute
from glyphscope.core.geometry import Matrix, Rect
from glyphscope.core.page import PaintKind
from glyphscope.core.page_space import display_matrix, quad_bbox, user_rect
from glyphscope.inspector.jobs import Progress
from glyphscope.inspector.verify.layer import (
    LAYER_THRESHOLDS,
    LayerVerdict,
    OcrLayerCheck,
    VerdictReason,
    check_layer,
)
from glyphscope.inspector.verify.ocr import foreign_script

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.document import Document
    from glyphscope.core.fonts.base import FontInfo
    from glyphscope.core.glyph import Glyph
    from glyphscope.core.page import PaintObject
    from glyphscope.inspector.verify.ocr import OcrPage, OcrWord

DEFAULT_DPI = 300.0
"""Pages are rendered for OCR at this resolution (Tesseract reads 10 pt text well from ~300 dpi)."""
SYMBOL_MIN_OVERLAP = 0.5
"""An OCR character belongs to a glyph when the glyph's box covers at least this share of its box."""
CONFIDENT_READ = 60.0
"""A glyph's ink counts for or against its font (agreement, verdict) when Tesseract's confidence
in every character of it is at least this (0–100)."""
VOTE_MIN_CONF = 60.0
"""Reads at least this confident vote for a code's proposed Unicode."""
VOTE_MIN_SHARE = 0.5
"""A code's proposal is the reading more than this share of its votes agree on."""
NOISY_CODE_MIN_READS = 3
"""A code with at least this many confident reads, none of whose readings (its own text included)
more than VOTE_MIN_SHARE of them agree on, is noise, not a mapping: its reads are left out of the
agreement (dot leaders, which Tesseract reads as `e`, `s`, `c` … by turns)."""
MIN_GLYPHS_READ = 10
"""A font with fewer confident reads than this: cannot tell (too few glyphs)."""
MIN_LETTER_SHARE = 0.5
"""A font whose confident reads are less than this share letters or digits: cannot tell (symbols)."""
MAX_OFF_INK_SHARE = 0.5
"""A font more than this share of whose glyphs lie in no OCR word: cannot tell (its glyphs do not
sit on the ink: the positions the engine computes differ from the rendering, or the ink is not
read at all)."""
UPRIGHT_SLOPE = 0.2
"""Only glyphs written left to right in the page image, at most this slope off horizontal, are
compared (Tesseract reads upright lines; turned or vertical text is counted in `not_upright`)."""
MAX_FOREIGN_SHARE = 0.5
"""A font whose confidently read glyphs decode, more than this share, to a script none of the OCR
languages reads (Chinese read with eng): cannot tell (the ink's reading means nothing)."""
MIN_MEAN_CONF = 75.0
"""A font whose reads have a mean confidence below this: cannot tell (low confidence)."""
RIGHT_MIN_AGREEMENT = 0.90
"""Agreement at least this: mapping right."""
WRONG_MAX_AGREEMENT = 0.50
"""Agreement at most this: mapping wrong (between the two: cannot tell)."""
INK_WORD_MIN_CONF = 60.0
"""An OCR word at least this confident, holding a letter or digit, that meets no glyph is ink without a glyph."""
REGION_GAP = 1.0
"""Ink words closer than this × the taller word's height join one region."""
INK_MARGIN = 0.15
"""A visible glyph has ink when its centre lies in an OCR word's box widened by this × the word's height."""
LAYER_IMAGE_MIN_SHARE = 0.5
"""Hidden text under an image (covered, or the colour of what is under it; not invisible by render
mode or alpha) is taken for an OCR layer when the image holds most of the page: it covers at least
this share of the page's visible box AND more of the page's text lies hidden under it than is
visible on the whole page. Neither: covered text (a stamp, a logo, a signature over visible text).
One but not the other: the evidence is mixed, and the layer's verdict is cannot tell."""
MIN_GLYPH_PIXELS = 10.0
"""A visible glyph whose box is less tall than this in the page image is too small for Tesseract to
read (at 300 dpi: text under about 2.5 pt)."""

THRESHOLDS = {
    "symbol_min_overlap": SYMBOL_MIN_OVERLAP,
    "confident_read": CONFIDENT_READ,
    "vote_min_conf": VOTE_MIN_CONF,
    "vote_min_share": VOTE_MIN_SHARE,
    "noisy_code_min_reads": NOISY_CODE_MIN_READS,
    "min_glyphs_read": MIN_GLYPHS_READ,
    "min_letter_share": MIN_LETTER_SHARE,
    "max_off_ink_share": MAX_OFF_INK_SHARE,
    "upright_slope": UPRIGHT_SLOPE,
    "max_foreign_share": MAX_FOREIGN_SHARE,
    "min_mean_conf": MIN_MEAN_CONF,
    "right_min_agreement": RIGHT_MIN_AGREEMENT,
    "wrong_max_agreement": WRONG_MAX_AGREEMENT,
    "ink_word_min_conf": INK_WORD_MIN_CONF,
    "region_gap": REGION_GAP,
    "ink_margin": INK_MARGIN,
    "min_glyph_pixels": MIN_GLYPH_PIXELS,
    "layer_image_min_share": LAYER_IMAGE_MIN_SHARE,
}
THRESHOLDS |= LAYER_THRESHOLDS

SUBSTITUTE_REASON = "the page's ink is the renderer's substitute, not the font's own letters"
"""The verdict's reason for such a font, followed by why (FontInfo.substitute): "…: a symbolic font …"."""

NOT_JUDGED = {
    "space": "spaces: no ink to read",
    "culled": "outside the page's visible box",
    "duplicate": "a second copy drawn on the first (the first is compared)",
    "excluded": "left out by the annotations setting",
    "clipped": "clipped away: nothing is drawn",
    "invisible_without_image": "invisible, with no image under it: nothing on the page to read",
    "not_upright": "turned or vertical text: Tesseract reads upright lines",
    "too_small": f"too small: under {MIN_GLYPH_PIXELS:g} px tall in the page image",
    "no_ink_read": "no ink read on it",
    "low_confidence": f"read with a confidence under {CONFIDENT_READ:g}",
    "symbols": "no letter or digit on either side",
    "noisy_code": "a code whose reads agree on nothing (dot leaders)",
    VerdictReason.SUBSTITUTE_RENDERING: SUBSTITUTE_REASON,
    VerdictReason.TOO_FEW_GLYPHS: "its font has too few glyphs read for a verdict",
    VerdictReason.OFF_INK: "its font's glyphs lie off the ink",
    VerdictReason.FOREIGN_SCRIPT: "a script the OCR language does not read",
    VerdictReason.FONT_LOW_CONFIDENCE: "its font is read with a low mean confidence",
    VerdictReason.SYMBOL_FONT: "a symbol font: mostly not letters or digits",
    "layer_too_few_words": "an OCR layer with too few words read for a verdict",
    "layer_foreign_script": "an OCR layer in a script the OCR language does not read",
    "layer_low_confidence": "an OCR layer over a scan read with a low mean confidence",
    "layer_mixed_evidence": "hidden text under an image that may or may not be an OCR layer (mixed evidence)",
    "covered_text": "covered by a small image over visible text (a stamp, a logo, a signature): not an OCR layer",
    "mixed_evidence": "hidden under an image whether an OCR layer or not (mixed evidence), beside a clear layer",
}
"""Why a glyph is not judged (the keys of a page's `not_judged`) and what each means."""


def ink_is_substitute(info: FontInfo) -> bool:
    """Whether the page's ink for `info`'s glyphs is a renderer's substitute drawing other letters than
    the codes are encoded as (core.fonts.common.drawn_by_substitute: the one rule)."""
    return drawn_by_substitute(info)


_EQUIVALENT = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\u00ad": "-",
        "\u2022": "•",
        "\u00b7": "•",
    }
)


def equivalent_text(text: str) -> str:
    """`text` as compared: NFKC (ligatures expanded, compatibility forms folded), one quote and
    one dash form, whitespace dropped; case kept."""
    return "".join(unicodedata.normalize("NFKC", text).translate(_EQUIVALENT).split())


class GlyphVerdict(StrEnum):
    AGREES = "agrees"  # the ink reads what the glyph decodes to
    INK_READS_OTHER = "ink_reads_other"  # the ink reads something else
    NO_INK_READ = "no_ink_read"  # no OCR character fell on the glyph


class FontVerdict(StrEnum):
    MAPPING_RIGHT = "mapping_right"
    MAPPING_WRONG = "mapping_wrong"
    CANNOT_TELL = "cannot_tell"


@dataclass(frozen=True, slots=True)
class GlyphCheck:
    """One visible glyph and what its ink reads. `bbox` in user space (x0, y0, x1, y1)."""

    page: int
    paint_index: int
    font_id: str
    font_key: str
    code: int
    decoded: str  # the glyph's Unicode ("" unresolved)
    verdict: GlyphVerdict
    ink: str | None  # what the ink reads (None: nothing)
    conf: float | None  # the lowest confidence of its characters
    bbox: Rect

    @property
    def confident(self) -> bool:
        return self.conf is not None and self.conf >= CONFIDENT_READ

    def to_json(self) -> dict[str, object]:
        return {
            "page": self.page,
            "paint_index": self.paint_index,
            "font_id": self.font_id,
            "font_key": self.font_key,
            "code": self.code,
            "decoded": self.decoded,
            "verdict": self.verdict.value,
            "ink": self.ink,
            "conf": None if self.conf is None else round(self.conf, 1),
            "bbox": [round(v, 2) for v in self.bbox],
        }


@dataclass(frozen=True, slots=True)
class Confusion:
    """Glyphs of one code decoded to `decoded` whose ink reads `ink`."""

    code: int
    decoded: str
    ink: str
    count: int
    mean_conf: float

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "decoded": self.decoded,
            "ink": self.ink,
            "count": self.count,
            "mean_conf": round(self.mean_conf, 1),
        }


@dataclass(frozen=True, slots=True)
class FontCheck:
    """One font over every page read: counts, agreement, confusion, verdict, proposed mapping."""

    font_id: str
    font_keys: tuple[str, ...]
    base_font: str
    glyphs: int  # visible glyphs with ink to compare (spaces left out)
    agrees: int
    reads_other: int
    no_ink: int
    confident_reads: int  # glyphs whose read counts (conf ≥ CONFIDENT_READ)
    agreement: float | None  # agreeing share of the confident reads
    mean_conf: float | None
    letter_share: float | None
    verdict: FontVerdict
    reason: str
    confusion: tuple[Confusion, ...]
    proposed: dict[int, str] | None  # code → Unicode from the ink's votes (mapping wrong only)
    recovered: float | None = None  # set by benchmarks: share of glyphs the proposal maps right
    # The renderer drew this font with a substitute (`ink_is_substitute`): its ink is no ground
    # truth, the verdict is cannot tell and the ink proposes nothing. What repair's proposals read.
    ink_is_substitute: bool = False
    reason_key: str = ""  # the verdict's kind: right, wrong, between, or why it cannot tell (NOT_JUDGED keys)
    noisy_codes: frozenset[int] = frozenset()  # codes whose reads agree on nothing (NOISY_CODE_MIN_READS)

    def to_json(self) -> dict[str, object]:
        return {
            "font_id": self.font_id,
            "font_keys": list(self.font_keys),
            "base_font": self.base_font,
            "glyphs": self.glyphs,
            "agrees": self.agrees,
            "reads_other": self.reads_other,
            "no_ink": self.no_ink,
            "confident_reads": self.confident_reads,
            "agreement": None if self.agreement is None else round(self.agreement, 4),
            "mean_conf": None if self.mean_conf is None else round(self.mean_conf, 1),
            "letter_share": None if self.letter_share is None else round(self.letter_share, 4),
            "verdict": self.verdict.value,
            "reason": self.reason,
            "reason_key": self.reason_key,
            "ink_is_substitute": self.ink_is_substitute,
            "confusion": [c.to_json() for c in self.confusion],
            "proposed_mapping": None
            if self.proposed is None
            else [{"code": c, "unicode": u} for c, u in sorted(self.proposed.items())],
        }


@dataclass(frozen=True, slots=True)
class InkRegion:
    """Text-like ink that meets no glyph (a scan, outlines, an unrendered field). `bbox` user space."""

    bbox: Rect
    text: str
    words: int
    mean_conf: float

    def to_json(self) -> dict[str, object]:
        return {
            "bbox": [round(v, 2) for v in self.bbox],
            "text": self.text,
            "words": self.words,
            "mean_conf": round(self.mean_conf, 1),
        }


@dataclass(frozen=True, slots=True)
class CoveredText:
    """Text hidden under images that are not a scan: glyphs a reader cannot see because an image
    (a stamp, a logo, a signature) is painted over them, on a page whose text is otherwise visible.
    Not an OCR layer: not compared with the OCR of the image. `images` user space bboxes."""

    glyphs: int  # hidden glyphs under those images (spaces left out)
    images: tuple[Rect, ...]
    image_share: float  # the largest of those images' share of the page's visible box
    visible: int  # the page's visible glyphs (spaces left out)
    reason: str

    def to_json(self) -> dict[str, object]:
        return {
            "glyphs": self.glyphs,
            "images": [[round(v, 2) for v in b] for b in self.images],
            "image_share": round(self.image_share, 4),
            "visible": self.visible,
            "reason": self.reason,
        }


@dataclass(slots=True)
class PageCheck:
    """One page: its glyph checks, ink without glyphs, visible glyphs without ink."""

    page: int
    dpi: float
    glyphs: list[GlyphCheck] = field(default_factory=list)
    ink_without_glyphs: list[InkRegion] = field(default_factory=list)
    glyphs_without_ink: list[GlyphCheck] = field(default_factory=list)
    ocr_words: int = 0
    not_upright: int = 0  # visible glyphs left out: turned or vertical text (UPRIGHT_SLOPE)
    seconds: float = 0.0
    error: str | None = None
    glyphs_total: int = 0  # every glyph the page paints (judged + not judged)
    skipped: Counter[str] = field(default_factory=Counter)  # glyphs never compared, by NOT_JUDGED reason
    ocr_layer: OcrLayerCheck | None = None  # the invisible OCR layer over the page's images (None: none)
    covered_text: CoveredText | None = None  # hidden text under a stamp-like image: not a layer
    # font id → why the renderer's substitute drew other letters than its codes (FontInfo.substitute)
    substitute_fonts: dict[str, str] = field(default_factory=dict)
    # Set by `settle_pages` once the fonts are judged: the glyphs judged, and the compared glyphs
    # that were not, by reason (no ink read, low confidence, their font's cannot-tell reason …)
    judged: int = 0
    settled: Counter[str] = field(default_factory=Counter)

    def counts(self) -> Counter[GlyphVerdict]:
        return Counter(g.verdict for g in self.glyphs)

    def not_judged(self) -> dict[str, int]:
        """Every glyph of the page not judged, by reason (NOT_JUDGED), most first."""
        merged = self.skipped + self.settled
        return dict(sorted(merged.items(), key=lambda kv: (-kv[1], kv[0])))

    def to_json(self, glyphs: bool = True) -> dict[str, object]:
        c = self.counts()
        out: dict[str, object] = {
            "page": self.page,
            "dpi": self.dpi,
            "error": self.error,
            "seconds": round(self.seconds, 3),
            "ocr_words": self.ocr_words,
            "not_upright": self.not_upright,
            "glyphs_total": self.glyphs_total,
            "judged": self.judged,
            "not_judged": self.not_judged(),
            "ocr_layer": None if self.ocr_layer is None else self.ocr_layer.to_json(words=glyphs),
            "covered_text": None if self.covered_text is None else self.covered_text.to_json(),
            "counts": {v.value: c.get(v, 0) for v in GlyphVerdict},
            "ink_without_glyphs": [r.to_json() for r in self.ink_without_glyphs],
            "glyphs_without_ink": [
                {"paint_index": g.paint_index, "decoded": g.decoded, "bbox": [round(v, 2) for v in g.bbox]}
                for g in self.glyphs_without_ink
            ],
        }
        if glyphs:
            out["glyphs"] = [g.to_json() for g in self.glyphs]
        return out


@dataclass(slots=True)
class VerifyResult:
    """Every page read and every font over them: what `glyphscope verify` reports."""

    pages: list[PageCheck]
    fonts: list[FontCheck]
    lang: str
    dpi: float

    def font(self, font_id: str) -> FontCheck:
        for f in self.fonts:
            if f.font_id == font_id:
                return f
        raise KeyError(font_id)


# ---------------------------------------------------------------------------- one page


@dataclass(slots=True)
class _Sorted:
    """A page's glyphs sorted for the check: what is compared and why the rest is not."""

    visible: list[Glyph] = field(default_factory=list)  # visible, upright, large enough: compared
    # invisible by render mode (Tr 3/7) or alpha 0, on an image, upright (spaces kept): a layer by intent
    layer: list[Glyph] = field(default_factory=list)
    hidden_by: Counter[str] = field(default_factory=Counter)  # of `layer`: glyphs per visibility class
    # covered or the colour of what is under them, by the image they lie under (index into the
    # page's images), upright (spaces kept): a layer only if the image holds the page
    under: dict[int, list[Glyph]] = field(default_factory=lambda: defaultdict(list))
    visible_text: int = 0  # the page's visible glyphs, spaces left out (compared or not)
    turned: int = 0  # visible glyphs left out as not upright
    skipped: Counter[str] = field(default_factory=Counter)


def _is_space(text: str) -> bool:
    return bool(text) and (text.isspace() or all(ord(c) <= 0x20 for c in text))


def _upright(g: Glyph, matrix: Matrix) -> bool:
    a, b, c, d = matrix[:4]
    dx, dy = g.direction
    x, y = a * dx + c * dy, b * dx + d * dy  # the writing direction in the image
    return g.wmode == 0 and x > 0.0 and abs(y) <= UPRIGHT_SLOPE * x


def _contains(im: PaintObject, point: tuple[float, float]) -> bool:
    """Whether `point` (user space) lies on the image `im` (its parallelograms, even-odd)."""
    x, y = point
    b = im.bbox
    if not (b[0] <= x <= b[2] and b[1] <= y <= b[3]):
        return False
    for poly in im.polygons:
        inside = False
        x0, y0 = poly[-1] if poly else (0.0, 0.0)
        for x1, y1 in poly:
            if (y0 <= y) != (y1 <= y) and x < x0 + (y - y0) / (y1 - y0) * (x1 - x0):
                inside = not inside
            x0, y0 = x1, y1
        if inside:
            return True
    return False


def _on_image(point: tuple[float, float], images: Sequence[PaintObject]) -> bool:
    """Whether `point` (user space) lies on one of the `images`."""
    return any(_contains(im, point) for im in images)


def _image_of(g: Glyph, images: Sequence[PaintObject]) -> int | None:
    """The image a hidden glyph lies under or on (index into `images`): the first painted over its
    centre after it (what covers it), else the last painted under it; None when on no image."""
    before = None
    for k, im in enumerate(images):
        if not _contains(im, g.center):
            continue
        if im.glyphs_before > g.paint_index:
            return k
        before = k
    return before


def _area_share(box: Rect, page: Rect) -> float:
    """The share of `page`'s area that `box` covers (0 for an empty page)."""
    whole = _area(page)
    if whole <= 0.0:
        return 0.0
    return _intersection(box, page) / whole


def _height(box: Rect) -> float:
    return box[3] - box[1]


def _candidates(analysis: PageAnalysis, matrix: Matrix) -> _Sorted:
    """Every glyph of the page sorted: the visible glyphs compared with their ink, the hidden ones
    on an image (an OCR layer, compared with the scan), and the rest counted by reason."""
    from glyphscope.core.glyph import GlyphStatus
    from glyphscope.core.visibility_class import VisibilityClass

    classified = analysis.classified
    classes = classified.visibility.classes if classified.visibility else None
    images = [p for p in analysis.page.paints if p.kind in (PaintKind.IMAGE, PaintKind.INLINE_IMAGE)]
    out = _Sorted()
    skipped = out.skipped
    for g, status in zip(classified.glyphs, classified.status):
        if status is GlyphStatus.CULLED:
            skipped["culled"] += 1
            continue
        if status is GlyphStatus.DUPLICATE:
            skipped["duplicate"] += 1
            continue
        if status is GlyphStatus.EXCLUDED:
            skipped["excluded"] += 1
            continue
        kind = VisibilityClass(classes[g.paint_index]) if classes is not None else VisibilityClass.VISIBLE
        if status is GlyphStatus.CLIPPED or kind is VisibilityClass.CLIPPED:
            skipped["clipped"] += 1
            continue
        space = _is_space(
            g.unicode
        )  # a space paints no ink ("" unresolved glyphs stay: their ink is what we want)
        if kind is not VisibilityClass.VISIBLE:
            by_intent = kind in (VisibilityClass.INVISIBLE_MODE, VisibilityClass.TRANSPARENT)
            image = (0 if _on_image(g.center, images) else None) if by_intent else _image_of(g, images)
            if image is None:
                skipped["space" if space else "invisible_without_image"] += 1
                continue
            if space:
                skipped["space"] += 1  # spaces stay: they cut the layer into words
            elif not _upright(g, matrix):
                skipped["not_upright"] += 1
                continue
            if by_intent:
                out.layer.append(g)
                if not space:
                    out.hidden_by[kind.value] += 1
            else:
                out.under[image].append(g)
            continue
        if not space:
            out.visible_text += 1
        if space:
            skipped["space"] += 1
        elif not _upright(g, matrix):
            out.turned += 1  # Tesseract reads upright lines: turned text is not compared
            skipped["not_upright"] += 1
        elif _height(quad_bbox(g.quad, matrix)) < MIN_GLYPH_PIXELS:
            skipped["too_small"] += 1
        else:
            out.visible.append(g)
    return out


@dataclass(slots=True)
class _LayerChoice:
    """Which hidden glyphs on images are taken for an OCR layer, on what evidence."""

    glyphs: list[Glyph]  # paint order, spaces kept
    evidence: str  # why they are taken for a layer, in words
    doubt: str | None  # set when the evidence is mixed: the layer's verdict is cannot tell
    covered: CoveredText | None
    covered_glyphs: frozenset[int] = frozenset()  # paint indices of the covered text's glyphs


def _choose_layer(sorted_: _Sorted, images: Sequence[PaintObject], page_box: Rect) -> _LayerChoice:
    """What makes hidden glyphs an OCR layer, with evidence (the rest counted in sorted_.skipped):

    * invisible by intent — render mode 3 or 7, or alpha 0 — over an image: a layer;
    * hidden under an image (covered by it, or the colour of what is under it) that holds the page:
      it covers ≥ LAYER_IMAGE_MIN_SHARE of the page and more text lies hidden under it than is
      visible on the whole page: a layer (a scan painted over its own text, no Tr 3);
    * hidden under an image that does neither: covered text (a stamp, a logo or a signature over
      visible text), not compared with the OCR of the image;
    * one but not the other: mixed evidence; such glyphs are the layer only when nothing else is
      (and its verdict is then cannot tell, the reason in words), else counted as mixed_evidence."""
    evidence: list[str] = []
    for kind, words in (("invisible_mode", "by render mode (Tr 3 or 7)"), ("transparent", "by alpha 0")):
        if sorted_.hidden_by.get(kind):
            evidence.append(f"{sorted_.hidden_by[kind]} glyphs invisible {words} over an image")
    clear: list[Glyph] = list(sorted_.layer)
    mixed: list[Glyph] = []
    doubts: list[str] = []
    covered_n, covered_boxes, covered_share = 0, [], 0.0
    covered_glyphs: set[int] = set()
    visible = sorted_.visible_text
    for k, gs in sorted(sorted_.under.items()):
        n = sum(1 for g in gs if not _is_space(g.unicode))
        if n == 0:
            continue
        share = _area_share(images[k].bbox, page_box)
        big, holds = share >= LAYER_IMAGE_MIN_SHARE, n > visible
        facts = (
            f"{n} glyphs hidden under an image over {100 * share:.0f} % of the page, "
            f"beside {visible} visible glyphs"
        )
        if big and holds:
            clear.extend(gs)
            evidence.append(facts)
        elif not big and not holds:
            covered_n += n
            covered_glyphs.update(g.paint_index for g in gs)
            covered_boxes.append(images[k].bbox)
            covered_share = max(covered_share, share)
        else:
            mixed.extend(gs)
            doubts.append(
                facts
                + (
                    f": the image covers ≥ {100 * LAYER_IMAGE_MIN_SHARE:g} % of the page, but more text "
                    "is visible than lies under it"
                    if big
                    else f": more text lies under it than is visible, but the image covers < "
                    f"{100 * LAYER_IMAGE_MIN_SHARE:g} % of the page"
                )
            )
    covered = None
    if covered_n:
        sorted_.skipped["covered_text"] += covered_n
        covered = CoveredText(
            covered_n,
            tuple(covered_boxes),
            covered_share,
            visible,
            f"{covered_n} glyphs covered by {len(covered_boxes)} image{'s' if len(covered_boxes) > 1 else ''} "
            f"over at most {100 * covered_share:.0f} % of the page (< {100 * LAYER_IMAGE_MIN_SHARE:g} %), "
            f"beside {visible} visible glyphs: text under a stamp, a logo or a signature, not an OCR layer",
        )
    if clear:
        if mixed:
            sorted_.skipped["mixed_evidence"] += sum(1 for g in mixed if not _is_space(g.unicode))
        clear.sort(key=lambda g: g.paint_index)
        return _LayerChoice(clear, "; ".join(evidence), None, covered, frozenset(covered_glyphs))
    mixed.sort(key=lambda g: g.paint_index)
    doubt = "; ".join(doubts) if mixed else None
    return _LayerChoice(mixed, doubt or "", doubt, covered, frozenset(covered_glyphs))


class _Grid:
    """Boxes bucketed in square cells, for the boxes meeting a query box."""

    def __init__(self, boxes: Sequence[Rect], cell: float) -> None:
        self.cell = max(cell, 1.0)
        self.boxes = boxes
        self.cells: dict[tuple[int, int], list[int]] = defaultdict(list)
        for i, b in enumerate(boxes):
            for key in self._keys(b):
                self.cells[key].append(i)

    def _keys(self, b: Rect) -> Iterable[tuple[int, int]]:
        c = self.cell
        for x in range(int(b[0] // c), int(b[2] // c) + 1):
            for y in range(int(b[1] // c), int(b[3] // c) + 1):
                yield (x, y)

    def meeting(self, b: Rect) -> set[int]:
        found: set[int] = set()
        for key in self._keys(b):
            found.update(self.cells.get(key, ()))
        return {i for i in found if _intersection(self.boxes[i], b) > 0.0 or _touches(self.boxes[i], b)}


def _intersection(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _touches(a: Rect, b: Rect) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _area(b: Rect) -> float:
    return max(b[2] - b[0], 0.0) * max(b[3] - b[1], 0.0)


def check_page(analysis: PageAnalysis, ocr: OcrPage, dpi: float) -> PageCheck:
    """Align `ocr` (read from the page image at `dpi`) to the page's glyphs: the page's checks."""
    scale = dpi / 72.0
    frame = analysis.page.boxes  # user space → the page image's pixels (the whole MediaBox, turned)
    matrix = display_matrix(frame.media_box, frame.rotate, scale)
    sorted_ = _candidates(analysis, matrix)
    visible, every, turned = sorted_.visible, list(analysis.classified.glyphs), sorted_.turned
    boxes = [quad_bbox(g.quad, matrix) for g in visible]
    heights = sorted(b[3] - b[1] for b in boxes)
    grid = _Grid(boxes, heights[len(heights) // 2] if heights else 64.0)

    assigned = _assign(ocr, visible, boxes, grid)
    fonts = {(f.font_key, f.form_path): f for f in analysis.page.fonts}
    result = PageCheck(
        analysis.page_number,
        dpi,
        ocr_words=len(ocr.words),
        not_upright=turned,
        glyphs_total=len(every),
        skipped=sorted_.skipped,
        substitute_fonts={
            pf.info.font_id: pf.info.substitute
            for pf in analysis.page.fonts
            if pf.info.substitute is not None
        },
    )
    images = [p for p in analysis.page.paints if p.kind in (PaintKind.IMAGE, PaintKind.INLINE_IMAGE)]
    choice = _choose_layer(sorted_, images, analysis.page.boxes.visible_box)
    result.covered_text = choice.covered
    if choice.glyphs:
        layer_boxes = [quad_bbox(g.quad, matrix) for g in choice.glyphs]
        result.ocr_layer = check_layer(
            choice.glyphs,
            layer_boxes,
            ocr,
            matrix,
            ocr.lang,
            CONFIDENT_READ,
            evidence=choice.evidence,
            doubt=choice.doubt,
        )
    for i, g in enumerate(visible):
        pf = fonts.get((g.font_key, g.form_path))
        font_id = g.font_id or (pf.info.font_id if pf else g.font_key)
        bbox = user_rect(boxes[i], matrix)
        symbols = [ocr.symbols[k] for k in assigned.get(i, ())]
        if not symbols:
            verdict, ink, conf = GlyphVerdict.NO_INK_READ, None, None
        else:
            ink = "".join(s.text for s in symbols)
            conf = min(s.conf for s in symbols)
            same = equivalent_text(g.unicode) == equivalent_text(ink)
            verdict = GlyphVerdict.AGREES if same else GlyphVerdict.INK_READS_OTHER
        result.glyphs.append(
            GlyphCheck(
                analysis.page_number,
                g.paint_index,
                font_id,
                g.font_key,
                g.code,
                g.unicode,
                verdict,
                ink,
                conf,
                bbox,
            )
        )

    # visible glyphs with no ink: centre in no OCR word box. Only glyphs of letters and digits:
    # Tesseract reads no word in dot leaders, rules or stray punctuation, which are drawn all the same
    word_boxes = [_widened(w.box) for w in ocr.words]
    word_grid = _Grid(word_boxes, heights[len(heights) // 2] if heights else 64.0)
    for i, check in enumerate(result.glyphs):
        if not any(c.isalnum() for c in check.decoded):
            continue
        b = boxes[i]
        cx, cy = (b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0
        point = (cx, cy, cx, cy)
        if not any(
            wb[0] <= cx <= wb[2] and wb[1] <= cy <= wb[3]
            for wb in (word_boxes[j] for j in word_grid.meeting(point))
        ):
            result.glyphs_without_ink.append(check)

    # text-like ink meeting no glyph of any kind (hidden ones too: an OCR layer has its glyphs)
    # (covered text is not: the image painted over it shows other ink, a stamp's words)
    all_boxes = [quad_bbox(g.quad, matrix) for g in every if g.paint_index not in choice.covered_glyphs]
    all_grid = _Grid(all_boxes, heights[len(heights) // 2] if heights else 64.0)
    lonely = [
        w
        for w in ocr.words
        if w.conf >= INK_WORD_MIN_CONF
        and any(c.isalnum() for c in w.text)
        and not all_grid.meeting(tuple(float(v) for v in w.box))  # type: ignore[arg-type]
    ]
    result.ink_without_glyphs = [
        InkRegion(user_rect(box, matrix), text, n, conf) for box, text, n, conf in _regions(lonely)
    ]
    return result


def _assign(
    ocr: OcrPage, visible: Sequence[Glyph], boxes: Sequence[Rect], grid: _Grid
) -> dict[int, list[int]]:
    """Glyph (index into `visible`) → its OCR characters (indices into ocr.symbols), in reading order.

    Word by word: Tesseract's word boxes are tight and reliable, its character boxes less so
    (the LSTM engine places some far off). So the glyphs whose centres lie in a word's box, in
    order along the word, take its characters in order when the counts match, a ligature glyph
    taking as many as its text expands to (NFKC: "ﬁ" two). Otherwise each character goes to
    the glyph box covering most of its own box (SYMBOL_MIN_OVERLAP)."""
    assigned: dict[int, list[int]] = defaultdict(list)
    for w in ocr.words:
        start, end = w.symbols
        wbox = _widened(w.box)
        inside = [
            i
            for i in grid.meeting(wbox)
            if wbox[0] <= (boxes[i][0] + boxes[i][2]) / 2.0 <= wbox[2]
            and wbox[1] <= (boxes[i][1] + boxes[i][3]) / 2.0 <= wbox[3]
        ]
        horizontal = (w.box[2] - w.box[0]) >= (w.box[3] - w.box[1]) or len(inside) < 2
        inside.sort(key=lambda i: (boxes[i][0] + boxes[i][2]) if horizontal else (boxes[i][1] + boxes[i][3]))
        widths = [max(1, len(equivalent_text(visible[i].unicode))) for i in inside]
        if inside and sum(widths) == end - start:
            k = start
            for i, n in zip(inside, widths):
                assigned[i].extend(range(k, k + n))
                k += n
            continue
        for k in range(start, end):
            sbox: Rect = tuple(float(v) for v in ocr.symbols[k].box)  # type: ignore[assignment]
            area = _area(sbox)
            if area <= 0.0:
                continue
            best, best_share = -1, SYMBOL_MIN_OVERLAP
            for i in sorted(grid.meeting(sbox)):
                share = _intersection(boxes[i], sbox) / area
                if share > best_share or (best < 0 and share >= best_share):
                    best, best_share = i, share
            if best >= 0:
                assigned[best].append(k)
    return assigned


def _widened(box: tuple[int, int, int, int]) -> Rect:
    m = INK_MARGIN * (box[3] - box[1])
    return (box[0] - m, box[1] - m, box[2] + m, box[3] + m)


def _regions(ws: Sequence[OcrWord]) -> list[tuple[Rect, str, int, float]]:
    """Words merged into regions: words nearer than REGION_GAP × height join (union-find)."""
    parent = list(range(len(ws)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(ws):
        for j in range(i + 1, len(ws)):
            b = ws[j].box
            gap = REGION_GAP * max(a.box[3] - a.box[1], b[3] - b[1])
            if (
                a.box[0] - gap <= b[2]
                and b[0] - gap <= a.box[2]
                and a.box[1] - gap <= b[3]
                and b[1] - gap <= a.box[3]
            ):
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(ws)):
        groups[find(i)].append(i)
    out = []
    for members in groups.values():
        mw = [ws[i] for i in members]
        box: Rect = (
            float(min(w.box[0] for w in mw)),
            float(min(w.box[1] for w in mw)),
            float(max(w.box[2] for w in mw)),
            float(max(w.box[3] for w in mw)),
        )
        out.append((box, " ".join(w.text for w in mw), len(mw), sum(w.conf for w in mw) / len(mw)))
    out.sort(key=lambda r: (r[0][1], r[0][0]))
    return out


# ---------------------------------------------------------------------------- fonts over pages


def check_fonts(
    pages: Sequence[PageCheck], base_fonts: dict[str, str] | None = None, lang: str = "eng"
) -> list[FontCheck]:
    """Per font (by object, `font_id`) over every page: counts, agreement, confusion, verdict and,
    for a wrong mapping, the mapping the ink proposes."""
    by_font: dict[str, list[GlyphCheck]] = defaultdict(list)
    off_ink: set[tuple[int, int]] = set()
    substitutes: dict[str, str] = {}
    for p in pages:
        for g in p.glyphs:
            by_font[g.font_id].append(g)
        off_ink.update((p.page, g.paint_index) for g in p.glyphs_without_ink)
        substitutes.update(p.substitute_fonts)
    return [
        _font_check(fid, checks, (base_fonts or {}).get(fid, ""), lang, off_ink, substitutes.get(fid))
        for fid, checks in by_font.items()
    ]


def settle_pages(pages: Sequence[PageCheck], fonts: Sequence[FontCheck]) -> None:
    """Each page's `judged` and `settled` once its fonts are judged: a compared glyph is judged
    when its read counts (confident, not a noisy code) and its font has a verdict — right, wrong,
    or an agreement between the two; else it is counted under its reason. Likewise the OCR
    layer's checked glyphs, by the layer's verdict."""
    by_id = {f.font_id: f for f in fonts}
    for p in pages:
        settled: Counter[str] = Counter()
        judged = 0
        for g in p.glyphs:
            font = by_id.get(g.font_id)
            if g.verdict is GlyphVerdict.NO_INK_READ:
                settled["no_ink_read"] += 1
            elif not g.confident:
                settled["low_confidence"] += 1
            elif font is not None and g.code in font.noisy_codes:
                settled["noisy_code"] += 1
            elif (
                font is not None
                and font.verdict is FontVerdict.CANNOT_TELL
                and font.reason_key != VerdictReason.BETWEEN
            ):
                settled[font.reason_key] += 1
            else:
                judged += 1
        layer = p.ocr_layer
        if layer is not None:
            settled.update(layer.not_checked)
            if layer.verdict is LayerVerdict.CANNOT_TELL and layer.reason_key != VerdictReason.BETWEEN:
                settled[f"layer_{layer.reason_key}"] += layer.checked
            else:
                judged += layer.checked
        p.judged, p.settled = judged, settled


def _noisy(confident: list[GlyphCheck]) -> frozenset[int]:
    """Codes with NOISY_CODE_MIN_READS confident reads or more, none of whose readings more than
    VOTE_MIN_SHARE of them agree on: a wrong mapping reads one other thing code after code, noise
    reads anything."""
    by_code: dict[int, Counter[str]] = defaultdict(Counter)
    for g in confident:
        by_code[g.code][equivalent_text(g.ink or "")] += 1
    return frozenset(
        code
        for code, reads in by_code.items()
        if (total := sum(reads.values())) >= NOISY_CODE_MIN_READS
        and reads.most_common(1)[0][1] <= VOTE_MIN_SHARE * total
    )


def _consistent(confident: list[GlyphCheck]) -> list[GlyphCheck]:
    """The confident reads without those of noisy codes (`_noisy`)."""
    noisy = _noisy(confident)
    return [g for g in confident if g.code not in noisy] if noisy else confident


def _font_check(
    font_id: str,
    checks: list[GlyphCheck],
    base_font: str,
    lang: str,
    off_ink: set[tuple[int, int]],
    substitute: str | None = None,
) -> FontCheck:
    """One font's verdict; `substitute`: why its ink is a substitute's drawing of other letters
    (FontInfo.substitute), None when the ink is evidence."""
    agrees = sum(1 for g in checks if g.verdict is GlyphVerdict.AGREES)
    other = sum(1 for g in checks if g.verdict is GlyphVerdict.INK_READS_OTHER)
    no_ink = sum(1 for g in checks if g.verdict is GlyphVerdict.NO_INK_READ)
    reads = [g for g in checks if g.verdict is not GlyphVerdict.NO_INK_READ and g.confident]
    noisy = _noisy(reads)
    confident = [g for g in reads if g.code not in noisy] if noisy else reads
    read = [g for g in checks if g.verdict is not GlyphVerdict.NO_INK_READ]
    agreement = (
        sum(1 for g in confident if g.verdict is GlyphVerdict.AGREES) / len(confident) if confident else None
    )
    mean_conf = sum(g.conf or 0.0 for g in read) / len(read) if read else None
    letter_share = (
        sum(1 for g in confident if any(c.isalnum() for c in g.ink or "")) / len(confident)
        if confident
        else None
    )
    foreign = (
        sum(1 for g in confident if foreign_script(g.decoded, lang)) / len(confident) if confident else 0.0
    )
    wordlike = [g for g in checks if any(c.isalnum() for c in g.decoded)]  # what OCR can find in words
    off = sum(1 for g in wordlike if (g.page, g.paint_index) in off_ink) / len(wordlike) if wordlike else 0.0
    if substitute is not None:
        verdict, reason, key = (
            FontVerdict.CANNOT_TELL,
            f"{SUBSTITUTE_REASON}: {substitute}",
            VerdictReason.SUBSTITUTE_RENDERING,
        )
    elif len(confident) < MIN_GLYPHS_READ:
        verdict, reason, key = (
            FontVerdict.CANNOT_TELL,
            f"too few glyphs read: {len(confident)} < {MIN_GLYPHS_READ}",
            VerdictReason.TOO_FEW_GLYPHS,
        )
    elif off > MAX_OFF_INK_SHARE:
        verdict, reason, key = (
            FontVerdict.CANNOT_TELL,
            f"glyphs off the ink: {100 * off:.1f} % lie in no OCR word > {100 * MAX_OFF_INK_SHARE:g} %",
            VerdictReason.OFF_INK,
        )
    elif foreign > MAX_FOREIGN_SHARE:
        verdict, reason, key = (
            FontVerdict.CANNOT_TELL,
            f"script not read: {100 * foreign:.1f} % of the glyphs decode to a script {lang} does not read "
            f"> {100 * MAX_FOREIGN_SHARE:g} %",
            VerdictReason.FOREIGN_SCRIPT,
        )
    elif mean_conf is not None and mean_conf < MIN_MEAN_CONF:
        verdict, reason, key = (
            FontVerdict.CANNOT_TELL,
            f"low confidence: mean {mean_conf:.1f} < {MIN_MEAN_CONF:g}",
            VerdictReason.FONT_LOW_CONFIDENCE,
        )
    elif letter_share is not None and letter_share < MIN_LETTER_SHARE:
        verdict, reason, key = (
            FontVerdict.CANNOT_TELL,
            f"symbols: {100 * letter_share:.1f} % letters or digits < {100 * MIN_LETTER_SHARE:g} %",
            VerdictReason.SYMBOL_FONT,
        )
    elif agreement is not None and agreement >= RIGHT_MIN_AGREEMENT:
        verdict, reason, key = (
            FontVerdict.MAPPING_RIGHT,
            f"agreement {100 * agreement:.1f} % ≥ {100 * RIGHT_MIN_AGREEMENT:g} %",
            VerdictReason.RIGHT,
        )
    elif agreement is not None and agreement <= WRONG_MAX_AGREEMENT:
        verdict, reason, key = (
            FontVerdict.MAPPING_WRONG,
            f"agreement {100 * (agreement or 0.0):.1f} % ≤ {100 * WRONG_MAX_AGREEMENT:g} %",
            VerdictReason.WRONG,
        )
    else:
        verdict, reason, key = (
            FontVerdict.CANNOT_TELL,
            f"agreement {100 * (agreement or 0.0):.1f} % between {100 * WRONG_MAX_AGREEMENT:g} % and "
            f"{100 * RIGHT_MIN_AGREEMENT:g} %",
            VerdictReason.BETWEEN,
        )
    groups: dict[tuple[int, str, str], list[float]] = defaultdict(list)
    for g in checks:
        if g.verdict is GlyphVerdict.INK_READS_OTHER:
            groups[(g.code, g.decoded, g.ink or "")].append(g.conf or 0.0)
    confusion = tuple(
        sorted(
            (
                Confusion(code, dec, ink, len(cs), sum(cs) / len(cs))
                for (code, dec, ink), cs in groups.items()
            ),
            key=lambda c: (-c.count, c.code, c.ink),
        )
    )
    proposed = propose_for(checks) if verdict is FontVerdict.MAPPING_WRONG else None
    keys = tuple(sorted({g.font_key for g in checks}))
    return FontCheck(
        font_id,
        keys,
        base_font,
        len(checks),
        agrees,
        other,
        no_ink,
        len(confident),
        agreement,
        mean_conf,
        letter_share,
        verdict,
        reason,
        confusion,
        proposed,
        ink_is_substitute=substitute is not None,
        reason_key=key,
        noisy_codes=noisy,
    )


def propose_for(checks: Iterable[GlyphCheck]) -> dict[int, str]:
    """Code → Unicode by majority of confident reads (VOTE_MIN_CONF, VOTE_MIN_SHARE) over all
    occurrences; codes without a clear majority are left out."""
    votes: dict[int, Counter[str]] = defaultdict(Counter)
    for g in checks:
        if g.ink and g.conf is not None and g.conf >= VOTE_MIN_CONF:
            votes[g.code][unicodedata.normalize("NFC", g.ink)] += 1
    out: dict[int, str] = {}
    for code, counter in votes.items():
        text, n = counter.most_common(1)[0]
        if n / sum(counter.values()) > VOTE_MIN_SHARE:
            out[code] = text
    return out


def propose_mappings(result: VerifyResult) -> dict[str, dict[int, str]]:
    """For every font whose mapping is wrong: its code → Unicode table from the ink's votes,
    keyed by the font object's id ("12 0 R"; the resource name for a direct font). The API
    `glyphscope repair --from-ocr` reads. A font drawn with the renderer's substitute
    (`FontCheck.ink_is_substitute`) is never mapping_wrong, so its ink proposes nothing."""
    return {f.font_id: dict(f.proposed) for f in result.fonts if f.proposed is not None}


def verify_findings(result: VerifyResult) -> list[Diagnostic]:
    """The check's findings: per page whose invisible OCR layer is wrong, one error with the
    agreement, the threshold and examples of what the layer and the scan read."""
    from glyphscope.inspector.verify.layer import LAYER_WRONG_BELOW

    out = []
    for p in result.pages:
        layer = p.ocr_layer
        if layer is None or layer.verdict is not LayerVerdict.WRONG or layer.agreement is None:
            continue
        examples = layer.examples(3)
        out.append(
            Diagnostic(
                DiagnosticKind.OCR_LAYER_WRONG,
                Severity.ERROR,
                f"the invisible OCR layer does not read what the scan under it shows: {layer.reason}"
                + (f" ({'; '.join(examples)})" if examples else ""),
                page=p.page,
                glyphs=layer.glyph_indices,
                count=layer.glyphs,
                measured=round(layer.agreement, 4),
                threshold=LAYER_WRONG_BELOW,
                data={"words": len(layer.words), "checked": layer.checked, "examples": layer.examples()},
            )
        )
    return out


# ---------------------------------------------------------------------------- a document


def verify_document(
    doc: Document,
    source: str | bytes,
    pages: Sequence[int],
    *,
    lang: str = "eng",
    dpi: float = DEFAULT_DPI,
    password: str | None = None,
    timeout: float | None = None,
    on_page: Callable[[PageCheck], None] | None = None,
) -> VerifyResult:
    """OCR each of `pages` of `doc` (rendered from `source`, the same file, at `dpi`), align it to
    the page's glyphs and judge every font over all of them. A page that fails (rendering, OCR,
    the engine) gets its `error` and the others go on; OcrUnavailable is raised before any page."""
    import time

    from glyphscope.core.analysis import analyze_page
    from glyphscope.inspector.verify.ocr import check_languages

    check_languages(lang)
    checks: list[PageCheck] = []
    base_fonts: dict[str, str] = {}
    for n in pages:
        started = time.perf_counter()
        try:
            analysis = analyze_page(doc, n)
            for pf in analysis.page.fonts:
                base_fonts.setdefault(pf.info.font_id, pf.info.base_font)
            steps = verify_page_steps(
                analysis, source, lang=lang, dpi=dpi, password=password, timeout=timeout
            )
            while True:
                try:
                    next(steps)
                except StopIteration as done:
                    check = done.value
                    break
        except Exception as exc:  # one page never takes down the rest
            check = PageCheck(n, dpi, error=str(exc) or type(exc).__name__)
        check.seconds = time.perf_counter() - started
        checks.append(check)
        if on_page is not None:
            on_page(check)
    fonts = check_fonts(checks, base_fonts, lang)
    settle_pages(checks, fonts)
    return VerifyResult(checks, fonts, lang, dpi)


VERIFY_STEPS = 3
"""The steps of one page (`verify_page_steps`): render, OCR, align."""


def verify_page_steps(
    analysis: PageAnalysis,
    source: str | bytes,
    *,
    lang: str = "eng",
    dpi: float = DEFAULT_DPI,
    password: str | None = None,
    timeout: float | None = None,
) -> Generator[Progress, None, PageCheck]:
    """One page of `verify_document`, step by step (a job: it yields Progress between the steps, so
    the window can show them and cancel between them): render the page at `dpi`, OCR it, align."""
    from glyphscope.inspector.render.page_images import render_page_image
    from glyphscope.inspector.verify.ocr import OCR_TIMEOUT_SECONDS, run_ocr

    n = analysis.page_number
    yield Progress(0, VERIFY_STEPS, f"page {n}: rendering at {dpi:g} dpi")
    image = render_page_image(source, n, scale=dpi / 72.0, password=password)
    yield Progress(1, VERIFY_STEPS, f"page {n}: reading the ink (Tesseract, {lang})")
    ocr = run_ocr(image, lang, timeout or OCR_TIMEOUT_SECONDS)
    yield Progress(2, VERIFY_STEPS, f"page {n}: aligning {len(ocr.symbols)} characters to the glyphs")
    return check_page(analysis, ocr, dpi)
