"""Page findings that need the whole glyph list (per font, per form, per page).

They depend on the interpretation only, not on thresholds: the page product
(core/analysis.py) makes them once and keeps them across re-assembly.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.font_stats import PageFontStats
from glyphscope.core.garbled import GARBLED_SCORE, Verdict
from glyphscope.core.glyph_table import GlyphRun, GlyphTable
from glyphscope.core.page import InterpretedPage
from glyphscope.core.reader_findings import annotation_findings, image_page_findings
from glyphscope.core.render_modes import INVISIBLE_RENDER_MODES

UNRESOLVED_ERROR_SHARE = 0.2  # above this share of a font's glyphs, unresolved text is an error


def _glyph_word(n: int) -> str:
    return "glyph" if n == 1 else "glyphs"


def glyph_findings(page: InterpretedPage, fonts: PageFontStats) -> list[Diagnostic]:
    """Findings about the page's fonts, forms and glyphs; `fonts` is `font_statistics(page)`."""
    page_number, glyphs = page.page_number, page.glyphs
    out: list[Diagnostic] = []
    # One pass over the glyph runs (one text-showing operator each) for the page-wide findings
    # below: the facts they test are the same for every glyph of a run.
    table = glyphs
    from_forms_list: list[int] = []
    invisible_list: list[int] = []
    tf_one_glyphs: list[int] = []
    tf_one_runs: list[tuple[GlyphRun, int]] = []  # (state, token index)
    from_annotations_list: list[int] = []
    for r, run, painted in table.run_ranges():
        if run.annotation >= 0:
            from_annotations_list.extend(painted)
        elif run.form_path:
            from_forms_list.extend(painted)
        if run.render_mode in INVISIBLE_RENDER_MODES:
            invisible_list.extend(painted)
        if run.font_size == 1.0 and run.height > 1.5:
            tf_one_glyphs.extend(painted)
            tf_one_runs.append((run, table.run_token[r]))

    out.extend(_font_findings(page_number, fonts))
    out.extend(_form_findings(page, table))
    out.extend(_run_findings(page, from_forms_list, tf_one_glyphs, tf_one_runs, invisible_list))
    out.extend(annotation_findings(page, tuple(from_annotations_list)))
    out.extend(image_page_findings(page, len(invisible_list)))
    return out


def _font_findings(page_number: int, fonts: PageFontStats) -> list[Diagnostic]:
    """Each font's own problems, and its glyphs without Unicode or decoded by a guess (once per font)."""
    out: list[Diagnostic] = []
    seen_fonts: set[str] = set()
    garbled: list[tuple[str, tuple[int, ...], Verdict]] = []  # (label, glyphs, verdict)
    for entry in fonts.entries:
        pf = entry.page_font
        info = pf.info
        if info.font_id in seen_fonts:
            continue
        seen_fonts.add(info.font_id)
        font = entry.font
        used = font.glyphs
        label = f"{pf.font_key} ({info.base_font or info.subtype})"
        for problem in info.problems:
            severity = Severity.INFO
            if problem.kind in (DiagnosticKind.UNSORTED_W, DiagnosticKind.TOUNICODE_BROKEN):
                severity = Severity.WARNING
            if problem.kind is DiagnosticKind.FONT_WITHOUT_TOUNICODE and not used:
                continue
            out.append(
                Diagnostic(
                    problem.kind,
                    severity,
                    f"font {label}: {problem.message}",
                    page=page_number,
                    font_key=pf.font_key,
                    form_path=pf.form_path,
                    glyphs=used,
                )
            )
        verdict = fonts.verdicts.get(info.font_id)
        if verdict is not None and verdict.garbled:
            out.append(_garbled_finding(page_number, pf.font_key, pf.form_path, label, used, verdict))
            garbled.append((label, used, verdict))
        unresolved, fallback = font.unresolved, font.fallback
        for kind, severity, indices, message in (
            (
                DiagnosticKind.UNRESOLVED_GLYPHS,
                Severity.ERROR if len(unresolved) > UNRESOLVED_ERROR_SHARE * len(used) else Severity.WARNING,
                unresolved,
                f"{len(unresolved)} of {len(used)} {_glyph_word(len(used))} have no Unicode (no usable "
                "ToUnicode or encoding); they become spaces in the text",
            ),
            (
                DiagnosticKind.FALLBACK_DECODING,
                Severity.WARNING,
                fallback,
                f"{len(fallback)} {_glyph_word(len(fallback))} decoded by a guess (no encoding "
                "information answered); the text may be wrong",
            ),
        ):
            if indices:
                out.append(
                    Diagnostic(
                        kind,
                        severity,
                        f"font {label}: {message}",
                        page=page_number,
                        font_key=pf.font_key,
                        form_path=pf.form_path,
                        glyphs=indices,
                        count=len(indices),
                    )
                )
    if garbled:
        out.append(
            _garbled_page_finding(page_number, garbled, sum(len(e.font.glyphs) for e in fonts.entries))
        )
    return out


def _garbled_page_finding(
    page_number: int, garbled: list[tuple[str, tuple[int, ...], Verdict]], total: int
) -> Diagnostic:
    """The page's summary of its garbled_text findings: how much of its text is wrong, and in which fonts."""
    glyphs = tuple(sorted({i for _, used, _ in garbled for i in used}))
    share = len(glyphs) / total if total else 0.0
    fonts = "; ".join(
        f"{label} ({verdict.summary().removeprefix('garbled: ')})" for label, _, verdict in garbled
    )
    return Diagnostic(
        DiagnosticKind.GARBLED_PAGE,
        Severity.ERROR,
        f"{share:.0%} of the page's glyphs ({len(glyphs)} of {total}) are in {len(garbled)} "
        f"{'font' if len(garbled) == 1 else 'fonts'} whose text is garbled: {fonts}",
        page=page_number,
        glyphs=glyphs,
        count=len(glyphs),
        data={"glyphs_total": total, "share": round(share, 4), "fonts": [label for label, _, _ in garbled]},
    )


def garbled_document_finding(pages: Sequence[tuple[int, Sequence[Diagnostic]]]) -> Diagnostic | None:
    """Over the pages read ((page, its findings)), the document's summary of garbled text: on which
    pages, how many glyphs, which fonts; None when no page has any."""
    hit: list[int] = []
    glyphs = total = 0
    fonts: dict[str, None] = {}
    for page, findings in pages:
        for d in findings:
            if d.kind is DiagnosticKind.GARBLED_PAGE:
                hit.append(page)
                glyphs += d.count or 0
                data = d.data or {}
                page_total, page_fonts = data.get("glyphs_total"), data.get("fonts")
                total += page_total if isinstance(page_total, int) else 0
                fonts.update(dict.fromkeys(map(str, page_fonts) if isinstance(page_fonts, list) else ()))
    if not hit:
        return None
    from glyphscope.core.page_range import format_page_range

    return Diagnostic(
        DiagnosticKind.GARBLED_DOCUMENT,
        Severity.ERROR,
        f"garbled text on {len(hit)} of the {len(pages)} pages read ({format_page_range(hit)}): "
        f"{glyphs} of their {total} glyphs, in {', '.join(fonts)}",
        count=glyphs,
        data={"pages": hit, "pages_read": len(pages), "glyphs_total": total, "fonts": list(fonts)},
    )


def _garbled_finding(
    page_number: int,
    font_key: str,
    form_path: tuple[str, ...],
    label: str,
    used: tuple[int, ...],
    verdict: Verdict,
) -> Diagnostic:
    examples = ", ".join(f"“{w}”" for w in verdict.examples)
    return Diagnostic(
        DiagnosticKind.GARBLED_TEXT,
        Severity.ERROR,
        f"font {label}: the text is not plausible — {'; '.join(verdict.reasons)} over {verdict.glyphs} "
        f"glyphs (score {verdict.score:.2f})"
        + (f", e.g. {examples}" if examples else "")
        + f". Likely cause: {verdict.cause()}",
        page=page_number,
        font_key=font_key,
        form_path=form_path,
        glyphs=used,
        count=verdict.glyphs,
        measured=round(verdict.score, 4),
        threshold=GARBLED_SCORE,
        data=verdict.to_json(),
    )


def _form_findings(page: InterpretedPage, table: GlyphTable) -> list[Diagnostic]:
    """Forms whose glyphs fall outside their /BBox."""
    out: list[Diagnostic] = []
    for use in page.forms:
        if use.glyphs_outside_bbox:
            path = " → ".join(use.form_path)
            outside = tuple(
                i for i in sorted(table.outside) if table.runs[table.run_at(i)].form_path == use.form_path
            )
            out.append(
                Diagnostic(
                    DiagnosticKind.GLYPHS_OUTSIDE_FORM_BBOX,
                    Severity.WARNING,
                    f"form {path}: {use.glyphs_outside_bbox} {_glyph_word(use.glyphs_outside_bbox)} lie outside "
                    "the form's /BBox (viewers clip them; they are still extracted)",
                    page=page.page_number,
                    token_index=use.token_index,
                    form_path=use.form_path,
                    glyphs=outside,
                    count=use.glyphs_outside_bbox,
                )
            )
    return out


def _run_findings(
    page: InterpretedPage,
    from_forms_list: list[int],
    tf_one_glyphs: list[int],
    tf_one_runs: list[tuple[GlyphRun, int]],
    invisible_list: list[int],
) -> list[Diagnostic]:
    """Page-wide facts of the glyph runs: text from forms, '1 Tf' with the size in Tm, invisible text,
    no text at all."""
    page_number, glyphs = page.page_number, page.glyphs
    out: list[Diagnostic] = []
    from_forms = tuple(from_forms_list)
    if from_forms:
        share = len(from_forms) / len(glyphs)
        out.append(
            Diagnostic(
                DiagnosticKind.TEXT_FROM_FORMS,
                Severity.INFO,
                f"{share:.0%} of the page's glyphs ({len(from_forms)}) are painted inside Form XObjects "
                "(watermarks, headers, reused blocks)",
                page=page_number,
                glyphs=from_forms,
                count=len(from_forms),
            )
        )

    if tf_one_glyphs:
        tf_one = tuple(tf_one_glyphs)
        sizes = sorted(r.height for r, _ in tf_one_runs)
        first, token_index = tf_one_runs[0]
        out.append(
            Diagnostic(
                DiagnosticKind.TF_ONE_SCALED_TM,
                Severity.INFO,
                f"{len(tf_one)} {_glyph_word(len(tf_one))} set with '1 Tf' and the real size in the text "
                f"matrix (box heights {sizes[0]:.1f}–{sizes[-1]:.1f} pt): thresholds use glyph box heights, "
                "never the Tf operand",
                page=page_number,
                token_index=token_index if token_index >= 0 else None,
                font_key=first.font_key,
                form_path=first.form_path,
                glyphs=tf_one,
                count=len(tf_one),
            )
        )

    invisible = tuple(invisible_list)
    if invisible:
        out.append(
            Diagnostic(
                DiagnosticKind.INVISIBLE_TEXT,
                Severity.INFO,
                f"{len(invisible)} invisible {_glyph_word(len(invisible))} (render mode 3/7, e.g. an OCR "
                "layer): extracted although nothing is painted",
                page=page_number,
                glyphs=invisible,
                count=len(invisible),
            )
        )
    if not glyphs:
        out.append(
            Diagnostic(
                DiagnosticKind.NO_TEXT,
                Severity.INFO,
                "no text glyphs on this page (empty, or the text is an image or vector outlines)",
                page=page_number,
            )
        )
    return out
