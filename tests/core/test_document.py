"""Opening documents: typed errors, repair warnings, the corpus, and core's independence from Qt."""

from __future__ import annotations

import warnings
from pathlib import Path

import pikepdf
import pytest

from glyphscope.core.document import open_document
from glyphscope.core.errors import DocumentNotFound, NotAPdf, PasswordRequired, WrongPassword
from tests import corpus
from tests.pdfbuild import make_pdf, to_bytes

REPO = Path(__file__).resolve().parents[2]


def _encrypted(tmp_path: Path) -> Path:
    pdf = make_pdf([b"BT /F1 10 Tf (secret) Tj ET"])
    out = tmp_path / "locked.pdf"
    pdf.save(out, encryption=pikepdf.Encryption(user="u", owner="o"))
    return out


def test_open_from_path_and_bytes(tmp_path):
    path = tmp_path / "a.pdf"
    path.write_bytes(to_bytes(make_pdf([b"BT /F1 10 Tf (x) Tj ET"])))
    assert open_document(path).page_count == 1
    assert open_document(path.read_bytes()).page_count == 1


def test_file_not_found(tmp_path):
    with pytest.raises(DocumentNotFound):
        open_document(tmp_path / "missing.pdf")


def test_not_a_pdf(tmp_path):
    p = tmp_path / "notes.pdf"
    p.write_text("hello, I am a text file")
    with pytest.raises(NotAPdf):
        open_document(p)
    with pytest.raises(NotAPdf):
        open_document(b"%PDF-1.7 but nothing else")


def test_password_required_and_wrong_and_right(tmp_path):
    path = _encrypted(tmp_path)
    with pytest.raises(PasswordRequired):
        open_document(path)
    with pytest.raises(WrongPassword):
        open_document(path, "nope")
    doc = open_document(path, "u")
    assert "".join(g.unicode for g in doc.interpret(1).glyphs) == "secret"


def test_a_password_that_is_not_utf8_is_tried_as_the_bytes_typed(tmp_path):
    # Python reads a non-UTF-8 argument or variable ($'caf\xe9') with a surrogate for the byte
    pdf = make_pdf([b"BT /F1 10 Tf (latin) Tj ET"])
    path = tmp_path / "latin1-password.pdf"
    pdf.save(path, encryption=pikepdf.Encryption(user="caf\xe9", owner="o", R=4))  # PDFDocEncoding é
    typed = b"caf\xe9".decode("utf-8", "surrogateescape")
    assert typed == "caf\udce9"
    doc = open_document(path, typed)
    assert "".join(g.unicode for g in doc.interpret(1).glyphs) == "latin"
    with pytest.raises(WrongPassword):
        open_document(path, "caf\udce8")  # another byte: refused as a wrong password, not a crash
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pikepdf: "a password was provided, but no password was needed"
        assert open_document(_plain(tmp_path), "\udcff").page_count == 1  # an unencrypted file opens


def _plain(tmp_path):
    path = tmp_path / "plain.pdf"
    path.write_bytes(to_bytes(make_pdf([b"BT /F1 10 Tf (x) Tj ET"])))
    return path


def test_damaged_file_opens_with_a_warning(tmp_path):
    data = to_bytes(make_pdf([b"BT /F1 10 Tf (still here) Tj ET"]))
    broken = data[: data.rindex(b"xref")] + b"trailer garbage\n"  # xref table cut away
    doc = open_document(broken)
    assert doc.warnings and "repaired" in doc.warnings[0]
    assert "".join(g.unicode for g in doc.interpret(1).glyphs) == "still here"


def test_the_inspected_file_is_never_written(tmp_path):
    path = tmp_path / "a.pdf"
    path.write_bytes(to_bytes(make_pdf([b"BT /F1 10 Tf (x) Tj ET"])))
    before = path.read_bytes(), path.stat().st_mtime_ns
    doc = open_document(path)
    doc.interpret(1)
    doc.close()
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


@pytest.mark.parametrize("name", corpus.files() or ["(corpus missing)"])
def test_every_corpus_page_interprets(name):
    folder = corpus.require()
    doc = open_document(folder / name, corpus.password(name))
    assert doc.page_count >= 1
    for n in range(1, doc.page_count + 1):
        page = doc.interpret(n)
        assert not page.errors, page.errors


def test_page_cache_is_bounded_by_glyphs(monkeypatch):
    import glyphscope.core.document as document

    monkeypatch.setattr(document, "CACHE_MAX_GLYPHS", 25)
    pdf = make_pdf([b"BT /F1 10 Tf (" + b"x" * 10 + b") Tj ET"] * 5)
    doc = open_document(to_bytes(pdf))
    for n in range(1, 6):
        doc.interpret(n)
    assert doc.cached_pages == (4, 5)  # 10 glyphs each: a third page would pass 25
    assert doc.cached_glyphs == 20


def test_a_password_does_not_lock_out_a_file_that_needs_none(tmp_path):
    pdf = make_pdf([b"BT /F1 10 Tf (open) Tj ET"])
    path = tmp_path / "empty-user-password.pdf"
    pdf.save(path, encryption=pikepdf.Encryption(user="", owner="owner"))
    assert open_document(path, "some batch password").page_count == 1
    assert open_document(path, "owner").page_count == 1
