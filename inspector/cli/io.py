"""Command-line conventions shared by every command: stdin/stdout as `-`, the password, `--quiet`.

* `-` as the input FILE reads the PDF from stdin (all bytes, then parsed in memory);
  its label in JSON and messages is "-".
* `-` as an output (`-o`, `--json OUT`, `--html OUT`) writes to stdout.
* The password comes from `--password`, else `--password-file` (first line), else
  the environment variable GLYPHSCOPE_PASSWORD: argv is visible to other users in
  `ps`, a file or the environment is not.
* `--quiet` drops warnings and "written to" lines; errors are always printed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from glyphscope.core.limits import BUDGET_LABELS, DEFAULT_LIMITS, Limits, option_name

if TYPE_CHECKING:
    import logging

STDIO = "-"
PASSWORD_ENV = "GLYPHSCOPE_PASSWORD"
EXIT_USAGE = 2


class UsageError(Exception):
    """A bad option value found after parsing (exit code 2)."""

    code = EXIT_USAGE


def add_password_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--password",
        metavar="PW",
        help="user or owner password of an encrypted PDF (visible in `ps`: prefer the two below)",
    )
    p.add_argument(
        "--password-file",
        metavar="PATH",
        help="read the password from the first line of this file (used when --password is not given)",
    )
    p.epilog = (
        p.epilog + " " if p.epilog else ""
    ) + f"The password is taken from --password, else --password-file, else ${PASSWORD_ENV}."


def add_quiet_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no warnings or 'written to' lines on stderr (errors still)",
    )


def password(args: argparse.Namespace) -> str | None:
    """--password, else the first line of --password-file, else $GLYPHSCOPE_PASSWORD, else None."""
    if getattr(args, "password", None) is not None:
        return str(args.password)
    path = getattr(args, "password_file", None)
    if path:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise UsageError(f"cannot read the password file {path}: {reason}") from None
        lines = text.splitlines()
        return lines[0] if lines else ""
    return os.environ.get(PASSWORD_ENV) or None


def read_input(file: str) -> str | bytes:
    """What `open_document` opens: the path, or stdin's bytes for `-`."""
    if file == STDIO:
        return sys.stdin.buffer.read()
    return file


def note(args: argparse.Namespace, message: str) -> None:
    """A warning or success line on stderr, unless --quiet: one line, escaped, each text once per run."""
    if getattr(args, "quiet", False):
        return
    line = printable_line(message)
    if line in _said:
        return
    _said.add(line)
    if _held is not None:  # a progress line is being drawn: the warning waits until it is gone
        _held.append(line)
        return
    print(f"glyphscope: {line}", file=sys.stderr)


def hold_notes() -> None:
    """From now on `note` keeps its lines (a progress line is drawn on stderr)."""
    global _held
    if _held is None:
        _held = []


def release_notes() -> None:
    """Print the lines `note` kept since `hold_notes`, and print the next ones at once again."""
    global _held
    held, _held = _held, None
    for line in held or ():
        print(f"glyphscope: {line}", file=sys.stderr)


_said: set[str] = set()  # lines printed by `note` during this command (reset by `captured_messages`)
_held: list[str] | None = None  # lines kept while a progress line is drawn (hold_notes)
LIBRARY_LOGGERS = ("pikepdf", "fontTools", "pypdfium2")
"""The libraries whose log lines become `glyphscope: warning:` lines (never bare lines on stderr)."""


def printable_line(text: str) -> str:
    r"""Text from a file or a library made safe for one stderr line: whitespace runs become one
    space, other control and non-printable characters become \xHH / \uHHHH escapes."""
    out = []
    for ch in " ".join(str(text).split()):
        if ch.isprintable():
            out.append(ch)
        else:
            code = ord(ch)
            out.append(
                f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
            )
    return "".join(out)


def _log_to_note(args: argparse.Namespace) -> logging.Handler:
    """A handler writing library log lines as `glyphscope: warning:` lines: qpdf's own messages
    (pikepdf routes them to the `pikepdf` loggers, as they are), fontTools' and pypdfium2's (named
    by their library). logging is imported here, by the commands that read a file, not by
    `--version` or `--help`."""
    import logging

    class LogToNote(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            try:
                text = record.getMessage()
            except (TypeError, ValueError):
                text = str(record.msg)
            library = record.name.split(".")[0]
            if library != "pikepdf":
                if record.levelno < logging.WARNING:
                    return  # fontTools' and pypdfium2's info lines are no warning
                text = f"{library}: {text}"
            note(args, f"warning: {text}")

    return LogToNote(logging.INFO)


@contextlib.contextmanager
def captured_messages(args: argparse.Namespace) -> Iterator[None]:
    """For one command: every Python warning and every qpdf/pikepdf log message becomes one
    deduplicated `glyphscope: warning: …` line (silent with --quiet), never a bare library line."""
    # Commands import the engine when they run (start-up time); pikepdf logs "C++ to Python logger
    # bridge initialized" as it loads, which is no message for the user: load it before listening.
    import logging

    import pikepdf  # noqa: F401

    _said.clear()
    handler = _log_to_note(args)
    loggers = [logging.getLogger(name) for name in LIBRARY_LOGGERS]
    saved = [(logger.propagate, logger.level) for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.propagate = False
        if logger.level == logging.NOTSET or logger.level > logging.INFO:
            logger.setLevel(logging.INFO)

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        note(args, f"warning: {message}")

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")  # dedup is ours: one line per distinct text
            warnings.showwarning = show
            yield
    finally:
        release_notes()
        for logger, (propagate, level) in zip(loggers, saved, strict=True):
            logger.removeHandler(handler)
            logger.propagate = propagate
            logger.setLevel(level)


# ------------------------------------------------------------------ limits


def add_limit_options(p: argparse.ArgumentParser) -> None:
    """--max-page-glyphs N, ... : one option per budget of core.limits.Limits."""
    group = p.add_argument_group("limits", "budgets that stop a page (it gets a finding; the rest goes on)")
    for name in Limits.__dataclass_fields__:
        default = getattr(DEFAULT_LIMITS, name)
        group.add_argument(
            option_name(name),
            dest=f"limit_{name}",
            type=type(default),
            default=default,
            metavar="N" if isinstance(default, int) else "S",
            help=BUDGET_LABELS[name],
        )


def limits(args: argparse.Namespace) -> Limits:
    """The budgets given by the --max-* options (the defaults for a command without them)."""
    values = {
        name: getattr(args, f"limit_{name}")
        for name in Limits.__dataclass_fields__
        if getattr(args, f"limit_{name}", None) is not None
    }
    try:
        return Limits(**values)
    except ValueError as exc:
        raise UsageError(f"{option_name(str(exc).split()[0])}: {exc}") from None


def is_stdout(out: str | None) -> bool:
    return out == STDIO


def write_output(out: str | None, data: bytes) -> None:
    """`data` to the file `out`, or to stdout when `out` is None or `-`."""
    if out is None or out == STDIO:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        try:
            Path(out).write_bytes(data)
        except OSError as exc:  # a folder, no permission, a full disk: one line, exit 2
            raise UsageError(f"cannot write {out}: {exc.strerror or type(exc).__name__}") from None


def check_output_folder(out: str | None) -> None:
    """Fail before any work when the output file cannot be written where it is named."""
    if not out or out == STDIO:
        return
    path = Path(out)
    if path.is_dir():
        raise UsageError(f"cannot write {out}: it is a folder (name a file in it)")
    if not path.resolve().parent.is_dir():
        raise UsageError(f"cannot write {out}: its folder does not exist")


def with_columns_before_file(table: str, columns: Sequence[Sequence[str]]) -> str:
    """`table` (a header line, then one line per row) with `columns` — each its title, then one cell
    per row — right-aligned before the header's `file` column (the triage table's added columns)."""
    lines = table.splitlines()
    if not lines:
        return table
    at = lines[0].rfind("file")
    widths = [max(len(c) for c in column) for column in columns]
    out = []
    for k, line in enumerate(lines):
        cells = "".join(
            (column[k] if k < len(column) else "").rjust(width) + "  "
            for column, width in zip(columns, widths)
        )
        out.append(line[:at] + cells + line[at:])
    return "\n".join(out) + "\n"
