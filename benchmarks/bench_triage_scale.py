"""Triage at archive scale: files/s for --jobs 1, --jobs 2 and Dask in one run; the parent's peak RSS.

    .venv/bin/python benchmarks/bench_triage_scale.py                 # 10,000 generated files + the corpus
    .venv/bin/python benchmarks/bench_triage_scale.py --files 2000 --no-corpus

Each run is `glyphscope triage FOLDER --jsonl OUT -q` in its own process (rows streamed to the file,
none kept), timed by wall clock; the parent's peak RSS is its VmHWM from /proc (Linux), read until
it exits, so the worker processes are not counted. Dask runs need `pip install 'glyphscope[dask]'`.
Not a test: numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pikepdf

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"


def small_pdf(i: int) -> bytes:
    """A one-page PDF with a few lines of text (about 1 KB), different per file."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )
    lines = b" ".join(
        b"0 -14 Td (Line %d of file %d: an ordinary sentence of text.) Tj" % (n, i) for n in range(8)
    )
    content = b"BT /F1 10 Tf 72 720 Td " + lines + b" ET"
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, 612, 792],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
        Contents=pdf.make_stream(content),
    )
    pdf.pages.append(pikepdf.Page(page))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def generate(folder: Path, n: int) -> None:
    for i in range(n):
        sub = folder / f"{i // 1000:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"doc{i:05d}.pdf").write_bytes(small_pdf(i))


def peak_rss_run(argv: list[str]) -> tuple[float, float, int]:
    """(seconds, parent peak RSS in MB, exit code) of one command."""
    started = time.monotonic()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    status = Path(f"/proc/{proc.pid}/status")
    peak_kb = 0
    while proc.poll() is None:
        try:
            for line in status.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak_kb = max(peak_kb, int(line.split()[1]))
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    seconds = time.monotonic() - started
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode not in (0,):
        print(err[-2000:], file=sys.stderr)
    return seconds, peak_kb / 1024, proc.returncode


def count_rows(path: Path) -> int:
    with path.open(encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip() and json.loads(line).get("file"))


def bench(folder: Path, label: str, runs: list[tuple[str, list[str]]], out_dir: Path) -> None:
    print(f"\n{label}: {folder}")
    print(f"{'run':>12}  {'files':>6}  {'seconds':>8}  {'files/s':>8}  {'parent peak RSS':>15}")
    for name, extra in runs:
        out = out_dir / f"{name.replace(' ', '_')}.jsonl"
        argv = [sys.executable, "-m", "glyphscope", "triage", str(folder), "--jsonl", str(out), "-q", *extra]
        seconds, rss, code = peak_rss_run(argv)
        files = count_rows(out) if out.exists() else 0
        note = "" if code == 0 else f"  (exit {code})"
        print(f"{name:>12}  {files:>6}  {seconds:>8.1f}  {files / seconds:>8.1f}  {rss:>12.0f} MB{note}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=10_000, help="generated small files")
    ap.add_argument("--no-corpus", action="store_true", help="skip the corpus runs")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask runs")
    args = ap.parse_args()
    try:
        import distributed  # noqa: F401

        dask = not args.no_dask
    except ImportError:
        print("Dask is not installed (pip install 'glyphscope[dask]'): no Dask runs")
        dask = False
    runs = [("--jobs 1", ["--jobs", "1"]), ("--jobs 2", ["--jobs", "2"])]
    if dask:
        runs.append(("dask", ["--scheduler", "dask"]))
    work = Path(tempfile.mkdtemp(prefix="glyphscope-bench-triage-"))
    try:
        if not args.no_corpus and CORPUS.is_dir():
            bench(CORPUS, "corpus", runs, work)
        folder = work / "generated"
        t = time.monotonic()
        generate(folder, args.files)
        print(f"\ngenerated {args.files} small files in {time.monotonic() - t:.1f} s")
        bench(folder, f"{args.files} small files", runs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
