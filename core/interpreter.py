"""The content-stream interpreter (spec §2): tokens in, Glyph records out.

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
from glyphscope.core.content import content_streams, measure, truncated_instructions
from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.fonts.loader import FontCache
from glyphscope.core.geometry import IDENTITY, Matrix, Rect, invert, multiply, normalize_rect, transform_rect
from glyphscope.core.glyph import Glyph
from glyphscope.core.limits import BUDGET_LABELS, DEFAULT_LIMITS, Limits, option_name
from glyphscope.core.page import FormUse, PageFont
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
        "gs",
        "m",
        "l",
        "c",
        "v",
        "y",
        "h",
        "re",
        "S",
        "s",
        "f",
        "F",
        "f*",
        "B",
        "B*",
        "b",
        "b*",
        "n",
        "W",
        "W*",
        "CS",
        "cs",
        "SC",
        "SCN",
        "sc",
        "scn",
        "G",
        "g",
        "RG",
        "rg",
        "K",
        "k",
        "sh",
        "MP",
        "DP",
        "d0",
        "d1",
        "BI",
        "ID",
        "EI",
    ]
)


_ALL_NUMBERS = frozenset(("n", "nn", "nnnnnn"))
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


def object_id(obj: Any) -> str:
    try:
        num, gen = obj.objgen
    except (AttributeError, TypeError):
        return ""
    return f"{num} {gen} R" if num else ""


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
        self.glyphs: list[Glyph] = []
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
            "q": (self.op_q, ""),
            "Q": (self.op_Q, ""),
            "cm": (self.op_cm, "nnnnnn"),
            "BT": (self.op_BT, ""),
            "ET": (self.op_ET, ""),
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
            "T*": (self.op_Tstar, ""),
            "Tj": (self.op_Tj, "s"),
            "TJ": (self.op_TJ, "a"),
            "'": (self.op_quote, "s"),
            '"': (self.op_dquote, "nns"),
            "BDC": (self.op_BDC, "N*"),
            "BMC": (self.op_BMC, "N"),
            "EMC": (self.op_EMC, ""),
            "Do": (self.op_Do, "N"),
            "BX": (self.op_BX, ""),
            "EX": (self.op_EX, ""),
        }

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
            return list(pikepdf.parse_content_stream(target))
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
        if page_level:
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
        table = self._table
        ignored = _IGNORED
        for index, ins in enumerate(instructions):
            # Budgets: one counter per instruction (page + forms), the clock every 1024.
            self.ops_left -= 1
            if self.ops_left < 0 or not (self.ops_left & TIME_CHECK_MASK):
                self._over_ops_or_time(index, page_level)
            # Inline images come as ContentStreamInlineImage with the operator "INLINE IMAGE":
            # ignored like every operator that cannot affect text (most of a drawing's stream).
            op = str(ins.operator)
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
            self.stream_index = index
            handler, signature = entry
            raw = list(ins.operands)
            if signature:
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
                out.append(str(value))
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
        glyphs = self.glyphs
        tm = self.tm

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
        append = glyphs.append
        index = len(glyphs)
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
                    glyph_end = (ox + wx, oy + wy)
                else:
                    w1y, vx, vy = font.vertical(code)
                    # The glyph is drawn with its position vector v at the pen (ISO 32000-1 §9.7.4.3):
                    # its box spans x ∈ [-vx, w0 - vx], y ∈ [descent - vy, ascent - vy] in glyph units.
                    tx = w1y * size + spacing
                    ax, ay = tx * c, tx * d
                    bx, by0, by1 = -vx, descent - vy, ascent - vy
                    x0, y0 = ox + bx * sa + by0 * sc, oy + bx * sb + by0 * sd
                    x3, y3 = ox + bx * sa + by1 * sc, oy + bx * sb + by1 * sd
                    glyph_end = (ox + w1y * size * c, oy + w1y * size * d)
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
                append(
                    Glyph(
                        index,
                        uni,
                        code,
                        nbytes,
                        font_key,
                        size,
                        (ox, oy),
                        glyph_end,
                        (ox + ax, oy + ay),
                        ((x0, y0), (x0 + wx, y0 + wy), (x3 + wx, y3 + wy), (x3, y3)),
                        height,
                        direction,
                        wmode,
                        token_index,
                        form_path,
                        mcid,
                        source,
                        render_mode,
                        rise,
                        font_id,
                        stream_index,
                        tc,
                        tw,
                        hscale,
                        outside,
                        tags,
                        form_use,
                    )
                )
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
                props = table.get(str(props)) if table is not None else None
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
            return  # images and PostScript XObjects carry no text
        ident = object_id(xobj) or f"direct:{id(xobj)}"
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
