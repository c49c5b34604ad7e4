"""Helpers for driving the real window in pytest-qt tests (the `window` fixture is in conftest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

TIMEOUT = 30_000  # ms: generous for a loaded CI machine; waits end as soon as the signal comes


def open_file(qtbot: Any, w: Any, path: Path, page: int | None = None, password: str | None = None) -> None:
    """Open `path` and wait until its (first or given) page is shown."""
    with qtbot.waitSignal(w.page_shown, timeout=TIMEOUT):
        w.open_path(path, password=password, page=page)


def go_to(qtbot: Any, w: Any, page: int) -> None:
    """Show `page` and wait until it and its analysis are on screen."""
    if w.bundle is not None and w.bundle.page_number == page and w.bundle.facts is not None:
        return
    with qtbot.waitSignal(w.page_shown, timeout=TIMEOUT, check_params_cb=lambda n: n == page):
        w.session.set_page(page)
