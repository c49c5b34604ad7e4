"""Named graphics and text state (ISO 32000-1 §8.4, §9.3).

`q` saves the WHOLE state including the text state (font, size, Tc, Tw, Tz,
TL, Tr, Ts): saving only the CTM makes a two-byte font chosen inside q…Q
keep decoding one-byte text shown after Q.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pikepdf

from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.geometry import IDENTITY, Matrix


@dataclass(slots=True)
class TextState:
    """The text state parameters (ISO 32000-1 §9.3) and the font in use."""

    font: LoadedFont | None = None
    font_key: str = ""
    font_size: float = 0.0
    char_spacing: float = 0.0  # Tc
    word_spacing: float = 0.0  # Tw, applies to the single-byte code 32 only
    horizontal_scaling: float = 100.0  # Tz, percent
    leading: float = 0.0  # TL
    render_mode: int = 0  # Tr
    rise: float = 0.0  # Ts


@dataclass(slots=True)
class GraphicsState:
    """The CTM, the text state, and what visibility needs (ids, not copies: q/Q copy two ints).

    `clip`: index into the page's clip records (InterpretedPage.clips), -1 when nothing
    clips; `fill`: index into its fill states (InterpretedPage.fills: colour family,
    components, alpha /ca, soft mask), 0 being the initial black, opaque fill.
    """

    ctm: Matrix = IDENTITY
    text: TextState | None = None
    clip: int = -1
    fill: int = 0

    def copy(self) -> GraphicsState:
        return GraphicsState(
            self.ctm, replace(self.text) if self.text is not None else TextState(), self.clip, self.fill
        )

    def __post_init__(self) -> None:
        if self.text is None:
            self.text = TextState()


@dataclass(slots=True, eq=False)
class MarkedContent:
    """One open marked-content section (BMC/BDC), linked to the section it is nested in.

    Opening and closing are O(1) (a new node; EMC goes back to `parent`), however deep
    the nesting: a tuple rebuilt per operator made 100,000 nested BDC quadratic. The
    tags tuple a glyph records is built on first use and kept on the node.
    """

    tag: str
    mcid: int | None  # the section's own /MCID
    active_mcid: int | None  # the innermost MCID in force here (own, else inherited)
    parent: MarkedContent | None
    depth: int  # 1 for an outermost section
    properties: Any = None  # the BDC property dictionary (resolved from /Properties), if any
    _tags: tuple[str, ...] | None = field(default=None, repr=False)

    @classmethod
    def open(
        cls, parent: MarkedContent | None, tag: str, mcid: int | None, properties: Any = None
    ) -> MarkedContent:
        active = mcid if mcid is not None else (parent.active_mcid if parent is not None else None)
        depth = parent.depth + 1 if parent is not None else 1
        return cls(tag, mcid, active, parent, depth, properties)

    @property
    def tags(self) -> tuple[str, ...]:
        """Tags of the open sections, outer first (Glyph.marked_tags).

        Built from the nearest enclosing section that has its tuple already, and kept
        on this node only: O(depth) once per section whose glyphs ask for it.
        """
        if self._tags is None:
            pending: list[str] = []
            node: MarkedContent | None = self
            while node is not None and node._tags is None:  # iterative: nesting may be deep
                pending.append(node.tag)
                node = node.parent
            known = node._tags if node is not None and node._tags is not None else ()
            pending.reverse()
            self._tags = known + tuple(pending)
        return self._tags

    def sections(self) -> list[MarkedContent]:
        """This section and the ones it is nested in, innermost first."""
        out: list[MarkedContent] = []
        node: MarkedContent | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        return out


@dataclass(slots=True, eq=False)
class Frame:
    """One content stream being run: the page's, or a form's as a child frame of its caller's.

    A form runs in a frame of its own: its resources (or the caller's, §7.8.3), the matrix
    mapping form space to user space, and the frame that drew it (`parent`). Glyphs, findings
    and trace steps name the frame they come from by its `form_path` and `form_use_index`
    (the interpreter's `frames[form_use_index]` is the frame itself).
    """

    resources: pikepdf.Dictionary | None
    form_path: tuple[str, ...]
    form_ids: tuple[str, ...]
    base_depth: int  # gstate stack depth at entry: Q may not pop below it
    form_use_index: int = -1  # which Do (or annotation appearance) of the page: -1 for the page
    annotation: int = -1  # the annotation whose appearance is being run (forms inside it too)
    parent: Frame | None = None  # the frame whose Do drew this one; None for the page
    matrix: Matrix = IDENTITY  # form space → user space (the CTM the form starts with)
    depth: int = 0  # forms between this frame and the page's

    def child(
        self,
        resources: pikepdf.Dictionary | None,
        form_path: tuple[str, ...],
        ident: str,
        matrix: Matrix,
        base_depth: int,
        use_index: int,
        annotation: int = -1,
    ) -> Frame:
        """The frame of a form this frame draws (an annotation's appearance when `annotation` ≥ 0)."""
        return Frame(
            resources,
            form_path,
            self.form_ids + (ident,),
            base_depth,
            use_index,
            annotation if annotation >= 0 else self.annotation,
            self,
            matrix,
            self.depth + 1,
        )
