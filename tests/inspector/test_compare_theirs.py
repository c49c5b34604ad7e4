"""The customer's own text as one more engine: `compare --text` / `--command`, causes, bad input.

Small PDFs built with pikepdf; "their text" is written by the test as an extractor
would (pdftotext reading GBK pairs byte by byte, an engine ignoring ActualText),
so the causes are checked without the extractors installed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.document import open_document
from glyphscope.inspector.compare import theirs as T
from glyphscope.inspector.compare.causes import CAUSES, Cause, public_kind
from glyphscope.inspector.compare.compared_page import compare_page, compare_their_document
from glyphscope.inspector.compare.engines import EngineText
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf

SCHEMA = Path(__file__).resolve().parents[2] / "inspector" / "schemas" / "compare.schema.json"
PAGE_1 = (
    b"BT /F1 20 Tf 72 700 Td [(Hello) -120 (World)] TJ ET BT /F1 12 Tf 72 650 Td (Plain words here) Tj ET"
)
PAGE_2 = b"BT /F1 12 Tf 72 700 Td (Second page text) Tj ET"


def _schema() -> dict[str, Any]:
    return dict(json.loads(SCHEMA.read_text(encoding="utf-8")))


@pytest.fixture()
def two_pages(tmp_path: Path) -> Path:
    path = tmp_path / "two.pdf"
    make_pdf([PAGE_1, PAGE_2]).save(path)
    return path


def _their(text: str) -> EngineText:
    return EngineText(T.their_status("their text", "test"), text, None, 0.0)


# ------------------------------------------------------------------ --text


def test_their_text_with_form_feeds_is_one_engine_with_causes_and_numbers(
    two_pages: Path, tmp_path: Path
) -> None:
    their = tmp_path / "theirs.txt"
    their.write_text("Hello World\nPlain words here\f\fSecondpage text\n\f", encoding="utf-8")
    code, out, err = run_cli("compare", str(two_pages), "--text", str(their), "--json")
    assert code == 0, err
    obj = json.loads(out)
    jsonschema.Draft202012Validator(_schema()).validate(obj)
    assert obj["engines"][-1]["engine"] == "theirs" and obj["their_text"]["pages"] == 3
    assert [len(p["engines"]) for p in obj["pages"]] == [1, 1]  # no built-in engine unless named
    (split,) = obj["pages"][0]["engines"][0]["differences"]
    assert (split["kind"], split["cause"], split["their_text"]) == ("split", "word_gap", " ")
    assert split["numbers"]["gap"] == pytest.approx(2.4, abs=1e-3)
    assert split["numbers"]["gap_ratio"] == pytest.approx(2.4 / split["numbers"]["height"], abs=1e-3)
    assert split["numbers"]["threshold"] == pytest.approx(0.15 * split["numbers"]["height"], abs=1e-3)
    assert "0.15" in split["fix"]
    # page 2 of their text is empty (two form feeds): everything is missing
    page2 = obj["pages"][1]["engines"][0]
    assert page2["summary"]["agreement"] == 0.0 and page2["summary"]["differences"]["missing"] == 1
    # the file's summary adds the pages up; their 3 pages against the PDF's 2 is one warning
    (summary,) = obj["summary"]
    assert summary["engine"] == "theirs" and summary["pages_compared"] == 2 and summary["differences"] == 2
    assert summary["causes"]["word_gap"] == 1 and summary["kinds"]["split"] == 1
    assert any("their text has 3 page(s)" in w and "the PDF 2" in w for w in obj["warnings"])


def test_glued_words_at_a_line_break_have_the_line_break_numbers(two_pages: Path) -> None:
    analysis = analyze_page(open_document(str(two_pages)), 1)
    cmp = compare_page(analysis, [_their("HelloWorldPlain words here")]).engines[0]
    (glued,) = cmp.differences
    assert glued.public_kind == "glued" and glued.cause == "line_break"
    lb = glued.decision
    assert lb is not None and lb.kind == "line_break"
    assert glued.explanation.numbers == {
        "displacement": round(lb.value, 3),
        "threshold": round(lb.threshold, 3),
    }
    assert cmp.summary()["causes"]["line_break"] == 1 and cmp.summary()["explained"] == 1.0


def test_text_without_form_feeds_is_cut_where_it_aligns_with_each_page(
    two_pages: Path, tmp_path: Path
) -> None:
    their = tmp_path / "flat.txt"
    their.write_text("Hello World Plain words here Second page text", encoding="utf-8")
    code, out, err = run_cli("compare", str(two_pages), "--text", str(their), "--json")
    assert code == 0, err
    obj = json.loads(out)
    texts = [p["engines"][0]["text"] for p in obj["pages"]]
    assert texts == ["Hello World Plain words here ", "Second page text"]
    assert any("no form feeds" in w for w in obj["warnings"])


def test_split_by_alignment_follows_the_words_not_the_lengths() -> None:
    pieces = T.split_by_alignment("one two three four five six", ["one two", "three four five", "six"])
    assert pieces == ["one two ", "three four five ", "six"]


def test_text_from_stdin_and_the_text_output_with_a_file_summary(two_pages: Path) -> None:
    code, out, err = run_cli(
        "compare", str(two_pages), "--pages", "1", "--text", "-", stdin=b"Hello World\nPlain words here\n"
    )
    assert code == 0, err
    lines = out.decode().splitlines()
    assert lines[0].startswith("page 1\ttheir text\tagreement ")
    assert lines[1].startswith("\tsplit\tword_gap\ttheir text inserts a space here: gap 2.40 pt")
    assert (
        lines[-1].startswith("file\ttheir text\tagreement ") and "1 differences, 100 % explained" in lines[-1]
    )


# ------------------------------------------------------------------ causes


def test_gbk_pairs_read_one_byte_at_a_time_are_a_decoding_cause(tmp_path: Path) -> None:
    import pikepdf

    from tests.core.test_garbled import GBK_TEXT, _gbk_truetype, gbk_font, helvetica

    pdf = pikepdf.new()
    font = pdf.make_indirect(gbk_font(pdf, _gbk_truetype(GBK_TEXT)))
    pairs = GBK_TEXT.encode("gbk").hex().encode()
    content = b"BT /F2 10 Tf 72 720 Td (Latin) Tj /F1 10 Tf 0 -20 Td <" + pairs + b"> Tj ET"
    make_pdf([content], {"/F1": lambda p: font, "/F2": helvetica}, pdf=pdf).save(src := tmp_path / "gbk.pdf")
    analysis = analyze_page(open_document(str(src)), 1)
    assert analysis.texts["plain"].text == f"Latin\n{GBK_TEXT}"
    mojibake = GBK_TEXT.encode("gbk").decode("cp1252", "replace")  # what a WinAnsi reading gives
    cmp = compare_page(analysis, [_their(f"Latin\n{mojibake}")]).engines[0]
    (diff,) = cmp.differences
    assert diff.public_kind == "changed" and diff.cause == "decoding"
    assert diff.sentence.startswith(f"their text reads '{mojibake}' where glyphscope reads '{GBK_TEXT}': ")
    assert "their text reads the GBK pairs one byte at a time" in diff.sentence
    assert len(diff.glyphs) == len(GBK_TEXT)


def test_an_engine_that_ignores_actual_text_is_named() -> None:
    content = b"BT /F1 10 Tf 10 30 Td (Total: ) Tj /Span <</ActualText (42) >> BDC (XY) Tj EMC ET"
    analysis = analyze_page(open_document(make_pdf([content]).save_bytes() if False else _bytes(content)), 1)
    assert analysis.texts["plain"].text == "Total: 42"
    cmp = compare_page(analysis, [_their("Total: XY")]).engines[0]
    (diff,) = cmp.differences
    assert diff.cause == "actual_text" and diff.public_kind == "changed"
    assert (
        diff.sentence
        == "their text ignores ActualText: it reads the glyphs 'XY', the span's /ActualText says '42'"
    )


def _bytes(content: bytes) -> bytes:
    from tests.pdfbuild import to_bytes

    return to_bytes(make_pdf([content]))


def test_codes_read_as_glyph_ids_are_found_by_their_shift() -> None:
    analysis = analyze_page(open_document(_bytes(b"BT /F1 12 Tf 72 700 Td (Intro: notice this) Tj ET")), 1)
    shifted = "".join(chr(ord(c) - 29) if c != " " else "\x03" for c in "notice this")
    cmp = compare_page(analysis, [_their(f"Intro: {shifted}")]).engines[0]
    decoding = [d for d in cmp.differences if d.cause == "decoding"]
    assert decoding, [(d.public_kind, d.cause, d.sentence) for d in cmp.differences]
    assert all("reads the code as a glyph id" in d.sentence for d in decoding)
    assert {d.explanation.numbers.get("shift") for d in decoding if d.explanation.numbers} <= {29.0}


def test_text_in_no_glyph_is_not_on_the_page_and_every_cause_is_documented(two_pages: Path) -> None:
    analysis = analyze_page(open_document(str(two_pages)), 2)
    cmp = compare_page(analysis, [_their("Second page text\nPage 2 of 7 — Confidential")]).engines[0]
    (extra,) = cmp.differences
    assert extra.public_kind == "extra" and extra.cause == "not_on_page"
    assert set(CAUSES) == {c.value for c in Cause}
    assert public_kind("space", True) == "split" and public_kind("space", False) == "glued"
    assert CAUSES[-1] == "unexplained"


# ------------------------------------------------------------------ bad input


def test_an_empty_text_says_so_in_one_line_and_everything_is_missing(two_pages: Path, tmp_path: Path) -> None:
    (empty := tmp_path / "empty.txt").write_bytes(b"")
    code, out, err = run_cli("compare", str(two_pages), "--text", str(empty), "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["warnings"] == ["their text is empty: everything glyphscope reads is missing from it"]
    (summary,) = obj["summary"]
    assert summary["agreement"] == 0.0 and summary["kinds"]["missing"] == 2 and summary["differences"] == 2
    assert "Traceback" not in err


def test_another_files_text_gets_one_line_saying_so(two_pages: Path, tmp_path: Path) -> None:
    (other := tmp_path / "other.txt").write_text(
        "Quarterly revenue grew in every region\fMinutes of the board meeting", encoding="utf-8"
    )
    code, out, err = run_cli("compare", str(two_pages), "--text", str(other), "--json")
    assert code == 0, err
    obj = json.loads(out)
    (summary,) = obj["summary"]
    assert summary["words_shared"] == 0.0  # letters agree by chance, words do not
    said = [w for w in obj["warnings"] if "most likely the text of another file" in w]
    assert said == [
        f"their text agrees {100 * summary['agreement']:.1f} % with glyphscope's text of these pages and shares "
        "0 % of its words with it: it is most likely the text of another file (or of other pages)"
    ]


def test_wrong_encoding_is_read_with_replacement_and_a_warning(two_pages: Path, tmp_path: Path) -> None:
    (latin := tmp_path / "latin.txt").write_bytes("Second page t\u00e9xt".encode("latin-1"))
    code, out, err = run_cli("compare", str(two_pages), "--pages", "2", "--text", str(latin), "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["warnings"] == [
        "their text is not UTF-8 (first bad byte at offset 13): read as UTF-8 with 1 replacement character(s) U+FFFD"
    ]
    (diff,) = obj["pages"][0]["engines"][0]["differences"]
    assert diff["their_text"] == "\ufffd" and diff["cause"] == "decoding"


def test_utf16_with_a_bom_is_read_as_utf16() -> None:
    assert T.decode_text("Straße".encode("utf-16")) == ("Straße", [])
    assert T.decode_text(b"\xef\xbb\xbfabc") == ("abc", [])


def test_a_failing_command_is_one_line_with_its_stderr(two_pages: Path) -> None:
    code, out, err = run_cli(
        "compare", str(two_pages), "--command", "echo 'extractor: cannot open font' >&2; exit 3", "--json"
    )
    assert code == 0, err
    obj = json.loads(out)
    error = obj["their_text"]["error"]
    assert (
        error
        == "'echo 'extractor: cannot open font' >&2; exit 3' failed (exit code 3): extractor: cannot open font"
    )
    assert obj["pages"][0]["engines"][0]["error"] == error and obj["summary"][0]["agreement"] is None
    assert f"warning: their text: {error}" in err and "Traceback" not in err


def test_a_hanging_command_is_killed_at_the_time_limit(two_pages: Path) -> None:
    import time

    start = time.monotonic()
    code, out, err = run_cli(
        "compare", str(two_pages), "--pages", "1", "--command", "sleep 30 | cat", "--timeout", "0.5", "--json"
    )
    assert code == 0, err
    assert time.monotonic() - start < 10
    assert json.loads(out)["their_text"]["error"] == "'sleep 30 | cat' gave no answer within 0.5 s (killed)"


def test_command_gets_the_pdf_path_for_braces(two_pages: Path) -> None:
    got = T.run_command("wc -c < {}", str(two_pages), 10)
    assert got.error is None and got.text is not None
    assert int(got.text.strip()) == two_pages.stat().st_size


def test_unreadable_text_and_two_stdins_are_usage_errors(two_pages: Path, tmp_path: Path) -> None:
    code, _, err = run_cli("compare", str(two_pages), "--text", str(tmp_path / "none.txt"))
    assert code == 2 and err.strip().endswith("No such file or directory")
    code, _, err = run_cli("compare", "-", "--text", "-", stdin=two_pages.read_bytes())
    assert code == 2 and "cannot both be stdin" in err


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
def test_pdftotext_as_their_command_agrees_on_a_plain_page(two_pages: Path) -> None:
    code, out, err = run_cli("compare", str(two_pages), "--command", "pdftotext -enc UTF-8 {} -", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["their_text"]["pages"] == 2 and obj["summary"][0]["pages_compared"] == 2
    assert obj["pages"][1]["engines"][0]["summary"]["agreement"] == 1.0


def test_whole_document_comparison_adds_up_the_pages(two_pages: Path) -> None:
    doc = open_document(str(two_pages))
    result = compare_their_document(
        doc, T.TheirText("Hello World\nPlain words here\fSecond page text", "x", "x"), [1, 2]
    )
    assert [p.page_number for p in result.pages] == [1, 2]
    assert result.causes() == {"word_gap": 1}
    assert 0.9 < (result.agreement or 0) < 1.0


# ------------------------------------------------------------------ the ticket report


def test_report_is_one_self_contained_page_with_each_difference_and_its_cause(
    two_pages: Path, tmp_path: Path
) -> None:
    their = tmp_path / "theirs.txt"
    their.write_text("Hello World\nPlain words here\fSecond page text\nPage 2 of 7", encoding="utf-8")
    out = tmp_path / "ticket.html"
    code, _, err = run_cli("compare", str(two_pages), "--text", str(their), "--report", str(out), "-q")
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert page.count("src='data:image/png;base64,") == 2  # both pages differ: both drawn
    assert "http://" not in page and "https://" not in page and "<script" not in page
    assert page.count("<tr><td>1</td><td>their text</td>") == 2  # one difference on each page
    assert "<tr><td>2</td>" not in page
    assert "words split or glued at a word gap" in page and "text that is not on the page" in page
    assert "What to change: the gap is 0.13 × the glyph height" in page
    assert "<td class='text'>Page 2 of 7</td>" in page


def test_a_fallback_guess_is_decoding_and_a_dropped_line_end_hyphen_is_a_line_break() -> None:
    import pikepdf

    def font(pdf: pikepdf.Pdf) -> Any:
        encoding = pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=[0x5A, pikepdf.Name("/g123")])
        return pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Font,
                Subtype=pikepdf.Name.Type1,
                BaseFont=pikepdf.Name("/Helvetica"),
                Encoding=encoding,
            )
        )

    content = b"BT /F1 12 Tf 72 700 Td (dallZimposta) Tj ET BT /F1 12 Tf 72 650 Td (exam-) Tj 0 -14 Td (ple text) Tj ET"
    from tests.pdfbuild import to_bytes

    analysis = analyze_page(open_document(to_bytes(make_pdf([content], {"/F1": font}))), 1)
    assert analysis.texts["plain"].text == "dallZimposta\nexam-\nple text"
    cmp = compare_page(analysis, [_their("dall'imposta\nexample text")]).engines[0]
    guess, hyphen = cmp.differences
    assert (guess.public_kind, guess.cause) == ("changed", "decoding")
    assert "no declared mapping of font /F1 answered: glyphscope's fallback guess reads 'Z'" in guess.sentence
    assert guess.decision is not None and guess.decision.kind == "decode_fallback"
    assert (hyphen.public_kind, hyphen.cause) == ("missing", "line_break")
    assert hyphen.sentence.startswith(
        "their text joins the hyphenated word across the line break and drops the hyphen"
    )
    assert hyphen.explanation.numbers == {"displacement": 14.0, "threshold": 5.55}
