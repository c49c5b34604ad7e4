"""glyphscope's chars beside pdfplumber's over the corpus: how many match, and why the rest do not.

    python benchmarks/plumber_parity.py [--tolerance 0.5] [--examples 3]

Both read every page of every corpus file that pdfplumber opens; glyphscope in pdfplumber's
frame (`glyphscope.open(..., coordinates="pdfplumber")`) and over every painted glyph
(`page.painted_chars`, which is what pdfplumber's `chars` holds). A pdfplumber char matches
when a glyphscope char of the same page has the same text and x0, x1, top and bottom within
the tolerance (each glyphscope char matches once). Every char left is put in one kind
(`mismatch_kind`), and for each kind MuPDF (`mutool draw -F stext`, when it is installed) says
which engine it agrees with on a few examples. tests/inspector/test_plumber_parity.py holds the share.
"""

from __future__ import annotations

import argparse
import io
import logging
import shutil
import subprocess
import sys
import unicodedata
import warnings
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import corpus_files  # noqa: E402

TOLERANCE = 0.5
KEYS = ("x0", "x1", "top", "bottom")
KNOWN_KINDS = frozenset(
    (
        "no glyph",
        "unresolved glyph: pdfminer writes (cid:N), glyphscope a space",
        "same text in another Unicode form (NFKC-equal)",
        "text differs (another decoding)",
        "text differs (box too)",
        "no glyph at its place",
        "size (em) differs",
        "vertical position differs (descent)",
        "width (advance) differs",
        "x position differs",
        "vertical writing (WMode 1): pdfminer's one-em box against the glyph's box",
        "turned glyph: box differs",
        "box differs both ways",
    )
)
"""Every kind `mismatch_kind` names (tests/inspector/test_plumber_parity.py holds the corpus to them)."""


@dataclass
class PageParity:
    total: int = 0  # pdfplumber's chars
    matched: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[tuple[dict[str, Any], Any]]] = field(default_factory=lambda: defaultdict(list))


def _close(a: Any, b: Any, tol: float) -> bool:
    return all(abs(float(a[k]) - float(b[k])) <= tol for k in KEYS)


def mismatch_kind(theirs: dict[str, Any], candidates: list[Any], tol: float) -> tuple[str, Any]:
    """Why pdfplumber's char has no match among glyphscope's unmatched chars of the page, and
    the nearest of them."""
    if not candidates:
        return "no glyph", None

    def distance(c: Any) -> float:
        return sum(abs(float(theirs[k]) - float(c[k])) for k in KEYS)

    nearest = min(candidates, key=distance)
    same_place = [c for c in candidates if _close(theirs, c, tol)]
    if same_place:
        ours = same_place[0]
        if theirs["text"].startswith("(cid:"):
            return "unresolved glyph: pdfminer writes (cid:N), glyphscope a space", ours
        if unicodedata.normalize("NFKC", theirs["text"]) == unicodedata.normalize("NFKC", ours["text"]):
            return "same text in another Unicode form (NFKC-equal)", ours
        return "text differs (another decoding)", ours
    same_text = [c for c in candidates if c["text"] == theirs["text"]]
    if not same_text:
        x_near = [
            c for c in candidates if abs(c["x0"] - theirs["x0"]) <= tol and abs(c["x1"] - theirs["x1"]) <= tol
        ]
        if x_near:
            return "text differs (box too)", x_near[0]
        return "no glyph at its place", nearest
    best = min(same_text, key=distance)
    dx = max(abs(best["x0"] - theirs["x0"]), abs(best["x1"] - theirs["x1"]))
    dy = max(abs(best["top"] - theirs["top"]), abs(best["bottom"] - theirs["bottom"]))
    if dx <= tol and dy > tol and best["wmode"] == 0:
        if abs(best["size"] - theirs["size"]) > tol:
            return "size (em) differs", best
        return "vertical position differs (descent)", best
    if dy <= tol and dx > tol:
        if abs(best["x0"] - theirs["x0"]) <= tol:
            return "width (advance) differs", best
        return "x position differs", best
    if best["wmode"] == 1:
        return "vertical writing (WMode 1): pdfminer's one-em box against the glyph's box", best
    if not theirs["upright"] or not best["upright"]:
        return "turned glyph: box differs", best
    return "box differs both ways", best


def compare_page(theirs: Iterable[dict[str, Any]], ours: Iterable[Any], tol: float = TOLERANCE) -> PageParity:
    """Match pdfplumber's chars to glyphscope's (same text, box within `tol`), one to one."""
    out = PageParity()
    by_text: dict[str, list[Any]] = defaultdict(list)
    for c in ours:
        by_text[c["text"]].append(c)
    used: set[int] = set()
    left: list[dict[str, Any]] = []
    for t in theirs:
        out.total += 1
        found = None
        for c in by_text.get(t["text"], ()):
            if id(c) not in used and _close(t, c, tol):
                found = c
                break
        if found is None:
            left.append(t)
        else:
            used.add(id(found))
            out.matched += 1
    if left:
        unmatched = [c for cs in by_text.values() for c in cs if id(c) not in used]
        for t in left:
            kind, nearest = mismatch_kind(t, unmatched, tol)
            out.kinds[kind] += 1
            if len(out.examples[kind]) < 50:
                out.examples[kind].append((t, nearest))
    return out


def file_parity(path: Path, password: str | None, tol: float = TOLERANCE) -> PageParity | None:
    """Every page of one file; None when pdfplumber cannot read it."""
    import pdfplumber

    import glyphscope

    total = PageParity()
    kwargs = {"password": password} if password else {}
    try:
        theirs_pdf = pdfplumber.open(path, **kwargs)
        theirs_pages = [[dict(c) for c in p.chars] for p in theirs_pdf.pages]
        theirs_pdf.close()
    except Exception:  # noqa: BLE001 - a file pdfplumber cannot read is left out
        return None
    with glyphscope.open(path, password, coordinates="pdfplumber") as ours:
        for n, chars in enumerate(theirs_pages):
            page = compare_page(chars, ours.pages[n].painted_chars, tol)
            total.total += page.total
            total.matched += page.matched
            total.kinds.update(page.kinds)
            for kind, items in page.examples.items():
                for t, o in items:
                    t["_file"], t["_page"] = path.name, n + 1
                    if len(total.examples[kind]) < 50:
                        total.examples[kind].append((t, o))
    return total


def file_counts(path: Path, password: str | None) -> tuple[int, int, dict[str, int]] | None:
    """`file_parity` as plain numbers (pdfplumber's chars, matched, left by kind), for a process pool."""
    import logging
    import warnings

    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)
    got = file_parity(path, password)
    return None if got is None else (got.total, got.matched, dict(got.kinds))


# ---------------------------------------------------------------- MuPDF as the third opinion


def mupdf_chars(
    path: Path, page_number: int, password: str | None
) -> list[tuple[str, float, float, float, float]] | None:
    """(text, x0, x1, bottom, size) of every char MuPDF reads on the page, in MuPDF's page
    coordinates (the CropBox's top-left corner, y down); None without mutool."""
    if shutil.which("mutool") is None:
        return None
    cmd = ["mutool", "draw", "-q", "-F", "stext", "-o", "-"]
    if password:
        cmd += ["-p", password]
    done = subprocess.run([*cmd, str(path), str(page_number)], capture_output=True, timeout=120)
    try:
        root = ET.parse(io.BytesIO(done.stdout)).getroot()
    except ET.ParseError:
        return None
    out = []
    for font in root.iter("font"):
        size = float(font.get("size", "0"))
        for ch in font.iter("char"):
            quad = [float(v) for v in ch.get("quad", "").split()]
            if len(quad) != 8:
                continue
            xs, ys = quad[0::2], quad[1::2]
            out.append((ch.get("c", ""), min(xs), max(xs), max(ys), size))
    return out


def mupdf_verdict(path: Path, password: str | None, theirs: dict[str, Any], ours: Any) -> str:
    """Whom MuPDF agrees with about one mismatched char: "pdfplumber", "glyphscope", "both",
    "neither" or "unknown". Compared along x (MuPDF's frame is the CropBox: offsets removed
    through each engine's own x of a char both place alike) and on the text."""
    if ours is None:
        return "unknown"
    chars = mupdf_chars(path, int(theirs["_page"]), password)
    if not chars:
        return "unknown"
    # MuPDF's x of the glyph nearest our char, shifted by our frame's offset to MuPDF's.
    import glyphscope

    with glyphscope.open(path, password) as visible_doc:
        page = visible_doc.pages[int(theirs["_page"]) - 1]
        mine = next((c for c in page.painted_chars if c.paint_index == ours.paint_index), None)
    if mine is None:
        return "unknown"
    shift = mine.x0 - ours.x0  # our pdfplumber frame → the visible frame (MuPDF's)
    near = min(chars, key=lambda m: abs(m[1] - mine.x0) + abs(m[2] - mine.x1) + 5 * abs(m[3] - mine.bottom))
    text_m, mx0, mx1 = near[0], near[1], near[2]
    if theirs["text"] != ours["text"]:
        agree_t = text_m == theirs["text"]
        agree_o = text_m == ours["text"]
    else:
        agree_t = abs(mx0 - (theirs["x0"] + shift)) <= 1.0 and abs(mx1 - (theirs["x1"] + shift)) <= 1.0
        agree_o = abs(mx0 - mine.x0) <= 1.0 and abs(mx1 - mine.x1) <= 1.0
        if abs(theirs["x0"] - ours["x0"]) <= 0.5 and abs(theirs["x1"] - ours["x1"]) <= 0.5:
            # only the box's bottom (the descent) differs: MuPDF's lower edge against each
            moved = theirs["bottom"] - ours["bottom"]
            agree_t = abs(near[3] - (mine.bottom + moved)) <= 0.5
            agree_o = abs(near[3] - mine.bottom) <= 0.5
    if agree_t and agree_o:
        return "both"
    if agree_t:
        return "pdfplumber"
    if agree_o:
        return "glyphscope"
    return "neither"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tolerance", type=float, default=TOLERANCE)
    parser.add_argument(
        "--examples", type=int, default=3, help="examples per kind shown and checked with MuPDF"
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)
    total = PageParity()
    files: dict[str, tuple[Path, str | None]] = {}
    for path, password in corpus_files():
        got = file_parity(path, password, args.tolerance)
        if got is None:
            print(f"  {path.name}: pdfplumber cannot read it (left out)")
            continue
        files[path.name] = (path, password)
        total.total += got.total
        total.matched += got.matched
        total.kinds.update(got.kinds)
        for kind, items in got.examples.items():
            total.examples[kind].extend(items)
        share = got.matched / got.total if got.total else 1.0
        if share < 0.98:
            print(f"  {path.name}: {got.matched}/{got.total} ({share:.1%}) {dict(got.kinds)}")
    share = total.matched / total.total if total.total else 1.0
    print(
        f"matched {total.matched} of pdfplumber's {total.total} chars ({share:.2%}) within {args.tolerance} pt"
    )
    for kind, count in total.kinds.most_common():
        by_file = Counter(t["_file"] for t, _ in total.examples[kind])
        verdicts = Counter()
        shown = total.examples[kind][: args.examples]
        for t, o in shown:
            path, password = files[t["_file"]]
            verdicts[mupdf_verdict(path, password, t, o)] += 1
        print(
            f"- {kind}: {count} chars; files {dict(by_file.most_common(4))}; MuPDF agrees with {dict(verdicts)}"
        )
        for t, o in shown:
            ours = {k: round(float(o[k]), 2) for k in (*KEYS, "size")} if o is not None else None
            print(
                f"    {t['_file']} p{t['_page']} {t['text']!r}: pdfplumber "
                f"{ {k: round(float(t[k]), 2) for k in (*KEYS, 'size')} } glyphscope "
                f"{o['text'] if o is not None else None!r} {ours}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
