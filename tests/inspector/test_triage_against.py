"""`triage DIR --against TEXTDIR`: each file's customer text compared in the worker, ranked, grouped by cause."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from glyphscope.core.triage.rows import TriageRow
from glyphscope.inspector.compare.against import against_order, against_task, top_cause
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf

GAP = b"BT /F1 20 Tf 72 700 Td [(Hello) -120 (World)] TJ ET BT /F1 12 Tf 72 650 Td (Plain words here) Tj ET"
PLAIN = b"BT /F1 12 Tf 72 700 Td (Second page text) Tj ET"


@pytest.fixture()
def queue(tmp_path: Path) -> tuple[Path, Path]:
    pdfs, texts = tmp_path / "pdfs", tmp_path / "texts"
    pdfs.mkdir()
    texts.mkdir()
    make_pdf([GAP]).save(pdfs / "a-split.pdf")  # their text splits HelloWorld: 1 word_gap difference
    make_pdf([PLAIN]).save(pdfs / "b-same.pdf")  # the same text
    make_pdf([PLAIN]).save(pdfs / "c-none.pdf")  # no text of theirs
    make_pdf([PLAIN]).save(pdfs / "d-other.pdf")  # another file's text
    (texts / "a-split.txt").write_text("Hello World\nPlain words here\n\f", encoding="utf-8")
    (texts / "b-same.txt").write_text("Second page text\n\f", encoding="utf-8")
    (texts / "d-other.txt").write_text("Minutes of the board meeting\n\f", encoding="utf-8")
    return pdfs, texts


def test_rows_get_agreement_and_causes_and_are_ranked_by_disagreement(
    queue: tuple[Path, Path], tmp_path: Path
) -> None:
    pdfs, texts = queue
    out = tmp_path / "t.json"
    code, stdout, err = run_cli(
        "triage", str(pdfs), "--against", str(texts), "--json", str(out), "--jobs", "1"
    )
    assert code == 0, err
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    names = [Path(r["file"]).name for r in rows]
    assert names == ["d-other.pdf", "a-split.pdf", "b-same.pdf", "c-none.pdf"]
    by = {Path(r["file"]).name: r for r in rows}
    assert by["a-split.pdf"]["against_causes"] == {"word_gap": 1}
    assert 0.9 < by["a-split.pdf"]["against_agreement"] < 1.0
    assert by["b-same.pdf"]["against_agreement"] == 1.0 and by["b-same.pdf"]["against_causes"] == {}
    assert by["c-none.pdf"]["against_agreement"] is None and by["c-none.pdf"]["against_causes"] is None
    assert by["c-none.pdf"]["against_error"] == f"no text of theirs: c-none.txt is not in {texts}"
    assert by["d-other.pdf"]["against_agreement"] < 0.5


def test_the_table_has_the_agreement_and_the_top_cause(queue: tuple[Path, Path]) -> None:
    pdfs, texts = queue
    code, stdout, err = run_cli("triage", str(pdfs), "--against", str(texts), "--jobs", "1", "-q")
    assert code == 0, err
    lines = stdout.decode().splitlines()
    assert "%agree(theirs)" in lines[0] and "cause" in lines[0]
    split = next(line for line in lines if "a-split.pdf" in line)
    assert "word_gap" in split.split() and "-" not in split.split()[-3]
    none = next(line for line in lines if "c-none.pdf" in line)
    assert "no text" in none


def test_html_report_groups_the_queue_by_cause(queue: tuple[Path, Path], tmp_path: Path) -> None:
    pdfs, texts = queue
    out = tmp_path / "t.html"
    code, _, err = run_cli(
        "triage", str(pdfs), "--against", str(texts), "--html", str(out), "--no-images", "--jobs", "1", "-q"
    )
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    section = page[page.index("<h2>Their texts, grouped by cause</h2>") :]
    assert "1 file: words split or glued at a word gap" in section
    assert "1 file: no text of theirs, or it could not be compared" in section
    assert "1 file: their text agrees" in section


def test_resume_keeps_the_against_fields(queue: tuple[Path, Path], tmp_path: Path) -> None:
    pdfs, texts = queue
    jsonl = tmp_path / "t.jsonl"
    code, _, err = run_cli(
        "triage", str(pdfs / "a-split.pdf"), "--against", str(texts), "--jsonl", str(jsonl)
    )
    assert code == 0, err
    code, _, err = run_cli(
        "triage", str(pdfs), "--against", str(texts), "--jsonl", str(jsonl), "--resume", "--jobs", "1"
    )
    assert code == 0, err
    lines = [json.loads(x) for x in jsonl.read_text(encoding="utf-8").splitlines()]
    assert [Path(o["file"]).name for o in lines].count("a-split.pdf") == 1 and len(lines) == 4
    back = TriageRow.from_json(lines[0])
    assert back.against_causes == {"word_gap": 1} and back.against_agreement == lines[0]["against_agreement"]
    assert back.to_json()["against_causes"] == {"word_gap": 1}


def test_without_against_rows_have_no_against_keys(queue: tuple[Path, Path]) -> None:
    pdfs, _ = queue
    row = TriageRow(file="x.pdf")
    assert "against_agreement" not in row.to_json()


def test_the_worker_is_picklable_and_ranks(queue: tuple[Path, Path]) -> None:
    import pickle

    pdfs, texts = queue
    task = functools.partial(against_task, text_dir=str(texts))
    task = pickle.loads(pickle.dumps(task))
    rows = [
        task(str(p), None, __import__("glyphscope.core.params").core.params.DEFAULT_PARAMETERS, None)
        for p in sorted(pdfs.iterdir())
    ]
    ranked = against_order(rows)
    assert [Path(r.file).name for r in ranked] == ["d-other.pdf", "a-split.pdf", "b-same.pdf", "c-none.pdf"]
    assert top_cause(ranked[1]) == "word_gap" and top_cause(ranked[2]) == ""


def test_dask_scheduler_runs_the_comparison_in_its_workers(queue: tuple[Path, Path], tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    pdfs, texts = queue
    out = tmp_path / "t.json"
    code, _, err = run_cli(
        "triage",
        str(pdfs / "a-split.pdf"),
        "--against",
        str(texts),
        "--scheduler",
        "dask",
        "--json",
        str(out),
        "-q",
    )
    assert code == 0, err
    (row,) = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert row["against_causes"] == {"word_gap": 1}


def test_a_text_dir_that_is_not_a_folder_is_a_usage_error(queue: tuple[Path, Path], tmp_path: Path) -> None:
    pdfs, _ = queue
    code, _, err = run_cli("triage", str(pdfs), "--against", str(tmp_path / "nowhere"))
    assert code == 2 and "is not a folder" in err
