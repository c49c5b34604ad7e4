"""Simple fonts (Type1, MMType1, TrueType; Type3 builds on this): one byte per code.

Every table is precomputed for the 256 codes when the font loads, so ``unicode`` and
``width`` are list indexing in the interpreter's hot loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import repeat

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.fonts.base import DecodedCode, FontInfo, FontProblem
from glyphscope.core.fonts.cjk import CodePage, code_page_of_name, name_bytes, program_code_page
from glyphscope.core.fonts.common import (
    ToUnicode,
    is_embedded,
    latin1_guess,
    read_tounicode,
    substitute_reason,
)
from glyphscope.core.fonts.encodings import (
    KNOWN_BASE_ENCODINGS,
    base_glyph_names,
    glyph_unicode,
    parse_differences,
    type1_builtin_encoding,
)
from glyphscope.core.fonts.metrics import (
    DEFAULT_ASCENT,
    DEFAULT_DESCENT,
    bbox_ascent_descent,
    bbox_of,
    descriptor_ascent_descent,
    standard14_ascent_descent,
    standard14_name,
    standard14_widths,
)
from glyphscope.core.fonts.pdfobj import as_int, as_list, as_name, as_number, as_text, dget, stream_bytes
from glyphscope.core.fonts.program import ProgramTable, is_private_use, read_program_table
from glyphscope.core.fonts.third_party import zapf_dingbats_codes, zapf_dingbats_name, zapf_dingbats_numbers
from glyphscope.core.glyph import DecodeSource

Decoded = tuple[str, DecodeSource]
UNRESOLVED: Decoded = ("", DecodeSource.UNRESOLVED)
DEFAULT_TEXT_WIDTH = 0.5  # em; keeps glyphs of a font without any widths apart (0 would stack them)
_FLAG_SYMBOLIC = 1 << 2
_NO_BUILTIN_TABLE = ("Symbol", "ZapfDingbats")


class SimpleFont:
    """A one-byte font. Construction never raises on malformed entries; it records problems."""

    is_type3 = False
    wmode = 0

    def __init__(self, font: object, font_id: str, subtype: str) -> None:
        self._font = font
        self._problems: list[FontProblem] = []
        self.base_font = as_text(dget(font, "/BaseFont")) or ""
        self._descriptor = dget(font, "/FontDescriptor")
        self._std14 = standard14_name(self.base_font) if self.base_font else None
        self._tounicode: ToUnicode = read_tounicode(font)
        self._problems.extend(self._tounicode.problems)
        self._differences: dict[int, str] = {}
        self._base_names: Mapping[int, str] = {}
        self._latin1_base = False  # no table for the base encoding: codes are guessed as Latin-1
        self._explicit_base = False  # /Encoding or /BaseEncoding named a table
        self._zapf = False  # ZapfDingbats's built-in encoding and glyph names (a1 … a191)
        self._encoding_name: str | None = None  # /Encoding or /BaseEncoding as named (None: none)
        self._decoded: list[DecodedCode | None] = [None] * 256  # filled by decode() as codes appear
        encoding_label = self._read_encoding()
        self._code_page: CodePage | None = self._find_code_page(subtype)
        if self._code_page is not None:
            encoding_label += f"; {self._code_page.codec} byte pairs ({self._code_page.origin})"
        # Resolved on first use: most fonts of a page use a few dozen of their 256 codes.
        self._table: list[Decoded | None] = [None] * 256
        self._program: ProgramTable | None = None  # the embedded program's answers, read on first need
        if self._program_applies():
            program = self._program_table()
            if program.text:
                encoding_label += f"; font program ({program.kind}) before any guess"
            elif program.problem:
                self._problems.append(
                    FontProblem(
                        DiagnosticKind.FALLBACK_DECODING, f"font program not usable: {program.problem}"
                    )
                )
        widths_source = self._read_widths()
        self.ascent, self.descent = self._ascent_descent()
        self._note_missing_tounicode()
        self._note_private_use()
        embedded = is_embedded(self._descriptor)
        self.info = FontInfo(
            font_id=font_id,
            subtype=subtype,
            base_font=self.base_font,
            encoding=encoding_label,
            has_tounicode=self._tounicode.present,
            tounicode_entries=self._tounicode.entries,
            widths_source=widths_source,
            wmode=0,
            embedded=embedded,
            problems=tuple(self._problems),
            ascent=self.ascent,
            descent=self.descent,
            substitute=substitute_reason(
                subtype,
                self.base_font,
                embedded,
                symbolic=bool((as_int(dget(self._descriptor, "/Flags")) or 0) & _FLAG_SYMBOLIC),
                base_encoding=self._encoding_name,
                glyph_names=self._differences.values(),
            ),
        )

    @property
    def code_page(self) -> str | None:
        """The Python codec of the CJK code page whose byte pairs this font reads (core/fonts/cjk.py), or None."""
        return self._code_page.codec if self._code_page is not None else None

    # ------------------------------------------------------------ protocol

    def split(self, data: bytes) -> list[tuple[int, int]]:
        if self._code_page is not None:
            return [(code, nbytes) for code, nbytes, *_ in self._decode_pairs(data)]
        return list(zip(data, repeat(1)))

    def decode(self, data: bytes) -> list[DecodedCode]:
        if self._code_page is not None:
            return self._decode_pairs(data)
        table = self._decoded
        out = [table[b] for b in data]
        if None in out:
            for b in set(data):
                if table[b] is None:
                    table[b] = (b, 1, *self._entry(b), self._widths[b])
            out = [table[b] for b in data]
        return out  # type: ignore[return-value]

    def _entry(self, code: int) -> Decoded:
        found = self._table[code]
        if found is None:
            found = self._table[code] = self._resolve(code)
        return found

    def unicode(self, code: int) -> Decoded:
        if 0 <= code < 256:
            return self._entry(code)
        text = self._code_page.text(code) if self._code_page is not None and code < 0x10000 else None
        return (text, DecodeSource.CODE_PAGE) if text else UNRESOLVED

    def width(self, code: int) -> float:
        if 0 <= code < 256:
            return self._widths[code]
        if self._code_page is not None and code < 0x10000:
            return self._widths[code >> 8] + self._widths[code & 0xFF]
        return self._default_width

    # ------------------------------------------------------------ CJK byte pairs (core/fonts/cjk.py)

    def _find_code_page(self, subtype: str) -> CodePage | None:
        """A CJK code page for a TrueType font without /ToUnicode nor /Differences: its program's
        (3,2)–(3,6) cmap subtable, else its name's bytes."""
        if subtype != "TrueType" or self._tounicode.present or self._differences:
            return None
        program = dget(self._descriptor, "/FontFile2")
        if program is not None:
            data, _ = stream_bytes(program)
            found = program_code_page(data) if data else None
            if found is not None:
                return found
        codec = code_page_of_name(name_bytes(dget(self._font, "/BaseFont")))
        return CodePage(codec, None, "font name") if codec else None

    def _decode_pairs(self, data: bytes) -> list[DecodedCode]:
        """Lead byte + trail byte forming a valid pair: one code; every other byte as one code."""
        page = self._code_page
        assert page is not None
        out: list[DecodedCode] = []
        i, n = 0, len(data)
        while i < n:
            b = data[i]
            if i + 1 < n and page.is_lead(b):
                code = (b << 8) | data[i + 1]
                text = page.text(code)
                if text:
                    out.append(
                        (code, 2, text, DecodeSource.CODE_PAGE, self._widths[b] + self._widths[data[i + 1]])
                    )
                    i += 2
                    continue
            out.append((b, 1, *self._entry(b), self._widths[b]))
            i += 1
        return out

    def vertical(self, code: int) -> tuple[float, float, float]:
        # Simple fonts have no vertical metrics; ISO 32000-1 §9.7.4.3 defaults.
        return (-1.0, self.width(code) / 2.0, 0.88)

    # ------------------------------------------------------------ encoding

    def _read_encoding(self) -> str:
        enc = dget(self._font, "/Encoding")
        base: str | None = as_name(enc)
        parts: list[str] = []
        if enc is not None and base is None:
            base = as_name(dget(enc, "/BaseEncoding"))
            diffs = dget(enc, "/Differences")
            if diffs is not None:
                self._differences, _ = parse_differences(diffs)
        self._encoding_name = base
        if base is not None and base not in KNOWN_BASE_ENCODINGS:
            self._problems.append(
                FontProblem(
                    DiagnosticKind.FALLBACK_DECODING, f"base encoding /{base} has no table; using built-in"
                )
            )
            base = None
        if base is not None:
            self._explicit_base = True
            self._base_names = base_glyph_names(base)
            parts.append(base)
        else:
            parts.append(self._builtin_encoding())
        if self._differences:
            parts.append("Differences")
        return " + ".join(parts)

    def _builtin_encoding(self) -> str:
        """The base when /Encoding names none (ISO 32000-1 §9.6.6): the font's own, else Standard."""
        program = dget(self._descriptor, "/FontFile")
        if program is not None:
            data, _ = stream_bytes(program)
            builtin = type1_builtin_encoding(data) if data else None
            if builtin:
                self._base_names = builtin
                return "built-in (font program)"
        name = self._std14 or ""
        flags = as_int(dget(self._descriptor, "/Flags")) or 0
        if name == "ZapfDingbats" and zapf_dingbats_codes():
            self._zapf = True
            return "built-in (ZapfDingbats: its AFM encoding through the Zapf Dingbats glyph list)"
        if name in _NO_BUILTIN_TABLE or (flags & _FLAG_SYMBOLIC and self._std14 is None):
            self._latin1_base = True
            return f"built-in ({name or 'symbolic'}; codes guessed as Windows-1252)"
        self._base_names = base_glyph_names("StandardEncoding")
        return "StandardEncoding (default)"

    # ------------------------------------------------------------ decoding chain (spec §6)

    def _resolve(self, code: int) -> Decoded:
        for step in (
            self._from_tounicode,
            self._from_differences,
            self._from_base_encoding,
            self._from_font_program,
            self._from_guess,
        ):
            found = step(code)
            if found is not None:
                return found
        return UNRESOLVED

    def _from_tounicode(self, code: int) -> Decoded | None:
        text = self._tounicode.lookup(code)
        return (text, DecodeSource.TOUNICODE) if text else None

    def _from_differences(self, code: int) -> Decoded | None:
        name = self._differences.get(code)
        if not name:
            return None
        text = (zapf_dingbats_name(name) if self._is_zapf() else "") or glyph_unicode(name)
        return (text, DecodeSource.DIFFERENCES) if text else None

    def _from_base_encoding(self, code: int) -> Decoded | None:
        if code in self._differences:
            return None  # the font replaced this code's glyph: the base table no longer describes it
        if self._zapf:
            text = zapf_dingbats_codes().get(code)
            return (text, DecodeSource.BASE_ENCODING) if text else None
        name = self._base_names.get(code)
        text = glyph_unicode(name) if name else None
        return (text, DecodeSource.BASE_ENCODING) if text else None

    def _is_zapf(self) -> bool:
        """A ZapfDingbats font (standard-14 name): its glyph names are the Zapf Dingbats list's."""
        return self._std14 == "ZapfDingbats"

    def _program_applies(self) -> bool:
        """Symbolic flag, or no usable encoding table: the PDF declares nothing about the codes."""
        if self.is_type3:
            return False
        flags = as_int(dget(self._descriptor, "/Flags")) or 0
        return self._latin1_base or bool(flags & _FLAG_SYMBOLIC and self._std14 is None)

    def _program_table(self) -> ProgramTable:
        if self._program is None:
            self._program = read_program_table(self._descriptor)
        return self._program

    def _from_font_program(self, code: int) -> Decoded | None:
        """The embedded program's own cmap or glyph names (core/fonts/program.py), before any guess."""
        if not self._program_applies():
            return None
        text = self._program_table().text.get(code)
        return (text, DecodeSource.FONT_PROGRAM) if text else None

    def _from_guess(self, code: int) -> Decoded | None:
        """Windows-1252 for fonts without a usable table, and for unmappable /Differences names (g12)."""
        identity = self._tounicode.guess(code)
        if identity:
            return (identity, DecodeSource.FALLBACK)
        if not (self._latin1_base or code in self._differences) or self._differences.get(code) == ".notdef":
            return None
        # A name like "/232" (Type3 fonts of some producers) states the code itself; codes are then
        # far more often Windows-1252 than the default Standard table (0xE8 "è", not "Ł").
        diff_name = self._differences.get(code, "")
        if diff_name.isdigit() or not self._explicit_base:
            text = latin1_guess(code)
        else:
            name = self._base_names.get(code)
            text = (glyph_unicode(name) if name else None) or latin1_guess(code)
        return (text, DecodeSource.FALLBACK) if text else None

    def _note_private_use(self) -> None:
        """Codes whose Unicode lies in a private use area: no reader can search them."""
        found: dict[int, tuple[str, str]] = {}  # code → (text, glyph name tried)
        program = self._program
        for code, mapped in self._tounicode.mapping.items():
            if 0 <= code < 256 and is_private_use(mapped):
                found[code] = (mapped, self._glyph_name(code, program))
        for code, name in self._differences.items():
            named = glyph_unicode(name)
            if code not in found and named and is_private_use(named) and not self._tounicode.lookup(code):
                found[code] = (named, name)
        if program is not None:
            for code, (text, name) in program.private_use.items():
                if code not in found and not self._tounicode.lookup(code) and code not in program.text:
                    found[code] = (text, name)
        if not found:
            return
        shown = ", ".join(
            f"<{code:02X}> → U+{ord(text[0]):04X} (glyph {name or 'unnamed'!s} tried: "
            + (
                "not in the Adobe Glyph List"
                if not name or glyph_unicode(name) is None
                else "private use too"
            )
            + ")"
            for code, (text, name) in sorted(found.items())[:4]
        )
        more = f" and {len(found) - 4} more" if len(found) > 4 else ""
        self._problems.append(
            FontProblem(
                DiagnosticKind.FALLBACK_DECODING,
                f"{len(found)} code(s) map to private-use code points that no search finds: {shown}{more}",
            )
        )

    def _glyph_name(self, code: int, program: ProgramTable | None) -> str:
        name = self._differences.get(code) or self._base_names.get(code)
        if not name and program is not None:
            name = program.glyph_names.get(code)
        return name or ""

    def _note_missing_tounicode(self) -> None:
        if self._tounicode.present:
            return
        odd = sorted(
            c for c, name in self._differences.items() if name != ".notdef" and glyph_unicode(name) is None
        )
        if odd:
            sample = ", ".join(f"{c}=/{self._differences[c]}" for c in odd[:3])
            self._problems.append(
                FontProblem(
                    DiagnosticKind.FONT_WITHOUT_TOUNICODE,
                    f"no /ToUnicode and {len(odd)} glyph name(s) outside the glyph list ({sample})",
                )
            )

    # ------------------------------------------------------------ metrics

    def _glyph_to_text_scale(self) -> float:
        return 0.001

    def _read_widths(self) -> str:
        scale = self._glyph_to_text_scale()
        widths = as_list(dget(self._font, "/Widths"))
        first = as_int(dget(self._font, "/FirstChar")) or 0
        missing = as_number(dget(self._descriptor, "/MissingWidth"))
        afm = standard14_widths(self._std14) if self._std14 else None
        source = "Widths" if widths else "standard-14 metrics" if afm else "none"
        fallback = missing
        if not widths and afm is None:
            avg = as_number(dget(self._descriptor, "/AvgWidth"))
            fallback = missing or avg or (DEFAULT_TEXT_WIDTH / scale if scale else 0.0)
            source = "MissingWidth" if missing else "AvgWidth" if avg else "none"
            self._problems.append(
                FontProblem(
                    DiagnosticKind.MISSING_WIDTHS,
                    f"no /Widths and not a standard-14 font: every glyph is {fallback * scale:g} em wide ({source})",
                )
            )
        table: list[float] = []
        for code in range(256):
            index = code - first
            value = as_number(widths[index]) if 0 <= index < len(widths) else None
            if value is None and afm is not None and (not widths or fallback is None):
                value = afm.get(self._glyph_char(code))
            if value is None:
                value = fallback or 0.0
            table.append(value * scale)
        self._widths = table
        self._default_width = (fallback or 0.0) * scale
        return source

    def _glyph_char(self, code: int) -> str:
        """The character of the glyph the code selects, by the font's own encoding (Differences,
        base encoding) — what its AFM metrics are keyed by — not by /ToUnicode, which says what
        the glyph means and may be wrong (an off-by-one ToUnicode must not move the glyphs)."""
        found = self._from_differences(code) or self._from_base_encoding(code)
        if found is not None and self._is_zapf():
            n = zapf_dingbats_numbers().get(found[0])
            if n is not None:
                return chr(n)  # pdfminer's key for the AFM width of glyph aN
        return found[0] if found is not None else self._entry(code)[0]

    def _ascent_descent(self) -> tuple[float, float]:
        """Descriptor /Ascent & /Descent, standard-14 AFM, /FontBBox, then 0.8 / -0.2 (spec §9)."""
        found = descriptor_ascent_descent(self._descriptor)
        if found is None and self._std14:
            found = standard14_ascent_descent(self._std14)
        if found is None:
            found = bbox_ascent_descent(bbox_of(dget(self._descriptor, "/FontBBox")))
        if found is None:
            return DEFAULT_ASCENT, DEFAULT_DESCENT
        return found[0] / 1000.0, found[1] / 1000.0
