"""Pages in parallel and start-up, as whole processes against pdfminer.six's `pdf2txt.py`, in one run.

    python benchmarks/bench_parallel.py [--repeat 5] [--merged /tmp/glyphscope-merged.pdf]

1. The merged corpus file (every readable corpus page in one file, as bench_floor.py builds
   it): `glyphscope text FILE --jobs J` for J = 1 .. the usable processors, and
   `pdf2txt.py FILE`; the ratio pdf2txt / glyphscope for each J (target ≥ 3.5× on 2 cores).
2. Where workers start to pay: files of K pages taken evenly from the merged file,
   `--jobs N` against `--jobs 1` (core.page_workers.PARALLEL_MIN_PAGES is this measurement).
3. Start-up: `glyphscope text` against `pdf2txt.py` on small one-page corpus files
   (target ≤ 1.25×).

Runs alternate between the commands and the median is quoted, so a drift of the machine's
speed touches both sides. It prints ratios; it is not a test. Compile the sources first
(`python -m compileall`), as an installed package is: otherwise every run compiles them again.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import pikepdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402
from benchmarks.bench_floor import merge_corpus  # noqa: E402
from glyphscope.core.workers import usable_cpus  # noqa: E402

BIN = Path(sys.executable).parent
BREAK_EVEN_PAGES = (1, 2, 3, 4, 6, 8, 12, 16)
SMALL_FILES = 5


def _command(name: str) -> list[str]:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found next to {sys.executable} nor on PATH")
    return [found]


def _wall(argv: Sequence[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def _medians(commands: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """Each command's median wall time, the commands run in turn (one warm-up round first)."""
    for argv in commands.values():
        _wall(argv)
    times: dict[str, list[float]] = {key: [] for key in commands}
    for _ in range(repeat):
        for key, argv in commands.items():
            times[key].append(_wall(argv))
    return {key: statistics.median(values) for key, values in times.items()}


def _pages_file(merged: Path, count: int, out: Path) -> None:
    with pikepdf.open(merged) as src:
        step = max(1, len(src.pages) // count)
        part = pikepdf.new()
        for i in range(count):
            part.pages.append(src.pages[(i * step) % len(src.pages)])
        part.save(out)


def _small_one_page_files(limit: int) -> list[Path]:
    """The smallest unencrypted one-page corpus files that both tools read."""
    found: list[tuple[int, Path]] = []
    for path, password in corpus_files():
        if password:
            continue
        try:
            with pikepdf.open(path) as pdf:
                if len(pdf.pages) != 1 or pdf.is_encrypted:
                    continue
        except Exception:  # noqa: BLE001 — a damaged file is no start-up measure
            continue
        found.append((path.stat().st_size, path))
    return [p for _, p in sorted(found)][:limit]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--merged", type=Path, default=Path(tempfile.gettempdir()) / "glyphscope-merged.pdf")
    args = ap.parse_args()
    glyphscope, pdf2txt = _command("glyphscope"), _command("pdf2txt.py")
    cpus = usable_cpus()
    pages, used = merge_corpus(corpus_files(), args.merged)
    print(f"{cpus} usable processor(s); merged {pages} pages of {used} corpus files into {args.merged}")

    print(f"\n1. the merged file ({pages} pages), whole processes, median of {args.repeat}")
    commands = {
        f"jobs {j}": [*glyphscope, "text", str(args.merged), "--jobs", str(j)] for j in range(1, cpus + 1)
    }
    commands["pdf2txt.py"] = [*pdf2txt, str(args.merged)]
    wall = _medians(commands, args.repeat)
    for key, seconds in wall.items():
        ratio = wall["pdf2txt.py"] / seconds
        print(f"  {key:<12} {seconds:7.2f} s   pdf2txt.py / this {ratio:5.2f}×")

    print(f"\n2. --jobs {cpus} against --jobs 1 by page count (below 1.00: workers pay)")
    with tempfile.TemporaryDirectory() as tmp:
        for count in BREAK_EVEN_PAGES:
            part = Path(tmp) / f"pages-{count}.pdf"
            _pages_file(args.merged, count, part)
            pair = _medians(
                {
                    "one": [*glyphscope, "text", str(part), "--jobs", "1"],
                    "many": [*glyphscope, "text", str(part), "--jobs", str(cpus)],
                },
                args.repeat * 2,
            )
            print(f"  {count:3d} page(s)   {pair['many'] / pair['one']:5.2f}")

    print("\n3. start-up: glyphscope text / pdf2txt.py on small one-page files (target ≤ 1.25)")
    ratios = []
    for path in _small_one_page_files(SMALL_FILES):
        pair = _medians(
            {"glyphscope": [*glyphscope, "text", str(path)], "pdf2txt.py": [*pdf2txt, str(path)]},
            args.repeat * 2,
        )
        ratio = pair["glyphscope"] / pair["pdf2txt.py"]
        ratios.append(ratio)
        print(f"  {path.name:<44} {pair['glyphscope'] * 1000:6.0f} ms  {ratio:5.2f}")
    if ratios:
        print(f"  median {statistics.median(ratios):5.2f}")


if __name__ == "__main__":
    main()
