"""The password dialog, the save dialog and its settings, and the one way errors from user actions reach the user."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox, QWidget

from glyphscope.core.errors import DocumentNotFound, GlyphscopeError, NotAPdf, PasswordRequired, WrongPassword


def ask_password(parent: QWidget | None, name: str, wrong: bool) -> str | None:
    """Ask for the document's password; None when the user cancels. Tests patch this function."""
    prompt = f"{name} is encrypted. Password:"
    if wrong:
        prompt = f"Wrong password for {name}. Try again:"
    text, ok = QInputDialog.getText(parent, "Password required", prompt, QLineEdit.EchoMode.Password)
    return text if ok else None


def has_pdf_header(path: str | Path | None) -> bool:
    """Whether the file starts like a PDF (%PDF- within its first KiB, as readers accept it)."""
    if path is None:
        return False
    try:
        with open(path, "rb") as f:
            return b"%PDF-" in f.read(1024)
    except OSError:
        return False


def error_title(exc: BaseException, path: str | Path | None = None) -> str:
    if isinstance(exc, NotAPdf):
        # A file with a PDF header that cannot be read is a damaged (often truncated) PDF.
        return "Damaged PDF" if has_pdf_header(path) else "Not a PDF"
    if isinstance(exc, DocumentNotFound):
        return "File not found"
    if isinstance(exc, (PasswordRequired, WrongPassword)):
        return "Cannot decrypt"
    if isinstance(exc, GlyphscopeError):
        return "Cannot open the document"
    return "Unexpected error"


def error_message(exc: BaseException, path: str | Path | None = None) -> str:
    """One line a support engineer understands; never a traceback, and the path only once."""
    text = str(exc).strip() or type(exc).__name__
    if path is not None:
        full = str(path)
        first = text.find(full)
        if first >= 0:  # qpdf repeats the path in its own message: "PATH is …: PATH: reason"
            head, tail = text[: first + len(full)], text[first + len(full) :]
            text = head + tail.replace(f"{full}: ", "").replace(full, "the file")
    if isinstance(exc, GlyphscopeError):
        return text
    return f"{type(exc).__name__}: {text}"


def show_error(parent: QWidget | None, title: str, message: str, details: str | None = None) -> QMessageBox:
    """Every error from a user action goes through here: a window-modal box that never blocks the event loop."""
    box = QMessageBox(parent)
    box.setObjectName("error_box")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setText(message)
    if details:
        box.setDetailedText(details)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.open()
    if isinstance(parent, KeepsLastError):
        parent.last_error = (title, message)
    return box


@runtime_checkable
class KeepsLastError(Protocol):
    """A window that keeps the last error it showed (MainWindow; the tests read it)."""

    last_error: tuple[str, str] | None


SETTINGS_ORG, SETTINGS_APP = "glyphscope", "inspector"


def make_settings() -> QSettings:
    """Ini settings in the user scope (tests redirect that scope to a temporary folder)."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, SETTINGS_ORG, SETTINGS_APP)


LAST_SAVE_FOLDER = "export/last_folder"
"""The QSettings key of the folder the last file was saved to (by any save dialog of the window)."""


def default_save_dir(last: str | Path | None = None) -> Path:
    """Where a save dialog starts: the folder used last, else Documents, else home, else the temporary
    folder — the first that exists and may be written. Never the inspected PDF's folder: a customer's
    share or a mail attachment folder is no place for our exports."""
    candidates: list[Path] = []
    if last:
        candidates.append(Path(last))
    home = Path.home()
    candidates += [home / "Documents", home, Path(tempfile.gettempdir())]
    for folder in candidates:
        if folder.is_dir() and os.access(folder, os.W_OK | os.X_OK):
            return folder
    return Path.cwd()


def ask_save_path(
    parent: QWidget | None, settings: QSettings, title: str, suggestion: str, filters: str
) -> str | None:
    """The save dialog every export uses: it starts in `default_save_dir` of the folder remembered in
    `settings`, and remembers the folder of the file chosen."""
    last = settings.value(LAST_SAVE_FOLDER, "")
    start = default_save_dir(str(last) if last else None) / suggestion
    name, _ = QFileDialog.getSaveFileName(parent, title, str(start), filters)
    if not name:
        return None
    settings.setValue(LAST_SAVE_FOLDER, str(Path(name).resolve().parent))
    return name
