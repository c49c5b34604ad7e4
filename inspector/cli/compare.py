"""`glyphscope compare FILE --pages R [--engines pdfminer,pdftotext,...] [--mode M] --json`.

Per page: each engine's text, the alignment summary (characters agreeing, spaces
differing, text on one side only, moved), and every difference with the
glyphscope decision that explains it (schemas/compare.schema.json). Without
`--json`: one line per difference; `--jsonl`: each page's comparison on a line of its own
(with the version header, file and mode). Engines that are not installed are listed
with how to install them; naming one explicitly is a usage error only when it
is unknown, an absent one becomes an engine entry with its error.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from glyphscope.core.assembly import MODES
from glyphscope.inspector.cli import io as cli_io
from glyphscope.inspector.cli.pages import page_values
from glyphscope.inspector.compare.engines import (
    DEFAULT_TIMEOUT,
    ENGINE_KEYS,
    detect_engines,
    parse_engine_list,
)

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.core.params import Parameters


def add_compare_parser(sub: Any) -> None:
    """The `compare` subcommand on the `glyphscope` parser's subparsers."""
    from glyphscope.inspector.cli import shared as cli

    p = sub.add_parser("compare", help="other extractors' text aligned to glyphscope's glyphs, explained")
    cli.add_input(p)
    cli.add_page_set(p)
    p.add_argument(
        "--engines",
        default="all",
        metavar="LIST",
        help=f"comma-separated, from {', '.join(ENGINE_KEYS)}; all = every installed one",
    )
    p.add_argument("--mode", choices=MODES, default="plain", help="glyphscope's text mode to compare with")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per engine and page")
    p.add_argument(
        "--list-engines", action="store_true", help="list the engines with their versions and exit"
    )
    cli.add_json_flag(p, lines=True)
    cli.add_thresholds(p)
    cli.add_jobs(p)
    p.set_defaults(func=run_compare)


@contextmanager
def _engine_path(args: argparse.Namespace) -> Iterator[str]:
    """A path the engines can read: FILE itself, or stdin's bytes in a temporary file (removed after)."""
    if args.file != "-":
        yield args.file
        return
    data = cli_io.read_input(args.file)
    assert isinstance(data, bytes)
    fd, path = tempfile.mkstemp(prefix="glyphscope-compare-", suffix=".pdf")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        yield path
    finally:
        os.unlink(path)


def run_compare(args: argparse.Namespace) -> int:
    from glyphscope.core.document import open_document
    from glyphscope.inspector.cli import shared as cli

    if args.list_engines:
        _list_engines(args)
        return cli.EXIT_OK
    try:
        keys = parse_engine_list(args.engines)
    except ValueError as exc:
        raise cli.CliError(str(exc), cli.EXIT_USAGE) from None
    if not keys:
        raise cli.CliError("no engine to compare with: none is installed", cli.EXIT_ERROR)
    if not args.timeout > 0:
        raise cli.CliError(f"--timeout must be > 0, not {args.timeout}", cli.EXIT_USAGE)
    params = cli.parameters(args)
    password = cli_io.password(args)
    with _engine_path(args) as path:
        doc = open_document(path, password)
        for w in doc.warnings:
            cli_io.note(args, f"warning: {w}")
        pages = cli.page_numbers(doc, args.pages)
        out_pages = []
        task = functools.partial(
            _compare_page, path=path, password=password, keys=keys, params=params, args=_CompareArgs.of(args)
        )
        for n, page in page_values(doc, pages, task, args.jobs):
            cli_io.note(args, f"page {n}: {', '.join(keys)}")
            if isinstance(page, dict) and getattr(args, "jsonl", False):  # one page a line, as it comes
                from glyphscope.core.serialize import to_json

                line = cli.json_document(file=args.file, mode=args.mode) | page
                sys.stdout.write(to_json(line, indent=None) + "\n")
                sys.stdout.flush()
            elif isinstance(page, dict):
                out_pages.append(page)
            else:
                sys.stdout.write(page)
                sys.stdout.flush()
    if args.json:
        engines = [s.to_json() for s in detect_engines()]
        cli.write_json(
            cli.json_document(
                file=args.file,
                mode=args.mode,
                warnings=list(doc.warnings),
                engines=engines,
                pages=out_pages,
            )
        )
    return cli.EXIT_OK


def _list_engines(args: argparse.Namespace) -> None:
    for s in detect_engines():
        if s.available:
            print(f"{s.key}\t{s.version or '?'}\t{s.spec.options}")
        else:
            print(f"{s.key}\tnot installed\t{s.spec.install}")


@dataclass(frozen=True, slots=True)
class _CompareArgs:
    """What a page of `compare` needs of the command line (a worker gets this, not the Namespace)."""

    mode: str
    timeout: float
    json: bool

    @classmethod
    def of(cls, args: argparse.Namespace) -> _CompareArgs:
        return cls(args.mode, args.timeout, bool(args.json or getattr(args, "jsonl", False)))


def _compare_page(
    doc: Document,
    n: int,
    *,
    path: str,
    password: str | None,
    keys: Sequence[str],
    params: Parameters,
    args: _CompareArgs,
) -> dict[str, object] | str:
    """One page compared: its JSON (--json) or its lines."""
    from glyphscope.core.analysis import analyze_page
    from glyphscope.inspector.compare.engines import run_engines
    from glyphscope.inspector.compare.page import compare_page

    analysis = analyze_page(doc, n, params)
    results = run_engines(keys, path, n, password, timeout=args.timeout)
    comparison = compare_page(analysis, results, args.mode)
    return comparison.to_json() if args.json else _page_lines(comparison)


def _page_lines(comparison: Any) -> str:
    lines: list[str] = []
    for e in comparison.engines:
        if e.alignment is None:
            lines.append(f"page {comparison.page_number}\t{e.label}\terror\t{e.result.error}")
            continue
        s = e.summary()
        lines.append(
            f"page {comparison.page_number}\t{e.label}\tagreement {100 * s['agreement']:.1f} %\t"
            f"{s['characters_agreeing']} chars agree, {s['spaces_differing']} spaces differ, "
            f"{s['only_theirs']} only theirs, {s['only_ours']} only ours, {s['moved']} moved"
        )
        lines.extend(f"\t{d.kind}\t{d.sentence}" for d in e.differences)
    return "".join(line + "\n" for line in lines)
