"""The window's triage report: what the user found and marked, the painted
space inside a word as a finding, an anonymised variant without any word of the file, and save
dialogs that start in a writable folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from glyphscope.inspector.gui import dialogs as export
from tests.gui_helpers import TIMEOUT, open_file
from tests.pdfbuild import make_pdf, to_bytes

# "Invoice" painted as "Inv", a space glyph kerned back, "oice": the page shows one word.
CONTENT = (
    b"BT /F1 12 Tf 72 700 Td [(Inv) ( ) 278 (oice Betrag 4711)] TJ "
    b"0 -20 Td (Quarterly Zebracorn shipment for Mrs Harrow) Tj ET"
)
WORDS = (
    "Invoice",
    "oice",
    "Betrag",
    "4711",
    "Quarterly",
    "Zebracorn",
    "shipment",
    "Harrow",
    "acme",
    "ledger",
)


@pytest.fixture
def customer_pdf(tmp_path: Path) -> Path:
    path = tmp_path / "acme" / "ledger-4711.pdf"
    path.parent.mkdir()
    path.write_bytes(to_bytes(make_pdf([CONTENT])))
    return path


def _report(qtbot, w, **kw) -> str:
    with qtbot.waitSignal(
        w.exporter.exported, timeout=60_000, check_params_cb=lambda kind, p: kind == "triage report"
    ) as blocker:
        w.exporter.triage_report(**kw)
    return Path(blocker.args[1]).read_text(encoding="utf-8")


def test_window_report_has_the_painted_space_the_find_explanation_and_notes(
    qtbot, window, customer_pdf, tmp_path, monkeypatch
) -> None:
    w = window
    open_file(qtbot, w, customer_pdf)
    with qtbot.waitSignal(w.find_panel.search_finished, timeout=TIMEOUT):
        w.find_panel.search("Invoice")
    assert w.find_panel.explanations  # found in the glyphs, not in the text: a painted space
    monkeypatch.setattr(w.exporter, "ask_path", lambda kind, suggestion: str(tmp_path / suggestion))
    html = _report(qtbot, w, notes="Customer says search fails")
    assert "painted_space_in_word" in html and "“Inv oice”" in html  # a finding, not "No findings"
    assert "Found and marked in the inspector" in html
    assert "Find “Invoice”: page 1:" in html and "Customer says search fails" in html
    assert re.search(r"page 1: \d+ glyph\(s\) selected", html)  # Find selected the glyphs


def test_window_report_anonymised_keeps_no_word_of_the_file(
    qtbot, window, customer_pdf, tmp_path, monkeypatch
) -> None:
    w = window
    open_file(qtbot, w, customer_pdf)
    asked: list[str] = []

    def ask(kind: str, suggestion: str) -> str:
        asked.append(suggestion)
        return str(tmp_path / suggestion)

    monkeypatch.setattr(w.exporter, "ask_path", ask)
    html = _report(qtbot, w, anonymise=True)
    assert asked == ["document-triage-anonymised.html"]  # not even the suggested name has the file's
    assert "painted_space_in_word" in html and "“Xxx xxxx”" in html and "<img" not in html
    for word in WORDS:
        assert not re.search(rf"\b{word}\b", html, re.IGNORECASE), word


def test_save_dialogs_start_in_a_writable_folder(tmp_path: Path, monkeypatch) -> None:
    """The folder used last, else Documents, else home: never the inspected file's folder."""
    last = tmp_path / "exports"
    last.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "Documents").mkdir(parents=True)
    assert export.default_save_dir(last) == last
    assert export.default_save_dir(None) == tmp_path / "home" / "Documents"
    denied = last.resolve()
    real_access = export.os.access
    monkeypatch.setattr(
        export.os, "access", lambda p, mode: Path(p).resolve() != denied and real_access(p, mode)
    )
    assert export.default_save_dir(last) == tmp_path / "home" / "Documents"  # no longer writable
    assert export.default_save_dir(tmp_path / "gone") == tmp_path / "home" / "Documents"
