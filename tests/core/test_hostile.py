"""Bad input is normal input: damaged and hostile files never escape as exceptions."""

from __future__ import annotations

import json
import logging
import random
import sys
import warnings
import zlib

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page, page_findings
from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from glyphscope.core.errors import GlyphscopeError
from glyphscope.inspector.cli import io as cli_io
from tests import hostile_files
from tests.cli_run import run_cli
from tests.pdfbuild import identity_h_font, make_pdf, to_bytes

DEMO_PAGES = [
    b"BT /F1 12 Tf 72 700 Td (Hello) Tj [(W) -250 (orld)] TJ T* (next) ' ET",
    b"q 1 0 0 1 10 10 cm BT /F2 10 Tf <00480069> Tj ET Q BT /F1 9 Tf 3 Tr (hidden) Tj ET",
]


def _sample() -> bytes:
    return to_bytes(
        make_pdf(
            DEMO_PAGES,
            fonts={
                "/F1": lambda p: p.make_indirect(
                    pikepdf.Dictionary(
                        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
                    )
                ),
                "/F2": identity_h_font,
            },
        )
    )


def _everything(data: bytes) -> None:
    try:
        doc = open_document(data)
    except GlyphscopeError:
        return  # a typed, explained refusal is a correct answer
    for n in range(1, doc.page_count + 1):
        analyze_page(doc, n)
        page_findings(doc, n)


@pytest.mark.parametrize("cut", [0.1, 0.35, 0.6, 0.85, 0.97])
def test_truncated_files(cut: float) -> None:
    data = _sample()
    _everything(data[: int(len(data) * cut)])


@pytest.mark.parametrize("seed", range(12))
def test_corrupted_bytes(seed: int) -> None:
    rng = random.Random(seed)
    data = bytearray(_sample())
    for _ in range(20):
        data[rng.randrange(200, len(data))] = rng.randrange(256)
    _everything(bytes(data))


@pytest.mark.parametrize(
    "content",
    [
        b"BT /F1 1e308 Tf 1e308 0 0 1e308 0 0 Tm (overflow) Tj ET",
        b"1e300 0 0 1e300 0 0 cm 1e300 0 0 1e300 0 0 cm BT /F1 12 Tf (inf) Tj ET",
        b"BT /F1 12 Tf 0 0 0 0 0 0 Tm (singular) Tj ET",
        b"BT /F1 12 Tf [(a) /Name << /K 1 >> [1 2] (b)] TJ ET",
        b"BT /F1 12 Tf (unbalanced q) Tj" + b" q" * 5000 + b" ET" + b" Q" * 6000,
        b"/P << /MCID (x) >> BDC BT /F1 12 Tf (odd mcid) Tj ET EMC EMC EMC",
        b"BT /F1 12 Tf 100 100 Td " + b"(x) Tj " * 20000 + b"ET",
        b"BT /F1 0 Tf (zero size) Tj ET BT /F1 -12 Tf 0 Tz (negative) Tj ET",
        b"\x00\xff garbage (((( BT ET ) [ << >> ",
    ],
)
def test_hostile_content_streams(content: bytes) -> None:
    _everything(to_bytes(make_pdf([content])))


def test_hostile_font_and_resources() -> None:
    pdf = make_pdf([b"BT /F1 12 Tf (a) Tj /F2 12 Tf (b) Tj /F3 9 Tf (c) Tj ET /X Do"])
    fonts = pdf.pages[0].Resources.Font
    fonts.F2 = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, DescendantFonts=[1, 2])
    fonts.F3 = pikepdf.Array([1, 2, 3])
    pdf.pages[0].Resources.XObject = pikepdf.Dictionary(X=pdf.make_stream(b"not a form"))
    _everything(to_bytes(pdf))


# ------------------------------------------------- hostile files: messages and qpdf errors


def _tounicode_with_bad_predictor(pdf: pikepdf.Pdf) -> pikepdf.Object:
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
    )
    cmap = pdf.make_stream(b"")
    cmap.write(
        zlib.compress(b"junk"),
        filter=pikepdf.Name.FlateDecode,
        decode_parms=pikepdf.Dictionary(Predictor=12, Colors=0),
    )
    font.ToUnicode = cmap
    return pdf.make_indirect(font)


def test_qpdf_runtime_error_in_page_content_is_a_page_finding(tmp_path):
    path = tmp_path / "predictor.pdf"
    path.write_bytes(hostile_files.bad_predictor())
    code, out, err = run_cli("text", str(path))
    assert (code, out.decode(), err) == (0, "\fsecond page", "")
    code, out, err = run_cli("diagnostics", str(path), "--json")
    assert code == 0 and err == ""
    (finding,) = [d for d in json.loads(out)["pages"][0]["diagnostics"] if d["kind"] == "content_unreadable"]
    assert "invalid samples_per_pixel" in finding["message"] and "\n" not in finding["message"]


def test_qpdf_runtime_error_in_a_form_and_a_font_stays_on_the_page():
    pdf = make_pdf([b"/Fm Do BT /F9 12 Tf 72 700 Td (font) Tj /F1 12 Tf (after) Tj ET"])
    form = pdf.make_stream(b"")
    form.write(
        zlib.compress(b"BT ET"),
        filter=pikepdf.Name.FlateDecode,
        decode_parms=pikepdf.Dictionary(Predictor=12, Colors=0),
    )
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 10, 10]
    pdf.pages[0].Resources.XObject = pikepdf.Dictionary(Fm=form)
    pdf.pages[0].Resources.Font.F9 = _tounicode_with_bad_predictor(pdf)
    page = open_document(to_bytes(pdf)).interpret(1)
    assert "".join(g.unicode for g in page.glyphs).endswith("after")
    unreadable = [d for d in page.diagnostics if d.kind is DiagnosticKind.CONTENT_UNREADABLE]
    assert unreadable and unreadable[0].form_path == ("/Fm",)


@pytest.mark.parametrize("in_form", [False, True])
def test_content_ending_inside_a_string_is_a_finding_not_a_python_warning(in_form):
    unfinished = b"BT /F1 9 Tf 10 10 Td (kept) Tj (lost Tj ET"
    pdf = make_pdf([b"/Fm Do" if in_form else unfinished])
    if in_form:
        form = pdf.make_stream(unfinished)
        form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 612, 792]
        pdf.pages[0].Resources.XObject = pikepdf.Dictionary(Fm=form)
    doc = open_document(to_bytes(pdf))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pikepdf warns "Unexpected end of stream" reading a form
        page = doc.interpret(1)
        listed = doc.instructions(1, ("/Fm",) if in_form else ())
    assert "".join(g.unicode for g in page.glyphs) == "kept"
    assert [i.operator for i in listed] == ["BT", "Tf", "Td", "Tj"]  # the string and all after it: gone
    (finding,) = [d for d in page.diagnostics if "EOF while reading token" in d.message]
    assert finding.kind is DiagnosticKind.DAMAGED_FILE_REPAIRED
    assert finding.message.endswith(
        "(the content ends inside an unfinished string, array or dictionary: it is lost)"
    )


def test_names_and_operators_that_are_not_utf8_cost_their_operator_not_the_page():
    from glyphscope.core.trace import trace_page

    content = b"/G#FF gs BT /F1 12 Tf 72 700 Td (Hel) Tj \xff /T#E9 1 Tf /F1 12 Tf (lo) Tj ET"
    doc = open_document(to_bytes(make_pdf([content])))
    page = doc.interpret(1)
    assert "".join(g.unicode for g in page.glyphs) == "Hello"
    messages = [d.message for d in page.diagnostics]
    assert "unknown operator '\xff' skipped" in messages  # as the file writes it, read as Latin-1
    assert not [d for d in page.diagnostics if d.kind is DiagnosticKind.PAGE_FAILED]
    listed = doc.instructions(1)
    assert [(i.operator, i.operands) for i in listed[:1]] == [("gs", "/G#ff")]
    assert [i.operator for i in listed][5:7] == ["\xff", "Tf"] and listed[6].operands == "/T#e9 1"
    trace = trace_page(doc, 1)
    assert [s.operator for s in trace.steps][5] == "\xff" and trace.glyph_count == 5
    # a filter name that is not UTF-8: the stream cannot be decoded, which is a finding, not a crash
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"])
    pdf.pages[0].obj.Contents.Filter = pikepdf.Object.parse(b"/Flate#ECDecode")
    doc = open_document(to_bytes(pdf))
    (finding,) = [d for d in doc.interpret(1).diagnostics if d.kind is DiagnosticKind.CONTENT_UNREADABLE]
    assert finding.message.startswith("the page's content stream could not be read")
    assert doc.instructions(1) == []


BEYOND_A_DOUBLE = b"1" + b"0" * 400 + b".0"  # read as a double: infinity


def _strict_json(data: bytes):
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(data, parse_constant=refuse)


def test_a_clip_wider_than_a_double_clips_like_the_largest_float(tmp_path):
    content = b"q 0 0 %s %s re W n BT /F1 12 Tf 72 700 Td (Hello) Tj ET Q" % (
        BEYOND_A_DOUBLE,
        BEYOND_A_DOUBLE,
    )
    path = tmp_path / "wide-clip.pdf"
    path.write_bytes(to_bytes(make_pdf([content])))
    page = open_document(path).interpret(1)
    (clip,) = page.clips
    xs = sorted({x for polygon in clip.path.polygons for x, _ in polygon})
    assert xs == [0.0, 3.4028234663852886e38]  # as MuPDF reads reals: not infinity, so 72 lies inside
    code, out, _ = run_cli("text", str(path))
    assert (code, out) == (0, b"Hello")


def test_json_output_is_strict_json_when_numbers_overflow(tmp_path):
    # glyph positions beyond a double: 1e300 × 1e10
    content = b"1e300 0 0 1e300 0 0 cm BT /F1 12 Tf 1e10 0 Td (x) Tj ET".replace(
        b"1e300", b"1" + b"0" * 300 + b".0"
    )
    content = content.replace(b"1e10", b"10000000000.0")
    path = tmp_path / "overflow.pdf"
    path.write_bytes(to_bytes(make_pdf([content])))
    code, out, _ = run_cli("glyphs", str(path), "--page", "1", "--set", "all", "--json")
    assert code == 0
    (row,) = _strict_json(out)["glyphs"]
    assert row["origin"][0] == sys.float_info.max  # an infinity is written as the largest double
    for command in ("decisions", "diagnostics"):
        code, out, _ = run_cli(command, str(path), "--page", "1", "--json")
        assert code == 0 and _strict_json(out)


def test_to_json_writes_infinities_as_the_largest_double_and_nan_as_null():
    from glyphscope.core.serialize import to_json

    text = to_json({"a": [float("inf"), -float("inf"), float("nan"), 1.5, True], "b": (2.0,)}, indent=None)
    assert _strict_json(text.encode()) == {
        "a": [sys.float_info.max, -sys.float_info.max, None, 1.5, True],
        "b": [2.0],
    }
    assert to_json({"a": 1.5}) == json.dumps({"a": 1.5}, indent=1)  # finite: exactly json.dumps


def test_library_warnings_become_one_glyphscope_line_each(tmp_path, monkeypatch):
    path = tmp_path / "plain.pdf"
    path.write_bytes(to_bytes(make_pdf([b"BT /F1 12 Tf 72 700 Td (x) Tj ET"])))
    code, _, err = run_cli("text", str(path), "--password", "not needed")
    assert code == 0
    assert (
        err == "glyphscope: warning: A password was provided, but no password was needed to open this PDF.\n"
    )

    real = cli_io.read_input

    def noisy(file: str) -> str | bytes:
        warnings.warn("Unexpected end of stream\x1b[31m\r\nsecond line", UserWarning, stacklevel=1)
        warnings.warn("Unexpected end of stream\x1b[31m\r\nsecond line", UserWarning, stacklevel=1)
        logging.getLogger("pikepdf._core").warning(
            "qpdf: Pages tree includes non-dictionary object; ignoring\x07"
        )
        return real(file)

    monkeypatch.setattr(cli_io, "read_input", noisy)
    code, _, err = run_cli("text", str(path))
    assert code == 0
    assert err.splitlines() == [
        "glyphscope: warning: Unexpected end of stream\\x1b[31m second line",
        "glyphscope: warning: qpdf: Pages tree includes non-dictionary object; ignoring\\x07",
    ]
    code, _, err = run_cli("text", str(path), "--quiet")
    assert (code, err) == (0, "")


def test_one_line_escapes_what_a_terminal_would_obey():
    assert (
        cli_io.printable_line("a\tb\n\nc\x00d\x7f\u200be\U000e0001") == "a b c\\x00d\\x7f\\u200be\\U000e0001"
    )


def test_unreadable_page_tree_exits_4_with_one_line(tmp_path):
    pdf = make_pdf([b""])
    pdf.Root.Pages = pikepdf.Dictionary(Type=pikepdf.Name.Pages, Kids=pikepdf.Name.X, Count=1)
    path = tmp_path / "tree.pdf"
    path.write_bytes(to_bytes(pdf))
    code, _, err = run_cli("text", str(path))
    assert code in (0, 4)
    assert all(line.startswith("glyphscope: ") for line in err.splitlines())
    assert "internal error" not in err
