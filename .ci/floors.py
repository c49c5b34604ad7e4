"""The lowest versions pyproject.toml allows, as a pip constraints file (one line a package).

    python .ci/floors.py [EXTRA ...] > floors.txt
    pip install -c floors.txt -e '.[test]'

Every requirement of [project] dependencies and of the named extras (default: test, and the
extras it pulls in through `glyphscope[...]`) whose specifier has a lower bound (`>=` or `==`)
is held to that bound's release line: `pikepdf>=10.17,<10.18` (pip then takes its latest patch,
as a user with that floor would get; a one-part floor such as pandas's `2` is read as 2.0).
Requirements whose marker does not hold for this interpreter are left out, and so are those
without a lower bound (pip picks what it likes). .ci/run installs these into a second environment
after the main tests and runs the suite there, so the floors pyproject declares are the ones that
pass; by hand:

    python3 -m venv /tmp/floors && /tmp/floors/bin/python -m pip install -c floors.txt -e '.[test]'
    /tmp/floors/bin/python -m pytest -q
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def requirements(extras: list[str]) -> list[Requirement]:
    """The requirements of the base install and of `extras` (followed through glyphscope[...])."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    optional = project.get("optional-dependencies", {})
    out = [Requirement(r) for r in project.get("dependencies", [])]
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for text in optional.get(extra, []):
            req = Requirement(text)
            if req.name == project["name"]:
                todo.extend(req.extras)
            else:
                out.append(req)
    return out


def floors(reqs: list[Requirement]) -> dict[str, str]:
    """name → the lowest version its specifiers allow (the highest of the `>=`/`==` bounds)."""
    out: dict[str, str] = {}
    for req in reqs:
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        bounds = [s.version for s in req.specifier if s.operator in (">=", "==", "~=")]
        if not bounds:
            continue
        from packaging.version import Version

        low = max(bounds, key=Version)
        name = req.name.lower()
        if name not in out or Version(low) > Version(out[name]):
            out[name] = low
    return out


def release_line(version: str) -> str:
    """`>=10.13,<10.14` for 10.13; `>=2.0,<2.1` for 2."""
    parts = version.split(".")
    if len(parts) == 1:
        parts.append("0")
    upper = [*parts[:-1], str(int(parts[-1]) + 1)]
    return f">={'.'.join(parts)},<{'.'.join(upper)}"


def main(argv: list[str]) -> int:
    pins = floors(requirements(argv or ["test"]))
    sys.stdout.write("".join(f"{name}{release_line(version)}\n" for name, version in sorted(pins.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
