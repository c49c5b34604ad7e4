"""One process per file, one at a time: `glyphscope text FILE` against pdfminer.six's `pdf2txt.py FILE`.

    python benchmarks/bench_processes.py [--rounds 3] [--one-page-pairs 20] [--only corpus|one-page]

1. one-page: every one-page corpus file, `--one-page-pairs` pairs of whole processes in turn
   (glyphscope, then pdf2txt.py, the files taken round-robin), after one warm-up pair per file;
   the median of each tool's times and the median of the pairs' ratios (target: glyphscope's
   time ≤ pdf2txt.py's, a ratio ≤ 1.00).
2. corpus: every corpus file, `--rounds` rounds; in each round each file runs as a pair
   (glyphscope, then pdf2txt.py). Per file the median over the rounds; then the total over the
   files and the median file of each tool (targets: pdf2txt.py's total / glyphscope's ≥ 1.5,
   glyphscope's median file ≤ pdf2txt.py's).

The machine may be shared: the two tools run as pairs, in turn, so a drift of its speed touches
both sides, and the figures quoted are medians and ratios of the same run. Compile the sources
first (`python -m compileall`), as an installed package is. It prints; it is not a test.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pikepdf  # noqa: E402

from benchmarks._common import corpus_files  # noqa: E402

BIN = Path(sys.executable).parent


def _command(name: str) -> list[str]:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found next to {sys.executable} nor on PATH")
    return [found]


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def _argvs(path: Path, password: str | None) -> tuple[list[str], list[str]]:
    ours = [*_command("glyphscope"), "text", str(path)]
    theirs = [*_command("pdf2txt.py"), str(path)]
    if password:
        ours += ["--password", password]
        theirs += ["-P", password]
    return ours, theirs


def _page_count(path: Path, password: str | None) -> int:
    try:
        with pikepdf.open(path, password=password or "") as pdf:
            return len(pdf.pages)
    except Exception:  # noqa: BLE001 — a file pikepdf cannot open is no one-page measure
        return 0


def one_page(pairs: int) -> None:
    files = [(p, pw) for p, pw in corpus_files() if _page_count(p, pw) == 1]
    print(f"1. start-up: {pairs} pairs over the {len(files)} one-page corpus files (round-robin)")
    for path, password in files:  # warm-up: the file in the page cache for both tools
        for argv in _argvs(path, password):
            _wall(argv)
    ours, theirs, ratios = [], [], []
    for i in range(pairs):
        a, b = _argvs(*files[i % len(files)])
        ta, tb = _wall(a), _wall(b)
        ours.append(ta)
        theirs.append(tb)
        ratios.append(ta / tb)
    print(
        f"  glyphscope median {statistics.median(ours) * 1000:6.0f} ms   "
        f"pdf2txt.py median {statistics.median(theirs) * 1000:6.0f} ms"
    )
    print(
        f"  glyphscope / pdf2txt.py per pair: median {statistics.median(ratios):5.2f}  "
        f"min {min(ratios):5.2f}  max {max(ratios):5.2f}   (target ≤ 1.00)"
    )


def corpus(rounds: int) -> None:
    files = corpus_files()
    print(f"2. the corpus, {len(files)} files, one process per file, {rounds} round(s), median per file")
    times: dict[Path, tuple[list[float], list[float]]] = {p: ([], []) for p, _ in files}
    for _ in range(rounds):
        for path, password in files:
            a, b = _argvs(path, password)
            times[path][0].append(_wall(a))
            times[path][1].append(_wall(b))
    ours = [statistics.median(v[0]) for v in times.values()]
    theirs = [statistics.median(v[1]) for v in times.values()]
    print(
        f"  total       glyphscope {sum(ours):6.2f} s   pdf2txt.py {sum(theirs):6.2f} s   "
        f"pdf2txt.py / glyphscope {sum(theirs) / sum(ours):5.2f}×   (target ≥ 1.5)"
    )
    print(
        f"  median file glyphscope {statistics.median(ours) * 1000:6.0f} ms  pdf2txt.py "
        f"{statistics.median(theirs) * 1000:6.0f} ms   (target: glyphscope ≤ pdf2txt.py)"
    )
    slowest = sorted(times.items(), key=lambda kv: statistics.median(kv[1][0]), reverse=True)[:5]
    for path, (a, b) in slowest:
        print(f"    {path.name:<50} {statistics.median(a):6.2f} s vs {statistics.median(b):6.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--one-page-pairs", type=int, default=20)
    ap.add_argument("--only", choices=("corpus", "one-page"))
    args = ap.parse_args()
    if args.only in (None, "one-page"):
        one_page(args.one_page_pairs)
    if args.only in (None, "corpus"):
        corpus(args.rounds)


if __name__ == "__main__":
    main()
