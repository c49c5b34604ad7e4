"""Command-line conventions: `-` for stdin and stdout, --pages/--page, defaults in every help text,
--quiet, the password from a file or the environment, --version, `python -m glyphscope`.

Most tests run the command line in process (tests/cli_run.py); the few that need a
fresh interpreter (the module entry point, a PNG on stdout) start one.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pikepdf
import pytest

from glyphscope.inspector.cli.io import PASSWORD_ENV
from glyphscope.inspector.cli.parser import (
    HelpFormatter,
    _VersionAction,
    build_gui_parser,
    build_parser,
    run_command_line,
)
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf, to_bytes

REPO = Path(__file__).resolve().parents[2]
HELLO = b"BT /F1 10 Tf 72 700 Td (Hello world) Tj ET"
TWO = b"BT /F1 10 Tf 72 700 Td (Page two) Tj ET"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("conventions")
    out = {}

    def save(name: str, data: bytes) -> None:
        out[name] = d / name
        out[name].write_bytes(data)

    save("ok.pdf", to_bytes(make_pdf([HELLO, TWO])))
    save(
        "slug.pdf",
        to_bytes(make_pdf([HELLO + b" BT /F1 6 Tf 72 10 Td (slug) Tj ET"], crop_box=[36, 36, 576, 756])),
    )
    good = to_bytes(make_pdf([HELLO, TWO]))
    save("damaged.pdf", good[: good.rindex(b"xref")])
    enc = io.BytesIO()
    make_pdf([HELLO]).save(enc, encryption=pikepdf.Encryption(user="pw", owner="owner"))
    save("enc.pdf", enc.getvalue())
    save("pw.txt", b"pw\n")
    save("wrong.txt", b"nope\n")
    return out


@pytest.fixture(autouse=True)
def _no_password_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PASSWORD_ENV, raising=False)


def one_line_error(result: tuple[int, bytes, str], code: int) -> str:
    rc, out, err = result
    assert rc == code, (rc, err)
    assert out == b""
    err = err.strip()
    assert err.startswith("glyphscope:") and "\n" not in err, err
    return err


# ---------------------------------------------------------------- version and entry points


def test_version_comes_from_the_package_metadata() -> None:
    rc, out, err = run_cli("--version")
    assert rc == 0, err
    assert out.decode().strip() == f"glyphscope {metadata.version('glyphscope')}"


def test_python_dash_m_glyphscope_works() -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope", "--version"], cwd=REPO, env=env, capture_output=True, timeout=120
    )
    assert proc.returncode == 0 and proc.stdout.decode().startswith("glyphscope "), proc.stderr


def test_help_exits_0_in_process() -> None:
    rc, out, _ = run_cli("text", "--help")
    assert rc == 0 and b"--pages RANGE" in out and b"(default: plain)" in out


# ---------------------------------------------------------------- help texts


def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [("glyphscope", build_gui_parser()), *((f"glyphscope {n}", p) for n, p in sub.choices.items())]


@pytest.mark.parametrize(("name", "parser"), _parsers(), ids=[n for n, _ in _parsers()])
def test_every_option_has_help_with_its_default(name: str, parser: argparse.ArgumentParser) -> None:
    formatter = HelpFormatter(name)
    for action in parser._actions:
        if isinstance(
            action,
            (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction, _VersionAction),
        ):  # actions, not values: no default to show
            continue
        assert action.help, f"{name} {action.dest}: no help text"
        if action.option_strings and not action.required:
            assert "(default" in formatter._get_help_string(action), f"{name} {action.option_strings}"
    parser.format_help()  # every %(default)s expands


# ---------------------------------------------------------------- `-`: stdin and stdout


def test_text_reads_the_pdf_from_stdin(files) -> None:
    data = files["ok.pdf"].read_bytes()
    from_file = run_cli("text", str(files["ok.pdf"]))
    from_stdin = run_cli("text", "-", stdin=data)
    assert from_stdin[0] == 0 and from_stdin[1] == from_file[1] == b"Hello world\fPage two"
    rc, out, _ = run_cli("text", "-", "--json", stdin=data)
    assert rc == 0 and json.loads(out)["file"] == "-"


@pytest.mark.parametrize(
    "argv",
    [
        ["glyphs", "-", "--page", "1", "--json"],
        ["fonts", "-", "--page", "1", "--json"],
        ["diagnostics", "-", "--json"],
        ["decisions", "-", "--page", "1", "--json"],
    ],
)
def test_every_file_command_reads_stdin(files, argv) -> None:
    rc, out, err = run_cli(*argv, stdin=files["ok.pdf"].read_bytes())
    assert rc == 0, err
    assert json.loads(out)["file"] == "-"


def test_stdin_that_is_not_a_pdf_exits_4(files) -> None:
    one_line_error(run_cli("text", "-", stdin=b"hello\n"), 4)
    one_line_error(run_cli("text", "-", stdin=b""), 4)


def test_dash_output_is_stdout(files, tmp_path) -> None:
    plain = run_cli("text", str(files["ok.pdf"]))[1]
    rc, out, err = run_cli("text", str(files["ok.pdf"]), "-o", "-")
    assert rc == 0 and out == plain and "written" not in err
    rc, out, _ = run_cli("text", str(files["ok.pdf"]), "--json", "-o", "-")
    assert rc == 0 and json.loads(out)["pages"][1]["text"] == "Page two"


def test_triage_reports_on_stdout_and_a_pdf_from_stdin(files, tmp_path) -> None:
    rc, out, err = run_cli(
        "triage", "-", str(files["ok.pdf"]), "--json", "-", stdin=files["enc.pdf"].read_bytes()
    )
    assert rc == 0, err
    report = json.loads(out)  # the JSON alone: no table on stdout
    assert sorted(r["file"] for r in report["rows"]) == sorted(["-", str(files["ok.pdf"])])
    stdin_row = next(r for r in report["rows"] if r["file"] == "-")
    assert stdin_row["error_code"] == 3 and "glyphscope-stdin" not in stdin_row["error"]
    rc, out, err = run_cli("triage", "-", "--html", "-", "--no-images", stdin=files["slug.pdf"].read_bytes())
    assert rc == 0, err
    assert out.startswith(b"<!DOCTYPE html>") and b"Hello world" in out  # details reopened from stdin
    one_line_error(run_cli("triage", str(files["ok.pdf"]), "--json", "-", "--html", "-"), 2)
    one_line_error(run_cli("triage", "-", "-", stdin=b""), 2)


def test_render_writes_the_png_to_stdout(files) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope", "render", "-", "--page", "1", "--scale", "0.5", "-o", "-", "-q"],
        input=files["ok.pdf"].read_bytes(),
        cwd=REPO,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout[:8] == b"\x89PNG\r\n\x1a\n" and proc.stderr == b""


# ---------------------------------------------------------------- --pages and --page


def test_page_and_pages_are_aliases(files) -> None:
    ok = str(files["ok.pdf"])
    assert run_cli("text", ok, "--page", "2")[1] == run_cli("text", ok, "--pages", "2")[1] == b"Page two"
    assert (
        run_cli("diagnostics", ok, "--page", "2", "--json")[1]
        == run_cli("diagnostics", ok, "--pages", "2", "--json")[1]
    )
    for command in ("glyphs", "fonts", "decisions"):
        by_page = run_cli(command, ok, "--page", "2", "--json")
        assert by_page[0] == 0 and by_page[1] == run_cli(command, ok, "--pages", "2", "--json")[1]
    err = one_line_error(run_cli("render", ok, "--pages", "1-2", "-o", "x.png"), 2)
    assert "one page" in err


# ---------------------------------------------------------------- --quiet


def test_quiet_drops_warnings_and_written_lines_but_not_errors(files, tmp_path) -> None:
    rc, out, err = run_cli("text", str(files["damaged.pdf"]))
    assert rc == 0 and "warning" in err
    rc, out, err = run_cli("text", str(files["damaged.pdf"]), "--quiet")
    assert rc == 0 and err == "" and out == b"Hello world\fPage two"
    rc, _, err = run_cli("text", str(files["ok.pdf"]), "-q", "-o", str(tmp_path / "out.txt"))
    assert rc == 0 and err == "" and (tmp_path / "out.txt").read_bytes() == b"Hello world\fPage two"
    rc, _, err = run_cli("triage", str(files["ok.pdf"]), "-q", "--json", str(tmp_path / "t.json"))
    assert rc == 0 and err == ""
    one_line_error(run_cli("text", str(tmp_path / "missing.pdf"), "-q"), 4)


# ---------------------------------------------------------------- the password


def test_password_from_a_file(files) -> None:
    rc, out, err = run_cli("text", str(files["enc.pdf"]), "--password-file", str(files["pw.txt"]))
    assert rc == 0 and out == b"Hello world", err
    one_line_error(run_cli("text", str(files["enc.pdf"]), "--password-file", str(files["wrong.txt"])), 3)
    err = one_line_error(
        run_cli("text", str(files["enc.pdf"]), "--password-file", str(files["pw.txt"]) + "x"), 2
    )
    assert "password file" in err


def test_password_from_the_environment(files, monkeypatch) -> None:
    one_line_error(run_cli("text", str(files["enc.pdf"])), 3)
    monkeypatch.setenv(PASSWORD_ENV, "pw")
    rc, out, err = run_cli("text", str(files["enc.pdf"]))
    assert rc == 0 and out == b"Hello world", err
    rc, _, err = run_cli("triage", str(files["enc.pdf"]), "--json", "-")
    assert rc == 0 and "could not be read" not in err


def test_password_precedence_argv_then_file_then_environment(files, monkeypatch) -> None:
    enc = str(files["enc.pdf"])
    monkeypatch.setenv(PASSWORD_ENV, "nope")
    assert run_cli("text", enc, "--password-file", str(files["pw.txt"]))[0] == 0  # the file beats the env
    one_line_error(run_cli("text", enc, "--password", "nope", "--password-file", str(files["pw.txt"])), 3)
    assert run_cli("text", enc, "--password", "pw", "--password-file", str(files["wrong.txt"]))[0] == 0


def test_the_window_gets_the_password_from_the_same_sources(files, monkeypatch) -> None:
    seen = []

    def gui(path, page, password):
        seen.append((path, page, password))
        return 0

    monkeypatch.setenv(PASSWORD_ENV, "from-env")
    assert run_command_line([str(files["enc.pdf"]), "--page", "1"], gui) == 0
    assert run_command_line([str(files["enc.pdf"]), "--password-file", str(files["pw.txt"])], gui) == 0
    assert seen == [(str(files["enc.pdf"]), 1, "from-env"), (str(files["enc.pdf"]), None, "pw")]


def test_the_window_does_not_read_stdin(capsys) -> None:
    from glyphscope.__main__ import _gui

    assert run_command_line(["-"], _gui) == 2
    assert "stdin" in capsys.readouterr().err
