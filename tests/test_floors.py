"""The constraints of the lowest versions (.ci/floors.py), to install in a second environment
and run the suite on the floors pyproject.toml declares."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]


def test_every_floor_becomes_its_release_line() -> None:
    out = subprocess.run(
        [sys.executable, str(REPO / ".ci" / "floors.py")],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    lines = dict(line.split(">=", 1) for line in out.splitlines())
    assert lines["pikepdf"] == "10.17,<10.18"  # 10.13–10.16 raise qpdf's errors as plain RuntimeError
    assert lines["pypdfium2"] == "5.0,<5.1"  # 4.x fails in the renderer's calls
    assert lines["rich"] == "13.0,<13.1"  # a one-part floor is read as x.0
    assert lines["pdfplumber"] == "0.11,<0.12"  # the test extra: what the parity tests compare with
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    for text in project["dependencies"]:
        assert Requirement(text).name.lower() in lines, text
