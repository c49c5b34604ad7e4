"""What more than one panel reads, declared once here so that no panel imports another."""

from __future__ import annotations

from glyphscope.inspector.verify.check import FontVerdict

STEPPER_KEYS = (  # (key, what it does): the stepper binds them, the Help guide lists them
    ("F10", "step to the next instruction"),
    ("Shift+F10", "step back"),
    ("F5", "run to the next breakpoint"),
    ("Shift+F5", "run back to the previous breakpoint"),
    ("F9", "toggle a breakpoint on the current instruction"),
    ("Ctrl+F10", "go to the instruction that painted the selected glyph"),
)

VERDICT_COLOURS = {  # a font's OCR verdict, in the Verify panel and the Fonts panel's OCR column
    FontVerdict.MAPPING_RIGHT: "#2e7d32",
    FontVerdict.MAPPING_WRONG: "#c62828",
    FontVerdict.CANNOT_TELL: "#757575",
}
