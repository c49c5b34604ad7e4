"""The third-party tables the decoding chain reads, each loaded on first use (start-up time).

* the Adobe Glyph List (fontTools.agl): glyph name → Unicode; fontTools parses the
  list when the module is imported (~10 ms), which a file whose fonts all carry a
  ToUnicode CMap never needs, nor one whose glyph names are those of the standard Latin
  encodings (`latin_glyphs`);
* pdfminer.six's base encodings (``pdfminer.latin_enc.ENCODING``) and standard-14 AFM
  metrics (``pdfminer.fontmetrics.FONT_METRICS``): two modules of plain data. Importing
  them the usual way runs ``pdfminer/__init__.py`` first, which reads the distribution's
  metadata for ``__version__`` (``importlib.metadata`` and the email package, ~13 ms).
  They are executed from their own files instead, unless pdfminer is loaded already —
  the same source, so the same values; a pdfminer without those files (a zip or a frozen
  build) is imported the usual way;
* the ZapfDingbats built-in encoding (code → character, from the font's AFM through the
  ITC Zapf Dingbats glyph list), pypdf's ``_codecs/zapfding.py``: plain data, executed from
  its own file like pdfminer's, so pypdf itself is never imported; fontTools' AGL answers
  the Zapf Dingbats glyph names (a1 … a191) of a /Differences array.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from functools import cache
from types import ModuleType

_agl_to_unicode: Callable[[str], str] | None = None


def agl_to_unicode(name: str) -> str:
    """fontTools' `agl.toUnicode`: the Unicode text of a glyph name ("" when it has none).

    The names of the standard Latin encodings are answered from `latin_glyphs` (the same
    values, checked by a test): the whole list is loaded for the first other name."""
    from glyphscope.core.fonts.latin_glyphs import LATIN_GLYPH_UNICODE

    known = LATIN_GLYPH_UNICODE.get(name)
    if known is not None:
        return known
    global _agl_to_unicode
    if _agl_to_unicode is None:
        from fontTools.agl import toUnicode

        _agl_to_unicode = toUnicode
    return _agl_to_unicode(name)


def _pdfminer_data_module(name: str, package_name: str = "pdfminer") -> ModuleType:
    """`pdfminer.<name>`, a module of plain data, without running pdfminer's package __init__."""
    full = f"{package_name}.{name.replace('/', '.')}"
    if package_name in sys.modules:
        return importlib.import_module(full)
    package = importlib.util.find_spec(package_name)  # finds the package; runs none of it
    locations = list(package.submodule_search_locations or ()) if package else []
    for folder in locations:
        spec = importlib.util.spec_from_file_location(
            f"glyphscope.core.fonts._{package_name}_{name.replace('/', '_')}", f"{folder}/{name}.py"
        )
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except OSError:  # no source file there (a zip or a frozen build)
            continue
        return module
    return importlib.import_module(full)


LatinRow = tuple[str, int | None, int | None, int | None, int | None]
"""(glyph name, Standard, MacRoman, WinAnsi, PDFDoc code), None where the encoding lacks the glyph."""
Standard14 = tuple[dict[str, object], dict[str, int]]
"""A standard-14 font's (properties: FontName, Ascent, FontBBox, ...; widths by Unicode text)."""


@cache
def latin_encodings() -> Sequence[LatinRow]:
    """pdfminer's `latin_enc.ENCODING`: (glyph name, Standard, MacRoman, WinAnsi, PDFDoc) rows."""
    rows: Sequence[LatinRow] = _pdfminer_data_module("latin_enc").ENCODING
    return rows


@cache
def font_metrics() -> dict[str, Standard14]:
    """pdfminer's `fontmetrics.FONT_METRICS`: standard-14 name → (properties, widths by Unicode)."""
    metrics: dict[str, Standard14] = _pdfminer_data_module("fontmetrics").FONT_METRICS
    return metrics


@cache
def zapf_dingbats_codes() -> dict[int, str]:
    """The ZapfDingbats font's built-in encoding: code → character ({} when pypdf's table is
    not there). Codes the font leaves empty (the table writes them as themselves) are left out."""
    try:
        module = _pdfminer_data_module("_codecs/zapfding", "pypdf")
        table: Sequence[str] = module._zapfding_encoding
    except (ImportError, AttributeError, OSError, SyntaxError):
        return {}
    return {code: text for code, text in enumerate(table) if text and (text != chr(code) or code == 0x20)}


def zapf_dingbats_name(name: str) -> str:
    """The character of a Zapf Dingbats glyph name (a1 … a191; "" for any other name)."""
    from fontTools.agl import toUnicode

    return toUnicode(name, isZapfDingbats=True) if name[:1] == "a" and name[1:].isdigit() else ""


@cache
def zapf_dingbats_numbers() -> dict[str, int]:
    """Character → N of its Zapf Dingbats glyph name aN: pdfminer keys the font's AFM widths
    by chr(N) (its own reading of those names)."""
    from fontTools.agl import toUnicode

    out: dict[str, int] = {}
    for n in range(1, 256):
        text = toUnicode(f"a{n}", isZapfDingbats=True)
        if text:
            out.setdefault(text, n)
    return out
