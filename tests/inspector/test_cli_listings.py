"""glyphs, fonts and decisions over page ranges, to a file, as CSV; the top-level usage, "did you
mean", switch defaults in --help, shell completion and the man page made from the parser."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from glyphscope.inspector.cli.csv import DECISION_COLUMNS, GLYPH_COLUMNS
from glyphscope.inspector.cli.docs import man_page
from glyphscope.inspector.cli.parser import SUBCOMMANDS
from glyphscope.inspector.cli.shared import EXIT_CODES
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf, to_bytes

PAGES = [b"BT /F1 10 Tf 72 700 Td [(Hello) -400 (world)] TJ ET", b"BT /F1 10 Tf 72 700 Td (Page two) Tj ET"]


@pytest.fixture
def two_pages(tmp_path: Path) -> str:
    path = tmp_path / "two.pdf"
    path.write_bytes(to_bytes(make_pdf(PAGES)))
    return str(path)


def _csv(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


def test_glyphs_over_a_range_as_csv_tsv_and_json_lines(two_pages: str, tmp_path: Path) -> None:
    code, out, err = run_cli("glyphs", two_pages, "--pages", "1-2", "--csv")
    assert code == 0, err
    rows = _csv(out)
    assert list(rows[0]) == list(GLYPH_COLUMNS)
    by_page = {p: "".join(r["unicode"] for r in rows if r["page"] == p) for p in ("1", "2")}
    assert by_page == {"1": "Helloworld", "2": "Page two"}  # the space is the TJ gap's, no glyph
    assert rows[0]["origin"] == "72.0,700.0" and rows[0]["font"] == "/F1" and rows[0]["status"] == "kept"
    # tab-separated: the same columns, the glyph's text as a literal
    lines = run_cli("glyphs", two_pages, "--pages", "2")[1].decode("utf-8").splitlines()
    assert lines[0].split("\t") == list(GLYPH_COLUMNS)
    assert [line.split("\t")[2] for line in lines[1:]] == [repr(c) for c in "Page two"]
    # --json: ONE document, the page's own for one page, {"pages": [...]} for a range;
    # --jsonl: one page's document per line, however many pages
    whole = json.loads(run_cli("glyphs", two_pages, "--pages", "1-2", "--json")[1])
    assert whole["file"] == two_pages and "schema_version" in whole
    lines = [
        json.loads(line) for line in run_cli("glyphs", two_pages, "--pages", "1-2", "--jsonl")[1].splitlines()
    ]
    for docs in (whole["pages"], lines):
        assert [(d["page"], "".join(g["unicode"] for g in d["glyphs"])) for d in docs] == [
            (1, "Helloworld"),
            (2, "Page two"),
        ]
    (single,) = [
        json.loads(line) for line in run_cli("glyphs", two_pages, "--pages", "2", "--jsonl")[1].splitlines()
    ]
    assert single["page"] == 2
    one = json.loads(run_cli("glyphs", two_pages, "--pages", "2", "--json")[1])
    assert one["page"] == 2 and len(one["glyphs"]) == 8


def test_fonts_and_decisions_over_a_range_and_to_a_file(two_pages: str, tmp_path: Path) -> None:
    out_file = tmp_path / "fonts.txt"
    code, out, err = run_cli("fonts", two_pages, "-o", str(out_file))
    assert code == 0 and out == b"" and f"2 page(s) written to {out_file}" in err
    lines = out_file.read_text("utf-8").splitlines()
    assert [line.split("\t")[:3] for line in lines] == [
        ["page 1", "/F1", "Type1"],
        ["page 2", "/F1", "Type1"],
    ]
    assert "glyphs=10" in lines[0] and "glyphs=8" in lines[1]

    decisions = tmp_path / "decisions.csv"
    code, _, err = run_cli("decisions", two_pages, "--pages", "1-2", "--csv", "-o", str(decisions), "-q")
    assert code == 0 and err == ""
    rows = _csv(decisions.read_bytes())
    assert list(rows[0]) == list(DECISION_COLUMNS)
    gaps = [
        (r["page"], r["before"], r["after"], r["verdict"], r["value"], r["threshold"])
        for r in rows
        if r["kind"] == "word_gap" and not r["verdict"].startswith("below")
    ]
    assert gaps == [
        ("1", "4", "5", "inserted", "4.0", "1.3875"),  # the TJ gap: 400/1000 × 10 pt
        ("2", "3", "4", "existing_space", "", ""),
        ("2", "4", "5", "existing_space", "", ""),
    ]
    docs = json.loads(run_cli("decisions", two_pages, "--json")[1])["pages"]
    assert [(d["page"], d["text"]) for d in docs] == [(1, "Hello world"), (2, "Page two")]
    docs = [json.loads(line) for line in run_cli("decisions", two_pages, "--jsonl")[1].splitlines()]
    assert [(d["page"], d["text"]) for d in docs] == [(1, "Hello world"), (2, "Page two")]
    fonts = json.loads(run_cli("fonts", two_pages, "--json")[1])
    assert [(d["page"], d["fonts"][0]["glyphs"]) for d in fonts["pages"]] == [(1, 10), (2, 8)]
    texts = [json.loads(line) for line in run_cli("text", two_pages, "--jsonl")[1].splitlines()]
    assert [(d["page"], d["text"]) for d in texts] == [(1, "Hello world"), (2, "Page two")]
    found = [json.loads(line) for line in run_cli("diagnostics", two_pages, "--jsonl")[1].splitlines()]
    assert [d["page"] for d in found] == [1, 2, None]  # the document's own findings last
    compared = run_cli("compare", two_pages, "--engines", "pdfminer", "--jsonl", "-q")[1].splitlines()
    assert [(d["page"], d["file"]) for d in map(json.loads, compared)] == [(1, two_pages), (2, two_pages)]


def test_listing_errors_are_one_line(two_pages: str, tmp_path: Path) -> None:
    for argv, code, words in [
        (("glyphs", two_pages, "--pages", "3"), 2, "out of range"),
        (("fonts", two_pages, "-o", str(tmp_path / "no" / "f.txt")), 2, "folder does not exist"),
        (("decisions", two_pages, "--json", "--csv"), 2, "not allowed with"),
        (("fonts", two_pages, "--csv"), 2, "unrecognized"),
    ]:
        got, out, err = run_cli(*argv)
        assert got == code and out == b"" and err.startswith("glyphscope:") and err.count("\n") == 1, err
        assert words in err, err


def test_top_level_usage_lists_the_commands_and_a_typo_gets_a_suggestion(two_pages: str) -> None:
    code, out, _ = run_cli("--help")
    usage = out.decode("utf-8").split("\n\n")[0]
    assert code == 0 and "{" + ",".join(SUBCOMMANDS) + "}" in usage
    code, out, err = run_cli("glyps", two_pages, "--page", "1")
    assert code == 2 and out == b""
    assert (
        err.startswith("glyphscope: unknown command 'glyps': did you mean 'glyphs'?") and err.count("\n") == 1
    )
    code, _, err = run_cli("trage", two_pages)
    assert code == 2 and "did you mean 'triage'?" in err
    # a missing file named like a command is a missing file, not a typo
    from glyphscope.inspector.cli.parser import unknown_command

    assert unknown_command(["text.pdf"]) is None and unknown_command(["./glyphs"]) is None
    assert unknown_command(["--page", "1"]) is None and unknown_command(["invoice"]) is None


def test_switches_show_their_real_default() -> None:
    help_text = " ".join(run_cli("text", "--help")[1].decode("utf-8").split())
    assert "(default: tracking on)" in help_text and "(default: actual text on)" in help_text
    assert (
        "--visual-order keep right-to-left" in help_text
        and "visual order instead of logical order (default: off)" in help_text
    )
    assert "(default: include)" in help_text
    triage_help = " ".join(run_cli("triage", "--help")[1].decode("utf-8").split())
    assert "(needs no Qt) (default: images on)" in triage_help  # --no-images, a store_true flag
    assert "--version show the version and exit (default" not in " ".join(
        run_cli("--help")[1].decode().split()
    )


def test_completion_scripts_name_every_command_and_option() -> None:
    code, out, err = run_cli("completion", "bash")
    script = out.decode("utf-8")
    assert code == 0, err
    assert "complete" in script and "glyphscope" in script
    for word in (*SUBCOMMANDS, "--annotations", "--timeout", "--csv", "--resume"):
        assert word in script, word
    if shutil.which("bash"):
        assert subprocess.run(["bash", "-n"], input=out, capture_output=True).returncode == 0
    code, out, _ = run_cli("completion", "zsh")
    assert code == 0 and out.startswith(b"#compdef glyphscope")
    assert run_cli("completion", "fish")[0] == 2


def test_man_page_is_made_from_the_parser() -> None:
    page = man_page("9.9")
    assert page.startswith('.TH GLYPHSCOPE 1 "" "glyphscope 9.9"')
    for name in SUBCOMMANDS:
        assert f".SH {name.upper()}\n" in page
    assert "\\fB\\-\\-annotations {include,exclude,only}\\fR" in page
    assert "\\fB\\-\\-timeout SECONDS\\fR" in page
    for code, meaning in EXIT_CODES:
        assert f"\\fB{code}\\fR\n{meaning}" in page
    if shutil.which("man"):  # formats without a warning from groff
        proc = subprocess.run(
            ["man", "--warnings", "-l", "-"],
            input=page.encode(),
            capture_output=True,
            env={"MANWIDTH": "80", "PATH": "/usr/bin:/bin"},
        )
        assert proc.returncode == 0 and b"ANNOTATIONS" not in proc.stderr and proc.stderr == b"", proc.stderr
        assert b"EXIT STATUS" in proc.stdout


@pytest.mark.parametrize("command", ["glyphs", "fonts", "decisions"])
def test_each_json_line_of_a_range_follows_the_command_schema(two_pages: str, command: str) -> None:
    from tests.inspector.test_schemas import assert_valid

    code, out, err = run_cli(command, two_pages, "--jsonl")
    assert code == 0, err
    docs = [json.loads(line) for line in out.decode("utf-8").splitlines()]
    assert [d["page"] for d in docs] == [1, 2]
    for doc in docs:
        assert_valid(command, doc)
    code, out, err = run_cli(command, two_pages, "--json")  # one document: each page's within it
    assert code == 0, err
    whole = json.loads(out)
    assert [d["page"] for d in whole["pages"]] == [1, 2]
    for doc in whole["pages"]:
        assert_valid(command, doc)
