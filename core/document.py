"""Opening a PDF and interpreting its pages, with typed errors and caching.

The file being inspected is never written: pikepdf opens it read-only and
every change (e.g. the inspector's widened CropBox) happens on a copy.
"""

from __future__ import annotations

import io
import re
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import pikepdf

from glyphscope.core.budgets import DocumentBudget
from glyphscope.core.content import content_streams, measure, parse_instructions, truncated_instructions
from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.errors import DocumentNotFound, NotAPdf, PageOutOfRange, PasswordRequired, WrongPassword
from glyphscope.core.fonts.loader import FontCache
from glyphscope.core.fonts.pdfobj import pdf_text
from glyphscope.core.gcpause import gc_paused
from glyphscope.core.geometry import Rect, intersect, normalize_rect
from glyphscope.core.glyph_table import GlyphTable
from glyphscope.core.instructions import QpdfError
from glyphscope.core.interpreter import PageInterpreter
from glyphscope.core.limits import BUDGET_LABELS, DEFAULT_LIMITS, Limits, option_name
from glyphscope.core.page import FillState, InterpretedPage, PageBoxes
from glyphscope.core.recorders import PageRecorders, Recorder
from glyphscope.core.resources import FormTarget, form_target, inherited, page_resources

DEFAULT_MEDIA_BOX: Rect = (0.0, 0.0, 612.0, 792.0)  # US Letter, as most viewers assume
if TYPE_CHECKING:
    from glyphscope.core.annotations import Annotation, DrawnAppearance

PAGE_CACHE_SIZE = 48
CACHE_MAX_GLYPHS = 300_000  # ≈ 330 MB of glyph records


@dataclass(frozen=True, slots=True)
class Instruction:
    """One content-stream instruction, for the content-stream panel."""

    index: int
    operator: str
    operands: str  # compact PDF-like text of the operands


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


def read_page_boxes(page_obj: Any) -> PageBoxes:
    media = _rect(inherited(page_obj, "/MediaBox")) or DEFAULT_MEDIA_BOX
    crop = _rect(inherited(page_obj, "/CropBox")) or media
    visible = intersect(crop, media) or media
    rotate_value = inherited(page_obj, "/Rotate")
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
        except QpdfError:
            continue
        complete = _inflates_completely(raw)
        if not complete:
            label = object_id_label(stream)
            out.append(
                f"content stream {label}is damaged (its compressed data ends early or is corrupt): "
                "text painted after the damage is lost"
            )
    return out


def _inflates_completely(raw: bytes) -> bool:
    """Whether zlib data reaches its end, inflated in bounded steps (output dropped: bombs stay small)."""
    inflater = zlib.decompressobj()
    pending = raw
    try:
        while pending and not inflater.eof:
            inflater.decompress(pending, 1 << 16)
            pending = inflater.unconsumed_tail
        while not inflater.eof and inflater.decompress(b"", 1 << 16):
            pass
    except zlib.error:
        return False
    return inflater.eof


def object_id_label(obj: Any) -> str:
    num, gen = obj.objgen
    return f"{num} {gen} R " if num else ""


LISTED_OPERAND_CHARS = 4000
"""The content-stream listing keeps an operand up to this many characters (a paragraph's TJ array
whole, for the listing's tooltip; the table itself cuts it to its column), so a hostile stream
of megabyte strings still lists in bounded memory."""


def format_operand(value: Any, limit: int = 80) -> str:
    """An operand as compact PDF-like text, cut at `limit` characters."""
    if isinstance(value, pikepdf.String):
        raw = bytes(value)
        try:
            text = raw.decode("latin-1") if all(32 <= b < 127 for b in raw) else "<" + raw.hex() + ">"
        except UnicodeDecodeError:
            text = "<" + raw.hex() + ">"
        out = f"({text})" if not text.startswith("<") else text
    elif isinstance(value, pikepdf.Array):
        out = "[" + " ".join(format_operand(v, limit) for v in value) + "]"
    elif isinstance(value, Decimal):
        out = f"{float(value):g}"
    else:
        out = pdf_text(value)
    return out if len(out) <= limit else out[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class DocumentOrigin:
    """What a document was opened from, to open it again in another process (`core.page_workers`):
    the path, or the bytes (kept anyway: pikepdf reads from them while the document is open)."""

    source: str | bytes
    password: str | None


class Document:
    """An open PDF. Thread-safe: pikepdf objects are touched under one lock."""

    origin: DocumentOrigin | None = None
    """Set by `open_document`: how to open this document again (None: made some other way)."""

    def __init__(
        self,
        pdf: pikepdf.Pdf,
        path: str | None,
        warnings: list[str],
        limits: Limits = DEFAULT_LIMITS,
        page_tree_repair: str = "",
    ) -> None:
        self.pdf = pdf
        self.path = path
        # How the pages were recovered when qpdf refused the page tree (core/page_tree_repair.py).
        self.page_tree_repair = page_tree_repair
        self._warnings = ([page_tree_repair] if page_tree_repair else []) + warnings
        self._lock = threading.RLock()
        self.closed = False  # after close(): every read raises ValueError, as a closed file does
        self._fonts = FontCache()
        self._cache: OrderedDict[int, InterpretedPage] = OrderedDict()
        self._cached_glyphs = 0
        self._structures: dict[int, Any] | None = None
        self._limits = limits
        self._budget = DocumentBudget.start(limits)
        self._budget_notes: dict[int, str] = {}  # page → its budget finding's message
        # The page objects, listed once: pikepdf's `pdf.pages[i]` walks the page list per lookup.
        self._page_objs: list[Any] = self._list_pages()
        self.page_count = len(self._page_objs)

    def _list_pages(self) -> list[Any]:
        """The page dictionaries in page order (one pass over the page tree)."""
        return [page.obj for page in self.pdf.pages]

    # ---------------------------------------------------------------- limits

    @property
    def limits(self) -> Limits:
        return self._limits

    def set_limits(self, limits: Limits) -> None:
        """New budgets: pages are interpreted again (the cache is dropped), the document budget restarts."""
        with self._lock:
            if limits == self._limits:
                return
            self._limits = limits
            self._budget = DocumentBudget.start(limits)
            self._budget_notes.clear()
            self._cache.clear()
            self._cached_glyphs = 0

    @property
    def budget_notes(self) -> dict[int, str]:
        """Pages a budget stopped so far, with the finding's message (for a warning per page)."""
        with self._lock:
            return dict(self._budget_notes)

    def page_report(self, page_number: int) -> tuple[tuple[str, ...], str | None]:
        """What reading a page added to the document: the warnings so far and the page's budget note."""
        with self._lock:
            return self.warnings, self._budget_notes.get(page_number)

    def adopt_page_report(self, page_number: int, warnings: Sequence[str], budget_note: str | None) -> None:
        """Take on what another process's copy of this document reported for a page (`page_report`)."""
        with self._lock:
            self._drain_warnings()
            self._warnings.extend(w for w in warnings if w not in self._warnings)
            if budget_note is not None:
                self._budget_notes[page_number] = budget_note

    @property
    def cached_pages(self) -> tuple[int, ...]:
        """The interpreted pages kept, least recently used first (bounded by CACHE_MAX_GLYPHS glyphs)."""
        return tuple(self._cache)

    @property
    def cached_glyphs(self) -> int:
        """The glyphs of the interpreted pages kept."""
        return self._cached_glyphs

    def drop_cached_pages(self) -> None:
        """Forget the interpreted pages (a page worker holds one page at a time)."""
        with self._lock:
            self._cache.clear()
            self._cached_glyphs = 0

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
        """Document-level findings (repairs: qpdf's, and a page tree recovered by us)."""
        return tuple(
            Diagnostic(
                DiagnosticKind.PAGE_TREE_REPAIRED
                if w == self.page_tree_repair
                else DiagnosticKind.DAMAGED_FILE_REPAIRED,
                Severity.WARNING,
                w,
            )
            for w in self.warnings
        )

    def page_object(self, page_number: int) -> pikepdf.Dictionary:
        """The page's dictionary (1-based). Read pikepdf objects inside `with doc.locked():`."""
        self.require_open()
        if not 1 <= page_number <= self.page_count:
            raise PageOutOfRange(f"page {page_number} does not exist (the document has {self.page_count})")
        return self._page_objs[page_number - 1]

    def require_open(self) -> None:
        """ValueError once the document is closed: a closed document reads nothing (no empty page,
        no finding about a file that was merely closed)."""
        if self.closed:
            where = f" ({self.path})" if self.path else ""
            raise ValueError(f"I/O operation on a closed document{where}")

    def locked(self) -> AbstractContextManager[object]:
        """The document's lock (re-entrant): pikepdf objects of one file are read by one thread at a time."""
        return self._lock

    def form_target(self, page_number: int, form_path: Sequence[str] = ()) -> FormTarget | None:
        """The stream a form path ends at on the page (none: the page itself) and the resources in
        force in it; None when a name on the path is not a form there. Use under `locked()`."""
        with self._lock:
            return form_target(self.page_object(page_number), form_path)

    def page_boxes(self, page_number: int) -> PageBoxes:
        with self._lock:
            return read_page_boxes(self.page_object(page_number))

    def is_tagged(self) -> bool:
        with self._lock:
            self.require_open()
            return "/StructTreeRoot" in self.pdf.Root

    # ------------------------------------------------------------ interpret

    def interpret(self, page_number: int) -> InterpretedPage:
        """All glyphs of one page (cached). One bad page never raises past here."""
        with self._lock:
            self.require_open()
            cached = self._cache.get(page_number)
            if cached is not None:
                self._cache.move_to_end(page_number)
                return cached
            page_obj = self.page_object(page_number)
            started = time.monotonic()
            with gc_paused():
                result = self._interpret(page_obj, page_number)
            for d in result.diagnostics:
                if d.kind is DiagnosticKind.BUDGET_EXCEEDED:
                    self._budget_notes[page_number] = d.message
            self._budget.seconds_left -= time.monotonic() - started  # time spent interpreting, not open
            self._cache[page_number] = result
            self._cached_glyphs += len(result.glyphs)
            # Bounded in pages and in glyphs: dense pages must not pile up.
            while len(self._cache) > 1 and (
                len(self._cache) > PAGE_CACHE_SIZE or self._cached_glyphs > CACHE_MAX_GLYPHS
            ):
                _, dropped = self._cache.popitem(last=False)
                self._cached_glyphs -= len(dropped.glyphs)
            return result

    def _interpret(self, page_obj: Any, page_number: int) -> InterpretedPage:
        try:
            boxes = read_page_boxes(page_obj)
        except (QpdfError, TypeError, ValueError, AttributeError) as exc:
            boxes = PageBoxes(DEFAULT_MEDIA_BOX, DEFAULT_MEDIA_BOX, DEFAULT_MEDIA_BOX, 0)
            return self._failed(page_number, boxes, exc)
        spent = self._document_budget_spent()
        if spent:
            return self._failed(page_number, boxes, None, spent)
        recorders = PageRecorders.new()
        interp = PageInterpreter(page_number, self._fonts, recorders.all(), self._limits, self._budget)
        annotations, appearances = _read_annotations(page_obj, self._default_resources())
        try:
            try:
                interp.run_page(page_obj, page_resources(page_obj), appearances)
            finally:
                self._budget.operators_left -= interp.operators_executed
        except RecursionError as exc:
            return self._failed(page_number, boxes, exc)
        except (QpdfError, TypeError, ValueError, AttributeError, KeyError, MemoryError) as exc:
            # Keep what was painted before the failure: a partial page beats none.
            interp.diag.add(
                DiagnosticKind.PAGE_FAILED,
                Severity.ERROR,
                f"interpretation stopped early: {type(exc).__name__}: {' '.join(str(exc).split())}",
                token_index=interp.token_index,
            )
        for w in self._drain_warnings():
            interp.diag.add(DiagnosticKind.DAMAGED_FILE_REPAIRED, Severity.WARNING, w)
        for w in _damaged_content_streams(page_obj):
            interp.diag.add(DiagnosticKind.CONTENT_UNREADABLE, Severity.ERROR, w)
        glyphs = interp.glyph_table  # column-wise (core/glyph_table.py): records on demand
        forms = tuple(recorders.forms.uses)
        fonts = tuple(recorders.fonts.fonts.values())
        diags = interp.diag.finish()  # the glyphs' findings are the page product's (core/findings.py)
        try:
            has_struct_parents = "/StructParents" in page_obj
        except (QpdfError, TypeError):
            has_struct_parents = False
        visibility = recorders.visibility
        return InterpretedPage(
            page_number=page_number,
            boxes=boxes,
            glyphs=glyphs,
            fonts=fonts,
            forms=forms,
            diagnostics=tuple(diags),
            instruction_count=interp.instruction_count,
            has_struct_parents=has_struct_parents,
            clips=tuple(visibility.clips) if visibility else (),
            fills=tuple(visibility.fills) if visibility else (FillState(),),
            paints=tuple(visibility.paints) if visibility else (),
            actual_text=tuple(recorders.actual_text.spans),
            annotations=tuple(annotations),
            need_appearances=bool(annotations) and self._need_appearances(),
        )

    def record_page(self, page_number: int, recorders: Sequence[Recorder]) -> PageInterpreter:
        """Run the page once more with `recorders` hearing its events beside the page's own (the
        stepper's trace is one); the page's budgets apply, the document's are not spent.

        Raises `PageOutOfRange`, and whatever stopped the page (a damaged object): the
        recorders keep what they heard up to there. Returns the interpreter, as it ended."""
        with self._lock:
            page_obj = self.page_object(page_number)
            interp = PageInterpreter(
                page_number, self._fonts, [*PageRecorders.new().all(), *recorders], self._limits
            )
            _, appearances = _read_annotations(page_obj, self._default_resources())
            interp.run_page(page_obj, page_resources(page_obj), appearances)
            return interp

    def _default_resources(self) -> pikepdf.Dictionary | None:
        """The AcroForm's default resources (/DR): what a field's appearance without its own uses."""
        try:
            form = self.pdf.Root.get("/AcroForm")
            found = form.get("/DR") if isinstance(form, pikepdf.Dictionary) else None
        except (QpdfError, AttributeError, TypeError, ValueError):
            return None
        return found if isinstance(found, pikepdf.Dictionary) else None

    def _need_appearances(self) -> bool:
        """/NeedAppearances of the AcroForm: a viewer draws every field's value itself."""
        try:
            form = self.pdf.Root.get("/AcroForm")
            flag = form.get("/NeedAppearances") if isinstance(form, pikepdf.Dictionary) else None
        except (QpdfError, AttributeError, TypeError, ValueError):
            return False
        return flag is True

    def _document_budget_spent(self) -> str:
        """The document budget already spent by earlier pages ("" when some is left)."""
        if self._budget.operators_left <= 0:
            return "document_operators"
        if self._budget.seconds_left <= 0:
            return "document_seconds"
        return ""

    def _failed(
        self, page_number: int, boxes: PageBoxes, exc: BaseException | None, budget: str = ""
    ) -> InterpretedPage:
        if budget:
            kind = DiagnosticKind.BUDGET_EXCEEDED
            limit = getattr(self._limits, budget)
            message = (
                f"budget '{BUDGET_LABELS[budget]}' ({limit:,}) spent by earlier pages: page {page_number} "
                f"was not interpreted (raise it with {option_name(budget)})"
            )
        else:
            kind = DiagnosticKind.PAGE_FAILED
            text = " ".join(str(exc).split())
            message = f"page {page_number} could not be interpreted: {type(exc).__name__}: {text}"
        return InterpretedPage(
            page_number=page_number,
            boxes=boxes,
            glyphs=GlyphTable(),
            fonts=(),
            forms=(),
            diagnostics=(Diagnostic(kind, Severity.ERROR, message, page=page_number),),
            errors=(message,),
        )

    # ------------------------------------------------------------ structure

    def structure(self, page_number: int) -> Any:
        """The page's structure-tree facts (core.structure.PageStructure); one tree walk per document."""
        from glyphscope.core.structure import PageStructure, read_structures

        with self._lock:
            self.require_open()
            if self._structures is None:
                self._structures = read_structures(self.pdf)
            found = self._structures.get(page_number - 1)
            if found is None:
                has_tree = "/StructTreeRoot" in self.pdf.Root
                found = PageStructure(
                    has_tree=has_tree,
                    mcid_order=(),
                    page_has_struct_parents="/StructParents" in self.page_object(page_number),
                    depth_capped=False,
                    problems=(),
                )
            return found

    # -------------------------------------------------------- content stream

    def instructions(self, page_number: int, form_path: tuple[str, ...] = ()) -> list[Instruction]:
        """The page's (or a form's) instructions with their indices, for display."""
        with self._lock:
            page_obj = self.page_object(page_number)
            found = form_target(page_obj, form_path)
            if found is None:
                return []
            target: pikepdf.Object = found.stream if found.stream is not None else page_obj
            streams = content_streams(target) if found.stream is None else [found.stream]
            measured = measure(streams, self._limits.page_content_bytes)  # a bomb is not inflated here either
            try:
                if measured.over_budget:
                    parsed = (
                        [] if measured.refused else truncated_instructions(measured.prefix, pikepdf.new())
                    )
                else:
                    parsed = parse_instructions(target)
            except (QpdfError, ValueError, TypeError):
                return []
            out = []
            for i, ins in enumerate(parsed):
                if isinstance(ins, pikepdf.ContentStreamInlineImage):
                    out.append(Instruction(i, "BI…EI", "(inline image)"))
                else:
                    operands = " ".join(format_operand(v, LISTED_OPERAND_CHARS) for v in ins.operands)
                    out.append(Instruction(i, pdf_text(ins.operator), operands))
            return out

    def close(self) -> None:
        with self._lock:
            self.closed = True
            self._cache.clear()
            self._cached_glyphs = 0
            self.pdf.close()

    def __enter__(self) -> Document:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read_annotations(
    page_obj: pikepdf.Dictionary, default_resources: pikepdf.Dictionary | None
) -> tuple[list[Annotation], list[DrawnAppearance]]:
    """`core.annotations.read_annotations`; a page without an /Annots array (most pages) does
    not import the annotation reader and its records (start-up time, issue 29)."""
    try:
        annots = page_obj.get("/Annots")
    except (QpdfError, ValueError, TypeError, AttributeError, KeyError, RecursionError):
        annots = None  # read_annotations reads it the same way: no annotations
    if not isinstance(annots, pikepdf.Array):
        return [], []
    from glyphscope.core.annotations import read_annotations

    return read_annotations(page_obj, default_resources)


def _open_pdf(opener: Any, password: str) -> tuple[pikepdf.Pdf, list[str]]:
    """The document and qpdf's warnings of the open (read once: pikepdf hands each warning out once)."""
    if hasattr(opener, "seek"):
        opener.seek(0)
    # As bytes: a password from argv or the environment that is not UTF-8 reaches Python with
    # surrogates (which pikepdf cannot convert); surrogateescape gives back the bytes typed.
    secret = password.encode("utf-8", "surrogateescape")
    pdf = pikepdf.open(opener, password=secret, suppress_warnings=True)
    warnings = [str(w) for w in pdf.get_warnings()]
    if any(LAST_OBJECT_CUT in w for w in warnings):
        # A file with no xref and no trailer is read by scanning its objects; qpdf's scan drops an
        # object that ends at the very end of the file (a font, a page's last resource), where
        # MuPDF keeps it. Read again with an end-of-file marker after it, in memory only.
        if hasattr(opener, "seek"):
            opener.seek(0)
        data = opener.read() if hasattr(opener, "read") else Path(opener).read_bytes()
        pdf.close()
        pdf = pikepdf.open(io.BytesIO(data + b"\n%%EOF\n"), password=secret, suppress_warnings=True)
        pdf.get_warnings()  # the same repair again: the first open's warnings describe the file
    return pdf, warnings


LAST_OBJECT_CUT = "EOF after endobj"
"""qpdf's warning when the file ends right after an object's `endobj`: the object is left out."""


def _looks_like_pdf(head: bytes) -> bool:
    # Viewers accept a header anywhere in the first KiB (ISO 32000-1 annex H).
    return b"%PDF-" in head[:1024]


def open_document(
    source: str | Path | bytes | BinaryIO, password: str | None = None, *, limits: Limits = DEFAULT_LIMITS
) -> Document:
    """Open a PDF (read-only) from a path, bytes or a binary file-like object (e.g. `io.BytesIO`,
    an open file); raise a typed GlyphscopeError on failure.

    A file-like object is read to its end once (from where it stands) and not kept, so the
    caller may close it. `limits` are the budgets that bound each page's interpretation
    (core/limits.py).
    """
    if not isinstance(source, (str, Path, bytes, bytearray, memoryview)) and hasattr(source, "read"):
        source = _read_binary(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        origin = DocumentOrigin(bytes(source), password)
    else:
        origin = DocumentOrigin(str(source), password)
    doc = _open_document(origin.source, password, limits)
    doc.origin = origin
    return doc


def _open_document(source: str | bytes, password: str | None, limits: Limits) -> Document:
    path: str | None = None
    if isinstance(source, bytes):
        data = source
        head = data[:1024]
        opener: Any = io.BytesIO(data)
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
    password = password or ""
    try:
        pdf, opened = _open_pdf(opener, password)
    except pikepdf.PasswordError:
        if not password:
            raise PasswordRequired(f"{label} is encrypted: a password is required") from None
        # A password given for a whole batch (or by habit) must not lock out a file whose user
        # password is empty, which opens without one.
        try:
            pdf, opened = _open_pdf(opener, "")
            password = ""
        except pikepdf.PasswordError:
            raise WrongPassword(f"wrong password for {label}") from None
        except QpdfError as exc:
            return _repaired(opener, "", path, limits, exc, f"{label} is not a readable PDF")
        except (ValueError, OSError, MemoryError) as exc:
            raise NotAPdf(f"{label} is not a readable PDF: {_one_line(exc)}") from None
    except QpdfError as exc:
        return _repaired(opener, password, path, limits, exc, f"{label} is not a readable PDF")
    except (ValueError, OSError, MemoryError) as exc:
        raise NotAPdf(f"{label} is not a readable PDF: {_one_line(exc)}") from None
    warnings = [_short_warning(w, path) for w in opened]
    try:
        doc = Document(pdf, path, [w for w in warnings if w], limits)
    except (QpdfError, ValueError, TypeError, RecursionError, MemoryError) as exc:
        pdf.close()
        return _repaired(opener, password, path, limits, exc, f"{label} has no readable page tree")
    if doc.page_count == 0:  # /Kids not an array, or no page among them: look for the pages
        try:
            repaired = _repaired(opener, password, path, limits, None, "the page tree holds no page")
        except NotAPdf:
            return doc  # nothing to recover: a document without pages
        doc.close()
        return repaired
    return doc


def _read_binary(stream: Any) -> bytes:
    """The bytes of a binary file-like object; a text stream is a caller's mistake, said plainly."""
    try:
        data = stream.read()
    except OSError as exc:
        raise NotAPdf(f"cannot read the file object: {exc.strerror or exc}") from None
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"open_document reads PDF bytes; {type(stream).__name__}.read() gave {type(data).__name__} "
            "(open the file in binary mode, 'rb')"
        )
    return bytes(data)


def _repaired(
    opener: Any, password: str, path: str | None, limits: Limits, exc: BaseException | None, failure: str
) -> Document:
    """The document with its pages recovered by core/page_tree_repair.py, or NotAPdf.

    `exc`: what qpdf raised (None: it opened the file but found no page, `failure` says so);
    the NotAPdf message is `failure: exc`, as before the repair was tried.
    """
    from glyphscope.core.page_tree_repair import open_repaired

    if exc is None:
        problem = error = failure
    else:
        error = f"{failure}: {_one_line(exc)}"
        reason = _short_warning(_one_line(exc), path).removeprefix("damaged file repaired by qpdf: ")
        problem = "qpdf refused it: " + re.sub(r"^\((object \d+ \d+)\):", r"\1:", reason)
    repaired = open_repaired(opener, password, problem) if not isinstance(exc, MemoryError) else None
    if repaired is None:
        raise NotAPdf(error) from None
    pdf, note = repaired
    warnings = [_short_warning(w, path) for w in pdf.get_warnings()]
    try:
        return Document(pdf, path, [w for w in warnings if w], limits, page_tree_repair=note)
    except (QpdfError, ValueError, TypeError, RecursionError, MemoryError):
        pdf.close()
        raise NotAPdf(error) from None


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


_BYTES_SOURCE = r"^(stream )?<_io\.BytesIO object at 0x[0-9a-f]+>"  # compiled on first use


def _short_warning(text: str, path: str | None) -> str:
    text = str(text).strip()
    if path and text.startswith(path):
        text = text[len(path) :].lstrip(":, ")
    text = re.sub(_BYTES_SOURCE, "", text).lstrip(":, ")  # qpdf names an in-memory file by its repr
    if text.endswith("EOF while reading token") and "(content" in text:
        text += " (the content ends inside an unfinished string, array or dictionary: it is lost)"
    return f"damaged file repaired by qpdf: {text}" if text else ""
