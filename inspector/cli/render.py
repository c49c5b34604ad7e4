"""`glyphscope render FILE --page N --layers … -o OUT.png`: a page drawn by PDFium, with overlays.

Typed engine errors (not found, not a PDF, password) propagate: the CLI maps
them to exit codes. `-o -` writes the PNG to stdout; otherwise stdout gets the
one success line (none with --quiet). A page the renderer cannot draw (crash,
time limit, a MediaBox of no usable size, a PDFium that cannot draw) is an error: exit 1
and one `glyphscope:` line saying why; the image is still written, blank with its overlays
and a banner giving the reason, never passed off as the page. Neither the page nor its overlays
need Qt (inspector.render.page_images: the window's painter draws the layers when the gui extra is
installed, Pillow when it is not).
"""

from __future__ import annotations

import argparse
import sys

from glyphscope.core.errors import PageOutOfRange
from glyphscope.inspector.cli import io as cli_io

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
MAX_SCALE = 16.0


def _usage(message: str) -> int:
    print(f"glyphscope: {message}", file=sys.stderr)
    return EXIT_USAGE


def run_render(args: argparse.Namespace) -> int:
    from glyphscope.inspector.report_html import resolve_layers, supported_layers

    available = supported_layers()
    layers, unknown = resolve_layers((args.layers or "").split(","), available)
    if unknown:
        names = ", ".join(k.replace("_", "-") for k in available)
        return _usage(f"unknown layer(s) {', '.join(unknown)}; choose from: {names} (or all, none, forms)")
    scale = args.scale
    if scale != scale or scale <= 0 or scale > MAX_SCALE:
        return _usage(f"--scale must be > 0 and ≤ {MAX_SCALE:g}, not {scale}")
    out = args.output
    cli_io.check_output_folder(out)

    from glyphscope.core.document import open_document

    # typed errors → exit codes in inspector.cli.parser
    doc = open_document(cli_io.read_input(args.file), cli_io.password(args), limits=cli_io.limits(args))
    try:
        for w in doc.warnings:
            cli_io.note(args, f"warning: {w}")
        if not 1 <= args.page <= doc.page_count:
            raise PageOutOfRange(
                f"page {args.page} is out of range: the document has {doc.page_count} page(s)"
            )
        from glyphscope.inspector.render.layered import draw_page

        # PDFium runs in its own process: a page it cannot draw is a blank page with the
        # overlays and a banner saying why and an error exit, never a dead command.
        drawn = draw_page(doc, args.page, layers, scale, palette=False)
        for n, message in sorted(doc.budget_notes.items()):  # a budget stopped the overlays' analysis
            cli_io.note(args, f"warning: page {n}: {message}")
        try:
            cli_io.write_output(out, drawn.png)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            print(f"glyphscope: cannot write {out}: {exc}", file=sys.stderr)
            return EXIT_ERROR
    finally:
        doc.close()
    if drawn.render_error:
        where = "" if cli_io.is_stdout(out) else f"; {out} holds a blank page saying why"
        print(f"glyphscope: page {args.page} {drawn.render_error}{where}", file=sys.stderr)
        return EXIT_ERROR
    if not cli_io.is_stdout(out) and not getattr(args, "quiet", False):
        # The success line is output, not a diagnostic: stdout (nothing with --quiet or `-o -`).
        print(
            f"page {args.page} ({drawn.width}×{drawn.height} px, layers: "
            f"{', '.join(sorted(layers)) or 'none'}) written to {out}"
        )
    return EXIT_OK
