"""The options of `glyphscope triage` that the parser needs before any file is read.

Kept apart from inspector/cli/triage.py so that building the command line (for any
command) imports no triage, compare or engine code (only compare/triage_pages.py, a constant): `glyphscope text` starts faster.
"""

from __future__ import annotations

import argparse

from glyphscope.inspector.compare.triage_pages import DOCUMENT_MAX_PAGES


def add_scale_options(p: argparse.ArgumentParser) -> None:
    """The archive-scale options of `glyphscope triage` (streaming, resume, Dask, CI exit, sharing)."""
    p.add_argument(
        "--jsonl",
        metavar="OUT",
        dest="jsonl_out",
        help="write one JSON row per file as it finishes (append-only, flushed per row); - is stdout",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="skip files already in the --jsonl OUT file (the same file, however its path is written, "
        "with the same content SHA-256); append the rest",
    )
    from glyphscope.core.triage.time_limits import TIME_BUDGET  # only when the triage parser is built

    p.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=_seconds,
        default=TIME_BUDGET,
        help="time budget of each file: a file still running after it becomes a failed row and the "
        "batch goes on",
    )
    p.add_argument(
        "--scheduler",
        metavar="local|dask|tcp://HOST:PORT",
        default="local",
        help="local worker processes (--jobs), a Dask LocalCluster sized to the machine, or a running "
        "Dask scheduler (needs pip install 'glyphscope[dask]')",
    )
    p.add_argument(
        "--fail-on",
        metavar="error|warning|score>N",
        help="exit 1 when a file failed or has an error finding (error), also a warning (warning), "
        "or scores above N",
    )
    p.add_argument(
        "--anonymise",
        "--anonymize",
        action="store_true",
        dest="anonymise",
        help="replace every letter and digit of file names and page text in the reports by a placeholder "
        "of the same class; no page images",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds is expected, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds > 0, not {text}")
    return value


def add_verify_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--verify",
        action="store_true",
        help="add two columns: OCR agreement (%%ocr) and fonts whose mapping the ink says is wrong (wrong) "
        "over each file's first 10 pages (glyphscope verify explains it; seconds a page; needs "
        "pip install 'glyphscope[ocr]')",
    )


def add_compare_option(p: argparse.ArgumentParser) -> None:
    from glyphscope.inspector.compare.engines import ENGINE_KEYS

    p.add_argument(
        "--compare",
        metavar="ENGINE",
        type=_compare_engine,
        help=f"add a column: %% agreement of ENGINE's text ({', '.join(ENGINE_KEYS)}) with glyphscope's "
        f"plain text over each file's first {DOCUMENT_MAX_PAGES} pages (glyphscope compare explains it)",
    )


def add_against_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--against",
        metavar="TEXTDIR",
        type=_text_dir,
        help="the customer's texts: TEXTDIR/<name>.txt for each <name>.pdf (pages separated by form feeds); "
        "every row gets against_agreement and against_causes (first 10 pages), rows are ranked by "
        "disagreement and the HTML report groups them by cause",
    )


def _text_dir(text: str) -> str:
    import os

    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return text


def _compare_engine(text: str) -> str:
    """--compare's value: one known, installed engine (a usage error before any file is read)."""
    from glyphscope.inspector.compare.engines import engine_status, parse_engine_list

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
