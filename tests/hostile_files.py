"""Small generated files of each hostile class (tests, fuzzing and benchmarks share them)."""

from __future__ import annotations

import zlib

import pikepdf

from tests.pdfbuild import helvetica, make_pdf, to_bytes


def form_fan_out(levels: int = 30) -> bytes:
    """`levels` forms, each drawing the next one twice: 2^levels form runs from a 7 KB file."""
    pdf = pikepdf.new()
    font = helvetica(pdf)
    resources_font = pikepdf.Dictionary(F1=font)
    inner = pdf.make_stream(b"BT /F1 10 Tf 0 0 Td (x) Tj ET")
    inner.Type, inner.Subtype, inner.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 612, 792]
    inner.Resources = pikepdf.Dictionary(Font=resources_font)
    current = inner
    for _ in range(levels):
        form = pdf.make_stream(b"q 1 0 0 1 1 0 cm /X Do Q /X Do BT /F1 10 Tf (y) Tj ET")
        form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 612, 792]
        form.Resources = pikepdf.Dictionary(Font=resources_font, XObject=pikepdf.Dictionary(X=current))
        current = form
    return to_bytes(make_pdf([b"/X Do"], xobjects={"/X": current}, pdf=pdf))


def nested_marked_content(depth: int = 100_000) -> bytes:
    """`depth` nested BDC (with a glyph inside each hundredth), then as many EMC."""
    parts = [b"BT /F1 10 Tf 72 700 Td "]
    for i in range(depth):
        parts.append(b"/Span <</MCID %d>> BDC " % i)
        if i % 100 == 0:
            parts.append(b"(a) Tj ")
    parts.append(b"EMC " * depth)
    parts.append(b"ET")
    return to_bytes(make_pdf([b"".join(parts)]))


def type3_form_loop() -> bytes:
    """A Type3 glyph procedure that draws a form which shows text in the same Type3 font."""
    pdf = pikepdf.new()
    form = pdf.make_stream(b"BT /T3 1 Tf (a) Tj ET")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 1000, 1000]
    proc = pdf.make_stream(b"1000 0 0 0 750 750 d1 /Fm Do")
    t3 = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type3,
            FontBBox=[0, 0, 750, 750],
            FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
            CharProcs=pikepdf.Dictionary(a=proc),
            Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=[97, pikepdf.Name.a]),
            FirstChar=97,
            LastChar=97,
            Widths=[1000],
        )
    )
    shared = pikepdf.Dictionary(Font=pikepdf.Dictionary(T3=t3), XObject=pikepdf.Dictionary(Fm=form))
    form.Resources = shared
    t3.Resources = shared
    page = b"BT /T3 12 Tf 72 700 Td (aaa) Tj ET /Fm Do"
    return to_bytes(make_pdf([page], fonts={"/T3": t3}, xobjects={"/Fm": form}, pdf=pdf))


def flate_bomb(decoded_mb: int = 256, pattern: bytes = b"0 0 Td ", layers: int = 2) -> bytes:
    """A page whose content is `decoded_mb` MB of `pattern` under `layers` FlateDecode filters."""
    compressor = zlib.compressobj(9)
    block = pattern * (1024 * 1024 // len(pattern))
    chunks = [compressor.compress(block) for _ in range(decoded_mb)]
    data = b"".join(chunks) + compressor.flush()
    for _ in range(layers - 1):
        data = zlib.compress(data, 9)
    pdf = make_pdf([b""])
    contents = pdf.pages[0].obj.Contents
    contents.write(data, filter=[pikepdf.Name.FlateDecode] * layers)
    return to_bytes(pdf)


def long_string(nbytes: int = 5_000_000) -> bytes:
    """One Tj whose string is `nbytes` long."""
    return to_bytes(make_pdf([b"BT /F1 1 Tf 0 0 Td (" + b"a" * nbytes + b") Tj ET"]))


def many_pages(count: int) -> bytes:
    """`count` pages sharing one font and one small content stream, written directly (fast for 100,000)."""
    content = b"BT /F1 12 Tf 72 700 Td (page) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids ["
        + b" ".join(b"%d 0 R" % (5 + i) for i in range(count))
        + b"] /Count %d >>" % count,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
    objects += [page] * count
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def bad_predictor() -> bytes:
    """A page content stream with a /DecodeParms predictor qpdf refuses (QpdfRuntimeError)."""
    pdf = make_pdf([b"", b"BT /F1 12 Tf 72 700 Td (second page) Tj ET"])
    contents = pdf.pages[0].obj.Contents
    contents.write(
        zlib.compress(b"BT /F1 12 Tf 72 700 Td (first) Tj ET"),
        filter=pikepdf.Name.FlateDecode,
        decode_parms=pikepdf.Dictionary(Predictor=12, Colors=0),  # "invalid samples_per_pixel"
    )
    return to_bytes(pdf)
