"""Overlay layers: the registry, their builders, the Qt-free shapes and the headless painter."""
