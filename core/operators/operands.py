"""Checking an operator's operands against its signature (count and types), numbers made floats.

A signature is one letter per operand: "n" number, "s" string, "a" array, "N" name, "*"
anything (e.g. BDC's properties); `NO_OPERANDS` for operators that read none, "" for those
that check their own. A malformed operator is skipped with a finding and never ends the page.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pikepdf

from glyphscope.core.diagnostics import DiagnosticKind, Severity
from glyphscope.core.fonts.pdfobj import pdf_text
from glyphscope.core.instructions import number

if TYPE_CHECKING:
    from glyphscope.core.interpreter import PageInterpreter

_N, _S, _A, _NAME = "n", "s", "a", "N"
ALL_NUMBERS = frozenset(("n", "nn", "nnn", "nnnn", "nnnnnn"))
"""The signatures of the all-number operators (Td, Tm, cm, Tc, rg, …): read by a fast path."""


def all_numbers(raw: list[Any]) -> list[float] | None:
    """The operands as floats when every one is a finite number (the fast path); None otherwise."""
    try:
        numbers = list(map(float, raw))
    except TypeError:
        return None
    return numbers if math.isfinite(sum(numbers)) else None


def checked_operands(
    interp: PageInterpreter, op: str, operands: list[Any], signature: str
) -> list[Any] | None:
    """Validate operand count and types; convert numbers to float. None (with a finding) when the
    operator cannot run; extra leading operands are ignored, as pdf.js does."""
    need = len(signature)
    if len(operands) < need:
        interp.note(
            DiagnosticKind.MALFORMED_OPERATOR,
            Severity.WARNING,
            f"operator '{op}' skipped: {len(operands)} operand(s), {need} expected",
            once_key=f"'{op}' count",
        )
        return None
    if len(operands) > need:
        operands = operands[-need:]
    out: list[Any] = []
    for kind, value in zip(signature, operands):
        if kind == _N:
            num = number(value)
            if num is None:
                return _bad_type(interp, op, value, "a number")
            out.append(num)
        elif kind == _S:
            if not isinstance(value, pikepdf.String):
                return _bad_type(interp, op, value, "a string")
            out.append(bytes(value))
        elif kind == _A:
            if not isinstance(value, pikepdf.Array):
                return _bad_type(interp, op, value, "an array")
            out.append(value)
        elif kind == _NAME:
            if not isinstance(value, pikepdf.Name):
                return _bad_type(interp, op, value, "a name")
            out.append(pdf_text(value))
        else:
            out.append(value)
    return out


def _bad_type(interp: PageInterpreter, op: str, value: object, expected: str) -> list[Any] | None:
    """The finding for an operand of the wrong type; None: the operator does not run."""
    interp.note(
        DiagnosticKind.MALFORMED_OPERATOR,
        Severity.WARNING,
        f"operator '{op}' skipped: operand {str(value)[:40]!r} is not {expected}",
        once_key=f"'{op}' type",
    )
    return None
