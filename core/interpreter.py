"""The content-stream interpreter (spec §2): tokens in, a page's glyphs out (core/glyph_table.py).

Tokens come from `pikepdf.parse_content_stream`; we write no lexer. One
operator table maps each operator to its handler and operand signature,
checked before the handler runs, so a malformed operator is skipped with a
diagnostic and never ends the page. The interpreter decides nothing about
words or lines: it only places and decodes glyphs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

import pikepdf

from glyphscope.core.actual_text import ActualTextSpan, replacement_of
from glyphscope.core.content import content_streams, measure, parse_instructions, truncated_instructions
from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.fonts.loader import FontCache
from glyphscope.core.fonts.pdfobj import object_id, pdf_text
from glyphscope.core.geometry import (
    IDENTITY,
    Matrix,
    Point,
    Rect,
    intersect,
    invert,
    multiply,
    normalize_rect,
    transform_rect,
)
from glyphscope.core.glyph_table import GlyphRun, GlyphTable
from glyphscope.core.limits import BUDGET_LABELS, DEFAULT_LIMITS, Limits, option_name
from glyphscope.core.page import ClipPath, ClipRecord, FillState, FormUse, PageFont, PaintObject, Polygon
from glyphscope.core.state import GraphicsState, MarkedContent, TextState

MAX_FORM_DEPTH = 32  # deeper non-cyclic nesting is pathological; the reference stops at 12
MAX_CODE_BYTES = 4  # the longest character code of any font (CMap codespaces are 1–4 bytes)
TIME_CHECK_MASK = 1023  # the wall-time budget is looked at every 1024 instructions

# What qpdf and pikepdf raise about a damaged object: PdfError (with DataDecodingError),
# QpdfRuntimeError (a RuntimeError, e.g. a bad /DecodeParms predictor) and the others
# all derive from PikepdfError.
QpdfError = pikepdf.PikepdfError

_N = "n"  # number operand
_S = "s"  # string
_A = "a"  # array
_NAME = "N"  # name
_ANY = "*"  # name or dict (BDC properties)

_PATH_OPS = frozenset(("m", "l", "c", "v", "y", "h", "re", "W", "W*"))  # path construction and clip
_STATE_IN_PATH = frozenset(
    [
        "g",
        "rg",
        "k",
        "cs",
        "sc",
        "scn",
        "G",
        "RG",
        "K",
        "CS",
        "SC",
        "SCN",
        "w",
        "J",
        "j",
        "d",
        "M",
        "i",
        "ri",
        "gs",
    ]
)
"""Not allowed inside a path object (ISO 32000-1 §8.2), but producers set the colour there
(`m l l l h 0.8 0.2 0 rg f`): reading a path back steps over them (they leave the CTM alone)."""
_PATH_OR_STATE = _PATH_OPS | _STATE_IN_PATH

# Operators we understand but that cannot affect text: paths, colours, images, shading…
_IGNORED = frozenset(
    [
        "w",
        "J",
        "j",
        "M",
        "d",
        "ri",
        "i",
        "CS",
        "SC",
        "SCN",
        "G",
        "RG",
        "K",
        "MP",
        "DP",
        "d0",
        "d1",
        "BI",
        "ID",
        "EI",
        # Tracked for visibility (issue 12) unless TRACK_VISIBILITY is off:
        *_PATH_OPS,  # read back by the painting operator that ends the path
        *["gs", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n", "cs", "sc", "scn", "g", "rg", "k", "sh"],
        "INLINE IMAGE",
    ]
)

TRACK_VISIBILITY = True
"""Track clipping paths, fill colour and alpha and opaque paint objects (issue 12). Off, those
operators are ignored as before (benchmarks/bench_visibility.py times both)."""

CURVE_STEPS = 4  # a Bézier segment is flattened to this many straight segments
_FILL_RULES = {"f": False, "F": False, "f*": True, "B": False, "B*": True, "b": False, "b*": True}
_DEVICE_FAMILIES = {
    "/DeviceGray": "gray",
    "/G": "gray",
    "/CalGray": "gray",
    "/DeviceRGB": "rgb",
    "/RGB": "rgb",
    "/CalRGB": "rgb",
    "/DeviceCMYK": "cmyk",
    "/CMYK": "cmyk",
    "/Pattern": "pattern",
    "/Lab": "lab",
    "/Indexed": "indexed",
    "/I": "indexed",
    "/Separation": "separation",
    "/DeviceN": "devicen",
}
_INITIAL_COLOUR = {
    "gray": (0.0,),
    "rgb": (0.0, 0.0, 0.0),
    "cmyk": (0.0, 0.0, 0.0, 1.0),
    "lab": (0.0, 0.0, 0.0),
    "indexed": (0.0,),
    "separation": (1.0,),
    "devicen": (1.0,),
    "pattern": (),
}
_ICC_FAMILIES = {1: "gray", 3: "rgb", 4: "cmyk"}


_NONE = "-"
"""Signature of the operators that take no operands (q, Q, BT, n, f, W …): whatever junk stands
before them is never read, so it is not even fetched from pikepdf."""
_NO_OPERANDS: list[Any] = []

FLT_MAX = 3.4028234663852886e38
"""A path coordinate beyond a double is read as the largest single-precision float, as MuPDF
reads every real (ISO 32000-1 Annex C gives ±3.403 × 10^38 as the reals' range)."""

_ALL_NUMBERS = frozenset(("n", "nn", "nnn", "nnnn", "nnnnnn"))
_NUMBER_TYPES = frozenset((int, float, Decimal))  # exact types: bool (an int subclass) is not a number here


def _number(x: Any) -> float | None:
    if type(x) in _NUMBER_TYPES:
        v = float(x)
        if v == v and v not in (float("inf"), float("-inf")):
            return v
    return None


class BudgetExceeded(Exception):
    """A budget of `Limits` is spent: the page stops here (not an error of the file's objects)."""

    def __init__(self, budget: str, limit: float, detail: str = "") -> None:
        super().__init__(budget)
        self.budget = budget
        self.limit = limit
        self.detail = detail
        self.form_path: tuple[str, ...] | None = None  # where it was spent: set by the innermost form
        self.stream_index = -1


@dataclass(slots=True)
class DocumentBudget:
    """What is left of the document-wide budgets (shared by every page of one Document)."""

    operators_left: int
    seconds_left: float  # of interpretation (a document open in the window for hours spends none)

    @classmethod
    def start(cls, limits: Limits) -> DocumentBudget:
        return cls(limits.document_operators, limits.document_seconds)


def _one_line(exc: BaseException) -> str:
    """An exception's text on one line (qpdf messages can span several)."""
    return " ".join(str(exc).split())


@dataclass(slots=True)
class _Frame:
    """One content stream being executed: the page's or a form's."""

    resources: Any  # pikepdf.Dictionary or None
    form_path: tuple[str, ...]
    form_ids: tuple[str, ...]
    base_depth: int  # gstate stack depth at entry: Q may not pop below it
    form_ctm_inverse: Matrix | None = None  # user space → form space, for the BBox test
    form_bbox: Rect | None = None
    page_token: int = -1  # for forms: the page instruction whose Do started the chain
    form_use_index: int = -1


@dataclass(slots=True)
class _DiagnosticSink:
    """Collects a page's findings; repeats of one (kind, once_key) become one finding with a count.

    The count is attached by the key each finding was recorded under (kind plus the
    operator, font key, form chain, ... that `once_key` names), never by searching the
    message: `/F1` three times must not count for a `/F10` finding.
    """

    page_number: int
    items: list[tuple[Diagnostic, str | None]] = field(default_factory=list)
    _counts: dict[tuple[DiagnosticKind, str], int] = field(default_factory=dict)

    def add(
        self,
        kind: DiagnosticKind,
        severity: Severity,
        message: str,
        *,
        token_index: int | None = None,
        font_key: str | None = None,
        form_path: tuple[str, ...] = (),
        once_key: str | None = None,
    ) -> None:
        # Repeated findings of one kind and key are counted, not listed 10,000 times.
        if once_key is not None:
            key = (kind, once_key)
            seen = self._counts.get(key, 0)
            self._counts[key] = seen + 1
            if seen:
                return
        finding = Diagnostic(
            kind,
            severity,
            message,
            page=self.page_number,
            token_index=token_index,
            font_key=font_key,
            form_path=form_path,
            repeat_key=once_key,
        )
        self.items.append((finding, once_key))

    def finish(self) -> list[Diagnostic]:
        out = []
        for d, once_key in self.items:
            n = self._counts.get((d.kind, once_key), 1) if once_key is not None else 1
            if n > 1:
                d = replace(d, message=f"{d.message} ({n} times)", count=n)
            out.append(d)
        return out


class PageInterpreter:
    """Runs one page's content stream and the forms it draws."""

    def __init__(
        self,
        page_number: int,
        fonts: FontCache,
        limits: Limits = DEFAULT_LIMITS,
        document_budget: DocumentBudget | None = None,
    ) -> None:
        self.page_number = page_number
        self.fonts = fonts
        self.limits = limits
        self.document_budget = document_budget
        now = time.monotonic()
        self._page_deadline = now + limits.page_seconds
        self.deadline = self._page_deadline
        self._page_ops = limits.page_operators
        self.ops_left = self._page_ops
        if document_budget is not None:
            self.deadline = min(self.deadline, now + document_budget.seconds_left)
            self.ops_left = min(self.ops_left, document_budget.operators_left)
        self._ops_start = self.ops_left
        self.forms_left = limits.page_form_invocations
        self.content_bytes_left = limits.page_content_bytes
        self.glyph_cap = limits.page_glyphs
        self.budget_exceeded: BudgetExceeded | None = None
        self._form_cache: dict[str, list[Any] | str] = {}  # object id → instructions, or why unreadable
        self._scratch: pikepdf.Pdf | None = None
        self.diag = _DiagnosticSink(page_number)
        self.glyphs = GlyphTable()
        self.forms: list[FormUse] = []
        self.form_glyph_counts: list[list[int]] = []  # per form use: [glyphs, outside bbox]
        self.page_fonts: dict[tuple[str, tuple[str, ...], str], PageFont] = {}
        self.gs = GraphicsState()
        self.stack: list[GraphicsState] = []
        self.tm: Matrix = IDENTITY
        self.tlm: Matrix = IDENTITY
        self.in_text = False
        self.marked: MarkedContent | None = None  # innermost open marked-content section
        self.actual_text: list[ActualTextSpan] = []  # outermost /ActualText and /E spans that painted glyphs
        # The open outermost span: (its section, glyphs painted before its BDC, the span so far).
        self._actual_open: tuple[MarkedContent, int, ActualTextSpan] | None = None
        self.frame: _Frame = _Frame(None, (), (), 0)
        self.token_index = -1  # page-stream instruction being run (or that started a form chain)
        self.stream_index = -1
        self.compat_depth = 0  # BX…EX: unknown operators are legal there
        self.instruction_count = 0
        self._table: dict[str, tuple[Callable[[list[Any]], None], str]] = {
            "q": (self.op_q, _NONE),
            "Q": (self.op_Q, _NONE),
            "cm": (self.op_cm, "nnnnnn"),
            "BT": (self.op_BT, _NONE),
            "ET": (self.op_ET, _NONE),
            "Tf": (self.op_Tf, "Nn"),
            "Tc": (self.op_Tc, "n"),
            "Tw": (self.op_Tw, "n"),
            "Tz": (self.op_Tz, "n"),
            "TL": (self.op_TL, "n"),
            "Ts": (self.op_Ts, "n"),
            "Tr": (self.op_Tr, "n"),
            "Td": (self.op_Td, "nn"),
            "TD": (self.op_TD, "nn"),
            "Tm": (self.op_Tm, "nnnnnn"),
            "T*": (self.op_Tstar, _NONE),
            "Tj": (self.op_Tj, "s"),
            "TJ": (self.op_TJ, "a"),
            "'": (self.op_quote, "s"),
            '"': (self.op_dquote, "nns"),
            "BDC": (self.op_BDC, "N*"),
            "BMC": (self.op_BMC, "N"),
            "EMC": (self.op_EMC, _NONE),
            "Do": (self.op_Do, "N"),
            "BX": (self.op_BX, _NONE),
            "EX": (self.op_EX, _NONE),
        }
        # Visibility (issue 12): the clip, the fill colour and alpha, paint objects.
        self.clips: list[ClipRecord] = []
        self.fills: list[FillState] = [FillState()]
        self._fill_ids: dict[FillState, int] = {FillState(): 0}
        self.paints: list[PaintObject] = []
        self._stream: Sequence[Any] = ()  # the instructions of the stream being run
        self._prev_handled = -1  # stream index of the instruction handled before the current one
        self._w_prev = -1  # ... before the last W/W*
        self._clip_kind = 1  # 1: that W, 2: W*
        self._clip_at = -1  # stream index of the last W/W* ...
        self._clip_stream: Sequence[Any] = ()  # ... in this stream
        self._resource_cache: dict[tuple[int, str], tuple[Any, Any]] = {}  # (resources, name) → answer
        if TRACK_VISIBILITY:
            self._table.update(self._visibility_ops())

    # ------------------------------------------------------------------ driving

    @property
    def operators_executed(self) -> int:
        return self._ops_start - max(self.ops_left, 0)

    def run_page(self, page_obj: Any, resources: Any) -> None:
        """Interpret the page; a spent budget ends it with a `budget_exceeded` finding."""
        self.frame = _Frame(resources, (), (), 0)
        try:
            instructions = self._read_content(
                page_obj, content_streams(page_obj), "the page's content stream"
            )
            if instructions is None:
                return
            if not instructions:
                self.diag.add(DiagnosticKind.NO_CONTENT, Severity.INFO, "the page has no content stream")
            self.instruction_count = len(instructions)
            self._run(instructions, page_level=True)
        except BudgetExceeded as exc:
            self._record_budget(exc)
        self._finish_page()

    def _read_content(self, target: Any, streams: list[Any], what: str) -> list[Any] | None:
        """Tokenise a page's or form's content within the decoded-bytes budget.

        None (with a finding) when it cannot be read. Over the budget, the finding is
        recorded as the page's budget finding and the prefix that fits is returned:
        the caller runs it and the page stops after it.
        """
        measured = measure(streams, self.content_bytes_left)
        if measured.over_budget:
            self.content_bytes_left = 0
            detail = (
                f"{what} ({measured.culprit}): {measured.refused}"
                if measured.refused
                else f"{what} ({measured.culprit}) decodes to more than the "
                f"{self.limits.page_content_bytes:,} bytes left"
            )
            self.budget_exceeded = BudgetExceeded(
                "page_content_bytes", self.limits.page_content_bytes, detail
            )
            try:
                if self._scratch is None:
                    self._scratch = pikepdf.new()
                return truncated_instructions(measured.prefix, self._scratch) if not measured.refused else []
            except (QpdfError, ValueError, TypeError):
                return []
        self.content_bytes_left -= measured.decoded_bytes
        try:
            instructions = parse_instructions(target)
        except (QpdfError, ValueError, TypeError) as exc:
            if self.frame.form_path:
                self.diag.add(
                    DiagnosticKind.CONTENT_UNREADABLE,
                    Severity.WARNING,
                    f"form {self.frame.form_path[-1]} could not be read: {_one_line(exc)}",
                    token_index=self.token_index,
                    form_path=self.frame.form_path,
                )
            else:
                self.diag.add(
                    DiagnosticKind.CONTENT_UNREADABLE,
                    Severity.ERROR,
                    f"{what} could not be read: {_one_line(exc)}",
                )
            return None
        return instructions

    def _record_budget(self, exc: BudgetExceeded) -> None:
        """The page's one budget finding: which budget, its limit, and where the page stopped."""
        if self.budget_exceeded is not None and self.budget_exceeded is not exc:
            exc = self.budget_exceeded  # the content was cut first: that is the reason
        self.budget_exceeded = exc
        label = BUDGET_LABELS.get(exc.budget, exc.budget)
        form_path = exc.form_path or ()
        where = f"instruction {self.token_index}" if self.token_index >= 0 else "the start"
        if form_path:
            chain = (
                " → ".join(form_path)
                if len(form_path) <= 6
                else (f"{' → '.join(form_path[:2])} → … ({len(form_path)} levels) → {form_path[-1]}")
            )
            where += f" (inside form {chain}, its instruction {exc.stream_index})"
        limit = f"{exc.limit:,g}" if isinstance(exc.limit, float) else f"{exc.limit:,}"
        detail = f": {exc.detail}" if exc.detail else ""
        self.diag.add(
            DiagnosticKind.BUDGET_EXCEEDED,
            Severity.ERROR,
            f"budget '{label}' ({limit}) spent at {where}{detail}; the rest of the page was not "
            f"interpreted (raise it with {option_name(exc.budget)})",
            token_index=self.token_index if self.token_index >= 0 else None,
            form_path=form_path,
        )

    def _over_ops_or_time(self, index: int, page_level: bool) -> None:
        """The instruction counter ran out, or its periodic look at the clock found the deadline passed."""
        if self.ops_left >= 0 and time.monotonic() <= self.deadline:
            return  # within budget: the indices stay those of the last handled instruction
        if page_level:  # where the page stopped
            self.token_index = index
        self.stream_index = index
        if self.ops_left < 0:
            if self.document_budget is None or self._page_ops <= self.document_budget.operators_left:
                raise BudgetExceeded("page_operators", self.limits.page_operators)
            raise BudgetExceeded("document_operators", self.limits.document_operators)
        if time.monotonic() > self.deadline:
            if time.monotonic() > self._page_deadline or self.document_budget is None:
                raise BudgetExceeded("page_seconds", self.limits.page_seconds)
            raise BudgetExceeded("document_seconds", self.limits.document_seconds)

    def _finish_page(self) -> None:
        if self._actual_open is not None:
            self._close_actual_text()  # a span left open runs to the end of the page
        if self.budget_exceeded is not None and not any(
            d.kind is DiagnosticKind.BUDGET_EXCEEDED for d, _ in self.diag.items
        ):
            self._record_budget(self.budget_exceeded)  # the content was cut: it ran to its end
        if len(self.stack) > 0:
            self.diag.add(
                DiagnosticKind.UNBALANCED_Q,
                Severity.INFO,
                f"{len(self.stack)} q without matching Q at the end of the page",
            )
        if self.marked is not None and self.budget_exceeded is None:
            self.diag.add(
                DiagnosticKind.MARKED_CONTENT_UNBALANCED,
                Severity.INFO,
                f"{self.marked.depth} marked-content section(s) (BMC/BDC) not closed by EMC",
            )

    def _run(self, instructions: Sequence[Any], page_level: bool) -> None:
        saved_stream, saved_prev = self._stream, self._prev_handled
        # The painting operators read their path back (_path_behind); the stepper hands over
        # its observing wrapper, whose `instructions` are the list.
        self._stream = getattr(instructions, "instructions", instructions)
        self.stream_index = self._prev_handled = -1
        try:
            self._run_stream(instructions, page_level)
        finally:
            self._stream, self._prev_handled = saved_stream, saved_prev

    def _run_stream(self, instructions: Sequence[Any], page_level: bool) -> None:
        table = self._table
        ignored = _IGNORED
        for index, ins in enumerate(instructions):
            # Budgets: one counter per instruction (page + forms), the clock every 1024.
            self.ops_left -= 1
            if self.ops_left < 0 or not (self.ops_left & TIME_CHECK_MASK):
                self._over_ops_or_time(index, page_level)
            # Inline images come as ContentStreamInlineImage with the operator "INLINE IMAGE":
            # ignored like every operator that cannot affect text (most of a drawing's stream).
            try:  # pdf_text's fallback, inlined: this runs for every instruction
                op = str(ins.operator)
            except UnicodeDecodeError:
                op = pdf_text(ins.operator)
            entry = table.get(op)
            if entry is None:
                if op in ignored or self.compat_depth:
                    continue
                if page_level:
                    self.token_index = index
                self._note(
                    DiagnosticKind.UNKNOWN_OPERATOR,
                    Severity.WARNING,
                    f"unknown operator '{op}' skipped",
                    once_key=f"'{op}'",
                )
                continue
            if page_level:
                self.token_index = index
            self._prev_handled = self.stream_index  # where a painting operator's path starts after
            self.stream_index = index
            handler, signature = entry
            raw = _NO_OPERANDS if signature is _NONE else list(ins.operands)
            if signature and signature is not _NONE:
                numbers: list[float] | None = None
                if len(raw) == len(signature) and signature in _ALL_NUMBERS:
                    # Fast path for the all-number operators (Td, Tm, cm, Tc, …); _check explains failures.
                    try:
                        numbers = [float(x) for x in raw]
                    except TypeError:
                        numbers = None
                    if numbers is not None and not math.isfinite(sum(numbers)):
                        numbers = None
                checked = numbers if numbers is not None else self._check(op, raw, signature)
                if checked is None:
                    continue
                raw = checked
            try:
                handler(raw)
            except (
                QpdfError,
                ValueError,
                TypeError,
                KeyError,
                AttributeError,
                ZeroDivisionError,
            ) as exc:
                # A handler tripping over a broken object skips one operator, never the page.
                self._note(
                    DiagnosticKind.MALFORMED_OPERATOR,
                    Severity.WARNING,
                    f"operator '{op}' skipped: {type(exc).__name__}: {_one_line(exc)}",
                    once_key=f"'{op}' {type(exc).__name__}",
                )

    def _note(
        self, kind: DiagnosticKind, severity: Severity, message: str, once_key: str | None = None
    ) -> None:
        """A finding about the instruction being run, in the stream being run."""
        self.diag.add(
            kind,
            severity,
            message,
            token_index=self.token_index,
            form_path=self.frame.form_path,
            once_key=once_key,
        )

    def _check(self, op: str, operands: list[Any], signature: str) -> list[Any] | None:
        """Validate operand count and types; convert numbers to float."""
        need = len(signature)
        if len(operands) < need:
            self._note(
                DiagnosticKind.MALFORMED_OPERATOR,
                Severity.WARNING,
                f"operator '{op}' skipped: {len(operands)} operand(s), {need} expected",
                once_key=f"'{op}' count",
            )
            return None
        if len(operands) > need:
            operands = operands[-need:]  # as pdf.js: extra leading operands are ignored
        out: list[Any] = []
        for kind, value in zip(signature, operands):
            if kind == _N:
                num = _number(value)
                if num is None:
                    return self._bad_type(op, value, "a number")
                out.append(num)
            elif kind == _S:
                if not isinstance(value, pikepdf.String):
                    return self._bad_type(op, value, "a string")
                out.append(bytes(value))
            elif kind == _A:
                if not isinstance(value, pikepdf.Array):
                    return self._bad_type(op, value, "an array")
                out.append(value)
            elif kind == _NAME:
                if not isinstance(value, pikepdf.Name):
                    return self._bad_type(op, value, "a name")
                out.append(pdf_text(value))
            else:
                out.append(value)
        return out

    def _bad_type(self, op: str, value: Any, expected: str) -> list[Any] | None:
        self._note(
            DiagnosticKind.MALFORMED_OPERATOR,
            Severity.WARNING,
            f"operator '{op}' skipped: operand {str(value)[:40]!r} is not {expected}",
            once_key=f"'{op}' type",
        )
        return None

    # ------------------------------------------------------------ graphics state

    def op_q(self, _: list[Any]) -> None:
        self.stack.append(self.gs.copy())

    def op_Q(self, _: list[Any]) -> None:
        if len(self.stack) <= self.frame.base_depth:
            self._note(
                DiagnosticKind.Q_UNDERFLOW,
                Severity.WARNING,
                "Q without a matching q ignored",
                once_key="Q",
            )
            return
        self.gs = self.stack.pop()

    def op_cm(self, o: list[Any]) -> None:
        self.gs.ctm = multiply((o[0], o[1], o[2], o[3], o[4], o[5]), self.gs.ctm)

    def op_BX(self, _: list[Any]) -> None:
        self.compat_depth += 1

    def op_EX(self, _: list[Any]) -> None:
        self.compat_depth = max(0, self.compat_depth - 1)

    # ------------------------------------------------------------- text objects

    def op_BT(self, _: list[Any]) -> None:
        self.in_text = True
        self.tm = self.tlm = IDENTITY

    def op_ET(self, _: list[Any]) -> None:
        self.in_text = False

    @property
    def ts(self) -> TextState:
        ts = self.gs.text
        assert ts is not None
        return ts

    def op_Tf(self, o: list[Any]) -> None:
        key, size = o
        ts = self.ts
        ts.font_key = key
        ts.font_size = size
        ts.font = self._font(key)

    def op_Tc(self, o: list[Any]) -> None:
        self.ts.char_spacing = o[0]

    def op_Tw(self, o: list[Any]) -> None:
        self.ts.word_spacing = o[0]

    def op_Tz(self, o: list[Any]) -> None:
        self.ts.horizontal_scaling = o[0]

    def op_TL(self, o: list[Any]) -> None:
        self.ts.leading = o[0]

    def op_Ts(self, o: list[Any]) -> None:
        self.ts.rise = o[0]

    def op_Tr(self, o: list[Any]) -> None:
        self.ts.render_mode = int(o[0])

    def op_Td(self, o: list[Any]) -> None:
        tx, ty = o
        a, b, c, d, e, f = self.tlm
        self.tlm = (a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f)
        self.tm = self.tlm

    def op_TD(self, o: list[Any]) -> None:
        self.ts.leading = -o[1]
        self.op_Td(o)

    def op_Tm(self, o: list[Any]) -> None:
        self.tm = self.tlm = (o[0], o[1], o[2], o[3], o[4], o[5])

    def op_Tstar(self, _: list[Any]) -> None:
        self.op_Td([0.0, -self.ts.leading])

    def op_Tj(self, o: list[Any]) -> None:
        self._show((o[0],))

    def op_quote(self, o: list[Any]) -> None:
        self.op_Tstar([])
        self._show((o[0],))

    def op_dquote(self, o: list[Any]) -> None:
        self.ts.word_spacing = o[0]
        self.ts.char_spacing = o[1]
        self.op_Tstar([])
        self._show((o[2],))

    def op_TJ(self, o: list[Any]) -> None:
        parts: list[bytes | float] = []
        for item in o[0]:
            if isinstance(item, pikepdf.String):
                parts.append(bytes(item))
            else:
                num = _number(item)
                if num is not None:  # junk inside TJ arrays is common and harmless
                    parts.append(num)
        self._show(parts)

    def _advance(self, tx: float, ty: float) -> None:
        a, b, c, d, e, f = self.tm
        self.tm = (a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f)

    # ------------------------------------------------- visibility (issue 12)
    # Data only: the clip, the fill colour and alpha and the opaque paint objects in paint
    # order. What a glyph's visibility is, core/visibility.py decides. Text render modes 4–7
    # (text added to the clip) are not tracked: their glyphs are painted like 0–3, and the
    # text clip they add is ignored.

    def _visibility_ops(self) -> dict[str, tuple[Callable[[list[Any]], None], str]]:
        paint = self.op_paint
        return {
            "W": (self.op_W, _NONE),
            "W*": (self.op_Wstar, _NONE),
            "n": (self.op_end_path, _NONE),
            "S": (self.op_end_path, _NONE),  # a stroke paints no area under text: it may only clip
            "s": (self.op_end_path, _NONE),
            "f": (lambda _: paint("f"), _NONE),
            "F": (lambda _: paint("F"), _NONE),
            "f*": (lambda _: paint("f*"), _NONE),
            "B": (lambda _: paint("B"), _NONE),
            "B*": (lambda _: paint("B*"), _NONE),
            "b": (lambda _: paint("b"), _NONE),
            "b*": (lambda _: paint("b*"), _NONE),
            "g": (self.op_g, "n"),
            "rg": (self.op_rg, "nnn"),
            "k": (self.op_k, "nnnn"),
            "cs": (self.op_cs, "N"),
            "sc": (self.op_sc, ""),
            "scn": (self.op_sc, ""),
            "gs": (self.op_gs, "N"),
            "sh": (self.op_sh, "N"),
            "INLINE IMAGE": (self.op_inline_image, ""),
        }

    def op_paint(self, op: str) -> None:
        """f F f* B B* b b*: the path's area is painted with the fill colour (then it may clip)."""
        polygons, clip_rule, clip_at = self._path_behind()
        if polygons:
            fill_id = self.gs.fill
            fs = self.fills[fill_id]
            self.paints.append(
                PaintObject(
                    "fill",
                    polygons,
                    _bbox(polygons),
                    _FILL_RULES[op],
                    fs.alpha >= 1.0 and not fs.soft_mask and fs.family != "pattern",
                    fill_id,
                    self.gs.clip,
                    len(self.glyphs),
                    self.token_index,
                    self.stream_index,
                    self.frame.form_path,
                )
            )
        if clip_rule:
            self._clip_path(polygons, clip_rule, clip_at)

    def op_end_path(self, _: list[Any]) -> None:
        """n S s: nothing is filled; a W/W* just before intersects the path into the clip."""
        if self._clip_at == self._prev_handled >= 0 and self._clip_stream is self._stream:
            polygons, clip_rule, clip_at = self._path_behind()
            if clip_rule:
                self._clip_path(polygons, clip_rule, clip_at)

    def op_W(self, _: list[Any], kind: int = 1) -> None:
        self._clip_at = self.stream_index  # the painting operator right after it reads the path back
        self._clip_stream = self._stream
        self._clip_kind = kind
        self._w_prev = self._prev_handled

    def op_Wstar(self, o: list[Any]) -> None:
        self.op_W(o, 2)

    def _path_behind(self) -> tuple[tuple[Polygon, ...], int, int]:
        """The path of the painting operator being run, read back from its stream.

        Path construction (m l c v y h re) and W/W* are not executed one by one: they are
        contiguous just before their painting operator and the CTM cannot change among
        them (ISO 32000-1 §8.5.1), so the painting operator reads them back — a stroked
        drawing costs nothing. Returns the subpaths as polygons in user space (curves
        flattened to CURVE_STEPS segments), the clip rule (0 none, 1 W, 2 W*) and the W's
        index in the stream.
        """
        stream = self._stream
        end = min(self.stream_index, len(stream))
        first_rule, first_at = 0, -1
        prev = self._prev_handled
        if prev >= 0 and self._clip_at == prev and self._clip_stream is stream:
            first_rule, first_at = self._clip_kind, prev  # W n, W f: the path ends before the W
            end = prev
            prev = self._w_prev
        start = max(prev + 1, 0)
        # Everything between the previous handled instruction and here is path construction
        # (ignored by the loop); a colour set inside the path (handled) or a budget check
        # (which notes the index) may stand in between: then read back op by op.
        while start > 0 and pdf_text(stream[start - 1].operator) in _PATH_OR_STATE:
            start -= 1
        if start >= end:
            return (), first_rule, first_at
        # One call serialises the whole path; its numbers are read from the bytes (faster than
        # asking pikepdf for each instruction's operands).
        try:
            tokens = pikepdf.unparse_content_stream(stream[start:end]).split()
        except (QpdfError, ValueError, TypeError):
            return (), first_rule, first_at
        a, b, c, d, e, f = self.gs.ctm
        subpaths: list[list[Point]] = []
        cur: list[Point] | None = None
        here: Point | None = None  # the current point
        begin: Point | None = None  # the subpath's start (h returns there)
        clip_rule, clip_at = first_rule, first_at
        v: list[float] = []
        bad = False  # an operand that is not a number: the operator is skipped
        k = start - 1  # the instruction a token belongs to: counted by operators
        for token in tokens:
            try:
                x = float(token)
            except ValueError:
                pass
            else:
                if x - x != 0.0:  # beyond a double (a 400-digit width): as MuPDF, the largest there is
                    if x != x:
                        bad = True  # NaN
                        continue
                    x = math.copysign(FLT_MAX, x)
                v.append(x)
                continue
            op = token.decode("latin-1")
            if op not in _PATH_OR_STATE:
                bad = True  # an operand of another type (a name, an array): not a number
                continue
            k += 1
            args, v = v, []
            if bad or op not in _PATH_OPS:
                bad = False
                continue  # a colour or line-style operator inside the path
            if op == "W" or op == "W*":
                clip_rule, clip_at = (2 if op == "W*" else 1), k
                continue
            if op == "h":
                if begin is not None:
                    here = begin
                cur = None
                continue
            if op == "re" and len(args) >= 4:
                x, y, w, h = args[-4:]
                x1, y1 = x + w, y + h
                subpaths.append(
                    [
                        (a * x + c * y + e, b * x + d * y + f),
                        (a * x1 + c * y + e, b * x1 + d * y + f),
                        (a * x1 + c * y1 + e, b * x1 + d * y1 + f),
                        (a * x + c * y1 + e, b * x + d * y1 + f),
                    ]
                )
                here = begin = (a * x + c * y + e, b * x + d * y + f)
                cur = None
                continue
            if op == "m" and len(args) >= 2:
                x, y = args[-2:]
                here = begin = (a * x + c * y + e, b * x + d * y + f)
                cur = [here]
                subpaths.append(cur)
                continue
            if cur is None:
                cur = [here] if here is not None else []
                subpaths.append(cur)
            if op == "l" and len(args) >= 2:
                x, y = args[-2:]
                here = (a * x + c * y + e, b * x + d * y + f)
                cur.append(here)
            elif op in ("c", "v", "y") and len(args) >= (6 if op == "c" else 4):
                if op == "c":
                    x1, y1, x2, y2, x3, y3 = args[-6:]
                elif op == "v":
                    x2, y2, x3, y3 = args[-4:]
                    x1 = y1 = 0.0
                else:
                    x1, y1, x3, y3 = args[-4:]
                    x2, y2 = x3, y3
                p3 = (a * x3 + c * y3 + e, b * x3 + d * y3 + f)
                p0 = here if here is not None else p3
                p1 = p0 if op == "v" else (a * x1 + c * y1 + e, b * x1 + d * y1 + f)
                p2 = (a * x2 + c * y2 + e, b * x2 + d * y2 + f)
                for s in range(1, CURVE_STEPS):  # an affine map keeps a Bézier a Bézier
                    t = s / CURVE_STEPS
                    u = 1.0 - t
                    w0, w1, w2, w3 = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
                    cur.append(
                        (
                            w0 * p0[0] + w1 * p1[0] + w2 * p2[0] + w3 * p3[0],
                            w0 * p0[1] + w1 * p1[1] + w2 * p2[1] + w3 * p3[1],
                        )
                    )
                cur.append(p3)
                here = p3
        polygons = tuple(tuple(sp) for sp in subpaths if len(sp) >= 3)
        return polygons, clip_rule, clip_at

    def _clip_path(self, polygons: tuple[Polygon, ...], rule: int, at: int) -> None:
        """Intersect a W (1) / W* (2) path into the clip; an empty path clips everything away."""
        form_path = self.frame.form_path
        rect = len(polygons) == 1 and _axis_aligned(polygons[0])
        self._add_clip(
            ClipPath(
                polygons,
                _bbox(polygons),
                rule == 2,
                rect,
                "W*" if rule == 2 else "W",
                at if not form_path else self.token_index,
                at,
                form_path,
            )
        )

    def _add_clip(self, path: ClipPath) -> None:
        gs = self.gs
        clips = self.clips
        if gs.clip >= 0:
            parent = clips[gs.clip]
            box = intersect(parent.bbox, path.bbox) if not parent.empty else None
            record = ClipRecord(
                path,
                gs.clip,
                box if box is not None else parent.bbox,
                box is None,
                parent.rect_only and path.rect,
                parent.depth + 1,
            )
        else:
            record = ClipRecord(path, -1, path.bbox, False, path.rect)
        gs.clip = len(clips)
        clips.append(record)

    def _set_fill(self, fs: FillState) -> None:
        found = self._fill_ids.get(fs)
        if found is None:
            found = self._fill_ids[fs] = len(self.fills)
            self.fills.append(fs)
        self.gs.fill = found

    def _colour(self, family: str, components: tuple[float, ...]) -> None:
        current = self.fills[self.gs.fill]
        if current.family != family or current.components != components:
            self._set_fill(FillState(family, components, current.alpha, current.soft_mask))

    def op_g(self, o: list[Any]) -> None:
        self._colour("gray", (o[0],))

    def op_rg(self, o: list[Any]) -> None:
        self._colour("rgb", (o[0], o[1], o[2]))

    def op_k(self, o: list[Any]) -> None:
        self._colour("cmyk", (o[0], o[1], o[2], o[3]))

    def op_cs(self, o: list[Any]) -> None:
        res = self.frame.resources
        key = (id(res), o[0])
        cached = self._resource_cache.get(key)
        if cached is None or cached[0] is not res:
            cached = self._resource_cache[key] = (res, self._colour_space_family(pikepdf.Name(o[0]), 0))
        family = cached[1]
        self._colour(family, _INITIAL_COLOUR.get(family, ()))

    def op_sc(self, o: list[Any]) -> None:
        numbers = [_number(v) for v in o]
        components = tuple(v for v in numbers if v is not None)
        family = self.fills[self.gs.fill].family
        if o and isinstance(o[-1], pikepdf.Name):
            family = "pattern"  # scn with a pattern name: the pattern's colours are not known
        self._colour(family, components)

    def _colour_space_family(self, cs: Any, depth: int) -> str:
        """The family of a colour space: a device name, a /ColorSpace resource, or an array."""
        if depth > 4:
            return "unknown"
        if isinstance(cs, pikepdf.Name):
            name = pdf_text(cs)
            found = _DEVICE_FAMILIES.get(name)
            if found is not None:
                return found
            res = self.frame.resources
            spaces = res.get("/ColorSpace") if res is not None else None
            target = spaces.get(name) if isinstance(spaces, pikepdf.Dictionary) else None
            return self._colour_space_family(target, depth + 1) if target is not None else "unknown"
        if isinstance(cs, pikepdf.Array) and len(cs) > 0:
            head = pdf_text(cs[0])
            if head == "/ICCBased" and len(cs) > 1 and isinstance(cs[1], pikepdf.Stream):
                n = cs[1].get("/N")
                if isinstance(n, int) and n in _ICC_FAMILIES:
                    return _ICC_FAMILIES[int(n)]
                alternate = cs[1].get("/Alternate")
                return self._colour_space_family(alternate, depth + 1) if alternate is not None else "unknown"
            return _DEVICE_FAMILIES.get(head, "unknown")
        return "unknown"

    def op_gs(self, o: list[Any]) -> None:
        """ExtGState: the fill alpha /ca and the soft mask /SMask (the rest cannot hide text)."""
        res = self.frame.resources
        key = (id(res), "gs " + o[0])
        cached = self._resource_cache.get(key)
        if cached is None or cached[0] is not res:
            cached = self._resource_cache[key] = (res, self._ext_gstate(res, o[0]))
        ca, smask = cached[1]
        current = self.fills[self.gs.fill]
        alpha = current.alpha if ca is None else ca
        soft_mask = current.soft_mask if smask is None else smask
        if alpha != current.alpha or soft_mask != current.soft_mask:
            self._set_fill(FillState(current.family, current.components, alpha, soft_mask))

    @staticmethod
    def _ext_gstate(res: Any, name: str) -> tuple[float | None, str | None]:
        """(/ca clamped to 0–1, soft mask state) of an ExtGState resource; None where it sets neither."""
        states = res.get("/ExtGState") if res is not None else None
        ext = states.get(name) if isinstance(states, pikepdf.Dictionary) else None
        if not isinstance(ext, pikepdf.Dictionary):
            return None, None
        ca = _number(ext.get("/ca"))
        return (
            min(max(ca, 0.0), 1.0) if ca is not None else None,
            _soft_mask(ext.get("/SMask")) if "/SMask" in ext else None,
        )

    def op_sh(self, _: list[Any]) -> None:
        """A shading fills the whole clip (everywhere when nothing clips): painted, colours unknown."""
        clip = self.gs.clip
        box = self.clips[clip].bbox if clip >= 0 else (-math.inf, -math.inf, math.inf, math.inf)
        self._add_paint("shading", (), box, False)

    def op_inline_image(self, o: list[Any]) -> None:
        image = o[0] if o else None
        info = getattr(image, "obj", None)
        self._image("inline_image", info if isinstance(info, pikepdf.Dictionary) else None)

    def _image(self, kind: str, info: Any) -> None:
        """An image paints the CTM's unit square; opaque unless masked or painted with alpha."""
        a, b, c, d, e, f = self.gs.ctm
        quad = ((e, f), (a + e, b + f), (a + c + e, b + d + f), (c + e, d + f))
        masked = (
            info is None
            or any(key in info for key in ("/SMask", "/Mask", "/SMaskInData"))
            or bool(info.get("/ImageMask", False))
        )
        fs = self.fills[self.gs.fill]
        opaque = not masked and fs.alpha >= 1.0 and not fs.soft_mask
        self._add_paint(kind, (quad,), _bbox((quad,)), opaque)

    def _add_paint(self, kind: str, polygons: tuple[Polygon, ...], box: Rect, opaque: bool) -> None:
        self.paints.append(
            PaintObject(
                kind,
                polygons,
                box,
                False,
                opaque,
                -1 if kind != "fill" else self.gs.fill,
                self.gs.clip,
                len(self.glyphs),
                self.token_index,
                self.stream_index,
                self.frame.form_path,
            )
        )

    # ------------------------------------------------------------ glyph output

    def _show(self, parts: Sequence[bytes | float]) -> None:
        """Paint strings; numbers between them are TJ adjustments in thousandths of text space."""
        ts = self.ts
        font = ts.font
        if not self.in_text:
            self._note(
                DiagnosticKind.TEXT_OUTSIDE_BT,
                Severity.INFO,
                "text shown outside BT…ET; interpreted with the current text matrix",
                once_key="BT",
            )
        if font is None:
            self.diag.add(
                DiagnosticKind.NO_FONT_SET,
                Severity.WARNING,
                f"text shown without a usable font ({ts.font_key or 'no Tf'}): its glyphs are lost",
                token_index=self.token_index,
                font_key=ts.font_key or None,
                form_path=self.frame.form_path,
                once_key=f"{ts.font_key}",
            )
            for part in parts:  # nothing is painted, but TJ offsets still move the pen
                if part.__class__ is float:
                    self._advance(-part / 1000.0 * ts.font_size * ts.horizontal_scaling / 100.0, 0.0)  # type: ignore[operator]
            return
        size = ts.font_size
        th = ts.horizontal_scaling / 100.0
        tc = ts.char_spacing
        tw = ts.word_spacing
        rise = ts.rise
        vertical = font.wmode == 1
        ascent, descent = font.ascent, font.descent
        if ascent <= descent:
            ascent, descent = 0.8, -0.2
        frame = self.frame
        form_path = frame.form_path
        token_index = self.token_index if not form_path else -1
        stream_index = self.stream_index
        marked = self.marked
        mcid = marked.active_mcid if marked is not None else None
        tags = marked.tags if marked is not None else ()
        font_key = ts.font_key
        font_id = font.info.font_id or font_key
        render_mode = ts.render_mode
        bbox = frame.form_bbox
        inv = frame.form_ctm_inverse
        ctm = self.gs.ctm
        table = self.glyphs
        tm = self.tm
        clip_id = self.gs.clip
        fill_id = self.gs.fill

        # M = Tm × CTM, kept up to date as the pen advances (only its translation changes),
        # so everything but the pen position is the same for every glyph of the string.
        a, b, c, d, e, f = multiply(tm, ctm)
        # The text rendering matrix is [size*th 0 0 size 0 rise] × M.
        sa, sb, sc, sd = size * th * a, size * th * b, size * c, size * d
        rc, rd = rise * c, rise * d
        if vertical:
            dx, dy = -c, -d  # writing goes down the text space y axis
        else:
            dx, dy = sa, sb
        norm = (dx * dx + dy * dy) ** 0.5
        direction = (dx / norm, dy / norm) if norm else (1.0, 0.0)
        height = (ascent - descent) * (sc * sc + sd * sd) ** 0.5
        asc_x, asc_y, desc_x, desc_y = ascent * sc, ascent * sd, descent * sc, descent * sd
        wmode = 1 if vertical else 0
        hscale = ts.horizontal_scaling
        form_use = frame.form_use_index if form_path else -1
        counts = self.form_glyph_counts[form_use] if form_path else None
        space_spacing = tc + tw  # Tw applies to the single-byte code 32 only (§9.3.3)
        index = len(table)
        run: GlyphRun | None = None  # started with the string's first glyph: runs are never empty
        geom_extend = table.geom.extend
        unicode_append = table.unicode.append
        code_append = table.code.append
        bytes_append = table.code_bytes.append
        source_append = table.source.append
        cap = self.glyph_cap
        moved = 0.0  # total pen advance in text space, along x (horizontal) or y (vertical)
        for part in parts:
            if part.__class__ is float:
                adjust = -part / 1000.0 * size  # type: ignore[operator]
                if not vertical:
                    adjust *= th
                    e += adjust * a
                    f += adjust * b
                else:
                    e += adjust * c
                    f += adjust * d
                moved += adjust
                continue
            room = (cap - index + 1) * MAX_CODE_BYTES
            if len(part) > room:  # type: ignore[arg-type]
                part = part[:room]  # type: ignore[index]  # never decode more codes than the cap allows
            for code, nbytes, uni, source, w0 in font.decode(part):  # type: ignore[arg-type]
                if index >= cap:
                    self.tm = self._moved(tm, moved, vertical)
                    raise BudgetExceeded("page_glyphs", cap)
                ox, oy = e + rc, f + rd
                wx, wy = w0 * sa, w0 * sb
                spacing = space_spacing if code == 32 and nbytes == 1 else tc
                if not vertical:
                    tx = (w0 * size + spacing) * th
                    ax, ay = tx * a, tx * b
                    x0, y0 = ox + desc_x, oy + desc_y
                    x3, y3 = ox + asc_x, oy + asc_y
                    glyph_end_x, glyph_end_y = ox + wx, oy + wy
                else:
                    w1y, vx, vy = font.vertical(code)
                    # The glyph is drawn with its position vector v at the pen (ISO 32000-1 §9.7.4.3):
                    # its box spans x ∈ [-vx, w0 - vx], y ∈ [descent - vy, ascent - vy] in glyph units.
                    tx = w1y * size + spacing
                    ax, ay = tx * c, tx * d
                    bx, by0, by1 = -vx, descent - vy, ascent - vy
                    x0, y0 = ox + bx * sa + by0 * sc, oy + bx * sb + by0 * sd
                    x3, y3 = ox + bx * sa + by1 * sc, oy + bx * sb + by1 * sd
                    glyph_end_x, glyph_end_y = ox + w1y * size * c, oy + w1y * size * d
                moved += tx
                e += ax
                f += ay
                outside = False
                if counts is not None:
                    counts[0] += 1
                    if bbox is not None and inv is not None:
                        cx = x0 + (wx + x3 - x0) * 0.5
                        cy = y0 + (wy + y3 - y0) * 0.5
                        fx = inv[0] * cx + inv[2] * cy + inv[4]
                        fy = inv[1] * cx + inv[3] * cy + inv[5]
                        if not (bbox[0] <= fx <= bbox[2] and bbox[1] <= fy <= bbox[3]):
                            outside = True
                            counts[1] += 1
                if run is None:
                    run = GlyphRun(
                        font_key,
                        size,
                        height,
                        direction,
                        wmode,
                        form_path,
                        mcid,
                        render_mode,
                        rise,
                        font_id,
                        tc,
                        tw,
                        hscale,
                        tags,
                        form_use,
                        clip_id,
                        fill_id,
                    )
                    table.start_run(run, token_index, stream_index)
                if outside:
                    table.outside.add(index)
                geom_extend(
                    (
                        ox,
                        oy,
                        glyph_end_x,
                        glyph_end_y,
                        ox + ax,
                        oy + ay,
                        x0,
                        y0,
                        x0 + wx,
                        y0 + wy,
                        x3 + wx,
                        y3 + wy,
                        x3,
                        y3,
                    )
                )
                unicode_append(uni)
                code_append(code)
                bytes_append(nbytes)
                source_append(source)
                index += 1
        self.tm = self._moved(tm, moved, vertical)

    @staticmethod
    def _moved(tm: Matrix, moved: float, vertical: bool) -> Matrix:
        """Tm' = T(moved) × Tm: along its x axis for horizontal writing, y for vertical."""
        tma, tmb, tmc, tmd, tme, tmf = tm
        if vertical:
            return (tma, tmb, tmc, tmd, tme + moved * tmc, tmf + moved * tmd)
        return (tma, tmb, tmc, tmd, tme + moved * tma, tmf + moved * tmb)

    # ------------------------------------------------------------------ fonts

    def _font(self, key: str) -> LoadedFont | None:
        frame = self.frame
        resources = frame.resources
        font_obj = None
        try:
            fonts = resources.get("/Font") if resources is not None else None
            if fonts is not None:
                font_obj = fonts.get(key)
        except (QpdfError, AttributeError, TypeError, ValueError):
            font_obj = None
        if font_obj is None or not isinstance(font_obj, pikepdf.Dictionary):
            self.diag.add(
                DiagnosticKind.MISSING_FONT,
                Severity.ERROR,
                f"font {key} is not in the resources: text shown with it is lost",
                token_index=self.token_index,
                font_key=key,
                form_path=frame.form_path,
                once_key=key,
            )
            return None
        font = self.fonts.get(font_obj, key)
        ident = (key, frame.form_path, font.info.font_id)
        if ident not in self.page_fonts:
            self.page_fonts[ident] = PageFont(key, frame.form_path, font.info)
        return font

    # --------------------------------------------------------- marked content

    def _open_marked(self, tag: str, mcid: int | None, properties: Any = None) -> None:
        """Push a section: O(1), a node linked to its parent (EMC pops back to the parent)."""
        parent = self.marked
        depth = parent.depth + 1 if parent is not None else 1
        if depth > self.limits.marked_content_depth:
            raise BudgetExceeded("marked_content_depth", self.limits.marked_content_depth)
        self.marked = MarkedContent.open(parent, tag, mcid, properties)

    def op_BMC(self, o: list[Any]) -> None:
        self._open_marked(o[0], None)

    def op_BDC(self, o: list[Any]) -> None:
        tag, props = o
        mcid: int | None = None
        if isinstance(props, pikepdf.Name):
            try:
                res = self.frame.resources
                table = res.get("/Properties") if res is not None else None
                props = table.get(props) if table is not None else None  # by the name itself: any bytes
            except (QpdfError, AttributeError, TypeError):
                props = None
        if isinstance(props, pikepdf.Dictionary):
            value = props.get("/MCID")
            if isinstance(value, int) and not isinstance(value, bool):
                mcid = int(value)
        else:
            props = None
        self._open_marked(tag, mcid, props)
        if props is not None and self._actual_open is None:  # nested spans: the outermost text wins
            self._open_actual_text(tag, props)

    def op_EMC(self, _: list[Any]) -> None:
        if self.marked is None:
            self.diag.add(
                DiagnosticKind.MARKED_CONTENT_UNBALANCED,
                Severity.INFO,
                "EMC without an open marked-content section ignored",
                once_key="EMC",
            )
            return
        if self._actual_open is not None and self._actual_open[0] is self.marked:
            self._close_actual_text()
        self.marked = self.marked.parent

    def _open_actual_text(self, tag: str, props: Any) -> None:
        """A BDC whose properties declare /ActualText or /E: remember where its glyphs start."""
        found = replacement_of(props)
        if found is None or self.marked is None:
            return
        form_path = self.frame.form_path
        token = self.token_index if not form_path else -1
        span = ActualTextSpan(-1, -1, found[0], found[1], str(tag), token, self.stream_index, form_path)
        self._actual_open = (self.marked, len(self.glyphs), span)

    def _close_actual_text(self) -> None:
        """Record the span over the glyphs painted since its BDC (none: nothing to replace)."""
        assert self._actual_open is not None
        _, start, span = self._actual_open
        self._actual_open = None
        if len(self.glyphs) > start:
            self.actual_text.append(replace(span, first=start, last=len(self.glyphs) - 1))

    # ------------------------------------------------------------ XObjects

    def op_Do(self, o: list[Any]) -> None:
        name = o[0]
        frame = self.frame
        res = frame.resources
        xobjects = res.get("/XObject") if res is not None else None
        xobj = xobjects.get(name) if isinstance(xobjects, pikepdf.Dictionary) else None
        if not isinstance(xobj, pikepdf.Stream):
            self._note(
                DiagnosticKind.MISSING_XOBJECT,
                Severity.WARNING,
                f"XObject {name} is not in the resources",
                once_key=name,
            )
            return
        if xobj.get("/Subtype") != pikepdf.Name.Form:
            if TRACK_VISIBILITY and xobj.get("/Subtype") == pikepdf.Name.Image:
                self._image("image", xobj)  # carries no text, but may cover it
            return  # images and PostScript XObjects carry no text
        ident = object_id(xobj, f"direct:{id(xobj)}")
        path = frame.form_path + (name,)
        self.forms_left -= 1
        if self.forms_left < 0:
            raise BudgetExceeded("page_form_invocations", self.limits.page_form_invocations)
        if ident in frame.form_ids:
            chain = " → ".join(path)
            self._note(
                DiagnosticKind.FORM_CYCLE,
                Severity.WARNING,
                f"form {name} draws itself ({chain}): the repeated Do was skipped, its text appears once",
                once_key=chain,
            )
            return
        if len(path) > MAX_FORM_DEPTH:
            self._note(
                DiagnosticKind.FORM_DEPTH_CAP,
                Severity.WARNING,
                f"forms nested deeper than {MAX_FORM_DEPTH} levels: {name} not drawn",
                once_key="depth",
            )
            return
        matrix = IDENTITY
        raw_matrix = xobj.get("/Matrix")
        if isinstance(raw_matrix, pikepdf.Array) and len(raw_matrix) == 6:
            values = [_number(v) for v in raw_matrix]
            if all(v is not None for v in values):
                matrix = tuple(values)  # type: ignore[assignment]
        form_ctm = multiply(matrix, self.gs.ctm)
        bbox: Rect | None = None
        raw_bbox = xobj.get("/BBox")
        if isinstance(raw_bbox, pikepdf.Array) and len(raw_bbox) == 4:
            values = [_number(v) for v in raw_bbox]
            if all(v is not None for v in values):
                bbox = normalize_rect(*values)  # type: ignore[arg-type]
        form_resources = xobj.get("/Resources")
        if not isinstance(form_resources, pikepdf.Dictionary):
            form_resources = res  # §7.8.3: a form without resources borrows the caller's
        instructions = self._form_instructions(ident, xobj, name, path)
        if instructions is None:
            return
        use_index = len(self.forms)
        self.form_glyph_counts.append([0, 0])
        self.forms.append(
            FormUse(
                path,
                ident,
                transform_rect(form_ctm, bbox) if bbox else transform_rect(form_ctm, (0, 0, 0, 0)),
                form_ctm,
                self.token_index,
                0,
                0,
            )
        )
        # Run the form with a stack seeded from the caller's state (an implicit q … Q).
        saved_gs = self.gs
        saved_stack_len = len(self.stack)
        saved_tm, saved_tlm, saved_in_text = self.tm, self.tlm, self.in_text
        saved_stream_index = self.stream_index
        self.stack.append(saved_gs.copy())
        self.gs = saved_gs.copy()
        self.gs.ctm = form_ctm
        if TRACK_VISIBILITY and bbox is not None:  # the form's /BBox clips what it paints
            quad = transform_rect(form_ctm, bbox)
            self._add_clip(
                ClipPath(
                    (quad,),
                    _bbox((quad,)),
                    False,
                    _axis_aligned(quad),
                    "BBox",
                    self.token_index,
                    self.stream_index,
                    path,
                )
            )
        self.frame = _Frame(
            form_resources,
            path,
            frame.form_ids + (ident,),
            len(self.stack),
            invert(form_ctm) if bbox else None,
            bbox,
            self.token_index,
            use_index,
        )
        try:
            self._run(instructions, page_level=False)
            if self.budget_exceeded is not None:  # its content was cut to the bytes budget
                raise self.budget_exceeded
        except BudgetExceeded as exc:
            if exc.form_path is None:  # the innermost form names where the page stopped
                exc.form_path, exc.stream_index = path, self.stream_index
            raise
        finally:
            del self.stack[saved_stack_len:]
            self.gs = saved_gs
            self.frame = frame
            self.tm, self.tlm, self.in_text = saved_tm, saved_tlm, saved_in_text
            self.stream_index = saved_stream_index

    def _form_instructions(self, ident: str, xobj: Any, name: str, path: tuple[str, ...]) -> list[Any] | None:
        """A form's instructions, parsed once per form object per page (every Do reuses them)."""
        cached = self._form_cache.get(ident)
        if isinstance(cached, list):
            return cached
        if cached is not None:  # unreadable: said once per Do chain, like before
            self.diag.add(
                DiagnosticKind.CONTENT_UNREADABLE,
                Severity.WARNING,
                f"form {name} could not be read: {cached}",
                token_index=self.token_index,
                form_path=path,
                once_key=f"unreadable {ident}",
            )
            return None
        outer = self.frame
        self.frame = replace(outer, form_path=path)  # findings while reading name the form
        try:
            instructions = self._read_content(xobj, [xobj], f"form {name}")
        finally:
            self.frame = outer
        if instructions is None:
            self._form_cache[ident] = "its content stream is unreadable"
            return None
        self._form_cache[ident] = instructions
        return instructions


def finish_forms(interp: PageInterpreter) -> list[FormUse]:
    """Attach the glyph counts gathered while the forms ran."""
    out = []
    for use, (count, outside) in zip(interp.forms, interp.form_glyph_counts):
        out.append(
            FormUse(use.form_path, use.object_id, use.bbox, use.matrix, use.token_index, count, outside)
        )
    return out


def _bbox(polygons: Sequence[Polygon]) -> Rect:
    xs = [p[0] for poly in polygons for p in poly]
    ys = [p[1] for poly in polygons for p in poly]
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def _axis_aligned(poly: Polygon) -> bool:
    """Four corners of an upright rectangle (its bbox answers every inside test)."""
    if len(poly) != 4:
        return False
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = poly
    return (y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0) or (
        x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0
    )


def _soft_mask(smask: Any) -> str:
    """What an ExtGState /SMask does to what is painted under it.

    "" for /None; "empty" for a mask whose group paints nothing (an alpha mask, or a
    luminosity mask on the default black backdrop: nothing shows through); else "present"
    (its effect is not computed)."""
    if smask is None or (isinstance(smask, pikepdf.Name) and str(smask) == "/None"):
        return ""
    if not isinstance(smask, pikepdf.Dictionary):
        return ""
    group = smask.get("/G")
    backdrop = smask.get("/BC")
    kind = smask.get("/S")
    try:
        content = group.read_bytes().strip() if isinstance(group, pikepdf.Stream) else None
    except (QpdfError, ValueError, TypeError):
        content = None
    if content == b"" and smask.get("/TR") is None:
        if kind == pikepdf.Name.Alpha:
            return "empty"
        if backdrop is None:  # luminosity of the default backdrop, black: 0 everywhere
            return "empty"
    return "present"
