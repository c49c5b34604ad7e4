"""Tables of `glyphscope glyphs` and `glyphscope decisions`: tab-separated by default, CSV with `--csv`.

One list of columns per command, shared by both formats: a header line, then one
line per glyph or decision, the page number first. Tab-separated cells show a glyph's
text as a Python literal (a tab or a newline in it stays on its line); CSV cells hold the
text itself, quoted by the `csv` module where needed (RFC 4180, CRLF line ends, UTF-8).
"""

from __future__ import annotations

import csv as csv_module
import io
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

GLYPH_COLUMNS = (
    "page",
    "#",
    "unicode",
    "code",
    "font",
    "size",
    "origin",
    "height",
    "status",
    "source",
    "token",
    "form",
    "annotation",
)
DECISION_COLUMNS = (
    "page",
    "kind",
    "glyph",
    "before",
    "after",
    "verdict",
    "value",
    "threshold",
    "description",
)
"""`glyph` for a decision about one glyph; `before` and `after` for one about the gap between two."""


def table_writer(
    out: IO[bytes], columns: Sequence[str], *, csv: bool, header: bool = True
) -> Callable[[Sequence[str]], None]:
    """A function writing one row of cells to `out`; the header is written first (when `header`)."""
    if csv:
        buffer = io.StringIO()
        writer = csv_module.writer(buffer)

        def write(cells: Sequence[str]) -> None:
            writer.writerow(cells)
            out.write(buffer.getvalue().encode("utf-8"))
            buffer.seek(0)
            buffer.truncate()

    else:

        def write(cells: Sequence[str]) -> None:
            out.write(("\t".join(cells) + "\n").encode("utf-8"))

    if header:
        write(list(columns))
    return write


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def glyph_cells(page: int, r: Mapping[str, Any], *, csv: bool) -> list[str]:
    """A glyph's row (its `glyph_to_json` dict) under GLYPH_COLUMNS."""
    x, y = r["origin"]
    return [
        str(page),
        str(r["paint_index"]),
        r["unicode"] if csv else repr(r["unicode"]),
        str(r["code"]),
        r["font_key"],
        _cell(r["font_size"]),
        f"{x},{y}",
        _cell(r["height"]),
        r["status"],
        r["decode_source"],
        str(r["token_index"]),
        "/".join(r["form_path"]),
        _cell(r.get("annotation")),
    ]


def decision_cells(page: int, d: Mapping[str, Any]) -> list[str]:
    """A decision's row (its `to_json()` dict with `description`) under DECISION_COLUMNS."""
    return [
        str(page),
        _cell(d.get("kind")),
        _cell(d.get("glyph")),
        _cell(d.get("before")),
        _cell(d.get("after")),
        _cell(d.get("verdict")),
        _cell(d.get("value")),
        _cell(d.get("threshold")),
        _cell(d.get("description")),
    ]
