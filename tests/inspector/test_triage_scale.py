"""Triage at archive scale: streaming rows, --jsonl and --resume, Ctrl-C, Dask, inputs, --fail-on,
--anonymise, painted spaces inside words, and the HTML report in a real browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from glyphscope.core.params import Parameters
from glyphscope.core.serialize import SCHEMA_VERSION
from glyphscope.core.triage import triage_file
from glyphscope.core.triage.batch import iter_triage
from glyphscope.core.triage.inputs import content_sha256, expand_inputs
from glyphscope.core.triage.stream import load_done, read_rows
from glyphscope.inspector.anonymise import anonymise_path, anonymise_text, placeholder
from glyphscope.inspector.report_html import SessionNotes, build_html_report, write_html_report
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf, to_bytes

ROOT = Path(__file__).resolve().parents[2]
CLEAN = b"BT /F1 10 Tf 72 700 Td (A clean page of ordinary text.) Tj 0 -14 Td (Second line here.) Tj ET"
# "Invoice" painted as "Inv", a space glyph, then kerned back by the space's width: no gap on the page.
PAINTED_SPACE = b"BT /F1 12 Tf 72 700 Td [(Inv) ( ) 278 (oice Betrag 4711)] TJ ET"
SLUG = CLEAN + b" BT /F1 6 Tf 72 20 Td (KOPIERER Zebracorn 0326) Tj ET"
SECRET_WORDS = (
    "clean",
    "ordinary",
    "Second",
    "Invoice",
    "oice",
    "Betrag",
    "4711",
    "Zebracorn",
    "KOPIERER",
    "customer",
    "routing",
)


def write(path: Path, content: bytes | list[bytes], **kw: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pages = [content] if isinstance(content, bytes) else content
    path.write_bytes(to_bytes(make_pdf(pages, **kw)))  # type: ignore[arg-type]
    return path


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    folder = tmp_path / "archive"
    write(folder / "clean.pdf", [CLEAN, CLEAN])
    write(folder / "customer-invoice.pdf", PAINTED_SPACE)
    write(folder / "sub" / "routing.pdf", SLUG, crop_box=[36, 36, 576, 756])
    (folder / "broken.pdf").write_bytes(b"not a PDF\n")
    return folder


def rows_by_file(rows):
    return {r.file: r for r in rows}


# ---------------------------------------------------------------- painted space inside a word


def test_a_space_painted_inside_a_word_is_a_finding_with_its_numbers(archive: Path) -> None:
    row = triage_file(archive / "customer-invoice.pdf")
    assert dict(row.finding_kinds) == {"painted_space_in_word": 1}
    (f,) = row.findings
    assert f.severity == "warning" and f.page == 1 and f.count == 1 and f.glyphs_total == 1
    assert "“Inv oice”" in f.message
    # the letters touch (gap 0) against a threshold of word_gap 0.15 × glyph height
    gap, threshold = re.search(r"e\.g\. (\S+) < (\S+) =", f.message).groups()  # type: ignore[union-attr]
    assert float(gap) == pytest.approx(0.0, abs=0.01) and 1.0 < float(threshold) < 2.5
    assert row.score > 0 and row.worst_pages[0].kinds == ("painted_space_in_word",)
    clean = triage_file(archive / "clean.pdf")
    assert clean.finding_kinds == () and clean.score == 0.0


def test_a_painted_space_under_actual_text_is_no_finding(tmp_path: Path) -> None:
    # pdf.js issue 13226's construction: the space glyph is replaced by its span's soft hyphen
    content = b"BT /F1 12 Tf 72 700 Td [(Inv)] TJ /Span <</ActualText <FEFF00AD> >> BDC [( ) 278] TJ EMC (oice) Tj ET"
    path = write(tmp_path / "a.pdf", content)
    assert triage_file(path).finding_kinds == ()
    raw = triage_file(path, params=Parameters(actual_text=False))  # the raw glyph text reads "Inv oice"
    assert dict(raw.finding_kinds) == {"painted_space_in_word": 1}


def test_an_ordinary_space_with_its_gap_is_no_finding(tmp_path: Path) -> None:
    row = triage_file(write(tmp_path / "a.pdf", b"BT /F1 12 Tf 72 700 Td (Invoice total) Tj ET"))
    assert row.finding_kinds == ()


# ---------------------------------------------------------------- streaming and inputs


def test_iter_triage_streams_and_draws_files_only_as_workers_free_up(archive: Path) -> None:
    files = sorted(str(p) for p in archive.rglob("*.pdf"))
    drawn: list[str] = []

    def lazily():
        for f in files:
            drawn.append(f)
            yield f

    stream = iter_triage(lazily(), jobs=2)
    first = next(stream)
    assert first.file in files and len(drawn) <= 3  # two in flight, at most one more drawn
    rest = list(stream)
    assert sorted(r.file for r in [first, *rest]) == files
    serial = rows_by_file(iter_triage(files, jobs=1))
    assert rows_by_file([first, *rest]) == serial


def test_closing_the_stream_kills_busy_workers_and_yields_no_row_for_them(archive: Path) -> None:
    files = [str(p) for p in sorted(archive.rglob("*.pdf"))] * 3
    stream = iter_triage(iter(files), jobs=2)
    next(stream)
    stream.close()  # what Ctrl-C does to the CLI's loop: no exception, no further row


def test_inputs_paths_folders_globs_lists_and_urls(archive: Path, tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text(f"# files to look at\n{archive / 'clean.pdf'}\n\n{archive / 'sub'}\n", "utf-8")
    got = expand_inputs([f"@{listing}", str(archive / "*.pdf"), str(archive / "clean.pdf")])
    names = [Path(s).name for s in got.sources]
    assert names == ["clean.pdf", "routing.pdf", "broken.pdf", "customer-invoice.pdf"]  # no duplicates
    assert got.missing == [] and got.problems == []
    bad = expand_inputs(
        [str(archive / "*.nothing"), f"@{tmp_path / 'absent.txt'}", str(tmp_path / "nope.pdf")]
    )
    assert bad.missing == [str(archive / "*.nothing"), str(tmp_path / "nope.pdf")]
    assert bad.problems and "cannot read the list" in bad.problems[0]
    pytest.importorskip("fsspec")
    url = archive.as_uri() + "/"
    remote = expand_inputs([url])
    assert sorted(Path(s).name for s in remote.sources) == sorted(p.name for p in archive.rglob("*.pdf"))
    assert all(s.startswith("file://") for s in remote.sources)
    source = next(s for s in remote.sources if s.endswith("customer-invoice.pdf"))
    row = triage_file(source)  # read as bytes through fsspec
    local = triage_file(archive / "customer-invoice.pdf")
    assert row.file == source and row.error is None and row.score == local.score
    assert row.sha256 == local.sha256 == content_sha256(archive / "customer-invoice.pdf")
    broken = triage_file(next(s for s in remote.sources if s.endswith("broken.pdf")))
    assert broken.error is not None and "broken.pdf" in broken.error and "the data" not in broken.error


# ---------------------------------------------------------------- --jsonl, --resume, summary, --fail-on


def test_jsonl_streams_rows_and_resume_skips_finished_files_by_path_and_hash(
    archive: Path, tmp_path: Path
) -> None:
    out = tmp_path / "rows.jsonl"
    code, stdout, err = run_cli(
        "triage", str(archive / "clean.pdf"), str(archive / "sub"), "--jsonl", str(out)
    )
    assert code == 0, err
    assert stdout == b""  # with --jsonl the table is not printed (memory stays flat)
    lines = out.read_text("utf-8").splitlines()
    assert len(lines) == 2 and all(json.loads(line)["sha256"] for line in lines)
    assert re.search(r"triage: 2 file\(s\), 0 failed, worst score [\d.]+ \(.*routing\.pdf\), [\d.]+ s", err)

    # the slug file changes; two new files appear: resume runs exactly those three
    write(archive / "sub" / "routing.pdf", SLUG + b" ", crop_box=[36, 36, 576, 756])
    code, _, err = run_cli("triage", str(archive), "--jsonl", str(out), "--resume")
    assert code == 0, err
    assert "resuming: 1 file(s) already in" in err and "3 to go" in err
    rows = read_rows(out)
    assert sorted(Path(r.file).name for r in rows) == [
        "broken.pdf",
        "clean.pdf",
        "customer-invoice.pdf",
        "routing.pdf",
    ]
    assert len(out.read_text("utf-8").splitlines()) == 5  # appended; the slug file's later row wins
    assert load_done(out)[str(archive / "sub" / "routing.pdf")] == content_sha256(
        archive / "sub" / "routing.pdf"
    )
    code, _, err = run_cli("triage", str(archive), "--jsonl", str(out), "--resume")
    assert code == 0 and "4 file(s) already in" in err and "0 to go" in err


def test_jsonl_rows_match_the_schema_row(archive: Path) -> None:
    from tests.inspector.test_schemas import assert_valid

    code, stdout, err = run_cli("triage", str(archive), "--jsonl", "-")
    assert code == 0, err
    rows = [json.loads(line) for line in stdout.decode("utf-8").splitlines()]
    assert len(rows) == 4
    report = {
        "schema_version": SCHEMA_VERSION,
        "glyphscope_version": "x",
        "files": 4,
        "failed": 1,
        "rows": rows,
    }
    report["score_weights"] = json.loads(
        json.dumps(__import__("glyphscope.core.triage", fromlist=["SCORE_WEIGHTS"]).SCORE_WEIGHTS)
    )
    assert_valid("triage", report)


@pytest.mark.parametrize(
    ("spec", "code"),
    [("error", 1), ("warning", 1), ("score>1000", 0), ("score>0.5", 1), ("score>=101", 0)],
)
def test_fail_on_sets_the_exit_code(archive: Path, spec: str, code: int) -> None:
    got, _, err = run_cli(
        "triage", str(archive / "clean.pdf"), str(archive / "customer-invoice.pdf"), "--fail-on", spec
    )
    if spec == "error":  # the painted space is a warning: no error, no failed file
        assert got == 0, err
    else:
        assert got == code, err
    got, _, err = run_cli("triage", str(archive), "--fail-on", "error")
    assert got == 1 and "--fail-on error: 1 file(s) matched" in err  # broken.pdf


def test_bad_options_are_usage_errors(archive: Path, tmp_path: Path) -> None:
    for argv, message in [
        (("--fail-on", "often"), "--fail-on must be"),
        (("--resume",), "--resume needs --jsonl OUT"),
        (("--scheduler", "yarn"), "--scheduler must be"),
        (("--jsonl", "-", "--json", "-"), "only one of"),
    ]:
        code, _, err = run_cli("triage", str(archive), *argv)
        assert code == 2 and message in err, (argv, err)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_keeps_finished_rows_says_what_is_left_and_exits_130(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    for i in range(40):
        write(folder / f"f{i:03d}.pdf", [CLEAN] * 3)
    # A named pipe that no one writes: the worker that opens it waits until it is killed, so the
    # batch cannot finish before the interrupt, however fast this machine is (a race once, when
    # 400 files took 1.8 s). Named first, it is the first file a worker takes.
    blocker = tmp_path / "blocker.pdf"
    os.mkfifo(blocker)
    total = 41
    out = tmp_path / "rows.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "glyphscope", "triage", str(blocker), str(folder), "--jsonl", str(out)]
        + ["--jobs", "2"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        # Ctrl-C as a terminal gives it: SIGINT handled, whatever this test process inherited or an
        # earlier test in it set (a child started with SIGINT ignored keeps ignoring it, as POSIX says)
        preexec_fn=_default_sigint,
    )
    # The blocked file holds the run open, so this waits for rows, not for a race; the guard only
    # keeps a broken build from hanging the suite.
    guard = time.monotonic() + 600
    while proc.poll() is None and (not out.exists() or len(out.read_bytes().splitlines()) < 5):
        assert time.monotonic() < guard, "no rows after 10 minutes"
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()[1].decode()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    text = err.decode()
    assert proc.returncode == 130, text
    lines = out.read_text("utf-8").splitlines()
    done = len(lines)
    assert 5 <= done < total and all(json.loads(line)["error"] is None for line in lines)  # no crash rows
    assert str(blocker) not in {json.loads(line)["file"] for line in lines}
    assert f"interrupted: {done} file(s) done and kept, {total - done} left" in text
    assert "--resume" in text and "Traceback" not in text
    code, _, err = run_cli("triage", str(folder), "--jsonl", str(out), "--resume", "-q")
    assert code == 0, err
    assert len({json.loads(line)["file"] for line in out.read_text("utf-8").splitlines()}) == total - 1


# ---------------------------------------------------------------- limits that hold in threads (Dask workers)


def test_the_time_budget_holds_in_a_thread(tmp_path: Path) -> None:
    pdf = write(tmp_path / "long.pdf", [CLEAN] * 40)
    with ThreadPoolExecutor(1) as pool:  # not the main thread: no signal could reach it
        row = pool.submit(triage_file, pdf, None, time_budget=1e-6).result(timeout=60)
    assert row.error is not None and "time budget" in row.error
    pages_read = int(re.search(r"\((\d+) of 40 pages read\)", row.error).group(1))  # type: ignore[union-attr]
    assert pages_read < 40
    assert threading.current_thread() is threading.main_thread()


def test_inside_a_page_the_engine_budgets_stop_it_in_a_thread_with_a_finding(tmp_path: Path) -> None:
    from glyphscope.core.limits import Limits

    # One page of 300,000 instructions: far longer than the file's budget of 0.3 s.
    busy = b"BT /F1 10 Tf 72 700 Td (Start of a long page) Tj " + b"0 0 Td " * 300_000 + b"(never read) Tj ET"
    pdf = write(tmp_path / "busy.pdf", busy)
    with ThreadPoolExecutor(1) as pool:
        row = pool.submit(triage_file, pdf, None, time_budget=0.3).result(timeout=120)
        counted = pool.submit(triage_file, pdf, None, limits=Limits(page_operators=1000)).result(timeout=120)
    for r, budget in ((row, "seconds per page"), (counted, "operators per page")):
        assert r.error is None and r.pages == 1, r.error
        assert dict(r.finding_kinds).get("budget_exceeded") == 1
        (f,) = [f for f in r.findings if f.kind == "budget_exceeded"]
        assert budget in f.message
        # stopped inside the page, not after it: only what was painted before the budget ran out
        assert r.glyphs == len("Start of a long page")
    assert "(1,000)" in next(f.message for f in counted.findings if f.kind == "budget_exceeded")


def test_budgets_reach_the_worker_processes(tmp_path: Path) -> None:
    from glyphscope.core.limits import Limits

    busy = b"BT /F1 10 Tf 72 700 Td (Start) Tj " + b"0 0 Td " * 5_000 + b"(end) Tj ET"
    files = [str(write(tmp_path / f"b{i}.pdf", busy)) for i in range(3)]
    rows = list(iter_triage(files, jobs=2, limits=Limits(page_operators=1000)))
    assert len(rows) == 3 and all(dict(r.finding_kinds).get("budget_exceeded") == 1 for r in rows)


# ---------------------------------------------------------------- Dask


def test_dask_local_cluster_gives_the_local_rows(archive: Path) -> None:
    pytest.importorskip("distributed")
    from glyphscope.core.triage.dask_run import dask_client, iter_triage_dask

    files = sorted(str(p) for p in archive.rglob("*.pdf")) + [str(archive / "missing.pdf")]
    local = rows_by_file(iter_triage(files, jobs=1))
    with dask_client("dask", workers=2) as client:
        assert len(client.nthreads()) == 2  # two worker processes, one thread each
        remote = rows_by_file(iter_triage_dask(iter(files), client, in_flight=2))
    assert remote == local
    assert remote[str(archive / "customer-invoice.pdf")].finding_kinds == (("painted_space_in_word", 1),)


def test_a_missing_dask_is_a_clear_message(archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import glyphscope.core.triage.dask_run as dask_run

    monkeypatch.setattr(dask_run, "dask_available", lambda: False)
    code, _, err = run_cli("triage", str(archive), "--scheduler", "dask")
    assert code == 2 and "pip install 'glyphscope[dask]'" in err


# ---------------------------------------------------------------- --anonymise


def test_placeholders_keep_class_case_script_and_layout() -> None:
    assert anonymise_text("Inv oice, Nr. 4711 — Ωμέγα Жук 東京") == "Xxx xxxx, Xx. 0000 — Ξξξξξ Жжж 〇〇"
    assert placeholder("-") == "-" and placeholder("\n") == "\n"
    assert anonymise_path("/srv/Acme Corp/2024/invoice-17.PDF") == "/xxx/Xxxx Xxxx/0000/xxxxxxx-00.pdf"


def test_anonymise_leaves_no_word_of_the_fixture_in_any_output(archive: Path, tmp_path: Path) -> None:
    json_out, html_out, jsonl_out = tmp_path / "t.json", tmp_path / "t.html", tmp_path / "t.jsonl"
    code, stdout, err = run_cli(
        "triage", str(archive), "--anonymise", "--json", str(json_out), "--html", str(html_out),
    )  # fmt: skip
    assert code == 0, err
    code2, _, err2 = run_cli("triage", str(archive), "--anonymize", "--jsonl", str(jsonl_out))
    assert code2 == 0, err2
    outputs = {
        "table": stdout.decode("utf-8"),
        "json": json_out.read_text("utf-8"),
        "html": html_out.read_text("utf-8"),
        "jsonl": jsonl_out.read_text("utf-8"),
    }
    report = json.loads(outputs["json"])
    assert report["anonymised"] is True
    kinds = {k for r in report["rows"] for k in r["finding_kinds"]}
    assert {"painted_space_in_word", "culled_glyphs"} <= kinds  # findings and numbers kept
    assert "Xxx xxxx" in outputs["html"]  # the painted-space sample still reads as split
    assert "<img" not in outputs["html"]  # no page images
    for name, text in outputs.items():
        for word in (*SECRET_WORDS, "archive", "broken", "invoice"):
            assert not re.search(rf"\b{word}\b", text, re.IGNORECASE), (name, word)


# ---------------------------------------------------------------- the HTML report


def test_report_has_summary_first_kinds_with_counts_legend_and_session_notes(
    archive: Path, tmp_path: Path
) -> None:
    rows = sorted((triage_file(p) for p in archive.rglob("*.pdf")), key=lambda r: -r.score)
    notes = SessionNotes(
        find=("Find “Invoice”: page 1: the page itself paints a space character",), notes="call back"
    )
    html = build_html_report(rows, images=False, session=notes)
    assert (
        html.index('id="summary"')
        < html.index('id="kinds"')
        < html.index('id="session"')
        < html.index('id="f0"')
    )
    kind = '<td class="kind" title="painted_space_in_word">Painted space in word</td><td class="n" data-v="1">1</td>'
    assert kind in html  # in words, the kind's name on hover
    assert (
        'summary><span class="sev">warning</span> '
        '<span class="kind" title="painted_space_in_word">Painted space in word</span>' in html
    )
    for column in ("% garbled", "% hidden"):  # the columns the command line has
        assert f">{column}</th>" in html
    assert "call back" in html and "paints a space character" in html
    with_images = build_html_report(rows[:1], images=True, detail_files=0)
    assert 'class="legend"' in with_images and "#d32f2f" in with_images  # culled glyphs' colour
    from glyphscope.inspector.layers.registry import FORM_COLOURS, GAP_NOT_INSERTED_COLOUR, PAGE_STREAM_COLOUR

    for colour in (PAGE_STREAM_COLOUR, FORM_COLOURS[0], GAP_NOT_INSERTED_COLOUR):  # every colour drawn, keyed
        assert f"background:{colour}" in with_images


def test_a_big_run_writes_a_summary_and_one_page_per_file(archive: Path, tmp_path: Path) -> None:
    rows = [triage_file(p) for p in sorted(archive.rglob("*.pdf"))]
    out = tmp_path / "report.html"
    write_html_report(rows, out, images=False, paged_over=2)
    html = out.read_text("utf-8")
    pages = sorted((tmp_path / "report_files").glob("f*.html"))
    assert len(pages) == 4 and 'id="f0"' not in html
    assert all(f'href="report_files/{p.name}"' in html for p in pages)
    assert "back to the summary" in pages[0].read_text("utf-8")


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_the_report_renders_in_headless_chromium_with_its_table_visible(
    archive: Path, tmp_path: Path
) -> None:
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install chromium; .ci/install installs it)")
    rows = sorted((triage_file(p) for p in archive.rglob("*.pdf")), key=lambda r: -r.score)
    report = write_html_report(rows, tmp_path / "report.html", images=False)
    common = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1280,800", "--enable-logging=stderr", "--v=0",
    ]  # fmt: skip
    shot = tmp_path / "shot.png"
    proc = subprocess.run(
        [*common, f"--screenshot={shot}", report.as_uri()], capture_output=True, timeout=120
    )
    assert shot.exists(), proc.stderr.decode(errors="replace")[-2000:]
    console_errors = [
        line
        for line in proc.stderr.decode(errors="replace").splitlines()
        if "CONSOLE" in line and "Uncaught" in line
    ]
    assert console_errors == []  # the sorting script ran without errors
    dom = subprocess.run(
        [*common, "--dump-dom", report.as_uri()], capture_output=True, timeout=120
    ).stdout.decode()
    assert dom.count("<tr") >= 5 and "customer-invoice.pdf" in dom
    from PIL import Image  # pillow comes with the test tools (matplotlib-free), else skip

    image = Image.open(shot).convert("L")
    assert image.size == (1280, 800)
    # the summary table sits in the upper part of the page: plenty of dark pixels (text, borders) there
    region = image.crop((0, 60, 1280, 400))
    dark = sum(1 for v in region.tobytes() if v < 160)  # one byte a pixel in mode L, in every Pillow
    assert dark > 2000, dark


def test_the_report_ranks_garbled_text_and_a_garbled_ocr_layer_as_errors() -> None:
    from glyphscope.core.triage.rows import TriageFinding
    from glyphscope.inspector.report_html import kind_words, report_severity

    ocr = TriageFinding("ocr_layer_only", "info", "the page's only text is an invisible OCR layer", 3)
    garbled = TriageFinding("garbled_page", "warning", "100 % of the glyphs are garbled", 3)
    assert report_severity(garbled, {3}) == "error"
    assert report_severity(ocr, {3}) == "error"  # the OCR layer a reader copies is wrong
    assert report_severity(ocr, {4}) == "info"  # an OCR layer whose text is plausible: on purpose
    assert report_severity(ocr, {None}) == "error"  # the document's text is garbled
    assert kind_words("font_without_tounicode") == "Font without ToUnicode"
    assert kind_words("ocr_layer_only") == "OCR layer only"
