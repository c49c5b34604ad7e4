"""`Any` stays under the ceilings CI sets (.ci/run), which were today's counts when set: they only go down."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CI_LINE = re.search(r"count_any\.py --max (\d+) --max-gui (\d+)", (REPO / ".ci" / "run").read_text("utf-8"))
assert CI_LINE is not None
CEILING, GUI_CEILING = int(CI_LINE[1]), int(CI_LINE[2])


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / ".ci" / "count_any.py"), "--top", "0", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_any_is_under_the_ceilings_of_ci_which_the_readme_states() -> None:
    result = _run("--max", str(CEILING), "--max-gui", str(GUI_CEILING))
    assert result.returncode == 0, result.stdout + result.stderr
    gui = int(result.stdout.split("(gui ")[1].split(")")[0])
    total = int(result.stdout.split("total ")[1].split()[0])
    assert gui <= GUI_CEILING <= 9 and total <= CEILING <= 194  # lowered to the counts of their day
    readme = (REPO / "README.md").read_text("utf-8")
    assert f"count_any.py --max {CEILING} --max-gui {GUI_CEILING}" in readme


def test_the_gui_ceiling_fails_the_run_above_it() -> None:
    result = _run("--max-gui", "0")
    assert result.returncode == 1 and "inspector/gui, above the ceiling of 0" in result.stderr
