"""Painting, clipping, fill colour and ExtGState: the operators that serve visibility.

They emit `path_filled`, `clip_set`, `fill_colour_set`, `ext_gstate_set`,
`image_drawn` (inline images; XObject images in core/operators/xobjects.py) and
`shading_painted`; resources (colour spaces, ExtGState) are read here, once per
resource dictionary and name. For who follows the whole paint state (the stepper's
trace), the colour operators of fill and stroke also emit `colour_set` and `gs` emits
`ext_gstate_applied`; the stroke operators run only when someone hears that
(`PAINT_OPERATORS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pikepdf

from glyphscope.core.fonts.pdfobj import pdf_text, stream_bytes
from glyphscope.core.instructions import NO_OPERANDS, Handler, OperatorTable, number
from glyphscope.core.operators.paths import PATH_OPS, path_behind
from glyphscope.core.page import PaintKind

if TYPE_CHECKING:
    from glyphscope.core.interpreter import PageInterpreter

GRAPHICS_EVENTS = (
    "path_filled",
    "clip_set",
    "fill_colour_set",
    "ext_gstate_set",
    "image_drawn",
    "shading_painted",
    "colour_set",
    "ext_gstate_applied",
)
PAINT_EVENTS = ("colour_set",)

_EVEN_ODD = {"f": False, "F": False, "f*": True, "B": False, "B*": True, "b": False, "b*": True}
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
INITIAL_COLOUR = {  # ISO 32000-1 §8.6.8: the initial colour of a space set by CS/cs
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


# ------------------------------------------------------------------ paths and clip


def _fill(op: str) -> Handler:
    even_odd = _EVEN_ODD[op]

    def op_fill(interp: PageInterpreter, _: list[Any]) -> None:
        """f F f* B B* b b*: the path's area is painted with the fill colour (then it may clip)."""
        polygons, clip_rule, clip_at = path_behind(interp)
        if polygons:
            for path_filled in interp.on_path_filled:
                path_filled(even_odd, polygons)
        if clip_rule:
            _clip(interp, polygons, clip_rule, clip_at)

    return op_fill


def op_end_path(interp: PageInterpreter, _: list[Any]) -> None:
    """n S s: nothing is filled; a W/W* just before intersects the path into the clip."""
    pending = interp.clip_pending
    if pending is not None and pending[1] == interp.prev_handled >= 0 and pending[0] is interp.stream:
        polygons, clip_rule, clip_at = path_behind(interp)
        if clip_rule:
            _clip(interp, polygons, clip_rule, clip_at)


def _clip(interp: PageInterpreter, polygons: Any, rule: int, at: int) -> None:
    for clip_set in interp.on_clip_set:
        clip_set(polygons, rule == 2, at)


def op_W(interp: PageInterpreter, _: list[Any]) -> None:
    # the painting operator right after it reads the path back
    interp.clip_pending = (interp.stream, interp.stream_index, False, interp.prev_handled)


def op_Wstar(interp: PageInterpreter, _: list[Any]) -> None:
    interp.clip_pending = (interp.stream, interp.stream_index, True, interp.prev_handled)


# ------------------------------------------------------------------ colour and ExtGState


def _colour(space: str, family: str, count: int) -> Handler:
    def op_colour(interp: PageInterpreter, o: list[Any]) -> None:
        components = tuple(o[:count])
        for fill_colour_set in interp.on_fill_colour_set:
            fill_colour_set(family, components)
        for colour_set in interp.on_colour_set:
            colour_set(False, space, family, components, "")

    return op_colour


def _space_family(interp: PageInterpreter, name: str) -> str:
    res = interp.frame.resources
    key = (id(res), name)
    cached = interp.resource_cache.get(key)
    if cached is None or cached[0] is not res:
        cached = interp.resource_cache[key] = (res, colour_space_family(res, pikepdf.Name(name), 0))
    return cached[1]  # type: ignore[no-any-return]


def op_cs(interp: PageInterpreter, o: list[Any]) -> None:
    family = _space_family(interp, o[0])
    initial = INITIAL_COLOUR.get(family, ())
    for fill_colour_set in interp.on_fill_colour_set:
        fill_colour_set(family, initial)
    for colour_set in interp.on_colour_set:
        colour_set(False, o[0].lstrip("/"), family, initial, "")


def _sc_operands(o: Sequence[object]) -> tuple[tuple[float, ...], str]:
    """sc/scn operands: the numbers, and the pattern name scn/SCN may end with ("" when none)."""
    numbers = [number(v) for v in o]
    pattern = pdf_text(o[-1]).lstrip("/") if o and isinstance(o[-1], pikepdf.Name) else ""
    return tuple(v for v in numbers if v is not None), pattern


def op_sc(interp: PageInterpreter, o: list[Any]) -> None:
    components, pattern = _sc_operands(o)
    # scn with a pattern name: the pattern's colours are not known
    family = "pattern" if pattern or (o and isinstance(o[-1], pikepdf.Name)) else None
    for fill_colour_set in interp.on_fill_colour_set:
        fill_colour_set(family, components)
    for colour_set in interp.on_colour_set:
        colour_set(False, None, None, components, pattern)


# The stroke colour cannot hide text: its operators run only for who hears `colour_set`, and are
# then invisible to the path reading (a W before them still reaches the painting operator after).


def _unhandled(interp: PageInterpreter) -> None:
    interp.stream_index = interp.prev_handled  # as if skipped: the next one's "handled before"


def _stroke_colour(space: str, family: str, count: int) -> Handler:
    def op_stroke_colour(interp: PageInterpreter, o: list[Any]) -> None:
        _unhandled(interp)
        for colour_set in interp.on_colour_set:
            colour_set(True, space, family, tuple(o[:count]), "")

    return op_stroke_colour


def op_CS(interp: PageInterpreter, o: list[Any]) -> None:
    _unhandled(interp)
    family = _space_family(interp, o[0])
    for colour_set in interp.on_colour_set:
        colour_set(True, o[0].lstrip("/"), family, INITIAL_COLOUR.get(family, ()), "")


def op_SC(interp: PageInterpreter, o: list[Any]) -> None:
    _unhandled(interp)
    components, pattern = _sc_operands(o)
    for colour_set in interp.on_colour_set:
        colour_set(True, None, None, components, pattern)


def colour_space_family(res: pikepdf.Dictionary | None, cs: object, depth: int) -> str:
    """The family of a colour space: a device name, a /ColorSpace resource, or an array."""
    if depth > 4:
        return "unknown"
    if isinstance(cs, pikepdf.Name):
        name = pdf_text(cs)
        found = _DEVICE_FAMILIES.get(name)
        if found is not None:
            return found
        spaces = res.get("/ColorSpace") if res is not None else None
        target = spaces.get(name) if isinstance(spaces, pikepdf.Dictionary) else None
        return colour_space_family(res, target, depth + 1) if target is not None else "unknown"
    if isinstance(cs, pikepdf.Array) and len(cs) > 0:
        head = pdf_text(cs[0])
        if head == "/ICCBased" and len(cs) > 1 and isinstance(cs[1], pikepdf.Stream):
            n = cs[1].get("/N")
            if isinstance(n, int) and n in _ICC_FAMILIES:
                return _ICC_FAMILIES[int(n)]
            alternate = cs[1].get("/Alternate")
            return colour_space_family(res, alternate, depth + 1) if alternate is not None else "unknown"
        return _DEVICE_FAMILIES.get(head, "unknown")
    return "unknown"


def op_gs(interp: PageInterpreter, o: list[Any]) -> None:
    """ExtGState: the fill alpha /ca and the soft mask /SMask (the rest cannot hide text)."""
    res = interp.frame.resources
    key = (id(res), "gs " + o[0])
    cached = interp.resource_cache.get(key)
    if cached is None or cached[0] is not res:
        cached = interp.resource_cache[key] = (res, ext_gstate(res, o[0]))
    alpha, soft_mask = cached[1]
    for ext_gstate_set in interp.on_ext_gstate_set:
        ext_gstate_set(alpha, soft_mask)
    if interp.on_ext_gstate_applied:
        states = res.get("/ExtGState") if res is not None else None
        ext = states.get(o[0]) if isinstance(states, pikepdf.Dictionary) else None
        for ext_gstate_applied in interp.on_ext_gstate_applied:
            ext_gstate_applied(o[0], ext if isinstance(ext, pikepdf.Dictionary) else None)


def ext_gstate(res: pikepdf.Dictionary | None, name: str) -> tuple[float | None, str | None]:
    """(/ca clamped to 0–1, soft mask state) of an ExtGState resource; None where it sets neither."""
    states = res.get("/ExtGState") if res is not None else None
    ext = states.get(name) if isinstance(states, pikepdf.Dictionary) else None
    if not isinstance(ext, pikepdf.Dictionary):
        return None, None
    ca = number(ext.get("/ca"))
    return (
        min(max(ca, 0.0), 1.0) if ca is not None else None,
        soft_mask(ext.get("/SMask")) if "/SMask" in ext else None,
    )


def soft_mask(smask: object) -> str:
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
    data = stream_bytes(group)[0] if isinstance(group, pikepdf.Stream) else None
    content = data.strip() if data is not None else None
    if content == b"" and smask.get("/TR") is None:
        if kind == pikepdf.Name.Alpha:
            return "empty"
        if backdrop is None:  # luminosity of the default backdrop, black: 0 everywhere
            return "empty"
    return "present"


# ------------------------------------------------------------------ shadings and inline images


def op_sh(interp: PageInterpreter, _: list[Any]) -> None:
    for shading_painted in interp.on_shading_painted:
        shading_painted()


def op_inline_image(interp: PageInterpreter, o: list[Any]) -> None:
    image = o[0] if o else None
    info = getattr(image, "obj", None)
    for image_drawn in interp.on_image_drawn:
        image_drawn(PaintKind.INLINE_IMAGE, info if isinstance(info, pikepdf.Dictionary) else None)


GRAPHICS_OPERATORS: OperatorTable = {
    "W": (op_W, NO_OPERANDS),
    "W*": (op_Wstar, NO_OPERANDS),
    "n": (op_end_path, NO_OPERANDS),
    "S": (op_end_path, NO_OPERANDS),  # a stroke paints no area under text: it may only clip
    "s": (op_end_path, NO_OPERANDS),
    **{op: (_fill(op), NO_OPERANDS) for op in _EVEN_ODD},
    "g": (_colour("DeviceGray", "gray", 1), "n"),
    "rg": (_colour("DeviceRGB", "rgb", 3), "nnn"),
    "k": (_colour("DeviceCMYK", "cmyk", 4), "nnnn"),
    "cs": (op_cs, "N"),
    "sc": (op_sc, ""),
    "scn": (op_sc, ""),
    "gs": (op_gs, "N"),
    "sh": (op_sh, "N"),
    "INLINE IMAGE": (op_inline_image, ""),
}

PAINT_OPERATORS: OperatorTable = {
    "G": (_stroke_colour("DeviceGray", "gray", 1), "n"),
    "RG": (_stroke_colour("DeviceRGB", "rgb", 3), "nnn"),
    "K": (_stroke_colour("DeviceCMYK", "cmyk", 4), "nnnn"),
    "CS": (op_CS, "N"),
    "SC": (op_SC, ""),
    "SCN": (op_SC, ""),
}
"""The stroke colour, for who follows the paint state (`PAINT_EVENTS`)."""

__all__ = ["GRAPHICS_EVENTS", "GRAPHICS_OPERATORS", "PAINT_EVENTS", "PAINT_OPERATORS", "PATH_OPS"]
