"""The invisible OCR layer of a scan, checked against the scan under it (no Qt).

A layer glyph is a glyph a reader cannot see whose centre lies on an image the page paints,
taken for a layer on evidence (check._choose_layer): invisible by intent (render mode 3 or 7,
alpha 0), or hidden under an image that holds the page (covers half of it and more text than
the page shows). Hidden under a small image over visible text (a stamp) is covered text, not a
layer; mixed evidence gives cannot tell. The rendered page shows the image, so what Tesseract
reads there is the scan, and the layer's text should say the same. OCR layers are written word by word, so words are compared, not characters:

* the layer's glyphs (paint order) are cut into words at spaces, at a gap wider than
  LAYER_WORD_GAP × the glyph's height, and where the line changes;
* a layer word and an OCR word meet when their boxes overlap, across and down, by at least
  LAYER_MIN_OVERLAP of the narrower (and of the shorter) one; the words that meet, layer and
  OCR alike, form one unit (a layer word Tesseract read as two is one unit, not two errors);
* a unit is compared when every OCR word of it was read with confidence ≥ check.CONFIDENT_READ and
  it holds a letter or digit; the two sides agree when their letters and digits are the same,
  case and accents left aside (punctuation, case and accents are Tesseract's commonest slips
  on a right layer).

The layer's agreement is the agreeing share of the compared units; its verdict right (≥
LAYER_RIGHT_MIN_AGREEMENT), wrong (< LAYER_WRONG_BELOW) or cannot tell (between, too few units,
low confidence, a script the OCR language does not read). A wrong layer is a finding (error).
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from glyphscope.core.geometry import Matrix, Rect
from glyphscope.core.page_space import user_rect
from glyphscope.inspector.verify.ocr import foreign_script

if TYPE_CHECKING:
    from glyphscope.core.glyph import Glyph
    from glyphscope.inspector.verify.ocr import OcrPage

LAYER_WORD_GAP = 0.3
"""Two layer glyphs of one line farther apart than this × the glyph's height are two words."""
LAYER_MIN_OVERLAP = 0.5
"""A layer word and an OCR word meet when they overlap by at least this share of the narrower one
across and of the shorter one down."""
LAYER_MIN_UNITS = 8
"""Fewer compared words than this: cannot tell (too few words read)."""
LAYER_MIN_MEAN_CONF = 75.0
"""Compared words read with a mean confidence below this: cannot tell (low confidence)."""
LAYER_RIGHT_MIN_AGREEMENT = 0.90
"""Agreement at least this: the layer is right."""
LAYER_WRONG_BELOW = 0.75
"""Agreement below this: the layer is wrong (between the two: cannot tell)."""
MAX_EXAMPLES = 5
"""Disagreeing words quoted in a layer's examples."""

LAYER_THRESHOLDS = {
    "layer_word_gap": LAYER_WORD_GAP,
    "layer_min_overlap": LAYER_MIN_OVERLAP,
    "layer_min_units": LAYER_MIN_UNITS,
    "layer_min_mean_conf": LAYER_MIN_MEAN_CONF,
    "layer_right_min_agreement": LAYER_RIGHT_MIN_AGREEMENT,
    "layer_wrong_below": LAYER_WRONG_BELOW,
}


class LayerVerdict(StrEnum):
    RIGHT = "right"
    WRONG = "wrong"
    CANNOT_TELL = "cannot_tell"


class VerdictReason(StrEnum):
    """The kind of reason behind an OCR layer's or a font's verdict (`reason_key` in JSON)."""

    RIGHT = "right"  # agreement at or above the right threshold
    WRONG = "wrong"  # agreement at or below the wrong threshold
    BETWEEN = "between"  # agreement between the two: cannot tell
    TOO_FEW_WORDS = "too_few_words"  # the layer: too few words read to judge
    FOREIGN_SCRIPT = "foreign_script"  # most of it in a script the OCR language does not read
    LOW_CONFIDENCE = "low_confidence"  # the layer: the OCR's mean confidence too low
    SUBSTITUTE_RENDERING = "substitute_rendering"  # a font: drawn by the renderer's substitute
    TOO_FEW_GLYPHS = "too_few_glyphs"  # a font: too few glyphs read confidently
    OFF_INK = "off_ink"  # a font: too many glyphs in no OCR word
    FONT_LOW_CONFIDENCE = "font_low_confidence"  # a font: the OCR's mean confidence too low
    SYMBOL_FONT = "symbol_font"  # a font: too few letters or digits to read
    MIXED_EVIDENCE = "mixed_evidence"  # the layer: mixed evidence that it is an OCR layer at all


def letters(text: str) -> str:
    """What a layer word and an OCR word are compared by: letters and digits only, casefolded,
    accents left aside (NFKD without its combining marks: Tesseract's Latin languages read "é"
    as "e" often enough, and a layer that drops an accent is not garbage)."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in folded if c.isalnum())


@dataclass(frozen=True, slots=True)
class LayerWord:
    """One compared unit: the layer's words and the OCR words that meet them. `bbox` user space."""

    layer: str  # what the layer reads (its words joined by spaces, left to right)
    ink: str  # what the scan reads
    conf: float  # the lowest confidence of its OCR words
    agrees: bool
    glyphs: tuple[int, ...]  # paint indices of the layer glyphs
    bbox: Rect

    def example(self) -> str:
        return f"layer reads '{self.layer}', the scan reads '{self.ink}'"

    def to_json(self) -> dict[str, object]:
        return {
            "layer": self.layer,
            "ink": self.ink,
            "conf": round(self.conf, 1),
            "agrees": self.agrees,
            "glyphs": list(self.glyphs),
            "bbox": [round(v, 2) for v in self.bbox],
        }


@dataclass(frozen=True, slots=True)
class OcrLayerCheck:
    """A page's invisible OCR layer against the scan under it."""

    glyphs: int  # layer glyphs (spaces left out)
    checked: int  # of them in a compared word
    words: tuple[LayerWord, ...]  # compared units, in the layer's paint order
    agreement: float | None  # agreeing share of `words`
    mean_conf: float | None
    verdict: LayerVerdict
    reason: str
    reason_key: str  # the reason's kind: right, wrong, between, too_few_words, foreign_script, low_confidence
    not_checked: dict[str, int] = field(default_factory=dict)  # layer glyphs not compared, by reason
    glyph_indices: tuple[int, ...] = ()  # paint indices of every layer glyph
    evidence: str = ""  # why these glyphs are taken for an OCR layer (check._choose_layer), in words

    @property
    def disagreeing(self) -> list[LayerWord]:
        return [w for w in self.words if not w.agrees]

    def examples(self, n: int = MAX_EXAMPLES) -> list[str]:
        return [w.example() for w in self.disagreeing[:n]]

    def to_json(self, words: bool = True) -> dict[str, object]:
        out: dict[str, object] = {
            "glyphs": self.glyphs,
            "checked": self.checked,
            "words": len(self.words),
            "words_agree": sum(1 for w in self.words if w.agrees),
            "agreement": None if self.agreement is None else round(self.agreement, 4),
            "mean_conf": None if self.mean_conf is None else round(self.mean_conf, 1),
            "verdict": self.verdict.value,
            "reason": self.reason,
            "reason_key": self.reason_key,
            "examples": self.examples(),
            "not_checked": dict(sorted(self.not_checked.items())),
            "evidence": self.evidence,
        }
        if words:
            out["compared"] = [w.to_json() for w in self.words]
        return out


def _split_words(glyphs: Sequence[Glyph], boxes: Sequence[Rect]) -> list[list[int]]:
    """The layer's glyphs (paint order, spaces included) cut into words: indices into `glyphs`."""
    words: list[list[int]] = []
    current: list[int] = []
    for i, g in enumerate(glyphs):
        text = g.unicode
        if text and (text.isspace() or all(ord(c) <= 0x20 for c in text)):
            if current:
                words.append(current)
            current = []
            continue
        if current:
            prev = boxes[current[-1]]
            box = boxes[i]
            height = max(prev[3] - prev[1], box[3] - box[1], 1.0)
            same_line = abs((prev[1] + prev[3]) - (box[1] + box[3])) / 2.0 <= 0.5 * height
            gap = box[0] - prev[2]
            if not same_line or gap > LAYER_WORD_GAP * height or box[2] < prev[0]:
                words.append(current)
                current = []
        current.append(i)
    if current:
        words.append(current)
    return words


def _union(boxes: Sequence[Rect]) -> Rect:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _meet(a: Rect, b: Rect) -> bool:
    across = min(a[2], b[2]) - max(a[0], b[0])
    down = min(a[3], b[3]) - max(a[1], b[1])
    if across <= 0 or down <= 0:
        return False
    narrower = max(min(a[2] - a[0], b[2] - b[0]), 1e-6)
    shorter = max(min(a[3] - a[1], b[3] - b[1]), 1e-6)
    return across >= LAYER_MIN_OVERLAP * narrower and down >= LAYER_MIN_OVERLAP * shorter


def check_layer(
    glyphs: Sequence[Glyph],
    boxes: Sequence[Rect],
    ocr: OcrPage,
    matrix: Matrix,
    lang: str,
    min_conf: float,
    *,
    evidence: str = "",
    doubt: str | None = None,
) -> OcrLayerCheck:
    """Compare the layer `glyphs` (paint order, spaces included; `boxes` their boxes in the page
    image's pixels) with what `ocr` read there; an OCR word counts when its confidence is at least
    `min_conf` (check.CONFIDENT_READ: the bar of a visible glyph's read). `evidence`: why the glyphs
    are taken for a layer; `doubt`: why that evidence is mixed — then the verdict is cannot tell,
    whatever the words read (the numbers stay in the reason)."""
    words = _split_words(glyphs, boxes)
    glyph_indices = tuple(glyphs[i].paint_index for w in words for i in w)
    total = len(glyph_indices)
    word_boxes = [_union([boxes[i] for i in w]) for w in words]
    ocr_boxes: list[Rect] = [tuple(float(v) for v in w.box) for w in ocr.words]  # type: ignore[misc]

    # union-find over layer words (0..L-1) and OCR words (L..L+O-1) that meet
    n_layer = len(words)
    parent = list(range(n_layer + len(ocr_boxes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # OCR words by band of rows (a word is in every band its box touches): a layer word is tried
    # against the words of its own bands only, not the whole page
    heights = sorted(b[3] - b[1] for b in ocr_boxes)
    band = max(heights[len(heights) // 2], 1.0) if heights else 1.0
    bands: dict[int, list[int]] = defaultdict(list)
    for j, ob in enumerate(ocr_boxes):
        for k in range(int(ob[1] // band), int(ob[3] // band) + 1):
            bands[k].append(j)
    for i, wb in enumerate(word_boxes):
        tried: set[int] = set()
        for k in range(int(wb[1] // band), int(wb[3] // band) + 1):
            for j in bands.get(k, ()):
                ob = ocr_boxes[j]
                if ob[0] >= wb[2] or ob[2] <= wb[0] or j in tried:
                    continue  # apart across (most of a row), or tried in the band above
                tried.add(j)
                if _meet(wb, ob):
                    parent[find(i)] = find(n_layer + j)
    units: dict[int, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for i in range(n_layer):
        units[find(i)][0].append(i)
    for j in range(len(ocr_boxes)):
        root = find(n_layer + j)
        if root in units:
            units[root][1].append(j)

    not_checked: Counter[str] = Counter()
    compared: list[LayerWord] = []
    foreign_words = 0
    for layer_ids, ocr_ids in units.values():
        glyph_count = sum(len(words[i]) for i in layer_ids)
        if not ocr_ids:
            not_checked["no_ink_read"] += glyph_count
            continue
        layer_ids.sort(key=lambda i: (word_boxes[i][0], word_boxes[i][1]))
        ocr_ids.sort(key=lambda j: (ocr_boxes[j][0], ocr_boxes[j][1]))
        layer_text = " ".join("".join(glyphs[k].unicode for k in words[i]) for i in layer_ids)
        ink_text = " ".join(ocr.words[j].text for j in ocr_ids)
        conf = min(ocr.words[j].conf for j in ocr_ids)
        if conf < min_conf:
            not_checked["low_confidence"] += glyph_count
            continue
        if not letters(layer_text) and not letters(ink_text):
            not_checked["symbols"] += glyph_count
            continue
        if foreign_script(layer_text, lang):
            foreign_words += 1
        box = _union([word_boxes[i] for i in layer_ids] + [ocr_boxes[j] for j in ocr_ids])
        compared.append(
            LayerWord(
                layer_text,
                ink_text,
                conf,
                letters(layer_text) == letters(ink_text),
                tuple(glyphs[k].paint_index for i in layer_ids for k in words[i]),
                user_rect(box, matrix),
            )
        )
    compared.sort(key=lambda w: min(w.glyphs))  # the layer's own order: OCR programs write it as read
    checked = sum(len(w.glyphs) for w in compared)
    agreement = sum(1 for w in compared if w.agrees) / len(compared) if compared else None
    mean_conf = sum(w.conf for w in compared) / len(compared) if compared else None
    verdict, reason, key = _verdict(len(compared), agreement, mean_conf, foreign_words, lang)
    if doubt is not None:
        verdict, key = LayerVerdict.CANNOT_TELL, VerdictReason.MIXED_EVIDENCE
        reason = f"mixed evidence that this is an OCR layer: {doubt} (the words: {reason})"
    return OcrLayerCheck(
        total,
        checked,
        tuple(compared),
        agreement,
        mean_conf,
        verdict,
        reason,
        key,
        dict(not_checked),
        glyph_indices,
        evidence,
    )


def _verdict(
    units: int, agreement: float | None, mean_conf: float | None, foreign: int, lang: str
) -> tuple[LayerVerdict, str, VerdictReason]:
    """(verdict, reason, the reason's kind)."""
    if units < LAYER_MIN_UNITS or agreement is None:
        return (
            LayerVerdict.CANNOT_TELL,
            f"too few words read: {units} < {LAYER_MIN_UNITS}",
            VerdictReason.TOO_FEW_WORDS,
        )
    if foreign > units / 2:
        return (
            LayerVerdict.CANNOT_TELL,
            f"script not read: most of the layer's words are in a script {lang} does not read",
            VerdictReason.FOREIGN_SCRIPT,
        )
    if mean_conf is not None and mean_conf < LAYER_MIN_MEAN_CONF:
        return (
            LayerVerdict.CANNOT_TELL,
            f"low confidence: mean {mean_conf:.1f} < {LAYER_MIN_MEAN_CONF:g}",
            VerdictReason.LOW_CONFIDENCE,
        )
    pct = f"{100 * agreement:.1f} % of {units} words agree"
    if agreement >= LAYER_RIGHT_MIN_AGREEMENT:
        return LayerVerdict.RIGHT, f"{pct} ≥ {100 * LAYER_RIGHT_MIN_AGREEMENT:g} %", VerdictReason.RIGHT
    if agreement < LAYER_WRONG_BELOW:
        return LayerVerdict.WRONG, f"{pct} < {100 * LAYER_WRONG_BELOW:g} %", VerdictReason.WRONG
    return (
        LayerVerdict.CANNOT_TELL,
        f"{pct}: between {100 * LAYER_WRONG_BELOW:g} % and {100 * LAYER_RIGHT_MIN_AGREEMENT:g} %",
        VerdictReason.BETWEEN,
    )
