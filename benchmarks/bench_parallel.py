"""Pages in parallel and start-up, as whole processes against pdfminer.six's `pdf2txt.py`, in one run.

    python benchmarks/bench_parallel.py [--repeat 5] [--startup-runs 20] [--merged /tmp/glyphscope-merged.pdf]

1. Issue 40 point 4 measures the corpus files of 77 pages or more. The files with at least
   LONG_PAGES pages are listed; when the corpus has none (the development corpus's longest
   file has 28 pages), the merged corpus file (every readable corpus page in one file, as
   bench_floor.py builds it, 121 pages) stands in for them, and the longest real file is
   measured beside it. For each: `glyphscope text FILE --jobs J` for J = 1 .. the usable
   processors, and `pdf2txt.py FILE`, in turn; the ratio pdf2txt / glyphscope for each J (wall
   clock, and CPU time of the process with its workers beside it). The acceptance line is the
   ratio with `--jobs 2` (target ≥ 3.5× on 2 cores).
2. Where workers start to pay: files of K pages taken evenly from the merged file,
   `--jobs N` against `--jobs 1`, for `text` and for `fonts` (the lightest page task: reading
   only) (core.page_workers.PARALLEL_MIN_PAGES is this measurement).
3. Start-up: `glyphscope text` against `pdf2txt.py` on the smallest one-page corpus files
   with simple fonts only (no Type0: Latin text), as pairs of whole processes run in turn;
   the ratio of each pair, median, min and max over `--startup-runs` pairs (target ≤ 1.25×).
4. The library's whole-document text, in this process: `glyphscope.open(FILE).extract_text(
   jobs=J)` on the merged file for J = 1 .. the usable processors (the same page pool).

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

import glyphscope  # noqa: E402
from benchmarks._common import corpus_files, load_average, process_wall_and_cpu  # noqa: E402
from benchmarks.bench_floor import merge_corpus  # noqa: E402
from glyphscope.core.worker_processes import usable_cpus  # noqa: E402

BIN = Path(sys.executable).parent
BREAK_EVEN_PAGES = (1, 2, 3, 4, 6, 8, 12, 16)
LONG_PAGES = 77  # issue 40 point 4: "the 77+ page files of the corpus"
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


def _page_count(path: Path, password: str | None) -> int:
    try:
        with pikepdf.open(path, password=password or "") as pdf:
            return len(pdf.pages)
    except Exception:  # noqa: BLE001 — a file pikepdf cannot open is not measured
        return 0


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


def _simple_fonts_only(pdf: pikepdf.Pdf) -> bool:
    """No composite (Type0) font in the file (an indirect object, or direct in a page's
    /Resources): a Latin page's start-up, not that of CJK CMaps."""
    fonts = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Dictionary)]
    for page in pdf.pages:
        resources = page.obj.get("/Resources")
        table = resources.get("/Font") if isinstance(resources, pikepdf.Dictionary) else None
        if isinstance(table, pikepdf.Dictionary):
            fonts.extend(f for f in table.values() if isinstance(f, pikepdf.Dictionary))
    return not any(f.get("/Subtype") == pikepdf.Name.Type0 for f in fonts)


def _small_one_page_files(limit: int) -> list[Path]:
    """The smallest unencrypted one-page corpus files with simple fonts only, that both tools read."""
    found: list[tuple[int, Path]] = []
    for path, password in corpus_files():
        if password:
            continue
        try:
            with pikepdf.open(path) as pdf:
                if len(pdf.pages) != 1 or pdf.is_encrypted or not _simple_fonts_only(pdf):
                    continue
        except Exception:  # noqa: BLE001 — a damaged file is no start-up measure
            continue
        found.append((path.stat().st_size, path))
    return [p for _, p in sorted(found)][:limit]


def _paired_ratios(a: list[str], b: list[str], runs: int) -> tuple[list[float], list[float], list[float]]:
    """`runs` pairs of whole processes, A then B (one warm-up pair first): A's and B's wall
    times and each pair's A / B."""
    _wall(a), _wall(b)
    times_a, times_b = [], []
    for _ in range(runs):
        times_a.append(_wall(a))
        times_b.append(_wall(b))
    return times_a, times_b, [x / y for x, y in zip(times_a, times_b)]


def _spread(values: list[float]) -> str:
    return f"median {statistics.median(values):5.2f}  min {min(values):5.2f}  max {max(values):5.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--startup-runs", type=int, default=20, help="pairs of processes per start-up file")
    ap.add_argument("--only", type=int, choices=(1, 2, 3, 4), help="run this part alone")
    ap.add_argument("--merged", type=Path, default=Path(tempfile.gettempdir()) / "glyphscope-merged.pdf")
    args = ap.parse_args()
    glyphscope_cmd, pdf2txt = _command("glyphscope"), _command("pdf2txt.py")
    cpus = usable_cpus()
    pages, used = merge_corpus(corpus_files(), args.merged)
    print(f"{cpus} usable processor(s); merged {pages} pages of {used} corpus files into {args.merged}")

    if args.only in (None, 1):
        _whole_file(glyphscope_cmd, pdf2txt, args.merged, pages, cpus, args.repeat)
    if args.only in (None, 2):
        _break_even(glyphscope_cmd, args.merged, cpus, args.repeat)
    if args.only in (None, 3):
        _startup(glyphscope_cmd, pdf2txt, args.startup_runs)
    if args.only in (None, 4):
        _library(args.merged, pages, cpus, args.repeat)


def _whole_file(
    glyphscope_cmd: list[str], pdf2txt: list[str], merged: Path, pages: int, cpus: int, repeat: int
) -> None:
    counted = [(p, pw, _page_count(p, pw)) for p, pw in corpus_files()]
    long_files = [(p, pw, n) for p, pw, n in counted if n >= LONG_PAGES]
    print(f"\n1. pages in parallel, whole processes, median of {repeat} ({load_average()})")
    if long_files:
        print(
            f"  corpus files of {LONG_PAGES}+ pages: "
            + ", ".join(f"{p.name} ({n})" for p, _, n in long_files)
        )
        measured = [(p, pw, n, "") for p, pw, n in long_files]
    else:
        longest = max(counted, key=lambda row: row[2])
        print(
            f"  the corpus has no file of {LONG_PAGES}+ pages (the longest: {longest[0].name}, {longest[2]} "
            f"pages): the merged corpus file ({pages} pages) stands in, the longest file beside it"
        )
        measured = [(merged, None, pages, " (stand-in)"), (*longest, "")]
    results: list[tuple[str, float]] = []
    totals = [0.0, 0.0]  # the 77+ page files together: pdf2txt.py's wall time, --jobs 2's
    for path, password, count, note in measured:
        ours = [*glyphscope_cmd, "text", str(path), *(["--password", password] if password else [])]
        theirs = [*pdf2txt, str(path), *(["-P", password] if password else [])]
        commands = {f"jobs {j}": [*ours, "--jobs", str(j)] for j in range(1, cpus + 1)}
        commands["pdf2txt.py"] = theirs
        for argv in commands.values():  # warm-up
            process_wall_and_cpu(argv)
        wall: dict[str, list[float]] = {key: [] for key in commands}
        cpu: dict[str, list[float]] = {key: [] for key in commands}
        for _ in range(repeat):
            for key, argv in commands.items():
                w, c = process_wall_and_cpu(argv)
                wall[key].append(w)
                cpu[key].append(c)
        print(f"  {path.name}, {count} pages{note}")
        base_wall, base_cpu = statistics.median(wall["pdf2txt.py"]), statistics.median(cpu["pdf2txt.py"])
        for key in commands:
            w, c = statistics.median(wall[key]), statistics.median(cpu[key])
            print(
                f"    {key:<12} wall {w:7.2f} s  pdf2txt.py / this {base_wall / w:5.2f}×    "
                f"cpu {c:7.2f} s  pdf2txt.py / this {base_cpu / c:5.2f}×"
            )
        if "jobs 2" in wall:
            results.append((f"{path.name}{note}", base_wall / statistics.median(wall["jobs 2"])))
            if long_files:
                totals[0] += base_wall
                totals[1] += statistics.median(wall["jobs 2"])
    if len(long_files) > 1 and totals[1]:
        results.append((f"the {len(long_files)} files together", totals[0] / totals[1]))
    print(f"  ({load_average()})")
    for name, ratio in results:
        verdict = "holds" if ratio >= 3.5 else "not met"
        print(
            f"  acceptance 4: pdf2txt.py / glyphscope --jobs 2 on {name}: {ratio:.2f}× (target ≥ 3.5×): {verdict}"
        )


def _break_even(glyphscope_cmd: list[str], merged: Path, cpus: int, repeat: int) -> None:
    print(f"\n2. --jobs {cpus} against --jobs 1 by page count (below 1.00: workers pay)")
    print("  pages     text  fonts")
    with tempfile.TemporaryDirectory() as tmp:
        for count in BREAK_EVEN_PAGES:
            part = Path(tmp) / f"pages-{count}.pdf"
            _pages_file(merged, count, part)
            cells = []
            for command in ("text", "fonts"):
                pair = _medians(
                    {
                        "one": [*glyphscope_cmd, command, str(part), "--jobs", "1"],
                        "many": [*glyphscope_cmd, command, str(part), "--jobs", str(cpus)],
                    },
                    repeat * 2,
                )
                cells.append(f"{pair['many'] / pair['one']:5.2f}")
            print(f"  {count:5d}   {'  '.join(cells)}")


def _startup(glyphscope_cmd: list[str], pdf2txt: list[str], runs: int) -> None:
    print(
        f"\n3. start-up: glyphscope text / pdf2txt.py, {runs} pairs of whole processes per file, "
        "small one-page files with simple fonts (target ≤ 1.25)"
    )
    medians = []
    for path in _small_one_page_files(SMALL_FILES):
        ours, theirs, ratios = _paired_ratios(
            [*glyphscope_cmd, "text", str(path)], [*pdf2txt, str(path)], runs
        )
        medians.append(statistics.median(ratios))
        print(
            f"  {path.name:<40} {statistics.median(ours) * 1000:5.0f} ms / "
            f"{statistics.median(theirs) * 1000:5.0f} ms   ratio {_spread(ratios)}"
        )
    if medians:
        print(f"  median of the files' medians {statistics.median(medians):5.2f}")


def _library(merged: Path, pages: int, cpus: int, repeat: int) -> None:
    print(f"\n4. the library: glyphscope.open(FILE).extract_text(jobs=J), {pages} pages, in this process")
    times: dict[int, list[float]] = {j: [] for j in range(1, cpus + 1)}
    texts = set()
    for _ in range(repeat):
        for j in times:
            with glyphscope.open(merged) as pdf:  # a new document each time: no page cached
                start = time.perf_counter()
                texts.add(pdf.extract_text(jobs=j))
                times[j].append(time.perf_counter() - start)
    one = statistics.median(times[1])
    for j, values in times.items():
        seconds = statistics.median(values)
        print(f"  jobs {j:<7} {seconds:7.2f} s   jobs 1 / this {one / seconds:5.2f}×")
    print(f"  the same text whatever jobs is: {len(texts) == 1}")


if __name__ == "__main__":
    main()
