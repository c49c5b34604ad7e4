"""Glyph extraction speed: glyphscope vs pdfminer.six on the whole corpus, same run.

    python benchmarks/bench_glyphs.py [--repeat 3]

pdfminer.six is measured through its layout aggregator (extract_pages →
LTChar), which is how its users get characters with positions. Also times
dedupe on a synthetic 100,000-glyph page (target < 1 s).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import best_of, corpus_files, synthetic_page  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.core.passes import classify, dedupe  # noqa: E402


def glyphscope_all(files: list[tuple[Path, str | None]]) -> tuple[int, int]:
    pages = glyphs = 0
    for path, password in files:
        doc = open_document(path, password)
        for n in range(1, doc.page_count + 1):
            glyphs += len(classify(doc.interpret(n)).glyphs)
            pages += 1
        doc.close()
    return pages, glyphs


def pdfminer_all(files: list[tuple[Path, str | None]]) -> tuple[int, int]:
    import logging

    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTChar, LTContainer

    logging.getLogger("pdfminer").setLevel(logging.ERROR)

    def count(obj: object) -> int:
        if isinstance(obj, LTChar):
            return 1
        if isinstance(obj, LTContainer):
            return sum(count(o) for o in obj)
        return 0

    pages = chars = 0
    for path, password in files:
        try:
            for layout in extract_pages(str(path), password=password or ""):
                chars += count(layout)
                pages += 1
        except Exception as exc:  # noqa: BLE001 — a peer failing on a file is a data point, not a crash
            print(f"  pdfminer.six failed on {path.name}: {type(exc).__name__}", file=sys.stderr)
    return pages, chars


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    files = corpus_files()
    print(f"corpus: {len(files)} files")
    t_gs, (pages, glyphs) = best_of(lambda: glyphscope_all(files), args.repeat)
    print(f"glyphscope   : {pages} pages, {glyphs} glyphs in {t_gs:.2f} s = {pages / t_gs:.1f} pages/s")
    t_pm, (pm_pages, chars) = best_of(lambda: pdfminer_all(files), max(1, args.repeat - 1))
    print(f"pdfminer.six : {pm_pages} pages, {chars} chars in {t_pm:.2f} s = {pm_pages / t_pm:.1f} pages/s")
    print(f"ratio        : glyphscope is {t_pm / t_gs:.2f}× faster than pdfminer.six (target ≥ 3×)")

    page = synthetic_page(100_000)
    start = time.perf_counter()
    drops = dedupe(list(page))
    took = time.perf_counter() - start
    print(f"dedupe       : 100,000 glyphs (with {len(drops)} copies) in {took:.3f} s (target < 1 s)")


if __name__ == "__main__":
    main()
