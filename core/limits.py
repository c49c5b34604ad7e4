"""Budgets that bound the work one page (and one document) may cost the engine.

Hostile and broken files are normal input for a support team: a 7 KB file of
forms drawing each other twice, 100,000 nested BDC, a content stream that
inflates to gigabytes. Each budget below is checked while the page is
interpreted (cooperatively: no signals, so it holds in any thread or worker
process). Hitting one stops that page where it is, with a `budget_exceeded`
finding saying which budget and at which instruction; what was painted before
stays, and the rest of the document goes on.

Unlike `Parameters` these change interpretation itself, so a `Document` holds
them (`open_document(..., limits=)`, `Document.set_limits`) and re-interprets
its pages when they change. The command line sets them with `--max-*` options.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    """The budgets one page and one document may spend (see the fields' docstrings)."""

    page_operators: int = 5_000_000
    """Content-stream instructions executed on one page, the page's own and every
    form run (each Do of a form counts its instructions again). A dense vector map
    has a few million; a form fan-out bomb has billions."""

    page_form_invocations: int = 20_000
    """Form XObjects drawn (Do executed) on one page. Cycles and the nesting cap do
    not bound forms that draw the next one twice: 30 levels are 2^30 Dos."""

    marked_content_depth: int = 1_000
    """Open marked-content sections (BMC/BDC not yet closed by EMC). Real files
    nest a few dozen at most."""

    page_glyphs: int = 500_000
    """Glyphs painted on one page, checked before each glyph record is made.
    A record costs about 1.2 KB with its text assembly, so the default keeps a page
    at the cap under about 1 GB; the densest real pages have some tens of thousands."""

    page_content_bytes: int = 8 * MB
    """Decoded content-stream bytes of one page (page streams plus each form's
    stream once). Measured by inflating in bounded chunks before anything is
    tokenised: a decompression bomb is refused without being inflated, and the
    part within the budget is interpreted. Tokenised content costs up to ~80
    bytes of memory per byte (8 MB of '0 0 Td ' is 1.2 million instructions,
    ~700 MB); text pages have a few hundred KB, dense vector maps several MB."""

    page_seconds: float = 60.0
    """Wall time to interpret one page, checked in the interpreter loop."""

    document_operators: int = 500_000_000
    """Instructions executed over the whole document; pages after it is spent
    are not interpreted (each gets a finding)."""

    document_seconds: float = 3_600.0
    """Wall time spent interpreting the whole document's pages."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{f.name} must be a number, not {value!r}")
            if not (value > 0) or value == float("inf"):
                raise ValueError(f"{f.name} must be a finite number > 0, not {value!r}")

    def with_changes(self, **changes: Any) -> Limits:
        return replace(self, **changes)

    def to_json(self) -> dict[str, float]:
        return asdict(self)


DEFAULT_LIMITS = Limits()

BUDGET_LABELS = {
    "page_operators": "operators per page",
    "page_form_invocations": "form invocations per page",
    "marked_content_depth": "marked-content depth",
    "page_glyphs": "glyphs per page",
    "page_content_bytes": "decoded content bytes per page",
    "page_seconds": "seconds per page",
    "document_operators": "operators per document",
    "document_seconds": "seconds per document",
}
"""What each budget is called in findings and messages."""


def option_name(budget: str) -> str:
    """The command-line option that raises a budget: page_glyphs → --max-page-glyphs."""
    return "--max-" + budget.replace("_", "-")
