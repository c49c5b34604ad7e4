"""`triage --verify`: each file's OCR agreement, how many fonts the ink says are mapped wrong and
its OCR layer's agreement with the scan, as three more columns (off by default: OCR costs about
a second a page). A wrong OCR layer is an error finding of the file: it joins the row's findings
and score, and the rows are ranked again. Self-contained, like `--compare`: triage's report code
calls `verify_column`, `with_verify_findings` and the two `with_verify_*` helpers."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from glyphscope.core.diagnostics import Diagnostic
from glyphscope.core.triage.rows import TriageRow
from glyphscope.inspector.cli.io import with_columns_before_file

if TYPE_CHECKING:
    from glyphscope.inspector.verify.check import VerifyResult

VERIFY_MAX_PAGES = 10
"""Pages of each file `triage --verify` reads (the first ones)."""


@dataclass(frozen=True, slots=True)
class DocumentVerify:
    """One file's OCR cross-check over its first pages."""

    agreement: float | None  # agreeing share of the confident reads over every font; None: nothing read
    fonts_wrong: int | None  # fonts whose verdict is mapping_wrong; None: not verified
    pages: int  # pages verified
    error: str | None = None
    layer_agreement: float | None = None  # agreeing share of the OCR layers' compared words; None: none
    layers_wrong: int = 0  # pages whose OCR layer is wrong
    findings: tuple[Diagnostic, ...] = ()  # the check's findings (a wrong OCR layer: error)

    def to_json(self) -> dict[str, Any]:
        return {
            "agreement": None if self.agreement is None else round(self.agreement, 4),
            "fonts_wrong": self.fonts_wrong,
            "layer_agreement": None if self.layer_agreement is None else round(self.layer_agreement, 4),
            "layers_wrong": self.layers_wrong,
            "pages": self.pages,
            "error": self.error,
        }


@dataclass(frozen=True, slots=True)
class VerifyColumn:
    values: list[DocumentVerify]  # one per row, in the rows' order


def document_verify(
    path: str, password: str | None = None, max_pages: int = VERIFY_MAX_PAGES
) -> DocumentVerify:
    """The OCR cross-check of the PDF at `path` over its first `max_pages` pages; never raises for a bad
    file or a failing page: the result carries the error."""
    from glyphscope.core.document import open_document
    from glyphscope.inspector.verify.check import verify_document

    try:
        doc = open_document(path, password)
    except Exception as exc:
        return DocumentVerify(None, None, 0, str(exc) or type(exc).__name__)
    try:
        pages = range(1, min(doc.page_count, max_pages) + 1)
        result = verify_document(doc, path, pages, password=password)
    except Exception as exc:
        return DocumentVerify(None, None, 0, str(exc) or type(exc).__name__)
    finally:
        doc.close()
    return summarise(result)


def summarise(result: VerifyResult) -> DocumentVerify:
    """One file's `--verify` columns from its check. The agreements count only what the ink is
    evidence for: fonts whose ink is a substitute's drawing of other letters (`ink_is_substitute`)
    are left out of %ocr, and layers taken on mixed evidence (`mixed_evidence`) out of %layer."""
    from glyphscope.inspector.verify.check import FontVerdict, verify_findings
    from glyphscope.inspector.verify.layer import LayerVerdict, VerdictReason

    fonts = [f for f in result.fonts if not f.ink_is_substitute]
    reads = sum(f.confident_reads for f in fonts)
    agreeing = sum(round((f.agreement or 0.0) * f.confident_reads) for f in fonts)
    done = sum(1 for p in result.pages if p.error is None)
    errors = [f"page {p.page}: {p.error}" for p in result.pages if p.error]
    layers = [
        p.ocr_layer
        for p in result.pages
        if p.ocr_layer is not None and p.ocr_layer.reason_key != VerdictReason.MIXED_EVIDENCE
    ]
    words = sum(len(layer.words) for layer in layers)
    words_agree = sum(1 for layer in layers for w in layer.words if w.agrees)
    return DocumentVerify(
        agreeing / reads if reads else None,
        sum(1 for f in fonts if f.verdict is FontVerdict.MAPPING_WRONG),
        done,
        "; ".join(errors) or None,
        words_agree / words if words else None,
        sum(1 for layer in layers if layer.verdict is LayerVerdict.WRONG),
        tuple(verify_findings(result)),
    )


def verify_column(
    args: argparse.Namespace,
    rows: list[Any],
    password: str | None,
    sources: dict[str, str | Path] | None = None,
) -> VerifyColumn | None:
    """The `--verify` columns for `rows` (triage's TriageRow; None without the option)."""
    if not getattr(args, "verify", False):
        return None
    values = []
    for row in rows:
        if row.failed:
            values.append(DocumentVerify(None, None, 0, "the file could not be read"))
            continue
        values.append(document_verify(str((sources or {}).get(row.file, row.file)), password))
    return VerifyColumn(values)


def with_verify_findings(
    rows: list[TriageRow], column: VerifyColumn | None
) -> tuple[list[TriageRow], VerifyColumn | None]:
    """`rows` with each file's verify findings (a wrong OCR layer: an error) among its findings,
    counted by severity and kind and in its score (scoring.with_findings), ranked again worst
    first; the column in the same new order."""
    if column is None:
        return rows, column
    from glyphscope.core.triage.rows import sort_rows, with_findings

    updated = [with_findings(row, v.findings) if v.findings else row for row, v in zip(rows, column.values)]
    by_row = {id(r): v for r, v in zip(updated, column.values)}
    ranked = sort_rows(updated)
    return ranked, VerifyColumn([by_row[id(r)] for r in ranked])


def with_verify_column(table: str, column: VerifyColumn | None) -> str:
    """`table` (header, then one line per row) with `%ocr`, `wrong` and `%layer` before the file column."""
    if column is None:
        return table
    agree = ["%ocr"] + ["-" if v.agreement is None else f"{100.0 * v.agreement:.1f}" for v in column.values]
    wrong = ["wrong"] + ["-" if v.fonts_wrong is None else str(v.fonts_wrong) for v in column.values]
    layer = ["%layer"] + [
        "-" if v.layer_agreement is None else f"{100.0 * v.layer_agreement:.1f}" for v in column.values
    ]
    return with_columns_before_file(table, [agree, wrong, layer])


def with_verify_json(report: dict[str, Any], column: VerifyColumn | None) -> dict[str, Any]:
    """The JSON report with `verify`: each row's OCR agreement and fonts wrong (same order as `rows`)."""
    if column is None:
        return report
    return report | {
        "verify": {
            "max_pages": VERIFY_MAX_PAGES,
            "rows": [{"file": r["file"], **v.to_json()} for r, v in zip(report["rows"], column.values)],
        }
    }
