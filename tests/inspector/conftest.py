"""Fixtures of the inspector's tests: the small PDFs the command-line tests run on."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest

from tests.cli_subprocess import BOLD, HELLO, HOSTILE, SLUG
from tests.pdfbuild import make_pdf, to_bytes


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("cli")
    out = {}

    def save(name: str, data: bytes) -> None:
        out[name] = d / name
        out[name].write_bytes(data)

    save("ok.pdf", to_bytes(make_pdf([HELLO, b"BT /F1 10 Tf 72 700 Td (Page two) Tj ET"])))
    save("slug.pdf", to_bytes(make_pdf([SLUG, BOLD], crop_box=[36, 36, 576, 756])))
    # hostile text on a page with a problem, so the report shows the page's text
    save(
        "hostile.pdf",
        to_bytes(make_pdf([HOSTILE + b" BT /F1 6 Tf 72 10 Td (slug) Tj ET"], crop_box=[36, 36, 576, 756])),
    )
    good = to_bytes(make_pdf([HELLO, b"BT /F1 10 Tf 72 700 Td (two) Tj ET"]))
    save("damaged.pdf", good[: good.rindex(b"xref")])
    save("text.pdf", b"just some text, not a PDF\n")
    enc = io.BytesIO()
    make_pdf([HELLO]).save(enc, encryption=pikepdf.Encryption(user="pw", owner="owner"))
    save("enc.pdf", enc.getvalue())
    return out
