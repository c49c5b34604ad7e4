"""The password dialog and the one way errors from user actions reach the user."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox, QWidget

from glyphscope.core.errors import DocumentNotFound, GlyphscopeError, NotAPdf, PasswordRequired, WrongPassword


def ask_password(parent: QWidget | None, name: str, wrong: bool) -> str | None:
    """Ask for the document's password; None when the user cancels. Tests patch this function."""
    prompt = f"{name} is encrypted. Password:"
    if wrong:
        prompt = f"Wrong password for {name}. Try again:"
    text, ok = QInputDialog.getText(parent, "Password required", prompt, QLineEdit.EchoMode.Password)
    return text if ok else None


def error_title(exc: BaseException) -> str:
    if isinstance(exc, NotAPdf):
        return "Not a PDF"
    if isinstance(exc, DocumentNotFound):
        return "File not found"
    if isinstance(exc, (PasswordRequired, WrongPassword)):
        return "Cannot decrypt"
    if isinstance(exc, GlyphscopeError):
        return "Cannot open the document"
    return "Unexpected error"


def error_message(exc: BaseException) -> str:
    """One line a support engineer understands; never a traceback."""
    text = str(exc).strip() or type(exc).__name__
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
    if parent is not None and hasattr(parent, "last_error"):
        parent.last_error = (title, message)  # type: ignore[attr-defined]
    return box
