"""The customer's text as an engine, measured: causes over the corpus, and what compare --text costs.

    python benchmarks/bench_their_text.py [--pages 10] [--sample OUT.jsonl] [--repeat 3]

"Their text" is pdfminer.six's `extract_text` and pdftotext's output of each corpus
file (made here, first `--pages` pages, form feeds between pages). Each is compared
with glyphscope's plain text as `glyphscope compare FILE --text` does, and the
differences are counted by cause: the share not `unexplained` is the figure
(target ≥ 80 %). `--sample` writes every difference (file, page, engine, kind,
cause, both texts, sentence) for checking by hand.

Speed: for the same pages, glyphscope's plain text alone (what `glyphscope text`
computes) against the whole of compare --text (analysis, decisions, alignment,
causes); target: compare adds at most 20 %.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.inspector.compare.compared_page import compare_their_document  # noqa: E402
from glyphscope.inspector.compare.theirs import TheirText  # noqa: E402


def pdfminer_text(path: Path, password: str | None, pages: int) -> str:
    from pdfminer.high_level import extract_text

    return str(extract_text(str(path), password=password or "", maxpages=pages))


def pdftotext_text(path: Path, password: str | None, pages: int) -> str | None:
    if shutil.which("pdftotext") is None:
        return None
    pw = ["-upw", password] if password else []
    proc = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", "-l", str(pages), *pw, str(path), "-"],
        capture_output=True,
        timeout=120,
        check=False,
    )
    return proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--sample", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    causes: dict[str, Counter[str]] = {"pdfminer": Counter(), "pdftotext": Counter()}
    sample = args.sample.open("w", encoding="utf-8") if args.sample else None
    t_text = t_compare = 0.0
    c_text = c_compare = 0.0  # processor time: what another user of the machine does not change
    n_pages = 0
    for path, password in corpus_files():
        try:
            doc = open_document(path, password)
        except Exception as exc:  # noqa: BLE001 - a corpus file that does not open is reported, not fatal
            print(f"{path.name}: {exc}")
            continue
        pages = list(range(1, min(doc.page_count, args.pages) + 1))
        texts = {
            "pdfminer": pdfminer_text(path, password, args.pages),
            "pdftotext": pdftotext_text(path, password, args.pages),
        }
        for engine, text in texts.items():
            if text is None:
                continue
            result = compare_their_document(doc, TheirText(text, engine, engine), pages)
            for p in result.pages:
                for e in p.engines:
                    for d in e.differences:
                        causes[engine][d.cause] += 1
                        if sample is not None:
                            al = e.alignment
                            assert al is not None
                            sample.write(
                                json.dumps(
                                    {
                                        "file": path.name,
                                        "page": p.page_number,
                                        "engine": engine,
                                        "kind": d.public_kind,
                                        "cause": d.cause,
                                        "theirs": al.their_text[d.run.their_start : d.run.their_end],
                                        "ours": al.our_text[d.run.our_start : d.run.our_end],
                                        "sentence": d.sentence,
                                    },
                                    ensure_ascii=False,
                                )
                                + "\n"
                            )
        text = texts["pdftotext"] or texts["pdfminer"] or ""
        best_text = best_compare = float("inf")
        cpu_text = cpu_compare = float("inf")
        for _ in range(args.repeat):
            fresh = open_document(path, password)
            start, cpu = time.perf_counter(), time.process_time()
            from glyphscope.core.analysis import document_texts

            for _n, _t in document_texts(fresh, pages, "plain", on_error=lambda n, exc: None):
                pass
            best_text = min(best_text, time.perf_counter() - start)
            cpu_text = min(cpu_text, time.process_time() - cpu)
            fresh = open_document(path, password)
            start, cpu = time.perf_counter(), time.process_time()
            compare_their_document(fresh, TheirText(text, "bench", "bench"), pages)
            best_compare = min(best_compare, time.perf_counter() - start)
            cpu_compare = min(cpu_compare, time.process_time() - cpu)
        t_text += best_text
        t_compare += best_compare
        c_text += cpu_text
        c_compare += cpu_compare
        n_pages += len(pages)
    if sample is not None:
        sample.close()
    for engine, counter in causes.items():
        total = sum(counter.values())
        explained = 1.0 - counter["unexplained"] / total if total else float("nan")
        print(f"{engine}: {total} differences, {100 * explained:.1f} % explained")
        for cause, k in counter.most_common():
            print(f"  {cause:14s} {k:6d}")
    print(
        f"speed over {n_pages} pages: text {t_text:.2f} s, compare --text {t_compare:.2f} s "
        f"(+{100 * (t_compare / t_text - 1):.1f} %); processor time: text {c_text:.2f} s, compare --text "
        f"{c_compare:.2f} s (+{100 * (c_compare / c_text - 1):.1f} %)"
    )


if __name__ == "__main__":
    main()
