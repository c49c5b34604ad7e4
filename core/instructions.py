"""Content-stream instructions and the operator table's types, below the interpreter and the handlers.

The interpreter (core/interpreter.py) runs the table; the handlers (core/operators/) fill it.
Both import these names from here, so neither imports the other for them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

import pikepdf

if TYPE_CHECKING:
    from glyphscope.core.interpreter import PageInterpreter

MAX_FORM_DEPTH = 32  # deeper non-cyclic nesting is pathological; the reference stops at 12

# What qpdf and pikepdf raise about a damaged object: PdfError (with DataDecodingError),
# QpdfRuntimeError (a RuntimeError, e.g. a bad /DecodeParms predictor) and the others
# all derive from PikepdfError.
QpdfError = pikepdf.PikepdfError


Operand: TypeAlias = "float | bytes | str | pikepdf.Dictionary | list[Operand] | dict[str, Operand]"
"""An operand as core/content_lexer.py hands it on (a number, string, name, property list, array)."""


class Lexed(NamedTuple):
    """An instruction read by core/content_lexer.py: its operator, and its operands checked and
    converted as the operator table's signature asks (numbers as floats, strings as bytes, names
    as text, a TJ array as its strings and numbers); as read for an operator the table does not
    check (path construction, the operators skipped unread)."""

    operator: str
    operands: Sequence[Operand]  # a list; `Numbers` for path construction (read back lazily)


Instruction: TypeAlias = pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage | Lexed
Handler: TypeAlias = Callable[["PageInterpreter", list[Any]], None]
"""An operator's handler: the interpreter and the operands its signature checked (numbers as floats,
strings as bytes, names as text; `*` and `""` hand the operands over as pikepdf has them)."""
OperatorTable: TypeAlias = dict[str, tuple[Handler, str]]

NO_OPERANDS = "-"
"""Signature of the operators that take no operands (q, Q, BT, n, f, W …): whatever junk stands
before them is never read, so it is not even fetched from pikepdf."""
_NUMBER_TYPES = frozenset((int, float, Decimal))  # exact types: bool (an int subclass) is not a number here


def number(x: object) -> float | None:
    """A finite number operand as a float; None for anything else (bool, NaN, infinities, objects)."""
    if type(x) in _NUMBER_TYPES:
        v = float(x)  # type: ignore[arg-type]
        if v == v and v not in (math.inf, -math.inf):
            return v
    return None


def one_line(exc: BaseException) -> str:
    """An exception's text on one line (qpdf messages can span several)."""
    return " ".join(str(exc).split())
