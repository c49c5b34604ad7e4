"""The result of assembling one page: text, decisions and the character map.

Character map (compact, `array('i')`, one entry per character of `text`):

* `glyph[i]`    — paint_index of the glyph character i came from, −1 when generated;
  a ligature glyph "ffi" gives three characters with the same paint index.
* `decision[i]` — for generated characters (inserted spaces, line breaks, layout
  padding, column separators): index into `PageText.decisions` of the decision
  that generated it, −1 otherwise.
* `chars_of_glyph(p)` — the range of characters glyph p produced (empty range
  when it is not in the text); every glyph's characters are contiguous.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from glyphscope.core.assembly.chars import LIGATURES, expand_ligatures, glyph_text
from glyphscope.core.assembly.decisions import Decision, LigatureDecision
from glyphscope.core.glyph import Glyph


@dataclass(frozen=True, slots=True, eq=False)
class CharMap:
    glyph: array  # array('i'), see module docstring
    decision: array  # array('i')
    glyph_start: array  # array('i') indexed by paint_index: first character, −1 when absent
    glyph_length: array  # array('i') indexed by paint_index: number of characters

    def __len__(self) -> int:
        return len(self.glyph)

    def chars_of_glyph(self, paint_index: int) -> range:
        if 0 <= paint_index < len(self.glyph_start):
            start = self.glyph_start[paint_index]
            if start >= 0:
                return range(start, start + self.glyph_length[paint_index])
        return range(0)

    def glyph_of_char(self, char_index: int) -> int:
        return self.glyph[char_index]

    def decision_of_char(self, char_index: int) -> int:
        return self.decision[char_index]

    def to_json(self) -> dict[str, list[int]]:
        return {"glyph": self.glyph.tolist(), "decision": self.decision.tolist()}


EMPTY_CHAR_MAP = CharMap(array("i"), array("i"), array("i"), array("i"))


@dataclass(frozen=True, slots=True, eq=False)
class PageText:
    mode: str  # one of core.assembly.MODES
    text: str | None  # None only when structure mode finds no usable structure
    char_map: CharMap
    decisions: tuple[Decision, ...]
    structured: bool | None = None  # auto: whether structure order was used
    untagged: int | None = None  # structure / auto: visible glyphs outside the tree's MCIDs
    reason: str | None = None  # why structure order was not (or could not be) used
    order: str | None = None  # auto: the reading order it chose ("structure", "articles", "plain")

    def chars_of_glyph(self, paint_index: int) -> range:
        return self.char_map.chars_of_glyph(paint_index)

    def glyph_of_char(self, char_index: int) -> int:
        return self.char_map.glyph[char_index]

    def decision_of_char(self, char_index: int) -> Decision | None:
        i = self.char_map.decision[char_index]
        return self.decisions[i] if i >= 0 else None

    def decisions_of(self, kind: type) -> list[Any]:
        return [d for d in self.decisions if isinstance(d, kind)]

    def to_json(self, *, decisions: bool = True, char_map: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": self.mode,
            "text": self.text,
            "structured": self.structured,
            "untagged": self.untagged,
            "reason": self.reason,
        }
        if decisions:
            out["decisions"] = [d.to_json() for d in self.decisions]
        if char_map:
            out["char_map"] = self.char_map.to_json()
        return out


class TextBuilder:
    """Accumulates text, the character map and decisions (one builder per assembly)."""

    __slots__ = ("_parts", "_glyph", "_decision", "_decisions", "_last", "_spans", "_expand")

    def __init__(self, *, keep_ligatures: bool = False) -> None:
        self._expand = not keep_ligatures  # Parameters.keep_ligatures
        self._parts: list[str] = []
        self._glyph = array("i")
        self._decision = array("i")
        self._decisions: list[Decision] = []
        self._last = ""  # last character emitted
        self._spans: list[tuple[int, int, int]] = []  # (paint_index, start, length)

    @property
    def empty(self) -> bool:
        return not self._glyph

    @property
    def last_char(self) -> str:
        return self._last

    @property
    def decision_count(self) -> int:
        return len(self._decisions)

    def decide(self, decision: Decision) -> int:
        self._decisions.append(decision)
        return len(self._decisions) - 1

    def glyph(self, g: Glyph, text: str | None = None) -> int:
        """Emit the glyph's text (`text` when the caller already has it); returns its length."""
        if text is None:
            text = glyph_text(g)
        if self._expand and (text in LIGATURES or (len(text) > 1 and expand_ligatures(text) is not None)):
            letters = expand_ligatures(text) or text
            self._decisions.append(LigatureDecision(g.paint_index, text, letters))
            text = letters  # several characters, one glyph: the char map links each to it
        n = len(text)
        self._spans.append((g.paint_index, len(self._glyph), n))
        self._parts.append(text)
        if n == 1:
            self._glyph.append(g.paint_index)
            self._decision.append(-1)
        else:
            self._glyph.extend([g.paint_index] * n)
            self._decision.extend([-1] * n)
        self._last = text[-1]
        return n

    def generated(self, text: str, decision_index: int) -> None:
        if not text:
            return
        self._parts.append(text)
        self._glyph.extend([-1] * len(text))
        self._decision.extend([decision_index] * len(text))
        self._last = text[-1]

    def newline(self, decision_index: int, count: int = 1) -> None:
        """Line break(s); none at the start of the text (no leading empty lines)."""
        if self._glyph:
            self.generated("\n" * count, decision_index)

    def build(self, mode: str, **extra: Any) -> PageText:
        text = "".join(self._parts)
        glyph, decision = self._glyph, self._decision
        cut = len(text)
        while cut and text[cut - 1] == "\n" and glyph[cut - 1] < 0:
            cut -= 1  # no trailing newline (spec §9)
        if cut != len(text):
            text = text[:cut]
            glyph = glyph[:cut]
            decision = decision[:cut]
        size = max((p for p, _, _ in self._spans), default=-1) + 1
        start = array("i", [-1]) * size
        length = array("i", [0]) * size
        for p, s, n in self._spans:
            start[p] = s
            length[p] = n
        return PageText(
            mode=mode,
            text=text,
            char_map=CharMap(glyph, decision, start, length),
            decisions=tuple(self._decisions),
            **extra,
        )


def no_text(mode: str, reason: str, decisions: Sequence[Decision] = (), **extra: Any) -> PageText:
    return PageText(
        mode=mode, text=None, char_map=EMPTY_CHAR_MAP, decisions=tuple(decisions), reason=reason, **extra
    )
