"""`python -m glyphscope …` as a user runs it: JSON shapes, exit codes, one-line errors, determinism."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest

from tests.pdfbuild import make_pdf, to_bytes

REPO = Path(__file__).resolve().parents[2]
HELLO = b"BT /F1 10 Tf 72 700 Td (Hello world) Tj ET"
SLUG = HELLO + b" BT /F1 6 Tf 72 10 Td (slug line) Tj ET"
BOLD = b"BT /F1 10 Tf 72 600 Td (Bold) Tj ET BT /F1 10 Tf 72.3 600 Td (Bold) Tj ET"
HOSTILE = rb"BT /F1 10 Tf 72 700 Td (<script>alert\(1\)</script> & \"quoted\") Tj ET"

GLYPH_KEYS = {
    "unicode", "code", "code_bytes", "font_key", "font_size", "origin", "glyph_end", "pen_end", "quad", "height",
    "direction", "wmode", "token_index", "form_path", "mcid", "decode_source", "status", "duplicate_of",
    "paint_index",
}  # fmt: skip


def run(*args: str, check_clean_stderr: bool = True) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope", *args], cwd=REPO, env=env, capture_output=True, timeout=120
    )
    if check_clean_stderr:
        assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    return proc


def run_json(*args: str) -> dict:
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout.decode("utf-8"))


def one_line_error(proc: subprocess.CompletedProcess[bytes], code: int) -> str:
    assert proc.returncode == code, (proc.returncode, proc.stderr.decode())
    err = proc.stderr.decode().strip()
    assert err.startswith("glyphscope:") and "\n" not in err, err
    assert "Traceback" not in err
    assert proc.stdout == b""
    return err


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("cli")
    out = {}

    def save(name: str, data: bytes) -> None:
        out[name] = d / name
        out[name].write_bytes(data)

    save("ok.pdf", to_bytes(make_pdf([HELLO, b"BT /F1 10 Tf 72 700 Td (Page two) Tj ET"])))
    save("slug.pdf", to_bytes(make_pdf([SLUG, BOLD], crop_box=[36, 36, 576, 756])))
    # hostile text on a page with a problem, so the report shows the page's text
    save(
        "hostile.pdf",
        to_bytes(make_pdf([HOSTILE + b" BT /F1 6 Tf 72 10 Td (slug) Tj ET"], crop_box=[36, 36, 576, 756])),
    )
    good = to_bytes(make_pdf([HELLO, b"BT /F1 10 Tf 72 700 Td (two) Tj ET"]))
    save("damaged.pdf", good[: good.rindex(b"xref")])
    save("text.pdf", b"just some text, not a PDF\n")
    enc = io.BytesIO()
    make_pdf([HELLO]).save(enc, encryption=pikepdf.Encryption(user="pw", owner="owner"))
    save("enc.pdf", enc.getvalue())
    return out


# ---------------------------------------------------------------- JSON shapes


def test_glyphs_json_shape(files):
    for subset in ("raw", "visible", "all"):
        obj = run_json("glyphs", str(files["ok.pdf"]), "--page", "1", "--set", subset, "--json")
        assert obj["page"] == 1 and obj["visible_box"] == [0, 0, 612, 792]
        assert "warnings" in obj
        assert "".join(g["unicode"] for g in obj["glyphs"]) == "Hello world"
        for g in obj["glyphs"]:
            assert set(g) >= GLYPH_KEYS, GLYPH_KEYS - set(g)
            assert len(g["quad"]) == 4 and g["status"] == "kept" and g["duplicate_of"] is None


def test_glyphs_statuses_in_the_all_set(files):
    obj = run_json("glyphs", str(files["slug.pdf"]), "--page", "1", "--set", "all", "--json")
    statuses = {g["status"] for g in obj["glyphs"]}
    assert statuses == {"kept", "culled"}
    obj = run_json("glyphs", str(files["slug.pdf"]), "--page", "2", "--set", "all", "--json")
    dups = [g for g in obj["glyphs"] if g["status"] == "duplicate"]
    assert [g["duplicate_of"] for g in dups] == [0, 1, 2, 3]
    visible = run_json("glyphs", str(files["slug.pdf"]), "--page", "2", "--set", "visible", "--json")
    assert "".join(g["unicode"] for g in visible["glyphs"]) == "Bold"


def test_fonts_json_shape(files):
    obj = run_json("fonts", str(files["ok.pdf"]), "--page", "1", "--json")
    (font,) = obj["fonts"]
    for key in ("font_key", "subtype", "base_font", "encoding", "has_tounicode", "widths_source", "problems"):
        assert key in font
    assert font["font_key"] == "/F1" and font["base_font"] == "Helvetica"
    assert (
        font["decode_sources"] == {"base_encoding": 11} and font["unresolved"] == 0 and font["glyphs"] == 11
    )


def test_diagnostics_json_shape(files):
    obj = run_json("diagnostics", str(files["slug.pdf"]), "--json")
    assert obj["pages_total"] == 2 and obj["document"] == []
    assert [p["page"] for p in obj["pages"]] == [1, 2]
    kinds = {d["kind"]: d for p in obj["pages"] for d in p["diagnostics"]}
    assert kinds["culled_glyphs"]["severity"] == "warning" and kinds["culled_glyphs"]["page"] == 1
    assert kinds["duplicate_glyphs"]["glyphs"] == [4, 5, 6, 7]
    for d in kinds.values():
        assert {"kind", "severity", "message", "page", "glyphs", "count"} <= set(d)
    only_two = run_json("diagnostics", str(files["slug.pdf"]), "--pages", "2", "--json")
    assert [p["page"] for p in only_two["pages"]] == [2]


def test_text_json_shape(files):
    obj = run_json("text", str(files["ok.pdf"]), "--json")
    assert obj["file"] == str(files["ok.pdf"]) and obj["mode"] == "plain"
    assert [(p["page"], p["text"]) for p in obj["pages"]] == [(1, "Hello world"), (2, "Page two")]
    for p in obj["pages"]:
        assert {"page", "text", "structured", "untagged"} <= set(p)
    auto = run_json("text", str(files["ok.pdf"]), "--mode", "auto", "--pages", "2", "--json")
    assert auto["pages"][0]["structured"] is False and auto["pages"][0]["text"] == "Page two"


def test_text_json_structure_mode_without_structure(files):
    page = run_json("text", str(files["ok.pdf"]), "--mode", "structure", "--json")["pages"][0]
    assert page["text"] is None
    assert page["structured"] is False


def test_decisions_json_shape(files):
    obj = run_json("decisions", str(files["ok.pdf"]), "--page", "1", "--json")
    assert obj["decisions"]
    for d in obj["decisions"]:  # the decision protocol (core/decision_protocol.py)
        assert {"kind", "verdict", "value", "threshold", "description"} <= set(d)
        assert ("before" in d and "after" in d) or "glyph" in d
    gaps = [d for d in obj["decisions"] if d["kind"] == "word_gap"]
    # a number wherever the rule compared one: every pair except those next to the painted space
    assert gaps and all((d["threshold"] is None) == (d["verdict"] == "existing_space") for d in gaps)
    assert all(d["value"] == d["gap"] for d in gaps if d["threshold"] is not None)
    culls = run_json("decisions", str(files["slug.pdf"]), "--page", "1", "--json")["decisions"]
    assert any(d["kind"] == "cull" for d in culls)


# ---------------------------------------------------------------- exit codes and errors


def test_missing_file_exits_4(files):
    err = one_line_error(run("glyphs", str(files["ok.pdf"].parent / "nope.pdf"), "--page", "1", "--json"), 4)
    assert "not found" in err


def test_not_a_pdf_exits_4(files):
    for cmd in (["glyphs", "--page", "1"], ["text"], ["fonts", "--page", "1"], ["diagnostics"]):
        err = one_line_error(run(cmd[0], str(files["text.pdf"]), *cmd[1:]), 4)
        assert "not a PDF" in err


def test_encrypted_without_or_with_wrong_password_exits_3(files):
    one_line_error(run("text", str(files["enc.pdf"])), 3)
    one_line_error(run("text", str(files["enc.pdf"]), "--password", "nope"), 3)
    ok = run("text", str(files["enc.pdf"]), "--password", "pw")
    assert ok.returncode == 0 and ok.stdout.decode().strip() == "Hello world"


@pytest.mark.parametrize(
    "args",
    [
        ["glyphs", "{ok}", "--page", "3", "--json"],
        ["glyphs", "{ok}", "--page", "0", "--json"],
        ["fonts", "{ok}", "--page", "9"],
        ["decisions", "{ok}", "--page", "9", "--json"],
        ["text", "{ok}", "--pages", "5"],
        ["diagnostics", "{ok}", "--pages", "2-4"],
        ["render", "{ok}", "--page", "3", "-o", "{tmp}/x.png"],
    ],
)
def test_page_out_of_range_exits_2(files, args, tmp_path):
    args = [a.format(ok=files["ok.pdf"], tmp=tmp_path) for a in args]
    err = one_line_error(run(*args), 2)
    assert "out of range" in err or "page" in err


@pytest.mark.parametrize(
    "args",
    [
        ["glyphs", "{ok}", "--page", "x"],
        ["glyphs", "{ok}", "--page", "1", "--bogus"],
        ["text", "{ok}", "--mode", "sideways"],
        ["text", "{ok}", "--pages", "abc"],
        ["text", "{ok}", "--word-gap", "-1"],
        ["glyphs", "{ok}", "--json", "--csv"],
        ["render", "{ok}", "--page", "1"],
        ["triage"],
    ],
)
def test_bad_options_exit_2(files, args):
    args = [a.format(ok=files["ok.pdf"]) for a in args]
    one_line_error(run(*args), 2)


def test_damaged_file_repaired_exits_0_with_warnings(files):
    proc = run("text", str(files["damaged.pdf"]), "--json")
    assert proc.returncode == 0
    assert "warning" in proc.stderr.decode() and "Traceback" not in proc.stderr.decode()
    obj = json.loads(proc.stdout)
    assert obj["warnings"] and [p["text"] for p in obj["pages"]] == ["Hello world", "two"]
    for cmd in (["glyphs", "--page", "1", "--json"], ["fonts", "--page", "1", "--json"]):
        obj = run_json(cmd[0], str(files["damaged.pdf"]), *cmd[1:])
        assert obj["warnings"]
    diag = run_json("diagnostics", str(files["damaged.pdf"]), "--json")
    assert any(d["kind"] == "damaged_file_repaired" for d in diag["document"])


# ---------------------------------------------------------------- text output options


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


def test_output_is_deterministic(files):
    for args in (
        ["text", str(files["slug.pdf"]), "--json"],
        ["text", str(files["slug.pdf"]), "--mode", "layout"],
        ["glyphs", str(files["slug.pdf"]), "--page", "2", "--set", "all", "--json"],
        ["decisions", str(files["slug.pdf"]), "--page", "1", "--json"],
        ["diagnostics", str(files["slug.pdf"]), "--json"],
    ):
        first, second = run(*args), run(*args)
        assert first.returncode == 0 and first.stdout == second.stdout, args


# ---------------------------------------------------------------- triage


@pytest.fixture
def triage_folder(files, tmp_path) -> Path:
    folder = tmp_path / "tickets"
    (folder / "nested").mkdir(parents=True)
    for name in ("ok.pdf", "slug.pdf", "text.pdf"):
        (folder / name).write_bytes(files[name].read_bytes())
    (folder / "nested" / "x<i>hostile<i>.PDF").write_bytes(files["hostile.pdf"].read_bytes())
    (folder / "truncated.pdf").write_bytes(files["ok.pdf"].read_bytes()[:80])
    return folder


def test_triage_table_json_and_exit_0_with_broken_files(triage_folder, tmp_path):
    out = tmp_path / "report.json"
    proc = run("triage", str(triage_folder), "--json", str(out), "--jobs", "2")
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    assert lines[0].split()[:3] == ["score", "pages", "glyphs"]
    assert len(lines) == 1 + 5
    assert "ERROR" in lines[1] and "ERROR" in lines[2]  # broken files first
    assert "[" not in proc.stderr.decode()  # no progress bar: stderr is not a terminal
    report = json.loads(out.read_text("utf-8"))
    rows = report["rows"]
    assert report["files"] == 5 and report["failed"] == 2
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    slug = next(r for r in rows if r["file"].endswith("slug.pdf"))
    assert slug["pct_culled"] > 0 and slug["pct_duplicates"] > 0
    assert {"culled_glyphs", "duplicate_glyphs"} <= {f["kind"] for f in slug["findings"]}
    for r in rows:
        for key in (
            "file",
            "score",
            "error",
            "pages",
            "glyphs",
            "pct_culled",
            "pct_duplicates",
            "pct_from_forms",
        ):
            assert key in r
        assert set(r["findings_by_severity"]) == {"error", "warning", "info"}


def test_triage_html_report_is_self_contained_and_escaped(triage_folder, tmp_path):
    out = tmp_path / "report.html"
    proc = run("triage", str(triage_folder), "--html", str(out))
    assert proc.returncode == 0, proc.stderr.decode()
    html = out.read_text("utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert "<script>alert" not in html and "&lt;script&gt;alert" in html
    assert "<i>hostile" not in html and "x&lt;i&gt;hostile&lt;i&gt;.PDF" in html
    for external in ('src="http', "src='http", 'href="http', "@import", "url(http"):
        assert external not in html
    assert "data:image/png;base64," in html or "page image not available" in html
    assert html.count('class="file"') == 5


def test_triage_usage_errors_exit_2(tmp_path):
    one_line_error(run("triage", str(tmp_path / "nope")), 2)
    (tmp_path / "empty").mkdir()
    one_line_error(run("triage", str(tmp_path / "empty")), 2)
    one_line_error(run("triage", str(tmp_path), "--jobs", "0"), 2)


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


# ---------------------------------------------------------------- render


def test_render_writes_a_png_and_its_success_line_on_stdout(files, tmp_path):
    out = tmp_path / "page.png"
    proc = run(
        "render",
        str(files["slug.pdf"]),
        "--page",
        "1",
        "--layers",
        "culled,duplicates,word-gaps",
        "-o",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr.decode()
    # the success line is output (stdout), never a diagnostic; --quiet silences it
    assert proc.stdout.decode().startswith("page 1 (") and proc.stdout.decode().rstrip().endswith(str(out))
    assert proc.stderr == b""
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_unknown_layer_lists_the_valid_ones(files, tmp_path):
    err = one_line_error(
        run(
            "render",
            str(files["ok.pdf"]),
            "--page",
            "1",
            "--layers",
            "culled,sparkles",
            "-o",
            str(tmp_path / "x.png"),
        ),
        2,
    )
    assert "sparkles" in err and "word-gaps" in err and "culled" in err
    assert not (tmp_path / "x.png").exists()


def test_render_errors_map_to_exit_codes(files, tmp_path):
    out = str(tmp_path / "x.png")
    one_line_error(run("render", str(files["enc.pdf"]), "--page", "1", "-o", out), 3)
    one_line_error(run("render", str(files["text.pdf"]), "--page", "1", "-o", out), 4)
    one_line_error(run("render", str(files["ok.pdf"]), "--page", "1", "--scale", "0", "-o", out), 2)


def test_layer_names_resolve_with_hyphens_underscores_and_aliases():
    from glyphscope.inspector.layers.registry import LAYER_KEYS
    from glyphscope.inspector.report_html import resolve_layers

    known, unknown = resolve_layers(
        ["word-gaps", "Line_Breaks", "forms", "structure", "bogus", ""], LAYER_KEYS
    )
    assert known == {"word_gaps", "line_breaks", "glyphs", "form_bboxes", "structure_order"}
    assert unknown == ["bogus"]
    assert resolve_layers(["all"], LAYER_KEYS)[0] == set(LAYER_KEYS)


def test_every_switch_of_the_parameters_has_an_option_that_flips_it() -> None:
    from glyphscope.core.params import PARAMETER_SPECS, SWITCHES, Parameters
    from glyphscope.inspector.cli.parser import build_parser

    options = {spec.name: spec.option for spec in PARAMETER_SPECS if spec.option}
    assert set(options) >= SWITCHES
    for field in SWITCHES:
        args = build_parser().parse_args(["text", "x.pdf", options[field]])
        assert getattr(args, field) is not getattr(Parameters(), field)
    args = build_parser().parse_args(["text", "x.pdf", "--word-gap", "0.3"])
    assert args.word_gap == 0.3 and args.tracking is True


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


def test_every_command_has_a_one_line_description_in_help():
    from glyphscope.inspector.cli.parser import COMMAND_HELP, SUBCOMMANDS, build_gui_parser, build_parser

    parser = build_parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert {a.dest: a.help for a in sub._choices_actions} == COMMAND_HELP
    top = build_gui_parser().format_help()
    for name in SUBCOMMANDS:
        assert f"  {name}" in top and COMMAND_HELP[name] in top
        own = sub.choices[name].format_help().split("\n\n")  # usage, then its description
        assert own[1].strip() and not own[1].startswith(("positional", "options")), name
    assert "The manual: " in top
