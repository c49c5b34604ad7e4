"""The triage score: one number per file (and per page) to sort by, worst first.

Every share below is a fraction (0–1) of the file's painted glyphs (page
stream and forms, culled and duplicate ones included):

    score = 40·√unresolved + 20·√fallback + 25·√culled + 25·√duplicates
          + 10·√from_forms + 15·untagged          (tagged documents only)
          + 25·√clipped + 25·√hidden + 5·√invisible_mode
                 (hidden: transparent + same_as_background + covered)
          + 30·√garbled          (glyphs of fonts whose text is garbled, core/garbled.py)
          + 3·min(fonts without ToUnicode that lost glyphs, 5)
          + 6·log2(1 + errors) + 2·log2(1 + warnings) + 0.25·log2(1 + infos)

* Square roots, not plain shares: one slug line or one fake-bold heading is
  1–2 % of a page but is exactly what a ticket is about; √0.01 = 0.1 makes
  it count, while a file whose text is all affected still saturates at the
  weight.
* The weights order the damage a reader sees: unresolved glyphs are lost
  text; fallback decodes may be wrong text; culled and duplicate glyphs are
  text silently dropped; form text and untagged structure change the order
  more than the content. Clipped glyphs are dropped like culled ones; hidden
  text (transparent, white on white, covered) is text in every extraction that
  no reader sees on the page — the "text that is not there" ticket; render
  mode 3/7 text weighs little: it is usually an OCR layer, there on purpose.
* Severity counts are the number of findings (per page, per font), damped
  by log2 so a 300-page file with the same info on every page does not
  outrank a one-page file with a real error.
* A clean file scores 0 (or a point or two of info findings); a file that
  cannot be read scores FAILED_SCORE. Page scores use the same formula on
  the page's own numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from glyphscope.core.diagnostics import Severity
from glyphscope.core.page_counts import PageCounts
from glyphscope.core.visibility import Visibility

FAILED_SCORE = 1000.0  # above any real score: unreadable files sort first

W_UNRESOLVED = 40.0
W_FALLBACK = 20.0
W_CULLED = 25.0
W_DUPLICATES = 25.0
W_FORMS = 10.0
W_UNTAGGED = 15.0
W_CLIPPED = 25.0
W_HIDDEN = 25.0
W_INVISIBLE_MODE = 5.0
W_GARBLED = 30.0  # wrong characters: as bad as a guess that went wrong, found by the plausibility check
W_FONT_WITHOUT_TOUNICODE = 3.0
MAX_FONTS_COUNTED = 5
W_ERROR = 6.0
W_WARNING = 2.0
W_INFO = 0.25

SCORE_WEIGHTS: dict[str, float] = {
    "unresolved": W_UNRESOLVED,
    "fallback": W_FALLBACK,
    "culled": W_CULLED,
    "duplicates": W_DUPLICATES,
    "from_forms": W_FORMS,
    "untagged": W_UNTAGGED,
    "clipped": W_CLIPPED,
    "hidden": W_HIDDEN,
    "invisible_mode": W_INVISIBLE_MODE,
    "garbled": W_GARBLED,
    "font_without_tounicode": W_FONT_WITHOUT_TOUNICODE,
    "errors": W_ERROR,
    "warnings": W_WARNING,
    "infos": W_INFO,
}
"""The weights by the names reports print them under (`glyphscope triage --json` "score_weights")."""

SEVERITY_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass(slots=True)
class Tally:
    """Additive counts of one page or one document; `score` turns them into the number."""

    glyphs: int = 0
    visible: int = 0
    culled: int = 0
    duplicates: int = 0
    forms: int = 0
    unresolved: int = 0
    fallback: int = 0
    garbled: int = 0  # glyphs of fonts whose text the plausibility check found garbled
    untagged: int = 0  # visible glyphs outside the tree (tagged documents only)
    # visibility classes, counted over glyphs that were not culled
    invisible_mode: int = 0
    clipped: int = 0
    transparent: int = 0
    same_as_background: int = 0
    covered: int = 0
    tagged_visible: int = 0  # visible glyphs counted for the untagged share
    errors: int = 0
    warnings: int = 0
    infos: int = 0

    @classmethod
    def of_page(cls, counts: PageCounts) -> Tally:
        """A page's glyph counts (the page product's `counts`); findings are counted as they come."""
        return cls(
            glyphs=counts.glyphs,
            visible=counts.visible,
            culled=counts.culled,
            duplicates=counts.duplicates,
            forms=counts.from_forms,
            unresolved=counts.unresolved,
            fallback=counts.fallback,
        )

    def count_visibility(self, visibility: Visibility | None) -> None:
        """The page's hidden glyphs per class (core.visibility.Visibility; None: nothing known)."""
        if visibility is None:
            return
        for r in visibility.records:
            setattr(self, r.kind, getattr(self, r.kind) + 1)

    @property
    def hidden(self) -> int:
        """Text in every extraction that no reader sees: transparent, same as background, covered."""
        return self.transparent + self.same_as_background + self.covered

    def add(self, other: Tally) -> None:
        for name in self.__slots__:  # type: ignore[attr-defined]
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def count_severity(self, severity: Severity) -> None:
        if severity is Severity.ERROR:
            self.errors += 1
        elif severity is Severity.WARNING:
            self.warnings += 1
        else:
            self.infos += 1

    def share(self, n: int) -> float:
        return n / self.glyphs if self.glyphs else 0.0

    def untagged_share(self) -> float | None:
        return self.untagged / self.tagged_visible if self.tagged_visible else None


def score(tally: Tally, tagged: bool, problem_fonts: int = 0) -> float:
    """The formula of the module docstring, rounded to 2 decimals (stable output)."""
    s = (
        W_UNRESOLVED * math.sqrt(tally.share(tally.unresolved))
        + W_FALLBACK * math.sqrt(tally.share(tally.fallback))
        + W_CULLED * math.sqrt(tally.share(tally.culled))
        + W_DUPLICATES * math.sqrt(tally.share(tally.duplicates))
        + W_FORMS * math.sqrt(tally.share(tally.forms))
        + W_CLIPPED * math.sqrt(tally.share(tally.clipped))
        + W_HIDDEN * math.sqrt(tally.share(tally.hidden))
        + W_INVISIBLE_MODE * math.sqrt(tally.share(tally.invisible_mode))
        + W_GARBLED * math.sqrt(tally.share(tally.garbled))
        + W_FONT_WITHOUT_TOUNICODE * min(problem_fonts, MAX_FONTS_COUNTED)
        + W_ERROR * math.log2(1 + tally.errors)
        + W_WARNING * math.log2(1 + tally.warnings)
        + W_INFO * math.log2(1 + tally.infos)
    )
    untagged = tally.untagged_share()
    if tagged and untagged is not None:
        s += W_UNTAGGED * untagged
    return round(s, 2)


def pct(n: int, total: int) -> float:
    """n as a percentage of total, 2 decimals; 0 when total is 0."""
    return round(100.0 * n / total, 2) if total else 0.0


def score_with_findings(old: float, before: dict[str, int], after: dict[str, int]) -> float:
    """A score (`score`) with its findings by severity changed from `before` to `after` (findings
    found after the scan): only the severity terms of the formula change."""

    def terms(counts: dict[str, int]) -> float:
        return (
            W_ERROR * math.log2(1 + counts.get(Severity.ERROR.value, 0))
            + W_WARNING * math.log2(1 + counts.get(Severity.WARNING.value, 0))
            + W_INFO * math.log2(1 + counts.get(Severity.INFO.value, 0))
        )

    return round(old - terms(before) + terms(after), 2)
