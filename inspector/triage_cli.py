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
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from glyphscope.core.limits import Limits
from glyphscope.core.serialize import output_header, to_json
from glyphscope.core.triage import TriageRow, sort_rows
from glyphscope.core.triage.batch import iter_triage
from glyphscope.core.triage.inputs import content_sha256, expand_inputs
from glyphscope.core.triage.stream import ABSENT as _ABSENT
from glyphscope.core.triage.stream import load_done
from glyphscope.inspector import cli_io
from glyphscope.inspector.anonymise import anonymise_path, anonymise_row

EXIT_OK, EXIT_USAGE = 0, 2
EXIT_FAIL_ON = 1  # --fail-on matched a file
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it


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


COLUMNS = (
    "score",
    "pages",
    "glyphs",
    "%cull",
    "%dup",
    "%form",
    "%unres",
    "%garb",
    "%hid",
    "noTU",
    "struct",
    "E/W/I",
    "file",
)
LEFT_ALIGNED = frozenset({"struct", "file"})


def format_table(rows: list[TriageRow]) -> str:
    """One line per file; a failed file shows its error in place of the numbers."""
    lines: list[list[str]] = [list(COLUMNS)]
    for r in rows:
        if r.failed:
            # Engine errors usually name the file already.
            label = f"ERROR {r.error}" if r.file in (r.error or "") else f"{r.file}: ERROR {r.error}"
            lines.append([f"{r.score:.1f}", *["-"] * (len(COLUMNS) - 2), label])
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
                f"{r.pct_garbled:.1f}",
                f"{sum(r.pct_hidden.values()):.1f}",  # every visibility class but visible
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
            line[i].ljust(widths[i]) if COLUMNS[i] in LEFT_ALIGNED else line[i].rjust(widths[i])
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


def _fail_on(spec: str | None) -> Callable[[TriageRow], bool] | None:
    """The --fail-on test of one row; raises UsageError for a bad spec."""
    if not spec:
        return None
    text = spec.strip().lower().replace(" ", "")
    if text == "error":
        return lambda r: r.failed or r.findings_by_severity.get("error", 0) > 0
    if text == "warning":
        return lambda r: (
            r.failed
            or r.findings_by_severity.get("error", 0) > 0
            or r.findings_by_severity.get("warning", 0) > 0
        )
    m = re.fullmatch(r"score>=?(\d+(?:\.\d+)?)", text)
    if m:
        limit = float(m.group(1))
        return (lambda r: r.score >= limit) if ">=" in text else (lambda r: r.score > limit)
    raise cli_io.UsageError(f"--fail-on must be error, warning or score>N, not {spec!r}")


class _Summary:
    """What the last line says: files, failed, worst score, time; and whether --fail-on matched."""

    def __init__(self, fail_test: Callable[[TriageRow], bool] | None) -> None:
        self.started = time.monotonic()
        self.files = 0
        self.failed = 0
        self.worst: TriageRow | None = None
        self.fail_test = fail_test
        self.matched = 0

    def add(self, row: TriageRow) -> None:
        self.files += 1
        self.failed += row.failed
        if self.worst is None or row.score > self.worst.score:
            self.worst = row
        if self.fail_test is not None and self.fail_test(row):
            self.matched += 1

    def line(self, label: Callable[[str], str]) -> str:
        worst = f"worst score {self.worst.score:.1f} ({label(self.worst.file)})" if self.worst else "no rows"
        seconds = time.monotonic() - self.started
        rate = f", {self.files / seconds:.1f} files/s" if seconds > 0 and self.files else ""
        return f"triage: {self.files} file(s), {self.failed} failed, {worst}, {seconds:.1f} s{rate}"


def _bad_output_folder(*outs: str | None) -> str | None:
    for out in outs:
        if out and not cli_io.is_stdout(out) and not Path(out).resolve().parent.is_dir():
            return f"cannot write {out}: its folder does not exist"
    return None


def run_triage(args: argparse.Namespace) -> int:
    jobs = getattr(args, "jobs", None)
    jobs = 1 if jobs is None else jobs
    if jobs < 1:
        return _usage("--jobs must be at least 1")
    limits = cli_io.limits(args)  # a bad --max-* value is a usage error before any file is read
    json_out = getattr(args, "json_out", None)
    html_out = getattr(args, "html_out", None)
    jsonl_out = getattr(args, "jsonl_out", None)
    resume = bool(getattr(args, "resume", False))
    scheduler = str(getattr(args, "scheduler", None) or "local")
    anonymise = bool(getattr(args, "anonymise", False))
    to_stdout = [o for o in (json_out, html_out, jsonl_out) if cli_io.is_stdout(o)]
    if len(to_stdout) > 1:
        return _usage("only one of --json, --html and --jsonl can write to stdout (-)")
    if resume and (not jsonl_out or cli_io.is_stdout(jsonl_out)):
        return _usage("--resume needs --jsonl OUT (a file) to know which files are done")
    if (
        scheduler != "local"
        and scheduler != "dask"
        and not scheduler.startswith(("tcp://", "tls://", "ucx://"))
    ):
        return _usage(f"--scheduler must be local, dask or tcp://HOST:PORT, not {scheduler!r}")
    if scheduler != "local" and cli_io.STDIO in args.paths:
        return _usage("- (stdin) cannot be sent to Dask workers: save it to a file")
    fail_test = _fail_on(getattr(args, "fail_on", None))
    paths = [str(p) for p in args.paths]
    if paths.count(cli_io.STDIO) > 1:
        return _usage("- (stdin) can be given only once")
    problem = _bad_output_folder(json_out, html_out, jsonl_out)
    if problem:
        return _usage(problem)
    if scheduler != "local":
        from glyphscope.core.triage.dask_run import DASK_MISSING, dask_available

        if not dask_available():
            print(f"glyphscope: {DASK_MISSING}", file=sys.stderr)
            return EXIT_USAGE
    password = cli_io.password(args)
    with contextlib.ExitStack() as stack:
        spool = None
        if cli_io.STDIO in paths:
            # The worker processes read files by path: stdin is spooled to a private temporary file.
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="glyphscope-stdin-"))
            spool = Path(folder) / "stdin.pdf"
            spool.write_bytes(sys.stdin.buffer.read())
            paths = [str(spool) if p == cli_io.STDIO else p for p in paths]
        inputs = expand_inputs(paths)
        if inputs.problems:
            return _usage("; ".join(inputs.problems))
        if inputs.missing:
            return _usage("no such file or folder: " + ", ".join(inputs.missing))
        if not inputs.sources:
            return _usage("no PDF found in " + ", ".join(str(p) for p in args.paths))
        sources = inputs.sources
        if resume:
            sources, skipped = _not_done(sources, Path(str(jsonl_out)))
            cli_io.note(args, f"resuming: {skipped} file(s) already in {jsonl_out}, {len(sources)} to go")

        keep_rows = not jsonl_out or bool(json_out) or bool(html_out)
        label = anonymise_path if anonymise else (lambda f: f)
        summary = _Summary(fail_test)
        rows: list[TriageRow] = []
        progress = _Progress(sys.stderr, enabled=not getattr(args, "quiet", False))
        sink = _open_jsonl(stack, jsonl_out, append=resume)
        interrupted = False
        try:
            for row in _rows(sources, password, jobs, scheduler, stack, limits):
                if spool is not None and row.file == str(spool):
                    row = _stdin_row(row, str(spool))
                if sink is not None:
                    shown = anonymise_row(row) if anonymise else row
                    sink.write(to_json(shown.to_json(), indent=None) + "\n")
                    sink.flush()
                summary.add(row)
                if keep_rows:
                    rows.append(row)
                progress(summary.files, len(sources), row)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            progress.close()
        left = len(sources) - summary.files
        report_sources: dict[str, str | Path] = {cli_io.STDIO: spool} if spool is not None else {}
        if keep_rows:
            _write_reports(args, sort_rows(rows), password, report_sources, interrupted, left)
        if not getattr(args, "quiet", False) or interrupted:
            print("glyphscope: " + summary.line(label), file=sys.stderr)
        if interrupted:
            hint = (
                " (run again with --resume to finish)"
                if jsonl_out and not cli_io.is_stdout(jsonl_out)
                else ""
            )
            print(
                f"glyphscope: interrupted: {summary.files} file(s) done and kept, {left} left{hint}",
                file=sys.stderr,
            )
            return EXIT_INTERRUPTED
    if summary.matched:
        cli_io.note(args, f"--fail-on {args.fail_on}: {summary.matched} file(s) matched")
        return EXIT_FAIL_ON
    return EXIT_OK


def _rows(
    sources: list[str],
    password: str | None,
    jobs: int,
    scheduler: str,
    stack: contextlib.ExitStack,
    limits: Limits,
) -> Iterator[TriageRow]:
    """Rows in completion order, from local processes or from Dask, read within `limits`."""
    if scheduler == "local":
        yield from iter_triage(sources, password, jobs, limits=limits)
        return
    from glyphscope.core.triage.dask_run import dask_client, iter_triage_dask

    client = stack.enter_context(dask_client(scheduler))
    yield from iter_triage_dask(sources, client, password, limits=limits)


def _open_jsonl(stack: contextlib.ExitStack, out: str | None, append: bool) -> TextIO | None:
    if not out:
        return None
    if cli_io.is_stdout(out):
        return sys.stdout
    return stack.enter_context(open(out, "a" if append else "w", encoding="utf-8", newline="\n"))


def _not_done(sources: list[str], jsonl: Path) -> tuple[list[str], int]:
    """The sources not yet in the JSONL file by path and content hash; and how many were skipped."""
    done = load_done(jsonl)
    todo: list[str] = []
    skipped = 0
    for s in sources:
        digest = done.get(s, _ABSENT)
        if digest is not _ABSENT and (digest is None or digest == content_sha256(s)):
            skipped += 1
        else:
            todo.append(s)
    return todo, skipped


def _stdin_row(row: TriageRow, spool: str) -> TriageRow:
    """The row of the spooled stdin file, labelled "-" as the user wrote it."""
    error = row.error.replace(spool, cli_io.STDIO) if row.error else row.error
    return replace(row, file=cli_io.STDIO, error=error)


def _write_reports(
    args: argparse.Namespace,
    rows: list[TriageRow],
    password: str | None,
    sources: dict[str, str | Path],
    interrupted: bool = False,
    left: int = 0,
) -> None:
    """The table on stdout (unless a report or the JSONL goes there), then the JSON and HTML reports."""
    json_out = getattr(args, "json_out", None)
    html_out = getattr(args, "html_out", None)
    jsonl_out = getattr(args, "jsonl_out", None)
    anonymise = bool(getattr(args, "anonymise", False))
    shown = [anonymise_row(r) for r in rows] if anonymise else rows
    compare = compare_column(args, rows, password, sources)  # --compare ENGINE, or None
    if not (jsonl_out or cli_io.is_stdout(json_out) or cli_io.is_stdout(html_out)):
        sys.stdout.write(with_compare_column(_clean_line_table(shown), compare))
        sys.stdout.flush()

    if json_out:
        report = with_compare_json(report_json(shown), compare)
        if interrupted:
            report |= {"interrupted": True, "left": left}
        if anonymise:
            report["anonymised"] = True
        text = to_json(report) + "\n"
        cli_io.write_output(json_out, text.encode("utf-8"))
        if not cli_io.is_stdout(json_out):
            cli_io.note(args, f"JSON report written to {json_out}")
    if html_out:
        from glyphscope.inspector.report_html import build_html_report

        images = not getattr(args, "no_images", False) and not anonymise
        if images:
            problem = _offscreen_app_or_none()
            if problem:
                # On stderr even with --quiet: the report lacks what the reader expects.
                print(f"glyphscope: warning: the report has no page images: {problem}", file=sys.stderr)
                images = False
        html_path = None if cli_io.is_stdout(html_out) else Path(html_out)
        html = build_html_report(
            rows, password, images=images, sources=sources, anonymise=anonymise, out_path=html_path
        )
        cli_io.write_output(html_out, html.encode("utf-8"))
        if not cli_io.is_stdout(html_out):
            cli_io.note(args, f"HTML report written to {html_out}")


def _clean_line_table(rows: list[TriageRow]) -> str:
    return "\n".join(_clean_line(line) for line in format_table(rows).splitlines()) + "\n"


# ---------------------------------------------------------------------------------------------
# --compare ENGINE: each file's agreement with another extractor, as one more column.
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
