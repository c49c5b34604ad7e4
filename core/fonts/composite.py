"""Type0 (composite) fonts: codes → CIDs through the /Encoding CMap, metrics by CID.

Decoding results and widths are cached per code: a CJK page repeats few codes many
times, and the chain (CMap trie walk, collection lookup) runs once per distinct code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.fonts.base import DecodedCode, FontInfo, FontProblem
from glyphscope.core.fonts.cmap import ParsedCMap, parse_cmap
from glyphscope.core.fonts.codes import CodeSplitter
from glyphscope.core.fonts.common import ToUnicode, is_embedded, read_tounicode, substitute_reason
from glyphscope.core.fonts.metrics import (
    DEFAULT_ASCENT,
    DEFAULT_DESCENT,
    DEFAULT_DW,
    DEFAULT_DW2,
    CIDMetricsTable,
    bbox_ascent_descent,
    bbox_of,
    descriptor_ascent_descent,
    parse_cid_metrics,
)
from glyphscope.core.fonts.pdfobj import (
    as_int,
    as_list,
    as_name,
    as_number,
    as_numbers,
    as_text,
    dget,
    is_dict,
    stream_bytes,
)
from glyphscope.core.fonts.predefined import (
    COLLECTIONS,
    PredefinedCMap,
    collection_map,
    decode_unicode_code,
    predefined_cmap,
    unicode_form,
)
from glyphscope.core.fonts.truetype import cid_to_gid_map, glyph_unicode_map
from glyphscope.core.glyph import DecodeSource

Decoded = tuple[str, DecodeSource]
UNRESOLVED: Decoded = ("", DecodeSource.UNRESOLVED)


class CompositeFont:
    is_type3 = False

    def __init__(self, font: object, font_id: str) -> None:
        self._font = font
        self._problems: list[FontProblem] = []
        self.base_font = as_text(dget(font, "/BaseFont")) or ""
        self._descendant = self._read_descendant()
        self._descriptor = dget(self._descendant, "/FontDescriptor")
        self._tounicode: ToUnicode = read_tounicode(font)
        self._problems.extend(self._tounicode.problems)
        self._system_collection = self._read_cid_system_info()
        # set by _read_encoding
        self._splitter: CodeSplitter = CodeSplitter.uniform(2)
        self._cid_of: Callable[[int], int | None] = _identity
        self._unicode_form: str | None = None
        self._cmap_collection: str | None = None
        self.wmode = 0
        encoding_label = self._read_encoding()
        self.collection = self._cmap_collection or self._system_collection
        self._collection_maps = self._collection_tables()
        self._uni_cache: dict[int, Decoded] = {}
        self._decoded: dict[tuple[int, int], DecodedCode] = {}
        self._glyph_map: dict[int, str] | None = None  # embedded TrueType cmap, loaded on first need
        self._cid_to_gid: Mapping[int, int] | None = None
        self._w_cache: dict[int, float] = {}
        self._widths, self._dw, widths_source = self._read_widths()
        self._widths2, self._dw2 = self._read_vertical_metrics()
        self.ascent, self.descent = self._ascent_descent()
        self._note_missing_tounicode()
        self.info = FontInfo(
            font_id=font_id,
            subtype="Type0",
            base_font=self.base_font,
            encoding=encoding_label,
            has_tounicode=self._tounicode.present,
            tounicode_entries=self._tounicode.entries,
            widths_source=widths_source,
            wmode=self.wmode,
            descendant_subtype=as_name(dget(self._descendant, "/Subtype")),
            cid_collection=self.collection,
            embedded=is_embedded(self._descriptor),
            problems=tuple(self._problems),
            substitute=substitute_reason("Type0", self.base_font, is_embedded(self._descriptor)),
            ascent=self.ascent,
            descent=self.descent,
        )

    # ------------------------------------------------------------ protocol

    def split(self, data: bytes) -> list[tuple[int, int]]:
        return self._splitter.split(data)

    def decode(self, data: bytes) -> list[DecodedCode]:
        cache = self._decoded
        out = []
        for code, nbytes in self._splitter.split(data):
            found = cache.get((code, nbytes))
            if found is None:
                text, source = self.unicode(code)
                found = cache[(code, nbytes)] = (code, nbytes, text, source, self.width(code))
            out.append(found)
        return out

    def unicode(self, code: int) -> Decoded:
        found = self._uni_cache.get(code)
        if found is None:
            found = self._uni_cache[code] = self._resolve(code)
        return found

    def width(self, code: int) -> float:
        found = self._w_cache.get(code)
        if found is None:
            cid = self.cid(code)
            value = self._widths.lookup(cid) if cid is not None else None
            found = self._w_cache[code] = (value[0] if value else self._dw) / 1000.0
        return found

    def vertical(self, code: int) -> tuple[float, float, float]:
        cid = self.cid(code)
        value = self._widths2.lookup(cid) if cid is not None else None
        if value is not None:
            return (value[0] / 1000.0, value[1] / 1000.0, value[2] / 1000.0)
        return (self._dw2[1] / 1000.0, self.width(code) / 2.0, self._dw2[0] / 1000.0)

    def cid(self, code: int) -> int | None:
        return self._cid_of(code)

    # ------------------------------------------------------------ structure

    def _read_descendant(self) -> object:
        descendants = dget(self._font, "/DescendantFonts")
        items = as_list(descendants)
        candidate = items[0] if items else descendants
        if is_dict(candidate):
            return candidate
        self._problems.append(
            FontProblem(DiagnosticKind.FONT_FAILED, "Type0 font without a usable /DescendantFonts")
        )
        return None

    def _read_cid_system_info(self) -> str | None:
        info = dget(self._descendant, "/CIDSystemInfo")
        items = as_list(info)
        if items:  # some producers wrap the dictionary in an array
            info = items[0]
        registry = as_text(dget(info, "/Registry"))
        ordering = as_text(dget(info, "/Ordering"))
        if ordering is None:
            return None
        return f"{registry or 'Adobe'}-{ordering}"

    def _read_encoding(self) -> str:
        enc = dget(self._font, "/Encoding")
        name = as_name(enc)
        if name is not None:
            return self._use_predefined(name)
        if enc is not None:
            data, error = stream_bytes(enc)
            if data is not None:
                return self._use_embedded(enc, parse_cmap(data))
            self._problem(
                DiagnosticKind.FONT_FAILED, f"/Encoding CMap stream unreadable ({error}); using Identity-H"
            )
        else:
            self._problem(DiagnosticKind.FONT_FAILED, "Type0 font without /Encoding; using Identity-H")
        return self._use_predefined("Identity-H")

    def _use_predefined(self, name: str) -> str:
        cmap = predefined_cmap(name)
        if cmap is None:
            self._problem(
                DiagnosticKind.FALLBACK_DECODING,
                f"unknown predefined CMap /{name}: codes split by the ToUnicode codespace or as 2 bytes, CID = code",
            )
            self._splitter = CodeSplitter.from_codespace(self._tounicode.codespace) or CodeSplitter.uniform(2)
            self.wmode = 1 if name.endswith("-V") else 0
            return name
        self._apply_predefined(cmap)
        return name

    def _apply_predefined(self, cmap: PredefinedCMap) -> None:
        self._splitter = cmap.splitter
        self._cid_of = cmap.cid
        self._unicode_form = cmap.unicode_form
        self._cmap_collection = cmap.collection
        self.wmode = cmap.wmode

    def _use_embedded(self, stream: object, parsed: ParsedCMap) -> str:
        if parsed.problems:
            self._problem(DiagnosticKind.FONT_FAILED, "/Encoding CMap: " + "; ".join(parsed.problems[:3]))
        parent_name = parsed.usecmap or as_name(dget(stream, "/UseCMap"))
        parent = predefined_cmap(parent_name) if parent_name else None
        if parent is not None:
            self._apply_predefined(parent)
        splitter = CodeSplitter.from_codespace(parsed.codespace)
        if splitter is not None:
            self._splitter = splitter
        elif parent is None:
            self._splitter = CodeSplitter.from_codespace(self._tounicode.codespace) or CodeSplitter.uniform(2)
        wmode = as_int(dget(stream, "/WMode"))
        if parsed.wmode or wmode == 1:
            self.wmode = 1
        if parsed.has_cids:
            self._cid_of = _chain(parsed, self._cid_of if parent is not None else None)
        elif parent is None:
            self._problem(
                DiagnosticKind.FALLBACK_DECODING, "/Encoding CMap maps no codes to CIDs; CID = code"
            )
        if parsed.name and unicode_form(parsed.name):
            self._unicode_form = unicode_form(parsed.name)
        if parsed.ordering:
            self._cmap_collection = f"{parsed.registry or 'Adobe'}-{parsed.ordering}"
        label = parsed.name or "embedded CMap"
        return f"{label} (usecmap {parent_name})" if parent_name else label

    def _collection_tables(self) -> tuple[Mapping[int, str], ...]:
        if self.collection not in COLLECTIONS:
            return ()
        # Vertical CIDs map to presentation forms in the H table (U+FE11) and to the plain
        # character in the V table; text wants the plain one, so V goes first in WMode 1.
        first, second = (True, False) if self.wmode else (False, True)
        return (collection_map(self.collection, first), collection_map(self.collection, second))

    # ------------------------------------------------------------ decoding chain (spec §6)

    def _resolve(self, code: int) -> Decoded:
        for step in (
            self._from_tounicode,
            self._from_encoding_cmap,
            self._from_collection,
            self._from_font_program,
            self._from_identity_guess,
        ):
            found = step(code)
            if found is not None:
                return found
        return UNRESOLVED

    def _from_tounicode(self, code: int) -> Decoded | None:
        text = self._tounicode.lookup(code)
        return (text, DecodeSource.TOUNICODE) if text else None

    def _from_encoding_cmap(self, code: int) -> Decoded | None:
        if self._unicode_form is None:
            return None
        text = decode_unicode_code(code, self._unicode_form)
        return (text, DecodeSource.ENCODING_CMAP) if text and text != "\x00" else None

    def _from_collection(self, code: int) -> Decoded | None:
        if not self._collection_maps:
            return None
        cid = self.cid(code)
        if cid is None or cid == 0:
            return None
        for table in self._collection_maps:
            text = table.get(cid)
            if text:
                return (text, DecodeSource.CID_COLLECTION)
        return None

    def _from_font_program(self, code: int) -> Decoded | None:
        if self._glyph_map is None:
            self._glyph_map = self._load_glyph_map()
        if not self._glyph_map:
            return None
        cid = self.cid(code)
        if cid is None:
            return None
        gid = self._cid_to_gid.get(cid, 0) if self._cid_to_gid is not None else cid
        text = self._glyph_map.get(gid)
        return (text, DecodeSource.FONT_PROGRAM) if text else None

    def _from_identity_guess(self, code: int) -> Decoded | None:
        text = self._tounicode.guess(code)
        return (text, DecodeSource.FALLBACK) if text else None

    def _load_glyph_map(self) -> dict[int, str]:
        """GID → Unicode from an embedded TrueType cmap, for Identity-ordered fonts only (lazy)."""
        if self._unicode_form or self._collection_maps:
            return {}
        program = dget(self._descriptor, "/FontFile2")
        if program is None or as_name(dget(self._descendant, "/Subtype")) != "CIDFontType2":
            return {}
        data, error = stream_bytes(program)
        if data is None:
            self._late_problem(f"embedded TrueType program unreadable ({error})")
            return {}
        try:
            glyphs = glyph_unicode_map(data)
        except Exception as exc:  # noqa: BLE001 -- fontTools raises many types on broken programs; recorded
            self._late_problem(f"embedded TrueType cmap unusable ({type(exc).__name__}: {exc})")
            return {}
        self._cid_to_gid = cid_to_gid_map(self._descendant)
        return glyphs

    def _late_problem(self, message: str) -> None:
        """A problem found after loading (lazy steps): appended to the already published info."""
        problem = FontProblem(DiagnosticKind.FALLBACK_DECODING, message)
        self.info = replace(self.info, problems=(*self.info.problems, problem))

    def _note_missing_tounicode(self) -> None:
        if self._tounicode.present:
            return
        if self._unicode_form:
            how = f"codes are Unicode ({self._unicode_form})"
        elif self._collection_maps:
            how = f"decoded through the {self.collection} collection"
        elif dget(self._descriptor, "/FontFile2") is not None:
            how = "only the embedded TrueType cmap can be tried (an inference)"
        else:
            how = f"CIDs of {self.collection or 'an unknown collection'} cannot be decoded"
        self._problem(DiagnosticKind.FONT_WITHOUT_TOUNICODE, f"composite font without /ToUnicode: {how}")

    # ------------------------------------------------------------ metrics

    def _read_widths(self) -> tuple[CIDMetricsTable, float, str]:
        table = parse_cid_metrics(dget(self._descendant, "/W"), 1)
        dw = as_number(dget(self._descendant, "/DW"))
        if dw is None:
            dw = DEFAULT_DW
        if table.unsorted:
            self._problem(DiagnosticKind.UNSORTED_W, "/W entries are not sorted by CID; sorted when read")
        if table.overlapping:
            self._problem(DiagnosticKind.OVERLAPPING_W, "/W entries overlap; the entry written first wins")
        if table.malformed:
            self._problem(
                DiagnosticKind.MISSING_WIDTHS, f"/W: {table.malformed} malformed entr(y/ies) skipped"
            )
        return table, dw, "W" if table.count else "DW only"

    def _read_vertical_metrics(self) -> tuple[CIDMetricsTable, tuple[float, float]]:
        table = parse_cid_metrics(dget(self._descendant, "/W2"), 3)
        dw2 = as_numbers(dget(self._descendant, "/DW2"))
        return table, (dw2[0], dw2[1]) if dw2 is not None and len(dw2) == 2 else DEFAULT_DW2

    def _ascent_descent(self) -> tuple[float, float]:
        found = descriptor_ascent_descent(self._descriptor)
        if found is None:
            found = bbox_ascent_descent(bbox_of(dget(self._descriptor, "/FontBBox")))
        if found is None:
            return DEFAULT_ASCENT, DEFAULT_DESCENT
        return found[0] / 1000.0, found[1] / 1000.0

    def _problem(self, kind: DiagnosticKind, message: str) -> None:
        self._problems.append(FontProblem(kind, message))


def _identity(code: int) -> int | None:
    return code


def _chain(parsed: ParsedCMap, parent: Callable[[int], int | None] | None) -> Callable[[int], int | None]:
    """Code → CID from an embedded CMap, falling back to its usecmap parent."""

    def cid(code: int) -> int | None:
        found = parsed.cid(code)
        if found is None and parent is not None:
            found = parent(code)
        return found

    return cid
