"""`glyphscope repair FILE -o OUT.pdf [--fonts F1,F2] [--from-ocr]`: a copy whose fonts read right.

The command line of inspector/repair.py: one line per repaired font on stdout (its object id,
resource keys and how many codes its new /ToUnicode maps). `--from-ocr` adds the OCR
cross-check's proposals (`glyphscope.inspector.verify.propose_mappings`, when installed).
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import Any

from glyphscope.inspector import cli_io

EXIT_FEATURE_MISSING = 2  # the CLI's usage code (EXIT_USAGE): the option asks for a part not installed


def add_repair_parser(sub: Any) -> None:
    """The `repair` subcommand on the `glyphscope` parser's subparsers."""
    p = sub.add_parser("repair", help="write a copy whose garbled fonts get a corrected /ToUnicode")
    p.add_argument("file", metavar="FILE", help="the PDF to repair (never written)")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the repaired copy to write")
    p.add_argument("--fonts", metavar="LIST", help="comma-separated font keys (F1) or object ids (12 0 R)")
    p.add_argument("--from-ocr", action="store_true", help="add the OCR cross-check's proposed mappings")
    cli_io.add_password_options(p)
    p.set_defaults(func=run_repair)


def run_repair(args: argparse.Namespace) -> int:
    from glyphscope.inspector import cli
    from glyphscope.inspector.repair import RepairError, repair

    proposals = None
    if args.from_ocr:
        try:
            verify = importlib.import_module("glyphscope.inspector.verify")
            propose = verify.propose_mappings
        except (ImportError, AttributeError):
            raise cli.CliError(
                "--from-ocr: the OCR cross-check is not available in this installation", EXIT_FEATURE_MISSING
            ) from None
        proposals = propose(args.file)
    fonts = args.fonts.split(",") if args.fonts else None
    src = Path(args.file)
    if not src.is_file():
        raise cli.CliError(f"{src}: file not found", cli.EXIT_NOT_PDF)
    try:
        report = repair(src, args.output, fonts, proposals, password=cli_io.password(args))
    except RepairError as exc:
        raise cli.CliError(str(exc), cli.EXIT_ERROR) from None
    for font_id, mapping in report.mappings.items():
        keys = ", ".join(sorted(report.keys.get(font_id, set()))) or "-"
        print(f"{font_id} ({keys}): /ToUnicode with {len(mapping)} codes")
    print(f"written: {args.output}")
    return cli.EXIT_OK
