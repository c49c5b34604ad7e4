"""The `glyphscope` command line: headless triage with the same engine as the window.

Exit codes (spec §9): 0 ok; 1 error while processing; 2 usage; 3 password
required or wrong; 4 not a PDF or unreadable. Errors are one line on
stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from glyphscope.core.document import Document, open_document
from glyphscope.core.errors import GlyphscopeError
from glyphscope.core.params import Parameters

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_PASSWORD, EXIT_NOT_PDF = 0, 1, 2, 3, 4
SUBCOMMANDS = ("glyphs", "fonts", "diagnostics", "text", "decisions", "triage", "render")


class CliError(Exception):
    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"glyphscope: {message}\n")


def _write_json(obj: Any, out: str | None = None) -> None:
    text = json.dumps(obj, ensure_ascii=False, indent=1) + "\n"
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.buffer.write(text.encode("utf-8"))


def _open(path: str, password: str | None) -> Document:
    doc = open_document(path, password)
    for w in doc.warnings:
        print(f"glyphscope: warning: {w}", file=sys.stderr)
    return doc


def _page(doc: Document, n: int) -> int:
    if not 1 <= n <= doc.page_count:
        raise CliError(f"page {n} is out of range: the document has {doc.page_count} page(s)", EXIT_USAGE)
    return n


def _pages(doc: Document, spec: str | None) -> list[int]:
    from glyphscope.core.page_range import parse_page_range

    try:
        return list(parse_page_range(spec or "", doc.page_count))
    except ValueError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


_ESCAPES = {"f": "\f", "n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\"}


def _unescape(text: str) -> str:
    r"""Backslash escapes in --separator (\f, \n, \t, \xHH, \uHHHH); other characters as typed."""

    def repl(m: re.Match[str]) -> str:
        code = m.group(1)
        if code[0] in "xu":
            return chr(int(code[1:], 16))
        return _ESCAPES[code]

    return re.sub(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[fntr0\\])", repl, text)


def _params(args: argparse.Namespace) -> Parameters:
    try:
        return Parameters(
            word_gap=args.word_gap,
            line_break=args.line_break,
            columns_gap=args.columns_gap,
        )
    except ValueError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


# ------------------------------------------------------------------ commands


def cmd_glyphs(args: argparse.Namespace) -> int:
    from glyphscope.core.passes import classify
    from glyphscope.core.serialize import glyph_to_json, rect_to_json

    doc = _open(args.file, args.password)
    n = _page(doc, args.page)
    page = doc.interpret(n)
    c = classify(page)
    if args.set == "raw":
        chosen = c.raw
    elif args.set == "visible":
        chosen = c.visible
    else:
        chosen = c.glyphs
    rows = [glyph_to_json(g, c.status[g.paint_index], c.duplicate_of[g.paint_index]) for g in chosen]
    if args.json:
        _write_json(
            {
                "file": args.file,
                "page": n,
                "set": args.set,
                "visible_box": rect_to_json(page.boxes.visible_box),
                "warnings": list(doc.warnings),
                "glyphs": rows,
            }
        )
    else:
        out = sys.stdout
        out.write("#\tunicode\tcode\tfont\tsize\torigin\theight\tstatus\tsource\ttoken\tform\n")
        for r in rows:
            out.write(
                f"{r['paint_index']}\t{r['unicode']!r}\t{r['code']}\t{r['font_key']}\t{r['font_size']}\t"
                f"{r['origin'][0]},{r['origin'][1]}\t{r['height']}\t{r['status']}\t{r['decode_source']}\t"
                f"{r['token_index']}\t{'/'.join(r['form_path'])}\n"
            )
    return EXIT_OK


def cmd_fonts(args: argparse.Namespace) -> int:
    from glyphscope.core.serialize import font_info_to_json

    doc = _open(args.file, args.password)
    n = _page(doc, args.page)
    page = doc.interpret(n)
    by_font: dict[str, Counter[str]] = {}
    for g in page.glyphs:
        by_font.setdefault(g.font_id, Counter())[g.decode_source.value] += 1
    fonts = []
    for pf in page.fonts:
        counts = by_font.get(pf.info.font_id, Counter())
        row = {"font_key": pf.font_key, "form_path": list(pf.form_path)}
        row.update(font_info_to_json(pf.info))
        row["glyphs"] = sum(counts.values())
        row["decode_sources"] = dict(sorted(counts.items()))
        row["unresolved"] = counts.get("unresolved", 0)
        fonts.append(row)
    if args.json:
        _write_json({"file": args.file, "page": n, "warnings": list(doc.warnings), "fonts": fonts})
    else:
        for f in fonts:
            print(
                f"{f['font_key']}\t{f['subtype']}\t{f['base_font']}\t{f['encoding']}\t"
                f"ToUnicode={'yes' if f['has_tounicode'] else 'no'}\tglyphs={f['glyphs']}\t"
                f"unresolved={f['unresolved']}\t{'; '.join(p['message'] for p in f['problems'])}"
            )
    return EXIT_OK


def cmd_diagnostics(args: argparse.Namespace) -> int:
    from glyphscope.core.findings import page_findings

    doc = _open(args.file, args.password)
    pages = []
    for n in _pages(doc, args.pages):
        findings = page_findings(doc, n)
        pages.append({"page": n, "diagnostics": [d.to_json() for d in findings]})
    document = [d.to_json() for d in doc.diagnostics]
    if args.json:
        _write_json(
            {
                "file": args.file,
                "pages_total": doc.page_count,
                "warnings": list(doc.warnings),
                "document": document,
                "pages": pages,
            }
        )
    else:
        for d in document:
            print(f"document\t{d['severity']}\t{d['kind']}\t{d['message']}")
        for p in pages:
            for d in p["diagnostics"]:
                print(f"page {p['page']}\t{d['severity']}\t{d['kind']}\t{d['message']}")
    return EXIT_OK


def cmd_text(args: argparse.Namespace) -> int:
    from glyphscope.core.textops import document_pages_text

    doc = _open(args.file, args.password)
    params = _params(args)
    pages = _pages(doc, args.pages)
    results = document_pages_text(doc, pages, args.mode, params)
    if args.json:
        obj = {
            "file": args.file,
            "mode": args.mode,
            "warnings": list(doc.warnings),
            "pages": [
                {"page": n, "text": t.text, "structured": _structured(args.mode, t), "untagged": t.untagged}
                | ({"reason": t.reason} if t.reason else {})
                for n, t in results
            ],
        }
        _write_json(obj, args.output)
        return EXIT_OK
    separator = _unescape(args.separator) if args.separator is not None else "\f"
    text = separator.join((t.text or "") for _, t in results)
    data = (b"\xef\xbb\xbf" if args.bom else b"") + text.encode("utf-8")
    if args.output:
        Path(args.output).write_bytes(data)
        print(f"glyphscope: {len(results)} page(s) written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.buffer.write(data)  # exact bytes: page text has no trailing newline (spec §9)
    return EXIT_OK


def _structured(mode: str, t: Any) -> bool | None:
    """Whether structure order made the text: null for modes that never use it (issue 3)."""
    if mode == "structure":
        return t.text is not None
    if mode == "auto":
        return bool(t.structured)
    return None


def cmd_decisions(args: argparse.Namespace) -> int:
    from glyphscope.core.textops import page_decisions_json

    doc = _open(args.file, args.password)
    n = _page(doc, args.page)
    obj = page_decisions_json(doc, n, args.mode, _params(args))
    obj = {"file": args.file, "page": n, "mode": args.mode, "warnings": list(doc.warnings)} | obj
    if args.json:
        _write_json(obj)
    else:
        for d in obj["decisions"]:
            print(f"{d.get('kind')}\t{d.get('verdict', '')}\t{d.get('description', '')}")
    return EXIT_OK


def cmd_triage(args: argparse.Namespace) -> int:
    from glyphscope.inspector.triage_cli import run_triage

    return run_triage(args)


def cmd_render(args: argparse.Namespace) -> int:
    from glyphscope.inspector.render_cli import run_render

    return run_render(args)


# ------------------------------------------------------------------ parsing


def _add_common(p: argparse.ArgumentParser, file_help: str = "the PDF to read") -> None:
    p.add_argument("file", metavar="FILE", help=file_help)
    p.add_argument("--password", metavar="PW", help="user or owner password of an encrypted PDF")


def _add_thresholds(p: argparse.ArgumentParser) -> None:
    d = Parameters()
    p.add_argument("--word-gap", type=float, default=d.word_gap, help="word-gap threshold × glyph height")
    p.add_argument("--line-break", type=float, default=d.line_break, help="line-break threshold × height")
    p.add_argument("--columns-gap", type=float, default=d.columns_gap, help="columns split × mean advance")


MODES_CHOICES = ("plain", "layout", "columns", "structure", "auto")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="glyphscope",
        description="Inspect PDF text extraction. Without a command, opens the inspector window.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("glyphs", help="glyph records of one page")
    _add_common(p)
    p.add_argument("--page", type=int, required=True, metavar="N", help="1-based page number")
    p.add_argument("--set", choices=("raw", "visible", "all"), default="visible")
    p.add_argument("--json", action="store_true", help="UTF-8 JSON on stdout")
    p.set_defaults(func=cmd_glyphs)

    p = sub.add_parser("fonts", help="fonts of one page with their decoding chain")
    _add_common(p)
    p.add_argument("--page", type=int, required=True, metavar="N")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_fonts)

    p = sub.add_parser("diagnostics", help="findings per page")
    _add_common(p)
    p.add_argument("--pages", metavar="RANGE", default="", help='e.g. "1-3,7"; default all')
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_diagnostics)

    p = sub.add_parser("text", help="page text in one mode")
    _add_common(p)
    p.add_argument("--mode", choices=MODES_CHOICES, default="plain")
    p.add_argument("--pages", metavar="RANGE", default="")
    p.add_argument("--json", action="store_true")
    p.add_argument("--separator", metavar="S", default=None, help=r"between pages (default form feed, \f)")
    p.add_argument("--bom", action="store_true", help="start the output with a UTF-8 BOM")
    p.add_argument("-o", "--output", metavar="OUT", help="write to this file instead of stdout")
    _add_thresholds(p)
    p.set_defaults(func=cmd_text)

    p = sub.add_parser("decisions", help="every assembly decision of one page")
    _add_common(p)
    p.add_argument("--page", type=int, required=True, metavar="N")
    p.add_argument("--mode", choices=MODES_CHOICES, default="plain")
    p.add_argument("--json", action="store_true")
    _add_thresholds(p)
    p.set_defaults(func=cmd_decisions)

    p = sub.add_parser("triage", help="rank files by extraction problems")
    p.add_argument("paths", nargs="+", metavar="FILE_OR_FOLDER")
    p.add_argument("--password", metavar="PW")
    p.add_argument("--json", metavar="OUT.json", dest="json_out")
    p.add_argument("--html", metavar="OUT.html", dest="html_out")
    p.add_argument("--jobs", type=int, default=1, metavar="N")
    p.set_defaults(func=cmd_triage)

    p = sub.add_parser("render", help="page image with overlays")
    _add_common(p)
    p.add_argument("--page", type=int, required=True, metavar="N")
    p.add_argument("--layers", default="glyphs,culled,duplicates,word-gaps,line-breaks")
    p.add_argument("--scale", type=float, default=2.0)
    p.add_argument("-o", "--output", required=True, metavar="OUT.png")
    p.set_defaults(func=cmd_render)
    return parser


def build_gui_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="glyphscope",
        description="Open the inspector window (no FILE: the bundled demo). "
        f"Headless commands: {', '.join(SUBCOMMANDS)} (glyphscope COMMAND --help).",
    )
    parser.add_argument("file", nargs="?", metavar="FILE")
    parser.add_argument("--page", type=int, metavar="N")
    parser.add_argument("--password", metavar="PW")
    return parser


def run(argv: Sequence[str], gui: Callable[[str | None, int | None, str | None], int]) -> int:
    try:
        if argv and argv[0] in SUBCOMMANDS:
            args = build_parser().parse_args(argv)
            return int(args.func(args))
        args = build_gui_parser().parse_args(argv)
        return gui(args.file, args.page, args.password)
    except GlyphscopeError as exc:
        print(f"glyphscope: {exc}", file=sys.stderr)
        return exc.exit_code
    except CliError as exc:
        print(f"glyphscope: {exc}", file=sys.stderr)
        return exc.code
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        print("glyphscope: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 — last line of defence: one line, never a traceback
        print(f"glyphscope: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_ERROR
