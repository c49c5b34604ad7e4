"""Whole-document text (spec §8, §9): pages joined by a separator, optional BOM.

`write_page_texts` is the one writer; everything else that joins pages
(the callable-based helpers below, `core.textops.write_document_pages`, the
command line and the window's exports) goes through it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import TextIO

from glyphscope.core.page_range import parse_page_range

BOM = "\ufeff"  # written as EF BB BF in UTF-8
FORM_FEED = "\f"  # the default page separator


def write_page_texts(
    out: TextIO, texts: Iterable[str | None], separator: str = FORM_FEED, bom: bool = False
) -> int:
    """Write `texts` (one per page, None counts as "") joined by `separator`, no trailing one.

    Streams: each page is written as soon as the iterable yields it. Returns
    the number of pages written.
    """
    if bom:
        out.write(BOM)
    written = 0
    for text in texts:
        if written:
            out.write(separator)
        out.write(text or "")
        written += 1
    return written


def join_page_texts(texts: Iterable[str | None], separator: str = FORM_FEED, bom: bool = False) -> str:
    """The in-memory form of `write_page_texts`."""
    buffer = io.StringIO(newline="")  # keep "\r" and "\n" exactly as the pages have them
    write_page_texts(buffer, texts, separator, bom)
    return buffer.getvalue()


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
    return write_page_texts(out, (page_text(n) for n in pages), separator, bom)


def document_text(
    page_text: Callable[[int], str | None],
    page_count: int,
    page_range: str = "",
    separator: str = FORM_FEED,
    bom: bool = False,
) -> tuple[str, int]:
    """(text, pages written): the in-memory form of `write_document_text`."""
    pages = parse_page_range(page_range, page_count)
    return join_page_texts((page_text(n) for n in pages), separator, bom), len(pages)
