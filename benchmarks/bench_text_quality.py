"""Word-level agreement of every glyphscope mode with pdftotext and pdfminer.six, page by page.

    python benchmarks/bench_text_quality.py [--worst 15]

Pages where structure mode finds no usable structure are left out of that
mode's rows (its count says on how many pages it applied).

Agreement = 2·|common words| / (|ours| + |theirs|) over the multiset of
whitespace-separated words (order-free, so it measures word boundaries and
decoding, not reading order; `ordered` adds a reading-order score from the
longest common subsequence ratio). Prints per-mode means and the worst
pages, which are where to look with the inspector.
"""

from __future__ import annotations

import argparse
import difflib
import logging
import shutil
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402
from glyphscope.core.assembly import MODES  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.core.textops import page_text  # noqa: E402


def words(text: str) -> list[str]:
    return text.replace("\x00", " ").split()


def agreement(a: list[str], b: list[str]) -> float:
    if not a and not b:
        return 1.0
    common = sum((Counter(a) & Counter(b)).values())
    return 2 * common / (len(a) + len(b))


def ordered(a: list[str], b: list[str]) -> float:
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def pdftotext_pages(path: Path, password: str | None, pages: int) -> list[str] | None:
    if not shutil.which("pdftotext"):
        return None
    cmd = ["pdftotext", "-enc", "UTF-8"]
    if password:
        cmd += ["-upw", password]
    out = subprocess.run([*cmd, str(path), "-"], capture_output=True, timeout=120)
    if out.returncode != 0:
        return None
    texts = out.stdout.decode("utf-8", "replace").split("\f")
    return (texts + [""] * pages)[:pages]


def pdfminer_pages(path: Path, password: str | None, pages: int) -> list[str] | None:
    from pdfminer.high_level import extract_text

    try:
        texts = extract_text(str(path), password=password or "").split("\f")
    except Exception:  # noqa: BLE001 — the peer failing is reported as "no reference"
        return None
    return (texts + [""] * pages)[:pages]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--worst", type=int, default=15)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    rows = []  # (peer, mode, file, page, bag, order)
    for path, password in corpus_files():
        doc = open_document(path, password)
        refs = {
            "pdftotext": pdftotext_pages(path, password, doc.page_count),
            "pdfminer.six": pdfminer_pages(path, password, doc.page_count),
        }
        for n in range(1, doc.page_count + 1):
            texts = {mode: page_text(doc, n, mode).text for mode in MODES}
            # structure mode has no text on pages without usable structure: not a disagreement
            ours = {mode: words(t) for mode, t in texts.items() if t is not None}
            for peer, texts in refs.items():
                if texts is None:
                    continue
                theirs = words(texts[n - 1])
                if not theirs and not any(ours.values()):
                    continue
                for mode, w in ours.items():
                    rows.append((peer, mode, path.name, n, agreement(w, theirs), ordered(w, theirs)))
        doc.close()
    print(f"{'peer':13} {'mode':10} {'pages':>5} {'words':>7} {'order':>7}")
    for peer in ("pdftotext", "pdfminer.six"):
        for mode in MODES:
            sel = [r for r in rows if r[0] == peer and r[1] == mode]
            if sel:
                bag = sum(r[4] for r in sel) / len(sel)
                order = sum(r[5] for r in sel) / len(sel)
                print(f"{peer:13} {mode:10} {len(sel):5} {bag:7.1%} {order:7.1%}")
    print(f"\nworst pages (plain mode vs pdftotext, by word agreement), {args.worst}:")
    plain = sorted((r for r in rows if r[0] == "pdftotext" and r[1] == "plain"), key=lambda r: r[4])
    for _, _, name, n, bag, order in plain[: args.worst]:
        print(f"  {bag:6.1%} words {order:6.1%} order  {name} p{n}")


if __name__ == "__main__":
    main()
