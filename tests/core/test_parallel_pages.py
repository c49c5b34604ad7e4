"""--jobs N: pages read by worker processes give the same bytes, in page order, as one process.

Checks on values only (no timing): the commands' output with --jobs 2 against --jobs 1, a
document with hostile pages in the middle, a page whose analysis raises, Ctrl-C while a
worker is held on a page, the usage errors, and triage keeping its workers per file.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pytest

import glyphscope
from glyphscope.core import analysis, page_pool
from glyphscope.core.document import open_document
from glyphscope.core.limits import Limits
from glyphscope.core.page_workers import PARALLEL_MIN_PAGES, effective_jobs, page_results
from glyphscope.core.textops import document_pages_text
from tests import hostile_files
from tests.cli_run import run_cli
from tests.inspector.test_triage_scale import _default_sigint
from tests.pdfbuild import make_pdf, to_bytes

ROOT = Path(__file__).resolve().parents[2]
DEMO = str(glyphscope.demo_pdf())


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers forked from this process (so they see its monkeypatches), even after a Qt test."""
    monkeypatch.setattr(page_pool, "mp_context", lambda: multiprocessing.get_context("fork"))


@pytest.mark.parametrize(
    "argv",
    [
        ["text"],
        ["text", "--json", "--mode", "auto"],
        ["glyphs", "--json", "--set", "all"],
        ["glyphs", "--csv"],
        ["fonts"],
        ["fonts", "--json"],
        ["decisions", "--json"],
        ["decisions", "--mode", "columns"],
        ["diagnostics", "--json"],
        ["diagnostics"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_two_jobs_write_the_same_bytes_as_one(argv: list[str]) -> None:
    one = run_cli(*argv, DEMO, "--jobs", "1")
    two = run_cli(*argv, DEMO, "--jobs", "2")
    assert one[0] == 0 and one[1]
    assert two == one
    if argv == ["text"]:  # the automatic default: 15 pages, one process per usable processor
        assert run_cli(*argv, DEMO) == one
    if argv == ["fonts"]:  # one row per font object of each of the 15 pages, as one process reads them
        rows = one[1].decode().splitlines()
        assert len(rows) == 51 and rows[0].split("\t")[:7] == [
            "page 1",
            "/FB",
            "Type1",
            "Helvetica-Bold",
            "WinAnsiEncoding",
            "ToUnicode=no",
            "glyphs=26",
        ]
        assert run_cli(*argv, DEMO) == one


def _hostile_in_the_middle(tmp_path: Path) -> Path:
    """Clean pages around a form fan-out (stopped by a budget) and a stream qpdf refuses."""
    merged = pikepdf.new()
    clean = [b"BT /F1 12 Tf 72 700 Td (page %d) Tj ET" % i for i in range(1, 9)]
    parts = [
        make_pdf(clean[:3]),
        pikepdf.open(io.BytesIO(hostile_files.form_fan_out(16))),
        make_pdf(clean[3:5]),
        pikepdf.open(io.BytesIO(hostile_files.bad_predictor())),
        make_pdf(clean[5:]),
    ]
    for part in parts:
        merged.pages.extend(part.pages)
    path = tmp_path / "hostile-middle.pdf"
    path.write_bytes(to_bytes(merged))
    return path


@pytest.mark.parametrize("command", ["text", "glyphs", "fonts", "decisions", "diagnostics"])
def test_hostile_pages_in_the_middle_keep_their_place_and_the_rest_goes_on(
    tmp_path: Path, command: str
) -> None:
    path = str(_hostile_in_the_middle(tmp_path))
    argv = [command, path, "--max-page-form-invocations", "500", *(["--json"] if command != "text" else [])]
    one = run_cli(*argv, "--jobs", "1")
    two = run_cli(*argv, "--jobs", "3")
    assert one[0] == 0, one[2]
    assert two == one  # stdout and the per-page budget warnings on stderr, in page order
    assert "warning: page 4:" in one[2]  # the fan-out page was stopped by its budget
    if command == "text":
        texts = one[1].decode().split("\f")
        assert len(texts) == 11
        assert texts[:3] == ["page 1", "page 2", "page 3"] and texts[-3:] == ["page 6", "page 7", "page 8"]


def _break_page_3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Page 3's analysis raises ValueError("page 3 is broken"); the others read as always.

    glyphscope.model binds `analyze_page` when first imported: it is imported before the patch,
    or a later test's pages would keep the broken function for the rest of the run."""
    import glyphscope.model  # noqa: F401

    real = analysis.analyze_page

    def failing(doc: object, n: int, *args: object, **kwargs: object) -> object:
        if n == 3:
            raise ValueError("page 3 is broken")
        return real(doc, n, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(analysis, "analyze_page", failing)


def test_a_page_that_raises_is_that_pages_error_in_page_order(
    forked: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break_page_3(monkeypatch)
    runs = {}
    for jobs in (1, 2):
        errors: list[tuple[int, str]] = []
        doc = open_document(DEMO)
        texts = analysis.document_texts(
            doc,
            range(1, 8),
            "plain",
            jobs=jobs,
            on_error=lambda n, exc, seen=errors: seen.append((n, str(exc))),
        )
        runs[jobs] = ([(n, t.text) for n, t in texts], errors)
    assert runs[2] == runs[1]
    assert [n for n, _ in runs[2][0]] == [1, 2, 4, 5, 6, 7]
    assert runs[2][1] == [(3, "page 3 is broken")]
    with pytest.raises(ValueError, match="page 3 is broken"):  # without on_error: raised when due
        document_pages_text(open_document(DEMO), list(range(1, 8)), "plain", jobs=2)


def test_results_come_in_the_order_asked_and_the_library_default_is_one_process() -> None:
    doc = open_document(DEMO)
    order = [9, 2, 2, 15, 1, 7, 4]
    assert [r.page for r in page_results(doc, order, _page_number, jobs=3)] == order
    assert [r.get() for r in page_results(doc, order, _page_number, jobs=3)] == [f"p{n}" for n in order]
    assert effective_jobs(doc, 15, 1) == 1 and effective_jobs(doc, 15, 4) == 4
    assert effective_jobs(doc, 2, 4) == 2  # never more processes than pages
    assert effective_jobs(doc, PARALLEL_MIN_PAGES - 1, None) == 1
    limited = open_document(DEMO, limits=Limits(document_seconds=10.0))
    assert effective_jobs(limited, 15, 4) == 1  # a whole-document budget is spent in one process
    with pytest.raises(ValueError):
        effective_jobs(doc, 15, 0)


def _page_number(doc: object, n: int) -> str:
    return f"p{n}"


@pytest.mark.parametrize("value", ["0", "-2", "two"])
@pytest.mark.parametrize("command", ["text", "glyphs", "fonts", "decisions", "diagnostics", "compare"])
def test_jobs_below_one_is_a_usage_error(command: str, value: str) -> None:
    code, out, err = run_cli(command, DEMO, "--jobs", value)
    assert (code, out) == (2, b"")
    assert err.startswith("glyphscope: ") and err.count("\n") == 1 and "--jobs" in err


BLOCKING_PROBE = """
import os, sys, time
from glyphscope.core import document

pids, argv = sys.argv[1], sys.argv[2:]
parent = os.getpid()
real = document.Document.interpret


def interpret(self, n):
    if os.getpid() != parent:  # in a page worker: say so, and hold page 3 until killed
        with open(pids, "a") as fh:
            fh.write(f"{os.getpid()} {n}\\n")
        if n == 3:
            time.sleep(3600)
    return real(self, n)


document.Document.interpret = interpret
from glyphscope.__main__ import main

sys.exit(main(argv))
"""


def _worker_pids(path: Path) -> Iterator[tuple[int, int]]:
    if path.exists():
        for line in path.read_text().splitlines():
            pid, page = line.split()
            yield int(pid), int(page)


def test_ctrl_c_ends_the_run_with_130_and_no_worker_left(tmp_path: Path) -> None:
    pids = tmp_path / "pids.txt"
    proc = subprocess.Popen(
        [sys.executable, "-c", BLOCKING_PROBE, str(pids), "text", DEMO, "--jobs", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's job is
        preexec_fn=_default_sigint,  # SIGINT handled as in a terminal, whatever this process inherited
    )
    # Page 3 never finishes, so the run cannot end before the interrupt; the guard only keeps a
    # broken build from hanging the suite.
    guard = time.monotonic() + 600
    while proc.poll() is None and 3 not in {page for _, page in _worker_pids(pids)}:
        assert time.monotonic() < guard, "no worker reached page 3 in 10 minutes"
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()[1].decode()
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole group: the workers ignore it
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err.decode()
    assert err.decode() == "glyphscope: interrupted\n"
    # streamed in page order, so what was written is the start of the text, before page 3's
    assert run_cli("text", DEMO)[1].startswith(out) and out.count(b"\f") <= 1
    for pid in {pid for pid, _ in _worker_pids(pids)}:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_triage_workers_read_their_files_pages_in_one_process(
    forked: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from glyphscope.core.triage import batch, triage_paths

    monkeypatch.setattr(batch, "mp_context", lambda: multiprocessing.get_context("fork"))

    def no_pool(*args: object) -> None:
        raise AssertionError("a page pool was started inside a triage worker")

    monkeypatch.setattr(page_pool.PagePool, "__init__", no_pool)
    for name in ("a.pdf", "b.pdf", "c.pdf"):
        (tmp_path / name).write_bytes(Path(DEMO).read_bytes())
    rows = triage_paths([tmp_path], jobs=2)
    assert len(rows) == 3 and all(r.error is None for r in rows)


def test_a_worker_that_dies_fails_its_page_only(forked: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from glyphscope.core.document import Document

    parent, real = os.getpid(), Document.interpret

    def interpret(self: Document, n: int) -> object:
        if n == 4 and os.getpid() != parent:
            os._exit(3)  # as a crash in native code would end it
        return real(self, n)

    monkeypatch.setattr(Document, "interpret", interpret)
    errors: list[tuple[int, str]] = []
    texts = analysis.document_texts(
        open_document(DEMO),
        range(1, 9),
        "plain",
        jobs=2,
        on_error=lambda n, exc: errors.append((n, str(exc))),
    )
    assert [n for n, _ in texts] == [1, 2, 3, 5, 6, 7, 8]
    assert errors == [(4, "page 4: the worker process reading it crashed")]


def test_the_librarys_whole_document_text_is_the_pages_texts_whatever_the_jobs() -> None:
    data = Path(DEMO).read_bytes()
    with glyphscope.open(DEMO) as pdf, glyphscope.open(data) as from_bytes:
        one = pdf.extract_text()
        per_page = [page.extract_text() for page in pdf.pages]
        assert one == "\f".join(per_page) and one.count("\f") == 14  # the demo's 15 pages
        assert [len(t) for t in pdf.texts(jobs=2)] == [len(t) for t in per_page]
        assert pdf.extract_text(jobs=2) == one == from_bytes.extract_text(jobs=None)  # bytes: workers too
        assert pdf.extract_text("layout", jobs=3, separator="\n---\n") == "\n---\n".join(
            page.extract_text("layout") for page in pdf.pages
        )
        with pytest.raises(ValueError, match="unknown text mode 'prose'"):
            pdf.extract_text("prose")
        with pytest.raises(ValueError, match="jobs must be a whole number"):
            pdf.extract_text(jobs=0)


def test_the_librarys_whole_document_text_raises_a_failing_page_when_due(
    forked: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break_page_3(monkeypatch)
    with glyphscope.open(DEMO) as pdf:
        for jobs in (1, 2):
            texts = pdf.texts(jobs=jobs)
            assert [next(texts) for _ in range(2)] == [p.extract_text() for p in pdf.pages[:2]]
            with pytest.raises(ValueError, match="page 3 is broken"):
                next(texts)
