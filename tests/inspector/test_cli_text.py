"""`glyphscope text`'s output options (inspector/cli/text.py): BOM, separators, an output file, an
output that cannot be written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cli_subprocess import REPO, one_line_error, run


def test_text_bom_separator_and_output_file(files, tmp_path):
    proc = run("text", str(files["ok.pdf"]), "--bom")
    assert proc.stdout.startswith(b"\xef\xbb\xbfHello world\fPage two")
    proc = run("text", str(files["ok.pdf"]), "--separator", "|")
    assert proc.stdout.rstrip(b"\n") == b"Hello world|Page two"
    proc = run("text", str(files["ok.pdf"]), "--separator", r"\n---\n")
    assert proc.stdout.rstrip(b"\n") == b"Hello world\n---\nPage two"
    out = tmp_path / "out.txt"
    proc = run("text", str(files["ok.pdf"]), "--bom", "-o", str(out))
    assert proc.returncode == 0 and proc.stdout == b""
    assert out.read_bytes() == b"\xef\xbb\xbfHello world\fPage two"
    out_json = tmp_path / "out.json"
    proc = run("text", str(files["ok.pdf"]), "--json", "-o", str(out_json))
    assert proc.returncode == 0 and proc.stdout == b""
    assert json.loads(out_json.read_text("utf-8"))["pages"][1]["text"] == "Page two"


def test_text_non_ascii_separator(files):
    proc = run("text", str(files["ok.pdf"]), "--separator", " — ")
    assert proc.stdout.decode("utf-8").rstrip("\n") == "Hello world — Page two"


def test_text_separator_bytes_and_a_half_surrogate(files):
    # a separator byte that is not UTF-8 (argv reaches Python with a surrogate for it) is written as typed
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope", "text", str(files["ok.pdf"]), "--separator", b"\xff"],
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.rstrip(b"\n") == b"Hello world\xffPage two"
    proc = run("text", str(files["ok.pdf"]), "--separator", r"\uD800")
    assert one_line_error(proc, 2) == (
        "glyphscope: --separator \\uD800: holds half of a UTF-16 surrogate pair, which is not a character"
    )
    assert proc.stdout == b""


def test_output_that_cannot_be_written_is_a_usage_error(files, tmp_path, monkeypatch):
    proc = run("text", str(files["ok.pdf"]), "-o", str(tmp_path))
    assert (
        one_line_error(proc, 2) == f"glyphscope: cannot write {tmp_path}: it is a folder (name a file in it)"
    )
    from tests.cli_run import run_cli

    def disk_full(self: Path, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", disk_full)
    out = tmp_path / "out.txt"
    code, stdout, err = run_cli("text", str(files["ok.pdf"]), "--json", "-o", str(out))
    assert (code, stdout, err) == (2, b"", f"glyphscope: cannot write {out}: No space left on device\n")
    if Path("/dev/full").exists():  # a device whose writes fail as a full disk's do: text streams its pages
        for command in ("text", "glyphs", "decisions"):
            code, stdout, err = run_cli(command, str(files["ok.pdf"]), "-o", "/dev/full")
            assert (code, stdout, err) == (
                2,
                b"",
                "glyphscope: cannot write /dev/full: No space left on device\n",
            )
