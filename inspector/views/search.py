"""Find in the extracted text, and say why a search fails (Qt-free).

"The words are on the page but search cannot find them" is the commonest
support ticket. When the text of a mode has no hit, we search the glyphs
themselves (their Unicode concatenated, without the spaces and line ends
assembly generates, spaces removed from the query too): first the kept
glyphs in text order, then every glyph in paint order (culled and duplicates
included), then with unresolved glyphs as wildcards. A hit there names the
decision that separated the text from the glyphs, with its numbers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from glyphscope.core.annotations import Annotation, AnnotationSkip
from glyphscope.core.assembly import LineBreakDecision, WordGapDecision
from glyphscope.core.decision_protocol import describe
from glyphscope.core.glyph import Glyph, GlyphStatus
from glyphscope.inspector.views.page_facts import TextView, text_view

CONTEXT = 32  # characters of context either side of a hit
MAX_REASONS = 3
MAX_OCCURRENCES = 50  # places in the glyphs examined for the clearest explanation
PAINTED_SPACE = "the page itself paints a space character"


@dataclass(frozen=True, slots=True)
class Hit:
    page: int
    start: int  # character offsets in the page text of the mode
    end: int
    context: str  # ends with " — " + note when the hit is text a reader cannot see
    note: str = ""  # why the found text cannot be seen on the page, "" when visible


HiddenNote = Callable[[int, int], str]
"""(start, end) of a hit in the page text → why its glyphs cannot be seen, or ""."""


def hidden_note(classified: Any, page_text: Any) -> HiddenNote:
    """For find_in_text: a hit whose glyphs are hidden (white on white, clipped, covered, …) says so."""
    vis = getattr(classified, "visibility", None)
    records = {r.paint_index: r for r in vis.records} if vis is not None else {}

    def note(start: int, end: int) -> str:
        if not records:
            return ""
        from glyphscope.core.visibility import why_hidden

        glyph_of = page_text.char_map.glyph
        hidden = [records[g] for g in dict.fromkeys(glyph_of[start:end]) if g in records]
        if not hidden:
            return ""
        share = "" if len(hidden) * 2 > (end - start) else f"{len(hidden)} of its glyphs "
        return f"hidden text: {share}{why_hidden(hidden[0])}"

    return note


class MissKind(StrEnum):
    """Why a query in the glyphs of a page is not in its text; the message says it with numbers."""

    SPACING = "spacing"  # the kept glyphs read it: spaces or line ends differ (each reason named)
    COMPATIBILITY = "compatibility"  # the text keeps a ligature or presentation form
    WRITTEN_DIFFERENTLY = "written_differently"  # the kept glyphs read it, the text writes it otherwise
    HIDDEN = "hidden"  # some of its glyphs are clipped or hidden and dropped
    CULLED = "culled"  # some of its glyphs lie outside the visible box
    DUPLICATE = "duplicate"  # some of its glyphs were dropped as duplicates
    ORDER = "order"  # in paint order only: the mode reads these glyphs in another order
    UNRESOLVED_IN_PLACE = "unresolved_in_place"  # unresolved glyphs stand where its missing letters would
    UNRESOLVED_ON_PAGE = "unresolved_on_page"  # not found; the page's unresolved glyphs may hold it
    EXCLUDED_ANNOTATION = "excluded_annotation"  # its glyphs are an annotation's, left out by the switch
    FIELD_WITHOUT_GLYPHS = (
        "field_without_glyphs"  # a form field's value: a viewer draws it, the file has no glyphs
    )


@dataclass(frozen=True, slots=True)
class MissExplanation:
    """The query is in the glyphs of `page` but not in its text: why, and which glyphs."""

    page: int
    kind: MissKind
    message: str
    glyphs: tuple[int, ...]

    @property
    def found_in_glyphs(self) -> bool:
        """The glyphs hold the query (or may, at unresolved places); not just "not found, but …"."""
        return self.kind not in (MissKind.UNRESOLVED_ON_PAGE, MissKind.FIELD_WITHOUT_GLYPHS)


class SpacingReason(NamedTuple):
    text: str
    decided: bool  # an engine decision made the difference (False: the page paints the space itself)


def query_pattern(query: str, case_sensitive: bool = False) -> re.Pattern[str] | None:
    """Words of the query, any run of whitespace between them matching any run in the text."""
    words = query.split()
    if not words:
        return None
    return re.compile(r"\s+".join(re.escape(w) for w in words), 0 if case_sensitive else re.IGNORECASE)


def find_in_text(
    page: int, text: str, pattern: re.Pattern[str] | None, notes: HiddenNote | None = None
) -> list[Hit]:
    """Hits of `pattern` in `text`; with `notes` (hidden_note), a hit on hidden text says why."""
    if pattern is None or not text:
        return []
    hits = []
    for m in pattern.finditer(text):
        if m.end() > m.start():
            note = notes(m.start(), m.end()) if notes is not None else ""
            where = context(text, m.start(), m.end()) + (f" — {note}" if note else "")
            hits.append(Hit(page, m.start(), m.end(), where, note))
    return hits


def context(text: str, start: int, end: int) -> str:
    before = text[max(0, start - CONTEXT) : start]
    after = text[end : end + CONTEXT]
    return (
        ("…" if start > CONTEXT else "")
        + before
        + "«"
        + text[start:end]
        + "»"
        + after
        + ("…" if end + CONTEXT < len(text) else "")
    ).replace("\n", " ⏎ ")


# ---------------------------------------------------------------------------------------------
# Explaining a miss


def _fold(s: str, case_sensitive: bool) -> str:
    s = unicodedata.normalize("NFKC", s)
    return s if case_sensitive else s.casefold()


def _glyph_string(
    glyphs: Sequence[Glyph], order: Iterable[int], case_sensitive: bool, wildcard: bool = False
) -> tuple[str, list[int]]:
    """The glyphs' Unicode without whitespace, and the paint index behind every character.

    With `wildcard`, an unresolved glyph stands as one NUL character (matched by anything)."""
    chars: list[str] = []
    owner: list[int] = []
    for i in order:
        g = glyphs[i]
        if not g.unicode:
            if wildcard:
                chars.append("\0")
                owner.append(i)
            continue
        for ch in _fold(g.unicode, case_sensitive):
            if not ch.isspace():
                chars.append(ch)
                owner.append(i)
    return "".join(chars), owner


def _query_chars(query: str, case_sensitive: bool) -> tuple[str, list[bool]]:
    """The folded query without whitespace, and for each character whether whitespace preceded it."""
    chars: list[str] = []
    space_before: list[bool] = []
    pending = False
    for ch in _fold(query, case_sensitive):
        if ch.isspace():
            pending = bool(chars)
            continue
        chars.append(ch)
        space_before.append(pending)
        pending = False
    return "".join(chars), space_before


def _run(owner: list[int], start: int, length: int) -> list[int]:
    return list(dict.fromkeys(owner[start : start + length]))


def _pair_decision(view: TextView, a: int, b: int, kind: type[Any]) -> Any:
    for d in view.decisions_for(b):
        if isinstance(d, kind) and d.before == a and d.after == b:
            return d
    return None


def _char(glyphs: Sequence[Glyph], i: int) -> str:
    return repr(glyphs[i].unicode) if glyphs[i].unicode else "(unresolved)"


def _spacing_reasons(
    glyphs: Sequence[Glyph], view: TextView, owner: list[int], start: int, space_before: list[bool]
) -> list[SpacingReason]:
    """Where the text's spaces and line ends differ from the query's, with the deciding numbers."""
    cm = view.page_text.char_map
    text = view.text
    reasons: list[SpacingReason] = []
    for j in range(1, len(space_before)):
        a, b = owner[start + j - 1], owner[start + j]
        if a == b:
            continue
        ra, rb = cm.chars_of_glyph(a), cm.chars_of_glyph(b)
        if not ra or not rb:
            continue
        if rb.start < ra.start:
            reasons.append(
                SpacingReason(f"the text reads {_char(glyphs, b)} before {_char(glyphs, a)}", True)
            )
            continue
        between = text[ra.stop : rb.start]
        has_space = any(ch.isspace() for ch in between)
        want_space = space_before[j]
        if has_space == want_space:
            continue
        pair = f"between {_char(glyphs, a)} (#{a}) and {_char(glyphs, b)} (#{b})"
        if want_space:
            gap = _pair_decision(view, a, b, WordGapDecision)
            why = f" ({describe(gap)})" if gap is not None else ""
            reasons.append(SpacingReason(f"a space was not inserted {pair}{why}", True))
        elif "\n" in between:
            lb = _pair_decision(view, a, b, LineBreakDecision)
            why = f" ({describe(lb)})" if lb is not None else ""
            reasons.append(SpacingReason(f"a line break was started {pair}{why}", True))
        else:
            gap = _pair_decision(view, a, b, WordGapDecision)
            if gap is not None and gap.inserted:
                reasons.append(SpacingReason(f"a space was inserted {pair} ({describe(gap)})", True))
            else:
                reasons.append(SpacingReason(f"{PAINTED_SPACE} {pair}", False))
    return reasons


def explain_miss(
    page_number: int,
    glyphs: Sequence[Glyph],
    classified: Any,
    view: TextView,
    query: str,
    case_sensitive: bool = False,
    annotations: Sequence[Annotation] = (),
) -> MissExplanation | None:
    """Why `query` is not in `view.text` although it is on the page; None when the glyphs lack it too.
    `annotations` (the page's) let a form field's value that has no glyphs be named."""
    q, space_before = _query_chars(query, case_sensitive)
    if not q:
        return None
    mode = view.mode
    # 1. The kept glyphs in text order: the letters are read, only spaces/line ends differ.
    kept, owner = _glyph_string(glyphs, view.order, case_sensitive)
    k = kept.find(q)
    if k >= 0:
        # Several places may hold the letters; prefer one where an engine decision made the difference.
        candidates: list[tuple[int, list[SpacingReason]]] = []
        start = k
        while start >= 0 and len(candidates) < MAX_OCCURRENCES:
            candidates.append((start, _spacing_reasons(glyphs, view, owner, start, space_before)))
            start = kept.find(q, start + 1)
        k, reasons = next(
            ((at, why) for at, why in candidates if any(r.decided for r in why)),
            next(((at, why) for at, why in candidates if why), candidates[0]),
        )
        run = _run(owner, k, len(q))
        if reasons:
            kind = MissKind.SPACING
            more = f"; and {len(reasons) - MAX_REASONS} more" if len(reasons) > MAX_REASONS else ""
            message = (
                f"found in the glyphs but not in the {mode} text: "
                + "; ".join(r.text for r in reasons[:MAX_REASONS])
                + more
            )
        else:
            compat = sorted(
                {glyphs[i].unicode for i in run if _fold(glyphs[i].unicode, True) != glyphs[i].unicode}
            )
            if compat:
                kind = MissKind.COMPATIBILITY
                message = (
                    f"found in the glyphs but not in the {mode} text: the text keeps the compatibility "
                    f"character(s) {', '.join(repr(c) for c in compat)} (a ligature or presentation form) "
                    "where the query has plain letters"
                )
            else:
                kind = MissKind.WRITTEN_DIFFERENTLY
                message = f"found in the glyphs but not in the {mode} text: the text writes them differently"
        return MissExplanation(page_number, kind, message, tuple(run))
    # 2. Every glyph in paint order: culled, dropped as duplicates, or read in another order.
    every, owner = _glyph_string(glyphs, range(len(glyphs)), case_sensitive)
    k = every.find(q)
    if k >= 0:
        run = _run(owner, k, len(q))
        status = classified.status
        culled = [i for i in run if status[i] is GlyphStatus.CULLED]
        dups = [i for i in run if status[i] is GlyphStatus.DUPLICATE]
        dropped = [i for i in run if status[i] in (GlyphStatus.CLIPPED, GlyphStatus.HIDDEN)]
        excluded = [i for i in run if status[i] is GlyphStatus.EXCLUDED]
        vis = getattr(classified, "visibility", None)
        record = next((r for r in vis.records if r.paint_index in dropped), None) if vis and dropped else None
        if record is not None:
            from glyphscope.core.visibility import why_hidden

            how = (
                "so no text mode reads them (--keep-clipped keeps them)"
                if status[record.paint_index] is GlyphStatus.CLIPPED
                else "and --drop-hidden left them out of the text"
            )
            kind = MissKind.HIDDEN
            message = (
                f"found in the glyphs but not in the text: {len(dropped)} of the {len(run)} glyphs are hidden — "
                f"{why_hidden(record)}, {how}"
            )
        elif excluded:
            from glyphscope.inspector.views.probe import annotation_origin

            first = glyphs[excluded[0]]
            kind = MissKind.EXCLUDED_ANNOTATION
            if first.annotation >= 0:
                where = annotation_origin(annotations, first.annotation)
                message = (
                    f"found in the glyphs but not in the text: {len(excluded)} of the {len(run)} glyphs are "
                    f"{where}, excluded by --annotations exclude"
                )
            else:
                message = (
                    f"found in the glyphs but not in the text: {len(excluded)} of the {len(run)} glyphs are the "
                    "page's own content, excluded by --annotations only"
                )
        elif culled:
            x0, y0, x1, y1 = classified.culls[0].threshold if classified.culls else (0, 0, 0, 0)
            kind = MissKind.CULLED
            message = (
                f"found in the glyphs but not in the text: {len(culled)} of the {len(run)} glyphs are culled — "
                f"their box centres lie outside the visible box (CropBox) [{x0:.1f} {y0:.1f} {x1:.1f} {y1:.1f}], "
                "so no text mode reads them (slug line, crop mark or a neighbouring page)"
            )
        elif dups:
            targets = sorted(
                {classified.duplicate_of[i] for i in dups if classified.duplicate_of[i] is not None}
            )
            kind = MissKind.DUPLICATE
            message = (
                f"found in the glyphs but not in the text: {len(dups)} of the {len(run)} glyphs were dropped as "
                f"duplicates (of #{', #'.join(str(t) for t in targets[:6])}): the text reads each painted place once"
            )
        else:
            kind = MissKind.ORDER
            message = (
                f"found in the glyphs in paint order but not in the {mode} text: {mode} mode reads these glyphs "
                "in another order (columns, rotation or reading-order sorting separate them)"
            )
        return MissExplanation(page_number, kind, message, tuple(run))
    # 3. Unresolved glyphs: the letters may be there, but nobody knows their Unicode.
    unresolved = [g.paint_index for g in glyphs if not g.unicode]
    if unresolved:
        fonts = sorted({glyphs[i].font_key for i in unresolved})
        wild, owner = _glyph_string(glyphs, range(len(glyphs)), case_sensitive, wildcard=True)
        pattern = re.compile("".join(f"(?:{re.escape(ch)}|\0)" for ch in q))
        m = pattern.search(wild)
        if m is not None and "\0" in m.group(0):
            run = _run(owner, m.start(), m.end() - m.start())
            missing = [i for i in run if not glyphs[i].unicode]
            return MissExplanation(
                page_number,
                MissKind.UNRESOLVED_IN_PLACE,
                f"possibly in the glyphs: {len(missing)} unresolved glyph(s) of font {', '.join(fonts)} stand where "
                "the missing letters would be — the font has no Unicode mapping for them (no /ToUnicode, unknown "
                "glyph names), so the text shows blanks",
                tuple(run),
            )
        return MissExplanation(
            page_number,
            MissKind.UNRESOLVED_ON_PAGE,
            f"not found, but {len(unresolved)} glyph(s) of font {', '.join(fonts)} on this page are unresolved "
            "(no Unicode mapping): the words may be among them",
            tuple(unresolved),
        )
    # 4. A form field's value that a viewer draws itself: the file holds no glyph of it.
    folded = _fold(" ".join(query.split()), case_sensitive)
    for a in annotations:
        if (
            a.value
            and folded in _fold(" ".join(a.value.split()), case_sensitive)
            and a.skip is AnnotationSkip.NO_APPEARANCE
        ):
            return MissExplanation(
                page_number,
                MissKind.FIELD_WITHOUT_GLYPHS,
                f"not in the glyphs: it is the value of form field `{a.field_name or a.object_id}`, which a viewer "
                "draws itself — the file has no glyphs for this field value, so no extractor reads it",
                (),
            )
    return None


# ---------------------------------------------------------------------------------------------
# The document search (run by a worker)


@dataclass(frozen=True, slots=True)
class SearchResult:
    query: str
    mode: str
    hits: tuple[Hit, ...]
    explanations: tuple[MissExplanation, ...]
    pages_searched: int


def search_document_job(
    document: Any,
    query: str,
    mode: str,
    params: Any,
    case_sensitive: bool,
    skip_page: int = 0,
    *,
    token: Any,
) -> Generator[Any, None, SearchResult]:
    """Hits on every page but `skip_page` (the window searched it already), plus explanations of misses."""
    from glyphscope.core.analysis import document_analyses
    from glyphscope.inspector.jobs import Progress

    pattern = query_pattern(query, case_sensitive)
    hits: list[Hit] = []
    explanations: list[MissExplanation] = []
    total = document.page_count
    pages = [n for n in range(1, total + 1) if n != skip_page]
    searched = 0
    token.check()
    yield Progress(0, total, f"searching {len(pages)} page(s)")
    # A page that fails is skipped (on_error), never ends the search; only `mode` is assembled.
    for analysis in document_analyses(
        document, pages, params, mode=mode, should_stop=lambda: token.cancelled, on_error=_skip_page
    ):
        n = analysis.page_number
        view = text_view(mode, analysis.texts[mode])
        searched += 1
        found = find_in_text(n, view.text, pattern, hidden_note(analysis.classified, analysis.texts[mode]))
        hits.extend(found)
        if not found:
            explanation = explain_miss(
                n,
                analysis.page.glyphs,
                analysis.classified,
                view,
                query,
                case_sensitive,
                analysis.page.annotations,
            )
            if explanation is not None and explanation.found_in_glyphs:
                explanations.append(explanation)
        token.check()
        yield Progress(n, total, f"searched page {n} of {total}")
    token.check()  # a cancelled search ends with Cancelled, not with a partial result
    yield Progress(total, total, "done")
    return SearchResult(query, mode, tuple(hits), tuple(explanations), searched)


def _skip_page(page_number: int, exc: Exception) -> None:
    """A page whose analysis fails is not searched (its neighbours are)."""
