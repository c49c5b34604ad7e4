"""Whole-document text (spec §8, §9): pages joined by a separator, optional BOM."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from glyphscope.core.page_range import parse_page_range

BOM = "\ufeff"  # written as EF BB BF in UTF-8
FORM_FEED = "\f"


def write_document_text(
    out: TextIO,
    page_text: Callable[[int], str | None],
    page_count: int,
    page_range: str = "",
    separator: str = FORM_FEED,
    bom: bool = False,
) -> int:
    """Stream the pages' texts to `out`; returns the number of pages written.

    `page_text(n)` gets a 1-based page number (None counts as ""). The range is
    validated before any page is extracted (ValueError on a bad range), so a
    typo never leaves half a file. No trailing separator.
    """
    pages = parse_page_range(page_range, page_count)
    if bom:
        out.write(BOM)
    for i, n in enumerate(pages):
        if i:
            out.write(separator)
        out.write(page_text(n) or "")
    return len(pages)


def document_text(
    page_text: Callable[[int], str | None],
    page_count: int,
    page_range: str = "",
    separator: str = FORM_FEED,
    bom: bool = False,
) -> tuple[str, int]:
    """(text, pages written): the in-memory form of `write_document_text`."""
    pages = parse_page_range(page_range, page_count)
    body = separator.join(page_text(n) or "" for n in pages)
    return (BOM + body if bom else body), len(pages)
