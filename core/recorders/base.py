"""The events the interpreter emits, as the no-op methods of `Recorder`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

import pikepdf

from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.geometry import Matrix, Rect
from glyphscope.core.page import FormUse, PaintKind, Polygon
from glyphscope.core.state import MarkedContent

if TYPE_CHECKING:
    from glyphscope.core.instructions import Instruction
    from glyphscope.core.interpreter import PageInterpreter


class Recorder:
    """A consumer of the interpreter's events. Override what you need; the rest is never called.

    Every event happens with the interpreter's state as it is at that moment (read it through
    the interpreter handed to `start`: `gs`, `frame`, `token_index`, `stream_index`,
    `glyph_count`); a recorder writes only its own records (and, for the visibility recorder,
    the clip and fill ids the graphics state carries for it).
    """

    def start(self, interp: PageInterpreter) -> None:
        """Registered with the interpreter of one page, before its first instruction."""

    def observe(self, instructions: Iterable[Instruction]) -> Iterable[Instruction]:
        """A stream is about to run: return the instructions, or an iterable handing them out one by
        one (it resumes when the previous one has run: the stepper's trace follows each instruction)."""
        return instructions

    def font_selected(self, key: str, font: LoadedFont) -> None:
        """Tf chose a usable font from the resources of the stream being run."""

    def path_filled(self, even_odd: bool, polygons: tuple[Polygon, ...]) -> None:
        """f F f* B B* b b*: a path's area painted with the fill colour (user space polygons)."""

    def clip_set(self, polygons: tuple[Polygon, ...], even_odd: bool, stream_index: int) -> None:
        """W/W* with its painting operator: the path intersected into the clip."""

    def fill_colour_set(self, family: str | None, components: tuple[float, ...]) -> None:
        """The fill colour changed (g rg k cs sc scn); family None: in the current colour space."""

    def ext_gstate_set(self, alpha: float | None, soft_mask: str | None) -> None:
        """gs: the fill alpha /ca and the soft mask state it sets (None: left as it is)."""

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
        space and the map from user space back to form space (None without a usable /BBox)."""

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
