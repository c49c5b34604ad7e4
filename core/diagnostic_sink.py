"""Collecting a page's findings while it runs, repeats counted instead of listed."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity


@dataclass(slots=True)
class DiagnosticSink:
    """Collects a page's findings; repeats of one (kind, once_key) become one finding with a count.

    The count is attached by the key each finding was recorded under (kind plus the
    operator, font key, form chain, ... that `once_key` names), never by searching the
    message: `/F1` three times must not count for a `/F10` finding.
    """

    page_number: int
    items: list[tuple[Diagnostic, str | None]] = field(default_factory=list)
    _counts: dict[tuple[DiagnosticKind, str], int] = field(default_factory=dict)

    def add(
        self,
        kind: DiagnosticKind,
        severity: Severity,
        message: str,
        *,
        token_index: int | None = None,
        font_key: str | None = None,
        form_path: tuple[str, ...] = (),
        once_key: str | None = None,
    ) -> None:
        # Repeated findings of one kind and key are counted, not listed 10,000 times.
        if once_key is not None:
            key = (kind, once_key)
            seen = self._counts.get(key, 0)
            self._counts[key] = seen + 1
            if seen:
                return
        finding = Diagnostic(
            kind,
            severity,
            message,
            page=self.page_number,
            token_index=token_index,
            font_key=font_key,
            form_path=form_path,
            repeat_key=once_key,
        )
        self.items.append((finding, once_key))

    def has(self, kind: DiagnosticKind) -> bool:
        return any(d.kind is kind for d, _ in self.items)

    def finish(self) -> list[Diagnostic]:
        out = []
        for d, once_key in self.items:
            n = self._counts.get((d.kind, once_key), 1) if once_key is not None else 1
            if n > 1:
                d = replace(d, message=f"{d.message} ({n} times)", count=n)
            out.append(d)
        return out
