"""glyphscope's table finder beside pdfplumber's over the corpus: tables, cells and cell texts.

    python benchmarks/table_parity.py [--tolerance 0.5] [--examples 5] [--settings JSON]

Both read every page of every corpus file that pdfplumber opens, with the default table
settings (or `--settings '{"vertical_strategy": "text"}'`); glyphscope in pdfplumber's frame (`glyphscope.open(..., coordinates="pdfplumber")`).
On each page the tables are paired in order (both list them top to bottom). A pdfplumber cell
matches when the paired glyphscope table has a cell whose x0, top, x1 and bottom are all
within the tolerance (each glyphscope cell matches once); its text matches when the two
`extract()` texts of those cells are equal. tests/inspector/test_table_parity.py holds the shares.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import sys
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402

TOLERANCE = 0.5
BBox = tuple[float, float, float, float]


@dataclass
class Counts:
    """One file's (or the corpus's) numbers."""

    pages: int = 0  # pages where either finds a table
    pages_same_count: int = 0  # of those, pages where both find as many tables
    tables: int = 0  # pdfplumber's tables
    found: int = 0  # glyphscope's tables
    cells: int = 0  # pdfplumber's cells
    cells_matched: int = 0
    texts_matched: int = 0  # of the matched cells, those with the same text
    kinds: Counter[str] = field(default_factory=Counter)  # why texts differ, by cell
    examples: list[str] = field(default_factory=list)

    def add(self, other: Counts) -> None:
        for name in (
            "pages",
            "pages_same_count",
            "tables",
            "found",
            "cells",
            "cells_matched",
            "texts_matched",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.kinds.update(other.kinds)
        self.examples.extend(other.examples)


def _texts(table: Any) -> dict[BBox, str | None]:
    """Each cell's box → its text, from `extract()` (row by row, cell by cell)."""
    out: dict[BBox, str | None] = {}
    for row, texts in zip(table.rows, table.extract(), strict=True):
        for cell, text in zip(row.cells, texts, strict=True):
            if cell is not None:
                out[tuple(cell)] = text
    return out


def _close(a: BBox, b: BBox, tolerance: float) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


UNRESOLVED = "unresolved glyph: pdfminer writes (cid:N), glyphscope its own reading or nothing"
DUPLICATES = "duplicate chars: pdfplumber keeps fake-bold copies, glyphscope's chars do not"
DECODING = "a char decoded otherwise (the char parity's kinds)"
KNOWN_KINDS = frozenset((UNRESOLVED, DUPLICATES, DECODING))


def text_kind(theirs: str, ours: str) -> str:
    """Why a cell's texts differ (the cells are the same): one of KNOWN_KINDS."""
    if "(cid:" in theirs:
        return UNRESOLVED
    if len(theirs) > len(ours) and any(a == b for a, b in zip(theirs, theirs[1:], strict=False)):
        return DUPLICATES
    return DECODING


def compare_page(theirs: list[Any], ours: list[Any], where: str, tolerance: float = TOLERANCE) -> Counts:
    """pdfplumber's tables (`theirs`) against glyphscope's (`ours`) on one page."""
    counts = Counts(pages=1 if theirs or ours else 0, tables=len(theirs), found=len(ours))
    counts.pages_same_count = int(bool(theirs or ours) and len(theirs) == len(ours))
    if len(theirs) != len(ours):
        counts.examples.append(f"{where}: {len(theirs)} tables against {len(ours)}")
    for k, their in enumerate(theirs):
        their_texts = _texts(their)
        counts.cells += len(their_texts)
        if k >= len(ours):
            continue
        our_texts = _texts(ours[k])
        free = list(our_texts)
        for cell, text in their_texts.items():
            match = next((c for c in free if _close(cell, c, tolerance)), None)
            if match is None:
                if len(counts.examples) < 40:
                    counts.examples.append(
                        f"{where} table {k}: no cell at {tuple(round(v, 2) for v in cell)}"
                    )
                continue
            free.remove(match)
            counts.cells_matched += 1
            ours_text = our_texts[match]
            if ours_text == text:
                counts.texts_matched += 1
                continue
            counts.kinds[text_kind(text or "", ours_text or "")] += 1
            if len(counts.examples) < 40:
                counts.examples.append(f"{where} table {k}: {text!r} against {ours_text!r}")
    return counts


def file_counts(
    path: Path, password: str | None, tolerance: float = TOLERANCE, settings: dict[str, Any] | None = None
) -> Counts | None:
    """One file's counts with these table settings (None: the defaults); None when pdfplumber
    cannot read the file."""
    import pdfplumber

    import glyphscope

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    counts = Counts()
    try:
        plumber = pdfplumber.open(path, password=password or "")
        pages = list(plumber.pages)
    except Exception:  # noqa: BLE001 - a file pdfplumber cannot open is left out, as the char parity does
        return None
    with plumber, glyphscope.open(path, password, coordinates="pdfplumber") as doc:
        for n, page in enumerate(pages):
            with warnings.catch_warnings(), _quiet():
                warnings.simplefilter("ignore")
                try:
                    theirs = page.find_tables(settings)
                except Exception:  # noqa: BLE001 - a page pdfplumber fails on
                    continue
            ours = doc.pages[n].find_tables(settings)
            counts.add(compare_page(theirs, ours, f"{path.name} p{n + 1}", tolerance))
    return counts


class _quiet:
    """pdfminer prints some complaints on stderr: not ours to show."""

    def __enter__(self) -> None:
        self._err = sys.stderr
        sys.stderr = io.StringIO()

    def __exit__(self, *exc: object) -> None:
        sys.stderr = self._err


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.2%})" if whole else f"{part}/0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tolerance", type=float, default=TOLERANCE)
    parser.add_argument("--examples", type=int, default=20)
    parser.add_argument("--settings", type=json.loads, default=None, help="table settings as JSON")
    args = parser.parse_args()
    total = Counts()
    for path, password in corpus_files():
        got = file_counts(path, password, args.tolerance, args.settings)
        if got is None:
            print(f"{path.name}: pdfplumber cannot read it")
            continue
        if got.pages:
            print(
                f"{path.name}: tables {got.tables}/{got.found}, cells {share(got.cells_matched, got.cells)}, "
                f"texts {share(got.texts_matched, got.cells_matched)}"
            )
        total.add(got)
    print()
    print(
        f"pages with a table: {total.pages}; as many tables on {share(total.pages_same_count, total.pages)}"
    )
    print(f"tables: pdfplumber {total.tables}, glyphscope {total.found}")
    print(f"cells within {args.tolerance} pt: {share(total.cells_matched, total.cells)}")
    print(f"cell texts equal: {share(total.texts_matched, total.cells_matched)}")
    for kind, n in total.kinds.most_common():
        print(f"   {n:5d}  {kind}")
    for line in total.examples[: args.examples]:
        print("  ", line)


if __name__ == "__main__":
    main()
