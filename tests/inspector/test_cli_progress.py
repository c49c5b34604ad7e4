"""Progress of long command-line work (inspector/cli/progress.py): a bar on a terminal within 80
columns, a plain line off one, warnings after the bar."""

from __future__ import annotations

import argparse
import contextlib
import io
import re


def test_triage_progress_line_only_on_a_terminal_and_within_80_columns():
    import time

    from glyphscope.inspector.cli.progress import LINE_WIDTH, ProgressLine

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, pipe = Tty(), io.StringIO()
    name = "/archive/" + "deeply/nested/" * 8 + "customer-invoice-2024.pdf"
    with ProgressLine("triage", 40, "files", stream=tty) as bar:
        for _ in range(12):
            time.sleep(0.01)
            bar.advance(name)
        line = bar.line()
    assert LINE_WIDTH == 80 and len(line) <= 80, line
    assert line.startswith("triage ") and " 12/40 " in line
    assert re.search(r" \d+\.\d files/s ", line) and re.search(r" \d+:\d\d:\d\d ", line)
    assert line.endswith("invoice-2024.pdf") and "…" in line  # the name cut from the left to fit
    assert "12/40" in tty.getvalue() and tty.getvalue().endswith("\x1b[2K")  # transient: erased at the end
    with ProgressLine("triage", 3, "files", stream=pipe) as bar:
        bar.advance("a.pdf")
        assert bar.line() == ""
    with ProgressLine("triage", 3, "files", stream=Tty(), enabled=False) as bar:  # -q
        bar.advance("a.pdf")
        assert bar.line() == ""
    assert pipe.getvalue() == ""


def test_off_a_terminal_a_plain_progress_line_every_few_seconds_and_warnings_wait_for_the_bar():
    import logging

    from glyphscope.inspector.cli import io as cli_io
    from glyphscope.inspector.cli.progress import PLAIN_INTERVAL, ProgressLine

    pipe = io.StringIO()
    with ProgressLine("triage", 40, "files", stream=pipe) as bar:
        bar.advance("a.pdf")
        assert pipe.getvalue() == ""  # not before PLAIN_INTERVAL seconds
        bar.done = 11
        bar.plain_line(now=bar.started + PLAIN_INTERVAL + 1.0)  # 11 done in 6 s: 29 to go at 1.8 files/s
    (line,) = pipe.getvalue().splitlines()
    assert line == f"glyphscope: triage: 11/40 files, {11 / (PLAIN_INTERVAL + 1):.1f} files/s, 0:00:16 left"
    assert "[" not in line and "\x1b" not in line

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    args = argparse.Namespace(quiet=False)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), cli_io.captured_messages(args):
        with ProgressLine("triage", 2, "files", stream=Tty()) as bar:
            logging.getLogger("fontTools.ttLib").warning("bad glyph table")
            logging.getLogger("pypdfium2").warning("renderer note")
            bar.advance("a.pdf")
            assert err.getvalue() == ""  # nothing written into the progress line
        assert err.getvalue().splitlines() == [
            "glyphscope: warning: fontTools: bad glyph table",
            "glyphscope: warning: pypdfium2: renderer note",
        ]
    quiet = io.StringIO()
    with contextlib.redirect_stderr(quiet), cli_io.captured_messages(argparse.Namespace(quiet=True)):
        logging.getLogger("fontTools").warning("bad glyph table")
    assert quiet.getvalue() == ""
