"""The OCR cross-check measured (issue 26, point 6): hand-run, never a timed test.

1. Agreement on fonts whose mapping is right: the demo (every page) and the corpus's text pages
   (the first --pages pages of every file), over the fonts the check does not call wrong:
   agreeing glyphs / confidently read glyphs. Target ≥ 97 %.
2. Generated files with broken mappings (tests/ocr_pdfs.py): a ToUnicode off by one, codes that
   are glyph ids (shifted by a constant from the letters), a Type3 font without mapping. Each
   font must be flagged mapping_wrong and the proposed mapping recover ≥ 95 % of its characters.
3. Seconds per page at 300 dpi (interpretation, PDFium rendering, Tesseract, alignment).

    .venv/bin/python benchmarks/bench_verify.py [--pages 3] [--no-corpus] [--verbose]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import corpus_files  # noqa: E402

import glyphscope  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.inspector.verify.check import (  # noqa: E402
    FontVerdict,
    VerifyResult,
    propose_mappings,
    verify_document,
)
from tests import ocr_pdfs  # noqa: E402

RIGHT_TARGET = 0.97
RECOVER_TARGET = 0.95


def verify(
    source: str | bytes, pages: Sequence[int] | None = None, password: str | None = None
) -> VerifyResult:
    doc = open_document(source, password)
    try:
        wanted = list(pages) if pages is not None else list(range(1, doc.page_count + 1))
        wanted = [n for n in wanted if n <= doc.page_count]
        return verify_document(doc, source, wanted, password=password)
    finally:
        doc.close()


UNREADABLE = ("script not read", "glyphs off the ink")
"""Fonts the check cannot read (Chinese with eng; glyphs not on the ink): not counted as right."""


def right_fonts_agreement(result: VerifyResult) -> tuple[int, int]:
    """(agreeing, confidently read) glyphs over the fonts not called wrong and not unreadable."""
    agreeing = reads = 0
    for f in result.fonts:
        if f.verdict is FontVerdict.MAPPING_WRONG or f.reason.startswith(UNREADABLE):
            continue
        reads += f.confident_reads
        agreeing += round((f.agreement or 0.0) * f.confident_reads)
    return agreeing, reads


def recovered(result: VerifyResult, truth: dict[int, str]) -> tuple[str, float]:
    """(the font's verdict, share of its glyphs the proposed mapping maps to the true letter)."""
    (font,) = result.fonts
    proposed = propose_mappings(result).get(font.font_id, {})
    glyphs = [g for p in result.pages for g in p.glyphs if g.code in truth]
    share = sum(1 for g in glyphs if proposed.get(g.code) == truth[g.code]) / len(glyphs)
    return font.verdict.value, share


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=3, help="first pages of each corpus file")
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    ok = True
    seconds: list[float] = []

    print("1. agreement on fonts whose mapping is right (agreeing / confidently read glyphs)")
    demo = verify(str(glyphscope.demo_pdf()))
    seconds += [p.seconds for p in demo.pages if p.error is None]
    a, r = right_fonts_agreement(demo)
    print(f"   demo: {a}/{r} = {100 * a / r:.2f} %  ({len(demo.pages)} pages)")
    if args.verbose:
        for f in demo.fonts:
            print(f"      {f.font_id} {f.base_font}: {f.verdict.value} {f.reason}")
    ok &= a / r >= RIGHT_TARGET
    if not args.no_corpus:
        total_a = total_r = 0
        for path, password in corpus_files():
            try:
                res = verify(str(path), range(1, args.pages + 1), password)
            except Exception as exc:
                print(f"   {path.name}: skipped ({exc})")
                continue
            seconds += [p.seconds for p in res.pages if p.error is None]
            fa, fr = right_fonts_agreement(res)
            total_a, total_r = total_a + fa, total_r + fr
            wrong = [
                f
                for f in res.fonts
                if f.verdict is FontVerdict.MAPPING_WRONG or f.reason.startswith(UNREADABLE)
            ]
            if args.verbose or wrong:
                share = f"{100 * fa / fr:.1f} %" if fr else "-"
                flagged = ", ".join(f"{f.base_font} ({f.verdict.value}: {f.reason})" for f in wrong)
                print(
                    f"   {path.name}: {fa}/{fr} = {share}"
                    + (f"; left out (wrong or unreadable): {flagged}" if wrong else "")
                )
        if total_r:
            print(
                f"   corpus: {total_a}/{total_r} = {100 * total_a / total_r:.2f} %  (first {args.pages} pages a file)"
            )
            ok &= total_a / total_r >= RIGHT_TARGET

    print("2. broken mappings: flagged, and the share of the font's glyphs the proposal recovers")
    cases: list[tuple[str, bytes, dict[int, str]]] = []
    obo = ocr_pdfs.off_by_one()
    cases.append(("ToUnicode off by one", obo, {c: chr(c) for c in range(0x21, 0x7F)}))
    shifted = ocr_pdfs.gid_shift()
    if shifted is not None:
        cases.append(("codes are glyph ids (+29)", *shifted))
    cases.append(("Type3 without mapping", *ocr_pdfs.type3_without_mapping()))
    for name, data, truth in cases:
        start = time.perf_counter()
        res = verify(data)
        verdict, share = recovered(res, truth)
        print(f"   {name}: {verdict}, recovered {100 * share:.1f} %  ({time.perf_counter() - start:.2f} s)")
        ok &= verdict == "mapping_wrong" and share >= RECOVER_TARGET

    seconds.sort()
    print(
        f"3. seconds per page at 300 dpi over {len(seconds)} pages: mean {sum(seconds) / len(seconds):.2f}, "
        f"median {seconds[len(seconds) // 2]:.2f}, max {seconds[-1]:.2f}"
    )
    print("all targets met" if ok else "a target was missed")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
