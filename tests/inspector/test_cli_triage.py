"""`glyphscope triage` on a folder of tickets (inspector/cli/triage.py): table and JSON, broken files,
the HTML report, usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_subprocess import one_line_error, run


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
