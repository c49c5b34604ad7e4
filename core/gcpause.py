"""Pausing Python's cyclic garbage collector around allocation-heavy, cycle-free work.

Interpreting a page and assembling its text create hundreds of thousands of small
records (glyphs, decisions, tuples) that never form reference cycles: reference
counting frees them. The cyclic collector still walks them again and again as they
are promoted through its generations, which cost 20–30 % of the corpus benchmarks
and most of their run-to-run jitter. Sections nest and may run in several threads;
the collector resumes when the last one ends (and only if it was enabled before).

Switching the collector is process-wide, so a library must not do it behind its
caller's back: sections are no-ops until an entry point (the command line, the
window, a benchmark) calls `allow_gc_pauses()`.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_resume = False
_allowed = False
_start_pause = False  # the collector is off since the process started (pause_start)


def allow_gc_pauses(allowed: bool = True) -> None:
    """Opt in (entry points only): let `gc_paused` sections switch the cyclic collector off."""
    global _allowed
    _allowed = allowed


def pause_start() -> None:
    """An entry point's own process, at its start: the collector off while the command's modules are
    imported (thousands of module objects, none of them garbage: some 40 collections, ~7 ms of a
    one-page `glyphscope text`), back on when the first `gc_paused` section ends (the first page
    read) or at `resume_start`, whichever comes first; what was made by then is frozen (gc.freeze:
    the modules' objects are never garbage). Needs `allow_gc_pauses()` first."""
    global _start_pause
    with _lock:
        if _allowed and _depth == 0 and gc.isenabled():
            gc.disable()
            _start_pause = True


def resume_start() -> None:
    """End `pause_start`'s pause now (a command that reads no page; the window)."""
    global _start_pause
    with _lock:
        if _start_pause and _depth == 0:
            _start_pause = False
            gc.freeze()
            gc.enable()


@contextmanager
def gc_paused() -> Iterator[None]:
    global _depth, _resume, _start_pause
    if not _allowed:
        yield
        return
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled() or _start_pause
            if _start_pause:  # what the start made stays: no collection will walk it again
                gc.freeze()
                _start_pause = False
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
