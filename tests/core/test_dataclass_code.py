"""core/dataclass_code.py: the methods `@dataclass` writes come from a table compiled with the package,
and a class made through the table is the class `exec` would have made."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from types import CodeType

import pytest

from glyphscope.core import dataclass_code
from glyphscope.core.dataclass_code_table import CODE, PYTHON

REPO = Path(__file__).resolve().parents[2]


def _shape(code: CodeType) -> tuple[object, ...]:
    """What a code object does, without where its text was (file name, line numbers)."""
    return (
        code.co_name,
        code.co_code,
        tuple(_shape(c) if isinstance(c, CodeType) else c for c in code.co_consts),
        code.co_names,
        code.co_varnames,
        code.co_freevars,
        code.co_cellvars,
        code.co_argcount,
        code.co_posonlyargcount,
        code.co_kwonlyargcount,
        code.co_flags,
    )


def test_each_compiled_function_is_its_text_compiled() -> None:
    assert len(CODE) > 300
    for text, code in CODE.items():
        namespace: dict[str, object] = {}
        exec(compile(text, "<string>", "exec", dont_inherit=True), {}, namespace)  # as dataclasses' exec
        made = namespace["__create_fn__"]
        assert isinstance(made, type(_shape)), text
        assert _shape(made.__code__) == _shape(code), text


FINGERPRINT = """
import dataclasses, inspect, json, sys
from types import CodeType

import pytest
if sys.argv[1] == "table":
    from glyphscope.core import dataclass_code
    dataclass_code.install_compiled_methods()
from glyphscope.core.dataclass_code import TABLE_MODULES
import importlib

def shape(code):
    return [code.co_name, code.co_code.hex(), code.co_names, code.co_varnames, code.co_freevars,
            [shape(c) if isinstance(c, CodeType) else repr(c) for c in code.co_consts]]

out = {}
for name in TABLE_MODULES:
    module = importlib.import_module(name)
    for key, cls in sorted(vars(module).items()):
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == name:
            methods = {}
            for attr, value in sorted(vars(cls).items()):
                fn = getattr(value, "__wrapped__", value)
                code = getattr(fn, "__code__", None)
                if code is not None:
                    methods[attr] = [fn.__qualname__, repr(fn.__defaults__), sorted(fn.__globals__) == sorted(vars(module)), shape(code)]
            out[f"{name}.{key}"] = [methods, repr(cls.__slots__), repr(cls.__doc__), repr(cls.__match_args__), [f.name for f in dataclasses.fields(cls)]]
compiled = sys.modules.get("glyphscope.core.dataclass_code")
out["compiled"] = sorted({m for m in getattr(compiled, "compiled", []) if m.startswith("glyphscope")})
print(json.dumps(out))
"""


def _fingerprint(how: str) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", FINGERPRINT, how], cwd=REPO, capture_output=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr.decode()
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def test_classes_made_through_the_table_are_the_classes_exec_makes_and_none_is_compiled() -> None:
    if sys.version_info[:2] != PYTHON:
        pytest.skip(f"the table holds Python {PYTHON[0]}.{PYTHON[1]}'s texts; this Python's miss it")
    table, plain = _fingerprint("table"), _fingerprint("exec")
    # the table is current: every text of these modules' records is in it (after a change to a
    # record of TABLE_MODULES, regenerate: python -m glyphscope.core.dataclass_code)
    assert table.pop("compiled") == [], "stale table: python -m glyphscope.core.dataclass_code"
    plain.pop("compiled")
    assert len(table) > 60
    assert table == plain


def test_a_text_not_in_the_table_is_compiled_as_always() -> None:
    dataclass_code.install_compiled_methods()
    try:
        before = len(dataclass_code.compiled)

        @dataclasses.dataclass(frozen=True, slots=True)
        class Point:
            """A user's record, not in the table."""

            x_never_in_the_table: float
            y: float = 2.0

        assert dataclass_code.compiled[before:] == [__name__] * 6  # init repr eq hash setattr delattr
        p = Point(1.0)
        assert (repr(p), p == Point(1.0, 2.0), hash(p) == hash(Point(1.0))) == (
            "test_a_text_not_in_the_table_is_compiled_as_always.<locals>.Point(x_never_in_the_table=1.0, y=2.0)",
            True,
            True,
        )
    finally:
        dataclass_code.uninstall_compiled_methods()
    assert "exec" not in vars(dataclasses)
