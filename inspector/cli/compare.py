"""`glyphscope compare FILE --pages R [--engines pdfminer,pdftotext,...] [--text PATH|- | --command 'CMD {}']
[--mode M] [--json] [--report OUT.html]`.

Per page: each engine's text, the alignment summary (characters agreeing, spaces
differing, text on one side only, moved, differences counted by kind and by
cause), and every difference with its cause (inspector/compare/causes.py), the
numbers that decided it and the glyphscope decision behind it
(schemas/compare.schema.json); per file a summary per engine. `--text` (a file,
`-` for stdin) or `--command` makes the customer's own extraction one more
engine, "their text"; with either, only the engines named by `--engines` run
besides it. Without `--json`: one line per difference, then the file's summary.
Engines that are not installed are listed with how to install them; naming one
explicitly is a usage error only when it is unknown, an absent one becomes an
engine entry with its error. `--jsonl`: each page's comparison on a line of its own (with the
version header, file and mode).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from glyphscope.core.assembly import MODES
from glyphscope.inspector.cli import io as cli_io
from glyphscope.inspector.cli.pages import page_values
from glyphscope.inspector.compare.causes import JsonObject
from glyphscope.inspector.compare.engines import (
    DEFAULT_TIMEOUT,
    ENGINE_KEYS,
    EngineText,
    detect_engines,
    parse_engine_list,
)
from glyphscope.inspector.compare.theirs import (
    TheirText,
    foreign_verdict,
    form_feed_pages,
    page_result,
    page_texts,
    read_text_file,
    run_command,
    shared_words,
)

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.core.params import Parameters
    from glyphscope.inspector.compare.compared_page import PageComparison


def add_compare_parser(sub: Any) -> None:
    """The `compare` subcommand on the `glyphscope` parser's subparsers."""
    from glyphscope.inspector.cli import shared as cli

    p = sub.add_parser("compare", help="other extractors' text aligned to glyphscope's glyphs, explained")
    cli.add_input(p)
    cli.add_page_set(p)
    p.add_argument(
        "--engines",
        default=None,
        metavar="LIST",
        help=f"comma-separated, from {', '.join(ENGINE_KEYS)}; all = every installed one "
        "(the default without --text/--command; with them, none unless named)",
    )
    their = p.add_mutually_exclusive_group()
    their.add_argument(
        "--text",
        metavar="PATH",
        help="the customer's own extraction of FILE (- for stdin; UTF-8; pages separated by form feeds) "
        "as one more engine, 'their text'",
    )
    their.add_argument(
        "--command",
        dest="their_command",  # not `command`: the subcommand's own dest
        metavar="CMD",
        help="any extractor's command line whose stdout is its text of FILE, {} standing for FILE's path "
        "(e.g. 'pdftotext {} -'), run through the shell with --timeout per page compared",
    )
    p.add_argument("--mode", choices=MODES, default="plain", help="glyphscope's text mode to compare with")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per engine and page")
    p.add_argument(
        "--report",
        metavar="OUT.html",
        help="also write a self-contained HTML page for a support ticket: the page images with the "
        "differences marked, each with its cause in words and what to change",
    )
    p.add_argument(
        "--list-engines", action="store_true", help="list the engines with their versions and exit"
    )
    cli.add_json_flag(p, lines=True)
    cli.add_thresholds(p)
    cli.add_jobs(p)
    p.set_defaults(func=run_compare)


@contextmanager
def _engine_path(args: argparse.Namespace) -> Iterator[str]:
    """A path the engines can read: FILE itself, or stdin's bytes in a temporary file (removed after)."""
    if args.file != "-":
        yield args.file
        return
    data = cli_io.read_input(args.file)
    assert isinstance(data, bytes)
    fd, path = tempfile.mkstemp(prefix="glyphscope-compare-", suffix=".pdf")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        yield path
    finally:
        os.unlink(path)


def _engine_keys(args: argparse.Namespace) -> tuple[str, ...]:
    from glyphscope.inspector.cli import shared as cli

    theirs = bool(args.text or args.their_command)
    if args.engines is None and theirs:
        return ()
    try:
        keys = parse_engine_list(args.engines or "all")
    except ValueError as exc:
        raise cli.CliError(str(exc), cli.EXIT_USAGE) from None
    if not keys and not theirs:
        raise cli.CliError("no engine to compare with: none is installed", cli.EXIT_ERROR)
    return keys


def _read_their_text(args: argparse.Namespace) -> TheirText | None:
    """--text's text (read now, before the PDF, so `-` may be stdin), or None."""
    from glyphscope.inspector.cli import shared as cli

    if not args.text:
        return None
    if args.text == "-" and args.file == "-":
        raise cli.CliError("FILE and --text cannot both be stdin (-)", cli.EXIT_USAGE)
    try:
        return read_text_file(args.text, sys.stdin.buffer.read() if args.text == "-" else None)
    except OSError as exc:
        raise cli.CliError(f"cannot read --text {args.text}: {exc.strerror or exc}", cli.EXIT_USAGE) from None


def run_compare(args: argparse.Namespace) -> int:
    from glyphscope.core.document import open_document
    from glyphscope.inspector.cli import shared as cli

    if args.list_engines:
        _list_engines(args)
        return cli.EXIT_OK
    keys = _engine_keys(args)
    if not args.timeout > 0:
        raise cli.CliError(f"--timeout must be > 0, not {args.timeout}", cli.EXIT_USAGE)
    params = cli.parameters(args)
    password = cli_io.password(args)
    their = _read_their_text(args)
    warnings: list[str] = []
    with _engine_path(args) as path:
        doc = open_document(path, password)
        warnings.extend(doc.warnings)
        pages = cli.page_numbers(doc, args.pages)
        if args.their_command:
            their = run_command(args.their_command, path, args.timeout * max(1, len(pages)), password)
        their_pages: dict[int, EngineText] = {}
        if their is not None:
            warnings.extend(their.warnings)
            their_pages = _their_pages(doc, their, pages, args.mode, params, warnings)
        for w in warnings:
            cli_io.note(args, f"warning: {w}")
        out_pages: list[JsonObject] = []
        totals: dict[str, _Totals] = {}
        task = functools.partial(
            _compare_page,
            path=path,
            password=password,
            keys=keys,
            params=params,
            args=_CompareArgs.of(args),
            their=their_pages,
        )
        jsonl = bool(getattr(args, "jsonl", False))
        for n, (page, lines, tally, boxes) in page_values(doc, pages, task, args.jobs):
            cli_io.note(args, f"page {n}: {', '.join([*keys, *(['their text'] if their else [])])}")
            for key, t in tally.items():
                totals.setdefault(key, _Totals(t["label"])).add(t)
            if args.json or args.report:
                out_pages.append(page | ({"_boxes": boxes} if args.report else {}))
            if jsonl:  # one page a line, as it comes
                from glyphscope.core.serialize import to_json

                record = cli.json_document(file=args.file, mode=args.mode) | page
                sys.stdout.write(to_json(record, indent=None) + "\n")
            elif not args.json:
                sys.stdout.write(lines)
            sys.stdout.flush()
        summary = [t.to_json(key) for key, t in totals.items()]
        for s in summary:
            line = foreign_verdict(s)
            if line:
                warnings.append(line)
                cli_io.note(args, f"warning: {line}")
        if not args.json and not jsonl:
            sys.stdout.write("".join(_summary_line(s) + "\n" for s in summary))
        engines: list[JsonObject] = []
        if args.json:  # detecting runs each tool's -v: only for the JSON's list
            engines = [s.to_json() for s in detect_engines()]
            if their is not None:
                engines.append(their.status.to_json() | {"options": their.source})
        if args.report:
            from glyphscope.inspector.compare.report import write_compare_report

            write_compare_report(args.report, doc, out_pages, summary, warnings, file=args.file)
            cli_io.note(args, f"report written to {args.report}")
    if args.json:
        for page in out_pages:
            page.pop("_boxes", None)
        their_json = None
        if their is not None:
            their_json = {
                "source": their.source,
                "error": their.error,
                "seconds": round(their.seconds, 3),
                "characters": None if their.text is None else len(their.text),
                "pages": None if their.text is None else len(form_feed_pages(their.text) or [their.text]),
            }
        cli.write_json(
            cli.json_document(
                file=args.file,
                mode=args.mode,
                warnings=warnings,
                engines=engines,
                their_text=their_json,
                summary=summary,
                pages=out_pages,
            )
        )
    return cli.EXIT_OK


def _their_pages(
    doc: Document, their: TheirText, pages: list[int], mode: str, params: Parameters, warnings: list[str]
) -> dict[int, EngineText]:
    """Their text of each compared page, as an engine's result (their error on every page when it has none)."""
    if their.text is None:
        warnings.append(f"their text: {their.error}")
        return {n: page_result(their, None, n, None) for n in pages}
    our_texts = None
    if form_feed_pages(their.text) is None and len(pages) > 1:
        from glyphscope.core.analysis import document_texts

        texts = dict(document_texts(doc, pages, mode, params, on_error=lambda n, exc: None))
        our_texts = [texts[n].text or "" if n in texts else "" for n in pages]
    cut, notes = page_texts(their.text, pages, doc.page_count, our_texts)
    warnings.extend(notes)
    in_text = len(form_feed_pages(their.text) or [their.text])
    return {n: page_result(their, cut.get(n), n, in_text) for n in pages}


def _list_engines(args: argparse.Namespace) -> None:
    for s in detect_engines():
        if s.available:
            print(f"{s.key}\t{s.version or '?'}\t{s.spec.options}")
        else:
            print(f"{s.key}\tnot installed\t{s.spec.install}")


@dataclass(frozen=True, slots=True)
class _CompareArgs:
    """What a page of `compare` needs of the command line (a worker gets this, not the Namespace)."""

    mode: str
    timeout: float
    json: bool
    report: bool

    @classmethod
    def of(cls, args: argparse.Namespace) -> _CompareArgs:
        return cls(
            args.mode, args.timeout, bool(args.json or getattr(args, "jsonl", False)), bool(args.report)
        )


Tally = JsonObject
PageOut = tuple[JsonObject, str, dict[str, Tally], dict[str, list[float]]]


def _compare_page(
    doc: Document,
    n: int,
    *,
    path: str,
    password: str | None,
    keys: Sequence[str],
    params: Parameters,
    args: _CompareArgs,
    their: dict[int, EngineText],
) -> PageOut:
    """One page compared: its JSON, its lines, each engine's tally for the file's summary and (for
    --report) the box of every glyph a difference touches."""
    from glyphscope.core.analysis import analyze_page
    from glyphscope.inspector.compare.compared_page import compare_page
    from glyphscope.inspector.compare.engines import run_engines

    analysis = analyze_page(doc, n, params)
    results = run_engines(keys, path, n, password, timeout=args.timeout) if keys else []
    if n in their:
        results.append(their[n])
    comparison = compare_page(analysis, results, args.mode)
    tally: dict[str, Tally] = {}
    for e in comparison.engines:
        al = e.alignment
        t: Tally = {
            "label": e.label,
            "pages": 1,
            "error": None if al is not None else f"page {n}: {e.result.error}",
        }
        if al is not None:
            shared, words = shared_words(al.their_text, al.our_text)
            t |= {
                "shared_words": shared,
                "words": words,
                "equal": al.tokens_equal,
                "total": al.tokens_ours + al.tokens_theirs,
                "causes": dict(Counter(d.cause for d in e.differences)),
                "kinds": dict(Counter(d.public_kind for d in e.differences)),
            }
        tally[e.key] = t
    boxes: dict[str, list[float]] = {}
    if args.report:
        from glyphscope.inspector.compare.report import difference_boxes

        boxes = difference_boxes([comparison], analysis.classified.glyphs)
    page_json: JsonObject = comparison.to_json() if args.json or args.report else {}  # text output: none
    return page_json, _page_lines(comparison), tally, boxes


class _Totals:
    """One engine's differences over the file's compared pages."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.pages = 0
        self.compared = 0
        self.equal = 0
        self.total = 0
        self.causes: Counter[str] = Counter()
        self.shared_words = 0
        self.words = 0
        self.kinds: Counter[str] = Counter()
        self.errors: list[str] = []

    def add(self, t: Tally) -> None:
        self.pages += 1
        if t.get("error"):
            self.errors.append(t["error"])
            return
        self.compared += 1
        self.equal += t["equal"]
        self.total += t["total"]
        self.causes.update(t["causes"])
        self.shared_words += t["shared_words"]
        self.words += t["words"]
        self.kinds.update(t["kinds"])

    def to_json(self, key: str) -> JsonObject:
        from glyphscope.inspector.compare.causes import CAUSES, PUBLIC_KINDS

        n = sum(self.causes.values())
        agreement = None if not self.compared else (1.0 if self.total == 0 else 2.0 * self.equal / self.total)
        return {
            "engine": key,
            "label": self.label,
            "pages": self.pages,
            "pages_compared": self.compared,
            "agreement": None if agreement is None else round(agreement, 4),
            "differences": n,
            "kinds": {k: self.kinds.get(k, 0) for k in PUBLIC_KINDS},
            "causes": {c: self.causes.get(c, 0) for c in CAUSES},
            "explained": None if n == 0 else round(1.0 - self.causes.get("unexplained", 0) / n, 4),
            "words_shared": None if not self.words else round(self.shared_words / self.words, 4),
            "errors": self.errors[:20],
        }


def _summary_line(s: JsonObject) -> str:
    if s["agreement"] is None:
        return f"file\t{s['label']}\tno text\t{'; '.join(s['errors'][:1])}"
    causes = ", ".join(f"{c} {k}" for c, k in sorted(s["causes"].items(), key=lambda x: -x[1]) if k)
    explained = "" if s["explained"] is None else f", {100 * s['explained']:.0f} % explained"
    return (
        f"file\t{s['label']}\tagreement {100 * s['agreement']:.1f} %\t{s['differences']} differences"
        f"{explained}" + (f": {causes}" if causes else "")
    )


def _page_lines(comparison: PageComparison) -> str:
    lines: list[str] = []
    for e in comparison.engines:
        if e.alignment is None:
            lines.append(f"page {comparison.page_number}\t{e.label}\terror\t{e.result.error}")
            continue
        s = e.summary() or {}
        lines.append(
            f"page {comparison.page_number}\t{e.label}\tagreement {100 * s['agreement']:.1f} %\t"
            f"{s['characters_agreeing']} chars agree, {s['spaces_differing']} spaces differ, "
            f"{s['only_theirs']} only theirs, {s['only_ours']} only ours, {s['moved']} moved"
        )
        lines.extend(f"\t{d.public_kind}\t{d.cause}\t{d.sentence}" for d in e.differences)
    return "".join(line + "\n" for line in lines)
