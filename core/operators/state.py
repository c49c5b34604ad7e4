"""q Q cm, BX EX, and marked content (BMC BDC EMC): the state every recorder relies on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pikepdf

from glyphscope.core.geometry import multiply
from glyphscope.core.instructions import NO_OPERANDS, OperatorTable, QpdfError

if TYPE_CHECKING:
    from glyphscope.core.interpreter import PageInterpreter


def op_q(interp: PageInterpreter, _: list[Any]) -> None:
    interp.save()


def op_Q(interp: PageInterpreter, _: list[Any]) -> None:
    interp.restore()


def op_cm(interp: PageInterpreter, o: list[Any]) -> None:
    interp.gs.ctm = multiply((o[0], o[1], o[2], o[3], o[4], o[5]), interp.gs.ctm)


def op_BX(interp: PageInterpreter, _: list[Any]) -> None:
    interp.compat_depth += 1


def op_EX(interp: PageInterpreter, _: list[Any]) -> None:
    interp.compat_depth = max(0, interp.compat_depth - 1)


def op_BMC(interp: PageInterpreter, o: list[Any]) -> None:
    interp.open_marked(o[0], None)


def op_BDC(interp: PageInterpreter, o: list[Any]) -> None:
    tag, props = o
    mcid: int | None = None
    if isinstance(props, (pikepdf.Name, str)):  # a name (as text when the content lexer read it)
        try:
            res = interp.frame.resources
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
    interp.open_marked(tag, mcid, props)


def op_EMC(interp: PageInterpreter, _: list[Any]) -> None:
    interp.close_marked()


STATE_OPERATORS: OperatorTable = {
    "q": (op_q, NO_OPERANDS),
    "Q": (op_Q, NO_OPERANDS),
    "cm": (op_cm, "nnnnnn"),
    "BX": (op_BX, NO_OPERANDS),
    "EX": (op_EX, NO_OPERANDS),
    "BDC": (op_BDC, "N*"),
    "BMC": (op_BMC, "N"),
    "EMC": (op_EMC, NO_OPERANDS),
}
