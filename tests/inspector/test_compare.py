"""Other engines' text aligned to glyphscope's glyphs, and each difference explained by our decisions.

One small PDF per phenomenon, built with pikepdf: a slug line outside the
CropBox (culled), a TJ word gap between pdfminer's threshold and ours, and a
fake-bold duplicate. pdfminer.six is a dependency and always runs; pdftotext
runs where poppler-utils is installed (CI installs it) and is skipped otherwise.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.decision_protocol import fmt
from glyphscope.core.document import open_document
from glyphscope.inspector.compare import engines as E
from glyphscope.inspector.compare.align import Run, align, normalise
from glyphscope.inspector.compare.compared_page import compare_page
from glyphscope.inspector.compare.explain import DecisionIndex, distance_outside, explain
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf, to_bytes

SLUG_PAGE = (
    b"BT /F1 12 Tf 72 700 Td (Body text inside the box) Tj ET BT /F1 9 Tf 72 20 Td (Job 4711 slug line) Tj ET"
)
# 120/1000 × 20 pt = a 2.4 pt gap: above pdfminer's word margin (0.1 × 20 pt), below ours (0.15 × height).
TJ_GAP_PAGE = (
    b"BT /F1 20 Tf 72 700 Td [(Hello) -120 (World)] TJ ET BT /F1 12 Tf 72 650 Td (Plain words here) Tj ET"
)
FAKE_BOLD_PAGE = (
    b"BT /F1 14 Tf 72 700 Td (Bold heading) Tj ET BT /F1 14 Tf 72.3 700 Td (Bold heading) Tj ET "
    b"BT /F1 12 Tf 72 650 Td (Body) Tj ET"
)
CROP_BOX = [50, 50, 562, 742]

needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="pdftotext is not installed (apt-get install poppler-utils)"
)


@pytest.fixture(scope="module")
def fixture_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("compare") / "phenomena.pdf"
    make_pdf([SLUG_PAGE, TJ_GAP_PAGE, FAKE_BOLD_PAGE], crop_box=CROP_BOX).save(path)
    return path


def _compare(path: Path, page: int, engine: str) -> Any:
    doc = open_document(str(path))
    analysis = analyze_page(doc, page)
    result = E.run_engine(engine, str(path), page)
    assert result.error is None, result.error
    return analysis, compare_page(analysis, [result]).engines[0]


# ------------------------------------------------------------------ engines


def test_engines_are_detected_with_versions_and_pdfminer_always() -> None:
    statuses = {s.key: s for s in E.detect_engines()}
    assert set(statuses) == set(E.ENGINE_KEYS)
    pdfminer = statuses["pdfminer"]
    assert pdfminer.available and pdfminer.version[:4].isdigit()
    assert pdfminer.to_json()["install"] is None
    if shutil.which("pdftotext"):
        assert statuses["pdftotext"].available and statuses["pdftotext-layout"].available
        assert statuses["pdftotext"].version.count(".") >= 1


def test_an_absent_engine_is_listed_with_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(E.shutil, "which", lambda name: None)
    statuses = {s.key: s for s in E.detect_engines(refresh=True)}
    try:
        mutool = statuses["mutool"]
        assert not mutool.available and mutool.version == ""
        assert "mupdf-tools" in mutool.to_json()["install"]
        result = E.run_engine("mutool", "x.pdf", 1)
        assert result.text is None and result.error is not None and "mupdf-tools" in result.error
        assert statuses["pdfminer"].available  # a Python library, not an executable
    finally:
        monkeypatch.undo()
        E.detect_engines(refresh=True)


def test_engine_lists_are_parsed_and_unknown_names_rejected() -> None:
    assert E.parse_engine_list("pdfminer, pdftotext,pdfminer") == ("pdfminer", "pdftotext")
    assert E.parse_engine_list("pdfminer.six,poppler") == ("pdfminer", "pdftotext")
    assert "pdfminer" in E.parse_engine_list("all")
    with pytest.raises(ValueError, match="unknown engine.*tesseract"):
        E.parse_engine_list("pdfminer,tesseract")


def test_an_engine_past_its_time_limit_is_stopped(fixture_pdf: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An engine that answers after an hour: the outcome cannot depend on how fast this machine
    # starts a process (a real engine given 1 ms sometimes answered within the first poll).
    def never_answers(spec: Any, path: str, page: int, password: str | None) -> tuple[list[str], bytes]:
        return [sys.executable, "-c", "import time; time.sleep(3600)"], b""

    monkeypatch.setattr(E, "_command", never_answers)
    result = E.run_engine("pdfminer", str(fixture_pdf), 1, timeout=0.3)
    assert result.text is None and result.error == "no answer within 0.3 s"
    assert result.seconds >= 0.3


def test_an_engine_that_fails_gives_its_error_not_an_exception(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4 nothing else")
    result = E.run_engine("pdfminer", str(bad), 1)
    assert result.text is None and result.error is not None and result.error.startswith("failed: ")


# ------------------------------------------------------------------ alignment


def test_normalisation_handles_ligatures_whitespace_and_invisible_characters() -> None:
    t = normalise("  e\ufb03cient \n\n\tco\u00adop\f ")
    assert t.chars == "efficient coop"
    assert t.start[1:4] == (3, 3, 3)  # the ligature's three letters come from one character
    assert (t.start[9], t.end[9]) == (9, 13)  # one space token for the whole whitespace run


def test_every_engine_character_gets_its_glyph_or_none() -> None:
    ours = "ab cd"
    glyphs = [10, 11, -1, 12, 13]  # the space was inserted by a word-gap decision
    al = align("ab\ncd x", ours, glyphs)
    assert al.glyph == [10, 11, -1, 12, 13, -1, -1]  # "\n" is the invented space; "x" is in no glyph
    assert al.our_char[:5] == [0, 1, 2, 3, 4]
    assert [r.kind for r in al.runs] == ["extra"]


def test_order_missing_and_changed_runs() -> None:
    ours = "Row one alpha beta"
    glyphs = list(range(100, 100 + len(ours)))
    al = align("alpha beta Row one", ours, glyphs)
    assert {r.kind for r in al.runs} == {"order"}
    moved = al.runs[0]
    assert al.their_text[moved.their_start : moved.their_end] in ("Row one", "alpha beta")
    assert all(g >= 100 for g in al.glyph if g != -1)
    al = align("Row one", ours, glyphs)
    assert [r.kind for r in al.runs] == ["missing"]
    assert al.our_text[al.runs[0].our_start : al.runs[0].our_end] == "alpha beta"
    al = align("Rxw one alpha beta", ours, glyphs)
    assert [r.kind for r in al.runs] == ["changed"] and al.glyph[1] == 101


def test_a_table_read_column_by_column_is_order_not_missing() -> None:
    ours = "Row 1 10 20\nRow 2 30 40\nRow 3 50 60"  # row by row
    glyphs = list(range(len(ours)))
    al = align("Row 1\nRow 2\nRow 3\n10 30 50\n20 40 60", ours, glyphs)  # column by column
    kinds = {r.kind for r in al.runs}
    assert kinds == {"order"}, al.runs
    for pos, ch in enumerate(al.their_text):
        if not ch.isspace():
            assert ours[al.glyph[pos]] == ch  # every character still finds its own glyph


def test_a_long_page_in_another_order_aligns_in_well_under_a_second_per_page() -> None:
    import random
    import time

    rng = random.Random(1)
    words = ["alpha", "beta", "gamma", "delta", "10", "20", "total", "row", "the", "of", "and"]
    lines = [" ".join(rng.choice(words) for _ in range(12)) for _ in range(300)]  # 16,000 characters
    ours = "\n".join(lines)
    start = time.process_time()  # CPU time: other work on the machine does not count
    al = align("\n".join(lines[::2] + lines[1::2]), ours, list(range(len(ours))))
    elapsed = time.process_time() - start
    assert elapsed < 5.0  # ~0.3 s here; character-level difflib alone took a minute
    assert al.chars_of("missing") == al.chars_of("extra") == 0  # all of it found, moved or in place
    assert al.chars_equal + al.chars_of("order") == sum(1 for c in ours if not c.isspace())


# ------------------------------------------------------------------ the three phenomena, pdfminer.six


def test_pdfminer_keeps_the_culled_slug_line(fixture_pdf: Path) -> None:
    analysis, cmp = _compare(fixture_pdf, 1, "pdfminer")
    (diff,) = [d for d in cmp.differences if d.kind == "extra"]
    assert "Job 4711 slug line" in cmp.result.text
    cull = diff.decision
    assert cull.kind == "cull" and cull.threshold == (50.0, 50.0, 562.0, 742.0)
    assert cull.glyph == diff.glyphs[0]
    assert analysis.classified.status[cull.glyph].value == "culled"
    margin = distance_outside(cull.value, cull.threshold)
    assert margin == pytest.approx(50.0 - cull.value[1]) and margin > 20
    assert diff.sentence == (
        f"pdfminer.six keeps 'Job 4711 slug line', which glyphscope culled: glyph #{cull.glyph}'s centre "
        f"lies {fmt(margin)} pt outside the visible box [50.00, 50.00, 562.00, 742.00]"
    )
    summary = cmp.summary()
    assert summary["only_theirs"] == len("Job4711slugline") and summary["only_ours"] == 0
    # Every slug character came from a culled glyph.
    start = cmp.result.text.index("Job")
    for i, ch in enumerate("Job 4711 slug line"):
        g = cmp.alignment.glyph[start + i]
        if ch != " ":
            assert analysis.page.glyphs[g].unicode == ch and analysis.classified.status[g].value == "culled"


def test_pdfminer_inserts_a_space_in_a_tj_gap_below_our_threshold(fixture_pdf: Path) -> None:
    analysis, cmp = _compare(fixture_pdf, 2, "pdfminer")
    assert "HelloWorld" in analysis.texts["plain"].text and "Hello World" in cmp.result.text
    (diff,) = cmp.differences
    gap = diff.decision
    assert diff.kind == "space" and gap.kind == "word_gap" and gap.verdict == "below_threshold"
    glyphs = analysis.page.glyphs
    assert glyphs[gap.before].unicode == "o" and glyphs[gap.after].unicode == "W"
    assert gap.value == pytest.approx(2.4, abs=1e-6)  # 120/1000 × 20 pt
    assert gap.value < gap.threshold
    assert diff.sentence == (
        f"pdfminer.six inserts a space here: gap {fmt(gap.value)} pt, our threshold {fmt(gap.threshold)} pt"
    )
    assert cmp.summary()["spaces_differing"] == 1
    space = cmp.result.text.index("Hello World") + 5
    assert cmp.alignment.glyph[space] == -1  # an invented space: in no glyph


def test_pdfminer_keeps_the_fake_bold_duplicate(fixture_pdf: Path) -> None:
    analysis, cmp = _compare(fixture_pdf, 3, "pdfminer")
    extra = [d for d in cmp.differences if d.kind == "extra"]
    assert len(extra) == 1
    diff = extra[0]
    dup = diff.decision
    assert dup.kind == "duplicate" and dup.glyph == diff.glyphs[0]
    along, across = dup.value
    along_max, across_max = dup.threshold
    assert along == pytest.approx(0.3, abs=1e-6) and across == pytest.approx(0.0, abs=1e-6)
    assert along <= along_max and across <= across_max
    assert diff.sentence == (
        f"pdfminer.six keeps 'Bold heading', which glyphscope dropped as a duplicate: glyph #{dup.glyph} lies "
        f"{fmt(along)} pt along (≤ {fmt(along_max)}) and {fmt(across)} pt across (≤ {fmt(across_max)}) "
        f"from glyph #{dup.before}"
    )
    assert all(analysis.classified.status[g].value == "duplicate" for g in diff.glyphs)


# ------------------------------------------------------------------ pdftotext, where installed


@needs_pdftotext
def test_pdftotext_keeps_the_slug_and_splits_the_tj_gap(fixture_pdf: Path) -> None:
    _, slug = _compare(fixture_pdf, 1, "pdftotext")
    (diff,) = slug.differences
    assert diff.kind == "extra" and diff.decision.kind == "cull"
    assert diff.sentence.startswith("pdftotext keeps 'Job 4711 slug line', which glyphscope culled")
    _, gap = _compare(fixture_pdf, 2, "pdftotext")
    (diff,) = gap.differences
    assert diff.kind == "space" and diff.decision.kind == "word_gap"
    assert diff.sentence.startswith("pdftotext inserts a space here: gap 2.40 pt, our threshold")
    _, layout = _compare(fixture_pdf, 3, "pdftotext-layout")
    assert layout.result.status.spec.options.startswith("pdftotext -layout")
    assert layout.summary()["only_theirs"] == 0  # poppler drops the fake-bold copy, as we do


@needs_pdftotext
def test_demo_slug_page_explained_for_pdftotext(demo_pdf: Path) -> None:
    _, cmp = _compare(demo_pdf, 7, "pdftotext")
    kinds = {d.kind for d in cmp.differences}
    assert kinds == {"extra"}
    assert all(d.decision is not None and d.decision.kind == "cull" for d in cmp.differences)
    assert any("Job 4711" in cmp.result.text[d.run.their_start : d.run.their_end] for d in cmp.differences)


@pytest.mark.parametrize("engine", ["pdftotext-layout", "mutool", "pypdfium2"])
def test_other_engines_where_installed_explain_the_slug_line(fixture_pdf: Path, engine: str) -> None:
    status = E.engine_status(engine)
    if not status.available:
        pytest.skip(f"{engine} is not installed ({status.spec.install})")
    _, cmp = _compare(fixture_pdf, 1, engine)
    assert "Body text inside the box" in " ".join(cmp.result.text.split())
    extra = [d for d in cmp.differences if d.kind == "extra"]
    if "Job 4711" in cmp.result.text:  # an engine that keeps text outside the CropBox
        assert extra and all(d.decision is not None and d.decision.kind == "cull" for d in extra)
        assert all(d.sentence.startswith(f"{cmp.label} keeps ") for d in extra)
    else:
        assert not extra


# ------------------------------------------------------------------ the command


def _schema() -> dict[str, Any]:
    from importlib.resources import files

    resource = files("glyphscope.inspector") / "schemas" / "compare.schema.json"
    return json.loads(resource.read_text("utf-8"))


def test_compare_json_matches_its_schema_and_explains_each_page(fixture_pdf: Path) -> None:
    code, out, err = run_cli(
        "compare", str(fixture_pdf), "--pages", "1-3", "--engines", "pdfminer,mutool", "--json"
    )
    assert code == 0, err
    obj = json.loads(out)
    jsonschema.Draft202012Validator(_schema()).validate(obj)
    assert [p["page"] for p in obj["pages"]] == [1, 2, 3]
    listed = {e["engine"]: e for e in obj["engines"]}
    assert listed["pdfminer"]["available"] and set(listed) == set(E.ENGINE_KEYS)
    kinds = []
    for page in obj["pages"]:
        miner = page["engines"][0]
        assert miner["engine"] == "pdfminer" and len(miner["char_glyphs"]) == len(miner["text"])
        kinds.append([(d["kind"], d["decision"]["kind"]) for d in miner["differences"]])
        mutool = page["engines"][1]
        if not listed["mutool"]["available"]:
            assert mutool["text"] is None and "mupdf-tools" in mutool["error"] and mutool["summary"] is None
    assert kinds == [[("extra", "cull")], [("split", "word_gap")], [("extra", "duplicate")]]
    causes = [[d["cause"] for d in p["engines"][0]["differences"]] for p in obj["pages"]]
    assert causes == [["culled"], ["word_gap"], ["duplicate"]]
    gap = obj["pages"][1]["engines"][0]["differences"][0]
    assert gap["decision"]["verdict"] == "below_threshold" and gap["their_text"] == " "
    assert gap["decision"]["value"] == pytest.approx(2.4, abs=1e-3)


def test_compare_schema_rejects_a_wrong_kind(fixture_pdf: Path) -> None:
    code, out, _ = run_cli("compare", str(fixture_pdf), "--pages", "2", "--engines", "pdfminer", "--json")
    obj = json.loads(out)
    obj["pages"][0]["engines"][0]["differences"][0]["kind"] = "different"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(_schema()).validate(obj)


def test_compare_text_output_and_usage_errors(fixture_pdf: Path) -> None:
    code, out, err = run_cli("compare", str(fixture_pdf), "--pages", "2", "--engines", "pdfminer")
    assert code == 0, err
    lines = out.decode().splitlines()
    assert lines[0].startswith("page 2\tpdfminer.six\tagreement ")
    assert lines[1].startswith("\tsplit\tword_gap\tpdfminer.six inserts a space here: gap 2.40 pt")
    code, _, err = run_cli("compare", str(fixture_pdf), "--engines", "tesseract")
    assert code == 2 and "unknown engine(s) tesseract" in err
    code, _, err = run_cli("compare", str(fixture_pdf), "--pages", "9")
    assert code == 2
    code, _, err = run_cli("compare", str(fixture_pdf.with_name("missing.pdf")))
    assert code == 4


def test_compare_reads_stdin_through_a_temporary_file(fixture_pdf: Path) -> None:
    code, out, err = run_cli(
        "compare", "-", "--pages", "3", "--engines", "pdfminer", "--json", stdin=fixture_pdf.read_bytes()
    )
    assert code == 0, err
    obj = json.loads(out)
    assert obj["file"] == "-" and obj["pages"][0]["engines"][0]["differences"][0]["kind"] == "extra"


def test_compare_loads_no_qt(fixture_pdf: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from glyphscope.inspector.cli.parser import run_command_line as run\n"
        f"rc = run(['compare', {str(fixture_pdf)!r}, '--pages', '1', '--engines', 'pdfminer', '-q'], None)\n"
        "assert rc == 0, rc\n"
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"


# ------------------------------------------------------------------ triage --compare ENGINE


def test_triage_compare_column_gives_each_files_agreement(fixture_pdf: Path, tmp_path: Path) -> None:
    from glyphscope.inspector.compare.compared_page import document_agreement

    expected = document_agreement(str(fixture_pdf), "pdfminer")
    assert expected.pages == 3 and expected.error is None and 0.5 < expected.agreement < 1.0
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"not a pdf")
    code, out, err = run_cli("triage", str(fixture_pdf), str(bad), "--compare", "pdfminer", "-q")
    assert code == 0, err
    header, *lines = out.decode().splitlines()
    assert header.split()[-2:] == ["%agree(pdfminer)", "file"]
    at = header.index("file")
    by_file = {line[at:]: line[:at].split()[-1] for line in lines}
    assert by_file[str(fixture_pdf)] == f"{100 * expected.agreement:.1f}"
    assert any(v == "-" for f, v in by_file.items() if "bad.pdf" in f)

    code, out, err = run_cli("triage", str(fixture_pdf), "--compare", "pdfminer", "--json", "-", "-q")
    assert code == 0, err
    report = json.loads(out)
    from tests.inspector.test_schemas import assert_valid

    assert_valid("triage", report)  # the column is an addition the triage schema allows
    (row,) = report["compare"]["rows"]
    assert report["compare"]["engine"] == "pdfminer" and row["file"] == str(fixture_pdf)
    assert row["agreement_pct"] == round(100 * expected.agreement, 2) and row["pages"] == 3


def test_triage_compare_rejects_unknown_engines_before_reading(fixture_pdf: Path) -> None:
    code, out, err = run_cli("triage", str(fixture_pdf), "--compare", "tesseract")
    assert code == 2 and "unknown engine(s) tesseract" in err and out == b""


def test_a_space_left_out_for_an_actual_text_span_cites_the_span() -> None:
    # pdf.js issue 13226's construction: a space glyph under /ActualText U+00AD (a soft hyphen)
    content = (
        b"BT /F1 10 Tf 10 30 Td (Mit) Tj /Span <</ActualText <FEFF00AD> >> BDC ( ) Tj EMC (arbeiter) Tj ET"
    )
    analysis = analyze_page(open_document(to_bytes(make_pdf([content]))), 1)
    ours = analysis.texts["plain"].text
    assert ours == "Mitarbeiter"
    index = DecisionIndex(analysis.decisions("plain"))
    space = Run("space", 3, 4, 3, 3, (3,), pair=(2, 3), their_has_space=True)
    said = explain(space, "pdfminer.six", index, "Mit arbeiter", ours)
    assert said.decision is not None and said.decision.kind == "actual_text"
    assert said.sentence.startswith("pdfminer.six inserts a space between glyph #2 and #3; glyphscope writes")
    assert "'\\xad'" in said.sentence and "soft hyphens are not written" in said.sentence


def test_pdfminer_keeps_text_glyphscope_drops_as_clipped(tmp_path: Path) -> None:
    content = (
        b"BT /F1 12 Tf 72 700 Td (Shown line) Tj ET "
        b"q 0 0 100 100 re W n BT /F1 12 Tf 72 650 Td (Clipped away) Tj ET Q"
    )
    path = tmp_path / "clip.pdf"
    make_pdf([content]).save(path)
    analysis, cmp = _compare(path, 1, "pdfminer")
    assert analysis.texts["plain"].text == "Shown line"
    (diff,) = [d for d in cmp.differences if d.kind == "extra"]
    assert diff.decision.kind == "clipped"
    assert analysis.classified.status[diff.glyphs[0]].value == "clipped"
    assert diff.sentence.startswith(
        "pdfminer.six keeps 'Clipped away', which glyphscope left out of the text: "
    )
    assert "lies outside its box [0.00, 0.00, 100.00, 100.00]" in diff.sentence
