"""`glyphscope render` (inspector/cli/render.py): a PNG and its line on stdout, layer names, errors as
exit codes."""

from __future__ import annotations

from tests.cli_subprocess import one_line_error, run


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
