"""Page trees qpdf refuses (a loop, no /Pages, no /Root): the pages are recovered, exit 0."""

from __future__ import annotations

import hashlib
import io
import json
import re

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from glyphscope.core.errors import NotAPdf, PasswordRequired
from glyphscope.core.page_tree_repair import open_pdf, walk_page_tree, with_placeholder_root
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf, to_bytes

NO_OBJECT_STREAMS = pikepdf.ObjectStreamMode.disable  # a plain trailer, to edit by hand
FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def handmade(objects: dict[int, bytes], trailer: bytes) -> bytes:
    """A PDF written by hand: the objects as given, a correct xref table, the trailer as given."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, objects[num])
    xref = len(out)
    size = max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for num in range(1, size):
        out += b"%010d 00000 n \n" % offsets[num] if num in offsets else b"0000000000 65535 f \n"
    out += b"trailer\n" + trailer % {b"size": size} + b"\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def content(text: bytes) -> bytes:
    stream = b"BT /F1 12 Tf 72 300 Td (" + text + b") Tj ET"
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)


def looped_tree() -> bytes:
    """Root → 2 (Pages) → 3 (Pages: MediaBox, Resources, Rotate) → [page 4, page 5, 2 (back at the root)]."""
    return handmade(
        {
            1: b"<< /Type /Catalog /Pages 2 0 R >>",
            2: b"<< /Type /Pages /Kids [3 0 R] /Count 2 >>",
            3: b"<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R 2 0 R] /Count 2"
            b" /MediaBox [0 0 300 400] /Rotate 90 /Resources << /Font << /F1 8 0 R >> >> >>",
            4: b"<< /Type /Page /Parent 3 0 R /Contents 6 0 R >>",
            5: b"<< /Type /Page /Parent 3 0 R /Contents 7 0 R >>",
            6: content(b"First page"),
            7: content(b"Second page"),
            8: FONT,
        },
        b"<< /Size %(size)d /Root 1 0 R >>",
    )


def catalog_without_pages(pages_entry: bytes = b"") -> bytes:
    """The catalog has no usable /Pages; the pages (objects 5, then 4) hang under a node only /Other reaches."""
    return handmade(
        {
            1: b"<< /Type /Catalog /Other 2 0 R" + pages_entry + b" >>",
            2: b"<< /Type /Pages /Kids [5 0 R 4 0 R] /Count 2 /Resources << /Font << /F1 8 0 R >> >> >>",
            4: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 500] /Contents 6 0 R >>",
            5: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 500] /Contents 7 0 R >>",
            6: content(b"Object four"),
            7: content(b"Object five"),
            8: FONT,
        },
        b"<< /Size %(size)d /Root 1 0 R >>",
    )


def trailer_without_root(root_entry: bytes = b"") -> bytes:
    """A sound catalog and page tree, but the trailer's /Root is missing (or points nowhere)."""
    return handmade(
        {
            1: b"<< /Type /Catalog /Pages 2 0 R /Lang (de) >>",
            2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>",
            3: b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
            4: content(b"Root lost"),
            5: FONT,
        },
        b"<< /Size %(size)d" + root_entry + b" >>",
    )


def repair_findings(stdout: bytes) -> list[dict]:
    document = json.loads(stdout)["document"]
    return [d for d in document if d["kind"] == "page_tree_repaired"]


def test_a_loop_in_pages_is_walked_once_with_inherited_attributes(tmp_path):
    data = looped_tree()
    path = tmp_path / "loop.pdf"
    path.write_bytes(data)
    with pytest.raises(pikepdf.PdfError, match="Loop detected"):
        pikepdf.open(path)  # what qpdf says on its own
    doc = open_document(data)
    assert doc.page_count == 2
    assert doc.page_tree_repair == (
        "page tree repaired (qpdf refused it: object 2 0: Loop detected in /Pages structure (getAllPages)): "
        "2 pages recovered by walking /Pages from the catalog, skipping 1 /Kids entry met before (a loop) "
        "or not a dictionary"
    )
    boxes = doc.page_boxes(2)  # MediaBox and Rotate inherited from object 3, on the walk
    assert boxes.media_box == (0.0, 0.0, 300.0, 400.0) and boxes.rotate == 90
    assert "".join(g.unicode for g in doc.interpret(2).glyphs) == "Second page"  # Resources inherited too
    [finding] = [d for d in doc.diagnostics if d.kind is DiagnosticKind.PAGE_TREE_REPAIRED]
    assert finding.message == doc.page_tree_repair and finding.page is None


def test_cli_reads_a_looped_tree_with_one_repair_warning(tmp_path):
    path = tmp_path / "loop.pdf"
    path.write_bytes(looped_tree())
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    code, out, err = run_cli("text", str(path))
    assert code == 0
    assert out.decode() == "First page\fSecond page"
    assert err.splitlines() == [
        "glyphscope: warning: page tree repaired (qpdf refused it: object 2 0: Loop detected in /Pages "
        "structure (getAllPages)): 2 pages recovered by walking /Pages from the catalog, skipping 1 /Kids "
        "entry met before (a loop) or not a dictionary"
    ]
    code, out, _ = run_cli("diagnostics", str(path), "--json")
    assert code == 0
    [finding] = repair_findings(out)
    assert finding["severity"] == "warning" and "2 pages recovered by walking" in finding["message"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # never written


@pytest.mark.parametrize("pages_entry", [b"", b" /Pages /Broken", b" /Pages [2 0 R]"])
def test_catalog_without_pages_scans_for_page_objects_in_object_number_order(tmp_path, pages_entry):
    path = tmp_path / "nopages.pdf"
    path.write_bytes(catalog_without_pages(pages_entry))
    code, out, err = run_cli("text", str(path))
    assert code == 0
    assert out.decode() == "Object four\fObject five"  # object number order, not /Kids order
    assert err.splitlines() == [
        "glyphscope: warning: page tree repaired (qpdf refused it: unable to find page tree): 2 pages "
        "recovered by scanning the objects for /Type /Page (no usable /Pages tree), in object-number order"
    ]
    code, out, _ = run_cli("diagnostics", str(path), "--json")
    assert code == 0 and len(repair_findings(out)) == 1
    doc = open_document(path)
    assert doc.page_boxes(1).media_box == (0.0, 0.0, 200.0, 500.0)
    assert doc.pdf.Root.get("/Other") is not None  # the file's own catalog stays the root


@pytest.mark.parametrize("root_entry", [b"", b" /Root 99 0 R"])
def test_trailer_without_a_usable_root_finds_the_catalog_by_scanning(tmp_path, root_entry):
    path = tmp_path / "noroot.pdf"
    path.write_bytes(trailer_without_root(root_entry))
    before = path.read_bytes()
    code, out, err = run_cli("text", str(path))
    assert code == 0
    assert out.decode() == "Root lost"
    assert err.splitlines() == [
        "glyphscope: warning: page tree repaired (qpdf refused it: unable to find /Root dictionary): 1 page "
        "recovered from the catalog found by scanning the objects (1 0 R)"
    ]
    code, out, _ = run_cli("diagnostics", str(path), "--json")
    assert code == 0 and "found by scanning" in repair_findings(out)[0]["message"]
    assert open_document(path).pdf.Root.Lang == "de"  # the found catalog is the root
    assert path.read_bytes() == before


def test_kids_not_an_array_recovers_the_pages_qpdf_dropped():
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td (Kept) Tj ET"])
    pdf.Root.Keep = pdf.Root.Pages.Kids  # so that saving keeps the page object
    pdf.Root.Pages.Kids = pikepdf.Name.Broken
    doc = open_document(to_bytes(pdf))
    assert doc.page_count == 1
    assert doc.page_tree_repair.startswith(
        "page tree repaired (the page tree holds no page): 1 page recovered"
    )
    assert "".join(g.unicode for g in doc.interpret(1).glyphs) == "Kept"


def test_a_document_without_any_page_stays_empty():
    pdf = pikepdf.new()
    doc = open_document(to_bytes(pdf))
    assert doc.page_count == 0 and doc.page_tree_repair == "" and doc.diagnostics == ()


def test_garbage_after_the_header_still_exits_4(tmp_path):
    path = tmp_path / "garbage.pdf"
    path.write_bytes(b"%PDF-1.4\nnot an object in sight\n%%EOF\n")
    with pytest.raises(NotAPdf, match="not a readable PDF"):
        open_document(path)
    code, out, err = run_cli("text", str(path))
    assert code == 4 and out == b""
    assert err.startswith("glyphscope: ") and "page tree repaired" not in err


def test_walk_skips_revisits_and_non_dictionaries_and_keeps_kids_order():
    pdf = pikepdf.new()
    root = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Pages, Rotate=180))
    a = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Page, Rotate=0))
    b = pdf.make_indirect(pikepdf.Dictionary(Contents=pdf.make_stream(b"")))  # no /Type, no /Kids: a page
    mid = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.Pages, Kids=[b, root, a], MediaBox=[0, 0, 5, 5])
    )
    root.Kids = [a, mid, pikepdf.Integer(7)]
    pages, inherited, skipped = walk_page_tree(root)
    assert [p.objgen for p in pages] == [a.objgen, b.objgen]
    assert skipped == 3  # root again (the loop), a again, the integer
    assert inherited[0] == {"/Rotate": 180}
    assert set(inherited[1]) == {"/Rotate", "/MediaBox"}


def test_placeholder_root_is_appended_after_the_highest_object_number():
    data = trailer_without_root()
    patched, placeholder = with_placeholder_root(data)
    assert patched.startswith(data) and placeholder == frozenset({(6, 0), (7, 0)})
    assert b"/Prev " in patched[len(data) :]


def test_open_pdf_gives_a_second_handle_with_the_same_pages(tmp_path):
    path = tmp_path / "loop.pdf"
    path.write_bytes(looped_tree())
    doc = open_document(path)
    other = open_pdf(str(path))  # what a renderer opens beside the engine
    assert [p.objgen for p in other.pages] == [p.obj.objgen for p in doc.pdf.pages] == [(4, 0), (5, 0)]
    assert other.pages[1].obj.MediaBox == [0, 0, 300, 400]  # inherited attributes copied in
    (tmp_path / "garbage.pdf").write_bytes(b"%PDF-1.4\nnothing\n")
    with pytest.raises(pikepdf.PdfError):
        open_pdf(str(tmp_path / "garbage.pdf"))


def test_an_encrypted_file_without_root_still_decrypts():
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td (Secret) Tj ET"])
    buf = io.BytesIO()
    pdf.save(
        buf, encryption=pikepdf.Encryption(owner="o", user="u", R=4), object_stream_mode=NO_OBJECT_STREAMS
    )
    data = re.sub(rb"/Root \d+ 0 R", b"", buf.getvalue())  # the placeholder trailer keeps /Encrypt and /ID
    with pytest.raises(PasswordRequired):
        open_document(data)
    doc = open_document(data, "u")
    assert doc.page_tree_repair.endswith(
        "1 page recovered from the catalog found by scanning the objects (1 0 R)"
    )
    assert "".join(g.unicode for g in doc.interpret(1).glyphs) == "Secret"


def objects_only(objects: dict[int, bytes], end: bytes = b"") -> bytes:
    """A PDF of objects alone: no xref table, no trailer, no startxref (a truncated upload)."""
    out = bytearray(b"%PDF-1.4\n")
    for num in sorted(objects):
        out += b"%d 0 obj\n%s\nendobj\n" % (num, objects[num])
    return bytes(out).rstrip(b"\n") + end


OBJECTS_ONLY = {
    1: b"<< /Type /Catalog /Pages 2 0 R >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    4: content(b"Every object scanned"),
    5: FONT,  # the last object, its endobj the last bytes of the file
}


@pytest.mark.parametrize("end", [b"", b"\n", b"\n\n  \n"])
def test_a_file_with_no_xref_no_trailer_and_no_startxref_is_read_by_scanning_its_objects(tmp_path, end):
    # qpdf's scan dropped the object that ends at the end of the file (here the font): the page
    # read as no glyphs at all, where MuPDF reads it whole
    path = tmp_path / "objects-only.pdf"
    path.write_bytes(objects_only(OBJECTS_ONLY, end))
    before = path.read_bytes()
    doc = open_document(path)
    glyphs = doc.interpret(1).glyphs
    assert "".join(g.unicode for g in glyphs) == "Every object scanned"
    code, out, err = run_cli("text", str(path))
    assert code == 0 and out.decode() == "Every object scanned"
    assert "damaged file repaired by qpdf" in err  # said, not hidden
    assert path.read_bytes() == before  # repaired in memory only


# ------------------------------------------------------------------ object scan when /Root is not found


def _sparse_pdf(numbers: list[int], size: int) -> bytes:
    """A consistent but sparse xref (one subsection per object) keeping high object numbers."""
    cat, pages, page, content, font = numbers
    text = b"BT /F1 12 Tf 72 700 Td (Hello sparse) Tj ET"
    objs = {
        cat: b"<< /Type /Catalog /Pages %d 0 R >>" % pages,
        pages: b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % page,
        page: b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> "
        b"/Contents %d 0 R >>" % (pages, font, content),
        content: b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
        font: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    }
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for n in sorted(objs):
        offsets[n] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (n, objs[n])
    xref = len(out)
    out += b"xref\n0 1\n0000000000 65535 f \n" + b"".join(
        b"%d 1\n%010d 00000 n \n" % (n, offsets[n]) for n in sorted(objs)
    )
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, cat, xref)
    return bytes(out)


def test_a_sparse_xref_that_hides_the_catalog_from_qpdf_is_read_by_renumbering_the_objects() -> None:
    from glyphscope.core.diagnostics import DiagnosticKind
    from glyphscope.core.page_tree_repair import renumbered_copy

    data = _sparse_pdf([10960, 10961, 10962, 10963, 10964], 10965)
    try:
        pikepdf.open(__import__("io").BytesIO(data))
        qpdf_refuses = False
    except pikepdf.PdfError as exc:
        qpdf_refuses = "unable to find /Root dictionary" in str(exc)
    doc = open_document(data)
    assert doc.page_count == 1
    assert analyze_page(doc, 1).texts["plain"].text == "Hello sparse"
    if qpdf_refuses:  # libqpdf 12; qpdf 11 reads the file as it is
        (warning,) = doc.warnings
        assert "unable to find /Root dictionary" in warning and "objects renumbered 1…n" in warning
        assert DiagnosticKind.PAGE_TREE_REPAIRED in {d.kind for d in doc.diagnostics}
    copy = renumbered_copy(data)
    assert copy is not None and b"/Root 1 0 R" in copy and b"10962 0 R" not in copy


def test_a_densely_numbered_or_encrypted_file_is_not_renumbered() -> None:
    from glyphscope.core.page_tree_repair import renumbered_copy

    assert renumbered_copy(_sparse_pdf([1, 2, 3, 4, 5], 6)) is None
    encrypted = _sparse_pdf([10960, 10961, 10962, 10963, 10964], 10965).replace(
        b"/Size", b"/Encrypt 9 0 R /Size"
    )
    assert renumbered_copy(encrypted) is None
