"""Word agreement (bag and order) of layout and columns with `pdftotext -layout` and MuPDF,
before and after, from two page dumps.

    python benchmarks/dump_page_json.py AFTER_DIR          # this checkout
    python benchmarks/bench_layout_agreement.py BEFORE_DIR AFTER_DIR

BEFORE_DIR is a dump made the same way from the other checkout. Both dumps are scored in one
run against the same peer texts: means per mode and peer over the pages of the corpus, then
every page whose score changed. bag and order as in bench_peer_agreement.py.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402
from benchmarks.bench_text_quality import agreement, ordered, words  # noqa: E402

MODES = ("layout", "columns")


def _pages(cmd: list[str]) -> list[str] | None:
    if not shutil.which(cmd[0]):
        return None
    out = subprocess.run(cmd, capture_output=True, timeout=120)
    return out.stdout.decode("utf-8", "replace").split("\f") if out.returncode == 0 else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    args = ap.parse_args()
    rows: dict[tuple[str, str], list[tuple[str, float, float, float, float]]] = {}
    for path, password in corpus_files():
        name = f"{path.name}.json"
        if not (args.before / name).exists() or not (args.after / name).exists():
            continue
        before = json.loads((args.before / name).read_text(encoding="utf-8"))
        after = json.loads((args.after / name).read_text(encoding="utf-8"))
        peers = {
            "pdftotext -layout": _pages(
                [
                    "pdftotext",
                    "-layout",
                    "-enc",
                    "UTF-8",
                    *(["-upw", password] if password else []),
                    str(path),
                    "-",
                ]
            ),
            "MuPDF": _pages(
                [
                    "mutool",
                    "draw",
                    "-q",
                    "-F",
                    "txt",
                    "-o",
                    "-",
                    *(["-p", password] if password else []),
                    str(path),
                ]
            ),
        }
        for i, (b, a) in enumerate(zip(before, after)):
            for peer, texts in peers.items():
                if texts is None or i >= len(texts):
                    continue
                theirs = words(texts[i])
                for mode in MODES:
                    wb, wa = words(b[mode]["text"] or ""), words(a[mode]["text"] or "")
                    rows.setdefault((mode, peer), []).append(
                        (
                            f"{path.name}#{i + 1}",
                            agreement(wb, theirs),
                            agreement(wa, theirs),
                            ordered(wb, theirs),
                            ordered(wa, theirs),
                        )
                    )
    for (mode, peer), values in rows.items():
        n = len(values)
        means = [sum(v[k] for v in values) / n for k in (1, 2, 3, 4)]
        print(
            f"{mode:8} / {peer:18} {n} pages: bag {means[0]:.4f} → {means[1]:.4f}, order {means[2]:.4f} → {means[3]:.4f}"
        )
        for p, bb, ba, ob, oa in values:
            if bb != ba or ob != oa:
                print(f"    {p}: bag {bb:.3f} → {ba:.3f}, order {ob:.3f} → {oa:.3f}")


if __name__ == "__main__":
    main()
