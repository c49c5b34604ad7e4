"""The PDF object browser's model (Qt-free): the document's objects as a lazy tree, pretty-printed.

`DocumentTree` is the whole file: the trailer, the catalog, every page, the AcroForm's field
tree (each widget with its page), the outlines (each item with the page it leads to) and the
name trees (named destinations, embedded files, JavaScript …). A page opens into its groups
(`page_object_tree`): the page dictionary, its fonts (the page's and its forms'), XObjects,
annotations, the structure elements with content on the page, and the content streams.
Every node opens into its raw entries (a dictionary's keys, an array's items, a stream's
dictionary), children built on first use, so a 352-page book opens at once and a reference
cycle costs one level per click; nothing is ever walked recursively without a bound. A
damaged object becomes a message node, never an exception. Nodes that stand for something
the other panels know carry it: a font node its resource key, form path and object id; a
form its path; a structure element its MCIDs; an annotation (or a field's widget) its place
in its page's /Annots; every node of a page the page. Going to an object by number follows
the keys that lead to it from the trailer; a search lists the entries whose key or value
contains a text. pikepdf objects are touched under the document's lock.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

import pikepdf

from glyphscope.core.annotations import Annotation, normal_appearance, read_annotations
from glyphscope.core.fonts.pdfobj import object_id, predictor_problem
from glyphscope.core.resources import page_resources

if TYPE_CHECKING:
    from glyphscope.core.document import Document

MAX_CHILDREN = 2000  # entries listed per node (a 100,000-item array lists the first ones)
MAX_FORM_DEPTH = 8  # fonts of forms inside forms, for the Fonts group
STREAM_PREVIEW = 4000  # bytes of decoded stream data shown
# An entry whose value is null: qpdf reads a reference to an object the file lacks as null
MISSING = "null — a null, or a reference to an object missing from the file"


def _locked(document: Document | None) -> AbstractContextManager[object]:
    """The document's lock; nothing to hold for objects read without a document."""
    return document.locked() if document is not None else nullcontext()


def object_ref(obj: object) -> str:
    """ "12 0 R" for an indirect object, "" otherwise."""
    return object_id(obj, "")


def scalar(value: object, limit: int = 120) -> str:
    """A non-container value in PDF syntax."""
    if isinstance(value, pikepdf.Name):
        return str(value)
    if isinstance(value, pikepdf.String):
        raw = bytes(value)
        if all(32 <= b < 127 for b in raw):
            text = "(" + raw.decode("latin-1") + ")"
        else:
            try:
                text = "(" + raw.decode("utf-16") + ")" if raw[:2] == b"\xfe\xff" else "<" + raw.hex() + ">"
            except UnicodeDecodeError:
                text = "<" + raw.hex() + ">"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, Decimal):
        text = f"{float(value):g}"
    elif value is None:
        text = "null"
    else:
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summary(value: object) -> str:
    """One line: what a value is."""
    ref = object_ref(value)
    prefix = f"{ref} " if ref else ""
    if isinstance(value, pikepdf.Stream):
        kind = value.get("/Subtype") or value.get("/Type")
        filters = "".join(" " + f for f in stream_filters(value))
        length = value.get("/Length")
        size = f", /Length {length}" if isinstance(length, int) else ""
        return f"{prefix}stream{' ' + str(kind) if kind is not None else ''}{filters} ({len(value.keys())} keys{size})"
    if isinstance(value, pikepdf.Dictionary):
        kind = value.get("/Type")
        sub = value.get("/Subtype") or value.get("/S")
        words = " ".join(str(x) for x in (kind, sub) if x is not None)
        return f"{prefix}<< {words + ' ' if words else ''}{len(value.keys())} keys >>"
    if isinstance(value, pikepdf.Array):
        return f"{prefix}[ {len(value)} items ]"
    return prefix + scalar(value)


def pretty(value: object, depth: int = 3, indent: str = "") -> str:
    """PDF syntax, indented; indirect objects below the top are shown as references."""
    if isinstance(value, (pikepdf.Dictionary, pikepdf.Stream)):
        if depth <= 0:
            return "<< … >>"
        lines = ["<<"]
        for key in list(value.keys())[:MAX_CHILDREN]:
            item = value.get(key)
            ref = object_ref(item)
            shown = ref if ref else pretty(item, depth - 1, indent + "  ")
            lines.append(f"{indent}  {key} {shown}")
        lines.append(f"{indent}>>")
        return "\n".join(lines)
    if isinstance(value, pikepdf.Array):
        if depth <= 0:
            return "[ … ]"
        items = [object_ref(v) or pretty(v, depth - 1, indent + "  ") for v in list(value)[:MAX_CHILDREN]]
        one = "[" + " ".join(items) + "]"
        if len(one) <= 100 and "\n" not in one:
            return one
        return "[\n" + "\n".join(f"{indent}  {i}" for i in items) + f"\n{indent}]"
    return scalar(value, limit=400)


def stream_text(stream: pikepdf.Stream, limit: int = STREAM_PREVIEW) -> str:
    """The start of a stream's decoded data (`limit` bytes), readable (content streams and CMaps are text)."""
    problem = predictor_problem(stream)
    if problem is not None:  # a decompression bomb qpdf cannot bound: not decoded
        return f"(stream data not decoded: {problem})"
    try:
        data = stream.read_bytes()
    except (pikepdf.PdfError, ValueError, RuntimeError, NotImplementedError) as exc:
        return f"(stream data cannot be decoded: {exc})"
    head = data[:limit]
    printable = sum(1 for b in head if 32 <= b < 127 or b in (9, 10, 13))
    if head and printable / len(head) > 0.85:
        text = head.decode("latin-1")
    else:
        text = " ".join(f"{b:02x}" for b in head[: max(512, limit // 8)])
    more = f"\n… ({len(data):,} bytes decoded in all)" if len(data) > len(head) else ""
    return text + more


def stream_filters(stream: pikepdf.Stream) -> list[str]:
    """The stream's /Filter names, in the order they are undone."""
    value = stream.get("/Filter")
    items = list(value) if isinstance(value, pikepdf.Array) else [value] if value is not None else []
    return [str(f) for f in items]


def stream_facts(stream: pikepdf.Stream) -> str:
    """ "% filters /FlateDecode, 1,234 bytes as stored" (a comment line above the dictionary)."""
    filters = ", ".join(stream_filters(stream)) or "none"
    try:
        stored = f"{len(stream.read_raw_bytes()):,} bytes as stored"
    except (pikepdf.PdfError, ValueError, RuntimeError) as exc:
        stored = f"stored data unreadable: {exc}"
    return f"% filters {filters}, {stored}"


FONTS_GROUP = "fonts"  # ObjectNode.group of the page's fonts
FIELDS_GROUP = "fields"  # … of the document's AcroForm field tree
MAX_FIELD_DEPTH = 32  # /Kids chains of form fields in hostile files can loop or nest absurdly


@dataclass(slots=True, eq=False)  # a node is itself: compared by identity, not field by field
class ObjectNode:
    label: str
    value: object = None  # the PDF object (a number, a name … or a container); None for a group
    role: str = ""  # "page", "font", "xobject", "form", "annotation", "struct", "content", "group", ""
    font_key: str = ""
    font_id: str = ""
    form_path: tuple[str, ...] = ()
    mcids: tuple[int, ...] = ()
    annotation: int = -1  # an annotation node: its position in the page's /Annots (Annotation.index)
    group: str = ""  # which group of the page's objects a group node is: FONTS_GROUP (its label has a count)
    parent: ObjectNode | None = field(default=None, repr=False)
    _children: list[ObjectNode] | None = field(default=None, repr=False)
    page: int = 0  # the page (1-based) a page node stands for, or whose objects a page group lists
    target: int = 0  # the page an outline item or a destination leads to (0: none known)
    row: int = 0  # position among its parent's children (what a Qt item model asks for)
    build: Callable[[], list[ObjectNode]] | None = field(default=None, repr=False)  # else raw entries
    note: bool = False  # a message (a damaged object, entries left out), not an object

    @property
    def opened(self) -> bool:
        """Whether the entries were read (`children` reads them on first use)."""
        return self._children is not None

    def add(self, child: ObjectNode) -> ObjectNode:
        if self._children is None:
            self._children = []
        return self._adopt(child)

    def children(self, document: Document | None) -> list[ObjectNode]:
        """The node's entries, built on first use. Never raises: a damaged object becomes a message."""
        if self._children is None:
            self._children = []
            try:
                with _locked(document):
                    built = self.build() if self.build is not None else raw_children(self.value)
            except Exception as exc:  # noqa: BLE001 -- untrusted input: one bad object is a message
                built = [note_node(f"(cannot be read: {type(exc).__name__}: {exc})")]
            for child in built:
                self._adopt(child)
        return self._children

    def _adopt(self, child: ObjectNode) -> ObjectNode:
        assert self._children is not None
        child.parent = self
        child.row = len(self._children)
        self._children.append(child)
        return child

    def built(self) -> bool:
        """Whether its children were read (a model lists no more than that)."""
        return self._children is not None

    def has_children(self) -> bool:
        if self._children is not None:
            return bool(self._children)
        if self.build is not None:
            return True
        return isinstance(self.value, (pikepdf.Dictionary, pikepdf.Array, pikepdf.Stream))

    def page_of(self) -> int:
        """The page whose objects this node is one of (its own, or its nearest ancestor's), 0: none."""
        node: ObjectNode | None = self
        while node is not None:
            if node.page:
                return node.page
            node = node.parent
        return 0

    def raw(self, document: Document | None, preview: int = STREAM_PREVIEW) -> str:
        """The object pretty-printed (a stream with its filters, length and the start of its data).
        Never raises: a damaged object says so."""
        if self.value is None:
            return self.label if self.role else f"{self.label} {MISSING}"
        try:
            with _locked(document):
                ref = object_ref(self.value)
                head = f"{ref} obj\n" if ref else ""
                text = head + pretty(self.value)
                if isinstance(self.value, pikepdf.Stream):
                    text = head + stream_facts(self.value) + "\n" + text[len(head) :]
                    text += "\nstream\n" + stream_text(self.value, preview) + "\nendstream"
                if self.role == "annotation" and isinstance(self.value, pikepdf.Dictionary):
                    text += appearance_text(self.value)
                return text
        except Exception as exc:  # noqa: BLE001 -- untrusted input
            return f"(cannot be read: {type(exc).__name__}: {exc})"

    def summary(self, document: Document | None) -> str:
        if self.value is None:
            return "" if self.role else MISSING
        try:
            with _locked(document):
                return summary(self.value)
        except Exception as exc:  # noqa: BLE001 -- untrusted input
            return f"(cannot be read: {type(exc).__name__})"

    def path(self) -> tuple[str, ...]:
        """Labels from the top of the tree down to this node."""
        labels: list[str] = []
        node: ObjectNode | None = self
        while node is not None and node.parent is not None:
            labels.append(node.label)
            node = node.parent
        return tuple(reversed(labels))


def note_node(text: str) -> ObjectNode:
    """A message in the tree (a damaged object, entries left out): no object, no children."""
    node = ObjectNode(text, None, "note", note=True)
    node._children = []
    return node


def appearance_text(annot: pikepdf.Dictionary) -> str:
    """The appearance a viewer draws for an annotation (/AP /N, or its /AS state), with its stream."""
    stream, state = normal_appearance(annot)
    if stream is None:
        why = f"no appearance for its state /{state}" if state else "no normal appearance (/AP /N)"
        return f"\n\n% drawn appearance: none — {why}; a viewer draws nothing of it"
    named = f"/AP /N /{state}" if state else "/AP /N"
    ref = object_ref(stream)
    return (
        f"\n\n% drawn appearance: {named} {ref}".rstrip()
        + "\n"
        + pretty(stream)
        + "\nstream\n"
        + stream_text(stream)
        + "\nendstream"
    )


def annotation_source(document: Document, page_number: int, index: int) -> str:
    """The page's annotation at /Annots position `index` as a user reads it: its dictionary, then the
    appearance a viewer draws with its stream. Never raises: a damaged object is said so."""
    try:
        with document.locked():
            annots = document.page_object(page_number).get("/Annots")
            annot = list(annots)[index] if isinstance(annots, pikepdf.Array) and index < len(annots) else None
            if not isinstance(annot, pikepdf.Dictionary):
                return f"(annotation [{index}] of page {page_number} is not a dictionary)"
            ref = object_ref(annot)
            return (f"{ref} obj\n" if ref else "") + pretty(annot) + appearance_text(annot)
    except (pikepdf.PdfError, ValueError, TypeError, AttributeError, IndexError) as exc:
        return f"(annotation [{index}] cannot be read: {type(exc).__name__}: {exc})"


def find_annotation(root: ObjectNode, index: int) -> ObjectNode | None:
    """The node of the page's annotation at /Annots position `index`."""
    for group in root._children or ():
        for node in group._children or ():
            if node.role == "annotation" and node.annotation == index:
                return node
    return None


def _entries(value: object, limit: int = MAX_CHILDREN) -> tuple[list[tuple[str, object]], int]:
    """A dictionary's (or a stream dictionary's) first `limit` entries with their keys, an array's
    items as "[i]", and how many there are in all (the rest are not read). A key whose value is
    null stays listed: it is how a reference to a missing object reads."""
    if isinstance(value, (pikepdf.Dictionary, pikepdf.Stream)):
        items = list(value.items())  # pikepdf makes them all at once (keys() leaves out a missing object)
        return [(str(k), v) for k, v in items[:limit]], len(items)
    if isinstance(value, pikepdf.Array):
        return [(f"[{i}]", v) for i, v in enumerate(itertools.islice(value, limit))], len(value)
    return [], 0


def raw_children(value: object) -> list[ObjectNode]:
    entries, total = _entries(value)
    nodes = [ObjectNode(label, item) for label, item in entries]
    if total > MAX_CHILDREN:
        nodes.append(note_node(f"… {total - MAX_CHILDREN:,} more entries not listed (of {total:,})"))
    return nodes


def _font_label(key: str, font: pikepdf.Object | None, where: tuple[str, ...]) -> str:
    base = font.get("/BaseFont") if isinstance(font, pikepdf.Dictionary) else None
    sub = font.get("/Subtype") if isinstance(font, pikepdf.Dictionary) else None
    in_form = f" in {' › '.join(where)}" if where else ""
    parts = [str(x).lstrip("/") for x in (base, sub) if x is not None]
    return f"{key}{in_form} — {', '.join(parts) or 'font'} {object_ref(font)}".rstrip()


def _add_fonts(
    group: ObjectNode, resources: pikepdf.Object | None, where: tuple[str, ...], seen: set[str], depth: int
) -> None:
    fonts = resources.get("/Font") if isinstance(resources, pikepdf.Dictionary) else None
    if isinstance(fonts, pikepdf.Dictionary):
        for key in map(str, fonts.keys()):
            font = fonts.get(key)
            ident = object_ref(font) or key
            group.add(ObjectNode(_font_label(str(key), font, where), font, "font", str(key), ident, where))
    xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
    if not isinstance(xobjects, pikepdf.Dictionary) or depth >= MAX_FORM_DEPTH:
        return
    for name in map(str, xobjects.keys()):
        form = xobjects.get(name)
        if not isinstance(form, pikepdf.Stream) or form.get("/Subtype") != pikepdf.Name.Form:
            continue
        ident = object_ref(form) or f"{where}{name}"
        if ident in seen:
            continue
        seen.add(ident)
        own = form.get("/Resources")
        if isinstance(own, pikepdf.Dictionary):
            _add_fonts(group, own, where + (str(name),), seen, depth + 1)


def _xobject_label(name: str, xobj: object) -> str:
    sub = xobj.get("/Subtype") if isinstance(xobj, pikepdf.Stream) else None
    size = ""
    if sub == pikepdf.Name.Image and isinstance(xobj, pikepdf.Stream):
        size = f" {xobj.get('/Width')}×{xobj.get('/Height')}"
    kind = str(sub).lstrip("/") if sub is not None else "?"
    return f"{name} — {kind}{size} {object_ref(xobj)}".rstrip()


def _struct_elements(document: Document, page_number: int) -> list[ObjectNode]:
    from glyphscope.inspector.views.structure import page_structure_tree

    tree = page_structure_tree(document, page_number)
    out = []
    for element in tree.elements():
        if not element.mcids:
            continue
        label = f"{element.label} {element.ref}".rstrip()
        out.append(ObjectNode(label, element.obj, "struct", mcids=tuple(element.mcids)))
    return out


def _annotation_label(i: int, annot: object, found: Annotation | None) -> str:
    """ "[0] Widget 12 0 R — field person.name (Tx) “Jane” — drawn" (or why a viewer does not draw it)."""
    if found is None:
        sub = annot.get("/Subtype") if isinstance(annot, pikepdf.Dictionary) else None
        return f"[{i}] {str(sub).lstrip('/') if sub is not None else '?'} {object_ref(annot)}".rstrip()
    field = f" — field {found.field_name} ({found.field_type or '?'})" if found.field_name else ""
    value = f" “{found.value[:40]}”" if found.value else ""
    shown = "drawn" if found.skip is None else f"not drawn: {found.skip.value.replace('_', ' ')}"
    return f"[{i}] {found.subtype or '?'} {object_ref(annot)}".rstrip() + f"{field}{value} — {shown}"


def _add_fields(group: ObjectNode, document: Document, page_obj: pikepdf.Dictionary) -> None:
    """The document's AcroForm field tree (/Fields, /Kids), each field with its type and value; a field
    with a widget on this page is marked so."""
    annots = page_obj.get("/Annots")
    here = (
        {a.objgen for a in annots if isinstance(a, pikepdf.Dictionary)}
        if isinstance(annots, pikepdf.Array)
        else set()
    )

    def on_this_page(kid: pikepdf.Dictionary, node: ObjectNode) -> str:
        return " — on this page" if kid.objgen in here else ""

    add_field_tree(group, document.pdf.Root.get("/AcroForm"), on_this_page)


def add_field_tree(
    group: ObjectNode, form: object, where: Callable[[pikepdf.Dictionary, ObjectNode], str]
) -> None:
    """The AcroForm's field tree (/Fields, /Kids) under `group`, each field with its type and value;
    `where(kid, node)` says where its widget is (and may mark the node with its page). Read eagerly,
    bounded: /Kids chains of hostile files loop or nest absurdly."""
    top = form.get("/Fields") if isinstance(form, pikepdf.Dictionary) else None
    if not isinstance(top, pikepdf.Array):
        return
    seen: set[tuple[int, int]] = set()
    added = 0

    def walk(parent: ObjectNode, kids: pikepdf.Array, prefix: str, depth: int) -> None:
        nonlocal added
        for kid in list(kids)[:MAX_CHILDREN]:
            if added >= MAX_CHILDREN or depth > MAX_FIELD_DEPTH or not isinstance(kid, pikepdf.Dictionary):
                continue
            if kid.objgen != (0, 0):
                if kid.objgen in seen:
                    continue
                seen.add(kid.objgen)
            partial = kid.get("/T")
            name = (
                f"{prefix}.{partial}"
                if prefix and isinstance(partial, pikepdf.String)
                else str(partial or "")
            )
            if not isinstance(partial, pikepdf.String):  # a widget of its parent field, not a field
                name = prefix
            kind = kid.get("/FT")
            value = kid.get("/V")
            parts = [name or "(no name)"]
            if isinstance(kind, pikepdf.Name):
                parts.append(f"({str(kind).lstrip('/')})")
            if isinstance(value, (pikepdf.String, pikepdf.Name)):
                parts.append(f"“{str(value).lstrip('/')[:40]}”")
            node = parent.add(ObjectNode(" ".join(parts) + f" {object_ref(kid)}".rstrip(), kid, "field"))
            node.label += where(kid, node)
            added += 1
            children = kid.get("/Kids")
            if isinstance(children, pikepdf.Array):
                walk(node, children, name, depth + 1)
            if node._children is None:
                node._children = []

    walk(group, top, "", 0)


def page_object_tree(document: Document, page_number: int) -> ObjectNode:
    """The browser's root for one page (1-based). Never raises for a damaged object: it shows what it read."""
    root = ObjectNode(f"Page {page_number}", None, "group", page=page_number)
    with document.locked():
        page_obj = document.page_object(page_number)
        root.add(ObjectNode(f"Page dictionary {object_ref(page_obj)}".rstrip(), page_obj, "page"))
        resources = page_resources(page_obj)
        fonts = root.add(ObjectNode("Fonts", None, "group", group=FONTS_GROUP))
        xobjects = root.add(ObjectNode("XObjects", None, "group"))
        annotations = root.add(ObjectNode("Annotations", None, "group"))
        fields = root.add(ObjectNode("Form fields (AcroForm)", None, "group", group=FIELDS_GROUP))
        structure = root.add(ObjectNode("Structure elements", None, "group"))
        contents = root.add(ObjectNode("Content streams", None, "group"))
        try:
            if resources is not None:
                root.add(ObjectNode("Resources", resources, "resources"))
                _add_fonts(fonts, resources, (), set(), 0)
                xobj = resources.get("/XObject")
                if isinstance(xobj, pikepdf.Dictionary):
                    for name in map(str, xobj.keys()):
                        value = xobj.get(name)
                        is_form = (
                            isinstance(value, pikepdf.Stream) and value.get("/Subtype") == pikepdf.Name.Form
                        )
                        xobjects.add(
                            ObjectNode(
                                _xobject_label(str(name), value),
                                value,
                                "form" if is_form else "xobject",
                                form_path=(str(name),) if is_form else (),
                            )
                        )
            annots = page_obj.get("/Annots")
            if isinstance(annots, pikepdf.Array):
                read = {a.index: a for a in read_annotations(page_obj)[0]}
                for i, annot in enumerate(list(annots)[:MAX_CHILDREN]):
                    annotations.add(
                        ObjectNode(
                            _annotation_label(i, annot, read.get(i)), annot, "annotation", annotation=i
                        )
                    )
            _add_fields(fields, document, page_obj)
            content = page_obj.get("/Contents")
            streams = list(content) if isinstance(content, pikepdf.Array) else [content]
            for i, stream in enumerate(streams):
                if isinstance(stream, pikepdf.Stream):
                    contents.add(ObjectNode(f"[{i}] {object_ref(stream)}".rstrip(), stream, "content"))
        except (pikepdf.PdfError, ValueError, TypeError, AttributeError) as exc:
            root.add(ObjectNode(f"(reading stopped: {exc})", None, "group"))
    try:
        for node in _struct_elements(document, page_number):
            structure.add(node)
    except (pikepdf.PdfError, ValueError, TypeError, AttributeError) as exc:
        structure.add(ObjectNode(f"(structure tree unreadable: {exc})", None, "group"))
    for group in (fonts, xobjects, annotations, fields, structure, contents):
        n = len(group._children or [])
        group.label = f"{group.label} ({n})"
        if group._children is None:
            group._children = []
    return root


def find_font(
    root: ObjectNode, font_id: str, font_key: str = "", form_path: tuple[str, ...] = ()
) -> ObjectNode | None:
    """The Fonts-group node of a font: same object id (and key and form path when they match)."""
    fonts = next((c for c in root._children or [] if c.group == FONTS_GROUP), None)
    if fonts is None:
        return None
    candidates = [n for n in fonts._children or [] if n.font_id == font_id]
    exact = [n for n in candidates if n.font_key == font_key and n.form_path == tuple(form_path)]
    found = exact or candidates
    return found[0] if found else None


# -- the whole document ------------------------------------------------------------------------

PAGES_GROUP = "pages"  # ObjectNode.group of the document's page list
DOCUMENT_FIELDS_GROUP = "document-fields"  # … of the AcroForm's field tree, with each widget's page
OUTLINES_GROUP = "outlines"
NAMES_GROUP = "names"
FOUND_GROUP = "found"  # objects gone to that nothing reachable from the trailer refers to
MAX_WALK = 200_000  # objects a search or a path search visits at most (a hostile file has millions)
MAX_DIRECT_DEPTH = 16  # nesting of direct dictionaries and arrays inside one object, for a search
MAX_HITS = 500  # search results listed
MAX_NAMES = 100_000  # entries read from a name tree to resolve named destinations
MAX_DEST_HOPS = 4  # a named destination naming another one …

ObjGen = tuple[int, int]
_REF = re.compile(r"^\s*(\d+)(?:\s+(\d+))?(?:\s+R)?\s*$")


def parse_ref(text: str) -> ObjGen | None:
    """(12, 0) for "12 0 R", "12 0" or "12"; None for anything else."""
    match = _REF.match(text)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


def reader_text(value: object) -> str:
    """A text string (/Title, /T, a name tree key) as a reader reads it."""
    if isinstance(value, pikepdf.String):
        try:
            return str(value)
        except (UnicodeDecodeError, ValueError):
            return scalar(value)
    if isinstance(value, pikepdf.Name):
        return str(value).lstrip("/")
    return scalar(value)


def name_tree_entries(tree: object, limit: int) -> tuple[list[tuple[str, object]], str]:
    """A name tree's (key, value) pairs in order (/Names of the leaves under /Kids), at most `limit`,
    and a note when it was cut short or loops."""
    out: list[tuple[str, object]] = []
    seen: set[ObjGen] = set()
    stack: list[tuple[object, int]] = [(tree, 0)]
    note = ""
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, pikepdf.Dictionary):
            continue
        if node.objgen != (0, 0):
            if node.objgen in seen:
                note = "(a /Kids entry refers back to a node read above: not read again)"
                continue
            seen.add(node.objgen)
        names = node.get("/Names")
        if isinstance(names, pikepdf.Array):
            items = list(names)
            for i in range(0, len(items) - 1, 2):
                if len(out) >= limit:
                    return out, f"… entries after the first {limit:,} not listed"
                out.append((reader_text(items[i]), items[i + 1]))
        kids = node.get("/Kids")
        if isinstance(kids, pikepdf.Array):
            if depth >= MAX_FIELD_DEPTH:
                note = f"(/Kids nested deeper than {MAX_FIELD_DEPTH} levels: not read)"
                continue
            stack.extend((kid, depth + 1) for kid in reversed(list(kids)))
    return out, note


@dataclass(frozen=True, slots=True)
class SearchHit:
    """An entry whose key or value contains the searched text: the object, the keys down to it."""

    objgen: ObjGen
    path: tuple[str, ...]  # keys (and "[i]") inside the object, down to the entry
    text: str  # the entry as "/Key value"

    @property
    def ref(self) -> str:
        return f"{self.objgen[0]} {self.objgen[1]} R"


class DocumentTree:
    """The whole document as a lazy tree: trailer, catalog, pages (each with its page's objects), the
    AcroForm's fields, outlines and name trees; every node opens into the objects it refers to, read
    when opened. Opening costs a few nodes whatever the file's size; reference cycles cost nothing
    until a user opens them one level at a time. Indexes (page of an object, named destinations,
    where each object hangs from the trailer) are built on first use and belong to this document."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self._page_index: dict[ObjGen, int] | None = None
        self._widgets: dict[ObjGen, tuple[int, int]] | None = None
        self._named: dict[str, object] | None = None
        self._parents: dict[ObjGen, tuple[ObjGen, tuple[str, ...]]] | None = None
        self.root = ObjectNode("Document", None, "group")
        with document.locked():
            pdf = document.pdf
            self.trailer = self.root.add(ObjectNode("Trailer", pdf.trailer, "trailer"))
            catalog = pdf.Root
            self.catalog = self.root.add(
                ObjectNode(f"Catalog {object_ref(catalog)}".rstrip(), catalog, "catalog")
            )
            count = document.page_count
            self.pages = self.root.add(
                ObjectNode(
                    f"Pages ({count})", pdf.Root.get("/Pages"), "group", group=PAGES_GROUP, build=self._pages
                )
            )
            self.fields = self.root.add(self._fields_group(catalog.get("/AcroForm")))
            self.outlines = self.root.add(self._outlines_group(catalog.get("/Outlines")))
            self.names = self.root.add(self._names_group(catalog))
        self.found = self.root.add(
            ObjectNode("Gone to by number (not reachable from the trailer)", None, "group")
        )
        self.found.group = FOUND_GROUP
        self.found._children = []

    # -- groups --------------------------------------------------------------------------------
    def _pages(self) -> list[ObjectNode]:
        out = []
        for n in range(1, self.document.page_count + 1):
            try:
                page = self.document.page_object(n)
            except (pikepdf.PdfError, ValueError, IndexError, KeyError) as exc:
                out.append(note_node(f"Page {n}: cannot be read ({exc})"))
                continue
            out.append(
                ObjectNode(
                    f"Page {n} {object_ref(page)}".rstrip(), page, "page", page=n, build=self._page_builder(n)
                )
            )
        return out

    def _page_builder(self, page_number: int) -> Callable[[], list[ObjectNode]]:
        def build() -> list[ObjectNode]:
            return list(page_object_tree(self.document, page_number).children(self.document))

        return build

    def _fields_group(self, form: object) -> ObjectNode:
        fields = form.get("/Fields") if isinstance(form, pikepdf.Dictionary) else None
        if not isinstance(fields, pikepdf.Array):
            node = ObjectNode("Form fields (AcroForm): none", None, "group", group=DOCUMENT_FIELDS_GROUP)
            node._children = []
            return node

        def build() -> list[ObjectNode]:
            holder = ObjectNode("", None)
            add_field_tree(holder, form, self._widget_place)
            return [*(holder._children or []), _entries_node("AcroForm dictionary", form)]

        label = f"Form fields (AcroForm) ({len(fields)})"
        return ObjectNode(label, form, "group", group=DOCUMENT_FIELDS_GROUP, build=build)

    def _widget_place(self, kid: pikepdf.Dictionary, node: ObjectNode) -> str:
        """ " — page 2" for a field's widget annotation (the node then links to it)."""
        place = self.widgets().get(kid.objgen) if kid.objgen != (0, 0) else None
        if place is None:
            return ""
        node.page, node.annotation = place
        return f" — page {place[0]}"

    def _outlines_group(self, outlines: object) -> ObjectNode:
        if not isinstance(outlines, pikepdf.Dictionary) or not isinstance(
            outlines.get("/First"), pikepdf.Dictionary
        ):
            node = ObjectNode("Outlines (bookmarks): none", outlines, "group", group=OUTLINES_GROUP)
            node._children = [] if not isinstance(outlines, pikepdf.Dictionary) else None
            return node
        return ObjectNode(
            f"Outlines (bookmarks) {object_ref(outlines)}".rstrip(),
            outlines,
            "group",
            group=OUTLINES_GROUP,
            build=self._outline_builder(outlines),
        )

    def _outline_builder(self, parent: pikepdf.Dictionary) -> Callable[[], list[ObjectNode]]:
        def build() -> list[ObjectNode]:
            out: list[ObjectNode] = []
            seen: set[ObjGen] = set()
            item = parent.get("/First")
            while isinstance(item, pikepdf.Dictionary):
                if item.objgen in seen:
                    out.append(note_node("(the /Next chain comes back to an item above: stopped)"))
                    break
                if len(out) >= MAX_CHILDREN:
                    out.append(note_node(f"… items after the first {MAX_CHILDREN:,} not listed"))
                    break
                seen.add(item.objgen)
                out.append(self._outline_item(item))
                item = item.get("/Next")
            out.append(_entries_node("Entries", parent))
            return out

        return build

    def _outline_item(self, item: pikepdf.Dictionary) -> ObjectNode:
        title = reader_text(item.get("/Title")) if item.get("/Title") is not None else "(no /Title)"
        target = self.destination_page(item)
        where = f" → page {target}" if target else ""
        return ObjectNode(
            f"{title[:120]}{where} {object_ref(item)}".rstrip(),
            item,
            "outline",
            target=target,
            build=self._outline_builder(item),
        )

    def _names_group(self, catalog: pikepdf.Object) -> ObjectNode:
        names = catalog.get("/Names")
        dests = catalog.get("/Dests")  # PDF 1.1 named destinations: a dictionary in the catalog
        if not isinstance(names, pikepdf.Dictionary) and not isinstance(dests, pikepdf.Dictionary):
            node = ObjectNode("Names: none", None, "group", group=NAMES_GROUP)
            node._children = []
            return node

        def build() -> list[ObjectNode]:
            out = []
            if isinstance(names, pikepdf.Dictionary):
                for key, tree in names.items():
                    out.append(self._name_tree(str(key), tree))
            if isinstance(dests, pikepdf.Dictionary):
                node = ObjectNode(
                    f"Dests (catalog dictionary, {len(dests.keys())}) {object_ref(dests)}".rstrip(),
                    dests,
                    "names",
                    build=lambda: [self._named_entry("/Dests", str(k), v) for k, v in dests.items()],
                )
                out.append(node)
            return out

        value = names if isinstance(names, pikepdf.Dictionary) else None
        return ObjectNode(
            f"Names {object_ref(names)}".rstrip(), value, "group", group=NAMES_GROUP, build=build
        )

    def _name_tree(self, key: str, tree: object) -> ObjectNode:
        def build() -> list[ObjectNode]:
            entries, note = name_tree_entries(tree, MAX_CHILDREN)
            out = [self._named_entry(key, name, value) for name, value in entries]
            if note:
                out.append(note_node(note))
            out.append(_entries_node("Entries", tree))
            return out

        return ObjectNode(
            f"{key.lstrip('/')} (name tree) {object_ref(tree)}".rstrip(), tree, "names", build=build
        )

    def _named_entry(self, tree: str, name: str, value: object) -> ObjectNode:
        target = self.resolve_destination(value) if tree in ("/Dests",) else 0
        where = f" → page {target}" if target else ""
        shown = name if tree != "/Dests" or not name.startswith("/") else name.lstrip("/")
        node = ObjectNode(
            f"{shown[:120]}{where}", value if isinstance(value, pikepdf.Object) else None, "named"
        )
        node.target = target
        return node

    # -- indexes -------------------------------------------------------------------------------
    def page_index(self) -> dict[ObjGen, int]:
        """Page dictionary object → page number (1-based)."""
        if self._page_index is None:
            index: dict[ObjGen, int] = {}
            with self.document.locked():
                for n in range(1, self.document.page_count + 1):
                    try:
                        index.setdefault(self.document.page_object(n).objgen, n)
                    except (pikepdf.PdfError, ValueError, IndexError, KeyError):
                        continue
            self._page_index = index
        return self._page_index

    def widgets(self) -> dict[ObjGen, tuple[int, int]]:
        """Annotation object → (page number, position in that page's /Annots)."""
        if self._widgets is None:
            found: dict[ObjGen, tuple[int, int]] = {}
            with self.document.locked():
                for n in range(1, self.document.page_count + 1):
                    try:
                        annots = self.document.page_object(n).get("/Annots")
                    except (pikepdf.PdfError, ValueError, IndexError, KeyError):
                        continue
                    if not isinstance(annots, pikepdf.Array):
                        continue
                    for i, annot in enumerate(annots):
                        if isinstance(annot, pikepdf.Dictionary) and annot.objgen != (0, 0):
                            found.setdefault(annot.objgen, (n, i))
            self._widgets = found
        return self._widgets

    def named_destinations(self) -> dict[str, object]:
        if self._named is None:
            named: dict[str, object] = {}
            with self.document.locked():
                root = self.document.pdf.Root
                dests = root.get("/Dests")
                if isinstance(dests, pikepdf.Dictionary):
                    named.update((str(k).lstrip("/"), v) for k, v in dests.items())
                names = root.get("/Names")
                tree = names.get("/Dests") if isinstance(names, pikepdf.Dictionary) else None
                if tree is not None:
                    named.update(name_tree_entries(tree, MAX_NAMES)[0])
            self._named = named
        return self._named

    def resolve_destination(self, dest: object) -> int:
        """The page (1-based) a destination, a named one or a GoTo action leads to; 0 when unknown."""
        for _ in range(MAX_DEST_HOPS):
            if isinstance(dest, (pikepdf.Name, pikepdf.String)):
                dest = self.named_destinations().get(reader_text(dest))
            elif isinstance(dest, pikepdf.Dictionary):
                dest = dest.get("/D")
            elif isinstance(dest, pikepdf.Array) and len(dest) > 0:
                first = dest[0]
                if isinstance(first, pikepdf.Dictionary):
                    return self.page_index().get(first.objgen, 0)
                if isinstance(first, int) and 0 <= first < self.document.page_count:
                    return int(first) + 1
                return 0
            else:
                return 0
        return 0

    def destination_page(self, item: pikepdf.Dictionary) -> int:
        """The page an outline item (or a link) leads to: its /Dest, or its /A GoTo action's /D."""
        dest = item.get("/Dest")
        if dest is None:
            action = item.get("/A")
            if isinstance(action, pikepdf.Dictionary) and action.get("/S") == pikepdf.Name.GoTo:
                dest = action.get("/D")
        return self.resolve_destination(dest) if dest is not None else 0

    def parents(self) -> dict[ObjGen, tuple[ObjGen, tuple[str, ...]]]:
        """Object → (the object it is first reached from, the keys from that one down to it), breadth
        first from the trailer ((0, 0)); each object visited once, at most MAX_WALK of them."""
        if self._parents is None:
            parents: dict[ObjGen, tuple[ObjGen, tuple[str, ...]]] = {}
            with self.document.locked():
                queue: deque[tuple[object, ObjGen]] = deque([(self.document.pdf.trailer, (0, 0))])
                while queue and len(parents) < MAX_WALK:
                    obj, here = queue.popleft()
                    for path, child in _direct_walk(obj):
                        if isinstance(child, pikepdf.Object) and child.is_indirect:
                            og = child.objgen
                            if og not in parents and og != here:
                                parents[og] = (here, path)
                                queue.append((child, og))
            self._parents = parents
        return self._parents

    # -- going to an object, searching ---------------------------------------------------------
    def locate(self, objgen: ObjGen) -> ObjectNode | None:
        """The node of an object: its page's node for a page, else reached by the keys that lead to it
        from the trailer (its nodes built on the way); None when no such object is in the file. For an
        object nothing refers to, a new node not yet in the tree: the caller adds it to `found`
        (through its item model, which must announce the row)."""
        with self.document.locked():
            try:
                obj = self.document.pdf.get_object(objgen)
            except (pikepdf.PdfError, ValueError, TypeError):
                obj = None
            if obj is None:
                return None
            page = self.page_index().get(objgen)
            if page is not None:
                pages = self.pages.children(self.document)
                if 0 < page <= len(pages):
                    return pages[page - 1]
            keys: list[str] = []
            at = objgen
            parents = self.parents()
            while at != (0, 0) and at in parents:
                at, path = parents[at]
                keys[:0] = path
            if at == (0, 0) and keys:
                start = self.trailer
                if keys[0] == "/Root":
                    start, keys = self.catalog, keys[1:]
                node = self.follow(start, keys)
                if node is not None:
                    return node
            for node in self.found.children(self.document):
                if isinstance(node.value, pikepdf.Object) and node.value.objgen == objgen:
                    return node
            return ObjectNode(f"{objgen[0]} {objgen[1]} R", obj)  # the caller puts it in `found`

    def follow(self, node: ObjectNode, labels: Iterable[str]) -> ObjectNode | None:
        """The node reached from `node` by child labels (building children on the way); None when a
        label is not there."""
        for label in labels:
            nxt = next((c for c in node.children(self.document) if c.label == label), None)
            if nxt is None:
                return None
            node = nxt
        return node

    def locate_hit(self, hit: SearchHit) -> ObjectNode | None:
        """The node of a search hit's entry (or of its object when the entry cannot be reached)."""
        node = self.locate(hit.objgen)
        if node is None:
            return None
        return self.follow(node, hit.path) or node

    def search(self, text: str, limit: int = MAX_HITS) -> list[SearchHit]:
        """Entries whose key or value contains `text` (case-insensitive), object by object in number
        order; stream data is not searched. At most `limit` hits and MAX_WALK objects."""
        needle = text.strip().casefold()
        if not needle:
            return []
        hits: list[SearchHit] = []
        with self.document.locked():
            for i, obj in enumerate(self.document.pdf.objects):
                if i >= MAX_WALK or len(hits) >= limit:
                    break
                if not isinstance(obj, pikepdf.Object):  # a number or a boolean object
                    continue
                try:
                    og = obj.objgen
                    for path, value in _direct_walk(obj):
                        key = path[-1] if path else ""
                        if isinstance(value, pikepdf.Object) and value.is_indirect:
                            shown = object_ref(value)
                        elif isinstance(value, (pikepdf.Dictionary, pikepdf.Array)):
                            shown = ""
                        else:
                            shown = scalar(value, 200)
                        if needle in key.casefold() or needle in shown.casefold():
                            hits.append(SearchHit(og, path, f"{key} {shown}".strip()))
                            if len(hits) >= limit:
                                break
                except (pikepdf.PdfError, ValueError, TypeError, RuntimeError):
                    continue
        return hits


def _entries_node(label: str, value: object) -> ObjectNode:
    """The raw entries of a dictionary a group stands for (an outline item's /Parent, /Next …)."""
    ref = object_ref(value)
    return ObjectNode(f"{label} {ref}".rstrip(), value)


def _direct_walk(obj: object) -> Iterator[tuple[tuple[str, ...], object]]:
    """(keys down to it, value) for every entry of an object and of the direct dictionaries and arrays
    inside it (depth-first, MAX_CHILDREN entries a container, MAX_DIRECT_DEPTH levels); indirect
    objects inside are yielded, not entered."""
    stack: list[tuple[object, tuple[str, ...]]] = [(obj, ())]
    while stack:
        value, path = stack.pop()
        entries, _ = _entries(value)
        for label, child in entries:
            where = (*path, label)
            yield where, child
            if (
                isinstance(child, (pikepdf.Dictionary, pikepdf.Array))
                and not child.is_indirect
                and len(where) < MAX_DIRECT_DEPTH
            ):
                stack.append((child, where))
