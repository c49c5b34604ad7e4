"""The first start fits the screen; later starts come back at the user's size, kept on screen."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QScrollArea

from glyphscope.inspector.gui import screen_fit
from glyphscope.inspector.gui.main_window import DEFAULT_SIZE, MainWindow, make_settings
from glyphscope.inspector.gui.screen_fit import FRAME, first_geometry


def test_the_first_geometry_fits_the_available_area_with_its_frame() -> None:
    laptop = QRect(0, 27, 1280, 773)  # 1280×800 with a 27 px desktop bar at the top
    g = first_geometry(laptop, QSize(*DEFAULT_SIZE))
    assert (g.width(), g.height()) == (1280 - FRAME.width(), 773 - FRAME.height())
    frame = g.adjusted(
        -FRAME.width() // 2, -(FRAME.height() - FRAME.width() // 2), FRAME.width() // 2, FRAME.width() // 2
    )
    assert laptop.contains(frame) and frame.top() == 27 and frame.left() == 0
    big = QRect(0, 0, 2560, 1440)  # room to spare: the size wanted, centred
    g = first_geometry(big, QSize(*DEFAULT_SIZE))
    assert (g.width(), g.height()) == DEFAULT_SIZE
    assert abs(g.center().x() - big.center().x()) <= FRAME.width()


def test_the_window_opens_within_the_screen_and_every_dock_within_the_window(
    qtbot: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(screen_fit, "available_area", lambda window: QRect(0, 0, 1280, 800))
    w = MainWindow(settings=make_settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert QRect(0, 0, 1280, 800).contains(w.geometry())
    assert (w.width(), w.height()) == (1280 - FRAME.width(), 800 - FRAME.height())
    inside = w.rect()
    for name, dock in w.panels.items():
        if not dock.isVisible() or dock.visibleRegion().isEmpty():
            continue
        rect = QRect(dock.mapTo(w, dock.rect().topLeft()), dock.size())
        assert inside.contains(rect), (name, rect, inside)
        scroll = dock.widget()
        assert isinstance(scroll, QScrollArea)
        assert scroll.horizontalScrollBar().maximum() == 0, name  # no content pushed off sideways
    bar = w.statusBar()
    assert bar.isVisible() and inside.contains(QRect(bar.mapTo(w, bar.rect().topLeft()), bar.size()))
    # the user's size is what the next start opens at
    w.resize(760, 600)  # the test screen is 800 px wide
    w.save_settings()
    w.close()
    again = MainWindow(settings=make_settings())
    qtbot.addWidget(again)
    assert (again.width(), again.height()) == (760, 600)
