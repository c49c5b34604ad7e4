"""`glyphscope completion bash|zsh|tcsh`: a completion script made from the parser itself."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from glyphscope.inspector.cli.shared import Subparsers

from glyphscope.inspector.cli.shared import (
    EXIT_OK,
)

COMPLETION_SHELLS = ("bash", "zsh", "tcsh")


def run(args: argparse.Namespace) -> int:
    import shtab

    from glyphscope.inspector.cli.parser import build_parser

    sys.stdout.write(shtab.complete(build_parser(), shell=args.shell))
    sys.stdout.flush()
    return EXIT_OK


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        "completion",
        help="print a shell completion script made from this parser",
        description="Print a completion script for SHELL on stdout. bash: "
        "`glyphscope completion bash > ~/.local/share/bash-completion/completions/glyphscope`; "
        "zsh: `glyphscope completion zsh > ~/.zfunc/_glyphscope` (a folder on $fpath).",
    )
    p.add_argument("shell", choices=COMPLETION_SHELLS, help="the shell to complete in")
    p.set_defaults(func=run)
