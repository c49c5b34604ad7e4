"""glyphscope inspector: the desktop app (PySide6) and the headless page renderer."""

from __future__ import annotations

import sys
from pathlib import Path


def demo_pdf() -> Path:
    """The bundled demo document, one phenomenon per page."""
    return Path(__file__).resolve().parents[1] / "assets" / "demo.pdf"


def _affected_pyside() -> bool:
    """pyproject keeps CPython 3.11 on PySide6 < 6.12; this guards installs made by hand."""
    from importlib import metadata

    try:
        version = metadata.version("PySide6-Essentials")
    except metadata.PackageNotFoundError:
        try:
            version = metadata.version("PySide6")
        except metadata.PackageNotFoundError:
            return False
    return version.startswith("6.12")


def _make_none_immortal() -> None:
    """Work around PySide6 6.12 on CPython < 3.12: every void Qt method returns None WITHOUT a
    reference, so None's count drifts down by one per call (QPainterPath.lineTo, QPainter.save,
    QRectF.setWidth, ...) until the interpreter aborts with "none_dealloc: deallocating None".
    CPython 3.12 made None immortal (PEP 683), which hides the bug there; here we give None
    the same effective immortality by raising its count far beyond any drift. Checked, so a
    build with a different object layout is left alone."""
    if sys.version_info >= (3, 12) or not _affected_pyside():
        return
    import ctypes

    bump = 1 << 40
    # True and False drift the same way: `Signal.emit` returns True without a reference, so a
    # session that emits a few thousand signals aborts with "bool_dealloc".
    for singleton in (None, True, False):
        cell = ctypes.c_ssize_t.from_address(id(singleton))
        if abs(cell.value - sys.getrefcount(singleton)) > 64:  # not the refcount field: leave it alone
            continue
        before = cell.value
        cell.value = before + bump
        if abs(sys.getrefcount(singleton) - (before + bump)) > 64:
            cell.value -= bump


_make_none_immortal()
