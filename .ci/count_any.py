#!/usr/bin/env python3
"""Count uses of ``Any`` in core/ and inspector/, and fail above a ceiling.

A use is an AST ``Name`` node ``Any`` or an ``Attribute`` node ``typing.Any`` (any ``X.Any``),
so the import line, strings and comments do not count but every annotation does. Usage:

    python3 .ci/count_any.py [--max N] [--max-gui N] [--top K]

Prints the totals for core, inspector (all of it) and inspector/gui, then the files with the
most uses; exits 1 when the total is above ``--max`` or inspector/gui's is above ``--max-gui``.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
AREAS = ("core", "inspector")


def count_any(source: str, filename: str = "<string>") -> int:
    """The number of ``Any`` names and ``X.Any`` attributes in one module's source."""
    return sum(
        1
        for node in ast.walk(ast.parse(source, filename=filename))
        if (isinstance(node, ast.Name) and node.id == "Any")
        or (isinstance(node, ast.Attribute) and node.attr == "Any")
    )


def python_files(repo: Path) -> Iterator[Path]:
    for area in AREAS:
        yield from sorted((repo / area).rglob("*.py"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=None, help="fail when the total is above N")
    parser.add_argument("--max-gui", type=int, default=None, help="fail when inspector/gui is above N")
    parser.add_argument("--top", type=int, default=15, help="how many files to list (default 15)")
    args = parser.parse_args(argv)

    per_file: dict[str, int] = {}
    for path in python_files(REPO):
        relative = path.relative_to(REPO).as_posix()
        n = count_any(path.read_text(encoding="utf-8"), relative)
        if n:
            per_file[relative] = n

    core = sum(n for name, n in per_file.items() if name.startswith("core/"))
    inspector = sum(n for name, n in per_file.items() if name.startswith("inspector/"))
    gui = sum(n for name, n in per_file.items() if name.startswith("inspector/gui/"))
    total = core + inspector
    print(f"Any: core {core}, inspector {inspector} (gui {gui}), total {total}")
    ranked = sorted(per_file.items(), key=lambda item: (-item[1], item[0]))
    for name, n in ranked[: args.top]:
        print(f"  {n:5d}  {name}")
    if args.max is not None and total > args.max:
        print(f"Any: {total} uses, above the ceiling of {args.max}", file=sys.stderr)
        return 1
    if args.max_gui is not None and gui > args.max_gui:
        print(f"Any: {gui} uses in inspector/gui, above the ceiling of {args.max_gui}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
