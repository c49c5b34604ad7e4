"""The overlay layers: their names, colours and what each one counts (Qt-free).

The legend, the canvas, the headless renderer and the tests all read this
table, so a layer is defined exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass

from glyphscope.core.visibility_class import HIDDEN_CLASSES, VisibilityClass


@dataclass(frozen=True, slots=True)
class LayerSpec:
    key: str
    label: str
    colour: str  # "#rrggbb"; layers with several colours give their main one
    default_visible: bool
    tooltip: str


INK_DISAGREES = "ink_disagrees"
INK_WITHOUT_GLYPHS = "ink_without_glyphs"
VERIFY_LAYERS: tuple[str, ...] = (INK_DISAGREES, INK_WITHOUT_GLYPHS)
"""The OCR cross-check's layers: empty (and counted "–") until the page is verified."""

LAYERS: tuple[LayerSpec, ...] = (
    LayerSpec(
        "page_boxes", "Page boxes", "#2e7d32", True, "Visible box (CropBox ∩ MediaBox) and Bleed/Trim/Art"
    ),
    LayerSpec(
        "glyphs",
        "Glyph quads",
        "#1e63d6",
        True,
        "Every painted glyph; page stream blue, each form its own colour",
    ),
    LayerSpec(
        "form_bboxes", "Form BBoxes", "#8e24aa", False, "The /BBox of every Form XObject drawn on the page"
    ),
    LayerSpec(
        "annotations",
        "Annotations",
        "#b25e00",
        True,
        "Each annotation's /Rect labelled with its subtype and form field: solid when a viewer draws its "
        "appearance, dashed when not; click the label for its decision, field and appearance stream",
    ),
    LayerSpec(
        "culled",
        "Culled glyphs",
        "#d32f2f",
        True,
        "Box centre outside the visible box: left out of every text mode",
    ),
    LayerSpec(
        "duplicates", "Duplicates", "#e91e63", True, "Dropped by dedupe, linked to the glyph they duplicate"
    ),
    LayerSpec("unresolved", "Unresolved", "#b71c1c", True, "No Unicode: the decoding chain found nothing"),
    LayerSpec("fallback", "Fallback-decoded", "#f9a825", True, "Unicode guessed by the fallback step"),
    LayerSpec(
        "word_gaps",
        "Word gaps",
        "#2e7d32",
        False,
        "Every gap between consecutive glyphs: space inserted or not",
    ),
    LayerSpec(
        "line_breaks",
        "Line breaks",
        "#00838f",
        False,
        "Where a new line was started, with displacement and threshold",
    ),
    LayerSpec(
        "reading_order",
        "Reading order",
        "#3949ab",
        False,
        "Path through the glyphs in the order of the selected mode",
    ),
    LayerSpec(
        "structure_order",
        "Structure (MCID)",
        "#6d4c41",
        False,
        "Glyphs coloured by MCID, path in structure order",
    ),
    LayerSpec("columns", "Column boxes", "#ef6c00", False, "Columns found by columns mode"),
    LayerSpec("baselines", "Baselines", "#00897b", False, "Baselines of layout mode"),
    LayerSpec(
        "article_beads",
        "Article beads",
        "#5e35b1",
        False,
        "Article-thread bead rectangles, numbered in thread order (articles mode reads them so)",
    ),
    LayerSpec(
        "actual_text",
        "ActualText",
        "#00796b",
        False,
        "Marked-content spans whose /ActualText (or /E) replaces their glyphs' text, with the replacement",
    ),
    # One layer per class a reader cannot see (HIDDEN_CLASSES), keyed by the class.
    LayerSpec(
        VisibilityClass.INVISIBLE_MODE.value,
        "Invisible (Tr 3/7)",
        "#546e7a",
        False,
        "Text render mode 3 or 7: neither filled nor stroked (an OCR layer); kept in text and flagged",
    ),
    LayerSpec(
        VisibilityClass.CLIPPED.value,
        "Clipped",
        "#c62828",
        True,
        "No part of the box inside the clipping path: dropped from text like culled glyphs "
        "(select one to see its clip path)",
    ),
    LayerSpec(
        VisibilityClass.TRANSPARENT.value,
        "Transparent",
        "#7e57c2",
        True,
        "Filled with fill alpha /ca 0 or through an empty soft mask: kept in text and flagged",
    ),
    LayerSpec(
        VisibilityClass.SAME_AS_BACKGROUND.value,
        "Same as background",
        "#ff8f00",
        True,
        "Filled in the colour under it (white on the white page): kept in text and flagged",
    ),
    LayerSpec(
        VisibilityClass.COVERED.value,
        "Covered",
        "#4e342e",
        True,
        "Box centre under a later opaque image or filled path: kept in text and flagged",
    ),
    LayerSpec(
        "compare",
        "Other engines differ",
        "#d84315",
        False,
        "Glyphs where other extractors disagree with glyphscope (Compare panel): missing or extra in "
        "theirs, space or order differs",
    ),
    LayerSpec(
        INK_DISAGREES,
        "Ink disagrees",
        "#c2185b",
        False,
        "OCR cross-check: glyphs whose ink reads something else than they decode to, outlined, with the ink's reading "
        "above them where there is room (Verify panel: Verify this page)",
    ),
    LayerSpec(
        INK_WITHOUT_GLYPHS,
        "Ink without glyphs",
        "#0277bd",
        False,
        "OCR cross-check: text the ink reads where the page has no glyph at all (a scan, text as outlines, a field "
        "without appearance), hatched (Verify panel: Verify this page)",
    ),
)

LAYER_KEYS: tuple[str, ...] = tuple(layer.key for layer in LAYERS)
VISIBILITY_LAYERS: tuple[str, ...] = tuple(c.value for c in HIDDEN_CLASSES)
"""The layers of the visibility classes, keyed like the classes themselves."""
LAYER_BY_KEY = {layer.key: layer for layer in LAYERS}

NEAR_MISS = 0.2  # a gap within ±20 % of its threshold is a near miss

# Colours of glyph origins: the page stream first, then one per distinct form path.
PAGE_STREAM_COLOUR = "#1e63d6"
FORM_COLOURS = ("#ef6c00", "#8e24aa", "#00897b", "#c2185b", "#6d4c41", "#5e35b1", "#7cb342", "#0097a7")

# Compare layer: one colour per difference kind (inspector/compare_align.py KINDS).
COMPARE_COLOURS = {
    "missing": "#6a1b9a",  # our glyph, not in their text
    "extra": "#d84315",  # in their text, a glyph we culled or dropped
    "space": "#0277bd",  # a space on one side only, between these glyphs
    "order": "#2e7d32",  # in both texts, at another place
    "changed": "#ad1457",  # the same glyphs read as other characters
}

# Word-gap markers.
GAP_INSERTED_COLOUR = "#2e7d32"
GAP_NOT_INSERTED_COLOUR = "#9e9e9e"
GAP_NEAR_MISS_COLOUR = "#ff6d00"


def form_colour(index: int) -> str:
    return FORM_COLOURS[index % len(FORM_COLOURS)]


def mcid_colour(mcid: int) -> str:
    """A stable, well-separated hue per MCID (golden-ratio steps)."""
    hue = (mcid * 0.618033988749895) % 1.0
    return _hsv_to_hex(hue, 0.65, 0.85)


def _hsv_to_hex(h: float, s: float, v: float) -> str:
    i = int(h * 6.0) % 6
    f = h * 6.0 - int(h * 6.0)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    r, g, b = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
