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
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pikepdf

from glyphscope.core.analysis import PageAnalysis, analyze_page
from glyphscope.core.document import Document, open_document
from glyphscope.core.garbled import MIN_GLYPHS
from glyphscope.inspector.verify.evidence import UNKNOWN, CodeRow, FontEvidence, gather

if TYPE_CHECKING:
    from glyphscope.inspector.verify.check import VerifyResult

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
    # every font's codes with their evidence, and the codes each written font leaves out (doubtful
    # and not confirmed, or rejected): they read U+FFFD in the copy where the pages paint them
    evidence: dict[str, FontEvidence] = field(default_factory=dict)
    left_out: dict[str, list[CodeRow]] = field(default_factory=dict)
    scores: dict[str, tuple[float, int]] = field(default_factory=dict)  # the input's garbled scores

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


def _wanted(font_id: str, keys: Iterable[str], fonts: set[str] | None) -> bool:
    if fonts is None:
        return True
    return font_id in fonts or any(k in fonts or k.lstrip("/") in fonts for k in keys)


def document_evidence(
    document_path: str | Path,
    password: str | None = None,
    verification: VerifyResult | None = None,
    fonts: Iterable[str] | None = None,
    scores: dict[str, tuple[float, int]] | None = None,
) -> dict[str, FontEvidence]:
    """Every font with something to propose, over every page: its codes with their evidence
    (inspector/verify/evidence.py), the OCR of `verification` counted where its ink is real.
    `scores`, when given, gets every font's garbled-text score (font_scores)."""
    with open_document(Path(document_path), password) as doc:
        return gather(doc, _analyses(doc, scores), verification, fonts)


def _analyses(doc: Document, scores: dict[str, tuple[float, int]] | None) -> Iterator[PageAnalysis]:
    for n in range(1, doc.page_count + 1):
        analysis = analyze_page(doc, n)
        if scores is not None:
            _add_scores(scores, analysis)
        yield analysis


def _add_scores(scores: dict[str, tuple[float, int]], analysis: PageAnalysis) -> None:
    for font_id, verdict in analysis.fonts.verdicts.items():
        if verdict.glyphs >= MIN_GLYPHS:
            score, glyphs = scores.get(font_id, (0.0, 0))
            total = glyphs + verdict.glyphs
            scores[font_id] = ((score * glyphs + verdict.score * verdict.glyphs) / total, total)


def font_scores(document_path: str | Path, password: str | None = None) -> dict[str, tuple[float, int]]:
    """font id → (garbled-text score, core/garbled.py, glyph-weighted over the pages; glyphs judged)."""
    scores: dict[str, tuple[float, int]] = {}
    with open_document(Path(document_path), password) as doc:
        for _ in _analyses(doc, scores):
            pass
    return scores


def proposed_mappings(document_path: str | Path, password: str | None = None) -> RepairReport:
    """The mappings glyphscope writes for every font with evidence, over every page (no OCR):
    the supported codes, and U+FFFD for the doubtful codes the pages paint."""
    report = RepairReport()
    for font_id, ev in document_evidence(document_path, password).items():
        _take(report, font_id, ev, None)
    return report


def _take(
    report: RepairReport, font_id: str, ev: FontEvidence, decisions: Mapping[int, str | None] | None
) -> None:
    report.evidence[font_id] = ev
    report.keys.setdefault(font_id, set()).update(ev.keys)
    report.code_bytes[font_id] = 2 if ev.subtype == "Type0" else ev.code_bytes
    if ev.code_page is not None and not decisions:
        report.code_pages[font_id] = ev.code_page
        return
    written = ev.written(decisions)
    if any(t != UNKNOWN for t in written.values()):
        report.mappings[font_id] = written
        report.left_out[font_id] = ev.left_out(decisions)


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
    proposals: Mapping[str, Mapping[int, str | None]] | None = None,
    password: str | None = None,
    verification: VerifyResult | None = None,
) -> RepairReport:
    """Write a copy of `document_path` to `out_path` whose chosen fonts get a /ToUnicode CMap.

    `fonts`: object ids or resource keys to repair (None: every font with evidence);
    `proposals`: {font id or key: {code: text}}: the user's decisions, written as given (text:
    typed or confirmed; None: left out); `verification`: an OCR cross-check whose votes count as
    evidence where the ink is the font's own. A doubtful code is never written as a letter.
    Raises RepairError when out_path is the input, or nothing is left to write."""
    src, dst = Path(document_path), Path(out_path)
    if same_file(src, dst):
        raise RepairError(f"the output {dst} is the input file: glyphscope never writes the input")
    wanted = {f.strip() for f in fonts if f.strip()} if fonts is not None else None
    named = set(wanted or ()) | set(proposals or ())
    report = RepairReport()
    found = document_evidence(src, password, verification, named, report.scores)
    decisions: dict[str, Mapping[int, str | None]] = {}
    for name, mapping in (proposals or {}).items():
        font_id = next(
            (fid for fid, ev in found.items() if name == fid or name in ev.keys or "/" + name in ev.keys),
            name,
        )
        decisions[font_id] = mapping
    for font_id, ev in found.items():
        if _wanted(font_id, ev.keys, wanted):
            _take(report, font_id, ev, decisions.get(font_id))
    for font_id, mapping in decisions.items():  # a font without evidence: the caller's table alone
        if font_id not in found and _wanted(font_id, (), wanted):
            written = {c: t for c, t in mapping.items() if t}
            if written:
                report.mappings[font_id] = written
                report.code_bytes[font_id] = 2 if any(c > 0xFF for c in written) else 1
    if not report.mappings and not report.code_pages:
        raise RepairError("no font to repair: glyphscope found no better decoding for the fonts chosen")
    with pikepdf.open(src, password=password or "") as pdf:
        for key, font in _fonts_of(pdf):
            font_id = _font_id(key, font)
            table = report.mappings.get(font_id)
            if table is None:
                continue
            nbytes = report.code_bytes.get(font_id, 1)
            if str(font.get("/Subtype")) == "/Type0":
                nbytes = 2
            font.ToUnicode = pdf.make_stream(tounicode_cmap(table, nbytes))
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
