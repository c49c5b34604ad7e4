"""`glyphscope decisions FILE`: every assembly decision of pages, with its numbers."""

from __future__ import annotations

import argparse
import functools
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
    add_thresholds,
    json_document,
    output,
    parameters,
    start_output,
    wants_json,
    written,
)


def run(args: argparse.Namespace) -> int:
    from glyphscope.core.textops import page_decisions_json
    from glyphscope.inspector.cli.csv import DECISION_COLUMNS, decision_cells, table_writer
    from glyphscope.inspector.cli.pages import page_values

    doc, pages = start_output(args)
    params = parameters(args)
    task = functools.partial(page_decisions_json, mode=args.mode, params=params)
    with output(args) as out:
        write_row = None if wants_json(args) else table_writer(out, DECISION_COLUMNS, csv=args.csv)
        documents = PageDocuments(out, args, pages)
        for n, decisions in page_values(doc, pages, task, args.jobs):
            obj = (
                json_document(file=args.file, page=n, mode=args.mode, warnings=list(doc.warnings)) | decisions
            )
            if write_row is None:
                documents.add(obj)
                continue
            for d in obj["decisions"]:
                write_row(decision_cells(n, d))
        if write_row is None:
            documents.close()
    written(args, pages)
    return EXIT_OK


def add_parser(sub: Subparsers) -> None:
    from glyphscope.core.assembly import MODES

    p = sub.add_parser("decisions", help="every assembly decision of pages")
    add_input(p)
    add_page_set(p)
    p.add_argument("--mode", choices=MODES, default="plain", help="text mode whose decisions are listed")
    add_listing_output(p, csv=True)
    add_thresholds(p)
    cli_io.add_limit_options(p)
    add_jobs(p)
    p.set_defaults(func=run)
