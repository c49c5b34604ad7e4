"""Other extractors' text of one page: which are installed, their versions, and one run each (Qt-free).

Every engine runs in a worker process with a time limit (a stuck or crashing
extractor must not take the window or a batch with it): the command-line tools
(pdftotext, mutool) as themselves, the Python libraries (pdfminer.six,
pypdfium2) in a fresh interpreter. That is why this lives in the application
layer and not in core: core interprets PDFs, it never starts programs.

Engines are detected at run time (`detect_engines`), never required:
pdfminer.six is a dependency of glyphscope and always there; the others are
listed with how to install them when absent. Each runs with its default options;
pdftotext's `-layout` is a second variant of its own.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

DEFAULT_TIMEOUT = 20.0
"""Seconds one engine may take for one page; a real page takes well under a second."""

StopCheck = Callable[[], bool]

_PDFMINER_SCRIPT = r"""
import sys
from pdfminer.high_level import extract_text
password = sys.stdin.read()
text = extract_text(sys.argv[1], password=password, page_numbers=[int(sys.argv[2]) - 1])
sys.stdout.buffer.write(text.encode("utf-8", "surrogatepass"))
"""

_PDFIUM_SCRIPT = r"""
import sys
import pypdfium2 as pdfium
password = sys.stdin.read() or None
doc = pdfium.PdfDocument(sys.argv[1], password=password)
page = doc[int(sys.argv[2]) - 1]
text = page.get_textpage().get_text_range()
sys.stdout.buffer.write(text.encode("utf-8", "surrogatepass"))
"""


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """One extractor (or one variant of it) the Compare panel and `glyphscope compare` can run."""

    key: str  # the name on the command line: pdfminer, pdftotext, pdftotext-layout, mutool, pypdfium2
    label: str  # as a column title and in sentences
    program: str  # what is detected: an executable on PATH, or a Python module
    kind: str  # "executable" or "python"
    install: str  # how to get it when absent
    options: str  # the options it runs with, as a user would type them


ENGINES: tuple[EngineSpec, ...] = (
    EngineSpec(
        "pdfminer",
        "pdfminer.six",
        "pdfminer",
        "python",
        "pip install pdfminer.six (a dependency of glyphscope)",
        "extract_text() with the default LAParams",
    ),
    EngineSpec(
        "pdftotext",
        "pdftotext",
        "pdftotext",
        "executable",
        "apt-get install poppler-utils (Debian/Ubuntu), brew install poppler (macOS)",
        "pdftotext -enc UTF-8",
    ),
    EngineSpec(
        "pdftotext-layout",
        "pdftotext -layout",
        "pdftotext",
        "executable",
        "apt-get install poppler-utils (Debian/Ubuntu), brew install poppler (macOS)",
        "pdftotext -layout -enc UTF-8",
    ),
    EngineSpec(
        "mutool",
        "mutool (MuPDF)",
        "mutool",
        "executable",
        "apt-get install mupdf-tools (Debian/Ubuntu), brew install mupdf-tools (macOS)",
        "mutool draw -F txt",
    ),
    EngineSpec(
        "pypdfium2",
        "pypdfium2 (PDFium)",
        "pypdfium2",
        "python",
        "pip install 'glyphscope[compare]' (or pip install pypdfium2)",
        "get_text_range() of the page's text page",
    ),
)
ENGINE_KEYS: tuple[str, ...] = tuple(e.key for e in ENGINES)
ENGINE_BY_KEY = {e.key: e for e in ENGINES}


@dataclass(frozen=True, slots=True)
class EngineStatus:
    """An engine as detected on this machine."""

    spec: EngineSpec
    available: bool
    version: str  # "" when absent or unknown

    @property
    def key(self) -> str:
        return self.spec.key

    @property
    def label(self) -> str:
        return self.spec.label

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.spec.key,
            "label": self.spec.label,
            "available": self.available,
            "version": self.version or None,
            "options": self.spec.options,
            "install": None if self.available else self.spec.install,
        }


@dataclass(frozen=True, slots=True)
class EngineText:
    """What one engine gave for one page: its text, or why there is none."""

    status: EngineStatus
    text: str | None
    error: str | None
    seconds: float

    @property
    def key(self) -> str:
        return self.status.key

    @property
    def label(self) -> str:
        return self.status.label


def _version_of_executable(program: str) -> str:
    """The version line a tool prints for -v (pdftotext, mutool print it on stderr)."""
    try:
        proc = subprocess.run(
            [program, "-v"], capture_output=True, timeout=10, stdin=subprocess.DEVNULL, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    out = (proc.stderr + proc.stdout).decode("utf-8", "replace")
    m = re.search(r"version\s+([0-9][\w.\-]*)", out)
    return m.group(1) if m else ""


def _version_of_module(module: str) -> str:
    from importlib import metadata

    dist = {"pdfminer": "pdfminer.six"}.get(module, module)
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return ""


@cache
def _detect(key: str) -> EngineStatus:
    spec = ENGINE_BY_KEY[key]
    if spec.kind == "executable":
        if shutil.which(spec.program) is None:
            return EngineStatus(spec, False, "")
        return EngineStatus(spec, True, _version_of_executable(spec.program))
    if importlib.util.find_spec(spec.program) is None:
        return EngineStatus(spec, False, "")
    return EngineStatus(spec, True, _version_of_module(spec.program))


def detect_engines(refresh: bool = False) -> tuple[EngineStatus, ...]:
    """Every known engine, installed or not, with its version (cached; `refresh` looks again)."""
    if refresh:
        _detect.cache_clear()
    return tuple(_detect(e.key) for e in ENGINES)


def engine_status(key: str) -> EngineStatus:
    if key not in ENGINE_BY_KEY:
        raise ValueError(f"unknown engine {key!r}; choose from {', '.join(ENGINE_KEYS)}")
    return _detect(key)


def available_engine_keys() -> tuple[str, ...]:
    return tuple(s.key for s in detect_engines() if s.available)


def parse_engine_list(text: str) -> tuple[str, ...]:
    """`pdfminer,pdftotext` → keys, in the order given, each once; `all` (or empty) → every available one.

    Raises ValueError naming unknown engines.
    """
    names = [n.strip().lower() for n in (text or "").split(",") if n.strip()]
    if not names or names == ["all"]:
        return available_engine_keys()
    aliases = {"pdfminer.six": "pdfminer", "poppler": "pdftotext", "mupdf": "mutool", "pdfium": "pypdfium2"}
    keys = [aliases.get(n, n) for n in names]
    unknown = [n for n, k in zip(names, keys) if k not in ENGINE_BY_KEY]
    if unknown:
        raise ValueError(f"unknown engine(s) {', '.join(unknown)}; choose from {', '.join(ENGINE_KEYS)}")
    return tuple(dict.fromkeys(keys))


def _command(spec: EngineSpec, path: str, page: int, password: str | None) -> tuple[list[str], bytes]:
    """argv and stdin of one run. Python engines read the password from stdin (not visible in ps)."""
    if spec.key == "pdfminer":
        return [sys.executable, "-c", _PDFMINER_SCRIPT, path, str(page)], (password or "").encode()
    if spec.key == "pypdfium2":
        return [sys.executable, "-c", _PDFIUM_SCRIPT, path, str(page)], (password or "").encode()
    pw: list[str] = []
    if spec.program == "pdftotext":
        pw = ["-upw", password] if password else []
        layout = ["-layout"] if spec.key == "pdftotext-layout" else []
        argv = ["pdftotext", *layout, "-enc", "UTF-8", "-f", str(page), "-l", str(page), *pw, path, "-"]
        return argv, b""
    if spec.program == "mutool":
        pw = ["-p", password] if password else []
        return ["mutool", "draw", "-q", "-F", "txt", *pw, "-o", "-", path, str(page)], b""
    raise ValueError(f"no command for engine {spec.key!r}")


def _run_process(
    argv: Sequence[str], stdin: bytes, timeout: float, should_stop: StopCheck | None
) -> tuple[int, bytes, bytes]:
    """Run a worker process; kill it past `timeout` seconds or when `should_stop()` says so."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen(
        list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    deadline = time.monotonic() + timeout
    pending: bytes | None = stdin
    while True:
        try:
            # Never wait past the deadline: an answer that comes after it is not taken.
            out, err = proc.communicate(pending, timeout=max(0.0, min(0.1, deadline - time.monotonic())))
            return proc.returncode, out, err
        except subprocess.TimeoutExpired:
            pending = None  # communicate() has sent stdin already
            stop = should_stop is not None and should_stop()
            if stop or time.monotonic() >= deadline:
                proc.kill()
                proc.communicate()
                raise TimeoutError("cancelled" if stop else f"no answer within {timeout:g} s") from None


def _clean(text: str) -> str:
    """The page's text without the page-end form feed every engine appends."""
    return text.replace("\r\n", "\n").rstrip("\f\n ") if text.strip() else ""


def _stderr_line(err: bytes) -> str:
    lines = [ln.strip() for ln in err.decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def run_engine(
    key: str,
    path: str,
    page: int,
    password: str | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    should_stop: StopCheck | None = None,
) -> EngineText:
    """One engine's text of `page` (1-based) of the PDF at `path`; never raises for the engine's failures."""
    status = engine_status(key)
    if not status.available:
        return EngineText(status, None, f"not installed: {status.spec.install}", 0.0)
    argv, stdin = _command(status.spec, path, page, password)
    start = time.perf_counter()
    try:
        code, out, err = _run_process(argv, stdin, timeout, should_stop)
    except TimeoutError as exc:
        return EngineText(status, None, str(exc), time.perf_counter() - start)
    except OSError as exc:
        return EngineText(status, None, f"could not start: {exc}", time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if code != 0:
        why = _stderr_line(err) or f"exit code {code}"
        return EngineText(status, None, f"failed: {why}", seconds)
    return EngineText(status, _clean(out.decode("utf-8", "replace")), None, seconds)


def run_engines(
    keys: Sequence[str],
    path: str,
    page: int,
    password: str | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    should_stop: StopCheck | None = None,
) -> list[EngineText]:
    """Every engine of `keys` on one page, two at a time (each in its own process), in the order of `keys`."""
    from concurrent.futures import ThreadPoolExecutor

    if not keys:
        return []
    with ThreadPoolExecutor(max_workers=min(2, len(keys))) as pool:
        futures = [
            pool.submit(run_engine, k, path, page, password, timeout=timeout, should_stop=should_stop)
            for k in keys
        ]
        return [f.result() for f in futures]
