"""`glyphscope diagnostics FILE`: the findings of pages and of the document."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from glyphscope.inspector.cli import io as cli_io
from glyphscope.inspector.cli.shared import (
    ANNOTATIONS_ONLY,
    EXIT_OK,
    add_input,
    add_jobs,
    add_json_flag,
    add_page_set,
    add_thresholds,
    json_document,
    open_input,
    page_numbers,
    parameters,
    write_json,
)

if TYPE_CHECKING:
    from glyphscope.core.diagnostics import Diagnostic
    from glyphscope.inspector.cli.shared import Subparsers


def run(args: argparse.Namespace) -> int:
    from glyphscope.core.postprocess import garbled_document_finding
    from glyphscope.inspector.cli.pages import findings_task, page_values

    doc = open_input(args)
    params = parameters(args)
    pages: list[dict[str, Any]] = []
    found: list[tuple[int, Sequence[Diagnostic]]] = []
    # the set the window's Diagnostics and triage list
    for n, findings in page_values(doc, page_numbers(doc, args.pages), findings_task(params), args.jobs):
        found.append((n, findings))
        pages.append({"page": n, "diagnostics": [d.to_json() for d in findings]})
    summary = garbled_document_finding([(n, page_findings) for n, page_findings in found])
    document = [d.to_json() for d in (*doc.diagnostics, *((summary,) if summary else ()))]
    if getattr(args, "jsonl", False):  # one page per line; the document's own findings last, page null
        from glyphscope.core.serialize import to_json

        lines = [json_document(file=args.file, warnings=list(doc.warnings)) | p for p in pages]
        lines.append(json_document(file=args.file, page=None, document=document))
        sys.stdout.write("".join(to_json(obj, indent=None) + "\n" for obj in lines))
        return EXIT_OK
    if args.json:
        write_json(
            json_document(
                file=args.file,
                pages_total=doc.page_count,
                warnings=list(doc.warnings),
                document=document,
                pages=pages,
            )
        )
    else:
        for d in document:
            print(f"document\t{d['severity']}\t{d['kind']}\t{d['message']}")
        for p in pages:
            for d in p["diagnostics"]:
                print(f"page {p['page']}\t{d['severity']}\t{d['kind']}\t{d['message']}")
    return EXIT_OK


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("diagnostics", help="findings per page")
    add_input(p)
    add_page_set(p)
    add_json_flag(p, lines=True)
    add_thresholds(p, ANNOTATIONS_ONLY)
    cli_io.add_limit_options(p)
    add_jobs(p)
    p.set_defaults(func=run)
