"""`glyphscope` / `python -m inspector`: headless commands, or the window."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def _gui(path: str | None, page: int | None, password: str | None) -> int:
    from inspector.app import run_gui  # Qt is imported only when a window is wanted

    return run_gui(path, page, password)


def main(argv: Sequence[str] | None = None) -> int:
    from inspector.cli import run

    return run(list(sys.argv[1:] if argv is None else argv), _gui)


if __name__ == "__main__":
    sys.exit(main())
