"""Run the `glyphscope` command line in process: exit code, stdout bytes, stderr text."""

from __future__ import annotations

import io
import sys
from unittest import mock

from glyphscope.inspector.cli.parser import run_command_line as run


def _no_window(path: str | None, page: int | None, password: str | None) -> int:
    raise AssertionError("the window was asked for")


def run_cli(*argv: str, stdin: bytes = b"") -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    with (
        mock.patch.object(sys, "stdout", stdout),
        mock.patch.object(sys, "stderr", err),
        mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")),
    ):
        code = run(list(argv), _no_window)
        stdout.flush()
    return code, out.getvalue(), err.getvalue()
