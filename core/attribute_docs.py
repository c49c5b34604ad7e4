"""The attribute docstrings of a record class (`Parameters`, `Limits`).

Python does not keep a docstring written under a dataclass field, so the source is
read once: the Tuning panel and the budgets dialog show the same words as the code.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from functools import cache


@cache
def attribute_docs(cls: type) -> dict[str, str]:
    """{field name: its docstring, whitespace folded}; {} when the source is not available."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):
        return {}
    docs: dict[str, str] = {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    for node, following in zip(body, body[1:]):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[node.target.id] = " ".join(following.value.value.split())
    return docs
