"""Qt stays out of `core` and of the inspector's Qt-free layer; headless commands never load it.

Three checks of one rule: the import-linter contracts of pyproject.toml (static,
transitive), an AST check that no import outside gui/ names Qt (not even inside a
function), and the commands themselves (`render` and the report's images included: their
overlays are Pillow's) run in fresh interpreters that must end without a PySide6 module.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
QT_PACKAGES = ("PySide6", "shiboken6")
GUI = "glyphscope.inspector.gui"
# The installed layout: import name -> folder (pyproject [tool.setuptools] package-dir).
FOLDERS = {"glyphscope.core": REPO / "core", "glyphscope.inspector": REPO / "inspector"}


def _lint_imports() -> str:
    exe = Path(sys.executable).with_name("lint-imports")
    if not exe.exists():
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    return str(exe)


def _importlinter() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]


def _contract(contract_id: str) -> dict:
    return next(c for c in _importlinter()["contracts"] if c["id"] == contract_id)


def _qt_free_inspector_modules() -> list[str]:
    """Every module and sub-package of inspector/ outside gui/, as imported (a sub-package's
    contract covers its modules; the package's __init__ has no imports)."""
    folder = REPO / "inspector"
    modules = [p.stem for p in folder.glob("*.py") if p.stem != "__init__"]
    packages = [p.parent.name for p in folder.glob("*/__init__.py") if p.parent.name != "gui"]
    return sorted(f"glyphscope.inspector.{name}" for name in modules + packages)


def _modules(package: str) -> dict[str, Path]:
    folder = FOLDERS[package]
    out = {}
    for path in folder.rglob("*.py"):
        rel = path.relative_to(folder).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        name = ".".join([package, *parts])
        if not name.startswith(GUI):
            out[name] = path
    return out


# ---------------------------------------------------------------- import-linter


def test_import_contracts_hold() -> None:
    proc = subprocess.run(
        [str(REPO / ".ci" / "lint-imports")],
        env=dict(os.environ, LINT_IMPORTS=_lint_imports()),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 kept, 0 broken" in proc.stdout, proc.stdout


def test_the_contract_names_every_module_of_the_qt_free_layer() -> None:
    contract = _contract("inspector-qt-free")
    assert sorted(contract["source_modules"]) == _qt_free_inspector_modules()
    assert set(QT_PACKAGES) | {GUI} <= set(contract["forbidden_modules"])
    assert set(QT_PACKAGES) <= set(_contract("core-qt-free")["forbidden_modules"])


def test_the_contract_catches_a_qt_import(tmp_path: Path) -> None:
    """A staged copy with one Qt import added to the Qt-free layer breaks the contract."""
    stage = tmp_path / "stage" / "glyphscope"
    stage.mkdir(parents=True)
    for f in (REPO / "glyphscope").glob("*.py"):
        shutil.copy(f, stage)
    for folder in ("core", "inspector"):
        shutil.copytree(REPO / folder, stage / folder, ignore=shutil.ignore_patterns("__pycache__"))
    search = stage / "inspector" / "views" / "search.py"
    search.write_text(search.read_text("utf-8") + "\n\nimport PySide6.QtCore  # noqa\n", "utf-8")
    proc = subprocess.run(
        # --config, as .ci/lint-imports: import-linter 2.0–2.16 take no config argument
        [_lint_imports(), "--no-cache", "--config", str(REPO / "pyproject.toml")],
        cwd=stage.parent,
        env=dict(os.environ, PYTHONPATH=str(stage.parent)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0
    assert "glyphscope.inspector.views.search -> PySide6" in proc.stdout, proc.stdout


# ---------------------------------------------------------------- the allowed ways into Qt are lazy


def _top_level_ids(tree: ast.Module) -> set[int]:
    """Nodes that run at import time: everything outside function bodies."""
    ids: set[int] = set()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            # decorators and defaults run at import time; the body does not
            stack.extend(getattr(node, "decorator_list", []))
            stack.extend(node.args.defaults)
            continue
        ids.add(id(node))
        stack.extend(ast.iter_child_nodes(node))
    return ids


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module]
    return []


def _is_qt(name: str) -> bool:
    return name.split(".")[0] in QT_PACKAGES or name == GUI or name.startswith(GUI + ".")


def test_qt_is_not_reached_at_all_outside_gui() -> None:
    """Not even lazily: the overlays of `render` and the report are Pillow's (inspector.layers.painter)."""
    reached: set[tuple[str, str]] = set()
    for package in FOLDERS:
        for name, path in _modules(package).items():
            tree = ast.parse(path.read_text("utf-8"))
            for node in ast.walk(tree):
                reached.update((name, imported) for imported in _imported(node) if _is_qt(imported))
    assert reached == set()
    assert "ignore_imports" not in _contract("inspector-qt-free")


def test_no_environment_writes_or_module_level_qt_application_in_the_package() -> None:
    """Process-wide state is the entry point's choice (style.md): the package never writes os.environ."""
    offenders = []
    for path in [
        *(REPO / "core").rglob("*.py"),
        *(REPO / "inspector").rglob("*.py"),
        *(REPO / "glyphscope").glob("*.py"),
    ]:
        tree = ast.parse(path.read_text("utf-8"))
        top = _top_level_ids(tree)
        for node in ast.walk(tree):
            text = (
                ast.unparse(node)
                if isinstance(node, (ast.Call, ast.Assign, ast.AugAssign, ast.Delete))
                else ""
            )
            if isinstance(node, ast.Call) and any(
                text.startswith(f)
                for f in (
                    "os.environ.setdefault",
                    "os.environ.update",
                    "os.putenv",
                    "os.unsetenv",
                    "os.environ.pop",
                )
            ):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}: {text}")
            if (
                isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete))
                and "os.environ[" in text.split("=")[0]
            ):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}: {text}")
            if (
                isinstance(node, ast.Call)
                and id(node) in top
                and text.split("(")[0].split(".")[-1]
                in ("QApplication", "QGuiApplication", "QCoreApplication")
            ):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}: module-level {text}")
    assert offenders == []


# ---------------------------------------------------------------- the commands, in fresh interpreters

PROBE = """
import json, os, sys
from glyphscope.__main__ import main

report, argv = sys.argv[1], sys.argv[2:]
env = dict(os.environ)
code = main(argv)
qt = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6"))
with open(report, "w") as fh:
    json.dump({"code": code, "qt": qt, "env_changed": dict(os.environ) != env}, fh)
"""


def _probe(tmp_path: Path, *argv: str, stdin: bytes | None = None) -> dict:
    """Run `glyphscope ARGV` in process in a fresh interpreter: exit code, Qt modules loaded, env written?"""
    report = tmp_path / "probe.json"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(report), *argv],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=300,
    )
    assert report.exists(), proc.stderr.decode()
    result = json.loads(report.read_text())
    result["stderr"] = proc.stderr.decode()
    result["stdout"] = proc.stdout
    return result


HEADLESS = {
    "text": ["text", "{demo}", "--pages", "1-3"],
    "text-json": ["text", "{demo}", "--mode", "auto", "--json"],
    "glyphs": ["glyphs", "{demo}", "--page", "8", "--set", "all", "--json"],
    "fonts": ["fonts", "{demo}", "--page", "9", "--json"],
    "diagnostics": ["diagnostics", "{demo}", "--json"],
    "decisions": ["decisions", "{demo}", "--page", "6", "--mode", "layout", "--json"],
    "triage": ["triage", "{demo}", "--json", "{tmp}/triage.json"],
    "triage-html-no-images": ["triage", "{demo}", "--html", "{tmp}/triage.html", "--no-images"],
    # the page is PDFium's (inspector.render.renderer), the overlays Pillow's (inspector.layers.painter)
    "render-no-layers": ["render", "{demo}", "--page", "2", "--layers", "none", "-o", "{tmp}/p2.png"],
    "render": ["render", "{demo}", "--page", "7", "--scale", "0.5", "-o", "{tmp}/p7.png"],
    "triage-html": ["triage", "{demo}", "--html", "{tmp}/triage.html"],
    "version": ["--version"],
    "help": ["text", "--help"],
}


@pytest.mark.parametrize("command", sorted(HEADLESS))
def test_headless_commands_do_not_load_qt(command: str, demo_pdf: Path, tmp_path: Path) -> None:
    argv = [a.format(demo=demo_pdf, tmp=tmp_path) for a in HEADLESS[command]]
    result = _probe(tmp_path, *argv)
    assert result["code"] == 0, result["stderr"]
    assert result["qt"] == [], f"{command} loaded {result['qt']}"
    assert not result["env_changed"]


def test_text_from_stdin_does_not_load_qt(demo_pdf: Path, tmp_path: Path) -> None:
    result = _probe(tmp_path, "text", "-", "--pages", "2", stdin=demo_pdf.read_bytes())
    assert result["code"] == 0 and result["qt"] == [], result["stderr"]
    assert result["stdout"].startswith(b"Page 2")


# ---------------------------------------------------------------- one name per thing

SOURCE_ROOTS = {
    "glyphscope.core": REPO / "core",
    "glyphscope.inspector": REPO / "inspector",
    "glyphscope": REPO / "glyphscope",
}

COMMAND_HOOKS = frozenset({"add_parser", "run"})
"""What each command module of inspector/cli/ defines for the parser (cli/parser.py imports the
command's module by name and calls its `add_parser`, which points the command at its `run`)."""

MIRRORED_FILE_NAMES: dict[str, str] = {
    "base.py": "a room's base class: fonts, recorders, panels",
    "actual_text.py": "core reads the spans; core/assembly writes their text",
    "compare.py": "the command (cli) and the panel (gui) of compare",
    "decisions.py": "core/assembly's decision records and the `decisions` command",
    "diagnostics.py": "core's finding kinds, the command, the panel",
    "explain.py": "each room's explanations: a font's decoding (core/fonts), a difference (compare)",
    "fonts.py": "the command, the view model and the panel of fonts",
    "glyph_table.py": "core's glyph columns and the panel that lists them",
    "jobs.py": "inspector's job protocol and the panel of running jobs",
    "objects.py": "the object browser's view model and panel",
    "pages.py": "the command line's page workers and the Pages panel",
    "probe.py": "the probe's view model and panel",
    "registry.py": "the layers' registry and the panels' registry",
    "repair.py": "the repaired copy and its command",
    "shared.py": "what the commands share and what the panels share",
    "state.py": "core's graphics state and the operators that change it",
    "stepper.py": "the stepper's view model and panel",
    "structure.py": "core's structure tree and its view model",
    "text.py": "the text operators, the `text` command, the Text panel",
    "triage.py": "the `triage` command and verify's part of triage",
    "verify.py": "the `verify` command and the Verify panel",
    "words.py": "words by the engine's word-gap rule (core/assembly) and by pdfplumber's (the Python API)",
    "visibility.py": "core's visibility pass and the recorder that hears its events",
}
"""File names used by more than one module of the tree, each judged: the same subject seen from
another room (the command, the view model, the panel of one thing), never two things of one
name. A new duplicate fails below until it is judged here (or renamed)."""


def _source_files() -> list[tuple[str, Path]]:
    out = []
    for package, folder in SOURCE_ROOTS.items():
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder)
            out.append((f"{package.replace('.', '/')}/{rel.as_posix()}", path))
    return out


def _runnable(tree: ast.Module) -> bool:
    """`if __name__ == "__main__":` at the top level: `python -m` runs its `main`."""
    return any(
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
        for node in tree.body
    )


def public_definitions() -> dict[str, list[str]]:
    """Each public top-level class or function name → the modules defining it (protocol hooks left out)."""
    found: dict[str, list[str]] = {}
    for name, path in _source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        command = "/inspector/cli/" in name
        for node in tree.body:
            if not isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if node.name.startswith("_"):
                continue
            if command and node.name in COMMAND_HOOKS:
                continue
            if node.name == "main" and (_runnable(tree) or path.name == "__main__.py"):
                continue
            found.setdefault(node.name, []).append(name)
    return found


def test_no_public_name_is_defined_in_two_modules() -> None:
    twice = {n: m for n, m in public_definitions().items() if len(m) > 1}
    assert not twice, "one name per thing; defined more than once: " + "; ".join(
        f"{n} in {', '.join(m)}" for n, m in sorted(twice.items())
    )


def test_a_command_module_defines_its_hooks() -> None:
    """The hooks left out above are what cli/parser.py calls: every command module with `add_parser` has `run`."""
    for name, path in _source_files():
        if "/inspector/cli/" not in name:
            continue
        defined = {
            n.name for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)
        }
        if "add_parser" in defined:
            assert "run" in defined or any(d.startswith("run_") for d in defined), name


def test_no_module_shares_its_name_with_a_sibling_package() -> None:
    """In one package, `x.py` beside a sub-package `x/` would make `import package.x` ambiguous."""
    for folder in SOURCE_ROOTS.values():
        for package in [folder, *(p for p in folder.rglob("*") if (p / "__init__.py").exists())]:
            modules = {p.stem for p in package.glob("*.py")} - {"__init__"}
            packages = {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
            assert not modules & packages, f"{package}: {sorted(modules & packages)}"


def test_file_names_used_twice_are_judged() -> None:
    by_name: dict[str, list[str]] = {}
    for name, path in _source_files():
        if path.name not in ("__init__.py", "__main__.py"):
            by_name.setdefault(path.name, []).append(name)
    twice = {n for n, m in by_name.items() if len(m) > 1}
    assert twice - set(MIRRORED_FILE_NAMES) == set(), "new file names used twice: " + ", ".join(
        f"{n} ({', '.join(by_name[n])})" for n in sorted(twice - set(MIRRORED_FILE_NAMES))
    )
    assert set(MIRRORED_FILE_NAMES) - twice == set(), "judged names no longer used twice: drop them"
