"""Shared helpers for the hand-run benchmarks: corpus listing and timing."""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from glyphscope.core.gcpause import allow_gc_pauses

allow_gc_pauses()  # as the command line does: benchmarks measure what users run

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("GLYPHSCOPE_CORPUS", REPO.parent / "shared" / "corpus"))  # as tests/corpus.py


def corpus_files() -> list[tuple[Path, str | None]]:
    """(path, password) for every manifest file; exits with a message when the corpus is absent."""
    manifest = CORPUS / "manifest.json"
    if not manifest.is_file():
        raise SystemExit(f"corpus not found at {CORPUS}: check out ../shared next to the repository")
    rows = json.loads(manifest.read_text(encoding="utf-8"))["files"]
    return [(CORPUS / r["file"], r.get("password") or None) for r in rows]


def best_of(
    fn: Callable[[], Any], repeat: int = 3, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, Any]:
    """Fastest of `repeat` runs (the least disturbed by the machine) and the last result.

    `clock=time.process_time` counts this process's CPU time instead of the wall clock: on a
    machine shared with other work the wall clock measures the others as much as the code."""
    times, result = [], None
    for _ in range(repeat):
        start = clock()
        result = fn()
        times.append(clock() - start)
    return min(times), result


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def synthetic_page(n: int) -> list[Any]:
    """n glyphs on a dense grid, every 20th one repeated as a fake-bold copy."""
    from glyphscope.core.glyph import DecodeSource, Glyph

    glyphs: list[Glyph] = []
    i = 0
    while len(glyphs) < n:
        x, y = (i % 120) * 5.0, (i // 120) * 11.0
        for dx in (0.0, 0.3) if i % 20 == 0 else (0.0,):
            gx = x + dx
            quad = ((gx, y - 2), (gx + 5, y - 2), (gx + 5, y + 7), (gx, y + 7))
            glyphs.append(
                Glyph(
                    len(glyphs),
                    chr(97 + i % 26),
                    97 + i % 26,
                    1,
                    "/F1",
                    10.0,
                    (gx, y),
                    (gx + 5, y),
                    (gx + 5, y),
                    quad,
                    9.25,
                    (1.0, 0.0),
                    0,
                    i,
                    (),
                    None,
                    DecodeSource.BASE_ENCODING,
                    0,
                    0.0,
                    "1 0 R",
                )
            )
        i += 1
    return glyphs[:n]


def process_wall_and_cpu(argv: Sequence[str]) -> tuple[float, float]:
    """One whole process, output thrown away: its wall time and the CPU time of it and of the
    workers it started (seconds). CPU time holds still on a machine busy with other work."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu, start = usage.ru_utime + usage.ru_stime, time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, usage.ru_utime + usage.ru_stime - cpu


def load_average() -> str:
    """The machine's load, printed beside timings so a reader can weigh them."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
