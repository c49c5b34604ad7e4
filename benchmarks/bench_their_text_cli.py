"""compare --text against glyphscope text, as users run them: whole commands, for the same pages.

    python benchmarks/bench_their_text_cli.py THEIRDIR [--pages 10] [--repeat 3] [--before PYTHON]

THEIRDIR holds <name>.txt for each corpus file (e.g. pdftotext's output). For each file,
the fastest of `--repeat` runs of `glyphscope text FILE --pages 1-N` and of
`glyphscope compare FILE --pages 1-N --text THEIRDIR/<name>.txt` (text output), summed,
run in turn (text, compare, text, compare, ...) so a busy machine slows both alike.
Besides the wall clock, the commands' processor time (user + system, from the
operating system's account of finished children) is summed: what another user of the
machine changes least. `--before PYTHON`: also time `compare --text` with another
installation's interpreter (e.g. a checkout of an earlier commit), in the same turns.
Target: compare --text takes at most 20 % longer than text.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, processor seconds) of one run of `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("their_dir", type=Path)
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", metavar="PYTHON", help="another installation's python, timed for compare too")
    args = ap.parse_args()
    from glyphscope.core.document import open_document

    commands = {"text": [sys.executable, "-m", "glyphscope"], "compare": [sys.executable, "-m", "glyphscope"]}
    if args.before:
        commands["before"] = [args.before, "-m", "glyphscope"]
    wall = dict.fromkeys(commands, 0.0)
    cpu = dict.fromkeys(commands, 0.0)
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    for path, password in corpus_files():
        txt = args.their_dir / (path.stem + ".txt")
        if not txt.is_file():
            continue
        pw = ["--password", password] if password else []
        n = open_document(path, password).page_count  # --pages beyond the end is an error
        pages = ["--pages", f"1-{min(n, args.pages)}"]
        argv = {
            key: [*cmd, "text", str(path), *pages, *pw, "-q"]
            if key == "text"
            else [*cmd, "compare", str(path), *pages, *pw, "--text", str(txt), "-q"]
            for key, cmd in commands.items()
        }
        best_w = dict.fromkeys(commands, float("inf"))
        best_c = dict.fromkeys(commands, float("inf"))
        for _ in range(args.repeat):
            for key in commands:  # in turn
                w, c = timed(argv[key])
                best_w[key] = min(best_w[key], w)
                best_c[key] = min(best_c[key], c)
        for key in commands:
            wall[key] += best_w[key]
            cpu[key] += best_c[key]
        extra = f"  before {best_w['before']:6.2f} s" if args.before else ""
        print(
            f"{path.name:50s} text {best_w['text']:6.2f} s  compare --text {best_w['compare']:6.2f} s "
            f"(+{100 * (best_w['compare'] / best_w['text'] - 1):.0f} %){extra}"
        )
    for key in commands:
        print(
            f"total {key:8s}: wall {wall[key]:7.2f} s (+{100 * (wall[key] / wall['text'] - 1):5.1f} % on text), "
            f"processor {cpu[key]:7.2f} s (+{100 * (cpu[key] / cpu['text'] - 1):5.1f} % on text)"
        )
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
