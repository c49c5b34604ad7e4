"""A deduped run's survivors written with their originals (plain order; spec §7, §8).

A line painted twice — `(19) Tj`, later `(1.9) Tj` over it — loses the second copy's `1` and
`9` to dedupe (spec §7) and keeps its `.`. In paint order that `.` stands where the second
copy was painted, often many lines later, and plain mode wrote it there, on a line of its own
(`. . .` under a table). Its neighbours in its own text-showing instruction are copies of
glyphs read long before: the reader met them there, and the survivor belongs between them.

The rule: a kept glyph (or a stretch of kept glyphs) whose neighbours on BOTH sides in its
own instruction were dropped as duplicates is written right after the original of the
glyph before it (`1` `.` `9`). Glyphs with a kept neighbour in their instruction stay where
they are: a copy that adds words is not a copy any more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from glyphscope.core.glyph import Glyph, GlyphStatus


def survivor_places(
    glyphs: Sequence[Glyph], status: Sequence[GlyphStatus], duplicate_of: Sequence[int | None]
) -> dict[int, int]:
    """survivor paint index → paint index of the kept glyph it is written after."""
    places: dict[int, int] = {}
    n = len(status)
    dropped = [i for i in range(n) if duplicate_of[i] is not None]
    if not dropped:
        return places
    kept = GlyphStatus.KEPT
    for d in dropped:
        first = d + 1
        if first >= n or status[first] is not kept:
            continue
        instruction = _instruction(glyphs[d])
        k = first
        while k < n and status[k] is kept and _instruction(glyphs[k]) == instruction:
            k += 1
        if k >= n or k == first or duplicate_of[k] is None or _instruction(glyphs[k]) != instruction:
            continue  # not closed by a duplicate of the same instruction
        anchor = duplicate_of[d]
        assert anchor is not None
        for s in range(first, k):
            places[s] = anchor if s == first else s - 1
    return places


def _instruction(g: Glyph) -> tuple[tuple[str, ...], int, int]:
    """The text-showing instruction that painted `g`: its form chain, stream and page token."""
    return (g.form_path, g.stream_index, g.token_index)


def survivors_in_place(
    visible: Sequence[Glyph], places: Mapping[int, int]
) -> tuple[Sequence[Glyph], dict[int, int]]:
    """`visible` with every survivor moved to just after the glyph `places` names (in a chain,
    each after the one before it), and the places used; `visible` itself when nothing moves."""
    if not places:
        return visible, {}
    glyphs = tuple(visible)
    present = {g.paint_index for g in glyphs}
    movable = {s: a for s, a in places.items() if s in present and _root(a, places) in present}
    if not movable:
        return visible, {}
    following: dict[int, list[Glyph]] = {}
    for g in glyphs:
        anchor = movable.get(g.paint_index)
        if anchor is not None:
            following.setdefault(anchor, []).append(g)
    out: list[Glyph] = []

    def emit(g: Glyph) -> None:
        out.append(g)
        for f in following.get(g.paint_index, ()):
            emit(f)

    for g in glyphs:
        if g.paint_index not in movable:
            emit(g)
    return out, movable


def _root(anchor: int, places: Mapping[int, int]) -> int:
    seen = 0
    while anchor in places and seen < len(places):
        anchor = places[anchor]
        seen += 1
    return anchor
