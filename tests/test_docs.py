"""The documentation site builds without a warning (mkdocs --strict), its API reference is made from
the docstrings, and the changelog page is CHANGELOG.md itself."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _text(page: Path) -> str:
    body = re.sub(r"<[^>]+>", " ", page.read_text("utf-8"))
    return " ".join(html.unescape(body).split())


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
    pytest.importorskip("mkdocstrings")
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "-f",
            str(REPO / "mkdocs.yml"),
            "-d",
            str(out),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    return out


def test_every_page_is_built(site: Path) -> None:
    for page in (
        "index.html",
        "install/index.html",
        "cli/index.html",
        "api/index.html",
        "schemas/index.html",
    ):
        assert (site / page).is_file(), page
    assert "glyphscope completion bash" in _text(site / "install" / "index.html")


def test_the_api_reference_is_read_from_the_docstrings(site: Path) -> None:
    import glyphscope
    from glyphscope.core.params import Parameters

    text = _text(site / "api" / "index.html")
    assert glyphscope.open.__doc__ is not None
    first = " ".join(glyphscope.open.__doc__.split("\n\n")[0].split())
    assert (
        first == "Open a PDF (read-only): a path, its bytes or a binary file-like object." and first in text
    )
    assert "TypeError for a source that is none of the three" in text
    for name in ("extract_text", "to_image", "crop", "page_count", "interpret", "analyze_page"):
        assert name in text, name
    # a dataclass field's docstring (core/params.py), as written there
    assert "word_gap" in text and "Text of annotation appearances (form fields, comments, stamps)" in text
    # the default as written there (the highlighter splits it into tokens)
    assert Parameters().annotations == "include"
    assert re.search(r"annotations = AnnotationText \. INCLUDE|annotations = AnnotationText\.INCLUDE", text)


def test_the_changelog_page_is_changelog_md(site: Path) -> None:
    text = _text(site / "changelog" / "index.html")
    source = (REPO / "CHANGELOG.md").read_text("utf-8")
    assert source.startswith("# Changelog\n") and "## [Unreleased]" in source
    for heading in re.findall(r"^### (\w+)", source, flags=re.M):
        assert heading in text
    assert "triage --timeout SECONDS" in text and "--annotations include|exclude|only" in text


def test_the_shipped_man_page_is_the_parsers() -> None:
    """man/glyphscope.1 (installed into share/man/man1) is what the parser makes today:
    regenerate it with `python -m glyphscope.inspector.cli.docs man --write`."""
    from glyphscope.inspector.cli.docs import MAN_SOURCE, MAN_VERSION, man_page

    assert MAN_SOURCE.read_text("utf-8") == man_page(MAN_VERSION)
    assert ".SH EXIT STATUS" in MAN_SOURCE.read_text("utf-8")
