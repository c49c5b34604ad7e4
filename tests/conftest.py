"""Shared test setup: Qt runs offscreen, settings go to a temporary folder, corpus files are optional."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests.corpus import CORPUS, REPO, require

DEMO = REPO / "assets" / "demo.pdf"


def corpus_file(name: str) -> Path:
    """A file of the shared corpus, or skip the test saying which one is missing."""
    path = require() / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not available under {CORPUS}")
    return path


@pytest.fixture(scope="session")
def demo_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled demo PDF; built into a temporary folder from assets/make_demo.py when absent."""
    if DEMO.exists():
        return DEMO
    script = REPO / "assets" / "make_demo.py"
    if not script.exists():
        pytest.skip("assets/demo.pdf and assets/make_demo.py are both missing")
    out = tmp_path_factory.mktemp("demo") / "demo.pdf"
    subprocess.run([sys.executable, str(script), str(out)], check=True, capture_output=True)
    return out


@pytest.fixture(autouse=True)
def _isolated_qsettings(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """QSettings of GUI tests live in tmp_path, never in the user's real configuration."""
    if "PySide6.QtCore" not in sys.modules and not request.node.path.name.startswith("test_gui"):
        return
    from PySide6.QtCore import QSettings

    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
        QSettings.setPath(fmt, QSettings.Scope.SystemScope, str(tmp_path / "settings-system"))


@pytest.fixture
def window(qtbot: Any) -> Any:
    """The real main window, shown offscreen, with settings in a temporary folder."""
    from glyphscope.inspector.gui.main_window import MainWindow, make_settings

    w = MainWindow(settings=make_settings())
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    yield w
    from PySide6.QtCore import Qt

    # Qt remembers the last keyboard modifiers it saw for the whole application: a test that
    # ended with Shift or Ctrl "held" would turn the next test's selections into extensions.
    for key in (Qt.Key.Key_Shift, Qt.Key.Key_Control):
        qtbot.keyRelease(w, key)
    w.close()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The random order's seed, even under -q: a failure that needs another test's leftovers can then
    be replayed with `--randomly-seed=N`."""
    seed = getattr(config.option, "randomly_seed", None)
    if seed is not None and config.pluginmanager.hasplugin("randomly"):
        terminalreporter.write_line(f"tests ran in a random order: replay it with --randomly-seed={seed}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A wait that timed out (pytest-qt's waitSignal / waitUntil) reports where every thread of
    the test process stood and which child processes were alive at that moment: a job that
    never finished then says where it was, on whichever machine and run it happened."""
    outcome = yield
    report = outcome.get_result()
    excinfo = call.excinfo
    if excinfo is None or type(excinfo.value).__name__ not in {"TimeoutError", "SignalEmittedError"}:
        return
    report.sections.append(("threads when the wait timed out", _thread_stacks()))


def _thread_stacks() -> str:
    import threading
    import traceback

    names = {t.ident: f"{t.name}{' (daemon)' if t.daemon else ''}" for t in threading.enumerate()}
    parts = []
    for ident, frame in sys._current_frames().items():
        stack = "".join(traceback.format_stack(frame, limit=25))
        parts.append(f"--- thread {names.get(ident, ident)}\n{stack}")
    try:
        children = subprocess.run(
            ["ps", "-o", "pid,stat,etime,args", "--ppid", str(os.getpid())],
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        children = f"(ps failed: {exc})"
    return "\n".join(parts) + f"\n--- child processes\n{children}"
