"""`page.to_image(resolution=72).save()` over the corpus: glyphscope and pdfplumber in one run.

    python benchmarks/bench_to_image.py [--files 12] [--pages 5] [--repeat 3]

The same loop for both: open the file, then for each of its first `--pages` pages
`page.to_image(resolution=72).save(BytesIO(), "PNG")`, time from open to close. The
renderer's start-up is outside the loop (a warm-up page is drawn first for each tool), so
the ratio is the loop's own cost. Prints each tool's total (the fastest of `--repeat` turns) and the ratio.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402


def _loop(module: object, path: Path, password: str | None, pages: int) -> int:
    kwargs = {"password": password} if password else {}
    n = 0
    with module.open(path, **kwargs) as pdf:  # type: ignore[attr-defined]
        for page in pdf.pages[:pages]:
            page.to_image(resolution=72).save(io.BytesIO(), format="PNG")
            n += 1
    return n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=12, help="the first N corpus files that both tools open")
    parser.add_argument("--pages", type=int, default=5, help="pages per file")
    parser.add_argument(
        "--repeat", type=int, default=5, help="runs per tool, taking turns; the fastest counts"
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    import logging

    logging.disable(logging.WARNING)  # pdfminer's and pikepdf's chatter
    import pdfplumber

    import glyphscope

    tools = {"glyphscope": glyphscope, "pdfplumber": pdfplumber}
    files: list[tuple[Path, str | None]] = []
    for path, password in corpus_files():
        if len(files) >= args.files:
            break
        try:
            for module in tools.values():
                _loop(module, path, password, 1)  # both open it (and the renderers are warm)
        except Exception:  # noqa: BLE001 - a file either tool refuses is left out of both
            continue
        files.append((path, password))
    # The tools take turns, repetition by repetition: a machine that gets busier or quieter during
    # the run weighs on both alike; each tool's fastest repetition counts.
    times: dict[str, list[float]] = {name: [] for name in tools}
    pages = 0
    for _ in range(args.repeat):
        for name, module in tools.items():
            start = time.perf_counter()
            pages = sum(_loop(module, path, password, args.pages) for path, password in files)
            times[name].append(time.perf_counter() - start)
    best = {name: min(values) for name, values in times.items()}
    for name, seconds in best.items():
        print(f"{name:11s} {seconds:7.3f} s  {1000 * seconds / max(1, pages):6.1f} ms/page")
    ratio = best["glyphscope"] / best["pdfplumber"]
    print(f"{len(files)} files, {pages} pages: glyphscope / pdfplumber = {ratio:.2f}x (target <= 1.2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
