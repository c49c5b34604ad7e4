"""`glyphscope render FILE --page N --layers … -o OUT.png`: a page with overlays, drawn by the window's code.

Typed engine errors (not found, not a PDF, password) propagate: the CLI maps
them to exit codes. Nothing is printed on stdout on success.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from glyphscope.core.errors import PageOutOfRange

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
MAX_SCALE = 16.0


def _usage(message: str) -> int:
    print(f"glyphscope: {message}", file=sys.stderr)
    return EXIT_USAGE


def run_render(args: argparse.Namespace) -> int:
    from glyphscope.inspector.report_html import ensure_gui_application, resolve_layers, supported_layers

    available = supported_layers()
    layers, unknown = resolve_layers((args.layers or "").split(","), available)
    if unknown:
        names = ", ".join(k.replace("_", "-") for k in available)
        return _usage(f"unknown layer(s) {', '.join(unknown)}; choose from: {names} (or all, none, forms)")
    scale = args.scale
    if scale != scale or scale <= 0 or scale > MAX_SCALE:
        return _usage(f"--scale must be > 0 and ≤ {MAX_SCALE:g}, not {scale}")
    out = Path(args.output)
    if out.parent and not out.parent.resolve().is_dir():
        return _usage(f"cannot write {out}: its folder does not exist")

    from glyphscope.core.document import open_document

    doc = open_document(args.file, args.password)  # typed errors → exit codes in inspector.cli
    try:
        for w in doc.warnings:
            print(f"glyphscope: warning: {w}", file=sys.stderr)
        if not 1 <= args.page <= doc.page_count:
            raise PageOutOfRange(
                f"page {args.page} is out of range: the document has {doc.page_count} page(s)"
            )
        ensure_gui_application()
        from glyphscope.inspector.gui.render_image import render_page_image

        image = render_page_image(doc, args.page, layers, scale)
        if image is None or image.isNull():
            print("glyphscope: the page could not be rendered", file=sys.stderr)
            return EXIT_ERROR
        if not image.save(str(out), "PNG"):
            print(f"glyphscope: cannot write {out}", file=sys.stderr)
            return EXIT_ERROR
    finally:
        doc.close()
    print(
        f"glyphscope: page {args.page} ({image.width()}×{image.height()} px, layers: "
        f"{', '.join(sorted(layers)) or 'none'}) written to {out}",
        file=sys.stderr,
    )
    return EXIT_OK
