"""The Python object model (glyphscope/model.py): open, pages, records, crops, texts, decisions.

Small PDFs built with pikepdf; every expectation is a number or a text worked out by hand
from the content stream.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pikepdf
import pytest

import glyphscope
from glyphscope.core.assembly.decisions import WordGapDecision
from glyphscope.core.geometry import Quad
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.page_space import display_matrix
from glyphscope.core.params import DEFAULT_PARAMETERS
from glyphscope.core.visibility_class import VisibilityClass
from glyphscope.model import Char, TextLine, Word
from tests.pdfbuild import make_pdf, to_bytes

# "Hello" and "world" with no space glyph between them: a TJ offset of 300/1000 em (3.6 pt
# at 12 pt) separates them, which only the word-gap rule turns into a space. A second line
# far below, which crops of the first must not see.
TWO_LINES = b"BT /F1 12 Tf 100 700 Td [(Hello) -300 (world)] TJ ET BT /F1 12 Tf 100 500 Td (Other) Tj ET"
HELLO_REGION = (90.0, 80.0, 250.0, 100.0)  # top-left coordinates on a 612 x 792 page: y 692..712


def _pdf(content: bytes = TWO_LINES, pages: int = 1, **boxes: list[float]) -> bytes:
    return to_bytes(make_pdf([content] * pages, **boxes))


def _rotated(data: bytes, rotate: int) -> bytes:
    pdf = pikepdf.open(io.BytesIO(data))
    for page in pdf.pages:
        page.obj["/Rotate"] = rotate
    return to_bytes(pdf)


def _top_left(quad: Quad, box: tuple[float, float, float, float], rotate: int) -> tuple[float, ...]:
    """The expected (x0, top, x1, bottom), worked out per rotation without the library's matrix."""
    bx0, by0, bx1, by1 = box
    if rotate == 0:
        pts = [(x - bx0, by1 - y) for x, y in quad]
    elif rotate == 90:  # turned clockwise: user y grows rightwards, user x downwards
        pts = [(y - by0, x - bx0) for x, y in quad]
    elif rotate == 180:
        pts = [(bx1 - x, y - by0) for x, y in quad]
    else:  # 270
        pts = [(by1 - y, bx1 - x) for x, y in quad]
    xs, ys = zip(*pts, strict=True)
    return (min(xs), min(ys), max(xs), max(ys))


# ---------------------------------------------------------------- opening


def test_open_reads_a_path_bytes_and_a_file_object_alike(tmp_path: Path) -> None:
    data = _pdf(pages=3)
    path = tmp_path / "three.pdf"
    path.write_bytes(data)
    texts = []
    for source in (path, str(path), data, io.BytesIO(data)):
        with glyphscope.open(source) as doc:
            texts.append([p.extract_text() for p in doc.pages])
    assert texts == [["Hello world\nOther"] * 3] * 4


def test_open_document_reads_a_binary_file_object_from_where_it_stands() -> None:
    data = _pdf(pages=2)
    stream = io.BytesIO(b"junk" + data)
    stream.seek(4)
    doc = glyphscope.open_document(stream)
    assert doc.page_count == 2
    assert doc.path is None
    doc.close()
    stream.close()  # read once and not kept: closing the caller's object is harmless


def test_open_document_says_a_text_stream_is_the_wrong_kind_of_file() -> None:
    with pytest.raises(TypeError, match="binary mode"):
        glyphscope.open_document(io.StringIO("%PDF-1.7"))  # type: ignore[arg-type]


def test_the_context_manager_closes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "held.pdf"
    path.write_bytes(_pdf())

    def held() -> bool:
        fds = Path("/proc/self/fd")
        return any(os.path.realpath(fd) == str(path.resolve()) for fd in fds.iterdir() if fd.is_symlink())

    if not Path("/proc/self/fd").exists():
        pytest.skip("needs /proc to see open files")
    with glyphscope.open(path) as doc:
        assert doc.pages[0].extract_text() == "Hello world\nOther"
        assert held()
    assert not held()


# ---------------------------------------------------------------- pages


def test_pages_are_a_sequence_indexed_from_zero() -> None:
    with glyphscope.open(_pdf(pages=5)) as doc:
        pages = doc.pages
        assert len(pages) == 5
        assert pages[0].page_number == 1
        assert pages[-1].page_number == 5
        assert [p.page_number for p in pages[1:4]] == [2, 3, 4]
        assert [p.page_number for p in pages[::2]] == [1, 3, 5]
        assert [p.page_number for p in pages] == [1, 2, 3, 4, 5]
        with pytest.raises(IndexError, match="out of range"):
            pages[5]


# ---------------------------------------------------------------- coordinates


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_char_boxes_are_the_quad_in_top_left_coordinates_on_an_offset_rotated_page(rotate: int) -> None:
    media = [50.0, 100.0, 662.0, 892.0]
    content = b"BT /F1 12 Tf 100 700 Td (Hi) Tj ET BT /F1 12 Tf 300 400 Td (there) Tj ET"
    data = _rotated(_pdf(content, media_box=media), rotate)
    with glyphscope.open(data) as doc:
        page = doc.pages[0]
        assert page.rotation == rotate
        assert (page.width, page.height) == ((612.0, 792.0) if rotate in (0, 180) else (792.0, 612.0))
        chars = page.chars
        assert "".join(c.text for c in chars) == "Hithere"
        for c in chars:
            expected = _top_left(c.quad, tuple(media), rotate)  # type: ignore[arg-type]
            assert c.glyph_box == pytest.approx(expected)  # glyphscope's own box: the quad's
            assert 0 <= c.x0 < c.x1 <= page.width and 0 <= c.top < c.bottom <= page.height
            # pdfplumber's box: the same advance, one em (12 pt) from Helvetica's descent (-0.207 em)
            if rotate in (0, 180):
                assert (c.x0, c.x1) == pytest.approx(expected[::2][:1] + expected[2:3])
                assert c.bottom - c.top == pytest.approx(12.0) == c.size
            else:
                assert (c.top, c.bottom) == pytest.approx((expected[1], expected[3]))
                assert c.x1 - c.x0 == pytest.approx(12.0)
        h = chars[0]
        assert h.quad[0][0] == pytest.approx(100.0)  # the origin's x, in user space
        assert h.fontname == "Helvetica"
        assert h.font_size == 12.0
        assert h.decode_source is DecodeSource.BASE_ENCODING
        assert h.visibility is VisibilityClass.VISIBLE
        assert h.paint_index == 0


def test_the_origin_is_the_visible_box_not_the_media_box() -> None:
    data = _pdf(media_box=[0, 0, 612, 792], crop_box=[50, 100, 562, 742])
    with glyphscope.open(data) as doc:
        page = doc.pages[0]
        assert (page.width, page.height) == (512.0, 642.0)
        h = page.chars[0]
        assert h.x0 == pytest.approx(100.0 - 50.0)
        assert h.bottom == pytest.approx(742.0 - h.quad[0][1])


@pytest.mark.parametrize("rotate", [90, 270])
def test_along_the_text_the_boxes_agree_with_pdfplumber_on_a_rotated_page(rotate: int) -> None:
    """pdfplumber's char box is one em tall, ours the font's descent to ascent: they differ
    across the text, and agree along it (where the glyph advances)."""
    pdfplumber = pytest.importorskip("pdfplumber")
    data = _rotated(_pdf(), rotate)
    with pdfplumber.open(io.BytesIO(data)) as theirs, glyphscope.open(data) as ours:
        theirs_chars = theirs.pages[0].chars
        ours_chars = ours.pages[0].chars
        assert [c["text"] for c in theirs_chars] == [c.text for c in ours_chars]
        for t, o in zip(theirs_chars, ours_chars, strict=True):
            assert (o.top, o.bottom) == pytest.approx((t["top"], t["bottom"]), abs=1e-3)
        assert (theirs.pages[0].width, theirs.pages[0].height) == (ours.pages[0].width, ours.pages[0].height)


def test_display_matrix_is_the_windows_page_matrix() -> None:
    """One geometry for records, images and the window (inspector/render/renderer.py, no Qt)."""
    from glyphscope.core.page import PageBoxes
    from glyphscope.inspector.render.renderer import page_matrix

    media = (50.0, 100.0, 662.0, 892.0)
    for rotate in (0, 90, 180, 270):
        boxes = PageBoxes(media, media, media, rotate)
        for scale in (1.0, 2.0):
            assert display_matrix(media, rotate, scale) == pytest.approx(page_matrix(boxes, scale))


# ---------------------------------------------------------------- words and lines


def test_words_and_lines_follow_the_engines_spaces_and_breaks() -> None:
    with glyphscope.open(_pdf()) as doc:
        page = doc.pages[0]
        words = page.words
        assert [w.text for w in words] == ["Hello", "world", "Other"]
        assert all(isinstance(w, Word) for w in words)
        hello, world = words[0], words[1]
        assert hello.paint_indices == (0, 1, 2, 3, 4)
        assert hello.x1 < world.x0  # the gap the rule measured
        assert hello.x0 == pytest.approx(page.chars[0].x0)
        assert hello.quad[0] == page.chars[0].quad[0]
        assert hello.quad[2] == page.chars[4].quad[2]
        assert page.lines == ()  # pdfplumber's meaning: the drawn lines (this page draws none)
        lines = page.text_lines
        assert [(ln.text, type(ln)) for ln in lines] == [("Hello world", TextLine), ("Other", TextLine)]
        with pytest.warns(DeprecationWarning, match="extract_text_lines"):
            assert page.extract_lines() == lines
        assert lines[0].x0 == hello.x0 and lines[0].x1 == world.x1
        # top = bottom − size: the baseline at y 500, Helvetica's descent 0.207 em below it
        assert lines[1].bottom == pytest.approx(792.0 - 500.0 + 0.207 * 12.0)
        assert lines[1].top == pytest.approx(lines[1].bottom - 12.0)


# ---------------------------------------------------------------- crops


def test_a_crop_is_assembled_with_the_engines_word_gap_decision() -> None:
    with glyphscope.open(_pdf()) as doc:
        page = doc.pages[0]
        hello = page.crop(HELLO_REGION)
        # What a filter-then-join gives, and what the issue complained of:
        assert "".join(c.text for c in hello.chars) == "Helloworld"
        assert hello.extract_text() == "Hello world"
        gaps = [d for d in hello.decisions("plain") if isinstance(d, WordGapDecision)]
        inserted = [d for d in gaps if d.verdict == "inserted"]
        assert len(inserted) == 1
        d = inserted[0]
        assert (d.before, d.after) == (4, 5)  # "o" of Hello, "w" of world
        # gap = 300/1000 em at 12 pt; threshold = word_gap × the box height of "w"
        assert d.value == pytest.approx(0.3 * 12.0, abs=1e-6)
        assert d.threshold == pytest.approx(DEFAULT_PARAMETERS.word_gap * page.chars[5].glyph_height)
        assert d.value > d.threshold
        # The same pair, the same numbers, as the whole page decided it
        whole = [x for x in page.decisions("plain") if isinstance(x, WordGapDecision) and x.before == 4]
        assert whole == [d]
        assert hello.bbox == HELLO_REGION
        assert (hello.width, hello.height) == (160.0, 20.0)
        assert [w.text for w in hello.words] == ["Hello", "world"]


def test_a_crop_keeps_a_glyph_by_its_centre_within_bbox_by_its_whole_box() -> None:
    with glyphscope.open(_pdf()) as doc:
        page = doc.pages[0]
        o = page.chars[4]  # the "o" of Hello
        middle = (o.x0 + o.x1) / 2
        top, bottom = HELLO_REGION[1], HELLO_REGION[3]
        assert page.crop((0.0, top, middle + 0.01, bottom)).extract_text() == "Hello"
        assert page.crop((0.0, top, middle - 0.01, bottom)).extract_text() == "Hell"
        assert page.within_bbox((0.0, top, o.x1, bottom)).extract_text() == "Hello"
        assert page.within_bbox((0.0, top, o.x1 - 0.01, bottom)).extract_text() == "Hell"
        left, right = (
            page.crop((0.0, 0.0, middle - 0.01, 792.0)),
            page.crop((middle - 0.01, 0.0, 612.0, 792.0)),
        )
        assert {c.paint_index for c in left.chars}.isdisjoint(c.paint_index for c in right.chars)
        assert (
            page.crop(HELLO_REGION).crop((0.0, 0.0, 612.0, 792.0), strict=False).extract_text()
            == "Hello world"
        )
        with pytest.raises(ValueError, match="not fully within"):
            page.crop(HELLO_REGION).crop((0.0, 0.0, 612.0, 792.0))  # pdfplumber's strict default
        with pytest.raises(ValueError, match="x0 <= x1"):
            page.crop((10.0, 0.0, 5.0, 10.0))


def test_a_crop_of_a_rotated_page_takes_top_left_coordinates() -> None:
    data = _rotated(_pdf(), 90)
    with glyphscope.open(data) as doc:
        page = doc.pages[0]
        # Turned clockwise: the line at user y=700 runs down the page at x ≈ 700.
        assert page.crop((680.0, 0.0, 720.0, 612.0)).extract_text() == "Hello world"
        assert page.crop((480.0, 0.0, 520.0, 612.0)).extract_text() == "Other"


@pytest.mark.parametrize("mode", ["plain", "layout", "columns", "structure", "auto"])
def test_every_mode_of_a_crop_is_assembled(mode: str) -> None:
    with glyphscope.open(_pdf()) as doc:
        text = doc.pages[0].crop(HELLO_REGION).extract_text(mode)
        assert "Other" not in text
        if mode != "structure":  # untagged: structure mode has no text
            assert text.strip() == "Hello world"
    with glyphscope.open(_pdf()) as doc, pytest.raises(ValueError, match="unknown text mode"):
        doc.pages[0].extract_text("nonsense")


# ---------------------------------------------------------------- images


def _diff_inside(image: object, box: tuple[float, float, float, float], scale: float = 1.0) -> bool:
    """Whether drawing changed a pixel of `box` (page points at `scale` pixels per point)."""
    from PIL import ImageChops

    before, after = image.original.convert("RGB"), image.annotated  # type: ignore[attr-defined]
    x0, y0, x1, y1 = (round(v * scale) for v in box)
    region = (max(0, x0), max(0, y0), x1 + 1, y1 + 1)
    return ImageChops.difference(before.crop(region), after.crop(region)).getbbox() is not None


def test_to_image_at_144_dpi_is_twice_the_page() -> None:
    with glyphscope.open(_rotated(_pdf(), 90)) as doc:
        page = doc.pages[0]
        image = page.to_image(resolution=144)
        assert image.original.size == (round(2 * page.width), round(2 * page.height)) == (1584, 1224)
        assert image.scale == pytest.approx(2.0)
        png = image._repr_png_()
        assert png.startswith(b"\x89PNG")


def test_draw_glyphs_changes_pixels_inside_a_glyph_box_and_only_near_glyphs() -> None:
    from PIL import ImageChops

    with glyphscope.open(_pdf()) as doc:
        page = doc.pages[0]
        image = page.to_image(resolution=144)
        h = page.chars[0]
        box = (h.x0, h.top, h.x1, h.bottom)
        assert not _diff_inside(image, box, 2.0)
        image.draw_glyphs()
        assert _diff_inside(image, box, 2.0)
        changed = ImageChops.difference(image.original.convert("RGB"), image.annotated).getbbox()
        assert changed is not None
        x0, y0, x1, y1 = changed
        assert (
            x0 >= round(2 * h.x0) - 2 and y0 >= round(2 * h.top) - 2
        )  # nothing drawn above/left of the text
        assert image.reset().annotated.tobytes() == image.original.convert("RGB").tobytes()


def test_draw_decisions_marks_the_inserted_space_and_draw_rects_takes_records(tmp_path: Path) -> None:
    with glyphscope.open(_pdf()) as doc:
        page = doc.pages[0]
        o, w = page.chars[4], page.chars[5]
        gap = (o.x1 + 1.0, o.top + 1.0, w.x0 - 1.0, w.bottom - 1.0)  # inside the 3.6 pt gap
        image = page.to_image(resolution=144)
        assert not _diff_inside(image, gap, 2.0)
        image.draw_decisions("plain")
        assert _diff_inside(image, gap, 2.0)
        image.reset().draw_rects(page.words[:1])
        hello = page.words[0]
        assert _diff_inside(image, (hello.x0, hello.top, hello.x1, hello.bottom), 2.0)
        assert not _diff_inside(image, gap, 2.0)
        image.draw_rects([(10.0, 10.0, 20.0, 20.0)])
        assert _diff_inside(image, (10.0, 10.0, 20.0, 20.0), 2.0)
        out = tmp_path / "page.png"
        image.save(out)
        assert out.read_bytes().startswith(b"\x89PNG")


def test_a_crops_image_is_the_crop() -> None:
    with glyphscope.open(_pdf()) as doc:
        image = doc.pages[0].crop(HELLO_REGION).to_image(resolution=144)
        assert image.original.size == (320, 40)


# ---------------------------------------------------------------- tables


def test_to_dataframe_has_one_column_per_field() -> None:
    pytest.importorskip("pandas")
    with glyphscope.open(_pdf()) as doc:
        page = doc.pages[0]
        chars = page.to_dataframe()
        assert list(chars.columns) == list(Char.__dataclass_fields__)
        assert "".join(chars["text"]) == "HelloworldOther"
        words = page.to_dataframe("words")
        assert list(words["text"]) == ["Hello", "world", "Other"]
        assert words["x0"].iloc[0] == pytest.approx(page.words[0].x0)


def test_to_dataframe_without_pandas_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    with glyphscope.open(_pdf()) as doc, pytest.raises(ImportError, match="pip install pandas"):
        doc.pages[0].to_dataframe()


def test_a_password_opens_the_document_and_its_images() -> None:
    pdf = pikepdf.open(io.BytesIO(_pdf()))
    out = io.BytesIO()
    pdf.save(out, encryption=pikepdf.Encryption(owner="owner", user="secret"))
    data = out.getvalue()
    from glyphscope.core.errors import PasswordRequired

    with pytest.raises(PasswordRequired):
        glyphscope.open(data)
    with glyphscope.open(io.BytesIO(data), password="secret") as doc:
        page = doc.pages[0]
        assert page.extract_text() == "Hello world\nOther"
        assert page.to_image(resolution=36).original.size == (306, 396)


def test_a_crop_of_the_demos_tj_spaced_title_reads_with_its_spaces(demo_pdf: Path) -> None:
    """Page 2 of the demo paints no space glyph: a region filter joined by hand reads
    "PDFReferenceManualNovember4,1998"; the engine's assembly of the same glyphs does not."""
    with glyphscope.open(demo_pdf) as doc:
        page = doc.pages[1]
        words = page.words
        first = next(w for w in words if w.text == "PDF" and w.size > 20)  # the large title, not the prose
        last = next(w for w in words if w.text == "1998" and w.top > first.bottom)
        region = page.crop((first.x0 - 1, first.top - 1, page.width, last.bottom + 1))
        assert "".join(c.text for c in region.chars) == "PDFReferenceManualNovember4,1998"
        assert region.extract_text() == "PDF Reference Manual\nNovember 4, 1998"
        kinds = {(d.kind, d.verdict) for d in region.decisions()}
        assert ("word_gap", "inserted") in kinds and ("line_break", "break") in kinds
