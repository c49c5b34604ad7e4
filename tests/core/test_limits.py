"""Budgets per page and per document (core/limits.py): each hostile class finishes within its budget."""

from __future__ import annotations

import io
import json
import threading
import zlib

import pikepdf
import pytest

from glyphscope.core import content, interpreter
from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from glyphscope.core.limits import DEFAULT_LIMITS, Limits
from glyphscope.core.params import DEFAULT_PARAMETERS
from glyphscope.core.passes import classify
from glyphscope.core.serialize import glyphs_json, write_glyphs_json
from tests import hostile_files
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf, to_bytes


def budget_findings(page):
    return [d for d in page.diagnostics if d.kind is DiagnosticKind.BUDGET_EXCEEDED]


def only_budget(page):
    (finding,) = budget_findings(page)
    return finding


# ---------------------------------------------------------------- the record


def test_limits_validate_and_name_their_options():
    assert DEFAULT_LIMITS.page_glyphs == 500_000
    assert Limits(page_glyphs=10).with_changes(page_seconds=1.5).to_json()["page_seconds"] == 1.5
    for bad in (0, -1, float("inf"), float("nan"), True, "3"):
        with pytest.raises(ValueError):
            Limits(page_operators=bad)  # type: ignore[arg-type]


# ------------------------------------------------- class 1: form fan-out


def test_form_fan_out_stops_at_the_form_invocation_budget():
    doc = open_document(hostile_files.form_fan_out(30), limits=Limits(page_form_invocations=2_000))
    page = doc.interpret(1)
    finding = only_budget(page)
    assert "form invocations per page" in finding.message and "(2,000)" in finding.message
    assert finding.token_index == 0  # the page's one `/X Do` started the chain
    assert len(page.forms) == 2_000  # every Do run before the budget is a FormUse
    assert "--max-page-form-invocations" in finding.message


def test_form_fan_out_stops_at_the_operator_budget():
    limits = Limits(page_operators=5_000)
    page = open_document(hostile_files.form_fan_out(30), limits=limits).interpret(1)
    finding = only_budget(page)
    assert "operators per page" in finding.message and "(5,000)" in finding.message
    assert finding.form_path and set(finding.form_path) == {"/X"}


def test_each_form_is_parsed_once_per_page(monkeypatch):
    calls: list[object] = []
    real = pikepdf.parse_content_stream
    real_lex = interpreter.lex

    def counting(obj, *args):
        calls.append(obj)
        return real(obj, *args)

    def counting_lex(data, *args):  # the interpreter's own reader, for the plain streams
        calls.append(data)
        return real_lex(data, *args)

    monkeypatch.setattr(pikepdf, "parse_content_stream", counting)
    monkeypatch.setattr(interpreter, "lex", counting_lex)
    page = open_document(hostile_files.form_fan_out(5)).interpret(1)
    assert not budget_findings(page)
    assert len(page.forms) == 2**6 - 1  # 1 + 2 + 4 + 8 + 16 + 32 Dos
    assert len(calls) == 1 + 6  # the page, then each of the six forms once


# ---------------------------------------------- class 2: nested marked content


def test_100k_nested_bdc_stop_at_the_depth_budget_quickly():
    doc = open_document(hostile_files.nested_marked_content(100_000))
    page = doc.interpret(1)
    finding = only_budget(page)
    assert "marked-content depth" in finding.message and "(1,000)" in finding.message
    # BT, Tf, Td, then BDC (+ a Tj every 100): the 1,001st BDC is instruction 3 + 1000 + 10
    assert finding.token_index == 3 + 1_000 + 10
    assert len(page.glyphs) == 10
    assert page.glyphs[-1].marked_tags == ("/Span",) * 901
    assert page.glyphs[-1].mcid == 900


def test_deep_marked_content_within_a_raised_budget_is_linear():
    data = hostile_files.nested_marked_content(40_000)
    # Linear, not quadratic (7 s at 40k once): a speed, so not timed in a test.
    page = open_document(data, limits=Limits(marked_content_depth=50_000)).interpret(1)
    assert not budget_findings(page)
    assert len(page.glyphs) == 400
    assert len(page.glyphs[-1].marked_tags) == 39_901
    assert not any(d.kind is DiagnosticKind.MARKED_CONTENT_UNBALANCED for d in page.diagnostics)


def test_marked_tags_keep_their_meaning():
    content = (
        b"/Art BMC BT /F1 12 Tf 72 700 Td (a) Tj /P <</MCID 4>> BDC (b) Tj /Span BMC (c) Tj EMC EMC (d) Tj ET EMC"
        b" BT /F1 12 Tf (e) Tj ET"
    )
    page = open_document(to_bytes(make_pdf([content]))).interpret(1)
    got = [(g.unicode, g.marked_tags, g.mcid) for g in page.glyphs]
    assert got == [
        ("a", ("/Art",), None),
        ("b", ("/Art", "/P"), 4),
        ("c", ("/Art", "/P", "/Span"), 4),
        ("d", ("/Art",), None),
        ("e", (), None),
    ]


# ------------------------------------------- class 3: Type3 glyph → form → Type3


def test_type3_glyph_drawing_a_form_in_the_same_font_finishes():
    page = open_document(hostile_files.type3_form_loop()).interpret(1)
    assert "".join(g.unicode for g in page.glyphs) == "aaaa"  # three on the page, one in the form
    assert not budget_findings(page)


# ------------------------------------------------ class 4: decompression bombs


def test_double_flate_bomb_is_measured_not_inflated():
    data = hostile_files.flate_bomb(64)  # 64 MB of "0 0 Td " under two FlateDecode
    assert len(data) < 100_000
    limits = Limits(page_content_bytes=1_000_000)
    page = open_document(data, limits=limits).interpret(1)
    finding = only_budget(page)
    assert "decoded content bytes per page" in finding.message and "(1,000,000)" in finding.message
    assert "--max-page-content-bytes" in finding.message
    # the prefix within the budget ran: ~1 MB / 7 bytes per "0 0 Td " instructions
    assert 140_000 <= page.instruction_count <= 1_000_000 // 7


def test_measure_stops_counting_one_chunk_past_the_budget():
    pdf = pikepdf.open(io.BytesIO(hostile_files.flate_bomb(32, b"\0" * 8, layers=1)))
    stream = pdf.pages[0].obj.Contents
    measured = content.measure([stream], 100_000)
    assert measured.over_budget
    assert measured.decoded_bytes <= 100_000 + content.CHUNK
    assert len(measured.prefix) == 100_000


def test_measure_counts_ascii_and_flate_chains_exactly():
    pdf = make_pdf([b""])
    text = b"BT /F1 12 Tf 72 700 Td (chained) Tj ET"
    stream = pdf.pages[0].obj.Contents
    stream.write(
        zlib.compress(text).hex().encode() + b">",
        filter=[pikepdf.Name.ASCIIHexDecode, pikepdf.Name.FlateDecode],
    )
    measured = content.measure([stream], 1_000)
    assert (measured.decoded_bytes, measured.over_budget, measured.prefix) == (len(text), False, text)
    page = open_document(to_bytes(pdf)).interpret(1)
    assert "".join(g.unicode for g in page.glyphs) == "chained"


def test_an_unboundable_filter_chain_is_refused():
    pdf = make_pdf([b""])
    stream = pdf.pages[0].obj.Contents
    stream.write(b"junk", filter=[pikepdf.Name.RunLengthDecode, pikepdf.Name.LZWDecode], type_check=False)
    page = open_document(to_bytes(pdf)).interpret(1)
    finding = only_budget(page)
    assert "cannot be bounded" in finding.message and "/RunLengthDecode /LZWDecode" in finding.message


def _predicted(pdf: pikepdf.Pdf, data: bytes, columns: int, predictor: int = 2) -> pikepdf.Stream:
    stream = pdf.make_stream(b"")
    stream.write(zlib.compress(data), filter=pikepdf.Name.FlateDecode)
    stream.DecodeParms = pikepdf.Dictionary(Predictor=predictor, Columns=columns)
    return stream


def test_a_predictor_row_over_the_budget_is_refused_before_qpdf_decodes_it():
    """77 bytes with /Predictor 2 /Columns 10⁹ decode to one gigabyte-long row in qpdf (a fuzzed
    file took 143 s in `repair`): the declared row is counted before anything is decoded."""
    pdf = make_pdf([b""])
    pdf.pages[0].obj.Contents = _predicted(pdf, b"BT /F1 12 Tf 72 700 Td (x) Tj ET", 10**9)
    stream = pdf.pages[0].obj.Contents
    measured = content.measure([stream], DEFAULT_LIMITS.page_content_bytes)
    assert measured.over_budget and measured.decoded_bytes == 0
    assert "predictor rows are 1,000,000,000 bytes" in measured.refused
    page = open_document(to_bytes(pdf)).interpret(1)
    finding = only_budget(page)
    assert "1,000,000,000 bytes (/DecodeParms)" in finding.message and page.glyphs == []


def test_a_small_predictor_row_still_decodes():
    """TIFF predictor 2 with 1-byte rows: each byte is the difference from the one before; the
    row (1 byte) is far within the budget, so qpdf decodes the content as before."""
    text = b"BT /F1 12 Tf 72 700 Td (row) Tj ET"
    pdf = make_pdf([b""])
    pdf.pages[0].obj.Contents = _predicted(pdf, text, 1)
    page = open_document(to_bytes(pdf)).interpret(1)
    assert "".join(g.unicode for g in page.glyphs) == "row" and not budget_findings(page)


def test_a_predictor_bomb_in_a_tounicode_is_a_reason_not_a_gigabyte():
    from glyphscope.core.fonts.pdfobj import stream_bytes

    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td (A) Tj ET"])
    bomb = _predicted(pdf, b"begincmap 1 beginbfchar <41> <0042> endbfchar endcmap", 10**9, predictor=12)
    pdf.pages[0].Resources.Font.F1.ToUnicode = bomb
    data, reason = stream_bytes(bomb)
    assert data is None and reason is not None and "1,000,000,000 bytes" in reason
    bomb.DecodeParms = pikepdf.Dictionary(Predictor=12, Columns=1e308, Colors=1e308)  # no finite row
    data, reason = stream_bytes(bomb)
    assert data is None and reason is not None and f"{1 << 62:,} bytes" in reason
    page = open_document(to_bytes(pdf)).interpret(1)
    assert "".join(g.unicode for g in page.glyphs) == "A"  # the ToUnicode is unreadable: the encoding reads


def test_a_bomb_in_a_form_stops_the_page_inside_the_form():
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td (before) Tj ET /Fm Do BT (after) Tj ET"])
    form = pdf.make_stream(b"")
    form.write(zlib.compress(b"BT /F1 9 Tf (x) Tj ET " * 20_000), filter=pikepdf.Name.FlateDecode)
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 612, 792]
    pdf.pages[0].Resources.XObject = pikepdf.Dictionary(Fm=form)
    page = open_document(to_bytes(pdf), limits=Limits(page_content_bytes=10_000)).interpret(1)
    finding = only_budget(page)
    assert finding.form_path == ("/Fm",) and finding.token_index == 5
    text = "".join(g.unicode for g in page.glyphs)
    assert text.startswith("beforexxx") and "after" not in text


# --------------------------------------------------------- class 5: glyph cap


def test_one_huge_string_stops_at_the_glyph_cap_before_decoding_it_all():
    page = open_document(hostile_files.long_string(5_000_000), limits=Limits(page_glyphs=10_000)).interpret(1)
    assert len(page.glyphs) == 10_000
    finding = only_budget(page)
    assert "glyphs per page" in finding.message and "(10,000)" in finding.message
    assert finding.token_index == 3


def test_the_glyph_cap_counts_glyphs_over_page_and_forms():
    content = b"BT /F1 12 Tf 72 700 Td (abc) Tj (def) Tj ET"
    page = open_document(to_bytes(make_pdf([content])), limits=Limits(page_glyphs=4)).interpret(1)
    assert "".join(g.unicode for g in page.glyphs) == "abcd"
    assert only_budget(page).token_index == 4


# ----------------------------------------------------- class 6: page lookup


def test_page_lookup_is_constant_time(monkeypatch):
    doc = open_document(hostile_files.many_pages(20_000))
    assert doc.page_count == 20_000

    # pikepdf's pages[i] walked the page list (the last page cost ~100x the first): after opening,
    # a page is found without asking pikepdf's page list at all.
    def walked(_: object) -> None:
        raise AssertionError("pikepdf's page list was walked for a lookup")

    monkeypatch.setattr(pikepdf.Pdf, "pages", property(walked))
    assert doc.page_boxes(20_000) == doc.page_boxes(20_000) and doc.page_boxes(1) is not None


# ------------------------------------------------ operators, time, document


def test_operator_budget_names_the_instruction():
    content = b"BT /F1 12 Tf 72 700 Td " + b"(x) Tj " * 3_000 + b"ET"
    page = open_document(to_bytes(make_pdf([content])), limits=Limits(page_operators=1_000)).interpret(1)
    finding = only_budget(page)
    assert finding.token_index == 1_000 and "instruction 1000" in finding.message
    assert len(page.glyphs) == 1_000 - 3


def test_wall_time_budget_is_cooperative_and_works_in_a_thread():
    content = b"BT /F1 12 Tf 72 700 Td " + b"(x) Tj " * 50_000 + b"ET"
    doc = open_document(to_bytes(make_pdf([content])), limits=Limits(page_seconds=1e-6))
    result = []
    worker = threading.Thread(target=lambda: result.append(doc.interpret(1)))
    worker.start()
    worker.join(30)
    (page,) = result
    finding = only_budget(page)
    assert "seconds per page" in finding.message
    assert len(page.glyphs) < 2_048  # the clock is looked at every 1,024 instructions


def test_document_operator_budget_spans_pages_and_later_pages_are_reported():
    content = b"BT /F1 12 Tf 72 700 Td " + b"(x) Tj " * 30 + b"ET"  # 34 instructions
    doc = open_document(to_bytes(make_pdf([content] * 3)), limits=Limits(document_operators=50))
    first, second, third = (doc.interpret(n) for n in (1, 2, 3))
    assert not budget_findings(first) and len(first.glyphs) == 30
    assert "operators per document" in only_budget(second).message
    assert len(second.glyphs) == 50 - 34 - 3
    assert "spent by earlier pages" in only_budget(third).message and not third.glyphs
    assert sorted(doc.budget_notes) == [2, 3]


def test_set_limits_reinterprets():
    doc = open_document(hostile_files.long_string(1_000), limits=Limits(page_glyphs=10))
    assert len(doc.interpret(1).glyphs) == 10
    doc.set_limits(Limits(page_glyphs=100))
    assert len(doc.interpret(1).glyphs) == 100 and doc.limits.page_glyphs == 100


# --------------------------------------------------------------- command line


def test_cli_budget_stops_one_page_and_the_rest_goes_on(tmp_path):
    pdf = make_pdf(
        [b"BT /F1 12 Tf 72 700 Td " + b"(x) Tj " * 100 + b"ET", b"BT /F1 12 Tf 72 700 Td (two) Tj ET"]
    )
    path = tmp_path / "two.pdf"
    path.write_bytes(to_bytes(pdf))
    code, out, err = run_cli("text", str(path), "--max-page-glyphs", "7")
    assert code == 0
    assert out.decode() == "xxxxxxx\ftwo"
    (line,) = err.splitlines()
    assert line.startswith(
        "glyphscope: warning: page 1: budget 'glyphs per page' (7) spent at instruction 10"
    )
    assert "--max-page-glyphs" in line
    code, _, err = run_cli("text", str(path), "--max-page-glyphs", "7", "--quiet")
    assert (code, err) == (0, "")


def test_triage_reads_each_file_within_the_given_budgets(tmp_path):
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td " + b"(x) Tj " * 100 + b"ET"])
    path = tmp_path / "dense.pdf"
    path.write_bytes(to_bytes(pdf))
    code, out, err = run_cli("triage", str(path), "--json", "-", "--quiet", "--max-page-glyphs", "7")
    assert code == 0, err
    (row,) = json.loads(out)["rows"]
    assert row["finding_kinds"].get("budget_exceeded") == 1
    (budget,) = [f for f in row["findings"] if f["kind"] == "budget_exceeded"]
    assert "'glyphs per page' (7)" in budget["message"]
    code, out, _ = run_cli("triage", str(path), "--json", "-", "--quiet")
    assert code == 0 and "budget_exceeded" not in json.loads(out)["rows"][0]["finding_kinds"]
    code, _, err = run_cli("triage", str(path), "--max-page-glyphs", "0")
    assert code == 2 and err.startswith("glyphscope: --max-page-glyphs") and len(err.splitlines()) == 1


def test_render_draws_a_page_within_the_given_budgets(tmp_path):
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td " + b"(x) Tj " * 100 + b"ET"])
    path = tmp_path / "dense.pdf"
    path.write_bytes(to_bytes(pdf))
    out_png = tmp_path / "page.png"
    code, out, err = run_cli(
        "render", str(path), "--page", "1", "-o", str(out_png), "--scale", "0.5", "--max-page-glyphs", "7"
    )
    assert code == 0, err
    assert out_png.read_bytes().startswith(b"\x89PNG")
    (line,) = err.splitlines()
    assert line.startswith("glyphscope: warning: page 1: budget 'glyphs per page' (7)")


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_cli_rejects_bad_limits(tmp_path, value):
    path = tmp_path / "one.pdf"
    path.write_bytes(to_bytes(make_pdf([b"BT /F1 12 Tf (a) Tj ET"])))
    code, _, err = run_cli("text", str(path), "--max-page-glyphs", value)
    assert code == 2 and err.startswith("glyphscope: ") and len(err.splitlines()) == 1


def test_every_budget_has_an_option():
    code, out, _ = run_cli("text", "--help")
    assert code == 0
    for name in Limits.__dataclass_fields__:
        assert "--max-" + name.replace("_", "-") in out.decode()


# ------------------------------------------------------- streaming glyph JSON


def test_glyphs_json_is_streamed_with_the_same_bytes(tmp_path):
    content = b"BT /F1 12 Tf 72 700 Td " + b"(Hello \\n\\t\xe9) Tj " * 400 + b"ET"
    data = to_bytes(make_pdf([content]))
    doc = open_document(data)
    page = doc.interpret(1)
    classified = classify(page, DEFAULT_PARAMETERS)
    writes: list[int] = []

    class Sink(io.BytesIO):
        def write(self, b):  # type: ignore[override]
            writes.append(len(b))
            return super().write(b)

    for name in ("raw", "visible", "all"):
        sink = Sink()
        write_glyphs_json(sink, "f.pdf", page, classified, name, DEFAULT_PARAMETERS.to_json(), ["w\x01"])
        whole = glyphs_json("f.pdf", page, classified, name, DEFAULT_PARAMETERS.to_json(), ["w\x01"])
        assert sink.getvalue() == (json.dumps(whole, ensure_ascii=False, indent=1) + "\n").encode()
    assert len(writes) > 3 and max(writes) < 200_000  # written in batches, not as one document

    empty = open_document(to_bytes(make_pdf([b""]))).interpret(1)
    sink = Sink()
    write_glyphs_json(sink, None, empty, classify(empty, DEFAULT_PARAMETERS), "all", {})
    assert json.loads(sink.getvalue())["glyphs"] == []
    path = tmp_path / "g.pdf"
    path.write_bytes(data)
    code, out, _ = run_cli("glyphs", str(path), "--page", "1", "--json")
    assert code == 0 and len(json.loads(out)["glyphs"]) == len(classified.visible)


def test_the_content_stream_listing_respects_the_bytes_budget():
    doc = open_document(hostile_files.flate_bomb(16), limits=Limits(page_content_bytes=70_000))
    listing = doc.instructions(1)
    assert 9_000 <= len(listing) <= 10_000  # 70,000 bytes of "0 0 Td " (7 bytes each)
    assert listing[0].operator == "Td"


def test_the_listing_keeps_a_long_operand_whole_up_to_its_cap():
    """A paragraph's TJ array (here 1,200 characters as listed) is listed whole, for the
    content-stream panel's tooltip; a megabyte string is cut at LISTED_OPERAND_CHARS."""
    from glyphscope.core.document import LISTED_OPERAND_CHARS

    words = b" ".join(b"(word%03d) -250" % i for i in range(80))
    huge = b"(" + b"x" * 1_000_000 + b")"
    data = to_bytes(make_pdf([b"BT /F1 10 Tf [" + words + b"] TJ " + huge + b" Tj ET"]))
    tj, big = [i for i in open_document(data).instructions(1) if i.operator in ("TJ", "Tj")]
    assert tj.operands.startswith("[(word000) -250 (word001)") and tj.operands.endswith("(word079) -250]")
    assert "…" not in tj.operands and len(tj.operands) > 1_000
    assert len(big.operands) == LISTED_OPERAND_CHARS and big.operands.endswith("…")
