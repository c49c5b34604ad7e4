"""Named graphics and text state (ISO 32000-1 §8.4, §9.3).

`q` saves the WHOLE state including the text state (font, size, Tc, Tw, Tz,
TL, Tr, Ts): saving only the CTM makes a two-byte font chosen inside q…Q
keep decoding one-byte text shown after Q.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.geometry import IDENTITY, Matrix


@dataclass(slots=True)
class TextState:
    font: LoadedFont | None = None
    font_key: str = ""
    font_size: float = 0.0
    char_spacing: float = 0.0  # Tc
    word_spacing: float = 0.0  # Tw, applies to the single-byte code 32 only
    horizontal_scaling: float = 100.0  # Tz, percent
    leading: float = 0.0  # TL
    render_mode: int = 0  # Tr
    rise: float = 0.0  # Ts


@dataclass(slots=True)
class GraphicsState:
    ctm: Matrix = IDENTITY
    text: TextState | None = None

    def copy(self) -> GraphicsState:
        return GraphicsState(self.ctm, replace(self.text) if self.text is not None else TextState())

    def __post_init__(self) -> None:
        if self.text is None:
            self.text = TextState()
