"""mkdocs hook: let mkdocstrings read the package as installed.

The repository maps its folders onto one import name (`[tool.setuptools] package-dir`:
core/ is glyphscope.core), which a tool reading source trees cannot follow. Like
.ci/staged, this lays the package out as installed, with symlinks in a temporary folder,
and points mkdocstrings' Python handler at it before the API pages are read.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

REPO = Path(__file__).resolve().parents[1]
_stage: list[Path] = []


@event_priority(100)  # before mkdocstrings reads its handlers' options
def on_config(config: Any) -> Any:
    stage = Path(tempfile.mkdtemp(prefix="glyphscope-docs-"))
    package = stage / "glyphscope"
    package.mkdir()
    for module in (REPO / "glyphscope").glob("*.py"):
        (package / module.name).symlink_to(module)
    for folder in ("core", "inspector", "assets"):
        (package / folder).symlink_to(REPO / folder, target_is_directory=True)
    _stage.append(stage)
    handlers = config.plugins["mkdocstrings"].config["handlers"]
    handlers.setdefault("python", {})["paths"] = [str(stage)]
    return config


def on_shutdown() -> None:
    while _stage:
        shutil.rmtree(_stage.pop(), ignore_errors=True)
