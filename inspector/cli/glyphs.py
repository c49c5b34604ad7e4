"""`glyphscope glyphs FILE`: the glyph records of pages (a table, CSV, --json, --jsonl)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from glyphscope.inspector.cli import io as cli_io

if TYPE_CHECKING:
    from glyphscope.inspector.cli.shared import Subparsers

from glyphscope.inspector.cli.shared import (
    ANNOTATIONS_ONLY,
    EXIT_OK,
    PageDocuments,
    add_input,
    add_jobs,
    add_listing_output,
    add_page_set,
    add_thresholds,
    output,
    parameters,
    start_output,
    wants_json,
    written,
)


def run(args: argparse.Namespace) -> int:
    from glyphscope.core.serialize import write_glyphs_json
    from glyphscope.inspector.cli.csv import GLYPH_COLUMNS, table_writer
    from glyphscope.inspector.cli.pages import glyphs_task, page_values

    doc, pages = start_output(args)
    params = parameters(args)
    with output(args) as out:
        if args.json and len(pages) == 1:  # streamed: one glyph's dict at a time, never the whole listing
            from glyphscope.core.passes import classify

            page = doc.interpret(pages[0])
            classified = classify(page, params)
            write_glyphs_json(out, args.file, page, classified, args.set, params.to_json(), doc.warnings)
            written(args, pages)
            return EXIT_OK
        write_row = None if wants_json(args) else table_writer(out, GLYPH_COLUMNS, csv=args.csv)
        task = glyphs_task(args.file, args.set, params, table=write_row is not None, csv=args.csv)
        documents = PageDocuments(out, args, pages)
        for _, value in page_values(doc, pages, task, args.jobs):
            if isinstance(value, dict):
                value["warnings"] = list(doc.warnings)  # as read so far, in page order
                documents.add(value)
            else:
                for cells in value:
                    assert write_row is not None
                    write_row(cells)
        if write_row is None:
            documents.close()
    written(args, pages)
    return EXIT_OK


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("glyphs", help="glyph records of pages")
    add_input(p)
    add_page_set(p)
    p.add_argument(
        "--set",
        choices=("raw", "visible", "all"),
        default="visible",
        help="raw: page-stream glyphs; visible: the glyphs of the text; all: every glyph with its status",
    )
    add_listing_output(p, csv=True)
    add_thresholds(p, ANNOTATIONS_ONLY)
    cli_io.add_limit_options(p)
    add_jobs(p)
    p.set_defaults(func=run)
