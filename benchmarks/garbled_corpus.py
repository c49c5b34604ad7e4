"""Count `garbled_text` findings over the corpus, per file, with each verdict's numbers.

    python benchmarks/garbled_corpus.py [--all]

`--all` prints every judged font's verdict (score, shares), not only the flagged ones: the
margin between clean text and the thresholds of core/garbled.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402
from glyphscope.core.analysis import analyze_page  # noqa: E402
from glyphscope.core.diagnostics import DiagnosticKind  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402


def main() -> None:
    show_all = "--all" in sys.argv
    total = 0
    for path, password in corpus_files():
        flags = 0
        with open_document(path, password=password) as doc:
            for n in range(1, doc.page_count + 1):
                analysis = analyze_page(doc, n)
                for d in analysis.findings:
                    if d.kind is DiagnosticKind.GARBLED_TEXT:
                        flags += 1
                        print(f"  {path.name} p{n}: {d.message}")
                if show_all:
                    for fid, v in analysis.fonts.verdicts.items():
                        if v.glyphs >= 20:
                            print(
                                f"    {path.name} p{n} {fid}: score {v.score:.2f} susp {v.suspicious_share:.2f} "
                                f"impr {v.improbable_share:.2f} ({v.words} words) {v.examples}"
                            )
        total += flags
        print(f"{path.name}: {flags}")
    print(f"total garbled_text findings: {total}")


if __name__ == "__main__":
    main()
