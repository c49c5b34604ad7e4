"""The triage report as ONE self-contained HTML file a support engineer can attach to a ticket.

Inline CSS and a few lines of inline JS (sortable summary), page images as
base64 PNG data URIs, no external resource. Everything that comes from a
PDF (file names, text, font names, messages) is escaped: PDF text is hostile.

Per file: its findings (one line each, coloured by severity); for the worst
files also the worst pages rendered by PDFium (inspector.render.page_images, in its own
process) with overlays (the window's own drawing code, when the gui extra is
installed), the fonts of those pages and the text of the worst page in several
modes. When rendering fails the report says so instead of failing.
"""

from __future__ import annotations

import base64
import time
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.triage import FAILED_SCORE, TriageRow
from glyphscope.inspector.compare.report import escaped as e

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.core.triage.rows import TriageFinding

DETAIL_FILES = 20  # files (worst first) that get images, fonts and texts
PAGES_PER_FILE = 3
IMAGE_SCALE = 2.0  # pixels per point: 2× density, shown at 1 px per point (sharp on HiDPI screens)
PAGED_OVER = 200  # files: above this, the report is a summary and each file gets its own page beside it
MAX_FINDINGS_SHOWN = 150
MAX_TEXT_CHARS = 20_000
TEXT_MODES = ("plain", "layout", "auto")
REPORT_LAYERS = ("culled", "duplicates", "forms", "unresolved", "word-gaps")


# ---------------------------------------------------------------- page images


def supported_layers() -> tuple[str, ...]:
    """Layer names inspector.render.page_images accepts (the keys of inspector.layers.registry)."""
    from glyphscope.inspector.layers.registry import LAYER_KEYS

    return LAYER_KEYS


def resolve_layers(wanted: Sequence[str], available: Sequence[str]) -> tuple[set[str], list[str]]:
    """Map user spellings (word-gaps / word_gaps, any case, the registry's other names such as
    "forms", "all") to renderer keys (inspector.layers.registry.layers_named).

    Returns (known keys, unknown names as typed).
    """
    from glyphscope.inspector.layers.registry import layers_named

    offered = set(available)
    known: set[str] = set()
    unknown: list[str] = []
    for w in wanted:
        n = w.strip().lower()
        if not n or n == "none":
            continue
        if n == "all":
            known.update(available)
            continue
        keys = layers_named(n)
        if keys and all(k in offered for k in keys):
            known.update(keys)
        else:
            unknown.append(w.strip())
    return known, unknown


def _render(doc: Document, page: int, scale: float) -> tuple[str, int]:
    """The page with REPORT_LAYERS as a PNG data URI, and the width in CSS pixels to show it at
    (1 px per point, whatever the density)."""
    from glyphscope.inspector.render.layered import page_png

    layers, _unknown = resolve_layers(REPORT_LAYERS, supported_layers())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pikepdf's page-copy notes are not the reader's business here
        data = page_png(doc, page, layers, scale)
    width = int.from_bytes(data[16:20], "big") if data[:8] == b"\x89PNG\r\n\x1a\n" else 0
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii"), round(width / max(scale, 1e-6))


def legend() -> str:
    """What the colours of the page images mean (the layers' own colours, from inspector.layers.registry)."""
    from glyphscope.inspector.layers.registry import (
        FORM_COLOURS,
        GAP_INSERTED_COLOUR,
        GAP_NEAR_MISS_COLOUR,
        GAP_NOT_INSERTED_COLOUR,
        LAYER_BY_KEY,
    )

    layers, _unknown = resolve_layers(REPORT_LAYERS, supported_layers())
    items: list[tuple[str, str, str]] = []
    for k in supported_layers():
        if k not in layers or k not in LAYER_BY_KEY or k == "word_gaps":  # word gaps: by verdict, below
            continue
        spec = LAYER_BY_KEY[k]
        if k != "glyphs":
            items.append((spec.colour, spec.label, spec.tooltip))
            continue
        # glyph quads are coloured by where they were painted: the page stream, then each form
        items.append(
            (spec.colour, "glyphs of the page stream", "glyph quads painted by the page's own content")
        )
        for n, colour in enumerate(FORM_COLOURS[:3], start=1):
            items.append(
                (
                    colour,
                    f"glyphs of form {n}",
                    "glyph quads painted inside a Form XObject, one colour a form",
                )
            )
    if "word_gaps" in layers:
        items.append((GAP_INSERTED_COLOUR, "space inserted", "a word gap where a space was inserted"))
        items.append(
            (GAP_NOT_INSERTED_COLOUR, "no space", "a gap between glyphs where no space was inserted")
        )
        items.append((GAP_NEAR_MISS_COLOUR, "near miss", "a gap within 20 % of its threshold"))
    cells = "".join(
        f'<li title="{e(tip)}"><span class="sw" style="background:{e(colour)}"></span>{e(label)}</li>'
        for colour, label, tip in items
    )
    return f'<ul class="legend" aria-label="colour legend">{cells}</ul>'


# ---------------------------------------------------------------- sections

CSS = """
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em;color:#222;background:#fff}
h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.2em;margin:1.6em 0 .4em;border-bottom:2px solid #ddd}
h3{font-size:1.05em;margin:1em 0 .3em}small,.muted{color:#666}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;
vertical-align:top}th{background:#f1f3f5;cursor:pointer;user-select:none;white-space:nowrap}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.failed td{background:#fdecea}
.sev{display:inline-block;min-width:4.5em;font-weight:600;text-transform:uppercase;font-size:.8em}
.error .sev{color:#b71c1c}.warning .sev{color:#e65100}.info .sev{color:#1565c0}
ul.findings{list-style:none;padding-left:0;margin:.3em 0}ul.findings li{margin:1px 0;padding:1px 4px;
border-left:4px solid #ccc}ul.findings li.error{border-color:#d32f2f;background:#fdecea}
ul.findings li.warning{border-color:#f57c00;background:#fff4e5}ul.findings li.info{border-color:#1976d2}
.kind{color:#444}
pre{background:#f8f9fa;border:1px solid #ddd;padding:6px;overflow:auto;max-height:28em;white-space:pre}
img.page{border:1px solid #999;max-width:100%;height:auto;display:block;margin:.3em 0}
.file{overflow-x:auto}
.rowerror{color:#b71c1c;font-size:.85em;max-width:60em}td a{word-break:break-all}
caption{text-align:left;font-weight:600;padding:.2em 0}
details.group{margin:.2em 0}details.group summary{cursor:pointer}.count{color:#444}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4em 1.2em}
.sw{display:inline-block;width:1em;height:1em;border:1px solid #555;margin-right:.35em;vertical-align:-.15em}
.renderfail{color:#b71c1c}.file{border:1px solid #e0e0e0;border-radius:6px;padding:.2em 1em 1em;
margin:1em 0}.score{font-weight:700}
"""

SORT_JS = """
document.querySelectorAll('table.sortable th').forEach(function(th,i){th.addEventListener('click',function(){
var t=th.closest('table'),b=t.tBodies[0],rows=Array.from(b.rows),d=th.dataset.dir==='a'?'d':'a';th.dataset.dir=d;
rows.sort(function(x,y){var a=x.cells[i].dataset.v,c=y.cells[i].dataset.v;
var p=(a!==undefined&&c!==undefined)?(parseFloat(a)-parseFloat(c)):x.cells[i].textContent.localeCompare(y.cells[i].textContent);
return d==='a'?p:-p;});rows.forEach(function(r){b.appendChild(r);});});});
"""


def _num(value: float | int | None, fmt: str = "{:.1f}") -> str:
    if value is None:
        return '<td class="n">-</td>'
    return f'<td class="n" data-v="{e(value)}">{e(fmt.format(value))}</td>'


@dataclass(frozen=True, slots=True)
class SessionNotes:
    """What the user found and marked in the window, for the report of the open file (Qt-free).

    `find`: Find's explanations of misses ("the words are on page 3 but a space was inserted …");
    `selection`: the selected glyphs and decisions in words; `notes`: free text the user typed."""

    find: tuple[str, ...] = ()
    selection: tuple[str, ...] = ()
    notes: str = ""

    def __bool__(self) -> bool:
        return bool(self.find or self.selection or self.notes.strip())


@dataclass(frozen=True, slots=True)
class _Labels:
    """How files and page text are shown: as they are, or anonymised."""

    anonymise: bool

    def file(self, path: str) -> str:
        if not self.anonymise:
            return path
        from glyphscope.inspector.anonymise import anonymise_path

        return anonymise_path(path)

    def name(self, row: TriageRow) -> str:
        return Path(self.file(row.file)).name if row.file != "-" else "-"

    def text(self, text: str) -> str:
        if not self.anonymise:
            return text
        from glyphscope.inspector.anonymise import anonymise_text

        return anonymise_text(text)

    def message(self, message: str, file: str) -> str:
        if not self.anonymise:
            return message
        from glyphscope.inspector.anonymise import anonymise_message

        return anonymise_message(message, file)


def _summary_table(rows: Sequence[TriageRow], links: Sequence[str], labels: _Labels) -> str:
    head = (
        "<tr><th>score</th><th>file</th><th>pages</th><th>glyphs</th><th>% culled</th><th>% dup</th>"
        '<th>% forms</th><th>% unres.</th><th title="glyphs of fonts whose text is garbled">% garbled</th>'
        '<th title="glyphs a reader cannot see: invisible, clipped, transparent, same as background, covered">'
        '% hidden</th><th title="fonts without ToUnicode that lost text, of all without">'
        "no ToUnicode</th><th>structure</th><th>errors</th><th>warn.</th><th>infos</th></tr>"
    )
    body = []
    for r, href in zip(rows, links):
        link = f'<a href="{e(href)}">{e(labels.name(r))}</a>'
        if r.failed:
            # The same cells as any row (the sort script indexes them); the error under the name.
            error = f'<div class="rowerror">{e(labels.message(r.error or "", r.file))}</div>'
            body.append(
                f'<tr class="failed">{_num(r.score)}<td>{link}{error}</td>'
                + '<td class="n" data-v="-1">-</td>' * 9
                + "<td>-</td>"
                + '<td class="n" data-v="-1">-</td>' * 3
                + "</tr>"
            )
            continue
        sev = r.findings_by_severity
        struct = "-" if r.structure_usable is None else ("usable" if r.structure_usable else "unusable")
        body.append(
            f"<tr>{_num(r.score)}<td>{link}</td>{_num(r.pages, '{}')}{_num(r.glyphs, '{}')}"
            f"{_num(r.pct_culled)}{_num(r.pct_duplicates)}{_num(r.pct_from_forms)}{_num(r.pct_unresolved)}"
            f"{_num(r.pct_garbled)}{_num(sum(r.pct_hidden.values()))}"
            f'<td class="n" data-v="{r.fonts_without_tounicode}">{r.fonts_without_tounicode} of '
            f"{r.fonts_without_tounicode_total}</td><td>{e(struct)}</td>"
            f"{_num(sev.get('error', 0), '{}')}{_num(sev.get('warning', 0), '{}')}{_num(sev.get('info', 0), '{}')}"
            "</tr>"
        )
    return (
        '<table class="sortable" id="summary"><caption>Files, worst first (click a column to sort)</caption>'
        f"<thead>{head}</thead><tbody>{''.join(body)}</tbody></table>"
    )


def _kinds_overview(rows: Sequence[TriageRow]) -> str:
    """Findings of the whole run grouped by kind: how many findings, in how many files."""
    findings: Counter[str] = Counter()
    files: Counter[str] = Counter()
    for r in rows:
        for kind, n in r.finding_kinds:
            findings[kind] += n
            files[kind] += 1
    failed = sum(1 for r in rows if r.failed)
    if not findings and not failed:
        return '<p class="muted">No findings in any file.</p>'
    body = "".join(
        f'<tr><td class="kind" title="{e(k)}">{e(kind_words(k))}</td>{_num(n, "{}")}{_num(files[k], "{}")}</tr>'
        for k, n in sorted(findings.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    if failed:
        body = (
            f'<tr class="failed"><td class="kind">unreadable file</td>{_num(failed, "{}")}{_num(failed, "{}")}</tr>'
            + body
        )
    return (
        '<table class="sortable" id="kinds"><thead><tr><th>kind</th>'
        f"<th>findings</th><th>files</th></tr></thead><tbody>{body}</tbody></table>"
    )


WORDS = {
    "tounicode": "ToUnicode",
    "bt": "BT",
    "ocr": "OCR",
    "mcid": "MCID",
    "cid": "CID",
    "cjk": "CJK",
    "tf": "Tf",
    "tm": "Tm",
    "w": "/W",
    "bbox": "BBox",
    "q": "q/Q",
}
"""Words a finding kind spells in capitals (or as PDF writes them) when it is written out."""
PHRASES = {
    "tf_one_scaled_tm": "1 Tf with the size in Tm",
    "q_underflow": "Q without q",
    "unbalanced_q": "q without Q",
}
"""Kinds whose words alone would not say it."""


def kind_words(kind: str) -> str:
    """A finding kind as words: `font_without_tounicode` → "Font without ToUnicode"."""
    if kind in PHRASES:
        return PHRASES[kind]
    words = [WORDS.get(w, w) for w in str(kind).split("_") if w]
    if not words:
        return str(kind)
    first = words[0]
    return " ".join([first[:1].upper() + first[1:] if first not in WORDS.values() else first, *words[1:]])


GARBLED_KINDS = ("garbled_text", "garbled_page", "garbled_document")
OCR_LAYER_KINDS = ("ocr_layer_only", "invisible_text", "hidden_text_invisible_mode")


def report_severity(f: TriageFinding, garbled_pages: set[int | None]) -> str:
    """How the report ranks a finding: garbled text is an error, and so is an OCR layer on a page
    whose text is garbled (the text a reader copies is the OCR's, and it is wrong); else its own."""
    if f.kind in GARBLED_KINDS:
        return "error"
    if f.kind in OCR_LAYER_KINDS and (f.page in garbled_pages or None in garbled_pages):
        return "error"
    return str(f.severity)


def _findings_list(row: TriageRow, labels: _Labels) -> str:
    """The file's findings grouped by kind (most severe kind first), each group with its count."""
    if not row.findings:
        return '<p class="muted">No findings.</p>'
    garbled_pages = {f.page for f in row.findings if f.kind in GARBLED_KINDS}
    groups: dict[str, list[TriageFinding]] = {}
    for f in row.findings:
        f = replace(f, severity=report_severity(f, garbled_pages))
        groups.setdefault(f.kind, []).append(f)
    total_by_kind = dict(row.finding_kinds)
    rank = {"error": 0, "warning": 1, "info": 2}
    ordered = sorted(groups.items(), key=lambda kv: (min(rank.get(f.severity, 3) for f in kv[1]), kv[0]))
    out = []
    for kind, items in ordered:
        severity = min((f.severity for f in items), key=lambda s: rank.get(s, 3))
        count = total_by_kind.get(kind, len(items))
        lis = []
        for f in items[:MAX_FINDINGS_SHOWN]:
            where = f"page {f.page}" if f.page is not None else "document"
            repeat = f" ({f.count})" if f.count is not None else ""
            lis.append(
                f'<li class="{e(f.severity)}"><span class="sev">{e(f.severity)}</span> {e(where)} · '
                f"{e(labels.message(f.message, row.file))}{e(repeat)}</li>"
            )
        if len(items) > MAX_FINDINGS_SHOWN:
            lis.append(
                f'<li class="info">… {len(items) - MAX_FINDINGS_SHOWN} more (see the JSON report)</li>'
            )
        open_attr = " open" if severity in ("error", "warning") else ""
        out.append(
            f'<details class="group {e(severity)}"{open_attr}><summary><span class="sev">{e(severity)}</span> '
            f'<span class="kind" title="{e(kind)}">{e(kind_words(kind))}</span> <span class="count">× {count}</span></summary>'
            f'<ul class="findings">{"".join(lis)}</ul></details>'
        )
    return "".join(out)


def _font_table(doc: Document, page_number: int) -> str:
    from glyphscope.core.font_stats import font_statistics
    from glyphscope.core.serialize import font_info_to_json

    rows = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for entry in font_statistics(doc.interpret(page_number)).entries:
        pf, font = entry.page_font, entry.font  # counted per font object
        key = (pf.font_key, tuple(pf.form_path))
        if key in seen:
            continue
        seen.add(key)
        info = font_info_to_json(pf.info)
        counts = font.sources_json()
        sources = ", ".join(f"{k} {v}" for k, v in counts.items()) or "—"
        problems = "; ".join(p["message"] for p in info["problems"]) or ""
        where = pf.font_key + (f" (in {' → '.join(pf.form_path)})" if pf.form_path else "")
        subtype = info["subtype"] + (f"/{info['descendant_subtype']}" if info["descendant_subtype"] else "")
        rows.append(
            f"<tr><td>{e(where)}</td><td>{e(subtype)}</td><td>{e(info['base_font'])}</td>"
            f"<td>{e(info['encoding'])}</td><td>{'yes' if info['has_tounicode'] else '<b>no</b>'}</td>"
            f"<td>{e(info['widths_source'])}</td>{_num(font.count, '{}')}"
            f"{_num(len(font.unresolved), '{}')}<td>{e(sources)}</td><td>{e(problems)}</td></tr>"
        )
    if not rows:
        return '<p class="muted">No fonts used on this page.</p>'
    head = (
        "<tr><th>font</th><th>type</th><th>base font</th><th>encoding</th><th>ToUnicode</th><th>widths</th>"
        "<th>glyphs</th><th>unresolved</th><th>decode sources</th><th>problems</th></tr>"
    )
    return f"<table>{head}{''.join(rows)}</table>"


def _texts(doc: Document, page_number: int, params: Parameters, labels: _Labels) -> str:
    from glyphscope.core.textops import page_text

    parts = []
    for mode in TEXT_MODES:
        try:
            t = page_text(doc, page_number, mode, params)
            text = t.text
            note = ""
            if t.structured is not None:
                note = f" — structure order {'used' if t.structured else 'not used'}"
                if t.untagged is not None:
                    note += f", {t.untagged} untagged glyphs"
            if t.reason:
                note += f" ({t.reason})"
            if text is None:
                body = "(no usable structure)"
            elif len(text) > MAX_TEXT_CHARS:
                body = (
                    labels.text(text[:MAX_TEXT_CHARS]) + f"\n… ({len(text) - MAX_TEXT_CHARS} more characters)"
                )
            else:
                body = labels.text(text)
            parts.append(f"<h4>{e(mode)}{e(note)}</h4><pre>{e(body)}</pre>")
        except Exception as exc:  # noqa: BLE001 — one mode failing must not lose the report
            parts.append(
                f'<h4>{e(mode)}</h4><p class="renderfail">text failed: {e(type(exc).__name__)}: {e(exc)}</p>'
            )
    return "".join(parts)


def _page_image(doc: Document, page: int, scale: float) -> str:
    try:
        uri, width = _render(doc, page, scale)
    except Exception as exc:  # noqa: BLE001 — a report without an image beats no report
        return f'<p class="renderfail">page image not available: {e(type(exc).__name__)}: {e(exc)}</p>'
    size = f' width="{width}"' if width > 0 else ""
    return (
        f'<img class="page"{size} alt="page {page} with overlays: {e(", ".join(REPORT_LAYERS))}" src="{uri}">'
    )


@dataclass(frozen=True, slots=True)
class _DetailOptions:
    """How the detailed sections are made (the same for every file of a report)."""

    password: str | None
    params: Parameters
    pages: int  # worst pages shown per file
    scale: float
    images: bool
    sources: Mapping[str, str | Path]  # row label -> what to reopen, for rows not named by their path
    labels: _Labels


def _details(row: TriageRow, opts: _DetailOptions) -> str:
    """Worst pages with overlays, their fonts, and the text modes of the worst page."""
    if not row.worst_pages:
        return ""
    from glyphscope.core.document import open_document

    try:
        doc = open_document(opts.sources.get(row.file, row.file), opts.password)
    except Exception as exc:  # noqa: BLE001 — the file was readable during triage; say what changed
        return f'<p class="renderfail">could not reopen the file for details: {e(opts.labels.message(str(exc), row.file))}</p>'
    out = []
    try:
        chosen = row.worst_pages[: opts.pages]
        for ps in chosen:
            out.append(f"<h3>Page {ps.page} — score {ps.score:.1f}</h3>")
            if ps.kinds:
                out.append(f'<p class="kind">{e(", ".join(kind_words(k) for k in ps.kinds))}</p>')
            if opts.images:
                out.append(_page_image(doc, ps.page, opts.scale))
            try:
                out.append(_font_table(doc, ps.page))
            except Exception as exc:  # noqa: BLE001
                out.append(f'<p class="renderfail">font table failed: {e(exc)}</p>')
        worst = chosen[0].page
        out.append(f"<h3>Text of page {worst}</h3>")
        out.append(_texts(doc, worst, opts.params, opts.labels))
    finally:
        doc.close()
    return "".join(out)


def _file_section(i: int, row: TriageRow, detail: bool, opts: _DetailOptions) -> str:
    labels = opts.labels
    head = f'<div class="file" id="f{i}"><h2>{e(labels.name(row))} <span class="score">score {row.score:.1f}</span></h2>'
    head += f'<p class="muted">{e(labels.file(row.file))}</p>'
    if row.failed:
        return (
            head
            + f'<p class="renderfail">could not be read: {e(labels.message(row.error or "", row.file))}</p></div>'
        )
    facts = (
        f"{row.pages} page(s), {row.glyphs} glyphs ({row.visible_glyphs} in the text): "
        f"{row.pct_culled:.1f}% culled, {row.pct_duplicates:.1f}% duplicates, {row.pct_from_forms:.1f}% from "
        f"forms, {row.pct_unresolved:.1f}% unresolved, {row.pct_fallback:.1f}% decoded by a guess; "
        f"{row.fonts_without_tounicode} of "
        f"{row.fonts_without_tounicode_total} fonts without ToUnicode lost glyphs"
    )
    if row.structure_usable is not None:
        facts += f"; structure {'usable' if row.structure_usable else 'unusable'}"
        if row.pct_untagged is not None:
            facts += f" ({row.pct_untagged:.1f}% untagged)"
    parts = [head, f"<p>{e(facts)}</p>"]
    if row.warnings:
        parts.append(
            "<p>Repairs: " + "; ".join(e(labels.message(w, row.file)) for w in row.warnings[:10]) + "</p>"
        )
    if row.worst_pages:
        wp = ", ".join(f"{p.page} ({p.score:.1f})" for p in row.worst_pages)
        parts.append(f"<p>Worst pages: {e(wp)}</p>")
    parts.append("<h3>Findings by kind</h3>" + _findings_list(row, labels))
    if detail:
        parts.append(_details(row, opts))
    parts.append("</div>")
    return "".join(parts)


def _session_section(notes: SessionNotes, labels: _Labels) -> str:
    """What the user found and marked in the window."""
    parts = ['<div class="file" id="session"><h2>Found and marked in the inspector</h2>']
    if notes.notes.strip():
        parts.append(f'<h3>Notes</h3><pre class="notes">{e(notes.notes.strip())}</pre>')
    if notes.find:
        items = "".join(f'<li class="warning">{e(labels.message(m, ""))}</li>' for m in notes.find)
        parts.append(f'<h3>Find</h3><ul class="findings">{items}</ul>')
    if notes.selection:
        items = "".join(f"<li>{e(labels.message(m, ''))}</li>" for m in notes.selection)
        parts.append(f'<h3>Selected glyphs and decisions</h3><ul class="findings">{items}</ul>')
    parts.append("</div>")
    return "".join(parts)


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)}</title><style>{CSS}</style></head><body>{body}<script>{SORT_JS}</script></body></html>\n"
    )


def _wants_detail(row: TriageRow, detailed: int, detail_files: int) -> bool:
    return not row.failed and row.score < FAILED_SCORE and detailed < detail_files and bool(row.worst_pages)


def build_html_report(
    rows: Sequence[TriageRow],
    password: str | None = None,
    *,
    params: Parameters = DEFAULT_PARAMETERS,
    detail_files: int = DETAIL_FILES,
    pages_per_file: int = PAGES_PER_FILE,
    scale: float = IMAGE_SCALE,
    images: bool = True,
    sources: Mapping[str, str | Path] | None = None,
    anonymise: bool = False,
    session: SessionNotes | None = None,
    out_path: Path | None = None,
    paged_over: int = PAGED_OVER,
) -> str:
    """The report's HTML: summary table, findings by kind, colour legend, then one section per file.

    `images=False` leaves the page images out (no Qt needed); `sources` maps a row's file label to
    what to reopen for its details when the label is not a path (`-`); `anonymise` replaces the
    letters and digits of file names and page text and leaves images out; `session` adds what the
    user found and marked in the window. With more than `paged_over` rows and an `out_path`, the
    report is the summary only and each file's section is written to its own page in
    `<out stem>_files/` beside it, so the report opens quickly whatever the size of the run.
    """
    labels = _Labels(anonymise)
    images = images and not anonymise
    opts = _DetailOptions(password, params, pages_per_file, scale, images, dict(sources or {}), labels)
    failed = sum(1 for r in rows if r.failed)
    paged = out_path is not None and len(rows) > paged_over
    folder = out_path.with_name(out_path.stem + "_files") if paged and out_path is not None else None
    if folder is not None:
        folder.mkdir(exist_ok=True)
    links: list[str] = []
    sections: list[str] = []
    detailed = 0
    for i, row in enumerate(rows):
        detail = _wants_detail(row, detailed, detail_files)
        detailed += detail
        section = _file_section(i, row, detail, opts)
        if folder is not None:
            name = f"f{i:06d}.html"
            back = f'<p><a href="../{e(out_path.name if out_path else "")}">← back to the summary</a></p>'
            (folder / name).write_text(
                _page(f"glyphscope triage — {labels.name(row)}", back + section), "utf-8"
            )
            links.append(f"{folder.name}/{name}")
        else:
            sections.append(section)
            links.append(f"#f{i}")
    stamp = time.strftime("%Y-%m-%d %H:%M")
    shown_files = min(detail_files, len(rows))
    if images:
        shown = (
            f"Images and text are shown for the {shown_files} worst readable files, up to "
            f"{pages_per_file} pages each, at {scale:g}× density."
        )
    else:
        why = " (anonymised: page images are left out)" if anonymise else " (no page images)"
        shown = f"Fonts and text are shown for the {shown_files} worst readable files, up to {pages_per_file} pages each{why}."
    if paged:
        shown += f" Over {paged_over} files: each file's details are on its own page (follow its link)."
    intro = (
        f"{len(rows)} file(s), {failed} unreadable; sorted worst first. {shown} Score = weighted shares of the text affected (unresolved, "
        "fallback-decoded, culled, duplicates, from forms, untagged) plus damped counts of findings by severity."
    )
    if anonymise:
        intro += (
            " Anonymised: every letter and digit of file names and page text is replaced by a placeholder."
        )
    body = (
        f'<h1>glyphscope triage report</h1><p class="muted">{e(stamp)} — {e(intro)}</p>'
        f"{_summary_table(rows, links, labels)}"
        + _against_section(rows, links, labels)
        + f"<h2>Findings by kind</h2>{_kinds_overview(rows)}"
        + (f"<h2>Colours of the page images</h2>{legend()}" if images else "")
        + (_session_section(session, labels) if session else "")
        + "".join(sections)
    )
    return _page("glyphscope triage report", body)


# ---------------------------------------------------------------- triage --against: their texts by cause


def _against_section(rows: Sequence[TriageRow], links: Sequence[str], labels: _Labels) -> str:
    """The queue grouped by cause (`triage --against`): per cause, the files whose top cause it is,
    most disagreement first ("23 files: words split or glued at a word gap"); "" without --against."""
    from glyphscope.inspector.compare.against import top_cause
    from glyphscope.inspector.compare.causes import CAUSE_COLOURS, CAUSE_TITLES, CAUSES

    compared = [(i, r) for i, r in enumerate(rows) if r.against_causes is not None or r.against_error]
    if not compared:
        return ""
    groups: dict[str, list[tuple[int, TriageRow]]] = {}
    for i, r in compared:
        key = top_cause(r) or (
            "agree" if r.against_agreement == 1.0 else "no text" if r.against_error else "agree"
        )
        groups.setdefault(key, []).append((i, r))
    order = [c for c in CAUSES if c in groups] + [k for k in ("no text", "agree") if k in groups]
    lines = []
    for key in order:
        members = groups[key]
        title = CAUSE_TITLES.get(key) or (
            "no text of theirs, or it could not be compared" if key == "no text" else "their text agrees"
        )
        colour = CAUSE_COLOURS.get(key, "#9e9e9e")
        items = []
        for i, r in members:
            agree = "" if r.against_agreement is None else f" — {100 * r.against_agreement:.1f} % agree"
            why = f" — {r.against_error}" if r.against_error and r.against_agreement is None else ""
            counts = ", ".join(f"{c} {k}" for c, k in (r.against_causes or {}).items())
            items.append(
                f'<li><a href="{e(links[i])}">{e(labels.name(r))}</a>{e(agree)}{e(why)}'
                + (f' <span class="muted">({e(counts)})</span>' if counts else "")
                + "</li>"
            )
        lines.append(
            f'<h3><span style="display:inline-block;width:12px;height:12px;background:{colour}"></span> '
            f"{len(members)} file{'s' if len(members) != 1 else ''}: {e(title)}</h3><ul>{''.join(items)}</ul>"
        )
    return (
        '<h2>Their texts, grouped by cause</h2><p class="muted">Each file under the cause of most of its '
        "differences with the customer's text (glyphscope compare FILE --text explains each one); files "
        "with most disagreement first.</p>" + "".join(lines)
    )


def write_html_report(
    rows: Sequence[TriageRow],
    out: str | Path,
    password: str | None = None,
    **options: Any,
) -> Path:
    path = Path(out)
    options.setdefault("out_path", path)
    path.write_text(build_html_report(rows, password, **options), encoding="utf-8")
    return path
