"""Opening a PDF and interpreting its pages, with typed errors and caching.

The file being inspected is never written: pikepdf opens it read-only and
every change (e.g. the inspector's widened CropBox) happens on a copy.
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pikepdf

from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.errors import DocumentNotFound, NotAPdf, PageOutOfRange, PasswordRequired, WrongPassword
from glyphscope.core.fonts.loader import FontCache
from glyphscope.core.gcpause import gc_paused
from glyphscope.core.geometry import Rect, intersect, normalize_rect
from glyphscope.core.interpreter import PageInterpreter, finish_forms
from glyphscope.core.page import InterpretedPage, PageBoxes
from glyphscope.core.postprocess import page_diagnostics

MAX_INHERITANCE_DEPTH = 64  # /Parent chains in hostile files can loop
DEFAULT_MEDIA_BOX: Rect = (0.0, 0.0, 612.0, 792.0)  # US Letter, as most viewers assume
PAGE_CACHE_SIZE = 48
CACHE_MAX_GLYPHS = 300_000  # ≈ 330 MB of glyph records


@dataclass(frozen=True, slots=True)
class Instruction:
    """One content-stream instruction, for the content-stream panel."""

    index: int
    operator: str
    operands: str  # compact PDF-like text of the operands


def _inherited(page_obj: Any, key: str) -> Any:
    node = page_obj
    seen: set[tuple[int, int]] = set()
    for _ in range(MAX_INHERITANCE_DEPTH):
        if node is None or not isinstance(node, pikepdf.Dictionary):
            return None
        value = node.get(key)
        if value is not None:
            return value
        objgen = node.objgen
        if objgen != (0, 0):
            if objgen in seen:
                return None
            seen.add(objgen)
        node = node.get("/Parent")
    return None


def _rect(value: Any) -> Rect | None:
    if not isinstance(value, pikepdf.Array) or len(value) != 4:
        return None
    nums: list[float] = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, float, Decimal)):
            return None
        nums.append(float(v))
    r = normalize_rect(*nums)
    if r[2] - r[0] <= 0 or r[3] - r[1] <= 0:
        return None
    return r


def page_boxes(page_obj: Any) -> PageBoxes:
    media = _rect(_inherited(page_obj, "/MediaBox")) or DEFAULT_MEDIA_BOX
    crop = _rect(_inherited(page_obj, "/CropBox")) or media
    visible = intersect(crop, media) or media
    rotate_value = _inherited(page_obj, "/Rotate")
    try:
        rotate = int(rotate_value) if rotate_value is not None else 0
    except (TypeError, ValueError):
        rotate = 0
    rotate = (round(rotate / 90) * 90) % 360
    return PageBoxes(
        media_box=media,
        crop_box=crop,
        visible_box=visible,
        rotate=rotate,
        bleed_box=_rect(page_obj.get("/BleedBox")),
        trim_box=_rect(page_obj.get("/TrimBox")),
        art_box=_rect(page_obj.get("/ArtBox")),
    )


def _damaged_content_streams(page_obj: Any) -> list[str]:
    """Flate content streams that end early: qpdf decodes what it can without a word.

    Only single-filter Flate streams are checked (the common case, and cheap: zlib
    in C over a few KB); the text painted after the damage is lost.
    """
    contents = page_obj.get("/Contents")
    streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
    out = []
    for stream in streams:
        if not isinstance(stream, pikepdf.Stream) or stream.get("/Filter") != pikepdf.Name.FlateDecode:
            continue
        try:
            raw = stream.read_raw_bytes()
        except pikepdf.PdfError:
            continue
        inflater = zlib.decompressobj()
        try:
            inflater.decompress(raw)
            complete = inflater.eof
        except zlib.error:
            complete = False
        if not complete:
            label = object_id_label(stream)
            out.append(
                f"content stream {label}is damaged (its compressed data ends early or is corrupt): "
                "text painted after the damage is lost"
            )
    return out


def object_id_label(obj: Any) -> str:
    num, gen = obj.objgen
    return f"{num} {gen} R " if num else ""


def _format_operand(value: Any, limit: int = 80) -> str:
    if isinstance(value, pikepdf.String):
        raw = bytes(value)
        try:
            text = raw.decode("latin-1") if all(32 <= b < 127 for b in raw) else "<" + raw.hex() + ">"
        except UnicodeDecodeError:
            text = "<" + raw.hex() + ">"
        out = f"({text})" if not text.startswith("<") else text
    elif isinstance(value, pikepdf.Array):
        out = "[" + " ".join(_format_operand(v, limit) for v in value) + "]"
    elif isinstance(value, Decimal):
        out = f"{float(value):g}"
    else:
        out = str(value)
    return out if len(out) <= limit else out[: limit - 1] + "…"


class Document:
    """An open PDF. Thread-safe: pikepdf objects are touched under one lock."""

    def __init__(self, pdf: pikepdf.Pdf, path: str | None, warnings: list[str]) -> None:
        self.pdf = pdf
        self.path = path
        self._warnings = warnings
        self._lock = threading.RLock()
        self._fonts = FontCache()
        self._cache: OrderedDict[int, InterpretedPage] = OrderedDict()
        self._cached_glyphs = 0
        self._structures: dict[int, Any] | None = None
        self.page_count = len(pdf.pages)

    # ---------------------------------------------------------------- basics

    @property
    def warnings(self) -> tuple[str, ...]:
        """qpdf's repair warnings so far: some appear only when a damaged object is first read."""
        with self._lock:
            self._drain_warnings()
            return tuple(self._warnings)

    def _drain_warnings(self) -> list[str]:
        fresh = [w for w in (_short_warning(x, self.path) for x in self.pdf.get_warnings()) if w]
        self._warnings.extend(w for w in fresh if w not in self._warnings)
        return fresh

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Document-level findings (repairs)."""
        return tuple(
            Diagnostic(
                DiagnosticKind.DAMAGED_FILE_REPAIRED,
                Severity.WARNING,
                w,
            )
            for w in self._warnings
        )

    def _page_obj(self, page_number: int) -> Any:
        if not 1 <= page_number <= self.page_count:
            raise PageOutOfRange(f"page {page_number} does not exist (the document has {self.page_count})")
        return self.pdf.pages[page_number - 1].obj

    def page_boxes(self, page_number: int) -> PageBoxes:
        with self._lock:
            return page_boxes(self._page_obj(page_number))

    def is_tagged(self) -> bool:
        with self._lock:
            return "/StructTreeRoot" in self.pdf.Root

    # ------------------------------------------------------------ interpret

    def interpret(self, page_number: int) -> InterpretedPage:
        """All glyphs of one page (cached). One bad page never raises past here."""
        with self._lock:
            cached = self._cache.get(page_number)
            if cached is not None:
                self._cache.move_to_end(page_number)
                return cached
            page_obj = self._page_obj(page_number)
            with gc_paused():
                result = self._interpret(page_obj, page_number)
            self._cache[page_number] = result
            self._cached_glyphs += len(result.glyphs)
            # Bounded in pages and in glyphs (~1.1 KB each): dense pages must not pile up.
            while len(self._cache) > 1 and (
                len(self._cache) > PAGE_CACHE_SIZE or self._cached_glyphs > CACHE_MAX_GLYPHS
            ):
                _, dropped = self._cache.popitem(last=False)
                self._cached_glyphs -= len(dropped.glyphs)
            return result

    def _interpret(self, page_obj: Any, page_number: int) -> InterpretedPage:
        try:
            boxes = page_boxes(page_obj)
        except (pikepdf.PdfError, TypeError, ValueError, AttributeError) as exc:
            boxes = PageBoxes(DEFAULT_MEDIA_BOX, DEFAULT_MEDIA_BOX, DEFAULT_MEDIA_BOX, 0)
            return self._failed(page_number, boxes, exc)
        interp = PageInterpreter(page_number, self._fonts)
        try:
            resources = _inherited(page_obj, "/Resources")
            if not isinstance(resources, pikepdf.Dictionary):
                resources = None
            interp.run_page(page_obj, resources)
        except RecursionError as exc:
            return self._failed(page_number, boxes, exc)
        except (pikepdf.PdfError, TypeError, ValueError, AttributeError, KeyError) as exc:
            # Keep what was painted before the failure: a partial page beats none.
            interp.diag.add(
                DiagnosticKind.PAGE_FAILED,
                Severity.ERROR,
                f"interpretation stopped early: {type(exc).__name__}: {exc}",
                token_index=interp.token_index,
            )
        for w in self._drain_warnings():
            interp.diag.add(DiagnosticKind.DAMAGED_FILE_REPAIRED, Severity.WARNING, w)
        for w in _damaged_content_streams(page_obj):
            interp.diag.add(DiagnosticKind.CONTENT_UNREADABLE, Severity.ERROR, w)
        glyphs = tuple(interp.glyphs)
        forms = tuple(finish_forms(interp))
        fonts = tuple(interp.page_fonts.values())
        diags = interp.diag.finish() + page_diagnostics(page_number, glyphs, fonts, forms)
        try:
            has_struct_parents = "/StructParents" in page_obj
        except (pikepdf.PdfError, TypeError):
            has_struct_parents = False
        return InterpretedPage(
            page_number=page_number,
            boxes=boxes,
            glyphs=glyphs,
            fonts=fonts,
            forms=forms,
            diagnostics=tuple(diags),
            instruction_count=interp.instruction_count,
            has_struct_parents=has_struct_parents,
        )

    def _failed(self, page_number: int, boxes: PageBoxes, exc: BaseException) -> InterpretedPage:
        message = f"page {page_number} could not be interpreted: {type(exc).__name__}: {exc}"
        return InterpretedPage(
            page_number=page_number,
            boxes=boxes,
            glyphs=(),
            fonts=(),
            forms=(),
            diagnostics=(Diagnostic(DiagnosticKind.PAGE_FAILED, Severity.ERROR, message, page=page_number),),
            errors=(message,),
        )

    # ------------------------------------------------------------ structure

    def structure(self, page_number: int) -> Any:
        """The page's structure-tree facts (core.structure.PageStructure); one tree walk per document."""
        from glyphscope.core.structure import PageStructure, read_structures

        with self._lock:
            if self._structures is None:
                self._structures = read_structures(self.pdf)
            found = self._structures.get(page_number - 1)
            if found is None:
                has_tree = "/StructTreeRoot" in self.pdf.Root
                found = PageStructure(
                    has_tree=has_tree,
                    mcid_order=(),
                    page_has_struct_parents="/StructParents" in self._page_obj(page_number),
                    depth_capped=False,
                    problems=(),
                )
            return found

    # -------------------------------------------------------- content stream

    def instructions(self, page_number: int, form_path: tuple[str, ...] = ()) -> list[Instruction]:
        """The page's (or a form's) instructions with their indices, for display."""
        with self._lock:
            page_obj = self._page_obj(page_number)
            target: Any = page_obj
            resources = _inherited(page_obj, "/Resources")
            for name in form_path:
                xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
                target = xobjects.get(name) if isinstance(xobjects, pikepdf.Dictionary) else None
                if not isinstance(target, pikepdf.Stream):
                    return []
                own = target.get("/Resources")
                if isinstance(own, pikepdf.Dictionary):
                    resources = own
            try:
                parsed = pikepdf.parse_content_stream(target)
            except (pikepdf.PdfError, ValueError, TypeError):
                return []
            out = []
            for i, ins in enumerate(parsed):
                if isinstance(ins, pikepdf.ContentStreamInlineImage):
                    out.append(Instruction(i, "BI…EI", "(inline image)"))
                else:
                    operands = " ".join(_format_operand(v) for v in ins.operands)
                    out.append(Instruction(i, str(ins.operator), operands))
            return out

    def close(self) -> None:
        with self._lock:
            self._cache.clear()
            self._cached_glyphs = 0
            self.pdf.close()

    def __enter__(self) -> Document:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _open_pdf(opener: Any, password: str) -> pikepdf.Pdf:
    if hasattr(opener, "seek"):
        opener.seek(0)
    return pikepdf.open(opener, password=password, suppress_warnings=True)


def _looks_like_pdf(head: bytes) -> bool:
    # Viewers accept a header anywhere in the first KiB (ISO 32000-1 annex H).
    return b"%PDF-" in head[:1024]


def open_document(source: str | Path | bytes, password: str | None = None) -> Document:
    """Open a PDF from a path or bytes; raise a typed GlyphscopeError on failure."""
    path: str | None = None
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        head = data[:1024]
        opener: Any = __import__("io").BytesIO(data)
    else:
        path = str(source)
        p = Path(path)
        if not p.exists():
            raise DocumentNotFound(f"file not found: {path}")
        if p.is_dir():
            raise NotAPdf(f"{path} is a folder, not a PDF")
        try:
            with open(p, "rb") as fh:
                head = fh.read(1024)
        except OSError as exc:
            raise NotAPdf(f"cannot read {path}: {exc.strerror or exc}") from None
        opener = p
    label = path or "the data"
    if not _looks_like_pdf(head):
        raise NotAPdf(f"{label} is not a PDF (no %PDF- header)")
    try:
        pdf = _open_pdf(opener, password or "")
    except pikepdf.PasswordError:
        if not password:
            raise PasswordRequired(f"{label} is encrypted: a password is required") from None
        # A password given for a whole batch (or by habit) must not lock out a file whose user
        # password is empty, which opens without one.
        try:
            pdf = _open_pdf(opener, "")
        except pikepdf.PasswordError:
            raise WrongPassword(f"wrong password for {label}") from None
        except (pikepdf.PdfError, ValueError, OSError) as exc:
            raise NotAPdf(f"{label} is not a readable PDF: {exc}") from None
    except (pikepdf.PdfError, ValueError, OSError) as exc:
        raise NotAPdf(f"{label} is not a readable PDF: {exc}") from None
    try:
        _ = len(pdf.pages)
    except (pikepdf.PdfError, ValueError) as exc:
        pdf.close()
        raise NotAPdf(f"{label} has no readable page tree: {exc}") from None
    warnings = [_short_warning(w, path) for w in pdf.get_warnings()]
    return Document(pdf, path, [w for w in warnings if w])


def _short_warning(text: str, path: str | None) -> str:
    text = str(text).strip()
    if path and text.startswith(path):
        text = text[len(path) :].lstrip(": ")
    return f"damaged file repaired by qpdf: {text}" if text else ""
