"""Dump the JSON of every corpus page's glyphs and decisions, to diff before/after an engine change.

    python benchmarks/dump_page_json.py OUT_DIR [--merged FILE]
    diff -r BEFORE_DIR AFTER_DIR

One file per corpus file: for each page, `glyphs --set all --json`'s rows and the
decisions (with their sentences) and text of every text mode, as the command line
writes them: a refactoring must leave every file unchanged.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402
from glyphscope.core.assembly import MODES  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.core.params import DEFAULT_PARAMETERS  # noqa: E402
from glyphscope.core.passes import classify  # noqa: E402
from glyphscope.core.serialize import write_glyphs_json  # noqa: E402
from glyphscope.core.textops import page_decisions_json  # noqa: E402


def dump(path: Path, password: str | None, out: Path) -> int:
    doc = open_document(path, password=password)
    pages = []
    for n in range(1, doc.page_count + 1):
        page = doc.interpret(n)
        buf = io.BytesIO()
        write_glyphs_json(
            buf,
            str(path.name),
            page,
            classify(page, DEFAULT_PARAMETERS),
            "all",
            DEFAULT_PARAMETERS.to_json(),
            doc.warnings,
        )
        entry = {"page": n, "glyphs": json.loads(buf.getvalue())}
        for mode in MODES:
            entry[mode] = page_decisions_json(doc, n, mode)
        pages.append(entry)
    out.write_text(json.dumps(pages, ensure_ascii=False, indent=1, sort_keys=True))
    return len(pages)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    total = 0
    for path, password in corpus_files():
        total += dump(path, password, args.out / (path.name + ".json"))
    print(f"{total} pages dumped to {args.out}")


if __name__ == "__main__":
    main()
