"""Reading the logical structure tree (/StructTreeRoot, ISO 32000-1 §14.7, §14.8.4).

One depth-first walk over /K in creation order yields, for EVERY page, the
MCIDs the tree references in first-occurrence order. Use `read_structures(pdf)`
when more than one page is needed: `read_structure` walks the whole tree too
(the tree is not indexed by page), so calling it per page of a 1,000-page
document means 1,000 walks. `core.document.Document.structure` caches the
result of one `read_structures` call per document.

A broken tree never raises: cycles, wrong types and excessive depth are
recorded in `problems` and the walk goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pikepdf

if TYPE_CHECKING:  # read for a file with article threads only (start-up time)
    from glyphscope.core.article_threads import Bead

MAX_DEPTH = 128  # elements deeper than this are not walked (spec §8)
MAX_PROBLEMS = 20  # a hostile tree could produce one problem per node


@dataclass(frozen=True, slots=True)
class PageStructure:
    """What the structure tree and the article threads say about one page."""

    has_tree: bool  # the document has a /StructTreeRoot dictionary
    mcid_order: tuple[int, ...]  # MCIDs of this page in tree order, first occurrence
    page_has_struct_parents: bool  # the page dictionary has /StructParents
    depth_capped: bool  # the walk stopped at MAX_DEPTH somewhere on this page (or at an unknown page)
    problems: tuple[str, ...]  # what was wrong with the tree (tree-wide)
    beads: tuple[Bead, ...] = ()  # article-thread beads on this page, thread order (core/article_threads.py)
    bead_problems: tuple[str, ...] = ()  # what was wrong with the article threads (document-wide)

    def to_json(self) -> dict[str, object]:
        return {
            "has_tree": self.has_tree,
            "mcid_order": list(self.mcid_order),
            "page_has_struct_parents": self.page_has_struct_parents,
            "depth_capped": self.depth_capped,
            "problems": list(self.problems),
            "beads": [b.to_json() for b in self.beads],
            "bead_problems": list(self.bead_problems),
        }


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    return None


class _Walk:
    """State of one walk: per-page MCID lists and the problems met."""

    def __init__(self, pdf: pikepdf.Pdf) -> None:
        self.page_of: dict[tuple[int, int], int] = {}
        self.page_count = 0
        for i, page in enumerate(pdf.pages):
            self.page_of[page.obj.objgen] = i
            self.page_count += 1
        self.orders: dict[int, list[int]] = {}
        self.seen: dict[int, set[int]] = {}
        self.capped: set[int] = set()
        self.capped_unknown = False
        self.problems: list[str] = []
        self.problem_count = 0

    def problem(self, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(text)

    def page(self, pg: pikepdf.Object | None, inherited: int | None) -> int | None:
        if pg is None:
            return inherited
        try:
            objgen = pg.objgen
        except AttributeError:
            objgen = (0, 0)
        index = self.page_of.get(objgen)
        if index is None:
            self.problem(f"/Pg {objgen[0]} {objgen[1]} R is not a page of this document")
            return inherited
        return index

    def add(self, page: int | None, mcid: int) -> None:
        if page is None:
            self.problem(f"MCID {mcid} has no /Pg on its element or any ancestor")
            return
        seen = self.seen.setdefault(page, set())
        if mcid not in seen:
            seen.add(mcid)
            self.orders.setdefault(page, []).append(mcid)

    def run(self, tree: pikepdf.Dictionary) -> None:
        visited: set[tuple[int, int]] = set()
        # Stack items: (node, inherited page index, depth). Kids pushed reversed → /K order.
        stack: list[tuple[pikepdf.Object, int | None, int]] = []
        self.push_kids(tree.get("/K"), None, 1, stack)
        while stack:
            node, page, depth = stack.pop()
            mcid = _int(node)
            if mcid is not None:
                self.add(page, mcid)
                continue
            if not isinstance(node, pikepdf.Dictionary):
                self.problem(f"unexpected {type(node).__name__} in a /K array")
                continue
            kind = node.get("/Type")
            if kind == "/OBJR" or ("/Obj" in node and "/S" not in node):
                continue  # object references carry no marked content
            if kind == "/MCR" or ("/MCID" in node and "/S" not in node):
                self.mcr(node, page)
                continue
            objgen = node.objgen
            if objgen != (0, 0):
                if objgen in visited:
                    self.problem(f"structure element {objgen[0]} {objgen[1]} R is reached twice (cycle?)")
                    continue
                visited.add(objgen)
            own = self.page(node.get("/Pg"), page)
            if depth > MAX_DEPTH:
                if own is None:
                    self.capped_unknown = True
                else:
                    self.capped.add(own)
                self.problem(f"structure tree deeper than {MAX_DEPTH} levels: the rest is not read")
                continue
            self.push_kids(node.get("/K"), own, depth + 1, stack)

    def push_kids(
        self,
        kids: pikepdf.Object | None,
        page: int | None,
        depth: int,
        stack: list[tuple[pikepdf.Object, int | None, int]],
    ) -> None:
        if kids is None:
            return
        items = list(kids) if isinstance(kids, pikepdf.Array) else [kids]
        for kid in reversed(items):
            stack.append((kid, page, depth))

    def mcr(self, node: pikepdf.Dictionary, page: int | None) -> None:
        mcid = _int(node.get("/MCID"))
        if mcid is None:
            self.problem("marked-content reference without an integer /MCID")
            return
        if "/Stm" in node:
            # Marked content of a form XObject: its MCIDs are not the page's, skip (not mapped).
            self.problem(f"MCID {mcid} refers to a content stream other than the page (/Stm): not mapped")
            return
        self.add(self.page(node.get("/Pg"), page), mcid)


def read_structures(pdf: pikepdf.Pdf) -> dict[int, PageStructure]:
    """Structure facts of every page, keyed by 0-based page index, from ONE tree walk."""
    walk = _Walk(pdf)
    try:
        tree = pdf.Root.get("/StructTreeRoot")
    except (pikepdf.PdfError, ValueError, TypeError, AttributeError) as exc:  # a damaged catalog
        tree = None
        walk.problem(f"cannot read /StructTreeRoot: {exc}")
    has_tree = isinstance(tree, pikepdf.Dictionary)
    if isinstance(tree, pikepdf.Dictionary):
        try:
            walk.run(tree)
        except (pikepdf.PdfError, ValueError, TypeError, RecursionError) as exc:
            walk.problem(f"structure tree walk stopped: {exc}")
    if walk.problem_count > len(walk.problems):
        walk.problems.append(f"... and {walk.problem_count - len(walk.problems)} more problem(s)")
    problems = tuple(walk.problems)
    beads, bead_problems = _beads(pdf)  # the reading-order facts of a page travel together
    out: dict[int, PageStructure] = {}
    for i, page in enumerate(pdf.pages):
        out[i] = PageStructure(
            has_tree=has_tree,
            mcid_order=tuple(walk.orders.get(i, ())),
            page_has_struct_parents="/StructParents" in page.obj,
            depth_capped=walk.capped_unknown or i in walk.capped,
            problems=problems,
            beads=beads.get(i, ()),
            bead_problems=bead_problems,
        )
    return out


def read_structure(pdf: pikepdf.Pdf, page_index: int) -> PageStructure:
    """One page's structure facts (0-based index). Walks the WHOLE tree: prefer `read_structures`."""
    found = read_structures(pdf).get(page_index)
    if found is None:
        raise IndexError(f"page index {page_index} out of range")
    return found


def _beads(pdf: pikepdf.Pdf) -> tuple[dict[int, tuple[Bead, ...]], tuple[str, ...]]:
    """`core.article_threads.read_beads`, whose module is loaded only when the catalog has /Threads (a
    catalog that cannot be read is left to it, which reports why)."""
    try:
        threads = "/Threads" in pdf.Root
    except (pikepdf.PdfError, ValueError, TypeError, AttributeError):
        threads = True
    if not threads:
        return {}, ()
    from glyphscope.core.article_threads import read_beads

    return read_beads(pdf)
