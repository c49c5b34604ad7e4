"""Tiny PDFs built with pikepdf, one rule each (shared by the engine tests)."""

from __future__ import annotations

from typing import Any

import pikepdf


def helvetica(pdf: pikepdf.Pdf, base: str = "/Helvetica", encoding: str | None = "/WinAnsiEncoding") -> Any:
    d = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name(base))
    if encoding:
        d.Encoding = pikepdf.Name(encoding)
    return pdf.make_indirect(d)


def identity_h_font(pdf: pikepdf.Pdf, widths: list[Any] | None = None, tounicode: bytes | None = None) -> Any:
    """A non-embedded Type0 font with Identity-H and a ToUnicode CMap (CID = Unicode here)."""
    cid = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.CIDFontType2,
        BaseFont=pikepdf.Name("/ArialMT"),
        CIDSystemInfo=pikepdf.Dictionary(
            Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String("Identity"), Supplement=0
        ),
        DW=1000,
        FontDescriptor=pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.FontDescriptor,
                FontName=pikepdf.Name("/ArialMT"),
                Flags=32,
                FontBBox=[-665, -325, 2000, 1040],
                ItalicAngle=0,
                Ascent=905,
                Descent=-212,
                CapHeight=716,
                StemV=80,
            )
        ),
    )
    if widths is not None:
        cid.W = pikepdf.Array(widths)
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type0,
        BaseFont=pikepdf.Name("/ArialMT"),
        Encoding=pikepdf.Name("/Identity-H"),
        DescendantFonts=[pdf.make_indirect(cid)],
    )
    if tounicode is None:
        tounicode = identity_tounicode()
    font.ToUnicode = pdf.make_stream(tounicode)
    return pdf.make_indirect(font)


def identity_tounicode() -> bytes:
    """ToUnicode mapping 2-byte codes 0x0020–0x00FF and 0x4E00–0x9FFF to themselves."""
    return (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CMapName /Test-UCS def /CMapType 2 def\n"
        b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
        b"2 beginbfrange <0020> <00FF> <0020> <4E00> <9FFF> <4E00> endbfrange\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )


def make_pdf(
    pages: list[bytes],
    fonts: dict[str, Any] | None = None,
    *,
    media_box: list[float] | None = None,
    crop_box: list[float] | None = None,
    xobjects: dict[str, Any] | None = None,
    pdf: pikepdf.Pdf | None = None,
) -> pikepdf.Pdf:
    """A PDF whose pages draw the given content streams with shared resources.

    `fonts` values may be callables taking the pdf (to build indirect objects in it).
    """
    pdf = pdf or pikepdf.new()
    resolved = {}
    for key, value in (fonts or {"/F1": helvetica}).items():
        resolved[key] = value(pdf) if callable(value) else value
    resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(resolved))
    if xobjects:
        resources.XObject = pikepdf.Dictionary(
            {k: (v(pdf) if callable(v) else v) for k, v in xobjects.items()}
        )
    for content in pages:
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=media_box or [0, 0, 612, 792],
            Resources=resources,
            Contents=pdf.make_stream(content),
        )
        if crop_box:
            page.CropBox = crop_box
        pdf.pages.append(pikepdf.Page(page))
    return pdf


def to_bytes(pdf: pikepdf.Pdf) -> bytes:
    import io

    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


def truetype_program(
    cmap: dict[int, str],
    encoding_id: int,
    *,
    advance: int = 1000,
    ink_width: int = 900,
    family: str = "Test",
    keep_glyph_names: bool = False,
) -> bytes:
    """A TrueType program whose only cmap subtable is (3, `encoding_id`): code → glyph name, each
    glyph a box `ink_width` wide on an `advance` advance (units per em 1000)."""
    import io

    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    names = [".notdef", *sorted(set(cmap.values()))]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({})
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((0, 700))
    pen.lineTo((ink_width, 700))
    pen.closePath()
    glyph = pen.glyph()
    fb.setupGlyf({n: glyph for n in names})
    fb.setupHorizontalMetrics({n: (advance, 0) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost(keepGlyphNames=keep_glyph_names)
    sub = CmapSubtable.newSubtable(4)
    sub.platformID, sub.platEncID, sub.language = 3, encoding_id, 0
    sub.cmap = dict(cmap)
    fb.font["cmap"].tables = [sub]
    buf = io.BytesIO()
    fb.save(buf)
    return buf.getvalue()


def pdf_document(pdf: pikepdf.Pdf) -> Any:
    """The engine's Document of a pikepdf file built here."""
    from glyphscope.core.document import open_document

    return open_document(to_bytes(pdf))


def sideways_vertical_pdf(step: float) -> pikepdf.Pdf:
    """An Identity-V font whose glyphs are placed one by one along a horizontal line."""

    def font(pdf: pikepdf.Pdf) -> Any:
        f = identity_h_font(pdf, tounicode=identity_tounicode())
        f.Encoding = pikepdf.Name("/Identity-V")
        return f

    x = 100.0
    ops = ["BT /F1 12 Tf"]
    for code in ("0077", "0069", "006C", "006C"):  # w i l l
        ops.append(f"1 0 0 1 {x:.2f} 700 Tm <{code}> Tj")
        x += step if code == "006C" else 7.0
    ops.append("ET")
    return make_pdf([" ".join(ops).encode()], {"/F1": font})


# ------------------------------------------------------------------ annotation text between words (b)


def widget_page(content: bytes, rect: list[float], appearance: bytes, font: Any = None) -> bytes:
    """A page with `content` and one widget whose /AP /N draws `appearance` in `rect`."""
    pdf = make_pdf([content])
    w, h = rect[2] - rect[0], rect[3] - rect[1]
    ap = pdf.make_stream(appearance)
    ap.Type, ap.Subtype, ap.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, w, h]
    ap.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font(pdf) if font else helvetica(pdf)))
    widget = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=pikepdf.Name.Widget,
            Rect=rect,
            FT=pikepdf.Name.Btn,
            T=pikepdf.String("box"),
            AP=pikepdf.Dictionary(N=ap),
        )
    )
    pdf.pages[0].obj.Annots = pikepdf.Array([widget])
    pdf.Root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Array([widget]))
    return to_bytes(pdf)
