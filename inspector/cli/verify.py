"""`glyphscope verify FILE --pages R [--lang eng+deu] [--dpi 300] [--json]`: the OCR cross-check.

Each page is rendered (PDFium, the whole MediaBox) and read by Tesseract; every OCR character
is aligned to the glyph under it (inspector/verify/check.py). Reported: per glyph agrees / ink reads
X / no ink read; per font agreement, a confusion table, a verdict and, for a wrong mapping, the
code → Unicode table the ink proposes; per page the text-like ink without glyphs and the
visible glyphs without ink; the invisible OCR layer over a scan checked word by word against
the scan (`ocr_layer`, a wrong one is an error finding); every glyph not judged counted by
reason (`not_judged`) (schemas/verify.schema.json).

Exit codes: 0 the check ran (whatever the verdicts); 1 OCR is not installed (one line says how
to install it) or no page could be read; 2 usage; 3 password; 4 not a PDF.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from glyphscope.inspector.cli import io as cli_io

if TYPE_CHECKING:
    from glyphscope.inspector.verify.check import FontCheck, PageCheck


def add_verify_parser(sub: Any) -> None:
    """The `verify` subcommand on the `glyphscope` parser's subparsers."""
    from glyphscope.inspector.cli import shared as cli

    p = sub.add_parser("verify", help="OCR cross-check: does the ink read what each glyph decodes to?")
    cli.add_input(p)
    cli.add_page_set(p)
    p.add_argument(
        "--lang", default="eng", metavar="LANGS", help="Tesseract languages joined by +, e.g. eng+deu"
    )
    p.add_argument("--dpi", type=float, default=300.0, help="resolution the pages are rendered at for OCR")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds Tesseract may spend on one page")
    p.add_argument("--no-glyphs", action="store_true", help="leave the per-glyph list out of the JSON")
    cli.add_json_flag(p)
    cli_io.add_limit_options(p)
    p.set_defaults(func=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    from glyphscope.inspector.cli import shared as cli
    from glyphscope.inspector.verify.check import verify_document
    from glyphscope.inspector.verify.ocr import OcrUnavailable, check_languages

    if not 36.0 <= args.dpi <= 1200.0:
        raise cli.CliError(f"--dpi must be between 36 and 1200, not {args.dpi:g}", cli.EXIT_USAGE)
    if not args.timeout > 0:
        raise cli.CliError(f"--timeout must be > 0, not {args.timeout:g}", cli.EXIT_USAGE)
    try:
        status = check_languages(args.lang)
    except OcrUnavailable as exc:
        raise cli.CliError(str(exc), cli.EXIT_ERROR) from None
    from glyphscope.core.document import open_document

    source = cli_io.read_input(args.file)  # once: stdin's bytes are opened and rendered alike
    doc = open_document(source, cli_io.password(args), limits=cli_io.limits(args))
    for w in doc.warnings:
        cli_io.note(args, f"warning: {w}")
    args.opened_documents = [doc]  # the budget notes after the command (cli.report_warnings)
    pages = cli.page_numbers(doc, args.pages)

    def progress(page: PageCheck) -> None:
        if page.error:
            cli_io.note(args, f"page {page.page}: {page.error}")
        elif not args.json:
            _print_page(page)

    result = verify_document(
        doc,
        source,
        pages,
        lang=args.lang,
        dpi=args.dpi,
        password=cli_io.password(args),
        timeout=args.timeout,
        on_page=progress,
    )
    from glyphscope.inspector.verify.check import verify_findings

    findings = verify_findings(result)
    if args.json:
        from glyphscope.inspector.verify.check import THRESHOLDS, propose_mappings

        cli.write_json(
            cli.json_document(
                file=args.file,
                lang=args.lang,
                dpi=args.dpi,
                ocr=status.to_json(),
                thresholds=THRESHOLDS,
                warnings=list(doc.warnings),
                pages=[p.to_json(glyphs=not args.no_glyphs) for p in result.pages],
                fonts=[f.to_json() for f in result.fonts],
                findings=[d.to_json() for d in findings],
                proposed_mappings={
                    fid: [{"code": c, "unicode": u} for c, u in sorted(m.items())]
                    for fid, m in propose_mappings(result).items()
                },
            )
        )
    else:
        for f in result.fonts:
            _print_font(f)
        for p in result.pages:
            if p.error is None:
                _print_not_judged(p)
        for d in findings:
            sys.stdout.write(f"{d.severity.value}\tpage {d.page}\t{d.kind.value}\t{d.message}\n")
    if pages and all(p.error for p in result.pages):
        raise cli.CliError("no page could be verified", cli.EXIT_ERROR)
    return cli.EXIT_OK


def _print_page(page: PageCheck) -> None:
    c = page.counts()
    from glyphscope.inspector.verify.check import GlyphVerdict

    out = sys.stdout
    out.write(
        f"page {page.page}\t{len(page.glyphs)} glyphs\tagree {c.get(GlyphVerdict.AGREES, 0)}\t"
        f"ink reads other {c.get(GlyphVerdict.INK_READS_OTHER, 0)}\tno ink read {c.get(GlyphVerdict.NO_INK_READ, 0)}\t"
        f"ink without glyphs {len(page.ink_without_glyphs)}\tglyphs without ink {len(page.glyphs_without_ink)}\t"
        f"{page.seconds:.2f} s\n"
    )
    layer = page.ocr_layer
    if layer is not None:
        agreement = "-" if layer.agreement is None else f"{100 * layer.agreement:.1f} %"
        out.write(
            f"  ocr layer\t{layer.verdict.value}\t{layer.glyphs} glyphs, {layer.checked} checked in "
            f"{len(layer.words)} words\tagreement {agreement}\t{layer.reason}\n"
        )
        if layer.evidence:
            out.write(f"    taken for a layer: {layer.evidence}\n")
        for example in layer.examples():
            out.write(f"    {example}\n")
    if page.covered_text is not None:
        out.write(f"  covered text\t{page.covered_text.reason}\n")
    for r in page.ink_without_glyphs:
        box = ", ".join(f"{v:.1f}" for v in r.bbox)
        out.write(f"  ink without glyphs\t[{box}]\t{r.text!r}\tconf {r.mean_conf:.0f}\n")
    for g in page.glyphs_without_ink[:20]:
        box = ", ".join(f"{v:.1f}" for v in g.bbox)
        out.write(f"  glyph without ink\t#{g.paint_index}\t{g.decoded!r}\t[{box}]\n")
    if len(page.glyphs_without_ink) > 20:
        out.write(f"  … and {len(page.glyphs_without_ink) - 20} more glyphs without ink\n")


def _print_font(f: FontCheck) -> None:
    out = sys.stdout
    agreement = "-" if f.agreement is None else f"{100 * f.agreement:.1f} %"
    out.write(
        f"font {f.font_id}\t{'/'.join(k.lstrip('/') for k in f.font_keys)}\t{f.base_font or '?'}\t"
        f"{f.verdict.value}\tagreement {agreement}\t{f.reason}\n"
    )
    for c in f.confusion[:10]:
        out.write(
            f"  code {c.code}\tdecoded {c.decoded!r}\tink reads {c.ink!r}\t×{c.count}\tconf {c.mean_conf:.0f}\n"
        )
    if len(f.confusion) > 10:
        out.write(f"  … and {len(f.confusion) - 10} more confusions\n")
    if f.proposed:
        pairs = " ".join(f"{code}→{text!r}" for code, text in sorted(f.proposed.items()))
        out.write(f"  proposed mapping\t{pairs}\n")


def _print_not_judged(page: PageCheck) -> None:
    """One line per page: how many of its glyphs were judged, and why the others were not."""
    reasons = page.not_judged()
    left = sum(reasons.values())
    line = f"page {page.page}\tjudged {page.judged} of {page.glyphs_total} glyphs"
    if left:
        line += f"\tnot judged {left}: " + ", ".join(
            f"{key.replace('_', ' ')} {n}" for key, n in reasons.items()
        )
    sys.stdout.write(line + "\n")
