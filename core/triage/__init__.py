"""Triage: one row per file saying how much of its text is affected, and a score to sort by.

Qt-free. `triage_file` never raises for a bad file: a file that cannot be
opened (not a PDF, password, damaged beyond repair), that crashes a worker
or that runs out of its time budget becomes a row with `error` set and the
top score, so it sorts first. `triage_paths` expands folders and runs the
files, in parallel processes when `jobs > 1`.

One module per job:

* `scoring` — the score formula and its weights (read its docstring);
* `records` — `TriageRow`, `PageScore`, `TriageFinding`, `failed_row`, `sort_rows`;
* `collect` — one file: each page's product (`core.analysis.analyze_page`) folded into a row;
* `limits` — the time budget per file;
* `inputs` — where the files come from: `expand_paths` (folders, files), patterns, lists, URLs;
* `batch` — many files: `triage_paths` and its worker processes.
"""

from glyphscope.core.triage.batch import ProgressCallback, triage_paths
from glyphscope.core.triage.collect import MAX_FINDINGS_KEPT, WORST_PAGES, PageCollector, triage_file
from glyphscope.core.triage.inputs import expand_paths
from glyphscope.core.triage.rows import (
    MAX_GLYPHS_PER_FINDING,
    PageScore,
    TriageFinding,
    TriageRow,
    failed_row,
    sort_rows,
)
from glyphscope.core.triage.scoring import (
    FAILED_SCORE,
    MAX_FONTS_COUNTED,
    SCORE_WEIGHTS,
    W_CULLED,
    W_DUPLICATES,
    W_ERROR,
    W_FALLBACK,
    W_FONT_WITHOUT_TOUNICODE,
    W_FORMS,
    W_INFO,
    W_UNRESOLVED,
    W_UNTAGGED,
    W_WARNING,
    Tally,
    score,
)
from glyphscope.core.triage.time_limits import HARD_TIMEOUT_GRACE, TIME_BUDGET

__all__ = [
    "FAILED_SCORE",
    "HARD_TIMEOUT_GRACE",
    "MAX_FINDINGS_KEPT",
    "MAX_FONTS_COUNTED",
    "MAX_GLYPHS_PER_FINDING",
    "SCORE_WEIGHTS",
    "TIME_BUDGET",
    "WORST_PAGES",
    "W_CULLED",
    "W_DUPLICATES",
    "W_ERROR",
    "W_FALLBACK",
    "W_FONT_WITHOUT_TOUNICODE",
    "W_FORMS",
    "W_INFO",
    "W_UNRESOLVED",
    "W_UNTAGGED",
    "W_WARNING",
    "PageCollector",
    "PageScore",
    "ProgressCallback",
    "Tally",
    "TriageFinding",
    "TriageRow",
    "expand_paths",
    "failed_row",
    "score",
    "sort_rows",
    "triage_file",
    "triage_paths",
]
