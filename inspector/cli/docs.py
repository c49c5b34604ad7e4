"""Documentation made from the command-line parser and core.params: the man page, the schemas' params.

`python -m glyphscope.inspector.cli.docs man > glyphscope.1` writes glyphscope(1) in roff
(`man ./glyphscope.1` shows it): the synopsis, every command with its options, help texts
and defaults exactly as `glyphscope COMMAND --help` gives them, and the exit codes. Nothing
is written twice: the parser (inspector/cli/parser.py) is the one description of the options.
`python -m glyphscope.inspector.cli.docs schemas` rewrites the `params` object of the JSON
schemas from core.params.PARAMETER_SPECS (tests/inspector/test_schemas.py checks they agree).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import NotRequired, TypedDict

from glyphscope.inspector.cli import parser as cli
from glyphscope.inspector.cli import shared


def _roff(text: str) -> str:
    """Plain text made safe for roff: backslashes, and a line starting with . or '."""
    out = []
    for line in text.replace("\\", "\\e").splitlines():
        out.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(out)


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of every subcommand, in the order of `cli.SUBCOMMANDS`."""
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
    return [(name, helps.get(name, ""), action.choices[name]) for name in cli.SUBCOMMANDS]


def _options(p: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """(the option as typed, its help with the default) for each argument of `p`."""
    formatter = p._get_formatter()
    rows = []
    for a in p._actions:
        if isinstance(a, argparse._HelpAction) or a.help == argparse.SUPPRESS:
            continue
        invocation = formatter._format_action_invocation(a)
        help_text = formatter._expand_help(a) if a.help else ""
        rows.append((invocation, " ".join(help_text.split())))
    return rows


MAN_SOURCE = Path(__file__).resolve().parents[2] / "man" / "glyphscope.1"
"""The man page the package installs (pyproject's data-files: share/man/man1): `man --write`
regenerates it; tests/test_docs.py checks it is the parser's."""
MAN_VERSION = ""  # the shipped page names no version: it is the same for every build of the parser


def man_page(version: str | None = None) -> str:
    """glyphscope(1) as roff source."""
    if version is None:
        import glyphscope

        version = glyphscope.__version__
    parser = cli.build_parser()
    gui = cli.build_gui_parser()
    lines = [
        f'.TH GLYPHSCOPE 1 "" "glyphscope{" " + version if version else ""}" "User Commands"',
        ".SH NAME",
        "glyphscope \\- inspect PDF text extraction: every glyph, and every decision that made the text",
        ".SH SYNOPSIS",
        ".B glyphscope",
        "[\\fIFILE\\fR] [\\fB\\-\\-page\\fR \\fIN\\fR]",
        ".br",
        ".B glyphscope",
        "\\fICOMMAND\\fR \\fIFILE\\fR [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        _roff(gui.description or ""),
        "Commands:",
    ]
    for name, help_text, _ in _commands(parser):
        lines += [".TP", f"\\fB{name}\\fR", _roff(help_text)]
    lines += [".SH OPTIONS (WINDOW)"]
    lines += _option_lines(gui)
    for name, help_text, sub in _commands(parser):
        lines += [f".SH {name.upper()}", _roff(f"glyphscope {name}: {help_text}.")]
        if sub.description and sub.description.rstrip(".").lower() != help_text.lower():
            lines += [".PP", _roff(sub.description)]
        lines += _option_lines(sub)
    lines += [".SH EXIT STATUS"]
    for code, meaning in shared.EXIT_CODES:
        lines += [".TP", f"\\fB{code}\\fR", _roff(meaning)]
    lines += [
        ".SH ENVIRONMENT",
        ".TP",
        "\\fBGLYPHSCOPE_PASSWORD\\fR",
        "the password of an encrypted PDF when neither \\-\\-password nor \\-\\-password\\-file is given",
        ".SH SEE ALSO",
        "glyphscope COMMAND \\-\\-help; glyphscope completion bash|zsh",
    ]
    return "\n".join(lines) + "\n"


def _option_lines(p: argparse.ArgumentParser) -> list[str]:
    out = []
    for invocation, help_text in _options(p):
        out += [".TP", "\\fB" + _roff(invocation).replace("-", "\\-") + "\\fR", _roff(help_text)]
    return out


# ---------------------------------------------------------------- the schemas' params

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
PARAMS_KEY = '"params": {'


class ParamsSchema(TypedDict):
    type: str
    required: list[str]
    properties: dict[str, dict[str, object]]
    additionalProperties: bool
    description: NotRequired[str]


def params_schema(description: str | None = None) -> ParamsSchema:
    """The JSON schema of `Parameters.to_json()`, made from core.params.PARAMETER_SPECS: every
    field required, thresholds numbers ≥ 0, switches booleans, a vocabulary its words."""
    from glyphscope.core.params import SPEC_BY_NAME, Parameters

    properties: dict[str, dict[str, object]] = {}
    for f in fields(Parameters):
        spec = SPEC_BY_NAME[f.name]
        if spec.choices:
            kind: dict[str, object] = {"enum": list(spec.choices)}
        elif spec.switch:
            kind = {"type": "boolean"}
        else:
            kind = {"type": "number", "minimum": 0}
        # a switch's label says what `true` does (its option may say what flipping it does)
        about = spec.label if spec.switch else spec.help or spec.label
        properties[f.name] = kind | {"description": about}
    out: ParamsSchema = {
        "type": "object",
        "required": [f.name for f in fields(Parameters)],
        "properties": properties,
        "additionalProperties": False,
    }
    if description is not None:
        out["description"] = description
    return out


def _params_span(text: str) -> tuple[int, int] | None:
    """Where the `"params": {…}` object that defines the parameters stands in a schema's text."""
    start = 0
    while (at := text.find(PARAMS_KEY, start)) >= 0:
        start = at + len(PARAMS_KEY)
        depth, i, in_string = 0, at + len(PARAMS_KEY) - 1, False
        while i < len(text):
            ch = text[i]
            if in_string:
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        body = json.loads(text[at + len(PARAMS_KEY) - 1 : i + 1])
        if "$ref" not in body:
            return at, i + 1
    return None


def _params_text(params: ParamsSchema, indent: str) -> str:
    """`"params": {…}` in the schemas' compact style: one property per line."""
    inner = indent + "  "
    lines = [
        PARAMS_KEY,
        f'{inner}"type": "object",',
        f'{inner}"required": {json.dumps(params["required"], ensure_ascii=False)},',
    ]
    lines.append(f'{inner}"properties": {{')
    props = [
        f"{inner}  {json.dumps(name)}: {json.dumps(value, ensure_ascii=False)}"
        for name, value in params["properties"].items()
    ]
    lines.append(",\n".join(props))
    lines.append(f"{inner}}},")
    tail = [f'{inner}"additionalProperties": {json.dumps(params["additionalProperties"])}']
    if "description" in params:
        tail.append(f'{inner}"description": {json.dumps(params["description"], ensure_ascii=False)}')
    lines.append(",\n".join(tail))
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def write_params_schemas(folder: Path = SCHEMAS) -> list[Path]:
    """Rewrite the `params` object of every schema that has one from PARAMETER_SPECS (the rest of
    the file as it is); returns the files changed."""
    changed = []
    for path in sorted(folder.glob("*.schema.json")):
        text = path.read_text("utf-8")
        span = _params_span(text)
        if span is None:
            continue
        at, end = span
        old = json.loads(text[at + len(PARAMS_KEY) - 1 : end])
        indent = text[text.rfind("\n", 0, at) + 1 : at]
        new = _params_text(params_schema(old.get("description")), indent)
        if text[at:end] != new:
            path.write_text(text[:at] + new + text[end:], "utf-8")
            changed.append(path)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m glyphscope.inspector.cli.docs",
        description="documentation made from the parser and from core.params",
    )
    parser.add_argument(
        "what",
        choices=("man", "schemas"),
        help="man: the glyphscope(1) man page in roff, on stdout; schemas: rewrite the `params` of "
        "inspector/schemas/*.schema.json from core.params.PARAMETER_SPECS",
    )
    parser.add_argument(
        "--write", action="store_true", help="man: write it to man/glyphscope.1 of the source tree"
    )
    args = parser.parse_args(argv)
    if args.what == "man" and args.write:
        MAN_SOURCE.parent.mkdir(exist_ok=True)
        MAN_SOURCE.write_text(man_page(MAN_VERSION), "utf-8")
        sys.stdout.write(f"written {MAN_SOURCE}\n")
        return 0
    if args.what == "schemas":
        for path in write_params_schemas():
            sys.stdout.write(f"{path.name} written\n")
        return 0
    sys.stdout.write(man_page())
    return 0


if __name__ == "__main__":
    sys.exit(main())
