"""File › Export: text of any mode, glyph records (JSON / CSV), the canvas as PNG, a triage report.

The writers are plain functions (tested directly); `Exporter` asks for the
file name, runs the long ones (whole-document text, triage) in workers, and
routes every failure through `dialogs.show_error`.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Callable, Generator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QColor, QImage, QPainter
from PySide6.QtWidgets import QWidget

from glyphscope.core.params import Parameters
from glyphscope.core.serialize import GlyphJSON, glyphs_json, to_json
from glyphscope.inspector.gui import dialogs
from glyphscope.inspector.gui.rendering import MAX_RENDER_PIXELS
from glyphscope.inspector.gui.workers import Worker, alive
from glyphscope.inspector.jobs import CancelToken, JobFunction, Progress
from glyphscope.inspector.views.page_facts import PageFacts

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.inspector.gui.canvas import PageView
    from glyphscope.inspector.gui.main_window import MainWindow
    from glyphscope.inspector.report_html import SessionNotes

PAGE_SEPARATOR = "\f"  # between pages, as `glyphscope text` writes them
POINT_FIELDS = ("origin", "glyph_end", "pen_end", "direction")


# ---------------------------------------------------------------------------------------------
# Writers


def glyphs_document(facts: PageFacts, file: str | None = None) -> dict[str, Any]:
    """The page's glyphs as `glyphscope glyphs --set all --json` writes them (the same serializer)."""
    return glyphs_json(file, facts.page, facts.classified, "all", facts.analysis.params.to_json())


def glyph_records(facts: PageFacts) -> list[GlyphJSON]:
    """Every glyph of the page (kept, culled, duplicates) with its status."""
    return list(glyphs_document(facts)["glyphs"])


def save_glyphs_json(path: str | Path, facts: PageFacts, file: str | None = None) -> Path:
    path = Path(path)
    text = to_json(glyphs_document(facts, file)) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


def _flat(record: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key in POINT_FIELDS:
            out[f"{key}_x"], out[f"{key}_y"] = value
        elif key == "quad":
            out[key] = " ".join(f"{x:g},{y:g}" for x, y in value)
        elif key == "form_path":
            out[key] = " ".join(value)
        elif value is None:
            out[key] = ""
        else:
            out[key] = value
    return out


def write_glyphs_csv(path: str | Path, facts: PageFacts) -> Path:
    path = Path(path)
    rows = [_flat(r) for r in glyph_records(facts)]
    columns = list(rows[0]) if rows else ["paint_index", "unicode", "status"]  # an empty page: header only
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return path


def write_text(path: str | Path, text: str) -> Path:
    path = Path(path)
    path.write_text(text, encoding="utf-8")
    return path


def mode_text(facts: PageFacts, mode: str) -> str:
    return str(facts.modes.view(mode).text)


def document_text_file_job(
    document: Document, mode: str, params: Parameters, out: str, *, token: CancelToken
) -> Generator[Progress, None, Path]:
    from glyphscope.inspector.gui.panels.document_text import document_text_job as pages_job

    pages = yield from pages_job(document, mode, params, token=token)
    return write_text(out, PAGE_SEPARATOR.join(text for _, text in pages))


def canvas_image(canvas: PageView, scale: float = 2.0, with_selection: bool = True) -> QImage:
    """The page area of the canvas (the displayed MediaBox) with its visible layers, at `scale` px/pt,
    scaled down to MAX_RENDER_PIXELS as the page image is (a 14,400 pt page at 2 px/pt would be a
    3.3 GB image, painted for a minute on the GUI thread)."""
    rect = QRectF(canvas.page_rect)
    area = max(rect.width() * scale, 1.0) * max(rect.height() * scale, 1.0)
    if area > MAX_RENDER_PIXELS:
        scale *= (MAX_RENDER_PIXELS / area) ** 0.5
    image = QImage(
        max(1, round(rect.width() * scale)),
        max(1, round(rect.height() * scale)),
        QImage.Format.Format_ARGB32_Premultiplied,
    )
    image.fill(QColor("white"))
    hidden = [canvas.message_item] + ([] if with_selection else [canvas.selection_item])
    was = [item.isVisible() for item in hidden]
    for item in hidden:
        item.setVisible(False)
    painter = QPainter(image)
    try:
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform)
        canvas.scene_.render(
            painter, QRectF(0, 0, image.width(), image.height()), rect, Qt.AspectRatioMode.IgnoreAspectRatio
        )
    finally:
        painter.end()
        for item, visible in zip(hidden, was):
            item.setVisible(visible)
    return image


def session_notes(window: MainWindow, notes: str = "") -> SessionNotes:
    """What the user found and marked in the window, for the report (report_html.SessionNotes)."""
    from glyphscope.inspector.report_html import SessionNotes

    session = window.session
    find: list[str] = []
    panel = window.find_panel
    for exp in panel.explanations[:50]:
        find.append(f"Find “{panel.query}”: page {exp.page}: {exp.message}")
    selection: list[str] = []
    bundle = window.bundle
    glyphs = bundle.facts.page.glyphs if bundle is not None and bundle.facts is not None else None
    if session.selection:
        indices = sorted(session.selection)
        text = ""
        if glyphs is not None:
            by_index = {g.paint_index: g for g in glyphs}
            text = "".join(str(by_index[i].unicode or "�") for i in indices[:200] if i in by_index)
        shown = ", ".join(f"#{i}" for i in indices[:40]) + (" …" if len(indices) > 40 else "")
        selection.append(
            f"page {session.page_number}: {len(indices)} glyph(s) selected ({shown})"
            + (f": “{text}”" if text else "")
        )
    decision = getattr(session, "decision", None)
    if decision is not None and hasattr(decision, "describe"):
        selection.append(f"page {session.page_number}: decision {decision.kind}: {decision.describe()}")
    return SessionNotes(find=tuple(find), selection=tuple(selection), notes=notes)


def triage_report_job(
    source: str,
    password: str | None,
    params: Parameters,
    out: str,
    *,
    token: CancelToken,
    anonymise: bool = False,
    session: SessionNotes | None = None,
) -> Generator[Progress, None, Path]:
    from glyphscope.core.triage import triage_file
    from glyphscope.inspector.report_html import write_html_report

    yield Progress(0, 2, f"triage of {Path(source).name}")
    row = triage_file(source, password, params)
    token.check()
    yield Progress(1, 2, "writing the report")
    path = write_html_report([row], out, password, params=params, anonymise=anonymise, session=session)
    yield Progress(2, 2, "done")
    return path


# ---------------------------------------------------------------------------------------------
# The menu side

FILTERS = {
    "text": "Text (*.txt)",
    "json": "JSON (*.json)",
    "csv": "CSV (*.csv)",
    "png": "PNG image (*.png)",
    "html": "HTML report (*.html)",
}


class Exporter(QObject):
    """The File › Export actions of one window."""

    exported = Signal(str, str)  # kind, path
    failed = Signal(str, str)  # kind, message

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.worker: Worker | None = None
        self.ticket_action: QAction | None = None  # File › Export › Ticket report (actions.py)

    def update_ticket_action(self, loaded: bool) -> None:
        """The ticket report needs their text (Compare › Their text…): greyed out, and saying so, without."""
        action = self.ticket_action
        if action is None:
            return
        action.setEnabled(loaded)
        action.setToolTip(
            "The customer's text against every page, each difference with its cause and what to "
            "change, as one HTML page to attach to the ticket (as glyphscope compare --text --report)"
            if loaded
            else "Needs the customer's text: load or paste it first with Their text… in the Compare "
            "panel (Tools › Compare with other engines)"
        )

    def ask_path(self, kind: str, suggestion: str) -> str | None:
        """The save dialog; tests patch this method."""
        return dialogs.ask_save_path(
            self.window, self.window.settings, f"Export {kind}", suggestion, FILTERS[kind.split(":")[0]]
        )

    def _stem(self) -> str:
        source = self.window.session.source
        return Path(source).stem if source else "export"

    def _facts(self) -> PageFacts | None:
        bundle = self.window.bundle
        if bundle is None or bundle.facts is None:
            self._fail("export", "No analysed page to export: open a document and wait for the page.")
            return None
        return bundle.facts

    def _fail(self, kind: str, message: str) -> None:
        dialogs.show_error(
            self.window if isinstance(self.window, QWidget) else None, "Export failed", message
        )
        self.window.statusBar().showMessage(f"Export failed: {message}", 10000)
        self.failed.emit(kind, message)

    def _done(self, kind: str, path: Path | str) -> None:
        self.window.statusBar().showMessage(f"Exported {kind} to {path}", 8000)
        self.exported.emit(kind, str(path))

    def _run(self, kind: str, fn: Callable[..., str | Path], *args: object) -> Path | None:
        try:
            path = fn(*args)
        except Exception as exc:
            self._fail(kind, dialogs.error_message(exc))
            return None
        self._done(kind, path)
        return Path(path)

    # -- the actions --------------------------------------------------------------------------
    def page_text(self, path: str | None = None, mode: str | None = None) -> Path | None:
        facts = self._facts()
        if facts is None:
            return None
        mode = mode or self.window.session.mode
        path = path or self.ask_path("text", f"{self._stem()}-p{facts.page.page_number}-{mode}.txt")
        return self._run("text", lambda: write_text(path, mode_text(facts, mode))) if path else None

    def document_text(self, path: str | None = None, mode: str | None = None) -> Worker | None:
        session = self.window.session
        if session.document is None:
            self._fail("document text", "No document is open.")
            return None
        mode = mode or session.mode
        path = path or self.ask_path("text", f"{self._stem()}-{mode}.txt")
        if not path:
            return None
        return self._start(
            "document text", document_text_file_job, session.document, mode, session.params, path
        )

    def glyphs_json(self, path: str | None = None) -> Path | None:
        facts = self._facts()
        if facts is None:
            return None
        path = path or self.ask_path("json", f"{self._stem()}-p{facts.page.page_number}-glyphs.json")
        source = self.window.session.source
        file = str(source) if source else None
        return self._run("json", save_glyphs_json, path, facts, file) if path else None

    def glyphs_csv(self, path: str | None = None) -> Path | None:
        facts = self._facts()
        if facts is None:
            return None
        path = path or self.ask_path("csv", f"{self._stem()}-p{facts.page.page_number}-glyphs.csv")
        return self._run("csv", write_glyphs_csv, path, facts) if path else None

    def canvas_png(self, path: str | None = None, scale: float = 2.0) -> Path | None:
        if self._facts() is None:
            return None
        n = self.window.session.page_number
        path = path or self.ask_path("png", f"{self._stem()}-p{n}.png")
        if not path:
            return None

        def save() -> str:
            from PySide6.QtGui import QImageWriter

            writer = QImageWriter(str(path), b"png")  # PNG whatever the name ends with
            if not writer.write(canvas_image(self.window.canvas, scale)):
                raise OSError(f"could not write {path}: {writer.errorString()}")
            return str(path)

        return self._run("png", save)

    def triage_report(
        self, path: str | None = None, anonymise: bool = False, notes: str | None = None
    ) -> Worker | None:
        """The file's HTML report, with what was found and marked in the window and the user's notes
        (the session's, written in Diagnostics, unless given); `anonymise`: without the document's
        words (file name and text replaced by same-class placeholders, no images)."""
        session = self.window.session
        notes = session.notes if notes is None else notes
        if session.source is None:
            self._fail("triage report", "No document is open.")
            return None
        suffix = "-triage-anonymised.html" if anonymise else "-triage.html"
        path = path or self.ask_path("html", ("document" if anonymise else self._stem()) + suffix)
        if not path:
            return None
        job = functools.partial(
            triage_report_job, anonymise=anonymise, session=session_notes(self.window, notes)
        )
        return self._start("triage report", job, str(session.source), session.password, session.params, path)

    def their_report(self, path: str | None = None) -> Worker | None:
        """The ticket report of the document against their text (the Compare panel's), written by
        `compare`'s report writer in a worker: what `glyphscope compare FILE --text … --report`
        writes for every page."""
        session = self.window.session
        their = self.window.compare_panel.their
        if session.source is None or not Path(session.source).is_file():
            self._fail("ticket report", "No document file is open.")
            return None
        if their is None or their.text is None:
            self._fail("ticket report", "Load their text first: Their text… in the Compare panel.")
            return None
        path = path or self.ask_path("html", f"{self._stem()}-ticket.html")
        if not path:
            return None
        from glyphscope.inspector.compare.report import their_report_job

        job = functools.partial(their_report_job, mode=session.mode, params=session.params)
        return self._start("ticket report", job, str(session.source), session.password, their, path)

    def _start(self, kind: str, job: JobFunction, *args: object) -> Worker:
        if self.worker is not None:
            self.worker.cancel()
        worker = Worker(job, *args)
        bar = self.window.statusBar()
        worker.signals.progress.connect(
            alive(self, lambda d, t, m: bar.showMessage(f"Exporting {kind}: {m}…"))
        )
        worker.signals.result.connect(alive(self, lambda path: self._done(kind, path)))
        worker.signals.error.connect(alive(self, lambda message, exc: self._fail(kind, message)))
        worker.signals.finished.connect(alive(self, lambda w=worker: self._finished(w)))
        self.worker = worker
        self.window.pool.start(worker, priority=-3)
        return worker

    def _finished(self, worker: Worker) -> None:
        if self.worker is worker:
            self.worker = None

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
