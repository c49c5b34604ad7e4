"""The window's docks: built from `registry.PANELS`, arranged, sized, saved and restored.

One job: where the panels are. The table says which panels there are, in which area,
tabbed with or split under which other, and how big they start; this module turns it into
docks (`add_panel`), puts each panel in a scroll area of its own (`ColumnScroll`), sizes the
columns from the window's size, and keeps saved layouts only when they were made with the
same set of docks.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable
from typing import Protocol, runtime_checkable

import shiboken6
from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, QTimer, SignalInstance
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDockWidget,
    QMainWindow,
    QMenu,
    QScrollArea,
    QTabBar,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from glyphscope.inspector.gui.panels import DockArea, add_panel, registry
from glyphscope.inspector.gui.workers import WorkerPool
from glyphscope.inspector.views.session import Session

LEFT_COLUMN = "legend"  # the narrow left column (Layers): never narrower than its panel needs
RIGHT_COLUMN = "text"  # the first dock of the right column, which sets its width
LEFT_SHARE, LEFT_MIN, LEFT_MAX = 0.14, 190, 260  # the left column: a share of the window, bounded
RIGHT_SHARE, RIGHT_LESS, RIGHT_MIN, RIGHT_MAX = 0.36, 90, 360, 560  # 371 px at 1280, 486 px at 1600


ROOM_SHARE = 0.72  # a panel brought to the front that does not fit its dock takes this share of its column


MAX_ROOM_SHARE = 0.9  # a panel whose answer needs it may take up to this much of its column


@runtime_checkable
class WantsRoom(Protocol):
    """A panel whose answer (the record of a selection) can be taller than its dock: it says how
    many more pixels it needs (`missing_height`) and asks for them (`wants_room`, a signal)."""

    wants_room: SignalInstance

    def missing_height(self) -> int: ...


@runtime_checkable
class HasShortcuts(Protocol):
    """A panel with keys of its own that the window binds (see `Docks._bind_keys`)."""

    def window_shortcuts(self) -> list[tuple[str, Callable[[], object]]]: ...


ARRANGEMENT = 2
"""The default arrangement of the docks (registry.PANELS): raised when it changes, so a layout
saved from the previous one is not restored over it. 2: Find beside the text, the tools closed."""


class ColumnScroll(QScrollArea):
    """A panel's dock content: scrolls when the panel needs more room than its dock has, so
    that one wide or tall panel never widens a side column or grows the window."""

    MIN_HEIGHT = 40  # a group can shrink to a line or two while another takes room

    def __init__(self, keep_width: bool = False) -> None:
        super().__init__()
        self.keep_width = keep_width  # the legend grows rows as a page loads: the column follows

    def minimumSizeHint(self) -> QSize:  # noqa: N802 -- Qt's name
        widget = self.widget()
        hint = widget.minimumSizeHint() if widget is not None else QSize(0, 0)
        width = 60
        if self.keep_width:  # no sideways bar in the left column
            width = max(width, hint.width() + self.verticalScrollBar().sizeHint().width())
        return QSize(width, min(hint.height(), self.MIN_HEIGHT))

    def sizeHint(self) -> QSize:  # noqa: N802 -- Qt's name
        widget = self.widget()
        return widget.sizeHint() if widget is not None else super().sizeHint()


class PanelFit(QWidget):
    """A panel's holder in its scroll area, which asks for the panel's *minimum* height at a width.
    QScrollArea gives a widget whose layout wraps text (a label with word wrap) its preferred
    height for the width, so such a panel scrolled inside a dock that could hold it, its tables
    squeezed to nothing below the fold; held here, its tables take the room the dock has and
    scroll inside, and the panel scrolls only when even its minimum does not fit."""

    def __init__(self, panel: QWidget) -> None:
        super().__init__()
        self.panel = panel
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(panel)

    def heightForWidth(self, width: int) -> int:  # noqa: N802 -- Qt's name
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth():
            return layout.minimumHeightForWidth(width)
        return super().heightForWidth(width)


class Docks:
    """The docks of one window, by panel name (`docks`) with their panels (`widgets`)."""

    def __init__(self, window: QMainWindow, menu: QMenu, tools_menu: QMenu | None = None) -> None:
        self.window = window
        self.menu = menu  # View › Panels
        self.tools_menu = tools_menu  # the toolbar's Tools: the panels that start closed
        self.docks: dict[str, QDockWidget] = {}
        self.widgets: dict[str, QWidget] = {}
        self.default_state = QByteArray()
        self.restored = False
        self.room: tuple[str, list[float]] | None = None  # the group given room, the column's shares before
        self._fronts: dict[str, str] = {}  # each group of the column: the dock in front, when last settled
        self._tool_groups: list[str] = []  # tools moved to a group of their own (keep_tabs_whole)
        self._settle = QTimer(window)  # once the tab switch is laid out
        self._settle.setSingleShot(True)
        self._settle.setInterval(0)
        self._settle.timeout.connect(self.settle_room)

    def build(self, session: Session, pool: WorkerPool) -> None:
        """Every panel of `registry.PANELS`, in order; each subscribes to the session itself."""
        w = self.window
        specs = registry.PANELS
        for spec in specs:
            widget = spec.build(session, pool)
            self.widgets[spec.name] = widget
            self.docks[spec.name] = add_panel(
                w,
                widget,
                spec.name,
                spec.area,
                title=spec.title,
                tabify_with=self.docks[spec.tab_with] if spec.tab_with else None,
                below=self.docks[spec.below] if spec.below else None,
                menu=self.menu,
            )
        for spec in specs:
            self._scroll(spec.name)
            self._bind_keys(spec.name)
            widget = self.widgets[spec.name]
            if isinstance(widget, WantsRoom):
                widget.wants_room.connect(functools.partial(self._ask_room, spec.name))
            self.docks[spec.name].visibilityChanged.connect(lambda visible: self._settle.start())
        for spec in specs:
            if spec.front:
                self.docks[spec.name].raise_()
            if spec.hidden:
                self.docks[spec.name].hide()
                if self.tools_menu is not None:
                    self.tools_menu.addAction(self.docks[spec.name].toggleViewAction())
                for signal in (
                    self.docks[spec.name].visibilityChanged,
                    self.docks[spec.name].toggleViewAction().toggled,
                ):
                    signal.connect(functools.partial(self._tool_shown, spec.name))
        # The window's minimum size was taken while panels were unwrapped: take it again.
        layout = w.layout()
        if layout is not None:
            layout.invalidate()
            layout.activate()
        self.apply_sizes()
        self.tidy_tab_bars()

    def _bind_keys(self, name: str) -> None:
        """A panel's keys (its `window_shortcuts()`), on the window: a key opens and raises the
        panel, then acts, whether the panel was closed, behind a tab or never shown."""
        widget = self.widgets[name]
        bindings = widget.window_shortcuts() if isinstance(widget, HasShortcuts) else []
        for key, action in bindings:
            shortcut = QShortcut(QKeySequence(key), self.window)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(functools.partial(self._key, name, action))

    def _key(self, name: str, action: Callable[[], object]) -> None:
        self.reveal(name)
        action()

    def _scroll(self, name: str) -> None:
        """Every panel sits in a scroll area of its dock: one that grows wider than its side
        column (a long unwrapped label) scrolls there instead of widening the column, and
        with it every panel of that side, at the canvas's expense. Panels that wrap their
        text never show a scroll bar."""
        scroll = ColumnScroll(keep_width=name == LEFT_COLUMN)
        scroll.setObjectName(f"scroll.{name}")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(PanelFit(self.widgets[name]))
        self.docks[name].setWidget(scroll)

    def apply_sizes(self, widths: bool = True) -> None:
        """The heights (and `widths`) the table declares (a height below 1 is a share of the window's)."""
        height = max(self.window.height(), 500)
        columns = [(s.name, s.width) for s in registry.PANELS if widths and s.width and s.name in self.docks]
        heights = [
            (s.name, int(s.height * height if s.height < 1 else s.height))
            for s in registry.PANELS
            if s.height and s.name in self.docks
        ]
        area = {s.name: s.area for s in registry.PANELS}
        rows = [
            [(n, h) for n, h in heights if area[n] == side] for side in sorted({area[n] for n, _ in heights})
        ]
        for orientation, sizes in (
            (Qt.Orientation.Horizontal, columns),
            *((Qt.Orientation.Vertical, r) for r in rows),
        ):
            if sizes:  # one call per area: Qt shares a vertical resize among the docks of one area
                self.window.resizeDocks(
                    [self.docks[n] for n, _ in sizes], [size for _, size in sizes], orientation
                )

    def column(self) -> list[str]:
        """The groups of the side column whose heights the table declares, top to bottom."""
        return [
            s.name for s in registry.PANELS if s.height and s.area == DockArea.RIGHT and s.name in self.docks
        ]

    def front(self, anchor: str) -> str | None:
        """The dock shown in front in group `anchor` (None when none is on screen)."""
        group = [self.docks[anchor], *self.window.tabifiedDockWidgets(self.docks[anchor])]
        names = {id(d): n for n, d in self.docks.items()}
        shown = [d for d in group if d.isVisible() and not d.visibleRegion().isEmpty()]
        return names.get(id(shown[0])) if shown else None

    def _short(self, name: str, anchor: str, as_now: bool = False) -> bool:
        """Whether panel `name` needs more height than its group has with no group given room (or
        `as_now`): its minimum for its width (PanelFit) is taller than its dock's scroll area."""
        scroll = self.docks[name].widget()
        if not isinstance(scroll, QScrollArea) or (fit := scroll.widget()) is None:
            return False
        width = scroll.viewport().width()
        need = fit.heightForWidth(width) if fit.hasHeightForWidth() else fit.minimumSizeHint().height()
        have = scroll.viewport().height()
        widget = self.widgets.get(name)
        missing = widget.missing_height() if isinstance(widget, WantsRoom) else 0
        if missing > 0:  # its answer scrolls inside it (a text browser): the height it needs
            need = max(need, have + missing)
        if self.room is not None and not as_now:  # as it would be with no group given room
            column = self.column()
            total = sum(self.group_height(n) for n in column)
            have -= self.group_height(anchor) - int(total * self.room[1][column.index(anchor)])
        return need > have + 1

    def settle_room(self) -> None:
        """Room follows the user's eye: a panel brought to the front of its group (a tab click, a
        key, a link) whose minimum does not fit its dock gets ROOM_SHARE of the column, the other
        groups sharing the rest, so nothing of it hides below a scroll bar; the column is given
        back (as the shares it had, so a window resized meanwhile keeps its proportions) when
        another panel that fits comes to the front of that group. One group has room at a time:
        the one shown last."""
        if not shiboken6.isValid(self.window) or not self.window.isVisible():
            return
        self.hide_stray_tab_bars()  # a dock shown or hidden: the layout is new
        column = self.column()
        if any(self.docks[a].isFloating() or self.docks[a].isHidden() for a in column):
            self.room, self._fronts = None, {}  # the user rearranged the column: theirs to size
            return
        fronts = {a: f for a in column if (f := self.front(a)) is not None}
        changed = [a for a, f in fronts.items() if self._fronts.get(a) != f]
        first = not self._fronts
        self._fronts = fronts
        if first or len(column) < 2:
            return  # the window just shown: its panels as built
        owner = self.room[0] if self.room is not None else None
        want = next((a for a in changed if self._short(fronts[a], a)), None)
        if want is None and owner is not None and owner not in changed:
            # Another group's tab changed to a panel that fits it as laid out: the room stays,
            # unless that panel does not fit the little the room left it (the column goes back).
            squeezed = any(self._short(fronts[a], a, as_now=True) for a in changed)
            want = None if squeezed else owner
        if want == owner:
            return
        if self.room is not None:
            self._resize_column(self.room[1])
            self.room = None
        if want is not None:
            heights = [self.group_height(n) for n in column]
            total = sum(heights)
            self.room = (want, [h / total for h in heights])
            self._resize_column(self._room_shares(column, want, fronts[want]))

    def _room_shares(self, column: list[str], anchor: str, name: str) -> list[float]:
        """The column's shares with group `anchor` given room for panel `name`: what its answer needs
        (WantsRoom), else ROOM_SHARE; at most MAX_ROOM_SHARE and the other groups' minimum."""
        heights = [self.group_height(n) for n in column]
        total = max(sum(heights), 1)
        widget = self.widgets.get(name)
        share = ROOM_SHARE
        missing = widget.missing_height() if isinstance(widget, WantsRoom) else 0
        if missing > 0:  # what its answer needs, and no more: the other groups keep the rest
            share = (self.group_height(anchor) + missing + 4) / total
        others = [n for n in column if n != anchor]
        floor = sum(self.docks[self.front(n) or n].minimumSizeHint().height() for n in others)
        share = min(share, MAX_ROOM_SHARE, max(1 - floor / total, ROOM_SHARE))
        rest = (1 - share) / max(len(others), 1)
        return [share if n == anchor else rest for n in column]

    def _anchor_of(self, name: str) -> str | None:
        """The group of the column that holds panel `name` (None: elsewhere, floating)."""
        dock = self.docks[name]
        for anchor in self.column():
            if dock is self.docks[anchor] or dock in self.window.tabifiedDockWidgets(self.docks[anchor]):
                return anchor
        return None

    def _ask_room(self, name: str) -> None:
        """A panel's answer changed (a selection shown): room once it is laid out."""
        QTimer.singleShot(0, lambda: self.make_room(name) if shiboken6.isValid(self.window) else None)

    def make_room(self, name: str, force: bool = False) -> None:
        """Give the group of panel `name`, in front, the room its answer needs (`force`: at least
        ROOM_SHARE, for a click on the tab already in front). The column's shares before are kept
        to give back, as for a tab brought to the front (settle_room)."""
        if not self.window.isVisible():
            return
        anchor = self._anchor_of(name)
        column = self.column()
        if anchor is None or len(column) < 2 or self.front(anchor) != name:
            return
        if any(self.docks[a].isFloating() or self.docks[a].isHidden() for a in column):
            return
        if not force and not self._short(name, anchor, as_now=True):
            return
        shares = self._room_shares(column, anchor, name)
        if self.room is None:
            heights = [self.group_height(n) for n in column]
            self.room = (anchor, [h / max(sum(heights), 1) for h in heights])
        else:
            self.room = (anchor, self.room[1])
        self._fronts = {a: f for a in column if (f := self.front(a)) is not None}
        self._resize_column(shares)

    def _tool_shown(self, name: str, visible: bool) -> None:
        if visible:
            QTimer.singleShot(
                0, lambda: self.keep_tabs_whole(name) if shiboken6.isValid(self.window) else None
            )

    def _bar_of(self, dock: QDockWidget) -> QTabBar | None:
        """The window's tab bar that holds `dock`'s tab (None: the dock is alone in its place)."""
        title = dock.windowTitle()
        for bar in self.window.findChildren(QTabBar):
            shown = bar.parent() is self.window and bar.isVisible() and bar.count() > 1
            if shown and any(bar.tabText(i) == title for i in range(bar.count())):
                return bar
        return None

    @staticmethod
    def _tabs_width(bar: QTabBar, extra_title: str = "") -> int:
        width = sum(bar.tabRect(i).width() for i in range(bar.count()))
        if extra_title:  # a tab to come: its title and the padding the others have
            pad = max(
                (
                    bar.tabRect(i).width() - bar.fontMetrics().horizontalAdvance(bar.tabText(i))
                    for i in range(bar.count())
                ),
                default=24,
            )
            width += bar.fontMetrics().horizontalAdvance(extra_title) + pad
        return width

    def keep_tabs_whole(self, name: str) -> None:
        """A tool opened into a group whose tab bar cannot show every title (scroll arrows) moves to
        a group of tools of its own at the foot of its column, or into one that has room for its tab:
        every tab bar keeps showing whole titles."""
        dock = self.docks[name]
        if dock.isFloating() or dock.isHidden():
            return
        bar = self._bar_of(dock)
        if bar is None or self._tabs_width(bar) <= bar.width():
            return
        area = self.window.dockWidgetArea(dock)
        for other in self._tool_groups:
            host = self.docks[other]
            if (
                other == name
                or host.isHidden()
                or host.isFloating()
                or self.window.dockWidgetArea(host) != area
            ):
                continue
            host_bar = self._bar_of(host)
            if host_bar is None or self._tabs_width(host_bar, dock.windowTitle()) <= host_bar.width():
                self.window.tabifyDockWidget(host, dock)
                dock.show()
                dock.raise_()
                return
        self.window.addDockWidget(area, dock, Qt.Orientation.Vertical)  # a new group at the foot
        dock.show()
        dock.raise_()
        if name not in self._tool_groups:
            self._tool_groups.append(name)

    def _tab_clicked(self, bar: QTabBar, index: int) -> None:
        """A click on the tab already in front gives its panel the room (one on another tab brings
        it to the front, and settle_room sees to its room)."""
        if index != bar.currentIndex():
            return
        title = bar.tabText(index)
        name = next((n for n, d in self.docks.items() if d.windowTitle() == title), None)
        if name is not None:
            self.make_room(name, force=True)

    def _resize_column(self, shares: list[float]) -> None:
        """The column's groups at these shares of its height, in whole pixels that add up to it
        (rounding each down would lose a pixel or two per room given and taken back)."""
        column = self.column()
        docks = [self.docks[self.front(n) or n] for n in column]  # a group is resized by its tab in front
        total = sum(d.height() for d in docks)
        edges = [round(total * sum(shares[: i + 1]) / sum(shares)) for i in range(len(shares))]
        sizes = [b - a for a, b in zip([0, *edges[:-1]], edges, strict=True)]
        asked = list(sizes)
        for _ in range(3):  # Qt fits the sizes asked to the room it has, give or take a few pixels
            self.window.resizeDocks(docks, asked, Qt.Orientation.Vertical)
            layout = self.window.layout()
            if layout is not None:
                layout.activate()
            errors = [want - d.height() for want, d in zip(sizes, docks, strict=True)]
            if all(abs(e) <= 1 for e in errors):
                break
            asked = [a + e for a, e in zip(asked, errors, strict=True)]

    def group_height(self, anchor: str) -> int:
        """The height of group `anchor`: of whichever of its docks is in front."""
        return self.docks[self.front(anchor) or anchor].height()

    def stray_tab_bars(self) -> list[QTabBar]:
        """The window's tab bars on screen that no dock group uses: Qt (6.11) leaves one behind each
        time `tabifyDockWidget` makes a group while another exists, with the tabs the group had then
        and the place it had in the layout of the moment; it stays shown over whatever lies there
        later (an empty-looking bar at the canvas's foot once Compare opens below it). A bar in use
        sits right under (or over) the dock in front of its group, at the dock's left edge; an
        empty one is in no use."""
        docks = [d for d in self.docks.values() if d.isVisible() and not d.isFloating()]
        stray = []
        for bar in self.window.findChildren(QTabBar):
            if bar.parent() is not self.window or not bar.isVisible():
                continue
            titles = {bar.tabText(i) for i in range(bar.count())}
            r = bar.geometry()
            used = any(
                d.windowTitle() in titles
                and abs(d.x() - r.x()) <= 2
                and (abs(d.geometry().bottom() + 1 - r.top()) <= 3 or abs(r.bottom() + 1 - d.y()) <= 3)
                for d in docks
            )
            if not used:
                stray.append(bar)
        return stray

    def hide_stray_tab_bars(self) -> None:
        """Hide `stray_tab_bars` (Qt holds no reference to them: it never shows them again); only
        once the window is laid out, when a bar's place tells whether it is in use."""
        if shiboken6.isValid(self.window) and self.window.isVisible():
            for bar in self.stray_tab_bars():
                bar.hide()

    def tidy_tab_bars(self) -> None:
        """Dock tabs show their whole title (scroll arrows when there is no room), never "Text: …"."""
        for bar in self.window.findChildren(QTabBar):
            if bar.parent() is self.window:
                bar.setElideMode(Qt.TextElideMode.ElideNone)
                bar.setUsesScrollButtons(True)
                if not bar.property("room_on_click"):
                    bar.setProperty("room_on_click", True)
                    bar.tabBarClicked.connect(functools.partial(self._tab_clicked, bar))

    def _min_width(self, name: str) -> int:
        widget = self.widgets.get(name)
        return widget.minimumSizeHint().width() if widget is not None else 0

    def default_sizes(self) -> None:
        """Side columns sized from the window so the canvas keeps most of it (1280×800 and up)."""
        width = max(self.window.width(), 800)
        left = int(min(max(width * LEFT_SHARE, LEFT_MIN, self._min_width(LEFT_COLUMN) + 2), LEFT_MAX))
        right = int(min(max(width * RIGHT_SHARE - RIGHT_LESS, RIGHT_MIN), RIGHT_MAX))
        columns = [
            (self.docks[n], w) for n, w in ((LEFT_COLUMN, left), (RIGHT_COLUMN, right)) if n in self.docks
        ]
        self.window.resizeDocks([d for d, _ in columns], [w for _, w in columns], Qt.Orientation.Horizontal)
        self.apply_sizes(widths=False)

    def reveal(self, name: str) -> None:
        """Show a dock and bring its tab to the front."""
        dock = self.docks.get(name)
        if dock is not None:
            dock.show()
            dock.raise_()

    # -- saved layouts ----------------------------------------------------------------------------
    def layout_version(self) -> int:
        """Changes whenever the set of docks and toolbars changes, so stale layouts are not restored."""
        w = self.window
        widgets = [*w.findChildren(QDockWidget), *w.findChildren(QToolBar)]
        names = sorted(x.objectName() for x in widgets)
        # and whenever the default arrangement changes (a saved one would bring the old one back)
        names.append(f"arrangement {ARRANGEMENT}")
        return zlib.crc32("\n".join(names).encode()) & 0x7FFFFFFF

    def restore(self, settings: QSettings) -> None:
        # The layout as built: what "Reset window layout" returns to, and the fallback when a
        # saved state comes from a version with other panels (restoreState then refuses it).
        self.default_state = self.window.saveState(self.layout_version())
        state = settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restored = self.window.restoreState(state, self.layout_version())

    def save(self, settings: QSettings) -> None:
        """The layout as the user made it: a group's room (settle_room) is given back first, so
        the next start does not open with one panel's room and no panel in need of it."""
        if self.room is not None:
            self._resize_column(self.room[1])
            self.room = None
            self._fronts = {}  # the next tab change starts afresh
        settings.setValue("window/state", self.window.saveState(self.layout_version()))

    def reset(self) -> None:
        self.room = None
        self._fronts = {}
        self.window.restoreState(self.default_state, self.layout_version())
        self.default_sizes()
        self.tidy_tab_bars()
