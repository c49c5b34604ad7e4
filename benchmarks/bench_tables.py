"""The table finder's speed beside pdfplumber's, on one corpus page, in pairs run in turn.

    python benchmarks/bench_tables.py [FILE] [--page 0] [--pairs 7]

Each pair opens the file with pdfplumber and with glyphscope (in turn, which one first
alternating) and times, in CPU seconds of this process: `find_tables()` on a fresh page (the
page read included: pdfplumber parses its objects, glyphscope interprets its drawing), the
finder again on the page already read, and `extract_tables()` from a fresh page (glyphscope's
chars need the page's analysis). Prints each median with `uptime`'s load. The default file is
the corpus's nics-background-checks (one page, 313 cells).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import CORPUS  # noqa: E402

DEFAULT = "pdfplumber__nics-background-checks-2015-11.pdf"


def _cpu(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def one_pair(path: Path, page: int, plumber_first: bool) -> dict[str, float]:
    import pdfplumber

    import glyphscope

    def theirs() -> dict[str, float]:
        out = {}
        with pdfplumber.open(path) as pdf:
            p = pdf.pages[page]
            out["find_tables (fresh page)"] = _cpu(p.find_tables)
            out["find_tables (page read)"] = _cpu(p.find_tables)
        with pdfplumber.open(path) as pdf:
            out["extract_tables (fresh page)"] = _cpu(pdf.pages[page].extract_tables)
        return out

    def ours() -> dict[str, float]:
        out = {}
        with glyphscope.open(path, coordinates="pdfplumber") as doc:
            p = doc.pages[page]
            out["find_tables (fresh page)"] = _cpu(p.find_tables)
            out["find_tables (page read)"] = _cpu(p.find_tables)
        with glyphscope.open(path, coordinates="pdfplumber") as doc:
            out["extract_tables (fresh page)"] = _cpu(doc.pages[page].extract_tables)
        return out

    result: dict[str, float] = {}
    for name, fn in (
        (("pdfplumber", theirs), ("glyphscope", ours))
        if plumber_first
        else (
            ("glyphscope", ours),
            ("pdfplumber", theirs),
        )
    ):
        for key, value in fn().items():
            result[f"{name}: {key}"] = value
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(CORPUS / DEFAULT))
    parser.add_argument("--page", type=int, default=0)
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_args()
    runs: dict[str, list[float]] = {}
    one_pair(Path(args.file), args.page, True)  # warm: imports, the renderer's fonts
    for i in range(args.pairs):
        for key, value in one_pair(Path(args.file), args.page, i % 2 == 0).items():
            runs.setdefault(key, []).append(value)
    load = os.getloadavg()
    print(
        f"{Path(args.file).name} page {args.page}: median CPU seconds of {args.pairs} pairs (load {load[0]:.2f})"
    )
    for key in sorted(runs, key=lambda k: (k.split(": ")[1], k)):
        print(f"  {key:50s} {statistics.median(runs[key]) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
