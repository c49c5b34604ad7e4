"""The window's size and place on the screen: the first start fits the screen's available area
(a 1280×800 laptop, a panel or dock of the desktop taken off), later starts come back as the
user left them, kept on a screen that may have become smaller since."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

FRAME = QSize(12, 40)
"""What a window manager usually adds around a window (title bar, borders), before it says so: the
first size leaves room for it (a saved geometry knows its own frame)."""


def first_geometry(available: QRect, wanted: QSize, frame: QSize = FRAME) -> QRect:
    """The window's first geometry: `wanted`, or as much of it as the available area holds with a
    frame around it, centred in that area."""
    width = max(min(wanted.width(), available.width() - frame.width()), 1)
    height = max(min(wanted.height(), available.height() - frame.height()), 1)
    side = frame.width() // 2  # the border on each side; the rest of the frame's height is the title bar
    title = frame.height() - side
    x = available.x() + (available.width() - width - frame.width()) // 2 + side
    y = available.y() + (available.height() - height - frame.height()) // 2 + title
    return QRect(x, y, width, height)


def available_area(window: QWidget) -> QRect:
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 800)


def place_window(window: QWidget, settings: QSettings, wanted: QSize) -> None:
    """The size the user left the window at, else the first size for this screen."""
    saved = settings.value("window/geometry")
    if isinstance(saved, QByteArray) and not saved.isEmpty() and window.restoreGeometry(saved):
        keep_on_screen(window)
        return
    window.setGeometry(first_geometry(available_area(window), wanted))


def keep_on_screen(window: QWidget) -> None:
    """Shrink and move the window so that its frame lies within the available area (a geometry
    saved on a larger screen)."""
    if window.isMaximized() or window.isFullScreen():
        return
    area = available_area(window)
    frame = window.frameGeometry()
    if area.contains(frame):
        return
    extra = QSize(frame.width() - window.width(), frame.height() - window.height())
    window.setGeometry(first_geometry(area, window.size(), extra))
