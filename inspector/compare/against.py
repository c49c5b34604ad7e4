"""`triage DIR --against TEXTDIR`: each file's customer text compared with glyphscope's, in the worker (Qt-free).

TEXTDIR holds `<name>.txt` for each `<name>.pdf` (their extractor's output, pages
separated by form feeds). The triage worker — a local process or a Dask task — reads
the file as triage does, then compares their text with glyphscope's plain text of
the first `AGAINST_MAX_PAGES` pages (compare.compared_page.compare_their_document) and sets
the row's `against_agreement` (0–1), `against_causes` (cause → differences) or
`against_error` (no text for this file, an unreadable text). Rows go through
`--jsonl` and `--resume` like every other field.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from glyphscope.core.limits import Limits
    from glyphscope.core.params import Parameters
    from glyphscope.core.triage.rows import TriageRow

AGAINST_MAX_PAGES = 10
"""Pages of each file compared with their text: enough to rank a queue, cheap enough for a batch."""


def text_path(pdf: str, text_dir: str) -> Path:
    """Where the text of `pdf` is: TEXTDIR/<name>.txt for <name>.pdf."""
    return Path(text_dir) / (Path(pdf).stem + ".txt")


def against_task(
    path: str,
    password: str | None,
    params: Parameters,
    budget: float | None,
    limits: Limits | None = None,
    *,
    text_dir: str,
) -> TriageRow:
    """triage_file's row of `path`, with the comparison against its text in `text_dir` (picklable with
    functools.partial: the worker of iter_triage and of iter_triage_dask)."""
    from glyphscope.core.triage.collect import triage_file

    row = triage_file(path, password, params, budget, limits=limits)
    return with_against(row, path, password, params, text_dir)


def with_against(
    row: TriageRow, path: str, password: str | None, params: Parameters, text_dir: str
) -> TriageRow:
    """`row` with its against_* fields; never raises (a problem is the row's against_error)."""
    from glyphscope.inspector.compare.theirs import read_text_file

    txt = text_path(row.file, text_dir)
    if not txt.is_file():
        return dataclasses.replace(row, against_error=f"no text of theirs: {txt.name} is not in {text_dir}")
    if row.failed:
        return dataclasses.replace(row, against_error="the PDF could not be read")
    try:
        their = read_text_file(str(txt))
    except OSError as exc:
        return dataclasses.replace(row, against_error=f"cannot read {txt.name}: {exc.strerror or exc}")
    try:
        from glyphscope.core.document import open_document
        from glyphscope.inspector.compare.compared_page import compare_their_document

        doc = open_document(path, password)
        try:
            pages = list(range(1, min(doc.page_count, AGAINST_MAX_PAGES) + 1))
            result = compare_their_document(doc, their, pages, "plain", params)
        finally:
            doc.close()
    except Exception as exc:  # noqa: BLE001 - the row says why; the batch goes on
        return dataclasses.replace(row, against_error=f"comparison failed: {type(exc).__name__}: {exc}")
    agreement = result.agreement
    return dataclasses.replace(
        row,
        against_agreement=None if agreement is None else round(agreement, 4),
        against_causes=dict(sorted(result.causes().items(), key=lambda kv: (-kv[1], kv[0]))),
        against_error=result.error,
    )


def against_order(rows: list[TriageRow]) -> list[TriageRow]:
    """Most disagreement first; rows without a comparison (no text, unreadable) last, worst score first."""
    return sorted(
        rows,
        key=lambda r: (
            r.against_agreement is None,
            r.against_agreement if r.against_agreement is not None else 0.0,
            -r.score,
            r.name,
            r.file,
        ),
    )


def top_cause(row: TriageRow) -> str:
    """The cause with most differences that is not `unexplained` (else `unexplained`), or ""."""
    causes = row.against_causes or {}
    named = [(k, c) for c, k in causes.items() if c != "unexplained" and k]
    if named:
        return max(named)[1]
    return "unexplained" if causes.get("unexplained") else ""
