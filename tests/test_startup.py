"""Start-up of the headless commands: a command imports what it uses, when it uses it.

Each command runs in a fresh interpreter (the modules a process has loaded are the thing
under test), on a tiny PDF built here; the checks are on the command's output and on the
modules it loaded: no Qt, no comparison or JSON code for plain text, the Adobe Glyph List
only for glyph names beyond the standard Latin encodings, pdfminer's tables without pdfminer's package
__init__ (which reads the distribution metadata), no engine at all for --version / --help.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest

from glyphscope.core.dataclass_code_table import PYTHON as TABLE_PYTHON
from glyphscope.inspector.cli.parser import SUBCOMMANDS, build_parser
from tests.pdfbuild import identity_h_font, make_pdf

REPO = Path(__file__).resolve().parents[1]

PROBE = """
import sys
from glyphscope.__main__ import main

report, argv = sys.argv[1], sys.argv[2:]
code = main(argv)
sys.stdout.flush()
modules = sorted(sys.modules)  # before this probe's own json
import json

with open(report, "w") as fh:
    json.dump({"code": code, "modules": modules}, fh)
"""


def _saved(tmp_path: Path, pdf: pikepdf.Pdf, name: str) -> Path:
    """`pdf` written to `tmp_path / name`, for a run of the command line."""
    path = tmp_path / name
    pdf.save(path)
    return path


def _run(tmp_path: Path, *argv: str) -> tuple[int, bytes, set[str]]:
    """`glyphscope ARGV` in a fresh interpreter: exit code, stdout, every module it loaded."""
    report = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(report), *argv],
        cwd=REPO,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert report.exists(), proc.stderr.decode()
    result = json.loads(report.read_text())
    return result["code"], proc.stdout, set(result["modules"])


def _loaded(modules: set[str], *packages: str) -> list[str]:
    return sorted(m for m in modules if m in packages or m.split(".")[0] in packages)


# Never needed by plain text of a page whose font has a ToUnicode CMap.
NOT_FOR_PLAIN_TEXT = (
    "PySide6",
    "shiboken6",
    "fontTools.agl",
    "pdfminer",
    "importlib.metadata",
    "importlib.resources",
    "json",
    "glyphscope.core.serialize",
    "glyphscope.inspector.cli.compare",
    "glyphscope.inspector.compare.engines",
    "glyphscope.inspector.cli.triage_options",
    "glyphscope.inspector.cli.triage",
    # one module per command: `text` loads its own, not the other commands'
    "glyphscope.inspector.cli.glyphs",
    "glyphscope.inspector.cli.fonts",
    "glyphscope.inspector.cli.diagnostics",
    "glyphscope.inspector.cli.decisions",
    "glyphscope.inspector.cli.completion",
    # a one-page document is read in this process: no worker, so no multiprocessing, no page pool
    "multiprocessing",
    "glyphscope.core.page_pool",
    "glyphscope.core.triage",
    # the page product's statistics, made on first use (findings, triage), not for text
    "glyphscope.core.font_stats",
    "glyphscope.core.page_counts",
    "difflib",  # a mistyped command's suggestion only
)


def test_plain_text_of_a_tounicode_font_loads_only_what_it_uses(tmp_path: Path) -> None:
    path = _saved(
        tmp_path,
        make_pdf([b"BT /F1 12 Tf 72 700 Td <0048006900210020004F004B> Tj ET"], {"/F1": identity_h_font}),
        "type0.pdf",
    )
    code, out, modules = _run(tmp_path, "text", str(path))
    assert (code, out) == (0, b"Hi! OK")
    assert _loaded(modules, *NOT_FOR_PLAIN_TEXT) == []
    assert "glyphscope.core.fonts.third_party" in modules and "pikepdf" in modules


def test_a_font_without_tounicode_loads_the_glyph_list_and_pdfminers_tables_on_use(tmp_path: Path) -> None:
    # Helvetica, WinAnsi, no ToUnicode, no /Widths: names from pdfminer's latin_enc through the
    # AGL, advances from pdfminer's standard-14 metrics (H 722, e 556, l 222, o 556 per 1000)
    path = _saved(tmp_path, make_pdf([b"BT /F1 10 Tf 72 700 Td (Hello) Tj ET"]), "helvetica.pdf")
    code, out, modules = _run(tmp_path, "text", str(path))
    assert (code, out) == (0, b"Hello")
    # the names of WinAnsi come from core/fonts/latin_glyphs.py: the whole glyph list is not loaded
    assert _loaded(modules, "fontTools", "pdfminer", "importlib.metadata", "PySide6") == []
    assert "glyphscope.core.fonts.latin_glyphs" in modules
    differences = make_pdf(
        [b"BT /F1 10 Tf 72 700 Td (\x01\x02) Tj ET"],
        {
            "/F1": lambda pdf: pdf.make_indirect(
                pikepdf.Dictionary(
                    Type=pikepdf.Name.Font,
                    Subtype=pikepdf.Name.Type1,
                    BaseFont=pikepdf.Name.Helvetica,
                    Encoding=pikepdf.Dictionary(
                        Differences=[1, pikepdf.Name("/f_f_i"), pikepdf.Name("/uni0416")]
                    ),
                )
            )
        },
    )
    code, out, modules = _run(tmp_path, "text", str(_saved(tmp_path, differences, "differences.pdf")))
    assert (code, out.decode()) == (0, "ffi\u0416")  # names beyond the Latin tables: the whole list,
    assert "fontTools" not in modules  # read from fontTools' agl.py without importing fontTools

    code, out, _ = _run(tmp_path, "glyphs", str(path), "--page", "1")
    rows = [line.split("\t") for line in out.decode().splitlines()[1:]]  # page, #, unicode, …, origin
    assert [(r[2], r[6]) for r in rows] == [
        ("'H'", "72.0,700.0"),
        ("'e'", "79.22,700.0"),
        ("'l'", "84.78,700.0"),
        ("'l'", "87.0,700.0"),
        ("'o'", "89.22,700.0"),
    ]


@pytest.mark.parametrize("argv", [["--version"], ["--help"]])
def test_version_and_help_load_no_engine(tmp_path: Path, argv: list[str]) -> None:
    code, out, modules = _run(tmp_path, *argv)
    assert code == 0
    assert out.startswith(b"glyphscope " if argv == ["--version"] else b"usage: glyphscope")
    ours = {m for m in modules if m.startswith("glyphscope")}
    assert ours <= {
        "glyphscope",
        "glyphscope.__main__",
        "glyphscope.core",
        "glyphscope.core.errors",
        "glyphscope.core.gcpause",
        "glyphscope.core.lazy",  # the package's names-on-first-use mechanism, standard library only
        "glyphscope.core.limits",
        "glyphscope.core.version",  # the metadata read, standard library only
        "glyphscope.inspector",
        "glyphscope.inspector.cli",  # the package's door: a docstring, no imports
        "glyphscope.inspector.cli.parser",
        "glyphscope.inspector.cli.io",
        "glyphscope.inspector.cli.shared",  # exit codes and the options every command shares
    }, sorted(ours)
    assert _loaded(modules, "pikepdf", "fontTools", "pdfminer", "PySide6") == []


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub: argparse.ArgumentParser = commands.choices[name]
    return sub


ONE_PAGE = ("render",)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_a_command_built_alone_has_the_same_parser(command: str) -> None:
    """`run` builds only the parser of the command asked for: its help, options and defaults
    are those of the full parser's subcommand."""
    alone, full = build_parser(command), build_parser()
    assert [a.dest for a in alone._actions] == [a.dest for a in full._actions]
    helps = [_subparser(p, command).format_help() for p in (alone, full)]
    assert helps[0] == helps[1]
    # a stray % in a help text makes argparse print its own internals (object addresses)
    assert "0x" not in helps[0] and "%(" not in helps[0]
    argv = [
        command,
        "bash" if command == "completion" else "x.pdf",
        *(["--page", "2"] if command in ONE_PAGE else []),
        *(["-o", "x.png"] if command in ("render", "repair") else []),  # both require an output
    ]
    assert vars(alone.parse_args(argv)) == vars(full.parse_args(argv))
    assert vars(alone.parse_args(argv))["command"] == command


TABLES_PROBE = """
import json, sys
from glyphscope.core.fonts import third_party as tables
from glyphscope.core.fonts.encodings import base_glyph_names
from glyphscope.core.fonts.metrics import standard14_name, standard14_widths

enc, metrics = tables.latin_encodings(), tables.font_metrics()
win = base_glyph_names("WinAnsiEncoding")
facts = {
    "pdfminer_loaded": "pdfminer" in sys.modules,
    "metadata_loaded": "importlib.metadata" in sys.modules,
    "win_0x80": win[0x80],
    "win_0xAD": win[0xAD],
    "arial_bold": standard14_name("ABCDEF+Arial-BoldMT"),
    "helvetica_H": standard14_widths("Helvetica")["H"],
}
import pdfminer.fontmetrics, pdfminer.latin_enc

facts["same_encodings"] = list(enc) == list(pdfminer.latin_enc.ENCODING)
facts["same_metrics"] = metrics == pdfminer.fontmetrics.FONT_METRICS
facts["rows"], facts["fonts"] = len(enc), len(metrics)
print(json.dumps(facts))
"""


def test_pdfminers_tables_are_read_without_its_package_init_and_are_the_same() -> None:
    proc = subprocess.run([sys.executable, "-c", TABLES_PROBE], cwd=REPO, capture_output=True, timeout=120)
    facts = json.loads(proc.stdout or b"{}") if proc.returncode == 0 else {"error": proc.stderr.decode()}
    assert facts == {
        "pdfminer_loaded": False,
        "metadata_loaded": False,
        "win_0x80": "Euro",
        "win_0xAD": "hyphen",  # ISO 32000-1 Annex D note 6, over latin_enc's space
        "arial_bold": "Arial,Bold",
        "helvetica_H": 722,
        "same_encodings": True,
        "same_metrics": True,
        "rows": 232,
        "fonts": 26,
    }


def test_the_latin_glyph_names_say_what_the_adobe_glyph_list_says() -> None:
    from fontTools.agl import toUnicode

    from glyphscope.core.fonts.latin_glyphs import LATIN_GLYPH_UNICODE
    from glyphscope.core.fonts.third_party import latin_encodings

    names = {row[0] for row in latin_encodings()} | {"hyphen"}  # hyphen: WinAnsi 0xAD (Annex D)
    assert set(LATIN_GLYPH_UNICODE) == names
    assert {name: toUnicode(name) for name in names} == LATIN_GLYPH_UNICODE


def test_the_glyph_list_read_from_fonttools_file_answers_as_its_to_unicode() -> None:
    """third_party reads fontTools' glyph list from agl.py with str methods (no import of
    fontTools, no regular expression a line): every name answers as `agl.toUnicode` does."""
    from fontTools.agl import AGL2UV, LEGACY_AGL2UV, toUnicode

    from glyphscope.core.fonts.third_party import _glyph_list_reader

    to_unicode = _glyph_list_reader()
    assert to_unicode is not None
    forms = ["uni0041", "uni00410042", "uni004", "uniD800", "uniDFFF0041", "uni0041\n", "uni0061", "uni00e9"]
    forms += ["u1F600", "u0041", "uD800", "u110000", "u10FFFF", "u1f600", "u0000", "uni0000", "uniFFFF"]
    forms += [
        "f_f_i",
        "a.sc",
        "f_i.alt",
        "_",
        "",
        ".",
        "uni0041_u0042.x",
        "Aacute.sc_b",
        "space_space",
        "g12",
    ]
    names = [*LEGACY_AGL2UV, *AGL2UV, *forms]
    assert len(names) > 4800
    assert {n: to_unicode(n) for n in names} == {n: toUnicode(n) for n in names}
    assert (to_unicode("f_f_i"), to_unicode("uni0416.sc"), to_unicode("afii10017")) == (
        "ffi",
        "\u0416",
        "\u0410",
    )


def test_with_pdfminer_loaded_its_own_modules_are_used() -> None:
    import pdfminer.latin_enc

    from glyphscope.core.fonts import third_party as tables

    assert tables._pdfminer_data_module("latin_enc") is pdfminer.latin_enc
    assert tables.agl_to_unicode("Aacute") == "\u00c1" and tables.agl_to_unicode("g12") == ""


FREEZE_PROBE = """
import gc, sys
from glyphscope.__main__ import main

main(["--version"])  # called with an argv: a library call, the process goes on
after_call = gc.get_freeze_count()
sys.argv = ["glyphscope", "--version"]
main()  # the process's own command line: it ends next
print(after_call, gc.get_freeze_count() > 0)
"""


def test_only_the_process_entry_point_freezes_the_collector_at_the_end() -> None:
    proc = subprocess.run([sys.executable, "-c", FREEZE_PROBE], cwd=REPO, capture_output=True, timeout=120)
    assert proc.stdout.decode().splitlines()[-1] == "0 True", proc.stderr.decode()


COLLECTOR_PROBE = """
import gc, sys
from glyphscope.core import gcpause
from glyphscope.__main__ import main

during = []
real = gcpause.gc_paused


def spy():
    during.append(gc.isenabled())  # the collector's state as the first page starts
    return real()


gcpause.gc_paused = spy
sys.argv = ["glyphscope", *sys.argv[1:]]
main()
print(file=sys.stdout)
print(during[:1], gc.isenabled(), gc.get_freeze_count() > 0)
"""


@pytest.mark.parametrize("argv", [["text"], ["fonts"], ["verify", "--help"]])
def test_the_collector_sits_out_a_page_commands_imports_and_runs_again_after(
    tmp_path: Path, argv: list[str]
) -> None:
    path = _saved(tmp_path, make_pdf([b"BT /F1 10 Tf 72 700 Td (Hello) Tj ET"]), "hello.pdf")
    args = [argv[0], str(path), *argv[1:]] if argv[0] != "verify" else argv
    proc = subprocess.run(
        [sys.executable, "-c", COLLECTOR_PROBE, *args], cwd=REPO, capture_output=True, timeout=120
    )
    last = proc.stdout.decode().splitlines()[-1]
    if argv[0] == "verify":  # not a page command: the collector as always
        assert last.strip() == "[] True True", proc.stderr.decode()
    else:
        assert last.strip() == "[False] True True", proc.stderr.decode()


# Issue 29: what a simple Latin page's plain text never needs, so `glyphscope text` does not
# import it (each record class costs ~0.5 ms to build, a module's body more).
NOT_FOR_A_SIMPLE_LATIN_PAGE = (
    *NOT_FOR_PLAIN_TEXT,
    "fontTools",
    "PIL",
    "pandas",
    "numpy",
    "bidi",  # python-bidi: right-to-left lines only
    "pypdfium2",
    "rich",
    "glyphscope.core.assembly.decisions",  # records: made when decisions are read, not for text
    "glyphscope.core.assembly.bidi",
    "glyphscope.core.assembly.layout",
    "glyphscope.core.assembly.columns",
    "glyphscope.core.assembly.structure_mode",
    "glyphscope.core.assembly.articles",
    "glyphscope.core.assembly.auto",
    "glyphscope.core.assembly.vertical",
    "glyphscope.core.annotations",  # pages with an /Annots array
    "glyphscope.core.visibility_records",  # pages with a hidden glyph
    "glyphscope.core.fonts.composite",  # Type0 fonts
    "glyphscope.core.fonts.predefined",
    "glyphscope.core.fonts.cmap",  # a font with a /ToUnicode stream
    "glyphscope.core.article_threads",  # a catalog with /Threads
    "glyphscope.core.page_pool",  # workers: documents of PARALLEL_MIN_PAGES pages or more
)


def test_plain_text_of_a_simple_latin_page_loads_no_record_or_mode_it_does_not_use(tmp_path: Path) -> None:
    path = _saved(
        tmp_path, make_pdf([b"BT /F1 10 Tf 72 700 Td (Hello) Tj 0 -14 Td (world) Tj ET"]), "latin.pdf"
    )
    code, out, modules = _run(tmp_path, "text", str(path))
    assert (code, out) == (0, b"Hello\nworld")
    assert _loaded(modules, *NOT_FOR_A_SIMPLE_LATIN_PAGE) == []
    assert {"pikepdf", "glyphscope.core.assembly.plain", "glyphscope.core.visibility"} <= modules


def test_what_plain_text_leaves_out_is_loaded_by_the_page_or_command_that_uses_it(tmp_path: Path) -> None:
    # a hidden glyph (render mode 3) on a page with an annotation: both readers load, and the
    # records come out with their numbers
    pdf = make_pdf([b"BT /F1 10 Tf 72 700 Td (Seen) Tj 3 Tr 0 -14 Td (Hid) Tj ET"])
    pdf.pages[0].Annots = pdf.make_indirect(
        pikepdf.Array(
            [pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Text, Rect=[0, 0, 10, 10])]
        )
    )
    path = _saved(tmp_path, pdf, "hidden.pdf")
    code, out, modules = _run(tmp_path, "decisions", str(path), "--page", "1", "--json")
    assert code == 0
    found = [(d["kind"], d["verdict"], d["value"], d["threshold"]) for d in json.loads(out)["decisions"]]
    assert found[:4] == [
        ("annotation", "excluded", [0.0, 0.0, 10.0, 10.0], None),  # a note without an appearance
        *[("invisible_mode", "kept", 3.0, None)] * 3,  # H, i, d in render mode 3
    ]
    assert [f for f in found if f[1] == "break"] == [
        ("line_break", "break", 14.0, 4.625)
    ]  # the 14 pt Td down
    assert {
        "glyphscope.core.visibility_records",
        "glyphscope.core.annotations",
        "glyphscope.core.assembly.decisions",
    } <= modules
    code, out, modules = _run(tmp_path, "text", str(path), "--mode", "layout")
    assert code == 0 and out.split() == [b"Seen", b"Hid"]
    assert "glyphscope.core.assembly.layout" in modules


def _re_exports(path: Path) -> dict[str, str]:
    """name → module of every `from M import X as X` under a module's `if TYPE_CHECKING:`."""
    import ast

    tree = ast.parse(path.read_text("utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    return {
        alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
        if alias.asname == alias.name
    }


def test_the_lazily_read_names_are_declared_for_type_checkers_and_resolve() -> None:
    from glyphscope.core import assembly, visibility, visibility_records
    from glyphscope.core.assembly import decisions

    assert _re_exports(REPO / "core" / "assembly" / "__init__.py") == assembly._LAZY
    assert _re_exports(REPO / "core" / "visibility.py") == dict.fromkeys(
        visibility._RECORD_NAMES, "glyphscope.core.visibility_records"
    )
    assert assembly.WordGapDecision is decisions.WordGapDecision
    assert visibility.ClippedDecision is visibility_records.ClippedDecision
    assert set(visibility.VISIBILITY_RECORDS) == {
        visibility_records.InvisibleModeDecision,
        visibility_records.ClippedDecision,
        visibility_records.TransparentDecision,
        visibility_records.SameAsBackgroundDecision,
        visibility_records.CoveredDecision,
    }


IMPORT_PROBE = """
import sys
from glyphscope.__main__ import main

sys.argv = ["glyphscope", "text", sys.argv[1]]
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print(file=sys.stdout)
print("difflib" in sys.modules)
"""


def test_the_text_command_loads_no_difflib(tmp_path: Path) -> None:
    """difflib (a mistyped command's suggestion) is not loaded by a command that exists."""
    path = _saved(tmp_path, make_pdf([b"BT /F1 10 Tf 72 700 Td (Hello) Tj ET"]), "hello.pdf")
    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE, str(path)], cwd=REPO, capture_output=True, timeout=120
    )
    assert proc.stdout.decode().splitlines()[-1] == "False", proc.stderr.decode()


def test_the_command_line_modules_share_only_public_names() -> None:
    """inspector/cli/: parser.py, shared.py and one module per command; no module imports another's
    underscore name (`from … import _x`, `module._x`): what they share is public, in shared.py."""
    import ast

    folder = REPO / "inspector" / "cli"
    names = {p.stem for p in folder.glob("*.py")}
    assert {"parser", "shared", "glyphs", "fonts", "diagnostics", "text", "decisions", "completion"} <= names
    assert "commands" not in names
    private: list[str] = []
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        aliases = {
            a.asname or a.name.split(".")[-1]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "glyphscope.inspector.cli"
            for a in node.names
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "glyphscope.inspector.cli."
            ):
                private += [
                    f"{path.name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")
                ]
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
            ):
                private.append(f"{path.name}: {node.value.id}.{node.attr}")
    assert private == []


CMAP_PROBE = """
import json, os, sys
from glyphscope.core.fonts.predefined import collection_map, predefined_cmap

cmap = predefined_cmap("90ms-RKSJ-V")
japan = collection_map("Adobe-Japan1", True)
facts = {
    "pdfminer_loaded": sorted(m for m in sys.modules if m.split(".")[0] == "pdfminer"),
    "wmode": cmap.wmode,
    "cid_0x8140": cmap.cid(0x8140),  # the ideographic space: CID 633 in Adobe-Japan1
    "cid_0x41": cmap.cid(0x41),  # "A": CID 264 (the 90ms CMaps map ASCII to proportional Latin)
    "unicode_633": japan[633],
    "unknown": predefined_cmap("No-Such-CMap-H"),
}
from pdfminer.cmapdb import CMapDB
from glyphscope.core.fonts.predefined import read_data_file

folder = os.path.join(os.path.dirname(sys.modules["pdfminer"].__file__), "cmap")
names = sorted(f[: -len(".json.gz")] for f in os.listdir(folder) if f.endswith(".json.gz"))
theirs = lambda n: {k: v for k, v in vars(CMapDB._load_data(n)).items() if not k.startswith("__")}
facts["tables"] = len(names)
facts["different"] = [n for n in names if read_data_file(n) != theirs(n)]
print(json.dumps(facts))
"""


def test_predefined_cmaps_are_pdfminers_tables_read_without_importing_pdfminer() -> None:
    """pdfminer.six's CMap tables (gzipped JSON next to its cmapdb module) are read as its
    `CMapDB._load_data` reads them, without importing pdfminer (~40 ms of a CJK page's start):
    every table the same, key for key."""
    import pdfminer

    if not any(Path(p, "cmap", "90ms-RKSJ-V.json.gz").exists() for p in pdfminer.__path__):
        pytest.skip("this pdfminer.six keeps its CMaps as pickles: CMapDB reads them")
    proc = subprocess.run([sys.executable, "-c", CMAP_PROBE], cwd=REPO, capture_output=True, timeout=300)
    facts = json.loads(proc.stdout or b"{}") if proc.returncode == 0 else {"error": proc.stderr.decode()}
    assert facts.pop("tables", 0) > 100, facts
    assert facts == {
        "pdfminer_loaded": [],
        "wmode": 1,
        "cid_0x8140": 633,
        "cid_0x41": 264,
        "unicode_633": "\u3000",
        "unknown": None,
        "different": [],
    }


# Issue 40: every module plain text of a simple Latin page loads, named. A module that joins this
# path costs every `glyphscope text` its import: add it here only when such a page needs it.
SIMPLE_LATIN_PAGE_MODULES = {
    "glyphscope",
    "glyphscope.__main__",
    "glyphscope.core",
    "glyphscope.core.actual_text",
    "glyphscope.core.analysis",
    "glyphscope.core.assembly",
    "glyphscope.core.assembly.actual_text",
    "glyphscope.core.assembly.annotation_order",
    "glyphscope.core.assembly.chars",
    "glyphscope.core.assembly.decision_store",
    "glyphscope.core.assembly.flow",
    "glyphscope.core.assembly.lines",
    "glyphscope.core.assembly.modes",  # the Mode enum, out of the package so the modes name it
    "glyphscope.core.assembly.page_text",
    "glyphscope.core.assembly.plain",
    "glyphscope.core.assembly.rtl_runs",
    "glyphscope.core.assembly.survivors",
    "glyphscope.core.assembly.tracking",
    "glyphscope.core.assembly.verdicts",
    "glyphscope.core.assembly.words",
    "glyphscope.core.budgets",
    "glyphscope.core.colours",
    "glyphscope.core.content",
    "glyphscope.core.content_lexer",  # reads the page's content stream (pikepdf reads the others)
    "glyphscope.core.decision_protocol",
    "glyphscope.core.diagnostic_sink",
    "glyphscope.core.diagnostics",
    "glyphscope.core.document",
    "glyphscope.core.errors",
    "glyphscope.core.fonts",
    "glyphscope.core.fonts.base",
    "glyphscope.core.fonts.cjk",
    "glyphscope.core.fonts.common",
    "glyphscope.core.fonts.encodings",
    "glyphscope.core.fonts.latin_glyphs",
    "glyphscope.core.fonts.loader",
    "glyphscope.core.fonts.metrics",
    "glyphscope.core.fonts.pdfobj",
    "glyphscope.core.fonts.program",
    "glyphscope.core.fonts.simple",
    "glyphscope.core.fonts.third_party",
    "glyphscope.core.fonts.type3",
    "glyphscope.core.gcpause",
    "glyphscope.core.geometry",
    "glyphscope.core.glyph",
    "glyphscope.core.glyph_layout",
    "glyphscope.core.glyph_table",
    "glyphscope.core.instructions",
    "glyphscope.core.interpreter",
    "glyphscope.core.lazy",
    "glyphscope.core.limits",
    "glyphscope.core.operators",
    "glyphscope.core.operators.graphics",
    "glyphscope.core.operators.operands",
    "glyphscope.core.operators.paths",
    "glyphscope.core.operators.state",
    "glyphscope.core.operators.text",
    "glyphscope.core.operators.xobjects",
    "glyphscope.core.page",
    "glyphscope.core.page_range",
    "glyphscope.core.page_workers",  # PARALLEL_MIN_PAGES and the in-process page loop; not the pool
    "glyphscope.core.params",
    "glyphscope.core.passes",
    "glyphscope.core.recorders",
    "glyphscope.core.recorders.base",
    "glyphscope.core.recorders.fonts",
    "glyphscope.core.recorders.forms",
    "glyphscope.core.recorders.marked",
    "glyphscope.core.recorders.visibility",
    "glyphscope.core.render_modes",
    "glyphscope.core.resources",
    "glyphscope.core.state",
    "glyphscope.core.structure",
    "glyphscope.core.visibility",
    "glyphscope.core.visibility_class",
    "glyphscope.core.worker_processes",  # usable_cpus (no multiprocessing)
    "glyphscope.inspector",
    "glyphscope.inspector.cli",
    "glyphscope.inspector.cli.io",
    "glyphscope.inspector.cli.pages",
    "glyphscope.inspector.cli.parser",
    "glyphscope.inspector.cli.shared",
    "glyphscope.inspector.cli.text",
}


def test_plain_text_of_a_simple_latin_page_loads_exactly_these_modules(tmp_path: Path) -> None:
    path = _saved(
        tmp_path, make_pdf([b"BT /F1 10 Tf 72 700 Td (Hello) Tj 0 -14 Td (world) Tj ET"]), "latin.pdf"
    )
    code, out, modules = _run(tmp_path, "text", str(path))
    assert (code, out) == (0, b"Hello\nworld")
    ours = {m for m in modules if m.split(".")[0] == "glyphscope"}
    assert sorted(ours - SIMPLE_LATIN_PAGE_MODULES) == [], "new on the simple page's path"
    assert sorted(SIMPLE_LATIN_PAGE_MODULES - ours) == [], "no longer loaded: take it off the list"
    # beyond the standard library, pikepdf only (the interpreter's own site hooks aside)
    others = {m.split(".")[0] for m in modules} - set(sys.stdlib_module_names) - {"glyphscope"}
    assert sorted(m for m in others if not m.startswith("_")) == ["pikepdf"]


COMPILED_PROBE = """
import sys
from glyphscope.__main__ import main

sys.argv = ["glyphscope", "text", sys.argv[1]]
main()
from glyphscope.core import dataclass_code

print(file=sys.stdout)
print(sorted({m for m in dataclass_code.compiled if m.split(".")[0] == "glyphscope"}))
print(sorted(m for m in sys.modules if m.split(".")[0] == "glyphscope"))
"""


def test_the_command_lines_records_come_compiled(tmp_path: Path) -> None:
    """The process's own command line makes its record classes from dataclass_code's table: on a
    simple page no `@dataclass` text is compiled (a miss: regenerate the table,
    `python -m glyphscope.core.dataclass_code`), and the page loads the library's modules and
    the table's two."""
    path = _saved(
        tmp_path, make_pdf([b"BT /F1 10 Tf 72 700 Td (Hello) Tj 0 -14 Td (world) Tj ET"]), "latin.pdf"
    )
    proc = subprocess.run(
        [sys.executable, "-c", COMPILED_PROBE, str(path)], cwd=REPO, capture_output=True, timeout=120
    )
    lines = proc.stdout.decode().splitlines()
    # our records only: another pikepdf's records may differ from the table's (compiled as always),
    # and another Python writes other texts for ours too
    misses = "[]" if sys.version_info[:2] == TABLE_PYTHON else lines[-2]
    assert (lines[0], lines[-2]) == ("Hello", misses), proc.stderr.decode()
    table = {"glyphscope.core.dataclass_code", "glyphscope.core.dataclass_code_table"}
    assert set(json.loads(lines[-1].replace("'", '"'))) == SIMPLE_LATIN_PAGE_MODULES | table
