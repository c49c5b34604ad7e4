"""The third-party tables the decoding chain reads, each loaded on first use (start-up time).

* the Adobe Glyph List (fontTools.agl): glyph name → Unicode; fontTools parses the
  list when the module is imported (a regular expression a line, ~12 ms), which a file whose
  fonts all carry a ToUnicode CMap never needs, nor one whose glyph names are those of the
  standard Latin encodings (`latin_glyphs`). For other names the list's text is read from
  fontTools' agl.py with str methods on first use (the same lines, ~1 ms) and looked up as
  `agl.toUnicode` does, without importing fontTools; a fontTools whose agl.py is not laid out
  so answers through its own `toUnicode`;
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
    values, checked by a test): the whole list is read for the first other name."""
    from glyphscope.core.fonts.latin_glyphs import LATIN_GLYPH_UNICODE

    known = LATIN_GLYPH_UNICODE.get(name)
    if known is not None:
        return known
    global _agl_to_unicode
    if _agl_to_unicode is None:
        _agl_to_unicode = _glyph_list_reader() or _fonttools_to_unicode()
    return _agl_to_unicode(name)


def _fonttools_to_unicode() -> Callable[[str], str]:
    from fontTools.agl import toUnicode

    return toUnicode


_AGL_TEXT_START = '\n_aglText = """\\\n'  # fontTools/agl.py: _aglText = """\<newline>name;XXXX…


def _agl_text() -> str | None:
    """The text of fontTools' `agl._aglText` (glyphlist.txt: "name;XXXX[ XXXX…]" lines), read
    from the module's file without running it; None when the file is not laid out so."""
    package = importlib.util.find_spec("fontTools")  # finds the package; runs none of it
    for folder in list(package.submodule_search_locations or ()) if package else []:
        try:
            with open(f"{folder}/agl.py", encoding="utf-8") as fh:
                source = fh.read()
        except OSError:
            continue
        start = source.find(_AGL_TEXT_START)
        end = source.find('"""', start + len(_AGL_TEXT_START)) if start >= 0 else -1
        text = source[start + len(_AGL_TEXT_START) : end]
        # a string literal with no escapes: its text is the file's characters as they are
        return text if start >= 0 and end >= 0 and "\\" not in text else None
    return None


def _glyph_list_reader() -> Callable[[str], str] | None:
    """`agl.toUnicode(name)` (not Zapf Dingbats) over the list read by `_agl_text`: glyph name →
    its code points as written, turned into text on lookup; None without the list."""
    import re

    text = _agl_text()
    if text is None:
        return None
    try:
        table: dict[str, str] = dict(line.split(";") for line in text.splitlines() if line and line[0] != "#")
    except ValueError:  # not one ";" a line: a list fontTools would have read otherwise
        return None
    entry = re.compile("[A-Za-z0-9]+;(?:[0-9A-F]{4})(?: (?:[0-9A-F]{4}))*")
    uni = re.compile("^uni([0-9A-F]+)$")
    u_hex = re.compile("^u([0-9A-F]{4,6})$")

    def component(part: str) -> str:
        # agl._glyphComponentToUnicode: the list, then uniXXXX[XXXX…], then uXXXX[XX]
        codes = table.get(part)
        if codes is not None:
            if entry.fullmatch(f"{part};{codes}") is None:  # a line fontTools would have refused
                return _fonttools_to_unicode()(part)
            return "".join(chr(int(c, 16)) for c in codes.split(" "))
        match = uni.match(part)
        if match is not None:
            digits = match.group(1)
            if len(digits) % 4 == 0:
                chars = [int(digits[i : i + 4], 16) for i in range(0, len(digits), 4)]
                if not any(0xD800 <= c <= 0xDFFF for c in chars):  # no surrogates (the AGL spec)
                    return "".join(chr(c) for c in chars)
        match = u_hex.match(part)
        if match is not None:
            value = int(match.group(1), 16)
            if value <= 0xD7FF or 0xE000 <= value <= 0x10FFFF:
                return chr(value)
        return ""

    def to_unicode(name: str) -> str:
        # agl.toUnicode: up to the first period, then each "_"-separated component
        return "".join(component(part) for part in name.split(".", 1)[0].split("_"))

    return to_unicode


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
