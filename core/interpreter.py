"""The content-stream interpreter (spec §2): a dispatcher that runs operators and emits events.

Tokens come from core/content_lexer.py, which reads the plain streams (most of them) with
their operands checked and converted, and from `pikepdf.parse_content_stream` for every
stream it does not read exactly as qpdf would. One operator table (core/operators/) maps
each operator to its handler and operand signature, checked before the handler runs, so a
malformed operator is skipped with a diagnostic and never ends the page. The interpreter
keeps the graphics and text state (q/Q, the CTM, the text matrices, marked content, the frame
being run: the page's, or a form's as its child) and the budgets of `Limits`. Its text layout
(core/glyph_layout.py), a collaborator it owns, places the glyphs of shown text and answers
where the pen went;
what else the page holds is written down by recorders (core/recorders/), which hear its
events and never change its state: text shown, font chosen, path filled, clip set,
colours or ExtGState changed, state saved or restored, image drawn, marked content begun
or ended, form begun or ended. It decides nothing about words or lines.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import pikepdf

from glyphscope.core.budgets import BudgetExceeded, DocumentBudget
from glyphscope.core.content import (
    content_streams,
    contents_are_streams,
    measure,
    parse_instructions,
    truncated_instructions,
)
from glyphscope.core.content_lexer import lex, vocabulary
from glyphscope.core.diagnostic_sink import DiagnosticSink
from glyphscope.core.diagnostics import DiagnosticKind, Severity
from glyphscope.core.fonts.loader import FontCache
from glyphscope.core.fonts.pdfobj import pdf_text
from glyphscope.core.geometry import IDENTITY, Matrix, Rect, invert
from glyphscope.core.glyph_layout import GlyphLayout
from glyphscope.core.glyph_table import GlyphTable
from glyphscope.core.instructions import (
    NO_OPERANDS,
    Instruction,
    Lexed,
    OperatorTable,
    QpdfError,
    one_line,
)
from glyphscope.core.limits import BUDGET_LABELS, DEFAULT_LIMITS, Limits, option_name
from glyphscope.core.operators import GROUPS, IGNORED, operator_table
from glyphscope.core.operators.operands import ALL_NUMBERS as _ALL_NUMBERS
from glyphscope.core.operators.operands import all_numbers, checked_operands
from glyphscope.core.operators.paths import PATH_OPS
from glyphscope.core.operators.xobjects import draw_appearances
from glyphscope.core.page import FormUse
from glyphscope.core.recorders.base import InterpreterView, Recorder, hears, listeners
from glyphscope.core.state import Frame, GraphicsState, MarkedContent, TextState

if TYPE_CHECKING:  # read from /Annots by the pages that have it (core/document.py)
    from glyphscope.core.annotations import DrawnAppearance

TIME_CHECK_MASK = 1023  # the wall-time budget is looked at every 1024 instructions

_NO_OPERANDS: list[Any] = []

_INLINE_IMAGE = frozenset(("BI", "ID", "EI", "INLINE IMAGE"))
LEXER_VOCABULARY = vocabulary(
    {
        **{op: None for op in IGNORED - _INLINE_IMAGE},
        **{
            op: sig
            for operators, _ in GROUPS
            for op, (_, sig) in operators.items()
            if op not in _INLINE_IMAGE
        },
    },
    PATH_OPS,
)
"""What the content lexer reads: every operator of every group (whichever this page's table holds)
and those skipped unread; inline images are pikepdf's."""


class PageInterpreter:
    """Runs one page's content stream and the forms it draws, emitting events to `recorders`;
    its `layout` places the glyphs of shown text (`glyph_table`)."""

    def __init__(
        self,
        page_number: int,
        fonts: FontCache,
        recorders: Iterable[Recorder] = (),
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
        self.budget_exceeded: BudgetExceeded | None = None
        self.form_cache: dict[
            str, Sequence[Instruction] | str
        ] = {}  # object id → instructions, or why unreadable
        self._scratch: pikepdf.Pdf | None = None
        self.diag = DiagnosticSink(page_number)
        # The state.
        self.gs = GraphicsState()
        self.stack: list[GraphicsState] = []
        self.tm: Matrix = IDENTITY
        self.tlm: Matrix = IDENTITY
        self.in_text = False
        self.marked: MarkedContent | None = None  # innermost open marked-content section
        self.frame = Frame(None, (), (), 0)
        self.frames: list[Frame] = []  # one per form use, by its index (FormUse, GlyphRun.form_use)
        self.form_use_count = 0
        self.token_index = -1  # page-stream instruction being run (or that started a form chain)
        self.stream_index = -1
        self.compat_depth = 0  # BX…EX: unknown operators are legal there
        self.instruction_count = 0
        # Where the painting operators read their path back from (core/operators/paths.py).
        self.stream: Sequence[Instruction] = ()  # the instructions of the stream being run
        self.prev_handled = -1  # stream index of the instruction handled before the current one
        self.clip_pending: tuple[Sequence[Instruction], int, bool, int] | None = (
            None  # W/W*: stream, index, even-odd, prev
        )
        self.resource_cache: dict[tuple[int, str], tuple[object, Any]] = {}  # (resources, name) → answer
        self.layout = GlyphLayout()  # places shown text: the one answer text showing needs
        # The recorders, and who hears which event.
        given = list(recorders)
        self.recorders: tuple[Recorder, ...] = tuple(given)
        self.on_observe = listeners(given, Recorder.observe)
        self.on_font_selected = listeners(given, Recorder.font_selected)
        self.on_text_shown = listeners(given, Recorder.text_shown)
        self.on_state_saved = listeners(given, Recorder.state_saved)
        self.on_state_restored = listeners(given, Recorder.state_restored)
        self.on_colour_set = listeners(given, Recorder.colour_set)
        self.on_ext_gstate_applied = listeners(given, Recorder.ext_gstate_applied)
        self.on_path_filled = listeners(given, Recorder.path_filled)
        self.on_clip_set = listeners(given, Recorder.clip_set)
        self.on_fill_colour_set = listeners(given, Recorder.fill_colour_set)
        self.on_ext_gstate_set = listeners(given, Recorder.ext_gstate_set)
        self.on_image_drawn = listeners(given, Recorder.image_drawn)
        self.on_shading_painted = listeners(given, Recorder.shading_painted)
        self.on_marked_begun = listeners(given, Recorder.marked_begun)
        self.on_marked_ended = listeners(given, Recorder.marked_ended)
        self.on_form_begun = listeners(given, Recorder.form_begun)
        self.on_form_ended = listeners(given, Recorder.form_ended)
        self.on_page_ended = listeners(given, Recorder.page_ended)
        self._table: OperatorTable = operator_table(lambda event: hears(given, event))
        self._ignored = IGNORED
        view = InterpreterView(self)  # recorders read the state; they do not change it
        for recorder in given:
            recorder.start(view)

    # ------------------------------------------------------------------ what recorders read

    @property
    def glyph_table(self) -> GlyphTable:
        return self.layout.table

    @property
    def glyph_count(self) -> int:
        """Glyphs painted so far on the page (its forms included)."""
        return len(self.layout.table)

    @property
    def ts(self) -> TextState:
        ts = self.gs.text
        assert ts is not None
        return ts

    @property
    def operators_executed(self) -> int:
        return self._ops_start - max(self.ops_left, 0)

    # ------------------------------------------------------------------ driving

    def run_page(
        self,
        page_obj: pikepdf.Dictionary,
        resources: pikepdf.Dictionary | None,
        appearances: Sequence[DrawnAppearance] = (),
    ) -> None:
        """Interpret the page, then the annotation appearances a viewer draws over it (§12.5.5);
        a spent budget ends it with a `budget_exceeded` finding."""
        self.frame = Frame(resources, (), (), 0)
        try:
            instructions = self.read_content(page_obj, content_streams(page_obj), "the page's content stream")
            if instructions is None and not appearances:
                return
            if instructions is not None:
                if not instructions:
                    self.diag.add(DiagnosticKind.NO_CONTENT, Severity.INFO, "the page has no content stream")
                self.instruction_count = len(instructions)
                self.run(instructions, page_level=True)
            if appearances:  # a viewer draws them over the page, whatever its content did
                draw_appearances(self, appearances)
        except BudgetExceeded as exc:
            self._record_budget(exc)
        self._finish_page()  # not after other errors: the page failed, Document says so

    @property
    def operators(self) -> frozenset[str]:
        """The operators this interpreter runs: those of the groups some recorder hears, and the
        state every recorder relies on (core/operators/); the others are skipped unread."""
        return frozenset(self._table)

    def read_content(
        self, target: pikepdf.Object, streams: Sequence[pikepdf.Stream], what: str
    ) -> Sequence[Instruction] | None:
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
        if measured.clean and not self.on_observe and contents_are_streams(target, streams):
            # Read here when it can be read exactly as qpdf would; a recorder that follows the
            # instructions themselves (the stepper's trace) gets pikepdf's, as always.
            lexed = lex(measured.prefix, LEXER_VOCABULARY)
            if lexed is not None:
                return lexed  # type: ignore[return-value]
        try:
            instructions = parse_instructions(target)
        except (QpdfError, ValueError, TypeError) as exc:
            if self.frame.form_path:
                self.diag.add(
                    DiagnosticKind.CONTENT_UNREADABLE,
                    Severity.WARNING,
                    f"form {self.frame.form_path[-1]} could not be read: {one_line(exc)}",
                    token_index=self.token_index,
                    form_path=self.frame.form_path,
                )
            else:
                self.diag.add(
                    DiagnosticKind.CONTENT_UNREADABLE,
                    Severity.ERROR,
                    f"{what} could not be read: {one_line(exc)}",
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
        for page_ended in self.on_page_ended:
            page_ended()
        if self.budget_exceeded is not None and not self.diag.has(DiagnosticKind.BUDGET_EXCEEDED):
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

    def run(self, instructions: Sequence[Instruction], page_level: bool) -> None:
        """Run one stream (the page's, or a form's inside `run_form`)."""
        saved_stream, saved_prev = self.stream, self.prev_handled
        self.stream = instructions  # the painting operators read their path back from it
        self.stream_index = self.prev_handled = -1
        handed: Iterable[Instruction] = instructions
        for observe in self.on_observe:
            handed = observe(handed)
        try:
            if handed is instructions and instructions and instructions[0].__class__ is Lexed:
                self._run_lexed(instructions, page_level)  # type: ignore[arg-type]
            else:
                self._loop(handed, page_level)
        finally:
            self.stream, self.prev_handled = saved_stream, saved_prev

    def _loop(self, instructions: Iterable[Instruction], page_level: bool) -> None:
        table = self._table
        ignored = self._ignored
        for index, ins in enumerate(instructions):
            # Budgets: one counter per instruction (page + forms), the clock every 1024.
            self.ops_left -= 1
            if self.ops_left < 0 or not (self.ops_left & TIME_CHECK_MASK):
                self._over_ops_or_time(index, page_level)
            # Inline images come as ContentStreamInlineImage with the operator "INLINE IMAGE".
            try:  # pdf_text's fallback, inlined: this runs for every instruction
                op = str(ins.operator)
            except UnicodeDecodeError:
                op = pdf_text(ins.operator)
            entry = table.get(op)
            if entry is None:
                if op in ignored or self.compat_depth:
                    continue
                self._unknown_operator(op, index, page_level)
                continue
            if page_level:
                self.token_index = index
            self.prev_handled = self.stream_index  # where a painting operator's path starts after
            self.stream_index = index
            handler, signature = entry
            if signature is NO_OPERANDS:
                raw = _NO_OPERANDS
            elif signature:
                raw = list(ins.operands)
                # The all-number operators (Td, Tm, cm, Tc, …) by the fast path; the check explains failures.
                checked = (
                    all_numbers(raw) if signature in _ALL_NUMBERS and len(raw) == len(signature) else None
                )
                if checked is None:
                    checked = checked_operands(self, op, raw, signature)
                    if checked is None:
                        continue
                raw = checked
            else:
                raw = list(ins.operands)
            try:
                handler(self, raw)
            except (QpdfError, ValueError, TypeError, KeyError, AttributeError, ZeroDivisionError) as exc:
                self._operator_failed(op, exc)

    def _unknown_operator(self, op: str, index: int, page_level: bool) -> None:
        if page_level:
            self.token_index = index
        self.note(
            DiagnosticKind.UNKNOWN_OPERATOR,
            Severity.WARNING,
            f"unknown operator '{op}' skipped",
            once_key=f"'{op}'",
        )

    def _operator_failed(self, op: str, exc: Exception) -> None:
        """A handler tripping over a broken object skips one operator, never the page."""
        self.note(
            DiagnosticKind.MALFORMED_OPERATOR,
            Severity.WARNING,
            f"operator '{op}' skipped: {type(exc).__name__}: {one_line(exc)}",
            once_key=f"'{op}' {type(exc).__name__}",
        )

    def _run_lexed(self, instructions: Sequence[Lexed], page_level: bool) -> None:
        """`_loop` for a stream the content lexer read: its operands come checked and converted
        (the lexer reads no stream whose operands the check would refuse)."""
        table = self._table
        ignored = self._ignored
        for index, (op, operands) in enumerate(instructions):
            self.ops_left -= 1
            if self.ops_left < 0 or not (self.ops_left & TIME_CHECK_MASK):
                self._over_ops_or_time(index, page_level)
            entry = table.get(op)
            if entry is None:
                if op in ignored or self.compat_depth:
                    continue
                self._unknown_operator(op, index, page_level)
                continue
            if page_level:
                self.token_index = index
            self.prev_handled = self.stream_index  # where a painting operator's path starts after
            self.stream_index = index
            handler, signature = entry
            try:
                # a table operator's operands are a list (`Numbers` are path construction's only)
                handler(self, _NO_OPERANDS if signature is NO_OPERANDS else operands)  # type: ignore[arg-type]
            except (QpdfError, ValueError, TypeError, KeyError, AttributeError, ZeroDivisionError) as exc:
                self._operator_failed(op, exc)

    def note(
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

    # ------------------------------------------------------------------ the state stack

    def save(self) -> None:
        self.stack.append(self.gs.copy())
        for state_saved in self.on_state_saved:
            state_saved()

    def restore(self) -> None:
        if len(self.stack) <= self.frame.base_depth:
            self.note(
                DiagnosticKind.Q_UNDERFLOW, Severity.WARNING, "Q without a matching q ignored", once_key="Q"
            )
            return
        self.gs = self.stack.pop()
        for state_restored in self.on_state_restored:
            state_restored()

    def open_marked(self, tag: str, mcid: int | None, properties: pikepdf.Dictionary | None = None) -> None:
        """Push a section: O(1), a node linked to its parent (EMC pops back to the parent)."""
        parent = self.marked
        depth = parent.depth + 1 if parent is not None else 1
        if depth > self.limits.marked_content_depth:
            raise BudgetExceeded("marked_content_depth", self.limits.marked_content_depth)
        self.marked = section = MarkedContent.open(parent, tag, mcid, properties)
        for marked_begun in self.on_marked_begun:
            marked_begun(section)

    def close_marked(self) -> None:
        section = self.marked
        if section is None:
            self.diag.add(
                DiagnosticKind.MARKED_CONTENT_UNBALANCED,
                Severity.INFO,
                "EMC without an open marked-content section ignored",
                once_key="EMC",
            )
            return
        for marked_ended in self.on_marked_ended:
            marked_ended(section)
        self.marked = section.parent

    def run_form(
        self,
        instructions: Sequence[Instruction],
        use: FormUse,
        ident: str,
        resources: pikepdf.Dictionary | None,
        bbox: Rect | None,
        annotation: int = -1,
    ) -> None:
        """Run a form with a stack seeded from the caller's state (an implicit q … Q); an annotation's
        appearance (`annotation` ≥ 0) starts from the initial graphics state instead, as a viewer
        draws it over the finished page."""
        frame = self.frame
        use_index = self.form_use_count
        self.form_use_count += 1
        saved_gs = self.gs
        saved_stack_len = len(self.stack)
        saved_tm, saved_tlm, saved_in_text = self.tm, self.tlm, self.in_text
        saved_stream_index = self.stream_index
        self.stack.append(saved_gs.copy())
        self.gs = saved_gs.copy() if annotation < 0 else GraphicsState()
        self.gs.ctm = use.matrix
        if annotation >= 0:
            self.tm = self.tlm = IDENTITY
            self.in_text = False
        self.frame = child = frame.child(
            resources, use.form_path, ident, use.matrix, len(self.stack), use_index, annotation
        )
        self.frames.append(child)
        for form_begun in self.on_form_begun:
            form_begun(use, bbox, invert(use.matrix) if bbox else None)
        try:
            self.run(instructions, page_level=False)
            if self.budget_exceeded is not None:  # its content was cut to the bytes budget
                raise self.budget_exceeded
        except BudgetExceeded as exc:
            if exc.form_path is None:  # the innermost form names where the page stopped
                exc.form_path, exc.stream_index = use.form_path, self.stream_index
            raise
        finally:
            for form_ended in self.on_form_ended:
                form_ended(use_index)
            del self.stack[saved_stack_len:]
            self.gs = saved_gs
            self.frame = frame
            self.tm, self.tlm, self.in_text = saved_tm, saved_tlm, saved_in_text
            self.stream_index = saved_stream_index
