"""Access to ../shared/corpus (real-world PDFs); tests skip cleanly without it."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("GLYPHSCOPE_CORPUS", REPO.parent / "shared" / "corpus"))


def available() -> bool:
    return (CORPUS / "manifest.json").is_file()


def require() -> Path:
    if not available():
        # one message from one place: pytest -ra folds every corpus test's skip into one summary line
        pytest.skip(f"the real-file corpus is not here: {CORPUS} is missing (../shared is not checked out)")
    return CORPUS


@cache
def manifest() -> list[dict[str, Any]]:
    if not available():
        return []
    return json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))["files"]


def password(name: str) -> str | None:
    for row in manifest():
        if row["file"] == name:
            return row.get("password") or None
    return None


def files() -> list[str]:
    return [row["file"] for row in manifest()]
