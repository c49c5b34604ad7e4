"""What a budget of `Limits` being spent looks like while a page runs."""

from __future__ import annotations

from dataclasses import dataclass

from glyphscope.core.limits import Limits


class BudgetExceeded(Exception):
    """A budget of `Limits` is spent: the page stops here (not an error of the file's objects)."""

    def __init__(self, budget: str, limit: float, detail: str = "") -> None:
        super().__init__(budget)
        self.budget = budget
        self.limit = limit
        self.detail = detail
        self.form_path: tuple[str, ...] | None = None  # where it was spent: set by the innermost form
        self.stream_index = -1


@dataclass(slots=True)
class DocumentBudget:
    """What is left of the document-wide budgets (shared by every page of one Document)."""

    operators_left: int
    seconds_left: float  # of interpretation (a document open in the window for hours spends none)

    @classmethod
    def start(cls, limits: Limits) -> DocumentBudget:
        return cls(limits.document_operators, limits.document_seconds)
