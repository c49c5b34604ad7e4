"""Bad input is normal input: damaged and hostile files never escape as exceptions."""

from __future__ import annotations

import random

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.document import open_document
from glyphscope.core.errors import GlyphscopeError
from glyphscope.core.findings import page_findings
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
