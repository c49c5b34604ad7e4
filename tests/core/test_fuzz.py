"""A deterministic fuzz run of the command line.

A few hundred mutations — bytes of the demo and of small generated files
flipped, cut, duplicated and re-tokenised, plus structural edits made with
pikepdf — each run through a headless command in process. Every run must end
with an exit code in 0–4, print only `glyphscope:` lines on stderr (also at
the file-descriptor level, where qpdf would write), finish within the budgets
(no hang), and leave the input file byte for byte as it was. `repair` and `verify` are
among the commands (a small file with an off-by-one ToUnicode gives repair something to
write); a copy repair writes must open and read, a repair that fails writes none.
"""

from __future__ import annotations

import hashlib
import random
import re
import time
from collections.abc import Callable
from pathlib import Path

import pikepdf
import pytest

import glyphscope
from tests import hostile_files
from tests.cli_run import run_cli
from tests.core.test_garbled import PANGRAM, shifted_font, shown
from tests.pdfbuild import helvetica, identity_h_font, make_pdf, to_bytes

BATCHES = 10
RUNS_PER_BATCH = 25  # 250 runs in all
RUN_SECONDS = 120.0  # a run taking longer counts as a hang (twice the page-seconds budget)
LIMITS = ("--max-page-seconds", "3", "--max-document-seconds", "8", "--max-page-glyphs", "50000")


def _small_files() -> list[bytes]:
    form_pdf = pikepdf.new()
    form = form_pdf.make_stream(b"BT /F1 9 Tf 10 10 Td (in form) Tj ET /Self Do")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 200, 200]
    form.Resources = pikepdf.Dictionary(
        Font=pikepdf.Dictionary(F1=helvetica(form_pdf)), XObject=pikepdf.Dictionary(Self=form)
    )
    return [
        to_bytes(
            make_pdf(
                [
                    b"BT /F1 12 Tf 72 700 Td (Hello) Tj [(W) -250 (orld)] TJ T* (next) ' ET",
                    b"q 1 0 0 1 10 10 cm BT /F2 10 Tf <00480069> Tj ET Q /P <</MCID 0>> BDC EMC",
                ],
                fonts={"/F1": helvetica, "/F2": identity_h_font},
            )
        ),
        to_bytes(make_pdf([b"/Fm Do BT /F1 12 Tf (page) Tj ET"], xobjects={"/Fm": form}, pdf=form_pdf)),
        hostile_files.form_fan_out(12),
        hostile_files.nested_marked_content(2_000),
        hostile_files.type3_form_loop(),
        hostile_files.bad_predictor(),
        hostile_files.flate_bomb(2, layers=2),
        # a font whose ToUnicode is off by one: `repair` has something to write
        to_bytes(make_pdf([shown(PANGRAM * 2)], {"/F1": shifted_font})),
    ]


# ------------------------------------------------------------------ mutations


def _flip(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 30)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def _cut(rng: random.Random, data: bytes) -> bytes:
    start = rng.randrange(len(data))
    return data[:start] + data[start + rng.randint(1, 400) :]


def _duplicate(rng: random.Random, data: bytes) -> bytes:
    start = rng.randrange(len(data))
    piece = data[start : start + rng.randint(1, 400)]
    at = rng.randrange(len(data))
    return data[:at] + piece * rng.randint(1, 5) + data[at:]


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(16, len(data))]


_TOKENS = [
    (rb"\b\d+ 0 R\b", [b"1 0 R", b"999999 0 R", b"2 0 R", b"0 0 R", b"-1 0 R"]),
    (rb"/Length \d+", [b"/Length 0", b"/Length 999999999", b"/Length -5"]),
    (rb"/FlateDecode", [b"/LZWDecode", b"[/FlateDecode /FlateDecode]", b"/DCTDecode", b"/Nonsense"]),
    (rb"\b\d+(\.\d+)?\b", [b"3.4e38", b"-0", b"99999999999999999999", b"1e-300", b"NaN"]),
    (rb"/[A-Za-z]+", [b"/Type", b"/Kids", b"/Parent", b"/\x00\x1b[31m", b"/"]),
    (rb"endobj|endstream|stream|obj|xref|trailer|startxref", [b"", b"endobj", b"obj", b"%%EOF"]),
    (rb"\(", [b"(\x07\x1b[2J\r\n", b"(((", b")"]),
]


def _retoken(rng: random.Random, data: bytes) -> bytes:
    for _ in range(rng.randint(1, 6)):
        pattern, replacements = rng.choice(_TOKENS)
        hits = list(re.finditer(pattern, data))
        if hits:
            hit = rng.choice(hits)
            data = data[: hit.start()] + rng.choice(replacements) + data[hit.end() :]
    return data


def _structural(rng: random.Random, data: bytes) -> bytes:
    """An edit pikepdf makes on a well-formed file (the result is still a parseable PDF)."""
    import io

    pdf = pikepdf.open(io.BytesIO(data))
    page = pdf.pages[rng.randrange(len(pdf.pages))].obj
    choice = rng.randrange(8)
    if choice == 0:
        page.MediaBox = [0, 0, 3.4e38, -3.4e38]
    elif choice == 1:
        page.Contents = 42
    elif choice == 2:
        pdf.Root.Pages.Kids.append(rng.choice([7, pikepdf.Name.X, pdf.Root.Pages]))
        pdf.Root.Pages.Count = len(pdf.Root.Pages.Kids) + 3
    elif choice == 3:
        page.Resources = pikepdf.Dictionary(Font=pikepdf.Array([1, 2]), XObject=pikepdf.Dictionary(Fm=7))
    elif choice == 4:
        page.Parent = page  # a /Parent loop for inherited attributes
        del page.MediaBox
    elif choice == 5:
        contents = page.Contents if isinstance(page.get("/Contents"), pikepdf.Stream) else None
        if contents is not None:
            contents.DecodeParms = pikepdf.Dictionary(
                Predictor=rng.choice([2, 12, 99]), Columns=rng.choice([0, -1, 10**9])
            )
    elif choice == 6:
        page.Rotate = rng.choice([45, -90, 10**12, pikepdf.Name.R])
    else:
        page.CropBox = [rng.uniform(-1e6, 1e6) for _ in range(4)]
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


_CMAP_BODIES = [
    b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <00> <FF> <0041> endbfrange",
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0000> <FFFF> <0000> endbfrange",
    b"1 beginbfchar <0048> <D800> endbfchar 1 beginbfchar <69> <00410042004300440045> endbfchar",
    b"1 beginbfrange <00> <FF> [<0041> <0042> endbfrange",  # an array left open
    b"1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange 1 begincidrange <00> <FF> 99999 endcidrange",
    b"2 beginbfchar <4> <41> <0048> <zz> endbfchar",  # odd-length and non-hex strings
    b"/CIDInit /ProcSet findresource begin usecmap /Identity-H 12 dict begin",
    b"",
]


def _cmap_stream(rng: random.Random, pdf: pikepdf.Pdf) -> pikepdf.Stream:
    body = rng.choice(_CMAP_BODIES)
    return pdf.make_stream(b"/CIDInit /ProcSet findresource begin begincmap " + body + b" endcmap end")


def _appearance(rng: random.Random, pdf: pikepdf.Pdf, font: pikepdf.Object) -> pikepdf.Stream:
    content = rng.choice(
        [
            b"/Tx BMC BT /F1 11 Tf 2 4 Td (field value) Tj ET EMC",
            b"BT /Missing 11 Tf (no such font) Tj ET /Self Do",
            b"q 1 0 0 1 1e30 -1e30 cm BT /F1 0 Tf (0 size) Tj ET Q",
            b"BT /F1 11 Tf <00480069> Tj ET (unbalanced",
        ]
    )
    ap = pdf.make_stream(content)
    ap.Type, ap.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
    ap.BBox = rng.choice([[0, 0, 100, 20], [0, 0, 0, 0], [100, 20, 0, 0], [0, 0, 1e9, 1e9]])
    if rng.random() < 0.5:
        ap.Matrix = rng.choice([[0, 1, -1, 0, 0, 0], [0, 0, 0, 0, 0, 0], [1, 0, 0, 1, 5, 5]])
    ap.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font), XObject=pikepdf.Dictionary(Self=ap))
    return ap


def _fonts_and_fields(rng: random.Random, data: bytes) -> bytes:
    """Fonts' /ToUnicode and /Encoding CMaps, AcroForm fields and annotation appearances, made hostile."""
    import io

    pdf = pikepdf.open(io.BytesIO(data))
    page = pdf.pages[rng.randrange(len(pdf.pages))].obj
    resources = page.get("/Resources")
    fonts = resources.get("/Font") if isinstance(resources, pikepdf.Dictionary) else None
    font_list = [f for _, f in fonts.items()] if isinstance(fonts, pikepdf.Dictionary) else []
    for font in font_list:
        if not isinstance(font, pikepdf.Dictionary):
            continue
        edit = rng.randrange(4)
        if edit == 0:
            font.ToUnicode = _cmap_stream(rng, pdf)
        elif edit == 1 and font.get("/Subtype") == pikepdf.Name.Type0:
            font.Encoding = rng.choice([_cmap_stream(rng, pdf), pikepdf.Name("/Nonexistent-H"), 7])
        elif edit == 2:
            font.Encoding = pikepdf.Dictionary(
                Differences=rng.choice([[1, pikepdf.Name.A, -5, pikepdf.Name("/uniD800")], [10**12], ["x"]])
            )
        else:
            font.ToUnicode = rng.choice([pikepdf.Name.Identity, 12, pdf.make_stream(b"\xff" * 64)])
    font = font_list[0] if font_list else helvetica(pdf)
    widget = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=rng.choice([pikepdf.Name.Widget, pikepdf.Name.FreeText, pikepdf.Name.Stamp]),
            Rect=rng.choice([[50, 50, 250, 80], [0, 0, 0, 0], [1e30, 1e30, -1e30, -1e30]]),
            F=rng.choice([0, 2, 4, 32]),
            T=pikepdf.String(rng.choice(["name", "\u0000\x1b[31m", ""])),
            FT=pikepdf.Name.Tx,
            V=pikepdf.String(rng.choice(["value", "x" * 10_000])),
            P=page,
        )
    )
    appearance = _appearance(rng, pdf, font)
    if rng.random() < 0.5:
        widget.AP = pikepdf.Dictionary(N=appearance)
    else:  # a dictionary of states, /AS naming one that may not be there
        widget.AP = pikepdf.Dictionary(N=pikepdf.Dictionary(On=appearance, Off=pdf.make_stream(b"")))
        widget.AS = rng.choice([pikepdf.Name.On, pikepdf.Name.Missing, 3])
    if rng.random() < 0.3:
        widget.Parent = widget  # a /Parent loop on the field's name chain
    page.Annots = pikepdf.Array([widget, rng.choice([widget, 5, pikepdf.Name.X])])
    pdf.Root.AcroForm = pikepdf.Dictionary(
        Fields=pikepdf.Array([widget]),
        NeedAppearances=rng.choice([True, False, 1]),
        DA=pikepdf.String("/F1 0 Tf"),
    )
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


MUTATIONS: list[Callable[[random.Random, bytes], bytes]] = [
    _fonts_and_fields,
    _flip,
    _cut,
    _duplicate,
    _truncate,
    _retoken,
    _structural,
]


def _commands(rng: random.Random, path: str, demo: bool) -> list[str]:
    page = str(rng.randint(1, 15 if demo else 2))
    options = [
        ["text", path, "--pages", f"{page}-{int(page) + 1}" if demo else ""],
        ["glyphs", path, "--page", page, "--json", "--set", "all"],
        ["fonts", path, "--page", page, "--json"],
        ["diagnostics", path, "--pages", page, "--json"],
        ["decisions", path, "--page", page, "--json"],
        ["render", path, "--page", page, "-o", f"{path}.png", "--scale", "0.3"],
        ["verify", path, "--pages", page, "--dpi", "50", "--timeout", "20", "--json"],
        ["text", path, "--mode", rng.choice(["layout", "columns", "structure", "auto"])],
    ]
    if demo:
        options.pop()  # every page of the demo in a layout mode takes seconds
    if rng.random() < 0.2:  # no engine limits of its own: the default budgets apply
        return [
            "repair",
            path,
            "-o",
            f"{path}.repaired.pdf",
            *(["--fonts", "F1"] if rng.random() < 0.3 else []),
        ]
    return [*rng.choice(options), *LIMITS]


# ---------------------------------------------------------------------- runs


@pytest.fixture(scope="module")
def sources() -> list[tuple[str, bytes]]:
    demo = Path(glyphscope.demo_pdf()).read_bytes()
    return [("demo", demo)] + [(f"small{i}", d) for i, d in enumerate(_small_files())]


@pytest.mark.parametrize("batch", range(BATCHES))
def test_fuzz_batch(batch: int, sources, tmp_path, capfd) -> None:
    for run in range(RUNS_PER_BATCH):
        seed = batch * 1000 + run
        rng = random.Random(seed)
        name, original = sources[0] if run % 3 == 0 else rng.choice(sources[1:])
        mutation = rng.choice(MUTATIONS)
        try:
            data = mutation(rng, original)
        except (pikepdf.PdfError, ValueError, TypeError, IndexError):
            data = _flip(rng, original)
        path = tmp_path / f"fuzz-{seed}.pdf"
        path.write_bytes(data)
        digest = hashlib.sha256(data).hexdigest()
        mtime = path.stat().st_mtime_ns
        argv = _commands(rng, str(path), name == "demo")
        argv = [a for a in argv if a != ""]
        started = time.monotonic()
        code, _, err = run_cli(*argv)
        elapsed = time.monotonic() - started
        fd_out, fd_err = capfd.readouterr()
        where = f"seed {seed}: {mutation.__name__} of {name}, glyphscope {' '.join(argv[:2])}"
        assert 0 <= code <= 4, f"{where}: exit {code}: {err}"
        assert "internal error" not in err, f"{where}: {err}"
        for line in (err + fd_err).splitlines():
            assert line.startswith("glyphscope: "), f"{where}: stray stderr line {line!r}"
            assert line.isprintable(), f"{where}: unescaped characters in {line!r}"
        assert elapsed < RUN_SECONDS, f"{where}: took {elapsed:.1f} s"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, f"{where}: input changed"
        assert path.stat().st_mtime_ns == mtime, f"{where}: input touched"
        copy = Path(f"{path}.repaired.pdf")
        if argv[0] == "repair" and code == 0:  # the repaired copy opens and reads
            copy_code, _, copy_err = run_cli("text", str(copy), *LIMITS)
            assert copy_code == 0, f"{where}: the repaired copy does not read: {copy_err}"
        elif argv[0] == "repair":
            assert not copy.exists(), f"{where}: a copy written by a failed repair"
        copy.unlink(missing_ok=True)
        path.unlink()


REPAIR_RUNS = 40


def test_repair_of_mutated_garbled_files(tmp_path, capfd) -> None:
    """`repair` on mutations of a file it can repair: exit codes 0–4, `glyphscope:` lines only,
    the input unchanged, and every copy it writes opens and reads — with its text shifted back."""
    original = to_bytes(make_pdf([shown(PANGRAM * 2)], {"/F1": shifted_font}))
    written = 0
    for seed in range(REPAIR_RUNS):
        rng = random.Random(50_000 + seed)
        mutation = rng.choice(MUTATIONS)
        try:
            data = mutation(rng, original) if seed else original
        except (pikepdf.PdfError, ValueError, TypeError, IndexError):
            data = _flip(rng, original)
        path, copy = tmp_path / f"r{seed}.pdf", tmp_path / f"r{seed}.repaired.pdf"
        path.write_bytes(data)
        code, _, err = run_cli("repair", str(path), "-o", str(copy))
        fd_out, fd_err = capfd.readouterr()
        where = f"seed {seed}: {mutation.__name__}"
        assert 0 <= code <= 4 and "internal error" not in err, f"{where}: exit {code}: {err}"
        assert all(line.startswith("glyphscope: ") for line in (err + fd_err).splitlines()), f"{where}: {err}"
        assert path.read_bytes() == data, f"{where}: input changed"
        if code != 0:
            assert not copy.exists(), f"{where}: a failed repair left a copy"
            continue
        written += 1
        copy_code, text, copy_err = run_cli("text", str(copy), *LIMITS)
        assert copy_code == 0, f"{where}: the copy does not read: {copy_err}"
        if seed == 0:
            assert text.decode().startswith(PANGRAM), text[:80]
    assert written >= REPAIR_RUNS // 4, f"only {written} of {REPAIR_RUNS} mutated files were repaired"
