"""The banner on a page that cannot be shown in full: "could not be rendered: …", a page over the
window's glyph budget, a page whose interpretation failed. One line per problem, drawn by the
canvas's message item at the page's top-left corner, above the overlays (which stay drawn)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsTextItem, QStyleOptionGraphicsItem, QWidget

if TYPE_CHECKING:
    from glyphscope.inspector.views.page_facts import PageBundle

BANNER_BACKGROUND = QColor(255, 243, 205, 235)
BANNER_BORDER = QColor("#b26a00")
BANNER_TEXT = QColor("#4e342e")


def banner_text(bundle: PageBundle | None) -> str:
    """What a page's banner says: its render failure and its analysis problems, one per line."""
    if bundle is None:
        return ""
    lines = []
    if bundle.render_error:
        lines.append(f"Page {bundle.page_number} {bundle.render_error}")
    if bundle.error:
        lines.append(str(bundle.error))
    return "\n".join(lines)


class PageBanner(QGraphicsTextItem):
    """The canvas's message item: plain text for transient messages ("Loading page 3…"), a filled,
    outlined banner while `framed` (the page's problems)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("page_banner")
        self.framed = False

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self.framed:
            painter.save()
            painter.setPen(QPen(BANNER_BORDER, 1.0))
            painter.setBrush(QBrush(BANNER_BACKGROUND))
            painter.drawRoundedRect(QRectF(self.boundingRect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
            painter.restore()
        super().paint(painter, option, widget)  # type: ignore[arg-type]  # Qt takes None (offscreen): the stub says QWidget
