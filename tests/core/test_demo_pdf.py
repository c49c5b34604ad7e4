"""Structural facts of the bundled demo PDF (assets/demo.pdf).

These tests read the PDF with pikepdf only; they do not use the extraction engine.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest

ASSETS = Path(__file__).resolve().parents[2] / "assets"
DEMO = ASSETS / "demo.pdf"
SCRIPT = ASSETS / "make_demo.py"
LETTER = [0, 0, 612, 792]


@pytest.fixture(scope="module")
def pdf():
    # inherit_page_attributes=False: keep /MediaBox and /CropBox where the file puts them
    with pikepdf.open(DEMO, inherit_page_attributes=False) as doc:
        yield doc


def ops(obj) -> list[tuple[list, str]]:
    return [(list(operands), str(op)) for operands, op in pikepdf.parse_content_stream(obj)]


def shown_strings(obj) -> list[bytes]:
    """Bytes of every string shown by Tj / TJ, in stream order."""
    out = []
    for operands, op in ops(obj):
        if op == "Tj":
            out.append(bytes(operands[0]))
        elif op == "TJ":
            out.append(b"".join(bytes(x) for x in operands[0] if isinstance(x, pikepdf.String)))
    return out


def inherited(page: pikepdf.Dictionary, key: str):
    node = page
    while node is not None:
        if key in node:
            return node[key]
        node = node.get("/Parent")
    return None


def canonical(path: Path) -> list:
    """Object graph reachable from /Root, independent of object numbers and stream filters.

    Lets the freshness test tell a stale demo.pdf from the same objects written by another qpdf.
    """
    with pikepdf.open(path, inherit_page_attributes=False) as doc:
        seen: dict[tuple[int, int], int] = {}
        out: list = []

        def walk(obj):
            if not isinstance(obj, pikepdf.Object):  # pikepdf hands out numbers and booleans as Python
                return ("atom", repr(obj))
            if obj.is_indirect:
                if obj.objgen in seen:
                    return ("ref", seen[obj.objgen])
                seen[obj.objgen] = len(seen)
            if isinstance(obj, pikepdf.Stream):
                keys = {
                    k: walk(obj[k])
                    for k in sorted(obj.keys())
                    if k not in ("/Length", "/Filter", "/DecodeParms")
                }
                return ("stream", keys, obj.read_bytes())
            if isinstance(obj, pikepdf.Dictionary):
                return ("dict", {k: walk(obj[k]) for k in sorted(obj.keys())})
            if isinstance(obj, pikepdf.Array):
                return ("array", [walk(x) for x in obj])
            return ("atom", obj.unparse())

        out.append(walk(doc.Root))
        return out


def test_checked_in_pdf_matches_generator(tmp_path):
    out = tmp_path / "demo.pdf"
    subprocess.run([sys.executable, str(SCRIPT), str(out)], check=True, capture_output=True)
    if out.read_bytes() == DEMO.read_bytes():
        return
    # Bytes differ: either the file is stale, or another pikepdf/qpdf serialised the same objects.
    assert canonical(out) == canonical(DEMO), "assets/demo.pdf is stale: run python assets/make_demo.py"


def test_generator_is_deterministic(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for path in (a, b):
        subprocess.run([sys.executable, str(SCRIPT), str(path)], check=True, capture_output=True)
    assert a.read_bytes() == b.read_bytes()


def test_page_count_syntax_and_ids(pdf):
    assert len(pdf.pages) == 15
    assert pdf.check_pdf_syntax() == []
    assert "/Info" not in pdf.trailer  # no dates, nothing that changes between runs
    assert len(pdf.trailer.ID) == 2


def test_every_content_stream_parses(pdf):
    for page in pdf.pages:
        assert ops(page)
        for xobj in page.obj.Resources.get("/XObject", {}).values():
            ops(xobj)


def test_titles_name_their_page(pdf):
    for number, page in enumerate(pdf.pages, start=1):
        first = shown_strings(page)[0].decode("cp1252")
        expected = "glyphscope demo" if number == 1 else f"Page {number} \u2014 "
        assert first.startswith(expected), (number, first)


def test_letter_pages_except_page_7(pdf):
    for number, page in enumerate(pdf.pages, start=1):
        if number == 7:
            continue
        assert list(page.obj.MediaBox) == LETTER
        assert "/CropBox" not in page.obj


def test_page_7_inherits_a_cropbox_smaller_than_the_mediabox(pdf):
    page = pdf.pages[6].obj
    assert "/CropBox" not in page and "/MediaBox" not in page
    parent = page.Parent
    assert parent.Type == "/Pages" and parent.Parent.objgen == pdf.Root.Pages.objgen
    media = [float(x) for x in inherited(page, "/MediaBox")]
    crop = [float(x) for x in inherited(page, "/CropBox")]
    assert media == [0, 0, 700, 900] and crop == [50, 50, 662, 842]
    assert crop[2] - crop[0] == 612 and crop[3] - crop[1] == 792  # the visible page is letter size
    slug = [s for s in shown_strings(page) if s.startswith(b"Job 4711")]
    assert slug, "slug line missing"


def test_page_2_has_no_space_glyph_below_the_header(pdf):
    strings = shown_strings(pdf.pages[1])  # TJ pieces joined: words meet without a space glyph
    body = strings[strings.index(b"PDFReferenceManual") :]
    assert body[1] == b"November4,1998"
    assert len(body) > 40 and not any(b" " in s for s in body)


def test_page_3_negative_tc_is_given_back(pdf):
    tcs = [operands[0] for operands, op in ops(pdf.pages[2]) if op == "Tc"]
    assert -5 in tcs
    fonts = pdf.pages[2].obj.Resources.Font
    assert (
        fonts.FC.Encoding == "/UniGB-UCS2-H"
        and "/FontFile2" not in fonts.FC.DescendantFonts[0].FontDescriptor
    )


def test_page_4_uses_unit_font_size_with_scaled_tm(pdf):
    stream = ops(pdf.pages[3])
    assert any(op == "Tf" and operands[1] == 1 for operands, op in stream)
    assert any(op == "Tm" and operands[:4] == [12, 0, 0, 12] for operands, op in stream)


def test_page_5_has_rotated_runs_and_text_rise(pdf):
    stream = ops(pdf.pages[4])
    matrices = [[float(x) for x in operands[:4]] for operands, op in stream if op == "Tm"]
    assert [0, 1, -1, 0] in matrices and [-1, 0, 0, -1] in matrices
    assert any(abs(m[0] - 0.7071) < 1e-3 and abs(m[1] - 0.7071) < 1e-3 for m in matrices)
    assert any(op == "Ts" and operands[0] == 5 for operands, op in stream)


def test_page_6_forms(pdf):
    xobjects = pdf.pages[5].obj.Resources.XObject
    assert "/Matrix" in xobjects.Fm1
    assert "/Fm3" in xobjects.Fm2.Resources.XObject  # a form drawing a form
    assert "/Resources" not in xobjects.Fm4  # borrows the page's /F1
    fm5 = xobjects.Fm5
    top = float(fm5.BBox[3])
    td_y = [float(operands[1]) for operands, op in ops(fm5) if op == "Td"]
    assert sum(td_y) > top  # the second run starts above the form's BBox


def test_page_8_paints_duplicates(pdf):
    strings = shown_strings(pdf.pages[7])
    for word in (
        b"Fake",
        b"bold",
        b"heading",
        b"Footer: glyphscope demo, painted twice at the same position",
    ):
        assert strings.count(word) == 2
    assert strings.count(b"Triple strike") == 3
    assert strings.count(b"10") == 4


def test_page_9_w_array_is_unsorted_and_overlapping(pdf):
    cidfont = pdf.pages[8].obj.Resources.Font.T0.DescendantFonts[0]
    assert cidfont.DW == 1000 and "/ToUnicode" in pdf.pages[8].obj.Resources.Font.T0
    w = list(cidfont.W)
    firsts = [int(w[i]) for i in range(0, len(w) - 3, 2)]
    assert firsts == sorted(firsts, reverse=True) and len(firsts) > 10
    assert [int(x) for x in w[-3:]] == [1, 95, 1000]  # later catch-all range overlapping every entry


def test_page_10_fonts_without_tounicode(pdf):
    fonts = pdf.pages[9].obj.Resources.Font
    for key in ("/FN", "/FA"):
        assert "/ToUnicode" not in fonts[key]
    assert [str(x) for x in fonts.FN.Encoding.Differences][1:] == ["/g1", "/g2", "/g3", "/g4", "/g5"]
    assert "/ffi" in [str(x) for x in fonts.FA.Encoding.Differences]


def test_page_11_structure_order_differs_from_stream_order(pdf):
    assert pdf.Root.MarkInfo.Marked is True
    tree = pdf.Root.StructTreeRoot
    page = pdf.pages[10].obj
    assert page.StructParents == 0
    document = tree.K
    tree_mcids = [int(elem.K) for elem in document.K]
    stream_mcids = [
        int(operands[1].MCID) for operands, op in ops(page) if op == "BDC" and "/MCID" in operands[1]
    ]
    assert tree_mcids == [0, 2, 1] and stream_mcids == [0, 1, 2]
    assert all(elem.Pg.objgen == page.objgen for elem in document.K)
    nums = tree.ParentTree.Nums
    assert int(nums[0]) == 0 and [e.objgen for e in nums[1]] == [
        document.K[0].objgen,
        document.K[2].objgen,
        document.K[1].objgen,
    ]
    tags = [str(operands[0]) for operands, op in ops(page) if op == "BDC"]
    assert "/Artifact" in tags


def test_page_12_two_byte_font_only_inside_q(pdf):
    stream = ops(pdf.pages[11])
    q_at = [i for i, (_, op) in enumerate(stream) if op == "q"]
    big_q_at = [i for i, (_, op) in enumerate(stream) if op == "Q"]
    t0_at = [i for i, (operands, op) in enumerate(stream) if op == "Tf" and operands[0] == "/T0"]
    assert len(t0_at) == 1 and q_at[0] < t0_at[0] < big_q_at[0]
    after = stream[big_q_at[0] + 1 :]
    assert not any(op == "Tf" for _, op in after)  # the last paragraph relies on the restored font
    assert pdf.pages[11].obj.Resources.Font.T0.Encoding == "/Identity-H"


def test_page_14_type3_and_invisible_text(pdf):
    t3 = pdf.pages[13].obj.Resources.Font.T3
    assert t3.Subtype == "/Type3" and set(t3.CharProcs.keys()) >= {"/A", "/B", "/C", "/D", "/E"}
    assert any(op == "Tr" and operands[0] == 3 for operands, op in ops(pdf.pages[13]))


def shown_by_font(obj) -> list[tuple[str, bytes]]:
    """(font resource name, bytes) of every Tj string, in stream order."""
    out, font = [], None
    for operands, op in ops(obj):
        if op == "Tf":
            font = str(operands[0])
        elif op == "Tj":
            out.append((font, bytes(operands[0])))
    return out


def tounicode_pairs(font) -> dict[int, str]:
    text = font.ToUnicode.read_bytes().decode("ascii")
    body = text.split("beginbfchar")[1].split("endbfchar")[0]
    pairs = [line.split() for line in body.strip().splitlines()]
    return {int(code[1:-1], 16): bytes.fromhex(uni[1:-1]).decode("utf-16-be") for code, uni in pairs}


def test_page_15_vertical_writing_mode(pdf):
    page = pdf.pages[14].obj
    fonts = page.Resources.Font
    fv = fonts.FV
    assert fv.Subtype == "/Type0" and str(fv.Encoding).endswith("-V")  # a WMode 1 CMap
    assert fv.Encoding == "/UniJIS-UCS2-V" and fonts.FH.Encoding == "/UniJIS-UCS2-H"
    cidfont = fv.DescendantFonts[0]
    assert cidfont.CIDSystemInfo.Ordering == "Japan1"
    assert [int(x) for x in cidfont.DW2] == [880, -1000] and len(cidfont.W2) > 0
    assert not any(k in cidfont.FontDescriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    columns = ["\u7e26\u66f8\u304d\u306e\u4f8b", "\u53f3\u304b\u3089\u5de6\u3078", "\u8aad\u307f\u307e\u3059"]
    shown = [data for font, data in shown_by_font(page) if font == "/FV"]
    to_unicode = tounicode_pairs(fv)
    decoded = [
        "".join(to_unicode[int.from_bytes(s[i : i + 2], "big")] for i in range(0, len(s), 2)) for s in shown
    ]
    assert decoded == columns  # stream order == reading order
    # the expected reading is also printed horizontally in the UniJIS-UCS2-H font
    horizontal = [data.decode("utf-16-be") for font, data in shown_by_font(page) if font == "/FH"]
    assert horizontal == columns
    # one BT: Tm puts the first column right-most, each Td steps one column to the left
    stream = ops(page)
    tf_at = next(i for i, (operands, op) in enumerate(stream) if op == "Tf" and operands[0] == "/FV")
    moves = [(op, [float(x) for x in operands]) for operands, op in stream[tf_at:] if op in ("Tm", "Td")][:3]
    assert moves[0][0] == "Tm" and [op for op, _ in moves[1:]] == ["Td", "Td"]
    assert all(operands[0] < 0 and operands[1] == 0 for _, operands in moves[1:])


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_renders_with_pdftoppm(tmp_path):
    run = subprocess.run(
        ["pdftoppm", "-r", "20", "-png", str(DEMO), str(tmp_path / "p")], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert len(list(tmp_path.glob("p-*.png"))) == 15
