"""What the window shows of the OCR cross-check and the repair (Qt-free): the Verify panel's job,
a verified page's counts, and per font the mappings proposed for a repaired copy.

A page is verified on demand (`verify_page_job`, run in a worker): the result is a
`VerifyResult` of that one page, kept per document and page by the session. Per font two
proposals can stand: glyphscope's own (the garbled-text verdict's offset k: every code's
current text shifted by k, `repair.shifted`) and the ink's (`FontCheck.proposed`, the OCR
votes). The Fonts panel shows them merged as `repair` merges them (the ink's win), and the
fonts a user accepted are what File › Save repaired copy writes.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from glyphscope.inspector.jobs import CancelToken, Progress
from glyphscope.inspector.repair import RepairReport, repair, shifted
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

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
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
class PageCounts:
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
    def of(cls, page: PageCheck) -> PageCounts:
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
    return (
        f"OCR layer: {layer.verdict.value} — {layer.reason} · {layer.glyphs} invisible glyphs over the "
        f"scan, {layer.checked} checked in {len(layer.words)} words"
    )


def ink_summary(check: GlyphCheck | None) -> str:
    """Glyph details' line: what the ink reads for one glyph."""
    if check is None:
        return "not compared (a space, hidden or not upright)"
    if check.verdict is GlyphVerdict.AGREES:
        return f"ink agrees (reads “{check.ink}”, confidence {check.conf or 0.0:.0f})"
    if check.verdict is GlyphVerdict.NO_INK_READ:
        return "no ink read"
    return f"ink reads “{check.ink}”, confidence {check.conf or 0.0:.0f} (decoded “{check.decoded}”)"


class ProposalSource(StrEnum):
    OFFSET = "offset"  # glyphscope's own: the garbled-text verdict's offset
    OCR = "ocr"  # the ink's votes (FontCheck.proposed)


@dataclass(frozen=True, slots=True)
class ProposalRow:
    code: int
    current: str  # what the page's glyphs of this code decode to now
    proposed: str
    source: ProposalSource


@dataclass(frozen=True, slots=True)
class FontProposal:
    """The mapping proposed for one font (by object id) of a page: both sources merged, the ink's
    rows winning as `repair` merges them; `ocr` is what `repair(proposals=)` is given."""

    font_id: str
    font_key: str
    base_font: str
    offset: int | None
    ocr: Mapping[int, str]
    rows: tuple[ProposalRow, ...]

    @property
    def sources(self) -> tuple[ProposalSource, ...]:
        """Which proposals stand for the font (both may: the ink's rows win where they meet)."""
        found = {ProposalSource.OFFSET: self.offset is not None, ProposalSource.OCR: bool(self.ocr)}
        return tuple(s for s, present in found.items() if present)

    def changes(self) -> int:
        """Rows whose proposed text differs from the current one."""
        return sum(1 for r in self.rows if r.proposed != r.current)


def font_proposals(analysis: PageAnalysis, result: VerifyResult | None) -> dict[str, FontProposal]:
    """Font id → its proposal on this page (only fonts with one): the offset of the page's
    garbled-text verdict over the codes the page paints, and the OCR cross-check's votes."""
    stats = analysis.fonts
    glyphs = analysis.page.glyphs
    current: dict[str, dict[int, str]] = {}
    keys: dict[str, tuple[str, str]] = {}
    for entry in stats.entries:
        info = entry.page_font.info
        keys.setdefault(info.font_id, (entry.page_font.font_key, info.base_font))
        codes = current.setdefault(info.font_id, {})
        for i in entry.selected.glyphs:
            g = glyphs[i]
            codes.setdefault(g.code, g.unicode)
    ocr = {f.font_id: f.proposed for f in result.fonts if f.proposed} if result is not None else {}
    out: dict[str, FontProposal] = {}
    for font_id, codes in current.items():
        verdict = stats.verdicts.get(font_id)
        offset = verdict.offset if verdict is not None and verdict.garbled else None
        rows: dict[int, ProposalRow] = {}
        if offset is not None:
            for code, text in codes.items():
                moved = shifted(text, offset)
                if moved is not None:
                    rows[code] = ProposalRow(code, text, moved, ProposalSource.OFFSET)
        votes = ocr.get(font_id) or {}
        for code, text in votes.items():
            rows[code] = ProposalRow(code, codes.get(code, ""), text, ProposalSource.OCR)
        if rows:
            key, base = keys[font_id]
            out[font_id] = FontProposal(
                font_id, key, base, offset, dict(votes), tuple(sorted(rows.values(), key=lambda r: r.code))
            )
    return out


def repair_arguments(accepted: Iterable[FontProposal]) -> tuple[list[str], dict[str, dict[int, str]]]:
    """(`fonts=`, `proposals=`) of `repair.repair` for the accepted proposals: every accepted font
    (repair adds glyphscope's own offset mapping for it), and the ink's tables of those with one."""
    chosen = list(accepted)
    return [p.font_id for p in chosen], {p.font_id: dict(p.ocr) for p in chosen if p.ocr}


def repaired_name(source: str | Path) -> Path:
    """The repaired copy's default path: `<stem>-repaired.pdf` beside the input."""
    src = Path(source)
    return src.with_name(f"{src.stem}-repaired.pdf")


def repair_copy_job(
    source: str,
    out_path: str,
    accepted: Sequence[FontProposal],
    password: str | None,
    *,
    token: CancelToken,
) -> RepairReport:
    """File › Save repaired copy, in a worker: `repair` with the accepted fonts and their ink's
    tables (RepairError when the output is the input or nothing is left to write)."""
    token.check()
    fonts, proposals = repair_arguments(accepted)
    return repair(source, out_path, fonts=fonts, proposals=proposals, password=password)


def repaired_summary(report: RepairReport, out_path: str | Path) -> str:
    """The status bar's line after a repaired copy was written: the fonts and the path."""
    names = []
    for font_id, mapping in report.mappings.items():
        keys = ", ".join(sorted(k.lstrip("/") for k in report.keys.get(font_id, set())))
        names.append(f"{keys or font_id} ({font_id}, {len(mapping)} codes)")
    return f"Repaired {len(names)} font{'s' if len(names) != 1 else ''}: {'; '.join(names)} → {out_path}"
