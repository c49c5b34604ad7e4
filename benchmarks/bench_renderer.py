"""The page renderer: PDFium (pypdfium2, inspector.render.worker) over the corpus, same run
as QtPdf when PySide6's QtPdf module is installed (it is not part of any extra any more).

    python benchmarks/bench_renderer.py [--pages 3] [--scale 2]

Per page: the one-page copy (inspector.render.renderer.single_page_pdf) drawn in process by each
renderer, its time, and the pixel difference between the two (QtPdf's transparent
background composited on white, as the window drew it). Then the renderer process:
start-up to its first answer, and demo pages through it (pixels included).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402
from glyphscope.core.document import read_page_boxes  # noqa: E402
from glyphscope.core.page_tree_repair import open_pdf  # noqa: E402
from glyphscope.inspector.render.renderer import (  # noqa: E402
    Pixels,
    RenderProcess,
    page_size_problem,
    render_pixels,
    single_page_pdf,
)
from glyphscope.inspector.render.worker import _render, _warm_up  # noqa: E402


def qtpdf_renderer() -> Any:
    """A function (pdf bytes, w, h) → (seconds, RGB array) drawn by QtPdf, or None without PySide6.QtPdf."""
    try:
        from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QSize
        from PySide6.QtPdf import QPdfDocument, QPdfDocumentRenderOptions
    except ImportError:
        return None
    import numpy as np

    app = QCoreApplication.instance() or QCoreApplication(["bench"])

    def render(data: bytes, w: int, h: int) -> tuple[float, Any]:
        t = time.perf_counter()
        array = QByteArray(data)
        buffer = QBuffer(array)
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        doc = QPdfDocument()
        doc.load(buffer)
        options = QPdfDocumentRenderOptions()
        options.setRenderFlags(QPdfDocumentRenderOptions.RenderFlag.Annotations)
        image = doc.render(0, QSize(w, h), options)
        doc.close()
        buffer.close()
        elapsed = time.perf_counter() - t  # load + render, as PDFium's time below
        image = image.convertToFormat(image.Format.Format_RGBA8888)
        rgba = np.frombuffer(bytes(image.constBits()), np.uint8).reshape(h, image.bytesPerLine())[:, : 4 * w]
        rgba = rgba.reshape(h, w, 4).astype(np.int32)
        alpha = rgba[:, :, 3:4]
        return elapsed, (rgba[:, :, :3] * alpha + 255 * (255 - alpha)) // 255  # over white

    render.app = app  # type: ignore[attr-defined]  # keep the application alive
    return render


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=3, help="pages per file (default 3)")
    ap.add_argument("--scale", type=float, default=2.0, help="pixels per point (default 2)")
    args = ap.parse_args()
    import numpy as np

    _warm_up()
    qt = qtpdf_renderer()
    ours: list[float] = []
    theirs: list[float] = []
    diffs: list[float] = []
    for path, password in corpus_files():
        try:
            pdf = open_pdf(path, password or "")
        except Exception:  # noqa: BLE001 — a file the engine refuses is not a renderer's page
            continue
        for n in range(1, min(args.pages, len(pdf.pages)) + 1):
            boxes = read_page_boxes(pdf.pages[n - 1].obj)
            if page_size_problem(boxes):
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                data = single_page_pdf(pdf, n, boxes)
            w, h = render_pixels(boxes, args.scale)
            t = time.perf_counter()
            header, pixels = _render(data, w, h)
            ours.append(time.perf_counter() - t)
            if not header.get("ok"):
                continue
            if qt is not None:
                elapsed, old = qt(data, w, h)
                theirs.append(elapsed)
                new = np.asarray(Pixels(w, h, int(header["bytes_per_line"]), pixels).to_pil().convert("RGB"))
                diffs.append(float(np.abs(old - new.astype(np.int32)).mean()))
        pdf.close()
    ms = statistics.median(ours) * 1000
    print(
        f"PDFium: {len(ours)} pages, median {ms:.1f} ms, mean {statistics.mean(ours) * 1000:.1f} ms per page"
    )
    if theirs:
        print(
            f"QtPdf:  {len(theirs)} pages, median {statistics.median(theirs) * 1000:.1f} ms, "
            f"mean {statistics.mean(theirs) * 1000:.1f} ms per page"
        )
        print(
            f"pixel difference (mean |Δ| per page, 0–255): median {statistics.median(diffs):.3f}, "
            f"max {max(diffs):.3f}"
        )
    else:
        print("QtPdf: not installed (PySide6.QtPdf), no comparison")
    import glyphscope

    demo = open_pdf(glyphscope.demo_pdf())
    pages = []
    for n in range(1, len(demo.pages) + 1):
        boxes = read_page_boxes(demo.pages[n - 1].obj)
        pages.append((single_page_pdf(demo, n, boxes), *render_pixels(boxes, args.scale)))
    starts: list[float] = []
    per: list[float] = []
    for _ in range(5):
        process = RenderProcess()
        try:
            t = time.perf_counter()
            process.start()
            process.render(pages[0][0], 1, 1)
            starts.append(time.perf_counter() - t)
            for data, w, h in pages:
                t = time.perf_counter()
                process.render(data, w, h)
                per.append(time.perf_counter() - t)
        finally:
            process.stop()
    print(
        f"renderer process: start-up {statistics.median(starts) * 1000:.0f} ms (median of 5); demo pages "
        f"through it {statistics.median(per) * 1000:.1f} ms median (pixels included)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
