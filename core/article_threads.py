"""Article threads (ISO 32000-1 §12.4.3): /Root /Threads → beads, per page, in thread order.

A thread is a chain of beads (/F the first, /N the next, back to the first); each
bead has a page (/P) and a rectangle (/R) in that page's default user space. The
`articles` reading order (core/assembly/articles.py) reads the page's beads in
thread order, glyphs assigned to the bead containing their box centre.

A broken chain never raises: a loop that does not return to the first bead, a bead
without a page or rectangle, more than MAX_BEADS beads — the walk stops or skips,
and the problem is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pikepdf

from glyphscope.core.geometry import Rect

MAX_BEADS = 100_000
"""Beads read per document at most (a hostile chain cannot make the walk unbounded)."""


MAX_PROBLEMS = 20
"""Bead problems recorded at most (a hostile chain could give one per bead)."""

MAX_PAGE_BEADS = 1_000
"""Beads kept per page at most: assigning glyphs costs glyphs × beads."""


@dataclass(frozen=True, slots=True)
class Bead:
    """One bead of an article thread on a page."""

    thread: int  # 0-based index of the thread in /Threads
    index: int  # 0-based position of the bead in its thread
    rect: Rect  # (x0, y0, x1, y1), normalised, default user space
    title: str  # the thread's /I /Title, "" when none

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.rect
        return x0 <= x <= x1 and y0 <= y <= y1

    def to_json(self) -> dict[str, object]:
        return {"thread": self.thread, "index": self.index, "rect": list(self.rect), "title": self.title}


def _rect(value: Any) -> Rect | None:  # anything: what is not four numbers is None
    try:
        x0, y0, x1, y1 = (float(v) for v in value)
    except (TypeError, ValueError, pikepdf.PdfError):
        return None
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _title(thread: pikepdf.Object) -> str:
    try:
        info = thread.get("/I")
        title = info.get("/Title") if isinstance(info, pikepdf.Dictionary) else None
        return str(title) if title is not None else ""
    except (pikepdf.PdfError, ValueError, TypeError, AttributeError):
        return ""


def read_beads(pdf: pikepdf.Pdf) -> tuple[dict[int, tuple[Bead, ...]], tuple[str, ...]]:
    """Beads of every page (0-based page index → beads in thread order), and the problems met."""
    problems: list[str] = []
    try:
        threads = pdf.Root.get("/Threads")
    except (pikepdf.PdfError, ValueError, TypeError, AttributeError) as exc:
        return {}, (f"cannot read /Threads: {exc}",)
    if not isinstance(threads, pikepdf.Array):
        return {}, ()
    page_of: dict[tuple[int, int], int] = {}
    try:
        for i, page in enumerate(pdf.pages):
            page_of[page.obj.objgen] = i
    except (pikepdf.PdfError, ValueError, TypeError) as exc:
        problems.append(f"cannot list the pages for the article beads: {exc}")
    out: dict[int, list[Bead]] = {}
    total = 0
    for t, thread in enumerate(threads):
        if not isinstance(thread, pikepdf.Dictionary):
            problems.append(f"thread {t + 1} is not a dictionary")
            continue
        title = _title(thread)
        bead = thread.get("/F")
        seen: set[tuple[int, int]] = set()
        index = 0
        while isinstance(bead, pikepdf.Dictionary):
            key = bead.objgen
            if key != (0, 0):
                if key in seen:
                    break  # back at a bead already read: the chain's normal end is the first bead
                seen.add(key)
            total += 1
            if total > MAX_BEADS:
                problems.append(f"more than {MAX_BEADS} article beads: the rest are not read")
                return {p: tuple(b[:MAX_PAGE_BEADS]) for p, b in out.items()}, tuple(problems)
            bead_page = bead.get("/P")
            rect = _rect(bead.get("/R"))
            page_index = page_of.get(bead_page.objgen) if isinstance(bead_page, pikepdf.Dictionary) else None
            if page_index is None or rect is None:
                if len(problems) < MAX_PROBLEMS:
                    problems.append(f"thread {t + 1}, bead {index + 1}: no page or no rectangle (skipped)")
            elif len(out.setdefault(page_index, [])) >= MAX_PAGE_BEADS:
                if len(out[page_index]) == MAX_PAGE_BEADS:
                    problems.append(
                        f"page {page_index + 1}: more than {MAX_PAGE_BEADS} article beads (the rest ignored)"
                    )
                    out[page_index].append(Bead(t, index, rect, title))  # marks the report as made
            else:
                out[page_index].append(Bead(t, index, rect, title))
            index += 1
            if key == (0, 0):
                break  # a direct bead cannot be told from its next: read it once
            bead = bead.get("/N")
    return {p: tuple(b[:MAX_PAGE_BEADS]) for p, b in out.items()}, tuple(problems)
