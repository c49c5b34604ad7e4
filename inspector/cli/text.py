"""`glyphscope text FILE`: the page text in one mode (streamed page by page, or JSON)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from glyphscope.inspector.cli import io as cli_io

if TYPE_CHECKING:
    from glyphscope.core.assembly.page_text import PageText
    from glyphscope.inspector.cli.shared import Subparsers

from glyphscope.inspector.cli.shared import (
    EXIT_OK,
    add_input,
    add_jobs,
    add_json_flag,
    add_page_set,
    add_thresholds,
    json_document,
    open_input,
    output,
    page_numbers,
    parameters,
    separator,
    write_json,
)


def run(args: argparse.Namespace) -> int:
    from glyphscope.core.analysis import document_texts

    cli_io.check_output_folder(args.output)
    between = separator(args.separator)
    doc = open_input(args)
    params = parameters(args)
    pages = page_numbers(doc, args.pages)
    results = document_texts(doc, pages, args.mode, params, jobs=args.jobs)
    if getattr(args, "jsonl", False):  # one page per line, each with the version header
        from glyphscope.core.serialize import to_json

        with output(args) as out:
            for n, t in results:
                obj = (
                    json_document(file=args.file, mode=args.mode, page=n)
                    | {
                        "text": t.text,
                        "structured": _structured(args.mode, t),
                        "untagged": t.untagged,
                    }
                    | ({"reason": t.reason} if t.reason else {})
                )
                out.write((to_json(obj, indent=None) + "\n").encode("utf-8"))
        return EXIT_OK
    if args.json:
        obj = json_document(
            file=args.file,
            mode=args.mode,
            warnings=list(doc.warnings),
            pages=[
                {"page": n, "text": t.text, "structured": _structured(args.mode, t), "untagged": t.untagged}
                | ({"reason": t.reason} if t.reason else {})
                for n, t in results
            ],
        )
        obj["warnings"] = list(doc.warnings)  # with the repairs made while reading the pages
        write_json(obj, args.output)
        return EXIT_OK
    written = 0
    with output(args) as out:
        if args.bom:
            out.write(b"\xef\xbb\xbf")
        for _, t in results:  # streamed page by page; exact bytes: no trailing separator (spec §9)
            out.write((between if written else b"") + (t.text or "").encode("utf-8"))
            written += 1
    if args.output and not cli_io.is_stdout(args.output):
        cli_io.note(args, f"{written} page(s) written to {args.output}")
    return EXIT_OK


def _structured(mode: str, t: PageText) -> bool | None:
    """Whether structure order made the text: null for modes that never use it (a reader can tell
    "not structured" from "never tried")."""
    from glyphscope.core.assembly.modes import Mode

    if mode == Mode.STRUCTURE:
        return t.text is not None
    if mode == Mode.AUTO:
        return bool(t.structured)
    return None


def add_parser(sub: Subparsers) -> None:
    from glyphscope.core.assembly import MODES

    p = sub.add_parser("text", help="page text in one mode")
    add_input(p)
    p.add_argument("--mode", choices=MODES, default="plain", help="text mode")
    add_page_set(p)
    add_json_flag(p, lines=True)
    p.add_argument("--separator", metavar="S", default=r"\f", help=r"between pages; \f \n \t \xHH \uHHHH")
    p.add_argument("--bom", action="store_true", help="start the output with a UTF-8 BOM")
    p.add_argument("-o", "--output", metavar="OUT", help="write to this file; - is stdout (default: stdout)")
    add_thresholds(p)
    cli_io.add_limit_options(p)
    add_jobs(p)
    p.set_defaults(func=run)
