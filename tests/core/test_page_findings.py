"""One set of findings per page and one count per font: the page product makes them, every reader lists them.

A painted space inside a word and hidden text (page checks once made by
triage alone) are findings of `analyze_page(...).findings`, with their
numbers; `glyphscope diagnostics --json`, a triage row and the window's
Diagnostics list the same set. Per-font statistics are made once per
product and read by counts, findings, triage and `glyphscope fonts`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import glyphscope.core.font_stats as font_stats_module
from glyphscope.core.analysis import analyze_page, reassemble
from glyphscope.core.diagnostics import DiagnosticKind, Severity
from glyphscope.core.document import open_document
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.limits import Limits
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.triage import PageCollector, triage_file
from tests.cli_run import run_cli
from tests.pdfbuild import helvetica, identity_h_font, make_pdf, to_bytes

K = DiagnosticKind
# "Invoice" painted as "Inv", a space glyph, then kerned back by the space's width: no gap on the page.
PAINTED_SPACE = b"BT /F1 12 Tf 72 700 Td [(Inv) ( ) 278 (oice)] TJ ET"
WHITE_AND_CLIPPED = (
    b"q 1 g BT /F1 12 Tf 100 100 Td (ABCD) Tj ET Q "  # 4 white on white
    b"q 0 0 10 10 re W n BT /F1 12 Tf 100 300 Td (EF) Tj ET Q "  # 2 clipped
    b"BT /F1 12 Tf 100 500 Td (GHIJ) Tj ET"  # 4 visible
)
CODESPACE_ONLY = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
1 begincodespacerange <0000> <FFFF> endcodespacerange
endcmap CMapName currentdict /CMap defineresource pop end end"""


def write(tmp_path: Path, content: bytes, **kw: Any) -> Path:
    path = tmp_path / "page.pdf"
    path.write_bytes(to_bytes(make_pdf([content], **kw)))
    return path


def summary(kind: str, severity: str, count: int | None, glyphs: tuple[int, ...]) -> tuple[Any, ...]:
    return (kind, severity, count, glyphs)


def product_set(path: Path) -> set[tuple[Any, ...]]:
    found = analyze_page(open_document(path), 1).findings
    return {summary(d.kind.value, d.severity.value, d.count, d.glyphs) for d in found}


def cli_set(path: Path) -> tuple[set[tuple[Any, ...]], list[dict[str, Any]]]:
    code, out, _ = run_cli("diagnostics", str(path), "--json")
    assert code == 0
    (page,) = json.loads(out)["pages"]
    rows = page["diagnostics"]
    return {summary(d["kind"], d["severity"], d["count"], tuple(d["glyphs"])) for d in rows}, rows


def triage_set(path: Path) -> set[tuple[Any, ...]]:
    row = triage_file(path)
    return {summary(f.kind, f.severity, f.count, f.glyphs) for f in row.findings if f.page == 1}


def test_a_painted_space_is_a_product_finding_with_its_numbers_listed_alike_everywhere(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, PAINTED_SPACE)
    analysis = analyze_page(open_document(path), 1)
    (d,) = [d for d in analysis.findings if d.kind is K.PAINTED_SPACE_IN_WORD]
    glyphs = analysis.page.glyphs
    assert [glyphs[i].unicode for i in d.glyphs] == [" "] and d.glyphs == (3,) and d.count == 1
    assert d.severity is Severity.WARNING and "“Inv oice”" in d.message
    # the letters either side touch: gap 0 against word_gap × the taller letter's height
    height = max(glyphs[2].height, glyphs[4].height)
    assert d.measured == pytest.approx(0.0, abs=0.01)
    assert d.threshold == pytest.approx(round(DEFAULT_PARAMETERS.word_gap * height, 3))
    assert d.measured < d.threshold

    cli, rows = cli_set(path)
    assert (
        product_set(path) == cli == triage_set(path) == {summary("painted_space_in_word", "warning", 1, (3,))}
    )
    (row,) = rows
    assert (row["measured"], row["threshold"]) == (d.measured, d.threshold)


def test_hidden_text_findings_are_the_same_set_in_the_product_the_cli_and_triage(tmp_path: Path) -> None:
    path = write(tmp_path, WHITE_AND_CLIPPED)
    expected = {
        summary("hidden_text_same_as_background", "warning", 4, (0, 1, 2, 3)),
        summary("hidden_text_clipped", "warning", 2, (4, 5)),
    }
    cli, rows = cli_set(path)
    assert product_set(path) == cli == triage_set(path) == expected
    assert all("measured" not in r for r in rows)  # no rule compared a number for these


def test_the_windows_diagnostics_list_the_page_products_findings(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    from tests.gui_helpers import open_file

    path = write(tmp_path, PAINTED_SPACE + b" " + WHITE_AND_CLIPPED)
    open_file(qtbot, window, path)
    panel = window.diagnostics
    shown = {(d.kind, d.glyphs) for d in panel.findings}
    assert shown == {(d.kind, d.glyphs) for d in analyze_page(open_document(path), 1).findings}
    assert {K.PAINTED_SPACE_IN_WORD, K.HIDDEN_TEXT_CLIPPED, K.HIDDEN_TEXT_SAME_AS_BACKGROUND} <= {
        k for k, _ in shown
    }
    chosen = panel.select_finding("painted_space_in_word")
    assert chosen is not None and window.session.selection == frozenset(chosen.glyphs)


def test_a_painted_space_under_actual_text_follows_the_products_thresholds(tmp_path: Path) -> None:
    content = b"BT /F1 12 Tf 72 700 Td [(Inv)] TJ /Span <</ActualText <FEFF00AD> >> BDC [( ) 278] TJ EMC (oice) Tj ET"
    doc = open_document(write(tmp_path, content))
    assert not [d for d in analyze_page(doc, 1).findings if d.kind is K.PAINTED_SPACE_IN_WORD]
    raw = analyze_page(doc, 1, Parameters(actual_text=False)).findings
    assert [d.glyphs for d in raw if d.kind is K.PAINTED_SPACE_IN_WORD] == [(3,)]


# ---------------------------------------------------------------- per-font statistics


def two_fonts(tmp_path: Path) -> Path:
    """/F1 paints "ok" (resolved); /F2 paints three codes its ToUnicode does not cover."""
    return write(
        tmp_path,
        b"BT /F1 10 Tf 100 700 Td (ok) Tj /F2 10 Tf <000100020003> Tj ET",
        fonts={"/F1": helvetica, "/F2": lambda p: identity_h_font(p, tounicode=CODESPACE_ONLY)},
    )


def test_per_font_statistics_are_made_once_per_product_and_read_by_every_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = []
    real = font_stats_module.font_statistics

    def counted(page: Any) -> Any:
        made.append(page.page_number)
        return real(page)

    monkeypatch.setattr(font_stats_module, "font_statistics", counted)
    doc = open_document(two_fonts(tmp_path))
    analysis = analyze_page(doc, 1)
    _ = analysis.counts, analysis.findings, analysis.fonts
    tuned = reassemble(analysis, Parameters(word_gap=0.3))
    _ = tuned.counts, tuned.findings, tuned.fonts
    PageCollector(doc, DEFAULT_PARAMETERS).add(tuned)
    assert made == [1]  # one count for the page, whatever read it and under whichever thresholds
    assert tuned.fonts is analysis.fonts

    f1, f2 = analysis.fonts.entries
    assert (f1.page_font.font_key, f1.selected.glyphs, f1.selected.unresolved) == ("/F1", (0, 1), ())
    assert (f2.page_font.font_key, f2.selected.glyphs, f2.selected.unresolved) == (
        "/F2",
        (2, 3, 4),
        (2, 3, 4),
    )
    assert f2.font.sources == {DecodeSource.UNRESOLVED: 3}
    counts = analysis.counts
    assert (counts.unresolved, counts.fonts_lost) == (3, frozenset({f2.page_font.info.font_id}))
    assert counts.fonts_used == frozenset({f1.page_font.info.font_id, f2.page_font.info.font_id})
    (lost,) = [d for d in analysis.findings if d.kind is K.UNRESOLVED_GLYPHS]
    assert (lost.font_key, lost.glyphs, lost.count) == ("/F2", f2.font.unresolved, 3)
    assert lost.severity is Severity.ERROR  # 3 of 3 over the 20 % share


def test_glyphscope_fonts_reports_the_products_per_font_numbers(tmp_path: Path) -> None:
    path = two_fonts(tmp_path)
    code, out, _ = run_cli("fonts", str(path), "--page", "1", "--json")
    assert code == 0
    fonts = {f["font_key"]: f for f in json.loads(out)["fonts"]}
    assert (fonts["/F1"]["glyphs"], fonts["/F1"]["unresolved"]) == (2, 0)
    assert (fonts["/F2"]["glyphs"], fonts["/F2"]["unresolved"]) == (3, 3)
    assert fonts["/F2"]["decode_sources"] == {"unresolved": 3}


def test_a_glyph_budget_cuts_the_product_and_every_finding_stays_on_its_glyphs(tmp_path: Path) -> None:
    doc = open_document(two_fonts(tmp_path))
    whole = analyze_page(doc, 1)
    cut = analyze_page(doc, 1, limits=Limits(page_glyphs=3))
    assert (whole.truncated, whole.glyphs_painted) == (False, 5)
    assert (cut.truncated, cut.glyphs_painted, len(cut.page.glyphs)) == (True, 5, 3)
    assert [e.selected.glyphs for e in cut.fonts.entries] == [(0, 1), (2,)]
    (lost,) = [d for d in cut.findings if d.kind is K.UNRESOLVED_GLYPHS]
    assert (lost.glyphs, lost.count) == ((2,), 1)
    assert all(i < 3 for d in cut.findings for i in d.glyphs)
    assert doc.interpret(1).glyphs is whole.page.glyphs  # the document's page stays whole
