"""Where the files of a triage come from: paths, folders, glob patterns, `@list.txt` files and fsspec URLs.

Every input becomes a list of sources (str): local paths as given, or URLs
(`s3://bucket/prefix/`, `gs://…`, `https://…`) read as bytes through
fsspec, which is optional (`pip install 'glyphscope[dask]'` brings it). A
source's content hash (`content_sha256`) is what `--resume` compares.
"""

from __future__ import annotations

import glob
import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")
_GLOB_CHARS = re.compile(r"[*?\[]")
FSSPEC_MISSING = "reading {url} needs fsspec: pip install 'glyphscope[dask]' (or pip install fsspec)"


def is_url(source: str | Path) -> bool:
    """A `scheme://` source, read through fsspec (a plain path never is)."""
    return isinstance(source, str) and bool(_URL.match(source))


def expand_paths(paths: Iterable[str | Path]) -> tuple[list[Path], list[str]]:
    """Files to triage (folders searched recursively for *.pdf, any case) and the paths that do not exist.

    A file named explicitly is taken whatever its extension (a non-PDF becomes
    an error row). Symlinked folders are not followed (no loops); duplicates
    are dropped, first occurrence wins.
    """
    files: list[Path] = []
    missing: list[str] = []
    seen: set[str] = set()

    def take(p: Path) -> None:
        try:
            key = str(p.resolve())
        except OSError:
            key = str(p)
        if key not in seen:
            seen.add(key)
            files.append(p)

    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found: list[Path] = []
            for root, dirs, names in os.walk(p, followlinks=False):
                dirs.sort()
                for name in names:
                    if name.lower().endswith(".pdf"):
                        candidate = Path(root) / name
                        if candidate.is_file():
                            found.append(candidate)
            for f in sorted(found):
                take(f)
        elif p.exists():
            take(p)
        else:
            missing.append(str(raw))
    return files, missing


@dataclass
class Inputs:
    """The expanded sources, in order, without duplicates; and what could not be expanded."""

    sources: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # paths, patterns or lists that match nothing
    problems: list[str] = field(default_factory=list)  # one line each: unreadable list, no fsspec, …
    _seen: set[str] = field(default_factory=set, repr=False)

    def take(self, source: str) -> None:
        if source not in self._seen:
            self._seen.add(source)
            self.sources.append(source)


def expand_inputs(inputs: Iterable[str]) -> Inputs:
    """Expand every input; `@FILE` reads one input per line (blank lines and `# comments` skipped)."""
    out = Inputs()
    for raw in inputs:
        if raw.startswith("@") and len(raw) > 1:
            _expand_list(raw[1:], out)
        else:
            _expand_one(raw, out)
    return out


def _expand_list(list_path: str, out: Inputs) -> None:
    try:
        text = Path(list_path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        out.problems.append(f"cannot read the list {list_path}: {reason}")
        return
    for line in text.splitlines():
        item = line.strip()
        if item and not item.startswith("#"):
            _expand_one(item, out)


def _expand_one(raw: str, out: Inputs) -> None:
    if is_url(raw):
        _expand_url(raw, out)
        return
    if not Path(raw).exists() and _GLOB_CHARS.search(raw):
        matches = sorted(glob.glob(raw, recursive=True))
        if not matches:
            out.missing.append(raw)
        files, _ = expand_paths(matches)
        for f in files:
            out.take(str(f))
        return
    files, missing = expand_paths([raw])
    out.missing.extend(missing)
    for f in files:
        out.take(str(f))


def _expand_url(url: str, out: Inputs) -> None:
    try:
        import fsspec
    except ImportError:
        out.problems.append(FSSPEC_MISSING.format(url=url))
        return
    try:
        fs, root = fsspec.core.url_to_fs(url)
        if _GLOB_CHARS.search(root):
            found = [p for p in fs.glob(root) if not fs.isdir(p)]
        elif fs.isdir(root):
            found = [p for p in fs.find(root) if str(p).lower().endswith(".pdf")]
        elif fs.exists(root):
            found = [root]
        else:
            out.missing.append(url)
            return
    except Exception as exc:  # noqa: BLE001 — a remote store's errors are many; say which input failed
        out.problems.append(f"cannot list {url}: {type(exc).__name__}: {exc}")
        return
    for p in sorted(found):
        out.take(fs.unstrip_protocol(p))


def read_url(url: str) -> bytes:
    """The bytes behind an fsspec URL (ImportError with the install hint when fsspec is missing)."""
    try:
        import fsspec
    except ImportError:
        raise ImportError(FSSPEC_MISSING.format(url=url)) from None
    with fsspec.open(url, "rb") as fh:
        return bytes(fh.read())


def content_sha256(source: str | Path) -> str | None:
    """SHA-256 of a source's bytes, hex; None when it cannot be read."""
    try:
        if is_url(str(source)):
            return hashlib.sha256(read_url(str(source))).hexdigest()
        with open(source, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except Exception:  # noqa: BLE001 — unreadable: the triage row will say why
        return None
