"""The forms recorder: every Form XObject drawn, and how many of its glyphs fell outside its /BBox."""

from __future__ import annotations

from glyphscope.core.geometry import Matrix, Rect
from glyphscope.core.glyph_table import GEOM_STRIDE
from glyphscope.core.page import FormUse
from glyphscope.core.recorders.base import InterpreterView, Recorder


class FormRecorder(Recorder):
    """One `FormUse` per Do of a form, with the glyphs it painted itself (not its nested forms')."""

    def __init__(self) -> None:
        self.uses: list[FormUse] = []
        # per use: (its /BBox in form space, user → form space, runs of the page when it began)
        self._open: dict[int, tuple[Rect | None, Matrix | None, int]] = {}

    def start(self, interp: InterpreterView) -> None:
        self.interp = interp

    def form_begun(self, use: FormUse, bbox: Rect | None, inverse: Matrix | None) -> None:
        self._open[len(self.uses)] = (bbox, inverse, len(self.interp.glyph_table.runs))
        self.uses.append(use)

    def form_ended(self, use_index: int) -> None:
        """Count the glyphs of the runs this use painted; mark those whose centre is outside its /BBox."""
        bbox, inv, first_run = self._open.pop(use_index)
        table = self.interp.glyph_table
        runs, starts, geom = table.runs, table.run_start, table.geom
        count = outside = 0
        n = len(table)
        for r in range(first_run, len(runs)):
            if runs[r].form_use != use_index:
                continue
            end = starts[r + 1] if r + 1 < len(runs) else n
            count += end - starts[r]
            if bbox is None or inv is None:
                continue
            for i in range(starts[r], end):
                k = i * GEOM_STRIDE
                # the quad's centre: halfway along its diagonal, corner 0 to corner 2
                x0, y0, x2, y2 = geom[k + 6], geom[k + 7], geom[k + 10], geom[k + 11]
                cx = x0 + (x2 - x0) * 0.5
                cy = y0 + (y2 - y0) * 0.5
                fx = inv[0] * cx + inv[2] * cy + inv[4]
                fy = inv[1] * cx + inv[3] * cy + inv[5]
                if not (bbox[0] <= fx <= bbox[2] and bbox[1] <= fy <= bbox[3]):
                    outside += 1
                    table.outside.add(i)
        use = self.uses[use_index]
        self.uses[use_index] = FormUse(
            use.form_path, use.object_id, use.bbox, use.matrix, use.token_index, count, outside
        )
