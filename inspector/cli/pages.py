"""The pages of `glyphs`, `fonts`, `decisions`, `diagnostics`, `text` and `compare`, read by `--jobs N`
processes.

`add_jobs_option` is the one `--jobs` of the six commands. Each command's per-page work
is a task here (or a library function) that `core.page_workers.page_results` runs in this
process or in workers; the command formats the results as they come, in page order, so the
output is the same bytes whatever `--jobs` is.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from glyphscope.core.page_workers import PARALLEL_MIN_PAGES, PageTask, page_results

if TYPE_CHECKING:
    from glyphscope.core.diagnostics import Diagnostic
    from glyphscope.core.document import Document
    from glyphscope.core.params import Parameters

T = TypeVar("T")

JOBS_HELP = (
    "processes reading the pages, each one page at a time; the output is the same whatever N is "
    f"(default: one per usable processor when there are at least {PARALLEL_MIN_PAGES} pages, "
    "below that starting the workers costs more than it saves; 1 reads every page in this process)"
)


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a whole number of processes ≥ 1 is expected, not {text!r}"
        ) from None
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"a whole number of processes ≥ 1 is expected, not {text!r}")
    return jobs


def add_jobs_option(p: argparse.ArgumentParser) -> None:
    """--jobs N: processes reading a document's pages (None: automatic, core.page_workers)."""
    p.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N", help=JOBS_HELP)


def page_values(
    doc: Document, pages: Sequence[int], task: PageTask[T], jobs: int | None
) -> Iterator[tuple[int, T]]:
    """(page, task's value) in page order; a page whose task raised raises here, when it is due."""
    results = page_results(doc, pages, task, jobs)
    try:
        for result in results:
            yield result.page, result.get()
    finally:
        results.close()


# ---------------------------------------------------------------- the commands' page tasks


GlyphPage = list[list[str]] | dict[str, object]
"""A page of `glyphs`: its table rows (cells), or its JSON document (warnings: the parent's)."""


def glyphs_task(
    file: str, set_name: str, params: Parameters, *, table: bool, csv: bool
) -> PageTask[GlyphPage]:
    return functools.partial(_glyph_page, file=file, set_name=set_name, params=params, table=table, csv=csv)


def _glyph_page(
    doc: Document, n: int, *, file: str, set_name: str, params: Parameters, table: bool, csv: bool
) -> GlyphPage:
    from glyphscope.core.passes import classify
    from glyphscope.core.serialize import glyph_rows, glyphs_json
    from glyphscope.inspector.cli.csv import glyph_cells

    page = doc.interpret(n)
    classified = classify(page, params)
    if table:
        return [glyph_cells(n, r, csv=csv) for r in glyph_rows(classified, set_name)]
    return glyphs_json(file, page, classified, set_name, params.to_json())


def font_rows(doc: Document, n: int) -> list[dict[str, Any]]:
    """A page of `fonts`: one row per font object, with its decoding chain and counts."""
    from glyphscope.core.font_stats import font_statistics
    from glyphscope.core.serialize import font_info_to_json

    rows = []
    # The page product's per-font statistics, without the passes and structure it would also make.
    for entry in font_statistics(doc.interpret(n)).entries:
        pf, font = entry.page_font, entry.font  # counted per font object, whichever key selected it
        row: dict[str, Any] = {"font_key": pf.font_key, "form_path": list(pf.form_path)}
        row.update(font_info_to_json(pf.info))
        row["glyphs"] = font.count
        row["decode_sources"] = font.sources_json()
        row["unresolved"] = len(font.unresolved)
        rows.append(row)
    return rows


def findings_task(params: Parameters) -> PageTask[tuple[Diagnostic, ...]]:
    return functools.partial(_page_findings, params=params)


def _page_findings(doc: Document, n: int, *, params: Parameters) -> tuple[Diagnostic, ...]:
    from glyphscope.core.analysis import analyze_page

    return tuple(analyze_page(doc, n, params).findings)
