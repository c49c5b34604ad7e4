"""Starting the desktop inspector."""

from __future__ import annotations

import sys
from pathlib import Path

from glyphscope import demo_pdf


def run_gui(path: str | None = None, page: int | None = None, password: str | None = None) -> int:
    """Show the main window on `path` (the bundled demo when None) and run the event loop."""
    from PySide6.QtWidgets import QApplication

    from glyphscope.inspector.gui.main_window import SETTINGS_APP, SETTINGS_ORG, MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
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
