"""Splitting string operands into character codes (ISO 32000-1 §9.7.6.2).

A `CodeSplitter` is built once per font from codespace ranges (or from per-lead-byte
widths for predefined CMaps) into a 256-entry table: lead byte → code width. Lead
bytes shared by ranges of different lengths are matched byte by byte, shortest range
first, like pdf.js. A byte sequence that matches no range consumes the width of the
shortest range whose first byte fits, else of the shortest range overall: for a
two-byte-only font this keeps the stream in step (pdf.js consumes one byte, which
shifts every following code of an Identity-H string by half a character).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from itertools import repeat


class CodeSplitter:
    __slots__ = ("widths", "_ambiguous", "_uniform", "min_width")

    def __init__(self, widths: Sequence[int], ambiguous: dict[int, list[tuple[int, int, int]]] | None = None):
        self.widths = list(widths)
        self._ambiguous = ambiguous or {}
        distinct = set(self.widths)
        self._uniform = self.widths[0] if len(distinct) == 1 and not self._ambiguous else 0
        self.min_width = min(distinct) if distinct else 1

    @classmethod
    def uniform(cls, width: int) -> CodeSplitter:
        return cls([width] * 256)

    @classmethod
    def from_codespace(cls, ranges: Sequence[tuple[int, int, int]]) -> CodeSplitter | None:
        """From (nbytes, low, high) ranges; None when there are none."""
        usable = [r for r in ranges if 1 <= r[0] <= 4]
        if not usable:
            return None
        per_lead: list[set[int]] = [set() for _ in range(256)]
        for nbytes, low, high in usable:
            shift = 8 * (nbytes - 1)
            for lead in range(low >> shift & 0xFF, (high >> shift & 0xFF) + 1):
                per_lead[lead].add(nbytes)
        shortest = min(r[0] for r in usable)
        widths = [min(s) if s else shortest for s in per_lead]
        ambiguous: dict[int, list[tuple[int, int, int]]] = {}
        for lead, lengths in enumerate(per_lead):
            if len(lengths) > 1:
                ambiguous[lead] = sorted(r for r in usable if _lead_fits(r, lead))
                widths[lead] = 0
        return cls(widths, ambiguous)

    def split(self, data: bytes) -> list[tuple[int, int]]:
        w = self._uniform
        if w == 1:
            return list(zip(data, repeat(1)))
        n = len(data)
        if w == 2 and not n % 2:
            return list(zip(struct.unpack(f">{n // 2}H", data), repeat(2)))
        return self._split_general(data)

    def _split_general(self, data: bytes) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        widths = self.widths
        i = 0
        n = len(data)
        while i < n:
            w = widths[data[i]] or self._match(data, i)
            if i + w > n:
                w = n - i  # a truncated final code: keep its bytes rather than drop them
            out.append((int.from_bytes(data[i : i + w], "big"), w))
            i += w
        return out

    def _match(self, data: bytes, i: int) -> int:
        ranges = self._ambiguous[data[i]]
        for nbytes, low, high in ranges:  # sorted by length: shortest match wins
            if i + nbytes <= len(data) and low <= int.from_bytes(data[i : i + nbytes], "big") <= high:
                return nbytes
        return min(r[0] for r in ranges)


def _lead_fits(rng: tuple[int, int, int], lead: int) -> bool:
    nbytes, low, high = rng
    shift = 8 * (nbytes - 1)
    return (low >> shift & 0xFF) <= lead <= (high >> shift & 0xFF)
