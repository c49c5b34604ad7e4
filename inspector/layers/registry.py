"""The layer registry (Qt-free): every overlay layer declared once.

A layer is its key, its legend row (label, colour, tooltip), whether it starts visible, the
text it is drawn from and the text it is counted on, the other names `render --layers` and
the HTML report accept for it, its count and its drawing (inspector/layers/builders.py, in the
Qt-free vocabulary of inspector/layers/shapes.py). The legend, the canvas
(gui/overlays.py turns the shapes into QPainterPaths), the headless image, the report,
`PageFacts.counts.layers` and the tests all read this table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from glyphscope.core.assembly.decision_geometry import NEAR_MISS as NEAR_MISS  # for the legend
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.visibility_class import HIDDEN_CLASSES, VisibilityClass
from glyphscope.inspector.layers import builders as B
from glyphscope.inspector.layers.builders import (  # the colours, re-exported for the legend
    COMPARE_COLOURS as COMPARE_COLOURS,
)
from glyphscope.inspector.layers.builders import (
    FORM_COLOURS as FORM_COLOURS,
)
from glyphscope.inspector.layers.builders import (
    GAP_INSERTED_COLOUR as GAP_INSERTED_COLOUR,
)
from glyphscope.inspector.layers.builders import (
    GAP_NEAR_MISS_COLOUR as GAP_NEAR_MISS_COLOUR,
)
from glyphscope.inspector.layers.builders import (
    GAP_NOT_INSERTED_COLOUR as GAP_NOT_INSERTED_COLOUR,
)
from glyphscope.inspector.layers.builders import (
    PAGE_STREAM_COLOUR as PAGE_STREAM_COLOUR,
)
from glyphscope.inspector.layers.builders import (
    form_colour as form_colour,
)
from glyphscope.inspector.layers.builders import (
    mcid_colour as mcid_colour,
)

if TYPE_CHECKING:
    from glyphscope.inspector.layers.shapes import LayerShapes
    from glyphscope.inspector.views.page_facts import PageFacts

SHOWN = "<shown>"
"""`LayerSpec.texts` / `counted_on`: the text of the mode on screen (its fallback when it has none)."""


@dataclass(frozen=True, slots=True)
class LayerSpec:
    key: str
    label: str  # the legend's row
    colour: str  # "#rrggbb"; layers with several colours give their main one
    default_visible: bool
    tooltip: str
    build: B.Builder  # (facts, mode, spec) -> LayerShapes, or None until what it draws is there
    count: B.Count  # (facts, mode) -> the legend's number, or None (not run: the page is not verified)
    texts: str | None = None  # the mode whose text it is drawn from (SHOWN: the mode on screen)
    counted_on: str | None = None  # the mode whose text it is counted on: pending until assembled
    names: tuple[str, ...] = ()  # other names `render --layers` and the report accept (one may name several)
    live: bool = False  # counted afresh each time: what it counts arrives after the page

    def shapes(self, facts: PageFacts, mode: str) -> LayerShapes | None:
        return self.build(facts, mode, self)


INK_DISAGREES = "ink_disagrees"
INK_WITHOUT_GLYPHS = "ink_without_glyphs"
VERIFY_LAYERS: tuple[str, ...] = (INK_DISAGREES, INK_WITHOUT_GLYPHS)
"""The OCR cross-check's layers: empty (and counted "–") until the page is verified."""


def _hidden(kind: VisibilityClass, label: str, colour: str, default: bool, tooltip: str) -> LayerSpec:
    """A layer of a class a reader cannot see (HIDDEN_CLASSES), keyed by the class."""
    return LayerSpec(
        kind.value, label, colour, default, tooltip, B.visibility_class(kind), B.count_hidden(kind)
    )


LAYERS: tuple[LayerSpec, ...] = (
    LayerSpec(
        "page_boxes",
        "Page boxes",
        "#2e7d32",
        True,
        "Visible box (CropBox ∩ MediaBox) and Bleed/Trim/Art",
        B.page_boxes,
        B.count_page_boxes,
        names=("boxes",),
    ),
    LayerSpec(
        "glyphs",
        "Glyph quads",
        PAGE_STREAM_COLOUR,
        True,
        "Every painted glyph; page stream blue, each form its own colour",
        B.glyph_outlines,
        B.count_glyphs,
        names=("forms",),  # glyph quads are coloured by form; "forms" outlines the form boxes too
    ),
    LayerSpec(
        "form_bboxes",
        "Form BBoxes",
        "#8e24aa",
        False,
        "The /BBox of every Form XObject drawn on the page",
        B.form_bboxes,
        B.count_forms,
        names=("forms",),
    ),
    LayerSpec(
        "annotations",
        "Annotations",
        "#b25e00",
        True,
        "Each annotation's /Rect labelled with its subtype and form field: solid when a viewer draws its "
        "appearance, dashed when not; click the label for its decision, field and appearance stream",
        B.annotation_rects,
        B.count_annotations,
    ),
    LayerSpec(
        "culled",
        "Culled glyphs",
        "#d32f2f",
        True,
        "Box centre outside the visible box: left out of every text mode",
        B.culled,
        B.count_culled,
    ),
    LayerSpec(
        "duplicates",
        "Duplicates",
        "#e91e63",
        True,
        "Dropped by dedupe (underlined, dashed), a ring above the glyph they duplicate",
        B.duplicates,
        B.count_duplicates,
    ),
    LayerSpec(
        "unresolved",
        "Unresolved",
        "#b71c1c",
        True,
        "No Unicode: the decoding chain found nothing",
        B.unresolved,
        B.count_decoded(DecodeSource.UNRESOLVED),
    ),
    LayerSpec(
        "fallback",
        "Fallback-decoded",
        "#f9a825",
        True,
        "Unicode guessed by the fallback step",
        B.fallback,
        B.count_decoded(DecodeSource.FALLBACK),
    ),
    LayerSpec(
        "word_gaps",
        "Word gaps",
        "#2e7d32",
        False,
        "Every gap between consecutive glyphs: space inserted or not",
        B.word_gaps,
        B.count_word_gaps,
        texts=SHOWN,
        counted_on=SHOWN,
    ),
    LayerSpec(
        "line_breaks",
        "Line breaks",
        "#00838f",
        False,
        "Where a new line was started, with displacement and threshold",
        B.line_breaks,
        B.count_line_breaks,
        texts=SHOWN,
        counted_on=SHOWN,
    ),
    LayerSpec(
        "right_to_left",
        "Right to left",
        "#6a1b9a",
        True,
        "Each line with right-to-left letters: an arrow in the order its text is written, the share of "
        "right-to-left letters and the verdict (reordered, kept as painted); click the mark or label "
        "for the line's decision",
        B.right_to_left,
        B.count_right_to_left,
        texts=SHOWN,
        counted_on=SHOWN,
        names=("bidi",),
    ),
    LayerSpec(
        "reading_order",
        "Reading order",
        "#3949ab",
        False,
        "Path through the glyphs in the order of the selected mode, each line numbered left of it",
        B.reading_order,
        B.count_lines,
        texts=SHOWN,
        counted_on=SHOWN,
    ),
    LayerSpec(
        "structure_order",
        "Structure (MCID)",
        "#6d4c41",
        False,
        "Glyphs underlined in their MCID's colour, path in structure order",
        B.structure_order,
        B.count_tagged,
        texts="structure",
        counted_on="structure",
        names=("structure", "mcid"),
    ),
    LayerSpec(
        "columns",
        "Column boxes",
        "#ef6c00",
        False,
        "Columns found by columns mode",
        B.columns,
        B.count_columns,
        texts="columns",
        counted_on="columns",
    ),
    LayerSpec(
        "baselines",
        "Baselines",
        "#00897b",
        False,
        "Baselines of layout mode",
        B.baselines,
        B.count_baselines,
        texts="layout",
        counted_on="layout",
    ),
    LayerSpec(
        "article_beads",
        "Article beads",
        "#5e35b1",
        False,
        "Article-thread bead rectangles, numbered in thread order (articles mode reads them so)",
        B.article_beads,
        B.count_beads,
        texts="articles",
        counted_on="articles",
    ),
    LayerSpec(
        "actual_text",
        "ActualText",
        "#00796b",
        False,
        "Marked-content spans whose /ActualText (or /E) replaces their glyphs' text, with the replacement",
        B.actual_text,
        B.count_actual_text,
        texts="plain",
    ),
    _hidden(
        VisibilityClass.INVISIBLE_MODE,
        "Invisible (Tr 3/7)",
        "#546e7a",
        False,
        "Text render mode 3 or 7: neither filled nor stroked (an OCR layer); kept in text and flagged",
    ),
    _hidden(
        VisibilityClass.CLIPPED,
        "Clipped",
        "#c62828",
        True,
        "No part of the box inside the clipping path: dropped from text like culled glyphs "
        "(select one to see its clip path)",
    ),
    _hidden(
        VisibilityClass.TRANSPARENT,
        "Transparent",
        "#7e57c2",
        True,
        "Filled with fill alpha /ca 0 or through an empty soft mask: kept in text and flagged",
    ),
    _hidden(
        VisibilityClass.SAME_AS_BACKGROUND,
        "Same as background",
        "#ff8f00",
        True,
        "Filled in the colour under it (white on the white page): kept in text and flagged",
    ),
    _hidden(
        VisibilityClass.COVERED,
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
        B.compare,
        B.count_differences,
        live=True,
    ),
    LayerSpec(
        INK_DISAGREES,
        "Ink disagrees",
        "#c2185b",
        False,
        "OCR cross-check: glyphs whose ink reads something else than they decode to, underlined, with the ink's reading "
        "above them where there is room (Verify panel: Verify this page)",
        B.ink_disagrees,
        B.count_verified(INK_DISAGREES),
        live=True,
    ),
    LayerSpec(
        INK_WITHOUT_GLYPHS,
        "Ink without glyphs",
        "#0277bd",
        False,
        "OCR cross-check: text the ink reads where the page has no glyph at all (a scan, text as outlines, a field "
        "without appearance), hatched (Verify panel: Verify this page)",
        B.ink_without_glyphs,
        B.count_verified(INK_WITHOUT_GLYPHS),
        live=True,
    ),
)

LAYER_KEYS: tuple[str, ...] = tuple(layer.key for layer in LAYERS)
VISIBILITY_LAYERS: tuple[str, ...] = tuple(c.value for c in HIDDEN_CLASSES)
"""The layers of the visibility classes, keyed like the classes themselves."""
LAYER_BY_KEY = {layer.key: layer for layer in LAYERS}
COUNTED_ON_TEXTS: tuple[str, ...] = tuple(layer.key for layer in LAYERS if layer.counted_on)
"""Layers counted on a mode's text: pending while it is being assembled (the page is shown first)."""


def texts_ready(facts: PageFacts, needs: str | None, mode: str) -> bool:
    """Whether the text `needs` (a mode, SHOWN, or None: the page alone) is assembled."""
    if needs is None:
        return True
    return facts.modes.shown_ready(mode) if needs == SHOWN else facts.modes.ready(needs)


def count_layers(
    facts: PageFacts, mode: str, live: bool, into: dict[str, int] | None = None
) -> dict[str, int]:
    """The legend's numbers of the `live` (or the other) layers, added to `into` (a layer already
    there is not counted again): a layer whose text is not assembled yet, or whose count is None
    (not run), is left out."""
    counts: dict[str, int] = {} if into is None else into
    for spec in LAYERS:
        if spec.live is live and spec.key not in counts and texts_ready(facts, spec.counted_on, mode):
            n = spec.count(facts, mode)
            if n is not None:
                counts[spec.key] = n
    return counts


def layers_named(name: str) -> tuple[str, ...]:
    """The keys a name stands for: its own layer (any case, "-" for "_"), or every layer that
    answers to it (`LayerSpec.names`); empty when none."""
    n = name.strip().lower().replace("-", "_")
    if n in LAYER_BY_KEY:
        return (n,)
    return tuple(spec.key for spec in LAYERS if n in spec.names)


def keys_in_order(keys: Iterable[str]) -> list[str]:
    """`keys` in the registry's order (the order layers are drawn in, bottom first)."""
    wanted = set(keys)
    return [key for key in LAYER_KEYS if key in wanted]
