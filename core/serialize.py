"""JSON-ready dicts of engine records (CLI output, exports). Rounded for stable, readable output.

Every JSON document glyphscope writes starts with `output_header()`; its shape is
described by `glyphscope/inspector/schemas/<command>.schema.json`.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, NotRequired, TypedDict

from glyphscope.core.fonts.base import FontInfo
from glyphscope.core.geometry import Point
from glyphscope.core.glyph import Glyph, GlyphStatus
from glyphscope.core.page import InterpretedPage
from glyphscope.core.visibility_class import VisibilityClass

if TYPE_CHECKING:
    from glyphscope.core.passes import ClassifiedGlyphs

DIGITS = 3
SCHEMA_VERSION = 2  # 2: --json of several pages is one document; compare's kinds split/glued
"""Version of the JSON shapes (all commands): raised when a key is removed or changes meaning."""
GLYPH_SETS = ("raw", "visible", "all")


class GlyphJSON(TypedDict):
    """One glyph as JSON (`glyph_to_json`): the Glyph's fields, points as [x, y], plus its status."""

    paint_index: int
    unicode: str
    code: int
    code_bytes: int
    font_key: str
    font_id: str
    font_size: float
    origin: list[float]
    glyph_end: list[float]
    pen_end: list[float]
    quad: list[list[float]]
    height: float
    direction: list[float]
    wmode: int
    token_index: int
    stream_index: int
    form_path: list[str]
    mcid: int | None
    decode_source: str
    render_mode: int
    rise: float
    char_spacing: float
    word_spacing: float
    horizontal_scaling: float
    outside_form_bbox: bool
    form_use: int
    status: str
    duplicate_of: int | None
    visibility: str
    annotation: NotRequired[int]  # only for a glyph of an annotation's appearance (Annotation.index)


class FontProblemJSON(TypedDict):
    kind: str
    message: str


class FontInfoJSON(TypedDict):
    """A FontInfo as JSON (`font_info_to_json`)."""

    font_id: str
    subtype: str
    descendant_subtype: str | None
    base_font: str
    encoding: str
    has_tounicode: bool
    tounicode_entries: int
    widths_source: str
    wmode: int
    cid_collection: str | None
    embedded: bool
    problems: list[FontProblemJSON]


def to_json(obj: object, indent: int | None = 1) -> str:
    """`json.dumps(obj, ensure_ascii=False, indent=indent)`, always valid JSON.

    A hostile matrix or a 400-digit number overflows a double: Python would write the
    bare `Infinity` / `NaN` no strict parser reads. An infinity is written as the largest
    double of its sign (still "beyond any page"), a NaN as null.
    """
    try:
        return json.dumps(obj, ensure_ascii=False, indent=indent, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(obj), ensure_ascii=False, indent=indent, allow_nan=False)


def _finite(obj: object) -> object:
    if isinstance(obj, float):
        if obj != obj:
            return None
        return obj if obj - obj == 0.0 else math.copysign(sys.float_info.max, obj)
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def _r(x: float) -> float:
    v = round(x, DIGITS)
    return 0.0 if v == 0 else v  # no "-0.0" in output


def _pt(p: Point) -> list[float]:
    return [_r(p[0]), _r(p[1])]


def glyph_to_json(
    g: Glyph,
    status: GlyphStatus | None = None,
    duplicate_of: int | None = None,
    visibility: str = VisibilityClass.VISIBLE,
) -> GlyphJSON:
    return {
        "paint_index": g.paint_index,
        "unicode": g.unicode,
        "code": g.code,
        "code_bytes": g.code_bytes,
        "font_key": g.font_key,
        "font_id": g.font_id,
        "font_size": _r(g.font_size),
        "origin": _pt(g.origin),
        "glyph_end": _pt(g.glyph_end),
        "pen_end": _pt(g.pen_end),
        "quad": [_pt(p) for p in g.quad],
        "height": _r(g.height),
        "direction": _pt(g.direction),
        "wmode": g.wmode,
        "token_index": g.token_index,
        "stream_index": g.stream_index,
        "form_path": list(g.form_path),
        "mcid": g.mcid,
        "decode_source": g.decode_source.value,
        "render_mode": g.render_mode,
        "rise": _r(g.rise),
        "char_spacing": _r(g.char_spacing),
        "word_spacing": _r(g.word_spacing),
        "horizontal_scaling": _r(g.horizontal_scaling),
        "outside_form_bbox": g.outside_form_bbox,
        "form_use": g.form_use,
        "status": (status or GlyphStatus.KEPT).value,
        "duplicate_of": duplicate_of,
        "visibility": visibility,
    } | ({"annotation": g.annotation} if g.annotation >= 0 else {})  # type: ignore[return-value]


def output_header() -> dict[str, object]:
    """The first keys of every JSON output: the shape's version and the glyphscope that wrote it."""
    from glyphscope.core.version import package_version  # the distribution's metadata, read once

    return {"schema_version": SCHEMA_VERSION, "glyphscope_version": package_version()}


def glyph_set(classified: ClassifiedGlyphs, name: str) -> Sequence[Glyph]:
    """The glyphs of one of GLYPH_SETS: page-stream glyphs (raw), the text's glyphs (visible), or all."""
    if name == "raw":
        return classified.raw
    if name == "visible":
        return classified.visible
    if name == "all":
        return classified.glyphs
    raise ValueError(f"unknown glyph set {name!r}; expected one of {', '.join(GLYPH_SETS)}")


def glyphs_json(
    file: str | None,
    page: InterpretedPage,
    classified: ClassifiedGlyphs,
    name: str,
    params: Mapping[str, object],
    warnings: Iterable[str] = (),
) -> dict[str, object]:
    """One page's glyph listing: `glyphscope glyphs --json` and the window's File › Export (one shape).

    The glyphs of set `name` (GLYPH_SETS), each with its status; `params` are the
    thresholds that classified them (culled, duplicate); `file` as the user named
    it ("-" for stdin).
    """
    return _glyphs_head(file, page, name, params, warnings) | {"glyphs": list(glyph_rows(classified, name))}


def _glyphs_head(
    file: str | None, page: InterpretedPage, name: str, params: Mapping[str, object], warnings: Iterable[str]
) -> dict[str, object]:
    return (
        output_header()
        | {
            "file": file,
            "page": page.page_number,
            "set": name,
            "visible_box": rect_to_json(page.boxes.visible_box),
            "params": dict(params),
            "warnings": list(warnings),
        }
        | ({"annotations": [a.to_json() for a in page.annotations]} if page.annotations else {})
    )


def glyph_rows(classified: ClassifiedGlyphs, name: str) -> Iterator[GlyphJSON]:
    """The JSON dicts of glyph set `name`, one at a time."""
    status, duplicate_of = classified.status, classified.duplicate_of
    vis = classified.visibility.classes if classified.visibility is not None else None
    for g in glyph_set(classified, name):
        i = g.paint_index
        yield glyph_to_json(
            g, status[i], duplicate_of[i], vis[i] if vis is not None else VisibilityClass.VISIBLE
        )


STREAM_BATCH = 1 << 16  # bytes gathered before each write


def write_glyphs_json(
    out: IO[bytes],
    file: str | None,
    page: InterpretedPage,
    classified: ClassifiedGlyphs,
    name: str,
    params: Mapping[str, object],
    warnings: Iterable[str] = (),
) -> None:
    """`glyphs_json` written to `out` as it is made: memory stays constant beyond the glyph records.

    The bytes are those of `to_json(glyphs_json(...))` plus a newline (one JSON shape,
    whether streamed or not).
    """
    head = to_json(_glyphs_head(file, page, name, params, warnings))
    batch = [head[: -len("\n}")], ',\n "glyphs": [']
    size = 0
    first = True
    for row in glyph_rows(classified, name):
        text = to_json(row).replace("\n", "\n  ")
        batch.append(("\n  " if first else ",\n  ") + text)
        first = False
        size += len(text)
        if size >= STREAM_BATCH:
            out.write("".join(batch).encode("utf-8"))
            batch, size = [], 0
    batch.append("]\n}\n" if first else "\n ]\n}\n")
    out.write("".join(batch).encode("utf-8"))


def rect_to_json(r: tuple[float, float, float, float] | None) -> list[float] | None:
    return None if r is None else [_r(v) for v in r]


def font_info_to_json(info: FontInfo) -> FontInfoJSON:
    return {
        "font_id": info.font_id,
        "subtype": info.subtype,
        "descendant_subtype": info.descendant_subtype,
        "base_font": info.base_font,
        "encoding": info.encoding,
        "has_tounicode": info.has_tounicode,
        "tounicode_entries": info.tounicode_entries,
        "widths_source": info.widths_source,
        "wmode": info.wmode,
        "cid_collection": info.cid_collection,
        "embedded": info.embedded,
        "problems": [{"kind": p.kind.value, "message": p.message} for p in info.problems],
    }
