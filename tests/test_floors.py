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
    assert lines["pillow"] == "10.1,<10.2"  # 10.0's ImageFont.load_default takes no size
    assert lines["pyside6-essentials"] == "6.9,<6.10"  # 6.8: the canvas gets under 48 % at 1280×800
    assert lines["tesserocr"] == "2.7,<2.8"  # the ocr extra, through the test extra
    assert lines["import-linter"] == "2.0,<2.1"  # .ci/lint-imports passes the config with --config
    assert lines["pdfplumber"] == "0.11,<0.12"  # the test extra: what the parity tests compare with
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    for text in project["dependencies"]:
        assert Requirement(text).name.lower() in lines, text


def test_ci_runs_the_suite_again_on_the_floors() -> None:
    """After the main tests, .ci/run installs the package with the floors' constraints into a
    second environment and runs the same test command there."""
    lines = [line.strip() for line in (REPO / ".ci" / "run").read_text("utf-8").splitlines()]
    main = lines.index(".venv/bin/python -m pytest -q")
    rest = lines[main + 1 :]
    assert '.venv/bin/python .ci/floors.py >"$floors/constraints.txt"' in rest
    assert '"$floors/venv/bin/python" -m pip install -q -c "$floors/constraints.txt" -e \'.[test]\'' in rest
    assert rest[-1] == '"$floors/venv/bin/python" -m pytest -q'
