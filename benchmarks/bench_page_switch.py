"""Page-switch benchmark of the inspector window (render + interpret + overlays + paint).

    python benchmarks/bench_page_switch.py [--pages 1000] [--glyphs 20000]

Builds two files with pikepdf in a temporary folder: a dense page (~20,000
glyphs on each of 6 pages) and a 1,000-page file, then drives the real
MainWindow offscreen and prints:

* first page painted: open_path() → page on screen and painted;
* then its overlays (glyphs, their classes, the panels), its own mode's text with the decision
  marks, and every mode's text: the page is shown in stages, each as soon as it is ready;
* first visit: switching to a page not seen yet (work in a worker, prefetch on);
* after the first visit: switching back to a page already seen (the cache);
* paint: one full repaint of the canvas with every layer on;
* step: one stepper step forward from the page's middle glyph, with the repaint it asks for;
* the renderer process (PDFium runs there, inspector.render.worker): start-up, first page, next pages.

Targets: median switch after the first visit < 150 ms, first page < 1.5 s;
overlays of a 20,000-glyph page within 300 ms of the page image, every mode's text within 1.5 s,
a stepper step ≤ 50 ms.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pikepdf  # noqa: E402

from glyphscope.core.gcpause import allow_gc_pauses  # noqa: E402

allow_gc_pauses()  # as the window does (glyphscope.__main__)


def font(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )


def add_page(pdf: pikepdf.Pdf, f: pikepdf.Dictionary, ops: list[str]) -> None:
    """A Letter page drawing `ops` with /F1 = f."""
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, 612, 792],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=f)),
        Contents=pdf.make_stream("\n".join(ops).encode()),
    )
    pdf.pages.append(pikepdf.Page(page))


def dense_pdf(path: Path, glyphs: int, pages: int = 6) -> None:
    """Pages of tiny text: `glyphs` glyphs each, 100 per line, words of 6 letters."""
    pdf = pikepdf.new()
    f = font(pdf)
    per_line = 100
    lines = max(1, glyphs // per_line)
    size = 700.0 / lines
    words = "lorem ipsum dolor sitame conse adipis elitse doeius tempor incidi ".replace(" ", "")
    for p in range(pages):
        ops = [f"BT /F1 {size * 0.9:.3f} Tf"]
        for i in range(lines):
            text = "".join(
                words[(i * 7 + j + p) % len(words)] + (" " if j % 7 == 6 else "") for j in range(per_line)
            )
            text = text[:per_line].replace("(", "").replace(")", "")
            ops.append(f"1 0 0 1 36 {760 - i * size:.3f} Tm ({text}) Tj")
        ops.append("ET")
        add_page(pdf, f, ops)
    pdf.save(path)


def long_pdf(path: Path, pages: int) -> None:
    """`pages` ordinary pages of a few text lines each."""
    pdf = pikepdf.new()
    f = font(pdf)
    for p in range(pages):
        ops = ["BT /F1 11 Tf 72 720 Td 14 TL"]
        for i in range(40):
            ops.append(f"(Page {p + 1}, line {i + 1}: the quick brown fox jumps over the lazy dog.) '")
        ops.append("ET")
        add_page(pdf, f, ops)
    pdf.save(path)


def renderer_timings(tmp: Path) -> tuple[float, float, float]:
    """(start, first page, median page) in ms for one renderer process (inspector.render.worker)."""
    from glyphscope.inspector.render.renderer import RenderProcess, single_page_pdf

    path = tmp / "letter.pdf"
    long_pdf(path, 1)
    with pikepdf.open(path) as pdf:
        from glyphscope.core.document import read_page_boxes

        data = single_page_pdf(pdf, 1, read_page_boxes(pdf.pages[0].obj))
    process = RenderProcess()
    try:
        t = time.perf_counter()
        process.start()
        process.render(data, 1, 1)  # the child answers once it is up
        start = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        process.render(data, 1224, 1584)
        first = (time.perf_counter() - t) * 1000
        times = []
        for _ in range(10):
            t = time.perf_counter()
            process.render(data, 1224, 1584)
            times.append((time.perf_counter() - t) * 1000)
        return start, first, statistics.median(times)
    finally:
        process.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=1000)
    ap.add_argument("--glyphs", type=int, default=20000)
    args = ap.parse_args()

    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from glyphscope.inspector.gui.app import gui_process

    gui_process()  # as the window's entry point does
    app = QApplication.instance() or QApplication([])
    app.setApplicationName("glyphscope-bench")
    tmp = Path(tempfile.mkdtemp(prefix="glyphscope-bench-"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp / "settings"))
    from glyphscope.inspector.gui.main_window import MainWindow, make_settings
    from glyphscope.inspector.layers.registry import LAYER_KEYS

    def wait(signal, page: int | None = None, timeout: int = 60_000) -> None:
        loop = QEventLoop()

        def done(*a: object) -> None:
            if page is None or (a and a[0] == page):
                loop.quit()

        signal.connect(done)
        QTimer.singleShot(timeout, loop.quit)
        loop.exec()
        signal.disconnect(done)

    def switch(w: MainWindow, page: int) -> float:
        t = time.perf_counter()
        if w.loader.cache.get(page) is not None:
            w.session.set_page(page)
        else:
            w.session.set_page(page)
            wait(w.page_shown, page)
        w.canvas.viewport().repaint()
        return (time.perf_counter() - t) * 1000

    def stepper_steps(w: MainWindow, paint_index: int, steps: int = 40) -> float:
        """Median ms of one stepper step (forward) and the repaint it asks for (the step's region, as
        in the window), from the glyph `paint_index` (traced by Ctrl+F10, as a user does)."""
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        panel = w.stepper_panel
        w.session.select([paint_index], "bench")
        QTest.keyClick(w, Qt.Key.Key_F10, Qt.KeyboardModifier.ControlModifier)
        end = time.monotonic() + 60
        while panel.stepper.step is None and time.monotonic() < end:
            loop = QEventLoop()
            QTimer.singleShot(20, loop.quit)
            loop.exec()
        times = []
        for _ in range(steps):
            t = time.perf_counter()
            panel.stepper.forward()
            app.processEvents()  # the panel's state and the canvas's update of the step's region
            times.append((time.perf_counter() - t) * 1000)
        return statistics.median(times) if times else float("nan")

    def idle(w: MainWindow) -> None:
        """Let prefetching finish so a measurement is not sharing the CPU with it."""
        while w.loader.busy():
            loop = QEventLoop()
            QTimer.singleShot(20, loop.quit)
            loop.exec()

    def open_and_paint(w: MainWindow, path: Path) -> tuple[float, float, float, float]:
        """(page painted, glyph overlays shown, own mode's text and decision marks in, every mode in),
        in ms from open_path()."""
        marks: dict[str, float] = {}
        t = time.perf_counter()

        def painted(page: int) -> None:
            w.canvas.viewport().repaint()
            marks.setdefault("painted", time.perf_counter())

        def shown(page: int) -> None:
            w.canvas.viewport().repaint()
            marks.setdefault("shown", time.perf_counter())

        def texts(view: object) -> None:
            w.canvas.viewport().repaint()
            marks.setdefault("texts", time.perf_counter())

        w.page_painted.connect(painted)
        w.page_shown.connect(shown)
        w.session.events.texts.connect(texts)
        w.open_path(path)
        wait(w.page_complete)
        w.canvas.viewport().repaint()
        done = time.perf_counter()
        w.page_painted.disconnect(painted)
        w.page_shown.disconnect(shown)
        w.session.events.texts.disconnect(texts)
        return tuple((marks.get(k, done) - t) * 1000 for k in ("painted", "shown", "texts")) + (  # type: ignore[return-value]
            (done - t) * 1000,
        )

    renderer = renderer_timings(tmp)
    results = []
    dense = tmp / "dense.pdf"
    long = tmp / "long.pdf"
    t = time.perf_counter()
    dense_pdf(dense, args.glyphs)
    long_pdf(long, args.pages)
    print(f"built test files in {time.perf_counter() - t:.1f} s")
    try:
        for label, path, visit in (
            ("dense page", dense, range(1, 7)),
            (f"{args.pages}-page file", long, None),
        ):
            w = MainWindow(settings=make_settings())
            w.resize(1600, 1000)
            w.show()
            first, shown, own, analysed = open_and_paint(w, path)
            glyphs = w.legend.count("glyphs")
            # Once the neighbouring pages are prefetched: while their analysis runs in the workers
            # (about 1.5 s after opening the dense file) a step takes 40-60 ms, sharing the
            # interpreter with them, and the median flipped between 15 and 45 ms from run to run.
            idle(w)
            step = stepper_steps(w, (glyphs or 1) // 2)
            count = w.session.page_count
            pages = list(visit) if visit else [1, 2, 3, 10, 100, 250, 500, 750, 999, count]
            pages = [p for p in pages if p <= count]
            idle(w)
            first_visits = []
            for p in pages[1:]:
                first_visits.append(switch(w, p))
                idle(w)
            revisits = []
            for _ in range(3):
                for p in pages:
                    revisits.append(switch(w, p))
            for key in LAYER_KEYS:
                w.session.set_layer_visible(key, True)
            paints = []
            for _ in range(5):
                t = time.perf_counter()
                w.canvas.viewport().repaint()
                paints.append((time.perf_counter() - t) * 1000)
            w.canvas.set_zoom(6.0)
            zoomed = []
            for _ in range(5):
                t = time.perf_counter()
                w.canvas.viewport().repaint()
                zoomed.append((time.perf_counter() - t) * 1000)
            results.append(
                (
                    label,
                    glyphs,
                    first,
                    shown,
                    own,
                    analysed,
                    statistics.median(first_visits),
                    statistics.median(revisits),
                    statistics.median(paints),
                    statistics.median(zoomed),
                    step,
                )
            )
            w.close()

    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print()
    print(
        f"{'file':<18}{'glyphs/page':>12}{'1st painted':>12}{'overlays':>10}{'own text':>10}{'all texts':>11}"
        f"{'1st visit':>11}{'revisit':>9}{'paint all':>11}{'paint 600%':>12}{'step':>7}   (ms, medians)"
    )
    for label, glyphs, first, shown, own, analysed, fv, rv, paint, zoom, step in results:
        print(
            f"{label:<18}{glyphs:>12}{first:>12.0f}{shown:>10.0f}{own:>10.0f}{analysed:>11.0f}"
            f"{fv:>11.0f}{rv:>9.0f}{paint:>11.0f}{zoom:>12.0f}{step:>7.0f}"
        )
    print(
        "\n1st painted: open → rendered page on screen; overlays: → the glyphs and their classes drawn, the\n"
        "panels filled (target: within 300 ms of the page image); own text: → the mode on screen's text and\n"
        "decision marks; all texts: → every mode's text (they follow the page in its worker);\n"
        "1st visit: switch to a page not seen before (prefetch on); revisit: switch to a page seen before;\n"
        "step: one stepper step forward from the middle glyph (Ctrl+F10), with the repaint it asks for."
    )
    start, first_page, page = renderer
    print(
        f"\nrenderer process (PDFium out of the window): start {start:.0f} ms, first page {first_page:.0f} ms, "
        f"then {page:.0f} ms per Letter page at 2 px/pt (median, pixels included)"
    )
    ok = all(r[2] < 1500 and r[7] < 150 for r in results)
    print(
        "\ntargets: first page < 1500 ms, switch after the first visit < 150 ms:", "met" if ok else "NOT met"
    )
    dense_gap = results[0][3] - results[0][2]
    within = dense_gap <= 300
    print(
        f"overlays of the dense page {dense_gap:.0f} ms after its image (target ≤ 300):",
        "met" if within else "NOT met",
    )
    texts_in = results[0][5] <= 1500
    print(
        f"every mode's text of the dense page at {results[0][5]:.0f} ms (target ≤ 1500):",
        "met" if texts_in else "NOT met",
    )
    steps_ok = all(r[10] <= 50 for r in results)
    print(
        "a stepper step ≤ 50 ms:",
        ", ".join(f"{r[0]} {r[10]:.0f} ms" for r in results),
        "met" if steps_ok else "NOT met",
    )
    return 0 if ok and within and texts_in and steps_ok else 1


if __name__ == "__main__":
    sys.exit(main())
