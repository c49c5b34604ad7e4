"""Whole-document text (spec §8, §9) and page ranges."""

from __future__ import annotations

import io

import pytest

from glyphscope.core.assembly import document_text, write_document_text
from glyphscope.core.assembly.document_join import BOM, join_page_texts, write_page_texts
from glyphscope.core.page_range import parse_page_range


def test_parse_page_range() -> None:
    assert parse_page_range("", 3) == [1, 2, 3]
    assert parse_page_range("  ", 2) == [1, 2]
    assert parse_page_range("1-3,7", 9) == [1, 2, 3, 7]
    assert parse_page_range("3, 1", 3) == [3, 1]
    assert parse_page_range("2-", 4) == [2, 3, 4]
    assert parse_page_range("1-2,2-3", 3) == [1, 2, 3]
    assert parse_page_range("", 0) == []


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("0", "numbered from 1"),
        ("4", "page 4 is out of range"),
        ("2-9", "page 9 is out of range"),
        ("3-1", "before"),
        ("a", "bad page range"),
        ("1,,2", "bad page range"),
        ("-2", "bad page range"),
        ("1-2-3", "bad page range"),
    ],
)
def test_bad_page_ranges(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_page_range(spec, 3)


def pages(n: int) -> str:
    return f"page {n}"


def test_document_text_joins_with_form_feed_and_no_trailing_separator() -> None:
    assert document_text(pages, 3) == ("page 1\fpage 2\fpage 3", 3)
    assert document_text(pages, 3, "3,1", separator="\n--\n") == ("page 3\n--\npage 1", 2)
    assert document_text(pages, 0) == ("", 0)


def test_bom_is_utf8_ef_bb_bf() -> None:
    text, n = document_text(pages, 1, bom=True)
    assert n == 1 and text.encode("utf-8")[:3] == b"\xef\xbb\xbf"
    assert text[1:] == "page 1"


def test_none_page_text_is_empty() -> None:
    assert document_text(lambda n: None if n == 2 else "x", 3) == ("x\f\fx", 3)


def test_bad_range_raises_before_any_page_is_read() -> None:
    calls = []
    with pytest.raises(ValueError, match="out of range"):
        document_text(lambda n: calls.append(n) or "", 2, "1,5")
    assert calls == []


def test_write_document_text_streams_the_same_bytes() -> None:
    out = io.StringIO()
    assert write_document_text(out, pages, 3, "2-3", bom=True) == 2
    assert out.getvalue() == document_text(pages, 3, "2-3", bom=True)[0]


def test_write_page_texts_is_the_one_writer() -> None:
    out = io.StringIO()
    texts = ["a\r\nb", None, "c"]
    assert write_page_texts(out, iter(texts), "\n--\n", bom=True) == 3
    assert out.getvalue() == "\ufeffa\r\nb\n--\n\n--\nc"
    assert join_page_texts(texts, "\n--\n", bom=True) == out.getvalue()  # line ends kept as they are
    assert join_page_texts([]) == "" and join_page_texts([], bom=True) == BOM
    assert document_text(pages, 3, "2-3")[0] == join_page_texts([pages(2), pages(3)])
