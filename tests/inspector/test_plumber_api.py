"""pdfplumber's names mean what pdfplumber's mean (glyphscope/model.py, glyphscope/records.py).

Small PDFs built with pikepdf; every char, word and shape is compared with pdfplumber 0.11's
own reading of the same bytes where pdfplumber is installed, and with numbers worked out by
hand from the content stream everywhere.
"""

from __future__ import annotations

import io

import pikepdf
import pytest

import glyphscope
from glyphscope.records import Char
from tests.pdfbuild import make_pdf, to_bytes

# Helvetica 12 pt at y 700 and 500; the MediaBox starts at (34.5, 100): pdfplumber's x0 keeps
# the offset, its top is the MediaBox height − y.
OFFSET_MEDIA = [34.5, 100.0, 646.5, 892.0]
TEXT = b"BT /F1 12 Tf 100 700 Td [(Hello) -300 (world)] TJ ET BT /F1 12 Tf 0 0 1 rg 2 Tr 1 0 0 RG 100 500 Td (Other) Tj ET"
DRAWING = (
    b"q 1 0 0 RG 2 w 50 150 m 300 150 l S Q "  # a line
    b"q 0 0 1 rg 60 200 100 40 re f Q "  # a filled rect
    b"q 0.5 g 200 300 m 250 350 300 300 350 350 c S Q "  # a curve
    b"q 400 400 m 500 400 l 450 480 l h B Q"  # a closed triangle: a curve to pdfminer
)
HELVETICA_DESCENT = 0.207


def _pdf(content: bytes = TEXT, **boxes: list[float]) -> bytes:
    return to_bytes(make_pdf([content], **boxes))


def _plumber() -> object:
    return pytest.importorskip("pdfplumber")


# ---------------------------------------------------------------- records are mappings


def test_a_char_is_a_mapping_and_an_object_with_pdfplumbers_keys() -> None:
    with glyphscope.open(_pdf()) as doc:
        c = doc.pages[0].chars[0]
        assert isinstance(c, Char)
        assert c["text"] == c.text == "H"
        assert c.get("size") == c.size == pytest.approx(12.0)
        for key in [
            "text",
            "fontname",
            "size",
            "x0",
            "x1",
            "top",
            "bottom",
            "doctop",
            "upright",
            "matrix",
            "width",
            "height",
            "adv",
            "page_number",
            "ncs",
            "stroking_color",
            "non_stroking_color",
        ]:
            assert key in c and c[key] == getattr(c, key)
        assert dict(c)["fontname"] == "Helvetica"
        with pytest.raises(KeyError):
            c["no such key"]
        # pdfplumber's definitions, worked out by hand: the baseline at y 700 on a 792 pt page
        assert c.bottom == pytest.approx(792.0 - 700.0 + HELVETICA_DESCENT * 12.0)
        assert c.top == pytest.approx(c.bottom - c.size)
        assert c.x1 - c.x0 == pytest.approx(0.722 * 12.0) == c.adv  # Helvetica "H" is 722 units
        assert c.matrix == pytest.approx((1.0, 0.0, 0.0, 1.0, 100.0, 700.0))
        assert c.upright is True
        # glyphscope's own box (the font's ascent to descent) keeps its own names
        assert c.glyph_height == pytest.approx((0.718 + HELVETICA_DESCENT) * 12.0)
        assert c.glyph_box[3] == pytest.approx(c.bottom)


def test_chars_match_pdfplumber_in_its_frame_on_an_offset_media_box() -> None:
    pdfplumber = _plumber()
    data = _pdf(media_box=OFFSET_MEDIA)
    keys = ("text", "fontname", "size", "x0", "x1", "top", "bottom", "doctop", "width", "height", "adv")
    with pdfplumber.open(io.BytesIO(data)) as theirs, glyphscope.open(data, coordinates="pdfplumber") as ours:
        tp, op = theirs.pages[0], ours.pages[0]
        assert op.bbox == pytest.approx(tp.bbox)
        assert (op.width, op.height) == pytest.approx((tp.width, tp.height))
        assert len(tp.chars) == len(op.chars) == 15
        for t, o in zip(tp.chars, op.chars, strict=True):
            for key in keys:
                assert o[key] == pytest.approx(t[key], abs=1e-6), key
            assert o.matrix == pytest.approx(t["matrix"])
            assert o.upright == t["upright"]
            assert o.ncs == t["ncs"]
            for key in ("non_stroking_color", "stroking_color"):  # older pdfminer: None for the default
                if t[key] is not None:
                    assert tuple(o[key]) == pytest.approx(tuple(t[key])), key
        assert op.chars[-1].non_stroking_color == (0.0, 0.0, 1.0)  # "Other" is blue, stroked red
        assert op.chars[-1].stroking_color == (1.0, 0.0, 0.0)
        assert op.chars[0].x0 == pytest.approx(100.0)  # the offset kept: user x itself
    with glyphscope.open(data) as visible:
        assert visible.pages[0].chars[0].x0 == pytest.approx(100.0 - 34.5)  # the displayed page's x


# ---------------------------------------------------------------- closed documents


def test_a_closed_document_raises_value_error_on_every_read() -> None:
    doc = glyphscope.open(_pdf())
    page = doc.pages[0]
    words = page.words
    assert [w.text for w in words] == ["Hello", "world", "Other"]
    doc.close()
    assert doc.closed
    reads = [
        lambda: page.chars,
        lambda: page.extract_text(),
        lambda: page.words,
        lambda: page.rects,
        lambda: page.to_image(),
        lambda: doc.pages[0],
        lambda: list(doc.pages),
        lambda: doc.extract_text(),
        lambda: doc.metadata,
        lambda: doc.document.interpret(1),
    ]
    for read in reads:
        with pytest.raises(ValueError, match="closed"):
            read()
    with glyphscope.open(_pdf()) as inside:
        kept = inside.pages[0]
    with pytest.raises(ValueError, match="closed"):
        kept.extract_text()


# ---------------------------------------------------------------- drawing


def test_rects_lines_and_curves_are_pdfplumbers() -> None:
    data = _pdf(DRAWING)
    with glyphscope.open(data) as doc:
        page = doc.pages[0]
        assert [s.object_type for s in page.lines] == ["line"]
        line = page.lines[0]
        assert (line.x0, line.top, line.x1, line.bottom) == pytest.approx((50.0, 642.0, 300.0, 642.0))
        assert line.linewidth == 2.0 and line.stroke and not line.fill
        assert line.stroking_color == (1.0, 0.0, 0.0)
        (rect,) = page.rects
        assert rect.bbox == pytest.approx((60.0, 792.0 - 240.0, 160.0, 792.0 - 200.0))
        assert (rect.width, rect.height) == pytest.approx((100.0, 40.0))
        assert rect.fill and not rect.stroke and rect.non_stroking_color == (0.0, 0.0, 1.0)
        assert [c.object_type for c in page.curves] == ["curve", "curve"]
        assert page.curves[0].non_stroking_color == (0.5,)
        with pytest.raises(AttributeError, match="text_lines"):
            line.text  # noqa: B018 - the old meaning of page.lines says where it went
        assert set(page.objects) == {"char", "rect", "line", "curve", "image"}
    pdfplumber = _plumber()
    with pdfplumber.open(io.BytesIO(data)) as theirs, glyphscope.open(data) as ours:
        for kind in ("rects", "lines", "curves"):
            t, o = getattr(theirs.pages[0], kind), getattr(ours.pages[0], kind)
            assert len(t) == len(o), kind
            for a, b in zip(t, o, strict=True):
                for key in ("x0", "x1", "top", "bottom", "stroke", "fill"):
                    assert b[key] == pytest.approx(a[key]), (kind, key)
                # the `w` operand where the stream sets one; without, the PDF default 1.0 where
                # pdfminer starts from 0 (docs/pdfplumber.md)
                assert b.linewidth == (a["linewidth"] if kind == "lines" else 1.0)
                assert [v for p in b.pts for v in p] == pytest.approx([v for p in a["pts"] for v in p])


def test_images_annots_hyperlinks_and_metadata() -> None:
    pdf = make_pdf([b"q 100 0 0 50 72 600 cm /Im0 Do Q " + TEXT])
    image = pikepdf.Stream(pdf, b"\xff\x00\x00" * 4)
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width, image.Height, image.BitsPerComponent = 2, 2, 8
    image.ColorSpace = pikepdf.Name.DeviceRGB
    page = pdf.pages[0]
    page.Resources.XObject = pikepdf.Dictionary(Im0=image)
    link = pikepdf.Dictionary(
        Type=pikepdf.Name.Annot,
        Subtype=pikepdf.Name.Link,
        Rect=[100, 690, 160, 712],
        A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("https://example.org/")),
    )
    note = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Text, Rect=[10, 10, 30, 30])
    page.Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(link), pdf.make_indirect(note)]))
    pdf.docinfo["/Title"] = "A title"
    pdf.docinfo["/Producer"] = "pikepdf"
    data = to_bytes(pdf)
    with glyphscope.open(data) as doc:
        p = doc.pages[0]
        (im,) = p.images
        assert im.bbox == pytest.approx((72.0, 792.0 - 650.0, 172.0, 792.0 - 600.0))
        assert (im.name, im.srcsize, im.bits, im.colorspace) == ("Im0", (2, 2), 8, "DeviceRGB")
        assert [a.subtype for a in p.annots] == ["Link", "Text"]
        (hyperlink,) = p.hyperlinks
        assert hyperlink.uri == "https://example.org/"
        assert hyperlink.bbox == pytest.approx((100.0, 80.0, 160.0, 102.0))
        assert doc.metadata["Title"] == "A title" and doc.metadata["Producer"] == "pikepdf"


# ---------------------------------------------------------------- words, search, filter, regions


def test_extract_words_with_tolerances_follows_pdfplumber() -> None:
    pdfplumber = _plumber()
    data = _pdf()
    with pdfplumber.open(io.BytesIO(data)) as theirs, glyphscope.open(data) as ours:
        for kwargs in ({"x_tolerance": 3}, {"x_tolerance": 1}, {"x_tolerance": 5, "keep_blank_chars": True}):
            t = theirs.pages[0].extract_words(**kwargs)
            o = ours.pages[0].extract_words(**kwargs)
            assert [w["text"] for w in o] == [w["text"] for w in t], kwargs
            for a, b in zip(t, o, strict=True):
                for key in ("x0", "x1", "top", "bottom", "doctop", "width", "height", "upright", "direction"):
                    assert b[key] == pytest.approx(a[key]), key
        # the gap is 3.6 pt: pdfplumber's default tolerance 3 splits, 4 joins
        assert [w.text for w in ours.pages[0].extract_words(x_tolerance=4)] == ["Helloworld", "Other"]
        assert [w.text for w in ours.pages[0].extract_words()] == ["Hello", "world", "Other"]  # the engine's
        by_font = ours.pages[0].extract_words(x_tolerance=3, extra_attrs=["fontname", "size"])
        assert by_font[0]["fontname"] == "Helvetica" and by_font[0]["size"] == pytest.approx(12.0)


def test_extract_words_chains_lines_as_pdfplumber_does() -> None:
    # A, B and C side by side, each raised 2.5 pt above the one before (Ts): their tops are 5 pt
    # apart end to end but 2.5 pt from one to the next, so pdfplumber's chained line clustering
    # keeps them on one line and its word rule (tops within 3 pt) in one word
    data = _pdf(b"BT /F1 10 Tf 100 700 Td (A) Tj 2.5 Ts (B) Tj 5 Ts (C) Tj ET")
    with glyphscope.open(data) as doc:
        page = doc.pages[0]
        tops = [c.top for c in page.chars]
        assert tops == pytest.approx([84.07, 81.57, 79.07], abs=0.01)
        (word,) = page.extract_words(x_tolerance=3, y_tolerance=3)
        assert word.text == "ABC" and word.top == pytest.approx(79.07, abs=0.01)
        # a y_tolerance below the 2.5 pt steps splits every char
        assert [w.text for w in page.extract_words(x_tolerance=3, y_tolerance=2)] == ["C", "B", "A"]
    pdfplumber = _plumber()
    with pdfplumber.open(io.BytesIO(data)) as theirs:
        assert [w["text"] for w in theirs.pages[0].extract_words(x_tolerance=3, y_tolerance=3)] == ["ABC"]
        assert [w["text"] for w in theirs.pages[0].extract_words(x_tolerance=3, y_tolerance=2)] == [
            "C",
            "B",
            "A",
        ]


def test_search_filter_and_outside_bbox() -> None:
    with glyphscope.open(_pdf()) as doc:
        page = doc.pages[0]
        (hit,) = page.search(r"o w")
        assert hit.text == "o w"
        assert [c.text for c in hit.chars] == ["o", "w"]  # the space is the engine's, no glyph
        assert hit.x0 == pytest.approx(page.chars[4].x0) and hit.x1 == pytest.approx(page.chars[5].x1)
        assert page.search("WORLD") == [] and len(page.search("WORLD", case=False)) == 1
        assert [m.text for m in page.search(".", regex=False)] == []
        (other,) = page.search(r"(Oth)(er)")
        assert other.groups == ("Oth", "er")
        hello = page.crop((90.0, 80.0, 250.0, 100.0))
        assert page.outside_bbox(hello.bbox).extract_text() == "Other"
        # the kept glyphs are assembled by the engine: the gaps the others leave are word gaps
        assert page.filter(lambda o: o["text"] in "Hlo").extract_text() == "H llo o l"
        assert page.filter(lambda o: o.get("non_stroking_color") == (0.0, 0.0, 1.0)).extract_text() == "Other"
        assert page.crop((10.0, 10.0, 20.0, 20.0), relative=True).bbox == (10.0, 10.0, 20.0, 20.0)


# ---------------------------------------------------------------- images


def test_to_image_reuses_a_warm_renderer_and_draws_lines() -> None:
    from glyphscope.inspector.render.renderer import render_service

    data = _pdf(DRAWING + b" " + TEXT)
    with glyphscope.open(data) as doc:
        page = doc.pages[0]
        first = page.to_image(resolution=36)
        service = render_service()
        processes = service.idle()
        starts = sum(p.starts for p in processes)
        again = page.to_image(resolution=36)
        assert sum(p.starts for p in service.idle()) == starts  # no new renderer process
        assert any(doc.render_key in p.loaded for p in service.idle())  # the document stays open there
        assert again.original.tobytes() == first.original.tobytes()
        assert again.original.size == (306, 396)
        before = again.annotated.copy()
        again.draw_lines(page.lines, stroke=(0, 255, 0), stroke_width=3)
        assert again.annotated.getpixel((round(175 / 2), round(642 / 2))) == (0, 255, 0)
        assert before.getpixel((round(175 / 2), round(642 / 2))) != (0, 255, 0)
        buffer = io.BytesIO()
        again.save(buffer)
        from PIL import Image

        saved = Image.open(io.BytesIO(buffer.getvalue()))
        assert saved.mode == "P" and saved.size == (306, 396)  # quantized, as pdfplumber saves
