"""Why a code decoded as it did: every step of a font's decoding chain (spec §6), with what each gave.

Additive: it asks each font kind's own chain steps (the same methods `_resolve`
runs, in the same order) and reads the tables they read, so the explanation
cannot drift from the decoding. Used by the inspector's per-font code table,
and for an unresolved glyph to list every step tried and why it failed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.fonts.composite import CompositeFont
from glyphscope.core.fonts.pdfobj import as_int, as_list, dget
from glyphscope.core.fonts.simple import Decoded, SimpleFont
from glyphscope.core.glyph import DecodeSource

NOT_REACHED = "not reached: an earlier step answered"


@dataclass(frozen=True, slots=True)
class ChainStep:
    """One step of the decoding chain for one code."""

    name: str  # "ToUnicode", "Differences", "base encoding", ...
    outcome: str  # what it gave, in words
    answered: bool  # this step produced the Unicode the glyph got


@dataclass(frozen=True, slots=True)
class CodeExplanation:
    """code → glyph name → CID/GID → Unicode, with the source of each, and the width used."""

    code: int
    code_bytes: int
    glyph_name: str | None
    glyph_name_source: str  # "Differences", "WinAnsiEncoding", ... ("" when none)
    cid: int | None
    cid_source: str
    gid: int | None
    gid_source: str
    unicode: str  # "" when unresolved
    source: DecodeSource
    width: float  # w0, text space per unit font size
    width_source: str
    steps: tuple[ChainStep, ...]

    @property
    def unresolved(self) -> bool:
        return self.source is DecodeSource.UNRESOLVED


def code_hex(code: int, code_bytes: int) -> str:
    return f"<{code:0{2 * max(1, code_bytes)}X}>"


def describe_unicode(text: str) -> str:
    if not text:
        return "nothing"
    points = " ".join(f"U+{ord(c):04X}" for c in text)
    shown = text if text.isprintable() else repr(text)
    return f"{points} “{shown}”"


def _safe(step: Callable[[int], Decoded | None], code: int) -> tuple[Decoded | None, str | None]:
    try:
        return step(code), None
    except Exception as exc:  # noqa: BLE001 -- steps must not raise; if one does, the table says so
        return None, f"raised {type(exc).__name__}: {exc}"


def _finish(steps: list[tuple[str, str, Decoded | None]]) -> tuple[tuple[ChainStep, ...], str, DecodeSource]:
    """Mark the first step that answered; the ones after it were not reached."""
    out: list[ChainStep] = []
    text, source = "", DecodeSource.UNRESOLVED
    done = False
    for name, outcome, found in steps:
        if done:
            out.append(ChainStep(name, NOT_REACHED, False))
        elif found:
            text, source = found
            out.append(ChainStep(name, outcome, True))
            done = True
        else:
            out.append(ChainStep(name, outcome, False))
    return tuple(out), text, source


class _Chain:
    """Runs a font's decoding steps for one code in order, keeping each step's outcome in words."""

    def __init__(self, code: int) -> None:
        self.code = code
        self.steps: list[tuple[str, str, Decoded | None]] = []

    def run(
        self, name: str, lookup: Callable[[int], Decoded | None], explain: Callable[[Decoded | None], str]
    ) -> None:
        """`explain(found)` says what the step gave; a step that raises says that instead."""
        found, err = _safe(lookup, self.code)
        self.steps.append((name, err or explain(found), found))

    def tounicode(self, f: SimpleFont | CompositeFont, hexcode: str) -> None:
        table = f._tounicode

        def said(found: Decoded | None) -> str:
            if not table.present:
                return "the font has no /ToUnicode"
            if found:
                return f"{hexcode} → {describe_unicode(found[0])}"
            return f"no entry for {hexcode} ({table.entries} entries)"

        self.run("ToUnicode", f._from_tounicode, said)

    def finish(self) -> tuple[tuple[ChainStep, ...], str, DecodeSource]:
        return _finish(self.steps)


# -- simple fonts (Type1, TrueType, Type3) ------------------------------------------------------


def _code_page_pair(font: SimpleFont, code: int) -> CodeExplanation:
    """A two-byte code of a simple TrueType font read as CJK byte pairs (core/fonts/cjk.py)."""
    page = font._code_page
    assert page is not None

    def said(found: Decoded | None) -> str:
        if found:
            return f"{code_hex(code, 2)} as {page.codec} ({page.origin}) → {describe_unicode(found[0])}"
        return f"{code_hex(code, 2)} is no {page.codec} pair the font maps"

    chain = _Chain(code)
    chain.run("code page", font.unicode, said)
    steps, text, source = chain.finish()
    width_source = f"/Widths of its bytes {code_hex(code >> 8, 1)} + {code_hex(code & 0xFF, 1)}"
    return CodeExplanation(
        code, 2, None, "", None, "", None, "", text, source, font.width(code), width_source, steps
    )


def _simple(font: SimpleFont, code: int) -> CodeExplanation:
    f: SimpleFont = font  # the chain's own tables (read, never changed)
    if code > 0xFF and f._code_page is not None:
        return _code_page_pair(f, code)
    differences: dict[int, str] = f._differences
    base_label = font.info.encoding.split(" + ")[0]
    name = differences.get(code)
    base_name = f._base_names.get(code)

    def differences_said(found: Decoded | None) -> str:
        if not differences:
            return "the encoding has no /Differences"
        if name is None:
            return "code not in /Differences"
        if found:
            return f"/{name} → {describe_unicode(found[0])}"
        return f"/{name} is not in the Adobe Glyph List (nor uniXXXX/uXXXX)"

    def base_said(found: Decoded | None) -> str:
        if code in differences:
            return "skipped: /Differences gave this code another glyph"
        if base_name is None:
            return f"{base_label} names no glyph for this code"
        if found:
            return f"{base_label}: /{base_name} → {describe_unicode(found[0])}"
        return f"{base_label}: /{base_name} is not in the Adobe Glyph List"

    def program_said(found: Decoded | None) -> str:
        if font.is_type3:
            return "not tried: a Type3 font has no font program"
        if not f._program_applies():
            return "not tried: the font is not symbolic and has an encoding table"
        if found:
            return f"the embedded program's cmap / glyph names → {describe_unicode(found[0])}"
        return "the embedded program has no Unicode for this code (or no readable program)"

    def guess_said(found: Decoded | None) -> str:
        if found:
            return f"guessed {describe_unicode(found[0])} (code read as Windows-1252 / identity)"
        return "no guess applies (the font's tables are trusted for this code)"

    chain = _Chain(code)
    chain.tounicode(f, code_hex(code, 1))
    chain.run("Differences", f._from_differences, differences_said)
    chain.run("base encoding", f._from_base_encoding, base_said)
    chain.run("font program", f._from_font_program, program_said)
    chain.run("guess", f._from_guess, guess_said)
    steps, text, source = chain.finish()
    if name is not None:
        glyph_name, name_source = name, "Differences"
    elif base_name is not None:
        glyph_name, name_source = base_name, base_label
    else:
        glyph_name, name_source = None, ""
    return CodeExplanation(
        code,
        1,
        glyph_name,
        name_source,
        None,
        "",
        None,
        "",
        text,
        source,
        font.width(code),
        _simple_width_source(font, code),
        steps,
    )


def _simple_width_source(font: SimpleFont, code: int) -> str:
    f: SimpleFont = font
    widths = as_list(dget(f._font, "/Widths"))
    first = as_int(dget(f._font, "/FirstChar")) or 0
    if widths and first <= code < first + len(widths):
        return f"/Widths[{code - first}] (FirstChar {first})"
    if font.info.widths_source == "standard-14 metrics":
        return f"standard-14 metrics of {f._std14}"
    if widths:
        return f"outside /Widths (FirstChar {first}, {len(widths)} entries): MissingWidth or 0"
    return f"default ({font.info.widths_source})"


# -- composite fonts (Type0) ---------------------------------------------------------------------


def _composite(font: CompositeFont, code: int, code_bytes: int) -> CodeExplanation:
    f: CompositeFont = font
    hexcode = code_hex(code, code_bytes)
    cid = font.cid(code)
    gid, gid_source = _gid(font, cid)

    def encoding_said(found: Decoded | None) -> str:
        if f._unicode_form is None:
            return f"the encoding {font.info.encoding} does not map codes to Unicode"
        if found:
            return f"{f._unicode_form} code → {describe_unicode(found[0])}"
        return f"{hexcode} is no {f._unicode_form} character"

    def collection_said(found: Decoded | None) -> str:
        if not f._collection_maps:
            return f"no Unicode table for the collection {font.collection or '(none)'}"
        if cid is None:
            return "no CID for this code"
        if cid == 0:
            return "CID 0 (.notdef)"
        if found:
            return f"{font.collection} CID {cid} → {describe_unicode(found[0])}"
        return f"{font.collection} has no Unicode for CID {cid}"

    def program_said(found: Decoded | None) -> str:
        if not f._glyph_map:
            return "no embedded TrueType cmap to read (or not an Identity-ordered CIDFontType2)"
        if found:
            return f"GID {gid} → {describe_unicode(found[0])} (embedded cmap: an inference)"
        return f"the embedded cmap has no Unicode for GID {gid}"

    def guess_said(found: Decoded | None) -> str:
        return f"guessed {describe_unicode(found[0])} (code = Unicode)" if found else "no guess applies"

    chain = _Chain(code)
    chain.tounicode(f, hexcode)
    chain.run("encoding CMap", f._from_encoding_cmap, encoding_said)
    chain.run("CID collection", f._from_collection, collection_said)
    chain.run("font program", f._from_font_program, program_said)
    chain.run("guess", f._from_identity_guess, guess_said)
    steps, text, source = chain.finish()
    value = f._widths.lookup(cid) if cid is not None else None
    width_source = f"/W entry for CID {cid}" if value else f"/DW ({f._dw:g})"
    return CodeExplanation(
        code,
        code_bytes,
        None,
        "",
        cid,
        font.info.encoding,
        gid,
        gid_source,
        text,
        source,
        font.width(code),
        width_source,
        steps,
    )


def _gid(font: CompositeFont, cid: int | None) -> tuple[int | None, str]:
    f: CompositeFont = font
    if cid is None:
        return None, ""
    if f._cid_to_gid is not None:
        return f._cid_to_gid.get(cid, 0), "/CIDToGIDMap"
    if font.info.descendant_subtype == "CIDFontType2":
        return cid, "GID = CID (Identity)"
    return None, ""


def explain_code(font: LoadedFont, code: int, code_bytes: int = 1) -> CodeExplanation:
    """Every step of `font`'s chain for `code`, in the order the decoder runs them. Never raises."""
    if isinstance(font, CompositeFont):
        return _composite(font, code, code_bytes)
    if isinstance(font, SimpleFont):
        return _simple(font, code)
    # An unusable font (or another kind): no chain to run.
    reason = "; ".join(p.message for p in font.info.problems) or "the font cannot decode"
    text, source = font.unicode(code)
    return CodeExplanation(
        code,
        code_bytes,
        None,
        "",
        None,
        "",
        None,
        "",
        text,
        source,
        font.width(code),
        "default (unusable font)",
        (ChainStep("font", reason, bool(text)),),
    )
