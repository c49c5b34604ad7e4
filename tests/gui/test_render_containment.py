"""The renderer cannot take the window or `render` down.

PDFium runs in a child process (inspector.render.worker). These tests swap that child for small
stand-ins that crash, hang, run out of memory or answer "no image", and check that the
page then shows "could not be rendered: <reason>" over a blank page with its overlays,
that the window stays usable, and that page sizes are checked before they reach Qt.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pikepdf
import pytest

from glyphscope.core.page import PageBoxes
from glyphscope.inspector.render import renderer as rendering
from glyphscope.inspector.render.renderer import (
    MAX_PAGE_SIDE,
    MAX_RENDER_PIXELS,
    RenderFailed,
    RenderProcess,
    RenderService,
    clamp_scale,
    frame_boxes,
    media_display_size,
    page_size_problem,
    render_pixels,
)
from tests.gui_helpers import go_to, open_file
from tests.pdfbuild import helvetica

REPO = Path(__file__).resolve().parents[2]
HUGE = "340000000000000000000000000000000000000.0"  # 3.4e38 written as a PDF real


def worker(body: str) -> list[str]:
    """A stand-in renderer: Python reading the first request's length, then doing `body`."""
    prelude = "import os, sys, time\nsys.stdin.buffer.read(4)\n"
    return [sys.executable, "-c", prelude + textwrap.dedent(body)]


CRASHES = worker("os.abort()")
HANGS = worker("time.sleep(120)")
BAD_ALLOC = worker(
    """
    sys.stderr.write("terminate called after throwing an instance of 'std::bad_alloc'\\n")
    sys.stderr.flush()
    os.abort()
    """
)
NO_IMAGE = [
    sys.executable,
    "-c",
    "import sys\n"
    "from glyphscope.inspector.render.worker import read_message, write_message\n"
    "while read_message(sys.stdin.buffer) is not None:\n"
    "    write_message(sys.stdout.buffer, {'ok': False, 'reason': 'PDFium returned no image'})\n",
]


def text_pdf(path: Path, media: str = "[0 0 612 792]", glyphs: int = 10, pages: int = 1) -> Path:
    pdf = pikepdf.new()
    font = helvetica(pdf)
    for _ in range(pages):
        text = ("x" * glyphs).encode()
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=pikepdf.Object.parse(media.encode()),
            Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
            Contents=pdf.make_stream(b"BT /F1 6 Tf 20 700 Td (" + text + b") Tj ET"),
        )
        pdf.pages.append(pikepdf.Page(page))
    pdf.save(path)
    return path


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch):
    """Install a RenderService built from a command (and a time limit) as the process's renderer."""
    made: list[RenderService] = []

    def install(command: list[str], time_limit: float = 20.0) -> RenderService:
        svc = RenderService(command, processes=1, time_limit=time_limit)
        monkeypatch.setattr(rendering, "_service", svc)
        made.append(svc)
        return svc

    yield install
    for svc in made:
        svc.close()


def one_page(tmp_path: Path) -> bytes:
    return rendering.single_page_pdf(
        pikepdf.open(text_pdf(tmp_path / "p.pdf")),
        1,
        PageBoxes((0, 0, 612, 792), (0, 0, 612, 792), (0, 0, 612, 792), 0),
    )


# -- page size pre-flight ------------------------------------------------------------------------


def boxes(media) -> PageBoxes:
    return PageBoxes(media, media, media, 0)


@pytest.mark.parametrize(
    "media, problem",
    [
        ((0.0, 0.0, 612.0, 792.0), None),
        ((0.0, 0.0, MAX_PAGE_SIDE, MAX_PAGE_SIDE), None),
        ((0.0, 0.0, 3.4e38, 3.4e38), "3.4e+38 × 3.4e+38 pt, over the PDF limit of 14,400 pt a side"),
        ((0.0, 0.0, 14_401.0, 10.0), "over the PDF limit"),
        ((0.0, 0.0, float("inf"), 792.0), "not a finite rectangle"),
        ((0.0, float("nan"), 612.0, 792.0), "not a finite rectangle"),
        ((5.0, 5.0, 5.0, 792.0), "empty"),
    ],
)
def test_page_sizes_are_validated_and_clamped_before_qt(media, problem) -> None:
    b = boxes(media)
    found = page_size_problem(b)
    assert (found is None) == (problem is None) and (problem is None or problem in found)
    frame = frame_boxes(b)
    w, h = media_display_size(frame)
    assert 1.0 <= w <= MAX_PAGE_SIDE and 1.0 <= h <= MAX_PAGE_SIDE
    for scale in (2.0, 64.0, float("nan"), float("inf"), -1.0, 0.0):
        s = clamp_scale(b, scale)
        pw, ph = render_pixels(b, scale)
        assert s >= rendering.MIN_RENDER_SCALE and s == s and s != float("inf")
        assert 1 <= pw * ph <= MAX_RENDER_PIXELS * 1.01


def test_an_oversized_mediabox_is_cut_near_the_origin() -> None:
    assert frame_boxes(boxes((0.0, 0.0, 3.4e38, 3.4e38))).media_box == (
        0.0,
        0.0,
        MAX_PAGE_SIDE,
        MAX_PAGE_SIDE,
    )
    assert frame_boxes(boxes((-3.4e38, 0.0, 3.4e38, 792.0))).media_box == (0.0, 0.0, MAX_PAGE_SIDE, 792.0)
    assert frame_boxes(boxes((1e30, 1e30, 2e30, 2e30))).media_box == rendering.FALLBACK_FRAME


# -- the renderer process ------------------------------------------------------------------------


def test_real_renderer_process_renders_and_stays_warm(tmp_path) -> None:
    process = RenderProcess()
    try:
        data = one_page(tmp_path)
        first = process.render(data, 306, 396)
        pid = process.pid
        second = process.render(data, 612, 792)
        assert (first.width, first.height) == (306, 396)
        assert (second.width, second.height) == (612, 792)
        assert process.pid == pid and process.starts == 1  # one warm child for both
        image = second.to_pil()
        assert image.mode == "RGBA" and image.getpixel((5, 5)) == (255, 255, 255, 255)  # the page's white
        # the text "xxxxxxxxxx" at (20, 700) pt: dark pixels at (20.., 92) px from the top
        assert min(sum(image.getpixel((x, 90))[:3]) for x in range(20, 60)) < 300
    finally:
        process.stop()


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="reads /proc/PID/limits (Linux)")
def test_the_renderer_process_runs_under_a_memory_limit(tmp_path) -> None:
    """PDFium allocating without bound fails in its own process (bad_alloc), not on the machine:
    its address space is limited to 4 GiB."""
    from glyphscope.inspector.render.worker import MEMORY_LIMIT

    process = RenderProcess()
    try:
        process.render(one_page(tmp_path), 10, 10)  # the child is up and has set its limit
        limits = Path(f"/proc/{process.pid}/limits").read_text()
        line = next(x for x in limits.splitlines() if x.startswith("Max address space"))
        assert int(line.split()[3]) <= MEMORY_LIMIT
    finally:
        process.stop()


@pytest.mark.parametrize(
    "command, reason",
    [
        (CRASHES, "the renderer crashed (SIGABRT)"),
        (BAD_ALLOC, "the renderer ran out of memory"),
        (NO_IMAGE, "PDFium returned no image"),
    ],
)
def test_renderer_failures_become_one_line_reasons(tmp_path, command, reason) -> None:
    process = RenderProcess(command)
    try:
        with pytest.raises(RenderFailed) as failed:
            process.render(one_page(tmp_path), 100, 100)
        assert reason in str(failed.value) and "\n" not in str(failed.value)
    finally:
        process.stop()


def test_a_hanging_renderer_is_killed_at_its_time_limit(tmp_path) -> None:
    process = RenderProcess(HANGS)
    try:
        t = time.monotonic()
        with pytest.raises(RenderFailed, match=r"the renderer took longer than 1 s"):
            process.render(one_page(tmp_path), 100, 100, time_limit=1.0)
        assert time.monotonic() - t < 60.0  # killed at its limit, long before its 120 s sleep ends
        assert process.pid is None  # killed and forgotten: the next render starts a new child
    finally:
        process.stop()


def test_a_cancelled_render_stops_its_process_after_the_grace(tmp_path) -> None:
    process = RenderProcess(HANGS)
    try:
        t = time.monotonic()
        with pytest.raises(RenderFailed, match="rendering was cancelled"):
            process.render(one_page(tmp_path), 100, 100, time_limit=60.0, should_stop=lambda: True)
        assert rendering.CANCEL_GRACE <= time.monotonic() - t < 60.0  # not the 120 s sleep
        assert process.pid is None
    finally:
        process.stop()


def test_a_render_waits_for_a_busy_renderer_a_bounded_time(tmp_path) -> None:
    """Every child held (here by the test itself, so nothing races): the next render fails after
    ACQUIRE_LIMITS time limits with the reason, instead of waiting for ever."""
    svc = RenderService(HANGS, processes=1, time_limit=0.2)
    try:
        with svc.holding() as held:
            t = time.monotonic()
            with pytest.raises(RenderFailed, match=r"all 1 renderer processes stayed busy for 0\.6 s"):
                svc.render(one_page(tmp_path), 100, 100)
            assert rendering.ACQUIRE_LIMITS * 0.2 <= time.monotonic() - t < 30.0
    finally:
        svc.close()
    assert held.pid is None  # never started: the test only held it


def test_the_renderer_restarts_after_a_crash(tmp_path) -> None:
    marker = tmp_path / "crashed-once"
    command = worker(
        f"""
        marker = {str(marker)!r}
        if not os.path.exists(marker):
            open(marker, "w").close()
            os.abort()
        raise SystemExit(1)
        """
    )
    process = RenderProcess(command)
    try:
        with pytest.raises(RenderFailed, match="SIGABRT"):
            process.render(one_page(tmp_path), 100, 100)
        with pytest.raises(RenderFailed, match="exited with status 1"):
            process.render(one_page(tmp_path), 100, 100)
        assert process.starts == 2
    finally:
        process.stop()


def test_the_window_process_never_loads_pdfium(tmp_path) -> None:
    """Rendering through QtPageRenderer leaves PDFium out of the calling process (it lives in the child)."""
    path = text_pdf(tmp_path / "t.pdf")
    code = (
        "import sys\n"
        "from glyphscope.inspector.gui.rendering import QtPageRenderer\n"
        f"r = QtPageRenderer({str(path)!r})\n"
        "image = r.render(1, r.boxes(1), 1.0)\n"
        "assert image.width() == 612, image.width()\n"
        "assert 'pypdfium2' not in sys.modules and 'PySide6.QtPdf' not in sys.modules\n"
        "print('ok')\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == b"ok", proc.stderr.decode()


# -- the window ----------------------------------------------------------------------------------


def assert_blank_page_with_banner(w, reason: str) -> None:
    canvas = w.canvas
    bundle = w.bundle
    assert bundle is not None and bundle.image is None
    assert bundle.render_error and reason in bundle.render_error
    banner = canvas.message_item
    assert banner.isVisible() and banner.framed
    assert f"Page {bundle.page_number} could not be rendered: " in banner.toPlainText()
    assert reason in banner.toPlainText()
    assert canvas.page_item.pixmap().isNull()  # blank page …
    assert not canvas.page_rect.isEmpty() and canvas.paper.rect() == canvas.page_rect
    glyphs = canvas.layer_items["glyphs"]
    assert bundle.overlays is not None and glyphs.drawing is not None  # … with the overlays drawn
    assert bundle.analysis is not None and len(bundle.analysis.page.glyphs) > 0


def test_window_survives_a_renderer_crash(qtbot, window, demo_pdf, service) -> None:
    service(CRASHES)
    open_file(qtbot, window, demo_pdf)
    assert_blank_page_with_banner(window, "the renderer crashed (SIGABRT)")
    go_to(qtbot, window, 2)  # every page fails the same way, and the window keeps going
    assert_blank_page_with_banner(window, "SIGABRT")
    assert window.text_panels["plain"].isEnabled()


def test_window_survives_a_hanging_renderer(qtbot, window, tmp_path, service) -> None:
    service(HANGS, time_limit=1.0)
    open_file(qtbot, window, text_pdf(tmp_path / "t.pdf"))
    assert_blank_page_with_banner(window, "the renderer took longer than 1 s")


def test_window_shows_a_page_with_an_absurd_mediabox(qtbot, window, tmp_path, recwarn) -> None:
    path = text_pdf(tmp_path / "huge.pdf", media=f"[0 0 {HUGE} {HUGE}]")
    open_file(qtbot, window, path)
    assert_blank_page_with_banner(window, "3.4e+38 × 3.4e+38 pt, over the PDF limit")
    rect = window.canvas.page_rect
    assert rect.width() == MAX_PAGE_SIDE and rect.height() == MAX_PAGE_SIDE
    assert not [w for w in recwarn if "Overflow" in str(w.message)]


def test_window_limits_a_page_over_its_glyph_budget(qtbot, window, tmp_path, monkeypatch) -> None:
    from glyphscope.inspector.gui import workers

    monkeypatch.setattr(workers, "WINDOW_GLYPH_BUDGET", 50)
    open_file(qtbot, window, text_pdf(tmp_path / "dense.pdf", glyphs=120, pages=2))
    bundle = window.bundle
    assert len(bundle.analysis.page.glyphs) == 50  # the first 50, in paint order
    assert [g.paint_index for g in bundle.analysis.page.glyphs] == list(range(50))
    assert bundle.image is not None  # rendered as usual
    banner = window.canvas.message_item
    assert banner.isVisible() and banner.framed
    assert "page 1 has 120 glyphs, over the window's budget of 50" in banner.toPlainText()
    assert window.legend.count("glyphs") == 50
    assert bundle.overlays is not None


# -- glyphscope render ---------------------------------------------------------------------------


def run_cli(*argv: str) -> tuple[int, bytes, str]:
    """In process (tests take `qapp`: a widget application must exist before `render` starts Qt)."""
    from tests.cli_run import run_cli as run_in_process

    return run_in_process(*argv)


def test_render_of_an_absurd_mediabox_is_an_error_with_a_blank_page_saying_why(qapp, tmp_path) -> None:
    path = text_pdf(tmp_path / "huge.pdf", media=f"[0 0 {HUGE} {HUGE}]")
    out = tmp_path / "huge.png"
    code, stdout, stderr = run_cli("render", str(path), "--page", "1", "--scale", "0.1", "-o", str(out))
    assert code == 1  # never a blank image passed off as the page with exit 0
    lines = stderr.splitlines()
    assert lines == [
        "glyphscope: page 1 could not be rendered: its MediaBox is 3.4e+38 × 3.4e+38 pt, "
        f"over the PDF limit of 14,400 pt a side; {out} holds a blank page saying why"
    ]
    assert stdout == b""
    assert out.read_bytes().startswith(b"\x89PNG")


def test_render_success_line_goes_to_stdout_and_quiet_silences_it(qapp, tmp_path, demo_pdf) -> None:
    out = tmp_path / "p.png"
    code, stdout, stderr = run_cli("render", str(demo_pdf), "--page", "2", "--scale", "0.5", "-o", str(out))
    assert code == 0 and stderr == ""
    assert (
        stdout.decode().strip()
        == f"page 2 (306×396 px, layers: culled, duplicates, glyphs, line_breaks, word_gaps) written to {out}"
    )
    code, stdout, stderr = run_cli("render", str(demo_pdf), "--page", "2", "-q", "-o", str(out))
    assert (code, stdout, stderr) == (0, b"", "")


def test_a_renderer_crash_is_an_error_exit(qapp, tmp_path, demo_pdf, service) -> None:
    service(CRASHES)
    out = tmp_path / "p.png"
    code, stdout, stderr = run_cli("render", str(demo_pdf), "--page", "1", "--scale", "0.5", "-o", str(out))
    assert code == 1 and "Traceback" not in stderr and stdout == b""
    assert stderr.splitlines() == [
        f"glyphscope: page 1 could not be rendered: the renderer crashed (SIGABRT); {out} holds a blank "
        "page saying why"
    ]
    assert out.exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="address-space limits: Linux")
def test_render_under_an_address_space_limit(tmp_path, demo_pdf) -> None:
    """Under `ulimit -v` 3 GiB the whole `render` (PDFium's process included) still draws the page."""
    import resource

    limit = 3 << 30

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    out = tmp_path / "p.png"
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "glyphscope",
            "render",
            str(demo_pdf),
            "--page",
            "1",
            "--scale",
            "0.5",
            "-o",
            str(out),
        ],
        env=env,
        capture_output=True,
        timeout=120,
        preexec_fn=limited,
    )
    stderr = proc.stderr.decode()
    assert proc.returncode == 0, stderr
    lines = stderr.splitlines()
    assert lines == [], stderr  # PDFium (unlike QtPdf, which reserved > 32 GB) fits in the limit
    assert out.read_bytes().startswith(b"\x89PNG")
    assert proc.stdout.decode().startswith("page 1 (306×396 px")
