"""A painting operator reads its path back (core/operators/paths.py): from the instructions written
out as text when they are numbers and path or colour operators, object by object otherwise; both
readings give the same numbers."""

from __future__ import annotations

import pikepdf
import pytest

from glyphscope.core.operators.paths import FLT_MAX, _read_as_objects, _read_as_text
from tests.pdfbuild import make_pdf, pdf_document


def _paints(content: bytes) -> list[tuple[tuple[tuple[float, float], ...], ...]]:
    page = pdf_document(make_pdf([content])).interpret(1)
    return [p.polygons for p in page.paints]


def _readings(content: bytes) -> tuple[object, object]:
    pdf = pikepdf.new()  # held while its stream is parsed
    stream = pikepdf.parse_content_stream(pdf.make_stream(content))
    return _read_as_text(stream, 0, len(stream)), _read_as_objects(stream, 0, len(stream))


def test_a_plain_path_is_read_as_text_with_the_same_numbers() -> None:
    content = b"10 20 m 30.5 20 l .25 -1.5 l 1 0 0 rg 5 6 7 8 9 10 c h 0 0 50 25 re"
    text, objects = _readings(content)
    assert (
        text
        == objects
        == [
            (0, "m", [10.0, 20.0]),
            (1, "l", [30.5, 20.0]),
            (2, "l", [0.25, -1.5]),
            (4, "c", [5.0, 6.0, 7.0, 8.0, 9.0, 10.0]),
            (5, "h", []),
            (6, "re", [0.0, 0.0, 50.0, 25.0]),
        ]
    )


def test_a_number_beyond_a_double_is_the_largest_float_either_way() -> None:
    text, objects = _readings(b"0 0 m " + b"9" * 400 + b".5 -" + b"9" * 400 + b".5 l 5 5 l")
    assert text == objects
    assert text is not None and text[1] == (1, "l", [FLT_MAX, -FLT_MAX])


@pytest.mark.parametrize(
    "content",
    [
        b"0 0 m /P MP 10 0 l 10 10 l h",  # another kind of operator: the next one is skipped
        b"0 0 m (x) 10 l 10 10 l h",  # a string operand: its instruction is skipped
        b"0 0 m true 10 l 10 10 l h",
    ],
)
def test_anything_but_numbers_is_read_object_by_object(content: bytes) -> None:
    text, objects = _readings(content)
    assert text is None
    assert objects  # the careful reading still finds the path


def test_a_colour_operator_inside_the_path_is_stepped_over_whatever_its_operands() -> None:
    text, objects = _readings(b"0 0 m /CS0 cs 10 0 l 0.5 g 10 10 l h")
    assert (
        text == objects == [(0, "m", [0.0, 0.0]), (2, "l", [10.0, 0.0]), (4, "l", [10.0, 10.0]), (5, "h", [])]
    )


def test_the_page_gets_the_same_polygons_by_either_reading() -> None:
    plain = _paints(b"100 100 m 200 100 l 200 150 l h f 0 0 1 rg 10 10 20 20 re f")
    assert plain == [
        (((100.0, 100.0), (200.0, 100.0), (200.0, 150.0)),),
        (((10.0, 10.0), (30.0, 10.0), (30.0, 30.0), (10.0, 30.0)),),
    ]
    # a marked-content point inside the path makes the l after it unreadable (read object by object)
    assert _paints(b"100 100 m 200 100 l /P MP 200 150 l 100 150 l h f") == [
        (((100.0, 100.0), (200.0, 100.0), (100.0, 150.0)),)
    ]
