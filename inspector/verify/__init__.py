"""The ink as ground truth: OCR of the rendered page against the glyphs, verdicts per font and page."""
