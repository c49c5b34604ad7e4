"""Put glyphscope in the desktop's application menu (Linux, freedesktop.org):

    python -m glyphscope.desktop            # install for this user
    python -m glyphscope.desktop --remove   # take it out again

Copies the package's `glyphscope.desktop` into $XDG_DATA_HOME/applications and its icon
into $XDG_DATA_HOME/icons/hicolor/scalable/apps ($XDG_DATA_HOME: ~/.local/share). The
entry starts `glyphscope-gui` (the gui-scripts entry point) by its full path in this
environment, so a virtual environment that is not on PATH works too. Needs the gui extra.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

DESKTOP_FILE = "glyphscope.desktop"
ICON_FILE = "glyphscope.svg"


def data_home() -> Path:
    """$XDG_DATA_HOME, or ~/.local/share when it is unset or not absolute (the spec's rule)."""
    value = os.environ.get("XDG_DATA_HOME", "")
    return Path(value) if os.path.isabs(value) else Path.home() / ".local" / "share"


def targets(base: Path | None = None) -> tuple[Path, Path]:
    """Where the desktop entry and the icon go."""
    base = data_home() if base is None else base
    return base / "applications" / DESKTOP_FILE, base / "icons" / "hicolor" / "scalable" / "apps" / ICON_FILE


def gui_command() -> str:
    """The `glyphscope-gui` script next to this interpreter, or the bare name (found on PATH)."""
    script = Path(sys.executable).parent / "glyphscope-gui"
    return str(script) if script.exists() else "glyphscope-gui"


def desktop_entry(command: str) -> str:
    """The packaged desktop entry with Exec and TryExec pointing at `command`."""
    text = resources.files("glyphscope.assets").joinpath(DESKTOP_FILE).read_text("utf-8")
    quoted = f'"{command}"' if " " in command else command
    lines = []
    for line in text.splitlines():
        if line.startswith("Exec="):
            line = f"Exec={quoted} %f"
        elif line.startswith("TryExec="):
            line = f"TryExec={command}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def gui_missing() -> str | None:
    """Why the window cannot start in this environment (None: it can): a menu entry that starts
    nothing is not installed."""
    from importlib.util import find_spec

    try:
        found = find_spec("PySide6") is not None and find_spec("PySide6.QtWidgets") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        return (
            "the window needs the gui extra (PySide6), which is not installed: pip install 'glyphscope[gui]'"
        )
    return None


def install(base: Path | None = None) -> tuple[Path, Path]:
    entry, icon = targets(base)
    entry.parent.mkdir(parents=True, exist_ok=True)
    icon.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(desktop_entry(gui_command()), "utf-8")
    with resources.as_file(resources.files("glyphscope.assets").joinpath(ICON_FILE)) as source:
        shutil.copyfile(source, icon)
    return entry, icon


def remove(base: Path | None = None) -> list[Path]:
    removed = []
    for path in targets(base):
        if path.exists():
            path.unlink()
            removed.append(path)
    return removed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m glyphscope.desktop", description="Add glyphscope to the desktop's application menu."
    )
    parser.add_argument("--remove", action="store_true", help="remove the entry and the icon instead")
    args = parser.parse_args(argv)
    try:
        if args.remove:
            for path in remove():
                print(f"removed {path}")
            return 0
        problem = gui_missing()
        if problem is not None:
            print(f"glyphscope: {problem}; no menu entry was installed", file=sys.stderr)
            return 1
        entry, icon = install()
    except OSError as exc:
        print(f"glyphscope: cannot install the desktop entry: {exc}", file=sys.stderr)
        return 1
    print(f"desktop entry written to {entry}\nicon written to {icon}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
