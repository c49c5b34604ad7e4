"""The triage report as ONE self-contained HTML file a support engineer can attach to a ticket.

Inline CSS and a few lines of inline JS (sortable summary), page images as
base64 PNG data URIs, no external resource. Everything that comes from a
PDF (file names, text, font names, messages) is escaped: PDF text is hostile.

Per file: its findings (one line each, coloured by severity); for the worst
files also the worst pages rendered with overlays (the window's own drawing
code, via `gui.render_image`: the one place this module reaches Qt, lazily,
and only when images are asked for), the fonts of those pages and the text of
the worst page in several modes. Drawing needs a Qt application, which the
entry point provides (`gui.render_image.offscreen_app()`); when rendering
fails the report says so instead of failing.
"""

from __future__ import annotations

import base64
import html
import time
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.triage import FAILED_SCORE, TriageRow

DETAIL_FILES = 20  # files (worst first) that get images, fonts and texts
PAGES_PER_FILE = 3
IMAGE_SCALE = 1.0
MAX_FINDINGS_SHOWN = 150
MAX_TEXT_CHARS = 20_000
TEXT_MODES = ("plain", "layout", "auto")
REPORT_LAYERS = ("culled", "duplicates", "forms", "unresolved", "word-gaps")


def e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


# ---------------------------------------------------------------- Qt rendering


def supported_layers() -> tuple[str, ...]:
    """Layer names inspector.render_image accepts (the keys of inspector.layers)."""
    from glyphscope.inspector.layers import LAYER_KEYS

    return LAYER_KEYS


# Names users type that stand for one or more of the renderer's layers.
LAYER_ALIASES: dict[str, tuple[str, ...]] = {
    "forms": ("glyphs", "form_bboxes"),  # glyph quads are coloured by form; outline the form boxes too
    "structure": ("structure_order",),
    "boxes": ("page_boxes",),
    "mcid": ("structure_order",),
}


def resolve_layers(wanted: Sequence[str], available: Sequence[str]) -> tuple[set[str], list[str]]:
    """Map user spellings (word-gaps / word_gaps, any case, aliases, "all") to renderer keys.

    Returns (known keys, unknown names as typed).
    """

    def norm(s: str) -> str:
        return s.strip().lower().replace("-", "_")

    by_norm = {norm(a): a for a in available}
    known: set[str] = set()
    unknown: list[str] = []
    for w in wanted:
        n = norm(w)
        if not n or n == "none":
            continue
        if n == "all":
            known.update(available)
        elif n in by_norm:
            known.add(by_norm[n])
        elif n in LAYER_ALIASES and all(a in by_norm for a in LAYER_ALIASES[n]):
            known.update(by_norm[a] for a in LAYER_ALIASES[n])
        else:
            unknown.append(w.strip())
    return known, unknown


def _render(doc: Any, page: int, scale: float) -> str:
    """The page with REPORT_LAYERS as a PNG data URI (needs a running Qt application)."""
    from glyphscope.inspector.gui.render_image import page_png  # Qt, for the images only

    layers, _unknown = resolve_layers(REPORT_LAYERS, supported_layers())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pikepdf's page-copy notes are not the reader's business here
        data = page_png(doc, page, layers, scale)
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


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
.kind{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;color:#555}
pre{background:#f8f9fa;border:1px solid #ddd;padding:6px;overflow:auto;max-height:28em;white-space:pre}
img.page{border:1px solid #999;max-width:100%;height:auto;display:block;margin:.3em 0}
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


def _summary_table(rows: Sequence[TriageRow]) -> str:
    head = (
        "<tr><th>score</th><th>file</th><th>pages</th><th>glyphs</th><th>% culled</th><th>% dup</th>"
        "<th>% forms</th><th>% unresolved</th><th>fonts w/o ToUnicode</th><th>structure</th>"
        "<th>E/W/I</th><th>error</th></tr>"
    )
    body = []
    for i, r in enumerate(rows):
        link = f'<a href="#f{i}">{e(r.name)}</a>'
        if r.failed:
            body.append(
                f'<tr class="failed">{_num(r.score)}<td>{link}</td>'
                + '<td class="n">-</td>' * 7
                + f"<td>-</td><td>{e(r.error)}</td></tr>"
            )
            continue
        sev = r.findings_by_severity
        struct = "-" if r.structure_usable is None else ("usable" if r.structure_usable else "unusable")
        body.append(
            f"<tr>{_num(r.score)}<td>{link}</td>{_num(r.pages, '{}')}{_num(r.glyphs, '{}')}"
            f"{_num(r.pct_culled)}{_num(r.pct_duplicates)}{_num(r.pct_from_forms)}{_num(r.pct_unresolved)}"
            f'<td class="n" data-v="{r.fonts_without_tounicode}">{r.fonts_without_tounicode} of '
            f"{r.fonts_without_tounicode_total}</td><td>{e(struct)}</td>"
            f"<td>{sev.get('error', 0)}/{sev.get('warning', 0)}/{sev.get('info', 0)}</td><td></td></tr>"
        )
    return f'<table class="sortable"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'


def _findings_list(row: TriageRow) -> str:
    if not row.findings:
        return '<p class="muted">No findings.</p>'
    items = []
    for f in row.findings[:MAX_FINDINGS_SHOWN]:
        where = f"page {f.page}" if f.page is not None else "document"
        count = f" ({f.count})" if f.count is not None else ""
        items.append(
            f'<li class="{e(f.severity)}"><span class="sev">{e(f.severity)}</span> {e(where)} · '
            f'<span class="kind">{e(f.kind)}</span> · {e(f.message)}{e(count)}</li>'
        )
    more = len(row.findings) - MAX_FINDINGS_SHOWN
    if more > 0:
        items.append(f'<li class="info">… {more} more findings (see the JSON report)</li>')
    return f'<ul class="findings">{"".join(items)}</ul>'


def _font_table(doc: Any, page_number: int) -> str:
    from glyphscope.core.serialize import font_info_to_json

    page = doc.interpret(page_number)
    by_font: dict[str, Counter[str]] = {}
    for g in page.glyphs:
        by_font.setdefault(g.font_id, Counter())[g.decode_source.value] += 1
    rows = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for pf in page.fonts:
        key = (pf.font_key, tuple(pf.form_path))
        if key in seen:
            continue
        seen.add(key)
        info = font_info_to_json(pf.info)
        counts = by_font.get(pf.info.font_id, Counter())
        sources = ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "—"
        problems = "; ".join(p["message"] for p in info["problems"]) or ""
        where = pf.font_key + (f" (in {' → '.join(pf.form_path)})" if pf.form_path else "")
        subtype = info["subtype"] + (f"/{info['descendant_subtype']}" if info["descendant_subtype"] else "")
        rows.append(
            f"<tr><td>{e(where)}</td><td>{e(subtype)}</td><td>{e(info['base_font'])}</td>"
            f"<td>{e(info['encoding'])}</td><td>{'yes' if info['has_tounicode'] else '<b>no</b>'}</td>"
            f"<td>{e(info['widths_source'])}</td>{_num(sum(counts.values()), '{}')}"
            f"{_num(counts.get('unresolved', 0), '{}')}<td>{e(sources)}</td><td>{e(problems)}</td></tr>"
        )
    if not rows:
        return '<p class="muted">No fonts used on this page.</p>'
    head = (
        "<tr><th>font</th><th>type</th><th>base font</th><th>encoding</th><th>ToUnicode</th><th>widths</th>"
        "<th>glyphs</th><th>unresolved</th><th>decode sources</th><th>problems</th></tr>"
    )
    return f"<table>{head}{''.join(rows)}</table>"


def _texts(doc: Any, page_number: int, params: Parameters) -> str:
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
                body = text[:MAX_TEXT_CHARS] + f"\n… ({len(text) - MAX_TEXT_CHARS} more characters)"
            else:
                body = text
            parts.append(f"<h4>{e(mode)}{e(note)}</h4><pre>{e(body)}</pre>")
        except Exception as exc:  # noqa: BLE001 — one mode failing must not lose the report
            parts.append(
                f'<h4>{e(mode)}</h4><p class="renderfail">text failed: {e(type(exc).__name__)}: {e(exc)}</p>'
            )
    return "".join(parts)


def _page_image(doc: Any, page: int, scale: float) -> str:
    try:
        uri = _render(doc, page, scale)
    except Exception as exc:  # noqa: BLE001 — a report without an image beats no report
        return f'<p class="renderfail">page image not available: {e(type(exc).__name__)}: {e(exc)}</p>'
    return f'<img class="page" alt="page {page} with overlays: {e(", ".join(REPORT_LAYERS))}" src="{uri}">'


@dataclass(frozen=True, slots=True)
class _DetailOptions:
    """How the detailed sections are made (the same for every file of a report)."""

    password: str | None
    params: Parameters
    pages: int  # worst pages shown per file
    scale: float
    images: bool
    sources: Mapping[str, str | Path]  # row label -> what to reopen, for rows not named by their path


def _details(row: TriageRow, opts: _DetailOptions) -> str:
    """Worst pages with overlays, their fonts, and the text modes of the worst page."""
    if not row.worst_pages:
        return ""
    from glyphscope.core.document import open_document

    try:
        doc = open_document(opts.sources.get(row.file, row.file), opts.password)
    except Exception as exc:  # noqa: BLE001 — the file was readable during triage; say what changed
        return f'<p class="renderfail">could not reopen the file for details: {e(exc)}</p>'
    out = []
    try:
        chosen = row.worst_pages[: opts.pages]
        for ps in chosen:
            out.append(f"<h3>Page {ps.page} — score {ps.score:.1f}</h3>")
            if ps.kinds:
                out.append(f'<p class="kind">{e(", ".join(ps.kinds))}</p>')
            if opts.images:
                out.append(_page_image(doc, ps.page, opts.scale))
            try:
                out.append(_font_table(doc, ps.page))
            except Exception as exc:  # noqa: BLE001
                out.append(f'<p class="renderfail">font table failed: {e(exc)}</p>')
        worst = chosen[0].page
        out.append(f"<h3>Text of page {worst}</h3>")
        out.append(_texts(doc, worst, opts.params))
    finally:
        doc.close()
    return "".join(out)


def _file_section(i: int, row: TriageRow, detail: bool, opts: _DetailOptions) -> str:
    head = (
        f'<div class="file" id="f{i}"><h2>{e(row.name)} <span class="score">score {row.score:.1f}</span></h2>'
    )
    head += f'<p class="muted">{e(row.file)}</p>'
    if row.failed:
        return head + f'<p class="renderfail">could not be read: {e(row.error)}</p></div>'
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
        parts.append("<p>Repairs: " + "; ".join(e(w) for w in row.warnings[:10]) + "</p>")
    if row.worst_pages:
        wp = ", ".join(f"{p.page} ({p.score:.1f})" for p in row.worst_pages)
        parts.append(f"<p>Worst pages: {e(wp)}</p>")
    parts.append("<h3>Findings</h3>" + _findings_list(row))
    if detail:
        parts.append(_details(row, opts))
    parts.append("</div>")
    return "".join(parts)


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
) -> str:
    """The report's HTML. `images=False` leaves the page images out (no Qt needed); `sources` maps
    a row's file label to what to reopen for its details when the label is not a path (`-`)."""
    opts = _DetailOptions(password, params, pages_per_file, scale, images, dict(sources or {}))
    failed = sum(1 for r in rows if r.failed)
    detailed = 0
    sections = []
    for i, row in enumerate(rows):
        detail = (
            not row.failed and row.score < FAILED_SCORE and detailed < detail_files and bool(row.worst_pages)
        )
        if detail:
            detailed += 1
        sections.append(_file_section(i, row, detail, opts))
    stamp = time.strftime("%Y-%m-%d %H:%M")
    shown = (
        f"Images and text are shown for the {min(detail_files, len(rows))} worst readable files, up to "
        f"{pages_per_file} pages each (overlays: {', '.join(REPORT_LAYERS)})."
        if images
        else f"Fonts and text are shown for the {min(detail_files, len(rows))} worst readable files, up to "
        f"{pages_per_file} pages each (no page images)."
    )
    intro = (
        f"{len(rows)} file(s), {failed} unreadable; sorted worst first. {shown} Score = weighted shares of the text affected (unresolved, "
        "fallback-decoded, culled, duplicates, from forms, untagged) plus damped counts of findings by severity."
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>glyphscope triage report</title><style>{CSS}</style></head><body>"
        f'<h1>glyphscope triage report</h1><p class="muted">{e(stamp)} — {e(intro)}</p>'
        f"{_summary_table(rows)}{''.join(sections)}<script>{SORT_JS}</script></body></html>\n"
    )


def write_html_report(
    rows: Sequence[TriageRow],
    out: str | Path,
    password: str | None = None,
    **options: Any,
) -> Path:
    path = Path(out)
    path.write_text(build_html_report(rows, password, **options), encoding="utf-8")
    return path
