"""`glyphscope repair FILE -o OUT.pdf [--fonts F1,F2] [--from-ocr]`: a copy whose fonts read right.

The command line of inspector/repair.py. Per repaired font on stdout: its object id, resource
keys and how many codes its new /ToUnicode maps; the evidence the offset rests on; the doubtful
codes it left out (they read U+FFFD in the copy, never a wrong letter); and, read again from the
copy it wrote, the garbled-text score before → after (core/garbled.py) and, with `--from-ocr`,
the OCR agreement before → after. `--from-ocr` first runs the OCR cross-check
(inspector/verify/check.py) over `--pages`: its votes count as evidence where the ink is the
font's own drawing (inspector/verify/evidence.py). Without OCR installed it says in one line
how to install it and exits 1, as `verify` does.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from glyphscope.core.fonts.explain import code_hex
from glyphscope.inspector.cli import io as cli_io
from glyphscope.inspector.verify.evidence import UNKNOWN

if TYPE_CHECKING:
    from glyphscope.inspector.verify.check import VerifyResult


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


LEFT_OUT_SHOWN = 12
"""Doubtful codes listed per font on stdout (the rest are counted)."""


def run_repair(args: argparse.Namespace) -> int:
    from glyphscope.inspector.cli import shared as cli
    from glyphscope.inspector.repair import RepairError, font_scores, repair

    src = Path(args.file)
    if not src.is_file():
        raise cli.CliError(f"{src}: file not found", cli.EXIT_NOT_PDF)
    if args.pages and not args.from_ocr:
        raise cli.CliError("--pages chooses the pages to OCR: it needs --from-ocr", cli.EXIT_USAGE)
    checked = _ocr_check(args, src) if args.from_ocr else None
    fonts = args.fonts.split(",") if args.fonts else None
    password = cli_io.password(args)
    try:
        report = repair(
            src, args.output, fonts, password=password, verification=checked[1] if checked else None
        )
    except RepairError as exc:
        raise cli.CliError(str(exc), cli.EXIT_ERROR) from None
    after = font_scores(args.output, password)
    agreement_after = _agreement(args, Path(args.output), checked[0]) if checked else {}
    for font_id in report.fonts:
        keys = ", ".join(sorted(report.keys.get(font_id, set()))) or "-"
        if font_id in report.code_pages:
            print(
                f"{font_id} ({keys}): ActualText on {report.spans.get(font_id, 0)} text runs "
                f"({report.code_pages[font_id]} byte pairs)"
            )
        else:
            mapping = report.mappings[font_id]
            letters = sum(1 for t in mapping.values() if t != UNKNOWN)
            left = report.left_out.get(font_id, [])
            print(f"{font_id} ({keys}): /ToUnicode with {letters} codes, {len(left)} doubtful left out")
            ev = report.evidence.get(font_id)
            if ev is not None and ev.offset is not None:
                print(f"  evidence: {ev.offset.sentence()}")
            if checked and ev is not None and ev.ink_is_substitute:
                print(
                    "  the font is not embedded: the ink is the renderer's substitute, OCR votes do not count"
                )
            for row in left[:LEFT_OUT_SHOWN]:
                guess = f" (guess {row.proposed}: {row.reason})" if row.proposed else f" ({row.reason})"
                print(
                    f"  left out: {code_hex(row.code, report.code_bytes.get(font_id, 1))} {row.current!r}{guess}"
                )
            if len(left) > LEFT_OUT_SHOWN:
                print(f"  … and {len(left) - LEFT_OUT_SHOWN} more doubtful codes")
        print(f"  garbled score: {_score(report.scores.get(font_id))} → {_score(after.get(font_id))}")
        if checked:
            before_check = next((f for f in checked[1].fonts if f.font_id == font_id), None)
            ev = report.evidence.get(font_id)
            note = (
                " (the ink is the renderer's substitute: no evidence)" if ev and ev.ink_is_substitute else ""
            )
            print(
                f"  verify agreement: {_share(before_check.agreement if before_check else None)} → "
                f"{_share(agreement_after.get(font_id))}{note}"
            )
    print(f"written: {args.output}")
    return cli.EXIT_OK


def _score(found: tuple[float, int] | None) -> str:
    return "not judged" if found is None else f"{found[0]:.2f} over {found[1]} glyphs"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f} %"


def _agreement(args: argparse.Namespace, path: Path, pages: list[int]) -> dict[str, float | None]:
    """The OCR cross-check of the repaired copy over the same pages: font id → agreement."""
    from glyphscope.core.document import open_document
    from glyphscope.inspector.verify.check import verify_document

    with open_document(str(path), cli_io.password(args)) as doc:
        result = verify_document(doc, str(path), pages, lang=args.lang, password=cli_io.password(args))
    return {f.font_id: f.agreement for f in result.fonts}


def _ocr_check(args: argparse.Namespace, src: Path) -> tuple[list[int], VerifyResult]:
    """Run the OCR cross-check over --pages: (the pages, its result); its votes count as evidence
    in the repair. One line per font it judged and per page that failed goes to stderr."""
    from glyphscope.inspector.cli import shared as cli
    from glyphscope.inspector.verify.ocr import OcrUnavailable, check_languages

    try:
        check_languages(args.lang)
    except OcrUnavailable as exc:
        raise cli.CliError(f"--from-ocr: {exc}", cli.EXIT_ERROR) from None
    from glyphscope.core.document import open_document
    from glyphscope.inspector.verify.check import verify_document

    source = str(src)
    with open_document(source, cli_io.password(args)) as doc:
        pages = cli.page_numbers(doc, args.pages)
        result = verify_document(doc, source, pages, lang=args.lang, password=cli_io.password(args))
    for page in result.pages:
        if page.error:
            cli_io.note(args, f"page {page.page}: {page.error}")
    if pages and all(p.error for p in result.pages):
        raise cli.CliError("--from-ocr: no page could be read", cli.EXIT_ERROR)
    for f in result.fonts:
        agreement = "-" if f.agreement is None else f"{100 * f.agreement:.1f} %"
        cli_io.note(args, f"OCR: font {f.font_id} {f.verdict.value} (agreement {agreement})")
    return list(pages), result
