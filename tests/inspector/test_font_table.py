"""The per-font code table: code → glyph name → CID/GID → Unicode with each step's source, and the width."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pikepdf

from glyphscope.core.analysis import analyze_page
from glyphscope.core.document import open_document
from glyphscope.core.fonts.explain import NOT_REACHED
from glyphscope.core.glyph import DecodeSource
from glyphscope.inspector.views.fonts import font_code_rows, uniform_columns
from tests.pdfbuild import identity_h_font, make_pdf, to_bytes


def simple_font(pdf: pikepdf.Pdf) -> Any:
    """Helvetica, WinAnsi base, /Differences 1 /g1 (not a glyph-list name) and 2 /A, /Widths from 1."""
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type1,
            BaseFont=pikepdf.Name("/Helvetica"),
            FirstChar=1,
            LastChar=3,
            Widths=[500, 667, 600],
            Encoding=pikepdf.Dictionary(
                Type=pikepdf.Name.Encoding,
                BaseEncoding=pikepdf.Name.WinAnsiEncoding,
                Differences=[1, pikepdf.Name("/g1"), pikepdf.Name("/A")],
            ),
        )
    )


def simple_pdf() -> bytes:
    return to_bytes(make_pdf([b"BT /F1 10 Tf 50 700 Td (\x01\x02\x02a) Tj ET"], {"/F1": simple_font}))


def rows_of(data: bytes) -> tuple[Any, dict[str, Any]]:
    doc = open_document(data)
    analysis = analyze_page(doc, 1)
    rows, problem = font_code_rows(doc, analysis, analysis.fonts.entries[0])
    assert problem is None
    return analysis.page, {r.code: r for r in rows}


def test_simple_font_rows_code_name_unicode_width() -> None:
    _, rows = rows_of(simple_pdf())
    assert list(rows) == ["<01>", "<02>", "<61>"]
    a = rows["<02>"]
    assert a.count == 2 and a.paint_indices == (1, 2)
    e = a.explanation
    assert (e.glyph_name, e.glyph_name_source) == ("A", "Differences")
    assert (e.unicode, e.source) == ("A", DecodeSource.DIFFERENCES) == (a.engine_unicode, a.engine_source)
    assert e.width == 0.667 and e.width_source == "/Widths[1] (FirstChar 1)"
    assert e.cid is None and e.gid is None
    # Short cells for a narrow dock; where each value came from, column by column, for its tooltip.
    assert a.cells() == ("<02>", "2", "/A", "—", "—", "U+0041 “A”", "Differences", "667")
    assert a.sources() == ("", "", "Differences", "", "", "", "", "/Widths[1] (FirstChar 1)")
    low = rows["<61>"].explanation
    assert (low.glyph_name, low.glyph_name_source, low.unicode) == ("a", "WinAnsiEncoding", "a")
    assert low.source is DecodeSource.BASE_ENCODING
    # Outside /Widths (FirstChar 1, 3 entries): the width did not come from the array.
    assert low.width_source.startswith("outside /Widths")
    assert [s.name for s in low.steps] == [
        "ToUnicode",
        "Differences",
        "base encoding",
        "font program",
        "guess",
    ]
    assert [s.answered for s in low.steps] == [False, False, True, False, False]
    assert low.steps[2].outcome == "WinAnsiEncoding: /a → U+0061 “a”"
    assert low.steps[3].outcome == low.steps[4].outcome == NOT_REACHED


def test_unresolved_glyph_lists_every_step_and_what_it_gave() -> None:
    _, rows = rows_of(simple_pdf())
    row = rows["<01>"]
    e = row.explanation
    assert e.unresolved and row.engine_source is DecodeSource.UNRESOLVED and row.engine_unicode == ""
    assert [(s.name, s.outcome, s.answered) for s in e.steps] == [
        ("ToUnicode", "the font has no /ToUnicode", False),
        ("Differences", "/g1 is not in the Adobe Glyph List (nor uniXXXX/uXXXX)", False),
        ("base encoding", "skipped: /Differences gave this code another glyph", False),
        ("font program", "not tried: the font is not symbolic and has an encoding table", False),
        ("guess", "no guess applies (the font's tables are trusted for this code)", False),
    ]
    assert row.chain_text()[1] == "✗ Differences: /g1 is not in the Adobe Glyph List (nor uniXXXX/uXXXX)"
    assert row.cells()[5] == row.cells()[6] == "UNRESOLVED"


def test_columns_with_one_value_in_every_row_are_said_once() -> None:
    _, rows = rows_of(simple_pdf())
    # A simple font: no CID or GID in any row; its three codes decoded three ways.
    assert uniform_columns(list(rows.values())) == {"CID": "—", "GID": "—"}
    # One code: its glyph name stays (a value), its one decoding step is said once above the table.
    assert uniform_columns([rows["<02>"]]) == {"CID": "—", "GID": "—", "Decoded by": "Differences"}
    assert uniform_columns([]) == {}


def test_composite_font_rows_cid_and_w_width() -> None:
    font = lambda pdf: identity_h_font(pdf, widths=[0x41, [700]])  # noqa: E731
    data = to_bytes(make_pdf([b"BT /F1 10 Tf 50 700 Td <00410042> Tj ET"], {"/F1": font}))
    _, rows = rows_of(data)
    a, b = rows["<0041>"].explanation, rows["<0042>"].explanation
    assert (a.cid, a.cid_source, a.code_bytes) == (0x41, "Identity-H", 2)
    assert (a.gid, a.gid_source) == (0x41, "GID = CID (Identity)")
    assert (a.unicode, a.source) == ("A", DecodeSource.TOUNICODE)
    assert a.steps[0].answered and a.steps[0].outcome == "<0041> → U+0041 “A”"
    assert (a.width, a.width_source) == (0.7, "/W entry for CID 65")
    assert (b.width, b.width_source) == (1.0, "/DW (1000)")


def test_missing_font_object_is_a_message_not_a_crash() -> None:
    doc = open_document(simple_pdf())
    analysis = analyze_page(doc, 1)
    entry = analysis.fonts.entries[0]
    bad = replace(entry, page_font=replace(entry.page_font, font_key="/F9"))
    rows, problem = font_code_rows(doc, analysis, bad)
    assert rows == [] and problem == "font /F9 is not in the resources of the page"


def test_fonts_panel_lists_codes_and_the_chain_of_a_clicked_unresolved_glyph(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    from tests.gui_helpers import open_file

    path = tmp_path / "codes.pdf"
    path.write_bytes(simple_pdf())
    open_file(qtbot, window, path)
    panel = window.fonts
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=30_000)
    panel.select_font("/F1")
    assert panel.codes_model.rowCount() == 3
    # Selecting the unresolved glyph (as a canvas click does) shows its code row and every step.
    window.session.select([0], "canvas")
    assert panel.codes.currentIndex().row() == 0
    text = panel.chain.toPlainText()
    assert "UNRESOLVED: every step of the chain failed" in text
    assert "/g1 is not in the Adobe Glyph List" in text and "the font has no /ToUnicode" in text
    # Selecting a code row selects its glyphs.
    panel.codes.selectRow(1)
    assert window.session.selection == frozenset({1, 2})
