"""The ticket report of `glyphscope compare … --report out.html`: one self-contained page (Qt-free).

A support engineer attaches it to the ticket: per page the page image with every
difference marked in its cause's colour and numbered, then the differences —
kind, both texts, the cause in words, the sentence with its numbers and what to
change where glyphscope knows — and, first, the file's summary per engine
(agreement, differences by cause) with the warnings. Images are PNGs inside the
HTML (data: URLs); nothing is fetched.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from glyphscope.core.assembly.modes import Mode
from glyphscope.inspector.compare.causes import CAUSE_COLOURS, CAUSE_TITLES, CAUSES, KIND_NAMES, JsonObject

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.core.glyph import Glyph
    from glyphscope.core.params import Parameters
    from glyphscope.inspector.compare.compared_page import PageComparison
    from glyphscope.inspector.compare.theirs import TheirText
    from glyphscope.inspector.jobs import CancelToken, Progress

MAX_IMAGES = 30
"""Pages drawn at most (the first with differences); the others are listed without their image."""
SCALE = 1.5
MAX_BOXES = 400
"""Glyph boxes drawn per difference at most (a moved column can touch thousands)."""
"""Pixels per point of the page images."""


def escaped(value: object) -> str:
    """A value as HTML text (None as nothing); the triage report uses it too."""
    return html.escape("" if value is None else str(value), quote=True)


def _hex(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def page_image(
    doc: Document, page_number: int, marks: Sequence[tuple[int, str, list[list[float]]]]
) -> str | None:
    """The page as a PNG data URL with each mark (number, cause, its glyphs' [x0, y0, x1, y1] in user
    space) drawn: the glyphs tinted in the cause's colour, the number at the first; None when the
    page cannot be drawn (the report says so)."""
    from PIL import Image, ImageDraw, ImageFont

    from glyphscope.core.geometry import apply
    from glyphscope.inspector.render.page_images import page_or_blank, paint_banner, png_bytes, render_page
    from glyphscope.inspector.render.renderer import page_matrix

    try:
        rendered = render_page(doc, page_number, SCALE)
    except Exception:  # noqa: BLE001 - the report lists the page without its image
        return None
    image = page_or_blank(rendered).convert("RGBA")
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    m = page_matrix(rendered.frame, rendered.scale)
    font = ImageFont.load_default(12)
    labels = []
    for number, cause, boxes in marks:
        r, g, b = _hex(CAUSE_COLOURS.get(cause, "#757575"))
        for k, (x0, y0, x1, y1) in enumerate(boxes[:MAX_BOXES]):
            pts = [apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            rect = (min(xs), min(ys), max(xs), max(ys))
            draw.rectangle(rect, fill=(r, g, b, 70), outline=(r, g, b, 200), width=1)
            if k == 0:
                labels.append((rect[0], max(0.0, rect[1] - 13), str(number), (r, g, b, 255)))
    for x, y, text, colour in labels:
        draw.text((x, y), text, fill=colour, font=font, stroke_width=2, stroke_fill=(255, 255, 255, 255))
    image = Image.alpha_composite(image, layer)
    if rendered.render_error:
        paint_banner(image, f"Page {page_number} {rendered.render_error}", rendered.scale)
    data = png_bytes(image.convert("RGB"))
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def _marks(
    diffs: Sequence[JsonObject], boxes: dict[str, list[float]]
) -> list[tuple[int, str, list[list[float]]]]:
    out = []
    for number, d in enumerate(diffs, 1):
        found = [boxes[str(g)] for g in d["glyphs"] if str(g) in boxes]
        if found:
            out.append((number, d["cause"], found))
    return out


CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:20px} h2{font-size:17px;margin-top:32px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:8px 0} td,th{border:1px solid #ddd;padding:3px 8px;vertical-align:top;text-align:left}
.cause{display:inline-block;padding:0 6px;border-radius:3px;color:#fff;font-size:12px;white-space:nowrap}
.text{font-family:ui-monospace,monospace;white-space:pre-wrap;max-width:260px;word-break:break-all}
.warn{background:#fff3cd;border:1px solid #b26a00;padding:6px 10px;margin:4px 0}
.fix{color:#1b5e20} img{max-width:100%;border:1px solid #ccc}
"""


def _cause(cause: str) -> str:
    colour = CAUSE_COLOURS.get(cause, "#757575")
    return f"<span class='cause' style='background:{colour}'>{escaped(CAUSE_TITLES.get(cause, cause))}</span>"


def render_report(
    doc: Document | None,
    pages: Sequence[JsonObject],
    summary: Sequence[JsonObject],
    warnings: Sequence[str],
    *,
    file: str,
) -> str:
    """The report's HTML. `pages`: `compare --json` page objects, each with `_boxes` (glyph → its box in
    user space); `doc` None draws no images."""
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>glyphscope compare: {escaped(file)}</title><style>{CSS}</style></head><body>",
        f"<h1>Extraction compared with the page: {escaped(file)}</h1>",
    ]
    parts.extend(f"<div class='warn'>{escaped(w)}</div>" for w in warnings)
    parts.append(
        "<table><tr><th>engine</th><th>pages</th><th>agreement</th><th>differences</th><th>by cause</th></tr>"
    )
    for s in summary:
        agreement = "no text" if s["agreement"] is None else f"{100 * s['agreement']:.1f} %"
        causes = " ".join(f"{_cause(c)} {s['causes'][c]}" for c in CAUSES if s["causes"].get(c)) or (
            "; ".join(escaped(x) for x in s["errors"][:1])
        )
        parts.append(
            f"<tr><td>{escaped(s['label'])}</td><td>{s['pages_compared']} of {s['pages']}</td><td>{agreement}</td>"
            f"<td>{s['differences']}</td><td>{causes}</td></tr>"
        )
    parts.append("</table>")
    drawn = 0
    for page in pages:
        engines = page["engines"]
        diffs_all = [(eng, d) for eng in engines for d in eng["differences"]]
        parts.append(f"<h2>Page {page['page']}</h2>")
        for eng in engines:
            if eng["error"]:
                parts.append(f"<div class='warn'>{escaped(eng['label'])}: {escaped(eng['error'])}</div>")
        if not diffs_all:
            if not any(eng["error"] for eng in engines):
                parts.append("<p>The texts agree on this page.</p>")
            continue
        flat = [d for _, d in diffs_all]
        if doc is not None and drawn < MAX_IMAGES:
            url = page_image(doc, page["page"], _marks(flat, page.get("_boxes", {})))
            drawn += 1
            if url:
                parts.append(f"<img alt='page {page['page']} with the differences marked' src='{url}'>")
            else:
                parts.append("<p>(the page could not be drawn)</p>")
        elif doc is not None:
            parts.append(f"<p>(images are drawn for the first {MAX_IMAGES} pages with differences)</p>")
        parts.append(
            "<table><tr><th>#</th><th>engine</th><th>kind</th><th>cause</th><th>theirs</th><th>glyphscope</th>"
            "<th>why</th></tr>"
        )
        for number, (eng, d) in enumerate(diffs_all, 1):
            fix = f"<div class='fix'>What to change: {escaped(d['fix'])}</div>" if d.get("fix") else ""
            parts.append(
                f"<tr><td>{number}</td><td>{escaped(eng['label'])}</td><td>{escaped(KIND_NAMES.get(d['kind'], d['kind']))}</td>"
                f"<td>{_cause(d['cause'])}</td><td class='text'>{escaped(d['their_text'])}</td>"
                f"<td class='text'>{escaped(d['our_text'])}</td><td>{escaped(d['explanation'])}{fix}</td></tr>"
            )
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_compare_report(
    out: str,
    doc: Document,
    pages: Sequence[JsonObject],
    summary: Sequence[JsonObject],
    warnings: Sequence[str],
    *,
    file: str,
) -> None:
    """Write the report to `out` ("-": stdout)."""
    from glyphscope.inspector.cli import io as cli_io

    cli_io.write_output(out, render_report(doc, pages, summary, warnings, file=file).encode("utf-8"))


def difference_boxes(
    comparisons: Sequence[PageComparison], glyphs: Sequence[Glyph]
) -> dict[str, list[float]]:
    """Glyph (its paint index as a string) → its box [x0, y0, x1, y1] in user space, for every glyph
    a difference of `comparisons` (one page's) touches: the report marks them on the page image."""
    boxes: dict[str, list[float]] = {}
    for comparison in comparisons:
        for eng in comparison.engines:
            for d in eng.differences:
                for g in d.glyphs:
                    if 0 <= g < len(glyphs) and str(g) not in boxes:
                        q = glyphs[g].quad
                        xs, ys = [p[0] for p in q], [p[1] for p in q]
                        boxes[str(g)] = [min(xs), min(ys), max(xs), max(ys)]
    return boxes


def engine_summaries(comparisons: Sequence[PageComparison]) -> list[JsonObject]:
    """Per engine over the compared pages: what `compare`'s file summary says (agreement, differences by
    kind and by cause, the share explained, the errors), in the order the engines first come."""
    from collections import Counter

    from glyphscope.inspector.compare.causes import PUBLIC_KINDS
    from glyphscope.inspector.compare.theirs import shared_words

    totals: dict[str, JsonObject] = {}
    for comparison in comparisons:
        for eng in comparison.engines:
            t = totals.setdefault(
                eng.key,
                {"label": eng.label, "pages": 0, "compared": 0, "equal": 0, "total": 0, "causes": Counter(),
                 "kinds": Counter(), "errors": [], "shared": 0, "words": 0},
            )  # fmt: skip
            t["pages"] += 1
            al = eng.alignment
            if al is None:
                t["errors"].append(f"page {comparison.page_number}: {eng.result.error}")
                continue
            t["compared"] += 1
            t["equal"] += al.tokens_equal
            t["total"] += al.tokens_ours + al.tokens_theirs
            t["causes"].update(d.cause for d in eng.differences)
            t["kinds"].update(d.public_kind for d in eng.differences)
            shared, words = shared_words(al.their_text, al.our_text)
            t["shared"] += shared
            t["words"] += words
    out: list[JsonObject] = []
    for key, t in totals.items():
        n = sum(t["causes"].values())
        agreement = None if not t["compared"] else (1.0 if t["total"] == 0 else 2.0 * t["equal"] / t["total"])
        out.append(
            {
                "engine": key,
                "label": t["label"],
                "pages": t["pages"],
                "pages_compared": t["compared"],
                "agreement": None if agreement is None else round(agreement, 4),
                "differences": n,
                "kinds": {k: t["kinds"].get(k, 0) for k in PUBLIC_KINDS},
                "causes": {c: t["causes"].get(c, 0) for c in CAUSES},
                "explained": None if n == 0 else round(1 - t["causes"].get("unexplained", 0) / n, 4),
                "words_shared": None if not t["words"] else round(t["shared"] / t["words"], 4),
                "errors": t["errors"][:20],
            }
        )
    return out


def comparison_report(
    doc: Document, comparison: PageComparison, file: str, glyphs: Sequence[Glyph] | None = None
) -> str:
    """The ticket report of one compared page (the Compare panel's Export): `comparison` is a
    compare.compared_page.PageComparison of `doc`'s page; `glyphs` its glyph records (read again when None)."""
    if glyphs is None and any(d.glyphs for e in comparison.engines for d in e.differences):
        from glyphscope.core.analysis import analyze_page

        glyphs = analyze_page(doc, comparison.page_number).classified.glyphs
    page = comparison.to_json() | {"_boxes": difference_boxes([comparison], glyphs or ())}
    return render_report(doc, [page], engine_summaries([comparison]), [], file=file)


def their_report_job(
    source: str,
    password: str | None,
    their: TheirText,
    out: str,
    *,
    mode: str = Mode.PLAIN,
    params: Parameters | None = None,
    token: CancelToken,
) -> Generator[Progress, None, str]:
    """The ticket report of a whole document against their text, written to `out`: what
    `glyphscope compare SOURCE --text … --report OUT` writes (the same pages, summary and writer),
    as a job for the window's File › Export (gui.workers.Worker; cancel: `token`)."""
    from glyphscope.core.analysis import document_analyses, document_texts
    from glyphscope.core.document import open_document
    from glyphscope.core.params import DEFAULT_PARAMETERS
    from glyphscope.inspector.compare.compared_page import compare_page
    from glyphscope.inspector.compare.theirs import foreign_verdict, form_feed_pages, page_result, page_texts
    from glyphscope.inspector.jobs import Progress

    params = params or DEFAULT_PARAMETERS
    doc = open_document(source, password)
    pages = list(range(1, doc.page_count + 1))
    warnings = list(doc.warnings) + list(their.warnings)
    if their.text is None:
        raise ValueError(f"their text: {their.error}")
    total = len(pages) + 1
    stop = lambda: bool(token.cancelled)  # noqa: E731 - the loops' stop check
    our_texts = None
    if form_feed_pages(their.text) is None and len(pages) > 1:  # cut where the alignment says
        yield Progress(0, total, "reading glyphscope's text of every page")
        texts = dict(document_texts(doc, pages, mode, params, should_stop=stop, on_error=lambda n, exc: None))
        our_texts = [texts[n].text or "" if n in texts else "" for n in pages]
    token.check()
    cut, notes = page_texts(their.text, pages, doc.page_count, our_texts)
    warnings.extend(notes)
    in_text = len(form_feed_pages(their.text) or [their.text])
    skipped: list[int] = []
    json_pages: list[JsonObject] = []
    comparisons = []
    for analysis in document_analyses(
        doc, pages, params, mode=mode, should_stop=stop, on_error=lambda n, exc: skipped.append(n)
    ):
        n = analysis.page_number
        yield Progress(n - 1, total, f"page {n} of {len(pages)}")
        comparison = compare_page(analysis, [page_result(their, cut.get(n), n, in_text)], mode)
        comparisons.append(comparison)
        boxes = difference_boxes([comparison], analysis.classified.glyphs)
        json_pages.append(comparison.to_json() | {"_boxes": boxes})
    token.check()
    if skipped:
        warnings.append(f"page(s) {', '.join(map(str, skipped))} could not be analysed")
    summary = engine_summaries(comparisons)
    warnings.extend(line for s in summary if (line := foreign_verdict(s)) is not None)
    yield Progress(len(pages), total, "writing the report")
    write_compare_report(out, doc, json_pages, summary, warnings, file=source)
    return out
