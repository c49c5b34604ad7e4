"""No import cycle among the modules of glyphscope, lazy or not.

Every module of core/, inspector/ and glyphscope/ is parsed (ast); an import at any
level counts (module level, inside a function, inside a try), except those under
`if TYPE_CHECKING:`, which never run. The module graph's strongly connected
components are its cycles: when two modules need each other, the shared piece moves
down into a module both import (style.md, "Rooms with doors"). The only cycles
allowed are the documented start-up laziness of optional features, listed in
ALLOWED with the reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The installed layout: import name -> folder (pyproject [tool.setuptools] package-dir).
FOLDERS = {
    "glyphscope.core": REPO / "core",
    "glyphscope.inspector": REPO / "inspector",
}

# Cycles kept on purpose, each a frozenset of module names with the reason. Empty: none.
ALLOWED: dict[frozenset[str], str] = {}


def modules() -> dict[str, Path]:
    """Import name -> file, for glyphscope/*.py, core/ and inspector/ (packages by their __init__)."""
    out = {}
    for path in (REPO / "glyphscope").glob("*.py"):
        out["glyphscope" if path.stem == "__init__" else f"glyphscope.{path.stem}"] = path
    for package, folder in FOLDERS.items():
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import node outside `if TYPE_CHECKING:` blocks, with whether it runs inside a function."""
    stack: list[tuple[ast.AST, bool]] = [(node, False) for node in tree.body]
    while stack:
        node, nested = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, nested
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend((n, nested) for n in node.orelse)
            continue
        inner = nested or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def _targets(name: str, node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> set[str]:
    """The modules of ours an import statement loads (and depends on)."""
    if isinstance(node, ast.Import):
        wanted = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = name if known[name].name == "__init__.py" else name.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        # `from pkg import mod` loads pkg.mod; `from mod import name` depends on mod
        wanted = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    out = set()
    for target in wanted:
        while target and target not in known:  # `import a.b.c` where c is not ours
            target = target.rpartition(".")[0]
        if target:
            out.add(target)
    return out


def import_graph() -> tuple[dict[str, set[str]], int]:
    """Module -> the modules it imports (TYPE_CHECKING excepted); and the number of imports in functions."""
    known = modules()
    graph: dict[str, set[str]] = {name: set() for name in known}
    nested_count = 0
    for name, path in known.items():
        for node, nested in _imports(ast.parse(path.read_text("utf-8"))):
            targets = _targets(name, node, known) - {name}
            graph[name] |= targets
            nested_count += nested
    return graph, nested_count


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def test_the_graph_sees_lazy_imports_and_skips_type_checking() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "import glyphscope.core.page\n"
        "if TYPE_CHECKING:\n"
        "    from glyphscope.core import glyph\n"
        "def f():\n"
        "    from glyphscope.core.fonts import loader\n"
        "    from . import params\n"
    )
    known = modules()
    name = "glyphscope.core.geometry"
    found = {(t, nested) for node, nested in _imports(tree) for t in _targets(name, node, known)}
    assert found == {
        ("glyphscope.core.page", False),
        ("glyphscope.core.fonts.loader", True),
        ("glyphscope.core.params", True),
    }


def test_tarjan_finds_a_cycle_of_three_and_nothing_else() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]


def test_no_import_cycles_beyond_the_documented_ones() -> None:
    graph, _ = import_graph()
    found = set(cycles(graph))
    unexpected = [sorted(c) for c in found if c not in ALLOWED]
    assert unexpected == [], f"import cycles: {unexpected}"
    assert found == set(ALLOWED), "an allowed cycle is gone: take it off ALLOWED"
