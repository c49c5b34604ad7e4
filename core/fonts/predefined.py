"""Adobe's predefined CMaps and character-collection maps, from pdfminer.six's data.

pdfminer stores a predefined CMap as a byte trie (lead byte → CID, or → sub-trie) and
no codespace ranges. We derive the code width per lead byte from the trie depth;
lead bytes the trie lacks take the CMap's shortest width (RKSJ/EUC: 1, UCS2: 2).
For the Unicode-encoded CMaps (Uni…-UCS2/UTF16/UTF8/UTF32) the width follows the
encoding itself, so codes the collection lacks still split correctly.
Everything is loaded once per process (functools.cache); the data is large.

pdfminer.six keeps each table as a gzipped JSON file next to its `cmapdb` module (its releases
since the end of 2025; older ones keep pickles). `_data_file` reads such a file as
`CMapDB._load_data` of 20260107 does — the same folders in the same order, the same key conversions —
without importing pdfminer: its package __init__ reads the distribution's metadata and
`cmapdb` pulls in its PostScript parser and charset detection, ~40 ms of a one-page
command's start for two dictionaries. Anything else (an older pdfminer, a table only
pdfminer can find, pdfminer already loaded) goes through `CMapDB` itself.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from glyphscope.core.fonts.codes import CodeSplitter

COLLECTIONS = ("Adobe-GB1", "Adobe-CNS1", "Adobe-Japan1", "Adobe-Korea1")

# CMap-name markers → character collection (Adobe's cmap-resources naming).
_FAMILY_MARKERS: tuple[tuple[str, str], ...] = (
    ("UniGB", "Adobe-GB1"),
    ("GB", "Adobe-GB1"),
    ("UniCNS", "Adobe-CNS1"),
    ("B5", "Adobe-CNS1"),
    ("CNS", "Adobe-CNS1"),
    ("ETen", "Adobe-CNS1"),
    ("HK", "Adobe-CNS1"),
    ("UniKS", "Adobe-Korea1"),
    ("KSC", "Adobe-Korea1"),
    ("UHC", "Adobe-Korea1"),
    ("Johab", "Adobe-Korea1"),
    ("UniJIS", "Adobe-Japan1"),
    ("RKSJ", "Adobe-Japan1"),
    ("EUC", "Adobe-Japan1"),  # after GB/CNS/KSC, which also use EUC
    ("NWP", "Adobe-Japan1"),
)
_JAPAN1_PLAIN = {"H", "V", "Add-H", "Add-V", "Ext-H", "Ext-V", "Hankaku", "Hiragana", "Katakana", "Roman"}
_JAPAN1_PLAIN |= {"WP-Symbol", "78-H", "78-V"}


def unicode_form(name: str) -> str | None:
    """ "UTF16" etc. when a CMap's codes are Unicode text (UniGB-UTF16-H), else None."""
    if not name.startswith("Uni"):
        return None
    for form in ("UCS2", "UTF16", "UTF8", "UTF32"):
        if f"-{form}-" in name:
            return form
    return None


def collection_of(name: str) -> str | None:
    """The character collection a predefined CMap's CIDs belong to."""
    if name.startswith("Identity"):
        return None
    if name in _JAPAN1_PLAIN:
        return "Adobe-Japan1"
    for marker, collection in _FAMILY_MARKERS:
        if marker in name:
            return collection
    return None


def decode_unicode_code(code: int, form: str) -> str | None:
    """Text of a code of a Uni… CMap (the code IS the text, in the named encoding form)."""
    try:
        if form == "UTF32":
            return chr(code) if code <= 0x10FFFF else None
        if form == "UTF8":
            raw = code.to_bytes(max(1, (code.bit_length() + 7) // 8), "big")
            return raw.decode("utf-8")
        # UCS2 / UTF16: 2 bytes, or a 4-byte surrogate pair
        raw = code.to_bytes(4 if code > 0xFFFF else 2, "big")
        return raw.decode("utf-16-be")
    except (UnicodeDecodeError, OverflowError, ValueError):
        return None


def _unicode_form_widths(form: str) -> list[int]:
    if form == "UTF32":
        return [4] * 256
    if form == "UTF8":
        return [
            1 if b < 0xC0 else 2 if b < 0xE0 else 3 if b < 0xF0 else 4 if b < 0xF8 else 1 for b in range(256)
        ]
    if form == "UTF16":
        return [4 if 0xD8 <= b <= 0xDB else 2 for b in range(256)]
    return [2] * 256


def _trie_depth(node: object) -> int:
    depth = 1
    while isinstance(node, dict) and node:
        node = next(iter(node.values()))
        depth += 1
    return depth


@dataclass(frozen=True, slots=True)
class PredefinedCMap:
    name: str
    wmode: int
    splitter: CodeSplitter
    collection: str | None
    unicode_form: str | None
    identity: bool
    _trie: Mapping[int, object]

    def cid(self, code: int) -> int | None:
        """Code → CID. The code's width is not known here: try 1..4 bytes, shortest first."""
        if self.identity:
            return code
        for nbytes in (1, 2, 3, 4):
            if code >> (8 * nbytes):
                continue
            node: object = self._trie
            for shift in range(8 * (nbytes - 1), -1, -8):
                if not isinstance(node, dict):
                    break
                node = node.get((code >> shift) & 0xFF)
            else:
                if isinstance(node, int):
                    return node
        return None


def _int_key(key: object) -> object:
    try:
        return int(key)  # type: ignore[call-overload]
    except (ValueError, TypeError):
        return key


def _int_keys(node: object) -> object:
    """`CMapDB._convert_code2cid_keys`: a trie's keys as integers (a key that is not one stays)."""
    if not isinstance(node, dict):
        return node
    return {_int_key(key): _int_keys(value) for key, value in node.items()}


def _data_file(name: str) -> dict[str, Any] | None:
    """pdfminer's table `name` as `CMapDB._load_data` reads it (see the module), or None when
    `CMapDB` itself must be asked: pdfminer is loaded already, or its own folder has no JSON
    table of that name (an older pdfminer keeps pickles; an unknown name)."""
    if "pdfminer.cmapdb" in sys.modules:
        return None
    return read_data_file(name)


@cache
def read_data_file(name: str) -> dict[str, Any] | None:
    """`_data_file` whether or not pdfminer is loaded (a test compares it with `CMapDB._load_data`);
    read once (a collection's table holds both writing modes, as CMapDB caches it)."""
    import importlib.util

    package = importlib.util.find_spec("pdfminer")  # finds the package; runs none of it
    own = (
        [os.path.join(folder, "cmap") for folder in (package.submodule_search_locations or ())]
        if package
        else []
    )
    filename = f"{name.replace(chr(0), '')}.json.gz"
    if len(own) != 1 or not os.path.exists(os.path.join(own[0], filename)):
        return None
    import gzip
    import json

    for directory in (os.environ.get("CMAP_PATH", "/usr/share/pdfminer/"), own[0]):
        path = os.path.realpath(os.path.join(directory, filename))
        if path.startswith(os.path.realpath(directory) + os.sep) and os.path.exists(path):
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                data: dict[str, Any] = json.load(fh)
            for key in ("CID2UNICHR_H", "CID2UNICHR_V"):
                if key in data:
                    data[key] = {int(k): v for k, v in data[key].items()}
            if data.get("CODE2CID"):
                data["CODE2CID"] = _int_keys(data["CODE2CID"])
            return data
    return None


def _pdfminer_cmap(name: str) -> tuple[Mapping[int, object], bool] | None:
    """(code → CID trie, vertical) of a predefined CMap as pdfminer's `CMapDB.get_cmap` gives it."""
    data = _data_file(name)
    if data is not None:
        return data.get("CODE2CID") or {}, bool(data.get("IS_VERTICAL"))
    from pdfminer.cmapdb import CMapDB

    try:
        cmap = CMapDB.get_cmap(name)
    except CMapDB.CMapNotFound:
        return None
    return getattr(cmap, "code2cid", {}) or {}, cmap.is_vertical()


@cache
def predefined_cmap(name: str) -> PredefinedCMap | None:
    """A predefined CMap by name, or None when pdfminer does not know it."""
    vertical = name.endswith("-V")
    if name in ("Identity-H", "Identity-V"):
        return PredefinedCMap(name, int(vertical), CodeSplitter.uniform(2), None, None, True, {})
    if "/" in name or "\\" in name or ".." in name:
        return None
    found = _pdfminer_cmap(name)  # read on first use: most files name no predefined CMap
    if found is None:
        return None
    trie, is_vertical = found
    form = unicode_form(name)
    if form is not None:
        widths = _unicode_form_widths(form)
    else:
        known = {lead: _trie_depth(node) for lead, node in trie.items() if isinstance(lead, int)}
        shortest = min(known.values(), default=2)
        widths = [known.get(lead, shortest) for lead in range(256)]
    wmode = 1 if is_vertical or vertical else 0
    return PredefinedCMap(name, wmode, CodeSplitter(widths), collection_of(name), form, False, trie)


@cache
def collection_map(collection: str, vertical: bool) -> Mapping[int, str]:
    """CID → Unicode for an Adobe character collection ({} when unknown)."""
    if collection not in COLLECTIONS:
        return {}
    data = _data_file(f"to-unicode-{collection}")  # read on first use, as in predefined_cmap
    if data is not None:
        table: Mapping[int, str] = data.get("CID2UNICHR_V" if vertical else "CID2UNICHR_H") or {}
        return table
    from pdfminer.cmapdb import CMapDB

    try:
        return CMapDB.get_unicode_map(collection, vertical).cid2unichr
    except CMapDB.CMapNotFound:
        return {}
