"""How close glyphscope's engine runs to the tokenising floor, and how it compares as a whole process.

    python benchmarks/bench_floor.py [--repeat 3] [--merged /tmp/glyphscope-merged.pdf]

In one run, on the corpus and on one large file merged from the corpus pages:

* floor — pikepdf tokenising every content stream the engine reads (page streams,
  each form once per page): what any engine built on pikepdf pays before it knows
  a single glyph;
* reading floor — the floor plus reading every instruction into Python values (the
  operator's name, the operand list, each number as a float): the least an interpreter
  on pikepdf pays before it places a glyph, and what is left of the 3× budget after it;
* glyphscope's stages, in-process: interpretation, classification (cull, dedupe),
  plain assembly; their sum as a multiple of the floor;
* whole processes: `glyphscope text FILE` against pdfminer.six's `pdf2txt.py FILE`
  (start-up, imports, all pages), and the ratio;
* memory held per glyph for the densest page (tracemalloc): the interpreted page,
  its classification and its plain text, divided by its glyph count.

Targets: stages ≤ 3× the floor, ≥ 4× pdfminer.six as a whole process,
≤ 400 bytes per glyph.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pikepdf  # noqa: E402

from benchmarks._common import best_of, corpus_files  # noqa: E402
from glyphscope.core.assembly import assemble  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.core.passes import classify  # noqa: E402

VENV_BIN = Path(sys.executable).parent
Files = list[tuple[Path, str | None]]


# ---------------------------------------------------------------- inputs


def merge_corpus(files: Files, out: Path) -> tuple[int, int]:
    """Every readable corpus page in one unencrypted file; (pages, files merged)."""
    merged = pikepdf.new()
    used = 0
    for path, password in files:
        try:
            with pikepdf.open(path, password=password or "") as src:
                merged.pages.extend(src.pages)
                used += 1
        except Exception as exc:  # noqa: BLE001 -- a damaged file is left out of the merge
            print(f"  merge: left out {path.name}: {type(exc).__name__}", file=sys.stderr)
    merged.save(out)
    return len(merged.pages), used


# ---------------------------------------------------------------- the floor


def _forms(resources: Any, seen: set[tuple[int, int]]) -> list[pikepdf.Stream]:
    """The Form XObjects reachable from `resources`, each once (by object id)."""
    out: list[pikepdf.Stream] = []
    stack = [resources]
    while stack:
        res = stack.pop()
        xobjects = res.get("/XObject") if isinstance(res, pikepdf.Dictionary) else None
        if not isinstance(xobjects, pikepdf.Dictionary):
            continue
        for _, xobj in xobjects.items():
            if not isinstance(xobj, pikepdf.Stream) or xobj.get("/Subtype") != pikepdf.Name.Form:
                continue
            key = xobj.objgen
            if key in seen:
                continue
            seen.add(key)
            out.append(xobj)
            stack.append(xobj.get("/Resources"))
    return out


def tokenise(files: Files, read: bool = False) -> int:
    """Tokenise every page stream and each of its forms once; returns the instructions seen.

    `read`: also read each instruction into Python values (read_instructions)."""
    instructions = 0
    for path, password in files:
        try:
            pdf = pikepdf.open(path, password=password or "")
        except Exception:  # noqa: BLE001
            continue
        with pdf:
            for page in pdf.pages:
                try:
                    for target in (page, *_forms(page.obj.get("/Resources"), set())):
                        parsed = pikepdf.parse_content_stream(target)
                        instructions += len(parsed)
                        if read:
                            read_instructions(parsed)
                except Exception:  # noqa: BLE001 -- a stream pikepdf cannot parse costs what it cost
                    continue
    return instructions


def read_instructions(parsed: list[Any]) -> None:
    """What every interpreter does with an instruction before acting on it: its operator's
    name, its operands, the numbers among them as floats (pikepdf hands reals over as Decimal)."""
    number = (int, Decimal)
    for ins in parsed:
        str(ins.operator)
        for x in list(ins.operands):
            if isinstance(x, number):
                float(x)


# ---------------------------------------------------------------- glyphscope's stages


@dataclass
class Stages:
    interpret: float = 0.0
    classify: float = 0.0
    assemble: float = 0.0
    pages: int = 0
    glyphs: int = 0
    per_page: list[tuple[int, Path, int]] = field(default_factory=list)  # (glyphs, file, page)

    @property
    def total(self) -> float:
        return self.interpret + self.classify + self.assemble


def stages(files: Files) -> Stages:
    out = Stages()
    clock = time.perf_counter
    for path, password in files:
        try:
            doc = open_document(path, password)
        except Exception:  # noqa: BLE001
            continue
        for n in range(1, doc.page_count + 1):
            t0 = clock()
            page = doc.interpret(n)
            t1 = clock()
            visible = classify(page).visible
            t2 = clock()
            assemble(visible, "plain", visible_box=page.boxes.visible_box)
            t3 = clock()
            out.interpret += t1 - t0
            out.classify += t2 - t1
            out.assemble += t3 - t2
            out.pages += 1
            out.glyphs += len(page.glyphs)
            out.per_page.append((len(page.glyphs), path, n))
        doc.close()
    return out


def best_stages(files: Files, repeat: int) -> Stages:
    """Each stage's fastest time over `repeat` runs (fresh documents each time)."""
    runs = [stages(files) for _ in range(repeat)]
    best = runs[0]
    best.interpret = min(r.interpret for r in runs)
    best.classify = min(r.classify for r in runs)
    best.assemble = min(r.assemble for r in runs)
    return best


# ---------------------------------------------------------------- whole processes


# Both tools run with compiled bytecode cached in one temporary folder: where the environment
# sets PYTHONDONTWRITEBYTECODE (seen here), an editable install would otherwise recompile its
# sources in every process (~80 ms) while a wheel-installed pdfminer.six has its .pyc files.
_PYCACHE = tempfile.mkdtemp(prefix="bench-floor-pycache-")
_ENV = {**os.environ, "PYTHONPYCACHEPREFIX": _PYCACHE}
_ENV.pop("PYTHONDONTWRITEBYTECODE", None)


def run_process(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=_ENV)
    return time.perf_counter() - start


def whole_processes(files: Files, repeat: int) -> dict[str, float]:
    """Seconds for one process per file, summed: glyphscope text vs pdf2txt.py."""
    glyphscope = str(VENV_BIN / "glyphscope")
    pdf2txt = (
        str(VENV_BIN / "pdf2txt.py") if (VENV_BIN / "pdf2txt.py").exists() else shutil.which("pdf2txt.py")
    )
    tools: dict[str, list[str]] = {"glyphscope text": [glyphscope, "text", "-q"]}
    if pdf2txt:
        tools["pdfminer.six pdf2txt.py"] = [sys.executable, pdf2txt]
    out: dict[str, float] = {}
    for name, argv in tools.items():

        def every_file(argv: list[str] = argv, name: str = name) -> None:
            for path, password in files:
                extra: list[str] = []
                if password:
                    extra = ["--password", password] if name.startswith("glyphscope") else ["-P", password]
                run_process([*argv, *extra, str(path)])

        if files:
            run_process([*argv, str(files[0][0])])  # warm the bytecode cache (not timed)
        out[name], _ = best_of(every_file, repeat)
    return out


# ---------------------------------------------------------------- memory


def bytes_per_glyph(path: Path, password: str | None, page_number: int) -> tuple[int, float]:
    """(glyphs, bytes held per glyph) for one page: interpreted, classified and assembled (plain).

    The page is interpreted once first so that its fonts (loaded once per document and
    shared by every page) are not counted; then the page cache is emptied and the page
    product is measured on its own.
    """
    doc = open_document(path, password)
    doc.interpret(page_number)
    doc._cache.clear()  # the benchmark's only look inside: measure the page, not the fonts
    doc._cached_glyphs = 0
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    page = doc.interpret(page_number)
    classified = classify(page)
    text = assemble(classified.visible, "plain", visible_box=page.boxes.visible_box)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    glyphs = len(page.glyphs)
    del text, classified, page
    doc.close()
    return glyphs, held / max(glyphs, 1)


# ---------------------------------------------------------------- report


def report(label: str, files: Files, repeat: int) -> None:
    print(f"\n== {label}")
    floor, instructions = best_of(lambda: tokenise(files), repeat)
    s = best_stages(files, repeat)
    print(f"  {s.pages} pages, {s.glyphs:,} glyphs, {instructions:,} instructions tokenised")
    print(f"  floor (pikepdf tokenising)  {floor:7.3f} s")
    reading, _ = best_of(lambda: tokenise(files, read=True), repeat)
    left = 3 * floor - reading
    print(
        f"  reading floor               {reading:7.3f} s   {reading / floor:5.2f}× floor   "
        f"(leaves {left:.3f} s of the 3× budget: {left / max(s.glyphs, 1) * 1e6:.2f} µs a glyph for all three stages)"
    )
    for name, seconds in (
        ("interpretation", s.interpret),
        ("classification", s.classify),
        ("plain assembly", s.assemble),
    ):
        print(
            f"  {name:27} {seconds:7.3f} s   {seconds / floor:5.2f}× floor   {seconds / max(s.glyphs, 1) * 1e6:5.2f} µs a glyph"
        )
    print(f"  stages together             {s.total:7.3f} s   {s.total / floor:5.2f}× floor   (target ≤ 3×)")
    whole = whole_processes(files, repeat)
    for name, seconds in whole.items():
        print(f"  whole process: {name:24} {seconds:7.3f} s")
    if len(whole) == 2:
        ours, theirs = whole.values()
        print(
            f"  glyphscope is {theirs / ours:5.2f}× pdfminer.six as a whole process   "
            f"(target ≥ 4×: {theirs / 4:.3f} s at most)"
        )
    glyphs, path, n = max(s.per_page, key=lambda t: t[0])
    password = dict(files).get(path)
    count, per_glyph = bytes_per_glyph(path, password, n)
    print(
        f"  memory: {per_glyph:,.0f} bytes held per glyph on {path.name} p{n} ({count:,} glyphs; fonts excluded)   (target ≤ 400)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--merged", type=Path, default=Path("/tmp/glyphscope-merged.pdf"))
    ap.add_argument("--skip-corpus", action="store_true", help="only the merged file")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    files = corpus_files()
    pages, used = merge_corpus(files, args.merged)
    print(f"merged {pages} pages of {used} corpus files into {args.merged}")
    if not args.skip_corpus:
        report(f"corpus ({len(files)} files, one process per file)", files, args.repeat)
    report(f"merged file ({pages} pages, one process)", [(args.merged, None)], args.repeat)


if __name__ == "__main__":
    main()
