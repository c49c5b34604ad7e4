"""The Objects panel over the whole document: linked to the page view both ways, searchable,
and emptied when another document opens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from glyphscope.core.annotations import AnnotationDecision
from glyphscope.inspector.views.objects import STREAM_PREVIEW
from tests.gui.test_object_browser import browser_pdf
from tests.gui_helpers import TIMEOUT, go_to, open_file
from tests.inspector.test_object_tree import BIG_STREAM, rich_pdf


def _open(qtbot: Any, window: Any, tmp_path: Path, data: bytes, name: str = "rich.pdf") -> Any:
    path = tmp_path / name
    path.write_bytes(data)
    open_file(qtbot, window, path)
    window.reveal("objects")
    panel = window.objects_panel
    qtbot.waitUntil(lambda: panel.page_number == window.session.page_number, timeout=TIMEOUT)
    return panel


def _child(panel: Any, node: Any, start: str) -> Any:
    return next(c for c in node.children(panel.session.document) if c.label.startswith(start))


def _top(panel: Any) -> list[str]:
    model = panel.model
    return [model.index(r, 0).data() for r in range(model.rowCount())]


def test_another_document_replaces_everything_of_the_first(qtbot: Any, window: Any, tmp_path: Path) -> None:
    panel = _open(qtbot, window, tmp_path, rich_pdf())
    assert _top(panel)[2:6] == ["Pages (3)", "Form fields (AcroForm) (1)", _top(panel)[4], "Names"]
    assert _top(panel)[4].startswith("Outlines (bookmarks) ")
    panel.find_text("part")
    assert panel.hits.rowCount() == 3 and not panel.hit_list.isHidden()
    panel.go_to_hit(0)
    assert panel.raw.toPlainText() != "" and panel.selected_node().label == "/Title"
    first_root = panel.root

    panel = _open(qtbot, window, tmp_path, browser_pdf(), "second.pdf")
    assert panel.root is not first_root and panel.document_tree.document is window.session.document
    assert _top(panel)[2:6] == [
        "Pages (1)",
        "Form fields (AcroForm): none",
        "Outlines (bookmarks): none",
        "Names: none",
    ]
    assert panel.hits.rowCount() == 0 and panel.hit_list.isHidden() and panel.search.text() == ""
    assert panel.page_number == 1 and panel.selected_node().page == 1 and panel.selected_node().role == "page"
    assert "Page 1" in panel.raw.toPlainText() or "/Type /Page" in panel.raw.toPlainText()
    assert panel.model.rowCount(panel.model.index_of(panel.document_tree.pages)) == 1


def test_a_page_change_reveals_its_node_and_keeps_what_the_user_opened(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    panel = _open(qtbot, window, tmp_path, rich_pdf())
    tree = panel.document_tree
    page1, page2 = tree.pages.children(None)[:2]
    assert panel.selected_node() is page1 and panel.tree.isExpanded(panel.model.index_of(page1))
    outlines = panel.model.index_of(tree.outlines)
    panel.tree.expand(outlines)  # the user opens the outlines
    go_to(qtbot, window, 2)
    qtbot.waitUntil(lambda: panel.page_number == 2, timeout=TIMEOUT)
    assert panel.selected_node() is page2 and panel.tree.isExpanded(panel.model.index_of(page2))
    assert panel.tree.isExpanded(outlines)  # still open
    assert not panel.tree.isExpanded(panel.model.index_of(page1))  # opened by following, closed again
    fonts = _child(panel, page2, "Fonts")
    assert panel.tree.isExpanded(panel.model.index_of(fonts))


def test_selecting_a_page_goes_there_and_an_outline_item_leads_to_its_page(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    panel = _open(qtbot, window, tmp_path, rich_pdf())
    page3 = panel.document_tree.pages.children(None)[2]
    with qtbot.waitSignal(window.page_complete, timeout=TIMEOUT, check_params_cb=lambda n: n == 3):
        panel.select_node(page3)
    assert window.session.page_number == 3
    part_a = panel.document_tree.outlines.children(None)[0]
    panel.select_node(part_a)
    assert window.session.page_number == 3  # selecting reads it; activating goes
    with qtbot.waitSignal(window.page_complete, timeout=TIMEOUT, check_params_cb=lambda n: n == 2):
        panel.tree.activated.emit(panel.model.index_of(part_a))
    assert window.session.page_number == 2


def test_objects_of_the_page_show_on_it(qtbot: Any, window: Any, tmp_path: Path) -> None:
    panel = _open(qtbot, window, tmp_path, rich_pdf())
    session = window.session
    go_to(qtbot, window, 2)
    qtbot.waitUntil(lambda: panel.page_number == 2, timeout=TIMEOUT)
    page2 = panel.page_node()
    glyphs = session.analysis.page.glyphs
    page_glyphs = [g.paint_index for g in glyphs if not g.form_path and g.annotation < 0]
    assert len(page_glyphs) == len("Page 2")
    content = _child(panel, _child(panel, page2, "Content streams"), "[0]")
    panel.select_node(content)
    assert sorted(session.selection) == page_glyphs and session.selection_source == "objects"
    annotation = _child(panel, _child(panel, page2, "Annotations"), "[0]")
    panel.select_node(annotation)
    assert isinstance(session.decision, AnnotationDecision) and session.decision.annotation.index == 0
    qtbot.waitUntil(panel.in_front, timeout=TIMEOUT)  # the window showed details; the browser stays
    session.clear_selection()
    field = panel.document_tree.fields.children(None)[0]
    panel.select_node(field)  # the field's widget is that annotation
    assert isinstance(session.decision, AnnotationDecision) and session.decision.annotation.index == 0
    assert panel.selected_node() is field  # not moved to the annotation node by its own decision
    # The other way: the decision selected elsewhere selects the annotation here.
    session.select_decision(None)
    panel.select_node(page2)
    session.select_decision(session.facts.fates.annotation_decisions[0], "canvas")
    assert panel.selected_node() is annotation


def test_a_font_of_another_page_goes_there_and_selects_its_glyphs(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    panel = _open(qtbot, window, tmp_path, rich_pdf())
    session = window.session
    page3 = panel.document_tree.pages.children(None)[2]
    font = _child(panel, _child(panel, page3, "Fonts"), "/F1")
    with qtbot.waitSignal(window.page_complete, timeout=TIMEOUT, check_params_cb=lambda n: n == 3):
        panel.select_node(font)
    qtbot.waitUntil(lambda: bool(session.selection), timeout=TIMEOUT)
    assert session.page_number == 3 and sorted(session.selection) == list(range(len("Page 3")))
    assert panel.selected_node() is font  # revealing page 3 did not move the selection


def test_going_to_an_object_by_number_and_reading_more_of_a_stream(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    panel = _open(qtbot, window, tmp_path, rich_pdf())
    document = window.session.document
    big = document.pdf.Root.Big.objgen
    panel.search.setText(f"{big[0]} {big[1]} R")
    qtbot.keyClick(panel.search, "\r")
    node = panel.selected_node()
    assert node.value.objgen == big and node.label == "/Big"
    assert panel.label.text().endswith("› /Big")
    shown = panel.raw.toPlainText()
    assert f"… ({BIG_STREAM:,} bytes decoded in all)" in shown and not panel.more.isHidden()
    panel.more.click()
    assert panel.preview == STREAM_PREVIEW * 8 and len(panel.raw.toPlainText()) > len(shown) * 4
    panel.find_text("9998 0 R")
    assert panel.label.text() == "There is no object 9998 0 R in this file."
    assert panel.selected_node() is node


def test_the_columns_share_the_width_until_the_user_sets_it(qtbot: Any, window: Any, tmp_path: Path) -> None:
    from glyphscope.inspector.gui.panels.objects import MIN_OBJECT_COLUMN, OBJECT_SHARE

    window.resize(1280, 800)
    panel = _open(qtbot, window, tmp_path, rich_pdf())

    def fitted() -> int:
        return max(MIN_OBJECT_COLUMN, int(panel.tree.width() * OBJECT_SHARE))

    qtbot.waitUntil(lambda: panel.tree.columnWidth(0) == fitted(), timeout=TIMEOUT)
    assert panel.tree.columnWidth(0) < panel.tree.viewport().width() - 100  # room for the values
    panel.tree.header().resizeSection(0, 123)  # as a drag on the border does
    panel.resize(panel.width() + 40, panel.height())
    qtbot.wait(50)
    assert panel.tree.columnWidth(0) == 123
