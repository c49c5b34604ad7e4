"""Resources along a form path: the page's /Resources, then each form's own on the Do chain.

A form path (`Glyph.form_path`, `PageFont.form_path`) names the Do chain from
the page to the stream that painted: ("/Fm0", "/Fm1") is form /Fm1 drawn by
form /Fm0 drawn by the page. The resources in force inside a form are its
own /Resources, or its caller's when it has none (ISO 32000-1 §7.8.3). One
walk answers every reader: the content-stream listing, the Fonts panel's
code table and the object browser.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pikepdf

MAX_INHERITANCE_DEPTH = 64  # /Parent chains in hostile files can loop


def inherited(page_obj: pikepdf.Object, key: str) -> pikepdf.Object | None:
    """A page attribute, from the page or the nearest /Parent that has it (/Resources, /MediaBox, …)."""
    node: pikepdf.Object | None = page_obj
    seen: set[tuple[int, int]] = set()
    for _ in range(MAX_INHERITANCE_DEPTH):
        if node is None or not isinstance(node, pikepdf.Dictionary):
            return None
        value = node.get(key)
        if value is not None:
            return value
        objgen = node.objgen
        if objgen != (0, 0):
            if objgen in seen:
                return None
            seen.add(objgen)
        node = node.get("/Parent")
    return None


@dataclass(frozen=True, slots=True)
class FormTarget:
    """The stream a form path ends at (None: the page itself) and the resources in force in it."""

    stream: pikepdf.Stream | None
    resources: pikepdf.Dictionary | None


def page_resources(page_obj: pikepdf.Dictionary) -> pikepdf.Dictionary | None:
    """The page's /Resources, inherited from the page tree when the page has none of its own."""
    found = inherited(page_obj, "/Resources")
    return found if isinstance(found, pikepdf.Dictionary) else None


def form_step(
    resources: pikepdf.Dictionary | None, name: str
) -> tuple[pikepdf.Stream, pikepdf.Dictionary | None] | None:
    """The XObject `name` of `resources` and the resources in force inside it (its own, else the
    caller's); None when `name` is no stream there."""
    xobjects = resources.get("/XObject") if resources is not None else None
    target = xobjects.get(name) if isinstance(xobjects, pikepdf.Dictionary) else None
    if not isinstance(target, pikepdf.Stream):
        return None
    own = target.get("/Resources")
    return target, own if isinstance(own, pikepdf.Dictionary) else resources


def form_target(page_obj: pikepdf.Dictionary, form_path: Sequence[str]) -> FormTarget | None:
    """Follow `form_path` from the page; None when a name on it is not a stream in the resources in force."""
    stream: pikepdf.Stream | None = None
    resources = page_resources(page_obj)
    for name in form_path:
        step = form_step(resources, name)
        if step is None:
            return None
        stream, resources = step
    return FormTarget(stream, resources)
