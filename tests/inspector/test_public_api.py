"""The package's exports: typed for checkers, listed by dir(), imported lazily, Qt-free."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import glyphscope

REPO = Path(__file__).resolve().parents[2]
INIT = REPO / "glyphscope" / "__init__.py"


def _run(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _type_checking_names() -> dict[str, str]:
    """name → module of every `from M import X as X` under `if TYPE_CHECKING:` in __init__."""
    tree = ast.parse(INIT.read_text("utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    return {
        alias.asname or alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("glyphscope")
        for alias in node.names
    }


def test_every_lazy_name_is_declared_for_type_checkers_from_the_same_module() -> None:
    assert _type_checking_names() == glyphscope._LAZY


def test_every_export_resolves_and_dir_lists_them() -> None:
    listed = dir(glyphscope)
    for name in glyphscope.__all__:
        assert name in listed
        if name == "Line":  # the old name of a text line: it still resolves, with a warning
            with pytest.warns(DeprecationWarning, match="TextLine"):
                assert glyphscope.Line is glyphscope.TextLine
            continue
        assert getattr(glyphscope, name) is not None
    assert glyphscope.open_document.__module__ == "glyphscope.core.document"
    assert glyphscope.open.__module__ == "glyphscope.model"


def test_importing_the_package_loads_no_engine() -> None:
    out = _run("import sys, glyphscope; print(sorted(m for m in sys.modules if m.startswith('glyphscope')))")
    assert out.strip() == "['glyphscope']"


def test_the_package_is_marked_typed() -> None:
    assert (REPO / "glyphscope" / "py.typed").is_file()


def test_the_object_model_and_its_images_do_not_load_qt(demo_pdf: Path) -> None:
    out = _run(
        "import sys, glyphscope\n"
        f"with glyphscope.open({str(demo_pdf)!r}) as doc:\n"
        "    page = doc.pages[1]\n"
        "    page.to_image(resolution=36).draw_glyphs().draw_decisions()._repr_png_()\n"
        "    page.crop((0, 0, page.width, 200)).extract_text()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')))"
    )
    assert out.strip() == "[]"


def test_the_typed_example_runs_on_the_demo(demo_pdf: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(REPO / "examples" / "typed_use.py"), str(demo_pdf)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "demo.pdf: 15 pages" in proc.stdout
    assert "spaces inserted by the word-gap rule" in proc.stdout
