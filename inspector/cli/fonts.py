"""`glyphscope fonts FILE`: the fonts of pages with their decoding chain."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from glyphscope.inspector.cli import io as cli_io

if TYPE_CHECKING:
    from glyphscope.inspector.cli.shared import Subparsers

from glyphscope.inspector.cli.shared import (
    EXIT_OK,
    PageDocuments,
    add_input,
    add_jobs,
    add_listing_output,
    add_page_set,
    json_document,
    output,
    start_output,
    wants_json,
    written,
)


def run(args: argparse.Namespace) -> int:
    from glyphscope.inspector.cli.pages import font_rows, page_values

    doc, pages = start_output(args)
    with output(args) as out:
        documents = PageDocuments(out, args, pages)
        for n, fonts in page_values(doc, pages, font_rows, args.jobs):
            if wants_json(args):
                documents.add(json_document(file=args.file, page=n, warnings=list(doc.warnings), fonts=fonts))
                continue
            for f in fonts:
                line = (
                    f"page {n}\t{f['font_key']}\t{f['subtype']}\t{f['base_font']}\t{f['encoding']}\t"
                    f"ToUnicode={'yes' if f['has_tounicode'] else 'no'}\tglyphs={f['glyphs']}\t"
                    f"unresolved={f['unresolved']}\t{'; '.join(x['message'] for x in f['problems'])}\n"
                )
                out.write(line.encode("utf-8"))
        if wants_json(args):
            documents.close()
    written(args, pages)
    return EXIT_OK


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("fonts", help="fonts of pages with their decoding chain")
    add_input(p)
    add_page_set(p)
    add_listing_output(p, csv=False)
    cli_io.add_limit_options(p)
    add_jobs(p)
    p.set_defaults(func=run)
