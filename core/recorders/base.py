"""The events the interpreter emits, as the no-op methods of `Recorder`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

import pikepdf

from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.geometry import Matrix, Rect
from glyphscope.core.glyph_table import GlyphTable
from glyphscope.core.page import FormUse, PaintKind, Polygon
from glyphscope.core.state import Frame, GraphicsState, MarkedContent

if TYPE_CHECKING:
    from glyphscope.core.instructions import Instruction
    from glyphscope.core.interpreter import PageInterpreter


class InterpreterView:
    """The interpreter as its recorders see it: its state, read-only (assigning any of it raises
    AttributeError). The interpreter hands one to each recorder's `start`."""

    __slots__ = ("_interp",)

    def __init__(self, interp: PageInterpreter) -> None:
        self._interp = interp

    @property
    def page_number(self) -> int:
        return self._interp.page_number

    @property
    def gs(self) -> GraphicsState:
        """The current graphics state (the visibility recorder keeps its clip and fill ids in it)."""
        return self._interp.gs

    @property
    def stack_depth(self) -> int:
        """How many graphics states q has saved (the page's and its forms')."""
        return len(self._interp.stack)

    @property
    def tm(self) -> Matrix:
        return self._interp.tm

    @property
    def tlm(self) -> Matrix:
        return self._interp.tlm

    @property
    def in_text(self) -> bool:
        return self._interp.in_text

    @property
    def marked(self) -> MarkedContent | None:
        return self._interp.marked

    @property
    def frame(self) -> Frame:
        """The stream being run: the page's frame, or a form's child frame."""
        return self._interp.frame

    @property
    def frames(self) -> tuple[Frame, ...]:
        """Every form's frame so far, by form use index."""
        return tuple(self._interp.frames)

    @property
    def form_use_count(self) -> int:
        return self._interp.form_use_count

    @property
    def token_index(self) -> int:
        return self._interp.token_index

    @property
    def stream_index(self) -> int:
        return self._interp.stream_index

    @property
    def glyph_table(self) -> GlyphTable:
        """The glyphs the interpreter's layout placed so far (read them; the layout writes them)."""
        return self._interp.layout.table

    @property
    def glyph_count(self) -> int:
        return len(self._interp.layout.table)

    @property
    def recorders(self) -> tuple[Recorder, ...]:
        return self._interp.recorders


class Recorder:
    """A consumer of the interpreter's events. Override what you need; the rest is never called.

    Every event happens with the interpreter's state as it is at that moment (read it through
    the `InterpreterView` handed to `start`: `gs`, `frame`, `token_index`, `stream_index`,
    `glyph_table`); a recorder writes only its own records, never the interpreter's state
    (the one exception: the visibility recorder keeps the clip and fill ids the graphics
    state carries for it). Text showing is not theirs to answer: the interpreter's layout
    places the glyphs and moves the pen, then `text_shown` tells who listens.
    """

    def start(self, interp: InterpreterView) -> None:
        """Registered with the interpreter of one page, before its first instruction."""

    def observe(self, instructions: Iterable[Instruction]) -> Iterable[Instruction]:
        """A stream is about to run: return the instructions, or an iterable handing them out one by
        one (it resumes when the previous one has run: the stepper's trace follows each instruction)."""
        return instructions

    def font_selected(self, key: str, font: LoadedFont) -> None:
        """Tf chose a usable font from the resources of the stream being run."""

    def text_shown(self, first: int, end: int) -> None:
        """A text-showing operator painted the glyphs `first` to `end` (paint indices, end excluded)
        of `interp.glyph_table`; the text matrix has already moved past them. Not heard for an
        operator that painted nothing."""

    def path_filled(self, even_odd: bool, polygons: tuple[Polygon, ...]) -> None:
        """f F f* B B* b b*: a path's area painted with the fill colour (user space polygons)."""

    def clip_set(self, polygons: tuple[Polygon, ...], even_odd: bool, stream_index: int) -> None:
        """W/W* with its painting operator: the path intersected into the clip."""

    def fill_colour_set(self, family: str | None, components: tuple[float, ...]) -> None:
        """The fill colour changed (g rg k cs sc scn); family None: in the current colour space."""

    def ext_gstate_set(self, alpha: float | None, soft_mask: str | None) -> None:
        """gs: the fill alpha /ca and the soft mask state it sets (None: left as it is)."""

    def colour_set(
        self, stroke: bool, space: str | None, family: str | None, components: tuple[float, ...], pattern: str
    ) -> None:
        """A fill or stroke colour operator (g G rg RG k K cs CS sc SC scn SCN) ran: `space` as the
        stream names it ("DeviceRGB", or a /ColorSpace resource name), its `family` (None for
        sc/scn: the components are in the current space), the components, and for scn/SCN with a
        pattern its resource name ("" otherwise)."""

    def ext_gstate_applied(self, name: str, state: pikepdf.Dictionary | None) -> None:
        """gs ran with the ExtGState resource `name` (the dictionary, None when it is missing)."""

    def state_saved(self) -> None:
        """q: the graphics state was pushed (`interp.stack_depth` counts it)."""

    def state_restored(self) -> None:
        """Q: the graphics state was popped (not heard for a Q that had no q to match)."""

    def image_drawn(self, kind: PaintKind, info: pikepdf.Object | None) -> None:
        """An image XObject or inline image painted the CTM's unit square."""

    def shading_painted(self) -> None:
        """sh: a shading filled the whole clip."""

    def marked_begun(self, section: MarkedContent) -> None:
        """BMC/BDC opened `section` (the interpreter's marked-content state is already it)."""

    def marked_ended(self, section: MarkedContent) -> None:
        """EMC is about to close `section`."""

    def form_begun(self, use: FormUse, bbox: Rect | None, inverse: Matrix | None) -> None:
        """A Form XObject starts to run: its use (index `interp.form_use_count - 1`), its /BBox in form
        space and the map from user space back to form space (None without a usable /BBox). The
        form's frame (`interp.frame`, a child of its caller's) and graphics state are already current."""

    def form_ended(self, use_index: int) -> None:
        """The form of that use finished (or stopped: a budget, an error)."""

    def page_ended(self) -> None:
        """The page's content has run (to its end, or to where a budget stopped it)."""


EVENTS: tuple[str, ...] = tuple(
    name for name, value in vars(Recorder).items() if callable(value) and not name.startswith("_")
)
"""Every event name (the methods of `Recorder`), for the interpreter's subscription lists."""

P = ParamSpec("P")
R = TypeVar("R")


def listeners(
    recorders: Sequence[Recorder], event: Callable[Concatenate[Recorder, P], R]
) -> tuple[Callable[P, R], ...]:
    """The bound methods of the recorders that override `event` (a method of `Recorder`), in order."""
    name = event.__name__
    return tuple(getattr(r, name) for r in recorders if getattr(type(r), name) is not event)


def hears(recorders: Sequence[Recorder], name: str) -> bool:
    """Whether any of the recorders overrides the event `name`."""
    base = getattr(Recorder, name)
    return any(getattr(type(r), name) is not base for r in recorders)
