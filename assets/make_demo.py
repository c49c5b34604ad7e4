"""Build assets/demo.pdf: one text-extraction phenomenon per page (see assets/README.md).

Usage: python assets/make_demo.py [OUT]   (default: demo.pdf next to this script)

Only pikepdf is used. Content streams are written by hand so every operator is exactly
the one the page is about. Output is byte-for-byte deterministic: no dates, no /Info,
and a content-derived /ID (deterministic_id=True).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream

LETTER = [0, 0, 612, 792]

# Standard-14 advance widths (1/1000 em) for codes 32..126, from the Adobe AFM files.
# Needed to place words exactly (justification, fake-bold copies) and for /W on page 9.
# fmt: off
HELV = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778,
    722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278,
    278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
]
TIMES = [
    250, 333, 408, 500, 500, 833, 778, 180, 333, 333, 500, 564, 250, 333, 250, 278, 500, 500, 500, 500,
    500, 500, 500, 500, 500, 500, 278, 278, 564, 564, 564, 444, 921, 722, 667, 667, 722, 611, 556, 722,
    722, 333, 389, 722, 611, 889, 722, 722, 556, 722, 667, 556, 611, 722, 722, 944, 722, 722, 611, 333,
    278, 333, 469, 500, 333, 444, 500, 444, 500, 444, 333, 500, 500, 278, 278, 500, 278, 778, 500, 500,
    500, 500, 333, 389, 278, 500, 500, 722, 500, 500, 444, 480, 200, 480, 541,
]
HELV_BOLD = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778,
    722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333,
    278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
]
# fmt: on
EMDASH_W = 1000  # same in all three fonts

# Page 15: three vertical columns, in reading order (the right-most column first).
# "tategaki no rei" / "migi kara hidari e" / "yomimasu" ("vertical writing example" /
# "right to left" / "is read"). Source kept ASCII: the same strings as \u escapes.
VERTICAL_COLUMNS = (
    "\u7e26\u66f8\u304d\u306e\u4f8b",  # tategaki no rei
    "\u53f3\u304b\u3089\u5de6\u3078",  # migi kara hidari e
    "\u8aad\u307f\u307e\u3059",  # yomimasu
)
# UCS-2 code -> Adobe-Japan1 CID through UniJIS-UCS2-V (same as -H here: no vertical variants
# among these characters), from Adobe's cmap-resources; the kana are 0x3041 + n -> 842 + n.
JAPAN1_CID = {
    "\u7e26": 2382,
    "\u66f8": 2427,
    "\u4f8b": 4011,
    "\u53f3": 1224,
    "\u5de6": 2088,
    "\u8aad": 3233,
    **{chr(u): 842 + u - 0x3041 for u in range(0x3041, 0x3094)},
}
KANA_W1Y = -900  # /W2 vertical advance of the kana; /DW2 [880 -1000] covers the kanji


def width(text: str, size: float, table: list[int] = HELV) -> float:
    """Advance of `text` in points (no Tc/Tw)."""
    # non-ASCII: em dash is exact; anything else (e-acute only) is close enough at 556
    widths = (table[ord(ch) - 32] if ch < "\x7f" else EMDASH_W if ch == "\u2014" else 556 for ch in text)
    return sum(widths) * size / 1000


def num(x: float) -> str:
    s = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def lit(text: str) -> str:
    """PDF literal string, WinAnsi bytes, kept ASCII-only in the stream (octal escapes)."""
    out = []
    for b in text.encode("cp1252"):
        if b in b"()\\":
            out.append("\\" + chr(b))
        elif 32 <= b < 127:
            out.append(chr(b))
        else:
            out.append(f"\\{b:03o}")
    return "(" + "".join(out) + ")"


def hex2(codes) -> str:
    """Two-byte hex string for composite (Identity / UCS2) fonts."""
    return "<" + "".join(f"{c:04X}" for c in codes) + ">"


def gb1_cid(ch: str) -> int:
    """Adobe-GB1 CIDs 1..95 are the half-width ASCII characters U+0020..U+007E."""
    return ord(ch) - 31


def wrap(text: str, size: float, max_w: float, table: list[int] = HELV) -> list[str]:
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}" if cur else word
        if cur and width(trial, size, table) > max_w:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return lines + [cur] if cur else lines


def text_line(font: str, size: float, x: float, y: float, text: str) -> str:
    return f"BT /{font} {num(size)} Tf {num(x)} {num(y)} Td {lit(text)} Tj ET\n"


def header(
    title: str, explain: str, x: float = 72, top: float = 740, max_w: float = 468
) -> tuple[str, float]:
    """Visible title (bold) plus a plain-English explanation; returns (content, next free y)."""
    out, y = [], top
    for line in wrap(title, 13, max_w, HELV_BOLD):
        out.append(text_line("FB", 13, x, y, line))
        y -= 16
    y -= 2
    for line in wrap(explain, 10, max_w):
        out.append(text_line("F1", 10, x, y, line))
        y -= 12.5
    return "".join(out), y - 14


# ---------------------------------------------------------------------------- fonts


class Demo:
    """Holds the Pdf, the shared standard-14 fonts and the finished page dictionaries."""

    def __init__(self) -> None:
        self.pdf = pikepdf.new()
        self.fonts = {
            "F1": self.std_font("Helvetica"),
            "F2": self.std_font("Times-Roman"),
            "F3": self.std_font("Courier"),
            "FB": self.std_font("Helvetica-Bold"),
        }
        self.pages: list[Dictionary] = []

    def std_font(self, base: str) -> pikepdf.Object:
        return self.pdf.make_indirect(
            Dictionary(
                Type=Name.Font, Subtype=Name.Type1, BaseFont=Name("/" + base), Encoding=Name.WinAnsiEncoding
            )
        )

    def stream(self, data: str | bytes, **keys) -> Stream:
        raw = data.encode("ascii") if isinstance(data, str) else data
        return self.pdf.make_indirect(Stream(self.pdf, raw, **keys))

    def resources(self, fonts: dict | None = None, xobjects: dict | None = None) -> Dictionary:
        res = Dictionary(Font=Dictionary({"/" + k: v for k, v in {**self.fonts, **(fonts or {})}.items()}))
        if xobjects:
            res.XObject = Dictionary({"/" + k: v for k, v in xobjects.items()})
        return res

    def add_page(
        self, content: str, resources: Dictionary | None = None, inherit_boxes: bool = False, **keys
    ) -> Dictionary:
        page = Dictionary(Type=Name.Page, Contents=self.stream(content), **keys)
        page.Resources = resources if resources is not None else self.resources()
        if not inherit_boxes:
            page.MediaBox = Array(LETTER)
        page = self.pdf.make_indirect(page)
        self.pages.append(page)
        return page

    def form(self, content: str, bbox, resources: Dictionary | None = None, matrix=None) -> Stream:
        keys = dict(Type=Name.XObject, Subtype=Name.Form, BBox=Array(bbox))
        if matrix is not None:
            keys["Matrix"] = Array(matrix)
        if resources is not None:
            keys["Resources"] = resources
        return self.stream(content, **keys)

    def tounicode(self, mapping: dict[int, str], code_bytes: int = 2) -> Stream:
        """ToUnicode CMap (bfchar only), at most 100 entries per block as the spec requires."""
        digits = 2 * code_bytes
        lo, hi = "0" * digits, "F" * digits
        items = sorted(mapping.items())
        blocks = []
        for i in range(0, len(items), 100):
            chunk = items[i : i + 100]
            body = "".join(
                f"<{code:0{digits}X}> <{s.encode('utf-16-be').hex().upper()}>\n" for code, s in chunk
            )
            blocks.append(f"{len(chunk)} beginbfchar\n{body}endbfchar\n")
        cmap = (
            "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
            f"1 begincodespacerange\n<{lo}> <{hi}>\nendcodespacerange\n"
            + "".join(blocks)
            + "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
        )
        return self.stream(cmap)

    def identity_font(self, chars: str, unsorted_w: bool) -> pikepdf.Object:
        """Non-embedded Type0/Identity-H Latin font: two-byte codes = CIDs, widths from Helvetica's AFM.

        CIDs are Adobe-GB1's half-width ASCII (CID = code point - 31), not Adobe-Identity: with
        Identity ordering poppler has no CID->Unicode map for a substitute font and reports a
        "Syntax Error" on every render. The ToUnicode CMap decodes either way.
        With unsorted_w the /W entries are written in descending CID order and followed by an
        overlapping catch-all range of width 1000: the first entry in file order must win.
        """
        cids = sorted({gb1_cid(c) for c in chars})
        if unsorted_w:
            w: Any = Array()  # pikepdf's stubs want Objects; it converts ints itself
            for cid in reversed(cids):
                w.extend([cid, Array([HELV[cid - 1]])])
            w.extend([1, 95, 1000])  # overlaps everything above; written last, so it loses
        else:
            w = Array(
                [cids[0], Array([HELV[c - 1] if c in cids else 0 for c in range(cids[0], cids[-1] + 1)])]
            )
        descriptor = self.pdf.make_indirect(
            Dictionary(
                Type=Name.FontDescriptor,
                FontName=Name.Helvetica,
                Flags=32,
                FontBBox=Array([-166, -225, 1000, 931]),
                ItalicAngle=0,
                Ascent=718,
                Descent=-207,
                CapHeight=718,
                StemV=88,
            )
        )
        cidfont = self.pdf.make_indirect(
            Dictionary(
                Type=Name.Font,
                Subtype=Name.CIDFontType0,
                BaseFont=Name.Helvetica,
                CIDSystemInfo=Dictionary(Registry="Adobe", Ordering="GB1", Supplement=0),
                FontDescriptor=descriptor,
                DW=1000,
                W=w,
            )
        )
        return self.pdf.make_indirect(
            Dictionary(
                Type=Name.Font,
                Subtype=Name.Type0,
                BaseFont=Name.Helvetica,
                Encoding=Name("/Identity-H"),
                DescendantFonts=Array([cidfont]),
                ToUnicode=self.tounicode({gb1_cid(c): c for c in set(chars)}),
            )
        )

    def cid_font(
        self, base: str, ordering: str, supplement: int, bbox: list[int], stemv: int, **metrics
    ) -> pikepdf.Object:
        """Non-embedded CIDFontType0 descendant (no FontFile: the viewer substitutes a font).

        Ascent 880 / Descent -120 is the ideographic em box, so a vertical glyph hangs exactly
        one em below its /DW2 position vector (vy = 880). `metrics`: /W, /W2, /DW2.
        """
        descriptor = self.pdf.make_indirect(
            Dictionary(
                Type=Name.FontDescriptor,
                FontName=Name("/" + base),
                Flags=6,
                FontBBox=Array(bbox),
                ItalicAngle=0,
                Ascent=880,
                Descent=-120,
                CapHeight=880,
                StemV=stemv,
            )
        )
        return self.pdf.make_indirect(
            Dictionary(
                Type=Name.Font,
                Subtype=Name.CIDFontType0,
                BaseFont=Name("/" + base),
                CIDSystemInfo=Dictionary(Registry="Adobe", Ordering=ordering, Supplement=supplement),
                FontDescriptor=descriptor,
                DW=1000,
                **metrics,
            )
        )

    def ucs2_font(self, cidfont: pikepdf.Object, encoding: str, chars: str) -> pikepdf.Object:
        """Type0 font over a predefined Uni…-UCS2 CMap: codes are UCS-2, so ToUnicode maps code → itself."""
        return self.pdf.make_indirect(
            Dictionary(
                Type=Name.Font,
                Subtype=Name.Type0,
                BaseFont=Name(f"{cidfont.BaseFont}-{encoding}"),
                Encoding=Name("/" + encoding),
                DescendantFonts=Array([cidfont]),
                ToUnicode=self.tounicode({ord(c): c for c in sorted(set(chars))}),
            )
        )

    def song_font(self) -> pikepdf.Object:
        """Non-embedded Adobe-GB1 font through the predefined UniGB-UCS2-H CMap (codes = UCS-2)."""
        cidfont = self.cid_font(
            "STSong-Light",
            "GB1",
            2,
            [-25, -254, 1000, 880],
            93,
            W=Array([1, 95, 500]),  # half-width ASCII range of Adobe-GB1
        )
        return self.ucs2_font(cidfont, "UniGB-UCS2-H", "95\u540e")

    def heisei_fonts(self, chars: str) -> tuple[pikepdf.Object, pikepdf.Object]:
        """Non-embedded Adobe-Japan1 HeiseiMin-W3: (WMode 1 /UniJIS-UCS2-V font, /UniJIS-UCS2-H font).

        Both Type0 fonts share one descendant; only the vertical one uses its /DW2 and /W2.
        /W2 gives the kana a 900 vertical advance (tighter, like proportional kana), in both
        forms: `c [w1y v1x v1y]` and `c_first c_last w1y v1x v1y`. Kanji fall back to /DW2.
        """
        kana = [JAPAN1_CID[c] for c in sorted(set(chars)) if "\u3041" <= c <= "\u3093"]
        w2: Any = Array()
        cids = sorted(set(kana))
        i = 0
        while i < len(cids):
            if i + 1 < len(cids) and cids[i + 1] == cids[i] + 1:
                w2.extend([cids[i], cids[i + 1], KANA_W1Y, 500, 880])
                i += 2
            else:
                w2.extend([cids[i], Array([KANA_W1Y, 500, 880])])
                i += 1
        cidfont = self.cid_font(
            "HeiseiMin-W3",
            "Japan1",
            2,
            [-123, -257, 1001, 910],
            69,
            DW2=Array([880, -1000]),
            W2=w2,
        )
        return self.ucs2_font(cidfont, "UniJIS-UCS2-V", chars), self.ucs2_font(
            cidfont, "UniJIS-UCS2-H", chars
        )


# ---------------------------------------------------------------------------- pages

# (title, explanation) per page; page 1 lists the titles as a table of contents.
PAGES = {
    2: (
        "Page 2 \u2014 Word gaps from TJ offsets and Td moves",
        "There is not one space glyph on this page below this header. Words are separated by TJ "
        "offsets (like TeX) or by a new Td per word (justified text). A correct extractor reads "
        "'PDF Reference Manual' and 'November 4, 1998', not 'PDFReferenceManualNovember4,1998'.",
    ),
    3: (
        "Page 3 \u2014 Negative Tc tracking given back by TJ",
        "Each sample uses -5 Tc and gives the 5 pt back with a TJ offset after every glyph, so glyphs "
        "touch. Measuring from pen_end (which includes Tc) sees 5 pt gaps and invents spaces. A "
        "correct extractor reads '95after tracking', and '95' + U+540E on the CJK line, with no inner spaces.",
    ),
    4: (
        "Page 4 \u2014 '1 Tf' with the real size in Tm",
        "Block A selects the font at size 1 and scales by 12 in Tm (as Word does); block B uses "
        "12 Tf. They paint the same geometry, so a correct extractor reads both blocks identically: "
        "'Hello World' twice and 'Baseline jitter' on one line (its 2nd word is 1 pt lower).",
    ),
    5: (
        "Page 5 \u2014 Rotated runs, superscript by text rise, mixed sizes",
        "A correct extractor reads each rotated run (90, 45, 180 degrees) as ONE line with its "
        "word spaces, keeps the superscript of 'E = mc2' on its line, and keeps the 48 pt word and "
        "its 6 pt caption (same baseline) on one line.",
    ),
    6: (
        "Page 6 \u2014 Text inside Form XObjects",
        "A diagonal CONFIDENTIAL watermark drawn through a form with a /Matrix, a form drawing a "
        "form, a form without /Resources (it borrows the page font) and a run placed outside its "
        "form /BBox (clipped when rendered). A correct extractor reads all of them.",
    ),
    7: (
        "Page 7 \u2014 Printer slug outside an inherited CropBox",
        "MediaBox 700 x 900 and CropBox 50 50 662 842 are set on an intermediate /Pages node, not "
        "on this page. The slug lines and crop marks lie outside the CropBox: a correct extractor "
        "culls them and never outputs 'Job 4711'.",
    ),
    8: (
        "Page 8 \u2014 Fake bold and overprint duplicates",
        "Words painted twice 0.3 pt apart, a triple strike and a footer painted twice in place "
        "must be read ONCE; real doubles ('fill', 'committee', equal cells '10' '10') must "
        "survive. A correct extractor reads 'Fake bold heading'.",
    ),
    9: (
        "Page 9 \u2014 Composite font with an unsorted /W array",
        "The sentence uses a Type0 Identity-H font whose /W entries are in descending CID order "
        "and overlap a later catch-all range of width 1000. Binary search falls back to /DW 1000 "
        "and spreads the line off the page; a correct extractor reads the whole sentence.",
    ),
    10: (
        "Page 10 \u2014 Fonts without ToUnicode",
        "Font /FN has no ToUnicode and /Differences names /g1 ... /g5 on codes 1-5 (no standard "
        "meaning): 5 unresolved glyphs. Font /FA uses Adobe Glyph List names (uni004F, ffi, "
        "u00E9) that resolve: a correct extractor reads 'O' + U+FB03 (ffi ligature) + 'ce caf\u00e9'.",
    ),
    11: (
        "Page 11 \u2014 Tagged page: structure order differs from stream order",
        "Paragraph B is drawn before paragraph A, but the structure tree lists A first. Structure "
        "order reads A then B; stream order reads B then A. One untagged line and one /Artifact "
        "line form the untagged tail.",
    ),
    12: (
        "Page 12 \u2014 q/Q restores the font",
        "A two-byte Identity-H font is selected inside q...Q. After Q the one-byte Helvetica is "
        "current again. An extractor that saves only the CTM decodes the last paragraph as "
        "two-byte codes and loses it; a correct extractor reads it.",
    ),
    13: (
        "Page 13 \u2014 Columns and a table",
        "The stream paints row by row across both columns. Plain mode interleaves the columns; "
        "columns mode reads the left column, then the right one; layout mode keeps the table "
        "gaps as runs of spaces.",
    ),
    14: (
        "Page 14 \u2014 Type3 font and invisible text",
        "'BEADED DECADE' uses a Type3 font whose glyphs are boxes drawn by /CharProcs; its "
        "/Differences use AGL names, so it decodes. The empty box holds text in render mode 3 "
        "(an OCR layer): invisible but page text. A correct extractor reads both.",
    ),
    15: (
        "Page 15 \u2014 Vertical writing (WMode 1): columns read right to left, each top to bottom",
        "Three columns in a Type0 /UniJIS-UCS2-V font (/DW2, /W2); a correct extractor reads 3 lines:",
    ),
}


def page_overview(d: Demo) -> None:
    head, y = header(
        "glyphscope demo \u2014 overview",
        "Each page of this file shows ONE text-extraction phenomenon. Its first line says what it "
        "shows and what a correct extractor outputs. Open it in the glyphscope inspector to see "
        "every decision (space, line break, culled glyph, duplicate).",
    )
    body = []
    for title, _ in PAGES.values():
        body.append(text_line("F1", 11, 90, y, title))
        y -= 16
    body.append(text_line("F2", 10, 72, y - 10, "Generated by assets/make_demo.py; deterministic output."))
    d.add_page(head + "".join(body))


def page_tj_gaps(d: Demo) -> None:
    head, y = header(*PAGES[2])
    out = [
        # TeX-style cover: words separated only by negative TJ offsets (a third of an em)
        f"BT /F2 24 Tf 72 {num(y - 20)} Td [(PDF)-333(Reference)-333(Manual)]TJ ET\n",
        f"BT /F2 14 Tf 72 {num(y - 44)} Td [(November)-250(4,)-250(1998)]TJ ET\n",
    ]
    # A justified paragraph: one Td per word, the line's slack spread over the word gaps.
    para = (
        "Justified text is often written one word at a time: the producer moves the text position "
        "with Td to the start of each word instead of painting a space glyph, and spreads the slack "
        "of the line evenly over the gaps between its words. An extractor that only copies space "
        "characters glues this whole paragraph into one long word per line; one that compares each "
        "gap with the glyph height recovers every word boundary, as a reader would."
    )
    size, lead, x0, col_w = 11, 14, 72, 468
    y = y - 90
    out.append(f"BT /F2 {size} Tf\n")
    lines = wrap(para, size, col_w, TIMES)
    for i, line in enumerate(lines):
        words = line.split()
        natural = sum(width(w, size, TIMES) for w in words)
        last = i == len(lines) - 1
        gap = width(" ", size, TIMES) if last or len(words) == 1 else (col_w - natural) / (len(words) - 1)
        out.append(f"1 0 0 1 {num(x0)} {num(y)} Tm {lit(words[0])} Tj\n")
        for prev, word in zip(words, words[1:]):
            out.append(f"{num(width(prev, size, TIMES) + gap)} 0 Td {lit(word)} Tj\n")
        y -= lead
    out.append("ET\n")
    d.add_page(head + "".join(out))


def page_tracking(d: Demo) -> None:
    head, y = header(*PAGES[3])

    def tracked(codes: list[str], word_break_after: int = -1) -> str:
        # -250/1000 * 20 pt = 5 pt given back after every glyph, exactly cancelling -5 Tc;
        # -700 = 14 pt, i.e. a real 9 pt word gap once Tc is paid
        offsets = ["-700" if i == word_break_after else "-250" for i in range(len(codes) - 1)] + [""]
        return "[" + "".join(c + o for c, o in zip(codes, offsets)) + "]TJ"

    latin = tracked([lit(c) for c in "95aftertracking"], word_break_after=6)
    cjk = tracked([hex2([ord(c)]) for c in "95\u540e"])
    out = [
        f"BT /F1 20 Tf 72 {num(y - 20)} Td -5 Tc {latin} 0 Tc ET\n",
        text_line("F1", 10, 72, y - 44, "Above: Helvetica 20 pt, -5 Tc, TJ -250 after each glyph."),
        f"BT /FC 20 Tf 72 {num(y - 84)} Td -5 Tc {cjk} 0 Tc ET\n",
        text_line("F1", 10, 72, y - 108, "Above: non-embedded STSong-Light, /UniGB-UCS2-H, same tracking."),
    ]
    d.add_page(head + "".join(out), d.resources({"FC": d.song_font()}))


def page_unit_tf(d: Demo) -> None:
    head, y = header(*PAGES[4])
    kern = "[(Hel)-20(lo)-250(W)30(orld)]TJ"  # -20: 0.24 pt kern (no space); -250: 3 pt word gap
    jitter_dx = width("Baseline ", 12) / 12
    a = (
        f"BT /F1 1 Tf 12 0 0 12 72 {num(y - 30)} Tm (Hello World) Tj ET\n"
        f"BT /F1 1 Tf 12 0 0 12 72 {num(y - 50)} Tm {kern} ET\n"
        f"BT /F1 1 Tf 12 0 0 12 72 {num(y - 70)} Tm (Baseline) Tj {num(jitter_dx)} {num(-1 / 12)} Td"
        " (jitter) Tj ET\n"
    )
    b = (
        f"BT /F1 12 Tf 320 {num(y - 30)} Td (Hello World) Tj ET\n"
        f"BT /F1 12 Tf 320 {num(y - 50)} Td {kern} ET\n"
        f"BT /F1 12 Tf 320 {num(y - 70)} Td (Baseline) Tj {num(jitter_dx * 12)} -1 Td (jitter) Tj ET\n"
    )
    labels = text_line("F1", 9, 72, y - 2, "A: /F1 1 Tf, 12 0 0 12 x y Tm") + text_line(
        "F1", 9, 320, y - 2, "B: /F1 12 Tf, x y Td"
    )
    d.add_page(head + labels + a + b)


def page_rotation(d: Demo) -> None:
    head, y = header(*PAGES[5])
    c, s = 0.7071, 0.7071
    glyph_w = width("Glyph", 48, TIMES)
    out = [
        # superscript: 9 pt digit raised 5 pt (< half the 14 pt line's glyph height)
        f"BT /F1 14 Tf 72 {num(y - 20)} Td (E = mc) Tj /F1 9 Tf 5 Ts (2) Tj 0 Ts /F1 14 Tf"
        " ( holds in every inertial frame.) Tj ET\n",
        # big sample word and its tiny caption on exactly the same baseline
        f"BT /F2 48 Tf 72 {num(y - 90)} Td (Glyph) Tj ET\n",
        text_line("F1", 6, 72 + glyph_w + 6, y - 90, "(48 pt word and its 6 pt caption share one baseline)"),
        # 90 degrees: reads bottom to top
        "BT /F1 12 Tf 0 1 -1 0 60 120 Tm (Rotated 90 degrees reads upwards) Tj ET\n",
        # 45 degrees, words separated by TJ offsets only
        f"BT /F1 18 Tf {c} {s} {-s} {c} 150 150 Tm [(Diagonal)-300(run)-300(at)-300(45)-300(degrees)]TJ ET\n",
        # 180 degrees: upside down, reads right to left on the page
        "BT /F1 14 Tf -1 0 0 -1 540 90 Tm (Upside down at 180 degrees) Tj ET\n",
    ]
    d.add_page(head + "".join(out))


def page_forms(d: Demo) -> None:
    head, y = header(*PAGES[6])
    bold = Dictionary(Font=Dictionary(FW=d.fonts["FB"]))
    times = Dictionary(Font=Dictionary(F2=d.fonts["F2"]))
    c, s = 0.7071, 0.7071
    # Watermark: the /Matrix rotates by 45 degrees; the page's cm adds a translation on top.
    fm1 = d.form(
        "0.82 g BT /FW 60 Tf 10 15 Td (CONFIDENTIAL) Tj ET\n",
        [0, 0, 480, 80],
        bold,
        matrix=[c, s, -s, c, 160, 110],
    )
    fm3 = d.form(
        "BT /F2 12 Tf 0 8 Td (Inner form Fm3, drawn by Fm2: form path /Fm2 /Fm3.) Tj ET\n",
        [0, 0, 440, 30],
        times,
        matrix=[1, 0, 0, 1, 20, 0],
    )
    fm2 = d.form(
        "BT /F2 12 Tf 0 40 Td (Outer form Fm2: body text painted through a Form XObject.) Tj ET\n"
        "q 1 0 0 1 0 6 cm /Fm3 Do Q\n",
        [0, 0, 468, 60],
        Dictionary(Font=Dictionary(F2=d.fonts["F2"]), XObject=Dictionary(Fm3=fm3)),
    )
    # No /Resources at all: /F1 must come from the page that draws it (ISO 32000-1 7.8.3).
    fm4 = d.form(
        "BT /F1 11 Tf 0 8 Td (Form Fm4 has no /Resources and borrows /F1 from the page.) Tj ET\n",
        [0, 0, 468, 30],
    )
    fm5 = d.form(
        "BT /F1 11 Tf 0 10 Td (Fm5 inside its BBox.) Tj 0 40 Td"
        " (Fm5 outside its BBox: clipped when rendered, still extracted.) Tj ET\n",
        [0, 0, 300, 30],
        Dictionary(Font=Dictionary(F1=d.fonts["F1"])),
    )
    body = (
        "q 1 0 0 1 20 0 cm /Fm1 Do Q\n"
        f"BT /F1 11 Tf 72 {num(y - 10)} Td (Page body line drawn directly in the page stream.) Tj ET\n"
        f"q 1 0 0 1 72 {num(y - 90)} cm /Fm2 Do Q\n"
        f"q 1 0 0 1 72 {num(y - 140)} cm /Fm4 Do Q\n"
        f"q 1 0 0 1 72 {num(y - 240)} cm /Fm5 Do Q\n"
        # dashed outline of Fm5's BBox, so the clipped run's position is visible
        f"q 0.5 w [3 2] 0 d 0 0 1 RG 72 {num(y - 240)} 300 30 re S Q\n"
        + text_line("F1", 8, 72, y - 252, "Dashed: the /BBox of Fm5.")
    )
    xobjects = {"Fm1": fm1, "Fm2": fm2, "Fm4": fm4, "Fm5": fm5}
    d.add_page(head + body, d.resources(xobjects=xobjects))


def page_cropbox(d: Demo) -> Dictionary:
    # Page space is the 700 x 900 MediaBox; the visible letter page starts at (50, 50).
    ox, oy = 50, 50
    head, y = header(*PAGES[7], x=ox + 72, top=oy + 740)
    body = [
        text_line("F2", 12, ox + 72, y - 10, "Body text inside the CropBox is page text."),
        text_line("F2", 12, ox + 72, y - 28, "Everything printed in the margins around it is not."),
        # slug lines: outside the CropBox (bottom strip y < 50, top strip y > 842)
        text_line("F1", 8, 60, 22, "Job 4711 \u2014 Plate K \u2014 2026-12-02"),
        text_line("F1", 8, 400, 870, "Slug: demo.pdf p7 K 100% C 100% M 100% Y 100%"),
    ]
    marks = ["q 0.5 w 0 G\n"]
    for cx, cy in ((50, 50), (662, 50), (50, 842), (662, 842)):
        hx = -1 if cx == 50 else 1
        vy = -1 if cy == 50 else 1
        marks.append(
            f"{cx + 6 * hx} {cy} m {cx + 30 * hx} {cy} l S {cx} {cy + 6 * vy} m {cx} {cy + 30 * vy} l S\n"
        )
    marks.append("Q\n")
    # the page itself carries no MediaBox/CropBox: both are inherited from its parent node
    return d.add_page(head + "".join(body) + "".join(marks), inherit_boxes=True)


def page_overprint(d: Demo) -> None:
    head, y = header(*PAGES[8])
    out = ["BT /F1 16 Tf\n"]
    x, base = 72.0, y - 20
    for word in ("Fake", "bold", "heading"):  # each word twice, the copy 0.3 pt to the right
        out.append(
            f"1 0 0 1 {num(x)} {num(base)} Tm {lit(word)} Tj 1 0 0 1 {num(x + 0.3)} {num(base)} Tm {lit(word)} Tj\n"
        )
        x += width(word + " ", 16)
    for dx in (0, 0.2, 0.4):  # triple strike: one word painted three times
        out.append(f"1 0 0 1 {num(72 + dx)} {num(base - 30)} Tm (Triple strike) Tj\n")
    out.append("ET\n")
    out.append(text_line("F1", 14, 72, base - 60, "Real doubles survive: fill committee"))
    # table: equal cells one digit advance apart in a row, and equal cells stacked in a column
    adv = width("0", 12)
    out.append(text_line("F1", 12, 72, base - 100, "Row 1"))
    out.append(text_line("F1", 12, 200, base - 100, "10"))
    out.append(text_line("F1", 12, 200 + 3 * adv, base - 100, "10"))
    out.append(text_line("F1", 12, 72, base - 116, "Row 2"))
    out.append(text_line("F1", 12, 200, base - 116, "10"))
    out.append(text_line("F1", 12, 200 + 3 * adv, base - 116, "10"))
    footer = "Footer: glyphscope demo, painted twice at the same position"
    out.append(text_line("F1", 9, 72, 50, footer) * 2)
    d.add_page(head + "".join(out))


def page_unsorted_w(d: Demo) -> None:
    head, y = header(*PAGES[9])
    sentence = "The quick brown fox jumps over the lazy dog, says the unsorted W array."
    font = d.identity_font(sentence, unsorted_w=True)
    out = [
        f"BT /T0 13 Tf 72 {num(y - 20)} Td {hex2(gb1_cid(c) for c in sentence)} Tj ET\n",
        text_line(
            "F1",
            9,
            72,
            y - 40,
            f"Correct width of that line: {width(sentence, 13):.1f} pt. "
            f"With /DW 1000 for every glyph: {13 * len(sentence)} pt (page is 612 pt wide).",
        ),
    ]
    d.add_page(head + "".join(out), d.resources({"T0": font}))


def page_no_tounicode(d: Demo) -> None:
    head, y = header(*PAGES[10])
    # codes 1..5 are undefined in WinAnsi, MacRoman and Standard, so no fallback table can answer
    fn = d.pdf.make_indirect(
        Dictionary(
            Type=Name.Font,
            Subtype=Name.Type1,
            BaseFont=Name.Helvetica,
            FirstChar=1,
            LastChar=5,
            Widths=Array([556] * 5),
            Encoding=Dictionary(
                Type=Name.Encoding,
                BaseEncoding=Name.WinAnsiEncoding,
                Differences=Array([1] + [Name(f"/g{i}") for i in range(1, 6)]),
            ),
        )
    )
    agl = ["/uni004F", "/ffi", "/c", "/e", "/space", "/c", "/a", "/f", "/u00E9"]
    fa = d.pdf.make_indirect(
        Dictionary(
            Type=Name.Font,
            Subtype=Name.Type1,
            BaseFont=Name.Helvetica,
            FirstChar=1,
            LastChar=9,
            Widths=Array([778, 834, 500, 556, 278, 500, 556, 278, 556]),
            Encoding=Dictionary(
                Type=Name.Encoding,
                BaseEncoding=Name.WinAnsiEncoding,
                Differences=Array([1] + [Name(n) for n in agl]),
            ),
        )
    )
    out = [
        f"BT /F1 14 Tf 72 {num(y - 20)} Td (Unresolved glyphs here: <) Tj /FN 14 Tf <0102030405> Tj"
        " /F1 14 Tf (>) Tj ET\n",
        f"BT /FA 14 Tf 72 {num(y - 60)} Td <010203040506070809> Tj ET\n",
        text_line("F1", 9, 72, y - 80, "Above: font /FA, codes 1-9 named uni004F ffi c e space c a f u00E9."),
    ]
    d.add_page(head + "".join(out), d.resources({"FN": fn, "FA": fa}))


def page_tagged(d: Demo) -> Dictionary:
    """MCID 0 = header, 1 = paragraph B (drawn first), 2 = paragraph A (drawn second)."""
    head, y = header(*PAGES[11])
    para_a = [
        "A: This paragraph comes FIRST in the structure tree and is printed",
        "above paragraph B, but it is the second one in the content stream.",
    ]
    para_b = [
        "B: This paragraph is drawn first in the content stream, but the",
        "structure tree lists it second, after paragraph A.",
    ]

    def para(lines: list[str], top: float) -> str:
        return "BT /F2 12 Tf 15 TL 72 {} Td {} Tj{} ET\n".format(
            num(top), lit(lines[0]), "".join(f" T* {lit(line)} Tj" for line in lines[1:])
        )

    content = (
        f"/H1 <</MCID 0>> BDC\n{head}EMC\n"
        f"/P <</MCID 1>> BDC\n{para(para_b, y - 60)}EMC\n"
        f"/P <</MCID 2>> BDC\n{para(para_a, y - 10)}EMC\n"
        + text_line("F1", 10, 72, y - 120, "Untagged line (no MCID).")
        + "/Artifact <</Type /Pagination /Subtype /Footer>> BDC\n"
        + text_line("F1", 9, 72, 50, "Artifact footer, page 11")
        + "EMC\n"
    )
    return d.add_page(content, StructParents=0)


def page_qq_font(d: Demo) -> None:
    head, y = header(*PAGES[12])
    inside = "Two-byte Identity-H text, font selected inside q...Q."
    after = [
        "After Q this paragraph is shown with no Tf of its own: the restored",
        "graphics state makes one-byte WinAnsi Helvetica 12 current again. An",
        "extractor that saved only the CTM still holds the two-byte font and",
        "reads these bytes in pairs, so the whole paragraph turns to garbage.",
    ]
    font = d.identity_font(inside, unsorted_w=False)
    out = (
        f"BT /F1 12 Tf 72 {num(y - 10)} Td (One-byte Helvetica before q.) Tj ET\n"
        f"q\nBT /T0 12 Tf 72 {num(y - 30)} Td {hex2(gb1_cid(c) for c in inside)} Tj ET\nQ\n"
        f"BT 15 TL 72 {num(y - 50)} Td {lit(after[0])} Tj"
        + "".join(f" T* {lit(line)} Tj" for line in after[1:])
        + " ET\n"
    )
    d.add_page(head + out, d.resources({"T0": font}))


def page_columns(d: Demo) -> None:
    # header kept inside the left column so it never bridges the two columns
    head, y = header(*PAGES[13], max_w=216)
    left = wrap(
        "The left column starts here and tells its own story. It runs down the page in short "
        "lines, one below the other, and a reader finishes it before moving to the right. "
        "Plain stream order instead pairs each of its lines with the right column's line on "
        "the same baseline.",
        11,
        216,
        TIMES,
    )
    right = wrap(
        "The right column is a second, separate text. Its lines were written into the content "
        "stream interleaved with the left column, row by row, so only a column-aware mode "
        "(columns or layout) can give it back as one piece of text after the left column.",
        11,
        216,
        TIMES,
    )
    out, row_y = [], y - 10
    for i in range(max(len(left), len(right))):
        if i < len(left):
            out.append(text_line("F2", 11, 72, row_y, left[i]))
        if i < len(right):
            out.append(text_line("F2", 11, 324, row_y, right[i]))
        row_y -= 14
    rows = [
        ("Item", "Qty", "Unit price"),
        ("Apples", "12", "0.40"),
        ("Pears", "7", "0.55"),
        ("Plums", "30", "0.10"),
    ]
    row_y -= 30
    for r, cells in enumerate(rows):
        font = "FB" if r == 0 else "F3"
        for x, cell in zip((72, 260, 420), cells):
            out.append(text_line(font, 10, x, row_y, cell))
        row_y -= 14
    d.add_page(head + "".join(out))


def page_type3_invisible(d: Demo) -> None:
    head, y = header(*PAGES[14])
    bars = {  # letter-like shapes from rectangles in a 600 x 700 glyph cell
        "A": "50 0 100 700 re 450 0 100 700 re 150 600 300 100 re 150 300 300 100 re",
        "B": "50 0 100 700 re 150 600 350 100 re 150 300 350 100 re 150 0 350 100 re 450 100 100 200 re 450 400 100 200 re",
        "C": "50 0 100 700 re 150 600 400 100 re 150 0 400 100 re",
        "D": "50 0 100 700 re 150 600 300 100 re 150 0 300 100 re 450 100 100 500 re",
        "E": "50 0 100 700 re 150 600 400 100 re 150 300 300 100 re 150 0 400 100 re",
    }
    procs = Dictionary({f"/{k}": d.stream(f"600 0 0 0 600 700 d1\n{v} f\n") for k, v in bars.items()})
    procs["/space"] = d.stream("300 0 d0\n")
    t3 = d.pdf.make_indirect(
        Dictionary(
            Type=Name.Font,
            Subtype=Name.Type3,
            FontBBox=Array([0, 0, 600, 700]),
            FontMatrix=Array([0.001, 0, 0, 0.001, 0, 0]),
            CharProcs=procs,
            Encoding=Dictionary(
                Type=Name.Encoding,
                Differences=Array([32, Name.space, 65, Name.A, Name.B, Name.C, Name.D, Name.E]),
            ),
            FirstChar=32,
            LastChar=69,
            Widths=Array([300] + [0] * 32 + [600] * 5),
            Resources=Dictionary(),
            # a FontDescriptor is required for Type3 fonts in tagged PDF (this file is tagged)
            FontDescriptor=d.pdf.make_indirect(
                Dictionary(
                    Type=Name.FontDescriptor,
                    FontName=Name("/GSBoxes"),
                    Flags=32,
                    FontBBox=Array([0, 0, 600, 700]),
                    ItalicAngle=0,
                    Ascent=700,
                    Descent=0,
                    CapHeight=700,
                    StemV=100,
                )
            ),
        )
    )
    top = y - 200
    out = [
        f"BT /T3 24 Tf 72 {num(y - 30)} Td (BEADED DECADE) Tj ET\n",
        text_line("F1", 10, 72, top + 16, "An empty scanned area with an invisible OCR text layer:"),
        f"q 0.6 G 1 w 72 {num(top - 120)} 468 120 re S Q\n",
        f"BT /F2 14 Tf 3 Tr 90 {num(top - 50)} Td (Invisible OCR layer: not painted, still page text.) Tj 0 Tr ET\n",
    ]
    d.add_page(head + "".join(out), d.resources({"T3": t3}))


def page_vertical(d: Demo) -> None:
    """Three WMode 1 columns, right to left; the pen is each glyph's top centre (/DW2 vy = 880)."""
    head, y = header(*PAGES[15])
    chars = "".join(VERTICAL_COLUMNS)
    fv, fh = d.heisei_fonts(chars)
    # The expected reading, horizontally: /UniJIS-UCS2-H text with Helvetica separators.
    sep = "/F1 12 Tf ( / ) Tj /FH 12 Tf "
    expected = sep.join(f"{hex2(ord(c) for c in col)} Tj " for col in VERTICAL_COLUMNS)
    size, pitch, x0, top = 28, 50, 356, y - 30
    # One BT: Tm places the right-most column, each Td moves one column pitch to the left
    # (relative to the start of the previous column, not to where its pen stopped).
    moves = [f"1 0 0 1 {num(x0)} {num(top)} Tm"] + [f"{-pitch} 0 Td"] * (len(VERTICAL_COLUMNS) - 1)
    columns = "".join(
        f"{move} {hex2(ord(c) for c in col)} Tj\n" for move, col in zip(moves, VERTICAL_COLUMNS)
    )
    low = top - size * 5 - 24
    out = [
        f"BT /FH 12 Tf 72 {num(y)} Td {expected}ET\n",
        f"BT /FV {size} Tf\n{columns}ET\n",
        text_line(
            "F1",
            9,
            72,
            low,
            "Above: non-embedded HeiseiMin-W3 (Adobe-Japan1-2); codes are UCS-2, the CMap gives the CIDs.",
        ),
        text_line(
            "F1",
            9,
            72,
            low - 12,
            f"/DW2 [880 -1000]: kanji advance 1 em down; /W2 gives the kana [{KANA_W1Y} 500 880].",
        ),
        text_line(
            "F1",
            9,
            72,
            low - 24,
            "Romanized: tategaki no rei / migi kara hidari e / yomimasu (right column first).",
        ),
    ]
    d.add_page(head + "".join(out), d.resources({"FV": fv, "FH": fh}))


# ---------------------------------------------------------------------------- document


def structure_tree(d: Demo, page: Dictionary) -> Dictionary:
    """Document > H1 (MCID 0), P 'A' (MCID 2), P 'B' (MCID 1): tree order A, B; stream order B, A."""
    pdf = d.pdf
    root = pdf.make_indirect(Dictionary(Type=Name.StructTreeRoot))
    doc = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document, P=root, K=Array()))
    elems = {}
    for mcid, tag in ((0, "/H1"), (2, "/P"), (1, "/P")):  # creation order == reading order
        elems[mcid] = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name(tag), P=doc, Pg=page, K=mcid))
        doc.K.append(elems[mcid])
    root.K = doc
    root.ParentTree = pdf.make_indirect(Dictionary(Nums=Array([0, Array([elems[0], elems[1], elems[2]])])))
    root.ParentTreeNextKey = 1
    return root


def build() -> pikepdf.Pdf:
    d = Demo()
    page_overview(d)
    page_tj_gaps(d)
    page_tracking(d)
    page_unit_tf(d)
    page_rotation(d)
    page_forms(d)
    crop_parent: dict[str, Any] = {"MediaBox": Array([0, 0, 700, 900]), "CropBox": Array([50, 50, 662, 842])}
    p7 = page_cropbox(d)
    page_overprint(d)
    page_unsorted_w(d)
    page_no_tounicode(d)
    p11 = page_tagged(d)
    page_qq_font(d)
    page_columns(d)
    page_type3_invisible(d)
    page_vertical(d)

    # Page tree: page 7 hangs below an intermediate /Pages node that carries its boxes.
    pdf = d.pdf
    root_pages = pdf.make_indirect(Dictionary(Type=Name.Pages, Kids=Array(), Count=len(d.pages)))
    sub = pdf.make_indirect(
        Dictionary(Type=Name.Pages, Parent=root_pages, Kids=Array([p7]), Count=1, **crop_parent)
    )
    p7.Parent = sub
    for page in d.pages:
        if page.objgen == p7.objgen:
            root_pages.Kids.append(sub)
        else:
            page.Parent = root_pages
            root_pages.Kids.append(page)
    pdf.Root.Pages = root_pages
    pdf.Root.MarkInfo = Dictionary(Marked=True)
    pdf.Root.StructTreeRoot = structure_tree(d, p11)
    pdf.Root.Lang = pikepdf.String("en-US")
    return pdf


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).with_name("demo.pdf")
    pdf = build()
    pdf.save(out, deterministic_id=True)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
