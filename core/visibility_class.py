"""What a reader sees of a glyph: its visibility class (core/visibility.py decides it).

The values are the strings JSON output, triage and the layer keys carry."""

from __future__ import annotations

from enum import StrEnum


class VisibilityClass(StrEnum):
    VISIBLE = "visible"
    INVISIBLE_MODE = "invisible_mode"  # a render mode that paints nothing (INVISIBLE_RENDER_MODES)
    CLIPPED = "clipped"  # no part of the box inside the clipping path in force
    TRANSPARENT = "transparent"  # fill alpha 0 or an empty soft mask
    SAME_AS_BACKGROUND = "same_as_background"  # fill colour of what is painted behind it
    COVERED = "covered"  # an opaque fill painted over it later


HIDDEN_CLASSES: tuple[VisibilityClass, ...] = tuple(
    c for c in VisibilityClass if c is not VisibilityClass.VISIBLE
)
"""Every class but visible: text a reader cannot see."""

DROPPABLE_HIDDEN: tuple[VisibilityClass, ...] = (
    VisibilityClass.TRANSPARENT,
    VisibilityClass.SAME_AS_BACKGROUND,
    VisibilityClass.COVERED,
)
"""What Parameters.drop_hidden drops (invisible_mode stays: OCR layers depend on it)."""
