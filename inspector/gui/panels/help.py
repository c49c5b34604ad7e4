"""Help › How to read the page: a short guide inside the app (legend, decisions, panels, keys).

Built from the tables it describes, so it cannot fall behind them: the layers
and their colours from inspector/layers/registry.py, the thresholds from
core/params.py, the keyboard shortcuts from the window's own actions plus the
stepper's keys, the panels from panels/registry.py.
"""

from __future__ import annotations

import html

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from glyphscope.core.params import DEFAULT_PARAMETERS
from glyphscope.inspector.gui.panels.shared import STEPPER_KEYS
from glyphscope.inspector.layers.registry import LAYERS, NEAR_MISS, PAGE_STREAM_COLOUR

MOUSE = (
    ("Ctrl+wheel", "zoom around the pointer"),
    ("Drag", "pan the page"),
    ("Shift+drag", "probe a rectangle: every glyph in it with its fate (Region probe)"),
    ("Click a glyph", "select it: Glyph details, the text, the table and the stream follow"),
    ("Hover a mark", "the decision's numbers (word gap, line break, duplicate, culled)"),
)

PANELS = (  # (title as in View › Panels, what to read there)
    ("Text", "the page's text in each mode; selecting text selects its glyphs"),
    (
        "Glyph details",
        "every field of the selected glyph and each decision that touched it, with its numbers",
    ),
    (
        "Fonts",
        "the page's fonts; the Codes → Unicode tab lists code → glyph name → CID/GID → Unicode "
        "and the width (where each came from in its tooltip); a selected code lists every step tried",
    ),
    ("Structure tree", "the tagged elements holding content of the page; element ↔ glyphs both ways"),
    (
        "Objects",
        "the whole document's objects (trailer, catalog, pages, form fields, outlines, names); "
        "go to 12 0 R or find a key or value; an object on the page selects its glyphs there",
    ),
    ("Diagnostics", "what looks wrong on the page, worst first; each finding selects its glyphs"),
    ("Region probe, Find", "glyphs in a rectangle; every match of a search, and why one failed"),
    (
        "A panel in front",
        "one that needs more than its third of the side column (Fonts, Diagnostics, …) takes most "
        "of it; another tab of its group, or a squeezed panel brought forward, gives it back",
    ),
    ("Tools (toolbar)", "the panels that start closed; each opens as a tab beside the glyph table:"),
    ("Content stream", "the page's operators; a glyph jumps to the operator that painted it and back"),
    ("Stepper", "run the content stream one operator at a time with the full graphics and text state"),
    ("Tuning, Verify (OCR)", "thresholds changed live; the ink read by Tesseract against every glyph"),
)


def _row(cells: tuple[str, ...], colour: str | None = None) -> str:
    swatch = (
        f"<td><span style='background:{colour}; color:{colour}'>&nbsp;&nbsp;&nbsp;&nbsp;</span></td>"
        if colour
        else ""
    )
    return "<tr>" + swatch + "".join(f"<td style='padding-right:10px'>{c}</td>" for c in cells) + "</tr>"


def shortcuts(window: QWidget | None) -> list[tuple[str, str]]:
    """(keys, what) of every window action with a shortcut, then the stepper's keys."""

    out: list[tuple[str, str]] = []
    if window is not None:
        for action in window.findChildren(QAction):
            keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts())
            text = action.text().replace("&", "").rstrip("…")
            if keys and text:
                out.append((keys, text))
    out.extend((k, f"Stepper: {what}") for k, what in STEPPER_KEYS)
    return sorted(set(out), key=lambda kv: (kv[1].startswith("Stepper"), kv[1].lower()))


def guide_html(window: QWidget | None = None) -> str:
    p = DEFAULT_PARAMETERS
    legend = "".join(
        _row((f"<b>{html.escape(layer.label)}</b>", html.escape(layer.tooltip)), layer.colour)
        for layer in LAYERS
    )
    keys = "".join(_row((f"<code>{html.escape(k)}</code>", html.escape(w))) for k, w in shortcuts(window))
    mouse = "".join(_row((f"<code>{html.escape(k)}</code>", html.escape(w))) for k, w in MOUSE)
    panels = "".join(_row((f"<b>{html.escape(t)}</b>", html.escape(w))) for t, w in PANELS)
    near = int(NEAR_MISS * 100)
    return f"""
<h2>How to read the page</h2>
<p>glyphscope interprets the page itself and draws <i>its own decisions</i> over the rendered page.
Each painted glyph is a quad outline: <span style='color:{PAGE_STREAM_COLOUR}'>blue</span> for the
page's content stream, another colour for each Form XObject. What the text of a mode contains is
decided from those glyphs by rules with numbers; every rule can be shown, hovered and clicked.</p>
<ol>
<li>Look at the <b>Layers</b> legend: each layer's count on this page tells what is there
(culled, duplicates, unresolved…). Turn a layer on to see where. A page is shown as soon as its
glyphs are read; its texts follow a moment later (a count of <b>…</b> and a tab saying
<i>Assembling…</i> are on their way, the status bar says when they came).</li>
<li>Read the <b>Text</b> of the mode you need; select the part that looks wrong: its glyphs light up.</li>
<li>Click a glyph: <b>Glyph details</b> says which decisions touched it and with which numbers.</li>
<li>Still unclear? <b>Diagnostics</b> lists the findings; the <b>Stepper</b> shows how the stream
painted it; <b>Fonts</b> shows how its code was decoded.</li>
</ol>
<h3>Legend</h3>
<table>{legend}</table>
<h3>Decisions and their numbers</h3>
<ul>
<li><b>Word gap</b>: a space is inserted between two glyphs when the gap between them is larger than
{p.word_gap:g} × the next glyph's box height (e.g. <i>gap 2.31 pt &gt; 0.15 × 11.2 pt = 1.68 pt</i>). Gaps within
±{near}% of the threshold are <i>near misses</i>, drawn stronger: a small change flips them.</li>
<li><b>Line break</b>: a new line starts when the next glyph moves across the writing direction by
more than {p.line_break:g} × the glyph height.</li>
<li><b>Culled</b>: a glyph whose box centre lies outside the visible box (CropBox ∩ MediaBox) is in
no text mode; the canvas extends past the page to show it.</li>
<li><b>Duplicate</b>: a glyph painted again at (almost) the same place with the same character
(fake bold, shadows) is dropped; a ring above it marks the copy, linked to the glyph it duplicates.</li>
<li><b>Decode source</b>: ToUnicode, encoding CMap, CID collection, Differences, base encoding, font
program, then a <i>fallback</i> guess; <i>unresolved</i> when every step failed (Fonts › Codes
lists each step and what it gave).</li>
<li><b>Columns</b>: columns split where the gap is wider than {p.columns_gap:g} × the mean advance.</li>
</ul>
<p>Thresholds can be changed live in <b>Tuning</b>; the text diff shows what each change does.</p>
<h3>Panels</h3>
<table>{panels}</table>
<h3>Keyboard shortcuts</h3>
<table>{keys}</table>
<h3>Mouse</h3>
<table>{mouse}</table>
"""


class HelpGuide(QDialog):
    def __init__(self, window: QWidget | None = None) -> None:
        super().__init__(window)
        self.setObjectName("help_guide")
        self.setWindowTitle("How to read the page — glyphscope")
        layout = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setObjectName("help_guide.text")
        self.browser.setOpenExternalLinks(False)
        self.browser.setHtml(guide_html(window))
        layout.addWidget(self.browser)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self.resize(760, 700)


def show_guide(window: QWidget) -> HelpGuide:
    """Open (or raise) the guide; one per window (a child of it)."""
    guide = window.findChild(HelpGuide, "help_guide")
    if guide is None:
        guide = HelpGuide(window)
    guide.show()
    guide.raise_()
    return guide
