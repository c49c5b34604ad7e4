"""Whole-corpus plain text: glyphscope vs pdfminer.six vs pdfplumber, in the same run.

    python benchmarks/bench_text_speed.py [--repeat 2] [--cpu]

Each tool produces the page text the way its users normally ask for it:
glyphscope `plain` mode (interpretation + passes + assembly), pdfminer.six
`extract_text` (layout analysis with default LAParams), pdfplumber
`page.extract_text()`. Target: glyphscope ≥ 3× pdfminer.six.

`--cpu` times each tool by this process's CPU time (time.process_time) instead of the wall
clock: on a machine shared with other work, the wall clock of one tool's run depends on what
else ran meanwhile, its CPU time much less.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import best_of, corpus_files  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.core.textops import page_text  # noqa: E402


def glyphscope_text(files: list[tuple[Path, str | None]]) -> tuple[int, int]:
    pages = chars = 0
    for path, password in files:
        doc = open_document(path, password)
        for n in range(1, doc.page_count + 1):
            chars += len(page_text(doc, n, "plain").text or "")
            pages += 1
        doc.close()
    return pages, chars


def pdfminer_text(files: list[tuple[Path, str | None]]) -> tuple[int, int]:
    from pdfminer.high_level import extract_text

    pages = chars = 0
    for path, password in files:
        try:
            text = extract_text(str(path), password=password or "")
        except Exception as exc:  # noqa: BLE001 — a peer failing on a file is a data point
            print(f"  pdfminer.six failed on {path.name}: {type(exc).__name__}", file=sys.stderr)
            continue
        pages += text.count("\f")
        chars += len(text)
    return pages, chars


def pdfplumber_text(files: list[tuple[Path, str | None]]) -> tuple[int, int]:
    import pdfplumber

    pages = chars = 0
    for path, password in files:
        try:
            with pdfplumber.open(str(path), password=password or "") as pdf:
                for page in pdf.pages:
                    chars += len(page.extract_text() or "")
                    pages += 1
        except Exception as exc:  # noqa: BLE001
            print(f"  pdfplumber failed on {path.name}: {type(exc).__name__}", file=sys.stderr)
    return pages, chars


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--cpu", action="store_true", help="CPU time of this process, not the wall clock")
    args = ap.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    warnings.simplefilter("ignore")
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    files = corpus_files()
    results = {}
    for name, fn in (
        ("glyphscope", glyphscope_text),
        ("pdfminer.six", pdfminer_text),
        ("pdfplumber", pdfplumber_text),
    ):
        seconds, (pages, chars) = best_of(lambda fn=fn: fn(files), args.repeat, clock)
        results[name] = seconds
        print(
            f"{name:13}: {pages:4} pages, {chars:8} chars in {seconds:6.2f} s = {pages / seconds:6.1f} pages/s"
        )
    base = results["glyphscope"]
    for name in ("pdfminer.six", "pdfplumber"):
        print(f"glyphscope is {results[name] / base:.2f}× faster than {name}")
    print("target: ≥ 3× pdfminer.six")


if __name__ == "__main__":
    main()
