"""The `glyphscope` command line: its parser, and `run_command_line`, which parses and dispatches; each command
lives in its own module (glyphs.py, fonts.py, diagnostics.py, text.py, decisions.py,
completion.py, triage.py, render.py, compare.py, verify.py, repair.py), imported only when its
parser is built.

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
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

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
    add_thresholds,
    report_warnings,
)

if TYPE_CHECKING:
    from glyphscope.inspector.cli.shared import Subparsers

    pass

# Start-up time: a command imports the engine modules it uses when it runs, and
# `run_command_line` builds the parser of the one command asked for: `glyphscope --version` and `--help`
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


PAUSED_START = ("glyphs", "fonts", "diagnostics", "text", "decisions", "compare")
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


def cmd_triage(args: argparse.Namespace) -> int:
    from glyphscope.inspector.cli.triage import run_triage

    return run_triage(args)


def cmd_render(args: argparse.Namespace) -> int:
    from glyphscope.inspector.cli.render import run_render

    return run_render(args)


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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The headless commands' parser; with `command`, only that command's subparser is built.

    A command's parser is the same either way (`run_command_line` builds only the one asked for: building
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
"""Each command's one line, as its parser gives it (tests/inspector/test_cli.py keeps them equal): the top
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
    from glyphscope.inspector.cli.triage_options import add_against_option, add_compare_option

    add_compare_option(p)
    add_against_option(p)


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


def _in_module(name: str) -> Callable[[Subparsers], None]:
    """The `add_parser` of the command's own module, imported only when that parser is built."""

    def add(sub: Subparsers) -> None:
        importlib.import_module(f"glyphscope.inspector.cli.{name}").add_parser(sub)

    return add


_SUBPARSERS: dict[str, Callable[[Subparsers], None]] = {
    "glyphs": _in_module("glyphs"),
    "fonts": _in_module("fonts"),
    "diagnostics": _in_module("diagnostics"),
    "text": _in_module("text"),
    "decisions": _in_module("decisions"),
    "triage": _add_triage,
    "render": _add_render,
    "compare": _add_compare,
    "completion": _in_module("completion"),
    "verify": _add_verify,
    "repair": _add_repair,
}


TOP_USAGE = (
    "%(prog)s [-h] [--version] [--page N] [--password PW | --password-file PATH] [FILE]\n"
    f"       %(prog)s {{{','.join(SUBCOMMANDS)}}} ... (%(prog)s COMMAND --help)"
)


def unknown_command(argv: Sequence[str]) -> str | None:
    """The error for a first word that is neither a command nor a file but close to a command."""
    if not argv or argv[0].startswith("-") or os.path.exists(argv[0]):
        return None
    if any(ch in argv[0] for ch in "./\\"):  # a path (text.pdf, ./glyphs): the window says it is missing
        return None
    import difflib  # a mistyped command only

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


def run_command_line(argv: Sequence[str], gui: Callable[[str | None, int | None, str | None], int]) -> int:
    try:
        if argv and argv[0] in SUBCOMMANDS:
            args = build_parser(argv[0]).parse_args(argv)
            with cli_io.captured_messages(args):
                try:
                    code = int(args.func(args))
                except Exception as exc:
                    if _is_qpdf_error(exc):  # a damaged object read outside a page's interpretation
                        raise CliError(
                            f"unreadable PDF: {cli_io.printable_line(str(exc))}", EXIT_NOT_PDF
                        ) from None
                    raise
                report_warnings(args)
            return code
        typo = unknown_command(argv)
        if typo:
            raise CliError(typo, EXIT_USAGE)
        args = build_gui_parser().parse_args(argv)
        with cli_io.captured_messages(args):  # the window's library warnings: glyphscope: lines too
            return gui(args.file, args.page, cli_io.password(args))
    except SystemExit as exc:  # --help, --version and usage errors: argparse has printed them
        return _exit_code(exc)
    except GlyphscopeError as exc:
        print(f"glyphscope: {cli_io.printable_line(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except CliError as exc:
        print(f"glyphscope: {cli_io.printable_line(str(exc))}", file=sys.stderr)
        return exc.code
    except cli_io.UsageError as exc:
        print(f"glyphscope: {cli_io.printable_line(str(exc))}", file=sys.stderr)
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
            f"glyphscope: internal error: {type(exc).__name__}: {cli_io.printable_line(str(exc))}",
            file=sys.stderr,
        )
        return EXIT_ERROR
