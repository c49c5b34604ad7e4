"""`glyphscope triage`: rank files by extraction problems (table, JSON, HTML report).

Exit 0 even when some files failed (they are rows with their error, a file over
`--timeout` too); 1 when `--fail-on` matched a file or the Dask scheduler named by
`--scheduler tcp://…` cannot be reached (one line, within SCHEDULER_CONNECT_SECONDS); 2 when
a path does not exist or no PDF was found; 130 when interrupted.

Every `--jsonl` line is a row with the version header of every JSON output
(`schema_version`, `glyphscope_version`) and, for a local file, its `realpath`:
`--resume` knows a file by that resolved path (however the path was written, relative or
absolute, through a symlink) and by the SHA-256 of its content. `-` among the paths reads one PDF
from stdin (its row's file is "-"); `--json -` / `--html -` write that report
to stdout instead of the table. The HTML report's page images are drawn by
PDFium with their overlays (inspector.render.page_images: no Qt needed), and `--no-images` leaves
the images out.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from glyphscope.core.limits import Limits
from glyphscope.core.params import Parameters
from glyphscope.core.serialize import output_header, to_json
from glyphscope.core.triage import TriageRow, sort_rows
from glyphscope.core.triage.batch import iter_triage
from glyphscope.core.triage.inputs import content_sha256, expand_inputs, is_url
from glyphscope.core.triage.stream import ABSENT as _ABSENT
from glyphscope.core.triage.stream import iter_jsonl
from glyphscope.core.triage.time_limits import TIME_BUDGET
from glyphscope.inspector.anonymise import anonymise_path, anonymise_row
from glyphscope.inspector.cli import io as cli_io
from glyphscope.inspector.cli.progress import ProgressLine

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
EXIT_FAIL_ON = 1  # --fail-on matched a file
EXIT_SCHEDULER = 1  # the Dask scheduler could not be reached
SCHEDULER_CONNECT_SECONDS = 5.0  # how long a --scheduler tcp://HOST:PORT may take to answer
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it


def _usage(message: str) -> int:
    print(f"glyphscope: {message}", file=sys.stderr)
    return EXIT_USAGE


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

    def rescore(self, rows: list[TriageRow]) -> None:
        """The worst row and --fail-on's matches again, over `rows` as the reports ranked them."""
        self.worst = max(rows, key=lambda r: r.score, default=self.worst)
        if self.fail_test is not None:
            self.matched = sum(1 for r in rows if self.fail_test(r))

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
        unreachable = scheduler_unreachable(scheduler)
        if unreachable:
            print(f"glyphscope: {unreachable}", file=sys.stderr)
            return EXIT_SCHEDULER
    if getattr(args, "verify", False):
        from glyphscope.inspector.verify.ocr import ocr_status

        if not ocr_status().available:
            print(f"glyphscope: {ocr_status().message}", file=sys.stderr)
            return EXIT_ERROR
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
            sources, skipped = not_done(sources, Path(str(jsonl_out)))
            cli_io.note(args, f"resuming: {skipped} file(s) already in {jsonl_out}, {len(sources)} to go")

        keep_rows = not jsonl_out or bool(json_out) or bool(html_out)
        label = anonymise_path if anonymise else (lambda f: f)
        summary = _Summary(fail_test)
        rows: list[TriageRow] = []
        progress = stack.enter_context(
            ProgressLine("triage", len(sources), "files", enabled=not getattr(args, "quiet", False))
        )
        sink = _open_jsonl(stack, jsonl_out, append=resume)
        interrupted = False
        run = _Run(
            password,
            jobs,
            scheduler,
            limits,
            _params(args),
            float(getattr(args, "timeout", TIME_BUDGET)),
            getattr(args, "against", None),
        )
        try:
            for row in _rows(sources, run, stack):
                is_stdin = spool is not None and row.file == str(spool)
                if is_stdin:
                    row = _stdin_row(row, str(spool))
                if sink is not None:
                    shown = anonymise_row(row) if anonymise else row
                    sink.write(to_json(jsonl_row(shown, not (is_stdin or anonymise)), indent=None) + "\n")
                    sink.flush()
                summary.add(row)
                if keep_rows:
                    rows.append(row)
                progress.advance(row.name)
        except KeyboardInterrupt:
            interrupted = True
        except SchedulerUnreachable as exc:
            progress.close()
            print(f"glyphscope: {exc}", file=sys.stderr)
            return EXIT_SCHEDULER
        finally:
            progress.close()
        left = len(sources) - summary.files
        report_sources: dict[str, str | Path] = {cli_io.STDIO: spool} if spool is not None else {}
        if keep_rows:
            ranked = _write_reports(args, sort_rows(rows), password, report_sources, interrupted, left)
            summary.rescore(ranked)  # --verify's findings (a wrong OCR layer) count for --fail-on
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


@dataclass(frozen=True, slots=True)
class _Run:
    """How the files are read: where, with which password, budgets and parameters."""

    password: str | None
    jobs: int
    scheduler: str
    limits: Limits
    params: Parameters
    timeout: float  # seconds per file (--timeout)
    against: str | None = None  # --against TEXTDIR

    def task(self) -> Callable[..., TriageRow] | None:
        """The worker function: triage_file, or with --against triage_file then the comparison."""
        if self.against is None:
            return None
        import functools

        from glyphscope.inspector.compare.against import against_task

        return functools.partial(against_task, text_dir=self.against, limits=self.limits)


class SchedulerUnreachable(Exception):
    """The Dask scheduler of --scheduler could not be reached (the message says where and why)."""


def scheduler_unreachable(address: str) -> str | None:
    """Why the scheduler at `address` (tcp:// or tls://) cannot be reached, None when it answers (or
    for `dask`, our own cluster, and schemes without a plain socket): a TCP connection tried for at
    most SCHEDULER_CONNECT_SECONDS, so an address nobody listens at fails in seconds, not after Dask's
    own connect timeout."""
    parts = urlsplit(address)
    if parts.scheme not in ("tcp", "tls"):
        return None
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        return f"--scheduler {address}: the port is not a number"
    if not host or port is None:
        return f"--scheduler {address}: name HOST:PORT (e.g. tcp://10.0.0.5:8786)"
    try:
        with socket.create_connection((host, port), timeout=SCHEDULER_CONNECT_SECONDS):
            return None
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or type(exc).__name__)
        return f"cannot reach the Dask scheduler at {address}: {reason}"


def _rows(sources: list[str], run: _Run, stack: contextlib.ExitStack) -> Iterator[TriageRow]:
    """Rows in completion order, from local processes or from Dask, read within the run's budgets."""
    if run.scheduler == "local":
        yield from iter_triage(
            sources,
            run.password,
            run.jobs,
            params=run.params,
            time_budget=run.timeout,
            limits=run.limits,
            worker=run.task(),
        )
        return
    from glyphscope.core.triage.dask_run import dask_client, iter_triage_dask

    where = (
        "start a Dask LocalCluster"
        if run.scheduler == "dask"
        else f"reach the Dask scheduler at {run.scheduler}"
    )
    try:
        client = stack.enter_context(dask_client(run.scheduler))
    except (OSError, TimeoutError) as exc:  # it went away since it was tried, or Dask could not join it
        raise SchedulerUnreachable(f"cannot {where}: {cli_io.printable_line(str(exc))}") from None
    except Exception as exc:  # noqa: BLE001 — something answered that is no Dask scheduler (a proxy, an
        # HTTP server: Dask reads its bytes as a frame length and fails in any way, MemoryError included)
        raise SchedulerUnreachable(
            f"cannot {where}: what answers is not a Dask scheduler ({type(exc).__name__})"
        ) from None
    from glyphscope.core.triage.collect import triage_file

    task = run.task()
    yield from iter_triage_dask(
        sources,
        client,
        run.password,
        params=run.params,
        time_budget=run.timeout,
        limits=run.limits,
        task=triage_file if task is None else task,
    )


def _params(args: argparse.Namespace) -> Parameters:
    from glyphscope.inspector.cli.shared import parameters  # the command line's one reading of them

    return parameters(args)


def jsonl_row(row: TriageRow, with_realpath: bool) -> dict[str, Any]:
    """One `--jsonl` line: the version header, the row, and the file's resolved path (the resume key)."""
    obj = output_header() | row.to_json()
    if with_realpath and not is_url(row.file):
        obj["realpath"] = os.path.realpath(row.file)
    return obj


def _open_jsonl(stack: contextlib.ExitStack, out: str | None, append: bool) -> TextIO | None:
    if not out:
        return None
    if cli_io.is_stdout(out):
        return sys.stdout
    return stack.enter_context(open(out, "a" if append else "w", encoding="utf-8", newline="\n"))


def _resume_key(source: str) -> str:
    return source if is_url(source) else os.path.realpath(source)


def not_done(sources: list[str], jsonl: Path) -> tuple[list[str], int]:
    """The sources not yet in the JSONL file, known by resolved path and content SHA-256; and how
    many were skipped. A row without `realpath` (an older file) is known by its path resolved here."""
    done: dict[str, str | None] = {}
    for obj in iter_jsonl(jsonl):  # the later row of a file wins
        key = obj.get("realpath")
        digest = obj.get("sha256")
        done[key if isinstance(key, str) else _resume_key(str(obj["file"]))] = (
            digest if isinstance(digest, str) else None
        )
    todo: list[str] = []
    skipped = 0
    for s in sources:
        digest = done.get(_resume_key(s), _ABSENT)
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
) -> list[TriageRow]:
    """The table on stdout (unless a report or the JSONL goes there), then the JSON and HTML reports;
    returns the rows as reported (with --verify: its findings added and ranked again)."""
    json_out = getattr(args, "json_out", None)
    html_out = getattr(args, "html_out", None)
    jsonl_out = getattr(args, "jsonl_out", None)
    anonymise = bool(getattr(args, "anonymise", False))
    from glyphscope.inspector.verify.triage import (
        verify_column,
        with_verify_column,
        with_verify_findings,
        with_verify_json,
    )

    verify = verify_column(args, rows, password, sources)  # --verify, or None
    rows, verify = with_verify_findings(
        rows, verify
    )  # a wrong OCR layer is an error of its file: ranked again
    if getattr(args, "against", None):  # --against: most disagreement with their texts first
        from glyphscope.inspector.compare.against import against_order

        rows = against_order(rows)
    shown = [anonymise_row(r) for r in rows] if anonymise else rows
    compare = compare_column(args, rows, password, sources)  # --compare ENGINE, or None
    if not (jsonl_out or cli_io.is_stdout(json_out) or cli_io.is_stdout(html_out)):
        table = with_compare_column(_clean_line_table(shown), compare)
        if getattr(args, "against", None):
            table = with_against_columns(table, shown)
        sys.stdout.write(with_verify_column(table, verify))
        sys.stdout.flush()

    if json_out:
        report = with_verify_json(with_compare_json(report_json(shown), compare), verify)
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
        html_path = None if cli_io.is_stdout(html_out) else Path(html_out)
        html = build_html_report(
            rows, password, images=images, sources=sources, anonymise=anonymise, out_path=html_path
        )
        cli_io.write_output(html_out, html.encode("utf-8"))
        if not cli_io.is_stdout(html_out):
            cli_io.note(args, f"HTML report written to {html_out}")
    return rows


def _clean_line_table(rows: list[TriageRow]) -> str:
    return "\n".join(_clean_line(line) for line in format_table(rows).splitlines()) + "\n"


def with_against_columns(table: str, rows: list[TriageRow]) -> str:
    """`table` with --against's columns before the file: % agreement with their text and the top cause."""
    from glyphscope.inspector.compare.against import top_cause

    agree = ["%agree(theirs)"] + [
        "-" if r.against_agreement is None else f"{100.0 * r.against_agreement:.1f}" for r in rows
    ]
    cause = ["cause"] + [top_cause(r) or ("no text" if r.against_error else "-") for r in rows]
    return cli_io.with_columns_before_file(table, [agree, cause])


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
    from glyphscope.inspector.compare.compared_page import DocumentAgreement, document_agreement
    from glyphscope.inspector.compare.engines import engine_status, parse_engine_list

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
    cells = [column.title] + [
        "-" if v.agreement is None else f"{100.0 * v.agreement:.1f}" for v in column.values
    ]
    return cli_io.with_columns_before_file(table, [cells])


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
