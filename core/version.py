"""The installed glyphscope's version, from its distribution metadata (read once, on demand)."""

from __future__ import annotations

from functools import cache


@cache
def package_version() -> str:
    """`glyphscope.__version__` and the `glyphscope_version` of every JSON output.

    Here rather than in the top-level package so the engine never imports the package that
    also holds the application's entry points (pyproject.toml [tool.importlinter])."""
    from importlib import metadata  # ~40 ms: only when a version is asked for

    try:
        return metadata.version("glyphscope")
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"
