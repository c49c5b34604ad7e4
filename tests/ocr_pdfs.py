"""PDFs for the OCR cross-check (tests/inspector/test_verify.py, benchmarks/bench_verify.py): large text in
fonts PDFium draws without embedding (Helvetica), with right and deliberately broken mappings."""

from __future__ import annotations

import io
import random
import zlib
from pathlib import Path
from typing import Any

import pikepdf

from tests.pdfbuild import helvetica, make_pdf, to_bytes

PANGRAMS = (
    "The quick brown fox jumps over",
    "the lazy dog. Pack my box with",
    "five dozen liquor jugs. How",
    "vexingly quick daft zebras jump",
    "Sphinx of black quartz, judge",
    "my vow. Jackdaws love my big",
    "sphinx of quartz 2024 1789",
)


def _literal(text: bytes) -> bytes:
    return b"(" + text.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def lines_content(lines: tuple[str, ...] | list[str], size: float = 28.0, font: str = "/F1") -> bytes:
    """BT … ET showing `lines` (Latin-1) from the top of a Letter page, `size` points, 1.4 leading."""
    out = [b"BT", f"{font} {size:g} Tf 72 700 Td".encode()]
    for i, line in enumerate(lines):
        if i:
            out.append(f"0 {-1.4 * size:g} Td".encode())
        out.append(_literal(line.encode("latin-1")) + b" Tj")
    out.append(b"ET")
    return b"\n".join(out)


def right_mapping(lines: tuple[str, ...] = PANGRAMS) -> bytes:
    """Helvetica, WinAnsi: the mapping is right."""
    return to_bytes(make_pdf([lines_content(lines)], {"/F1": helvetica}))


def off_by_one_tounicode() -> bytes:
    """A ToUnicode CMap mapping each printable code to the next character (0x21 → '"'); space stays."""
    return (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CMapName /OffByOne def /CMapType 2 def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        b"2 beginbfrange <20> <20> <0020> <21> <7E> <0022> endbfrange\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )


def helvetica_widths() -> list[int]:
    """Helvetica's advance widths of codes 32–126 (ASCII) from its AFM metrics."""
    from pdfminer.fontmetrics import FONT_METRICS

    metrics = FONT_METRICS["Helvetica"][1]  # keyed by the character
    return [int(metrics[chr(c)]) for c in range(32, 127)]


def off_by_one(lines: tuple[str, ...] = PANGRAMS) -> bytes:
    """Helvetica whose /ToUnicode is off by one: 'd' (code 100) decodes to 'e'."""

    def font(pdf: pikepdf.Pdf) -> Any:
        f = helvetica(pdf)
        f.FirstChar, f.LastChar, f.Widths = 32, 126, helvetica_widths()  # as real files carry them
        f.ToUnicode = pdf.make_stream(off_by_one_tounicode())
        return f

    return to_bytes(make_pdf([lines_content(lines)], {"/F1": font}))


def shuffled_tounicode() -> bytes:
    """A ToUnicode CMap mapping the letters a–z and A–Z to a shuffle of themselves (no constant
    offset explains it: a ToUnicode only the ink or the encoding can put right)."""
    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [
        chr(c) for c in range(ord("a"), ord("z") + 1)
    ]
    shuffled = letters[:]
    random.Random(11).shuffle(shuffled)
    pairs = b"".join(f"<{ord(a):02X}> <{ord(b):04X}>\n".encode() for a, b in zip(letters, shuffled))
    return (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CMapName /Shuffled def /CMapType 2 def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        + f"{len(letters)} beginbfchar\n".encode()
        + pairs
        + b"endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end\n"
    )


def arial_off_by_one(symbolic: bool, shuffled: bool = False) -> bytes:
    """The ToUnicode off by one of tests/ocr_pdfs under the name ArialMT, not embedded, WinAnsi;
    `symbolic`: its descriptor's /Flags say symbolic (4), else non-symbolic (32); `shuffled`: the
    ToUnicode shuffles the letters instead (shuffled_tounicode)."""

    def arial(pdf: pikepdf.Pdf) -> Any:
        f = helvetica(pdf, base="/ArialMT")
        f.Subtype = pikepdf.Name.TrueType
        f.FirstChar, f.LastChar, f.Widths = 32, 126, helvetica_widths()
        f.ToUnicode = pdf.make_stream(shuffled_tounicode() if shuffled else off_by_one_tounicode())
        f.FontDescriptor = pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.FontDescriptor,
                FontName=pikepdf.Name("/ArialMT"),
                Flags=4 if symbolic else 32,
                FontBBox=[-665, -325, 2000, 1040],
                ItalicAngle=0,
                Ascent=905,
                Descent=-212,
                CapHeight=716,
                StemV=80,
            )
        )
        return f

    return to_bytes(make_pdf([lines_content(PANGRAMS)], {"/F1": arial}))


def type3_without_mapping(lines: tuple[str, ...] = PANGRAMS) -> tuple[bytes, dict[int, str]]:
    """A Type3 font whose glyph procedures draw Helvetica letters, codes 0xA1… in a shuffled order
    (no constant offset explains them), glyph names /g1… (no Unicode meaning) and no ToUnicode;
    and the true code → letter table."""
    letters = sorted({c for line in lines for c in line if c != " "})
    random.Random(7).shuffle(letters)
    code_of = {c: 0xA1 + i for i, c in enumerate(letters)}
    truth = {code: c for c, code in code_of.items()}
    pdf = pikepdf.new()
    inner = helvetica(pdf)
    from pdfminer.fontmetrics import FONT_METRICS

    widths_by_char = FONT_METRICS["Helvetica"][1]
    procs = pikepdf.Dictionary()
    differences: list[Any] = [0x20, pikepdf.Name("/space")]
    first = 0x20
    last = 0xA1 + len(letters) - 1
    widths = [0] * (last - first + 1)
    widths[0] = 278
    for c, code in code_of.items():
        name = f"/g{code - 0xA0}"
        w = int(widths_by_char[c])
        widths[code - first] = w
        proc = f"{w} 0 d0 BT /H 1000 Tf 0 0 Td ".encode() + _literal(c.encode("latin-1")) + b" Tj ET"
        procs[name] = pdf.make_stream(proc)
        differences += [code, pikepdf.Name(name)]
    procs["/space"] = pdf.make_stream(b"278 0 d0")
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type3,
            FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
            FontBBox=[0, -220, 1000, 750],
            FirstChar=first,
            LastChar=last,
            Widths=widths,
            Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=differences),
            CharProcs=procs,
            Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(H=inner)),
        )
    )
    encoded = [bytes(code_of.get(c, 0x20) for c in line) for line in lines]
    content = [b"BT", b"/T3 28 Tf 72 700 Td"]
    for i, line in enumerate(encoded):
        if i:
            content.append(b"0 -39.2 Td")
        content.append(_literal(line) + b" Tj")
    content.append(b"ET")
    return to_bytes(make_pdf([b"\n".join(content)], {"/T3": font}, pdf=pdf)), truth


def type3_empty(text: str = "Nothing drawn here") -> bytes:
    """A Type3 font whose glyph procedures draw nothing, mapped by standard names: visible glyphs
    without ink."""
    pdf = pikepdf.new()
    letters = sorted(set(text) - {" "})
    procs = pikepdf.Dictionary({f"/{_name(c)}": pdf.make_stream(b"600 0 d0") for c in letters})
    procs["/space"] = pdf.make_stream(b"278 0 d0")
    differences: list[Any] = [32, pikepdf.Name("/space")]
    for c in letters:
        differences += [ord(c), pikepdf.Name(f"/{_name(c)}")]
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type3,
            FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
            FontBBox=[0, -220, 600, 750],
            FirstChar=32,
            LastChar=126,
            Widths=[600] * 95,
            Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=differences),
            CharProcs=procs,
        )
    )
    return to_bytes(make_pdf([lines_content([text], font="/T3")], {"/T3": font}, pdf=pdf))


def _name(c: str) -> str:
    return c if c.isalpha() else {"0": "zero", "1": "one", "2": "two"}.get(c, "period")


def image_only(lines: tuple[str, ...] = PANGRAMS[:3], dpi: float = 200.0) -> bytes:
    """A page that is one image of text (a scan): ink without any glyph."""
    from glyphscope.inspector.render.page_images import render_page_image

    image = render_page_image(right_mapping(lines), 1, scale=dpi / 72.0).convert("L")
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=90)
    pdf = pikepdf.new()
    xobject = pdf.make_stream(
        buf.getvalue(),
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Image,
        Width=image.width,
        Height=image.height,
        ColorSpace=pikepdf.Name.DeviceGray,
        BitsPerComponent=8,
        Filter=pikepdf.Name.DCTDecode,
    )
    return to_bytes(
        make_pdf([b"q 612 0 0 792 0 0 cm /Im1 Do Q"], {"/F1": helvetica}, xobjects={"/Im1": xobject}, pdf=pdf)
    )


def gid_shift(lines: tuple[str, ...] = PANGRAMS) -> tuple[bytes, dict[int, str]] | None:
    """An embedded TrueType (DejaVu Sans) shown through Identity-H, codes = glyph ids, with a ToUnicode
    that maps each code to itself: the text is the glyph ids, shifted by a constant from the letters
    ('a' is glyph 68, decoded 'D'). None without the font file. Also the true code → letter table."""
    path = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not path.is_file():
        return None
    from fontTools.ttLib import TTFont

    tt = TTFont(str(path))
    cmap = tt.getBestCmap()
    order = tt.getGlyphOrder()
    gid = {c: order.index(cmap[ord(c)]) for line in lines for c in line}
    truth = {gid[c]: c for c in gid if c != " "}
    upm = tt["head"].unitsPerEm
    hmtx = tt["hmtx"]
    w_array: list[Any] = []
    for _c, g in sorted(gid.items(), key=lambda kv: kv[1]):
        w_array += [g, [round(hmtx[order[g]][0] * 1000 / upm)]]
    pdf = pikepdf.new()
    tounicode = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CMapName /GidAsText def /CMapType 2 def\n"
        b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
        + f"{len(gid)} beginbfchar\n".encode()
        + b"".join(f"<{g:04X}> <{g:04X}>\n".encode() for g in sorted(gid.values()))
        + b"endbfchar\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )
    descriptor = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.FontDescriptor,
            FontName=pikepdf.Name("/DejaVuSans"),
            Flags=32,
            FontBBox=[-1021, -463, 1793, 1232],
            ItalicAngle=0,
            Ascent=928,
            Descent=-236,
            CapHeight=729,
            StemV=80,
            FontFile2=pdf.make_stream(path.read_bytes()),
        )
    )
    cid = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.CIDFontType2,
            BaseFont=pikepdf.Name("/DejaVuSans"),
            CIDSystemInfo=pikepdf.Dictionary(
                Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String("Identity"), Supplement=0
            ),
            FontDescriptor=descriptor,
            CIDToGIDMap=pikepdf.Name.Identity,
            W=pikepdf.Array(w_array),
        )
    )
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type0,
            BaseFont=pikepdf.Name("/DejaVuSans"),
            Encoding=pikepdf.Name("/Identity-H"),
            DescendantFonts=[cid],
            ToUnicode=pdf.make_stream(tounicode),
        )
    )
    content = [b"BT", b"/G 28 Tf 72 700 Td"]
    for i, line in enumerate(lines):
        if i:
            content.append(b"0 -39.2 Td")
        hexed = "".join(f"{gid[c]:04X}" for c in line)
        content.append(f"<{hexed}> Tj".encode())
    content.append(b"ET")
    return to_bytes(make_pdf([b"\n".join(content)], {"/G": font}, pdf=pdf)), truth


SCAN_TEXT = (
    "Desiring to keep you posted on our progress, we send this letter from",
    "California with the latest news about the harvest and the weather.",
    "The orchards gave more fruit than last year, and prices held steady",
    "through the summer. Our new warehouse near the station is finished,",
    "so the next shipments will leave on time. Please write to us soon",
    "with your orders for the autumn, and give our regards to the family.",
)
"""The page of a generated scan: plain English prose Tesseract reads well."""

DEJAVU_SANS = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _shift_letters(word: str) -> str:
    """Every letter and digit one further (a → b, z → a, 9 → 0): the layer of a wrong mapping."""
    out = []
    for c in word:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + 1) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + 1) % 26 + 65))
        elif c.isdigit():
            out.append(str((int(c) + 1) % 10))
        else:
            out.append(c)
    return "".join(out)


def scan_with_layer(
    layer: str = "right",
    lines: tuple[str, ...] = SCAN_TEXT,
    dpi: float = 200.0,
    *,
    under: bool = False,
    height: float = 792.0,
) -> bytes | None:
    """A scanned page: `lines` drawn into an image (DejaVu Sans, Pillow) that fills a Letter page,
    and over it an invisible (Tr 3) Helvetica text layer, word by word, each word placed on its
    ink and stretched (Tz) to its width, as OCR programs write them. `layer`: "right" (the words
    the image shows), "shifted" (every letter one further), "shuffled" (the words dealt to the
    wrong places), "none" (the image only). `under`: the layer is ordinary text (Tr 0) painted
    first and the image painted over it (hidden by the image, not by its render mode). `height`:
    the image covers only the top `height` points of the page (a clipping pasted on an empty
    page). None without the font file."""
    if not DEJAVU_SANS.is_file():
        return None
    from pdfminer.fontmetrics import FONT_METRICS
    from PIL import Image, ImageDraw, ImageFont

    widths = FONT_METRICS["Helvetica"][1]
    px = dpi / 72.0
    image = Image.new("L", (round(612 * px), round(792 * px)), 255)
    draw = ImageDraw.Draw(image)
    size_pt = 14.0
    font = ImageFont.truetype(str(DEJAVU_SANS), round(size_pt * px))
    placed: list[tuple[str, float, float, float]] = []  # word, x0, baseline, width (points)
    for i, line in enumerate(lines):
        y = (100 + i * 26) * px
        x = 60 * px
        for word in line.split():
            draw.text((x, y), word, font=font, fill=0, anchor="ls")
            x0, _, x1, _ = draw.textbbox((x, y), word, font=font, anchor="ls")
            placed.append((word, x0 / px, 792 - y / px, (x1 - x0) / px))
            x = x1 + draw.textlength(" ", font=font)
    texts = [w for w, *_ in placed]
    if layer == "shifted":
        texts = [_shift_letters(w) for w in texts]
    elif layer == "shuffled":
        random.Random(3).shuffle(texts)
    if height < 792.0:
        image = image.crop((0, 0, image.width, round(height * px)))
    pdf = pikepdf.new()
    xobject = pdf.make_stream(
        zlib.compress(image.tobytes()),
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Image,
        Width=image.width,
        Height=image.height,
        ColorSpace=pikepdf.Name.DeviceGray,
        BitsPerComponent=8,
        Filter=pikepdf.Name.FlateDecode,
    )
    paint = f"q 612 0 0 {height:g} 0 {792 - height:g} cm /Im1 Do Q".encode()
    content = [] if under else [paint]
    if layer != "none":
        content.append(b"BT 0 Tr" if under else b"BT 3 Tr")
        for text, (_, x0, base, width) in zip(texts, placed):
            natural = sum(widths.get(c, 556) for c in text) / 1000.0 * size_pt
            scale = 100.0 * width / natural if natural > 0 else 100.0
            content.append(f"/F1 {size_pt:g} Tf {scale:.2f} Tz 1 0 0 1 {x0:.2f} {base:.2f} Tm".encode())
            content.append(_literal(text.encode("latin-1")) + b" Tj")
        content.append(b"ET")
    if under:
        content.append(paint)
    return to_bytes(make_pdf([b"\n".join(content)], {"/F1": helvetica}, xobjects={"/Im1": xobject}, pdf=pdf))


STAMP_TEXT = (
    "RECEIVED BY THE REGISTRY OFFICE",
    "checked against the ledger and filed",
    "under reference number 4471 for review",
    "by the clerk on duty this morning",
    "copies sent to the accounts department",
    "and to the branch office in Stockton",
    "payment due within thirty days of receipt",
    "questions to the registry desk please",
    "signed for the board of directors",
    "stamp valid only with the signature",
)
"""What the stamp image of `stamp_over_text` shows: ten lines of words on the page's line pitch,
so that Tesseract reads enough of them (one compared unit per line) to make a verdict if the text
under the stamp were taken for an OCR layer: it was, and gave a false ocr_layer_wrong."""


def stamp_over_text(dpi: float = 200.0) -> tuple[bytes, int] | None:
    """A born-digital page: 26 lines of prose (SCAN_TEXT and PANGRAMS twice) in Helvetica, visible,
    14 pt on a 26 pt pitch, and over lines 9–18 an opaque stamp image (white, STAMP_TEXT in
    DejaVu Sans on the same pitch, no frame) painted after the text: 19 % of the page.
    And how many non-space glyphs lie under the stamp (their centres on it). None without the
    font file."""
    if not DEJAVU_SANS.is_file():
        return None
    from pdfminer.fontmetrics import FONT_METRICS
    from PIL import Image, ImageDraw, ImageFont

    lines = (SCAN_TEXT + PANGRAMS) * 2
    size, pitch, top, left = 14.0, 26.0, 60.0, 60.0  # points; baselines from the top of the page
    x0, x1 = 60.0, 420.0  # the stamp, over the baselines of lines 9–18 (index 8–17)
    y_top, y_bottom = top + 7 * pitch + 8.0, top + 17 * pitch + 8.0
    px = dpi / 72.0
    stamp = Image.new("L", (round((x1 - x0) * px), round((y_bottom - y_top) * px)), 255)
    draw = ImageDraw.Draw(stamp)
    font = ImageFont.truetype(str(DEJAVU_SANS), round(size * px))
    for i, text in enumerate(STAMP_TEXT):
        baseline = (top + (i + 8) * pitch - y_top) * px
        draw.text((8 * px, baseline), text, font=font, fill=0, anchor="ls")
    widths = FONT_METRICS["Helvetica"][1]
    covered = 0
    for i, line in enumerate(lines):
        base = top + i * pitch
        x = left
        for c in line:
            w = widths.get(c, 556) / 1000.0 * size
            cy = base - 0.3 * size  # the glyph box's middle, above the baseline
            if c != " " and x0 <= x + w / 2 <= x1 and y_top <= cy <= y_bottom:
                covered += 1
            x += w
    pdf = pikepdf.new()
    xobject = pdf.make_stream(
        zlib.compress(stamp.tobytes()),
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Image,
        Width=stamp.width,
        Height=stamp.height,
        ColorSpace=pikepdf.Name.DeviceGray,
        BitsPerComponent=8,
        Filter=pikepdf.Name.FlateDecode,
    )
    content = [b"BT", f"/F1 {size:g} Tf {left:g} {792 - top:g} Td".encode()]
    for i, line in enumerate(lines):
        if i:
            content.append(f"0 {-pitch:g} Td".encode())
        content.append(_literal(line.encode("latin-1")) + b" Tj")
    content.append(b"ET")
    content.append(
        f"q {x1 - x0:g} 0 0 {y_bottom - y_top:g} {x0:g} {792 - y_bottom:g} cm /Stamp Do Q".encode()
    )
    data = to_bytes(
        make_pdf([b"\n".join(content)], {"/F1": helvetica}, xobjects={"/Stamp": xobject}, pdf=pdf)
    )
    return data, covered
