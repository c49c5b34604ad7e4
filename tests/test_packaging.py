"""The wheel as pipx would install it: one import name, the demo inside, a working command.

Builds the wheel from this checkout, installs it without dependencies into a fresh
venv (the dependencies come from the test environment through a .pth file, so the
test needs no download of Qt) and runs the installed `glyphscope` from a folder
outside the repository, where nothing of the source tree can shadow the install.
"""

from __future__ import annotations

import email
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    build = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if build.returncode != 0 and "Could not find a version that satisfies" in build.stdout + build.stderr:
        pytest.skip("no package index reachable for the isolated build environment")
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    (found,) = out.glob("glyphscope-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("venv") / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
        check=True,
        timeout=300,
    )
    fresh_site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # pikepdf, pdfminer.six, fontTools from the test environment (appended after the fresh site).
    (fresh_site / "_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


def _run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(
        [str(venv / "bin" / "glyphscope"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_wheel_has_one_import_name_the_demo_and_the_license(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        top = {n.split("/")[0] for n in names}
        dist_info = next(t for t in top if t.endswith(".dist-info"))
        data = next(t for t in top if t.endswith(".data"))
        assert top == {"glyphscope", dist_info, data}
        # the man page, into the environment's share/man/man1 (`man glyphscope`)
        assert f"{data}/data/share/man/man1/glyphscope.1" in names
        assert "glyphscope/assets/demo.pdf" in names
        # the desktop entry and its icon (python -m glyphscope.desktop installs them)
        assert {"glyphscope/assets/glyphscope.desktop", "glyphscope/assets/glyphscope.svg"} <= set(names)
        assert any(n.startswith("glyphscope/inspector/schemas/") for n in names)
        assert f"{dist_info}/licenses/LICENSE" in names
        assert "Apache License" in zf.read(f"{dist_info}/licenses/LICENSE").decode()
        meta = email.message_from_bytes(zf.read(f"{dist_info}/METADATA"))
        entry_points = zf.read(f"{dist_info}/entry_points.txt").decode()
    assert meta["License-Expression"] == "Apache-2.0"
    assert "Typing :: Typed" in (meta.get_all("Classifier") or [])
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Source", "Issues", "Changelog", "Documentation"} <= set(urls)
    assert "glyphscope = glyphscope.__main__:main" in entry_points
    assert "[gui_scripts]\nglyphscope-gui = glyphscope.__main__:main" in entry_points
    requires = meta.get_all("Requires-Dist") or []
    # headless by default: PDFium + Pillow draw pages; Qt only with the gui extra, and no QtPdf at all
    base = [r for r in requires if "extra ==" not in r]
    assert any(r.lower().startswith("pypdfium2") for r in base)
    assert any(r.lower().startswith("pillow") for r in base)
    assert not any("pyside" in r.lower() or "shiboken" in r.lower() for r in base), base
    qt = [r for r in requires if "pyside" in r.lower()]
    assert qt and all(
        'extra == "gui"' in r and r.lower().startswith(("pyside6-essentials", "pyside6_essentials"))
        for r in qt
    ), qt
    for module in (
        "glyphscope/core/",
        "glyphscope/inspector/cli/parser.py",
        "glyphscope/inspector/gui/main_window.py",
    ):
        assert any(n.startswith(module) for n in names), module


def test_installed_command_reports_its_version_and_reads_the_demo(installed: Path, tmp_path: Path) -> None:
    from glyphscope import __version__

    version = _run(installed, "--version", cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"glyphscope {__version__}"

    python = installed / "bin" / "python"
    where = subprocess.run(
        [str(python), "-c", "import glyphscope; print(glyphscope.__file__); print(glyphscope.demo_pdf())"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(Path(p).is_relative_to(installed) for p in where), where
    demo = Path(where[1])
    assert demo.is_file() and demo.stat().st_size == (REPO / "assets" / "demo.pdf").stat().st_size

    text = _run(installed, "text", str(demo), "--pages", "2", cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert "PDF Reference Manual" in text.stdout

    module = subprocess.run(
        [str(python), "-m", "glyphscope", "--version"], cwd=tmp_path, capture_output=True, text=True
    )
    assert module.stdout.strip() == f"glyphscope {__version__}"


def test_the_sdist_holds_the_docs_the_changelog_and_what_the_readme_links_to(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    import re
    import tarfile

    out = tmp_path_factory.mktemp("sdist")
    build = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if build.returncode != 0 and "Could not find a version that satisfies" in build.stdout + build.stderr:
        pytest.skip("no package index reachable for the isolated build environment")
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    (found,) = out.glob("glyphscope-*.tar.gz")
    with tarfile.open(found) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for needed in ("CHANGELOG.md", "mkdocs.yml", "docs/api.md", "docs/pdfplumber.md", "man/glyphscope.1"):
        assert needed in names, needed
    readme = (REPO / "README.md").read_text("utf-8")
    linked = {m for m in re.findall(r"\]\(([^)#]+)\)", readme) if "://" not in m}
    assert linked and not linked - names, sorted(linked - names)[:5]
