"""`glyphscope` / `python -m glyphscope`: headless commands, or the window.

`glyphscope --version` prints the version of the installed distribution
(`glyphscope.__version__`, from its metadata). Qt is imported only when the
window or a page image is asked for (tests/test_architecture.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path


def _no_display() -> bool:
    """On X11/Wayland systems Qt aborts the process without a display; say so first."""
    if os.environ.get("QT_QPA_PLATFORM") or not sys.platform.startswith("linux"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


GUI_MISSING = "glyphscope: the window needs the gui extra: pip install 'glyphscope[gui]'"


def _qt_missing() -> bool:
    """PySide6 is not installed (the headless install): the window cannot open."""
    try:
        import PySide6.QtWidgets  # noqa: F401
    except ImportError:
        return True
    return False


def _gui(path: str | None, page: int | None, password: str | None) -> int:
    if _qt_missing():
        print(GUI_MISSING, file=sys.stderr)
        return 2
    if path == "-":
        print("glyphscope: the window opens files, not stdin (headless commands read -)", file=sys.stderr)
        return 2
    if path is not None and not Path(path).exists():
        print(f"glyphscope: file not found: {path}", file=sys.stderr)
        return 4
    if page is not None and page < 1:
        print("glyphscope: --page must be 1 or more", file=sys.stderr)
        return 2
    if _no_display():
        print(
            "glyphscope: no display to open the window on (DISPLAY is not set). Use a desktop "
            "session, `xvfb-run -a glyphscope …`, or QT_QPA_PLATFORM=offscreen; headless commands: "
            "glyphscope --help",
            file=sys.stderr,
        )
        return 1
    from glyphscope.inspector.gui.app import run_gui  # Qt is imported only when a window is wanted

    return run_gui(path, page, password)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line; `argv=None`: this process's own (the console script, `python -m`)."""
    from glyphscope.core import gcpause

    gcpause.allow_gc_pauses()  # a process of our own: analysis may pause the cyclic collector (core/gcpause.py)
    args = list(sys.argv[1:] if argv is None else argv)
    if argv is None:
        gcpause.pause_start()  # no collector passes over the modules being imported
    if argv is None and args and not args[0].startswith("-"):  # a command, not --version / --help
        from glyphscope.core import dataclass_code

        dataclass_code.install_compiled_methods()  # records' methods come compiled (core/dataclass_code.py)
    from glyphscope.inspector.cli.parser import PAUSED_START, run_command_line

    if not args or args[0] not in PAUSED_START:  # the window, triage, --help, ...: as always
        gcpause.resume_start()
    code = run_command_line(args, _gui)
    gcpause.resume_start()  # a command that read no page
    if argv is None:
        # The process ends now. Its last collection (interpreter shutdown) would walk every object
        # the modules made, ~15 ms of a one-page `glyphscope text`: frozen objects are left out.
        import gc

        gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(main())
