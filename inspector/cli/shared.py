"""What the per-page commands share: exit codes and the one-line error, opening FILE with its
password and budgets, page ranges, the assembly parameters from the options, where the output
goes, and the JSON documents (`PageDocuments`: --json one document, --jsonl one page a line).

Every name here is public: the command modules (glyphs.py, fonts.py, diagnostics.py, text.py,
decisions.py and compare, verify, repair, triage) import them; nothing here imports the engine at
module level (start-up time: tests/test_startup.py).
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
    from glyphscope.core.document import Document
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
    budgets; warnings on stderr (more, and the pages a budget stopped, after the command: `report`)."""
    from glyphscope.core.document import open_document

    doc = open_document(cli_io.read_input(args.file), cli_io.password(args), limits=cli_io.limits(args))
    for w in doc.warnings:
        cli_io.note(args, f"warning: {w}")
    args.opened_documents = [*getattr(args, "opened_documents", []), doc]
    return doc


def report(args: argparse.Namespace) -> None:
    """After a command: repairs qpdf made while reading pages, and one warning per page a budget stopped."""
    for doc in getattr(args, "opened_documents", []):
        for w in doc.warnings:
            cli_io.note(args, f"warning: {w}")
        for n, message in sorted(doc.budget_notes.items()):
            cli_io.note(args, f"warning: page {n}: {message}")


def page_in_range(doc: Document, n: int) -> int:
    if not 1 <= n <= doc.page_count:
        raise CliError(f"page {n} is out of range: the document has {doc.page_count} page(s)", EXIT_USAGE)
    return n


def page_list(doc: Document, spec: str | None) -> list[int]:
    from glyphscope.core.page_range import parse_page_range

    try:
        return list(parse_page_range(spec or "", doc.page_count))
    except ValueError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


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


def parameters(args: argparse.Namespace) -> Parameters:
    """The assembly parameters the options of PARAMETER_OPTIONS set (a bad value: a usage error)."""
    from glyphscope.core.params import Parameters
    from glyphscope.inspector.cli.parser import PARAMETER_OPTIONS

    given = {field: getattr(args, field) for _, field, _ in PARAMETER_OPTIONS if hasattr(args, field)}
    try:
        return Parameters(**given)
    except ValueError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


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

    def add(self, obj: Any) -> None:
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
    return doc, page_list(doc, args.pages)
