"""The one rule for whether the page's ink is evidence about a font's codes
(core.fonts.common.substitute_reason, kept in FontInfo.substitute when the font loads).

A font that is not embedded is drawn by a renderer's substitute through glyph names: a plain text
font (not symbolic) with a standard encoding and standard /Differences names is drawn as the very
letters its codes are encoded as, so its ink is evidence; a symbolic font, glyph names with no
standard meaning, a non-standard encoding or a composite (Type0) font are drawn as something else."""

from __future__ import annotations

from typing import Any

import pikepdf
import pytest

from glyphscope.core.document import open_document
from glyphscope.core.fonts.base import FontInfo
from glyphscope.core.fonts.common import (
    SUBSTITUTE_CID,
    SUBSTITUTE_SYMBOLIC,
    drawn_by_substitute,
    substitute_reason,
)
from tests.pdfbuild import identity_h_font, make_pdf, to_bytes, truetype_program


def test_the_rule_by_its_facts() -> None:
    # the ink is evidence
    assert substitute_reason("TrueType", "ArialMT", False, base_encoding="WinAnsiEncoding") is None
    assert substitute_reason("TrueType", "TimesNewRomanPSMT", False, base_encoding="MacRomanEncoding") is None
    assert substitute_reason("Type1", "ABCDEF+Garamond", False) is None  # no /Encoding: StandardEncoding
    assert (
        substitute_reason(
            "TrueType",
            "CenturyGothic",
            False,
            base_encoding="WinAnsiEncoding",
            glyph_names=["Adieresis", "uni0142"],
        )
        is None
    )
    assert substitute_reason("Type1", "Symbol", False, symbolic=True) is None  # standard 14: drawn by name
    assert substitute_reason("Type3", "", False) is None  # its procedures are in the file
    assert substitute_reason("Type0", "ArialMT", True) is None  # embedded: its own glyphs
    # the ink is a substitute's drawing of something else
    assert substitute_reason("Type0", "ArialMT", False) == SUBSTITUTE_CID
    assert substitute_reason("TrueType", "ArialMT", False, symbolic=True) == SUBSTITUTE_SYMBOLIC
    assert substitute_reason("TrueType", "Wingdings-Regular", False) == SUBSTITUTE_SYMBOLIC  # by its family
    assert substitute_reason(
        "TrueType", "ArialMT", False, glyph_names=["g12", "A", "g3", "cid00042", "g7"]
    ) == (
        "a font that is not embedded whose /Differences use glyph names with no standard meaning "
        "(/cid00042, /g12, /g3 …)"
    )
    assert substitute_reason("Type1", "Garamond", False, base_encoding="MacExpertEncoding") == (
        "a font that is not embedded, with the non-standard encoding /MacExpertEncoding "
        "(its codes name no standard glyph)"
    )


def _simple(
    pdf: pikepdf.Pdf,
    base: str,
    subtype: str = "/TrueType",
    *,
    encoding: Any = pikepdf.Name.WinAnsiEncoding,
    flags: int | None = 32,
    program: bytes | None = None,
) -> Any:
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name(subtype), BaseFont=pikepdf.Name(base)
    )
    if encoding is not None:
        font.Encoding = encoding
    if flags is not None:
        descriptor = pikepdf.Dictionary(
            Type=pikepdf.Name.FontDescriptor,
            FontName=pikepdf.Name(base),
            Flags=flags,
            FontBBox=[0, -200, 1000, 800],
            ItalicAngle=0,
            Ascent=800,
            Descent=-200,
            CapHeight=700,
            StemV=80,
        )
        if program is not None:
            descriptor.FontFile2 = pdf.make_stream(program)
        font.FontDescriptor = pdf.make_indirect(descriptor)
    return pdf.make_indirect(font)


def _differences(names: list[str]) -> pikepdf.Dictionary:
    return pikepdf.Dictionary(
        Type=pikepdf.Name.Encoding,
        BaseEncoding=pikepdf.Name.WinAnsiEncoding,
        Differences=[65, *[pikepdf.Name("/" + n) for n in names]],
    )


CASES: dict[str, tuple[Any, str | None]] = {
    "arial_winansi": (lambda pdf: _simple(pdf, "/ArialMT"), None),
    "times_standard14": (lambda pdf: _simple(pdf, "/Times-Roman", "/Type1", flags=None), None),
    "garamond_no_encoding": (lambda pdf: _simple(pdf, "/Garamond", "/Type1", encoding=None), None),
    "gothic_macroman_differences": (
        lambda pdf: _simple(
            pdf, "/CenturyGothic", encoding=_differences(["Adieresis", "Odieresis", "uni0142"])
        ),
        None,
    ),
    "arial_symbolic": (lambda pdf: _simple(pdf, "/ArialMT", flags=4), SUBSTITUTE_SYMBOLIC),
    "wingdings": (lambda pdf: _simple(pdf, "/Wingdings-Regular"), SUBSTITUTE_SYMBOLIC),
    "arial_odd_names": (
        lambda pdf: _simple(pdf, "/ArialMT", encoding=_differences(["g12", "g13", "B"])),
        "a font that is not embedded whose /Differences use glyph names with no standard meaning (/g12, /g13)",
    ),
    "type0_not_embedded": (lambda pdf: identity_h_font(pdf), SUBSTITUTE_CID),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_font_kind_loaded_from_a_pdf(case: str) -> None:
    build, expected = CASES[case]
    pdf = pikepdf.new()
    content = b"BT /F1 20 Tf 72 700 Td <4142> Tj ET"
    data = to_bytes(make_pdf([content], {"/F1": build}, pdf=pdf))
    with open_document(data) as doc:
        (pf,) = doc.interpret(1).fonts
    assert not pf.info.embedded
    assert pf.info.substitute == expected
    assert drawn_by_substitute(pf.info) is (expected is not None)


def test_an_embedded_symbolic_font_draws_its_own_glyphs() -> None:
    program = truetype_program({0xF041: "A", 0xF042: "B"}, 0)
    pdf = pikepdf.new()
    data = to_bytes(
        make_pdf(
            [b"BT /F1 20 Tf 72 700 Td (AB) Tj ET"],
            {"/F1": lambda pdf: _simple(pdf, "/ABCDEF+Wingdings", flags=4, program=program)},
            pdf=pdf,
        )
    )
    with open_document(data) as doc:
        (pf,) = doc.interpret(1).fonts
    assert pf.info.embedded and pf.info.substitute is None and not drawn_by_substitute(pf.info)


def test_a_font_that_could_not_be_read_is_no_evidence() -> None:
    info = FontInfo(
        "1 0 R", "TrueType", "X", "none", False, 0, "none", 0, substitute="a font that could not be read"
    )
    assert drawn_by_substitute(info)
