"""The structure tree panel: elements of a tagged page with their MCIDs, linked to glyphs and text both ways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf

from glyphscope.core.document import open_document
from glyphscope.inspector.views.structure import page_structure_tree
from tests.pdfbuild import make_pdf, to_bytes

CONTENT = (
    b"/P <</MCID 0>> BDC BT /F1 12 Tf 72 600 Td (Second) Tj ET EMC\n"
    b"/H1 <</MCID 1>> BDC BT /F1 12 Tf 72 700 Td (Title) Tj ET EMC\n"
    b"/Span <</MCID 2>> BDC BT /F1 12 Tf 72 580 Td (tail) Tj ET EMC\n"
    b"BT /F1 12 Tf 72 500 Td (loose) Tj ET\n"
)


def tagged_pdf() -> bytes:
    """Document > [H1 (MCID 1), P (MCID 0, Span (MCID 2))]: tree order H1, P, Span; a cycle-free tree."""
    pdf = make_pdf([CONTENT, b"BT /F1 12 Tf 72 700 Td (other) Tj ET"])
    page = pdf.pages[0].obj
    page.StructParents = 0
    h1 = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.H1, Pg=page, K=1))
    span = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.StructElem,
            S=pikepdf.Name.Span,
            K=pikepdf.Dictionary(Type=pikepdf.Name.MCR, Pg=page, MCID=2),
            ActualText=pikepdf.String("tail!"),
        )
    )
    p = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.StructElem, S=pikepdf.Name.P, Pg=page, K=[0, span], T=pikepdf.String("para")
        )
    )
    other = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.P, Pg=pdf.pages[1].obj, K=0)
    )
    doc = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.Document, K=[h1, p, other])
    )
    for kid in (h1, p, other):
        kid.P = doc
    span.P = p
    pdf.Root.StructTreeRoot = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot, K=doc))
    pdf.Root.MarkInfo = pikepdf.Dictionary(Marked=True)
    return to_bytes(pdf)


def test_page_tree_keeps_the_elements_with_content_here() -> None:
    doc = open_document(tagged_pdf())
    tree = page_structure_tree(doc, 1)
    assert tree.has_tree and len(tree.roots) == 1
    root = tree.roots[0]
    assert root.tag == "Document" and [k.tag for k in root.kids] == ["H1", "P"]  # page 2's P is not here
    h1, p = root.kids
    assert h1.mcids == [1] and p.mcids == [0] and p.title == "para"
    (span,) = p.kids
    assert span.mcids == [2] and span.actual_text == "tail!" and span.parent is p
    assert p.all_mcids() == [0, 2] and root.all_mcids() == [1, 0, 2]
    assert tree.owner == {1: h1, 0: p, 2: span}
    assert p.label == "P MCID 0 “para”" and span.ref.endswith(" 0 R")
    assert page_structure_tree(doc, 2).roots[0].kids[0].mcids == [0]


def test_untagged_and_cyclic_trees_do_not_raise() -> None:
    doc = open_document(to_bytes(make_pdf([CONTENT])))
    tree = page_structure_tree(doc, 1)
    assert not tree.has_tree and tree.roots == []
    pdf = make_pdf([CONTENT])
    page = pdf.pages[0].obj
    a = pdf.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.P, Pg=page, K=[0]))
    a.K.append(a)  # an element that contains itself
    pdf.Root.StructTreeRoot = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot, K=a))
    tree = page_structure_tree(open_document(to_bytes(pdf)), 1)
    assert tree.roots[0].mcids == [0] and tree.roots[0].kids == []
    assert any("reached twice" in p for p in tree.problems)


def test_panel_links_elements_glyphs_and_text_both_ways(qtbot: Any, window: Any, tmp_path: Path) -> None:
    from tests.gui_helpers import open_file

    path = tmp_path / "tagged.pdf"
    path.write_bytes(tagged_pdf())
    open_file(qtbot, window, path)
    dock = window.panels["structure_tree"]
    dock.show()
    dock.raise_()
    panel = window.structure_tree
    qtbot.waitUntil(lambda: panel.tree_data is not None and panel.page_number == 1, timeout=30_000)
    glyphs = window.session.analysis.page.glyphs
    text_of = {g.paint_index: g.unicode for g in glyphs}
    p = panel.tree_data.roots[0].kids[1]
    item = panel.item_of(p)
    assert item is not None and item.text(0) == "P MCID 0 “para”" and item.text(2) == "Secondtail"
    assert item.text(1) == str(len("Secondtail"))
    # Element → glyphs (the canvas and text panels follow the session's selection).
    panel.tree.setCurrentItem(item)
    selected = window.session.selection
    assert "".join(text_of[i] for i in sorted(selected)) == "Secondtail"
    assert window.session.selection_source == "structure_tree"
    from glyphscope.inspector.gui.panels.text import TextPanel

    plain = next(t for t in window.findChildren(TextPanel) if t.mode == "plain")
    text = plain.editor.toPlainText()
    assert "".join(text[i] for i in plain.highlighted_chars()).replace(" ", "") == "Secondtail"
    # Glyph → element: a glyph of "Title" selects H1; a glyph in no element clears the tree selection.
    title = next(g.paint_index for g in glyphs if g.unicode == "T")
    window.session.select([title], "canvas")
    assert panel.selected_element() is panel.tree_data.roots[0].kids[0]
    loose = next(g.paint_index for g in glyphs if g.unicode == "l" and g.mcid is None)
    window.session.select([loose], "canvas")
    assert panel.selected_element() is None
    assert "1 elements" not in panel.label.text() and "5 glyphs in no element" in panel.label.text()
