"""The operator table: each operator's handler and operand signature, by group.

A group lists the events it exists to emit; a group whose events no recorder hears is
left out of the table and its operators are skipped like any operator that cannot
affect text (so a run without the visibility recorder pays nothing for paths and
colours). The state every recorder relies on — q/Q/cm, text, marked content, forms —
is always run.
"""

from __future__ import annotations

from collections.abc import Callable

from glyphscope.core.instructions import OperatorTable
from glyphscope.core.operators.graphics import (
    GRAPHICS_EVENTS,
    GRAPHICS_OPERATORS,
    PAINT_EVENTS,
    PAINT_OPERATORS,
    PATH_OPS,
)
from glyphscope.core.operators.state import STATE_OPERATORS
from glyphscope.core.operators.text import TEXT_OPERATORS
from glyphscope.core.operators.xobjects import XOBJECT_OPERATORS

GROUPS: tuple[tuple[OperatorTable, tuple[str, ...]], ...] = (
    (STATE_OPERATORS, ()),
    (TEXT_OPERATORS, ()),
    (XOBJECT_OPERATORS, ()),
    (GRAPHICS_OPERATORS, GRAPHICS_EVENTS),
    (PAINT_OPERATORS, PAINT_EVENTS),
)
"""(operators, the events they serve: () for state that is always kept)."""

IGNORED = frozenset(
    [
        # understood, but they cannot affect text: line style, stroke colour, Type3 metrics…
        *["w", "J", "j", "M", "d", "ri", "i", "CS", "SC", "SCN", "G", "RG", "K", "MP", "DP", "d0", "d1"],
        *["BI", "ID", "EI"],
        # the graphics group's, when no recorder hears it; path construction always: the
        # painting operator that ends a path reads it back (core/operators/paths.py)
        *PATH_OPS,
        *GRAPHICS_OPERATORS,
    ]
)
"""Operators skipped without a finding when the table has no handler for them."""


def operator_table(listened: Callable[[str], bool]) -> OperatorTable:
    """The table for an interpreter whose recorders hear the events `listened` says yes to."""
    table: OperatorTable = {}
    for operators, events in GROUPS:
        if not events or any(listened(e) for e in events):
            table.update(operators)
    return table
