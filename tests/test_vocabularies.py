"""Closed vocabularies are compared through their enums, never by their bare words.

Every `class X(StrEnum)` / `class X(str, Enum)` of the package is a closed set whose words are
what JSON and the command line say. A comparison of something named like a vocabulary (`mode`,
`kind`, `verdict`, `status`, `cause`, `order`, `fate`, `reason_key`) with one of those words spelled as a
string (`mode == "layout"`, `d.kind in ("word_gap", …)`, `case "plain":`), or a `mode`
parameter defaulting to a bare word, is what this test refuses: the enum member says the same
and a renamed or removed word then fails where it is used, not silently.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("core", "inspector", "glyphscope")

VOCABULARY_NAME = re.compile(r"(^|_)(mode|kind|kinds|verdict|status|cause|order|fate|reason_key)$")
"""Names (a variable, an attribute, a call's function) whose values are a vocabulary's words."""


def _modules() -> Iterator[tuple[Path, ast.Module]]:
    for root in SOURCES:
        for path in sorted((ROOT / root).rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _is_string_enum(node: ast.ClassDef) -> bool:
    bases = [
        b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
        for b in node.bases
    ]
    return "StrEnum" in bases or ("str" in bases and "Enum" in bases)


def enum_words(modules: list[tuple[Path, ast.Module]]) -> dict[str, list[str]]:
    """Each non-empty word of a string enum of the package → the enums it belongs to."""
    words: dict[str, list[str]] = {}
    for _, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and _is_string_enum(node):
                for item in node.body:
                    if (
                        isinstance(item, ast.Assign)
                        and isinstance(item.value, ast.Constant)
                        and isinstance(item.value.value, str)
                        and item.value.value
                    ):
                        words.setdefault(item.value.value, []).append(node.name)
    return words


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return _name(node.func)
    if isinstance(node, ast.Subscript):
        return _name(node.value)
    return None


def _strings(node: ast.expr | ast.pattern) -> Iterator[ast.Constant]:
    if isinstance(node, ast.MatchValue):
        node = node.value
    if isinstance(node, ast.MatchOr):
        for p in node.patterns:
            yield from _strings(p)
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for e in node.elts:
            yield from _strings(e)


def bare_words(tree: ast.Module, words: dict[str, list[str]]) -> Iterator[tuple[int, str, str]]:
    """(line, word, what) of every vocabulary word compared, matched or defaulted as a bare string."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            named = [n for n in map(_name, operands) if n and VOCABULARY_NAME.search(n)]
            if named:
                for operand in operands:
                    for s in _strings(operand):
                        if s.value in words:
                            yield s.lineno, s.value, f"{named[0]} compared with it"
        elif isinstance(node, ast.Match):
            subject = _name(node.subject)
            if subject and VOCABULARY_NAME.search(subject):
                for case in node.cases:
                    for s in _strings(case.pattern):
                        if s.value in words:
                            yield s.lineno, s.value, f"case of {subject}"
        elif isinstance(node, ast.arguments):
            positional = [*node.posonlyargs, *node.args]
            pairs = list(zip(positional[len(positional) - len(node.defaults) :], node.defaults))
            pairs += [(a, d) for a, d in zip(node.kwonlyargs, node.kw_defaults) if d is not None]
            for arg, default in pairs:
                if VOCABULARY_NAME.search(arg.arg):
                    for s in _strings(default):
                        if s.value in words:
                            yield s.lineno, s.value, f"default of {arg.arg}"


def test_no_vocabulary_word_is_compared_bare() -> None:
    modules = list(_modules())
    words = enum_words(modules)
    found = [
        f"{path.relative_to(ROOT)}:{line}: {word!r} ({', '.join(words[word])}) {what}"
        for path, tree in modules
        for line, word, what in bare_words(tree, words)
    ]
    assert not found, "use the enum member:\n" + "\n".join(found)


def test_the_scan_knows_the_vocabularies() -> None:
    words = enum_words(list(_modules()))
    # a word of each kind of vocabulary, with the enum that holds it
    assert "Mode" in words["layout"]
    assert "DecisionKind" in words["word_gap"]
    assert "WordGapVerdict" in words["below_threshold"]
    assert "LayerVerdict" in words["cannot_tell"]
    assert "RunKind" in words["space"] and "DifferenceKind" in words["glued"]
    assert "AnnotationText" in words["exclude"]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('if mode == "layout": pass', [(1, "layout", "mode compared with it")]),
        ('x = d.kind in ("word_gap", "other")', [(1, "word_gap", "kind compared with it")]),
        ('match self.verdict:\n    case "cannot_tell": pass', [(2, "cannot_tell", "case of verdict")]),
        ('def f(mode: str = "plain"): pass', [(1, "plain", "default of mode")]),
        ('def f(*, order="articles"): pass', [(1, "articles", "default of order")]),
        ('if role == "annotation": pass', []),  # not a vocabulary's name
        ("if mode == Mode.LAYOUT: pass", []),  # the member
        ('if mode == "free-form": pass', []),  # not a word of any enum
    ],
)
def test_the_scan_finds_bare_words(source: str, expected: list[tuple[int, str, str]]) -> None:
    words = {"layout": ["Mode"], "plain": ["Mode"], "articles": ["Mode"], "word_gap": ["DecisionKind"]}
    words |= {"cannot_tell": ["LayerVerdict"], "annotation": ["DecisionKind"]}
    assert list(bare_words(ast.parse(source), words)) == expected
