"""The inspector's Qt-free layer: command line, session model, search, probe, layers, jobs.

The widgets live in `glyphscope.inspector.gui`, which is the only place Qt is imported.
"""
