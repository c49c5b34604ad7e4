"""`--annotations include|exclude|only` on every command that makes text or lists glyphs: the page's
own "Name:" and a text field's appearance "Jane Doe" (tests/core/test_annotations.py builds it)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from glyphscope.core.params import CHOICES
from glyphscope.inspector.cli.parser import SUBCOMMANDS, build_parser
from tests.cli_run import run_cli
from tests.core.test_annotations import TEXT_FIELD, _form

ANNOTATION_CHOICES = CHOICES["annotations"]

TEXT = {"include": "Name: Jane Doe", "exclude": "Name:", "only": "Jane Doe"}


@pytest.fixture
def form_pdf(tmp_path: Path) -> str:
    path = tmp_path / "form.pdf"
    path.write_bytes(_form([TEXT_FIELD]))
    return str(path)


@pytest.mark.parametrize("choice", ANNOTATION_CHOICES)
def test_text_under_each_choice(form_pdf: str, choice: str) -> None:
    code, out, err = run_cli("text", form_pdf, "--annotations", choice)
    assert code == 0, err
    assert out.decode("utf-8") == TEXT[choice]
    code, out, err = run_cli("text", form_pdf, "--annotations", choice, "--json")
    assert json.loads(out)["pages"][0]["text"] == TEXT[choice]


@pytest.mark.parametrize("choice", ANNOTATION_CHOICES)
def test_glyphs_list_the_glyphs_of_the_choice(form_pdf: str, choice: str) -> None:
    code, out, err = run_cli("glyphs", form_pdf, "--annotations", choice, "--csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out.decode("utf-8"))))
    assert "".join(r["unicode"] for r in rows) == TEXT[choice].replace(
        " ", "", 1 if choice == "include" else 0
    )
    from_field = [r for r in rows if r["annotation"]]
    assert len(from_field) == (0 if choice == "exclude" else len("Jane Doe"))
    # every glyph, with the ones the switch leaves out marked so
    obj = json.loads(run_cli("glyphs", form_pdf, "--annotations", choice, "--set", "all", "--json")[1])
    excluded = "".join(g["unicode"] for g in obj["glyphs"] if g["status"] == "excluded")
    assert excluded == {"include": "", "exclude": "Jane Doe", "only": "Name:"}[choice]
    assert obj["params"]["annotations"] == choice


@pytest.mark.parametrize("choice", ANNOTATION_CHOICES)
def test_decisions_carry_the_choice(form_pdf: str, choice: str) -> None:
    obj = json.loads(run_cli("decisions", form_pdf, "--annotations", choice, "--json")[1])
    assert obj["text"] == TEXT[choice]
    (annotation,) = [d for d in obj["decisions"] if d["kind"] == "annotation"]
    assert annotation["verdict"] == ("excluded" if choice == "exclude" else "included")


@pytest.mark.parametrize("choice", ANNOTATION_CHOICES)
def test_triage_counts_the_visible_glyphs_of_the_choice(form_pdf: str, choice: str) -> None:
    code, out, err = run_cli("triage", form_pdf, "--annotations", choice, "--jsonl", "-", "-q")
    assert code == 0, err
    (row,) = [json.loads(line) for line in out.decode("utf-8").splitlines()]
    assert row["glyphs"] == 13
    assert row["visible_glyphs"] == {"include": 13, "exclude": 5, "only": 8}[choice]


def test_diagnostics_and_compare_read_the_choice(form_pdf: str) -> None:
    code, out, err = run_cli("diagnostics", form_pdf, "--annotations", "exclude", "--json")
    assert code == 0, err
    kinds = [d["kind"] for d in json.loads(out)["pages"][0]["diagnostics"]]
    assert "text_from_annotations" in kinds
    for choice, ours in (("include", "Name: Jane Doe"), ("exclude", "Name:")):
        code, out, err = run_cli(
            "compare", form_pdf, "--engines", "pdfminer", "--annotations", choice, "--json"
        )
        assert code == 0, err
        page = json.loads(out)["pages"][0]
        assert page["glyphscope_text"].strip() == ours
        assert page["engines"][0]["summary"]["characters_ours"] == len(ours.replace(" ", ""))


def test_the_option_is_on_every_text_command_once_and_a_bad_value_is_a_usage_error(form_pdf: str) -> None:
    parser = build_parser()
    (sub,) = (a for a in parser._actions if a.dest == "command")
    have = {
        name
        for name in SUBCOMMANDS
        if any("--annotations" in a.option_strings for a in sub.choices[name]._actions)  # type: ignore[attr-defined]
    }
    assert have == {"glyphs", "diagnostics", "text", "decisions", "triage", "compare"}
    code, _, err = run_cli("text", form_pdf, "--annotations", "sometimes")
    assert code == 2 and err.startswith("glyphscope:") and err.count("\n") == 1 and "invalid choice" in err
