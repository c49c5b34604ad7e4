"""The desktop entry and icon shipped with the package, and `python -m glyphscope.desktop`."""

from __future__ import annotations

import configparser
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_desktop_entry_is_valid_and_starts_the_gui_script() -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(REPO / "assets" / "glyphscope.desktop", encoding="utf-8")
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application" and entry["Name"] == "glyphscope"
    assert entry["Exec"] == "glyphscope-gui %f" and entry["Icon"] == "glyphscope"
    assert entry["Terminal"] == "false" and "application/pdf;" in entry["MimeType"]
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["gui-scripts"] == {"glyphscope-gui": "glyphscope.__main__:main"}


def test_the_icon_is_a_square_svg() -> None:
    root = ET.parse(REPO / "assets" / "glyphscope.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == "0 0 128 128" and root.get("width") == root.get("height") == "128"


def test_install_and_remove_into_xdg_data_home(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope.desktop"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    entry = tmp_path / "applications" / "glyphscope.desktop"
    icon = tmp_path / "icons" / "hicolor" / "scalable" / "apps" / "glyphscope.svg"
    assert proc.stdout.splitlines() == [f"desktop entry written to {entry}", f"icon written to {icon}"]
    script = Path(sys.executable).parent / "glyphscope-gui"
    expected = str(script) if script.exists() else "glyphscope-gui"
    assert f"Exec={expected} %f" in entry.read_text("utf-8").splitlines()
    assert icon.read_bytes() == (REPO / "assets" / "glyphscope.svg").read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope.desktop", "--remove"], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0 and not entry.exists() and not icon.exists()


def test_an_unwritable_target_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    env = dict(os.environ, XDG_DATA_HOME=str(blocker), PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope.desktop"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("glyphscope: cannot install the desktop entry:")


def test_without_the_gui_extra_no_entry_is_installed(tmp_path: Path) -> None:
    """A menu entry that starts nothing is refused: PySide6 hidden by a module that is None."""
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text("import sys\nsys.modules['PySide6'] = None\n")
    data = tmp_path / "data"
    env = dict(os.environ, XDG_DATA_HOME=str(data), PYTHONPATH=os.pathsep.join([str(hide), str(REPO)]))
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope.desktop"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == (
        "glyphscope: the window needs the gui extra (PySide6), which is not installed: "
        "pip install 'glyphscope[gui]'; no menu entry was installed"
    )
    assert not (data / "applications" / "glyphscope.desktop").exists()
