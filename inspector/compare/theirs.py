"""The customer's own extraction as one more engine: a text file, pasted text or any extractor's command
(Qt-free).

Their text is one document: pages are separated by form feeds (what pdftotext,
pdfminer.six and most extractors write), or, without form feeds, it is one page
or it is cut between the pages it is compared with where the alignment says
each page ends. Bytes that are not UTF-8 are read with U+FFFD replacement and a
warning (a UTF-16 text with its byte-order mark is read as UTF-16). A command
(`pdftotext {} -`, `java -jar tika.jar -t {}`, …) runs through the shell with
`{}` replaced by the PDF's path, with a time limit; its process group is killed
when the limit passes, and a failure is one line with the command's last line
of stderr.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from glyphscope.inspector.compare.engines import EngineSpec, EngineStatus, EngineText

THEIRS_KEY = "theirs"
"""The engine key of the customer's text in `compare --json` and the window."""

FOREIGN_AGREEMENT = 0.2
"""Below this agreement over a file their text is most likely another file's (or other pages')."""
FOREIGN_WORDS = 0.2
"""…or below this share of their words (of 3 letters or more) found among glyphscope's words of the page:
letters alone agree by chance (two English texts share a third of their characters in order)."""


def words_of(text: str) -> list[str]:
    """The words `shared_words` counts: runs of letters and digits, 3 or more, lower case."""
    return [w.lower() for w in re.findall(r"\w{3,}", text)]


def shared_words(theirs: str, ours: str) -> tuple[int, int]:
    """(their words found among our words of the page, their words)."""
    mine = set(words_of(ours))
    words = words_of(theirs)
    return sum(1 for w in words if w in mine), len(words)


def foreign_verdict(summary: Mapping[str, Any]) -> str | None:
    """One line when an engine's text cannot be this file's: agreement or shared words near 0 over
    the pages compared (`summary`: a file summary of `compare`, with `agreement`, `words_shared`,
    `differences` and `label`); None otherwise."""
    a, w = summary["agreement"], summary.get("words_shared")
    if a is None or w is None or summary["differences"] == 0:
        return None  # no text, the same text, or an empty one (said on its own)
    if a >= FOREIGN_AGREEMENT and w >= FOREIGN_WORDS:
        return None
    return (
        f"{summary['label']} agrees {100 * a:.1f} % with glyphscope's text of these pages and shares "
        f"{100 * w:.0f} % of its words with it: it is most likely the text of another file (or of other pages)"
    )


def their_status(label: str, options: str) -> EngineStatus:
    """The EngineStatus of their text, labelled as sentences name it ("their text", "their command")."""
    return EngineStatus(EngineSpec(THEIRS_KEY, label, "", "text", "", options), True, "")


@dataclass(slots=True)
class TheirText:
    """Their whole text, where it came from and what reading it needed."""

    text: str | None  # None when the command failed
    source: str  # "file a.txt", "stdin", "pasted", "command 'pdftotext {} -'"
    label: str  # as sentences name the engine
    error: str | None = None
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    @property
    def status(self) -> EngineStatus:
        return their_status(self.label, self.source)


def decode_text(data: bytes) -> tuple[str, list[str]]:
    """Bytes → text: UTF-8 (a BOM dropped), UTF-16 with its BOM; anything else as UTF-8 with U+FFFD."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), []
        except UnicodeDecodeError:
            pass
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", "replace")
        bad = text.count("\ufffd")
        return text, [
            f"their text is not UTF-8 (first bad byte at offset {exc.start}): read as UTF-8 with {bad} "
            "replacement character(s) U+FFFD"
        ]


def read_text_file(path: str, stdin: bytes | None = None) -> TheirText:
    """Their text from a file, or from `stdin`'s bytes when `path` is "-". Raises OSError for an unreadable file."""
    if path == "-":
        data = stdin if stdin is not None else b""
        source, label = "stdin", "their text"
    else:
        with open(path, "rb") as fh:
            data = fh.read()
        source, label = f"file {os.path.basename(path)}", "their text"
    text, warnings = decode_text(data)
    return TheirText(text, source, label, warnings=warnings)


def pasted_text(text: str) -> TheirText:
    return TheirText(text, "pasted", "their text")


def run_command(command: str, pdf_path: str, timeout: float, password: str | None = None) -> TheirText:
    """Their extractor's text of the PDF: `command` through the shell, `{}` → the path (appended when the
    command has no `{}`); never raises — a failure or the time limit is the result's one-line error."""
    import shlex  # only a command needs it

    quoted = shlex.quote(pdf_path)
    line = command.replace("{}", quoted) if "{}" in command else f"{command} {quoted}"
    source = f"command '{command}'"
    label = "their command"
    env = dict(os.environ)
    if password:
        env["GLYPHSCOPE_PASSWORD"] = password
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(
            ["/bin/sh", "-c", line],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: the time limit kills the whole pipeline
            env=env,
        )
    except OSError as exc:
        return TheirText(None, source, label, f"could not start '{command}': {exc}")
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        return TheirText(
            None,
            source,
            label,
            f"'{command}' gave no answer within {timeout:g} s (killed)",
            time.perf_counter() - start,
        )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        why = stderr_line(err)
        return TheirText(
            None, source, label, f"'{command}' failed (exit code {proc.returncode}): {why}", seconds
        )
    text, warnings = decode_text(out)
    return TheirText(text, source, label, None, seconds, warnings)


_TELLING = re.compile(
    r"error|invalid|unknown|unrecognized|not found|no such|cannot|can't|failed|denied|usage", re.I
)


def stderr_line(err: bytes) -> str:
    """A command's stderr in one line: the first line that names an error, else the last line."""
    lines = [" ".join(ln.split()) for ln in err.decode("utf-8", "replace").splitlines() if ln.strip()]
    if not lines:
        return "no message on stderr"
    return next((ln for ln in lines if _TELLING.search(ln)), lines[-1])[:300]


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):  # a grandchild still holds the pipes: leave them
        proc.communicate(timeout=5)


# -- their pages --------------------------------------------------------------------------------------


def form_feed_pages(text: str) -> list[str] | None:
    """Their text cut at form feeds (a final form feed ends the last page, it starts none); None without any."""
    if "\f" not in text:
        return None
    pages = text.split("\f")
    if len(pages) > 1 and not pages[-1].strip():
        pages.pop()
    return pages


def page_texts(
    text: str,
    pages: Sequence[int],
    page_count: int,
    our_texts: Sequence[str] | None = None,
) -> tuple[dict[int, str | None], list[str]]:
    """Their text of each compared page (None: their text has no such page) and the warnings.

    With form feeds their n-th page is the PDF's page n — or, when their text has exactly as
    many pages as `pages` and fewer than the PDF, the n-th compared page (a text of the pages
    asked for). Without form feeds, one page compared gets the whole text; several are cut by
    `split_by_alignment` against `our_texts` (glyphscope's text of each of `pages`).
    """
    if not text.strip():
        return {n: "" for n in pages}, ["their text is empty: everything glyphscope reads is missing from it"]
    warnings: list[str] = []
    cut = form_feed_pages(text)
    if cut is None:
        if len(pages) == 1:
            return {pages[0]: text}, warnings
        if our_texts is None or len(our_texts) != len(pages):
            return {n: (text if i == 0 else None) for i, n in enumerate(pages)}, warnings
        pieces = split_by_alignment(text, our_texts)
        warnings.append(
            f"their text has no form feeds: it is cut between the {len(pages)} pages where it aligns with "
            "glyphscope's text of each"
        )
        return dict(zip(pages, pieces)), warnings
    if len(cut) != page_count:
        if len(cut) == len(pages) and len(pages) < page_count:
            return dict(zip(pages, cut)), warnings
        warnings.append(
            f"their text has {len(cut)} page(s) (cut at form feeds), the PDF {page_count}: page n of their text is "
            "compared with page n of the PDF"
            + (f"; pages {len(cut) + 1}–{page_count} have no text of theirs" if len(cut) < page_count else "")
        )
    return {n: (cut[n - 1] if n - 1 < len(cut) else None) for n in pages}, warnings


def split_by_alignment(text: str, our_texts: Sequence[str]) -> list[str]:
    """Their text without form feeds cut into len(our_texts) pieces: word k of theirs belongs to the page
    of the word of ours it matches (the last matched page for words between matches)."""
    spans: list[tuple[int, int]] = []
    words: list[str] = []
    pos = 0
    for w in text.split():
        start = text.index(w, pos)
        spans.append((start, start + len(w)))
        words.append(w)
        pos = start + len(w)
    ours: list[str] = []
    page_of: list[int] = []
    for k, t in enumerate(our_texts):
        for w in t.split():
            ours.append(w)
            page_of.append(k)
    owner = [-1] * len(words)
    matcher = SequenceMatcher(None, ours, words, autojunk=len(ours) > 2000)
    for blk in matcher.get_matching_blocks():
        for i in range(blk.size):
            owner[blk.b + i] = page_of[blk.a + i]
    current = 0
    for j in range(len(words)):
        current = max(current, owner[j])
        owner[j] = current
    cuts = [0]
    for k in range(1, len(our_texts)):
        first = next((j for j in range(len(words)) if owner[j] >= k), None)
        cuts.append(spans[first][0] if first is not None else len(text))
    cuts.append(len(text))
    for k in range(1, len(cuts)):
        cuts[k] = max(cuts[k], cuts[k - 1])
    return [text[cuts[k] : cuts[k + 1]] for k in range(len(our_texts))]


def page_result(their: TheirText, page_text: str | None, page: int, pages_in_text: int | None) -> EngineText:
    """Their text of one page as an EngineText (the Compare machinery's engine result)."""
    if their.text is None:
        return EngineText(their.status, None, their.error or "no text", their.seconds)
    if page_text is None:
        has = f"it has {pages_in_text}" if pages_in_text is not None else "it is one page"
        return EngineText(their.status, None, f"their text has no page {page} ({has})", 0.0)
    return EngineText(their.status, page_text, None, 0.0)
