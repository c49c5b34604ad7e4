"""A page's glyphs held column-wise; `Glyph` records made on demand.

A glyph record with its points and quad costs ~1.2 KB of Python objects and ~2.5 µs to
build; a dense page holds hundreds of thousands. The interpreter writes each glyph as a
row of columns instead:

* `geom` — `array('d')`, GEOM_STRIDE doubles per glyph: origin, glyph_end, pen_end, then
  the quad's four corners (the exact doubles the record would hold);
* `unicode`, `source` — one reference each (strings and enum members are shared);
* `code` — `array('q')`; `code_bytes` — `bytearray`;
* everything the text state fixes for a whole string (font, size, box height,
  direction, marked content, clip, fill, …) as a `GlyphRun` shared by every string painted
  in that state; per *run* — one text-showing operator — a reference to it in `runs`, the
  operator's `run_token` / `run_stream` indices and `run_start`, its first glyph.

About 140 bytes per glyph, ~32 per run. `table[i]` / iteration give `Glyph` records equal field by field
to the ones the interpreter used to build; a holder that reads them over and over (the
window) calls `keep_records()` so each is built once. The engine's own passes read the
columns (`centres`, `run_of`) and never keep records, and plain mode reads `FlowGlyph`s
(seven fields): a page held by the command line, triage or a benchmark stays at the
columns' size, and its plain text costs no whole record.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, repeat
from math import copysign
from operator import attrgetter, itemgetter, sub
from typing import Any, NamedTuple, TypeVar, overload

from glyphscope.core.gcpause import gc_paused
from glyphscope.core.geometry import Point
from glyphscope.core.glyph import DecodeSource, FlowFields, FlowGlyph, Glyph

T = TypeVar("T")

_new_tuple = tuple.__new__  # a record without its Python-level __new__: one C call

GEOM_STRIDE = 14
"""Doubles per glyph in `GlyphTable.geom`: origin x y, glyph_end x y, pen_end x y, quad corners
0–3 x y (descent-origin, descent-advance, ascent-advance, ascent-origin)."""


class GlyphRun(NamedTuple):
    """What the state of a text-showing operator fixes for all its glyphs (the `Glyph` fields of
    that name); one object shared by every operator painted in the same state. Build it by
    keyword: records read its fields by name (`_record_walker`), never by position."""

    font_key: str
    font_size: float
    height: float
    direction: Point
    wmode: int
    form_path: tuple[str, ...]
    mcid: int | None
    render_mode: int
    rise: float
    font_id: str
    char_spacing: float
    word_spacing: float
    horizontal_scaling: float
    marked_tags: tuple[str, ...]
    form_use: int
    clip_id: int
    fill_id: int
    annotation: int = -1
    # The linear part (a, b, c, d) of Tm × CTM for the operator's glyphs: what the Python API's
    # pdfplumber-like records (`matrix`, `adv`, `size`) are made of. Not a `Glyph` field; None for
    # tables built from records (`GlyphTable.of`).
    text_matrix: tuple[float, float, float, float] | None = None


class GlyphTable(Sequence[Glyph]):
    """Every glyph of one page, paint order, column-wise; `table[i].paint_index == i`."""

    __slots__ = (
        "geom",
        "unicode",
        "code",
        "code_bytes",
        "source",
        "outside",
        "runs",
        "run_start",
        "run_token",
        "run_stream",
        "_shared",
        "_records",
    )

    def __init__(self) -> None:
        self.geom = array("d")
        self.unicode: list[str] = []
        self.code = array("q")
        self.code_bytes = bytearray()
        self.source: list[DecodeSource] = []
        self.outside: set[int] = set()  # painted outside their form's /BBox (rare: a set, not a column)
        self.runs: list[GlyphRun] = []
        self.run_start = array("q")  # first glyph of each run; runs are never empty
        self.run_token = array("q")  # Glyph.token_index of each run's glyphs
        self.run_stream = array("q")  # Glyph.stream_index
        self._shared: dict[tuple[GlyphRun, tuple[float, ...]], GlyphRun] = {}
        self._records: list[Glyph] | None = None  # all of them, once keep_records() made them

    # ------------------------------------------------------------ writing (the interpreter)

    def start_run(self, run: GlyphRun, token_index: int, stream_index: int) -> None:
        """The glyphs appended next belong to `run` (call only when at least one follows)."""
        # One object per state: equal runs share it. The key tells 0.0 from -0.0 (equal, but
        # not the same number in a record).
        d, c = run.direction, copysign
        signs = (c(1, d[0]), c(1, d[1]), c(1, run.font_size), c(1, run.rise), c(1, run.char_spacing))
        key = (run, (*signs, c(1, run.word_spacing), c(1, run.horizontal_scaling)))
        self.runs.append(self._shared.setdefault(key, run))
        self.run_start.append(len(self.unicode))
        self.run_token.append(token_index)
        self.run_stream.append(stream_index)

    # ------------------------------------------------------------ reading

    def __len__(self) -> int:
        return len(self.unicode)

    @overload
    def __getitem__(self, i: int) -> Glyph: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Glyph]: ...
    def __getitem__(self, i: int | slice) -> Glyph | Sequence[Glyph]:
        """A record; a slice from 0 (the first glyphs) is a table, any other slice a tuple."""
        records = self._records
        if records is not None and i.__class__ is int:
            try:
                return records[i]  # type: ignore[index]  # kept: the list answers (negative indices too)
            except IndexError:
                raise IndexError("glyph index out of range") from None
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if start == 0 and step == 1:
                return self.prefix(stop)  # type: ignore[return-value]
            return tuple(self[j] for j in range(start, stop, step))
        n = len(self.unicode)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("glyph index out of range")
        if records is not None:
            return records[i]
        return next(self.records_at((i,)))

    def __iter__(self) -> Iterator[Glyph]:
        records = self._records
        return iter(records) if records is not None else self.records_at(range(len(self.unicode)))

    def __repr__(self) -> str:
        return f"<GlyphTable: {len(self)} glyphs in {len(self.runs)} runs>"

    def __eq__(self, other: object) -> bool:
        return _same_records(self, other)

    __hash__ = object.__hash__  # by identity, like the page that holds it

    def prefix(self, n: int) -> GlyphTable:
        """A table of the first `n` glyphs (a copy of their columns)."""
        t = GlyphTable()
        n = max(0, min(n, len(self)))
        t.geom = self.geom[: n * GEOM_STRIDE]
        t.unicode = self.unicode[:n]
        t.code = self.code[:n]
        t.code_bytes = self.code_bytes[:n]
        t.source = self.source[:n]
        t.outside = {i for i in self.outside if i < n}
        used = bisect_right(self.run_start, n - 1) if n else 0
        t.runs = self.runs[:used]
        t.run_start = self.run_start[:used]
        t.run_token = self.run_token[:used]
        t.run_stream = self.run_stream[:used]
        return t

    @property
    def records_kept(self) -> bool:
        """Whether every record is made and kept (`keep_records`): nothing builds them otherwise."""
        return self._records is not None

    def keep_records(self) -> None:
        """Make every record now and keep them (for a holder that reads them over and over,
        and wants the cost paid up front: the window, in its worker thread)."""
        if self._records is None:
            with gc_paused():  # many young objects at once: no collector passes meanwhile
                self._records = list(self.records_at(range(len(self.unicode))))

    def records_at(self, indices: Iterable[int]) -> Iterator[Glyph]:
        """The records of `indices` (increasing paint indices), walking the runs alongside.

        A run's state is unpacked once for all its glyphs: the one place records are made."""
        records = self._records
        if records is not None:
            return (records[i] for i in indices)
        return _walk_records(self, indices)

    # ------------------------------------------------------------ columns for the passes

    def flow_glyphs(self, indices: Iterable[int]) -> list[FlowGlyph]:
        """The FlowGlyph records of `indices` (increasing paint indices): records_at's walk,
        seven fields instead of 29."""
        return _walk_flow_glyphs(self, indices)

    def run_at(self, i: int) -> int:
        """The run glyph i belongs to."""
        return bisect_right(self.run_start, i) - 1

    def run_ranges(self) -> Iterator[tuple[int, GlyphRun, range]]:
        """Every run: its index, its state and the paint indices of its glyphs, paint order."""
        starts = self.run_start
        last = len(starts) - 1
        n = len(self.unicode)
        for r, run in enumerate(self.runs):
            yield r, run, range(starts[r], starts[r + 1] if r < last else n)

    def annotation_of(self) -> list[int]:
        """Each glyph's `annotation` (-1: the page's content), off the runs."""
        return self.spread(run.annotation for run in self.runs)

    def run_of(self) -> list[int]:
        """The run index of every glyph (a transient list: build it once per pass)."""
        return self.spread(range(len(self.runs)))

    def spread(self, per_run: Iterable[T]) -> list[T]:
        """One value per run, repeated for each of its glyphs: a per-glyph column of a run field."""
        out: list[T] = []
        for value, (_, _, painted) in zip(per_run, self.run_ranges()):
            out.extend([value] * len(painted))
        return out

    def column(self, offset: int) -> array[float]:
        """One double of every glyph's geometry row (e.g. 0: origin x, 1: origin y)."""
        return self.geom[offset::GEOM_STRIDE]

    def centres(self) -> tuple[list[float], list[float]]:
        """Every glyph's box centre (x, y): the quad's corners 0 and 2 averaged, as Glyph.center."""
        g = self.geom
        xs = [(a + b) * 0.5 for a, b in zip(g[6::GEOM_STRIDE], g[10::GEOM_STRIDE])]
        ys = [(a + b) * 0.5 for a, b in zip(g[7::GEOM_STRIDE], g[11::GEOM_STRIDE])]
        return xs, ys

    @classmethod
    def of(cls, glyphs: Sequence[Glyph]) -> GlyphTable:
        """A table holding `glyphs` (records in paint order, paint_index == position): for
        pages built by hand, e.g. in tests. One run per glyph."""
        t = cls()
        for i, g in enumerate(glyphs):
            if g.paint_index != i:
                raise ValueError(f"glyph {i} has paint_index {g.paint_index}")
            t.start_run(
                GlyphRun._make(getattr(g, name, None) for name in GlyphRun._fields),
                g.token_index,
                g.stream_index,
            )
            q = g.quad
            t.geom.extend((*g.origin, *g.glyph_end, *g.pen_end, *q[0], *q[1], *q[2], *q[3]))
            t.unicode.append(g.unicode)
            t.code.append(g.code)
            t.code_bytes.append(g.code_bytes)
            t.source.append(g.decode_source)
            if g.outside_form_bbox:
                t.outside.add(i)
        return t


class GlyphView(Sequence[Glyph]):
    """Some glyphs of a table (e.g. the visible ones), paint order, records on demand."""

    __slots__ = ("table", "indices", "_kept")

    def __init__(self, table: GlyphTable, indices: array[int]) -> None:
        self.table = table
        self.indices = indices
        self._kept: tuple[Glyph, ...] | None = None  # the records, once the table keeps them

    def _records(self) -> tuple[Glyph, ...] | None:
        kept = self._kept
        if kept is None and self.table._records is not None:
            records = self.table._records
            kept = self._kept = tuple(records[i] for i in self.indices)
        return kept

    def __len__(self) -> int:
        return len(self.indices)

    @overload
    def __getitem__(self, i: int) -> Glyph: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Glyph, ...]: ...
    def __getitem__(self, i: int | slice) -> Glyph | tuple[Glyph, ...]:
        kept = self._records()
        if kept is not None:
            return kept[i]
        if isinstance(i, slice):
            t = self.table
            return tuple(t[j] for j in self.indices[i])
        return self.table[self.indices[i]]

    def __iter__(self) -> Iterator[Glyph]:
        kept = self._records()
        return iter(kept) if kept is not None else self.table.records_at(self.indices)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GlyphView) and self.table is other.table:
            return self.indices == other.indices
        return _same_records(self, other)

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<GlyphView: {len(self)} of {len(self.table)} glyphs>"


class PassColumns:
    """What the classification passes read of a page's glyphs, made once per classification:
    the table, each glyph's run index and its box centre (as `Glyph.center`)."""

    __slots__ = ("table", "run_of", "xs", "ys")

    def __init__(self, glyphs: GlyphTable) -> None:
        self.table = glyphs  # a page's glyphs are always its table (InterpretedPage converts records)
        self.run_of = self.table.run_of()
        self.xs, self.ys = self.table.centres()


def _same_records(a: Sequence[Glyph], b: object) -> bool:
    """Equal to another sequence of the same records (a tuple or list of them, a table, a view):
    the comparison the page's former tuple of records gave."""
    if a is b:
        return True
    if not isinstance(b, (tuple, list, GlyphTable, GlyphView)):
        return NotImplemented  # type: ignore[return-value]
    return len(a) == len(b) and all(x == y for x, y in zip(a, b))


def subset(glyphs: GlyphTable, indices: Sequence[int]) -> GlyphView:
    """`glyphs[i] for i in indices` (paint indices), as a view on the table."""
    return GlyphView(glyphs, array("q", indices))


class FlowColumns(Sequence[FlowGlyph]):
    """Some glyphs of a table (paint indices `indices`, in the order a flow reads them) as
    FlowGlyph records, made on demand: the pair rules of a flow read the columns instead
    (`columns`, TextBuilder.join_run), and no record is made for most glyphs."""

    __slots__ = ("table", "indices")

    def __init__(self, table: GlyphTable, indices: Sequence[int]) -> None:
        self.table = table
        self.indices = indices

    def __len__(self) -> int:
        return len(self.indices)

    @overload
    def __getitem__(self, i: int) -> FlowGlyph: ...
    @overload
    def __getitem__(self, i: slice) -> list[FlowGlyph]: ...
    def __getitem__(self, i: int | slice) -> FlowGlyph | list[FlowGlyph]:
        if isinstance(i, slice):
            return self.table.flow_glyphs(self.indices[i])
        return self.table.flow_glyphs((self.indices[i],))[0]

    def __iter__(self) -> Iterator[FlowGlyph]:
        return iter(self.table.flow_glyphs(self.indices))

    def __repr__(self) -> str:
        return f"<FlowColumns: {len(self)} of {len(self.table)} glyphs>"

    def columns(self) -> tuple[list[int], Iterator[tuple[int, str, Point, Point, float, Point]]]:
        """The paint indices, and each glyph's first six FlowGlyph fields (paint_index, unicode,
        origin, glyph_end, height, direction) read off the columns, in order."""
        t = self.table
        paints = list(self.indices)
        geom = t.geom
        # each run's height and direction, once per glyph (C loops: a page may have thousands of runs)
        counts = list(map(sub, [*t.run_start[1:], len(t.unicode)], t.run_start))
        unicode: Sequence[str] = t.unicode
        ox: Sequence[float] = geom[0::GEOM_STRIDE]
        oy: Sequence[float] = geom[1::GEOM_STRIDE]
        ex: Sequence[float] = geom[2::GEOM_STRIDE]
        ey: Sequence[float] = geom[3::GEOM_STRIDE]
        height: Sequence[float] = list(chain.from_iterable(map(repeat, map(_height, t.runs), counts)))
        direction: Sequence[Point] = list(chain.from_iterable(map(repeat, map(_direction, t.runs), counts)))
        if paints != list(range(len(t.unicode))):  # some glyphs, or another order: gather them
            unicode, ox, oy, ex, ey = (
                _gather(unicode, paints),
                *(_gather(c, paints) for c in (ox, oy, ex, ey)),
            )
            height, direction = _gather(height, paints), _gather(direction, paints)
        return paints, zip(paints, unicode, zip(ox, oy), zip(ex, ey), height, direction)


_height = attrgetter("height")
_direction = attrgetter("direction")


def _gather(column: Sequence[T], indices: list[int]) -> Sequence[T]:
    """`column[i] for i in indices`, in one C call (itemgetter)."""
    if len(indices) > 1:
        return itemgetter(*indices)(column)  # type: ignore[no-any-return]
    return [column[i] for i in indices]


def flow_glyphs(glyphs: Sequence[Glyph]) -> Sequence[FlowFields]:
    """`glyphs` as a text flow reads them: FlowGlyph records off a view's columns (FlowColumns)
    when its table keeps no records and no run writes vertically (the vertical path reads whole
    records: quads, centres); the records themselves otherwise."""
    if isinstance(glyphs, GlyphView) and glyphs._records() is None:
        table = glyphs.table
        if not any(run.wmode for run in table.runs):
            return FlowColumns(table, glyphs.indices)
    return tuple(glyphs)


def paint_indices(glyphs: Sequence[Glyph]) -> tuple[int, ...]:
    """The paint indices of `glyphs`, off a table's or view's indices when it has them."""
    if isinstance(glyphs, GlyphView):
        return tuple(glyphs.indices)
    if isinstance(glyphs, GlyphTable):
        return tuple(range(len(glyphs)))
    return tuple(g.paint_index for g in glyphs)


def as_table(glyphs: Any) -> GlyphTable:
    """The page's glyphs as a table (a table stays itself; a sequence of records is copied)."""
    return glyphs if isinstance(glyphs, GlyphTable) else GlyphTable.of(tuple(glyphs))


# ---------------------------------------------------------------- records by field name
#
# A record is built in one C call from a tuple display: as fast as Python makes a record, but
# positional. So the display is written here from names — where each field comes from as the
# walk below reads the columns — and put in the record's field order when the module loads: a
# field added to `Glyph` or `FlowGlyph` without a source fails at import, and no field order is
# written twice. A run's fields are unpacked once per run, under their own names.

_COLUMN_SOURCES: dict[str, str] = {
    "paint_index": "i",
    "unicode": "unicode[i]",
    "code": "code[i]",
    "code_bytes": "nbytes[i]",
    "decode_source": "source[i]",
    "outside_form_bbox": "i in outside",
    "token_index": "token",
    "stream_index": "stream",
}
"""Where each per-glyph `Glyph` field is read: the columns at paint index `i`, its run's indices."""

_WALK = """
def walk(table, indices):
    starts, runs, tokens, streams = table.run_start, table.runs, table.run_token, table.run_stream
    geom, unicode, code, nbytes, source = table.geom, table.unicode, table.code, table.code_bytes, table.source
    outside = table.outside
    last = len(starts) - 1
    n = len(unicode)
    start = end = 0  # the first index always looks its run up
    {out_init}
    for i in indices:
        if not start <= i < end:
            r = bisect_right(starts, i) - 1
            start, end = starts[r], starts[r + 1] if r < last else n
            {run_fields}, = runs[r]
            {run_indices}
        k = i * GEOM_STRIDE
        {geometry}
        {emit}(new_tuple({record}, ({fields},)))
    {out_return}
"""


def _record_walker(
    record: type[tuple[Any, ...]], geometry: str, geometry_sources: dict[str, str], *, as_list: bool
) -> Callable[..., Any]:
    """A walk over a table's `indices` that builds `record`s, each field from its source (the
    columns, or the run's field of that name): a generator, or with `as_list` one list.
    `geometry` reads the glyph's row of `geom` at `k` for `geometry_sources` (its fields'
    sources)."""
    sources = {**_COLUMN_SOURCES, **geometry_sources, **{name: name for name in GlyphRun._fields}}
    fields: tuple[str, ...] = record._fields  # type: ignore[attr-defined]
    missing = [name for name in fields if name not in sources]
    if missing:
        raise TypeError(f"{record.__name__} fields with no source in glyph_table: {', '.join(missing)}")
    source = _WALK.format(
        out_init="out = []; append = out.append" if as_list else "",
        run_fields=", ".join(name if name in fields else "_" for name in GlyphRun._fields),
        run_indices="token, stream = tokens[r], streams[r]" if "token_index" in fields else "",
        geometry=geometry,
        emit="append" if as_list else "yield ",
        record=record.__name__,
        fields=", ".join(sources[name] for name in fields),
        out_return="return out" if as_list else "",
    )
    namespace: dict[str, Any] = {
        "bisect_right": bisect_right,
        "GEOM_STRIDE": GEOM_STRIDE,
        "new_tuple": _new_tuple,
        record.__name__: record,
    }
    exec(compile(source, f"<glyph_table: {record.__name__} walk>", "exec"), namespace)
    return namespace["walk"]  # type: ignore[no-any-return]


_walk_records = _record_walker(
    Glyph,
    "ox, oy, ex, ey, px, py, x0, y0, x1, y1, x2, y2, x3, y3 = geom[k : k + GEOM_STRIDE]",
    {
        "origin": "(ox, oy)",
        "glyph_end": "(ex, ey)",
        "pen_end": "(px, py)",
        "quad": "((x0, y0), (x1, y1), (x2, y2), (x3, y3))",
    },
    as_list=False,
)
_walk_flow_glyphs = _record_walker(  # four of the row's doubles: indexing each beats a slice
    FlowGlyph,
    "",
    {"origin": "(geom[k], geom[k + 1])", "glyph_end": "(geom[k + 2], geom[k + 3])"},
    as_list=True,
)
