"""`glyphscope repair FILE -o OUT.pdf [--fonts F1,F2] [--from-ocr]`: a copy whose fonts read right.

The command line of inspector/repair.py: one line per repaired font on stdout (its object id,
resource keys and how many codes its new /ToUnicode maps). `--from-ocr` first runs the OCR
cross-check (inspector/verify/check.py) over `--pages` and adds the code → Unicode tables the ink
proposes for fonts whose mapping it judges wrong (`propose_mappings`); they win over
glyphscope's own offset proposals. Without OCR installed it says in one line how to install it
and exits 1, as `verify` does.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from glyphscope.inspector.cli import io as cli_io


def add_repair_parser(sub: Any) -> None:
    """The `repair` subcommand on the `glyphscope` parser's subparsers."""
    p = sub.add_parser("repair", help="write a copy whose garbled fonts get a corrected /ToUnicode")
    p.add_argument("file", metavar="FILE", help="the PDF to repair (never written)")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the repaired copy to write")
    p.add_argument("--fonts", metavar="LIST", help="comma-separated font keys (F1) or object ids (12 0 R)")
    p.add_argument(
        "--from-ocr", action="store_true", help="OCR the pages first and add the mappings the ink proposes"
    )
    p.add_argument(
        "--pages",
        metavar="RANGE",
        default="",
        help="with --from-ocr: the pages to OCR, e.g. 1-10 (default: all pages)",
    )
    p.add_argument(
        "--lang", default="eng", metavar="LANGS", help="with --from-ocr: Tesseract languages, e.g. eng+deu"
    )
    cli_io.add_password_options(p)
    cli_io.add_quiet_option(p)
    p.set_defaults(func=run_repair)


def run_repair(args: argparse.Namespace) -> int:
    from glyphscope.inspector.cli import shared as cli_shared
    from glyphscope.inspector.repair import RepairError, repair

    src = Path(args.file)
    if not src.is_file():
        raise cli_shared.CliError(f"{src}: file not found", cli_shared.EXIT_NOT_PDF)
    if args.pages and not args.from_ocr:
        raise cli_shared.CliError(
            "--pages chooses the pages to OCR: it needs --from-ocr", cli_shared.EXIT_USAGE
        )
    proposals = _ocr_proposals(args, src) if args.from_ocr else None
    fonts = args.fonts.split(",") if args.fonts else None
    try:
        report = repair(src, args.output, fonts, proposals, password=cli_io.password(args))
    except RepairError as exc:
        raise cli_shared.CliError(str(exc), cli_shared.EXIT_ERROR) from None
    for font_id in report.fonts:
        keys = ", ".join(sorted(report.keys.get(font_id, set()))) or "-"
        if font_id in report.code_pages:
            print(
                f"{font_id} ({keys}): ActualText on {report.spans.get(font_id, 0)} text runs "
                f"({report.code_pages[font_id]} byte pairs)"
            )
        else:
            print(f"{font_id} ({keys}): /ToUnicode with {len(report.mappings[font_id])} codes")
    print(f"written: {args.output}")
    return cli_shared.EXIT_OK


def _ocr_proposals(args: argparse.Namespace, src: Path) -> Mapping[str, Mapping[int, str]]:
    """Run the OCR cross-check over --pages and give its proposed tables ({font id: {code: text}});
    one line per font it judged and per page that failed goes to stderr."""
    from glyphscope.inspector.cli import shared as cli_shared
    from glyphscope.inspector.verify.ocr import OcrUnavailable, check_languages

    try:
        check_languages(args.lang)
    except OcrUnavailable as exc:
        raise cli_shared.CliError(f"--from-ocr: {exc}", cli_shared.EXIT_ERROR) from None
    from glyphscope.core.document import open_document
    from glyphscope.inspector.verify.check import propose_mappings, verify_document

    source = str(src)
    doc = open_document(source, cli_io.password(args))
    pages = cli_shared.page_list(doc, args.pages)
    result = verify_document(doc, source, pages, lang=args.lang, password=cli_io.password(args))
    for page in result.pages:
        if page.error:
            cli_io.note(args, f"page {page.page}: {page.error}")
    if pages and all(p.error for p in result.pages):
        raise cli_shared.CliError("--from-ocr: no page could be read", cli_shared.EXIT_ERROR)
    for f in result.fonts:
        agreement = "-" if f.agreement is None else f"{100 * f.agreement:.1f} %"
        cli_io.note(args, f"OCR: font {f.font_id} {f.verdict.value} (agreement {agreement})")
    return propose_mappings(result)
