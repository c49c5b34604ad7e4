"""Triage: rows, scores, ordering, parallel runs, hostile files, and the corpus ranking."""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path

import pikepdf
import pytest

import glyphscope.core.triage as triage
from glyphscope.core.triage import FAILED_SCORE, TriageRow, expand_paths, triage_file, triage_paths
from tests import corpus
from tests.pdfbuild import helvetica, identity_h_font, make_pdf, to_bytes

CLEAN = b"BT /F1 10 Tf 72 700 Td (A clean page of ordinary text.) Tj 0 -14 Td (Second line here.) Tj ET"
SLUG = CLEAN + b" BT /F1 6 Tf 72 20 Td (PRINTER SLUG 03 26 85 83 33 PAGE 1) Tj ET"
FAKE_BOLD = b"BT /F1 10 Tf 72 700 Td (Heavy heading) Tj ET BT /F1 10 Tf 72.3 700 Td (Heavy heading) Tj ET"
CODESPACE_ONLY = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)


def write(path: Path, pdf: pikepdf.Pdf | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pdf if isinstance(pdf, bytes) else to_bytes(pdf))
    return path


def forms_only_pdf() -> pikepdf.Pdf:
    pdf = pikepdf.new()
    form = pdf.make_stream(b"BT /F1 10 Tf 72 700 Td (All of this text lives in a form.) Tj ET")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 612, 792]
    return make_pdf([b"/Fm Do"], xobjects={"/Fm": pdf.make_indirect(form)}, pdf=pdf)


def unresolved_pdf() -> pikepdf.Pdf:
    return make_pdf(
        [b"BT /F1 10 Tf 72 700 Td (ok) Tj /F2 10 Tf <0001000200030004> Tj ET"],
        fonts={"/F1": helvetica, "/F2": lambda p: identity_h_font(p, tounicode=CODESPACE_ONLY)},
    )


def tagged_pdf(mcids_in_tree: list[int], content: bytes) -> pikepdf.Pdf:
    pdf = make_pdf([content])
    page = pdf.pages[0].obj
    page.StructParents = 0
    root = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot))
    kids = [
        pdf.make_indirect(
            pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.P, P=root, Pg=page, K=m)
        )
        for m in mcids_in_tree
    ]
    root.K = pikepdf.Array(kids)
    pdf.Root.StructTreeRoot = root
    return pdf


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write(tmp_path / "clean.pdf", make_pdf([CLEAN, CLEAN]))
    write(tmp_path / "slug.pdf", make_pdf([SLUG], crop_box=[36, 36, 576, 756]))
    write(tmp_path / "sub" / "FAKEBOLD.PDF", make_pdf([FAKE_BOLD]))  # upper-case extension, in a subfolder
    write(tmp_path / "sub" / "deeper" / "forms.pdf", forms_only_pdf())
    write(tmp_path / "unresolved.pdf", unresolved_pdf())
    (tmp_path / "notes.txt").write_text("not looked at")
    (tmp_path / "not-a-pdf.pdf").write_text("this is a text file with a .pdf name\n")
    good = to_bytes(make_pdf([CLEAN]))
    (tmp_path / "truncated.pdf").write_bytes(good[:60])
    return tmp_path


# ---------------------------------------------------------------- one file


def test_clean_file_scores_about_zero():
    row = triage_file_bytes(make_pdf([CLEAN, CLEAN]))
    assert row.error is None and row.pages == 2 and row.glyphs > 40
    assert row.score < 1.0
    assert row.pct_culled == row.pct_duplicates == row.pct_from_forms == row.pct_unresolved == 0.0
    assert row.structure_usable is None and row.worst_pages == ()


def triage_file_bytes(pdf: pikepdf.Pdf) -> TriageRow:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        return triage_file(write(Path(d) / "x.pdf", pdf))


@pytest.mark.parametrize(
    "name, pdf, field",
    [
        ("slug", lambda: make_pdf([SLUG], crop_box=[36, 36, 576, 756]), "pct_culled"),
        ("fake bold", lambda: make_pdf([FAKE_BOLD]), "pct_duplicates"),
        ("forms only", forms_only_pdf, "pct_from_forms"),
        ("unresolved font", unresolved_pdf, "pct_unresolved"),
    ],
)
def test_problem_files_score_clearly_above_clean(name, pdf, field):
    clean = triage_file_bytes(make_pdf([CLEAN]))
    row = triage_file_bytes(pdf())
    assert getattr(row, field) > 0, name
    assert row.score > clean.score + 5, (name, row.score, clean.score)
    assert row.worst_pages and row.worst_pages[0].page == 1


def test_row_numbers_for_a_mixed_page():
    row = triage_file_bytes(unresolved_pdf())
    assert row.glyphs == 6
    assert row.pct_unresolved == pytest.approx(100 * 4 / 6, abs=0.01)
    assert row.fonts == 2
    assert row.fonts_without_tounicode == 0  # the font HAS a ToUnicode CMap, it is just empty
    assert row.findings_by_severity["error"] >= 1
    assert dict(row.finding_kinds)["unresolved_glyphs"] == 1
    f = next(f for f in row.findings if f.kind == "unresolved_glyphs")
    assert f.glyphs == (2, 3, 4, 5) and f.page == 1 and f.severity == "error"
    json.dumps(row.to_json())  # JSON-ready


def test_fonts_without_tounicode_count_only_those_that_lost_glyphs():
    def lost_font(pdf):
        font = identity_h_font(pdf)
        del font["/ToUnicode"]
        return font

    pdf = make_pdf(
        [b"BT /F1 10 Tf 72 700 Td (fine) Tj /F2 10 Tf <00410042> Tj ET"],
        fonts={"/F1": helvetica, "/F2": lost_font},
    )
    row = triage_file_bytes(pdf)
    assert row.pct_unresolved > 0
    assert row.fonts_without_tounicode == 1  # /F2: no ToUnicode, glyphs lost
    assert row.fonts_without_tounicode_total == 2  # Helvetica has none either, but decodes fine


def test_structure_usable_for_tagged_documents():
    tagged = b"/P <</MCID 0>> BDC BT /F1 10 Tf 72 700 Td (all of it tagged) Tj ET EMC"
    mostly_untagged = tagged + b" BT /F1 10 Tf 72 600 Td (but most of the page is not tagged) Tj ET"
    good = triage_file_bytes(tagged_pdf([0], tagged))
    bad = triage_file_bytes(tagged_pdf([0], mostly_untagged))
    assert good.structure_usable is True and good.pct_untagged == 0.0
    assert bad.structure_usable is False and bad.pct_untagged > 50
    assert bad.score > good.score + 5


def test_unreadable_files_become_rows_with_their_error(tmp_path: Path):
    (tmp_path / "a.pdf").write_text("hello")
    row = triage_file(tmp_path / "a.pdf")
    assert row.failed and "not a PDF" in row.error and row.error_code == 4
    assert row.score == FAILED_SCORE
    assert triage_file(tmp_path / "missing.pdf").error_code == 4


def test_encrypted_file_without_password_is_a_row(tmp_path: Path):
    path = tmp_path / "secret.pdf"
    make_pdf([CLEAN]).save(path, encryption=pikepdf.Encryption(user="pw", owner="own"))
    assert triage_file(path).error_code == 3
    assert triage_file(path, "wrong").error_code == 3
    ok = triage_file(path, "pw")
    assert ok.error is None and ok.glyphs > 0


def slow_page(self, n):  # replaces PageCollector.page: a page that never finishes
    time.sleep(30)


def test_time_budget_turns_a_slow_file_into_a_row(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(triage.PageCollector, "page", slow_page)
    path = write(tmp_path / "slow.pdf", make_pdf([CLEAN]))
    start = time.monotonic()
    row = triage_file(path, time_budget=0.5)
    assert time.monotonic() - start < 20  # stopped inside the page: it would sleep 30 s
    assert row.failed and "time budget" in row.error and row.score == FAILED_SCORE


# ---------------------------------------------------------------- folders and batches


def test_expand_paths_recursive_case_insensitive_and_missing(folder: Path):
    files, missing = expand_paths([folder, folder / "clean.pdf", folder / "nope.pdf"])
    names = sorted(p.name for p in files)
    assert names == sorted(
        [
            "clean.pdf",
            "slug.pdf",
            "FAKEBOLD.PDF",
            "forms.pdf",
            "unresolved.pdf",
            "not-a-pdf.pdf",
            "truncated.pdf",
        ]
    )
    assert missing == [str(folder / "nope.pdf")]


def test_expand_paths_does_not_follow_symlink_loops(tmp_path: Path):
    write(tmp_path / "a" / "x.pdf", make_pdf([CLEAN]))
    os.symlink(tmp_path, tmp_path / "a" / "loop")
    files, _ = expand_paths([tmp_path])
    assert [p.name for p in files] == ["x.pdf"]


def test_folder_with_broken_files_gives_a_row_per_file_worst_first(folder: Path):
    seen = []
    rows = triage_paths([folder], progress_callback=lambda done, total, row: seen.append((done, total)))
    by_name = {r.name: r for r in rows}
    assert len(rows) == 7 and len(by_name) == 7
    assert seen == [(i, 7) for i in range(1, 8)]
    # the broken ones carry their error and sort first (ties by file name)
    assert [r.name for r in rows[:2]] == ["not-a-pdf.pdf", "truncated.pdf"]
    assert all(r.failed and r.score == FAILED_SCORE for r in rows[:2])
    assert "not a PDF" in by_name["not-a-pdf.pdf"].error
    assert by_name["truncated.pdf"].error
    assert not any(r.failed for r in rows[2:])
    assert [r.score for r in rows] == sorted((r.score for r in rows), reverse=True)
    # every problem file ranks above the clean one
    assert rows[-1].name == "clean.pdf"
    for name in ("slug.pdf", "FAKEBOLD.PDF", "forms.pdf", "unresolved.pdf"):
        assert by_name[name].score > by_name["clean.pdf"].score + 5


def test_parallel_gives_the_same_rows(folder: Path):
    one = triage_paths([folder], jobs=1)
    two = triage_paths([folder], jobs=2)
    assert [r.file for r in one] == [r.file for r in two]
    assert one == two  # frozen dataclasses: every field but the wall time


def log_call(path: str) -> None:
    """One line per time a worker starts reading `path` (next to the file; visible across processes)."""
    with open(path + ".calls", "a") as log:
        log.write("x\n")


def calls(folder: Path) -> dict[str, int]:
    return {p.name[: -len(".calls")]: len(p.read_text().splitlines()) for p in folder.rglob("*.calls")}


def hanging_worker(path, password, params, budget):
    log_call(path)
    if path.endswith("slug.pdf"):
        time.sleep(600)  # stuck where no signal reaches (as if inside C code)
    return triage_file(path, password, params, budget)


def crashing_worker(path, password, params, budget):
    log_call(path)
    if path.endswith("forms.pdf"):
        os._exit(11)  # as a segfault would
    return triage_file(path, password, params, budget)


def test_a_hanging_file_is_killed_and_becomes_a_row(folder: Path):
    # budget + grace must cover a fresh worker's start-up (spawned workers import pikepdf & co.)
    start = time.monotonic()
    rows = triage_paths([folder], jobs=2, time_budget=3.0, hard_timeout_grace=3.0, worker=hanging_worker)
    assert time.monotonic() - start < 60
    by_name = {r.name: r for r in rows}
    assert len(rows) == 7
    assert "time budget" in by_name["slug.pdf"].error
    assert not by_name["clean.pdf"].failed and not by_name["unresolved.pdf"].failed
    # only the overrunning worker was stopped: no file was read twice, none in flight was re-run
    assert calls(folder) == {name: 1 for name in by_name}


def test_a_crashing_worker_blames_only_its_file(folder: Path):
    rows = triage_paths([folder], jobs=3, worker=crashing_worker)
    by_name = {r.name: r for r in rows}
    assert len(rows) == 7
    assert "crashed" in by_name["forms.pdf"].error
    for name in ("clean.pdf", "slug.pdf", "FAKEBOLD.PDF", "unresolved.pdf"):
        assert not by_name[name].failed, by_name[name].error
    assert calls(folder) == {name: 1 for name in by_name}  # the crash is not retried, nobody re-runs


# ---------------------------------------------------------------- corpus

# Problem cases by manifest feature (see ../shared/corpus/MANIFEST.md).
PROBLEM_FEATURES = {
    "slug": {"text_outside_cropbox", "printer_slug_outside_cropbox"},
    "fake bold": {"fake_bold", "duplicate_text_small_offset"},
    "forms": {"form_xobject_text"},
    "unresolved": {"unresolvable_glyphs", "broken_tounicode"},
}
# Type0 fonts without ToUnicode are a problem only when no CMap or CID collection decodes them:
# our engine resolves predefined CMaps (90ms-RKSJ-H, UniGB-UTF16-H, …) and Adobe-Japan1/GB1, so
# these files are checked as a group, not one by one.
TYPE0_WITHOUT_TOUNICODE = "type0_without_tounicode"
# Files the manifest's classifier tags but which have no such problem in fact.
NOT_REALLY = {
    # its two Form XObjects contain only `BT /F1 12 Tf ET`: no glyph is ever painted in a form
    "pdfminer__issue-625-identity-cmap.pdf": "forms",
}
NOT_CLEAN = {
    "malformed",
    "malformed_repaired_by_qpdf",
    "truncated",
    "partially_tagged_content",
    TYPE0_WITHOUT_TOUNICODE,
}


@pytest.fixture(scope="module")
def corpus_rows() -> dict[str, TriageRow]:
    root = corpus.require()
    groups: dict[str | None, list[Path]] = {}
    for name in corpus.files():
        groups.setdefault(corpus.password(name), []).append(root / name)
    rows: dict[str, TriageRow] = {}
    for password, paths in groups.items():
        for row in triage_paths(paths, password, jobs=2):
            rows[row.name] = row
    return rows  # its speed: benchmarks/bench_triage_scale.py


def test_corpus_triage_gives_a_readable_row_per_file(corpus_rows):
    assert sorted(corpus_rows) == sorted(corpus.files())
    failed = {name: r.error for name, r in corpus_rows.items() if r.failed}
    assert failed == {}
    for r in corpus_rows.values():
        assert r.pages >= 1 and 0 <= r.pct_culled <= 100 and r.score >= 0
        json.dumps(r.to_json())


def _features(name: str) -> set[str]:
    return next(set(row["features"]) for row in corpus.manifest() if row["file"] == name)


def _problem_files() -> dict[str, str]:
    out = {}
    for name in corpus.files():
        for group, feats in PROBLEM_FEATURES.items():
            if _features(name) & feats and NOT_REALLY.get(name) != group:
                out.setdefault(name, group)
    return out


def _clean_files() -> list[str]:
    every = set().union(*PROBLEM_FEATURES.values()) | NOT_CLEAN
    return [n for n in corpus.files() if not _features(n) & every]


def test_corpus_ranking_puts_problem_files_above_clean_ones(corpus_rows):
    problems = _problem_files()
    clean = _clean_files()
    assert len(problems) >= 8 and len(clean) >= 15
    assert set(problems.values()) == set(PROBLEM_FEATURES)
    problem_scores = [corpus_rows[n].score for n in problems]
    clean_scores = sorted(corpus_rows[n].score for n in clean)
    assert statistics.median(problem_scores) > statistics.median(clean_scores) + 10
    # every problem file scores above three quarters of the clean files
    upper_quartile = statistics.quantiles(clean_scores, n=4)[2]
    low = {
        n: (g, corpus_rows[n].score) for n, g in problems.items() if corpus_rows[n].score <= upper_quartile
    }
    assert low == {}, f"problem files not above the clean upper quartile {upper_quartile}: {low}"


def test_corpus_type0_without_tounicode_files_rank_above_clean_as_a_group(corpus_rows):
    group = [n for n in corpus.files() if TYPE0_WITHOUT_TOUNICODE in _features(n)]
    clean = _clean_files()
    assert len(group) >= 5
    assert statistics.median(corpus_rows[n].score for n in group) > statistics.median(
        corpus_rows[n].score for n in clean
    )


def test_corpus_problem_rows_show_their_problem(corpus_rows):
    for name, group in _problem_files().items():
        r = corpus_rows[name]
        measure = {
            "slug": r.pct_culled,
            "fake bold": r.pct_duplicates,
            "forms": r.pct_from_forms,
            "unresolved": r.pct_unresolved + r.pct_fallback,
        }[group]
        assert measure > 0, (name, group)


def test_score_weights_by_report_name_are_the_weights_score_uses():
    from glyphscope.core.triage import SCORE_WEIGHTS, Tally, score

    # a file whose glyphs are all unresolved scores the unresolved weight, nothing else
    assert score(Tally(glyphs=10, unresolved=10), tagged=False) == SCORE_WEIGHTS["unresolved"] == 40.0
    assert score(Tally(glyphs=4, culled=1), tagged=False) == round(SCORE_WEIGHTS["culled"] * 0.5, 2)
    assert score(Tally(glyphs=4, untagged=1, tagged_visible=4), tagged=True) == SCORE_WEIGHTS["untagged"] / 4


def test_library_log_lines_while_a_file_is_read_become_its_warnings(tmp_path) -> None:
    """fontTools' (pikepdf's, pypdfium2's) log lines while a file's pages are read are that file's
    warnings in its row, once each; another thread's lines are not."""
    import logging
    import threading

    from glyphscope.core.triage import collect
    from tests.pdfbuild import make_pdf

    path = tmp_path / "one.pdf"
    make_pdf([b"BT /F1 12 Tf 72 700 Td (Hi) Tj ET"]).save(path)
    original = collect.PageCollector.page

    def logging_page(self, n):  # type: ignore[no-untyped-def]
        logging.getLogger("fontTools.ttLib.tables").warning("bad  table %s", "glyf")
        logging.getLogger("fontTools.ttLib.tables").warning("bad  table %s", "glyf")
        other = threading.Thread(target=lambda: logging.getLogger("pikepdf").warning("another file's"))
        other.start()
        other.join()
        return original(self, n)

    collect.PageCollector.page = logging_page  # type: ignore[method-assign]
    try:
        row = collect.triage_file(path)
    finally:
        collect.PageCollector.page = original  # type: ignore[method-assign]
    assert row.error is None
    assert row.warnings == ("fontTools: bad table glyf",)
