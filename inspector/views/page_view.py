"""The Session's view of one page through its stages, as every page-scoped view reads it (Qt-free).

A page reaches the window in stages: nothing (no document, or the page requested and not
in yet), a preview (the rendered image only), the analysed page (glyphs, classes, fonts:
`PageFacts`), then the text of each mode as the worker assembles it; or it stops at an
error (the page could not be interpreted) or, for one mode, a failure (its text could not
be assembled). A mode may also show another mode's text on this page (structure mode
without usable structure): its fallback reason.

`page_state(view, mode)` reduces a `PageBundle` to one of these stages for a view that needs
the page only (`mode=None`) or the text of one mode, with the line the view shows while it
is not ready. Views render only a READY state; every other stage is one line, worded here once.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from glyphscope.inspector.views.page_facts import PageBundle, PageFacts

__all__ = ["NO_PAGE", "PageState", "Stage", "page_state"]


class Stage(enum.Enum):
    """Where a page is on its way to a view, in the order it gets there."""

    NO_PAGE = "no_page"  # nothing open, or no page chosen
    LOADING = "loading"  # the page is requested (or only its image is in): its analysis follows
    ERROR = "error"  # the page could not be interpreted: nothing to show but why
    TEXT_PENDING = "text_pending"  # the page is in, the mode's text is still being assembled
    TEXT_FAILED = "text_failed"  # the page is in, the mode's text could not be assembled
    READY = "ready"  # everything the view needs is in


@dataclass(frozen=True, slots=True)
class PageState:
    """One view's state of the current page: its stage, the data when there is some, and its line."""

    stage: Stage
    page_number: int = 0
    facts: PageFacts | None = None  # set from TEXT_PENDING on: the analysed page
    mode: str | None = None  # the mode whose text the view asked for (None: the page only)
    shown_mode: str | None = None  # READY with a mode: the mode whose text is shown for it
    message: str = ""  # the waiting or failure line (empty when READY)
    fallback: str | None = None  # READY with a mode: why another mode's text is shown, or None

    @property
    def ready(self) -> bool:
        return self.stage is Stage.READY

    @property
    def failed(self) -> bool:
        return self.stage in (Stage.ERROR, Stage.TEXT_FAILED)


NO_PAGE = PageState(Stage.NO_PAGE, message="No page loaded.")


def mode_name(mode: str) -> str:
    return mode.replace("_", " ").capitalize()


def page_state(view: PageBundle | None, mode: str | None = None, page_number: int = 0) -> PageState:
    """The state of `view` for a view that needs the page (`mode` None) or the text of `mode`.

    `page_number` is the session's current page: with no view yet, it tells loading (a page
    is chosen) from no page at all."""
    if view is None:
        if page_number <= 0:
            return NO_PAGE
        return PageState(Stage.LOADING, page_number, mode=mode, message=f"Loading page {page_number}…")
    n = view.page_number
    facts = view.facts
    if facts is None:
        if view.error:
            return PageState(Stage.ERROR, n, mode=mode, message=view.error)
        return PageState(Stage.LOADING, n, mode=mode, message=f"Loading page {n}…")
    if mode is None:
        return PageState(Stage.READY, n, facts)
    failed = facts.modes.failures.get(mode)
    if failed is not None:
        return PageState(Stage.TEXT_FAILED, n, facts, mode, message=failed)
    if not facts.modes.shown_ready(mode):
        return PageState(
            Stage.TEXT_PENDING,
            n,
            facts,
            mode,
            message=f"Assembling the {mode_name(mode)} text… (the page is shown first, its texts follow)",
        )
    return PageState(
        Stage.READY,
        n,
        facts,
        mode,
        shown_mode=facts.modes.shown_mode(mode),
        fallback=facts.modes.fallback_reason(mode),
    )
