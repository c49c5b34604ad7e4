"""What tracking visibility costs: interpretation with and without it, every corpus page.

The interpreter tracks the clip, the fill colour and alpha and the paint objects unless
`glyphscope.core.recorders.TRACK_VISIBILITY` is off (then those operators are ignored as
before). Each page is interpreted both ways, best of 5, alternating, with the document's
font cache warm and the garbage collector paused as `Document.interpret` does; the visibility pass itself (core/visibility.py, run by `classify`) is timed
on the tracked pages. Budget: tracking ≤ 15 % of interpretation time over the corpus.

    .venv/bin/python benchmarks/bench_visibility.py [--repeat 3] [--verbose]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import corpus_files  # noqa: E402

import glyphscope.core.recorders as recorders  # noqa: E402
from glyphscope.core.document import open_document  # noqa: E402
from glyphscope.core.gcpause import gc_paused  # noqa: E402
from glyphscope.core.params import DEFAULT_PARAMETERS  # noqa: E402
from glyphscope.core.visibility import classify_visibility  # noqa: E402

BUDGET = 0.15


def _time_interpret(doc, n: int, track: bool, repeat: int) -> tuple[float, object]:
    recorders.TRACK_VISIBILITY = track
    best, page = float("inf"), None
    page_obj = doc._page_obj(n)
    for _ in range(repeat):
        with gc_paused():  # as Document.interpret runs it
            start = time.perf_counter()
            page = doc._interpret(page_obj, n)
            best = min(best, time.perf_counter() - start)
    return best, page


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--verbose", action="store_true", help="one line per page")
    args = ap.parse_args()
    total_off = total_on = total_pass = 0.0
    pages = hidden = glyphs = clips = paints = 0
    worst: tuple[float, str] = (0.0, "")
    try:
        for path, password in corpus_files():
            try:
                doc = open_document(path, password)
            except Exception as exc:  # a corpus file that does not open is not this benchmark's concern
                print(f"{path.name}: skipped ({type(exc).__name__})", file=sys.stderr)
                continue
            for n in range(1, doc.page_count + 1):
                doc._interpret(doc._page_obj(n), n)  # warm the font cache (every page: shared fonts)
            for n in range(1, doc.page_count + 1):
                off = on = float("inf")
                page = None
                for _ in range(args.repeat):  # alternate: a busy machine disturbs both alike
                    t_off, _ = _time_interpret(doc, n, False, 1)
                    t_on, page = _time_interpret(doc, n, True, 1)
                    off, on = min(off, t_off), min(on, t_on)
                start = time.perf_counter()
                vis = classify_visibility(page, DEFAULT_PARAMETERS)  # type: ignore[arg-type]
                spent = time.perf_counter() - start
                total_off += off
                total_on += on
                total_pass += spent
                pages += 1
                glyphs += len(page.glyphs)  # type: ignore[attr-defined]
                clips += len(page.clips)  # type: ignore[attr-defined]
                paints += len(page.paints)  # type: ignore[attr-defined]
                hidden += len(vis.records)
                ratio = on / off if off > 0 else 1.0
                if off > 0.005 and ratio - 1 > worst[0]:
                    worst = (ratio - 1, f"{path.name} p{n}")
                if args.verbose:
                    print(
                        f"{path.name} p{n}\t{off * 1e3:8.2f} ms\t{on * 1e3:8.2f} ms\t{ratio:5.2f}\t{spent * 1e3:6.2f} ms"
                    )
    finally:
        recorders.TRACK_VISIBILITY = True
    if not pages:
        raise SystemExit("no page interpreted")
    overhead = total_on / total_off - 1
    print(
        f"pages {pages}, glyphs {glyphs:,}, clip records {clips:,}, paint objects {paints:,}, hidden glyphs {hidden:,}"
    )
    print(f"interpretation without tracking  {total_off:8.3f} s")
    print(
        f"interpretation with tracking     {total_on:8.3f} s   ratio {total_on / total_off:.3f} ({overhead:+.1%})"
    )
    print(
        f"visibility pass (classify)       {total_pass:8.3f} s   ({total_pass / total_off:.1%} of interpretation)"
    )
    if worst[1]:
        print(f"worst page (> 5 ms): {worst[1]} {worst[0]:+.1%}")
    verdict = "within" if overhead <= BUDGET else "OVER"
    print(f"{verdict} the budget of {BUDGET:.0%}")


if __name__ == "__main__":
    main()
