"""Glyph details: every field of the record, its decode source, and the decisions that touched it."""

from __future__ import annotations

import html
from enum import Enum
from typing import TYPE_CHECKING

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from glyphscope.core.annotations import AnnotationDecision
from glyphscope.core.assembly.actual_text import ActualTextDecision
from glyphscope.core.assembly.bidi import BidiDecision
from glyphscope.core.assembly.bidi_lines import BidiLine, bidi_line_of, bidi_lines
from glyphscope.core.assembly.verdicts import BidiVerdict
from glyphscope.core.decision_protocol import describe
from glyphscope.core.fonts.explain import code_hex
from glyphscope.core.glyph import DecodeSource, Glyph
from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.verify.check import GlyphVerdict
from glyphscope.inspector.verify.view import glyph_checks, ink_summary
from glyphscope.inspector.views.objects import annotation_source
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session

if TYPE_CHECKING:
    from glyphscope.core.decision_protocol import Describable
    from glyphscope.core.page import InterpretedPage, PageFont
    from glyphscope.inspector.views.page_facts import PageFacts

APPEARANCE_CHARS = 6000  # of an annotation's dictionary and appearance stream; Objects has all of it

DECODE_SOURCE_TEXT = {
    DecodeSource.TOUNICODE: "the font's embedded /ToUnicode CMap",
    DecodeSource.ENCODING_CMAP: "the /Encoding CMap, whose CIDs are Unicode (e.g. UniGB-UTF16-H)",
    DecodeSource.CID_COLLECTION: "the character collection's CID → Unicode table (Adobe-GB1/CNS1/Japan1/Korea1)",
    DecodeSource.DIFFERENCES: "a glyph name from /Differences (Adobe Glyph List, uniXXXX, uXXXXX)",
    DecodeSource.BASE_ENCODING: "the base encoding (WinAnsi / MacRoman / Standard / built-in symbol set)",
    DecodeSource.FALLBACK: "a GUESS: no encoding information answered, the code was taken as Latin-1",
    DecodeSource.UNRESOLVED: "nothing: no step of the decoding chain answered (each step below)",
}


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value == value else "nan"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        if value and all(isinstance(v, tuple) for v in value):
            return " ".join("(" + ", ".join(_fmt(x) for x in v) + ")" for v in value)
        return "(" + ", ".join(_fmt(v) for v in value) + ")" if value else "()"
    if isinstance(value, str):
        return repr(value)
    return str(value)


USUAL_VALUES: dict[str, object] = {
    "char_spacing": 0.0,
    "word_spacing": 0.0,
    "horizontal_scaling": 100.0,
    "rise": 0.0,
    "wmode": 0,
    "render_mode": 0,
    "form_path": (),
    "marked_tags": (),
    "mcid": None,
    "form_use": -1,
    "clip_id": -1,
    "fill_id": 0,
    "annotation": -1,
    "outside_form_bbox": False,
    "is_space": False,
}
"""Record fields at the value most glyphs have: listed together on one line, after the rest."""

COMPACT = (
    "p, ul, ol, table { margin-top: 1px; margin-bottom: 1px; }"
    " h3 { margin-top: 0px; margin-bottom: 2px; }"
    " ul, ol { -qt-list-indent: 0; margin-left: 14px; }"
    " table.pairs { font-size: small; }"
)
"""Tight margins and a smaller record: the answer for a selection fits the side column at 1280×800."""

WIDE_VALUE = 24
"""A value longer than this (a quad's four corners) takes a row of its own."""


def bidi_html(line: BidiLine, order_only: bool = False) -> str:
    """A line's right-to-left decision: share, ends, verdict, and the order it explains (the line
    as painted, left to right on the page, and as the text writes it)."""
    d = line.decision
    how = (
        "the text writes it from the right: the line was turned to logical order"
        if d.verdict == BidiVerdict.REORDERED
        else "the text writes it as painted"
    )

    def first(text: str) -> str:  # the characters in stored order, one by one, left to right
        chars = [c if not c.isspace() else "_" for c in text[:10]]
        return "\u202d" + html.escape(" · ".join(chars)) + (" …" if len(text) > 10 else "") + "\u202c"

    # each string alone in its cell: a right-to-left string beside words of ours would be reordered
    # with them; the two strings look alike on screen, their first characters show the order
    order = (
        f"<tr><td>painted</td><td>“{html.escape(line.painted)}”</td></tr>"
        f"<tr><td></td><td>{first(line.painted)}</td></tr>"
        f"<tr><td>written</td><td>“{html.escape(line.written)}”</td></tr>"
        f"<tr><td></td><td>{first(line.written)}</td></tr>"
        f"<tr><td></td><td><i>painted: glyphs left to right on the page; {html.escape(how)}</i></td></tr>"
    )
    if order_only:
        return f"<p><b>Order</b></p><table cellspacing=2>{order}</table>"
    ends = "yes" if d.rtl_ends else "no"
    return (
        f"<p><b>Right to left</b> (line {d.line + 1}): <b>{html.escape(d.verdict.replace('_', ' '))}</b> — "
        f"share {d.rtl} of {d.strong} strong characters = {d.share:.2f} vs {d.share_threshold:g}; "
        f"first and last strong characters right to left: {ends}</p>"
        f"<p style='font-size:small'>{html.escape(describe(d))}</p><table cellspacing=2>{order}</table>"
    )


def _at_default(name: str, value: object) -> bool:
    return name in USUAL_VALUES and value == USUAL_VALUES[name]


def _pairs(rows: list[tuple[str, object]]) -> str:
    """Name-value pairs two to a row (a long value across the row): a record of thirty fields in
    fifteen lines, so Glyph details shows all of it in the room of a side column."""
    cells: list[str] = []
    row: list[str] = []
    for name, value in rows:
        text = html.escape(_fmt(value))
        if len(text) + len(name) > WIDE_VALUE:
            cells.append(f"<tr><td><code>{name}</code>&nbsp;</td><td colspan=3>{text}</td></tr>")
            continue
        row.append(f"<td><code>{name}</code>&nbsp;</td><td>{text}&nbsp;</td>")
        if len(row) == 2:
            cells.append(f"<tr>{''.join(row)}</tr>")
            row = []
    if row:
        cells.append(f"<tr>{''.join(row)}</tr>")
    return f"<table class=pairs cellspacing=0 cellpadding=0>{''.join(cells)}</table>"


ROOM_ELSEWHERE = ("diagnostics",)
"""Selections whose panel shows their record itself (a finding): Glyph details does not take its room."""


class GlyphDetailsPanel(PagePanel):
    wants_room = Signal()  # a selection's record is shown: the window gives it the room it needs

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.browser = QTextBrowser()
        self.browser.setObjectName("details.browser")
        self.browser.document().setDefaultStyleSheet(COMPACT)
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._on_link)
        layout.addWidget(self.browser)
        session.events.selection.connect(self._on_selection)
        session.events.mode.connect(lambda mode: self.refresh())
        session.events.decision.connect(self._on_decision)
        session.events.verified.connect(lambda page: self.refresh())
        self.refresh()

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        self.refresh()
        if (selection or self.session.decision is not None) and source not in ROOM_ELSEWHERE:
            self.wants_room.emit()

    def _on_decision(self, record: object) -> None:
        self.refresh()
        if record is not None:
            self.wants_room.emit()

    def show_page(self, state: PageState) -> None:
        self.refresh()

    def show_no_page(self, state: PageState) -> None:
        self.refresh()

    def _on_link(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("glyph:"):
            self.session.select({int(text[6:])}, "details")

    def text(self) -> str:
        return self.browser.toPlainText()

    def missing_height(self) -> int:
        """How many pixels the record lacks to show whole (0: it fits, or a list of many glyphs is
        shown, which scrolls as lists do)."""
        if len(self.session.selection) > 1:
            return 0
        browser = self.browser
        document = browser.document()
        document.setTextWidth(browser.viewport().width())
        return max(int(document.size().height()) - browser.viewport().height(), 0)

    def refresh(self) -> None:
        facts = self.facts
        selection = sorted(self.session.selection)
        if facts is None:
            self.browser.setHtml("<p><i>No page loaded.</i></p>")
            return
        if not selection and self.session.decision is not None:
            # a decision with no glyph of its own (an annotation a viewer does not draw, a field
            # without glyphs): its numbers are the answer
            self.browser.setHtml(self.decision_html(self.session.decision))
            return
        if not selection:
            self.browser.setHtml(
                "<p><i>Click a glyph on the page, select text in a text panel, or pick a row in the glyph "
                "table to see its record and every decision that touched it.</i></p>"
            )
            return
        decision = self.decision_html(self.session.decision)
        if len(selection) == 1:
            self.browser.setHtml(decision + self.glyph_html(selection[0]))
            return
        glyphs = facts.page.glyphs
        rows = []
        for i in selection[:200]:
            if 0 <= i < len(glyphs):
                g = glyphs[i]
                rows.append(
                    f"<tr><td><a href='glyph:{i}'>#{i}</a></td><td>{html.escape(g.text)}</td>"
                    f"<td>{html.escape(g.font_key)}</td><td>{facts.fates.status_of(i)}</td></tr>"
                )
        more = f"<p>… and {len(selection) - 200} more</p>" if len(selection) > 200 else ""
        # As text: the engine's plain lines of the selected glyphs (culled slugs, duplicates...).
        runs = facts.fates.runs_of(selection[:5000])
        lines = "<br>".join(f"“{html.escape(r.text[:300])}”" for r in runs[:40])
        if len(runs) > 40:
            lines += f"<br>… and {len(runs) - 40} more lines"
        self.browser.setHtml(
            decision + f"<h3>{len(selection)} glyphs selected</h3><p><code>{lines}</code></p>"
            f"<table cellspacing=4><tr><th>#</th><th>text</th><th>font</th><th>status</th></tr>{''.join(rows)}"
            f"</table>{more}"
        )

    def decision_html(self, record: Describable | None) -> str:
        """The selected decision record: its sentence, then verdict, value and threshold as numbers."""
        if record is None:
            return ""
        glyphs = self.facts.page.glyphs if self.facts is not None else ()
        rows = [
            ("kind", html.escape(str(getattr(record, "kind", type(record).__name__)))),
            ("verdict", html.escape(str(getattr(record, "verdict", "")))),
            ("value", html.escape(_fmt(getattr(record, "value", None)))),
            ("threshold", html.escape(_fmt(getattr(record, "threshold", None)))),
        ]
        for name in ("before", "after", "glyph"):
            i = getattr(record, name, None)
            if isinstance(i, int) and 0 <= i < len(glyphs):
                rows.append((name, f"<a href='glyph:{i}'>#{i}</a> {html.escape(repr(glyphs[i].unicode))}"))
        table = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in rows)
        extra = self.annotation_html(record) if isinstance(record, AnnotationDecision) else ""
        if isinstance(record, BidiDecision) and self.facts is not None:
            text = self.facts.analysis.texts[self.facts.modes.shown_mode(self.session.mode)]
            line = next((b for b in bidi_lines(text, self.facts.page.glyphs) if b.decision is record), None)
            extra = bidi_html(line, order_only=True) if line is not None else ""
        return (
            "<div style='background:#fff8e1; padding:4px'>"
            f"<h3>Decision: {html.escape(describe(record))}</h3><table cellspacing=2>{table}</table></div>"
            + extra
        )

    def annotation_html(self, record: AnnotationDecision) -> str:
        """The annotation of an annotation decision: its field, and the dictionary and appearance
        stream a viewer draws (or why it draws none)."""
        a = record.annotation
        rows = [("annotation", f"{a.subtype or '?'} {a.object_id}, /Annots [{a.index}]")]
        if a.field_name or a.field_type:
            rows.append(("field", f"{a.field_name or '(no name)'} — type {a.field_type or '?'}"))
        if a.value:
            rows.append(("value", f"“{a.value}”"))
        if a.state:
            rows.append(("state (/AS)", a.state))
        rows.append(("glyphs", f"{record.glyph_count} painted by its appearance"))
        table = "".join(f"<tr><td><b>{k}</b></td><td>{html.escape(v)}</td></tr>" for k, v in rows)
        facts, document = self.facts, self.session.document
        source = ""
        if facts is not None and document is not None:
            text = annotation_source(document, facts.page.page_number, a.index)
            if len(text) > APPEARANCE_CHARS:
                text = (
                    text[:APPEARANCE_CHARS]
                    + f"\n… ({len(text) - APPEARANCE_CHARS} more characters in Objects)"
                )
            source = f"<pre style='font-size:small'>{html.escape(text)}</pre>"
        return f"<h3>Annotation</h3><table cellspacing=2>{table}</table>{source}"

    def glyph_html(self, i: int) -> str:
        facts = self.facts
        if facts is None:
            return ""
        glyphs = facts.page.glyphs
        if not 0 <= i < len(glyphs):
            return f"<p>Glyph #{i} is not on this page.</p>"
        g: Glyph = glyphs[i]
        status = facts.fates.status_of(i)
        dup = facts.classified.duplicate_of[i]
        char = html.escape(g.unicode) if g.unicode else "<i>unresolved</i>"
        code_point = " ".join(f"U+{ord(c):04X}" for c in g.unicode) or "—"
        parts = [f"<h3>Glyph #{i}: {char} <small>{code_point}</small></h3>"]
        status_line = f"<b>status</b>: {status}"
        if dup is not None:
            status_line += f" — duplicate of <a href='glyph:{dup}'>#{dup}</a>"
        parts.append(
            f"<p>{status_line} · <b>origin</b>: "
            f"{html.escape(' › '.join(g.form_path)) if g.form_path else 'page stream'}<br>"
            f"<b>decoded by</b>: {html.escape(DECODE_SOURCE_TEXT.get(g.decode_source, ''))}"
            f" (<code>{g.decode_source.value}</code>)</p>"
        )
        verification = facts.verification
        if verification is not None:  # the page was verified: what its ink reads
            check = glyph_checks(verification).get(i)
            colour = (
                "#c2185b"
                if check is not None and check.verdict is GlyphVerdict.INK_READS_OTHER
                else "#2e7d32"
            )
            parts.append(
                f"<p><b>ink (OCR)</b>: <span style='color:{colour}'>{html.escape(ink_summary(check))}</span></p>"
            )
        parts.append(self.actual_text_html(facts, i))  # what the text writes for it, first
        if g.decode_source in (DecodeSource.UNRESOLVED, DecodeSource.FALLBACK):
            parts.append(self.chain_html(facts.page, g))
        decisions = facts.fates.explain(i, self.session.mode)
        mode_prefix = f"{self.session.mode}, "  # said once, in the heading
        if decisions:
            items = "".join(f"<li>{html.escape(d.removeprefix(mode_prefix))}</li>" for d in decisions)
            parts.append(f"<p><b>Decisions</b> ({html.escape(self.session.mode)})</p><ul>{items}</ul>")
        else:
            parts.append("<p><b>Decisions</b>: none recorded for this glyph in this mode.</p>")
        bidi = bidi_line_of(
            facts.analysis.texts[facts.modes.shown_mode(self.session.mode)], facts.page.glyphs, i
        )
        if bidi is not None:
            parts.append(bidi_html(bidi))
        fields = [(name, getattr(g, name)) for name in (*Glyph._fields, "center", "advance", "is_space")]
        telling = [(n, v) for n, v in fields if not _at_default(n, v)]
        quiet = [(n, v) for n, v in fields if _at_default(n, v)]
        parts.append(f"<p><b>Record</b></p>{_pairs(telling)}")
        if quiet:  # the fields that say "nothing special", on one wrapped line: the record stays whole
            usual = " · ".join(f"<code>{n}</code> {html.escape(_fmt(v))}" for n, v in quiet)
            parts.append(f"<p style='color:#555; font-size:small'><b>as usual</b>: {usual}</p>")
        font = _font_for(facts.page, g)
        if font is not None:
            info = font.info
            problems = "; ".join(p.message for p in info.problems) or "none"
            descendant = f" / {info.descendant_subtype}" if info.descendant_subtype else ""
            tounicode = f"yes, {info.tounicode_entries} entries" if info.has_tounicode else "no"
            facts_line = " · ".join(
                html.escape(x)
                for x in (
                    f"{info.base_font} ({info.subtype}{descendant})",
                    f"object {info.font_id}",
                    info.encoding,
                    f"ToUnicode {tounicode}",
                    f"widths: {info.widths_source}",
                    "embedded" if info.embedded else "not embedded",
                    f"problems: {problems}",
                )
            )
            parts.append(f"<p><b>Font</b>: <span style='font-size:small'>{facts_line}</span></p>")
        return "".join(parts)

    def actual_text_html(self, facts: PageFacts, i: int) -> str:
        """The /ActualText (or /E) span the glyph is in: its replacement, the glyphs' own text, the key,
        and whether the text of the shown mode writes it ("" when the glyph is in no span)."""
        span = next((s for s in getattr(facts.page, "actual_text", ()) if i in s), None)
        if span is None:
            return ""
        mode = facts.modes.shown_mode(self.session.mode)
        record = next(
            (d for d in facts.analysis.texts[mode].decisions_of(ActualTextDecision) if d.span == span), None
        )
        where = (
            f"instruction {span.token_index}"
            if span.token_index >= 0
            else f"form {' › '.join(span.form_path)}"
        )
        rows = [
            ("key", html.escape(span.key)),
            ("replacement", html.escape(repr(span.text))),
            (
                "glyphs",
                f"<a href='glyph:{span.first}'>#{span.first}</a>–<a href='glyph:{span.last}'>#{span.last}</a>",
            ),
            ("marked content", f"{html.escape(span.tag)} BDC at {html.escape(where)}"),
        ]
        if record is not None:
            rows.append(("replaced", html.escape(repr(record.replaced))))
            rows.append(
                (
                    "written",
                    f"{html.escape(repr(record.written))} at <a href='glyph:{record.glyph}'>#{record.glyph}</a>",
                )
            )
            verdict = f"{mode} text writes the replacement once, in place of these glyphs' own text"
        elif not facts.analysis.params.actual_text:
            verdict = "not written: the ActualText switch is off (Tuning), the glyphs' own text is used"
        else:
            verdict = f"not written: none of the span's glyphs is in the {mode} text (culled or duplicates)"
        table = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in rows)
        return f"<p><b>ActualText</b>: {html.escape(verdict)}</p><table cellspacing=2>{table}</table>"

    def chain_html(self, page: InterpretedPage, g: Glyph) -> str:
        """Every step of the decoding chain tried for this glyph's code and what each gave (the
        explanation Fonts › Codes shows: inspector.views.fonts)."""
        from glyphscope.inspector.views.fonts import chain_lines, glyph_chain

        if self.session.document is None:
            return ""
        try:
            explanation, problem = glyph_chain(self.session.document, page, g)
        except Exception as exc:  # noqa: BLE001 -- a broken font object must not blank the details
            explanation, problem = None, f"the font could not be read again: {type(exc).__name__}: {exc}"
        if explanation is None:
            return f"<p><b>Decoding chain</b>: {html.escape(problem or '')}</p>"
        items = "".join(f"<li>{html.escape(line)}</li>" for line in chain_lines(explanation))
        return (
            f"<p><b>Decoding chain</b> for code <code>{html.escape(code_hex(g.code, g.code_bytes))}</code> "
            f"of {html.escape(g.font_key)} (✔ answered, ✗ gave nothing, · not reached)</p><ol>{items}</ol>"
        )


def _font_for(page: InterpretedPage, g: Glyph) -> PageFont | None:
    fallback = None
    for font in page.fonts:
        if font.font_key == g.font_key:
            if tuple(font.form_path) == tuple(g.form_path):
                return font
            fallback = fallback or font
    return fallback
