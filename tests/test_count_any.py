"""`Any` in the window (inspector/gui) stays at most half of what it was (48 before issue 28)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GUI_CEILING = 24  # half of the 48 counted before the window's architecture change


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / ".ci" / "count_any.py"), "--top", "0", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_gui_any_is_at_most_half_of_before() -> None:
    result = _run("--max-gui", str(GUI_CEILING))
    assert result.returncode == 0, result.stdout + result.stderr
    gui = int(result.stdout.split("(gui ")[1].split(")")[0])
    assert gui <= GUI_CEILING


def test_the_gui_ceiling_fails_the_run_above_it() -> None:
    result = _run("--max-gui", "0")
    assert result.returncode == 1 and "inspector/gui, above the ceiling of 0" in result.stderr
