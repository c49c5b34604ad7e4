"""Progress of long command-line work: one transient line on stderr, drawn by rich.

`triage of 40 files ━━━━━━━━━━━━━━━━━━━━━━━━   12/40  3.4 files/s  0:00:08  b.pdf`: a
description, a bar, done/total, the rate, the time still to go, the last item's name
cut to what is left of the line. The line is at most LINE_WIDTH columns (80, or a narrower
terminal) and disappears when the work ends. While it is drawn, warnings (library log lines
included: inspector/cli/io.py) wait and are printed when it is gone, so nothing is written
into it.

Off a terminal (a pipe, a file, CI logs) a plain line is written instead every
PLAIN_INTERVAL seconds: `glyphscope: triage: 12/40 files, 3.4 files/s, 0:00:08 left` (rich
is then not even imported). Nothing at all with `--quiet`.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

LINE_WIDTH = 80
BAR_WIDTH = 20
PLAIN_INTERVAL = 5.0  # seconds between two plain progress lines off a terminal


class ProgressLine:
    """`with ProgressLine("triage", total, "files") as p: … p.advance(name)` for each item done."""

    def __init__(
        self, description: str, total: int, unit: str, *, enabled: bool = True, stream: TextIO | None = None
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and _is_terminal(self.stream)
        self.plain = enabled and not self.enabled  # off a terminal: a plain line now and then
        self.done = 0
        self.started = time.monotonic()
        self._last_plain = self.started
        self.total = total
        self.unit = unit
        self.description = description
        self._progress: RichProgress | None = None
        self._task: TaskID | None = None
        self.console: Console | None = None

    def __enter__(self) -> ProgressLine:
        if self.enabled:
            self._start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _start(self) -> None:
        from glyphscope.inspector.cli.io import hold_notes

        hold_notes()
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        width = min(LINE_WIDTH, _terminal_width(self.stream))
        self.console = Console(file=self.stream, width=width, force_terminal=True)
        self._progress = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=BAR_WIDTH),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[item]}"),
            console=self.console,
            transient=True,
            expand=False,
            redirect_stdout=False,  # our own lines go where they are written, never through rich
            redirect_stderr=False,
        )
        self._task = self._progress.add_task(self.description, total=self.total, rate="", item="")
        self._progress.start()

    def advance(self, item: str = "") -> None:
        """One item done (`item`: its name, shown cut to the room left on the line)."""
        self.done += 1
        if self.plain:
            self.plain_line()
        if self._progress is None or self._task is None:
            return
        task = self._progress.tasks[0]
        speed = task.speed
        rate = f"{speed:.1f} {self.unit}/s" if speed else ""
        self._progress.update(self._task, advance=1, rate=rate, item="")
        room = self._room()
        shown = item if len(item) <= room else ("…" + item[-(room - 1) :] if room > 1 else "")
        self._progress.update(self._task, item=shown)

    def _room(self) -> int:
        """Columns left for the item's name on the line (the rest is laid out first)."""
        assert self._progress is not None and self.console is not None
        used = self.console.measure(self._progress.get_renderable()).maximum
        return max(0, self.console.width - used - 1)

    def line(self) -> str:
        """The line as it is drawn now, without colour (empty when disabled)."""
        if self._progress is None or self.console is None:
            return ""
        import io

        from rich.console import Console

        plain = Console(file=io.StringIO(), width=self.console.width, color_system=None)
        with plain.capture() as capture:
            plain.print(self._progress.get_renderable())
        return capture.get().rstrip("\n")

    def plain_line(self, now: float | None = None) -> None:
        """Off a terminal: `glyphscope: triage: 12/40 files, 3.4 files/s, 0:00:08 left`, at most
        every PLAIN_INTERVAL seconds."""
        now = time.monotonic() if now is None else now
        if now - self._last_plain < PLAIN_INTERVAL:
            return
        self._last_plain = now
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        minutes, seconds = divmod(int(round(left)), 60)
        hours, minutes = divmod(minutes, 60)
        line = (
            f"glyphscope: {self.description}: {self.done}/{self.total} {self.unit}, "
            f"{rate:.1f} {self.unit}/s, {hours}:{minutes:02d}:{seconds:02d} left"
        )
        try:
            print(line, file=self.stream, flush=True)
        except (OSError, ValueError):
            self.plain = False

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
            from glyphscope.inspector.cli.io import release_notes

            release_notes()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a real stream
        return False


def _terminal_width(stream: TextIO) -> int:
    import os

    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return LINE_WIDTH
