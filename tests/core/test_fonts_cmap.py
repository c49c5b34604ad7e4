"""The CMap parser and code splitting (spec §6: counts ignored, ranges, UTF-16 destinations)."""

from __future__ import annotations

from glyphscope.core.fonts.cmap import parse_cmap
from glyphscope.core.fonts.codes import CodeSplitter
from glyphscope.core.fonts.predefined import predefined_cmap

HEADER = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
FOOTER = b"\nendcmap CMapName currentdict /CMap defineresource pop end end\n"


def cmap(body: bytes):
    return parse_cmap(HEADER + body + FOOTER)


def test_wrong_counts_are_ignored() -> None:
    parsed = cmap(b"1 beginbfchar <01> <0041> <02> <0042> <03> <0043> endbfchar")
    assert parsed.to_unicode == {1: "A", 2: "B", 3: "C"}
    parsed = cmap(b"9 beginbfchar <01> <0041> endbfchar")
    assert parsed.to_unicode == {1: "A"}


def test_bfrange_with_string_increments_whole_value() -> None:
    parsed = cmap(b"1 beginbfrange <20> <22> <0061> endbfrange")
    assert parsed.to_unicode == {0x20: "a", 0x21: "b", 0x22: "c"}
    # crossing a byte boundary carries into the previous byte (00FF -> 0100)
    parsed = cmap(b"1 beginbfrange <01> <02> <00FF> endbfrange")
    assert parsed.to_unicode == {1: "\u00ff", 2: "\u0100"}


def test_bfrange_with_array_of_destinations() -> None:
    parsed = cmap(b"1 beginbfrange <0001> <0003> [<0041> <00660069> /germandbls] endbfrange")
    assert parsed.to_unicode == {1: "A", 2: "fi", 3: "\u00df"}


def test_surrogate_pair_and_ligature_destinations() -> None:
    parsed = cmap(b"2 beginbfchar <0005> <D835DC00> <0006> <006600660069> endbfchar")
    assert parsed.to_unicode[5] == "\U0001d400"
    assert parsed.to_unicode[6] == "ffi"
    ranged = cmap(b"1 beginbfrange <10> <11> <D835DC00> endbfrange")
    assert ranged.to_unicode == {0x10: "\U0001d400", 0x11: "\U0001d401"}


def test_odd_hex_digits_and_whitespace_in_hex() -> None:
    parsed = cmap(b"2 beginbfchar <0 1> <00 4 1> <2> <0042> endbfchar")
    # "<2>" has a missing final digit, which is 0 (ISO 32000-1 §7.3.4.3)
    assert parsed.to_unicode == {1: "A", 0x20: "B"}


def test_zero_and_empty_destinations_are_not_mappings() -> None:
    parsed = cmap(b"3 beginbfchar <01> <0000> <02> <> <03> <0043> endbfchar")
    assert parsed.to_unicode == {3: "C"}


def test_garbage_is_tolerated_and_reported() -> None:
    parsed = cmap(b"2 beginbfchar <01> <0041> ) junk <02> <0042> endbfchar \xff\xfe ] >> 1 beginbfchar <03>")
    assert parsed.to_unicode[1] == "A"
    assert parsed.problems  # unexpected keyword, dangling operand, unclosed block ...
    assert parse_cmap(b"\x00\x01\x02 not a cmap at all (((").to_unicode == {}


def test_codespace_cidrange_wmode_usecmap() -> None:
    parsed = cmap(
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> def\n"
        b"/WMode 1 def /90ms-RKSJ-V usecmap\n"
        b"2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange\n"
        b"1 begincidrange <8140> <8142> 633 endcidrange 1 begincidchar <41> 34 endcidchar"
    )
    assert parsed.codespace == [(1, 0, 0x80), (2, 0x8140, 0x9FFC)]
    assert parsed.cid(0x8141) == 634 and parsed.cid(0x41) == 34 and parsed.cid(0x42) is None
    assert parsed.wmode == 1 and parsed.usecmap == "90ms-RKSJ-V" and parsed.ordering == "Japan1"


def test_splitter_from_mixed_codespace() -> None:
    splitter = CodeSplitter.from_codespace([(1, 0x00, 0x80), (2, 0x8140, 0x9FFC)])
    assert splitter is not None
    assert splitter.split(b"A\x81\x40B") == [(0x41, 1), (0x8140, 2), (0x42, 1)]
    # a lead byte no range covers consumes the shortest width (1 byte here)
    assert splitter.split(b"\xff") == [(0xFF, 1)]


def test_splitter_two_byte_and_truncated_tail() -> None:
    splitter = CodeSplitter.from_codespace([(2, 0x0000, 0xFFFF)])
    assert splitter is not None
    assert splitter.split(b"\x00\x41\x00\x42") == [(0x41, 2), (0x42, 2)]
    assert splitter.split(b"\x00\x41\x00") == [(0x41, 2), (0, 1)]


def test_splitter_ambiguous_lead_byte_prefers_shortest_match() -> None:
    splitter = CodeSplitter.from_codespace([(1, 0x00, 0x7F), (2, 0x0080, 0x7FFF)])
    assert splitter is not None
    assert splitter.split(b"\x20\x01\x90") == [(0x20, 1), (0x01, 1), (0x90, 1)]


def test_predefined_rksj_widths_from_trie() -> None:
    rksj = predefined_cmap("90ms-RKSJ-H")
    assert rksj is not None and rksj.collection == "Adobe-Japan1" and rksj.wmode == 0
    assert rksj.splitter.split(b"A\x82\xa0\xb1") == [(0x41, 1), (0x82A0, 2), (0xB1, 1)]
    assert rksj.cid(0x82A0) == 843  # Hiragana a (あ)
    assert predefined_cmap("90ms-RKSJ-V").wmode == 1  # type: ignore[union-attr]
    assert predefined_cmap("No-Such-CMap") is None


def test_predefined_utf16_surrogates_split_as_four_bytes() -> None:
    utf16 = predefined_cmap("UniGB-UTF16-H")
    assert utf16 is not None and utf16.unicode_form == "UTF16"
    assert utf16.splitter.split(b"\x4e\x2d\xd8\x40\xdc\x00") == [(0x4E2D, 2), (0xD840DC00, 4)]
