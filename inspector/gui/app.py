"""Starting the desktop inspector."""

from __future__ import annotations

import sys
from pathlib import Path

from glyphscope import demo_pdf

# How long a thread may hold the interpreter lock while another waits for it (Python's default
# is 5 ms). The GUI thread takes the lock at every Qt virtual call that Python may override
# (paint, event, sizeHint…), hundreds per repaint: behind a worker analysing a page, the default
# made one repaint of the window wait a second (measured: a 1,000 ms stall at 5 ms, ≤ 170 ms at
# 0.5 ms, the worker ~10 % slower).
GUI_SWITCH_INTERVAL = 0.0005


def gui_process() -> None:
    """What the window needs of its process (its entry point calls this, as the benchmarks do)."""
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)


def run_gui(path: str | None = None, page: int | None = None, password: str | None = None) -> int:
    """Show the main window on `path` (the bundled demo when None) and run the event loop."""
    from PySide6.QtWidgets import QApplication

    from glyphscope.inspector.gui.dialogs import SETTINGS_APP, SETTINGS_ORG
    from glyphscope.inspector.gui.main_window import MainWindow

    gui_process()
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setOrganizationName(SETTINGS_ORG)
    app.setApplicationName(SETTINGS_APP)
    app.setApplicationDisplayName("glyphscope")
    window = MainWindow()
    window.show()
    target = Path(path) if path else demo_pdf()
    if path is None and not target.exists():
        window.statusBar().showMessage(f"The demo PDF is missing ({target}); use File › Open.", 15000)
    else:
        window.open_path(target, password=password, page=page)
    return int(app.exec())
