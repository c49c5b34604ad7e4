"""`--anonymise`: reports that can be shared without the customer's words.

Every letter and digit of document text and file names is replaced by a
placeholder of the same class — same script, same case, digit for digit —
so spaces, punctuation, word lengths and the script mix stay, and the
decisions (a space inside a word, a culled slug line, a column order) still
read. Geometry, fonts, numbers, decisions and findings are kept; the
engine's own wording in findings is kept, and whatever a finding quotes
from the page (“…”) is anonymised. Page images are left out of an
anonymised report (glyph shapes are the words). Qt-free.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from functools import lru_cache

from glyphscope.core.triage import TriageFinding, TriageRow

# Script (first word of the Unicode name) -> (lower/caseless placeholder, upper placeholder).
_SCRIPT_PLACEHOLDERS: dict[str, tuple[str, str]] = {
    "LATIN": ("x", "X"),
    "GREEK": ("ξ", "Ξ"),
    "CYRILLIC": ("ж", "Ж"),
    "ARMENIAN": ("ժ", "Ժ"),
    "HEBREW": ("א", "א"),
    "ARABIC": ("ب", "ب"),
    "DEVANAGARI": ("क", "क"),
    "THAI": ("ก", "ก"),
    "HANGUL": ("가", "가"),
    "HIRAGANA": ("あ", "あ"),
    "KATAKANA": ("ア", "ア"),
    "CJK": ("〇", "〇"),
}
_OTHER_LETTER = ("x", "X")
_DIGIT = "0"
_QUOTED = re.compile(r"“[^”]*”|‘[^’]*’|\"[^\"]*\"|«[^»]*»")


@lru_cache(maxsize=4096)
def placeholder(ch: str) -> str:
    """The same-class stand-in of one character (unchanged when it is not a letter or digit)."""
    cat = unicodedata.category(ch)
    if cat == "Nd" or cat in ("No", "Nl"):
        return _DIGIT
    if not cat.startswith("L"):
        return ch  # spaces, punctuation, symbols, marks, controls: they carry the layout
    script = unicodedata.name(ch, "").split(" ", 1)[0]
    lower, upper = _SCRIPT_PLACEHOLDERS.get(script, _OTHER_LETTER)
    return upper if cat == "Lu" or cat == "Lt" else lower


def anonymise_text(text: str) -> str:
    """Every letter and digit replaced by its placeholder; everything else kept."""
    return "".join(placeholder(ch) for ch in text)


def anonymise_path(path: str) -> str:
    """A file label without its words: folders and name anonymised, the extension kept ("-" stays)."""
    if path == "-":
        return path
    stem, dot, ext = path.rpartition(".")
    if not dot or "/" in ext or "\\" in ext or len(ext) > 5:
        return anonymise_text(path)
    return anonymise_text(stem) + "." + ext.lower()


def anonymise_message(message: str, file: str | None = None) -> str:
    """A finding or error in the engine's words, with what it quotes from the page (and the file name)
    anonymised."""
    if file and file != "-":
        message = message.replace(file, anonymise_path(file))
    return _QUOTED.sub(lambda m: anonymise_text(m.group(0)), message)


def anonymise_finding(f: TriageFinding, file: str | None = None) -> TriageFinding:
    return replace(f, message=anonymise_message(f.message, file))


def anonymise_row(row: TriageRow) -> TriageRow:
    """The row with its file name, error, repair warnings and quoted page text anonymised (numbers,
    fonts keys, kinds and counts kept). The content hash is dropped: it identifies the file."""
    return replace(
        row,
        file=anonymise_path(row.file),
        error=anonymise_message(row.error, row.file) if row.error else row.error,
        warnings=tuple(anonymise_message(w, row.file) for w in row.warnings),
        findings=tuple(anonymise_finding(f, row.file) for f in row.findings),
        sha256=None,
    )
