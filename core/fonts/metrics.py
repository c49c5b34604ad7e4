"""Font metrics: standard-14 AFM data, ascent/descent sources, CID /W and /W2 arrays.

Everything returned here is in GLYPH space (1/1000 em for all but Type3); the font
classes scale to text space.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import pikepdf

from glyphscope.core.fonts.pdfobj import as_int, as_list, as_number, as_numbers, dget
from glyphscope.core.fonts.third_party import font_metrics

DEFAULT_ASCENT = 0.8  # text space, last resort (spec §9 Geometry)
DEFAULT_DESCENT = -0.2
DEFAULT_DW = 1000.0
DEFAULT_DW2 = (880.0, -1000.0)

_SUBSET_PREFIX = r"^[A-Z]{6}\+"  # both compiled on first use (re's cache): start-up
_VENDOR_SUFFIX = r"(PSMT|PS|MT)$"


def strip_subset(base_font: str) -> str:
    return re.sub(_SUBSET_PREFIX, "", base_font)


def standard14_name(base_font: str) -> str | None:
    """The FONT_METRICS key for a standard-14 font or a common alias (Arial-BoldMT → Arial,Bold)."""
    metrics = font_metrics()
    name = strip_subset(base_font)
    if name in metrics:
        return name
    family, _, style = name.partition("-")
    family = re.sub(_VENDOR_SUFFIX, "", family)
    style = re.sub(_VENDOR_SUFFIX, "", style)
    candidate = f"{family},{style}" if style else family
    if candidate in metrics:
        return candidate
    candidate = name.replace("-", ",")
    return candidate if candidate in metrics else None


def standard14_widths(std_name: str) -> Mapping[str, int]:
    """AFM advance widths keyed by the glyph's Unicode text (pdfminer's layout)."""
    widths: Mapping[str, int] = font_metrics()[std_name][1]
    return widths


def standard14_ascent_descent(std_name: str) -> tuple[float, float] | None:
    props = font_metrics()[std_name][0]
    ascent, descent = props.get("Ascent"), props.get("Descent")
    if isinstance(ascent, float) and isinstance(descent, float):
        return ascent, descent
    bbox = props.get("FontBBox")
    if isinstance(bbox, tuple) and len(bbox) == 4:
        return float(bbox[3]), float(bbox[1])
    return None


def sane_ascent_descent(ascent: float | None, descent: float | None, em: float = 1000.0) -> bool:
    """Reject zero, inverted or absurd values (relative to the em size) so the next source is tried."""
    if ascent is None or descent is None:
        return False
    if not 0 < ascent <= 3 * em:
        return False
    return -2 * em <= descent <= 0 < ascent


def descriptor_ascent_descent(descriptor: object) -> tuple[float, float] | None:
    ascent = as_number(dget(descriptor, "/Ascent"))
    descent = as_number(dget(descriptor, "/Descent"))
    if ascent is not None and descent is not None and descent > 0 and ascent > descent:
        descent = -descent  # a common producer slip: the descent written as a positive depth
    if sane_ascent_descent(ascent, descent):
        assert ascent is not None and descent is not None
        return ascent, descent
    return None


def bbox_of(obj: object) -> tuple[float, float, float, float] | None:
    numbers = as_numbers(obj)
    if numbers is None or len(numbers) != 4:
        return None
    x0, y0, x1, y1 = numbers
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def bbox_ascent_descent(bbox: tuple[float, float, float, float] | None) -> tuple[float, float] | None:
    if bbox is None:
        return None
    ascent, descent = bbox[3], min(bbox[1], 0.0)
    return (ascent, descent) if sane_ascent_descent(ascent, descent) else None


# ---------------------------------------------------------------- /W and /W2


# Ranges wider than this stay ranges instead of being expanded into the lookup dict.
_EXPAND_LIMIT = 4096


@dataclass(frozen=True, slots=True)
class CIDMetricsTable:
    """Entries of /W (values of length 1) or /W2 (length 3), searchable by CID.

    Entries are sorted STABLY by first CID when read; where they overlap, the one
    written first in the file wins (spec §9): ``order`` is the file position.
    """

    single: dict[int, tuple[int, tuple[float, ...]]]  # cid → (order, values)
    wide: tuple[tuple[int, int, int, tuple[float, ...]], ...]  # (first, last, order, values), big ranges
    count: int
    unsorted: bool
    overlapping: bool
    malformed: int

    def lookup(self, cid: int) -> tuple[float, ...] | None:
        hit = self.single.get(cid)
        for first, last, order, values in self.wide:
            if first <= cid <= last and (hit is None or order < hit[0]):
                hit = (order, values)
        return hit[1] if hit is not None else None


def parse_cid_metrics(obj: object, group: int) -> CIDMetricsTable:
    """Parse /W (group=1) or /W2 (group=3): ``c [v …]`` and ``c_first c_last v…`` forms."""
    items = as_list(obj)
    # (first, last, per-CID runs, one shared value tuple) in file order; exactly one of the last two is set
    raw: list[tuple[int, int, list[tuple[float, ...]] | None, tuple[float, ...] | None]] = []
    malformed = 0
    i = 0
    n = len(items)
    while i < n:
        first = as_int(items[i])
        if first is None or first < 0:
            malformed += 1
            i += 1
            continue
        nxt = items[i + 1] if i + 1 < n else None
        if isinstance(nxt, pikepdf.Array):
            values = [as_number(v) for v in as_list(nxt)]
            usable = [v for v in values if v is not None]
            if len(usable) != len(values) or len(usable) % group:
                malformed += 1
            runs = [tuple(usable[k : k + group]) for k in range(0, len(usable) - group + 1, group)]
            if runs:
                raw.append((first, first + len(runs) - 1, runs, None))
            i += 2
            continue
        last = as_int(nxt)
        operands = [as_number(v) for v in items[i + 2 : i + 2 + group]]
        if last is None or len(operands) < group or last < first:
            malformed += 1
            i += 2 + group
            continue
        shared = tuple(v for v in operands if v is not None)
        if len(shared) == group:
            raw.append((first, last, None, shared))
        else:
            malformed += 1
        i += 2 + group
    unsorted = any(raw[k][0] < raw[k - 1][0] for k in range(1, len(raw)))
    ordered = sorted(range(len(raw)), key=lambda k: raw[k][0])  # stable sort by first CID
    overlapping = False
    reach = -1
    for k in ordered:
        if raw[k][0] <= reach:
            overlapping = True
        reach = max(reach, raw[k][1])
    single: dict[int, tuple[int, tuple[float, ...]]] = {}
    wide: list[tuple[int, int, int, tuple[float, ...]]] = []
    for order in range(len(raw) - 1, -1, -1):  # backwards, so the entry written first is stored last
        first, last, per_cid, constant = raw[order]
        if per_cid is not None:
            for offset, run in enumerate(per_cid):
                single[first + offset] = (order, run)
        elif constant is not None and last - first >= _EXPAND_LIMIT:
            wide.append((first, last, order, constant))
        elif constant is not None:
            for cid in range(first, last + 1):
                single[cid] = (order, constant)
    return CIDMetricsTable(single, tuple(wide), len(raw), unsorted, overlapping, malformed)
