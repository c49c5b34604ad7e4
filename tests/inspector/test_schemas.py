"""Every JSON output carries its versions and matches the command's schema (inspector/schemas/).

Real outputs of the demo (every page, every mode) are validated, the schemas are
shown to reject a wrong type, and the window's glyph export is the same document
as `glyphscope glyphs --set all --json`.
"""

from __future__ import annotations

import copy
import functools
import json
from collections import Counter
from importlib import metadata
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import glyphscope
from glyphscope.core.assembly import MODES
from glyphscope.core.diagnostics import Severity
from glyphscope.core.glyph import DecodeSource, GlyphStatus
from glyphscope.core.serialize import SCHEMA_VERSION
from tests.cli_run import run_cli

COMMANDS = ("glyphs", "fonts", "diagnostics", "text", "decisions", "triage", "verify")
DEMO_PAGES = 15


def schema(command: str) -> dict[str, Any]:
    """The schema as installed: package data of glyphscope.inspector."""
    resource = files("glyphscope.inspector") / "schemas" / f"{command}.schema.json"
    return json.loads(resource.read_text("utf-8"))


@functools.cache
def validator(command: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema(command))


def cli_json(*argv: str) -> dict[str, Any]:
    code, out, err = run_cli(*argv)
    assert code == 0, err
    return json.loads(out.decode("utf-8"))


def assert_valid(command: str, obj: dict[str, Any]) -> None:
    errors = sorted(validator(command).iter_errors(obj), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


@pytest.fixture(scope="module")
def demo() -> str:
    path = glyphscope.demo_pdf()
    if not path.exists():
        pytest.skip("the demo PDF is not available")
    assert page_count(path) == DEMO_PAGES
    return str(path)


def page_count(path: Path) -> int:
    from glyphscope.core.document import open_document

    doc = open_document(path)
    try:
        return doc.page_count
    finally:
        doc.close()


# ---------------------------------------------------------------- the schemas themselves


@pytest.mark.parametrize("command", COMMANDS)
def test_schema_is_a_valid_draft_2020_12_schema(command: str) -> None:
    s = schema(command)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(s)
    assert {"schema_version", "glyphscope_version"} <= set(s["required"])
    assert s["properties"]["schema_version"]["const"] == SCHEMA_VERSION


def _undescribed(node: object, path: str = "") -> list[str]:
    """The paths of properties (at any depth, $defs included) that have no description."""
    out: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name, prop in value.items():
                    if isinstance(prop, dict) and not str(prop.get("description", "")).strip():
                        out.append(f"{path}/{name}")
                    out += _undescribed(prop, f"{path}/{name}")
            else:
                out += _undescribed(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _undescribed(value, f"{path}[{i}]")
    return out


@pytest.mark.parametrize("command", COMMANDS + ("compare",))
def test_every_property_is_described(command: str) -> None:
    s = schema(command)
    assert _undescribed(s) == []
    # the walk sees nested and $defs properties: a property without one is reported by its path
    assert _undescribed(
        {"properties": {"a": {"properties": {"b": {"type": "string"}}, "description": "x"}}}
    ) == ["/a/b"]


def test_schema_enums_follow_the_engine() -> None:
    glyph = schema("glyphs")["$defs"]["glyph"]["properties"]
    assert set(glyph["decode_source"]["enum"]) == {d.value for d in DecodeSource}
    assert set(glyph["status"]["enum"]) == {s.value for s in GlyphStatus}
    fonts = schema("fonts")["$defs"]["font"]["properties"]
    assert set(fonts["decode_sources"]["propertyNames"]["enum"]) == {d.value for d in DecodeSource}
    finding = schema("diagnostics")["$defs"]["finding"]["properties"]
    assert set(finding["severity"]["enum"]) == {s.value for s in Severity}
    for command in ("text", "decisions"):
        assert tuple(schema(command)["properties"]["mode"]["enum"]) == tuple(MODES)


# ---------------------------------------------------------------- real outputs of the demo


def test_versions_in_every_json_output(demo: str, tmp_path: Path) -> None:
    outputs = [
        cli_json("glyphs", demo, "--page", "1", "--json"),
        cli_json("fonts", demo, "--page", "1", "--json"),
        cli_json("diagnostics", demo, "--pages", "1", "--json"),
        cli_json("text", demo, "--pages", "1", "--json"),
        cli_json("decisions", demo, "--page", "1", "--json"),
    ]
    code, _, err = run_cli("triage", demo, "--json", str(tmp_path / "t.json"))
    assert code == 0, err
    outputs.append(json.loads((tmp_path / "t.json").read_text("utf-8")))
    for obj in outputs:
        assert list(obj)[:2] == ["schema_version", "glyphscope_version"]  # first, for readers that peek
        assert obj["schema_version"] == SCHEMA_VERSION
        assert obj["glyphscope_version"] == glyphscope.__version__ == metadata.version("glyphscope")


def test_glyphs_and_fonts_of_every_demo_page_match_their_schemas(demo: str) -> None:
    for page in range(1, DEMO_PAGES + 1):
        assert_valid("glyphs", cli_json("glyphs", demo, "--page", str(page), "--set", "all", "--json"))
        assert_valid("fonts", cli_json("fonts", demo, "--page", str(page), "--json"))
    for subset in ("raw", "visible"):  # subsets of "all": the same records
        assert_valid("glyphs", cli_json("glyphs", demo, "--page", "6", "--set", subset, "--json"))


def test_diagnostics_of_the_demo_match_the_schema(demo: str) -> None:
    obj = cli_json("diagnostics", demo, "--json")
    assert len(obj["pages"]) == DEMO_PAGES and any(p["diagnostics"] for p in obj["pages"])
    assert_valid("diagnostics", obj)


@pytest.mark.parametrize("mode", MODES)
def test_text_of_the_demo_in_every_mode_matches_the_schema(demo: str, mode: str) -> None:
    obj = cli_json("text", demo, "--mode", mode, "--json")
    assert len(obj["pages"]) == DEMO_PAGES
    assert_valid("text", obj)


PER_KIND = 25  # decisions of one kind and verdict validated per page outside plain mode


@pytest.mark.parametrize("mode", MODES)
def test_decisions_of_every_demo_page_match_the_schema(demo: str, mode: str) -> None:
    """Each decision: kind, verdict, value, threshold, before/after or glyph, description.

    Plain mode: every decision of every page. The other modes add their own kinds
    to thousands of the same word gaps and line breaks, and jsonschema costs about
    0.25 ms a decision: there, up to PER_KIND of each kind and verdict per page.
    """
    kinds: set[str] = set()
    for page in range(1, DEMO_PAGES + 1):
        obj = cli_json("decisions", demo, "--page", str(page), "--mode", mode, "--json")
        if mode != "plain":
            seen: Counter[tuple[str, str]] = Counter()
            kept = []
            for d in obj["decisions"]:
                key = (d.get("kind"), d.get("verdict"))
                seen[key] += 1
                if seen[key] <= PER_KIND:
                    kept.append(d)
            obj["decisions"] = kept
        assert_valid("decisions", obj)
        kinds.update(d["kind"] for d in obj["decisions"])
    assert {"word_gap", "cull", "duplicate"} <= kinds


def test_triage_report_matches_the_schema(demo: str, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "demo.pdf").write_bytes(Path(demo).read_bytes())
    (tmp_path / "in" / "broken.pdf").write_bytes(b"not a PDF at all\n")
    code, _, err = run_cli("triage", str(tmp_path / "in"), "--json", str(tmp_path / "t.json"))
    assert code == 0, err
    obj = json.loads((tmp_path / "t.json").read_text("utf-8"))
    assert obj["files"] == 2 and obj["failed"] == 1  # an error row is validated too
    assert_valid("triage", obj)


# ---------------------------------------------------------------- the schemas catch wrong shapes

BREAKAGES = [
    ("glyphs", ["glyphs", 0, "font_size"], "12"),
    ("glyphs", ["glyphs", 0, "origin"], [1.0]),
    ("glyphs", ["glyphs", 0, "status"], "gone"),
    ("glyphs", ["page"], 1.5),
    ("fonts", ["fonts", 0, "glyphs"], "3"),
    ("fonts", ["fonts", 0, "has_tounicode"], 0),
    ("diagnostics", ["pages", 0, "page"], "1"),
    ("text", ["pages", 0, "text"], 5),
    ("text", ["pages", 0, "structured"], "no"),
    ("decisions", ["decisions", 0, "value"], "0.3"),
    ("decisions", ["decisions", 0, "before"], -2),
    ("decisions", ["schema_version"], "1"),
    ("triage", ["rows", 0, "score"], "36"),
    ("triage", ["rows", 0, "pct_culled"], 120),
]

MISSING = [
    ("glyphs", ["glyphs", 0], "paint_index"),
    ("fonts", [], "glyphscope_version"),
    ("diagnostics", [], "pages"),
    ("text", ["pages", 0], "page"),
    ("decisions", ["decisions", 0], "verdict"),
    ("decisions", ["decisions", 0], "threshold"),
    ("decisions", ["decisions", 0], "description"),
    ("triage", ["rows", 0], "findings"),
]


@pytest.fixture(scope="module")
def samples(demo: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    out = tmp_path_factory.mktemp("triage") / "t.json"
    code, _, err = run_cli("triage", demo, "--json", str(out))
    assert code == 0, err
    return {
        "glyphs": cli_json("glyphs", demo, "--page", "2", "--json"),
        "fonts": cli_json("fonts", demo, "--page", "2", "--json"),
        "diagnostics": cli_json("diagnostics", demo, "--pages", "7", "--json"),
        "text": cli_json("text", demo, "--pages", "2", "--json"),
        "decisions": cli_json("decisions", demo, "--page", "2", "--json"),
        "triage": json.loads(out.read_text("utf-8")),
    }


def _at(obj: Any, path: list[Any]) -> Any:
    for key in path:
        obj = obj[key]
    return obj


@pytest.mark.parametrize(("command", "path", "bad"), BREAKAGES)
def test_schema_rejects_a_wrong_type(samples, command: str, path: list[Any], bad: Any) -> None:
    obj = copy.deepcopy(samples[command])
    assert_valid(command, obj)
    _at(obj, path[:-1])[path[-1]] = bad
    with pytest.raises(jsonschema.ValidationError):
        validator(command).validate(obj)


@pytest.mark.parametrize(("command", "path", "key"), MISSING)
def test_schema_rejects_a_missing_key(samples, command: str, path: list[Any], key: str) -> None:
    obj = copy.deepcopy(samples[command])
    del _at(obj, path)[key]
    with pytest.raises(jsonschema.ValidationError):
        validator(command).validate(obj)


def test_a_decision_needs_before_and_after_or_a_glyph(samples) -> None:
    obj = copy.deepcopy(samples["decisions"])
    pair = next(d for d in obj["decisions"] if "before" in d and "glyph" not in d)
    del pair["after"]
    with pytest.raises(jsonschema.ValidationError):
        validator("decisions").validate(obj)


# ---------------------------------------------------------------- one serializer for CLI and window


@pytest.mark.parametrize("page", [2, 6, 7, 8])
def test_window_glyph_export_is_the_cli_document(demo: str, page: int, tmp_path: Path) -> None:
    from glyphscope.core.analysis import analyze_page
    from glyphscope.core.document import open_document
    from glyphscope.inspector.gui.export import save_glyphs_json
    from glyphscope.inspector.views.page_facts import PageFacts

    doc = open_document(demo)
    try:
        facts = PageFacts(analyze_page(doc, page))
        path = save_glyphs_json(tmp_path / "export.json", facts, demo)
    finally:
        doc.close()
    exported = json.loads(path.read_text("utf-8"))
    assert_valid("glyphs", exported)
    assert exported == cli_json("glyphs", demo, "--page", str(page), "--set", "all", "--json")


def test_the_params_of_the_schemas_are_made_from_the_parameters_table() -> None:
    """`python -m glyphscope.inspector.cli.docs schemas` wrote them: every field of Parameters,
    each typed as core.params.PARAMETER_SPECS says, nothing else."""
    from glyphscope.core.params import DEFAULT_PARAMETERS
    from glyphscope.inspector.cli.docs import params_schema

    made = params_schema()
    glyphs = schema("glyphs")["$defs"]["params"]
    decisions = schema("decisions")["properties"]["params"]
    for found in (glyphs, {k: v for k, v in decisions.items() if k != "description"}):
        assert found == made
    assert made["required"] == list(DEFAULT_PARAMETERS.to_json())
    assert made["properties"]["annotations"]["enum"] == ["include", "exclude", "only"]
    assert made["properties"]["tracking"]["type"] == "boolean"
    assert made["properties"]["word_gap"] == {
        "type": "number",
        "minimum": 0,
        "description": "word-gap threshold × glyph height",
    }
    jsonschema.Draft202012Validator(glyphs).validate(DEFAULT_PARAMETERS.to_json())
    wrong = DEFAULT_PARAMETERS.to_json() | {"no_such_threshold": 1.0}
    assert not jsonschema.Draft202012Validator(glyphs).is_valid(wrong)


def test_modes_in_the_schemas_follow_core_modes() -> None:
    for name in ("text", "decisions"):
        assert schema(name)["properties"]["mode"]["enum"] == list(MODES)
    assert "articles" in MODES
