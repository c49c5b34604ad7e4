"""Pieces shared by every font kind: the /ToUnicode step and problem bookkeeping."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from core.diagnostics import DiagnosticKind
from core.fonts.base import FontProblem
from core.fonts.cmap import parse_cmap
from core.fonts.pdfobj import as_name, dget, is_dict, stream_bytes

EMBEDDED_KEYS = ("/FontFile", "/FontFile2", "/FontFile3")


@dataclass(slots=True)
class ToUnicode:
    """Result of reading /ToUnicode (step 1 of the chain)."""

    present: bool = False
    mapping: Mapping[int, str] = field(default_factory=dict)
    identity: bool = (
        False  # /ToUnicode /Identity-H: a non-standard name that producers mean as code = Unicode
    )
    codespace: list[tuple[int, int, int]] = field(default_factory=list)
    problems: list[FontProblem] = field(default_factory=list)

    @property
    def entries(self) -> int:
        return len(self.mapping)

    def lookup(self, code: int) -> str | None:
        text = self.mapping.get(code)
        if text is None and self.identity and 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            return chr(code)
        return text


def read_tounicode(font: object) -> ToUnicode:
    obj = dget(font, "/ToUnicode")
    if obj is None:
        return ToUnicode()
    name = as_name(obj)
    if name is not None:
        if name in ("Identity-H", "Identity-V"):
            return ToUnicode(present=True, identity=True)
        return ToUnicode(
            present=True,
            problems=[
                FontProblem(DiagnosticKind.TOUNICODE_BROKEN, f"/ToUnicode is the name /{name}, not a CMap")
            ],
        )
    data, error = stream_bytes(obj)
    if data is None:
        return ToUnicode(
            present=True,
            problems=[
                FontProblem(DiagnosticKind.TOUNICODE_BROKEN, f"/ToUnicode stream unreadable ({error})")
            ],
        )
    parsed = parse_cmap(data)
    problems = []
    if parsed.problems:
        shown = "; ".join(parsed.problems[:3]) + (" …" if len(parsed.problems) > 3 else "")
        problems.append(FontProblem(DiagnosticKind.TOUNICODE_BROKEN, f"/ToUnicode CMap: {shown}"))
    return ToUnicode(present=True, mapping=parsed.to_unicode, codespace=parsed.codespace, problems=problems)


def is_embedded(descriptor: object) -> bool:
    return is_dict(descriptor) and any(dget(descriptor, key) is not None for key in EMBEDDED_KEYS)


def latin1_guess(code: int) -> str | None:
    """The code read as Latin-1, for printable codes only (a FALLBACK guess)."""
    if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
        return chr(code)
    return None
