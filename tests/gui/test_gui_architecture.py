"""The window's shape: panels share one base, never import each other, and the window is
wiring only — every panel of the registry, every action of the table and every layer reaches
the window as the tables say (a wiring test, not a line count); the gui package is under mypy."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

from glyphscope.inspector.gui.panels import registry
from glyphscope.inspector.gui.panels.base import PagePanel

REPO = Path(__file__).resolve().parents[2]
GUI = REPO / "inspector" / "gui"
# Panels that are not about the current page: the whole document (its text, its objects), the
# page list and the layers' legend.
NOT_PAGE_PANELS = {"document_text", "pages", "legend", "objects"}


def test_every_page_panel_derives_from_the_one_base_class() -> None:
    page_panels = [spec for spec in registry.PANELS if spec.name not in NOT_PAGE_PANELS]
    assert len(page_panels) == 13
    assert [s.name for s in page_panels if not issubclass(s.factory, PagePanel)] == []


def test_no_panel_imports_another_panel() -> None:
    panel_modules = {sys.modules[spec.factory.__module__].__name__ for spec in registry.PANELS}
    panel_modules &= {f"glyphscope.inspector.gui.panels.{p.stem}" for p in (GUI / "panels").glob("*.py")}
    assert len(panel_modules) == 16  # every panel of the registry but the legend (gui/legend.py)
    found = []
    for name in sorted(panel_modules):
        path = GUI / "panels" / f"{name.rsplit('.', 1)[1]}.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in panel_modules - {name}:
                found.append((name, node.module))
    assert found == []


def test_the_window_is_wired_not_written_by_hand() -> None:
    """No reflection in the window and its wiring modules: what it has is what the tables say."""
    for module in (
        "main_window.py",
        "panels/__init__.py",
        "docks.py",
        "controller.py",
        "actions.py",
        "panels/base.py",
    ):
        tree = ast.parse((GUI / module).read_text(encoding="utf-8"))
        names = {
            n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert not names & {"getattr", "setattr", "hasattr"}, module


def test_every_panel_action_and_layer_of_the_tables_is_wired_into_the_window(window) -> None:
    from PySide6.QtGui import QAction, QKeySequence
    from PySide6.QtWidgets import QDockWidget

    from glyphscope.inspector.gui.actions import ACTIONS, MENUS
    from glyphscope.inspector.layers.registry import LAYER_BY_KEY, LAYER_KEYS

    w = window
    # The panels: one dock each, in the registry's order, holding the panel the spec builds, which
    # the window's attribute of the same spec returns (typed), listed in View › Panels.
    docks = [d for d in w.findChildren(QDockWidget) if d.objectName().startswith("dock.")]
    assert sorted(d.objectName() for d in docks) == sorted(f"dock.{s.name}" for s in registry.PANELS)
    assert list(w.panels) == [s.name for s in registry.PANELS]
    for attribute, spec in vars(registry.WindowPanels).items():
        if not isinstance(spec, registry.PanelSpec):
            continue
        panel = getattr(w, attribute)
        assert isinstance(panel, spec.factory) and w.panel_widgets[spec.name] is panel
        assert w.panels[spec.name].isAncestorOf(panel), spec.name  # in its dock (maybe in a scroll area)
        assert w.panels[spec.name].windowTitle() == spec.title
    assert [a.text() for a in w.panels_menu.actions()] == [s.title for s in registry.PANELS]

    # The actions: one QAction per row, with the row's keys, in its menu in the table's order.
    actions = {a.objectName(): a for a in w.findChildren(QAction) if a.objectName()}
    for spec in ACTIONS:
        action = actions[spec.name]
        assert action.text() == spec.text
        keys = spec.keys if isinstance(spec.keys, list) else [spec.keys] if spec.keys is not None else []
        wanted = [QKeySequence(k) for k in keys]
        assert action.shortcuts() == [k for k in wanted if not k.isEmpty()], spec.name  # Quit has none here
    menus = {a.text(): a.menu() for a in w.menuBar().actions()}
    assert list(menus) == list(MENUS)
    for title in MENUS:
        in_menu = [a.objectName() for a in menus[title].actions() if a.objectName() in actions]
        table = [s.name for s in ACTIONS if s.menu == title]
        assert [name for name in in_menu if name in table] == table, title

    # An action runs its row's slot: Zoom in zooms the canvas by the row's factor.
    before = w.canvas.zoom
    actions["zoom_in"].trigger()
    assert w.canvas.zoom == before * 1.25

    # The layers: one checkable View › Layers entry per registry row, in its order and words.
    (layers_menu,) = (a.menu() for a in menus["&View"].actions() if a.text() == "&Layers")
    entries = [a for a in layers_menu.actions() if a.isCheckable()]
    assert [a.text() for a in entries] == [LAYER_BY_KEY[k].label for k in LAYER_KEYS]
    assert [a.isChecked() for a in entries] == [w.session.layers[k] for k in LAYER_KEYS]


def test_the_controller_needs_no_window() -> None:
    tree = ast.parse((GUI / "controller.py").read_text(encoding="utf-8"))
    imported = {alias.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for alias in n.names}
    assert not imported & {"QMainWindow", "QWidget", "QDockWidget", "MainWindow"}


def test_gui_is_under_mypy_with_no_exemption() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    overrides = config["tool"]["mypy"].get("overrides", [])
    assert [o["module"] for o in overrides if o.get("ignore_errors")] == []
