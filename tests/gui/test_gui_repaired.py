"""The window on a file whose page tree qpdf refuses: the renderer recovers the same pages."""

from __future__ import annotations

from tests.core.test_page_tree_repair import looped_tree, trailer_without_root
from tests.gui_helpers import open_file


def test_a_looped_page_tree_is_drawn_with_its_text(qtbot, window, tmp_path):
    path = tmp_path / "loop.pdf"
    path.write_bytes(looped_tree())
    open_file(qtbot, window, path)
    bundle = window.bundle
    assert bundle.render_error is None and bundle.image is not None and not bundle.image.isNull()
    assert bundle.analysis.texts["plain"].text == "First page"
    assert window.session.page_count == 2


def test_a_file_without_root_is_drawn_too(qtbot, window, tmp_path):
    path = tmp_path / "noroot.pdf"
    path.write_bytes(trailer_without_root())
    open_file(qtbot, window, path)
    assert window.bundle.render_error is None and window.bundle.image is not None


def test_a_page_the_renderer_cannot_open_is_blank_with_its_overlays(qtbot, window, tmp_path, monkeypatch):
    from glyphscope.inspector.gui import rendering

    def refuse(self):
        raise RuntimeError("renderer handle refused")

    monkeypatch.setattr(rendering.QtPageRenderer, "_open", refuse)
    path = tmp_path / "loop.pdf"
    path.write_bytes(looped_tree())
    open_file(qtbot, window, path)
    bundle = window.bundle
    assert bundle.render_error == "could not be rendered: RuntimeError: renderer handle refused"
    assert bundle.analysis.texts["plain"].text == "First page"
    assert bundle.boxes.media_box == bundle.analysis.page.boxes.media_box
