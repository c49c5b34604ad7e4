"""compare --text against glyphscope text, as users run them: whole commands, for the same pages.

    python benchmarks/bench_their_text_cli.py THEIRDIR [--pages 10] [--repeat 3]

THEIRDIR holds <name>.txt for each corpus file (e.g. pdftotext's output). For each file,
the fastest of `--repeat` runs of `glyphscope text FILE --pages 1-N` and of
`glyphscope compare FILE --pages 1-N --text THEIRDIR/<name>.txt` (text output), summed.
Target: compare --text takes at most 20 % longer.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402

GLYPHSCOPE = [sys.executable, "-m", "glyphscope"]


def best(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("their_dir", type=Path)
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    total_text = total_compare = 0.0
    for path, password in corpus_files():
        txt = args.their_dir / (path.stem + ".txt")
        if not txt.is_file():
            continue
        pw = ["--password", password] if password else []
        pages = ["--pages", f"1-{args.pages}"] if args.pages else []
        # --pages beyond the end is an error: the page range of the file itself
        from glyphscope.core.document import open_document

        n = open_document(path, password).page_count
        pages = ["--pages", f"1-{min(n, args.pages)}"]
        t = best([*GLYPHSCOPE, "text", str(path), *pages, *pw, "-q"], args.repeat)
        c = best([*GLYPHSCOPE, "compare", str(path), *pages, *pw, "--text", str(txt), "-q"], args.repeat)
        total_text += t
        total_compare += c
        print(f"{path.name:50s} text {t:6.2f} s  compare --text {c:6.2f} s  (+{100 * (c / t - 1):.0f} %)")
    print(
        f"total: text {total_text:.2f} s, compare --text {total_compare:.2f} s "
        f"(+{100 * (total_compare / total_text - 1):.1f} %)"
    )


if __name__ == "__main__":
    main()
