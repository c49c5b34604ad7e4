"""One decision protocol (core/decision_protocol.py): every record states the numbers its rule compared.

Each test pins VALUES on a tiny built PDF: the protocol's value/threshold must be the
very pair that decided the verdict, never a number found by key or message matching.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphscope.core.actual_text import ActualTextSpan
from glyphscope.core.analysis import analyze_page
from glyphscope.core.annotations import Annotation, AnnotationDecision, AnnotationReason
from glyphscope.core.assembly import MODES, assemble
from glyphscope.core.assembly.actual_text import ActualTextDecision
from glyphscope.core.assembly.bidi import BidiDecision
from glyphscope.core.assembly.decisions import (
    AnnotationPlacement,
    ArticleBeadRecord,
    ArticleOrderDecision,
    Baseline,
    ColumnChangeDecision,
    ColumnSplit,
    CombFieldDecision,
    CoveredSpace,
    GridPlacement,
    LayoutGrid,
    LigatureDecision,
    LineBreakDecision,
    ReadingOrderDecision,
    RtlRunOrder,
    StructureOrder,
    SurvivorPlacement,
    TextColumn,
    VerticalColumn,
    WordGapDecision,
)
from glyphscope.core.decision_protocol import DecisionRecord, number_json
from glyphscope.core.decision_set import (
    DECISION_RECORDS,
    DecodeFallbackDecision,
    FormMembershipDecision,
)
from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.passes import CullDecision, DuplicateDecision
from glyphscope.core.textops import page_decisions_json
from glyphscope.core.visibility import (
    ClippedDecision,
    CoveredDecision,
    InvisibleModeDecision,
    SameAsBackgroundDecision,
    TransparentDecision,
)
from tests.core.test_findings import CODESPACE_ONLY, form_xobject, simple_font_with_odd_differences
from tests.glyph_factory import GlyphFactory
from tests.pdfbuild import helvetica, identity_h_font, make_pdf, to_bytes

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "assets" / "demo.pdf"
HELVETICA_12_HEIGHT = 12 * (0.718 + 0.207)  # 11.1 pt (spec §9)
A_ADVANCE_12 = 0.667 * 12  # Helvetica "A"


def decisions(pdf: pikepdf.Pdf, mode: str = "plain") -> tuple[Any, ...]:
    return analyze_page(open_document(to_bytes(pdf)), 1).decisions(mode)


def of_kind(records: tuple[Any, ...], cls: type) -> list[Any]:
    return [r for r in records if isinstance(r, cls)]


def assert_protocol(record: Any) -> dict[str, Any]:
    """The protocol's fields, in the record and in its JSON, agree; returns the JSON."""
    assert isinstance(record, DecisionRecord)
    d = record.to_json()
    json.dumps(d)
    assert d["kind"] == record.kind == type(record).kind
    assert d["verdict"] == record.verdict
    assert d["value"] == number_json(record.value)
    assert d["threshold"] == number_json(record.threshold)
    assert ("before" in d and "after" in d) or "glyph" in d
    sentence = record.describe()
    assert isinstance(sentence, str) and sentence
    return d


# ---------------------------------------------------------------- line breaks (spec §4)


def test_line_break_reports_the_displacement_and_half_the_box_height() -> None:
    # two Helvetica 12 lines 14 pt apart: |d| = 14 > 0.5 × 11.1 = 5.55
    records = decisions(make_pdf([b"BT /F1 12 Tf 72 700 Td (A) Tj 0 -14 Td (B) Tj ET"]))
    (lb,) = of_kind(records, LineBreakDecision)
    assert (lb.before, lb.after, lb.verdict) == (0, 1, "break")
    assert lb.value == pytest.approx(14.0)  # |d|: the number the rule compared
    assert lb.threshold == pytest.approx(5.55)
    assert lb.displacement == pytest.approx(-14.0)  # signed: the next line lies below
    d = assert_protocol(lb)
    assert d["value"] == pytest.approx(14.0) and d["threshold"] == pytest.approx(5.55)
    assert d["displacement"] == pytest.approx(-14.0) and d["break_threshold"] == pytest.approx(5.55)
    assert "14.00 pt > 0.50 × 11.10 pt = 5.55 pt" in lb.describe()


def test_same_line_reports_the_same_pair_of_numbers() -> None:
    # a 2 pt superscript stays on the line: |d| = 2 ≤ 5.55
    records = decisions(make_pdf([b"BT /F1 12 Tf 72 700 Td (A) Tj 2 Ts (B) Tj ET"]))
    (lb,) = of_kind(records, LineBreakDecision)
    assert lb.verdict == "same_line"
    assert lb.value == pytest.approx(2.0) and lb.threshold == pytest.approx(5.55)
    assert_protocol(lb)


def test_backward_jump_reports_the_gap_and_minus_three_heights() -> None:
    # same baseline, the next glyph starts 258 pt behind the previous glyph's end
    records = decisions(make_pdf([b"BT /F1 12 Tf 300 700 Td (A) Tj -250 0 Td (B) Tj ET"]))
    (lb,) = of_kind(records, LineBreakDecision)
    assert lb.verdict == "backward_jump"
    gap = 50 - (300 + A_ADVANCE_12)
    assert lb.value == pytest.approx(gap)
    assert lb.threshold == pytest.approx(-3 * HELVETICA_12_HEIGHT)
    d = assert_protocol(lb)
    assert d["value"] == pytest.approx(gap, abs=1e-4) and d["threshold"] == pytest.approx(-33.3)
    # the displacement test that did NOT decide stays in the JSON as extra numbers
    assert d["displacement"] == 0.0 and d["break_threshold"] == pytest.approx(5.55)


# ---------------------------------------------------------------- word gaps (spec §3)


@pytest.mark.parametrize(("adjust", "verdict"), [(100, "below_threshold"), (200, "inserted")])
def test_word_gap_reports_the_gap_and_its_threshold(adjust: int, verdict: str) -> None:
    # a TJ adjustment of −n thousandths at 12 pt opens a gap of n × 0.012 pt
    content = b"BT /F1 12 Tf 72 700 Td [(A) -%d (B)] TJ ET" % adjust
    (wg,) = of_kind(decisions(make_pdf([content])), WordGapDecision)
    assert wg.verdict == verdict
    assert wg.value == pytest.approx(adjust * 0.012)
    assert wg.threshold == pytest.approx(0.15 * HELVETICA_12_HEIGHT)  # 1.665
    d = assert_protocol(wg)
    assert d["value"] == pytest.approx(adjust * 0.012) and d["threshold"] == pytest.approx(1.665)


def test_word_gap_next_to_a_space_glyph_compares_no_number() -> None:
    records = decisions(make_pdf([b"BT /F1 12 Tf 72 700 Td (A B) Tj ET"]))
    gaps = of_kind(records, WordGapDecision)
    assert [g.verdict for g in gaps] == ["existing_space", "existing_space"]
    for g in gaps:
        d = assert_protocol(g)
        assert d["value"] is None and d["threshold"] is None
        assert d["gap"] == 0.0 and d["space_threshold"] == pytest.approx(1.665)  # still kept


def test_negative_gap_is_compared_with_the_same_threshold() -> None:
    (wg,) = of_kind(decisions(make_pdf([b"BT /F1 12 Tf 72 700 Td [(A) 100 (B)] TJ ET"])), WordGapDecision)
    assert wg.verdict == "negative_gap"
    assert wg.value == pytest.approx(-1.2) and wg.threshold == pytest.approx(1.665)


# ---------------------------------------------------------------- passes (spec §5, §7)


def test_cull_reports_the_box_centre_and_the_visible_box() -> None:
    pdf = make_pdf([b"BT /F1 12 Tf 400 700 Td (A) Tj ET"], crop_box=[0, 0, 300, 300])
    (cull,) = of_kind(decisions(pdf), CullDecision)
    assert cull.glyph == 0 and cull.verdict == "culled"
    centre = (400 + A_ADVANCE_12 / 2, 700 + 12 * (0.718 - 0.207) / 2)
    assert cull.value == pytest.approx(centre)
    assert cull.threshold == (0, 0, 300, 300)
    d = assert_protocol(cull)
    assert d["glyph"] == 0
    assert d["value"] == pytest.approx(list(centre), abs=1e-4) and d["threshold"] == [0, 0, 300, 300]


def test_duplicate_reports_its_offsets_and_the_tolerances() -> None:
    pdf = make_pdf([b"BT /F1 12 Tf 100 700 Td (A) Tj ET BT /F1 12 Tf 100.5 700.3 Td (A) Tj ET"])
    (dup,) = of_kind(decisions(pdf), DuplicateDecision)
    assert (dup.before, dup.after, dup.glyph, dup.duplicate_of) == (0, 1, 1, 0)
    assert dup.verdict == "duplicate"
    assert dup.value == pytest.approx((0.5, 0.3))
    assert dup.threshold == pytest.approx((0.1 * HELVETICA_12_HEIGHT, 0.2 * HELVETICA_12_HEIGHT))
    d = assert_protocol(dup)
    assert d["value"] == pytest.approx([0.5, 0.3]) and d["threshold"] == pytest.approx([1.11, 2.22])
    assert "glyph #1 dropped as a duplicate of glyph #0" in dup.describe()


# ---------------------------------------------------------------- forms and decoding


def test_form_glyphs_report_their_centre_against_the_form_bbox() -> None:
    pdf = pikepdf.new()
    form = form_xobject(pdf, b"BT /F9 10 Tf 5 5 Td (in) Tj 200 0 Td (out) Tj ET", bbox=(0, 0, 100, 100))
    make_pdf([b"BT /F1 10 Tf 300 700 Td (p) Tj ET /Fm Do"], xobjects={"/Fm": form}, pdf=pdf)
    records = of_kind(decisions(pdf), FormMembershipDecision)
    assert [(r.glyph, r.verdict) for r in records] == [
        (1, "in_form"),
        (2, "in_form"),
        (3, "outside_bbox"),
        (4, "outside_bbox"),
        (5, "outside_bbox"),
    ]
    bbox = ((0, 0), (100, 0), (100, 100), (0, 100))
    out = records[2]  # "o" at x = 205
    assert out.value == pytest.approx((205 + 0.556 * 10 / 2, 5 + 10 * (0.718 - 0.207) / 2))
    assert out.threshold == bbox
    d = assert_protocol(out)
    assert d["glyph"] == 3 and d["threshold"] == [[0, 0], [100, 0], [100, 100], [0, 100]]
    assert d["form_path"] == ["/Fm"]
    assert "outside its /BBox" in out.describe()


def test_fallback_and_unresolved_glyphs_name_the_decoding_outcome() -> None:
    pdf = make_pdf(
        [b"BT /F3 10 Tf 100 700 Td (ABC) Tj /F2 10 Tf <0001> Tj ET"],
        fonts={
            "/F3": simple_font_with_odd_differences,
            "/F2": lambda p: identity_h_font(p, tounicode=CODESPACE_ONLY),
        },
    )
    records = of_kind(decisions(pdf), DecodeFallbackDecision)
    assert [(r.glyph, r.verdict) for r in records] == [(0, "fallback"), (1, "fallback"), (3, "unresolved")]
    for r in records:
        d = assert_protocol(r)
        assert d["value"] is None and d["threshold"] is None
    assert records[0].to_json()["font_key"] == "/F3" and records[0].to_json()["code"] == 65
    assert "fallback guess read it as 'A'" in records[0].describe()
    assert "every step of the decoding chain failed" in records[2].describe()
    assert records[2].decode_source is DecodeSource.UNRESOLVED


# ---------------------------------------------------------------- vertical writing and every class


def test_column_change_reports_the_centre_against_the_column_span() -> None:
    f = GlyphFactory()
    f.vertical("語テ", 180, 700)
    f.vertical("日本", 200, 700)
    text = assemble(f.glyphs, "plain", visible_box=(0.0, 0.0, 612.0, 792.0))
    changes = text.decisions_of(ColumnChangeDecision)
    change = next(c for c in changes if c.verdict == "column_change")
    x0, x1 = change.threshold
    assert change.value == change.center_x and not (x0 <= change.value <= x1)
    same = next(c for c in changes if c.verdict == "same_column")
    x0, x1 = same.threshold
    assert x0 <= same.value <= x1
    assert_protocol(change)


SAMPLES: dict[type, Any] = {
    WordGapDecision: WordGapDecision(0, 1, "inserted", 2.0, 1.5, 0.15, 10.0),
    LineBreakDecision: LineBreakDecision(0, 1, "break", -14.0, 5.55, 0.5, 11.1, -3.0, -33.3),
    ColumnChangeDecision: ColumnChangeDecision(0, 1, "column_change", 1, 150.0, 170.0, 190.0),
    VerticalColumn: VerticalColumn(0, ((0, 0), (1, 0), (1, 1), (0, 1)), (3, 4)),
    LayoutGrid: LayoutGrid((1.0, 0.0), 6.0, 14.0, "median", 0.0),
    Baseline: Baseline(1, 700.0, ((0, 0), (1, 0), (1, 1), (0, 1)), (5, 6), 2, 28.0, 1),
    GridPlacement: GridPlacement(0, 5, 30.0, 5, 2, 3),
    ColumnSplit: ColumnSplit(3, 4, 40.0, 18.0, 3.0, 6.0, ((0, 0),) * 4, ((1, 1),) * 4),  # type: ignore[arg-type]
    TextColumn: TextColumn(0, ((0, 0), (1, 0), (1, 1), (0, 1)), 2, (7, 8)),
    StructureOrder: StructureOrder((0, 1), 10, 2, 12, 11),
    LigatureDecision: LigatureDecision(4, "\ufb01", "fi"),
    ArticleBeadRecord: ArticleBeadRecord(1, 0, 0, ((0, 0), (1, 0), (1, 1), (0, 1)), (5, 6)),
    ArticleOrderDecision: ArticleOrderDecision(2, 80, 100, 0.5),
    CullDecision: CullDecision(0, (404.0, 703.0), (0.0, 0.0, 300.0, 300.0)),
    DuplicateDecision: DuplicateDecision(1, 0, 0.5, -0.3, 11.1, 1.11, 2.22),
    FormMembershipDecision: FormMembershipDecision(2, ("/Fm",), "7 0 R", (5.0, 5.0), None, False),
    DecodeFallbackDecision: DecodeFallbackDecision(3, DecodeSource.UNRESOLVED, "/F2", 1, 2, ""),
    ActualTextDecision: ActualTextDecision(
        5, ActualTextSpan(5, 6, "12", "/ActualText", "/Span", 9, 9, ()), "12", "  ", (5, 6)
    ),
    # visibility
    InvisibleModeDecision: InvisibleModeDecision(0, False, 3),
    ClippedDecision: ClippedDecision(0, True, (5.0, 5.0), (0.0, 0.0, 1.0, 1.0), "W", 2, 2, (), "bbox", 0),
    TransparentDecision: TransparentDecision(0, False, 0.0, ""),
    SameAsBackgroundDecision: SameAsBackgroundDecision(0, False, (1.0, 1.0, 1.0), (1.0, 1.0, 1.0)),
    CoveredDecision: CoveredDecision(0, False, (5.0, 5.0), (0.0, 0.0, 9.0, 9.0), "image", 7),
    # annotations
    AnnotationDecision: AnnotationDecision(
        Annotation(0, "12 0 R", "Widget", (10.0, 10.0, 90.0, 30.0), "person.name", "Tx", "Jane", "", None),
        AnnotationReason.DRAWN,
        3,
        4,
    ),
    # right to left
    BidiDecision: BidiDecision(0, 0, 13, 12, 8, 8, 0.5),
    # reading order, dedupe survivors, annotation places, comb fields
    ReadingOrderDecision: ReadingOrderDecision(8, 4, 0, 0.25, 3),
    SurvivorPlacement: SurvivorPlacement(7, 0),
    AnnotationPlacement: AnnotationPlacement(9, 3, 4),
    CombFieldDecision: CombFieldDecision(3, 4, 13.328, 20.0, 5),
    RtlRunOrder: RtlRunOrder(3, 12, 1),
    CoveredSpace: CoveredSpace(5, 1, (82.0, 85.34), (80.0, 91.33)),
}


def test_every_decision_class_satisfies_the_protocol() -> None:
    assert set(DECISION_RECORDS) == set(SAMPLES)  # a new record class needs a sample here
    for cls in DECISION_RECORDS:
        d = assert_protocol(SAMPLES[cls])
        assert {"kind", "verdict", "value", "threshold"} <= set(d)
    # the numbers of the pair records with a rule
    assert SAMPLES[LineBreakDecision].to_json()["value"] == 14.0
    assert (
        SAMPLES[ColumnSplit].to_json()["value"] == 40.0
        and SAMPLES[ColumnSplit].to_json()["threshold"] == 18.0
    )
    assert SAMPLES[ColumnChangeDecision].to_json()["threshold"] == [170.0, 190.0]
    assert SAMPLES[DuplicateDecision].to_json()["value"] == [0.5, 0.3]
    annotation = SAMPLES[AnnotationDecision].to_json()
    assert annotation["value"] == [10.0, 10.0, 90.0, 30.0] and annotation["verdict"] == "included"
    assert (annotation["glyph"], annotation["glyph_count"], annotation["field_name"]) == (3, 4, "person.name")
    assert (
        SAMPLES[DuplicateDecision].to_json()["along"] == 0.5
        and SAMPLES[DuplicateDecision].to_json()["across"] == -0.3
    )


def test_every_record_of_every_demo_page_and_mode_satisfies_the_protocol() -> None:
    doc = open_document(DEMO.read_bytes())
    seen: set[str] = set()
    for n in range(1, doc.page_count + 1):
        analysis = analyze_page(doc, n)
        for mode in MODES:
            for record in analysis.decisions(mode):
                assert type(record) in DECISION_RECORDS
                seen.add(assert_protocol(record)["kind"])
    assert {"word_gap", "line_break", "cull", "duplicate", "form_membership", "decode_fallback"} <= seen


# ---------------------------------------------------------------- the command line on the demo


def test_decisions_json_of_demo_page_1_reports_the_displacement_not_the_gap() -> None:
    doc = open_document(DEMO.read_bytes())
    first = next(d for d in page_decisions_json(doc, 1)["decisions"] if d["verdict"] == "break")
    assert (first["before"], first["after"]) == (25, 26)
    assert first["value"] == 18.0 and first["threshold"] == pytest.approx(6.0125)
    assert first["displacement"] == -18.0 and first["gap"] == pytest.approx(-186.394)
    assert first["description"] == "line break: displacement 18.00 pt > 0.50 × 12.02 pt = 6.01 pt"


def test_decisions_command_json_on_demo_page_1() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope", "decisions", str(DEMO), "--page", "1", "--json"],
        cwd=REPO,
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    obj = json.loads(proc.stdout)
    # one page's decisions, whether the command lists them at the top or per page
    records = obj["decisions"] if "decisions" in obj else obj["pages"][0]["decisions"]
    breaks = [d for d in records if d["kind"] == "line_break" and d["verdict"] == "break"]
    assert breaks[0]["value"] == 18.0 and breaks[0]["threshold"] == pytest.approx(6.0125)
    for d in breaks:  # every break's value is |displacement| and exceeds its threshold
        assert d["value"] == abs(d["displacement"]) > d["threshold"]
    for d in records:
        assert {"kind", "verdict", "value", "threshold", "description"} <= set(d)
        assert ("before" in d and "after" in d) or "glyph" in d


# ---------------------------------------------------------------- finding repeat counts


def test_repeat_counts_are_taken_by_structured_key_not_by_substring() -> None:
    # /F1 (missing) three times and /F10 (missing) once: "/F1" is a substring of "/F10"
    pdf = make_pdf(
        [b"BT /F1 10 Tf 72 700 Td (a) Tj /F1 10 Tf (b) Tj /F1 10 Tf (c) Tj /F10 10 Tf (d) Tj ET"],
        fonts={"/F2": helvetica},
    )
    found = open_document(to_bytes(pdf)).interpret(1).diagnostics
    missing = {d.font_key: d for d in found if d.kind is DiagnosticKind.MISSING_FONT}
    assert missing["/F1"].count == 3 and missing["/F1"].message.endswith("(3 times)")
    assert missing["/F10"].count is None and "times" not in missing["/F10"].message
    assert (missing["/F1"].repeat_key, missing["/F10"].repeat_key) == ("/F1", "/F10")


def test_repeated_malformed_operators_keep_their_count() -> None:
    pdf = make_pdf([b"BT /F1 Tf /F1 Tf /F1 Tf /F1 10 Tf 100 700 Td (ok) Tj 12 Tm ET"])
    found = open_document(to_bytes(pdf)).interpret(1).diagnostics
    malformed = sorted((d.repeat_key, d.count) for d in found if d.kind is DiagnosticKind.MALFORMED_OPERATOR)
    assert malformed == [("'Tf' count", 3), ("'Tm' count", None)]
    tf = next(d for d in found if d.repeat_key == "'Tf' count")
    assert tf.message == "operator 'Tf' skipped: 1 operand(s), 2 expected (3 times)"
