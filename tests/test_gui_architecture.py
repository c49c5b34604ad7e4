"""The window's shape (issue 28): panels share one base, never import each other, and the
window is wiring only; the gui package is under mypy but for the modules being rewritten."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

from glyphscope.inspector.gui.panels import registry
from glyphscope.inspector.gui.panels.base import PagePanel

REPO = Path(__file__).resolve().parents[1]
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
    source = (GUI / "main_window.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 360
    tree = ast.parse(source)
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not calls & {"getattr", "setattr", "hasattr"}
    for module in ("panels/__init__.py", "docks.py", "controller.py", "actions.py", "panels/base.py"):
        tree = ast.parse((GUI / module).read_text(encoding="utf-8"))
        names = {
            n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert not names & {"getattr", "setattr", "hasattr"}, module


def test_the_controller_needs_no_window() -> None:
    tree = ast.parse((GUI / "controller.py").read_text(encoding="utf-8"))
    imported = {alias.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for alias in n.names}
    assert not imported & {"QMainWindow", "QWidget", "QDockWidget", "MainWindow"}


def test_gui_is_under_mypy_with_no_exemption() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    overrides = config["tool"]["mypy"].get("overrides", [])
    assert [o["module"] for o in overrides if o.get("ignore_errors")] == []
