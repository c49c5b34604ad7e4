"""Word recall of annotation text: glyphscope's plain text against pdftotext's (and MuPDF's) words,
with annotations left out (as before they were read) and included, on every corpus file whose
pages have annotations with appearances.

    python benchmarks/bench_annotation_recall.py [CORPUS_DIR]

Words are compared as a bag (punctuation either side stripped); the reference is the words
pdftotext and mutool both give where mutool is installed, else pdftotext's.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402
from glyphscope.core.analysis import analyze_page  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.core.params import Parameters  # noqa: E402


def words(text: str) -> set[str]:
    stripped = (w.strip(".,:;()[]\"'") for w in text.split())
    return {w for w in stripped if any(c.isalnum() for c in w)}


def engine_words(argv: list[str]) -> set[str]:
    done = subprocess.run(argv, capture_output=True, timeout=60)
    return words(done.stdout.decode("utf-8", "replace")) if done.returncode == 0 else set()


def main() -> None:
    mutool = shutil.which("mutool") is not None
    total = {"ref": 0, "before": 0, "after": 0}
    print(f"{'file':50} {'page':>4} {'ref':>5} {'before':>8} {'after':>8}")
    for path, password in corpus_files():
        doc = open_document(path, password=password)
        for n in range(1, doc.page_count + 1):
            page = doc.interpret(n)
            if not any(a.skip is None for a in page.annotations):
                continue
            ref = engine_words(["pdftotext", "-f", str(n), "-l", str(n), str(path), "-"])
            if mutool:
                ref &= engine_words(["mutool", "draw", "-q", "-F", "txt", "-o", "-", str(path), str(n)])
            if not ref:
                continue
            before = words(analyze_page(doc, n, Parameters(annotations="exclude")).texts["plain"].text)
            after = words(analyze_page(doc, n).texts["plain"].text)
            b, a = len(ref & before), len(ref & after)
            total["ref"] += len(ref)
            total["before"] += b
            total["after"] += a
            print(f"{path.name[:50]:50} {n:>4} {len(ref):>5} {b / len(ref):>8.1%} {a / len(ref):>8.1%}")
    if total["ref"]:
        r = total["ref"]
        print(f"{'all':50} {'':>4} {r:>5} {total['before'] / r:>8.1%} {total['after'] / r:>8.1%}")


if __name__ == "__main__":
    main()
