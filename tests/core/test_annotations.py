"""Text a reader sees in annotations: appearances placed by ISO 32000-1 §12.5.5, their decisions and
findings, the annotations switch, image-only pages and OCR layers."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.annotations import AnnotationReason, AnnotationSkip, placement
from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from glyphscope.core.glyph import GlyphStatus
from glyphscope.core.params import Parameters
from tests import corpus
from tests.cli_run import run_cli
from tests.pdfbuild import helvetica, make_pdf, to_bytes, widget_page


def _appearance(
    pdf: pikepdf.Pdf, content: bytes, bbox: list[float], matrix: list[float] | None = None
) -> Any:
    ap = pdf.make_stream(content)
    ap.Type, ap.Subtype, ap.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, bbox
    if matrix is not None:
        ap.Matrix = matrix
    ap.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=helvetica(pdf)))
    return ap


def _form(
    annots: list[dict[str, Any]],
    content: bytes = b"BT /F1 12 Tf 72 700 Td (Name:) Tj ET",
    need_appearances: bool = False,
    rotate: int = 0,
) -> bytes:
    """A page with `content` and one annotation per dict (keys as in the annotation dictionary;
    "ap" is the /AP /N content: bytes, or a dict state → bytes)."""
    pdf = make_pdf([content])
    page = pdf.pages[0].obj
    if rotate:
        page.Rotate = rotate
    made = []
    for spec in annots:
        spec = dict(spec)
        ap = spec.pop("ap", None)
        matrix = spec.pop("matrix", None)
        bbox = spec.pop("bbox", [0, 0, 100, 20])
        annot = pikepdf.Dictionary(Type=pikepdf.Name.Annot, **spec)
        if isinstance(ap, bytes):
            annot.AP = pikepdf.Dictionary(N=_appearance(pdf, ap, bbox, matrix))
        elif isinstance(ap, dict):
            annot.AP = pikepdf.Dictionary(
                N=pikepdf.Dictionary({k: _appearance(pdf, v, bbox, matrix) for k, v in ap.items()})
            )
        made.append(pdf.make_indirect(annot))
    page.Annots = pikepdf.Array(made)
    pdf.Root.AcroForm = pikepdf.Dictionary(
        Fields=pikepdf.Array([a for a in made if a.get("/Subtype") == pikepdf.Name.Widget]),
        NeedAppearances=need_appearances,
    )
    return to_bytes(pdf)


TEXT_FIELD = {
    "Subtype": pikepdf.Name.Widget,
    "Rect": [120, 695, 220, 715],
    "FT": pikepdf.Name.Tx,
    "T": pikepdf.String("name"),
    "V": pikepdf.String("Jane Doe"),
    "ap": b"/Tx BMC BT /F1 10 Tf 2 5 Td (Jane Doe) Tj ET EMC",
}


def _text(data: bytes, **params: Any) -> str:
    doc = open_document(data)
    return analyze_page(doc, 1, Parameters(**params)).texts["plain"].text


def test_a_text_fields_appearance_is_placed_in_its_rect_and_read_with_the_page() -> None:
    doc = open_document(_form([TEXT_FIELD]))
    page = doc.interpret(1)
    field = [g for g in page.glyphs if g.annotation == 0]
    assert "".join(g.unicode for g in field) == "Jane Doe"
    # BBox [0 0 100 20] fitted to Rect [120 695 220 715]: a translation by (120, 695); Td 2 5
    assert field[0].origin == (122.0, 700.0)
    (a,) = page.annotations
    assert field[0].form_path == (f"Widget {a.object_id} (name)",) and field[0].token_index == -1
    assert (a.subtype, a.field_name, a.field_type, a.value, a.skip) == (
        "Widget",
        "name",
        "Tx",
        "Jane Doe",
        None,
    )
    assert analyze_page(doc, 1).texts["plain"].text == "Name: Jane Doe"


def test_the_field_name_is_qualified_up_the_parent_chain() -> None:
    pdf = pikepdf.Pdf.open(__import__("io").BytesIO(_form([TEXT_FIELD])))
    widget = pdf.pages[0].obj.Annots[0]
    parent = pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String("person"), FT=pikepdf.Name.Tx))
    del widget["/FT"]
    widget.Parent = parent
    (a,) = open_document(to_bytes(pdf)).interpret(1).annotations
    assert (a.field_name, a.field_type) == ("person.name", "Tx")


def test_a_checkbox_draws_the_state_its_as_names() -> None:
    box = {
        "Subtype": pikepdf.Name.Widget,
        "Rect": [300, 695, 312, 707],
        "FT": pikepdf.Name.Btn,
        "T": pikepdf.String("agree"),
        "ap": {"/Yes": b"BT /F1 10 Tf 1 1 Td (X) Tj ET", "/Off": b"BT /F1 10 Tf 1 1 Td (O) Tj ET"},
        "bbox": [0, 0, 12, 12],
    }
    on = open_document(_form([{**box, "AS": pikepdf.Name.Yes}])).interpret(1)
    off = open_document(_form([{**box, "AS": pikepdf.Name.Off}])).interpret(1)
    missing = open_document(_form([{**box, "AS": pikepdf.Name.Maybe}])).interpret(1)
    assert [g.unicode for g in on.glyphs if g.annotation >= 0] == ["X"] and on.annotations[0].state == "Yes"
    assert [g.unicode for g in off.glyphs if g.annotation >= 0] == ["O"]
    assert not any(g.annotation >= 0 for g in missing.glyphs)
    assert missing.annotations[0].skip is AnnotationSkip.NO_APPEARANCE


@pytest.mark.parametrize(
    ("extra", "skip"),
    [
        ({"F": 2}, AnnotationSkip.HIDDEN),
        ({"F": 32}, AnnotationSkip.NO_VIEW),
        ({"Rect": [120, 695, 120, 715]}, AnnotationSkip.EMPTY_RECT),
        ({"bbox": [0, 0, 0, 20]}, AnnotationSkip.EMPTY_BBOX),
    ],
)
def test_what_a_viewer_does_not_draw_is_an_excluded_decision_with_its_reason(
    extra: dict[str, Any], skip: AnnotationSkip
) -> None:
    doc = open_document(_form([{**TEXT_FIELD, **extra}]))
    analysis = analyze_page(doc, 1)
    assert analysis.texts["plain"].text == "Name:"
    (d,) = [d for d in analysis.decisions("plain") if d.kind == "annotation"]
    assert (d.verdict, d.reason.value, d.glyph, d.glyph_count) == ("excluded", skip.value, None, 0)


def test_a_popup_is_not_drawn() -> None:
    popup = {
        "Subtype": pikepdf.Name.Popup,
        "Rect": [300, 600, 400, 700],
        "ap": b"BT /F1 9 Tf 2 2 Td (note) Tj ET",
    }
    (a,) = open_document(_form([popup])).interpret(1).annotations
    assert a.skip is AnnotationSkip.POPUP


def test_the_switch_includes_excludes_or_keeps_only_annotation_text() -> None:
    data = _form([TEXT_FIELD])
    assert _text(data) == "Name: Jane Doe"
    assert _text(data, annotations="exclude") == "Name:"
    assert _text(data, annotations="only") == "Jane Doe"
    doc = open_document(data)
    excluded = analyze_page(doc, 1, Parameters(annotations="exclude"))
    statuses = {g.unicode: excluded.classified.status[g.paint_index] for g in excluded.page.glyphs}
    assert statuses["J"] is GlyphStatus.EXCLUDED and statuses["N"] is GlyphStatus.KEPT
    (d,) = [d for d in excluded.decisions("plain") if d.kind == "annotation"]
    assert (d.verdict, d.reason) == ("excluded", AnnotationReason.EXCLUDED_BY_SWITCH)
    assert d.value == (120.0, 695.0, 220.0, 715.0) and d.glyph_count == 8
    with pytest.raises(ValueError, match="annotations must be one of include, exclude, only"):
        Parameters(annotations="some")


def test_an_appearance_matrix_is_fitted_to_the_rect() -> None:
    # /Matrix turns the appearance a quarter: its BBox [0 0 100 20] becomes x ∈ [-20, 0], y ∈ [0, 100],
    # which A scales into Rect [400 500 420 600] (a vertical field).
    assert placement((0, 0, 100, 20), (0, 1, -1, 0, 0, 0), (400, 500, 420, 600)) == (0, 1, -1, 0, 420, 500)
    rotated = {**TEXT_FIELD, "Rect": [400, 500, 420, 600], "matrix": [0, 1, -1, 0, 0, 0]}
    page = open_document(_form([rotated])).interpret(1)
    first = next(g for g in page.glyphs if g.annotation == 0)
    assert first.direction == pytest.approx((0.0, 1.0))
    assert first.origin == pytest.approx((415.0, 502.0))  # Td 2 5 in appearance space: x 420 - 5, y 500 + 2


def test_a_freetext_comment_and_a_rotated_page_keep_their_text() -> None:
    comment = {
        "Subtype": pikepdf.Name.FreeText,
        "Rect": [72, 600, 272, 620],
        "Contents": pikepdf.String("Please check"),
        "ap": b"BT /F1 10 Tf 2 5 Td (Please check) Tj ET",
        "bbox": [0, 0, 200, 20],
    }
    data = _form([comment], rotate=90)
    doc = open_document(data)
    analysis = analyze_page(doc, 1)
    assert "Please check" in analysis.texts["plain"].text
    (finding,) = [f for f in analysis.findings if f.kind is DiagnosticKind.TEXT_FROM_ANNOTATIONS]
    assert finding.count == len("Please check") and "FreeText" in finding.message


def test_a_value_a_viewer_draws_itself_is_a_finding_not_invented_glyphs() -> None:
    no_ap = {k: v for k, v in TEXT_FIELD.items() if k != "ap"}
    analysis = analyze_page(open_document(_form([no_ap])), 1)
    assert analysis.texts["plain"].text == "Name:"
    (f,) = [f for f in analysis.findings if f.kind is DiagnosticKind.FIELD_VALUE_NOT_DRAWN]
    assert "field name" in f.message and "“Jane Doe”" in f.message and "no glyphs" in f.message
    redrawn = analyze_page(open_document(_form([TEXT_FIELD], need_appearances=True)), 1)
    (f,) = [f for f in redrawn.findings if f.kind is DiagnosticKind.FIELD_VALUE_NOT_DRAWN]
    assert "/NeedAppearances" in f.message


def _scan(text: bytes = b"") -> bytes:
    pdf = pikepdf.new()
    image = pdf.make_stream(b"\x80" * 4)
    image.Type, image.Subtype, image.Width, image.Height = pikepdf.Name.XObject, pikepdf.Name.Image, 2, 2
    image.ColorSpace, image.BitsPerComponent = pikepdf.Name.DeviceGray, 8
    content = b"q 612 0 0 792 0 0 cm /Im Do Q " + text
    return to_bytes(make_pdf([content], xobjects={"/Im": image}, pdf=pdf))


def test_an_image_only_page_says_its_text_needs_ocr() -> None:
    analysis = analyze_page(open_document(_scan()), 1)
    (f,) = [f for f in analysis.findings if f.kind is DiagnosticKind.IMAGE_ONLY_PAGE]
    assert (f.measured, f.threshold) == (1.0, 0.5) and "needs OCR" in f.message


def test_an_invisible_text_layer_over_a_scan_is_named_an_ocr_layer() -> None:
    analysis = analyze_page(open_document(_scan(b"BT 3 Tr /F1 12 Tf 72 700 Td (Invoice) Tj ET")), 1)
    (f,) = [f for f in analysis.findings if f.kind is DiagnosticKind.OCR_LAYER_ONLY]
    assert f.count == len("Invoice") and f.measured == 1.0
    assert not [f for f in analysis.findings if f.kind is DiagnosticKind.IMAGE_ONLY_PAGE]


def test_glyphs_json_marks_annotation_glyphs_and_lists_the_annotations(tmp_path: Path) -> None:
    path = tmp_path / "form.pdf"
    path.write_bytes(_form([TEXT_FIELD, {**TEXT_FIELD, "F": 2, "T": pikepdf.String("hidden")}]))
    code, out, err = run_cli("glyphs", str(path), "--page", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [a["skip"] for a in data["annotations"]] == [None, "hidden_flag"]
    marked = [g["unicode"] for g in data["glyphs"] if g.get("annotation") == 0]
    assert "".join(marked) == "Jane Doe" and "annotation" not in data["glyphs"][0]


def _words(text: str) -> set[str]:
    """Words as a bag, without the punctuation either side (engines split "Name:" the same way)."""
    stripped = (w.strip(".,:;()[]\"'") for w in text.split())
    return {w for w in stripped if any(c.isalnum() for c in w)}


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed")
def test_a_form_reads_the_words_pdftotext_reads(tmp_path: Path) -> None:
    # Poppler draws and extracts widget appearances: every word it reads, we read.
    path = tmp_path / "form.pdf"
    comment = {
        "Subtype": pikepdf.Name.FreeText,
        "Rect": [72, 600, 272, 620],
        "ap": b"BT /F1 10 Tf 2 5 Td (Please check the amount) Tj ET",
        "bbox": [0, 0, 200, 20],
    }
    path.write_bytes(_form([TEXT_FIELD, comment]))
    theirs = _words(
        subprocess.run(["pdftotext", str(path), "-"], capture_output=True, check=True).stdout.decode()
    )
    ours = _words(analyze_page(open_document(path), 1).texts["plain"].text)
    before = _words(
        analyze_page(open_document(path), 1, Parameters(annotations="exclude")).texts["plain"].text
    )
    assert theirs == {"Name", "Jane", "Doe", "Please", "check", "the", "amount"}
    assert ours >= theirs and not before >= theirs


def test_corpus_annotations_are_read_and_decided() -> None:
    doc = open_document(corpus.require() / "pdfjs__issue6127.pdf")
    page = doc.interpret(1)
    drawn = [a for a in page.annotations if a.skip is None]
    assert drawn and all(a.subtype == "Widget" and a.field_name for a in drawn)
    decisions = [d for d in analyze_page(doc, 1).decisions("plain") if d.kind == "annotation"]
    assert len(decisions) == len(page.annotations)
    assert {d.verdict for d in decisions} == {"included", "excluded"}


# ------------------------------------------------------------------ explained where a user asks


def test_the_probe_names_an_annotation_glyphs_origin_and_its_exclusion() -> None:
    from glyphscope.inspector.views.page_facts import PageFacts
    from glyphscope.inspector.views.probe import Fate, probe_region

    doc = open_document(_form([TEXT_FIELD]))
    facts = PageFacts(analyze_page(doc, 1, Parameters(annotations="exclude")))
    result = probe_region(facts, 1, (118, 690, 222, 716), "plain")
    j = next(e for e in result.entries if e.char == "J")
    kinds = [f.kind for f in j.fates]
    assert kinds[0] is Fate.EXCLUDED and Fate.ANNOTATION in kinds
    assert j.fates[0].text == "excluded by --annotations exclude"
    origin = next(f.text for f in j.fates if f.kind is Fate.ANNOTATION)
    assert origin.startswith("in a Widget annotation's appearance (field `name`, Tx)")
    assert "8 excluded" in result.summary() and "8 from annotations" in result.summary()


def test_find_explains_excluded_annotation_text_and_field_values_without_glyphs() -> None:
    from glyphscope.inspector.views.page_facts import text_view
    from glyphscope.inspector.views.search import MissKind, explain_miss

    doc = open_document(_form([TEXT_FIELD]))
    a = analyze_page(doc, 1, Parameters(annotations="exclude"))
    view = text_view("plain", a.texts["plain"])
    miss = explain_miss(1, a.page.glyphs, a.classified, view, "Jane Doe", False, a.page.annotations)
    letters = tuple(g.paint_index for g in a.page.glyphs if g.annotation == 0 and g.unicode != " ")
    assert miss is not None and miss.kind is MissKind.EXCLUDED_ANNOTATION and miss.glyphs == letters
    assert "field `name`" in miss.message and "--annotations exclude" in miss.message
    no_ap = {k: v for k, v in TEXT_FIELD.items() if k != "ap"}
    b = analyze_page(open_document(_form([no_ap])), 1)
    view = text_view("plain", b.texts["plain"])
    miss = explain_miss(1, b.page.glyphs, b.classified, view, "jane", False, b.page.annotations)
    assert miss is not None and miss.kind is MissKind.FIELD_WITHOUT_GLYPHS and not miss.found_in_glyphs
    assert "the file has no glyphs for this field value" in miss.message


def test_compare_explains_annotation_text_either_way() -> None:
    from glyphscope.inspector.compare.align import EXTRA, MISSING, Run
    from glyphscope.inspector.compare.explain import DecisionIndex, explain

    doc = open_document(_form([TEXT_FIELD]))
    excluded = analyze_page(doc, 1, Parameters(annotations="exclude"))
    first = next(g.paint_index for g in excluded.page.glyphs if g.annotation == 0)
    index = DecisionIndex(excluded.decisions("plain"))
    extra = explain(
        Run(EXTRA, 6, 14, 0, 0, (first,), hidden_status="excluded"),
        "pdftotext",
        index,
        "Name: Jane Doe",
        "Name:",
    )
    assert extra.decision is not None and extra.decision.kind == "annotation"
    assert "pdftotext keeps 'Jane Doe', which glyphscope left out" in extra.sentence
    assert "--annotations exclude" in extra.sentence
    included = analyze_page(doc, 1)
    index = DecisionIndex(included.decisions("plain"))
    missing = explain(
        Run(MISSING, 0, 0, 6, 14, (first + 3,)), "pdfminer.six", index, "Name:", "Name: Jane Doe"
    )
    assert missing.decision is not None and "text of an annotation's appearance" in missing.sentence


def test_the_objects_tree_lists_the_field_tree_and_what_a_viewer_draws() -> None:
    from glyphscope.inspector.views.objects import FIELDS_GROUP, page_object_tree

    pdf = pikepdf.Pdf.open(__import__("io").BytesIO(_form([TEXT_FIELD, {**TEXT_FIELD, "F": 2}])))
    widget = pdf.pages[0].obj.Annots[0]
    parent = pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String("person"), FT=pikepdf.Name.Tx))
    parent.Kids = pikepdf.Array([widget])
    widget.Parent = parent
    pdf.Root.AcroForm.Fields = pikepdf.Array([parent, pdf.pages[0].obj.Annots[1]])
    doc = open_document(to_bytes(pdf))
    root = page_object_tree(doc, 1)
    groups = {n.group: n for n in root.children(doc) if n.group}
    fields = groups[FIELDS_GROUP]
    assert fields.label == "Form fields (AcroForm) (2)"
    (person, hidden) = fields.children(doc)
    assert person.label.startswith("person (Tx)")
    (name,) = person.children(doc)
    assert name.label.startswith("person.name (Tx) “Jane Doe”") and name.label.endswith("— on this page")
    annotations = next(n for n in root.children(doc) if n.label.startswith("Annotations"))
    labels = [n.label for n in annotations.children(doc)]
    assert labels[0].endswith("— field person.name (Tx) “Jane Doe” — drawn")
    assert labels[1].endswith("— not drawn: hidden flag")


CHECKBOX = {
    "Subtype": pikepdf.Name.Widget,
    "Rect": [120, 660, 136, 676],
    "FT": pikepdf.Name.Btn,
    "T": pikepdf.String("agree"),
    "V": pikepdf.Name.Yes,
    "AS": pikepdf.Name.Yes,
    "bbox": [0, 0, 16, 16],
    "ap": {"/Yes": b"BT /F1 14 Tf 2 3 Td (X) Tj ET", "/Off": b""},
}
COMMENT = {
    "Subtype": pikepdf.Name.FreeText,
    "Rect": [300, 600, 520, 630],
    "bbox": [0, 0, 220, 30],
    "ap": b"BT /F1 14 Tf 4 10 Td (Checked by support) Tj ET",
}
TWO_LINES = b"BT /F1 12 Tf 72 700 Td (Name:) Tj ET BT /F1 12 Tf 72 664 Td (Agree:) Tj ET"


def test_annotation_text_is_read_where_a_reader_meets_it_not_after_the_page() -> None:
    # appearances are painted after the page's content: in paint order the values would follow
    # the last line ("Name:\nAgree:\nJane Doe\nX\n…"); each block goes after the page glyph read
    # just before it — the ":" on its own line, else the nearest line above
    data = _form([COMMENT, CHECKBOX, TEXT_FIELD], TWO_LINES)  # /Annots order: not reading order
    analysis = analyze_page(open_document(data), 1)
    assert analysis.texts["plain"].text == "Name: Jane Doe\nAgree: X\nChecked by support"
    assert analysis.texts["auto"].text == "Name: Jane Doe\nAgree: X\nChecked by support"
    gaps = {
        (d.before, d.after): (d.verdict, round(d.gap, 3))
        for d in analysis.texts["plain"].decisions
        if d.kind == "word_gap"
    }
    glyphs = analysis.page.glyphs
    colon = next(g.paint_index for g in glyphs if g.unicode == ":" and g.annotation < 0)
    jane = next(g.paint_index for g in glyphs if g.unicode == "J")
    assert gaps[(colon, jane)] == ("inserted", round(glyphs[jane].origin[0] - glyphs[colon].glyph_end[0], 3))
    assert _text(data, annotations="exclude") == "Name:\nAgree:"


def test_annotation_text_is_placed_between_page_words_never_inside_one() -> None:
    from glyphscope.core.assembly.decisions import AnnotationPlacement

    # "Check" spans x 72–106; the widget's X is centred at x ≈ 101, over the "k"
    data = widget_page(
        b"BT /F1 12 Tf 72 700 Td (Check Box) Tj ET", [95, 695, 115, 715], b"BT /F1 12 Tf 2 5 Td (X) Tj ET"
    )
    page = analyze_page(open_document(data), 1)
    plain = page.texts["plain"]
    assert plain.text == "Check X Box"  # was "ChecXk Box"
    (placed,) = plain.decisions_of(AnnotationPlacement)
    glyphs = page.page.glyphs
    c = [g.paint_index for g in glyphs if g.unicode == "c" and g.annotation < 0][0]
    k = [g.paint_index for g in glyphs if g.unicode == "k"][0]
    x = [g.paint_index for g in glyphs if g.annotation >= 0][0]
    assert (placed.glyph, placed.found, placed.word_end, placed.before) == (x, c, k, k)
    assert placed.verdict == "after_word" and "between page words" in placed.describe()


# ------------------------------------------------------------------ comb fields


def _comb_page(ff: int, max_len: int | None) -> bytes:
    cells = b" ".join(f"({d}) Tj 20 0 Td".encode() for d in "12345")
    data = widget_page(
        b"BT /F1 12 Tf 72 700 Td (Code:) Tj ET",
        [120, 695, 220, 715],
        b"BT /F1 12 Tf 6 5 Td " + cells + b" ET",
    )
    pdf = pikepdf.open(__import__("io").BytesIO(data))
    widget = pdf.pages[0].obj.Annots[0]
    widget.FT, widget.Ff = pikepdf.Name.Tx, ff
    if max_len is not None:
        widget.MaxLen = max_len
    return to_bytes(pdf)


def test_a_comb_field_reads_as_one_word_with_a_decision_saying_why() -> None:
    from glyphscope.core.assembly.decisions import CombFieldDecision

    page = analyze_page(open_document(_comb_page(1 << 24, 5)), 1)
    assert page.page.annotations[0].comb == 5
    plain = page.texts["plain"]
    assert plain.text == "Code: 12345"  # was "Code: 1 2 3 4 5"
    combs = plain.decisions_of(CombFieldDecision)
    assert len(combs) == 4 and {d.verdict for d in combs} == {"comb"}
    first = combs[0]
    # cells 100 / 5 = 20 pt apart; a 12 pt digit is 6.672 pt wide: the gap is 13.328 pt
    assert (first.threshold, first.cells, round(first.value, 3)) == (20.0, 5, 13.328)
    assert "comb field (5 cells of 20.00 pt" in first.describe()
    assert page.texts["auto"].text == "Code: 12345"


def test_without_the_comb_flag_the_cells_stay_apart() -> None:
    page = analyze_page(open_document(_comb_page(0, 5)), 1)
    assert page.page.annotations[0].comb == 0
    assert page.texts["plain"].text == "Code: 1 2 3 4 5"
    multiline = analyze_page(open_document(_comb_page((1 << 24) | (1 << 12), 5)), 1)
    assert multiline.page.annotations[0].comb == 0  # Multiline cancels Comb (Table 228)
