"""Stepper benchmark: one operator forward/back on a 20,000-glyph page, in the real window.

    python benchmarks/bench_stepper.py [--glyphs 20000] [--steps 60]

Uses the dense page of bench_page_switch.py (tiny text, 100 glyphs per Tj) and
also a word-per-operator variant (TJ per word: many more operators). Prints:

* trace: core.trace.trace_page of the page (done once, in a worker, when the panel shows);
* model + panel: Stepper.forward() with the panel's synchronous update (list row, state table);
* one step on screen: forward() then the event loop until the canvas has repainted what the
  step changed (the glyphs it painted, the previous and current highlights, the pen).

Target: one operator < 50 ms on the 20,000-glyph page.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pikepdf  # noqa: E402

from benchmarks.bench_page_switch import add_page, dense_pdf, font  # noqa: E402
from glyphscope.core.gcpause import allow_gc_pauses  # noqa: E402

allow_gc_pauses()


def word_pdf(path: Path, glyphs: int) -> None:
    """One TJ per word of 6 letters, 100 glyphs per line: ~glyphs / 6 text operators."""
    pdf = pikepdf.new()
    f = font(pdf)
    lines = max(1, glyphs // 100)
    size = 700.0 / lines
    ops = [f"BT /F1 {size * 0.9:.3f} Tf"]
    for i in range(lines):
        ops.append(f"1 0 0 1 36 {760 - i * size:.3f} Tm")
        for w in range(100 // 6):
            ops.append("[(lorem) -250 (i)] TJ" if w % 2 else "(ipsumd) Tj")
    ops.append("ET")
    add_page(pdf, f, ops)
    pdf.save(path)


def run(path: Path, steps: int) -> None:
    from PySide6.QtWidgets import QApplication

    from glyphscope.inspector.gui.main_window import MainWindow, make_settings

    app = QApplication.instance() or QApplication(["bench", "-platform", "offscreen"])
    w = MainWindow(settings=make_settings())
    w.resize(1600, 1000)
    w.show()
    w.open_path(path)
    deadline = time.time() + 120
    while (w.bundle is None or w.bundle.analysis is None) and time.time() < deadline:
        app.processEvents()
        time.sleep(0.01)
    dock = w.panels["stepper"]
    dock.show()
    dock.raise_()
    panel = w.stepper_panel
    t0 = time.perf_counter()
    while panel.stepper.trace is None and time.time() < deadline:
        app.processEvents()
        time.sleep(0.005)
    trace_ms = (time.perf_counter() - t0) * 1000
    stepper = panel.stepper
    trace = stepper.trace
    print(
        f"{path.name}: {len(trace.steps):,} operators, {trace.glyph_count:,} glyphs; trace {trace_ms:.0f} ms"
    )
    stepper.go(len(trace.steps) // 2)
    w.canvas.viewport().repaint()
    app.processEvents()
    model, screen = [], []
    for i in range(steps):
        move = stepper.forward if i % 2 == 0 else stepper.back
        t = time.perf_counter()
        move()
        model.append((time.perf_counter() - t) * 1000)
        app.processEvents()
        screen.append((time.perf_counter() - t) * 1000)
    print(
        f"  model + panel: median {statistics.median(model):.1f} ms, max {max(model):.1f} ms;"
        f" one step on screen: median {statistics.median(screen):.1f} ms, max {max(screen):.1f} ms"
    )
    w.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--glyphs", type=int, default=20_000)
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dense = Path(tmp) / "dense.pdf"
        dense_pdf(dense, args.glyphs, pages=1)
        words = Path(tmp) / "words.pdf"
        word_pdf(words, args.glyphs)
        for path in (dense, words):
            run(path, args.steps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
