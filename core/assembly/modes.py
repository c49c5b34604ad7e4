"""The text modes and the reading orders auto mode chooses between: the words the command line,
JSON and the window read and write (StrEnums). A leaf module, so the modes' own modules name them
without importing the assembly package."""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """A text mode (spec §3–§9): how the page's visible glyphs are read into text. A StrEnum: the
    command line, JSON and the window read and write its words ("plain", "layout", …)."""

    PLAIN = "plain"
    LAYOUT = "layout"
    COLUMNS = "columns"
    STRUCTURE = "structure"
    ARTICLES = "articles"
    AUTO = "auto"


MODES: tuple[str, ...] = tuple(mode.value for mode in Mode)
"""The modes' words, in the order every listing and the window show them."""


class ReadingOrder(StrEnum):
    """The order auto mode (spec §9) read a page in (`PageText.order`)."""

    STRUCTURE = "structure"  # the structure tree's order: usable and trusted
    ARTICLES = "articles"  # the article threads' beads
    GEOMETRIC = "geometric"  # the content stream is scrambled: a geometric order
    PLAIN = "plain"  # content-stream order
