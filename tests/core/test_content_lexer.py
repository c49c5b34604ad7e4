"""The content lexer reads a stream exactly as pikepdf and the operator table's check would, or not at all.

Each case is read twice: by `lex`, and by `pikepdf.parse_content_stream` followed by the checks the
interpreter applies to pikepdf's operands (core/operators/operands.py); the two must agree value for
value (sign of zero included). A page interpreted through either reader gives the same glyphs,
findings, clips, fills and marked content.
"""

from __future__ import annotations

import io
import math
import re
import zlib
from decimal import Decimal
from typing import Any

import pikepdf
import pytest

from glyphscope.core import content_lexer, interpreter
from glyphscope.core.content import content_streams, measure
from glyphscope.core.content_lexer import Numbers, lex
from glyphscope.core.document import open_document
from glyphscope.core.instructions import NO_OPERANDS, number
from glyphscope.core.operators import GROUPS
from tests import corpus
from tests.pdfbuild import helvetica, make_pdf, to_bytes

VOCABULARY = interpreter.LEXER_VOCABULARY
SIGNATURES = {op: sig for operators, _ in GROUPS for op, (_, sig) in operators.items()}
_SCRATCH = pikepdf.new()


def _value(v: Any) -> Any:
    """A comparable form of an operand, whichever reader made it."""
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, float, Decimal)):
        f = float(v)
        return ("number", f, math.copysign(1.0, f))
    if isinstance(v, (pikepdf.String, bytes)):
        return ("string", bytes(v))
    if isinstance(v, (pikepdf.Name, str)):
        return ("name", str(v))
    if isinstance(v, (pikepdf.Array, list)):
        return ("array", [_value(x) for x in v])
    if isinstance(v, (pikepdf.Dictionary, dict)):
        return ("dict", sorted((str(k), _value(x)) for k, x in v.items()))
    return ("other", repr(v))


def _theirs(ins: Any, unread: bool) -> tuple[str, Any]:
    """pikepdf's instruction, its operands as the interpreter's check hands them to the handler."""
    op = str(ins.operator)
    if unread:
        return op, "unread"
    operands = list(ins.operands)
    signature = SIGNATURES.get(op)
    if signature is None or signature in (NO_OPERANDS, ""):
        return op, [_value(v) for v in operands]
    out = []
    for kind, v in zip(signature, operands[-len(signature) :]):
        if kind == "a":  # op_TJ: strings, and the numbers among the rest
            items = [x for x in v if isinstance(x, pikepdf.String) or number(x) is not None]
            out.append(("array", [_value(x if isinstance(x, pikepdf.String) else number(x)) for x in items]))
        else:
            out.append(_value(v))
    return op, out


def _ours(ins: Any) -> tuple[str, Any]:
    if ins.operands is content_lexer._UNREAD_OPERANDS:
        return ins.operator, "unread"
    return ins.operator, [_value(v) for v in ins.operands]


def assert_same_reading(data: bytes, target: Any = None) -> bool:
    """Whether `lex` read `data`; when it did, it read what pikepdf reads."""
    ours = lex(data, VOCABULARY)
    if ours is None:
        return False
    theirs = list(
        pikepdf.parse_content_stream(target if target is not None else pikepdf.Stream(_SCRATCH, data))
    )
    assert len(ours) == len(theirs)
    for mine, their in zip(ours, theirs):
        unread = mine.operands is content_lexer._UNREAD_OPERANDS
        assert _ours(mine) == _theirs(their, unread)
    return True


READ = [
    b"BT /F1 12 Tf 100 700 Td (AV) Tj ET",
    b"q 1 0 0 1 72.5 -.5 cm 0.2 0.4 0.6 rg 10 20 m 30 40 l 50 60 70 80 90 100 c h f Q",
    b"BT /F1 9.5 Tf [(Hel) -250 (lo) 12 /Junk (x)] TJ T* (a) ' 1 2 (b) \" ET",
    b"-0 1 Td -0.0 .5 Td +3 4. Td -00 -0. Td 0 -0 Td",  # an integer zero has no sign; a real one has
    b"(a\\qb) Tj (a\\\nb) Tj (a\\\r\nb) Tj (a\r\nb) Tj (a\rb) Tj (\\777\\0\\1234) Tj (x(y)z) Tj",
    b"(\\(\\)\\\\\\n\\r\\t\\b\\f) Tj <41 4> Tj <> Tj () Tj",
    b"% a comment\n1 0 0 1 0 0 cm %another\nq Q",
    b"12/F1 Tf 3 0 0 3 0 0cm",  # "0cm" is one word: not read here
    b"/P <</MCID 3 /ActualText (x\\)y) /Lang /en>> BDC EMC /Span BMC EMC /Tag /Name BDC EMC",
    b"1 2 3 4 5 6 7 Tm 5 6 Td 1 0 0 RG 0.5 g 0 0 1 sc 0 1 0 scn /CS0 cs /GS1 gs",
    b"1 2 3 4 re W n 0 0 m 5 5 l S 1 2 3 4 re W* f* 10 w [3 1] 0 d 0 J 1 j",
    b"\x00BT\x0c/F1\t12 Tf\r(a) Tj ET",
    b"/F1 12 Tf /A;B~ gs /Q' gs",
    b"(junk) 1 2 m 3 4 l f",  # a string before a path operator: the path reading skips it
    b"0 0 m 17\x007.45 -2 l 3\x00\x004 l f",  # NUL is white space between a path's numbers too
]

GIVES_UP = [
    b"1.2.3 Tc",  # a word qpdf makes an operator
    b"/A#42 gs",  # a name qpdf decodes
    b"/\xc3\xa9 gs",  # not ASCII
    b"1234567890123456 Tc",  # an integer qpdf reads otherwise
    b"true Tc",
    b"null Tc",
    b"BI /W 1 /H 1 /BPC 1 /CS /G ID \x00 EI",  # inline images are pikepdf's
    b"1 2 foo",  # an unknown operator: the interpreter's finding
    b"(a) Td",  # operands the table refuses: the finding comes from pikepdf's path
    b"12 Tf",
    b"1 Tj",
    b"(a) TJ",
    b"[(a) [1]] TJ",  # an array in the TJ array
    b"{ } Tj",
    b"(a((b))c) Tj",  # nested twice
    b"(a Tj",
    b"[(a) TJ",
    b"1 2",  # operands without an operator at the end
    b"/P <</MCID 1.5>> BDC",  # a real in a property list
    b"/P <</K [1]>> BDC",
    b"/Pattern1 scn",  # a pattern name: pikepdf's
    b"<4G> Tj",
    b") Tj",
]


@pytest.mark.parametrize("data", READ)
def test_the_lexer_reads_what_pikepdf_reads(data: bytes) -> None:
    if data.startswith(b"12/F1"):
        assert lex(data, VOCABULARY) is None
        return
    assert assert_same_reading(data)


@pytest.mark.parametrize("data", GIVES_UP)
def test_the_lexer_leaves_to_pikepdf_what_it_does_not_read_as_qpdf(data: bytes) -> None:
    assert lex(data, VOCABULARY) is None


def test_values_are_the_checked_operands() -> None:
    got = lex(b"/F1 12 Tf [(a) -250 /X (b)] TJ 1 2 3 4 5 6 7 cm 5 6 m q", VOCABULARY)
    assert got is not None
    assert [tuple(i) for i in got[:3]] == [
        ("Tf", ["/F1", 12.0]),
        ("TJ", [[b"a", -250.0, b"b"]]),
        ("cm", [2.0, 3.0, 4.0, 5.0, 6.0, 7.0]),  # extra leading operands are dropped, as the table does
    ]
    assert isinstance(got[3].operands, Numbers) and list(got[3].operands) == [5.0, 6.0]
    assert got[4] == ("q", [])


def test_windows_never_change_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"BT /F1 12 Tf\n100 700 Td\n[(A) -120 (B)] TJ\n0.25 0 0 0.5 1 2 cm\nET\n" * 20
    whole = lex(data, VOCABULARY)
    monkeypatch.setattr(content_lexer, "WINDOW", 8)
    assert lex(data, VOCABULARY) == whole and whole is not None and len(whole) == 120
    # a window cut inside a string: the string does not close there, so pikepdf reads the stream
    assert lex(b"BT /F1 12 Tf (a\nb) Tj ET\n" * 4, VOCABULARY) is None


def test_only_streams_decoded_as_qpdf_would_are_clean() -> None:
    pdf = pikepdf.new()
    content = b"BT /F1 12 Tf (a) Tj ET"
    plain = pdf.make_stream(content)
    flate = pikepdf.Stream(pdf, zlib.compress(content))
    flate.Filter = pikepdf.Name.FlateDecode
    damaged = pikepdf.Stream(pdf, zlib.compress(content)[:-6])
    damaged.Filter = pikepdf.Name.FlateDecode
    trailing = pikepdf.Stream(pdf, zlib.compress(content) + b"junk")
    trailing.Filter = pikepdf.Name.FlateDecode
    predictor = pikepdf.Stream(pdf, zlib.compress(content))
    predictor.Filter = pikepdf.Name.FlateDecode
    predictor.DecodeParms = pikepdf.Dictionary(Predictor=1)
    assert measure([plain], 1 << 20).clean
    assert measure([flate, plain], 1 << 20).clean
    assert measure([flate], 1 << 20).prefix == content
    assert not measure([damaged], 1 << 20).clean
    assert not measure([trailing], 1 << 20).clean
    assert not measure([predictor], 1 << 20).clean
    assert not measure([], 1 << 20).clean


def _pages_both_ways(pdf_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any], int]:
    read: list[bool] = []
    real = interpreter.lex

    def counting(data: bytes, vocab: Any) -> Any:
        got = real(data, vocab)
        read.append(got is not None)
        return got

    with monkeypatch.context() as m:
        m.setattr(interpreter, "lex", counting)
        doc = open_document(pdf_bytes)
        ours = [doc.interpret(n) for n in range(1, doc.page_count + 1)]
    with monkeypatch.context() as m:
        m.setattr(interpreter, "lex", lambda data, vocab: None)
        doc = open_document(pdf_bytes)
        theirs = [doc.interpret(n) for n in range(1, doc.page_count + 1)]
    return ours, theirs, sum(read)


def _same_page(a: Any, b: Any) -> None:
    assert list(a.glyphs) == list(b.glyphs)
    assert a.glyphs.runs == b.glyphs.runs
    assert [(d.kind, d.message, d.token_index) for d in a.diagnostics] == [
        (d.kind, d.message, d.token_index) for d in b.diagnostics
    ]
    assert (a.clips, a.fills, a.paints, a.forms, a.actual_text) == (
        b.clips,
        b.fills,
        b.paints,
        b.forms,
        b.actual_text,
    )
    assert a.instruction_count == b.instruction_count


def test_a_page_reads_the_same_by_either_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    def form(pdf: pikepdf.Pdf) -> Any:
        stream = pdf.make_stream(b"BT /F1 10 Tf 5 5 Td [(in) -300 (form)] TJ ET 0 0 m 10 0 l 10 10 l f")
        stream.Type, stream.Subtype, stream.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 100, 100]
        stream.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=helvetica(pdf)))
        return stream

    pdf = make_pdf(
        [
            b"q 0 0 200 200 re W n 0.9 g 0 0 100 100 re f BT /F1 12 Tf 100 700 Td [(AV) -500 (W)] TJ "
            b"/Span <</ActualText (fi)>> BDC (fi) Tj EMC T* (x) ' 2 1 (y) \" ET Q "
            b"q 2 0 0 2 10 10 cm /Fx Do Q /Fx Do BT /F1 8 Tf 0 -0 Td (z) Tj ET",
            b"BT /F1 12 Tf (a) Td 5 Tz (b) Tj ET",  # an operand of the wrong type: pikepdf's, with its finding
        ],
        xobjects={"/Fx": form},
    )
    ours, theirs, lexed = _pages_both_ways(to_bytes(pdf), monkeypatch)
    assert lexed == 2  # page 1 and its form; page 2 is pikepdf's
    assert "AVW" in "".join(g.unicode for g in ours[0].glyphs)
    assert any("operand" in d.message for d in ours[1].diagnostics)
    for a, b in zip(ours, theirs):
        _same_page(a, b)


def test_a_repaired_stream_length_is_reported_the_same_by_either_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """qpdf warns when it first reads the stream (measuring it), whichever reader tokenises it next."""
    buf = io.BytesIO()
    make_pdf([b"BT /F1 12 Tf 100 700 Td (Hello) Tj ET " * 3]).save(buf, compress_streams=False)
    data = buf.getvalue()
    found = re.search(rb"/Length (\d+)", data)
    assert found is not None
    damaged = data[: found.start(1)] + str(int(found.group(1)) + 7).encode() + data[found.end(1) :]
    ours, theirs, lexed = _pages_both_ways(damaged, monkeypatch)
    assert lexed == 1
    assert any("recovered stream length" in d.message for d in ours[0].diagnostics)
    _same_page(ours[0], theirs[0])


CORPUS_FILES = ["pdfjs__issue12810.pdf", "pdfplumber__issue-848.pdf", "pdfjs__issue6127.pdf"]


@pytest.mark.parametrize("name", CORPUS_FILES)
def test_corpus_pages_read_the_same_by_either_reader(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = corpus.require() / name
    if not path.is_file():
        pytest.skip(f"{name} is not in the corpus")
    ours, theirs, _ = _pages_both_ways(path.read_bytes(), monkeypatch)
    for a, b in zip(ours, theirs):
        _same_page(a, b)


def test_every_corpus_stream_the_lexer_reads_it_reads_as_pikepdf() -> None:
    root = corpus.require()
    read = 0
    for row in corpus.manifest():
        try:
            pdf = pikepdf.open(root / row["file"], password=row.get("password") or "")
        except pikepdf.PdfError:
            continue
        with pdf:
            for page in pdf.pages:
                streams = content_streams(page.obj)
                measured = measure(streams, 1 << 26)
                if measured.clean:
                    read += assert_same_reading(measured.prefix, page.obj)
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
                    measured = measure([obj], 1 << 26)
                    if measured.clean:
                        read += assert_same_reading(measured.prefix, obj)
    assert read > 100  # most of the corpus's streams are plain


def test_mutated_streams_are_read_as_pikepdf_reads_them_or_left_to_it() -> None:
    """Differential fuzzing with a fixed seed: streams made by cutting, inserting and overwriting
    bytes of the cases above (delimiters, escapes, NUL, signs, operators). Whatever the lexer
    accepts it reads as pikepdf does; the rest it leaves to pikepdf, never raises."""
    import random

    rng = random.Random(40)
    pieces = [
        b"(",
        b")",
        b"<",
        b">",
        b"[",
        b"]",
        b"/",
        b"\\",
        b"%",
        b"\n",
        b"\r",
        b" ",
        b"-",
        b".",
        b"0",
        b"9",
        b"#",
        b"<<",
        b">>",
        b"Tj",
        b"TJ",
        b"m",
        b"l",
        b"BDC",
        b"\x00",
        b"\xff",
        b"-0",
    ]
    seeds = [*READ, *GIVES_UP]
    read = 0
    for _ in range(3000):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(data) + 1)
            r = rng.random()
            if r < 0.4:
                data[i:i] = rng.choice(pieces)
            elif r < 0.7:
                del data[i : i + rng.randint(1, 3)]
            else:
                data[i : i + 1] = bytes((rng.randrange(256),))
        read += assert_same_reading(bytes(data))
    assert read > 200  # the cases read by both readers and compared value by value (281 today)
