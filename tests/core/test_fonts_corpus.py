"""Every font of every page of the shared corpus loads and decodes without an exception."""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pytest

from glyphscope.core.fonts import FontCache
from glyphscope.core.glyph import DecodeSource

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def _passwords() -> dict[str, str]:
    manifest = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
    return {row["file"]: row.get("password") or "" for row in manifest.get("files", [])}


def _fonts_of(page: pikepdf.Page) -> list[tuple[str, pikepdf.Object]]:
    """Fonts of the page's resources and of the forms it draws (nested, each form once)."""
    found: list[tuple[str, pikepdf.Object]] = []
    seen: set[tuple[int, int]] = set()
    pending = [page.obj.get("/Resources")]
    while pending:
        resources = pending.pop()
        if not isinstance(resources, pikepdf.Dictionary):
            continue
        fonts = resources.get("/Font")
        if isinstance(fonts, pikepdf.Dictionary):
            found.extend((key, fonts[key]) for key in fonts)
        xobjects = resources.get("/XObject")
        if not isinstance(xobjects, pikepdf.Dictionary):
            continue
        for key in xobjects:
            xobj = xobjects[key]
            if (
                isinstance(xobj, pikepdf.Stream)
                and xobj.get("/Subtype") == "/Form"
                and xobj.objgen not in seen
            ):
                seen.add(xobj.objgen)
                pending.append(xobj.get("/Resources"))
    return found


def test_every_corpus_font_loads() -> None:
    if not (CORPUS / "manifest.json").is_file():
        pytest.skip(f"corpus not available: {CORPUS} is missing (../shared is not checked out here)")
    passwords = _passwords()
    loaded = 0
    for path in sorted(CORPUS.glob("*.pdf")):
        try:
            pdf = pikepdf.open(path, password=passwords.get(path.name, ""))
        except (pikepdf.PdfError, pikepdf.PasswordError):
            continue  # unreadable files are the document layer's concern
        with pdf:
            cache = FontCache()
            for page in pdf.pages:
                for key, obj in _fonts_of(page):
                    font = cache.get(obj, key)
                    for code, _ in font.split(bytes(range(256))):
                        text, source = font.unicode(code)
                        assert isinstance(text, str) and source in DecodeSource
                        assert font.width(code) == font.width(code)  # not NaN
                        font.vertical(code)
                    assert font.descent < font.ascent, (path.name, key)
                    # an internal error would hide behind the never-raise stand-in font: none is allowed
                    assert not [p for p in font.info.problems if "could not be loaded" in p.message], (
                        path.name,
                        key,
                    )
                    loaded += 1
    assert loaded > 50


def test_empty_tounicode_corpus_file_falls_through() -> None:
    path = CORPUS / "pdfbox__PDFBOX-4322-Empty-ToUnicode.pdf"
    if not path.is_file():
        pytest.skip(f"corpus file {path.name} not available under {CORPUS}")
    with pikepdf.open(path) as pdf:
        cache = FontCache()
        fonts = [cache.get(obj, key) for page in pdf.pages for key, obj in _fonts_of(page)]
    empty = [f for f in fonts if f.info.has_tounicode and f.info.tounicode_entries == 0]
    assert empty
    for font in empty:
        sources = {font.unicode(code)[1] for code in range(0x41, 0x5B)}
        assert DecodeSource.TOUNICODE not in sources and sources != {DecodeSource.UNRESOLVED}
