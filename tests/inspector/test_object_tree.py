"""The whole-document object tree (inspector/object_tree.DocumentTree): trailer, catalog, pages,
fields, outlines and name trees, read lazily; hostile files (cycles, broken references, huge
arrays, streams that do not decode) give messages in the tree, never exceptions."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphscope.core.document import open_document
from glyphscope.inspector.views.objects import (
    DOCUMENT_FIELDS_GROUP,
    FONTS_GROUP,
    MAX_CHILDREN,
    MISSING,
    DocumentTree,
    ObjectNode,
    note_node,
    parse_ref,
)
from tests.pdfbuild import make_pdf, to_bytes

CORPUS = Path("/work/shared/corpus")
PAGE_TEXT = b"BT /F1 12 Tf 72 700 Td (Page %d) Tj ET"
BIG_STREAM = 100_000  # bytes of the catalog's /Big stream
HUGE_ARRAY = 5000  # items of the catalog's /Huge array


def rich_pdf(pages: int = 3) -> bytes:
    """Pages with text; outlines (one /Next chain looping back, a child whose /First is the outline
    root), named destinations in a name tree whose /Kids loops, an embedded file, a JavaScript
    name, a text field with its widget on page 2, two dictionaries referring to each other, a
    broken reference, a huge array, a stream that does not decode and a long stream."""
    pdf = make_pdf([PAGE_TEXT % (n + 1) for n in range(pages)])
    page = [pdf.pages[i].obj for i in range(pages)]
    root = pdf.Root

    widget = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=pikepdf.Name.Widget,
            Rect=[72, 600, 272, 620],
            FT=pikepdf.Name.Tx,
            T=pikepdf.String("name"),
            V=pikepdf.String("Jane"),
        )
    )
    page[1].Annots = pikepdf.Array([widget])
    root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Array([widget]))

    outlines = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Outlines))
    a = pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String("Part A"), Parent=outlines))
    a.Dest = pikepdf.Array([page[1], pikepdf.Name.Fit])
    b = pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String("Part B"), Parent=outlines))
    b.A = pikepdf.Dictionary(S=pikepdf.Name.GoTo, D=pikepdf.String("chap3"))
    c = pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String("Part C"), Parent=outlines))
    c.Dest = pikepdf.Array([0, pikepdf.Name.Fit])  # a page number (a remote-style destination)
    a.Next, b.Next, c.Next = b, c, a  # the chain loops
    a1 = pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String("A.1"), Parent=a, First=a))
    a.First = a.Last = a1
    outlines.First, outlines.Last = a, c
    root.Outlines = outlines

    leaf = pdf.make_indirect(
        pikepdf.Dictionary(
            Names=pikepdf.Array([pikepdf.String("chap3"), pikepdf.Array([page[2], pikepdf.Name.Fit])])
        )
    )
    dests = pdf.make_indirect(pikepdf.Dictionary())
    loop = pdf.make_indirect(pikepdf.Dictionary(Kids=pikepdf.Array([dests])))
    dests.Kids = pikepdf.Array([leaf, loop])
    attached = pdf.make_stream(b"notes")
    spec = pikepdf.Dictionary(
        Type=pikepdf.Name.Filespec, F=pikepdf.String("notes.txt"), EF=pikepdf.Dictionary(F=attached)
    )
    files = pikepdf.Dictionary(Names=pikepdf.Array([pikepdf.String("notes.txt"), spec]))
    script = pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert(1)"))
    scripts = pikepdf.Dictionary(Names=pikepdf.Array([pikepdf.String("init"), script]))
    root.Names = pikepdf.Dictionary(Dests=dests, EmbeddedFiles=files, JavaScript=scripts)

    one = pdf.make_indirect(pikepdf.Dictionary(Name=pikepdf.String("one")))
    two = pdf.make_indirect(pikepdf.Dictionary(Name=pikepdf.String("two"), Next=one))
    one.Next = two
    root.Loop = one
    root.Broken = pikepdf.Array([1, 2, 3])  # becomes a reference to a missing object below
    root.Huge = pikepdf.Array(list(range(HUGE_ARRAY)))
    bad = pdf.make_stream(b"")
    bad.write(b"this is not zlib data", filter=pikepdf.Name.FlateDecode)
    root.Bad = bad
    root.Big = pdf.make_stream(b"q 1 0 0 1 0 0 cm Q\n" * (BIG_STREAM // 19) + b"%" * (BIG_STREAM % 19))
    data = to_bytes(pdf)
    assert data.count(b"/Broken [ 1 2 3 ]") == 1
    return data.replace(b"/Broken [ 1 2 3 ]", b"/Broken 9999 0 R  ")


def _tree(data: bytes | None = None) -> tuple[DocumentTree, Any]:
    doc = open_document(data or rich_pdf())
    return DocumentTree(doc), doc


def _child(node: ObjectNode, doc: Any, label: str) -> ObjectNode:
    found = [c for c in node.children(doc) if c.label == label or c.label.startswith(label + " ")]
    assert found, f"{label!r} not in {[c.label for c in node.children(doc)]}"
    return found[0]


def test_the_top_level_names_every_part_of_the_document_and_reads_nothing_more() -> None:
    tree, doc = _tree()
    labels = [c.label for c in tree.root.children(doc)]
    catalog_ref = f"{doc.pdf.Root.objgen[0]} 0 R"
    assert labels[0] == "Trailer"
    assert labels[1] == f"Catalog {catalog_ref}"
    assert labels[2] == "Pages (3)"
    assert labels[3] == "Form fields (AcroForm) (1)"
    assert labels[4].startswith("Outlines (bookmarks) ") and labels[4].endswith(" 0 R")
    assert labels[5] == "Names"
    assert labels[6] == "Gone to by number (not reachable from the trailer)"
    assert [tree.pages.built(), tree.outlines.built(), tree.names.built(), tree.fields.built()] == [False] * 4


def test_a_long_document_opens_without_reading_its_pages() -> None:
    data = to_bytes(make_pdf([PAGE_TEXT % n for n in range(1, 401)]))
    doc = open_document(data)
    start = time.perf_counter()
    tree = DocumentTree(doc)
    took = time.perf_counter() - start
    assert tree.pages.label == "Pages (400)" and not tree.pages.built()
    assert took < 0.5  # a few nodes, whatever the page count (about 0.1 ms)
    pages = tree.pages.children(doc)
    assert [p.page for p in pages[:3]] == [1, 2, 3] and pages[-1].page == 400
    assert all(not p.built() for p in pages)  # a page's objects are read when it is opened


def test_a_page_opens_into_its_objects_and_its_nodes_know_their_page() -> None:
    tree, doc = _tree()
    page2 = tree.pages.children(doc)[1]
    assert page2.label == f"Page 2 {doc.page_object(2).objgen[0]} 0 R" and page2.role == "page"
    groups = [c.label for c in page2.children(doc)]
    assert groups[0].startswith("Page dictionary ")
    assert groups[1:7] == [
        "Fonts (1)",
        "XObjects (0)",
        "Annotations (1)",
        "Form fields (AcroForm) (1)",
        "Structure elements (0)",
        "Content streams (1)",
    ]
    fonts = next(c for c in page2.children(doc) if c.group == FONTS_GROUP)
    (font,) = fonts.children(doc)
    assert font.role == "font" and font.font_key == "/F1" and font.page_of() == 2
    annotation = _child(page2, doc, "Annotations").children(doc)[0]
    assert annotation.annotation == 0 and annotation.page_of() == 2
    (content,) = _child(page2, doc, "Content streams").children(doc)
    assert "(Page 2) Tj" in content.raw(doc)


def test_outlines_list_titles_with_their_pages_and_stop_where_the_chain_loops() -> None:
    tree, doc = _tree()
    items = tree.outlines.children(doc)
    titles = [(n.label.split(" 0 R")[0].rsplit(" ", 1)[0], n.target) for n in items if n.role == "outline"]
    assert titles == [("Part A → page 2", 2), ("Part B → page 3", 3), ("Part C → page 1", 1)]
    assert items[3].note and "comes back to an item above" in items[3].label
    assert items[4].label.startswith("Entries ") and [c.label for c in items[4].children(doc)] == [
        "/First",
        "/Last",
        "/Type",
    ]
    # A.1's /First is Part A again: each level is read when opened, so opening it ten levels
    # deep costs ten levels and never recurses by itself.
    node = items[0]
    for _ in range(10):
        node = next(c for c in node.children(doc) if c.role == "outline")
    assert node.label.startswith("A.1") or node.label.startswith("Part A")


def test_name_trees_are_listed_with_destinations_resolved_and_loops_said() -> None:
    tree, doc = _tree()
    trees = {n.label.split(" ")[0]: n for n in tree.names.children(doc)}
    assert sorted(trees) == ["Dests", "EmbeddedFiles", "JavaScript"]
    dests = trees["Dests"].children(doc)
    assert (dests[0].label, dests[0].target) == ("chap3 → page 3", 3)
    assert dests[1].note and "refers back" in dests[1].label
    (embedded, _) = trees["EmbeddedFiles"].children(doc)
    assert embedded.label == "notes.txt" and "/F (notes.txt)" in embedded.raw(doc)
    (script, _) = trees["JavaScript"].children(doc)
    assert script.label == "init" and "/JS (app.alert(1))" in script.raw(doc)


def test_fields_name_the_page_of_their_widget_and_point_at_its_annotation() -> None:
    tree, doc = _tree()
    assert tree.fields.group == DOCUMENT_FIELDS_GROUP
    field, entries = tree.fields.children(doc)
    ref = f"{doc.page_object(2).Annots[0].objgen[0]} 0 R"
    assert field.label == f"name (Tx) “Jane” {ref} — page 2"
    assert (field.page, field.annotation, field.role) == (2, 0, "field")
    assert entries.label.startswith("AcroForm dictionary")


def test_hostile_objects_are_messages_in_the_tree() -> None:
    tree, doc = _tree()
    catalog = tree.catalog
    # Two dictionaries referring to each other: a hundred levels opened one at a time.
    node = _child(catalog, doc, "/Loop")
    names = []
    for _ in range(100):
        names.append(str(node.value.get("/Name")))
        node = _child(node, doc, "/Next")
    assert names[:4] == ["one", "two", "one", "two"] and len(set(names)) == 2
    broken = _child(catalog, doc, "/Broken")
    assert broken.summary(doc) == MISSING and not broken.has_children()
    assert broken.raw(doc) == f"/Broken {MISSING}"
    huge = _child(catalog, doc, "/Huge")
    items = huge.children(doc)
    assert len(items) == MAX_CHILDREN + 1 and items[MAX_CHILDREN - 1].label == f"[{MAX_CHILDREN - 1}]"
    assert items[-1].note and items[-1].label == "… 3,000 more entries not listed (of 5,000)"
    bad = _child(catalog, doc, "/Bad")
    raw = bad.raw(doc)
    assert "% filters /FlateDecode, 21 bytes as stored" in raw
    assert "(stream data cannot be decoded:" in raw and raw.endswith("endstream")
    assert "stream /FlateDecode (2 keys, /Length 21)" in bad.summary(doc)
    assert [c.label for c in bad.children(doc)] == ["/Filter", "/Length"]


def test_a_node_whose_reading_fails_shows_the_failure() -> None:
    def fails() -> list[ObjectNode]:
        raise pikepdf.PdfError("damaged xref")

    node = ObjectNode("group", None, "group", build=fails)
    (message,) = node.children(None)
    assert message.note and message.label == "(cannot be read: PdfError: damaged xref)"
    assert note_node("x").has_children() is False


def test_a_stream_preview_is_bounded_and_reads_further_on_demand() -> None:
    tree, doc = _tree()
    big = _child(tree.catalog, doc, "/Big")
    short = big.raw(doc)
    assert f"… ({BIG_STREAM:,} bytes decoded in all)" in short and len(short) < 5000
    whole = big.raw(doc, preview=BIG_STREAM * 2)
    assert "bytes decoded in all" not in whole and whole.count("q 1 0 0 1 0 0 cm Q") == BIG_STREAM // 19


def test_going_to_an_object_by_number_reaches_it_through_the_tree() -> None:
    tree, doc = _tree()
    widget = doc.page_object(2).Annots[0]
    node = tree.locate(widget.objgen)
    assert node is not None and node.value.objgen == widget.objgen
    assert node.path()[0].startswith("Catalog ") and node.parent is not None
    page3 = tree.locate(doc.page_object(3).objgen)
    assert page3 is not None and page3.role == "page" and page3.page == 3
    assert tree.locate((9999, 0)) is None
    assert parse_ref("12 0 R") == (12, 0) and parse_ref(" 7 ") == (7, 0) and parse_ref("7 2") == (7, 2)
    assert parse_ref("Helvetica") is None and parse_ref("12 0 R x") is None


def test_search_finds_keys_and_values_and_leads_to_the_entry() -> None:
    tree, doc = _tree()
    hits = tree.search("APP.ALERT")
    assert [(h.path, h.text) for h in hits] == [
        (("/Names", "/JavaScript", "/Names", "[1]", "/JS"), "/JS (app.alert(1))")
    ]
    assert hits[0].objgen == doc.pdf.Root.objgen
    node = tree.locate_hit(hits[0])
    assert node is not None and node.label == "/JS" and node.path()[0].startswith("Catalog ")
    titles = tree.search("part ")
    assert sorted(h.text for h in titles) == ["/Title (Part A)", "/Title (Part B)", "/Title (Part C)"]
    assert tree.search("  ") == []


def test_real_files(tmp_path: Path) -> None:
    form = CORPUS / "pdfjs__issue6127.pdf"
    outlined = CORPUS / "pdfplumber__pdffill-demo.pdf"
    attached = CORPUS / "pdfminer__issue-625-identity-cmap.pdf"
    named = CORPUS / "pdfjs__vertical.pdf"
    if not all(p.exists() for p in (form, outlined, attached, named)):
        pytest.skip("the corpus is not here")
    tree, doc = _tree(form.read_bytes())
    assert tree.fields.label == "Form fields (AcroForm) (49)"
    first = tree.fields.children(doc)[0]
    assert first.label == "NOM (Tx) 110 0 R"
    assert [(k.label, k.page, k.annotation >= 0) for k in first.children(doc)] == [
        ("NOM 8 0 R — page 1", 1, True),
        ("NOM 269 0 R — page 2", 2, True),
    ]
    tree, doc = _tree(outlined.read_bytes())
    items = [(n.label.split(" → ")[0], n.target) for n in tree.outlines.children(doc)[:3]]
    assert items == [("PDFill: PDF Drawing", 1), ("Line Width and Color", 2), ("Arrow Style and Size", 2)]
    tree, doc = _tree(attached.read_bytes())
    (files,) = tree.names.children(doc)
    assert [n.label for n in files.children(doc)[:2]] == ["382901691/01_UBL.xml", "382901691/02_EAN_UCC.xml"]
    tree, doc = _tree(named.read_bytes())
    (dests,) = tree.names.children(doc)
    assert [(n.label, n.target) for n in dests.children(doc)[:4]] == [
        ("Doc-Start → page 1", 1),
        ("page.1 → page 1", 1),
        ("page.2 → page 2", 2),
        ("page.3 → page 3", 3),
    ]


def test_every_corpus_file_opens_and_its_top_two_levels_read_without_an_exception() -> None:
    files = sorted(CORPUS.glob("*.pdf"))
    if not files:
        pytest.skip("the corpus is not here")
    opened = 0
    for path in files:
        try:
            doc = open_document(path)
        except Exception:  # noqa: BLE001 -- encrypted files need a password: not this test's matter
            continue
        tree = DocumentTree(doc)
        for group in tree.root.children(doc):
            for node in group.children(doc)[:5]:
                node.children(doc)
                node.raw(doc)
                node.summary(doc)
        opened += 1
    assert opened >= len(files) - 3  # all but the three that need a password


def test_a_predictor_bomb_is_shown_not_decoded() -> None:
    """A 77-byte stream whose /DecodeParms declare 10⁹-byte predictor rows would decode to a
    gigabyte in qpdf: the preview says why it is not decoded instead."""
    import zlib

    from glyphscope.inspector.views.objects import stream_text

    pdf = pikepdf.new()
    bomb = pdf.make_stream(b"")
    bomb.write(zlib.compress(b"q Q"), filter=pikepdf.Name.FlateDecode)
    bomb.DecodeParms = pikepdf.Dictionary(Predictor=2, Columns=10**9)
    text = stream_text(bomb)
    assert text.startswith("(stream data not decoded: its predictor rows are 1,000,000,000 bytes")
