"""`glyphscope triage`: rank files by extraction problems (table, JSON, HTML report).

Exit 0 even when some files failed (they are rows with their error); 2 when
a path does not exist or no PDF was found.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from glyphscope.core.triage import TriageRow, expand_paths, triage_paths

EXIT_OK, EXIT_USAGE = 0, 2


def _usage(message: str) -> int:
    print(f"glyphscope: {message}", file=sys.stderr)
    return EXIT_USAGE


class _Progress:
    """`[12/40] name.pdf` on one rewritten stderr line, only when stderr is a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.enabled = stream.isatty()
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
    from glyphscope.core.triage import (
        W_CULLED,
        W_DUPLICATES,
        W_ERROR,
        W_FALLBACK,
        W_FONT_WITHOUT_TOUNICODE,
        W_FORMS,
        W_INFO,
        W_UNRESOLVED,
        W_UNTAGGED,
        W_WARNING,
    )

    return {
        "files": len(rows),
        "failed": sum(1 for r in rows if r.failed),
        "score_weights": {
            "unresolved": W_UNRESOLVED,
            "fallback": W_FALLBACK,
            "culled": W_CULLED,
            "duplicates": W_DUPLICATES,
            "from_forms": W_FORMS,
            "untagged": W_UNTAGGED,
            "font_without_tounicode": W_FONT_WITHOUT_TOUNICODE,
            "errors": W_ERROR,
            "warnings": W_WARNING,
            "infos": W_INFO,
        },
        "rows": [r.to_json() for r in rows],
    }


def run_triage(args: argparse.Namespace) -> int:
    jobs = getattr(args, "jobs", None)
    jobs = 1 if jobs is None else jobs
    if jobs < 1:
        return _usage("--jobs must be at least 1")
    files, missing = expand_paths(args.paths)
    if missing:
        return _usage("no such file or folder: " + ", ".join(missing))
    if not files:
        return _usage("no PDF found in " + ", ".join(str(p) for p in args.paths))
    for out in (getattr(args, "json_out", None), getattr(args, "html_out", None)):
        if out and not Path(out).resolve().parent.is_dir():
            return _usage(f"cannot write {out}: its folder does not exist")

    progress = _Progress(sys.stderr)
    try:
        rows = triage_paths(files, args.password, jobs, progress)
    finally:
        progress.close()

    sys.stdout.write(_clean_line_table(rows))
    sys.stdout.flush()
    failed = sum(1 for r in rows if r.failed)
    summary = f"glyphscope: {len(rows)} file(s) triaged" + (f", {failed} could not be read" if failed else "")
    print(summary, file=sys.stderr)

    if getattr(args, "json_out", None):
        text = json.dumps(report_json(rows), ensure_ascii=False, indent=1) + "\n"
        Path(args.json_out).write_text(text, encoding="utf-8")
        print(f"glyphscope: JSON report written to {args.json_out}", file=sys.stderr)
    if getattr(args, "html_out", None):
        from glyphscope.inspector.report_html import write_html_report

        write_html_report(rows, args.html_out, password=args.password)
        print(f"glyphscope: HTML report written to {args.html_out}", file=sys.stderr)
    return EXIT_OK


def _clean_line_table(rows: list[TriageRow]) -> str:
    return "\n".join(_clean_line(line) for line in format_table(rows).splitlines()) + "\n"
