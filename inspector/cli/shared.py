"""What every command shares: exit codes, the common options, opening a document, JSON documents.

The parser (inspector/cli/parser.py) and the commands' own modules (compare, repair,
verify, triage) import these; none of them imports another command's module for them.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from glyphscope.inspector.cli import io as cli_io

if TYPE_CHECKING:
    from typing import TypeAlias

    from glyphscope.core.document import Document

    Subparsers: TypeAlias = argparse._SubParsersAction[Any]  # of the parser's own ArgumentParser class
    """The `glyphscope` parser's subparsers, which each command's `add_parser` adds itself to."""
    from glyphscope.core.params import Parameters

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_PASSWORD, EXIT_NOT_PDF = 0, 1, 2, 3, 4
EXIT_CODES = (
    (EXIT_OK, "success"),
    (
        EXIT_ERROR,
        "an error while processing (render: the page could not be drawn; triage: --fail-on matched a "
        "file, or the Dask scheduler did not answer)",
    ),
    (EXIT_USAGE, "a usage error: a bad option, value, page range or command"),
    (EXIT_PASSWORD, "a password is required or the one given is wrong"),
    (EXIT_NOT_PDF, "not a PDF, or unreadable"),
    (130, "interrupted (Ctrl-C)"),
)


class CliError(Exception):
    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


def json_document(**fields: Any) -> dict[str, Any]:
    """A JSON output: the version header, then the command's fields."""
    from glyphscope.core.serialize import output_header

    return output_header() | fields


def write_json(obj: Any, out: str | None = None) -> None:
    """UTF-8 JSON to the file `out`, or to stdout (no `out`, or `-`)."""
    from glyphscope.core.serialize import to_json

    cli_io.write_output(out, (to_json(obj) + "\n").encode("utf-8"))


def open_input(args: argparse.Namespace) -> Document:
    """The document named by FILE (`-`: stdin), with the password from its sources and the --max-*
    budgets; warnings on stderr (more, and the pages a budget stopped, after the command: `report_warnings`)."""
    from glyphscope.core.document import open_document

    doc = open_document(cli_io.read_input(args.file), cli_io.password(args), limits=cli_io.limits(args))
    for w in doc.warnings:
        cli_io.note(args, f"warning: {w}")
    args.opened_documents = [*getattr(args, "opened_documents", []), doc]
    return doc


def report_warnings(args: argparse.Namespace) -> None:
    """After a command: repairs qpdf made while reading pages, and one warning per page a budget stopped."""
    for doc in getattr(args, "opened_documents", []):
        for w in doc.warnings:
            cli_io.note(args, f"warning: {w}")
        for n, message in sorted(doc.budget_notes.items()):
            cli_io.note(args, f"warning: page {n}: {message}")


def page_numbers(doc: Document, spec: str | None) -> list[int]:
    from glyphscope.core.page_range import parse_page_range

    try:
        return list(parse_page_range(spec or "", doc.page_count))
    except ValueError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


def parameters(args: argparse.Namespace) -> Parameters:
    from glyphscope.core.params import PARAMETER_SPECS, Parameters

    given = {spec.name: getattr(args, spec.name) for spec in PARAMETER_SPECS if hasattr(args, spec.name)}
    try:
        return Parameters(**given)
    except ValueError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


STDIN_HELP = "the PDF to read; - reads it from stdin"


def add_input(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help=STDIN_HELP)
    cli_io.add_password_options(p)
    cli_io.add_quiet_option(p)


def add_page_set(p: argparse.ArgumentParser) -> None:
    """--pages RANGE, with --page as its alias (`--page 3` is `--pages 3`)."""
    p.add_argument(
        "--pages",
        "--page",
        dest="pages",
        metavar="RANGE",
        default="",
        help='1-based pages, e.g. "3", "1-3,7" or "5-" (default: all pages)',
    )


def add_json_flag(p: argparse.ArgumentParser, lines: bool = False) -> None:
    """--json (and with `lines`, --jsonl beside it)."""
    if not lines:
        p.add_argument("--json", action="store_true", help="UTF-8 JSON instead of text, on stdout")
        return
    formats = p.add_mutually_exclusive_group()
    formats.add_argument("--json", action="store_true", help="one UTF-8 JSON document instead of text")
    formats.add_argument("--jsonl", action="store_true", help="JSON Lines: one page's document per line")


ANNOTATIONS_ONLY = ("annotations",)
"""The parameter of commands that list glyphs or findings rather than assemble text."""


def add_thresholds(p: argparse.ArgumentParser, only: Sequence[str] | None = None) -> None:
    """The options of core.params.PARAMETER_SPECS (those of the fields `only`, when given):
    thresholds take a number; a switch's option sets the value opposite to its default ("--no-…"
    turns a default-on switch off); a field with choices takes one of its words."""
    from glyphscope.core.params import DEFAULT_PARAMETERS, PARAMETER_SPECS

    for spec in PARAMETER_SPECS:
        if spec.option is None or (only is not None and spec.name not in only):
            continue
        default = getattr(DEFAULT_PARAMETERS, spec.name)
        if spec.choices:
            p.add_argument(spec.option, dest=spec.name, choices=spec.choices, default=default, help=spec.help)
        elif spec.switch:
            action = "store_false" if default else "store_true"
            p.add_argument(spec.option, dest=spec.name, action=action, default=default, help=spec.help)
        else:
            p.add_argument(spec.option, dest=spec.name, type=float, default=default, help=spec.help)


def add_jobs(p: argparse.ArgumentParser) -> None:
    """--jobs N of the commands that read a document's pages (inspector/cli/pages.py)."""
    from glyphscope.inspector.cli.pages import add_jobs_option

    add_jobs_option(p)


# ------------------------------------------------------------------ the per-page commands' output


def page_in_range(doc: Document, n: int) -> int:
    if not 1 <= n <= doc.page_count:
        raise CliError(f"page {n} is out of range: the document has {doc.page_count} page(s)", EXIT_USAGE)
    return n


_ESCAPES = {"f": "\f", "n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\"}


def separator(typed: str) -> bytes:
    """--separator as the bytes written: escapes read, bytes that were not UTF-8 in argv given back."""
    text = unescape(typed)
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raise cli_io.UsageError(
            f"--separator {typed}: holds half of a UTF-16 surrogate pair, which is not a character"
        ) from None


def unescape(text: str) -> str:
    r"""Backslash escapes in --separator (\f, \n, \t, \xHH, \uHHHH); other characters as typed."""

    def repl(m: re.Match[str]) -> str:
        code = m.group(1)
        if code[0] in "xu":
            return chr(int(code[1:], 16))
        return _ESCAPES[code]

    return re.sub(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[fntr0\\])", repl, text)


@contextlib.contextmanager
def output(args: argparse.Namespace) -> Iterator[IO[bytes]]:
    """The binary stream of `-o FILE` (stdout without it, or with `-`); a file that cannot be
    opened or written (a full disk) is one usage error line."""
    out = getattr(args, "output", None)
    if out is None or cli_io.is_stdout(out):
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    try:
        fh = open(out, "wb")  # noqa: SIM115 — closed below, after the command's writes
    except OSError as exc:
        raise cli_io.UsageError(f"cannot write {out}: {exc.strerror or type(exc).__name__}") from None
    try:
        with fh:
            yield fh
    except OSError as exc:  # a full disk while writing (the input was read before)
        raise cli_io.UsageError(f"cannot write {out}: {exc.strerror or type(exc).__name__}") from None


def written(args: argparse.Namespace, pages: Sequence[int]) -> None:
    if args.output and not cli_io.is_stdout(args.output):
        cli_io.note(args, f"{len(pages)} page(s) written to {args.output}")


class PageDocuments:
    """The JSON of a per-page command. `--jsonl`: each page's document on its own line, whatever
    the number of pages. `--json`: ONE document: the page's own for one page; over several,
    `{schema_version, glyphscope_version, file, pages: [each page's document]}`, written page by
    page as the pages come (never the whole listing in memory)."""

    def __init__(self, out: IO[bytes], args: argparse.Namespace, pages: Sequence[int]) -> None:
        self.out = out
        self.lines = bool(getattr(args, "jsonl", False))
        self.one = len(pages) == 1
        self.file = args.file
        self.count = 0

    def add(self, obj: object) -> None:
        from glyphscope.core.serialize import to_json

        if self.lines:
            self.out.write((to_json(obj, indent=None) + "\n").encode("utf-8"))
        elif self.one:
            self.out.write((to_json(obj) + "\n").encode("utf-8"))
        else:
            self.out.write(b",\n" if self.count else self._head())
            self.out.write(to_json(obj, indent=None).encode("utf-8"))
        self.count += 1

    def close(self) -> None:
        if not self.lines and not self.one:
            self.out.write((b"" if self.count else self._head()) + b"\n]}\n")

    def _head(self) -> bytes:
        from glyphscope.core.serialize import to_json

        head = to_json(json_document(file=self.file), indent=None)[:-1]  # without its closing brace
        return (head + ', "pages": [\n').encode("utf-8")


def wants_json(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "json", False) or getattr(args, "jsonl", False))


def start_output(args: argparse.Namespace) -> tuple[Document, list[int]]:
    """Check `-o`, open FILE and read --pages: the start of every per-page listing."""
    cli_io.check_output_folder(getattr(args, "output", None))
    doc = open_input(args)
    return doc, page_numbers(doc, args.pages)


def add_listing_output(p: argparse.ArgumentParser, csv: bool) -> None:
    """--json (and --csv), -o: where a per-page listing goes and in which format."""
    formats = p.add_mutually_exclusive_group()
    formats.add_argument(
        "--json",
        action="store_true",
        help="one UTF-8 JSON document instead of text: the page's own, or over several pages "
        '{..., "pages": [each page\'s document]}',
    )
    formats.add_argument("--jsonl", action="store_true", help="JSON Lines: one page's document per line")
    if csv:
        formats.add_argument(
            "--csv", action="store_true", help="CSV (RFC 4180, with a header) instead of text"
        )
    p.add_argument("-o", "--output", metavar="OUT", help="write to this file; - is stdout (default: stdout)")
