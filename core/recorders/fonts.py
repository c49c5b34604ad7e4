"""The font recorder: every font chosen on the page, with the stream (page or form path) that chose it."""

from __future__ import annotations

from glyphscope.core.fonts.base import LoadedFont
from glyphscope.core.page import PageFont
from glyphscope.core.recorders.base import InterpreterView, Recorder


class FontRecorder(Recorder):
    """One `PageFont` per (resource name, form path, font object) chosen by Tf."""

    def __init__(self) -> None:
        self.fonts: dict[tuple[str, tuple[str, ...], str], PageFont] = {}

    def start(self, interp: InterpreterView) -> None:
        self.interp = interp

    def font_selected(self, key: str, font: LoadedFont) -> None:
        form_path = self.interp.frame.form_path
        ident = (key, form_path, font.info.font_id)
        if ident not in self.fonts:
            self.fonts[ident] = PageFont(key, form_path, font.info)
