"""pdfplumber's chars and glyphscope's over the real-file corpus (benchmarks/plumber_parity.py).

In pdfplumber's frame (`coordinates="pdfplumber"`) and over every painted glyph
(`page.painted_chars`, what pdfplumber's `chars` holds), at least 98 % of pdfplumber's chars
have a glyphscope char with the same text and x0, x1, top and bottom within 0.5 pt; every one
left falls in a kind the parity script names (docs/pdfplumber.md lists them with MuPDF's word).
The files are read by two processes (pdfplumber takes half the time): the corpus holds 205,618
of pdfplumber's chars.
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import pytest

from benchmarks.plumber_parity import KNOWN_KINDS, file_counts
from tests import corpus

pytest.importorskip("pdfplumber")


def test_at_least_98_percent_of_pdfplumbers_chars_match_over_the_corpus() -> None:
    root = corpus.require()
    rows = corpus.manifest()
    total = matched = 0
    kinds: Counter[str] = Counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = pool.map(
            file_counts, [root / r["file"] for r in rows], [r.get("password") or None for r in rows]
        )
        for got in results:
            if got is None:
                continue  # pdfplumber cannot read it
            total += got[0]
            matched += got[1]
            kinds.update(got[2])
    assert total > 100_000  # the corpus's chars, not a few
    share = matched / total
    assert share >= 0.98, f"{matched} of {total} ({share:.2%}); left: {dict(kinds)}"
    assert set(kinds) <= KNOWN_KINDS, set(kinds) - KNOWN_KINDS
