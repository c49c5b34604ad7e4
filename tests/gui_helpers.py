"""Helpers for driving the real window in pytest-qt tests (the `window` fixture is in conftest)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pikepdf

if TYPE_CHECKING:
    from glyphscope.inspector.gui.main_window import MainWindow

TIMEOUT = 30_000  # ms: generous for a loaded CI machine; waits end as soon as the signal comes


def open_file(qtbot: Any, w: Any, path: Path, page: int | None = None, password: str | None = None) -> None:
    """Open `path` and wait until its (first or given) page is shown with the text of every mode."""
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.open_path(path, password=password, page=page)


def go_to(qtbot: Any, w: Any, page: int) -> None:
    """Show `page` and wait until it, its analysis and the text of every mode are on screen."""
    view = w.session.view
    if view is not None and view.page_number == page and view.facts is not None:
        if w.complete_view is not view:  # shown; its other modes are still being assembled
            with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
                pass
        return
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT, check_params_cb=lambda n: n == page):
        w.session.set_page(page)


def still_at(qtbot: Any, canvas: Any, scene: Any) -> Any:
    """Where the scene point `scene` shows in the canvas once the view has stopped moving: after a
    zoom or a layer toggled on, a scroll bar may come or go a moment later and shift the page."""
    from PySide6.QtTest import QTest

    seen: list[Any] = []

    def still() -> bool:
        QTest.qWait(40)
        seen.append(canvas.mapFromScene(scene))
        return len(seen) >= 3 and seen[-1] == seen[-2] == seen[-3]

    qtbot.waitUntil(still, timeout=TIMEOUT)
    return seen[-1]


SLUGS = ["Job 4711 — Plate K — 2026-12-02", "Slug: demo.pdf p7 K 100% C 100% M 100% Y 100%"]


def in_front(w: MainWindow, name: str) -> bool:
    """Whether the dock's tab is the one shown in its group (a hidden tab has no visible region)."""
    dock = w.panels[name]
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def two_page_pdf(path) -> None:
    pdf = pikepdf.new()
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )
    for text in ("first page", "second page"):
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=[0, 0, 300, 200],
            Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
            Contents=pdf.make_stream(f"BT /F1 12 Tf 20 150 Td ({text}) Tj ET".encode()),
        )
        pdf.pages.append(pikepdf.Page(page))
    pdf.save(path)


def window_at(qtbot, size: tuple[int, int], path, page: int) -> MainWindow:
    """A window of `size` (not the fixture's) showing `page` of `path`."""
    from glyphscope.inspector.gui.main_window import MainWindow, make_settings

    w = MainWindow(settings=make_settings())
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    open_file(qtbot, w, path, page=page)
    return w
