"""The PDF object browser's model (Qt-free): the page's objects as a lazy tree, pretty-printed.

Top-level groups: the page dictionary, its fonts (the page's and its forms'),
XObjects, annotations, the structure elements with content on the page, and
the content streams. Every node can be expanded into its raw entries (a
dictionary's keys, an array's items, a stream's dictionary), children built on
first use, so a reference back up the page tree costs nothing until opened.
Nodes that stand for something the other panels know carry it: a font node its
resource key, form path and object id; a form its path; a structure element
its MCIDs. pikepdf objects are touched under the document's lock.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pikepdf

from glyphscope.core.annotations import Annotation, normal_appearance, read_annotations
from glyphscope.core.fonts.pdfobj import object_id
from glyphscope.core.resources import page_resources

if TYPE_CHECKING:
    from glyphscope.core.document import Document

MAX_CHILDREN = 2000  # entries listed per node (a 100,000-item array lists the first ones)
MAX_FORM_DEPTH = 8  # fonts of forms inside forms, for the Fonts group
STREAM_PREVIEW = 4000  # bytes of decoded stream data shown


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
        return f"{prefix}stream{' ' + str(kind) if kind is not None else ''} ({len(value.keys())} keys)"
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


def stream_text(stream: pikepdf.Stream) -> str:
    """The start of a stream's decoded data, readable (content streams and CMaps are text)."""
    try:
        data = stream.read_bytes()
    except (pikepdf.PdfError, ValueError, RuntimeError) as exc:
        return f"(stream data cannot be decoded: {exc})"
    head = data[:STREAM_PREVIEW]
    printable = sum(1 for b in head if 32 <= b < 127 or b in (9, 10, 13))
    if head and printable / len(head) > 0.85:
        text = head.decode("latin-1")
    else:
        text = " ".join(f"{b:02x}" for b in head[:512])
    more = f"\n… ({len(data):,} bytes decoded in all)" if len(data) > len(head) else ""
    return text + more


FONTS_GROUP = "fonts"  # ObjectNode.group of the page's fonts
FIELDS_GROUP = "fields"  # … of the document's AcroForm field tree
MAX_FIELD_DEPTH = 32  # /Kids chains of form fields in hostile files can loop or nest absurdly


@dataclass(slots=True)
class ObjectNode:
    label: str
    value: pikepdf.Object | None = None  # None for a group
    role: str = ""  # "page", "font", "xobject", "form", "annotation", "struct", "content", "group", ""
    font_key: str = ""
    font_id: str = ""
    form_path: tuple[str, ...] = ()
    mcids: tuple[int, ...] = ()
    annotation: int = -1  # an annotation node: its position in the page's /Annots (Annotation.index)
    group: str = ""  # which group of the page's objects a group node is: FONTS_GROUP (its label has a count)
    parent: ObjectNode | None = field(default=None, repr=False)
    _children: list[ObjectNode] | None = field(default=None, repr=False)

    def add(self, child: ObjectNode) -> ObjectNode:
        child.parent = self
        if self._children is None:
            self._children = []
        self._children.append(child)
        return child

    def children(self, document: Document | None) -> list[ObjectNode]:
        """The node's entries, built on first use."""
        if self._children is None:
            with _locked(document):
                self._children = [self._adopt(c) for c in raw_children(self.value)]
        return self._children

    def _adopt(self, child: ObjectNode) -> ObjectNode:
        child.parent = self
        return child

    def has_children(self) -> bool:
        if self._children is not None:
            return bool(self._children)
        return isinstance(self.value, (pikepdf.Dictionary, pikepdf.Array, pikepdf.Stream))

    def raw(self, document: Document | None) -> str:
        """The object pretty-printed (a stream with the start of its data)."""
        if self.value is None:
            return ""
        with _locked(document):
            ref = object_ref(self.value)
            head = f"{ref} obj\n" if ref else ""
            text = head + pretty(self.value)
            if isinstance(self.value, pikepdf.Stream):
                text += "\nstream\n" + stream_text(self.value) + "\nendstream"
            if self.role == "annotation" and isinstance(self.value, pikepdf.Dictionary):
                text += appearance_text(self.value)
            return text

    def summary(self, document: Document | None) -> str:
        if self.value is None:
            return ""
        with _locked(document):
            return summary(self.value)


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


def raw_children(value: object) -> list[ObjectNode]:
    if isinstance(value, (pikepdf.Dictionary, pikepdf.Stream)):
        return [ObjectNode(str(k), value.get(k)) for k in list(value.keys())[:MAX_CHILDREN]]
    if isinstance(value, pikepdf.Array):
        return [ObjectNode(f"[{i}]", v) for i, v in enumerate(list(value)[:MAX_CHILDREN])]
    return []


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


def _xobject_label(name: str, xobj: Any) -> str:
    sub = xobj.get("/Subtype") if isinstance(xobj, pikepdf.Stream) else None
    size = ""
    if sub == pikepdf.Name.Image:
        size = f" {xobj.get('/Width')}×{xobj.get('/Height')}"
    kind = str(sub).lstrip("/") if sub is not None else "?"
    return f"{name} — {kind}{size} {object_ref(xobj)}".rstrip()


def _struct_elements(document: Document, page_number: int) -> list[ObjectNode]:
    from glyphscope.inspector.structure_tree import page_structure_tree

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
    form = document.pdf.Root.get("/AcroForm")
    top = form.get("/Fields") if isinstance(form, pikepdf.Dictionary) else None
    if not isinstance(top, pikepdf.Array):
        return
    annots = page_obj.get("/Annots")
    here = (
        {a.objgen for a in annots if isinstance(a, pikepdf.Dictionary)}
        if isinstance(annots, pikepdf.Array)
        else set()
    )
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
            on_page = " — on this page" if kid.objgen in here else ""
            parts = [name or "(no name)"]
            if isinstance(kind, pikepdf.Name):
                parts.append(f"({str(kind).lstrip('/')})")
            if isinstance(value, (pikepdf.String, pikepdf.Name)):
                parts.append(f"“{str(value).lstrip('/')[:40]}”")
            node = parent.add(
                ObjectNode(" ".join(parts) + f" {object_ref(kid)}".rstrip() + on_page, kid, "field")
            )
            added += 1
            children = kid.get("/Kids")
            if isinstance(children, pikepdf.Array):
                walk(node, children, name, depth + 1)
            if node._children is None:
                node._children = []

    walk(group, top, "", 0)


def page_object_tree(document: Document, page_number: int) -> ObjectNode:
    """The browser's root for one page (1-based). Never raises for a damaged object: it shows what it read."""
    root = ObjectNode(f"Page {page_number}", None, "group")
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
