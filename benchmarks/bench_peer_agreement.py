"""Word agreement (bag and order) of plain and auto with pdftotext and MuPDF, file by file.

    python benchmarks/bench_peer_agreement.py --json AFTER.json
    python benchmarks/bench_peer_agreement.py --compare BEFORE.json AFTER.json

The first form reads every corpus page with this checkout's engine and with the peers
(`pdftotext`, `mutool draw -F txt`, pdfminer.six) and writes per-page scores. Run it from
two checkouts (before / after a change) and `--compare` prints both side by side: means per
mode and peer, the pages whose order changed, pages where the peers agree on the order
(auto must not read worse than plain there), and the files where glyphscope agrees with
pdftotext less than pdfminer.six does.

bag = 2·|common words| / (|ours| + |theirs|) over the word multisets; order = the
longest-common-subsequence ratio of the word sequences (difflib).
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402
from benchmarks.bench_text_quality import agreement, ordered, pdfminer_pages, pdftotext_pages, words  # noqa: E402
from glyphscope.core.analysis import analyze_page  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402

MODES = ("plain", "auto")
AGREE = 0.9
"""pdftotext and MuPDF "agree on the order" of a page when their order score reaches this."""


def mutool_pages(path: Path, password: str | None, pages: int) -> list[str] | None:
    if not shutil.which("mutool"):
        return None
    cmd = ["mutool", "draw", "-q", "-F", "txt", "-o", "-"] + (["-p", password] if password else [])
    out = subprocess.run([*cmd, str(path)], capture_output=True, timeout=120)
    if out.returncode != 0:
        return None
    texts = out.stdout.decode("utf-8", "replace").split("\f")
    return (texts + [""] * pages)[:pages]


def measure() -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for path, password in corpus_files():
        doc = open_document(path, password)
        n = doc.page_count
        peers = {
            "pdftotext": pdftotext_pages(path, password, n),
            "mutool": mutool_pages(path, password, n),
            "pdfminer": pdfminer_pages(path, password, n),
        }
        for page in range(1, n + 1):
            analysis = analyze_page(doc, page)
            ours = {mode: words(analysis.texts[mode].text or "") for mode in MODES}
            row: dict[str, Any] = {"auto_order": analysis.texts["auto"].order}
            theirs = {peer: words(texts[page - 1]) for peer, texts in peers.items() if texts is not None}
            for peer in ("pdftotext", "mutool"):
                if peer not in theirs:
                    continue
                for mode, w in ours.items():
                    row[f"{mode}/{peer}"] = (agreement(w, theirs[peer]), ordered(w, theirs[peer]))
            if "pdftotext" in theirs and "pdfminer" in theirs:
                row["pdfminer/pdftotext"] = (
                    agreement(theirs["pdfminer"], theirs["pdftotext"]),
                    ordered(theirs["pdfminer"], theirs["pdftotext"]),
                )
            if "pdftotext" in theirs and "mutool" in theirs:
                row["peers_order"] = ordered(theirs["pdftotext"], theirs["mutool"])
            rows[f"{path.name}#{page}"] = row
        doc.close()
    return rows


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def compare(before: dict[str, Any], after: dict[str, Any]) -> None:
    keys = sorted(set(before) & set(after))
    print(f"{len(keys)} pages")
    print(f"{'score':22} {'bag before':>10} {'bag after':>10} {'order before':>12} {'order after':>12}")
    for peer in ("pdftotext", "mutool"):
        for mode in MODES:
            k = f"{mode}/{peer}"
            sel = [p for p in keys if k in before[p] and k in after[p]]
            bb = _mean([before[p][k][0] for p in sel])
            ba = _mean([after[p][k][0] for p in sel])
            ob = _mean([before[p][k][1] for p in sel])
            oa = _mean([after[p][k][1] for p in sel])
            print(f"{k:22} {bb:10.4f} {ba:10.4f} {ob:12.4f} {oa:12.4f}  ({len(sel)} pages)")
    print("\npages whose scores changed (plain / auto vs pdftotext and MuPDF: bag, order):")
    for p in keys:
        changed = [
            k for k in after[p] if k.startswith(("plain/", "auto/")) and before[p].get(k) != after[p].get(k)
        ]
        if changed or before[p].get("auto_order") != after[p].get("auto_order"):
            parts = [
                f"{k} {before[p][k][0]:.2f}/{before[p][k][1]:.2f}→{after[p][k][0]:.2f}/{after[p][k][1]:.2f}"
                for k in sorted(changed)
            ]
            print(
                f"  {p}: auto {before[p].get('auto_order')}→{after[p].get('auto_order')}; " + "; ".join(parts)
            )
    agree = [p for p in keys if after[p].get("peers_order", 0.0) >= AGREE]
    worse = [
        p
        for p in agree
        for peer in ("pdftotext", "mutool")
        if f"auto/{peer}" in after[p] and after[p][f"auto/{peer}"][1] < before[p][f"plain/{peer}"][1] - 1e-9
    ]
    print(f"\npages where pdftotext and MuPDF agree on the order (≥ {AGREE}): {len(agree)}")
    print(f"  auto after reads worse in order than plain before on: {sorted(set(worse)) or 'none'}")
    for label, data in (("before", before), ("after", after)):
        files: dict[str, list[tuple[float, float]]] = {}
        for p, row in data.items():
            if "plain/pdftotext" in row and "pdfminer/pdftotext" in row:
                files.setdefault(p.split("#")[0], []).append(
                    (row["plain/pdftotext"][0], row["pdfminer/pdftotext"][0])
                )
        below = {
            f: (_mean([a for a, _ in v]), _mean([b for _, b in v]))
            for f, v in files.items()
            if _mean([a for a, _ in v]) < _mean([b for _, b in v]) - 1e-9
        }
        print(
            f"\n{label}: files where plain agrees with pdftotext (bag) less than pdfminer.six does: {len(below)}"
        )
        for f, (ours, theirs) in sorted(below.items()):
            print(f"  {f}: glyphscope {ours:.3f} < pdfminer.six {theirs:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", type=Path, help="measure this checkout and write the per-page scores here")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        compare(before, after)
        return
    if args.json is None:
        ap.error("give --json OUT or --compare BEFORE AFTER")
    warnings.simplefilter("ignore")
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    args.json.write_text(json.dumps(measure(), ensure_ascii=False), encoding="utf-8")
    print(f"written {args.json}")


if __name__ == "__main__":
    main()
