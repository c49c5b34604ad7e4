"""A regular expression pikepdf compiles as it is imported, made ready before (process start-up).

pikepdf's XMP metadata module compiles, at import, the class of the characters illegal in
XML 1.0 (`re_xml_illegal_chars`): a negated class spanning all of Unicode, which CPython's
regular-expression compiler turns into a 256-block bitmap in 12–25 ms — a tenth of a whole
one-page `glyphscope text`, for metadata the engine never writes. What the compiler makes of
a pattern (its program, a list of integers) is fixed for a version of the regular-expression
engine (`_sre.MAGIC`, `_sre.CODESIZE`): `seed_patterns` builds the pattern from the program
taken from that engine (`_sre.compile`, as `re` itself does) and places it in `re`'s cache,
where pikepdf's `re.compile` finds it. The result equals what `re.compile` makes
(tests/test_startup.py compares them); with another engine version, or when `re` keeps its
cache otherwise, nothing is seeded and the pattern compiles as before.

Only a process of our own calls it (glyphscope/__main__.py): `re`'s cache is process-wide.
"""

from __future__ import annotations

XML_ILLEGAL_CHARS = r"(?u)[^\x09\x0A\x0D\x20-\U0000D7FF\U0000E000-\U0000FFFD\U00010000-\U0010FFFF]"
"""pikepdf's `re_xml_illegal_chars` pattern (pikepdf/models/metadata.py, later metadata/_constants.py)."""

_MAGIC, _CODESIZE = 20220615, 4  # CPython 3.11's regular-expression engine
_UNICODE = 32  # re.UNICODE: a str pattern's flag

# The program's charset, which it holds twice (once in its INFO block), as (value, repeat) runs.
_CHARSET = (
    (10, 1),
    (4, 1),
    (16843008, 1),
    (16843009, 53),
    (33686018, 2),
    (16843009, 7),
    (50397441, 1),
    (9728, 1),
    (4294967295, 15),
    (0, 8),
    (4294967295, 7),
    (1073741823, 1),
    (22, 1),
    (65536, 1),
    (1114111, 1),
    (0, 1),
)
# INFO (14), its skip, flags, min and max width; NEGATE (21), the charset; FAILURE (0) ends
# INFO's charset; IN (13) with its skip, NEGATE, the charset; FAILURE, then SUCCESS (1).
_PROGRAM = (
    (14, 1),
    (107, 1),
    (4, 1),
    (1, 2),
    (21, 1),
    *_CHARSET,
    (13, 1),
    (104, 1),
    (21, 1),
    *_CHARSET,
    (1, 1),
)


def _program() -> list[int]:
    return [value for value, repeat in _PROGRAM for _ in range(repeat)]


def seed_patterns() -> None:
    """Put the XML 1.0 illegal-characters pattern, built from its program, in `re`'s cache
    (see the module docstring); a no-op where the engine or the cache is not the one expected."""
    try:
        import _sre
        import re

        cache = getattr(re, "_cache", None)
        if _sre.MAGIC != _MAGIC or _sre.CODESIZE != _CODESIZE or not isinstance(cache, dict):
            return
        key = (str, XML_ILLEGAL_CHARS, 0)  # what re.compile(pattern) looks up
        if key not in cache:
            cache[key] = _sre.compile(XML_ILLEGAL_CHARS, _UNICODE, _program(), 0, {}, (None,))
    except Exception:  # noqa: BLE001 — an optimisation: on any surprise the pattern compiles as before
        return
