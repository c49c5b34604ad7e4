"""Rows as a stream: the `--jsonl` file (one row per line, appended as files finish) read back.

A JSONL file written by an interrupted run ends with complete lines only
(each row is written and flushed whole), but a killed process may leave a
partial last line: it is ignored, so that file is simply triaged again.
When a file appears twice (its content changed between runs), the later
line wins.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from glyphscope.core.triage.rows import TriageRow

ABSENT = object()  # `load_done(...).get(path, ABSENT)`: not in the file at all


def iter_jsonl(path: str | Path) -> Iterator[dict[str, object]]:
    """The row objects of a JSONL file, skipping blank and unparsable lines."""
    if not Path(path).is_file():
        return
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                continue  # a line cut short by a kill: the file is triaged again
            if isinstance(obj, dict) and isinstance(obj.get("file"), str):
                yield obj


def load_done(path: str | Path) -> dict[str, str | None]:
    """file -> content SHA-256 (None when the file could not be read) of every row in the JSONL file."""
    done: dict[str, str | None] = {}
    for obj in iter_jsonl(path):
        digest = obj.get("sha256")
        done[str(obj["file"])] = digest if isinstance(digest, str) else None
    return done


def read_rows(path: str | Path) -> list[TriageRow]:
    """Every row of a JSONL file (the later of two rows of one file wins)."""
    rows: dict[str, TriageRow] = {}
    for obj in iter_jsonl(path):
        rows[str(obj["file"])] = TriageRow.from_json(obj)
    return list(rows.values())
