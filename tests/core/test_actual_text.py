"""Marked content with /ActualText (and /E) replaces the text of its glyphs.

One small pikepdf PDF per case: inline property dict, /Properties name, nested spans,
a span inside a form drawn twice, /E, digits whose ToUnicode maps them to U+0000,
a word hyphenated across two lines under one span, culled glyphs, the switch off.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphscope.core.actual_text import ActualTextSpan
from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES, assemble
from glyphscope.core.assembly.actual_text import ActualTextDecision, written_text
from glyphscope.core.assembly.decisions import ColumnChangeDecision, LineBreakDecision, WordGapDecision
from glyphscope.core.decision_set import DECISION_RECORDS
from glyphscope.core.document import open_document
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.structure import PageStructure
from tests import corpus
from tests.cli_run import run_cli
from tests.glyph_factory import GlyphFactory
from tests.pdfbuild import identity_h_font, make_pdf, to_bytes

SCHEMAS = Path(__file__).resolve().parents[2] / "inspector" / "schemas"

# An Identity-H font whose ToUnicode maps every digit to U+0000 (seen in the wild: the digits
# read as nothing, while each number is wrapped in an /ActualText span giving the digits).
_ZERO_DIGITS = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"/CMapName /ZeroDigits def /CMapType 2 def\n"
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"2 beginbfrange <0020> <002F> <0020> <003A> <007E> <003A> endbfrange\n"
    b"10 beginbfchar <0030> <0000> <0031> <0000> <0032> <0000> <0033> <0000> <0034> <0000>\n"
    b"<0035> <0000> <0036> <0000> <0037> <0000> <0038> <0000> <0039> <0000> endbfchar\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)


def _zero_digits_font(pdf: pikepdf.Pdf) -> Any:
    return identity_h_font(pdf, tounicode=_ZERO_DIGITS)


def _h(text: str) -> bytes:
    """`text` as a hex string of two-byte codes (code = the character's code point)."""
    return b"<" + "".join(f"{ord(c):04X}" for c in text).encode() + b">"


def _content(source: str) -> bytes:
    """A content stream where every (…) string is written as two-byte codes."""
    return re.sub(
        r"\(([^()]*)\) (Tj|TJ)", lambda m: f"{_h(m.group(1)).decode()} {m.group(2)}", source
    ).encode()


def _analyze(pdf: pikepdf.Pdf, params: Parameters = DEFAULT_PARAMETERS) -> Any:
    return analyze_page(open_document(to_bytes(pdf)), 1, params)


def _page(content: str, **kwargs: Any) -> pikepdf.Pdf:
    return make_pdf([_content(content)], {"/F1": _zero_digits_font}, **kwargs)


def _records(analysis: Any, mode: str = "plain") -> list[ActualTextDecision]:
    return [d for d in analysis.decisions(mode) if isinstance(d, ActualTextDecision)]


TOTAL = "BT /F1 12 Tf 72 700 Td (Total ) Tj /Span <</ActualText (42)>> BDC (42) Tj EMC ( EUR) Tj ET"


# ------------------------------------------------------------------ interpretation


def test_span_with_inline_dict_is_recorded_with_its_glyph_range_and_bdc() -> None:
    a = _analyze(_page(TOTAL))
    assert a.page.actual_text == (
        ActualTextSpan(6, 7, "42", "/ActualText", "/Span", 4, 4, ()),  # glyphs 6-7; the BDC is instruction 4
    )
    # the glyph records keep their own Unicode: the font maps the digits to U+0000, unresolved
    assert [(a.page.glyphs[i].unicode, a.page.glyphs[i].decode_source.value) for i in (6, 7)] == [
        ("", "unresolved"),
        ("", "unresolved"),
    ]


def test_span_through_properties_name() -> None:
    pdf = _page("BT /F1 12 Tf 72 700 Td (Total ) Tj /Span /P1 BDC (42) Tj EMC ET")
    page = pdf.pages[0]
    page.Resources.Properties = pikepdf.Dictionary(P1=pikepdf.Dictionary(ActualText=pikepdf.String("42")))
    a = _analyze(pdf)
    assert [(s.first, s.last, s.text) for s in a.page.actual_text] == [(6, 7, "42")]
    assert a.texts["plain"].text == "Total 42"


def test_utf16_replacement_text_is_decoded() -> None:
    content = (
        "BT /F1 12 Tf 72 700 Td /Span <</ActualText <FEFF00DC0062006500720020> >> BDC (Ueber ) Tj EMC ET"
    )
    a = _analyze(_page(content))
    assert a.page.actual_text[0].text == "Über "
    assert a.texts["plain"].text == "Über "  # a replacement's own spaces are kept


def test_nested_spans_the_outermost_text_wins_once() -> None:
    content = (
        "BT /F1 12 Tf 72 700 Td /Span <</ActualText (outer)>> BDC (a) Tj "
        "/Span <</ActualText (inner)>> BDC (b) Tj EMC (c) Tj EMC ( d) Tj ET"
    )
    a = _analyze(_page(content))
    assert [(s.first, s.last, s.text) for s in a.page.actual_text] == [(0, 2, "outer")]
    assert a.texts["plain"].text == "outer d"
    (record,) = _records(a)
    assert (record.first, record.last, record.replaced, record.glyphs) == (0, 2, "abc", (0, 1, 2))


def test_span_inside_a_form_drawn_twice_is_replaced_at_each_use() -> None:
    pdf = pikepdf.new()
    form = pdf.make_stream(_content("BT /F1 12 Tf 0 0 Td /Span <</ActualText (2026)>> BDC (2026) Tj EMC ET"))
    form.Type = pikepdf.Name.XObject
    form.Subtype = pikepdf.Name.Form
    form.BBox = [0, 0, 200, 50]
    content = b"q 1 0 0 1 72 700 cm /Fm1 Do Q q 1 0 0 1 72 600 cm /Fm1 Do Q"
    pdf = make_pdf([content], {"/F1": _zero_digits_font}, xobjects={"/Fm1": form}, pdf=pdf)
    a = _analyze(pdf)
    spans = a.page.actual_text
    assert [(s.first, s.last, s.token_index, s.stream_index, s.form_path) for s in spans] == [
        (0, 3, -1, 3, ("/Fm1",)),
        (4, 7, -1, 3, ("/Fm1",)),
    ]
    assert a.texts["plain"].text == "2026\n2026"
    records = _records(a)
    assert [(r.glyph, r.first, r.last, r.key) for r in records] == [
        (0, 0, 3, "ActualText"),
        (4, 4, 7, "ActualText"),
    ]
    assert "form /Fm1" in records[0].describe()


def test_e_expansion_and_actual_text_precedence() -> None:
    content = (
        "BT /F1 12 Tf 72 700 Td /Span <</E (Doctor)>> BDC (Dr.) Tj EMC ( Who ) Tj "
        "/Span <</E (expansion) /ActualText (9)>> BDC (9) Tj EMC ET"
    )
    a = _analyze(_page(content))
    assert [(s.key, s.text) for s in a.page.actual_text] == [("/E", "Doctor"), ("/ActualText", "9")]
    assert a.texts["plain"].text == "Doctor Who 9"
    e = _records(a)[0]
    assert e.to_json()["key"] == "E" and "expansion /E" in e.describe()


def test_a_span_without_glyphs_or_without_a_text_string_is_ignored() -> None:
    content = (
        "BT /F1 12 Tf 72 700 Td /Span <</ActualText (ghost)>> BDC EMC "
        "/Span <</ActualText /NotAString>> BDC (x) Tj EMC ET"
    )
    a = _analyze(_page(content))
    assert a.page.actual_text == ()
    assert a.texts["plain"].text == "x"


def test_a_span_left_open_runs_to_the_end_of_the_page() -> None:
    a = _analyze(_page("BT /F1 12 Tf 72 700 Td (a ) Tj /Span <</ActualText (12)>> BDC (12) Tj ET"))
    assert [(s.first, s.last) for s in a.page.actual_text] == [(2, 3)]
    assert a.texts["plain"].text == "a 12"


def test_many_nested_spans_stay_linear() -> None:
    """O(1) per operator: 900 nested ActualText sections (under the depth budget), 20,000 spans in a row."""
    nested = "BT /F1 12 Tf 72 700 Td " + "/Span <</ActualText (x)>> BDC " * 900 + "(1) Tj" + " EMC" * 900
    row = " ".join(["/Span <</ActualText (7)>> BDC (1) Tj EMC 0 0 Td"] * 20_000)  # one place: never culled
    started = time.process_time()  # CPU time: other work on the machine does not count
    a = _analyze(_page(nested + " " + row + " ET"))
    assert len(a.page.actual_text) == 20_001
    assert a.texts["plain"].text == "x" + "7" * 20_000
    assert time.process_time() - started < 20.0  # ~1 s here; quadratic work would take minutes


# ------------------------------------------------------------------ assembly


@pytest.mark.parametrize("mode", [m for m in MODES if m != "structure"])  # structure: no tree here
def test_every_mode_writes_the_replacement_once(mode: str) -> None:
    a = _analyze(_page(TOTAL))
    text = a.texts[mode]
    assert text.text is not None and text.text.strip() == "Total 42 EUR"
    (record,) = _records(a, mode)
    assert (record.glyph, record.first, record.last) == (6, 6, 7)


def test_no_pair_decision_inside_a_span_and_a_word_hyphenated_over_two_lines_reads_whole() -> None:
    content = (
        "BT /F1 12 Tf 14 TL 72 700 Td (Die ) Tj /Span <</ActualText (Mitarbeiterinnen)>> BDC "
        "(Mitarbei-) Tj T* (terinnen) Tj EMC ( und) Tj ET"
    )
    a = _analyze(_page(content))
    first, last = a.page.actual_text[0].first, a.page.actual_text[0].last
    assert (first, last) == (4, 20)
    for mode in ("plain", "auto", "columns"):
        assert a.texts[mode].text == "Die Mitarbeiterinnen und", mode
    pairs = [d for d in a.decisions("plain") if isinstance(d, (WordGapDecision, LineBreakDecision))]
    assert not [d for d in pairs if first <= d.before <= last and first <= d.after <= last]
    # the pair across the span's end is decided: the word gap before " und" is an existing space
    assert any(isinstance(d, LineBreakDecision) and (d.before, d.after) == (20, 21) for d in pairs)
    # layout keeps the replacement on the first line; the second line holds what follows the span
    assert a.texts["layout"].text is not None
    assert a.texts["layout"].text.split("\n")[0].strip() == "Die Mitarbeiterinnen"


def test_pairs_across_the_span_edges_use_the_replacement_text() -> None:
    # unresolved-looking digits (U+0000) count as spaces for the word-gap rule; their
    # replacement "42" does not: the 30 pt gap before it (Total: 5 glyphs of 12 pt) is a word space
    content = "BT /F1 12 Tf 72 700 Td (Total) Tj 90 0 Td /Span <</ActualText (42)>> BDC (42) Tj EMC ET"
    a = _analyze(_page(content))
    assert a.texts["plain"].text == "Total 42"
    gap = next(d for d in a.decisions("plain") if isinstance(d, WordGapDecision) and d.after == 5)
    assert gap.verdict == "inserted" and gap.value is not None and gap.value > gap.threshold
    off = _analyze(_page(content), Parameters(actual_text=False))
    gap_off = next(d for d in off.decisions("plain") if isinstance(d, WordGapDecision) and d.after == 5)
    assert gap_off.verdict == "existing_space"


def test_soft_hyphen_replacement_is_not_written() -> None:
    # pdfjs issue 13226's construction: a space glyph at each hyphenation point, under ActualText U+00AD
    content = (
        "BT /F1 10 Tf 10 30 Td (Mit) Tj /Span <</ActualText <FEFF00AD> >> BDC ( ) Tj EMC "
        "(arbei) Tj /Span <</ActualText <FEFF00AD> >> BDC ( ) Tj EMC (terinnen) Tj ET"
    )
    a = _analyze(_page(content))
    assert a.texts["plain"].text == "Mitarbeiterinnen"
    record = _records(a)[0]
    assert (record.replacement, record.replaced, record.written) == ("\u00ad", " ", "")
    assert "soft hyphens are not written" in record.describe()
    assert _analyze(_page(content), Parameters(actual_text=False)).texts["plain"].text == "Mit arbei terinnen"


def test_written_text_controls_and_ligatures() -> None:
    assert written_text("a\u00adb\r\nc\x00") == "ab  c "
    assert written_text("\ufb01le") == "file"
    assert written_text("\ufb01le", expand=False) == "\ufb01le"


def test_char_map_links_every_glyph_of_the_span_to_the_replacement() -> None:
    a = _analyze(_page(TOTAL))
    text = a.texts["plain"]
    assert text.text == "Total 42 EUR"
    span = range(6, 8)
    assert text.chars_of_glyph(6) == text.chars_of_glyph(7) == range(6, 8)
    assert text.text[6:8] == "42"
    assert [text.glyph_of_char(i) for i in span] == [6, 6]  # the span's first emitted glyph
    assert [text.decision_of_char(i) for i in span] == [None, None]  # glyph text, not generated
    # round trip for every other glyph: its characters map back to it
    for g in a.classified.visible:
        if g.paint_index not in (6, 7):
            chars = text.chars_of_glyph(g.paint_index)
            assert [text.glyph_of_char(i) for i in chars] == [g.paint_index] * len(chars)


def test_culled_glyphs_of_a_span() -> None:
    # the span's first two glyphs lie left of the CropBox: the text stands at its first VISIBLE glyph
    content = (
        "BT /F1 12 Tf 72 700 Td (in ) Tj ET "
        "BT /F1 12 Tf 40 600 Td /Span <</ActualText (1234)>> BDC (12) Tj 60 0 Td (34) Tj EMC ET "
        "BT /F1 12 Tf 40 500 Td /Span <</ActualText (99)>> BDC (99) Tj EMC ET"
    )
    a = _analyze(_page(content, crop_box=[60, 550, 612, 792]))
    assert [(s.first, s.last) for s in a.page.actual_text] == [(3, 6), (7, 8)]
    assert a.texts["plain"].text == "in \n1234"  # the second span is all culled: it writes nothing
    (record,) = _records(a)
    assert (record.glyph, record.first, record.last, record.glyphs) == (5, 3, 6, (5, 6))
    assert record.replaced == "  "


def _span(first: int, last: int, text: str) -> ActualTextSpan:
    return ActualTextSpan(first, last, text, "/ActualText", "/Span", first, first, ())


def test_structure_mode_and_assemble_with_spans() -> None:
    """Tagged text: the span's glyphs carry an MCID; structure order writes the replacement once."""
    f = GlyphFactory()
    f.run("second", 72, 600, mcid=1)  # painted first, read second
    f.run("I-", 72, 700, mcid=0)  # 6, 7: "I-" under ActualText "first"
    structure = PageStructure(
        has_tree=True, mcid_order=(0, 1), page_has_struct_parents=True, depth_capped=False, problems=()
    )
    spans = [_span(6, 7, "first")]
    box = (0.0, 0.0, 612.0, 792.0)
    text = assemble(f.glyphs, "structure", visible_box=box, structure=structure, actual_text=spans)
    assert text.text == "first\nsecond"
    assert text.chars_of_glyph(7) == range(0, 5) and text.glyph_of_char(4) == 6
    raw = assemble(f.glyphs, "structure", Parameters(actual_text=False), visible_box=box, structure=structure)
    assert raw.text == "I-\nsecond"
    assert (
        assemble(f.glyphs, "structure", visible_box=box, structure=structure).text == "I-\nsecond"
    )  # no spans


def test_vertical_writing_span_writes_once_without_column_decisions() -> None:
    f = GlyphFactory()
    f.vertical("ab", 300, 700)  # 0, 1: one column
    f.vertical("cd", 280, 700)  # 2, 3: the next column, to the left
    spans = [_span(1, 2, "XY")]  # across the column change
    box = (0.0, 0.0, 612.0, 792.0)
    text = assemble(f.glyphs, "plain", visible_box=box, actual_text=spans)
    assert text.text == "aXYd"  # no line break between the span's glyphs; after it, one column change
    changes = [d for d in text.decisions if isinstance(d, ColumnChangeDecision)]
    assert [(d.before, d.after, d.verdict) for d in changes] == [(0, 1, "same_column"), (2, 3, "same_column")]
    assert assemble(f.glyphs, "plain", visible_box=box).text == "ab\ncd"


# ------------------------------------------------------------------ switch, CLI, JSON


def test_switch_off_writes_the_glyphs_own_text_and_records_nothing() -> None:
    off = Parameters(actual_text=False)
    assert "actual_text" in off.to_json() and DEFAULT_PARAMETERS.actual_text is True
    a = _analyze(_page(TOTAL), off)
    assert a.texts["plain"].text == "Total    EUR"  # unresolved glyphs: one space each (spec §6)
    assert _records(a) == []
    assert len(a.page.actual_text) == 1  # interpretation is the same: the switch is assembly's
    with pytest.raises(ValueError):
        Parameters(actual_text=2)  # type: ignore[arg-type]


def test_cli_no_actual_text(tmp_path: Path) -> None:
    path = tmp_path / "total.pdf"
    path.write_bytes(to_bytes(_page(TOTAL)))
    code, out, _ = run_cli("text", str(path))
    assert code == 0 and out.decode() == "Total 42 EUR"
    code, out, _ = run_cli("text", str(path), "--no-actual-text")
    assert code == 0 and out.decode() == "Total    EUR"
    code, out, _ = run_cli("decisions", str(path), "--page", "1", "--json", "--no-actual-text")
    assert code == 0
    data = json.loads(out)
    assert data["params"]["actual_text"] is False
    assert not [d for d in data["decisions"] if d["kind"] == "actual_text"]


def test_decisions_json_values_and_schema(tmp_path: Path) -> None:
    path = tmp_path / "total.pdf"
    path.write_bytes(to_bytes(_page(TOTAL)))
    code, out, _ = run_cli("decisions", str(path), "--page", "1", "--mode", "layout", "--json")
    assert code == 0
    data = json.loads(out)
    (record,) = [d for d in data["decisions"] if d["kind"] == "actual_text"]
    assert record == {
        "kind": "actual_text",
        "glyph": 6,
        "verdict": "replaced",
        "value": None,
        "threshold": None,
        "first": 6,
        "last": 7,
        "key": "ActualText",
        "replacement": "42",
        "replaced": "  ",  # U+0000 glyphs write a space each (spec §6)
        "written": "42",
        "glyphs": [6, 7],
        "tag": "/Span",
        "token_index": 4,
        "stream_index": 4,
        "form_path": [],
        "description": (
            "the /ActualText '42' of marked content /Span (BDC at instruction 4, glyphs #6–#7) "
            "replaces the text '  ' of its 2 visible glyphs"
        ),
    }
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SCHEMAS / "decisions.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    assert ActualTextDecision in DECISION_RECORDS


# ------------------------------------------------------------------ corpus


def test_corpus_issue13226_reads_mitarbeiterinnen() -> None:
    corpus.require()
    doc = open_document(str(corpus.CORPUS / "pdfjs__issue13226.pdf"))
    a = analyze_page(doc, 1)
    assert a.texts["auto"].text is not None
    assert a.texts["auto"].text.startswith("Mitarbeiterinnen und Mitarbeiter")
    assert [(s.first, s.last, s.text) for s in a.page.actual_text] == [(3, 3, "\u00ad"), (9, 9, "\u00ad")]
    off = analyze_page(doc, 1, Parameters(actual_text=False))
    assert off.texts["auto"].text is not None and off.texts["auto"].text.startswith("Mit arbei terinnen")
