"""OCR of a page image: Tesseract 5 through tesserocr, detected at run time (no Qt).

Why tesserocr: its manylinux wheels bundle libtesseract and Leptonica, so `pip install
'glyphscope[ocr]'` brings the engine itself; it runs in process (no subprocess and no TSV or
hOCR to parse per page) and its result iterator gives every character (RIL.SYMBOL) with its
pixel box and confidence, which the alignment in `verify.py` needs. It does not bring the
language data: that comes from the system (Debian `tesseract-ocr-eng`, …), found at run time
in $TESSDATA_PREFIX or the usual tessdata folders.

`ocr_status()` says whether OCR can run here, with the engine's version and the languages
installed; `run_ocr(image, lang)` gives the words of an image with their characters;
`foreign_script(text, lang)` whether a script is one the languages cannot read (SCRIPTS).
"""

from __future__ import annotations

import os
import threading
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

INSTALL_HINT = (
    "OCR needs the ocr extra and Tesseract's language data: "
    "pip install 'glyphscope[ocr]' and apt install tesseract-ocr-eng"
)
"""The one line the command and the panel show when OCR cannot run."""

DEFAULT_LANG = "eng"
OCR_TIMEOUT_SECONDS = 120.0
"""Tesseract gives up on one page after this long (the page is reported, the batch goes on)."""

TESSDATA_FOLDERS = (
    "/usr/share/tesseract-ocr/5/tessdata",
    "/usr/share/tesseract-ocr/4.00/tessdata",
    "/usr/share/tessdata",
    "/usr/local/share/tessdata",
    "/opt/homebrew/share/tessdata",
)
"""Where Debian, Fedora, a source build and Homebrew put the language data."""


class OcrUnavailable(Exception):
    """OCR cannot run: the engine or a language's data is missing (the message says which)."""


class OcrFailed(Exception):
    """Tesseract could not read one image (timed out, or refused it)."""


@dataclass(frozen=True, slots=True)
class OcrStatus:
    """Whether OCR can run here, and with what."""

    available: bool
    engine: str  # "tesserocr" (the binding)
    version: str  # Tesseract's version, e.g. "5.5.4"; "" when absent
    tessdata: str  # the language-data folder found; "" when none
    languages: tuple[str, ...]  # installed languages (osd left out)
    message: str  # why not available ("" when it is)

    def to_json(self) -> dict[str, object]:
        return {
            "available": self.available,
            "engine": self.engine,
            "version": self.version or None,
            "tessdata": self.tessdata or None,
            "languages": list(self.languages),
        }


@dataclass(frozen=True, slots=True)
class OcrSymbol:
    """One character the ink reads: `box` in image pixels (x0, top, x1, bottom), `conf` 0–100."""

    text: str
    conf: float
    box: tuple[int, int, int, int]
    word: int  # index of its word in OcrPage.words


@dataclass(frozen=True, slots=True)
class OcrWord:
    text: str
    conf: float
    box: tuple[int, int, int, int]
    symbols: tuple[int, int]  # [start, end) in OcrPage.symbols


@dataclass(frozen=True, slots=True)
class OcrPage:
    """What Tesseract read in one image."""

    width: int
    height: int
    lang: str
    words: tuple[OcrWord, ...]
    symbols: tuple[OcrSymbol, ...]


def find_tessdata() -> str:
    """The folder holding *.traineddata: $TESSDATA_PREFIX (or its tessdata/), else a usual folder."""
    candidates: list[str] = []
    prefix = os.environ.get("TESSDATA_PREFIX")
    if prefix:
        candidates += [prefix, os.path.join(prefix, "tessdata")]
    candidates += list(TESSDATA_FOLDERS)
    for folder in candidates:
        p = Path(folder)
        if p.is_dir() and any(p.glob("*.traineddata")):
            return str(p)
    return ""


@cache
def ocr_status() -> OcrStatus:
    """Tesseract through tesserocr, its version and languages: found once per process."""
    try:
        import tesserocr
    except ImportError:
        return OcrStatus(False, "tesserocr", "", "", (), INSTALL_HINT)
    except Exception as exc:  # a broken install: its own words, not a traceback
        return OcrStatus(False, "tesserocr", "", "", (), f"{INSTALL_HINT} (tesserocr failed to load: {exc})")
    version = tesserocr.tesseract_version().split()[1] if tesserocr.tesseract_version() else ""
    tessdata = find_tessdata()
    languages: tuple[str, ...] = ()
    if tessdata:
        _, found = tesserocr.get_languages(tessdata.rstrip("/") + "/")
        languages = tuple(sorted(lang for lang in found if lang != "osd"))
    if not languages:
        return OcrStatus(
            False, "tesserocr", version, tessdata, (), INSTALL_HINT + " (no language data found)"
        )
    return OcrStatus(True, "tesserocr", version, tessdata, languages, "")


def check_languages(lang: str) -> OcrStatus:
    """The status, checked for `lang` ("eng+deu"); raises OcrUnavailable with the one-line reason."""
    status = ocr_status()
    if not status.available:
        raise OcrUnavailable(status.message)
    missing = [x for x in lang.split("+") if x not in status.languages]
    if not lang or missing:
        raise OcrUnavailable(
            f"OCR language {'+'.join(missing) or repr(lang)} is not installed "
            f"(installed: {', '.join(status.languages)}); e.g. apt install tesseract-ocr-{(missing or ['eng'])[0]}"
        )
    return status


_local = threading.local()


def _api(lang: str, tessdata: str) -> Any:
    """One TessBaseAPI per thread and language, kept: loading a language costs ~0.2 s."""
    apis: dict[str, Any] | None = getattr(_local, "apis", None)
    if apis is None:
        apis = _local.apis = {}
    api = apis.get(lang)
    if api is None:
        from tesserocr import PSM, PyTessBaseAPI

        api = apis[lang] = PyTessBaseAPI(path=tessdata.rstrip("/") + "/", lang=lang, psm=PSM.AUTO)
    return api


def run_ocr(image: Image.Image, lang: str = DEFAULT_LANG, timeout: float = OCR_TIMEOUT_SECONDS) -> OcrPage:
    """The words and characters Tesseract reads in `image`, with pixel boxes and confidences.

    Raises OcrUnavailable (no engine or language) or OcrFailed (this image only)."""
    status = check_languages(lang)
    from tesserocr import RIL, iterate_level

    api = _api(lang, status.tessdata)
    # The page images are RGBA (opaque); Tesseract reads grey, RGB or RGBA alike, but tesserocr 2.7
    # hands Leptonica 1.83 a 32-bpp BMP it refuses ("Error reading image"): RGB reads everywhere.
    if image.mode not in ("1", "L", "RGB"):
        image = image.convert("RGB")
    try:
        api.SetImage(image)
    except RuntimeError as exc:  # Leptonica refused the image
        raise OcrFailed(f"Tesseract could not take the page image ({exc})") from None
    if not api.Recognize(int(timeout * 1000)):
        api.Clear()
        raise OcrFailed(f"Tesseract could not read the page image (gave up or timed out after {timeout:g} s)")
    words: list[OcrWord] = []
    symbols: list[OcrSymbol] = []
    word_start = 0
    word_box: tuple[int, int, int, int] | None = None
    word_conf = 0.0
    it = api.GetIterator()

    def close_word() -> None:
        if word_box is not None and len(symbols) > word_start:
            text = "".join(s.text for s in symbols[word_start:])
            words.append(OcrWord(text, word_conf, word_box, (word_start, len(symbols))))

    for r in iterate_level(it, RIL.SYMBOL) if it is not None else ():
        box = r.BoundingBox(RIL.SYMBOL)
        try:
            text = r.GetUTF8Text(RIL.SYMBOL)
        except RuntimeError:  # "No text returned": an empty page or an empty element
            continue
        if box is None or not text:
            continue
        if r.IsAtBeginningOf(RIL.WORD) or word_box is None:
            close_word()
            word_start = len(symbols)
            word_box = r.BoundingBox(RIL.WORD) or box
            word_conf = float(r.Confidence(RIL.WORD))
        symbols.append(OcrSymbol(text, float(r.Confidence(RIL.SYMBOL)), tuple(box), len(words)))
    close_word()
    api.Clear()
    return OcrPage(image.width, image.height, lang, tuple(words), tuple(symbols))


SCRIPTS = {
    # Unicode character-name prefix → Tesseract languages that read the script
    "CJK": ("chi_sim", "chi_tra", "jpn", "kor", "chi_sim_vert", "chi_tra_vert", "jpn_vert"),
    "HIRAGANA": ("jpn", "jpn_vert"),
    "KATAKANA": ("jpn", "jpn_vert"),
    "HANGUL": ("kor", "kor_vert"),
    "ARABIC": ("ara", "fas", "urd", "pus", "uig", "snd"),
    "HEBREW": ("heb", "yid"),
    "CYRILLIC": ("rus", "ukr", "bul", "srp", "bel", "mkd", "kaz", "kir", "mon", "tgk", "uzb_cyrl"),
    "GREEK": ("ell", "grc"),
    "DEVANAGARI": ("hin", "mar", "nep", "san"),
    "THAI": ("tha",),
}
"""Scripts Tesseract reads only with their own language data (the Latin languages read none)."""


def foreign_script(text: str, lang: str) -> bool:
    """Whether `text` holds a letter of a script none of `lang`'s languages ("eng+deu") reads."""
    langs = set(lang.split("+"))
    for c in text:
        if not c.isalpha():
            continue
        name = unicodedata.name(c, "")
        for prefix, readers in SCRIPTS.items():
            if name.startswith(prefix) and not langs.intersection(readers):
                return True
    return False
