"""Triage records: one row per file, its worst pages and its findings, slimmed for reports."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from glyphscope.core.diagnostics import Diagnostic
from glyphscope.core.triage.scoring import FAILED_SCORE

MAX_GLYPHS_PER_FINDING = 200  # paint indices kept per finding (the count stays exact)
FINDING_ORDER = {"error": 0, "warning": 1, "info": 2}  # a row's findings, worst first


@dataclass(frozen=True, slots=True)
class TriageFinding:
    """One finding of a file, slimmed for reports: glyph lists are capped, `count` stays exact."""

    kind: str
    severity: str
    message: str
    page: int | None
    font_key: str | None = None
    form_path: tuple[str, ...] = ()
    token_index: int | None = None
    count: int | None = None
    glyphs: tuple[int, ...] = ()
    glyphs_total: int = 0

    @classmethod
    def of(cls, d: Diagnostic) -> TriageFinding:
        return cls(
            kind=d.kind.value,
            severity=d.severity.value,
            message=d.message,
            page=d.page,
            font_key=d.font_key,
            form_path=tuple(d.form_path),
            token_index=d.token_index,
            count=d.count,
            glyphs=tuple(d.glyphs[:MAX_GLYPHS_PER_FINDING]),
            glyphs_total=len(d.glyphs),
        )

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "message": self.message,
            "page": self.page,
            "font_key": self.font_key,
            "form_path": list(self.form_path),
            "token_index": self.token_index,
            "count": self.count,
            "glyphs": list(self.glyphs),
            "glyphs_total": self.glyphs_total,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> TriageFinding:
        return cls(
            kind=str(obj["kind"]),
            severity=str(obj["severity"]),
            message=str(obj.get("message", "")),
            page=obj.get("page"),
            font_key=obj.get("font_key"),
            form_path=tuple(obj.get("form_path") or ()),
            token_index=obj.get("token_index"),
            count=obj.get("count"),
            glyphs=tuple(obj.get("glyphs") or ()),
            glyphs_total=int(obj.get("glyphs_total", 0)),
        )


@dataclass(frozen=True, slots=True)
class PageScore:
    page: int
    score: float
    glyphs: int
    kinds: tuple[str, ...]  # finding kinds on the page, most severe first

    def to_json(self) -> dict[str, object]:
        return {"page": self.page, "score": self.score, "glyphs": self.glyphs, "kinds": list(self.kinds)}


@dataclass(frozen=True, slots=True)
class TriageRow:
    file: str
    pages: int = 0
    glyphs: int = 0
    visible_glyphs: int = 0
    pct_culled: float = 0.0  # percentages (0–100) of `glyphs`
    pct_duplicates: float = 0.0
    pct_from_forms: float = 0.0
    pct_unresolved: float = 0.0
    pct_fallback: float = 0.0
    pct_garbled: float = 0.0  # glyphs of fonts whose text is garbled (core/garbled.py)
    fonts: int = 0  # distinct fonts that painted glyphs
    fonts_without_tounicode: int = 0  # ... without ToUnicode AND with unresolved or fallback glyphs
    fonts_without_tounicode_total: int = 0  # ... without ToUnicode, whatever their decoding gave
    structure_usable: bool | None = None  # None: the document is not tagged
    pct_untagged: float | None = None  # share of visible glyphs outside the tree (tagged documents)
    pct_hidden: dict[str, float] = field(default_factory=dict)  # per visibility class, % of glyphs
    findings_by_severity: dict[str, int] = field(
        default_factory=lambda: {"error": 0, "warning": 0, "info": 0}
    )
    finding_kinds: tuple[tuple[str, int], ...] = ()  # (kind, number of findings), most frequent first
    worst_pages: tuple[PageScore, ...] = ()
    findings: tuple[TriageFinding, ...] = ()
    warnings: tuple[str, ...] = ()  # qpdf repair warnings
    error: str | None = None
    error_code: int | None = None  # the CLI exit code the error maps to (3 password, 4 not a PDF, 1 other)
    score: float = 0.0
    sha256: str | None = None  # of the bytes read; None when the file could not be read at all
    seconds: float = field(default=0.0, compare=False)  # wall time; not part of equality (determinism)
    # `triage --against TEXTDIR`: the customer's text of this file compared with glyphscope's (set by
    # inspector/compare/against.py in the worker; absent from the JSON without the option).
    against_agreement: float | None = None  # 0–1 over the pages compared; None: no comparison
    against_causes: dict[str, int] | None = None  # cause → differences (inspector/compare/causes.py)
    against_error: str | None = None  # why there is no comparison (no <name>.txt, unreadable, …)

    @property
    def name(self) -> str:
        return Path(self.file).name

    @property
    def failed(self) -> bool:
        return self.error is not None

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "score": self.score,
            "error": self.error,
            "error_code": self.error_code,
            "pages": self.pages,
            "glyphs": self.glyphs,
            "visible_glyphs": self.visible_glyphs,
            "pct_culled": self.pct_culled,
            "pct_duplicates": self.pct_duplicates,
            "pct_from_forms": self.pct_from_forms,
            "pct_unresolved": self.pct_unresolved,
            "pct_fallback": self.pct_fallback,
            "pct_garbled": self.pct_garbled,
            "fonts": self.fonts,
            "fonts_without_tounicode": self.fonts_without_tounicode,
            "fonts_without_tounicode_total": self.fonts_without_tounicode_total,
            "structure_usable": self.structure_usable,
            "pct_untagged": self.pct_untagged,
            "pct_hidden": dict(self.pct_hidden),
            "findings_by_severity": dict(self.findings_by_severity),
            "finding_kinds": dict(self.finding_kinds),
            "worst_pages": [p.to_json() for p in self.worst_pages],
            "warnings": list(self.warnings),
            "findings": [f.to_json() for f in self.findings],
            "sha256": self.sha256,
        } | self._against_json()

    def _against_json(self) -> dict[str, object]:
        if self.against_causes is None and self.against_error is None:
            return {}
        return {
            "against_agreement": self.against_agreement,
            "against_causes": None if self.against_causes is None else dict(self.against_causes),
            "against_error": self.against_error,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> TriageRow:
        """A row back from its JSON (a `--jsonl` line); inverse of `to_json` (wall time is not kept)."""
        return cls(
            file=str(obj["file"]),
            pages=int(obj.get("pages", 0)),
            glyphs=int(obj.get("glyphs", 0)),
            visible_glyphs=int(obj.get("visible_glyphs", 0)),
            pct_culled=float(obj.get("pct_culled", 0.0)),
            pct_duplicates=float(obj.get("pct_duplicates", 0.0)),
            pct_from_forms=float(obj.get("pct_from_forms", 0.0)),
            pct_unresolved=float(obj.get("pct_unresolved", 0.0)),
            pct_fallback=float(obj.get("pct_fallback", 0.0)),
            pct_garbled=float(obj.get("pct_garbled", 0.0)),
            fonts=int(obj.get("fonts", 0)),
            fonts_without_tounicode=int(obj.get("fonts_without_tounicode", 0)),
            fonts_without_tounicode_total=int(obj.get("fonts_without_tounicode_total", 0)),
            structure_usable=obj.get("structure_usable"),
            pct_untagged=obj.get("pct_untagged"),
            pct_hidden={str(k): float(v) for k, v in (obj.get("pct_hidden") or {}).items()},
            findings_by_severity=dict(
                obj.get("findings_by_severity") or {"error": 0, "warning": 0, "info": 0}
            ),
            finding_kinds=tuple((str(k), int(v)) for k, v in (obj.get("finding_kinds") or {}).items()),
            worst_pages=tuple(
                PageScore(int(p["page"]), float(p["score"]), int(p["glyphs"]), tuple(p.get("kinds", ())))
                for p in obj.get("worst_pages") or ()
            ),
            findings=tuple(TriageFinding.from_json(f) for f in obj.get("findings") or ()),
            warnings=tuple(obj.get("warnings") or ()),
            error=obj.get("error"),
            error_code=obj.get("error_code"),
            score=float(obj.get("score", 0.0)),
            sha256=obj.get("sha256"),
            against_agreement=obj.get("against_agreement"),
            against_causes=(
                {str(k): int(v) for k, v in obj["against_causes"].items()}
                if isinstance(obj.get("against_causes"), dict)
                else None
            ),
            against_error=obj.get("against_error"),
        )


def failed_row(path: str | Path, message: str, code: int | None = 1, seconds: float = 0.0) -> TriageRow:
    return TriageRow(file=str(path), error=message, error_code=code, score=FAILED_SCORE, seconds=seconds)


def with_findings(row: TriageRow, found: Iterable[Diagnostic]) -> TriageRow:
    """`row` with more findings of the file (found after its scan, e.g. by the OCR cross-check):
    listed, counted by severity and kind, and in its score (scoring.score_with_findings)."""
    from dataclasses import replace

    from glyphscope.core.triage.scoring import score_with_findings

    extra = list(found)
    if not extra or row.failed:
        return row
    before = dict(row.findings_by_severity)
    after = dict(before)
    for d in extra:
        after[d.severity.value] = after.get(d.severity.value, 0) + 1
    kinds = dict(row.finding_kinds)
    for d in extra:
        kinds[d.kind.value] = kinds.get(d.kind.value, 0) + 1
    return replace(
        row,
        findings=tuple(
            sorted(
                row.findings + tuple(TriageFinding.of(d) for d in extra),
                key=lambda f: (FINDING_ORDER.get(f.severity, 3), f.page if f.page is not None else 0, f.kind),
            )
        ),
        findings_by_severity=after,
        finding_kinds=tuple(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
        score=score_with_findings(row.score, before, after),
    )


def sort_rows(rows: Iterable[TriageRow]) -> list[TriageRow]:
    """Worst first; ties broken by file name, then full path (stable, deterministic)."""
    return sorted(rows, key=lambda r: (-r.score, r.name, r.file))
