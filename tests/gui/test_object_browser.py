"""The PDF object browser: the page's objects as a tree, pretty-printed, linked to the other panels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf

from glyphscope.core.document import open_document
from glyphscope.inspector.views.objects import find_font, page_object_tree, pretty
from tests.pdfbuild import helvetica, make_pdf, to_bytes

PAGE = b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET /Fm1 Do"
FORM = b"BT /F2 10 Tf 72 600 Td (inner) Tj ET"


def browser_pdf() -> bytes:
    pdf = pikepdf.new()

    def form(p: pikepdf.Pdf) -> Any:
        stream = p.make_stream(FORM)
        stream.Type = pikepdf.Name.XObject
        stream.Subtype = pikepdf.Name.Form
        stream.BBox = [0, 0, 612, 792]
        stream.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F2=helvetica(p, "/Courier")))
        return stream

    make_pdf([PAGE], {"/F1": helvetica}, xobjects={"/Fm1": form}, pdf=pdf)
    page = pdf.pages[0].obj
    page.Annots = pikepdf.Array(
        [
            pdf.make_indirect(
                pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[0, 0, 10, 10])
            )
        ]
    )
    return to_bytes(pdf)


def _group(root: Any, name: str) -> Any:
    return next(c for c in root.children(None) if c.label.startswith(name))


def test_tree_groups_the_pages_objects() -> None:
    doc = open_document(browser_pdf())
    root = page_object_tree(doc, 1)
    labels = [c.label.split(" (")[0] for c in root.children(doc)]
    assert labels[0].startswith("Page dictionary ") and labels[0].endswith(" 0 R")
    assert labels[1:7] == [
        "Fonts",
        "XObjects",
        "Annotations",
        "Form fields",
        "Structure elements",
        "Content streams",
    ]
    fonts = _group(root, "Fonts")
    assert fonts.label == "Fonts (2)"
    f1, f2 = fonts.children(doc)
    assert (
        f1.role == "font"
        and f1.font_key == "/F1"
        and f1.form_path == ()
        and f1.label.startswith("/F1 — Helvetica, Type1 ")
    )
    assert (
        f2.font_key == "/F2" and f2.form_path == ("/Fm1",) and "in /Fm1" in f2.label and "Courier" in f2.label
    )
    page_glyph_font = doc.interpret(1).glyphs[0].font_id
    assert f1.font_id == page_glyph_font
    raw = f1.raw(doc)
    assert (
        raw.startswith(f"{page_glyph_font} obj\n<<")
        and "/BaseFont /Helvetica" in raw
        and "/Encoding /WinAnsiEncoding" in raw
    )
    (form,) = _group(root, "XObjects").children(doc)
    assert form.role == "form" and form.form_path == ("/Fm1",) and form.label.startswith("/Fm1 — Form ")
    assert "BT /F2 10 Tf" in form.raw(doc) and "endstream" in form.raw(doc)
    (annot,) = _group(root, "Annotations").children(doc)
    assert annot.label.startswith("[0] Link ")
    (content,) = _group(root, "Content streams").children(doc)
    assert "(Hello) Tj" in content.raw(doc)
    assert find_font(root, f2.font_id, "/F2", ("/Fm1",)) is f2


def test_raw_entries_open_lazily_and_print_as_pdf() -> None:
    doc = open_document(browser_pdf())
    root = page_object_tree(doc, 1)
    page = root.children(doc)[0]
    assert not page.opened  # nothing read until opened
    keys = [c.label for c in page.children(doc)]
    assert "/MediaBox" in keys and "/Resources" in keys and "/Parent" in keys
    media = next(c for c in page.children(doc) if c.label == "/MediaBox")
    assert pretty(media.value) == "[0 0 612 792]"
    assert [c.label for c in media.children(doc)] == ["[0]", "[1]", "[2]", "[3]"]
    assert pretty(pikepdf.String(b"\xfe\xff\x00A")) == "(A)"  # UTF-16BE text strings are shown as text


def test_structure_elements_are_listed_with_their_mcids() -> None:
    from tests.inspector.test_structure_tree import tagged_pdf

    doc = open_document(tagged_pdf())
    root = page_object_tree(doc, 1)
    structure = _group(root, "Structure elements")
    assert [(n.label.split(" ")[0], n.mcids) for n in structure.children(doc)] == [
        ("H1", (1,)),
        ("P", (0,)),
        ("Span", (2,)),
    ]
    assert "/S /H1" in structure.children(doc)[0].raw(doc)


def test_selecting_a_font_row_selects_its_object(qtbot: Any, window: Any, tmp_path: Path) -> None:
    from tests.gui_helpers import open_file

    path = tmp_path / "objects.pdf"
    path.write_bytes(browser_pdf())
    open_file(qtbot, window, path)
    dock = window.panels["objects"]
    dock.show()
    dock.raise_()
    panel = window.objects_panel
    qtbot.waitUntil(lambda: panel.root is not None and panel.page_number == 1, timeout=30_000)
    fonts = window.fonts
    qtbot.waitUntil(lambda: fonts.model.rowCount() == 2, timeout=30_000)
    fonts.select_font("/F2", ("/Fm1",))
    node = panel.selected_node()
    assert node is not None and node.role == "font" and node.font_key == "/F2" and node.form_path == ("/Fm1",)
    assert "/BaseFont /Courier" in panel.raw.toPlainText()
    fonts.select_font("/F1")
    assert panel.selected_node().font_key == "/F1"
    # The other way: selecting the form's object selects the form's glyphs.
    form = _group(panel.page_node(), "XObjects").children(None)[0]
    panel.select_node(form)
    glyphs = window.session.analysis.page.glyphs
    assert sorted(window.session.selection) == [g.paint_index for g in glyphs if g.form_path == ("/Fm1",)]
    assert window.session.selection_source == "objects"
