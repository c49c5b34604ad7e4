"""A Polish page whose codes are glyph ids (Identity-H, a font that is not embedded): ASCII letters
sit at their Unicode value − 29 (the Macintosh glyph order), the Polish letters elsewhere; the
ToUnicode maps every code to itself, so every reader shows each character shifted by −29 —
`5R]NãDG` for `Rozkład`. The garbled-text offset (+29) is right for ASCII and wrong for every Polish
letter (`ã` + 29 is `Ā`, not `ł`)."""

from __future__ import annotations

import pikepdf

from tests.pdfbuild import identity_h_font, make_pdf, to_bytes

SHIFT = 29
POLISH_GIDS = {"ł": 227, "ą": 264, "ś": 291, "ę": 268, "ż": 298, "ó": 189, "ć": 262, "ń": 282, "ź": 300}
"""Glyph ids of the Polish letters: outside the ASCII band, as in a real font's glyph order."""
POLISH_LETTERS = frozenset(POLISH_GIDS)
LINES = (
    "Rozkład jazdy obowiązuje od poniedziałku",
    "Przystanek Grupa linia tramwajowa numer osiem",
    "poniedziałek wtorek środa czwartek piątek sobota",
    "Bilety kupisz w automacie lub u kierowcy autobusu",
    "Linia numer dwa jedzie przez centrum miasta do dworca",
    "Tramwaj odjeżdża co dziesięć minut w dni robocze",
    "Informacja telefoniczna czynna jest w godzinach pracy",
    "Przewoźnik Miejskie Przedsiębiorstwo Komunikacyjne",
)
IDENTITY_TOUNICODE = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"/CMapName /Identity-UCS def /CMapType 2 def\n"
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"3 beginbfrange <0000> <00FF> <0000> <0100> <01FF> <0100> <0200> <02FF> <0200> endbfrange\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)


def gid(c: str) -> int:
    return POLISH_GIDS.get(c, ord(c) - SHIFT)


def polish_glyph_ids(lines: tuple[str, ...] = LINES) -> bytes:
    """The page: one line per entry of `lines`, 10 pt, the font /F1 (ArialMT, not embedded)."""
    pdf = pikepdf.new()
    font = identity_h_font(pdf, tounicode=IDENTITY_TOUNICODE)
    ops = [b"BT /F1 10 Tf 72 720 Td 14 TL"]
    for line in lines:
        ops.append(b"<" + "".join(f"{gid(c):04X}" for c in line).encode() + b"> Tj T*")
    ops.append(b"ET")
    return to_bytes(make_pdf([b"\n".join(ops)], {"/F1": lambda p: font}, pdf=pdf))


def wrong_letters(read: str, lines: tuple[str, ...] = LINES) -> list[tuple[str, str]]:
    """(what a reader shows, the truth) for every character of `read` (one text line per line) that
    is neither the right one nor U+FFFD (a code left out) — the wrong letters."""
    got = [line for line in read.replace("\f", "").splitlines() if line.strip()]
    assert len(got) == len(lines), got
    out = []
    for have, want in zip(got, lines, strict=True):
        assert len(have.rstrip()) == len(want), (have, want)
        out += [(a, b) for a, b in zip(have, want, strict=False) if a != b and a != "\ufffd"]
    return out
