"""triage: --resume by resolved path and content, versioned JSON Lines rows, --timeout, an unreachable
Dask scheduler, and the library's answer to an input of the wrong type."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path

import pytest

import glyphscope
from glyphscope.core.serialize import SCHEMA_VERSION
from glyphscope.core.triage.time_limits import Deadline, TimeBudgetExceeded
from glyphscope.inspector.cli.triage import SCHEDULER_CONNECT_SECONDS, scheduler_unreachable
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf, to_bytes


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    d = tmp_path / "pdfs"
    d.mkdir()
    for name, text in (("a.pdf", b"Alpha"), ("b.pdf", b"Beta"), ("c.pdf", b"Gamma")):
        (d / name).write_bytes(to_bytes(make_pdf([b"BT /F1 10 Tf 72 700 Td (" + text + b") Tj ET"])))
    return d


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_jsonl_rows_carry_the_version_header_and_the_resolved_path(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    code, _, err = run_cli("triage", str(folder), "--jsonl", str(out), "-q")
    assert code == 0, err
    rows = _rows(out)
    assert [Path(str(r["file"])).name for r in rows] == ["a.pdf", "b.pdf", "c.pdf"]
    for r in rows:
        assert r["schema_version"] == SCHEMA_VERSION and r["glyphscope_version"] == glyphscope.__version__
        assert r["realpath"] == os.path.realpath(str(r["file"]))
        assert list(r)[:3] == ["schema_version", "glyphscope_version", "file"]


def test_resume_knows_a_file_however_its_path_is_written(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "rows.jsonl"
    code, _, err = run_cli("triage", str(folder / "a.pdf"), str(folder / "b.pdf"), "--jsonl", str(out))
    assert code == 0, err
    # the same files by a relative path, and through a symlinked folder: done already
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link").symlink_to(folder, target_is_directory=True)
    code, _, err = run_cli("triage", "pdfs", "--jsonl", str(out), "--resume")
    assert code == 0 and "resuming: 2 file(s) already in" in err and "1 to go" in err, err
    assert [Path(str(r["file"])).name for r in _rows(out)] == ["a.pdf", "b.pdf", "c.pdf"]
    assert _rows(out)[2]["file"] == os.path.join("pdfs", "c.pdf")  # as written on this run
    code, _, err = run_cli(
        "triage", "link/a.pdf", "link/b.pdf", "link/c.pdf", "--jsonl", str(out), "--resume"
    )
    assert code == 0 and "3 file(s) already in" in err and "0 to go" in err, err
    # a changed file is triaged again, whichever path names it
    (folder / "b.pdf").write_bytes(to_bytes(make_pdf([b"BT /F1 10 Tf 72 700 Td (Beta two) Tj ET"])))
    code, _, err = run_cli("triage", str(folder), "--jsonl", str(out), "--resume")
    assert code == 0 and "2 file(s) already in" in err and "1 to go" in err, err
    assert len(_rows(out)) == 4


class _DeadlineAfterThreePages(Deadline):
    """The time budget runs out after the third page, whatever the machine's speed: no alarm,
    the between-page check fails from its fourth call on."""

    def __enter__(self) -> Deadline:
        self.checks = 0
        return self

    def check(self) -> None:
        self.checks += 1
        if self.checks > 3:
            raise TimeBudgetExceeded


def test_a_file_over_the_timeout_is_a_failed_row_and_the_batch_goes_on(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from glyphscope.core.triage import collect

    monkeypatch.setattr(collect, "Deadline", _DeadlineAfterThreePages)
    demo = str(glyphscope.demo_pdf())  # 15 pages
    code, out, err = run_cli(
        "triage", demo, str(folder / "a.pdf"), "--timeout", "0.5", "--jobs", "1", "--jsonl", "-", "-q"
    )
    assert code == 0, err
    rows = {Path(str(r["file"])).name: r for r in map(json.loads, out.decode().splitlines())}
    assert rows["demo.pdf"]["error"] == "gave up after the time budget of 0.5 s (3 of 15 pages read)"
    assert rows["demo.pdf"]["score"] == 1000.0 and rows["demo.pdf"]["error_code"] == 1
    # a small file in the same batch gets its own fresh budget: a.pdf has one page, read in full
    assert rows["a.pdf"]["error"] is None and rows["a.pdf"]["pages"] == 1
    monkeypatch.undo()
    code, out, err = run_cli("triage", str(folder), "--timeout", "60", "--jsonl", "-", "-q")
    assert code == 0 and [json.loads(line)["error"] for line in out.decode().splitlines()] == [None] * 3
    for bad in ("0", "-1", "soon", "inf"):
        code, _, err = run_cli("triage", str(folder), "--timeout", bad)
        assert code == 2 and err.startswith("glyphscope: ") and err.count("\n") == 1 and "--timeout" in err


def test_a_budget_spent_while_opening_says_so(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from glyphscope.core import document
    from glyphscope.core.triage.collect import triage_file

    def slow_open(*args: object, **kwargs: object) -> document.Document:
        raise TimeBudgetExceeded  # what the alarm does when it fires inside open_document

    monkeypatch.setattr(document, "open_document", slow_open)
    row = triage_file(folder / "a.pdf", time_budget=0.25)
    assert row.error == "gave up after the time budget of 0.25 s (while opening the file)"
    assert row.error_code == 1 and row.pages == 0


def test_the_deadline_counts_from_its_creation() -> None:
    d = Deadline(0.2)
    d.check()  # within the budget
    d.end = time.monotonic() - 0.001  # as if 0.2 s had passed
    with pytest.raises(TimeBudgetExceeded):
        d.check()
    Deadline(None).check()  # no budget: never


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_scheduler_is_one_line_and_fast(folder: Path) -> None:
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{_closed_port()}"
    started = time.monotonic()
    code, out, err = run_cli("triage", str(folder), "--scheduler", address)
    assert time.monotonic() - started < SCHEDULER_CONNECT_SECONDS + 5
    assert code == 1 and out == b""
    assert err == f"glyphscope: cannot reach the Dask scheduler at {address}: Connection refused\n"
    assert (
        scheduler_unreachable("tcp://127.0.0.1")
        == "--scheduler tcp://127.0.0.1: name HOST:PORT (e.g. tcp://10.0.0.5:8786)"
    )
    assert (
        scheduler_unreachable("tcp://127.0.0.1:http")
        == "--scheduler tcp://127.0.0.1:http: the port is not a number"
    )
    assert scheduler_unreachable("dask") is None


@pytest.mark.parametrize("wrong", [123, None, ["a.pdf"], 1.5])
def test_open_names_the_inputs_it_takes(wrong: object) -> None:
    with pytest.raises(TypeError) as info:
        glyphscope.open(wrong)  # type: ignore[arg-type]
    assert str(info.value) == (
        "glyphscope.open takes a path (str or os.PathLike), the PDF's bytes or a binary file object, "
        f"not {type(wrong).__name__}"
    )


def test_open_takes_any_path_like(tmp_path: Path) -> None:
    class Where(os.PathLike[str]):
        def __fspath__(self) -> str:
            return str(glyphscope.demo_pdf())

    with glyphscope.open(Where()) as doc:  # type: ignore[arg-type]
        assert len(doc.pages) == 15


def test_a_server_that_is_not_a_dask_scheduler_is_one_line(folder: Path) -> None:
    """Something listens (a proxy, a web server) but speaks no Dask: Dask reads its answer as a
    frame length and fails (MemoryError on an 'HTTP/1.1' read as a size); still one line, exit 1."""
    pytest.importorskip("distributed")
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                with conn:
                    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

    threading.Thread(target=answer, daemon=True).start()
    try:
        address = f"tcp://127.0.0.1:{port}"
        started = time.monotonic()
        code, out, err = run_cli("triage", str(folder), "--scheduler", address)
        assert time.monotonic() - started < 30
    finally:
        server.close()
    assert code == 1 and out == b"", err
    assert (
        err.startswith(f"glyphscope: cannot reach the Dask scheduler at {address}: ") and err.count("\n") == 1
    ), err
    assert "internal error" not in err


def test_pages_and_regions_name_the_types_they_take() -> None:
    with glyphscope.open(glyphscope.demo_pdf()) as doc:
        page = doc.pages[0]
        for wrong, message in [
            ("x", "pages are indexed by an int (from 0) or a slice, not str"),
            (1.0, "pages are indexed by an int (from 0) or a slice, not float"),
        ]:
            with pytest.raises(TypeError) as info:
                doc.pages[wrong]  # type: ignore[call-overload]
            assert str(info.value) == message
        for bbox in (None, "abcd", (0, 0, 10)):
            with pytest.raises(TypeError) as info:
                page.crop(bbox)  # type: ignore[arg-type]
            assert str(info.value) == f"bbox must be four numbers (x0, top, x1, bottom), not {bbox!r}"
        assert page.crop((0, 0, page.width, page.height)).extract_text() == page.extract_text()
