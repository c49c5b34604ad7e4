"""`pip install glyphscope` without the gui extra: every headless command works, the window
says in one line how to get it. Simulated in fresh interpreters where PySide6 and shiboken6
cannot be imported (a sitecustomize installs a meta-path finder that refuses them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

REPO = Path(__file__).resolve().parents[1]

BLOCK_QT = '''
import sys

class _NoQt:
    """As if PySide6 were not installed: the headless install (no gui extra)."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _NoQt())
'''


@pytest.fixture
def no_qt(tmp_path: Path):
    """Run `python -m glyphscope ARGV` where Qt cannot be imported: (exit code, stdout, stderr)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCK_QT)
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM",)}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(REPO)])

    def run(*argv: str) -> tuple[int, str, str]:
        proc = subprocess.run(
            [sys.executable, "-m", "glyphscope", *argv],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            timeout=300,
        )
        return proc.returncode, proc.stdout.decode(), proc.stderr.decode()

    return run


def test_the_blocker_really_hides_qt(no_qt, tmp_path: Path) -> None:
    code, _, stderr = no_qt("--version")
    assert code == 0, stderr
    check = subprocess.run(
        [sys.executable, "-c", "import PySide6"],
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site")},
        capture_output=True,
    )
    assert check.returncode != 0 and b"No module named 'PySide6'" in check.stderr


def test_the_window_without_the_gui_extra_says_how_to_install_it(no_qt, demo_pdf: Path) -> None:
    for argv in ([str(demo_pdf)], []):
        code, stdout, stderr = no_qt(*argv)
        assert code == 2
        assert stdout == ""
        assert stderr.splitlines() == [
            "glyphscope: the window needs the gui extra: pip install 'glyphscope[gui]'"
        ]


def test_render_without_qt_writes_pdfiums_page(no_qt, demo_pdf: Path, tmp_path: Path) -> None:
    out = tmp_path / "p1.png"
    code, stdout, stderr = no_qt("render", str(demo_pdf), "--page", "1", "--layers", "none", "-o", str(out))
    assert code == 0 and stderr == "", stderr
    assert stdout == f"page 1 (1224×1584 px, layers: none) written to {out}\n"
    with Image.open(out) as image:
        assert image.size == (1224, 1584)  # the Letter MediaBox at the default 2 px/pt
        grey = image.convert("L")
        # the title "glyphscope demo — overview" is black text at the top left, the margin white
        assert grey.getpixel((5, 5)) == 255
        assert grey.crop((140, 80, 520, 110)).getextrema()[0] < 60


def test_render_with_layers_without_qt_draws_the_overlays_with_pillow(
    no_qt, demo_pdf: Path, tmp_path: Path
) -> None:
    """No Qt: the registry's shapes are drawn by Pillow. Page 7's culled slug lines are
    underlined in the culled layer's red (#d32f2f): pixels the plain render has not."""
    plain, layered = tmp_path / "plain.png", tmp_path / "layered.png"
    code, _, stderr = no_qt(
        "render", str(demo_pdf), "--page", "7", "--scale", "1", "--layers", "none", "-o", str(plain)
    )
    assert code == 0 and stderr == "", stderr
    code, stdout, stderr = no_qt(
        "render", str(demo_pdf), "--page", "7", "--scale", "1", "--layers", "culled", "-o", str(layered)
    )
    assert code == 0 and stderr == "", stderr
    assert "layers: culled" in stdout

    def pixels(path: Path) -> list[tuple[int, ...]]:
        with Image.open(path) as image:
            data = image.convert("RGB").tobytes()
        return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]

    with Image.open(layered) as a, Image.open(plain) as b:
        assert a.size == b.size == (700, 900)  # page 7's MediaBox at 1 px/pt
    changed = [q for p, q in zip(pixels(plain), pixels(layered), strict=True) if p != q]
    strong = [1 for r, g, b in changed if r > 150 and g < 120 and b < 120]
    assert len(strong) >= 20  # the underlines, in the layer's red
    assert all(r > g and r > b for r, g, b in changed)  # and nothing but red tints changed


def test_triage_html_without_qt_has_page_images(no_qt, demo_pdf: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    code, _, stderr = no_qt("triage", str(demo_pdf), "--html", str(out))
    assert code == 0, stderr
    assert "warning" not in stderr  # the images have their overlays, drawn by Pillow
    html = out.read_text("utf-8")
    assert html.count("data:image/png;base64,") >= 1


def test_text_and_glyphs_without_qt(no_qt, demo_pdf: Path) -> None:
    code, stdout, stderr = no_qt("text", str(demo_pdf), "--pages", "1")
    assert code == 0, stderr
    assert stdout.startswith("Page 1") or "glyphscope demo" in stdout
    code, stdout, stderr = no_qt("glyphs", str(demo_pdf), "--page", "2", "--json")
    assert code == 0 and stdout.startswith(("{", "[")), stderr
