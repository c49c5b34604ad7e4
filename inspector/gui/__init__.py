"""The window: PySide6 widgets, the only package of glyphscope that imports Qt."""
