"""The `glyphscope` command line: headless triage with the same engine as the window.

Exit codes (spec §9): 0 ok; 1 error while processing; 2 usage; 3 password
required or wrong; 4 not a PDF or unreadable. Errors are one line on
stderr, never a traceback. `glyphscope completion bash|zsh` prints a shell
completion script and `python -m glyphscope.inspector.cli.docs man` a man page, both
made from this parser. Conventions shared by all commands (`-` for
stdin/stdout, the password sources, `--quiet`) are in `cli_io`, the options and helpers every command uses (exit codes, FILE, --pages, --json, the thresholds) in `shared`; every JSON
output starts with `core.serialize.output_header()` and follows
`schemas/<command>.schema.json`.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import functools
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from glyphscope.core.errors import GlyphscopeError
from glyphscope.inspector.cli import io as cli_io
from glyphscope.inspector.cli.shared import (
    ANNOTATIONS_ONLY,
    EXIT_ERROR,
    EXIT_NOT_PDF,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    add_input,
    add_jobs,
    add_json_flag,
    add_page_set,
    add_thresholds,
    json_document,
    open_input,
    page_numbers,
    parameters,
    report_warnings,
    write_json,
)

if TYPE_CHECKING:
    from glyphscope.core.diagnostics import Diagnostic
    from glyphscope.core.document import Document

# Start-up time: a command imports the engine modules it uses when it runs, and
# `run` builds the parser of the one command asked for: `glyphscope --version` and `--help`
# load no engine module, `text` no JSON, serialisation, triage or comparison code.

SUBCOMMANDS = (
    "glyphs",
    "fonts",
    "diagnostics",
    "text",
    "decisions",
    "triage",
    "render",
    "compare",
    "completion",
    "verify",
    "repair",
)
PAUSED_START = ("glyphs", "fonts", "diagnostics", "text", "decisions")
"""Commands that read pages in this process (or start page workers) soon after their start: the cyclic
collector sits out their imports (core.gcpause.pause_start; glyphscope/__main__.py)."""


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's help ends with its default, unless the help states it or the option is required."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            not action.option_strings
            or action.required
            or action.default is argparse.SUPPRESS
            or "(default" in text
            or "%(default)" in text
        ):
            return text
        if action.nargs == 0 and action.default is None:  # --version: an action, not a value
            return text
        negative = next((o[len("--no-") :] for o in action.option_strings if o.startswith("--no-")), None)
        if action.nargs == 0 and negative:  # `--no-x`: x is on unless the switch is given
            return text + f" (default: {negative.replace('-', ' ')} on)"
        if action.nargs == 0 and action.default is False:  # a flag
            return text + " (default: off)"
        if action.default is None:
            return text + " (default: none)"
        return text + " (default: %(default)s)"


class _VersionAction(argparse.Action):
    """`--version`: the package metadata is read only when asked for (it costs start-up time)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        import glyphscope

        sys.stdout.write(f"glyphscope {glyphscope.__version__}\n")
        parser.exit(0)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"glyphscope: {message}\n")


def _page(doc: Document, n: int) -> int:
    if not 1 <= n <= doc.page_count:
        raise CliError(f"page {n} is out of range: the document has {doc.page_count} page(s)", EXIT_USAGE)
    return n


_ESCAPES = {"f": "\f", "n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\"}


def _separator(typed: str) -> bytes:
    """--separator as the bytes written: escapes read, bytes that were not UTF-8 in argv given back."""
    text = _unescape(typed)
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raise cli_io.UsageError(
            f"--separator {typed}: holds half of a UTF-16 surrogate pair, which is not a character"
        ) from None


def _unescape(text: str) -> str:
    r"""Backslash escapes in --separator (\f, \n, \t, \xHH, \uHHHH); other characters as typed."""

    def repl(m: re.Match[str]) -> str:
        code = m.group(1)
        if code[0] in "xu":
            return chr(int(code[1:], 16))
        return _ESCAPES[code]

    return re.sub(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[fntr0\\])", repl, text)


# ------------------------------------------------------------------ commands


@contextlib.contextmanager
def _output(args: argparse.Namespace) -> Iterator[IO[bytes]]:
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


def _written(args: argparse.Namespace, pages: Sequence[int]) -> None:
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


def _wants_json(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "json", False) or getattr(args, "jsonl", False))


def _start_output(args: argparse.Namespace) -> tuple[Document, list[int]]:
    """Check `-o`, open FILE and read --pages: the start of every per-page listing."""
    cli_io.check_output_folder(getattr(args, "output", None))
    doc = open_input(args)
    return doc, page_numbers(doc, args.pages)


def cmd_glyphs(args: argparse.Namespace) -> int:
    from glyphscope.core.serialize import write_glyphs_json
    from glyphscope.inspector.cli.csv import GLYPH_COLUMNS, table_writer
    from glyphscope.inspector.cli.pages import glyphs_task, page_values

    doc, pages = _start_output(args)
    params = parameters(args)
    with _output(args) as out:
        if args.json and len(pages) == 1:  # streamed: one glyph's dict at a time, never the whole listing
            from glyphscope.core.passes import classify

            page = doc.interpret(pages[0])
            classified = classify(page, params)
            write_glyphs_json(out, args.file, page, classified, args.set, params.to_json(), doc.warnings)
            _written(args, pages)
            return EXIT_OK
        write_row = None if _wants_json(args) else table_writer(out, GLYPH_COLUMNS, csv=args.csv)
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
    _written(args, pages)
    return EXIT_OK


def cmd_fonts(args: argparse.Namespace) -> int:
    from glyphscope.inspector.cli.pages import font_rows, page_values

    doc, pages = _start_output(args)
    with _output(args) as out:
        documents = PageDocuments(out, args, pages)
        for n, fonts in page_values(doc, pages, font_rows, args.jobs):
            if _wants_json(args):
                documents.add(json_document(file=args.file, page=n, warnings=list(doc.warnings), fonts=fonts))
                continue
            for f in fonts:
                line = (
                    f"page {n}\t{f['font_key']}\t{f['subtype']}\t{f['base_font']}\t{f['encoding']}\t"
                    f"ToUnicode={'yes' if f['has_tounicode'] else 'no'}\tglyphs={f['glyphs']}\t"
                    f"unresolved={f['unresolved']}\t{'; '.join(x['message'] for x in f['problems'])}\n"
                )
                out.write(line.encode("utf-8"))
        if _wants_json(args):
            documents.close()
    _written(args, pages)
    return EXIT_OK


def cmd_diagnostics(args: argparse.Namespace) -> int:
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


def cmd_text(args: argparse.Namespace) -> int:
    from glyphscope.core.analysis import document_texts

    cli_io.check_output_folder(args.output)
    separator = _separator(args.separator)
    doc = open_input(args)
    params = parameters(args)
    pages = page_numbers(doc, args.pages)
    results = document_texts(doc, pages, args.mode, params, jobs=args.jobs)
    if getattr(args, "jsonl", False):  # one page per line, each with the version header
        from glyphscope.core.serialize import to_json

        with _output(args) as out:
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
    with _output(args) as out:
        if args.bom:
            out.write(b"\xef\xbb\xbf")
        for _, t in results:  # streamed page by page; exact bytes: no trailing separator (spec §9)
            out.write((separator if written else b"") + (t.text or "").encode("utf-8"))
            written += 1
    if args.output and not cli_io.is_stdout(args.output):
        cli_io.note(args, f"{written} page(s) written to {args.output}")
    return EXIT_OK


def _structured(mode: str, t: Any) -> bool | None:
    """Whether structure order made the text: null for modes that never use it (a reader can tell
    "not structured" from "never tried")."""
    if mode == "structure":
        return t.text is not None
    if mode == "auto":
        return bool(t.structured)
    return None


def cmd_decisions(args: argparse.Namespace) -> int:
    from glyphscope.core.textops import page_decisions_json
    from glyphscope.inspector.cli.csv import DECISION_COLUMNS, decision_cells, table_writer
    from glyphscope.inspector.cli.pages import page_values

    doc, pages = _start_output(args)
    params = parameters(args)
    task = functools.partial(page_decisions_json, mode=args.mode, params=params)
    with _output(args) as out:
        write_row = None if _wants_json(args) else table_writer(out, DECISION_COLUMNS, csv=args.csv)
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
    _written(args, pages)
    return EXIT_OK


def cmd_triage(args: argparse.Namespace) -> int:
    from glyphscope.inspector.cli.triage import run_triage

    return run_triage(args)


def cmd_render(args: argparse.Namespace) -> int:
    from glyphscope.inspector.cli.render import run_render

    return run_render(args)


# ------------------------------------------------------------------ parsing


def _one_page(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"one page number is expected, not {text!r}") from None


def _add_one_page(p: argparse.ArgumentParser) -> None:
    """--page N for commands about one page; --pages is accepted with one number, for uniform scripts."""
    p.add_argument(
        "--page",
        "--pages",
        dest="page",
        type=_one_page,
        required=True,
        metavar="N",
        help="1-based page number",
    )


def _add_version(p: argparse.ArgumentParser) -> None:
    p.add_argument("--version", action=_VersionAction)


def _add_listing_output(p: argparse.ArgumentParser, csv: bool) -> None:
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


def _add_glyphs(sub: Any) -> None:
    p = sub.add_parser("glyphs", help="glyph records of pages")
    add_input(p)
    add_page_set(p)
    p.add_argument(
        "--set",
        choices=("raw", "visible", "all"),
        default="visible",
        help="raw: page-stream glyphs; visible: the glyphs of the text; all: every glyph with its status",
    )
    _add_listing_output(p, csv=True)
    add_thresholds(p, ANNOTATIONS_ONLY)
    cli_io.add_limit_options(p)
    add_jobs(p)
    p.set_defaults(func=cmd_glyphs)


def _add_fonts(sub: Any) -> None:
    p = sub.add_parser("fonts", help="fonts of pages with their decoding chain")
    add_input(p)
    add_page_set(p)
    _add_listing_output(p, csv=False)
    cli_io.add_limit_options(p)
    add_jobs(p)
    p.set_defaults(func=cmd_fonts)


def _add_diagnostics(sub: Any) -> None:
    p = sub.add_parser("diagnostics", help="findings per page")
    add_input(p)
    add_page_set(p)
    add_json_flag(p, lines=True)
    add_thresholds(p, ANNOTATIONS_ONLY)
    cli_io.add_limit_options(p)
    add_jobs(p)
    p.set_defaults(func=cmd_diagnostics)


def _add_text(sub: Any) -> None:
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
    p.set_defaults(func=cmd_text)


def _add_decisions(sub: Any) -> None:
    from glyphscope.core.assembly import MODES

    p = sub.add_parser("decisions", help="every assembly decision of pages")
    add_input(p)
    add_page_set(p)
    p.add_argument("--mode", choices=MODES, default="plain", help="text mode whose decisions are listed")
    _add_listing_output(p, csv=True)
    add_thresholds(p)
    cli_io.add_limit_options(p)
    add_jobs(p)
    p.set_defaults(func=cmd_decisions)


def _add_triage(sub: Any) -> None:
    p = sub.add_parser("triage", help="rank files by extraction problems")
    p.add_argument(
        "paths",
        nargs="+",
        metavar="FILE_OR_FOLDER",
        help="PDFs, folders (searched recursively for *.pdf), glob patterns, @LIST.txt (one input per line), "
        "fsspec URLs such as s3://bucket/prefix/ (with fsspec installed); - reads one PDF from stdin",
    )
    cli_io.add_password_options(p)
    p.add_argument("--json", metavar="OUT.json", dest="json_out", help="write the JSON report; - is stdout")
    p.add_argument("--html", metavar="OUT.html", dest="html_out", help="write the HTML report; - is stdout")
    p.add_argument(
        "--no-images",
        action="store_true",
        help="an HTML report without page images (needs no Qt)",
    )
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="files read in parallel processes")
    _add_triage_compare(p)
    from glyphscope.inspector.cli.triage_options import add_scale_options, add_verify_option  # no triage code

    add_scale_options(p)
    add_thresholds(p, ANNOTATIONS_ONLY)
    add_verify_option(p)
    cli_io.add_quiet_option(p)
    cli_io.add_limit_options(p)
    p.set_defaults(func=cmd_triage)


def _add_render(sub: Any) -> None:
    p = sub.add_parser("render", help="page image with overlays")
    add_input(p)
    _add_one_page(p)
    p.add_argument(
        "--layers",
        default="glyphs,culled,duplicates,word-gaps,line-breaks",
        help="comma-separated overlay layers, or all / none",
    )
    p.add_argument("--scale", type=float, default=2.0, help="pixels per point")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png", help="the PNG to write; - is stdout")
    cli_io.add_limit_options(p)
    p.set_defaults(func=cmd_render)


COMPLETION_SHELLS = ("bash", "zsh", "tcsh")


def cmd_completion(args: argparse.Namespace) -> int:
    import shtab

    sys.stdout.write(shtab.complete(build_parser(), shell=args.shell))
    sys.stdout.flush()
    return EXIT_OK


def _add_completion(sub: Any) -> None:
    p = sub.add_parser(
        "completion",
        help="print a shell completion script made from this parser",
        description="Print a completion script for SHELL on stdout. bash: "
        "`glyphscope completion bash > ~/.local/share/bash-completion/completions/glyphscope`; "
        "zsh: `glyphscope completion zsh > ~/.zfunc/_glyphscope` (a folder on $fpath).",
    )
    p.add_argument("shell", choices=COMPLETION_SHELLS, help="the shell to complete in")
    p.set_defaults(func=cmd_completion)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The headless commands' parser; with `command`, only that command's subparser is built.

    A command's parser is the same either way (`run` builds only the one asked for: building
    every subparser, with the imports their choices need, cost start-up time).
    """
    parser = _Parser(
        prog="glyphscope",
        description="Inspect PDF text extraction. Without a command, opens the inspector window.",
        epilog=manual_note(),
    )
    _add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in SUBCOMMANDS:
        if command is None or name == command:
            _SUBPARSERS[name](sub)
    # Every command's own --help starts with its one-line description (the list's help text).
    for action in sub._choices_actions:
        chosen = sub.choices[action.dest]
        if not chosen.description and action.help:
            chosen.description = action.help[0].upper() + action.help[1:] + "."
    return parser


def installed_man_page() -> Path | None:
    """Where the package's man page is installed in this environment (None: not there)."""
    found = Path(sys.prefix) / "share" / "man" / "man1" / "glyphscope.1"
    return found if found.is_file() else None


def manual_note() -> str:
    """Where the manual is: the man page installed with the package, or how to make it."""
    found = installed_man_page()
    if found is not None:
        return f"The manual: man glyphscope (installed at {found})."
    return "The manual: python -m glyphscope.inspector.cli.docs man > glyphscope.1; man ./glyphscope.1"


COMMAND_HELP = {
    "glyphs": "glyph records of pages",
    "fonts": "fonts of pages with their decoding chain",
    "diagnostics": "findings per page",
    "text": "page text in one mode",
    "decisions": "every assembly decision of pages",
    "triage": "rank files by extraction problems",
    "render": "page image with overlays",
    "compare": "other extractors' text aligned to glyphscope's glyphs, explained",
    "completion": "print a shell completion script made from this parser",
    "verify": "OCR cross-check: does the ink read what each glyph decodes to?",
    "repair": "write a copy whose garbled fonts get a corrected /ToUnicode",
}
"""Each command's one line, as its parser gives it (tests/test_cli.py keeps them equal): the top
help lists them without building the commands' parsers (which import the engine)."""


class _TopParser(_Parser):
    """`glyphscope --help`: the window's options, then every command with its one-line description
    and where the manual is."""

    def format_help(self) -> str:
        width = max(len(name) for name in SUBCOMMANDS) + 2
        listing = "\n".join(f"  {name:<{width}}{COMMAND_HELP[name]}" for name in SUBCOMMANDS)
        return f"{super().format_help()}\ncommands:\n{listing}\n\n{manual_note()}\n"


def _add_triage_compare(p: argparse.ArgumentParser) -> None:
    """triage --compare ENGINE: the option and its column live in inspector/cli/triage.py."""
    from glyphscope.inspector.cli.triage_options import add_compare_option

    add_compare_option(p)


def _add_compare(sub: Any) -> None:
    """`compare`: its options and its code live in inspector/cli/compare.py."""
    from glyphscope.inspector.cli.compare import add_compare_parser

    add_compare_parser(sub)


def _add_verify(sub: Any) -> None:
    """`verify`: the OCR cross-check; its options and its code live in inspector/cli/verify.py."""
    from glyphscope.inspector.cli.verify import add_verify_parser

    add_verify_parser(sub)


def _add_repair(sub: Any) -> None:
    """`repair`: its options and its code live in inspector/cli/repair.py."""
    from glyphscope.inspector.cli.repair import add_repair_parser

    add_repair_parser(sub)


_SUBPARSERS: dict[str, Callable[[Any], None]] = {
    "glyphs": _add_glyphs,
    "fonts": _add_fonts,
    "diagnostics": _add_diagnostics,
    "text": _add_text,
    "decisions": _add_decisions,
    "triage": _add_triage,
    "render": _add_render,
    "compare": _add_compare,
    "completion": _add_completion,
    "verify": _add_verify,
    "repair": _add_repair,
}


TOP_USAGE = (
    "%(prog)s [-h] [--version] [--page N] [--password PW | --password-file PATH] [FILE]\n"
    f"       %(prog)s {{{','.join(SUBCOMMANDS)}}} ... (%(prog)s COMMAND --help)"
)


def _unknown_command(argv: Sequence[str]) -> str | None:
    """The error for a first word that is neither a command nor a file but close to a command."""
    if not argv or argv[0].startswith("-") or os.path.exists(argv[0]):
        return None
    if any(ch in argv[0] for ch in "./\\"):  # a path (text.pdf, ./glyphs): the window says it is missing
        return None
    close = difflib.get_close_matches(argv[0], SUBCOMMANDS, n=1, cutoff=0.6)
    if not close:
        return None
    return f"unknown command {argv[0]!r}: did you mean {close[0]!r}? (commands: {', '.join(SUBCOMMANDS)})"


def build_gui_parser() -> argparse.ArgumentParser:
    parser = _TopParser(
        prog="glyphscope",
        usage=TOP_USAGE,
        description="Open the inspector window (no FILE: the bundled demo). "
        f"Headless commands: {', '.join(SUBCOMMANDS)} (glyphscope COMMAND --help).",
    )
    _add_version(parser)
    parser.add_argument("file", nargs="?", metavar="FILE", help="the PDF to open (default: the demo)")
    parser.add_argument(
        "--page", "--pages", dest="page", type=_one_page, metavar="N", help="1-based page to show first"
    )
    cli_io.add_password_options(parser)
    return parser


def _exit_code(exc: SystemExit) -> int:
    code = exc.code
    if code is None:
        return EXIT_OK
    return code if isinstance(code, int) else EXIT_ERROR


def _is_qpdf_error(exc: Exception) -> bool:
    """One of qpdf's errors (`instructions.QpdfError`)? Nothing is imported for the answer: a command
    that read a PDF has loaded the instructions (`core.document` imports them)."""
    instructions = sys.modules.get("glyphscope.core.instructions")
    return instructions is not None and isinstance(exc, instructions.QpdfError)


def run(argv: Sequence[str], gui: Callable[[str | None, int | None, str | None], int]) -> int:
    try:
        if argv and argv[0] in SUBCOMMANDS:
            args = build_parser(argv[0]).parse_args(argv)
            with cli_io.captured_messages(args):
                try:
                    code = int(args.func(args))
                except Exception as exc:
                    if _is_qpdf_error(exc):  # a damaged object read outside a page's interpretation
                        raise CliError(f"unreadable PDF: {cli_io.one_line(str(exc))}", EXIT_NOT_PDF) from None
                    raise
                report_warnings(args)
            return code
        typo = _unknown_command(argv)
        if typo:
            raise CliError(typo, EXIT_USAGE)
        args = build_gui_parser().parse_args(argv)
        with cli_io.captured_messages(args):  # the window's library warnings: glyphscope: lines too
            return gui(args.file, args.page, cli_io.password(args))
    except SystemExit as exc:  # --help, --version and usage errors: argparse has printed them
        return _exit_code(exc)
    except GlyphscopeError as exc:
        print(f"glyphscope: {cli_io.one_line(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except CliError as exc:
        print(f"glyphscope: {cli_io.one_line(str(exc))}", file=sys.stderr)
        return exc.code
    except cli_io.UsageError as exc:
        print(f"glyphscope: {cli_io.one_line(str(exc))}", file=sys.stderr)
        return exc.code
    except MemoryError:
        print("glyphscope: out of memory (lower the --max-* budgets)", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        print("glyphscope: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 — last line of defence: one line, never a traceback
        print(
            f"glyphscope: internal error: {type(exc).__name__}: {cli_io.one_line(str(exc))}", file=sys.stderr
        )
        return EXIT_ERROR
