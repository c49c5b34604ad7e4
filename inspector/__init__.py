"""The inspector: the command line and the window over the engine, in rooms.

`cli/` the `glyphscope` command line; `views/` the Qt-free view models (session, page facts,
probe, search, stepper, trees); `layers/` the overlay layers and their headless painter;
`render/` page images; `compare/` other engines' (or the customer's) text against the glyphs;
`verify/` the OCR cross-check; `gui/` the PySide6 window, the only place Qt is imported.
"""
