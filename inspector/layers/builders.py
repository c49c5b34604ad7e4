"""Each layer's drawing and count, from a page's facts (Qt-free; declared in inspector/layers/registry.py).

A builder is `(facts, mode, spec) -> LayerShapes | None` (None: what it is drawn from is not
there yet, e.g. a page not compared or not verified); a count is `(facts, mode) -> int | None`.
Every closed shape over glyphs is an outline (or a sparse hatch where the letters cannot be
seen anyway); numbers and names sit beside the boxes they name (inspector/layers/shapes.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from glyphscope.core.assembly import (
    Baseline,
    ColumnChangeDecision,
    LineBreakDecision,
    TextColumn,
    VerticalColumn,
    WordGapDecision,
)
from glyphscope.core.assembly.decision_geometry import (
    MIN_HEIGHT,
    baseline_ends,
    gap_mark,
    gap_middle,
    is_near_miss,
)
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.glyph_table import GlyphTable
from glyphscope.core.visibility_class import VisibilityClass
from glyphscope.inspector.compare.causes import RunKind
from glyphscope.inspector.layers.shapes import (
    FADE_FLOOR,
    GAP_FADE_FLOOR,
    Label,
    LayerShapes,
    Marker,
    Place,
    ShapeBuilder,
    Style,
    centre,
    hsv_to_hex,
    normal_point,
    quad_rect,
)

if TYPE_CHECKING:
    from glyphscope.core.geometry import Point, Quad, Rect
    from glyphscope.core.glyph import Glyph
    from glyphscope.core.visibility import HiddenRecord
    from glyphscope.inspector.layers.registry import LayerSpec
    from glyphscope.inspector.views.page_facts import PageFacts

Builder = Callable[["PageFacts", str, "LayerSpec"], LayerShapes | None]
Count = Callable[["PageFacts", str], int | None]

# -- colours shared by several layers (the legend's key rows read them too) ----------------------

PAGE_STREAM_COLOUR = "#1e63d6"  # glyph origins: the page stream, then one per distinct form path
FORM_COLOURS = ("#ef6c00", "#8e24aa", "#00897b", "#c2185b", "#6d4c41", "#5e35b1", "#7cb342", "#0097a7")
COMPARE_COLOURS: dict[str, str] = {  # one colour per difference kind (inspector/compare/align.py KINDS)
    RunKind.MISSING: "#6a1b9a",  # our glyph, not in their text
    RunKind.EXTRA: "#d84315",  # in their text, a glyph we culled or dropped
    RunKind.SPACE: "#0277bd",  # a space on one side only, between these glyphs
    RunKind.ORDER: "#2e7d32",  # in both texts, at another place
    RunKind.CHANGED: "#ad1457",  # the same glyphs read as other characters
}
GAP_INSERTED_COLOUR = "#2e7d32"
GAP_NOT_INSERTED_COLOUR = "#9e9e9e"
GAP_NEAR_MISS_COLOUR = "#ff6d00"
LABEL_BACKGROUND = "#ffffff"

MARK_LIFT = 1.8  # a mark above a glyph sits this many of its radii above the glyph's top edge


def form_colour(index: int) -> str:
    return FORM_COLOURS[index % len(FORM_COLOURS)]


def mcid_colour(mcid: int) -> str:
    """A stable, well-separated hue per MCID (golden-ratio steps)."""
    return hsv_to_hex((mcid * 0.618033988749895) % 1.0, 0.65, 0.85)


def _page_rect(facts: PageFacts) -> Rect:
    return facts.page.boxes.media_box


def _heights(glyphs: GlyphTable) -> list[float]:
    """Every glyph's box height, off the runs."""
    return glyphs.spread(run.height for run in glyphs.runs)


def typical_height(heights: Sequence[float]) -> float:
    """The median of a page's glyph heights (a sample of at most 2,000: enough for a median)."""
    step = max(1, len(heights) // 2000)
    sample = sorted(abs(h) for h in heights[::step])
    return sample[len(sample) // 2] if sample else 0.0


def _top_mark(q: Quad, radius: float) -> Point:
    """A point MARK_LIFT radii above the middle of a quad's top edge (user space, y up)."""
    x0, y0, x1, y1 = quad_rect(q)
    return ((x0 + x1) * 0.5, y1 + radius * MARK_LIFT)


# -- builders -------------------------------------------------------------------------------------


def page_boxes(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    boxes = facts.page.boxes
    b = ShapeBuilder(spec.key, _page_rect(facts))
    b.rect(Style("#757575", 1.0, line_alpha=200), boxes.media_box)
    extra = (
        (boxes.bleed_box, "#1565c0", "BleedBox"),
        (boxes.trim_box, "#c62828", "TrimBox"),
        (boxes.art_box, "#6a1b9a", "ArtBox"),
    )
    for box, colour, name in extra:
        if box is not None:
            b.rect(Style(colour, 1.0, dash=True), box)
            b.labels.append(Label(box, name, colour))
    b.rect(Style(spec.colour, 2.0), boxes.visible_box)
    if boxes.visible_box != boxes.media_box:
        b.labels.append(Label(boxes.visible_box, "visible box", spec.colour))
    return b.finish()


def glyph_outlines(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """Thin outlines in the colour of where each glyph was painted (page stream, or its form)."""
    b = ShapeBuilder(spec.key, _page_rect(facts))
    page_style = Style(PAGE_STREAM_COLOUR, 0.8, line_alpha=120, fades=FADE_FLOOR)
    form_styles = {
        path: Style(colour, 1.0, line_alpha=190, fades=FADE_FLOOR)
        for path, colour in facts.forms.colours.items()
    }
    glyphs = facts.page.glyphs
    geom = glyphs.geom  # the page's columns: no record made for a quad
    for _, run, painted in glyphs.run_ranges():
        style = form_styles.get(run.form_path, page_style) if run.form_path else page_style
        b.quad_rows(style, geom, painted)
    shapes = b.finish()
    shapes.fade_height = typical_height(_heights(glyphs))
    return shapes


def form_bboxes(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    b = ShapeBuilder(spec.key, _page_rect(facts))
    colours = facts.forms.colours
    for form in facts.page.forms:
        colour = colours.get(tuple(form.form_path), FORM_COLOURS[0])
        b.polygon(Style(colour, 1.5, dash=True), form.bbox)
        name = " › ".join(form.form_path) or form.object_id
        outside = f", {form.glyphs_outside_bbox} outside its BBox" if form.glyphs_outside_bbox else ""
        b.labels.append(
            Label(
                quad_rect(form.bbox), f"{name} {form.object_id} ({form.glyph_count} glyphs{outside})", colour
            )
        )
    return b.finish()


def annotation_rects(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """Each annotation's /Rect: solid when a viewer draws it and its text is read, dashed when not;
    labelled above it with its subtype, field and value (or why it is left out). A click inside the
    rect or on its label selects the annotation's decision."""
    b = ShapeBuilder(spec.key, _page_rect(facts))
    for decision in facts.fates.annotation_decisions:
        annotation = decision.annotation
        rect = annotation.rect
        if rect is None:
            continue
        included = decision.included
        b.rect(Style(spec.colour, 1.5 if included else 1.0, dash=not included), rect)
        name = annotation.subtype or "Annot"
        if annotation.field_name:
            name += f" {annotation.field_name} ({annotation.field_type or '?'})"
        if annotation.value:
            name += f" “{annotation.value[:40]}”"
        if not included:
            name += f" — {decision.reason.value.replace('_', ' ')}"
        marker = Marker((rect[0], rect[3]), decision, tuple(decision.glyphs))
        b.labels.append(Label(rect, name, spec.colour, fit=True, target=marker))
        b.markers.append(marker)
        b.shapes.areas.append((rect, marker))
    return b.finish()


def culled(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """Culled glyphs underlined, each run's text written above its first glyph."""
    b = ShapeBuilder(spec.key, _page_rect(facts))
    style = Style(spec.colour, 1.5)
    glyphs = facts.page.glyphs
    for c in facts.classified.culls:
        b.underline(style, glyphs[c.paint_index].quad)
    for run in facts.fates.culled_runs:
        first = glyphs[run.glyphs[0]]
        # Above the run's first glyph, on a light box: readable even off the rendered page.
        b.labels.append(Label(quad_rect(first.quad), run.text, spec.colour, background="#fff3f3"))
        b.markers.append(
            Marker(
                centre(first.quad),
                f"culled run of {len(run.glyphs)} glyphs: “{run.text}” — box centres outside the "
                "visible box, left out of every text mode",
                run.glyphs,
            )
        )
    return b.finish()


def duplicates(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """Each dropped duplicate underlined (dashed), a ring above the glyph it duplicates, linked from
    above its own box (the two often lie on each other: the ring and link never sit on the letters)."""
    b = ShapeBuilder(spec.key, _page_rect(facts))
    dup_style = Style(spec.colour, 1.5, dash=True)
    link_style = Style(spec.colour, 1.2)
    ring_style = Style(spec.colour, 1.5)
    glyphs = facts.page.glyphs
    for d in facts.classified.duplicates:
        dup, kept = glyphs[d.paint_index], glyphs[d.duplicate_of]
        b.underline(dup_style, dup.quad)
        radius = max(abs(kept.height) * 0.08, 0.4)
        k = _top_mark(kept.quad, radius)
        a = _top_mark(dup.quad, radius)
        if math.hypot(a[0] - k[0], a[1] - k[1]) > radius:
            b.segment(link_style, a, k)
        b.mark(ring_style, k, radius)
        # the record's own sentence, with the offsets and tolerances it compared
        b.markers.append(Marker(a, d, (d.paint_index, d.duplicate_of)))
    return b.finish()


def _decode_layer(source: DecodeSource, width: float, dash: bool) -> Builder:
    def build(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
        b = ShapeBuilder(spec.key, _page_rect(facts))
        style = Style(spec.colour, width, line_alpha=255, dash=dash)
        glyphs = facts.page.glyphs  # the page's decode-source column: no record made
        b.underline_rows(style, glyphs.geom, [i for i, s in enumerate(glyphs.source) if s is source])
        return b.finish()

    return build


unresolved = _decode_layer(DecodeSource.UNRESOLVED, 2.0, False)
fallback = _decode_layer(DecodeSource.FALLBACK, 1.5, True)


def structure_order(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """Glyphs underlined in their MCID's colour (untagged dotted grey), the path in structure order,
    "MCID n" above the first glyph of each."""
    b = ShapeBuilder(spec.key, _page_rect(facts))
    view = facts.modes.view("structure")
    if not view.available:
        return b.finish()
    glyphs = facts.page.glyphs
    styles: dict[int, Style] = {}
    untagged = Style("#9e9e9e", 1.0, dot=True)
    first_of: dict[int, int] = {}
    for g in facts.classified.visible:
        if g.mcid is None:
            b.underline(untagged, g.quad)
            continue
        style = styles.get(g.mcid)
        if style is None:
            style = styles[g.mcid] = Style(mcid_colour(g.mcid), 2.0)
        b.underline(style, g.quad)
        first_of.setdefault(g.mcid, g.paint_index)
    _order_arrows(b, facts, view.lines(), spec.colour, "structure")
    for mcid, i in first_of.items():
        b.labels.append(
            Label(quad_rect(glyphs[i].quad), f"MCID {mcid}", mcid_colour(mcid), background=LABEL_BACKGROUND)
        )
    return b.finish()


def columns(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    view = facts.modes.view("columns")
    glyphs = facts.page.glyphs
    b = ShapeBuilder(spec.key, _page_rect(facts))
    for col in view.columns:
        b.polygon(Style(spec.colour, 2.0, dash=True), col.quad)
        b.labels.append(Label(quad_rect(col.quad), f"column {col.column + 1}", spec.colour))
        b.markers.append(Marker(col.quad[3], col, ()))
    split_style = Style(spec.colour, 2.5)
    n = len(glyphs)
    for split in view.splits:
        if not (0 <= split.before < n and 0 <= split.after < n):
            continue
        prev, cur = glyphs[split.before], glyphs[split.after]
        mid = gap_middle(prev, cur)
        b.segment(split_style, mid, normal_point(mid, prev.direction, max(cur.height, 0.5)))
        b.markers.append(Marker(mid, split, (split.before, split.after)))
    return b.finish()


def article_beads(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """Article beads: each bead rectangle, numbered in thread order, from articles mode."""
    from glyphscope.core.assembly.decisions import ArticleBeadRecord

    b = ShapeBuilder(spec.key, _page_rect(facts))
    beads = facts.analysis.texts["articles"].decisions_of(ArticleBeadRecord)
    for bead in beads:
        b.polygon(Style(spec.colour, 2.0, dash=not bead.glyphs), bead.quad)
        b.labels.append(Label(quad_rect(bead.quad), f"bead {bead.number}", spec.colour))
        b.markers.append(Marker(bead.quad[3], bead, bead.glyphs[:1]))
    for thread in sorted({bd.thread for bd in beads}):  # each thread from bead to bead, dotted
        b.polyline(
            Style(spec.colour, 1.0, dot=True), [centre(bd.quad) for bd in beads if bd.thread == thread]
        )
    return b.finish()


def actual_text(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """ActualText spans: their glyphs outlined, the replacement written above the first."""
    from glyphscope.core.assembly.actual_text import SOFT_HYPHEN, ActualTextDecision, written_text

    b = ShapeBuilder(spec.key, _page_rect(facts))
    style = Style(spec.colour, 1.5)
    glyphs = facts.page.glyphs
    applied = {d.span: d for d in facts.analysis.texts["plain"].decisions_of(ActualTextDecision)}
    for span in getattr(facts.page, "actual_text", ()):
        members = range(max(span.first, 0), min(span.last + 1, len(glyphs)))
        for i in members:
            b.quad(style, glyphs[i].quad)
        if not members:
            continue
        first = glyphs[members[0]]
        written = written_text(span.text)
        shown = f"“{written}”" if written else ("soft hyphen" if SOFT_HYPHEN in span.text else "nothing")
        b.labels.append(
            Label(quad_rect(first.quad), f"{span.key_name} {shown}", spec.colour, background="#e0f2f1")
        )
        record = applied.get(span)
        note: Any = record
        if record is None:
            why = (
                "Parameters.actual_text is off"
                if not facts.analysis.params.actual_text
                else "none is visible"
            )
            note = f"the {span.key} {span.text!r} of glyphs #{span.first}–#{span.last} is not written: {why}"
        b.markers.append(Marker(centre(first.quad), note, tuple(members)))
    return b.finish()


def baselines(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    view = facts.modes.view("layout")
    b = ShapeBuilder(spec.key, _page_rect(facts))
    style = Style(spec.colour, 1.0)
    for line in view.baselines:
        start, end = baseline_ends(line)
        b.segment(style, start, end)
        b.markers.append(Marker(start, line, line.glyphs[:1]))
    return b.finish()


def right_to_left(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """Each line holding right-to-left letters: an arrow under it in the order its text is written
    (right to left when reordered or painted so, solid; left to right when kept as painted,
    dashed), a mark at the end the text starts from, labelled with the share and the verdict. A
    click on the mark or the label selects the line's decision, which Glyph details explains."""
    from glyphscope.core.assembly.bidi_lines import bidi_lines

    shown = facts.modes.shown_mode(mode)
    glyphs = facts.page.glyphs
    b = ShapeBuilder(spec.key, _page_rect(facts))
    for line in bidi_lines(facts.analysis.texts[shown], glyphs):
        if not line.glyphs:
            continue
        d = line.decision
        left = min(line.glyphs, key=lambda g: glyphs[g].quad[0][0])
        right = max(line.glyphs, key=lambda g: glyphs[g].quad[1][0])
        height = max(glyphs[g].height for g in line.glyphs)
        drop = 0.12 * height  # just under the descent edge, like an underline
        a = (glyphs[left].quad[0][0], glyphs[left].quad[0][1] - drop)
        z = (glyphs[right].quad[1][0], glyphs[right].quad[1][1] - drop)
        start, end = (z, a) if line.reads_right_to_left else (a, z)
        style = Style(spec.colour, 1.5, dash=not line.reads_right_to_left)
        b.segment(style, start, end)
        ux, uy = end[0] - start[0], end[1] - start[1]
        length = math.hypot(ux, uy) or 1.0
        ux, uy = ux / length, uy / length
        head = min(0.4 * height, length / 3)
        for side in (1.0, -1.0):  # the arrowhead at the end the text reaches last
            b.segment(
                style, end, (end[0] - head * (ux - side * uy * 0.6), end[1] - head * (uy + side * ux * 0.6))
            )
        b.mark(Style(spec.colour, 1.5, disc=True), start, max(height * 0.08, 0.6))
        marker = Marker(start, d, line.glyphs[:1])
        b.markers.append(marker)
        words = (
            f"{'←' if line.reads_right_to_left else '→'} RTL {d.rtl}/{d.strong} {d.verdict.replace('_', ' ')}"
        )
        x0 = min(a[0], z[0])
        x1 = max(a[0], z[0])
        top = max(glyphs[g].quad[2][1] for g in line.glyphs)
        b.labels.append(Label((x0, a[1], x1, top), words, spec.colour, fit=True, target=marker))
    return b.finish()


def count_right_to_left(facts: PageFacts, mode: str) -> int:
    from glyphscope.core.assembly import BidiDecision

    return len(facts.analysis.texts[facts.modes.shown_mode(mode)].decisions_of(BidiDecision))


def word_gaps(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """A tick in every gap of the mode's text, coloured by what was decided; a near miss wider,
    with a ring on its top."""
    view = facts.modes.view(facts.modes.shown_mode(mode))
    glyphs = facts.page.glyphs
    n = len(glyphs)
    b = ShapeBuilder(spec.key, _page_rect(facts))
    inserted = Style(GAP_INSERTED_COLOUR, 1.5)
    not_inserted = Style(GAP_NOT_INSERTED_COLOUR, 1.5, fades=GAP_FADE_FLOOR)  # findable, not a tint
    near_miss = Style(GAP_NEAR_MISS_COLOUR, 3.0)
    near_ring = Style(GAP_NEAR_MISS_COLOUR, 1.5)
    other = Style("#90a4ae", 1.0, dot=True, fades=GAP_FADE_FLOOR)
    markers = b.markers
    for d in view.word_gaps:
        before, after = d.before, d.after
        if not (0 <= before < n and 0 <= after < n):
            continue
        prev, cur = glyphs[before], glyphs[after]
        dx, dy = prev.direction
        mid = gap_middle(prev, cur)
        height = max(cur.height, MIN_HEIGHT)
        top = (mid[0] - dy * (height * 0.85), mid[1] + dx * (height * 0.85))  # normal_point
        near = is_near_miss(d)
        if near:
            style = near_miss
        elif d.inserted:  # the §3 rule or the CJK gap rule generated a space
            style = inserted
        elif d.value is not None:  # a number was compared and no space followed (tracking, CJK pair...)
            style = not_inserted
        else:
            style = other
        b.segment(style, mid, top)
        if near:
            b.mark(near_ring, top, max(height * 0.12, 0.5))
        markers.append(Marker(gap_mark(prev, cur), d, (before, after)))
    shapes = b.finish()
    shapes.fade_height = typical_height(_heights(glyphs))
    return shapes


def line_breaks(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    view = facts.modes.view(facts.modes.shown_mode(mode))
    glyphs = facts.page.glyphs
    n = len(glyphs)
    b = ShapeBuilder(spec.key, _page_rect(facts))
    link = Style(spec.colour, 1.5)
    ring = Style(spec.colour, 1.5)
    for d in view.line_breaks:
        if not d.is_break or not (0 <= d.before < n and 0 <= d.after < n):
            continue
        prev, cur = glyphs[d.before], glyphs[d.after]
        b.segment(link, prev.glyph_end, cur.origin)
        b.mark(ring, cur.origin, max(cur.height * 0.1, 0.5))
        b.markers.append(Marker(cur.origin, d, (d.before, d.after)))
    return b.finish()


def reading_order(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
    """One numbered arrow per line of the mode's text: the order is read from the numbers."""
    shown = facts.modes.shown_mode(mode)
    b = ShapeBuilder(spec.key, _page_rect(facts))
    _order_arrows(b, facts, facts.modes.view(shown).lines(), spec.colour, shown)
    return b.finish()


def _line_ends(glyphs: Sequence[Glyph], line: list[int]) -> tuple[Point, Point, Point, float]:
    """(start, end, unit direction, height) of a line's arrow: first glyph's left to last glyph's right."""
    first, last = glyphs[line[0]], glyphs[line[-1]]
    fq, lq = first.quad, last.quad
    # Just under the baseline, like an underline: the arrow never strikes through the letters.
    below = 0.22
    start = (fq[0][0] + (fq[0][0] - fq[3][0]) * below, fq[0][1] + (fq[0][1] - fq[3][1]) * below)
    end = (lq[1][0] + (lq[1][0] - lq[2][0]) * below, lq[1][1] + (lq[1][1] - lq[2][1]) * below)
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length < 1e-6:
        dx, dy = first.direction
        length = math.hypot(dx, dy) or 1.0
    height = max(max(glyphs[i].height for i in line[:50]), 0.5)
    return start, end, (dx / length, dy / length), height


def _order_arrows(b: ShapeBuilder, facts: PageFacts, lines: list[list[int]], colour: str, mode: str) -> None:
    """Numbered arrows, one per line, under it from its first glyph to its last; the number left of
    the first glyph's box."""
    glyphs = facts.page.glyphs
    n = len(glyphs)
    style = Style(colour, 1.8, line_alpha=210)
    for number, line in enumerate(lines, start=1):
        line = [i for i in line if 0 <= i < n]
        if not line:
            continue
        start, end, (ux, uy), height = _line_ends(glyphs, line)
        b.segment(style, start, end)
        head = min(height * 0.45, max(math.hypot(end[0] - start[0], end[1] - start[1]) * 0.5, height * 0.2))
        for side in (1.0, -1.0):  # the two strokes of the head, ±30° off the shaft
            hx = -ux * 0.866 - side * uy * 0.5
            hy = -uy * 0.866 + side * ux * 0.5
            b.segment(style, end, (end[0] + hx * head, end[1] + hy * head))
        b.shapes.arrows += 1
        text = "".join(glyphs[i].text for i in line[:60]).strip()
        first = quad_rect(glyphs[line[0]].quad)
        b.labels.append(Label(first, str(number), colour, background=LABEL_BACKGROUND, place=Place.LEFT))
        b.markers.append(
            Marker(start, f"{mode} line {number}: “{text}”" + ("…" if len(line) > 60 else ""), tuple(line))
        )


def compare(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes | None:
    """Glyphs where other engines disagree with us, underlined by kind (COMPARE_COLOURS); a space
    difference is a tick between its two glyphs. None until the Compare panel has compared this page
    (compare_page.attach_comparison), so the canvas builds it again once the comparison is there."""
    from glyphscope.inspector.compare.compared_page import comparison_of

    comparison = comparison_of(facts)
    if comparison is None:
        return None
    b = ShapeBuilder(spec.key, _page_rect(facts))
    glyphs = facts.page.glyphs
    n = len(glyphs)
    priority = (
        RunKind.EXTRA,
        RunKind.MISSING,
        RunKind.CHANGED,
        RunKind.ORDER,
        RunKind.SPACE,
    )  # one colour per glyph: the first kind
    styles = {kind: Style(colour, 2.0, line_alpha=255) for kind, colour in COMPARE_COLOURS.items()}
    from glyphscope.inspector.compare.causes import CAUSE_COLOURS
    from glyphscope.inspector.compare.theirs import THEIRS_KEY as THEIRS

    cause_styles = {cause: Style(colour, 2.0, line_alpha=255) for cause, colour in CAUSE_COLOURS.items()}
    for g, found in comparison.glyph_kinds().items():
        if not 0 <= g < n:
            continue
        kinds = {kind for kind, _ in found}
        if kinds == {RunKind.SPACE}:
            continue  # drawn as a tick between the pair below
        theirs = next((d for _, d in found if d.engine == THEIRS), None)
        if theirs is not None:  # the customer's text: drawn by cause (compare/causes.py CAUSE_COLOURS)
            b.underline(cause_styles[theirs.cause], glyphs[g].quad)
            b.markers.append(
                Marker(centre(glyphs[g].quad), f"{theirs.cause}: {theirs.sentence}", theirs.glyphs)
            )
            continue
        kind = next(k for k in priority if k in kinds)
        b.underline(styles[kind], glyphs[g].quad)
        diff = next(d for k, d in found if k == kind)
        b.markers.append(Marker(centre(glyphs[g].quad), diff.sentence, diff.glyphs))
    tick = Style(COMPARE_COLOURS[RunKind.SPACE], 3.0)
    for engine in comparison.engines:
        for d in engine.differences:
            pair = d.run.pair
            if d.kind != RunKind.SPACE or pair is None or not all(0 <= i < n for i in pair):
                continue
            prev, cur = glyphs[pair[0]], glyphs[pair[1]]
            mid = ((prev.glyph_end[0] + cur.origin[0]) * 0.5, (prev.glyph_end[1] + cur.origin[1]) * 0.5)
            style = Style(CAUSE_COLOURS[d.cause], 3.0) if d.engine == THEIRS else tick
            b.segment(style, mid, normal_point(mid, prev.direction, max(cur.height, 0.5)))
            b.markers.append(Marker(mid, d.sentence, d.glyphs))
    return b.finish()


def ink_disagrees(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes | None:
    """Glyphs whose ink reads other (the OCR cross-check), underlined, with what the ink reads above
    each where it fits. None until the page is verified, so the canvas builds it again then."""
    from glyphscope.inspector.verify.view import disagreeing

    result = facts.verification
    if result is None:
        return None
    b = ShapeBuilder(spec.key, _page_rect(facts))
    glyphs = facts.page.glyphs
    style = Style(spec.colour, 2.0)
    for check in disagreeing(result):
        if not 0 <= check.paint_index < len(glyphs):
            continue
        quad = glyphs[check.paint_index].quad
        b.underline(style, quad)
        b.labels.append(Label(quad_rect(quad), check.ink or "", spec.colour, LABEL_BACKGROUND, fit=True))
        b.markers.append(
            Marker(
                centre(quad),
                f"The ink reads “{check.ink}” (confidence {check.conf or 0.0:.0f}); "
                f"the glyph decodes to “{check.decoded}” (code {check.code}, font {check.font_id})",
                (check.paint_index,),
            )
        )
    return b.finish()


def ink_without_glyphs(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes | None:
    """Text the ink reads where the page has no glyph (OCR regions), sparsely hatched: the letters
    under the lines stay readable. None until the page is verified."""
    result = facts.verification
    if result is None:
        return None
    b = ShapeBuilder(spec.key, _page_rect(facts))
    style = Style(spec.colour, 1.5, hatch=True)
    for page in result.pages[:1]:
        for region in page.ink_without_glyphs:
            x0, y0, x1, y1 = region.bbox
            b.rect(style, region.bbox)
            text = region.text if len(region.text) <= 40 else region.text[:39] + "…"
            b.labels.append(Label(region.bbox, f"ink: {text}", spec.colour, LABEL_BACKGROUND, fit=True))
            b.markers.append(
                Marker(
                    ((x0 + x1) / 2.0, (y0 + y1) / 2.0),
                    f"Ink without glyphs: the ink reads “{region.text}” ({region.words} words, mean "
                    f"confidence {region.mean_conf:.0f}) where the page has no glyph",
                    (),
                )
            )
    return b.finish()


# One dash pattern per hidden class, so two classes in one place stay apart beside their colours.
_VISIBILITY_DASH = {
    VisibilityClass.INVISIBLE_MODE: (True, False),  # dashed: an OCR layer over a scan stays quiet
    VisibilityClass.CLIPPED: (False, False),
    VisibilityClass.TRANSPARENT: (False, True),
    VisibilityClass.SAME_AS_BACKGROUND: (False, True),
    VisibilityClass.COVERED: (True, False),
}


def visibility_class(kind: VisibilityClass) -> Builder:
    """A hidden class's glyphs underlined in its colour, one marker per run hidden for the same
    reason whose tooltip says why in words ("present but white on the white page")."""

    def build(facts: PageFacts, mode: str, spec: LayerSpec) -> LayerShapes:
        from glyphscope.core.visibility import why_hidden

        b = ShapeBuilder(spec.key, _page_rect(facts))
        dash, dot = _VISIBILITY_DASH.get(kind, (False, False))
        style = Style(spec.colour, 2.0, line_alpha=255, dash=dash, dot=dot)
        glyphs = facts.page.glyphs
        vis = facts.classified.visibility
        records = [r for r in vis.records if r.kind == kind] if vis is not None else []
        run: list[HiddenRecord] = []
        for r in records:
            b.underline(style, glyphs[r.paint_index].quad)
            if run and (r.paint_index != run[-1].paint_index + 1 or why_hidden(r) != why_hidden(run[0])):
                _hidden_marker(b, facts, run)
                run = []
            run.append(r)
        if run:
            _hidden_marker(b, facts, run)
        return b.finish()

    return build


def _hidden_marker(b: ShapeBuilder, facts: PageFacts, run: list[HiddenRecord]) -> None:
    from glyphscope.core.visibility import why_hidden

    glyphs = facts.page.glyphs
    first = glyphs[run[0].paint_index]
    text = "".join(glyphs[r.paint_index].unicode for r in run[:60])
    fate = "dropped from text" if run[0].dropped else "still in the text"
    b.markers.append(
        Marker(
            centre(first.quad),
            f"{len(run)} glyph{'s' if len(run) != 1 else ''} “{text}”: {why_hidden(run[0])} ({fate})",
            tuple(r.paint_index for r in run),
        )
    )


# -- counts ---------------------------------------------------------------------------------------


def _count(records: Sequence[object], kinds: type | tuple[type, ...]) -> int:
    return sum(1 for r in records if isinstance(r, kinds))


def count_page_boxes(facts: PageFacts, mode: str) -> int:
    boxes = facts.page.boxes
    return 1 + sum(1 for b in (boxes.bleed_box, boxes.trim_box, boxes.art_box) if b is not None)


def count_glyphs(facts: PageFacts, mode: str) -> int:
    return len(facts.page.glyphs)


def count_forms(facts: PageFacts, mode: str) -> int:
    return len(facts.page.forms)


def count_annotations(facts: PageFacts, mode: str) -> int:
    return len(facts.page.annotations)


def count_culled(facts: PageFacts, mode: str) -> int:
    return len(facts.classified.culls)


def count_duplicates(facts: PageFacts, mode: str) -> int:
    return len(facts.classified.duplicates)


def count_decoded(source: DecodeSource) -> Count:
    def count(facts: PageFacts, mode: str) -> int:
        return facts.counts.decode_sources().get(source, 0)

    return count


def count_word_gaps(facts: PageFacts, mode: str) -> int:
    return _count(facts.analysis.texts[facts.modes.shown_mode(mode)].decisions, WordGapDecision)


def count_line_breaks(facts: PageFacts, mode: str) -> int:
    decisions = facts.analysis.texts[facts.modes.shown_mode(mode)].decisions
    return sum(
        1 for d in decisions if isinstance(d, (LineBreakDecision, ColumnChangeDecision)) and d.is_break
    )


def count_lines(facts: PageFacts, mode: str) -> int:
    return len(facts.modes.view(facts.modes.shown_mode(mode)).lines())  # one numbered arrow per line


def count_tagged(facts: PageFacts, mode: str) -> int:
    if facts.analysis.texts["structure"].text is None:
        return 0
    return sum(1 for g in facts.classified.visible if g.mcid is not None)


def count_columns(facts: PageFacts, mode: str) -> int:
    return _count(facts.analysis.texts["columns"].decisions, (TextColumn, VerticalColumn))


def count_baselines(facts: PageFacts, mode: str) -> int:
    return _count(facts.analysis.texts["layout"].decisions, Baseline)


def count_beads(facts: PageFacts, mode: str) -> int:
    from glyphscope.core.assembly.decisions import ArticleBeadRecord

    return len(facts.analysis.texts["articles"].decisions_of(ArticleBeadRecord))


def count_actual_text(facts: PageFacts, mode: str) -> int:
    return len(getattr(facts.page, "actual_text", ()))  # spans with a replacement text


def count_hidden(kind: VisibilityClass) -> Count:
    def count(facts: PageFacts, mode: str) -> int:
        return facts.counts.visibility().get(kind, 0)

    return count


def count_differences(facts: PageFacts, mode: str) -> int:
    from glyphscope.inspector.compare.compared_page import compare_count

    return compare_count(facts)


def count_verified(key: str) -> Count:
    def count(facts: PageFacts, mode: str) -> int | None:
        return facts.counts.verify().get(key)  # None: the page is not verified

    return count
