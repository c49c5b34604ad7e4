"""A user's script against glyphscope's public API, type-checked in CI (.ci/typecheck runs
mypy --strict --disallow-any-expr on it): if an export lost its type, this stops checking.

    python examples/typed_use.py [file.pdf]
"""

from __future__ import annotations

import sys
from pathlib import Path

import glyphscope


def summarise(path: Path) -> list[str]:
    out: list[str] = []
    with glyphscope.open(path) as doc:
        out.append(f"{path.name}: {len(doc.pages)} pages")
        for page in doc.pages[:3]:  # indexed from 0 like a list; page_number counts from 1
            words: tuple[glyphscope.Word, ...] = page.words
            out.append(
                f"page {page.page_number}: {page.width:.0f} × {page.height:.0f} pt, {len(words)} words"
            )
            if words:
                first = words[0]
                out.append(f"  first word {first.text!r} at x0={first.x0:.1f} top={first.top:.1f}")
            top_half = page.crop((0.0, 0.0, page.width, page.height / 2))
            out.append("  top half: " + top_half.extract_text().replace("\n", " ")[:60])
            gaps = [d for d in page.decisions("plain") if d.kind == "word_gap" and d.verdict == "inserted"]
            out.append(f"  {len(gaps)} spaces inserted by the word-gap rule")
            table = page.find_table({"vertical_strategy": "lines", "snap_tolerance": 3})
            if table is not None:
                rows: list[list[str | None]] = table.extract()
                x0, top, x1, bottom = table.bbox
                out.append(
                    f"  a table of {len(table.cells)} cells, {len(rows)} rows, at x0={x0:.1f} top={top:.1f}"
                )
    # The engine's entry points, typed as themselves
    doc2: glyphscope.Document = glyphscope.open_document(path)
    analysis: glyphscope.PageAnalysis = glyphscope.analyze_page(doc2, 1)
    out.append(f"page 1 plain text has {len(analysis.texts['plain'].text or '')} characters")
    doc2.close()
    return out


if __name__ == "__main__":
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else glyphscope.demo_pdf()
    print("\n".join(summarise(source)))
