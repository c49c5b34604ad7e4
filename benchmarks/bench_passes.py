"""The classification passes over the whole corpus: CPU time of `classify` (cull, visibility, dedupe)
on every page, and of `path_behind` (a painted path read back) inside interpretation.

    python benchmarks/bench_passes.py [--repeat 5]

Pages are interpreted once (not timed); `classify` then runs on each, best of `--repeat` passes
over the corpus, by this process's CPU time (time.process_time) with the collector paused as the
engine runs it. `path_behind` is timed on a second interpretation of every page. Compare two
checkouts by running this in each, in turn, and print the load beside the numbers.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files, load_average  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.core.gcpause import gc_paused  # noqa: E402
from glyphscope.core.page import Polygon  # noqa: E402
from glyphscope.core.params import DEFAULT_PARAMETERS  # noqa: E402
from glyphscope.core.passes import classify  # noqa: E402

if TYPE_CHECKING:
    from glyphscope.core.interpreter import PageInterpreter


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    import glyphscope.core.operators.graphics as graphics

    docs = [open_document(path, password) for path, password in corpus_files()]
    pages = [doc.interpret(n) for doc in docs for n in range(1, doc.page_count + 1)]
    glyphs = sum(len(p.glyphs) for p in pages)
    best = float("inf")
    with gc_paused():
        for _ in range(args.repeat):
            start = time.process_time()
            for page in pages:
                classify(page, DEFAULT_PARAMETERS)
            best = min(best, time.process_time() - start)
    print(
        f"classify: {len(pages)} pages, {glyphs} glyphs in {best * 1000:.1f} ms CPU (best of {args.repeat})"
    )

    spent = [0.0, 0]
    read_back = graphics.path_behind

    def timed(interp: PageInterpreter) -> tuple[tuple[Polygon, ...], int, int]:
        start = time.process_time()
        try:
            return read_back(interp)
        finally:
            spent[0] += time.process_time() - start
            spent[1] += 1

    graphics.path_behind = timed
    try:
        with gc_paused():
            for doc in docs:
                for n in range(1, doc.page_count + 1):
                    doc._interpret(doc.page_object(n), n)
    finally:
        graphics.path_behind = read_back
    print(f"path_behind: {spent[1]} paths in {spent[0] * 1000:.1f} ms CPU")
    print(load_average())


if __name__ == "__main__":
    main()
