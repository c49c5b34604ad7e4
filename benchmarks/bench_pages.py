"""`glyphscope text` over many pages: time grows linearly with the page count.

    python benchmarks/bench_pages.py [--pages 10000 100000]

Generates one file per count (every page draws one short line; built by
doubling the page list, so 100,000 pages take a second) and runs the `text`
command on it in this process. Before the page list was built once per
document, each page lookup walked pikepdf's page list: 20,000 pages took
24.8 s and 100,000 did not finish in 60 s. Expect the per-page time of both
counts to be about the same.

Measured on the 2-core development machine, shared with six other sessions
(load average ~10), 2026-12-02 — linear: the per-page time does not grow:

       pages  file MB   open s   text s  µs/page
       10000      1.6     0.93     49.8     4977
      100000     16.0    11.29    388.2     3882
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _common  # noqa: E402,F401  (allows GC pauses, as the command line does)
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.inspector.cli.parser import run_command_line as run  # noqa: E402
from tests.hostile_files import many_pages  # noqa: E402


def _no_window(*_: object) -> int:
    raise SystemExit("the window was asked for")


def measure(count: int, folder: Path) -> tuple[float, float, float]:
    path = folder / f"pages-{count}.pdf"
    path.write_bytes(many_pages(count))
    start = time.perf_counter()
    doc = open_document(path)
    assert doc.page_count == count
    opened = time.perf_counter() - start
    doc.close()
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    start = time.perf_counter()
    with redirect_stdout(out):
        code = run(["text", str(path), "--quiet"], _no_window)
    elapsed = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"text exited {code} on {count} pages")
    return path.stat().st_size / 1e6, opened, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    print(f"{'pages':>8} {'file MB':>8} {'open s':>8} {'text s':>8} {'µs/page':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for count in args.pages:
            size, opened, elapsed = measure(count, Path(tmp))
            print(f"{count:>8} {size:>8.1f} {opened:>8.2f} {elapsed:>8.1f} {elapsed / count * 1e6:>8.0f}")


if __name__ == "__main__":
    main()
