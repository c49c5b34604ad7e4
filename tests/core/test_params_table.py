"""A parameter is declared once (core/params.py): its field and its row of PARAMETER_SPECS.

The command line, Tuning, the JSON schemas' `params` and the man page are made from them. The
proof: a copy of the package gets one new threshold, by editing core/params.py alone, and every
one of them offers it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

from glyphscope.core.params import (
    CHOICES,
    DEFAULT_PARAMETERS,
    PARAMETER_SPECS,
    SWITCHES,
    AnnotationText,
    Parameters,
)

REPO = Path(__file__).resolve().parents[2]


def test_every_field_has_one_row_and_every_row_a_field() -> None:
    names = [spec.name for spec in PARAMETER_SPECS]
    assert sorted(names) == sorted(f.name for f in fields(Parameters))
    assert len(set(names)) == len(names)
    options = [spec.option for spec in PARAMETER_SPECS if spec.option]
    assert len(set(options)) == len(options)


def test_each_row_says_what_kind_of_value_its_field_takes() -> None:
    for spec in PARAMETER_SPECS:
        default = getattr(DEFAULT_PARAMETERS, spec.name)
        if spec.choices:
            assert default == spec.choices[0] and spec.range is None and not spec.switch
        elif spec.switch:
            assert isinstance(default, bool) and spec.range is None
            # a switch's option flips its default: "--no-…" for one that is on
            assert spec.option is None or spec.option.startswith("--no-") == default
        else:
            assert type(default) is float and spec.range is not None, spec.name
            assert spec.range.low <= default <= spec.range.high, spec.name
        assert spec.option is None or spec.help, spec.name
    assert {s.name for s in PARAMETER_SPECS if s.switch} == SWITCHES
    assert CHOICES == {"annotations": ("include", "exclude", "only")}


def test_a_closed_vocabulary_is_an_enum_that_reads_and_writes_its_words() -> None:
    params = Parameters(annotations="only")
    assert params.annotations is AnnotationText.ONLY
    assert json.dumps(params.to_json()["annotations"]) == '"only"'  # JSON unchanged
    assert f"--annotations {params.annotations}" == "--annotations only"
    try:
        Parameters(annotations="some")
    except ValueError as exc:
        assert str(exc) == "annotations must be one of include, exclude, only, not 'some'"
    else:
        raise AssertionError("a word outside the vocabulary was taken")


NEW_FIELD = '''
    example_gap: float = 0.5
    """A threshold added for tests/core/test_params_table.py."""
'''
NEW_ROW = """    ParameterSpec(
        "example_gap",
        "Example gap (× height)",
        "--example-gap",
        "an example threshold × height",
        Range(0.0, 2.0, 0.05),
    ),
"""
PROBE = r"""
import argparse, json, sys
from dataclasses import fields
from glyphscope.core.params import Parameters
from glyphscope.inspector.cli.parser import build_parser
from glyphscope.inspector.cli.docs import man_page, params_schema, write_params_schemas
from glyphscope.inspector.cli.shared import parameters
from glyphscope.inspector.gui.panels import tuning

args = build_parser("text").parse_args(["text", "x.pdf", "--example-gap", "0.7"])
(sub,) = (a for a in build_parser("text")._actions if isinstance(a, argparse._SubParsersAction))
help_text = sub.choices["text"].format_help()
written = [p.name for p in write_params_schemas()]
print(json.dumps({
    "field": [f.name for f in fields(Parameters)][-1],
    "parsed": parameters(args).example_gap,
    "help": "--example-gap EXAMPLE_GAP" in help_text and "an example threshold × height" in " ".join(help_text.split()),
    "man": "example\\-gap" in man_page() and "an example threshold × height" in man_page(),
    "tuning": [tuning.label_of("example_gap")],
    "tuning_range": [tuning.range_of("example_gap").low, tuning.range_of("example_gap").high],
    "schema": params_schema()["properties"]["example_gap"],
    "written": written,
}))
"""


def test_adding_a_threshold_is_one_change_in_core_params(tmp_path: Path) -> None:
    stage = tmp_path / "stage" / "glyphscope"
    stage.mkdir(parents=True)
    for f in (REPO / "glyphscope").glob("*.py"):
        shutil.copy(f, stage)
    for folder in ("core", "inspector"):
        shutil.copytree(REPO / folder, stage / folder, ignore=shutil.ignore_patterns("__pycache__"))
    params = stage / "core" / "params.py"
    text = params.read_text("utf-8")
    anchor = "\n    def __post_init__(self) -> None:"
    text = text.replace(anchor, NEW_FIELD + anchor, 1)
    rows = "    # in Tuning only\n"
    text = text.replace(rows, NEW_ROW + rows, 1)
    params.write_text(text, "utf-8")  # the one change; nothing else of the copy is touched

    env = dict(os.environ, PYTHONPATH=str(stage.parent), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=stage.parent, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout.splitlines()[-1])
    assert found["field"] == "example_gap"
    assert found["parsed"] == 0.7  # the command line takes it …
    assert found["help"] and found["man"]  # … and its help and the man page say it
    assert found["tuning"][0] == "Example gap (× height)" and found["tuning_range"] == [
        0.0,
        2.0,
    ]  # a Tuning row
    assert found["schema"] == {"type": "number", "minimum": 0, "description": "an example threshold × height"}
    assert found["written"] == ["decisions.schema.json", "glyphs.schema.json"]  # the schemas follow
    staged = json.loads((stage / "inspector" / "schemas" / "glyphs.schema.json").read_text("utf-8"))
    assert "example_gap" in staged["$defs"]["params"]["required"]
