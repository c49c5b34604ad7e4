"""Recovering the pages of a file whose page tree qpdf refuses (loops, no /Root, no usable /Pages).

qpdf gives up on such files ("Loop detected in /Pages structure", "unable to find /Root
dictionary", "unable to find page tree") where pdftotext, MuPDF and pdfminer.six still
read them. Like MuPDF's repair we find the pages ourselves, in this order:

1. walk /Pages from the catalog, depth-first in /Kids order, with a visited set of object
   ids (a /Kids entry pointing back at an ancestor is skipped), inheriting /Resources,
   /MediaBox, /CropBox and /Rotate along the walk;
2. no usable /Pages there: scan the file's objects for a /Type /Catalog and walk its /Pages;
3. failing that, take every /Type /Page dictionary in object-number order.

When qpdf cannot even open the file (no /Root, or a catalog without /Pages), it is opened
from an in-memory copy of its bytes with an appended update whose trailer points at a
placeholder catalog, so that the objects can be read. qpdf 12 also ignores objects whose
numbers are far beyond what the file's size can hold (an excerpt whose sparse xref keeps the
original numbering: 22 objects numbered up to 10964, `/Size 10965`); it then answers "unable
to find /Root dictionary" although the catalog, pages and page objects are all there, as
pdftotext, MuPDF, pdfminer.six and qpdf 11 show. Such a file is read from an in-memory copy
whose objects are renumbered 1…n (every `N G R` reference with them) under a fresh xref
(`renumbered_copy`); an encrypted file is not renumbered (its keys depend on the numbers). The recovered pages are then hung
under a fresh /Pages node of the in-memory document, with their inherited attributes
copied in, so everything that reads `pdf.pages` (structure tree, articles, the object
browser) sees them. The file itself is never written.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import pikepdf

QpdfError = pikepdf.PdfError

INHERITABLE = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")  # ISO 32000-1, table 30
MAX_PARENT_CHAIN = 64  # /Parent chains of scanned pages may loop too
MAX_PLACEHOLDER_NUMBER = 8_000_000  # a /Size beyond this is not believed


@dataclass(frozen=True, slots=True)
class RecoveredPages:
    """The pages found, in page order, and how."""

    pages: tuple[pikepdf.Dictionary, ...]
    # per page: the inheritable attributes met on the way to it
    inherited: tuple[Mapping[str, pikepdf.Object | None], ...]
    method: str  # "walk", "catalog scan" or "page scan"
    skipped: int  # /Kids entries skipped: met before (a loop or a shared node) or not dictionaries
    catalog: pikepdf.Dictionary | None = None  # the catalog the pages hang under (None: page scan)


def _objgen(obj: Any) -> tuple[int, int]:  # anything: a direct object or None is (0, 0)
    try:
        return tuple(obj.objgen)  # type: ignore[return-value]
    except (AttributeError, QpdfError):
        return (0, 0)


def _is_page(node: pikepdf.Dictionary) -> bool:
    """A /Type /Page leaf, or a node with content or a MediaBox and no /Kids (a page missing its /Type)."""
    if node.get("/Type") == pikepdf.Name.Page:
        return True
    return "/Kids" not in node and ("/Contents" in node or "/MediaBox" in node)


def walk_page_tree(
    pages_node: pikepdf.Object | None,
) -> tuple[list[pikepdf.Dictionary], list[dict[str, pikepdf.Object]], int]:
    """The page leaves under `pages_node`, depth-first in /Kids order, each visited once.

    Returns the pages, what each inherits from the nodes above it on the walk, and how many
    /Kids entries were skipped (met before, or not dictionaries). Iterative: no recursion limit.
    """
    pages: list[pikepdf.Dictionary] = []
    inherited: list[dict[str, pikepdf.Object]] = []
    skipped = 0
    visited: set[tuple[int, int]] = set()
    stack: list[tuple[pikepdf.Object | None, dict[str, pikepdf.Object]]] = [(pages_node, {})]
    while stack:
        node, inherit = stack.pop()
        if not isinstance(node, pikepdf.Dictionary):
            skipped += 1
            continue
        objgen = _objgen(node)
        if objgen != (0, 0):  # a direct object cannot contain itself: only indirect ones loop
            if objgen in visited:
                skipped += 1
                continue
            visited.add(objgen)
        if _is_page(node):
            pages.append(node)
            inherited.append(inherit)
            continue
        kids = node.get("/Kids")
        if not isinstance(kids, pikepdf.Array):
            if node is not pages_node:
                skipped += 1
            continue
        here = dict(inherit)
        for key in INHERITABLE:
            value = node.get(key)
            if value is not None:
                here[key] = value
        stack.extend((kid, here) for kid in reversed(list(kids)))
    return pages, inherited, skipped


def _inherited_by_parents(page: pikepdf.Dictionary) -> dict[str, pikepdf.Object | None]:
    """A scanned page's inheritable attributes from its /Parent chain (loops stop the chain)."""
    out: dict[str, pikepdf.Object | None] = {}
    seen: set[tuple[int, int]] = set()
    node = page.get("/Parent")
    for _ in range(MAX_PARENT_CHAIN):
        if not isinstance(node, pikepdf.Dictionary) or _objgen(node) in seen:
            break
        seen.add(_objgen(node))
        for key in INHERITABLE:
            if key not in out and node.get(key) is not None:
                out[key] = node.get(key)
        node = node.get("/Parent")
    return out


def _dictionaries(pdf: pikepdf.Pdf, skip: frozenset[tuple[int, int]]) -> list[pikepdf.Dictionary]:
    """Every readable dictionary object of the file, in object-number order."""
    out = []
    for obj in pdf.objects:
        try:
            if isinstance(obj, pikepdf.Dictionary) and _objgen(obj) not in skip:
                out.append(obj)
        except (QpdfError, ValueError, TypeError):
            continue
    out.sort(key=_objgen)
    return out


def recover_pages(
    pdf: pikepdf.Pdf, placeholder: frozenset[tuple[int, int]] = frozenset()
) -> RecoveredPages | None:
    """The pages of `pdf` by walk, catalog scan or page scan (module docstring); None: no page found.

    `placeholder`: object ids of the placeholder catalog and /Pages we added, never taken.
    """
    root: pikepdf.Object | None = None
    try:
        root = pdf.trailer.get("/Root")
    except (QpdfError, ValueError, TypeError):
        root = None
    if isinstance(root, pikepdf.Dictionary) and _objgen(root) not in placeholder:
        pages, inherited, skipped = walk_page_tree(root.get("/Pages"))
        if pages:
            return RecoveredPages(tuple(pages), tuple(inherited), "walk", skipped, root)
    objects = _dictionaries(pdf, placeholder)
    for obj in objects:
        if obj.get("/Type") != pikepdf.Name.Catalog or _objgen(obj) == _objgen(root):
            continue
        pages, inherited, skipped = walk_page_tree(obj.get("/Pages"))
        if pages:
            return RecoveredPages(tuple(pages), tuple(inherited), "catalog scan", skipped, obj)
    found = [obj for obj in objects if obj.get("/Type") == pikepdf.Name.Page]
    if not found:
        return None
    # The catalog still carries the structure tree, threads, outlines: keep it as the root.
    catalogs = [obj for obj in objects if obj.get("/Type") == pikepdf.Name.Catalog]
    if isinstance(root, pikepdf.Dictionary) and _objgen(root) not in placeholder:
        catalogs.insert(0, root)
    by_parents = tuple(_inherited_by_parents(p) for p in found)
    return RecoveredPages(tuple(found), by_parents, "page scan", 0, catalogs[0] if catalogs else None)


def install_pages(pdf: pikepdf.Pdf, recovered: RecoveredPages) -> None:
    """Hang the recovered pages under a fresh /Pages node of the in-memory document (never saved).

    Inherited attributes are copied into each page first, since its /Parent becomes the new node.
    The catalog found by a scan becomes the trailer's /Root (its structure tree, threads, ...).
    """
    if recovered.catalog is not None and _objgen(recovered.catalog) != _objgen(pdf.trailer.get("/Root")):
        pdf.trailer.Root = recovered.catalog
    node = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Pages, Count=len(recovered.pages)))
    kids = []
    for page, inherited in zip(recovered.pages, recovered.inherited, strict=True):
        for key, value in inherited.items():
            if key not in page:
                page[key] = value
        page.Parent = node
        kids.append(page)
    node.Kids = pikepdf.Array(kids)
    pdf.Root.Pages = node


def describe_recovery(recovered: RecoveredPages, problem: str) -> str:
    """One line for the warning and the document finding: what was wrong, how many pages came back."""
    n = len(recovered.pages)
    pages = f"{n} page" + ("" if n == 1 else "s")
    if recovered.method == "walk":
        how = f"{pages} recovered by walking /Pages from the catalog"
        if recovered.skipped:
            how += f", skipping {recovered.skipped} /Kids entr{'y' if recovered.skipped == 1 else 'ies'} met before (a loop) or not a dictionary"
    elif recovered.method == "catalog scan":
        num, gen = _objgen(recovered.catalog)
        how = f"{pages} recovered from the catalog found by scanning the objects ({num} {gen} R)"
    else:
        how = f"{pages} recovered by scanning the objects for /Type /Page (no usable /Pages tree), in object-number order"
    return f"page tree repaired ({problem}): {how}"


# ------------------------------------------------------------------ opening


def _read_all(source: Path | BinaryIO) -> bytes:
    if isinstance(source, Path):
        return source.read_bytes()
    source.seek(0)
    return bytes(source.read())


_OBJ_NUMBER = re.compile(rb"(\d{1,10})\s+\d{1,5}\s+obj\b")
_SIZE = re.compile(rb"/Size\s+(\d{1,10})")
_STARTXREF = re.compile(rb"startxref\s+(\d{1,12})")
_ENCRYPT = re.compile(rb"/Encrypt\s*\d{1,10}\s+\d{1,5}\s+R")
_ID = re.compile(rb"/ID\s*\[\s*<[0-9A-Fa-f\s]*>\s*<[0-9A-Fa-f\s]*>\s*\]")


def with_placeholder_root(data: bytes) -> tuple[bytes, frozenset[tuple[int, int]]]:
    """`data` plus an update whose trailer's /Root is a placeholder catalog with an empty /Pages.

    qpdf then opens the file and every original object can be read and scanned. The
    original trailer's /Encrypt and /ID are kept, so an encrypted file still decrypts.
    """
    numbers = [int(m) for m in _OBJ_NUMBER.findall(data)]
    sizes = [s for s in (int(m) for m in _SIZE.findall(data)) if s < MAX_PLACEHOLDER_NUMBER]
    first = max([*numbers, *(s - 1 for s in sizes), 0]) + 1
    body = bytearray(data if data.endswith(b"\n") else data + b"\n")
    offsets = []
    offsets.append(len(body))
    body += b"%d 0 obj\n<< /Type /Catalog /Pages %d 0 R >>\nendobj\n" % (first, first + 1)
    offsets.append(len(body))
    body += b"%d 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" % (first + 1)
    xref_at = len(body)
    body += b"xref\n%d 2\n" % first + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    extra = b""
    starts = _STARTXREF.findall(data)
    if starts and int(starts[-1]) < len(data):
        extra += b" /Prev " + starts[-1]
    for pattern in (_ENCRYPT, _ID):
        found = pattern.findall(data)
        if found:
            extra += b" " + found[-1]
    body += b"trailer\n<< /Size %d /Root %d 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        first + 2,
        first,
        extra,
        xref_at,
    )
    return bytes(body), frozenset({(first, 0), (first + 1, 0)})


_OBJECT = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b")
_REFERENCE = re.compile(rb"(?<![0-9.])(\d{1,10})\s+(\d{1,5})\s+R\b")
_ROOT = re.compile(rb"/Root\s*(\d{1,10})\s+(\d{1,5})\s+R")
_STREAM = re.compile(rb"stream\r?\n")
_ENDOBJ = re.compile(rb"\bendobj\b")
_ENDSTREAM = re.compile(rb"\bendstream\b")
RENUMBER_FACTOR = 4
"""Objects are renumbered only when the highest object number exceeds this many times the
number of objects found: a densely numbered file is left to qpdf's own reading."""


def renumbered_copy(data: bytes) -> bytes | None:
    """`data` rebuilt with its objects numbered 1…n in file order (the last definition of a number
    wins, as an update would), references rewritten outside stream data, a fresh xref and a
    trailer whose /Root is the renumbered catalog; None when that does not apply (encrypted, no
    /Root, or numbered densely enough for qpdf)."""
    if _ENCRYPT.search(data):
        return None
    roots = _ROOT.findall(data)
    if not roots:
        return None
    bodies: dict[tuple[int, int], bytes] = {}
    pos = 0
    while True:
        m = _OBJECT.search(data, pos)
        if m is None:
            break
        key = (int(m.group(1)), int(m.group(2)))
        start = m.end()
        end_match = _ENDOBJ.search(data, start)
        stream = _STREAM.search(data, start, end_match.start() if end_match else len(data))
        if stream is not None:  # stream data may hold anything: jump to its end first
            closing = _ENDSTREAM.search(data, stream.end())
            end_match = _ENDOBJ.search(data, closing.end()) if closing else end_match
        if end_match is None:
            break
        bodies[key] = data[start : end_match.start()]
        pos = end_match.end()
    if not bodies or max(n for n, _ in bodies) <= RENUMBER_FACTOR * len(bodies):
        return None
    numbers = {key: i + 1 for i, key in enumerate(sorted(bodies, key=lambda k: k[0]))}

    def reference(m: re.Match[bytes]) -> bytes:
        new = numbers.get((int(m.group(1)), int(m.group(2))))
        return b"%d 0 R" % new if new is not None else b"null"

    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []
    for key, number in sorted(numbers.items(), key=lambda kv: kv[1]):
        body = bodies[key]
        stream = _STREAM.search(body)
        head, tail = (body[: stream.start()], body[stream.start() :]) if stream else (body, b"")
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + _REFERENCE.sub(reference, head) + tail + b"\nendobj\n"
    root = numbers.get((int(roots[-1][0]), int(roots[-1][1])))
    if root is None:
        return None
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(offsets) + 1,
        root,
        xref_at,
    )
    return bytes(out)


def _open_for_repair(source: Path | BinaryIO, password: str) -> pikepdf.Pdf:
    if hasattr(source, "seek"):
        source.seek(0)
    # Without pushing inherited attributes down, qpdf does not walk the page tree on open.
    return pikepdf.open(source, password=password, suppress_warnings=True, inherit_page_attributes=False)


def open_repaired(source: Path | BinaryIO, password: str, problem: str) -> tuple[pikepdf.Pdf, str] | None:
    """The document with its pages recovered and a line saying how, or None when no page is found.

    `source` is what qpdf refused (a Path or a seekable file object); `problem` says what was wrong.
    """
    attempts: list[tuple[Path | BinaryIO, frozenset[tuple[int, int]], str]] = [(source, frozenset(), "")]
    try:
        data = _read_all(source)
        patched, placeholder = with_placeholder_root(data)
        attempts.append((io.BytesIO(patched), placeholder, ""))
        renumbered = renumbered_copy(data)
        if renumbered is not None:
            note = "objects renumbered 1…n from a scan of the file (object numbers far beyond its size, which qpdf ignores)"
            attempts.append((io.BytesIO(renumbered), frozenset(), note))
    except (OSError, MemoryError):
        pass
    for opener, skip, how in attempts:
        try:
            pdf = _open_for_repair(opener, password)
        except (QpdfError, ValueError, OSError, MemoryError):
            continue
        try:
            recovered = recover_pages(pdf, skip)
            if recovered is not None:
                install_pages(pdf, recovered)
                if len(pdf.pages) == len(recovered.pages):
                    line = describe_recovery(recovered, problem)
                    return pdf, f"{line}; {how}" if how else line
        except (QpdfError, ValueError, TypeError, AttributeError, RecursionError):
            pass
        pdf.close()
    return None


def open_pdf(source: str | Path | BinaryIO, password: str = "") -> pikepdf.Pdf:
    """`pikepdf.open(source)` that recovers a refused page tree as `open_document` does.

    For a second handle on a file the engine opened (the window's renderer): same pages, same
    order. Raises qpdf's own error when no page can be recovered.
    """
    opener = Path(source) if isinstance(source, str) else source
    try:
        if hasattr(opener, "seek"):
            opener.seek(0)
        pdf = pikepdf.open(opener, password=password, suppress_warnings=True)
    except pikepdf.PasswordError:
        raise
    except QpdfError as exc:
        repaired = open_repaired(opener, password, str(exc))
        if repaired is None:
            raise
        return repaired[0]
    if len(pdf.pages) == 0:  # /Kids not an array: open_document looks for the pages too
        repaired = open_repaired(opener, password, "the page tree holds no page")
        if repaired is not None:
            pdf.close()
            return repaired[0]
    return pdf
