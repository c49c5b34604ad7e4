"""The structure tree of one page (Qt-free): tagged elements with their MCIDs, for the tree panel.

core/structure.py reads the tree for reading order (MCIDs per page, in tree
order); this module keeps its shape for display: each element with its tag,
object number, /T, /Alt, /ActualText, /Lang, the MCIDs of this page it holds
itself, and its child elements — only the subtrees that hold content of this
page. A broken tree never raises: cycles, depth and size caps are problems.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pikepdf

from glyphscope.core.fonts.pdfobj import object_id
from glyphscope.core.glyph_table import GlyphTable

if TYPE_CHECKING:
    from glyphscope.core.document import Document

MAX_DEPTH = 128  # as core.structure
MAX_NODES = 200_000  # elements visited per page build: a hostile tree stops there


@dataclass(slots=True)
class StructElement:
    tag: str  # the structure type as written, e.g. "P", "H1", "Span"
    ref: str  # "14 0 R", "" for a direct element
    mcids: list[int] = field(default_factory=list)  # MCIDs of this page held directly, in /K order
    kids: list[StructElement] = field(default_factory=list)
    title: str | None = None
    alt: str | None = None
    actual_text: str | None = None
    lang: str | None = None
    parent: StructElement | None = field(default=None, repr=False)
    obj: pikepdf.Dictionary | None = field(default=None, repr=False)  # for the object browser

    @property
    def label(self) -> str:
        mcids = ", ".join(str(m) for m in self.mcids)
        own = f" MCID {mcids}" if mcids else ""
        title = f" “{self.title}”" if self.title else ""
        return f"{self.tag}{own}{title}"

    def all_mcids(self) -> list[int]:
        """MCIDs of this element and every element under it, in tree order."""
        out: list[int] = []
        stack = [self]
        while stack:
            node = stack.pop()
            out.extend(node.mcids)
            stack.extend(reversed(node.kids))
        return out

    def walk(self) -> list[StructElement]:
        out: list[StructElement] = []
        stack = [self]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(node.kids))
        return out


@dataclass(slots=True)
class PageStructureTree:
    has_tree: bool
    roots: list[StructElement]
    problems: list[str]
    owner: dict[int, StructElement]  # MCID → the element that holds it

    def elements(self) -> list[StructElement]:
        out: list[StructElement] = []
        for root in self.roots:
            out.extend(root.walk())
        return out


def _text(value: object) -> str | None:
    if isinstance(value, pikepdf.String):
        return str(value)
    return None


class _Builder:
    def __init__(self, page_objgen: tuple[int, int]) -> None:
        self.page = page_objgen
        self.visited: set[tuple[int, int]] = set()
        self.count = 0
        self.problems: list[str] = []
        self.capped = False

    def problem(self, text: str) -> None:
        if len(self.problems) < 20:
            self.problems.append(text)

    def on_page(self, pg: pikepdf.Object | None, inherited: bool) -> bool:
        if pg is None:
            return inherited
        try:
            return bool(pg.objgen == self.page)
        except AttributeError:
            return False

    def element(self, node: pikepdf.Dictionary, inherited: bool, depth: int) -> StructElement | None:
        """The element with its page content, or None when nothing of it is on this page."""
        self.count += 1
        if self.count > MAX_NODES:
            if not self.capped:
                self.capped = True
                self.problem(f"more than {MAX_NODES:,} structure elements: the rest is not shown")
            return None
        objgen = node.objgen
        if objgen != (0, 0):
            if objgen in self.visited:
                self.problem(f"structure element {objgen[0]} {objgen[1]} R is reached twice (cycle?)")
                return None
            self.visited.add(objgen)
        here = self.on_page(node.get("/Pg"), inherited)
        tag = node.get("/S")
        element = StructElement(
            str(tag).lstrip("/") if isinstance(tag, pikepdf.Name) else "?",
            object_id(node, ""),
            title=_text(node.get("/T")),
            alt=_text(node.get("/Alt")),
            actual_text=_text(node.get("/ActualText")),
            lang=_text(node.get("/Lang")),
            obj=node,
        )
        if depth > MAX_DEPTH:
            self.problem(f"structure tree deeper than {MAX_DEPTH} levels: the rest is not shown")
            return None
        kids = node.get("/K")
        items = list(kids) if isinstance(kids, pikepdf.Array) else ([] if kids is None else [kids])
        for kid in items:
            if isinstance(kid, int) and not isinstance(kid, bool):
                if here:
                    element.mcids.append(int(kid))
                continue
            if not isinstance(kid, pikepdf.Dictionary):
                continue
            kind = kid.get("/Type")
            if kind == "/OBJR" or ("/Obj" in kid and "/S" not in kid):
                continue
            if kind == "/MCR" or ("/MCID" in kid and "/S" not in kid):
                mcid = kid.get("/MCID")
                if "/Stm" not in kid and isinstance(mcid, int) and self.on_page(kid.get("/Pg"), here):
                    element.mcids.append(int(mcid))
                continue
            child = self.element(kid, here, depth + 1)
            if child is not None:
                child.parent = element
                element.kids.append(child)
        return element if element.mcids or element.kids else None


def glyphs_of_mcid(glyphs: GlyphTable) -> dict[int, list[int]]:
    """Each marked-content id of the page → the paint indices of its glyphs, in paint order."""
    index: dict[int, list[int]] = defaultdict(list)
    for _, run, painted in glyphs.run_ranges():  # one look per text-showing operator
        if run.mcid is not None:
            index[run.mcid].extend(painted)
    return dict(index)


def page_structure_tree(document: Document, page_number: int) -> PageStructureTree:
    """The elements of the structure tree that hold content of one page (1-based)."""
    with document.locked():
        pdf = document.pdf
        try:
            root = pdf.Root.get("/StructTreeRoot")
        except (pikepdf.PdfError, ValueError, TypeError, AttributeError) as exc:
            return PageStructureTree(False, [], [f"cannot read /StructTreeRoot: {exc}"], {})
        if not isinstance(root, pikepdf.Dictionary):
            return PageStructureTree(False, [], [], {})
        page_obj = document.page_object(page_number)
        builder = _Builder(page_obj.objgen)
        roots: list[StructElement] = []
        kids = root.get("/K")
        items = list(kids) if isinstance(kids, pikepdf.Array) else ([] if kids is None else [kids])
        try:
            for kid in items:
                if isinstance(kid, pikepdf.Dictionary):
                    found = builder.element(kid, False, 1)
                    if found is not None:
                        roots.append(found)
        except (pikepdf.PdfError, ValueError, TypeError, RecursionError) as exc:
            builder.problem(f"structure tree walk stopped: {exc}")
    tree = PageStructureTree(True, roots, builder.problems, {})
    for element in tree.elements():
        for mcid in element.mcids:
            tree.owner.setdefault(mcid, element)
    return tree
