"""`glyphscope triage`: rank files by extraction problems (table, JSON, HTML report).

Exit 0 even when some files failed (they are rows with their error); 2 when
a path does not exist or no PDF was found. `-` among the paths reads one PDF
from stdin (its row's file is "-"); `--json -` / `--html -` write that report
to stdout instead of the table. The HTML report's page images are the only
part that needs Qt: this entry point starts it (`gui.render_image.offscreen_app`),
lazily, and `--no-images` leaves it out.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from glyphscope.core.serialize import output_header
from glyphscope.core.triage import TriageRow, expand_paths, sort_rows, triage_paths
from glyphscope.inspector import cli_io

EXIT_OK, EXIT_USAGE = 0, 2


def _usage(message: str) -> int:
    print(f"glyphscope: {message}", file=sys.stderr)
    return EXIT_USAGE


class _Progress:
    """`[12/40] name.pdf` on one rewritten stderr line, only when stderr is a terminal."""

    def __init__(self, stream: TextIO, enabled: bool = True) -> None:
        self.stream = stream
        self.enabled = enabled and stream.isatty()
        self.width = 0

    def __call__(self, done: int, total: int, row: TriageRow) -> None:
        if not self.enabled:
            return
        bar_len = 24
        filled = bar_len * done // max(1, total)
        line = f"[{done}/{total}] {'#' * filled}{'.' * (bar_len - filled)} {row.name}"[:100]
        pad = max(0, self.width - len(line))
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()
        self.width = len(line)

    def close(self) -> None:
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def _structure(row: TriageRow) -> str:
    if row.structure_usable is None:
        return "-"
    return "usable" if row.structure_usable else "unusable"


COLUMNS = ("score", "pages", "glyphs", "%cull", "%dup", "%form", "%unres", "noTU", "struct", "E/W/I", "file")


def format_table(rows: list[TriageRow]) -> str:
    """One line per file; a failed file shows its error in place of the numbers."""
    lines: list[list[str]] = [list(COLUMNS)]
    for r in rows:
        if r.failed:
            # Engine errors usually name the file already.
            label = f"ERROR {r.error}" if r.file in (r.error or "") else f"{r.file}: ERROR {r.error}"
            lines.append([f"{r.score:.1f}", "-", "-", "-", "-", "-", "-", "-", "-", "-", label])
            continue
        sev = r.findings_by_severity
        lines.append(
            [
                f"{r.score:.1f}",
                str(r.pages),
                str(r.glyphs),
                f"{r.pct_culled:.1f}",
                f"{r.pct_duplicates:.1f}",
                f"{r.pct_from_forms:.1f}",
                f"{r.pct_unresolved:.1f}",
                f"{r.fonts_without_tounicode}/{r.fonts_without_tounicode_total}",
                _structure(r),
                f"{sev.get('error', 0)}/{sev.get('warning', 0)}/{sev.get('info', 0)}",
                r.file,
            ]
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(COLUMNS) - 1)]
    out = []
    for line in lines:
        cells = [
            line[i].rjust(widths[i]) if i < 8 or i == 9 else line[i].ljust(widths[i])
            for i in range(len(widths))
        ]
        out.append("  ".join(cells) + "  " + line[-1])
    return "\n".join(out) + "\n"


def _clean_line(text: str) -> str:
    # File names and errors come from the outside: keep the table one line per file.
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def report_json(rows: list[TriageRow]) -> dict[str, Any]:
    """The `--json` report (schemas/triage.schema.json)."""
    from glyphscope.core.triage import SCORE_WEIGHTS

    return output_header() | {
        "files": len(rows),
        "failed": sum(1 for r in rows if r.failed),
        "score_weights": dict(SCORE_WEIGHTS),
        "rows": [r.to_json() for r in rows],
    }


def _offscreen_app_or_none() -> str | None:
    """Start Qt for the report's page images; the reason when it cannot (the report then says so)."""
    try:
        from glyphscope.inspector.gui.render_image import offscreen_app  # Qt: only for the images

        offscreen_app()
    except Exception as exc:  # noqa: BLE001 — missing Qt libraries must not cost the whole report
        return f"{type(exc).__name__}: {exc}"
    return None


def run_triage(args: argparse.Namespace) -> int:
    jobs = getattr(args, "jobs", None)
    jobs = 1 if jobs is None else jobs
    if jobs < 1:
        return _usage("--jobs must be at least 1")
    json_out = getattr(args, "json_out", None)
    html_out = getattr(args, "html_out", None)
    if cli_io.is_stdout(json_out) and cli_io.is_stdout(html_out):
        return _usage("--json - and --html - cannot both write to stdout")
    paths = [str(p) for p in args.paths]
    if paths.count(cli_io.STDIO) > 1:
        return _usage("- (stdin) can be given only once")
    for out in (json_out, html_out):
        if out and not cli_io.is_stdout(out) and not Path(out).resolve().parent.is_dir():
            return _usage(f"cannot write {out}: its folder does not exist")
    password = cli_io.password(args)
    with contextlib.ExitStack() as stack:
        spool = None
        if cli_io.STDIO in paths:
            # The worker processes read files by path: stdin is spooled to a private temporary file.
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="glyphscope-stdin-"))
            spool = Path(folder) / "stdin.pdf"
            spool.write_bytes(sys.stdin.buffer.read())
            paths = [str(spool) if p == cli_io.STDIO else p for p in paths]
        files, missing = expand_paths(paths)
        if missing:
            return _usage("no such file or folder: " + ", ".join(missing))
        if not files:
            return _usage("no PDF found in " + ", ".join(str(p) for p in args.paths))

        progress = _Progress(sys.stderr, enabled=not getattr(args, "quiet", False))
        try:
            rows = triage_paths(files, password, jobs, progress)
        finally:
            progress.close()
        sources: dict[str, str | Path] = {}
        if spool is not None:
            sources[cli_io.STDIO] = spool
            rows = sort_rows(_stdin_row(r, str(spool)) if r.file == str(spool) else r for r in rows)
        _write_reports(args, rows, password, sources)
    return EXIT_OK


def _stdin_row(row: TriageRow, spool: str) -> TriageRow:
    """The row of the spooled stdin file, labelled "-" as the user wrote it."""
    error = row.error.replace(spool, cli_io.STDIO) if row.error else row.error
    return replace(row, file=cli_io.STDIO, error=error)


def _write_reports(
    args: argparse.Namespace, rows: list[TriageRow], password: str | None, sources: dict[str, str | Path]
) -> None:
    """The table on stdout (unless a report goes there), then the JSON and HTML reports."""
    json_out = getattr(args, "json_out", None)
    html_out = getattr(args, "html_out", None)
    compare = compare_column(args, rows, password, sources)  # --compare ENGINE, or None
    if not (cli_io.is_stdout(json_out) or cli_io.is_stdout(html_out)):
        sys.stdout.write(with_compare_column(_clean_line_table(rows), compare))
        sys.stdout.flush()
    failed = sum(1 for r in rows if r.failed)
    cli_io.note(args, f"{len(rows)} file(s) triaged" + (f", {failed} could not be read" if failed else ""))

    if json_out:
        report = with_compare_json(report_json(rows), compare)
        text = json.dumps(report, ensure_ascii=False, indent=1) + "\n"
        cli_io.write_output(json_out, text.encode("utf-8"))
        if not cli_io.is_stdout(json_out):
            cli_io.note(args, f"JSON report written to {json_out}")
    if html_out:
        from glyphscope.inspector.report_html import build_html_report

        images = not getattr(args, "no_images", False)
        if images:
            problem = _offscreen_app_or_none()
            if problem:
                cli_io.note(args, f"warning: the report has no page images: {problem}")
        html = build_html_report(rows, password, images=images, sources=sources)
        cli_io.write_output(html_out, html.encode("utf-8"))
        if not cli_io.is_stdout(html_out):
            cli_io.note(args, f"HTML report written to {html_out}")


def _clean_line_table(rows: list[TriageRow]) -> str:
    return "\n".join(_clean_line(line) for line in format_table(rows).splitlines()) + "\n"


# ---------------------------------------------------------------------------------------------
# --compare ENGINE (issue 15): each file's agreement with another extractor, as one more column.
# Self-contained: the report code calls compare_column() once and the two with_compare_* helpers.


@dataclass(frozen=True, slots=True)
class CompareColumn:
    """The `--compare` column: one DocumentAgreement per row, in the rows' order."""

    engine: str
    label: str
    version: str
    values: list[Any]  # compare_page.DocumentAgreement

    @property
    def title(self) -> str:
        return f"%agree({self.engine})"


def add_compare_option(p: argparse.ArgumentParser) -> None:
    from glyphscope.inspector.compare_engines import ENGINE_KEYS
    from glyphscope.inspector.compare_page import DOCUMENT_MAX_PAGES

    p.add_argument(
        "--compare",
        metavar="ENGINE",
        type=_compare_engine,
        help=f"add a column: % agreement of ENGINE's text ({', '.join(ENGINE_KEYS)}) with glyphscope's "
        f"plain text over each file's first {DOCUMENT_MAX_PAGES} pages (glyphscope compare explains it)",
    )


def _compare_engine(text: str) -> str:
    """--compare's value: one known, installed engine (a usage error before any file is read)."""
    from glyphscope.inspector.compare_engines import engine_status, parse_engine_list

    try:
        keys = parse_engine_list(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if len(keys) != 1:
        raise argparse.ArgumentTypeError(f"one engine is expected, not {text!r}")
    status = engine_status(keys[0])
    if not status.available:
        raise argparse.ArgumentTypeError(f"{keys[0]} is not installed ({status.spec.install})")
    return keys[0]


def compare_column(
    args: argparse.Namespace,
    rows: list[TriageRow],
    password: str | None,
    sources: dict[str, str | Path] | None = None,
) -> CompareColumn | None:
    """The `--compare` column for `rows` (None without the option). Failed rows get no value; a
    row whose file is "-" is read from its spool in `sources`. Raises ValueError for an unknown or
    absent engine (the option's parser has checked it already)."""
    engine = getattr(args, "compare", None)
    if not engine:
        return None
    from glyphscope.inspector.compare_engines import engine_status, parse_engine_list
    from glyphscope.inspector.compare_page import DocumentAgreement, document_agreement

    keys = parse_engine_list(engine)
    if len(keys) != 1:
        raise ValueError(f"--compare takes one engine, not {engine!r}")
    status = engine_status(keys[0])
    if not status.available:
        raise ValueError(f"--compare {keys[0]}: not installed ({status.spec.install})")
    values = []
    for row in rows:
        if row.failed:
            values.append(DocumentAgreement(status.key, None, 0, "the file could not be read"))
            continue
        path = str((sources or {}).get(row.file, row.file))
        values.append(document_agreement(path, status.key, password))
    return CompareColumn(status.key, status.label, status.version, values)


def with_compare_column(table: str, column: CompareColumn | None) -> str:
    """`table` (format_table's lines: header, then one per row) with the column before the file."""
    if column is None:
        return table
    lines = table.splitlines()
    if not lines:
        return table
    at = lines[0].rfind("file")
    cells = [column.title] + [
        "-" if v.agreement is None else f"{100.0 * v.agreement:.1f}" for v in column.values
    ]
    width = max(len(c) for c in cells)
    out = [
        line[:at] + cell.rjust(width) + "  " + line[at:]
        for line, cell in zip(lines, cells + [""] * len(lines))
    ]
    return "\n".join(out) + "\n"


def with_compare_json(report: dict[str, Any], column: CompareColumn | None) -> dict[str, Any]:
    """The JSON report with `compare`: the engine and each row's agreement (same order as `rows`)."""
    if column is None:
        return report
    return report | {
        "compare": {
            "engine": column.engine,
            "label": column.label,
            "version": column.version or None,
            "rows": [{"file": r["file"], **v.to_json()} for r, v in zip(report["rows"], column.values)],
        }
    }
