"""Reading a path back at its painting operator, from the operands as the interpreter has them.

Path construction (m l c v y h re) and W/W* are not executed one by one: they are
contiguous just before their painting operator and the CTM cannot change among them
(ISO 32000-1 §8.5.1), so the painting operator reads them back from the stream being
run — a stroked drawing costs nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, TypeAlias, cast

import pikepdf

from glyphscope.core.fonts.pdfobj import pdf_text
from glyphscope.core.geometry import Point
from glyphscope.core.instructions import Instruction
from glyphscope.core.page import Polygon

if TYPE_CHECKING:
    from glyphscope.core.interpreter import PageInterpreter

CURVE_STEPS = 4  # a Bézier segment is flattened to this many straight segments
PATH_OPS = frozenset(("m", "l", "c", "v", "y", "h", "re", "W", "W*"))  # path construction and clip
STATE_IN_PATH = frozenset(
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
PATH_OR_STATE = PATH_OPS | STATE_IN_PATH

FLT_MAX = 3.4028234663852886e38
"""A path coordinate beyond a double is read as the largest single-precision float, as MuPDF
reads every real (ISO 32000-1 Annex C gives ±3.403 × 10^38 as the reals' range)."""

_NUMBER_TYPES = frozenset((int, float, Decimal))  # exact types: bool is not a number here
_INSTRUCTION = pikepdf.ContentStreamInstruction


def path_behind(interp: PageInterpreter) -> tuple[tuple[Polygon, ...], int, int]:
    """The path of the painting operator being run: its subpaths as polygons in user space (curves
    flattened to CURVE_STEPS segments), the clip rule (0 none, 1 W, 2 W*) and the W's index."""
    stream = interp.stream
    end = min(interp.stream_index, len(stream))
    first_rule, first_at = 0, -1
    prev = interp.prev_handled
    pending = interp.clip_pending
    if prev >= 0 and pending is not None and pending[1] == prev and pending[0] is stream:
        first_rule, first_at = (2 if pending[2] else 1), prev  # W n, W f: the path ends before the W
        end = prev
        prev = pending[3]
    start = max(prev + 1, 0)
    # Everything between the previous handled instruction and here is path construction
    # (skipped by the loop); a colour set inside the path (handled) or a budget check
    # (which notes the index) may stand in between: then read back op by op.
    while start > 0 and pdf_text(stream[start - 1].operator) in PATH_OR_STATE:
        start -= 1
    if start >= end:
        return (), first_rule, first_at
    a, b, c, d, e, f = interp.gs.ctm
    subpaths: list[list[Point]] = []
    cur: list[Point] | None = None
    here: Point | None = None  # the current point
    begin: Point | None = None  # the subpath's start (h returns there)
    clip_rule, clip_at = first_rule, first_at
    read = _read_as_text(stream, start, end)
    for k, op, args in read if read is not None else _read_as_objects(stream, start, end):
        if op == "l":  # the most frequent: first (what follows handles it the same way)
            if cur is None:
                cur = [here] if here is not None else []
                subpaths.append(cur)
            if len(args) >= 2:
                x = args[-2]
                y = args[-1]
                here = (a * x + c * y + e, b * x + d * y + f)
                cur.append(here)
            continue
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


PathInstruction: TypeAlias = tuple[int, str, list[float]]
"""A path-construction instruction read back: its index in the stream, operator and operands."""


def _read_as_objects(stream: Sequence[Instruction], start: int, end: int) -> list[PathInstruction]:
    """The path-construction instructions of stream[start:end] with their operands as floats,
    operand by operand from pikepdf's objects. An operand that is not a number skips its
    instruction; an operator of another kind than a path's or a colour's also skips the next."""
    out: list[PathInstruction] = []
    bad = False
    number_types = _NUMBER_TYPES
    for k in range(start, end):
        ins = stream[k]
        try:  # pdf_text's fallback, inlined: this runs for every instruction of a path
            op = str(ins.operator)
        except UnicodeDecodeError:
            op = pdf_text(ins.operator)
        if op not in PATH_OPS:
            # a colour or line-style operator inside the path is stepped over; an operator of
            # another kind (a marked-content point, an image) makes the next one unreadable
            bad = op not in STATE_IN_PATH
            continue
        if bad:
            bad = False
            continue
        args: list[float] = []
        for value in ins.operands:
            if value.__class__ not in number_types:
                bad = True
                break
            x = float(value)  # type: ignore[arg-type]  # a number: its class was just checked
            if x - x != 0.0:  # beyond a double (a 400-digit width): as MuPDF, the largest there is
                if x != x:
                    bad = True  # NaN
                    break
                x = math.copysign(FLT_MAX, x)
            args.append(x)
        if bad:
            bad = False
            continue
        out.append((k, op, args))
    return out


_OPERATORS = {op.encode(): op for op in PATH_OR_STATE}


def _read_as_text(stream: Sequence[Instruction], start: int, end: int) -> list[PathInstruction] | None:
    """`_read_as_objects` for the common path (pikepdf's instructions, numbers and path or colour
    operators only), from the instructions written back out as content, one line each: pikepdf
    writes each operand as the text it holds (the text it also makes a Decimal of), so float()
    of that text is the same number, at a fraction of the cost of a Decimal per operand. None
    for anything else (an inline image, a name, a string, an operator of another kind …): the
    caller then reads object by object."""
    span = stream[start:end]
    if type(span[0]) is not _INSTRUCTION or len(set(map(type, span))) != 1:
        return None
    pikepdf_read = cast("Sequence[pikepdf.ContentStreamInstruction]", span)  # (checked just above)
    try:
        lines = pikepdf.unparse_content_stream(pikepdf_read).split(b"\n")
    except Exception:  # noqa: BLE001 — whatever pikepdf makes of it, the careful reading decides
        return None
    if len(lines) != end - start:
        return None  # (a string operand holding a line break, say)
    out: list[PathInstruction] = []
    operators, path_ops = _OPERATORS, PATH_OPS
    for k, line in enumerate(lines, start):
        operands = line.split()
        op = operators.get(operands.pop()) if operands else None
        if op is None:
            return None
        if op in path_ops:
            try:
                args = list(map(float, operands))
            except ValueError:
                return None  # an operand that is no number (a name, a string, true …)
            total = sum(args)
            if total - total != 0.0:  # an infinite (or overflowing) operand
                for i, x in enumerate(args):
                    if x - x != 0.0:
                        if x != x:
                            return None
                        args[i] = math.copysign(FLT_MAX, x)  # beyond a double: as _read_as_objects
            out.append((k, op, args))
    return out
