"""Redo the screenshots of docs/screenshots/ from the current build (Qt offscreen, no display needed).

    .venv/bin/python docs/screenshots/make_screenshots.py            # every shot
    .venv/bin/python docs/screenshots/make_screenshots.py mode-tabs  # only the named ones

One or more shots per capability of issue 11 (the README's screenshot table), on the
bundled demo PDF and small PDFs built here; the HTML report is shot with headless
Chromium when it is installed. Settings live in a temporary folder: the shots never
depend on (or change) the user's window layout. Look at every PNG after a run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
WIDE, SMALL = (1600, 1000), (1280, 800)

app = QApplication.instance() or QApplication(sys.argv[:1])


def fresh_settings() -> None:
    """Every window starts from the defaults: nothing one shot changed (mode, layers) leaks into the next."""
    folder = tempfile.mkdtemp(prefix="glyphscope-shots-")
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)


fresh_settings()

from glyphscope import demo_pdf  # noqa: E402
from glyphscope.inspector.layers import registry as L  # noqa: E402
from glyphscope.inspector.gui.main_window import MainWindow, make_settings  # noqa: E402

DEMO = Path(demo_pdf())
SHOTS: dict[str, Callable[[], None]] = {}


def shot(fn: Callable[[], None]) -> Callable[[], None]:
    SHOTS[fn.__name__.replace("_", "-")] = fn
    return fn


# -- driving the window --------------------------------------------------------------------------


def settle(ms: int = 300) -> None:
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.01)


def wait_until(condition: Callable[[], Any], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError(f"waited {timeout} s")
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.01)


def window(size: tuple[int, int], path: Path = DEMO, page: int = 1) -> MainWindow:
    fresh_settings()
    w = MainWindow(settings=make_settings())
    w.resize(*size)
    w.show()
    shown: list[int] = []
    w.page_complete.connect(shown.append)  # the page with the text of every mode
    w.open_path(path, page=page)
    wait_until(lambda: page in shown)
    settle()
    return w


def go_to(w: MainWindow, page: int) -> None:
    shown: list[int] = []
    w.page_complete.connect(shown.append)
    w.session.set_page(page)
    wait_until(lambda: page in shown)
    w.page_complete.disconnect(shown.append)
    settle()


def layers(w: MainWindow, **on: bool) -> None:
    for key, visible in on.items():
        w.session.set_layer_visible(key, visible)
    settle(200)


def centre_on_glyph(w: MainWindow, paint_index: int, zoom: float) -> None:
    """Zoom in on a glyph (user space → scene through the canvas's page transform)."""
    from PySide6.QtCore import QPointF

    g = w.bundle.facts.page.glyphs[paint_index]
    w.canvas.set_zoom(zoom)
    w.canvas.centerOn(w.canvas.page_to_scene.map(QPointF(*g.center)))
    settle(300)


def heights(w: MainWindow, text: int, details: int, table: int) -> None:
    """Share the right-hand column between its three dock groups (the shot's panel gets the room)."""
    from PySide6.QtCore import Qt

    docks = [w.panels["text"], w.panels["details"], w.panels["glyph_table"]]
    w.resizeDocks(docks, [text, details, table], Qt.Orientation.Vertical)
    settle(200)


def save(widget: Any, name: str) -> Path:
    path = HERE / f"{name}.png"
    settle(200)
    widget.grab().save(str(path))
    print(f"wrote {path.relative_to(REPO)}")
    return path


def close(w: MainWindow) -> None:
    w.close()
    w.deleteLater()
    settle(100)


# -- 1. legible by default -------------------------------------------------------------------------


@shot
def legible_1600() -> None:
    w = window(WIDE, page=2)
    save(w, "legible-1600")
    close(w)


@shot
def legible_1280() -> None:
    w = window(SMALL, page=2)
    save(w, "legible-1280")
    title = [g.paint_index for g in w.bundle.facts.page.glyphs if g.font_size > 20]  # PDF Reference Manual
    centre_on_glyph(w, title[len(title) // 2], 2.0)
    save(w, "legible-200")
    close(w)


@shot
def demo_forms() -> None:
    w = window(WIDE, page=6)
    layers(w, form_bboxes=True)
    save(w, "demo-forms")
    close(w)


# -- 2. one mode control ---------------------------------------------------------------------------


@shot
def mode_tabs() -> None:
    w = window(SMALL, page=2)
    w.session.set_mode("structure")  # no structure on page 2: plain text, the reason said
    settle()
    save(w.panels["text"], "mode-tabs")
    close(w)


# -- 3. page-scoped state --------------------------------------------------------------------------


@shot
def page_reset() -> None:
    w = window(SMALL, page=7)
    table = w.glyph_table
    w.reveal("glyph_table")
    table.status_combo.setCurrentText("culled")  # page 7's slugs
    settle()
    go_to(w, 8)  # nothing culled there: the filter is cleared and the panel says so
    save(w.panels["glyph_table"], "page-reset")
    close(w)


# -- 4. decisions reachable from the canvas --------------------------------------------------------


@shot
def decision_details() -> None:
    w = window(SMALL, page=2)
    layers(w, word_gaps=True)
    gaps = w.bundle.facts.modes.view(w.session.mode).word_gaps
    record = next(d for d in gaps if d.inserted)
    w.session.select_decision(record, "canvas")  # what a click on the mark does
    settle()
    save(w, "decision-details")
    close(w)


# -- 5. culled text as strings ---------------------------------------------------------------------


@shot
def demo_slug_culled() -> None:
    w = window(SMALL, page=7)
    w.reveal("probe")
    box = w.bundle.facts.page.boxes.media_box
    w.probe_panel.probe((box[0], box[1], box[2], box[1] + 60))  # the slug lines at the bottom
    settle()
    save(w, "demo-slug-culled")
    close(w)


# -- 6. reading order as order ---------------------------------------------------------------------


@shot
def reading_order() -> None:
    w = window(WIDE, page=11)
    w.session.set_mode("structure")
    layers(w, reading_order=True, structure_order=True, glyphs=False)
    w.reveal("structure_tree")
    wait_until(lambda: w.structure_tree.tree.topLevelItemCount() > 0)
    w.structure_tree.tree.expandAll()
    save(w, "reading-order")
    close(w)


# -- 7, 8, 9: debugger panels ----------------------------------------------------------------------


@shot
def panel_stepper() -> None:
    w = window(WIDE, page=6)
    w.reveal("stepper")
    panel = w.stepper_panel
    wait_until(lambda: panel.stepper.trace is not None)
    stepper = panel.stepper
    target = next(
        i for i, s in enumerate(stepper.trace.steps) if s.form_path and s.glyphs_after > s.glyphs_before
    )
    stepper.go(target)
    heights(w, 200, 120, 640)
    save(w, "panel-stepper")
    close(w)


@shot
def panel_objects() -> None:
    w = window(WIDE, page=10)
    w.reveal("objects")
    wait_until(lambda: w.objects_panel.root is not None)
    wait_until(lambda: w.fonts.model.rowCount() > 0)
    w.fonts.select_font("/FN")  # the font without ToUnicode: its dictionary in full
    w.reveal("objects")
    heights(w, 160, 640, 160)
    save(w, "panel-objects")
    close(w)


@shot
def panel_font_codes() -> None:
    from glyphscope.core.glyph import DecodeSource

    for page in range(1, 16):  # the demo's first glyph decoded by a guess or not at all
        w = window(WIDE, page=page)
        odd = [
            g.paint_index
            for g in w.bundle.facts.page.glyphs
            if g.decode_source in (DecodeSource.UNRESOLVED, DecodeSource.FALLBACK)
        ]
        if odd:
            break
        close(w)
    else:
        print("no unresolved or fallback glyph in the demo: panel-font-codes skipped")
        return
    w.reveal("fonts")
    w.session.select([odd[0]], "canvas")
    settle()
    w.reveal("fonts")
    heights(w, 160, 640, 160)
    save(w, "panel-font-codes")
    w.reveal("details")
    save(w.panels["details"], "details-chain")
    close(w)


@shot
def font_codes_1280() -> None:
    """Fonts › Codes → Unicode at 1280×800 on a real form: the panel's group has taken the column."""
    path = CORPUS / "pdfjs__issue6127.pdf"
    if not path.exists():
        print("no corpus: font-codes-1280 skipped")
        return
    w = window(SMALL, path)
    w.reveal("fonts")
    wait_until(lambda: w.fonts.model.rowCount() > 0)
    w.fonts.select_font("/T1_0")  # three glyphs, none with a Unicode value
    w.fonts.tabs.setCurrentWidget(w.fonts.codes_split)
    settle(500)
    w.fonts.codes.selectRow(0)
    settle()
    save(w, "font-codes-1280")
    close(w)


# -- 10. readable panels, Help ---------------------------------------------------------------------


@shot
def side_panels_1280() -> None:
    w = window(SMALL, page=7)
    w.diagnostics.select_finding("culled_glyphs")
    w.reveal("glyph_table")
    save(w, "side-panels-1280")
    close(w)


@shot
def help_guide() -> None:
    from glyphscope.inspector.gui.panels.help import show_guide

    w = window(SMALL, page=1)
    guide = show_guide(w)
    guide.resize(760, 820)
    settle()
    save(guide, "help-guide")
    guide.close()
    close(w)


# -- 11. the HTML report ---------------------------------------------------------------------------


@shot
def report_html() -> None:
    out_dir = Path(tempfile.mkdtemp(prefix="glyphscope-report-"))
    w = window(SMALL, page=7)
    w.find_panel.search("Plate K")  # on the page, not in the text: Find explains (a culled slug)
    wait_until(lambda: w.find_panel.worker is None if hasattr(w.find_panel, "worker") else True)
    settle(500)
    w.exporter.ask_path = lambda kind, suggestion: str(out_dir / suggestion)  # type: ignore[method-assign]
    done: list[str] = []
    w.exporter.exported.connect(lambda kind, path: done.append(path))
    w.exporter.triage_report(
        notes="Customer: a search for the plate finds nothing. It is the printer's slug."
    )
    wait_until(lambda: bool(done), timeout=120)
    close(w)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        print(f"no chromium: the report is at {done[0]}, not shot")
        return
    target = HERE / "report-html.png"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--screenshot={target}",
            "--window-size=1280,1400",
            Path(done[0]).as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    print(f"wrote {target.relative_to(REPO)}")


# -- the rest of the README's table: layers and panels of earlier issues -----------------------------


@shot
def demo_word_gaps() -> None:
    w = window(SMALL, page=3)  # negative Tc given back by TJ: no invented spaces
    layers(w, word_gaps=True)
    text = w.bundle.facts.modes.view("plain").text
    glyphs = w.bundle.facts.page.glyphs
    nine = next(i for i, g in enumerate(glyphs) if g.unicode == "9" and g.font_size > 15)
    centre_on_glyph(w, nine + 6, 3.0)
    assert "95after tracking" in text
    save(w, "demo-word-gaps")
    close(w)


@shot
def demo_duplicates() -> None:
    w = window(SMALL, page=8)  # fake bold and overprint
    layers(w, duplicates=True)
    first = w.bundle.facts.classified.duplicates[0].paint_index
    centre_on_glyph(w, first + 8, 2.5)
    save(w, "demo-duplicates")
    close(w)


@shot
def panel_tuning() -> None:
    w = window(WIDE, page=2)
    w.reveal("tuning")
    shown: list[int] = []
    w.page_shown.connect(shown.append)
    w.tuning.set_value("word_gap", 0.5, immediate=True)  # fewer spaces: the diff says which
    wait_until(lambda: 2 in shown)
    heights(w, 200, 150, 620)
    save(w, "panel-tuning")
    close(w)


@shot
def panel_find() -> None:
    w = window(WIDE, page=2)
    w.reveal("find")
    w.find_panel.search("ReferenceManual")  # not in the text: Find says why
    wait_until(lambda: w.find_panel.worker is None)
    settle(300)
    heights(w, 200, 250, 520)
    save(w, "panel-find")
    close(w)


@shot
def panel_diagnostics() -> None:
    w = window(WIDE, page=7)
    w.reveal("diagnostics")
    w.diagnostics.scan_document()
    wait_until(lambda: w.diagnostics.worker is None, timeout=120)
    w.diagnostics.select_finding("culled_glyphs")
    heights(w, 200, 250, 520)
    save(w, "panel-diagnostics")
    close(w)


@shot
def panel_content_stream() -> None:
    w = window(WIDE, page=6)
    w.reveal("content_stream")
    glyph = next(g.paint_index for g in w.bundle.facts.page.glyphs if g.form_path)
    w.session.select([glyph], "canvas")
    settle(500)
    w.reveal("content_stream")
    heights(w, 200, 250, 520)
    save(w, "panel-content-stream")
    close(w)


# -- layers of the features landed with issue 11 (ActualText, visibility) ----------------------------


def _actual_text_pdf(path: Path) -> None:
    """Digits whose font maps them nowhere, with an /ActualText that says what they are."""
    from tests.pdfbuild import make_pdf

    content = (
        b"BT /F1 14 Tf 72 700 Td (Total ) Tj /Span << /ActualText (42) >> BDC (\x01\x02) Tj EMC ( EUR) Tj ET "
        b"BT /F1 14 Tf 72 660 Td (soft hy) Tj /Span << /ActualText <FEFF00AD> >> BDC ( ) Tj EMC (phen) Tj ET"
    )
    make_pdf([content]).save(path)


@shot
def actual_text() -> None:
    if "actual_text" not in L.LAYER_BY_KEY:
        print("no ActualText layer in this build: skipped")
        return
    sys.path.insert(0, str(REPO))
    path = Path(tempfile.mkdtemp()) / "actual-text.pdf"
    _actual_text_pdf(path)
    w = window(SMALL, path)
    layers(w, actual_text=True)
    centre_on_glyph(w, 3, 2.5)
    save(w, "actual-text")
    close(w)


def _visibility_pdf(path: Path) -> None:
    """One line per class of text a reader cannot see (issue 12), and a visible line."""
    import pikepdf

    from tests.pdfbuild import make_pdf

    content = b"".join(
        (
            b"BT /F1 14 Tf 72 720 Td (Visible: read by everyone) Tj ET ",
            b"q BT /F1 14 Tf 3 Tr 72 690 Td (Invisible render mode 3: an OCR layer) Tj ET Q ",
            b"q 72 655 120 20 re W n BT /F1 14 Tf 72 660 Td (Clipped: only the start is inside the clip) Tj ET Q ",
            b"q /G0 gs BT /F1 14 Tf 72 630 Td (Transparent: fill alpha 0) Tj ET Q ",
            b"q 1 1 1 rg BT /F1 14 Tf 72 600 Td (White on the white page) Tj ET Q ",
            b"BT /F1 14 Tf 72 570 Td (Covered by a later filled rectangle) Tj ET ",
            b"q 0.2 0.3 0.6 rg 70 566 300 18 re f Q",
        )
    )
    pdf = make_pdf([content])
    pdf.pages[0].Resources.ExtGState = pikepdf.Dictionary(
        G0=pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0)
    )
    pdf.save(path)


@shot
def visibility() -> None:
    keys = list(getattr(L, "VISIBILITY_LAYERS", ()))
    if not keys:
        print("no visibility layers in this build: skipped")
        return
    sys.path.insert(0, str(REPO))
    path = Path(tempfile.mkdtemp()) / "hidden-text.pdf"
    _visibility_pdf(path)
    w = window(SMALL, path)
    layers(w, **dict.fromkeys(keys, True))
    first = w.bundle.facts.page.glyphs[0].paint_index
    centre_on_glyph(w, first + 20, 1.8)
    save(w, "visibility")
    close(w)


def _form_pdf(path: Path) -> None:
    """A filled-in form: a text field, a checked box, a comment, and a hidden draft note."""
    from tests.core.test_annotations import CHECKBOX, COMMENT, TEXT_FIELD, TWO_LINES, _form

    hidden = {**COMMENT, "Rect": [300, 540, 520, 570], "F": 2, "ap": b"BT /F1 14 Tf 4 10 Td (Draft) Tj ET"}
    path.write_bytes(_form([TEXT_FIELD, CHECKBOX, COMMENT, hidden], TWO_LINES))


@shot
def annotations_form() -> None:
    """What a reader sees that the content stream does not hold: each annotation outlined and
    labelled; the text field's label clicked: its decision, field and appearance stream."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtTest import QTest

    sys.path.insert(0, str(REPO))
    path = Path(tempfile.mkdtemp()) / "form.pdf"
    _form_pdf(path)
    w = window(SMALL, path)
    heights(w, 160, 420, 120)
    canvas = w.canvas
    canvas.set_zoom(1.8)
    corner = canvas.page_to_scene.map(QPointF(120.0, 715.0))
    canvas.centerOn(canvas.page_to_scene.map(QPointF(250.0, 630.0)))
    settle(300)
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(corner))
    settle(300)
    save(w, "annotations-form")
    close(w)


@shot
def annotations_corpus() -> None:
    """A real form (pdf.js's issue 6127, 49 widgets a page) at Fit page: every field outlined."""
    path = CORPUS / "pdfjs__issue6127.pdf"
    if not path.exists():
        print(f"{path} is absent: skipped")
        return
    w = window(WIDE, path)
    save(w, "annotations-corpus")
    close(w)


@shot
def staged_page() -> None:
    """A 20,000-glyph page the moment it is shown: glyphs and their classes drawn, the texts on
    their way (the shot holds them back; they come a few hundred ms later)."""
    sys.path.insert(0, str(REPO))
    from benchmarks.bench_page_switch import dense_pdf

    path = Path(tempfile.mkdtemp()) / "dense.pdf"
    dense_pdf(path, 20000, pages=1)
    fresh_settings()
    w = MainWindow(settings=make_settings())
    w.resize(*SMALL)
    w.show()
    held: list[Callable[[], None]] = []
    w.loader.later = held.append  # type: ignore[method-assign]
    shown: list[int] = []
    w.page_shown.connect(shown.append)
    w.open_path(path)
    wait_until(lambda: shown)
    settle()
    save(w, "staged-page")
    close(w)


def verified_window(size: tuple[int, int]) -> MainWindow:
    """The off-by-one file (Helvetica whose ToUnicode maps 'd' to 'e') after Verify this page: the
    ink disagrees on most glyphs, a confusion row is selected, the Fonts panel proposes the mapping."""
    sys.path.insert(0, str(REPO))
    from tests.ocr_pdfs import off_by_one

    path = Path(tempfile.mkdtemp()) / "off-by-one.pdf"
    path.write_bytes(off_by_one())
    w = window(size, path)
    w.reveal("verify")
    w.verify_panel.verify()
    wait_until(lambda: w.session.verification is not None, timeout=120.0)
    settle()
    panel = w.verify_panel
    font = panel.tree.topLevelItem(0)
    panel.tree.setCurrentItem(font.child(0) if font.childCount() else font)  # a confusion row
    w.reveal("fonts")
    w.fonts.tabs.setCurrentWidget(w.fonts.proposal)
    heights(w, size[1] // 8, size[1] * 9 // 20, size[1] * 2 // 5)
    settle(300)
    return w


@shot
def verify() -> None:
    w = verified_window(WIDE)
    save(w, "verify")
    close(w)


# -- nothing drawn hides the letters: every layer on, real files ----------------------------------

CORPUS = Path(os.environ.get("GLYPHSCOPE_CORPUS", REPO.parent / "shared" / "corpus"))


def _scan_with_ocr_layer() -> Path | None:
    """A scan with an OCR text layer (tesseract over a 200 dpi render of a TeX page), or None
    when pdftoppm or tesseract is not installed."""
    source = CORPUS / "samplefiles__pdflatex-4-pages.pdf"
    if not (source.exists() and shutil.which("pdftoppm") and shutil.which("tesseract")):
        return None
    folder = Path(tempfile.mkdtemp())
    subprocess.run(
        ["pdftoppm", "-r", "200", "-f", "1", "-l", "1", "-png", str(source), str(folder / "page")], check=True
    )
    page = next(folder.glob("page*.png"))
    subprocess.run(
        ["tesseract", str(page), str(folder / "scan"), "-l", "eng", "pdf"], check=True, capture_output=True
    )
    return folder / "scan.pdf"


def _all_layers(name: str, path: Path | None, size: tuple[int, int], zoom_on: float | None = None) -> None:
    """`path` with every layer on, at Fit page (and at 200 % on the glyph at `zoom_on` of the page's
    paint order): can a person still read every letter?"""
    if path is None or not path.exists():
        print(f"{name}: its file is absent: skipped")
        return
    w = window(size, path)
    layers(w, **dict.fromkeys(L.LAYER_KEYS, True))
    if zoom_on is not None:
        glyphs = w.bundle.facts.page.glyphs
        centre_on_glyph(w, int(len(glyphs) * zoom_on), 2.0)
    save(w, name)
    close(w)


@shot
def layers_table() -> None:
    """A dense crop-report table (4,319 glyphs) with every layer on: Fit page at 1280×800, 200 % at 1600×1000."""
    path = CORPUS / "pdfplumber__nics-background-checks-2015-11.pdf"
    _all_layers("layers-table-1280", path, SMALL)
    _all_layers("layers-table-200", path, WIDE, zoom_on=0.2)


@shot
def layers_scan() -> None:
    """A scan with an OCR layer (every glyph invisible, Tr 3) with every layer on, at 200 %."""
    _all_layers("layers-scan-200", _scan_with_ocr_layer(), SMALL, zoom_on=0.3)


@shot
def layers_form() -> None:
    """A real form (pdf.js issue 6127: 594 unresolved glyphs, 49 widgets) with every layer on, at 200 %."""
    _all_layers("layers-form-200", CORPUS / "pdfjs__issue6127.pdf", WIDE, zoom_on=0.05)


# -- the window as it opens on four kinds of file, at both sizes ----------------------------------


def _as_opened(name: str, path: Path | None, size: tuple[int, int]) -> None:
    """`path` as a user first sees it: default layers, Fit page, nothing clicked."""
    if path is None or not path.exists():
        print(f"{name}: its file is absent: skipped")
        return
    w = window(size, path)
    save(w, name)
    close(w)


@shot
def opened() -> None:
    """The demo, a dense table, a scan with an OCR layer and a form, at 1280×800 and 1600×1000."""
    scan = _scan_with_ocr_layer()
    files = {
        "demo": DEMO,
        "table": CORPUS / "pdfplumber__nics-background-checks-2015-11.pdf",
        "scan": scan,
        "form": CORPUS / "pdfjs__issue6127.pdf",
    }
    for kind, path in files.items():
        for size in (SMALL, WIDE):
            _as_opened(f"opened-{kind}-{size[0]}", path, size)


# -- round 5: the answer in view, the click by ink, selections over a scan, right to left -----------


@shot
def answer_in_view() -> None:
    """Find and Diagnostics in front, then a glyph clicked: Glyph details takes the room its whole
    record needs, at both sizes."""
    for size in (SMALL, WIDE):
        w = window(size)
        w.reveal("find")
        w.reveal("diagnostics")
        settle(200)
        w.session.select({41}, "canvas")
        settle(600)
        save(w, f"answer-in-view-{size[0]}")
        close(w)


@shot
def selection_on_scan() -> None:
    """A scan with an OCR layer, the whole layer selected (every glyph): frames around its lines
    with a light tint at Fit page, and zoomed in; the scan stays readable."""
    path = _scan_with_ocr_layer()
    if path is None:
        print("selection-on-scan: pdftoppm or tesseract is absent: skipped")
        return
    for size in (SMALL, WIDE):
        w = window(size, path)
        w.session.select(range(len(w.bundle.facts.page.glyphs)), "test")
        settle(400)
        save(w, f"selection-on-scan-{size[0]}")
        if size == WIDE:
            centre_on_glyph(w, len(w.bundle.facts.page.glyphs) // 3, 2.0)
            save(w, "selection-on-scan-200")
        close(w)


@shot
def annotation_decision() -> None:
    """A real form: a click inside a field (not on its corner) shows its decision in Glyph details."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtTest import QTest

    path = CORPUS / "pdfjs__issue6127.pdf"
    if not path.exists():
        print(f"{path} is absent: skipped")
        return
    for size in (SMALL, WIDE):
        w = window(size, path)
        decision = next(d for d in w.bundle.facts.fates.annotation_decisions if d.annotation.rect is not None)
        x0, y0, x1, y1 = decision.annotation.rect
        canvas = w.canvas
        inside = canvas.page_to_scene.map(QPointF((x0 + x1) / 2, (y0 + y1) / 2))
        QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(inside))
        settle(600)
        save(w, f"annotation-decision-{size[0]}")
        close(w)


def _arabic_pdf(path: Path) -> None:
    """The bidi test's lines (painted in visual order, CIDs = code points), with DejaVu Sans embedded
    when the system has it (a CIDToGIDMap from its cmap), so the page shows the letters."""
    import pikepdf

    sys.path.insert(0, str(REPO))
    from tests.pdfbuild import to_bytes
    from tests.core.test_bidi import ARABIC_PAINTED, HEBREW_PAINTED, LATIN_PAINTED, MIXED_PAINTED, _content, _pdf

    pdf = _pdf(_content(ARABIC_PAINTED, HEBREW_PAINTED, MIXED_PAINTED, LATIN_PAINTED))
    ttf = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if ttf.exists():
        from fontTools.ttLib import TTFont

        font = TTFont(str(ttf))
        order = {name: gid for gid, name in enumerate(font.getGlyphOrder())}
        gids = bytearray(2 * 65536)
        for cp, name in font.getBestCmap().items():
            if cp < 65536:
                gids[2 * cp : 2 * cp + 2] = order[name].to_bytes(2, "big")
        cid = pdf.pages[0].Resources.Font.F1.DescendantFonts[0]
        cid.CIDToGIDMap = pdf.make_stream(bytes(gids))
        cid.FontDescriptor.FontFile2 = pdf.make_stream(ttf.read_bytes())
        cid.BaseFont = cid.FontDescriptor.FontName = pikepdf.Name("/DejaVuSans")
        widths = font["hmtx"].metrics
        scale = 1000 / font["head"].unitsPerEm
        cid.W = pikepdf.Array(
            [
                x
                for cp, name in sorted(font.getBestCmap().items())
                if cp < 0x700
                for x in (cp, [round(widths[name][0] * scale)])
            ]
        )
    path.write_bytes(to_bytes(pdf))


@shot
def arabic_decision() -> None:
    """Right-to-left lines with their arrows and verdicts; the Arabic line's mark clicked: its
    decision and the order (as painted, as written) in Glyph details."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtTest import QTest

    path = Path(tempfile.mkdtemp()) / "arabic.pdf"
    _arabic_pdf(path)
    for size in (SMALL, WIDE):
        w = window(size, path)
        item = w.canvas.layer_items["right_to_left"]
        wait_until(lambda item=item: item.drawing is not None)
        marker = item.drawing.markers[0]
        canvas = w.canvas
        canvas.set_zoom(2.0 if size == SMALL else 2.5)
        canvas.centerOn(canvas.page_to_scene.map(QPointF(marker.point[0] - 80, marker.point[1] - 20)))
        settle(300)
        pos = canvas.mapFromScene(canvas.page_to_scene.map(QPointF(*marker.point)))
        QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=pos)
        settle(600)
        save(w, f"arabic-decision-{size[0]}")
        close(w)


@shot
def display_click() -> None:
    """A poster set tight in a display face whose glyph boxes reach over the next lines: a click on
    the "a" of "Fame" selects that "a" (its ink), not the quote or a space of another line."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtTest import QTest

    sys.path.insert(0, str(REPO))
    from tests.pdfbuild import make_pdf, to_bytes
    from tests.inspector.test_hit_ink import POSTER, display_font

    path = Path(tempfile.mkdtemp()) / "poster.pdf"
    path.write_bytes(to_bytes(make_pdf([POSTER], {"/F1": display_font})))
    w = window(SMALL, path)
    glyphs = w.bundle.facts.page.glyphs
    a = next(i for i, g in enumerate(glyphs) if g.unicode == "a" and g.font_size == 64)
    g = glyphs[a]
    canvas = w.canvas
    canvas.set_zoom(1.2)
    target = canvas.page_to_scene.map(QPointF((g.quad[0][0] + g.quad[1][0]) / 2, g.origin[1] + 14))
    canvas.centerOn(target)
    settle(300)
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(target))
    settle(600)
    save(w, "display-click")
    close(w)


def main(names: list[str]) -> int:
    unknown = [n for n in names if n not in SHOTS]
    if unknown:
        print(f"unknown shots: {', '.join(unknown)}; known: {', '.join(SHOTS)}")
        return 2
    for name in names or list(SHOTS):
        started = time.monotonic()
        SHOTS[name]()
        print(f"  {name}: {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
