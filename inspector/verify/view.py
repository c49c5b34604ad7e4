"""What the window shows of the OCR cross-check and the repair (Qt-free): the Verify panel's job,
a verified page's counts, and per font the mappings proposed for a repaired copy.

A page is verified on demand (`verify_page_job`, run in a worker): the result is a
`VerifyResult` of that one page, kept per document and page by the session. A font's proposal
lists every code the page paints with its evidence (inspector/verify/evidence.py: the font
program, the garbled-text offset measured on the page's words, the OCR votes where the ink is
the font's own) and whether it is supported or doubtful; the Fonts panel's mapping editor shows
it, the user accepts, leaves out or types any code, `preview_segments` gives the page's text as
the copy will read, and the fonts a user accepted are what File › Save repaired copy writes.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from glyphscope.core.assembly.modes import Mode
from glyphscope.inspector.jobs import CancelToken, Progress
from glyphscope.inspector.repair import RepairReport, repair
from glyphscope.inspector.verify.check import (
    DEFAULT_DPI,
    GlyphCheck,
    GlyphVerdict,
    PageCheck,
    VerifyResult,
    check_fonts,
    settle_pages,
    verify_page_steps,
)
from glyphscope.inspector.verify.evidence import UNKNOWN, Evidence, FontEvidence, Source, Status, gather
from glyphscope.inspector.verify.layer import VerdictReason

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.document import Document
    from glyphscope.inspector.verify.layer import OcrLayerCheck


def verify_page_job(
    analysis: PageAnalysis,
    source: str,
    password: str | None,
    lang: str,
    dpi: float = DEFAULT_DPI,
    *,
    token: CancelToken,
) -> Generator[Progress, None, VerifyResult]:
    """The Verify panel's job: one page checked as `verify_document` checks it (the same steps),
    its fonts judged over that page. Cancelled between the steps."""
    started = time.perf_counter()
    steps = verify_page_steps(analysis, source, lang=lang, dpi=dpi, password=password)
    while True:
        token.check()
        try:
            step = next(steps)
        except StopIteration as done:
            check: PageCheck = done.value
            break
        yield step
    token.check()
    check.seconds = time.perf_counter() - started
    base_fonts = {pf.info.font_id: pf.info.base_font for pf in analysis.page.fonts}
    fonts = check_fonts([check], base_fonts, lang)
    settle_pages([check], fonts)
    return VerifyResult([check], fonts, lang, dpi)


@dataclass(frozen=True, slots=True)
class VerifyCounts:
    """The Verify panel's counts of one verified page."""

    agrees: int
    ink_reads_other: int
    no_ink_read: int
    ink_without_glyphs: int
    glyphs_without_ink: int
    seconds: float
    judged: int = 0
    not_judged: int = 0  # every glyph of the page not judged (`reasons` says why)
    reasons: tuple[tuple[str, int], ...] = ()  # (NOT_JUDGED key, glyphs), most first

    @classmethod
    def of(cls, page: PageCheck) -> VerifyCounts:
        c = page.counts()
        reasons = tuple(page.not_judged().items())
        return cls(
            c.get(GlyphVerdict.AGREES, 0),
            c.get(GlyphVerdict.INK_READS_OTHER, 0),
            c.get(GlyphVerdict.NO_INK_READ, 0),
            len(page.ink_without_glyphs),
            len(page.glyphs_without_ink),
            page.seconds,
            page.judged,
            sum(n for _, n in reasons),
            reasons,
        )

    def not_judged_line(self) -> str:
        """ "not judged 12: space 8, too small 4" ("" when every glyph was judged)."""
        if not self.not_judged:
            return ""
        return f"not judged {self.not_judged}: " + ", ".join(
            f"{key.replace('_', ' ')} {n}" for key, n in self.reasons
        )


def glyph_checks(result: VerifyResult | None) -> dict[int, GlyphCheck]:
    """Paint index → its check, on the (one) page of `result`."""
    if result is None or not result.pages:
        return {}
    return {g.paint_index: g for g in result.pages[0].glyphs}


def disagreeing(result: VerifyResult | None) -> list[GlyphCheck]:
    """The glyphs whose ink reads other (the canvas layer "Ink disagrees")."""
    return [g for g in glyph_checks(result).values() if g.verdict is GlyphVerdict.INK_READS_OTHER]


def layer_summary(layer: OcrLayerCheck) -> str:
    """The Verify panel's OCR-layer row: verdict, reason and counts in one sentence."""
    text = (
        f"OCR layer: {layer.verdict.value} — {layer.reason} · {layer.glyphs} hidden glyphs over the "
        f"scan, {layer.checked} checked in {len(layer.words)} words"
    )
    if (
        layer.evidence and layer.reason_key != VerdictReason.MIXED_EVIDENCE
    ):  # mixed: the reason says it already
        text += f" · taken for a layer: {layer.evidence}"
    return text


def ink_summary(check: GlyphCheck | None) -> str:
    """Glyph details' line: what the ink reads for one glyph."""
    if check is None:
        return "not compared (a space, hidden or not upright)"
    if check.verdict is GlyphVerdict.AGREES:
        return f"ink agrees (reads “{check.ink}”, confidence {check.conf or 0.0:.0f})"
    if check.verdict is GlyphVerdict.NO_INK_READ:
        return "no ink read"
    return f"ink reads “{check.ink}”, confidence {check.conf or 0.0:.0f} (decoded “{check.decoded}”)"


ProposalSource = Source
"""Where a code's proposed text comes from (inspector/verify/evidence.py)."""


@dataclass(frozen=True, slots=True)
class ProposalRow:
    """One code of a font's proposal as the mapping editor lists it."""

    code: int
    current: str  # what the page's glyphs of this code decode to now
    proposed: str  # the best guess ("" when no source reads it)
    source: Source | None  # the source of the proposed text
    status: Status = Status.SUPPORTED
    reason: str = ""
    evidence: tuple[Evidence, ...] = ()
    painted: int = 0

    @property
    def doubtful(self) -> bool:
        return self.status is Status.DOUBTFUL


@dataclass(frozen=True, slots=True)
class FontProposal:
    """The mapping proposed for one font (by object id) of a page, every code with its evidence
    (`evidence.FontEvidence`). `ocr` is the ink's reading of each code it read (counted or not);
    `result` the page's OCR cross-check the evidence weighed (what Save repaired copy passes on)."""

    font_id: str
    font_key: str
    base_font: str
    offset: int | None
    ocr: Mapping[int, str]
    rows: tuple[ProposalRow, ...]
    evidence: FontEvidence | None = None
    result: VerifyResult | None = field(default=None, compare=False, repr=False)

    @property
    def code_page(self) -> str | None:
        return self.evidence.code_page if self.evidence is not None else None

    @property
    def sources(self) -> tuple[Source, ...]:
        """Which proposals stand for the font: the code page, the offset, the ink, the font program."""
        found = {
            Source.CODE_PAGE: self.code_page is not None,
            Source.OFFSET: self.offset is not None,
            Source.OCR: bool(self.ocr),
            Source.FONT_PROGRAM: any(e.source is Source.FONT_PROGRAM for r in self.rows for e in r.evidence),
        }
        return tuple(s for s, present in found.items() if present)

    def changes(self) -> int:
        """Rows whose proposed text differs from the current one."""
        return sum(1 for r in self.rows if r.proposed != r.current)

    def doubtful(self) -> list[ProposalRow]:
        return [r for r in self.rows if r.doubtful]

    def row(self, code: int) -> ProposalRow | None:
        return next((r for r in self.rows if r.code == code), None)

    def written(self, decisions: Mapping[int, str | None] | None = None) -> dict[int, str]:
        """code → text the repaired copy writes for this page's codes (`FontEvidence.written`)."""
        if self.evidence is None:
            return {c: t for c, t in (decisions or {}).items() if t}
        return self.evidence.written(decisions)


def font_proposals(
    document: Document | None, analysis: PageAnalysis, result: VerifyResult | None
) -> dict[str, FontProposal]:
    """Font id → its proposal on this page (only fonts with one): every code the page paints with
    its evidence — the garbled-text offset measured on the page's words, the font program, the
    OCR cross-check's votes — and the code page of byte-pair fonts."""
    if document is None:
        return {}
    found = gather(document, [analysis], result)
    out: dict[str, FontProposal] = {}
    for font_id, ev in found.items():
        rows = tuple(
            ProposalRow(r.code, r.current, r.proposed, r.source, r.status, r.reason, r.evidence, r.painted)
            for r in ev.rows
        )
        if ev.code_page is None and not any(r.proposed for r in rows):
            continue  # no source reads any code: nothing to propose
        ocr = {r.code: e.text for r in ev.rows for e in r.evidence if e.source is Source.OCR}
        offset = ev.offset.k if ev.offset is not None else None
        out[font_id] = FontProposal(font_id, ev.font_key, ev.base_font, offset, ocr, rows, ev, result)
    return out


PREVIEW_SAME, PREVIEW_CHANGED, PREVIEW_UNKNOWN = "same", "changed", "unknown"


def preview_segments(
    analysis: PageAnalysis, font_id: str, written: Mapping[int, str], mode: str = Mode.PLAIN
) -> list[tuple[str, str]]:
    """The page's text (`mode`) as a repaired copy with `written` for `font_id` reads: runs of
    (text, kind) — PREVIEW_SAME, PREVIEW_CHANGED (a glyph of the font now reads other), or
    PREVIEW_UNKNOWN (a code left out: U+FFFD)."""
    page_text = analysis.texts[mode]
    text = page_text.text or ""
    glyphs = analysis.page.glyphs
    glyph_of = page_text.char_map.glyph
    out: list[tuple[str, str]] = []

    def add(part: str, kind: str) -> None:
        if out and out[-1][1] == kind:
            out[-1] = (out[-1][0] + part, kind)
        elif part:
            out.append((part, kind))

    i = 0
    while i < len(text):
        g = glyph_of[i] if i < len(glyph_of) else -1
        j = i + 1
        while j < len(text) and g >= 0 and j < len(glyph_of) and glyph_of[j] == g:
            j += 1
        glyph = glyphs[g] if 0 <= g < len(glyphs) else None
        if glyph is not None and glyph.font_id == font_id and glyph.code in written:
            new = written[glyph.code]
            kind = (
                PREVIEW_UNKNOWN if new == UNKNOWN else (PREVIEW_SAME if new == text[i:j] else PREVIEW_CHANGED)
            )
            add(new, kind)
        else:
            add(text[i:j], PREVIEW_SAME)
        i = j
    return out


def preview_text(
    analysis: PageAnalysis, font_id: str, written: Mapping[int, str], mode: str = Mode.PLAIN
) -> str:
    """`preview_segments` as one string."""
    return "".join(part for part, _ in preview_segments(analysis, font_id, written, mode))


def repair_arguments(
    accepted: Iterable[FontProposal], decisions: Mapping[str, Mapping[int, str | None]] | None = None
) -> tuple[list[str], dict[str, dict[int, str | None]], VerifyResult | None]:
    """(`fonts=`, `proposals=`, `verification=`) of `repair.repair` for the accepted proposals:
    every accepted font (repair weighs the evidence over every page), the user's decisions on
    its codes, and the OCR cross-check the proposals weighed."""
    chosen = list(accepted)
    tables = {p.font_id: dict((decisions or {}).get(p.font_id, {})) for p in chosen}
    result = next((p.result for p in chosen if p.result is not None), None)
    return [p.font_id for p in chosen], {k: v for k, v in tables.items() if v}, result


def repaired_name(source: str | Path) -> Path:
    """The repaired copy's default path: `<stem>-repaired.pdf` beside the input."""
    src = Path(source)
    return src.with_name(f"{src.stem}-repaired.pdf")


def repair_copy_job(
    source: str,
    out_path: str,
    accepted: Sequence[FontProposal],
    password: str | None,
    decisions: Mapping[str, Mapping[int, str | None]] | None = None,
    *,
    token: CancelToken,
) -> RepairReport:
    """File › Save repaired copy, in a worker: `repair` with the accepted fonts, the user's
    decisions on their codes and the OCR the proposals weighed (RepairError when the output is
    the input or nothing is left to write)."""
    token.check()
    fonts, proposals, result = repair_arguments(accepted, decisions)
    return repair(source, out_path, fonts=fonts, proposals=proposals, password=password, verification=result)


def repaired_summary(report: RepairReport, out_path: str | Path) -> str:
    """The status bar's line after a repaired copy was written: the fonts and the path."""
    names = []
    for font_id in report.fonts:
        keys = ", ".join(sorted(k.lstrip("/") for k in report.keys.get(font_id, set())))
        if font_id in report.code_pages:
            what = f"ActualText on {report.spans.get(font_id, 0)} text runs"
        else:
            letters = sum(1 for t in report.mappings[font_id].values() if t != UNKNOWN)
            left = len(report.left_out.get(font_id, []))
            what = f"{letters} codes" + (f", {left} doubtful left out" if left else "")
        names.append(f"{keys or font_id} ({font_id}, {what})")
    return f"Repaired {len(names)} font{'s' if len(names) != 1 else ''}: {'; '.join(names)} → {out_path}"
