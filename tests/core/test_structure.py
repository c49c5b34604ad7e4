"""Reading /StructTreeRoot (spec §8, §9): tree order, /Pg inheritance, /MCR, cycles, depth cap."""

from __future__ import annotations

import time

import pikepdf
import pytest

from glyphscope.core.structure import MAX_DEPTH, read_structure, read_structures

Name = pikepdf.Name


def new_pdf(pages: int = 2) -> pikepdf.Pdf:
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page()
    for i, page in enumerate(pdf.pages):
        page.obj.StructParents = i
    return pdf


def elem(pdf: pikepdf.Pdf, kids: object, page: pikepdf.Page | None = None, tag: str = "/P") -> pikepdf.Object:
    d = pikepdf.Dictionary(Type=Name.StructElem, S=Name(tag), K=kids)
    if page is not None:
        d.Pg = page.obj
    return pdf.make_indirect(d)


def set_tree(pdf: pikepdf.Pdf, kids: object) -> pikepdf.Object:
    root = pdf.make_indirect(pikepdf.Dictionary(Type=Name.StructTreeRoot, K=kids))
    pdf.Root.StructTreeRoot = root
    return root


def test_no_tree() -> None:
    pdf = new_pdf(1)
    del pdf.pages[0].obj["/StructParents"]
    s = read_structure(pdf, 0)
    assert not s.has_tree and s.mcid_order == () and not s.page_has_struct_parents


def test_tree_order_with_pg_on_parents_only() -> None:
    pdf = new_pdf(2)
    p0, p1 = pdf.pages
    sect = elem(pdf, pikepdf.Array([elem(pdf, 2), elem(pdf, pikepdf.Array([0, 1]))]), p0, "/Sect")
    other = elem(pdf, pikepdf.Array([5, 4]), p1)
    set_tree(pdf, pikepdf.Array([sect, other, elem(pdf, 2, p0)]))  # MCID 2 again: first occurrence wins
    s = read_structures(pdf)
    assert s[0].mcid_order == (2, 0, 1)
    assert s[1].mcid_order == (5, 4)
    assert s[0].has_tree and s[0].page_has_struct_parents and not s[0].depth_capped


def test_mcr_with_own_pg_and_objr_skipped() -> None:
    pdf = new_pdf(2)
    p0, p1 = pdf.pages
    mcr_other = pikepdf.Dictionary(Type=Name.MCR, Pg=p1.obj, MCID=7)
    mcr_same = pikepdf.Dictionary(Type=Name.MCR, MCID=3)
    objr = pikepdf.Dictionary(Type=Name.OBJR, Obj=pdf.make_indirect(pikepdf.Dictionary()))
    set_tree(pdf, elem(pdf, pikepdf.Array([1, mcr_other, objr, mcr_same]), p0))
    s = read_structures(pdf)
    assert s[0].mcid_order == (1, 3)
    assert s[1].mcid_order == (7,)


def test_cyclic_tree_terminates_with_a_problem() -> None:
    pdf = new_pdf(1)
    p0 = pdf.pages[0]
    a = elem(pdf, 0, p0)
    b = elem(pdf, pikepdf.Array([1, a]), p0)
    a.K = pikepdf.Array([0, b])  # a → b → a
    set_tree(pdf, a)
    s = read_structure(pdf, 0)
    assert s.mcid_order == (0, 1)
    assert any("twice" in p for p in s.problems)


def test_depth_cap() -> None:
    pdf = new_pdf(1)
    p0 = pdf.pages[0]
    node = elem(pdf, 9999)  # deepest MCID: beyond the cap
    for i in range(MAX_DEPTH + 10):
        node = elem(pdf, pikepdf.Array([i, node]))
    node.Pg = p0.obj
    set_tree(pdf, node)
    s = read_structure(pdf, 0)
    assert s.depth_capped
    assert 9999 not in s.mcid_order and len(s.mcid_order) == MAX_DEPTH
    assert any(str(MAX_DEPTH) in p for p in s.problems)


@pytest.mark.parametrize(
    "kids",
    [
        pikepdf.String("junk"),
        pikepdf.Array([pikepdf.Dictionary(Type=Name.MCR)]),  # MCR without MCID
        pikepdf.Array([True, 3.5, Name.Foo]),
    ],
)
def test_broken_trees_never_raise(kids: object) -> None:
    pdf = new_pdf(1)
    set_tree(pdf, elem(pdf, kids, pdf.pages[0]))
    s = read_structure(pdf, 0)
    assert s.has_tree and s.mcid_order == () and s.problems


def test_mcid_without_any_pg_is_a_problem_not_a_page_mcid() -> None:
    pdf = new_pdf(1)
    set_tree(pdf, elem(pdf, pikepdf.Array([0, 1])))
    s = read_structure(pdf, 0)
    assert s.mcid_order == () and any("/Pg" in p for p in s.problems)


def test_tree_root_that_is_not_a_dictionary() -> None:
    pdf = new_pdf(1)
    pdf.Root.StructTreeRoot = pikepdf.Array([1, 2])
    assert not read_structure(pdf, 0).has_tree


def test_read_structures_is_one_walk_for_many_pages() -> None:
    pdf = new_pdf(1000)
    kids = pikepdf.Array([elem(pdf, pikepdf.Array([0, 1, 2]), page) for page in pdf.pages])
    set_tree(pdf, kids)
    start = time.process_time()  # CPU time: other work on the machine does not count
    s = read_structures(pdf)
    elapsed = time.process_time() - start
    assert len(s) == 1000 and s[999].mcid_order == (0, 1, 2)
    assert elapsed < 5.0
