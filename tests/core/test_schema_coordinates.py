"""Every coordinate in the JSON outputs says its system (the Python API uses another one)."""

from __future__ import annotations

import json
from pathlib import Path

SCHEMAS = Path(__file__).resolve().parents[2] / "inspector" / "schemas"
USER_SPACE = "PDF user space (origin bottom-left, y up)"


def test_glyph_coordinates_name_pdf_user_space() -> None:
    schema = json.loads((SCHEMAS / "glyphs.schema.json").read_text("utf-8"))
    glyph = schema["$defs"]["glyph"]["properties"]
    for name in ("origin", "glyph_end", "pen_end", "quad", "direction"):
        assert USER_SPACE in glyph[name]["description"], name
    assert USER_SPACE in schema["properties"]["visible_box"]["description"]
    assert "text space" in glyph["font_size"]["description"]


def test_decision_measures_name_pdf_user_space() -> None:
    schema = json.loads((SCHEMAS / "decisions.schema.json").read_text("utf-8"))
    assert USER_SPACE in schema["$defs"]["measure"]["description"]
