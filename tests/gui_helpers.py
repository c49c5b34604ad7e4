"""Helpers for driving the real window in pytest-qt tests (the `window` fixture is in conftest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
