"""Page ranges as users write them: "" = all, "1-3,7", "5-" (to the end). 1-based."""

from __future__ import annotations

import re
from collections.abc import Iterable

_PART = r"^\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?$"  # compiled on first use (re's cache): start-up


def parse_page_range(spec: str, page_count: int) -> list[int]:
    """1-based page numbers in the order written, repeats dropped.

    Raises ValueError with a message fit for the user on bad syntax, reversed
    ranges and pages outside 1..page_count.
    """
    if page_count < 0:
        raise ValueError(f"page count must be ≥ 0, not {page_count}")
    if not spec.strip():
        return list(range(1, page_count + 1))
    pages: list[int] = []
    seen: set[int] = set()
    for part in spec.split(","):
        m = re.match(_PART, part)
        if m is None:
            raise ValueError(
                f"bad page range {part.strip()!r} in {spec!r}: expected N, N-M or N- (e.g. '1-3,7')"
            )
        first = int(m.group(1))
        last = first if m.group(2) is None else (int(m.group(3)) if m.group(3) else page_count)
        if first < 1:
            raise ValueError(f"bad page range {part.strip()!r}: pages are numbered from 1")
        if last < first:
            raise ValueError(f"bad page range {part.strip()!r}: {last} is before {first}")
        if last > page_count:
            bad = first if first > page_count else last
            raise ValueError(f"page {bad} is out of range: the document has {page_count} page(s)")
        for n in range(first, last + 1):
            if n not in seen:
                seen.add(n)
                pages.append(n)
    return pages


def format_page_range(pages: Iterable[int]) -> str:
    """The pages as parse_page_range reads them back: `[1, 2, 3, 7]` → `"1-3,7"`."""
    runs: list[list[int]] = []
    for n in sorted(set(pages)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
