"""What each code of a proposed mapping rests on, and which codes are doubtful (Qt-free).

A repaired copy writes a code's text only on evidence. For every code a font paints (and, for a
one-byte font shifted by an offset, the codes of the band the offset holds in) the evidence is
gathered from four sources:

* **font program**: the embedded program names the glyph (TrueType post/cmap, CFF, Type1): the
  font's own data. Read once per font (`core/fonts/program.py`, `core/fonts/truetype.py`).
* **offset**: the garbled-text verdict's k (core/garbled.py), *measured* here again: the words
  of the font's text that read as words once shifted, and the Unicode blocks of their letters.
  The offset holds for codes whose shifted text falls in a measured block (MEASURED_BLOCK_SHARE):
  an offset measured on ASCII letters says nothing about a code that lands in Latin Extended-A —
  glyph ids follow the alphabet for ASCII only, so `ł` (glyph 227) shifted by +29 reads `Ā`.
* **code page**: for a simple font with a /ToUnicode, its /Encoding's reading of the code (a
  ToUnicode off by a constant leaves the encoding right): it supports a code when it agrees with
  the offset or the ink, never alone. For byte-pair fonts the code page (GBK …) reads each pair.
* **OCR**: the ink's votes for the code (count, mean confidence), from a `VerifyResult`. They
  count only where the ink is evidence: a font that is not embedded is drawn by the renderer's
  substitute, whose ink is the encoded letters for a plain text font with a standard encoding,
  but says nothing about the codes of a symbolic font, of glyph names with no standard meaning
  or of a composite font (`ink_is_substitute`: core.fonts.common.substitute_reason).
* **user**: a character typed, or a doubtful code confirmed, in the window's mapping editor.

A code is `supported` when the font program names it, the offset holds for it, or at least
OCR_MIN_VOTES confident votes (OCR_MIN_CONF) agree on real ink; else it is `doubtful`: listed
with its best guess, never written unless the user confirms it. A doubtful code the pages paint
is written as U+FFFD, so readers show "�" where they would otherwise show a wrong letter; a code
no source reads at all is not written (readers decode it as before).
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from glyphscope.core.garbled import WORD_GAP, improbable
from glyphscope.core.glyph_table import GEOM_STRIDE

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.document import Document
    from glyphscope.inspector.verify.check import VerifyResult

MEASURED_BLOCK_SHARE = 0.25
"""A Unicode block is measured by the offset when at least this share of the letters of the words
that read as words once shifted lie in it (Polish text: Basic Latin ~95 %, Latin Extended-A ~5 %)."""
OCR_MIN_VOTES = 2
"""A code's OCR reading supports a mapping with at least this many confident votes for it …"""
OCR_MIN_CONF = 80.0
"""… whose mean confidence (Tesseract's, 0–100) is at least this."""
OCR_SINGLE_CONF = 95.0
"""… or one vote, the only one for the code, at least this confident (a letter the page shows once)."""
OCR_VOTE_CONF = 60.0
"""A read at least this confident is a vote (check.VOTE_MIN_CONF)."""
UNKNOWN = "\ufffd"
"""What a doubtful code the pages paint reads as in a repaired copy: no reader shows a wrong letter."""
MIN_WORD_LETTERS = 3


class Source(StrEnum):
    FONT_PROGRAM = "font_program"
    OFFSET = "offset"
    OCR = "ocr"
    CODE_PAGE = "code_page"
    USER = "user"


class Status(StrEnum):
    SUPPORTED = "supported"
    DOUBTFUL = "doubtful"


SOURCE_WORDS = {
    Source.FONT_PROGRAM: "font program",
    Source.OFFSET: "offset",
    Source.OCR: "OCR",
    Source.CODE_PAGE: "code page",
    Source.USER: "typed",
}


@dataclass(frozen=True, slots=True)
class Evidence:
    """One source's reading of one code, and the sentence that says what it rests on."""

    source: Source
    text: str
    detail: str
    counts: bool = True  # False: shown, but not weighed (substitute ink, an offset out of its blocks)

    def to_json(self) -> dict[str, object]:
        return {"source": self.source.value, "text": self.text, "detail": self.detail, "counts": self.counts}


@dataclass(frozen=True, slots=True)
class CodeRow:
    """One code: what it decodes to now, the text proposed, whether that rests on evidence."""

    code: int
    current: str
    proposed: str  # the best guess ("" when no source reads it)
    status: Status
    reason: str  # why supported / why doubtful, in one line
    evidence: tuple[Evidence, ...]
    painted: int  # glyphs of this code on the pages read

    @property
    def doubtful(self) -> bool:
        return self.status is Status.DOUBTFUL

    @property
    def source(self) -> Source | None:
        """The source the proposed text comes from (the first counting one that reads it)."""
        for e in self.evidence:
            if e.counts and e.text == self.proposed:
                return e.source
        return self.evidence[0].source if self.evidence else None

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "current": self.current,
            "proposed": self.proposed,
            "status": self.status.value,
            "reason": self.reason,
            "painted": self.painted,
            "evidence": [e.to_json() for e in self.evidence],
        }


@dataclass(frozen=True, slots=True)
class OffsetMeasure:
    """The offset k measured on the font's words: how many read as words once shifted, the codes
    of their letters and the blocks those letters lie in."""

    k: int
    words: int
    letters: int
    codes: tuple[int, int] | None  # lowest and highest code of a measured letter
    blocks: tuple[str, ...]  # the measured blocks, most letters first

    def sentence(self) -> str:
        where = f", letters at codes {_hex(self.codes[0])}–{_hex(self.codes[1])}" if self.codes else ""
        return (
            f"offset {self.k:+d} measured on {self.words} word{'s' if self.words != 1 else ''} "
            f"({self.letters} letters{where}; {', '.join(self.blocks) or 'no block'})"
        )

    def short(self) -> str:
        """The measurement in a few words, as each code's evidence quotes it."""
        codes = f", codes {_hex(self.codes[0])}–{_hex(self.codes[1])}" if self.codes else ""
        return f"offset {self.k:+d} ({self.words} words{codes}, {', '.join(self.blocks) or 'no block'})"

    def to_json(self) -> dict[str, object]:
        return {
            "k": self.k,
            "words": self.words,
            "letters": self.letters,
            "codes": list(self.codes) if self.codes else None,
            "blocks": list(self.blocks),
        }


@dataclass(frozen=True, slots=True)
class FontEvidence:
    """Every code of one font with its evidence (by object id, as `FontInfo.font_id`)."""

    font_id: str
    font_key: str
    base_font: str
    subtype: str
    code_bytes: int
    embedded: bool
    keys: tuple[str, ...]  # every resource key that selects the font on the pages read
    ink_is_substitute: bool  # the rendered ink is the renderer's substitute: OCR votes do not count
    offset: OffsetMeasure | None
    rows: tuple[CodeRow, ...]
    ocr_verdict: str | None = None  # the OCR cross-check's verdict on the font, when it ran
    code_page: str | None = None  # byte pairs of this code page: the copy writes ActualText

    def row(self, code: int) -> CodeRow | None:
        for r in self.rows:
            if r.code == code:
                return r
        return None

    def supported(self) -> dict[int, str]:
        return {r.code: r.proposed for r in self.rows if r.status is Status.SUPPORTED and r.proposed}

    def doubtful(self) -> list[CodeRow]:
        return [r for r in self.rows if r.status is Status.DOUBTFUL]

    def written(self, decisions: Mapping[int, str | None] | None = None) -> dict[int, str]:
        """The code → text a repaired copy writes: supported codes, then the user's decisions (text:
        typed or confirmed; None: left out); a code left out that the pages paint reads U+FFFD."""
        out = self.supported()
        for r in self.doubtful():
            if r.painted and r.proposed:  # a source says the current text is wrong: never keep it
                out[r.code] = UNKNOWN
        for code, text in (decisions or {}).items():
            if text:
                out[code] = text
            else:
                row = self.row(code)
                if row is not None and row.painted:
                    out[code] = UNKNOWN
                else:
                    out.pop(code, None)
        return out

    def left_out(self, decisions: Mapping[int, str | None] | None = None) -> list[CodeRow]:
        """The codes the copy does not map to a letter: doubtful and not confirmed, or rejected."""
        decisions = decisions or {}
        return [
            r
            for r in self.rows
            if (r.code in decisions and not decisions[r.code])
            or (r.doubtful and r.proposed and r.code not in decisions)
        ]

    def to_json(self) -> dict[str, object]:
        return {
            "font_id": self.font_id,
            "font_key": self.font_key,
            "base_font": self.base_font,
            "embedded": self.embedded,
            "ink_is_substitute": self.ink_is_substitute,
            "offset": self.offset.to_json() if self.offset else None,
            "code_page": self.code_page,
            "rows": [r.to_json() for r in self.rows],
        }


def _hex(code: int) -> str:
    return f"0x{code:04X}" if code > 0xFF else f"0x{code:02X}"


BLOCKS = (
    (0x0000, 0x007F, "Basic Latin"),
    (0x0080, 0x00FF, "Latin-1 Supplement"),
    (0x0100, 0x017F, "Latin Extended-A"),
    (0x0180, 0x024F, "Latin Extended-B"),
    (0x0370, 0x03FF, "Greek"),
    (0x0400, 0x04FF, "Cyrillic"),
    (0x0590, 0x05FF, "Hebrew"),
    (0x0600, 0x06FF, "Arabic"),
    (0x2000, 0x206F, "General Punctuation"),
)


def block_of(c: str) -> str:
    """The Unicode block of a character (the common ones by name, others by their 128-code range)."""
    o = ord(c[0]) if c else 0
    for lo, hi, name in BLOCKS:
        if lo <= o <= hi:
            return name
    return f"U+{o & ~0x7F:04X} block"


# ------------------------------------------------------------------------------- gathering


@dataclass(slots=True)
class _Font:
    """What the pages read tell of one font (collected page by page)."""

    font_id: str
    font_key: str
    base_font: str
    subtype: str
    embedded: bool
    substitute: str | None = (
        None  # FontInfo.substitute: why the ink is a substitute's drawing of other letters
    )
    code_bytes: int = 1
    keys: set[str] = field(default_factory=set)
    offset: int | None = None
    code_page: str | None = None
    current: dict[int, str] = field(default_factory=dict)
    painted: Counter[int] = field(default_factory=Counter)
    words: list[list[tuple[int, str]]] = field(default_factory=list)  # pen words: (code, text)
    program: dict[int, tuple[str, str]] = field(default_factory=dict)  # code → (text, detail)
    unpainted: dict[int, str] = field(default_factory=dict)  # one-byte codes not painted: current text
    encoding: dict[int, tuple[str, str]] = field(default_factory=dict)  # code → (text, detail)


def _pen_words(analysis: PageAnalysis, indices: Sequence[int]) -> list[list[tuple[int, str]]]:
    """The glyphs of `indices` in paint order, cut into words where the pen jumps (as core/garbled)."""
    table = analysis.fonts.glyph_table
    if table is None:
        return []
    geom, uni, code = table.geom, table.unicode, table.code
    heights = table.spread(run.height for run in table.runs)
    out: list[list[tuple[int, str]]] = []
    word: list[tuple[int, str]] = []
    prev = -1
    for i in indices:
        if prev >= 0:
            b, p = i * GEOM_STRIDE, prev * GEOM_STRIDE
            dx, dy = geom[b] - geom[p + 2], geom[b + 1] - geom[p + 3]
            limit = WORD_GAP * (heights[i] or 1.0)
            if i != prev + 1 or dx * dx + dy * dy > limit * limit:
                out.append(word)
                word = []
        word.append((code[i], uni[i]))
        prev = i
    if word:
        out.append(word)
    return out


def shifted(text: str, offset: int) -> str | None:
    """`text` (one character) shifted by the offset k; None when not one character or the shift
    leaves the printable BMP."""
    if len(text) == 1 and 0x20 <= ord(text) + offset < 0xD800 and not 0x7F <= ord(text) + offset < 0xA0:
        return chr(ord(text) + offset)
    return None


def measure_offset(k: int, words: Iterable[Sequence[tuple[int, str]]]) -> tuple[OffsetMeasure, Counter[int]]:
    """The offset k measured on pen words: the letter runs (MIN_WORD_LETTERS+) that read as words
    once shifted, their letters' blocks and codes; and per code the words it is measured in."""
    measured = 0
    blocks: Counter[str] = Counter()
    letters: list[tuple[int, str]] = []
    attested: Counter[int] = Counter()
    for word in words:
        run: list[tuple[int, str]] = []
        for code, text in [*word, (-1, " ")]:
            moved = shifted(text, k) if code >= 0 else None
            if moved is not None and moved.isalpha():
                run.append((code, moved))
                continue
            if len(run) >= MIN_WORD_LETTERS and not improbable("".join(c for _, c in run), acronyms=True):
                measured += 1
                letters.extend(run)
                blocks.update(block_of(c) for _, c in run)
                attested.update({c for c, _ in run})
            run = []
    total = sum(blocks.values())
    kept = tuple(b for b, n in blocks.most_common() if total and n / total >= MEASURED_BLOCK_SHARE)
    codes = [c for c, ch in letters if block_of(ch) in kept]
    span = (min(codes), max(codes)) if codes else None
    return OffsetMeasure(k, measured, len(letters), span, kept), attested


def _program_readings(
    document: Document, analysis: PageAnalysis, font_key: str, form_path: tuple[str, ...]
) -> dict[int, tuple[str, str]]:
    """code → (text, detail) from the embedded font program: simple fonts by code (0–255), Type0
    TrueType fonts by glyph id (CID through /CIDToGIDMap). Empty when there is no program."""
    from glyphscope.core.fonts.pdfobj import dget, stream_bytes
    from glyphscope.core.fonts.program import read_program_table
    from glyphscope.inspector.views.fonts import font_object

    obj = font_object(document, analysis.page_number, font_key, form_path)
    if obj is None:
        return {}
    out: dict[int, tuple[str, str]] = {}
    with document.locked():
        try:
            if str(obj.get("/Subtype")) == "/Type0":
                descendants = obj.get("/DescendantFonts")
                cid_font = descendants[0] if descendants is not None and len(descendants) else None
                descriptor = dget(cid_font, "/FontDescriptor")
                program = dget(descriptor, "/FontFile2")
                if program is None or str(obj.get("/Encoding")) not in ("/Identity-H", "/Identity-V"):
                    return {}
                data, _ = stream_bytes(program)
                if not data:
                    return {}
                out = _truetype_gids(data, cid_font)
            else:
                table = read_program_table(dget(obj, "/FontDescriptor"))
                for code, text in table.text.items():
                    name = table.glyph_names.get(code, "")
                    out[code] = (text, f"{table.kind}: glyph “{name}” → {text}" if name else table.kind)
        except Exception:  # noqa: BLE001 -- a broken program is no evidence, never an error
            return {}
    return out


def _encoding_readings(obj: object, font_key: str, encoding: str) -> dict[int, tuple[str, str]]:
    """code → (text, detail) through a simple font's /Encoding (its /Differences or base table by
    glyph name), when the font has a /ToUnicode: then the encoding is a reading independent of the
    one the text has now (a ToUnicode off by a constant leaves the encoding right). Guesses
    (Windows-1252 for a font without a table) are no evidence."""
    import pikepdf

    from glyphscope.core.fonts.loader import load_font
    from glyphscope.core.glyph import DecodeSource

    if not isinstance(obj, pikepdf.Dictionary) or "/ToUnicode" not in obj:
        return {}
    bare = pikepdf.Dictionary({k: v for k, v in obj.items() if k != "/ToUnicode"})
    font = load_font(bare, font_key)
    out: dict[int, tuple[str, str]] = {}
    for code in range(256):
        text, source = font.unicode(code)
        if text and source in (DecodeSource.DIFFERENCES, DecodeSource.BASE_ENCODING):
            out[code] = (
                text,
                f"the font's encoding ({encoding.split(' (')[0]}) names {text} at {_hex(code)}",
            )
    return out


def _truetype_gids(data: bytes, cid_font: object) -> dict[int, tuple[str, str]]:
    """CID → (text, detail) of an Identity-H TrueType CIDFont: the glyph's post name through the
    Adobe Glyph List, else the program's Unicode cmap inverted."""
    import io

    from fontTools.ttLib import TTFont

    from glyphscope.core.fonts.encodings import glyph_unicode
    from glyphscope.core.fonts.truetype import cid_to_gid_map, glyph_unicode_map

    font = TTFont(io.BytesIO(data), lazy=True, fontNumber=0)
    order = font.getGlyphOrder()
    by_cmap = glyph_unicode_map(data)
    to_gid = cid_to_gid_map(cid_font)
    cids = range(len(order)) if to_gid is None else to_gid.keys()
    out: dict[int, tuple[str, str]] = {}
    for cid in cids:
        gid = cid if to_gid is None else to_gid[cid]
        if not 0 < gid < len(order):
            continue
        name = order[gid]
        text = glyph_unicode(name) if name and not name.startswith("glyph") else None
        if text and len(text) == 1 and text.isprintable():
            out[cid] = (text, f"TrueType glyph {gid} “{name}” → {text}")
        elif gid in by_cmap:
            out[cid] = (by_cmap[gid], f"TrueType cmap: glyph {gid} → {by_cmap[gid]}")
    return out


def _ocr_votes(result: VerifyResult | None) -> dict[str, dict[int, Counter[str]]]:
    """font id → code → ink reading → [votes]; conf kept beside (see _ocr_conf)."""
    votes: dict[str, dict[int, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    if result is None:
        return {}
    for page in result.pages:
        for g in page.glyphs:
            if g.ink and g.conf is not None and g.conf >= OCR_VOTE_CONF:
                votes[g.font_id][g.code][unicodedata.normalize("NFC", g.ink)] += 1
    return votes


def _ocr_conf(result: VerifyResult | None) -> dict[tuple[str, int, str], list[float]]:
    confs: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    if result is None:
        return confs
    for page in result.pages:
        for g in page.glyphs:
            if g.ink and g.conf is not None and g.conf >= OCR_VOTE_CONF:
                confs[(g.font_id, g.code, unicodedata.normalize("NFC", g.ink))].append(g.conf)
    return confs


def gather(
    document: Document,
    analyses: Iterable[PageAnalysis],
    result: VerifyResult | None = None,
    fonts: Iterable[str] | None = None,
) -> dict[str, FontEvidence]:
    """font id → its codes with evidence, over the pages of `analyses` (and the OCR of `result`),
    for the fonts with something to propose: a garbled font (an offset, or a code page), a font
    the OCR cross-check judged wrong, or one in `fonts` (font ids to take whatever their evidence)."""
    from glyphscope.core.fonts.loader import load_font
    from glyphscope.core.fonts.simple import SimpleFont
    from glyphscope.core.glyph import DecodeSource
    from glyphscope.inspector.views.fonts import font_object

    wanted = set(fonts or ())
    checks = {f.font_id: f for f in result.fonts} if result is not None else {}
    collected: dict[str, _Font] = {}
    pairs: dict[str, str | None] = {}  # font id → the code page its font reads byte pairs through
    for analysis in analyses:
        done: set[str] = set()  # font objects of this page read (two keys may select one)
        stats = analysis.fonts
        table = stats.glyph_table
        if table is None:
            continue
        for entry in stats.entries:
            pf = entry.page_font
            info = pf.info
            fid = info.font_id
            if not entry.font.glyphs:
                continue
            loaded = None
            if fid not in pairs:  # the font is loaded again only when its glyphs are read as pairs
                pairs[fid] = None
                if DecodeSource.CODE_PAGE in entry.font.sources:
                    obj = font_object(document, analysis.page_number, pf.font_key, tuple(pf.form_path))
                    loaded = load_font(obj, pf.font_key) if obj is not None else None
                    pairs[fid] = loaded.code_page if isinstance(loaded, SimpleFont) else None
            verdict = stats.verdicts.get(fid)
            garbled = verdict is not None and verdict.garbled
            check = checks.get(fid)
            wrong = check is not None and check.proposed is not None
            named = fid in wanted or pf.font_key in wanted or pf.font_key.lstrip("/") in wanted
            if not (garbled or wrong or named or pairs[fid]):
                continue
            f = collected.get(fid)
            if f is None:
                f = collected[fid] = _Font(
                    fid, pf.font_key, info.base_font, info.subtype, info.embedded, info.substitute
                )
                f.code_page = pairs[fid]
                f.program = _program_readings(document, analysis, pf.font_key, tuple(pf.form_path))
                if loaded is None:
                    obj = font_object(document, analysis.page_number, pf.font_key, tuple(pf.form_path))
                    loaded = load_font(obj, pf.font_key) if obj is not None else None
                if isinstance(loaded, SimpleFont) and f.code_page is None:
                    for code in range(256):
                        f.unpainted[code] = loaded.unicode(code)[0]
                    if obj is not None:
                        f.encoding = _encoding_readings(obj, pf.font_key, loaded.info.encoding)
            if garbled and verdict is not None:
                f.offset = f.offset if f.offset is not None else verdict.offset
                f.code_page = f.code_page or verdict.code_page
            f.keys.add(pf.font_key)
            if fid in done:
                continue
            done.add(fid)
            for i in entry.font.glyphs:
                f.code_bytes = table.code_bytes[i]
                f.current.setdefault(table.code[i], table.unicode[i])
                f.painted[table.code[i]] += 1
            if f.offset is not None and f.code_page is None:
                f.words.extend(_pen_words(analysis, entry.font.glyphs))
    votes = _ocr_votes(result)
    confs = _ocr_conf(result)
    out: dict[str, FontEvidence] = {}
    for fid, f in collected.items():
        check = checks.get(fid)
        # the one rule (core.fonts.common.substitute_reason, read at load), as the verdict's
        # FontCheck.ink_is_substitute: also for fonts the OCR did not judge
        substitute = f.substitute is not None
        out[fid] = _font_evidence(
            f, votes.get(fid, {}), confs, substitute, check.verdict.value if check else None
        )
    return out


def _font_evidence(
    f: _Font,
    votes: Mapping[int, Counter[str]],
    confs: Mapping[tuple[str, int, str], list[float]],
    substitute: bool,
    ocr_verdict: str | None,
) -> FontEvidence:
    measure: OffsetMeasure | None = None
    attested: Counter[int] = Counter()
    if f.offset is not None:
        measure, attested = measure_offset(f.offset, f.words)
    codes = set(f.current) | set(votes) | ({c for c in f.program if c in f.current})
    if (
        measure is not None and f.code_bytes == 1
    ):  # codes the pages did not paint, in the band the offset holds
        for code, text in f.unpainted.items():
            moved = shifted(text, measure.k)
            if moved is not None and block_of(moved) in measure.blocks and code not in f.current:
                codes.add(code)
    rows: list[CodeRow] = []
    if f.code_page is not None:  # byte pairs: the copy writes ActualText, no code is mapped
        codes = set()
        for code, text in sorted(f.current.items()):
            if code > 0xFF and text:
                pair = code.to_bytes(2, "big").hex().upper()
                detail = f"code page {f.code_page}: pair {pair} → {text} (written as ActualText)"
                pair_evidence = (Evidence(Source.CODE_PAGE, text, detail),)
                rows.append(
                    CodeRow(
                        code,
                        text,
                        text,
                        Status.SUPPORTED,
                        "read through the code page",
                        pair_evidence,
                        f.painted[code],
                    )
                )
    for code in sorted(codes):
        current = f.current.get(code, f.unpainted.get(code, ""))
        evidence: list[Evidence] = []
        program = f.program.get(code)
        if program is not None:
            evidence.append(Evidence(Source.FONT_PROGRAM, program[0], program[1]))
        encoded = f.encoding.get(code)
        offset_text = shifted(current, measure.k) if measure is not None else None
        offset_holds = False
        if measure is not None and offset_text is not None:
            offset_holds = block_of(offset_text) in measure.blocks
            seen = attested.get(code, 0)
            where = f"in {seen} of them" if seen else "not in the measured words"
            if offset_holds:
                detail = f"{measure.short()}: {current} → {offset_text} ({where}; {block_of(offset_text)})"
            else:
                detail = (
                    f"{measure.short()}: {current} → {offset_text} lands in {block_of(offset_text)}, "
                    f"outside the blocks it was measured on — a guess"
                )
            evidence.append(Evidence(Source.OFFSET, offset_text, detail, offset_holds))
        tally = votes.get(code)
        ocr_text, ocr_strong = None, False
        if tally:
            ocr_text, n = tally.most_common(1)[0]
            total = sum(tally.values())
            cs = confs.get((f.font_id, code, ocr_text), [])
            mean = sum(cs) / len(cs) if cs else 0.0
            enough = (n >= OCR_MIN_VOTES and mean >= OCR_MIN_CONF) or (
                n == total == 1 and mean >= OCR_SINGLE_CONF
            )
            ocr_strong = enough and n / total > 0.5 and not substitute
            detail = f"OCR: {n} of {total} vote{'s' if total != 1 else ''} read “{ocr_text}”, mean confidence {mean:.0f}"
            if substitute:
                detail += " — not counted: the ink is the renderer's substitute drawing other letters"
            elif not ocr_strong:
                detail += (
                    f" — too weak alone (needs {OCR_MIN_VOTES}+ agreeing votes at {OCR_MIN_CONF:g}+, "
                    f"or one at {OCR_SINGLE_CONF:g}+)"
                )
            evidence.append(Evidence(Source.OCR, ocr_text, detail, ocr_strong))
        # the encoding never counts alone: with the offset, or with the ink where the ink is evidence
        # (a substitute's drawing of a font whose ink is no evidence agrees with nothing)
        ink_agrees = (
            ocr_text is not None and not substitute and encoded is not None and encoded[0] == ocr_text
        )
        if encoded is not None and (offset_text is not None or tally):
            agrees = encoded[0] == offset_text or ink_agrees
            evidence.append(Evidence(Source.CODE_PAGE, encoded[0], encoded[1], agrees))
        proposed, status, reason = _decide(
            current, program, offset_text, offset_holds, ocr_text, ocr_strong, substitute
        )
        if (
            status is Status.DOUBTFUL
            and encoded is not None
            and proposed
            and encoded[0] == proposed
            and (proposed == offset_text or ink_agrees)
        ):
            by = "offset" if proposed == offset_text else "ink"
            status, reason = Status.SUPPORTED, f"the {by} and the font's encoding agree"
        if status is Status.DOUBTFUL and measure is not None and offset_text is not None and not offset_holds:
            reason = (
                f"the offset was measured on {', '.join(measure.blocks) or 'no'} letters; "
                f"{offset_text} lies in {block_of(offset_text)}"
            )
        rows.append(CodeRow(code, current, proposed, status, reason, tuple(evidence), f.painted.get(code, 0)))
    return FontEvidence(
        f.font_id,
        f.font_key,
        f.base_font,
        f.subtype,
        f.code_bytes,
        f.embedded,
        tuple(sorted(f.keys)),
        substitute,
        measure,
        tuple(rows),
        ocr_verdict,
        f.code_page,
    )


def _decide(
    current: str,
    program: tuple[str, str] | None,
    offset_text: str | None,
    offset_holds: bool,
    ocr_text: str | None,
    ocr_strong: bool,
    substitute: bool,
) -> tuple[str, Status, str]:
    """(proposed text, status, reason) from the readings of one code. The font program is the
    font's own data; then the offset where it holds; then the ink's confident votes on real ink.
    Votes read from a substitute's drawing never decide."""
    if program is not None:
        text = program[0]
        if ocr_strong and ocr_text != text:
            return text, Status.DOUBTFUL, f"the font program names {text}, the ink reads {ocr_text}"
        if offset_text is not None and offset_holds and offset_text != text:
            return text, Status.DOUBTFUL, f"the font program names {text}, the offset gives {offset_text}"
        return text, Status.SUPPORTED, "the font program names the glyph"
    if offset_text is not None and offset_holds:
        if ocr_strong and ocr_text != offset_text:
            return (
                ocr_text or "",
                Status.DOUBTFUL,
                f"the offset gives {offset_text}, the ink reads {ocr_text}",
            )
        also = " and the ink agrees" if ocr_strong else ""
        return offset_text, Status.SUPPORTED, f"the offset holds in this block{also}"
    if ocr_strong and ocr_text:
        return ocr_text, Status.SUPPORTED, "the ink's votes agree"
    if offset_text is not None:
        return offset_text, Status.DOUBTFUL, "the offset was measured on other blocks"
    if ocr_text:
        why = "the ink is the renderer's substitute" if substitute else "too few or weak votes"
        return ocr_text, Status.DOUBTFUL, why
    return "", Status.DOUBTFUL, "no source reads this code"
