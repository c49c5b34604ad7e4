"""Documentation made from the command-line parser: the man page.

`python -m glyphscope.inspector.cli.docs man > glyphscope.1` writes glyphscope(1) in roff
(`man ./glyphscope.1` shows it): the synopsis, every command with its options, help texts
and defaults exactly as `glyphscope COMMAND --help` gives them, and the exit codes. Nothing
is written twice: the parser (inspector/cli/parser.py) is the one description of the options.

The package installs it: `python -m glyphscope.inspector.cli.docs man --write` regenerates
man/glyphscope.1 in the source tree, which the wheel puts in `share/man/man1` of the
environment (pyproject's data-files), where `man glyphscope` finds it when the environment's
`bin` is on PATH; tests/test_docs.py checks the file is the parser's.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from glyphscope.inspector.cli import parser as cli_parser
from glyphscope.inspector.cli import shared as cli_shared


def _roff(text: str) -> str:
    """Plain text made safe for roff: backslashes, and a line starting with . or '."""
    out = []
    for line in text.replace("\\", "\\e").splitlines():
        out.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(out)


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of every subcommand, in the order of `cli_parser.SUBCOMMANDS`."""
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
    return [(name, helps.get(name, ""), action.choices[name]) for name in cli_parser.SUBCOMMANDS]


def _options(p: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """(the option as typed, its help with the default) for each argument of `p`."""
    formatter = p._get_formatter()
    rows = []
    for a in p._actions:
        if isinstance(a, argparse._HelpAction) or a.help == argparse.SUPPRESS:
            continue
        invocation = formatter._format_action_invocation(a)
        help_text = formatter._expand_help(a) if a.help else ""
        rows.append((invocation, " ".join(help_text.split())))
    return rows


MAN_SOURCE = Path(__file__).resolve().parents[2] / "man" / "glyphscope.1"
MAN_VERSION = ""  # the shipped page names no version: it is the same for every build of the parser


def man_page(version: str | None = None) -> str:
    """glyphscope(1) as roff source."""
    if version is None:
        import glyphscope

        version = glyphscope.__version__
    parser = cli_parser.build_parser()
    gui = cli_parser.build_gui_parser()
    lines = [
        f'.TH GLYPHSCOPE 1 "" "glyphscope{" " + version if version else ""}" "User Commands"',
        ".SH NAME",
        "glyphscope \\- inspect PDF text extraction: every glyph, and every decision that made the text",
        ".SH SYNOPSIS",
        ".B glyphscope",
        "[\\fIFILE\\fR] [\\fB\\-\\-page\\fR \\fIN\\fR]",
        ".br",
        ".B glyphscope",
        "\\fICOMMAND\\fR \\fIFILE\\fR [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        _roff(gui.description or ""),
        "Commands:",
    ]
    for name, help_text, _ in _commands(parser):
        lines += [".TP", f"\\fB{name}\\fR", _roff(help_text)]
    lines += [".SH OPTIONS (WINDOW)"]
    lines += _option_lines(gui)
    for name, help_text, sub in _commands(parser):
        lines += [f".SH {name.upper()}", _roff(f"glyphscope {name}: {help_text}.")]
        if sub.description and sub.description.rstrip(".").lower() != help_text.lower():
            lines += [".PP", _roff(sub.description)]
        lines += _option_lines(sub)
    lines += [".SH EXIT STATUS"]
    for code, meaning in cli_shared.EXIT_CODES:
        lines += [".TP", f"\\fB{code}\\fR", _roff(meaning)]
    lines += [
        ".SH ENVIRONMENT",
        ".TP",
        "\\fBGLYPHSCOPE_PASSWORD\\fR",
        "the password of an encrypted PDF when neither \\-\\-password nor \\-\\-password\\-file is given",
        ".SH SEE ALSO",
        "glyphscope COMMAND \\-\\-help; glyphscope completion bash|zsh",
    ]
    return "\n".join(lines) + "\n"


def _option_lines(p: argparse.ArgumentParser) -> list[str]:
    out = []
    for invocation, help_text in _options(p):
        out += [".TP", "\\fB" + _roff(invocation).replace("-", "\\-") + "\\fR", _roff(help_text)]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m glyphscope.inspector.cli.docs", description="documentation made from the parser"
    )
    parser.add_argument("what", choices=("man",), help="man: the glyphscope(1) man page in roff, on stdout")
    parser.add_argument(
        "--write", action="store_true", help="write it to man/glyphscope.1 of the source tree"
    )
    args = parser.parse_args(argv)
    if args.write:
        MAN_SOURCE.parent.mkdir(exist_ok=True)
        MAN_SOURCE.write_text(man_page(MAN_VERSION), "utf-8")
        print(f"written {MAN_SOURCE}")
        return 0
    sys.stdout.write(man_page())
    return 0


if __name__ == "__main__":
    sys.exit(main())
