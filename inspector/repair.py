"""A repaired copy: fonts get a /ToUnicode CMap from the better decoding glyphscope found (Qt-free).

`repair(document_path, out_path, fonts=None, proposals=None)` reads the document, finds for
each font whose text is garbled (core/garbled.py) the mapping its verdict proposes — the
constant offset k applied to the font's current decoding of every code — merges the
caller's `proposals` ({font id: {code: text}}, e.g. the OCR cross-check's), and writes a
copy whose font dictionaries carry a /ToUnicode CMap (bfchar entries, UTF-16BE) with those
mappings. The input is opened read-only and never written: an `out_path` that resolves to
it is refused. A font is named by its object id (`12 0 R`, `FontInfo.font_id`) or by the
resource key that selects it (`F1` or `/F1`).

Fonts whose codes are CJK byte pairs (a simple TrueType font read through a code page —
decode source `code_page` — or a garbled font whose verdict names a code page) cannot get
a /ToUnicode: a simple font's ToUnicode maps one byte, never a pair. Their text is given
another way every reader honours (ISO 32000-1 §14.9.4): each text-showing operator that
uses such a font, on the pages and in their forms, is wrapped in a marked-content span
`/Span <</ActualText (…)>> BDC … EMC` whose text is the pairs read through the code page.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pikepdf

from glyphscope.core.analysis import analyze_page
from glyphscope.core.document import open_document
from glyphscope.core.fonts.loader import load_font
from glyphscope.core.fonts.simple import SimpleFont
from glyphscope.inspector.views.fonts import font_object

BFCHAR_CHUNK = 100
"""bfchar entries per block (a CMap block holds at most 100, ISO 32000-1 §9.10.3)."""


class RepairError(Exception):
    """The copy cannot be written (same path as the input, nothing to repair, unreadable input)."""


@dataclass(slots=True)
class RepairReport:
    """What the copy got: {font id: {code: text}} written, and each font's resource keys."""

    mappings: dict[str, dict[int, str]] = field(default_factory=dict)
    keys: dict[str, set[str]] = field(default_factory=dict)
    code_bytes: dict[str, int] = field(default_factory=dict)
    # fonts of CJK byte pairs: {font id: codec}; the copy gives their text as ActualText spans
    code_pages: dict[str, str] = field(default_factory=dict)
    spans: dict[str, int] = field(default_factory=dict)  # ActualText spans written per font id

    @property
    def fonts(self) -> list[str]:
        """Every font id the copy repairs, in first-found order."""
        return list(dict.fromkeys([*self.mappings, *self.code_pages]))


def tounicode_cmap(mapping: Mapping[int, str], code_bytes: int = 1) -> bytes:
    """A ToUnicode CMap stream's bytes: one codespace range of `code_bytes` bytes, bfchar entries."""
    width = 2 * code_bytes
    top = "F" * width
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Glyphscope-Repaired-UCS def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        f"<{'0' * width}> <{top}>",
        "endcodespacerange",
    ]
    items = sorted((c, t) for c, t in mapping.items() if t and 0 <= c < 256**code_bytes)
    for start in range(0, len(items), BFCHAR_CHUNK):
        chunk = items[start : start + BFCHAR_CHUNK]
        lines.append(f"{len(chunk)} beginbfchar")
        for code, text in chunk:
            lines.append(f"<{code:0{width}X}> <{text.encode('utf-16-be').hex().upper()}>")
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return ("\n".join(lines) + "\n").encode("ascii")


def shifted(text: str, offset: int) -> str | None:
    """`text` (one character) shifted by the garbled-text offset k, as the repaired copy maps it;
    None when it is not one character or the shift leaves the printable BMP."""
    if len(text) == 1 and 0x20 <= ord(text) + offset < 0xD800:
        return chr(ord(text) + offset)
    return None


def _wanted(font_id: str, keys: Iterable[str], fonts: set[str] | None) -> bool:
    if fonts is None:
        return True
    return font_id in fonts or any(k in fonts or k.lstrip("/") in fonts for k in keys)


def proposed_mappings(document_path: str | Path, password: str | None = None) -> RepairReport:
    """The mappings glyphscope proposes for every garbled font with an offset, over every page."""
    report = RepairReport()
    read_as_pairs: dict[str, str | None] = {}  # font id → the codec its font reads pairs through
    with open_document(Path(document_path), password) as doc:
        for n in range(1, doc.page_count + 1):
            analysis = analyze_page(doc, n)
            stats = analysis.fonts
            table = stats.glyph_table
            for entry in stats.entries:
                info = entry.page_font.info
                report.keys.setdefault(info.font_id, set()).add(entry.page_font.font_key)
                verdict = stats.verdicts.get(info.font_id)
                code_page = verdict.code_page if verdict is not None and verdict.garbled else None
                if code_page is None and info.font_id not in read_as_pairs:
                    obj = font_object(doc, n, entry.page_font.font_key, tuple(entry.page_font.form_path))
                    loaded = load_font(obj, entry.page_font.font_key) if obj is not None else None
                    read_as_pairs[info.font_id] = loaded.code_page if isinstance(loaded, SimpleFont) else None
                code_page = code_page or read_as_pairs.get(info.font_id)
                if code_page is not None and entry.font.glyphs:
                    report.code_pages.setdefault(info.font_id, code_page)
                    continue
                if verdict is None or not verdict.garbled or verdict.offset is None or table is None:
                    continue
                k = verdict.offset
                found = report.mappings.setdefault(info.font_id, {})
                for i in entry.font.glyphs:
                    text, code, nbytes = table.unicode[i], table.code[i], table.code_bytes[i]
                    report.code_bytes[info.font_id] = nbytes
                    moved = shifted(text, k)
                    if moved is not None:
                        found.setdefault(code, moved)
                obj = font_object(doc, n, entry.page_font.font_key, tuple(entry.page_font.form_path))
                if obj is not None and report.code_bytes.get(info.font_id) == 1:
                    font = load_font(obj, entry.page_font.font_key)
                    for code in range(256):  # codes the page did not paint, shifted alike
                        moved = shifted(font.unicode(code)[0], k)
                        if moved is not None:
                            found.setdefault(code, moved)
    return report


def same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and a.samefile(b))
    except OSError:
        return False


def _fonts_of(pdf: pikepdf.Pdf) -> Iterable[tuple[str, pikepdf.Dictionary]]:
    """(resource key, font dictionary) of every page's and form's /Font resources, once each."""
    seen: set[tuple[int, int]] = set()
    stack: list[object] = [page.obj.get("/Resources") for page in pdf.pages]
    visited: set[tuple[int, int]] = set()
    while stack:
        res = stack.pop()
        if not isinstance(res, pikepdf.Dictionary):
            continue
        fonts = res.get("/Font")
        if isinstance(fonts, pikepdf.Dictionary):
            for key, font in fonts.items():
                if isinstance(font, pikepdf.Dictionary):
                    og = font.objgen if font.is_indirect else (0, id(font))
                    if og not in seen:
                        seen.add(og)
                        yield key, font
        xobjects = res.get("/XObject")
        if isinstance(xobjects, pikepdf.Dictionary):
            for xo in xobjects.values():
                if isinstance(xo, pikepdf.Stream) and xo.is_indirect and xo.objgen not in visited:
                    visited.add(xo.objgen)
                    stack.append(xo.get("/Resources"))


def repair(
    document_path: str | Path,
    out_path: str | Path,
    fonts: Iterable[str] | None = None,
    proposals: Mapping[str, Mapping[int, str]] | None = None,
    password: str | None = None,
) -> RepairReport:
    """Write a copy of `document_path` to `out_path` whose chosen fonts get a /ToUnicode CMap.

    `fonts`: object ids or resource keys to repair (None: every font with a proposal);
    `proposals`: {font id or key: {code: text}} merged over glyphscope's own (they win).
    Raises RepairError when out_path is the input, or nothing is left to write."""
    src, dst = Path(document_path), Path(out_path)
    if same_file(src, dst):
        raise RepairError(f"the output {dst} is the input file: glyphscope never writes the input")
    wanted = {f.strip() for f in fonts if f.strip()} if fonts is not None else None
    report = proposed_mappings(src, password)
    for name, mapping in (proposals or {}).items():
        font_id = next(
            (fid for fid, keys in report.keys.items() if name == fid or name in keys or "/" + name in keys),
            name,
        )
        report.mappings.setdefault(font_id, {}).update(mapping)
        report.code_bytes.setdefault(font_id, 2 if any(c > 0xFF for c in mapping) else 1)
        report.code_pages.pop(font_id, None)  # the caller's table wins over a code-page reading too
    chosen = {
        fid: m
        for fid, m in report.mappings.items()
        if m and fid not in report.code_pages and _wanted(fid, report.keys.get(fid, set()), wanted)
    }
    report.code_pages = {
        fid: codec
        for fid, codec in report.code_pages.items()
        if _wanted(fid, report.keys.get(fid, set()), wanted)
    }
    if not chosen and not report.code_pages:
        raise RepairError("no font to repair: glyphscope found no better decoding for the fonts chosen")
    report.mappings = chosen
    with pikepdf.open(src, password=password or "") as pdf:
        for key, font in _fonts_of(pdf):
            font_id = _font_id(key, font)
            written = chosen.get(font_id)
            if written is None:
                continue
            nbytes = report.code_bytes.get(font_id, 1)
            if str(font.get("/Subtype")) == "/Type0":
                nbytes = 2
            font.ToUnicode = pdf.make_stream(tounicode_cmap(written, nbytes))
        if report.code_pages:
            _write_spans(pdf, report)
        pdf.save(dst)
    return report


def _font_id(key: str, font: pikepdf.Dictionary) -> str:
    """The id glyphscope knows a font by (FontInfo.font_id): its object id, or its key when direct."""
    return f"{font.objgen[0]} {font.objgen[1]} R" if font.is_indirect else key


TEXT_SHOWING = frozenset({"Tj", "TJ", "'", '"'})


def _write_spans(pdf: pikepdf.Pdf, report: RepairReport) -> None:
    """Wrap every text-showing operator of a byte-pair font in an ActualText span, on every page
    and in every form it paints (each form rewritten once, read with its own resources or, without
    them, its user's)."""
    done: set[tuple[int, int]] = set()
    todo: list[tuple[pikepdf.Object, object]] = [(page.obj, page.obj.get("/Resources")) for page in pdf.pages]
    while todo:
        target, resources = todo.pop()
        if not isinstance(resources, pikepdf.Dictionary):
            continue
        _span_stream(pdf, target, resources, report)
        xobjects = resources.get("/XObject")
        for xo in xobjects.values() if isinstance(xobjects, pikepdf.Dictionary) else ():
            if (
                isinstance(xo, pikepdf.Stream)
                and xo.is_indirect
                and xo.get("/Subtype") == pikepdf.Name.Form
                and xo.objgen not in done
            ):
                done.add(xo.objgen)
                todo.append((xo, xo.get("/Resources", resources)))


def _span_stream(
    pdf: pikepdf.Pdf, target: pikepdf.Object, resources: pikepdf.Dictionary, report: RepairReport
) -> None:
    """One content stream (a page's, or a form's) with its byte-pair fonts' text as ActualText."""
    fonts = resources.get("/Font")
    if not isinstance(fonts, pikepdf.Dictionary):
        return
    codec_of: dict[str, tuple[str, str]] = {}  # resource key → (font id, codec)
    for key, font in fonts.items():
        if isinstance(font, pikepdf.Dictionary):
            fid = _font_id(key, font)
            if fid in report.code_pages:
                codec_of[key] = (fid, report.code_pages[fid])
    if not codec_of:
        return
    try:
        instructions = pikepdf.parse_content_stream(target)
    except (pikepdf.PdfError, ValueError):
        return  # a stream qpdf cannot parse is left as it is; the others are still repaired
    out: list[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage] = []
    current: list[str | None] = [None]  # the font key of each q level (Tf is graphics state)
    spans = 0
    for item in instructions:
        operands, op = item.operands, str(item.operator)
        if op == "q":
            current.append(current[-1])
        elif op == "Q" and len(current) > 1:
            current.pop()
        elif op == "Tf" and operands:
            current[-1] = str(operands[0])
        elif op in TEXT_SHOWING and operands and current[-1] in codec_of:
            fid, codec = codec_of[current[-1]]  # type: ignore[index]
            shown = operands[0] if op == "TJ" else operands[-1]
            parts = shown if isinstance(shown, pikepdf.Array) else [shown]
            data = b"".join(bytes(x) for x in parts if isinstance(x, pikepdf.String))
            text = codecs.decode(data, codec, errors="replace")
            actual = pikepdf.Dictionary(ActualText=pikepdf.String(text))
            out.append(pikepdf.ContentStreamInstruction([pikepdf.Name.Span, actual], pikepdf.Operator("BDC")))
            out.append(item)
            out.append(pikepdf.ContentStreamInstruction([], pikepdf.Operator("EMC")))
            report.spans[fid] = report.spans.get(fid, 0) + 1
            spans += 1
            continue
        out.append(item)
    if not spans:
        return
    data = pikepdf.unparse_content_stream(out)
    if isinstance(target, pikepdf.Stream):
        target.write(data)
    else:
        target.Contents = pdf.make_stream(data)
