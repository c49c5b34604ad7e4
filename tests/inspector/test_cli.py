"""`python -m glyphscope …` as a user runs it: JSON shapes, exit codes, one-line errors, determinism,
the options every threshold has, help."""

from __future__ import annotations

import argparse
import json

import pytest

from tests.cli_subprocess import one_line_error, run

GLYPH_KEYS = {
    "unicode", "code", "code_bytes", "font_key", "font_size", "origin", "glyph_end", "pen_end", "quad", "height",
    "direction", "wmode", "token_index", "form_path", "mcid", "decode_source", "status", "duplicate_of",
    "paint_index",
}  # fmt: skip


def run_json(*args: str) -> dict:
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout.decode("utf-8"))


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
