"""Faster construction for frozen, slotted dataclass records built by the hundred thousand.

A frozen dataclass's generated ``__init__`` assigns each field through
``object.__setattr__`` (to get past the frozen ``__setattr__``); for a glyph
record with 26 fields that is most of the interpreter's per-glyph cost. The
slot descriptors' own ``__set__`` does the same job without the lookup, so
``fast_init`` swaps in an ``__init__`` built from them. Frozenness after
construction, equality, repr and pickling are the dataclass's, unchanged.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if any(f.default_factory is not dataclasses.MISSING for f in fields):
        raise TypeError(f"{cls.__name__}: fast_init does not support default_factory")
    namespace: dict[str, Any] = {}
    params = []
    body = []
    for f in fields:
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(source, namespace)  # noqa: S102 — generated from the dataclass's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc,method-assign]
    return cls
