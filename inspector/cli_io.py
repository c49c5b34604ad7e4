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
import os
import sys
from pathlib import Path

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
    """A warning or success line on stderr, unless --quiet."""
    if not getattr(args, "quiet", False):
        print(f"glyphscope: {message}", file=sys.stderr)


def is_stdout(out: str | None) -> bool:
    return out == STDIO


def write_output(out: str | None, data: bytes) -> None:
    """`data` to the file `out`, or to stdout when `out` is None or `-`."""
    if out is None or out == STDIO:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        Path(out).write_bytes(data)


def check_output_folder(out: str | None) -> None:
    """Fail before any work when the output file's folder does not exist."""
    if out and out != STDIO and not Path(out).resolve().parent.is_dir():
        raise UsageError(f"cannot write {out}: its folder does not exist")
