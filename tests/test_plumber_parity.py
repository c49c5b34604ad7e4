"""pdfplumber's chars and glyphscope's over the real-file corpus (benchmarks/plumber_parity.py).

In pdfplumber's frame (`coordinates="pdfplumber"`) and over every painted glyph
(`page.painted_chars`, what pdfplumber's `chars` holds), at least 98 % of pdfplumber's chars
have a glyphscope char with the same text and x0, x1, top and bottom within 0.5 pt; every one
left falls in a kind the parity script names (docs/pdfplumber.md lists them with MuPDF's word).
"""

from __future__ import annotations

import logging
import warnings

import pytest

from benchmarks.plumber_parity import KNOWN_KINDS, PageParity, file_parity
from tests import corpus

pytest.importorskip("pdfplumber")


def test_at_least_98_percent_of_pdfplumbers_chars_match_over_the_corpus() -> None:
    root = corpus.require()
    total = PageParity()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        logging.disable(logging.WARNING)
        try:
            for row in corpus.manifest():
                got = file_parity(root / row["file"], row.get("password") or None)
                if got is None:
                    continue  # pdfplumber cannot read it
                total.total += got.total
                total.matched += got.matched
                total.kinds.update(got.kinds)
        finally:
            logging.disable(logging.NOTSET)
    assert total.total > 100_000  # the corpus's chars, not a few
    share = total.matched / total.total
    assert share >= 0.98, f"{total.matched} of {total.total} ({share:.2%}); left: {dict(total.kinds)}"
    assert set(total.kinds) <= KNOWN_KINDS, set(total.kinds) - KNOWN_KINDS
