"""The clipped-text finding names the clip of every run, not only the first glyph's."""

from __future__ import annotations

from glyphscope.core.analysis import analyze_page
from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from tests.pdfbuild import make_pdf, to_bytes

TWO_CLIPS = (
    b"q 0 0 10 10 re W n BT /F1 12 Tf 100 700 Td (Hidden) Tj ET Q\n"
    b"q 0 0 20 20 re W n BT /F1 12 Tf 100 600 Td (Other) Tj ET Q\n"
    b"BT /F1 12 Tf 100 500 Td (Shown) Tj ET"
)


def test_each_clip_is_named_with_its_glyphs() -> None:
    analysis = analyze_page(open_document(to_bytes(make_pdf([TWO_CLIPS]))), 1)
    (finding,) = [d for d in analysis.findings if d.kind is DiagnosticKind.HIDDEN_TEXT_CLIPPED]
    assert finding.count == 11
    assert "the path set at instruction 2 (W): 6 glyph(s)" in finding.message
    assert "the path set at instruction 12 (W): 5 glyph(s)" in finding.message


def test_one_clip_is_named_once() -> None:
    analysis = analyze_page(open_document(to_bytes(make_pdf([TWO_CLIPS.split(b"\n")[0]]))), 1)
    (finding,) = [d for d in analysis.findings if d.kind is DiagnosticKind.HIDDEN_TEXT_CLIPPED]
    assert finding.message.count("instruction 2") == 1
