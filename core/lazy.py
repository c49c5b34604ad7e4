"""Names a module hands on but imports on first use (PEP 562), so importing it stays cheap.

One mechanism for every such module (`glyphscope`, `glyphscope.core`, `core.assembly`,
`core.visibility`): the module keeps a table name → the module that defines it, and its
`__getattr__` asks `lazy_names`' function, which imports that module once and then stores the
value on the asking module, so later reads are plain attribute reads.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_names(module: str, table: Mapping[str, str]) -> Callable[[str], object]:
    """The `__getattr__` body of `module` for the names of `table` (name → defining module)."""

    def find(name: str) -> object:
        source = table.get(name)
        if source is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        setattr(sys.modules[module], name, value)  # found once: later reads are plain attribute reads
        return value

    return find
