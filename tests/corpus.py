"""Access to ../shared/corpus (real-world PDFs); tests skip cleanly without it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"


def available() -> bool:
    return (CORPUS / "manifest.json").is_file()


def require() -> Path:
    if not available():
        pytest.skip(f"corpus not available: {CORPUS} is missing (../shared is not checked out here)")
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
